//! gcc's `__builtin_setjmp` and `__builtin_longjmp` as two tiny assembly routines per
//! target, emitted once into every module that declares them
//! (`setjmp_intrinsics::BUILTIN_SETJMP` / `BUILTIN_LONGJMP`).
//!
//! Why it exists: the builtins' buffer is gcc's five words — frame pointer, resume
//! address, stack pointer, two unused — too small for a glibc `jmp_buf` (c-torture
//! `pr64242.c` copies exactly five words and jumps through the copy), so libc's `_setjmp`
//! cannot serve. The routines are ordinary functions for the caller:
//! - `__phi_sj.builtin_setjmp(buf)` stores the caller's frame pointer (unchanged on entry:
//!   the routine has no frame), the return address and the stack pointer the caller has
//!   after the call returns, and returns 0;
//! - `__phi_sj.builtin_longjmp(buf, 1)` loads the three, sets the frame and stack
//!   pointers, and jumps to the resume address with 1 in the result register: the
//!   `setjmp` call returns a second time, with 1.
//!
//! Invariants: no callee-saved register is saved or restored here. That is correct only
//! because the receiver (the function calling `__phi_sj.builtin_setjmp`) keeps no value
//! in a register across the call and saves every callee-saved register in its own
//! prologue (`regalloc::allocate`), as gcc does for a `__builtin_setjmp` receiver. The
//! symbols are local to the module (`static`), named with a `.` that no C identifier has.

use crate::ir::IrModule;
use crate::setjmp_intrinsics::{BUILTIN_LONGJMP, BUILTIN_SETJMP};
use crate::target::Target;

const X86_64: &str = "\t.text
\t.type __phi_sj.builtin_setjmp, @function
__phi_sj.builtin_setjmp:
\tmovq %rbp, 0(%rdi)
\tmovq (%rsp), %rax
\tmovq %rax, 8(%rdi)
\tleaq 8(%rsp), %rax
\tmovq %rax, 16(%rdi)
\txorl %eax, %eax
\tret
\t.size __phi_sj.builtin_setjmp, .-__phi_sj.builtin_setjmp
\t.type __phi_sj.builtin_longjmp, @function
__phi_sj.builtin_longjmp:
\tmovq 0(%rdi), %rbp
\tmovq 8(%rdi), %rcx
\tmovq 16(%rdi), %rsp
\tmovl $1, %eax
\tjmp *%rcx
\t.size __phi_sj.builtin_longjmp, .-__phi_sj.builtin_longjmp
";

const I686: &str = "\t.text
\t.type __phi_sj.builtin_setjmp, @function
__phi_sj.builtin_setjmp:
\tmovl 4(%esp), %eax
\tmovl %ebp, 0(%eax)
\tmovl (%esp), %ecx
\tmovl %ecx, 4(%eax)
\tleal 4(%esp), %ecx
\tmovl %ecx, 8(%eax)
\txorl %eax, %eax
\tret
\t.size __phi_sj.builtin_setjmp, .-__phi_sj.builtin_setjmp
\t.type __phi_sj.builtin_longjmp, @function
__phi_sj.builtin_longjmp:
\tmovl 4(%esp), %eax
\tmovl 0(%eax), %ebp
\tmovl 4(%eax), %ecx
\tmovl 8(%eax), %esp
\tmovl $1, %eax
\tjmp *%ecx
\t.size __phi_sj.builtin_longjmp, .-__phi_sj.builtin_longjmp
";

const AARCH64: &str = "\t.text
\t.type __phi_sj.builtin_setjmp, %function
\t.p2align 2
__phi_sj.builtin_setjmp:
\tstr x29, [x0]
\tstr x30, [x0, #8]
\tmov x9, sp
\tstr x9, [x0, #16]
\tmov w0, #0
\tret
\t.size __phi_sj.builtin_setjmp, .-__phi_sj.builtin_setjmp
\t.type __phi_sj.builtin_longjmp, %function
\t.p2align 2
__phi_sj.builtin_longjmp:
\tldr x29, [x0]
\tldr x9, [x0, #8]
\tldr x10, [x0, #16]
\tmov sp, x10
\tmov w0, #1
\tbr x9
\t.size __phi_sj.builtin_longjmp, .-__phi_sj.builtin_longjmp
";

const RISCV64: &str = "\t.text
\t.type __phi_sj.builtin_setjmp, @function
\t.p2align 2
__phi_sj.builtin_setjmp:
\tsd s0, 0(a0)
\tsd ra, 8(a0)
\tsd sp, 16(a0)
\tli a0, 0
\tret
\t.size __phi_sj.builtin_setjmp, .-__phi_sj.builtin_setjmp
\t.type __phi_sj.builtin_longjmp, @function
\t.p2align 2
__phi_sj.builtin_longjmp:
\tld s0, 0(a0)
\tld t0, 8(a0)
\tld sp, 16(a0)
\tli a0, 1
\tjr t0
\t.size __phi_sj.builtin_longjmp, .-__phi_sj.builtin_longjmp
";

/// Appends the two routines for `target` to `out` when `module` declares either builtin.
pub fn emit_runtime(module: &IrModule, target: Target, out: &mut String) {
    let used = module
        .decls
        .iter()
        .any(|d| d.name == BUILTIN_SETJMP || d.name == BUILTIN_LONGJMP);
    if !used {
        return;
    }
    out.push_str(match target {
        Target::X86_64 => X86_64,
        Target::I686 => I686,
        Target::Aarch64 => AARCH64,
        Target::Riscv64 => RISCV64,
    });
}
