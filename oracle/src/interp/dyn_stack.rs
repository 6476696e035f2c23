//! The oracle's dynamic stack: `dynalloca`, `stacksave`, `stackrestore`
//! (docs/ir-notes.md, "Dynamic stack allocation").
//!
//! Why it exists: C's variable-length arrays and `alloca` get objects whose size is known
//! only at run time and whose life ends at a block's exit (VLAs) or the function's return
//! (`alloca`). The oracle gives each `dynalloca` a fresh allocation of exactly the size
//! asked (so an access one byte past it is `OutOfBounds`), kept on a stack of the live
//! dynamic objects of all frames (`Machine::dyn_slots`).
//!
//! Invariants:
//! - a `stacksave` token is the number of live dynamic objects at the save plus one,
//!   read as a pointer: it is below every address the memory hands out (the first is
//!   `0x1_0000`), so it designates no object and a load through it is `InvalidPointer`;
//! - `stackrestore t` ends (as `UseAfterScope`) every dynamic object made after the save
//!   that gave `t`; a token from another frame, from a save whose objects were already
//!   restored below it, or not a token at all, is `Undefined(InvalidPointer)`. (Natively
//!   such a restore would move the stack pointer anywhere.);
//! - a frame's return ends all its dynamic objects (`exec.rs`, with its fixed slots), so a
//!   pointer to one kept by the caller is `DeadFrame`.

use super::memory::{AllocKind, Memory};
use crate::outcome::Ub;

/// Tokens are below this (no allocation starts there).
const TOKEN_LIMIT: u64 = 0x1_0000;

/// `dynalloca size, align`: a fresh object; `StackOverflow` past the memory limits (a
/// negative size, read unsigned, is one).
pub(super) fn allocate(
    mem: &mut Memory,
    dyn_slots: &mut Vec<u32>,
    size: u64,
    align: u32,
) -> Result<u64, Ub> {
    let (record, addr) = mem
        .allocate(size, align, AllocKind::Stack)
        .ok_or(Ub::StackOverflow)?;
    dyn_slots.push(record);
    Ok(addr)
}

/// `stacksave` in a frame whose dynamic objects start at `dyn_slots[mark]`.
pub(super) fn save(dyn_slots: &[u32], mark: usize) -> Result<u64, Ub> {
    debug_assert!(mark <= dyn_slots.len());
    let token = dyn_slots.len() as u64 + 1;
    if token >= TOKEN_LIMIT {
        return Err(Ub::StackOverflow);
    }
    Ok(token)
}

/// `stackrestore token` in a frame whose dynamic objects start at `dyn_slots[mark]`.
pub(super) fn restore(
    mem: &mut Memory,
    dyn_slots: &mut Vec<u32>,
    mark: usize,
    token: u64,
) -> Result<(), Ub> {
    let keep = token.checked_sub(1).ok_or(Ub::InvalidPointer)?;
    if keep < mark as u64 || keep > dyn_slots.len() as u64 {
        return Err(Ub::InvalidPointer);
    }
    for record in dyn_slots.drain(keep as usize..) {
        mem.end_dynamic_slot(record);
    }
    Ok(())
}
