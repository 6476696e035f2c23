//! Functions that return twice (`setjmp` and its kin) and the GNU `__builtin_setjmp` /
//! `__builtin_longjmp` pair: which calls they are, and what a function calling one of them
//! must be given by the passes and the backends.
//!
//! Why it exists: after `setjmp(env)` returned 0, a `longjmp(env, v)` anywhere below it
//! makes the same call return again, with `v`. Nothing in the IR's control flow shows that
//! second return, so every place that keeps a value somewhere the CFG says is dead — a
//! promoted variable (mem2reg), a register or spill slot given to another value (the
//! register allocator), a callee-saved register a deeper function changed (the prologue)
//! — could hand the resumed function a value that changed behind its back. C 7.13.2.1p3
//! only promises the objects that were not modified since the `setjmp`; gcc keeps even the
//! modified ones in memory (c-torture `pr60003.c` expects it). phicc does the same, in one
//! rule: a function that calls a returns-twice function (a *receiver*, [`calls_returns_twice`])
//!
//! - keeps all its variables in memory: mem2reg promotes nothing in it
//!   (`mem2reg::promote`), so a variable reads what was last stored, on every stage;
//! - is never inlined (`passes::inline`, rule 2): its `setjmp` would land in a caller whose
//!   variables are already promoted;
//! - gets every value its own stack slot and saves every callee-saved register in its
//!   prologue (`backend::regalloc::allocate`): no value lives in a register across the
//!   call, no slot is shared, and the registers the receiver's caller expects preserved
//!   come back from its own save area even when the `longjmp` came from a function that
//!   changed them and the jump buffer does not restore them (`__builtin_setjmp`'s).
//!
//! So the only values a second return can read are ones no stage keeps differently: slots
//! in memory that hold their last store, and SSA values (addresses, copies) that no later
//! instruction reassigns before the resumption reads them. No restriction on where the call
//! appears (C 7.13.1.1p4) is needed for phicc's own correctness: even a temporary live across
//! the call sits in a slot of its own. (gcc accepts `int x = setjmp(env);`, c-torture
//! `pr56982.c`, so phicc does too.)
//!
//! The calls:
//! - libc's `setjmp`, `_setjmp` (`jmp_buf`) and `__sigsetjmp` (`sigjmp_buf`, the macro
//!   `sigsetjmp`), with `longjmp`, `_longjmp`, `siglongjmp`: ordinary declared externals
//!   (`compiler/include/setjmp.h`); natively glibc's, in the static link; in the oracle
//!   `oracle/src/interp/setjmp.rs`.
//! - `%r = call i32 @__phi_sj.builtin_setjmp(ptr %buf)` and
//!   `call void @__phi_sj.builtin_longjmp(ptr %buf, i32 1)`: gcc's `__builtin_setjmp` and
//!   `__builtin_longjmp`, whose buffer is five words (gcc's layout: frame pointer, resume
//!   address, stack pointer; two words unused) and cannot hold a glibc `jmp_buf`. Each
//!   backend emits the two routines once per module that declares them
//!   (`backend::builtin_setjmp`); the oracle runs them like `_setjmp`/`longjmp`, except
//!   that the second return always gives 1.
//!
//! Invariants: [`RETURNS_TWICE`] is the whole set of returns-twice names; a call to one of
//! them through a function pointer is not recognised (its caller would not get the rule
//! above): such a program is outside what phicc supports (docs/ir-notes.md).

use crate::ir::{Callee, Inst, IrDecl, IrFunction, IrType};

/// The IR name of `__builtin_setjmp`.
pub const BUILTIN_SETJMP: &str = "__phi_sj.builtin_setjmp";
/// The IR name of `__builtin_longjmp`.
pub const BUILTIN_LONGJMP: &str = "__phi_sj.builtin_longjmp";

/// Every callee that may return twice.
pub const RETURNS_TWICE: &[&str] = &["setjmp", "_setjmp", "__sigsetjmp", BUILTIN_SETJMP];

/// Whether a direct call to `name` may return twice.
pub fn is_returns_twice(name: &str) -> bool {
    RETURNS_TWICE.contains(&name)
}

/// Whether `func` calls a returns-twice function directly (it is a *receiver*).
pub fn calls_returns_twice(func: &IrFunction) -> bool {
    func.blocks.iter().flat_map(|b| &b.insts).any(|inst| {
        matches!(inst, Inst::Call { callee: Callee::Direct(name), .. } if is_returns_twice(name))
    })
}

/// `declare @__phi_sj.builtin_setjmp(ptr) -> i32`.
pub fn builtin_setjmp_decl() -> IrDecl {
    IrDecl {
        name: BUILTIN_SETJMP.to_string(),
        params: vec![IrType::Ptr],
        variadic: false,
        ret: IrType::I32,
    }
}

/// `declare @__phi_sj.builtin_longjmp(ptr, i32) -> void`.
pub fn builtin_longjmp_decl() -> IrDecl {
    IrDecl {
        name: BUILTIN_LONGJMP.to_string(),
        params: vec![IrType::Ptr, IrType::I32],
        variadic: false,
        ret: IrType::Void,
    }
}

#[cfg(test)]
#[path = "setjmp_intrinsics_tests.rs"]
mod tests;
