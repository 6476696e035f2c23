//! The stack allocator (`--regalloc=stack`): every value in its own spill slot.
//!
//! Why it exists: it cannot get interference wrong, so the native run of its code is a
//! differential reference for the linear-scan allocator's (`native:x86_64` against
//! `native:x86_64/stack`): a difference between them is an allocator (or isel-with-
//! registers) bug, not a front-end or middle-end one.
//!
//! Invariants: one slot per value number, shaped by `RegisterFile::slot_shape` of the
//! value's type; no register is ever used, so no callee-saved register needs saving.

use super::{Allocation, Loc, RegisterFile, SpillSlot};
use crate::ir::IrFunction;

pub(super) fn allocate(func: &IrFunction, regs: &RegisterFile) -> Allocation {
    let types = super::all_value_types(func);
    let mut locs = vec![None; types.len()];
    let mut spill_slots = Vec::new();
    for (v, ty) in types.iter().enumerate() {
        if let Some(ty) = ty {
            locs[v] = Some(Loc::Spill(SpillSlot(spill_slots.len() as u32)));
            spill_slots.push(regs.slot_shape(*ty));
        }
    }
    Allocation {
        locs,
        types,
        spill_slots,
        used_callee_saved: Vec::new(),
    }
}
