//! The AArch64 backend (Linux AAPCS64, GNU assembler, linked `-static`, run under
//! qemu-aarch64).
//!
//! Why it exists: it turns a phi-eliminated module into assembly that
//! `aarch64-linux-gnu-gcc` links against glibc, so every stage below the IR can be tested
//! on a second 64-bit instruction set — one with no trapping divide, 32-bit instruction
//! words (immediates come in narrow encodings), a 16-byte-aligned sp and eight argument
//! registers.
//!
//! Per function, in order ([`emit_module`]): allocate registers over the IR
//! (`regalloc::allocate` with [`register_file`]), check the allocation (when asked),
//! lay out the frame ([`abi::Frame`]), select instructions ([`isel`], calls and
//! parameters in [`abi`]), print them ([`emit`]). Globals come from `backend::data`.
//!
//! The register plan, and why:
//! - scratch, never allocated: x16 and x17 (IP0/IP1: the linker's veneers may clobber
//!   them at a call anyway), x9 and x10 (a third and fourth operand: quotient, memcpy
//!   data and counter), x11 (addresses frame slots whose offset fits no immediate, and
//!   holds the prologue's large sp adjustments);
//! - never touched: x18 (the platform register), x29 (frame pointer), x30 (link
//!   register), sp;
//! - allocatable, in preference order: x12-x15 and x8 (caller-saved, free of every ABI
//!   duty: x8 would carry an indirect result, which phicc never uses because records are
//!   lowered to pointers), then x7..x0 (caller-saved, but calls and returns move values
//!   through them; x0 last because every call result arrives there), then x19-x28
//!   (callee-saved: a value live across a call can only go there, and a function that
//!   uses none saves none). A leaf function therefore usually touches no callee-saved
//!   register, while values that cross calls still find ten;
//! - a call clobbers x0-x17 (all caller-saved registers); a `memcpy` nothing allocatable
//!   (it copies through scratch registers).
//!
//! Invariants: everything `backend`'s module doc promises (canonical values, operands
//! read before the destination is written, traps, errors instead of panics); IR blocks
//! are the labels `.LBB<n>`, invented labels `.L<function index>_<purpose><n>`.

mod abi;
mod dyn_stack;
mod emit;
mod float;
mod float_abi;
mod float_inst;
mod imm;
mod inst;
mod isel;
mod va;

use super::regalloc::{self, PReg, RegisterFile};
use super::{data, BackendError, BackendOptions};
use crate::ir::IrModule;
use crate::target::Target;

const AARCH64: Target = Target::Aarch64;

/// The registers as the allocator sees them (`PReg(n)` is `xn`).
pub fn register_file() -> RegisterFile {
    let pregs = |regs: &[u8]| regs.iter().map(|&r| PReg(r)).collect::<Vec<_>>();
    RegisterFile {
        allocatable: pregs(&[
            12, 13, 14, 15, 8, 7, 6, 5, 4, 3, 2, 1, 0, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
        ]),
        call_clobbers: pregs(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]),
        memcpy_clobbers: Vec::new(),
        callee_saved: pregs(&[19, 20, 21, 22, 23, 24, 25, 26, 27, 28]),
        ptr_bytes: 8,
        reg_bytes: 8,
    }
}

/// Compiles `module` to AArch64 assembly.
pub fn emit_module(module: &IrModule, opts: &BackendOptions) -> Result<String, BackendError> {
    let regs = register_file();
    let mut out = String::new();
    for (index, func) in module.functions.iter().enumerate() {
        if func.blocks.is_empty() {
            return Err(BackendError::new(
                AARCH64,
                func,
                None,
                "function without blocks".into(),
            ));
        }
        let alloc = regalloc::allocate(func, &regs, opts.regalloc);
        super::second_result::check(Target::Aarch64, func, &alloc, PReg(1), Some(PReg(8)))?;
        if opts.check_allocation {
            regalloc::check(func, &regs, &alloc)
                .map_err(|e| e.into_backend_error(AARCH64, func))?;
        }
        let frame = abi::Frame::build(func, &alloc)?;
        let code = isel::Selector::new(func, index, &alloc, &frame).select_function()?;
        emit::emit_function(func, &code, &mut out);
    }
    super::builtin_setjmp::emit_runtime(module, Target::Aarch64, &mut out);
    data::emit_globals(module, AARCH64, &mut out)?;
    emit::emit_trailer(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_and_reserved_registers_are_never_allocatable() {
        let regs = register_file();
        for reserved in [9, 10, 11, 16, 17, 18, 29, 30, 31] {
            assert!(
                !regs.allocatable.contains(&PReg(reserved)),
                "x{reserved} is allocatable"
            );
        }
        // Every allocatable register is either clobbered by calls or saved by callees.
        for r in &regs.allocatable {
            assert!(regs.call_clobbers.contains(r) != regs.callee_saved.contains(r));
        }
    }
}
