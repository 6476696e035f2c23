//! The i686 backend (32-bit x86, i386 System V, non-PIC, linked `-static`).
//!
//! Why it exists: i686 is the one 32-bit target: pointers are 4 bytes, `i64` does not fit
//! a register, and only four registers have byte names — the places where a backend
//! written for 64-bit machines goes wrong.
//!
//! Per function (`emit_function`): allocate ([`register_file`]), check the allocation,
//! lay out the frame (`abi::Frame`), select instructions block by block
//! (`isel`, `wide` for 64-bit operations, `abi` for calls and returns) into the
//! shared x86 instructions (`backend::x86::inst`), and write the text (`emit`, with the
//! shared x86 printer at 4-byte addresses). Globals come from `backend::data`.
//!
//! The register plan: eax, ecx and edx are scratch (never allocated; every instruction
//! computes in them); ebx, esi and edi are allocatable and callee-saved, so a value may
//! live across calls in any register; ebp is the frame pointer; esp addresses the frame.
//! `i64`/`u64` values are `StackOnly` (8-byte slots) because a register is 4 bytes.
//!
//! Floats (the first step, SSE2 as gcc's `-msse2 -mfpmath=sse`): a float lives where an
//! integer of its size lives — an `f32` in a word (register or slot), an `f64` stack-only
//! like `i64`; XMM registers are never allocated: every float instruction moves its
//! operands into %xmm0/%xmm1, computes and moves the result's bits back (`float`,
//! `backend::x86::float`). Float arguments go on the stack (an `f64` in 8 bytes, 4-byte
//! aligned), results in `st(0)` (the callee `fld`s, the caller `fstp`s). A float
//! register class in the allocator is the later improvement.
//!
//! Invariants: the output assembles with `i686-linux-gnu-gcc`; every IR block is the label
//! `.LBB<n>`; labels the backend invents are `.L<function index>_<purpose><n>`; a
//! function is `.globl` unless `static`.

mod abi;
mod dyn_stack;
mod emit;
mod float;
mod isel;
#[cfg(test)]
mod tests;
mod va;
mod wide;

use super::regalloc::{self, RegisterFile};
use super::{data, BackendError, BackendOptions};
use crate::backend::x86::Reg;
use crate::ir::{IrFunction, IrModule};
use crate::target::Target;

/// The registers as the allocator sees them.
pub fn register_file() -> RegisterFile {
    let callee_saved = vec![Reg::Rbx.preg(), Reg::Rsi.preg(), Reg::Rdi.preg()];
    RegisterFile {
        allocatable: callee_saved.clone(),
        call_clobbers: vec![Reg::Rax.preg(), Reg::Rcx.preg(), Reg::Rdx.preg()],
        memcpy_clobbers: Vec::new(),
        callee_saved,
        ptr_bytes: 4,
        reg_bytes: 4,
    }
}

/// Compiles a phi-eliminated module to i686 assembly.
pub fn emit_module(module: &IrModule, opts: &BackendOptions) -> Result<String, BackendError> {
    let regs = register_file();
    let mut out = String::new();
    for (index, func) in module.functions.iter().enumerate() {
        emit_function(func, index, &regs, opts, &mut out)?;
    }
    super::builtin_setjmp::emit_runtime(module, Target::I686, &mut out);
    data::emit_globals(module, Target::I686, &mut out)?;
    emit::emit_trailer(&mut out);
    Ok(out)
}

fn emit_function(
    func: &IrFunction,
    index: usize,
    regs: &RegisterFile,
    opts: &BackendOptions,
    out: &mut String,
) -> Result<(), BackendError> {
    if func.blocks.is_empty() {
        return Err(BackendError::new(
            Target::I686,
            func,
            None,
            "function without blocks".into(),
        ));
    }
    let alloc = regalloc::allocate(func, regs, opts.regalloc);
    if opts.check_allocation {
        regalloc::check(func, regs, &alloc)
            .map_err(|e| e.into_backend_error(Target::I686, func))?;
    }
    function_text(func, index, &alloc, out)
}

/// Selects and writes one function whose values are allocated by `alloc`.
fn function_text(
    func: &IrFunction,
    index: usize,
    alloc: &regalloc::Allocation,
    out: &mut String,
) -> Result<(), BackendError> {
    let frame = abi::Frame::new(func, alloc)?;
    let mut sel = isel::Selector::new(func, index, alloc, &frame);
    for (i, block) in func.blocks.iter().enumerate() {
        let next = func.blocks.get(i + 1).map(|b| b.label);
        sel.select_block(block, next)?;
    }
    let code = emit::FunctionCode {
        prologue: frame.prologue(),
        body: sel.out,
        rodata: sel.rodata,
    };
    emit::emit_function(func, &code, out);
    Ok(())
}
