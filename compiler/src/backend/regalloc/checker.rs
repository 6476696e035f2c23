//! TODO(helper): the checker.
use super::{Allocation, RegisterFile};
use crate::ir::IrFunction;

/// Why an allocation is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    pub message: String,
}

pub fn check(_func: &IrFunction, _regs: &RegisterFile, _alloc: &Allocation) -> Result<(), CheckError> {
    Ok(())
}
