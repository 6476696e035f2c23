//! Constant folding of the float instructions.
//!
//! Why a file of its own: folding a float is only right when it gives, bit for bit, what
//! the target computes at run time, and the rules for that are not the integer ones.
//!
//! What it folds (with [`crate::ir::eval_float`], the IR's meaning):
//! - `fadd fsub fmul fdiv` of two constants, computed in the instruction's own type: an
//!   `f32` operation with `f32` arithmetic, which rounds once. Computing it in `f64` and
//!   rounding to `f32` afterwards happens to give the same result for these four
//!   operations (`f64` has more than 2 * 24 + 2 mantissa bits), but nothing here relies on
//!   that: a longer chain folded in `f64` and rounded at the end (double rounding) would
//!   differ, so every operation is folded separately, in its type;
//! - `fneg` (a sign flip), `fcmp` (IEEE: a NaN makes ordered predicates false and
//!   unordered ones true), `bitcast` (the same bits);
//! - `cast` with a float on one side: integer to float rounds to nearest-even directly
//!   from the integer; `f64` to `f32` rounds to nearest-even (infinity on overflow);
//!   float to integer truncates toward zero.
//!
//! What it never folds, leaving it for run time:
//! - a float-to-integer `cast` whose value is a NaN or does not fit (undefined behaviour);
//! - an arithmetic result or conversion that is a NaN: the IR gives it the default NaN,
//!   but the targets propagate payloads differently, so the folder does not choose one
//!   at compile time (a NaN constant written in the program is kept as written).
//!
//! Mutants: `ConstFoldF32Truncated`, `ConstFoldFcmpOrdered`, `ConstFoldFptruncTruncates`,
//! `ConstFoldIntToFloatTowardZero`.

use crate::ir::eval_float::{self, is_nan};
use crate::ir::{FBinOp, FCmpPred, Inst, IrConst, IrType, Operand};
use crate::mutants::{self, Mutant};

/// The constant a float instruction computes, or `None` (see the module doc).
pub(super) fn fold_float(inst: &Inst) -> Option<IrConst> {
    match inst {
        Inst::FBin {
            op,
            ty,
            lhs: Operand::Const(a),
            rhs: Operand::Const(b),
            ..
        } => {
            let bits = if *ty == IrType::F32 && mutants::enabled(Mutant::ConstFoldF32Truncated) {
                f32_via_f64_truncated(*op, a.bits as u64, b.bits as u64)
            } else {
                eval_float::eval_fbin(*op, *ty, a.bits as u64, b.bits as u64).ok()?
            };
            result(*ty, bits)
        }
        Inst::FNeg {
            ty,
            src: Operand::Const(a),
            ..
        } => IrConst::float_bits(*ty, eval_float::eval_fneg(*ty, a.bits as u64).ok()?),
        Inst::FCmp {
            pred,
            ty,
            lhs: Operand::Const(a),
            rhs: Operand::Const(b),
            ..
        } => {
            let pred = if mutants::enabled(Mutant::ConstFoldFcmpOrdered) {
                ordered_twin(*pred)
            } else {
                *pred
            };
            let holds = eval_float::eval_fcmp(pred, *ty, a.bits as u64, b.bits as u64).ok()?;
            Some(IrConst::new(IrType::I8, holds as i64))
        }
        Inst::Bitcast {
            from,
            src: Operand::Const(a),
            to,
            ..
        } => {
            let bits = eval_float::eval_bitcast(*from, *to, a.bits as u64).ok()?;
            Some(IrConst {
                ty: *to,
                bits: bits as i64,
            })
        }
        Inst::Cast {
            from,
            src: Operand::Const(a),
            to,
            ..
        } if from.is_float() || to.is_float() => {
            let bits = if (*from, *to) == (IrType::F64, IrType::F32)
                && mutants::enabled(Mutant::ConstFoldFptruncTruncates)
            {
                f32_truncated(f64::from_bits(a.bits as u64))
            } else if from.is_integer() && mutants::enabled(Mutant::ConstFoldIntToFloatTowardZero) {
                int_to_float_toward_zero(*from, *to, a.bits as u64)?
            } else {
                eval_float::eval_float_cast(*from, *to, a.bits as u64).ok()?
            };
            if to.is_float() {
                result(*to, bits)
            } else {
                Some(IrConst {
                    ty: *to,
                    bits: bits as i64,
                })
            }
        }
        _ => None,
    }
}

/// A folded float result of type `ty`, unless it is a NaN (left for run time).
fn result(ty: IrType, bits: u64) -> Option<IrConst> {
    if is_nan(ty, bits) {
        None
    } else {
        IrConst::float_bits(ty, bits)
    }
}

/// Mutant: an integer to a float rounded toward zero: the correctly rounded result, moved
/// one ulp toward zero when it rounded away from zero (larger in magnitude than the integer).
fn int_to_float_toward_zero(from: IrType, to: IrType, a: u64) -> Option<u64> {
    let bits = eval_float::eval_float_cast(from, to, a).ok()?;
    let canon = from.canonicalize(a, 8);
    let exact: i128 = if from.is_signed() {
        canon as i64 as i128
    } else {
        canon as i128
    };
    let (value, one_ulp_down) = match to {
        IrType::F32 => {
            let f = f32::from_bits(bits as u32);
            (f as f64, (bits as u32).wrapping_sub(1) as u64)
        }
        _ => (f64::from_bits(bits), bits.wrapping_sub(1)),
    };
    // `value` is an integer (it is at least 1 in magnitude or zero): compare exactly.
    let rounded_away = value != 0.0 && (value.abs() as i128) > exact.abs();
    Some(if rounded_away { one_ulp_down } else { bits })
}

/// Mutant: the unordered predicates as if they were ordered.
fn ordered_twin(pred: FCmpPred) -> FCmpPred {
    match pred {
        FCmpPred::Ueq => FCmpPred::Oeq,
        FCmpPred::Une => FCmpPred::One,
        FCmpPred::Ult => FCmpPred::Olt,
        FCmpPred::Ule => FCmpPred::Ole,
        FCmpPred::Ugt => FCmpPred::Ogt,
        FCmpPred::Uge => FCmpPred::Oge,
        p => p,
    }
}

/// Mutant: `v` narrowed to `f32` toward zero (the extra mantissa bits cut off).
fn f32_truncated(v: f64) -> u64 {
    let nearest = v as f32;
    let chopped = if !v.is_finite() || f64::from(nearest).abs() <= v.abs() {
        nearest
    } else {
        // Rounded away from zero (or overflowed to infinity): one step back toward zero.
        f32::from_bits(nearest.to_bits() - 1)
    };
    u64::from(chopped.to_bits())
}

/// Mutant: an `f32` operation done in `f64`, then narrowed toward zero.
fn f32_via_f64_truncated(op: FBinOp, a: u64, b: u64) -> u64 {
    let (x, y) = (
        f64::from(f32::from_bits(a as u32)),
        f64::from(f32::from_bits(b as u32)),
    );
    let wide = match op {
        FBinOp::FAdd => x + y,
        FBinOp::FSub => x - y,
        FBinOp::FMul => x * y,
        FBinOp::FDiv => x / y,
    };
    f32_truncated(wide)
}
