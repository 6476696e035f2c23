//! Constant evaluation of the float instructions, with exactly the meaning
//! `docs/ir-notes.md` gives them (the oracle implements the same meaning on its own, in
//! `oracle/src/interp/float.rs`, and `oracle/tests/float_eval.rs` compares the two).
//!
//! Why: the constant folder must compute, bit for bit, the value a run computes, and must
//! know when a run computes none (a float-to-integer conversion out of range is undefined).
//!
//! The meaning, in short:
//! - `fadd fsub fmul fdiv` are IEEE 754 operations in the instruction's own type, rounded
//!   to nearest-even: an `f32` operation is computed with `f32` arithmetic, never in `f64`
//!   and rounded afterwards (that double rounding can differ in the last bit);
//! - an operation that produces a NaN (arithmetic, `f32`<->`f64` conversion) produces the
//!   *default* NaN of its type (positive, quiet, no payload): C leaves the payload
//!   unspecified and the targets disagree, so the IR fixes one; bit moves (`copy`, `load`,
//!   `store`, `phi`, `select`, `bitcast`, calls and returns) keep every bit, and `fneg`
//!   flips the sign bit only, of a NaN too;
//! - `fcmp` is IEEE: ordered predicates are false and unordered ones true when an operand is
//!   a NaN; `-0.0 oeq 0.0`;
//! - `cast` from an integer rounds to nearest-even; `cast` to an integer truncates toward
//!   zero and is undefined when the truncated value does not fit the integer type or the
//!   value is a NaN (C11 6.3.1.4), which is [`FloatEvalError::OutOfRange`].
//!
//! Invariants: inputs are raw patterns read at their type (an `f32` is the low 32 bits,
//! an integer is canonicalized); every `Ok` result is canonical for the result type.

use super::{FBinOp, FCmpPred, IrType};
use std::fmt;

/// Why a float expression has no value at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatEvalError {
    /// A float-to-integer conversion of a NaN or of a value whose truncation does not fit.
    OutOfRange,
    /// The types are not ones this operation takes.
    BadTypes,
}

impl fmt::Display for FloatEvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FloatEvalError::OutOfRange => "float to integer conversion out of range",
            FloatEvalError::BadTypes => "not a float operation on these types",
        })
    }
}

impl std::error::Error for FloatEvalError {}

/// The default NaN of `ty` as canonical bits.
pub fn default_nan(ty: IrType) -> u64 {
    match ty {
        IrType::F32 => super::float_text::F32_DEFAULT_NAN as u64,
        _ => super::float_text::F64_DEFAULT_NAN,
    }
}

/// True when `raw` read at the float type `ty` is a NaN.
pub fn is_nan(ty: IrType, raw: u64) -> bool {
    match ty {
        IrType::F32 => f32::from_bits(raw as u32).is_nan(),
        IrType::F64 => f64::from_bits(raw).is_nan(),
        _ => false,
    }
}

fn f32_result(v: f32) -> u64 {
    if v.is_nan() {
        default_nan(IrType::F32)
    } else {
        v.to_bits() as u64
    }
}

fn f64_result(v: f64) -> u64 {
    if v.is_nan() {
        default_nan(IrType::F64)
    } else {
        v.to_bits()
    }
}

/// `a OP b` at `ty`.
pub fn eval_fbin(op: FBinOp, ty: IrType, a: u64, b: u64) -> Result<u64, FloatEvalError> {
    match ty {
        IrType::F32 => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            Ok(f32_result(match op {
                FBinOp::FAdd => x + y,
                FBinOp::FSub => x - y,
                FBinOp::FMul => x * y,
                FBinOp::FDiv => x / y,
            }))
        }
        IrType::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            Ok(f64_result(match op {
                FBinOp::FAdd => x + y,
                FBinOp::FSub => x - y,
                FBinOp::FMul => x * y,
                FBinOp::FDiv => x / y,
            }))
        }
        _ => Err(FloatEvalError::BadTypes),
    }
}

/// `fneg`: the sign bit flipped.
pub fn eval_fneg(ty: IrType, a: u64) -> Result<u64, FloatEvalError> {
    match ty {
        IrType::F32 => Ok((a as u32 ^ 0x8000_0000) as u64),
        IrType::F64 => Ok(a ^ (1 << 63)),
        _ => Err(FloatEvalError::BadTypes),
    }
}

