//! The float semantics of the IR, as the oracle executes them.
//!
//! Why: the oracle is the reference every stage is judged against, so it implements the
//! meaning `docs/ir-notes.md` gives the float instructions itself, with Rust's IEEE `f32`
//! and `f64` (round to nearest-even), instead of calling the compiler's constant folder
//! (`compiler::ir::eval_float`): a folder bug must show as a difference, not be shared.
//! `oracle/tests/float_eval.rs` checks the two agree on many inputs.
//!
//! Invariants:
//! - a register holding an `f32` holds its 32-bit pattern zero-extended, an `f64` its 64
//!   bits; every result here is in that form (or canonical for the integer type);
//! - `f32` arithmetic is done in `f32` (one rounding);
//! - a NaN produced by arithmetic or by an `f32`<->`f64` conversion is the type's default
//!   NaN (`0x7fc00000`, `0x7ff8000000000000`); `fneg` flips the sign bit only;
//! - a conversion to an integer of a NaN, or of a value whose truncation toward zero does
//!   not fit the integer type, is `Ub::FloatToIntOutOfRange`.

use super::value::Canon;
use crate::outcome::Ub;
use compiler::ir::{FBinOp, FCmpPred, IrType};

/// A float arithmetic operation at one width, packed for the `Op` enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FArith {
    pub op: FBinOp,
    pub wide: bool,
}

const F32_NAN: u64 = 0x7fc0_0000;
const F64_NAN: u64 = 0x7ff8_0000_0000_0000;

#[inline(always)]
fn from32(v: f32) -> u64 {
    if v.is_nan() {
        F32_NAN
    } else {
        u64::from(v.to_bits())
    }
}

#[inline(always)]
fn from64(v: f64) -> u64 {
    if v.is_nan() {
        F64_NAN
    } else {
        v.to_bits()
    }
}

/// `a OP b`.
#[inline(always)]
pub(crate) fn arith(f: FArith, a: u64, b: u64) -> u64 {
    if f.wide {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        from64(match f.op {
            FBinOp::FAdd => x + y,
            FBinOp::FSub => x - y,
            FBinOp::FMul => x * y,
            FBinOp::FDiv => x / y,
        })
    } else {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        from32(match f.op {
            FBinOp::FAdd => x + y,
            FBinOp::FSub => x - y,
            FBinOp::FMul => x * y,
            FBinOp::FDiv => x / y,
        })
    }
}

/// `fneg`: the sign bit of the width flipped.
#[inline(always)]
pub(crate) fn neg(wide: bool, a: u64) -> u64 {
    if wide {
        a ^ 0x8000_0000_0000_0000
    } else {
        a ^ 0x8000_0000
    }
}

/// `fcmp`: 1 or 0. Written out as the IEEE relations (less, equal, greater, unordered).
#[inline(always)]
pub(crate) fn compare(pred: FCmpPred, wide: bool, a: u64, b: u64) -> u64 {
    let (lt, eq, gt) = if wide {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        (x < y, x == y, x > y)
    } else {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        (x < y, x == y, x > y)
    };
    let uno = !(lt || eq || gt);
    let holds = match pred {
        FCmpPred::Oeq => eq,
        FCmpPred::One => lt || gt,
        FCmpPred::Olt => lt,
        FCmpPred::Ole => lt || eq,
        FCmpPred::Ogt => gt,
        FCmpPred::Oge => gt || eq,
        FCmpPred::Ord => !uno,
        FCmpPred::Ueq => uno || eq,
        FCmpPred::Une => !eq,
        FCmpPred::Ult => uno || lt,
        FCmpPred::Ule => uno || lt || eq,
        FCmpPred::Ugt => uno || gt,
        FCmpPred::Uge => uno || gt || eq,
        FCmpPred::Uno => uno,
    };
    holds as u64
}

/// A conversion with a float on at least one side: source and target type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FConv {
    pub from: IrType,
    pub to: IrType,
}

