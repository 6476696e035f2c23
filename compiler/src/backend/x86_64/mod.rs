//! The x86-64 backend (SysV AMD64, GNU assembler, AT&T syntax).
//!
//! Why it exists: it turns a phi-eliminated module into assembly that the host's gcc
//! links statically against glibc and the host runs directly, so every stage below the
//! IR can be tested on a real CPU.
//!
//! Per function, in order ([`emit_module`]): allocate registers over the IR
//! (`regalloc::allocate` with [`register_file`]), check the allocation (when asked),
//! lay out the frame (`abi`), select instructions (`isel`), print them (`emit`).
//!
//! The register plan:
//! - scratch, never allocated: %rax, %rcx, %rdx, %r11 (instruction selection computes in
//!   them; %rcx holds shift counts, %rdx:%rax division);
//! - allocatable, in preference order: %rbx, %r12-%r15 (callee-saved, good across
//!   calls), then %rsi, %rdi, %r8-%r10 (caller-saved);
//! - %rbp is the frame pointer, %rsp the stack pointer;
//! - a call clobbers %rax, %rcx, %rdx, %rsi, %rdi, %r8-%r11; a `memcpy` nothing
//!   allocatable (it copies through scratch registers).
//!
//! Floats (the first step): a float value lives where an integer of its size lives, its
//! raw bits in an allocated general register or a spill slot (an `f32` zero-extended);
//! XMM registers are never allocated — every float instruction moves its operands into
//! %xmm0/%xmm1, computes with SSE2 and moves the result's bits back (`float`,
//! `backend::x86::float`). A float register class in the allocator is the later
//! improvement. Floats are passed in %xmm0-7 and returned in %xmm0 (`abi`).
//!
//! Invariants: everything `backend`'s module doc promises (canonical values, operands
//! read before the destination is written, traps, errors instead of panics).

mod abi;
mod dyn_stack;
mod emit;
mod float;
mod isel;
mod va;

use super::regalloc::{self, RegisterFile};
use super::x86::Reg;
use super::{data, BackendError, BackendOptions};
use crate::ir::IrModule;
use crate::target::Target;

const X86_64: Target = Target::X86_64;

/// The registers as the allocator sees them.
pub fn register_file() -> RegisterFile {
    use Reg::*;
    let pregs = |regs: &[Reg]| regs.iter().map(|r| r.preg()).collect::<Vec<_>>();
    RegisterFile {
        allocatable: pregs(&[Rbx, R12, R13, R14, R15, Rsi, Rdi, R8, R9, R10]),
        call_clobbers: pregs(&[Rax, Rcx, Rdx, Rsi, Rdi, R8, R9, R10, R11]),
        memcpy_clobbers: Vec::new(),
        callee_saved: pregs(&[Rbx, R12, R13, R14, R15]),
        ptr_bytes: 8,
        reg_bytes: 8,
    }
}

/// Compiles `module` to x86-64 assembly.
pub fn emit_module(module: &IrModule, opts: &BackendOptions) -> Result<String, BackendError> {
    let regs = register_file();
    let mut out = String::new();
    for (index, func) in module.functions.iter().enumerate() {
        if func.blocks.is_empty() {
            return Err(BackendError::new(
                X86_64,
                func,
                None,
                "function without blocks".into(),
            ));
        }
        let alloc = regalloc::allocate(func, &regs, opts.regalloc);
        super::second_result::check(Target::X86_64, func, &alloc, Reg::Rdx.preg(), None)?;
        if opts.check_allocation {
            regalloc::check(func, &regs, &alloc).map_err(|e| e.into_backend_error(X86_64, func))?;
        }
        let frame = abi::Frame::build(func, &alloc)?;
        let code = isel::Selector::new(module, func, index, &alloc, &frame).select_function()?;
        emit::emit_function(func, &code, &mut out);
    }
    super::builtin_setjmp::emit_runtime(module, Target::X86_64, &mut out);
    data::emit_globals(module, X86_64, &mut out)?;
    emit::emit_trailer(&mut out);
    Ok(out)
}
