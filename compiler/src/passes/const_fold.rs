//! `const_fold`: constant folding.
//!
//! What it does: an instruction whose result is determined by constant operands —
//! `Bin`, `Un`, `Cmp`, `Cast` with all operands constant; a `select` whose condition is a
//! constant and whose chosen arm is a constant; a `phi` whose entries are all the same
//! constant — is evaluated ([`crate::ir::eval`], the oracle's exact semantics) and its
//! value replaces every use directly: the result is a constant of exactly the
//! instruction's result type (`i8` for a comparison, the target type for a cast), and the
//! folded instruction is removed. Replacing uses directly (rather than leaving
//! `copy TYPE const` for copy propagation) lets folds cascade within one run.
//!
//! What it assumes: the function passed the verifier in SSA mode (every use dominated by
//! its definition, value operands of exactly their position's type, phis first).
//! Constants may have another type than their position: they are read at the position's
//! type first, as the interpreter reads them.
//!
//! What it must not do: fold what would trap (division or remainder by zero, `sdiv`/`srem`
//! of MIN by -1) or be undefined (a shift by the width or more) — those stay for run
//! time; fold arithmetic, comparisons or casts on `ptr` (the pointer width belongs to the
//! target); touch anything with an effect (loads, stores, calls); change the CFG.
//!
//! Floats are folded by `const_fold/float.rs`, which says what it folds and what it
//! leaves for run time (NaN results, out-of-range conversions).
//!
//! Mutant `ConstFoldUdivSigned`: `udiv`/`urem` are folded with signed division.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `constant_operands`, with `boundary_divisor` values (MIN, MAX, -1, powers
//!   of two) folded by the oracle's own semantics;
//! - must hold back: a constant division or shift that traps or is undefined (by 0, MIN
//!   / -1, a shift amount of the width or more) is left in place, not folded to a value.

use crate::ir::eval::{self, EvalError};
use crate::ir::substitute::{rewrite_in_dominance_order, Rewrite};
use crate::ir::{BinOp, Inst, IrConst, IrFunction, IrType, Operand};
use crate::mutants::{self, Mutant};

mod float;
#[cfg(test)]
mod tests;

/// Runs the pass on one function; returns the number of instructions folded.
pub fn run(func: &mut IrFunction) -> usize {
    rewrite_in_dominance_order(func, |inst| match fold(inst) {
        Some(c) => Rewrite::Replace(Operand::Const(c)),
        None => Rewrite::Keep,
    })
}

/// The constant `inst` computes, when its operands determine it and a run would compute
/// one (no trap, no undefined behaviour). The constant has exactly `inst`'s result type.
pub fn fold(inst: &Inst) -> Option<IrConst> {
    if let Some(c) = float::fold_float(inst) {
        return Some(c);
    }
    match inst {
        Inst::Bin {
            op,
            ty,
            lhs: Operand::Const(a),
            rhs: Operand::Const(b),
            ..
        } => fold_binop(*op, *ty, *a, *b).ok(),
        Inst::Un {
            op,
            ty,
            src: Operand::Const(a),
            ..
        } => eval::eval_unop(*op, *ty, a.bits as u64)
            .ok()
            .map(|bits| IrConst::new(*ty, bits as i64)),
        Inst::Cmp {
            pred,
            ty,
            lhs: Operand::Const(a),
            rhs: Operand::Const(b),
            ..
        } => eval::eval_cmp(*pred, *ty, a.bits as u64, b.bits as u64)
            .ok()
            .map(|holds| IrConst::new(IrType::I8, holds as i64)),
        Inst::Cast {
            from,
            src: Operand::Const(a),
            to,
            ..
        } => eval::eval_cast(*from, *to, a.bits as u64)
            .ok()
            .map(|bits| IrConst::new(*to, bits as i64)),
        Inst::Select {
            ty,
            cond: Operand::Const(c),
            on_true,
            on_false,
            ..
        } if ty.is_scalar() => {
            // Rule: a condition is true when it is non-zero in its own type (an unsuffixed
            // literal is an i8), like every condition; the bits are canonical for it.
            let chosen = if c.bits != 0 { on_true } else { on_false };
            chosen.as_const().map(|k| IrConst::new(*ty, k.bits))
        }
        Inst::Phi { ty, incoming, .. } if ty.is_scalar() => {
            // Rule: every entry is a constant, and all of them are the same number of `ty`.
            let mut entries = incoming
                .iter()
                .map(|(op, _)| op.as_const().map(|k| IrConst::new(*ty, k.bits)));
            let first = entries.next()??;
            entries.all(|e| e == Some(first)).then_some(first)
        }
        _ => None,
    }
}

/// `a OP b` at `ty` as a constant of `ty`, or why it has no value.
fn fold_binop(op: BinOp, ty: IrType, a: IrConst, b: IrConst) -> Result<IrConst, EvalError> {
    let (a, b) = (a.bits as u64, b.bits as u64);
    let bits = match op {
        BinOp::UDiv | BinOp::URem if mutants::enabled(Mutant::ConstFoldUdivSigned) => {
            let signed = if op == BinOp::UDiv {
                BinOp::SDiv
            } else {
                BinOp::SRem
            };
            eval::eval_binop(signed, ty, a, b)?
        }
        _ => eval::eval_binop(op, ty, a, b)?,
    };
    Ok(IrConst::new(ty, bits as i64))
}