/// `cast FROM a to TO` where FROM or TO is a float; `a` is canonical for FROM.
#[inline(always)]
pub(crate) fn convert(k: FConv, a: u64) -> Result<u64, Ub> {
    let FConv { from, to } = k;
    match (from, to) {
        (IrType::F32, IrType::F32) | (IrType::F64, IrType::F64) => Ok(a),
        (IrType::F32, IrType::F64) => Ok(from64(f64::from(f32::from_bits(a as u32)))),
        (IrType::F64, IrType::F32) => Ok(from32(f64::from_bits(a) as f32)),
        (_, IrType::F32) if from.is_signed() => Ok(u64::from((a as i64 as f32).to_bits())),
        (_, IrType::F32) => Ok(u64::from((a as f32).to_bits())),
        (_, IrType::F64) if from.is_signed() => Ok((a as i64 as f64).to_bits()),
        (_, IrType::F64) => Ok((a as f64).to_bits()),
        _ => {
            let v = if from == IrType::F32 {
                f64::from(f32::from_bits(a as u32))
            } else {
                f64::from_bits(a)
            };
            to_integer(v, to)
        }
    }
}

/// `v` truncated toward zero into the integer type `to`, canonical; undefined when it
/// does not fit (a NaN never fits).
fn to_integer(v: f64, to: IrType) -> Result<u64, Ub> {
    let t = v.trunc();
    let c = Canon::of(to, 8);
    let bits = c.bits() as i32;
    // Exact bounds: powers of two are exact in f64.
    let fits = if to.is_signed() {
        let half = (2.0f64).powi(bits - 1);
        t >= -half && t < half
    } else {
        t >= 0.0 && t < (2.0f64).powi(bits)
    };
    if !fits {
        return Err(Ub::FloatToIntOutOfRange);
    }
    let raw = if to.is_signed() {
        t as i64 as u64
    } else {
        t as u64
    };
    Ok(c.apply(raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_computed_by_hand() {
        let add32 = FArith {
            op: FBinOp::FAdd,
            wide: false,
        };
        // 1 + 2^-24 in f32: a tie, rounds to even (1.0 = 0x3f800000).
        assert_eq!(arith(add32, 0x3f80_0000, 0x3380_0000), 0x3f80_0000);
        // 1 + 3*2^-25 rounds up to 1 + 2^-23 (0x3f800001).
        assert_eq!(arith(add32, 0x3f80_0000, 0x33c0_0000), 0x3f80_0001);
        let div64 = FArith {
            op: FBinOp::FDiv,
            wide: true,
        };
        assert_eq!(arith(div64, 0, 0), F64_NAN);
        assert_eq!(
            arith(div64, 1f64.to_bits(), (-0.0f64).to_bits()),
            f64::NEG_INFINITY.to_bits()
        );
        assert_eq!(neg(false, F32_NAN), 0xffc0_0000);
        assert_eq!(compare(FCmpPred::Une, true, F64_NAN, F64_NAN), 1);
        assert_eq!(compare(FCmpPred::Oeq, true, F64_NAN, F64_NAN), 0);
        assert_eq!(compare(FCmpPred::Oeq, true, 0, 1 << 63), 1);
    }

    #[test]
    fn conversions_computed_by_hand() {
        let conv = |from, to, a| convert(FConv { from, to }, a);
        assert_eq!(conv(IrType::F64, IrType::I8, 127.99f64.to_bits()), Ok(127));
        assert_eq!(
            conv(IrType::F64, IrType::I8, 128f64.to_bits()),
            Err(Ub::FloatToIntOutOfRange)
        );
        assert_eq!(
            conv(IrType::F64, IrType::I8, (-128.5f64).to_bits()),
            Ok((-128i64) as u64)
        );
        assert_eq!(
            conv(IrType::F32, IrType::U32, 0x4f80_0000),
            Err(Ub::FloatToIntOutOfRange)
        ); // 2^32
        assert_eq!(conv(IrType::F32, IrType::U32, 0x4f7f_ffff), Ok(0xffff_ff00));
        assert_eq!(
            conv(IrType::F64, IrType::U64, F64_NAN),
            Err(Ub::FloatToIntOutOfRange)
        );
        // -1 as u32 (0xffffffff) to f32 is 2^32 (0x4f800000), as i32 it is -1.0.
        assert_eq!(conv(IrType::U32, IrType::F32, 0xffff_ffff), Ok(0x4f80_0000));
        assert_eq!(conv(IrType::I32, IrType::F32, u64::MAX), Ok(0xbf80_0000));
        // f64 0.1 to f32 rounds to nearest: 0x3dcccccd.
        assert_eq!(
            conv(IrType::F64, IrType::F32, 0.1f64.to_bits()),
            Ok(0x3dcc_cccd)
        );
        assert_eq!(conv(IrType::F32, IrType::F64, 0xff80_0001), Ok(F64_NAN));
    }
}
