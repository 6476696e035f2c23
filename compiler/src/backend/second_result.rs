//! Records returned in two registers: where a backend may move the second piece
//! (`abi_intrinsics::AbiHi`) without losing it.
//!
//! Why: gcc returns a record of 9 to 16 bytes in two registers (%rax:%rdx, x0:x1, a0:a1);
//! the IR carries the first as the call's result and the second through
//! `@__phi_abi.ret_hi` / `@__phi_abi.result_hi`, which a backend turns into a move into
//! or out of the second register right where they stand. That is sound only if nothing
//! between the call (or the `ret`) and the intrinsic writes that register: the verifier
//! keeps the intrinsics adjacent (`abi_intrinsics::pair_placement_error`), and
//! [`check`] makes sure the call's own result was not allocated to it.
//!
//! The same holds for AArch64's hidden result pointer in x8 (`abi_intrinsics::AbiSret`):
//! `sret_arg` directly before its call, `sret_param` after nothing but the entry block's
//! allocas, none of which may live in x8.
//!
//! Invariant: a function this check accepts has every `result_hi` directly after a call
//! whose result lives elsewhere than `hi`; anything else is a [`BackendError`].

use super::regalloc::{Allocation, Loc, PReg};
use super::BackendError;
use crate::abi_intrinsics::{pair_placement_error, AbiFloatPart, AbiHi, AbiSret};
use crate::ir::{Callee, Inst, IrFunction};
use crate::target::Target;

/// The second-result intrinsic `callee` is, if it is one.
pub fn second_result_intrinsic(callee: &Callee) -> Option<AbiHi> {
    match callee {
        Callee::Direct(name) => AbiHi::by_name(name),
        Callee::Indirect(_) => None,
    }
}

/// The float-part intrinsic `callee` is, if it is one (a record result's float parts
/// beyond the IR result: a move into or out of float result register `reg`, which no
/// allocation ever uses, so no check beyond the verifier's placement is needed).
pub fn float_part_intrinsic(callee: &Callee) -> Option<AbiFloatPart> {
    match callee {
        Callee::Direct(name) => AbiFloatPart::by_name(name),
        Callee::Indirect(_) => None,
    }
}

/// The hidden-pointer intrinsic `callee` is, if it is one.
pub fn sret_intrinsic(callee: &Callee) -> Option<AbiSret> {
    match callee {
        Callee::Direct(name) => AbiSret::by_name(name),
        Callee::Indirect(_) => None,
    }
}

/// Checks `func` under `alloc` for a target whose second result register is `hi` (and
/// whose hidden result pointer has register `sret` of its own, if it has one).
pub fn check(
    target: Target,
    func: &IrFunction,
    alloc: &Allocation,
    hi: PReg,
    sret: Option<PReg>,
) -> Result<(), BackendError> {
    if let Some(message) = pair_placement_error(func) {
        return Err(BackendError::new(target, func, None, message));
    }
    if let (Some(entry), Some(sret)) = (func.blocks.first(), sret) {
        // Only allocas precede `sret_param`: none of them may sit in its register.
        if let Some(at) = entry
            .insts
            .iter()
            .position(|i| AbiSret::of(i) == Some(AbiSret::Param))
        {
            for inst in &entry.insts[..at] {
                if inst.dest().is_some_and(|d| alloc.loc(d) == Loc::Reg(sret)) {
                    return Err(BackendError::new(
                        target,
                        func,
                        Some(inst),
                        "a value defined before the hidden result pointer is read is \
                         allocated to its register"
                            .into(),
                    ));
                }
            }
        }
    }
    for block in &func.blocks {
        for pair in block.insts.windows(2) {
            if AbiHi::of(&pair[1]) != Some(AbiHi::ResultHi) {
                continue;
            }
            if let Inst::Call { dest: Some(d), .. } = &pair[0] {
                if alloc.loc(*d) == Loc::Reg(hi) {
                    return Err(BackendError::new(
                        target,
                        func,
                        Some(&pair[0]),
                        "the first piece of a two-register result is allocated to the \
                         second result register"
                            .into(),
                    ));
                }
            }
        }
    }
    Ok(())
}