/// `fcmp PRED ty a, b`.
pub fn eval_fcmp(pred: FCmpPred, ty: IrType, a: u64, b: u64) -> Result<bool, FloatEvalError> {
    let ordering = match ty {
        IrType::F32 => f32::from_bits(a as u32).partial_cmp(&f32::from_bits(b as u32)),
        IrType::F64 => f64::from_bits(a).partial_cmp(&f64::from_bits(b)),
        _ => return Err(FloatEvalError::BadTypes),
    };
    use std::cmp::Ordering::*;
    Ok(match (pred, ordering) {
        (FCmpPred::Ord, o) => o.is_some(),
        (FCmpPred::Uno, o) => o.is_none(),
        (FCmpPred::Oeq, o) => o == Some(Equal),
        (FCmpPred::One, o) => matches!(o, Some(Less | Greater)),
        (FCmpPred::Olt, o) => o == Some(Less),
        (FCmpPred::Ole, o) => matches!(o, Some(Less | Equal)),
        (FCmpPred::Ogt, o) => o == Some(Greater),
        (FCmpPred::Oge, o) => matches!(o, Some(Greater | Equal)),
        (FCmpPred::Ueq, o) => matches!(o, None | Some(Equal)),
        (FCmpPred::Une, o) => o != Some(Equal),
        (FCmpPred::Ult, o) => matches!(o, None | Some(Less)),
        (FCmpPred::Ule, o) => o != Some(Greater),
        (FCmpPred::Ugt, o) => matches!(o, None | Some(Greater)),
        (FCmpPred::Uge, o) => o != Some(Less),
    })
}

/// The float read at `ty` as an `f64` (exact: every `f32` is an `f64`).
fn as_f64(ty: IrType, a: u64) -> f64 {
    match ty {
        IrType::F32 => f32::from_bits(a as u32) as f64,
        _ => f64::from_bits(a),
    }
}

