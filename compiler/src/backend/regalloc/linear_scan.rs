//! TODO(helper): linear scan. Until then: the stack allocator.
use super::{Allocation, RegisterFile};
use crate::ir::IrFunction;

pub(super) fn allocate(func: &IrFunction, regs: &RegisterFile) -> Allocation {
    super::stack::allocate(func, regs)
}
