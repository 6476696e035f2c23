//! The riscv64 backend (RV64GC, Linux LP64 integer calling convention, GNU assembler).
//!
//! Why it exists: it turns a phi-eliminated module into assembly that
//! `riscv64-linux-gnu-gcc -static` links against glibc and `qemu-riscv64` runs, so every
//! stage below the IR can be tested on a second 64-bit instruction set whose integer
//! rules differ from x86's where compilers get them wrong: 32-bit values kept
//! sign-extended by the `*w` instructions (also `u32` ones, at ABI boundaries), 12-bit
//! immediates and `lui` splits, divisions that never trap, ±4 KiB conditional branches.
//!
//! Per function, in order ([`emit_module`]): allocate registers over the IR
//! (`regalloc::allocate` with [`register_file`]), check the allocation (when asked), lay
//! out the frame (`abi`), select instructions (`isel`, constants from `constants`),
//! rewrite far branches and print them (`emit`). The instructions are `inst`'s.
//!
//! The register plan, and why:
//! - scratch, never allocated: t0-t6 — the seven temporaries the ABI gives every
//!   function for free; instruction selection computes in them between reading operands
//!   and writing results (t6 is reserved for addressing frame slots beyond ±2 KiB);
//! - allocatable, in preference order: a0-a7, then s1-s11. Caller-saved registers come
//!   first because most values live between calls, and taking them costs no save in the
//!   prologue; a value live across a call can only take s1-s11 (the allocator keeps it
//!   out of `call_clobbers`), and the prologue saves exactly those it used. Argument
//!   registers being allocatable is what makes call set-up a real parallel move;
//! - never touched: zero, ra (saved by every prologue), sp, gp, tp, s0 (the frame
//!   pointer);
//! - a call clobbers ra, t0-t6 and a0-a7; a `memcpy` nothing allocatable (it copies
//!   through t0 and t3-t5).
//!
//! Seeded bugs wired here: [`crate::mutants::Mutant::Riscv64NarrowParamNotExtended`]
//! (`abi`), `Riscv64DivZeroNoTrap` and `Riscv64I32AddNotWord` (`isel`),
//! `Riscv64LuiNoRounding` (`constants`).
//!
//! Invariants: everything `backend`'s module doc promises (canonical values, operands
//! read before the destination is written, traps, errors instead of panics).

mod abi;
mod constants;
mod dyn_stack;
mod emit;
mod float;
mod float_abi;
mod float_inst;
mod inst;
mod isel;
mod va;

use super::regalloc::{self, RegisterFile};
use super::{data, BackendError, BackendOptions};
use crate::ir::IrModule;
use crate::target::Target;
use inst::Reg;

const RISCV64: Target = Target::Riscv64;

/// The registers as the allocator sees them.
pub fn register_file() -> RegisterFile {
    use Reg::*;
    let pregs = |regs: &[Reg]| regs.iter().map(|r| r.preg()).collect::<Vec<_>>();
    RegisterFile {
        allocatable: pregs(&[
            A0, A1, A2, A3, A4, A5, A6, A7, S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11,
        ]),
        call_clobbers: pregs(&[
            Ra, T0, T1, T2, T3, T4, T5, T6, A0, A1, A2, A3, A4, A5, A6, A7,
        ]),
        memcpy_clobbers: Vec::new(),
        callee_saved: pregs(&[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11]),
        ptr_bytes: 8,
        reg_bytes: 8,
    }
}

/// Compiles `module` to riscv64 assembly.
pub fn emit_module(module: &IrModule, opts: &BackendOptions) -> Result<String, BackendError> {
    let regs = register_file();
    let mut out = String::new();
    let variadic = float_abi::VariadicCallees::of(module);
    emit::emit_header(&mut out);
    for (index, func) in module.functions.iter().enumerate() {
        if func.blocks.is_empty() {
            return Err(BackendError::new(
                RISCV64,
                func,
                None,
                "function without blocks".into(),
            ));
        }
        let alloc = regalloc::allocate(func, &regs, opts.regalloc);
        super::second_result::check(Target::Riscv64, func, &alloc, Reg::A1.preg(), None)?;
        if opts.check_allocation {
            regalloc::check(func, &regs, &alloc)
                .map_err(|e| e.into_backend_error(RISCV64, func))?;
        }
        let frame = abi::Frame::build(func, &alloc, &variadic)?;
        let code = isel::Selector::new(func, index, &alloc, &frame, &variadic).select_function()?;
        emit::emit_function(func, &code.text, &code.rodata, &mut out);
    }
    super::builtin_setjmp::emit_runtime(module, Target::Riscv64, &mut out);
    data::emit_globals(module, RISCV64, &mut out)?;
    emit::emit_trailer(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests;