/// A `cast` with a float on at least one side (`cast` between integers is
/// `eval::eval_cast`). Float to float is `fpext`/`fptrunc` (the same type is the identity);
/// integer to float rounds to nearest-even directly from the integer (never through another
/// float type); float to integer truncates and is `OutOfRange` when it does not fit.
pub fn eval_float_cast(from: IrType, to: IrType, a: u64) -> Result<u64, FloatEvalError> {
    match (from.is_float(), to.is_float()) {
        (true, true) => Ok(match (from, to) {
            (IrType::F32, IrType::F64) => f64_result(f32::from_bits(a as u32) as f64),
            (IrType::F64, IrType::F32) => f32_result(f64::from_bits(a) as f32),
            _ => to.canonicalize(a, 8),
        }),
        (false, true) if from.is_integer() => {
            let canon = from.canonicalize(a, 8);
            Ok(match (from.is_signed(), to) {
                (true, IrType::F32) => ((canon as i64) as f32).to_bits() as u64,
                (true, _) => ((canon as i64) as f64).to_bits(),
                (false, IrType::F32) => (canon as f32).to_bits() as u64,
                (false, _) => (canon as f64).to_bits(),
            })
        }
        (true, false) if to.is_integer() => {
            let v = as_f64(from, a);
            if v.is_nan() {
                return Err(FloatEvalError::OutOfRange);
            }
            let t = v.trunc();
            let bits = to.bits(8);
            // The range of `to` as exact f64 bounds: [-2^(bits-1), 2^(bits-1)) signed,
            // [0, 2^bits) unsigned. Powers of two up to 2^64 are exact in f64.
            let (lo, hi_exclusive) = if to.is_signed() {
                (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
            } else {
                (0.0, 2f64.powi(bits as i32))
            };
            if !(t >= lo && t < hi_exclusive) {
                return Err(FloatEvalError::OutOfRange);
            }
            let raw = if to.is_signed() {
                t as i64 as u64
            } else {
                t as u64
            };
            Ok(to.canonicalize(raw, 8))
        }
        _ => Err(FloatEvalError::BadTypes),
    }
}

/// `bitcast`: the same bits in a type of the same size.
pub fn eval_bitcast(from: IrType, to: IrType, a: u64) -> Result<u64, FloatEvalError> {
    if from.size(8) != to.size(8) || from == IrType::Ptr || to == IrType::Ptr {
        return Err(FloatEvalError::BadTypes);
    }
    Ok(to.canonicalize(from.canonicalize(a, 8), 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32b(v: f32) -> u64 {
        v.to_bits() as u64
    }

    #[test]
    fn f32_arithmetic_rounds_once() {
        // 16777216 + 1 is a tie in f32 (2^24 + 1): rounds to even, 2^24.
        assert_eq!(
            eval_fbin(FBinOp::FAdd, IrType::F32, f32b(16777216.0), f32b(1.0)),
            Ok(f32b(16777216.0))
        );
        // 0.1f + 0.2f is 0x3e99999a in f32 (computed by hand: 0x3dcccccd + 0x3e4ccccd).
        assert_eq!(
            eval_fbin(FBinOp::FAdd, IrType::F32, 0x3dcc_cccd, 0x3e4c_cccd),
            Ok(0x3e99_999a)
        );
    }

    #[test]
    fn nan_results_are_the_default_nan() {
        let inf = f64::INFINITY.to_bits();
        assert_eq!(
            eval_fbin(FBinOp::FSub, IrType::F64, inf, inf),
            Ok(0x7ff8_0000_0000_0000)
        );
        assert_eq!(
            eval_fbin(FBinOp::FAdd, IrType::F32, 0xffc0_0001, f32b(1.0)),
            Ok(0x7fc0_0000)
        );
        assert_eq!(eval_fneg(IrType::F32, 0x7fc0_0000), Ok(0xffc0_0000));
    }

    #[test]
    fn comparisons_with_nan_and_zeros() {
        let nan = 0x7ff8_0000_0000_0000;
        let one = 1f64.to_bits();
        assert_eq!(eval_fcmp(FCmpPred::Oeq, IrType::F64, nan, nan), Ok(false));
        assert_eq!(eval_fcmp(FCmpPred::Une, IrType::F64, nan, nan), Ok(true));
        assert_eq!(eval_fcmp(FCmpPred::Olt, IrType::F64, nan, one), Ok(false));
        assert_eq!(eval_fcmp(FCmpPred::Uge, IrType::F64, nan, one), Ok(true));
        assert_eq!(
            eval_fcmp(FCmpPred::Oeq, IrType::F64, 0, (-0.0f64).to_bits()),
            Ok(true)
        );
        for p in FCmpPred::ALL {
            for (a, b) in [(nan, one), (one, one), (0, one), (one, 0)] {
                let direct = eval_fcmp(p, IrType::F64, a, b);
                let inverse = eval_fcmp(p.inverse(), IrType::F64, a, b).map(|x| !x);
                let swapped = eval_fcmp(p.swapped(), IrType::F64, b, a);
                assert_eq!(direct, inverse, "{p:?}");
                assert_eq!(direct, swapped, "{p:?}");
            }
        }
    }

    #[test]
    fn conversions() {
        // u64::MAX to f32 rounds to 2^64; i64 2^53 + 1 to f64 rounds to even (2^53).
        assert_eq!(
            eval_float_cast(IrType::U64, IrType::F32, u64::MAX),
            Ok(f32b(18446744073709551616.0))
        );
        assert_eq!(
            eval_float_cast(IrType::I64, IrType::F64, (1u64 << 53) + 1),
            Ok(9007199254740992f64.to_bits())
        );
        assert_eq!(
            eval_float_cast(IrType::F64, IrType::I32, (-2.9f64).to_bits()),
            Ok((-2i64) as u64)
        );
        assert_eq!(
            eval_float_cast(IrType::F64, IrType::I32, 2147483648f64.to_bits()),
            Err(FloatEvalError::OutOfRange)
        );
        assert_eq!(
            eval_float_cast(IrType::F64, IrType::I32, (-2147483648.9f64).to_bits()),
            Ok((-2147483648i64) as u64)
        );
        assert_eq!(
            eval_float_cast(IrType::F64, IrType::U8, (-0.9f64).to_bits()),
            Ok(0)
        );
        assert_eq!(
            eval_float_cast(IrType::F64, IrType::U8, (-1.0f64).to_bits()),
            Err(FloatEvalError::OutOfRange)
        );
        assert_eq!(
            eval_float_cast(IrType::F32, IrType::I64, 0x7fc0_0000),
            Err(FloatEvalError::OutOfRange)
        );
        // f64 -> f32 rounds to nearest-even and overflows to infinity.
        assert_eq!(
            eval_float_cast(IrType::F64, IrType::F32, 1e300f64.to_bits()),
            Ok(f32b(f32::INFINITY))
        );
        assert_eq!(
            eval_bitcast(IrType::F32, IrType::I32, 0xbf80_0000),
            Ok(0xffff_ffff_bf80_0000)
        );
    }
}
