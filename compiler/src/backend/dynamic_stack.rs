//! Dynamic stack allocation below the IR (`dynalloca`, `stacksave`, `stackrestore`):
//! the rules all four backends share.
//!
//! Why it exists: every backend addresses its fixed frame (allocas, spill slots,
//! parameter homes) from the stack pointer, which never moves in a function without
//! dynamic allocation. A `dynalloca` moves it, so a function that holds one of the three
//! instructions (a *dynamic function*) addresses its fixed frame from the frame pointer
//! instead, at the same slots: `fp + (offset - sp_below_fp)`, where `sp_below_fp` is how
//! far the prologue left sp below the frame pointer. The outgoing-argument area stays at
//! the bottom of the stack (stack arguments are stored at `0(sp)`, `8(sp)`...), so a new
//! object goes right above it, as gcc places its `alloca`s (`virtual_stack_dynamic_rtx`
//! is `sp + outgoing`):
//! ```text
//!   before:  sp -> [outgoing area] [older objects or the fixed frame ...]
//!   after:   sp' = sp - S -> [outgoing area] [the new object, S bytes] [older ...]
//! ```
//! where S is [`ROUND`]-rounded, so sp stays aligned for calls. The object starts at
//! `sp' + outgoing` (rounded up to its alignment when that exceeds 16).
//!
//! Invariants (each backend's `Frame` keeps them for a dynamic function):
//! - the outgoing area of a dynamic function is a multiple of 16 bytes
//!   ([`outgoing_bytes`]), so `sp' + outgoing` is 16-aligned;
//! - `S = (size + max(align, 16) - 1) & -16`: a 16-aligned object needs
//!   `round_up(size, 16)`, a more aligned one up to `align - 16` bytes of padding below it;
//!   so `[object, object + size)` lies within `[sp' + outgoing, sp + outgoing)` and never
//!   overlaps an older object;
//! - `stacksave` is sp's value and `stackrestore` sets sp to it: what was allocated after
//!   the save is freed, the outgoing area is again at the bottom;
//! - a dynamic function never realigns its stack in the prologue (an over-aligned fixed
//!   slot would leave no fixed distance between the frame pointer and the slots): that
//!   combination is a [`super::BackendError`] ([`OVER_ALIGNED_MESSAGE`]);
//! - the epilogue restores sp from the frame pointer (all four backends already do), so
//!   a `ret` frees every object whatever sp was.

use crate::ir::{Inst, IrFunction};

/// The stack pointer's alignment after every dynamic allocation (the ABI's at calls; gcc
/// keeps i686 at 16 too).
pub const ROUND: u64 = 16;

/// The message for a dynamic function whose fixed frame needs more than 16-byte
/// alignment.
pub const OVER_ALIGNED_MESSAGE: &str =
    "dynamic stack allocation in a function with a local aligned beyond 16 bytes is not supported";

/// True when `func` holds a `dynalloca`, `stacksave` or `stackrestore`.
pub fn is_dynamic(func: &IrFunction) -> bool {
    func.blocks
        .iter()
        .any(|b| b.insts.iter().any(Inst::is_dynamic_stack))
}

/// The outgoing-area size a function uses: `bytes`, rounded up to [`ROUND`] in a dynamic
/// function (where new objects start right above the area).
pub fn outgoing_bytes(func: &IrFunction, bytes: u32) -> u32 {
    if is_dynamic(func) {
        bytes.div_ceil(ROUND as u32) * ROUND as u32
    } else {
        bytes
    }
}

/// What a backend adds to the requested size before rounding it down to [`ROUND`]
/// (`S = (size + size_addend(align)) & -16`), and whether the object's address must be
/// rounded up to `align` after `sp' + outgoing` (only beyond 16).
pub fn size_addend(align: u32) -> (i64, bool) {
    let a = u64::from(align).max(ROUND);
    ((a - 1) as i64, a > ROUND)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The invariant the backends rely on, checked over sizes and alignments: the object
    /// fits between `sp' + outgoing` (rounded up to `align`) and `sp + outgoing`, and sp
    /// stays 16-aligned.
    #[test]
    fn the_object_fits_between_the_new_and_the_old_stack_pointer() {
        for align in [1u32, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [0u64, 1, 7, 15, 16, 17, 31, 100, 4095, 4096, 4097] {
                for outgoing in [0u64, 16, 48] {
                    let sp = 0x7fff_0000u64;
                    let (add, round) = size_addend(align);
                    let s = (size + add as u64) & !(ROUND - 1);
                    let new_sp = sp - s;
                    assert_eq!(new_sp % ROUND, 0);
                    let mut object = new_sp + outgoing;
                    if round {
                        object = object.div_ceil(u64::from(align)) * u64::from(align);
                    }
                    assert_eq!(object % u64::from(align), 0, "size {size} align {align}");
                    assert!(object + size <= sp + outgoing, "size {size} align {align}");
                    assert!(object >= new_sp + outgoing);
                }
            }
        }
    }
}
