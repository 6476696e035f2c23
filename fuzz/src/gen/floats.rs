//! Float values and operations for the IR generators (the switchable `floats` feature).
//!
//! Why: a miscompile of float code hides in what integer programs never produce — the
//! last bit of an `f32` rounding, a NaN in a comparison, a signed zero, a conversion at
//! the edge of an integer range. The generators (`cfg` with float slots and expressions,
//! `phi` with float variables) draw float constants from [`interesting_float`] and turn
//! floats back into integers only through the safe conversions here, so every float
//! result reaches the checksum bit for bit.
//!
//! Invariants (what keeps the generated programs defined and judgeable):
//! - a float never goes to an integer by a bare `cast`: [`emit_float_to_int`] tests the
//!   range first (`fcmp` ordered, so a NaN fails the test) and converts `0.0` instead of a
//!   value out of range — no conversion is undefined;
//! - a float's bits reach an integer only through [`emit_float_bits`], which replaces a
//!   NaN by `0.0` first: which NaN an operation produces differs between targets (x86's
//!   default NaN is negative, RISC-V's positive), so no judged value depends on a NaN's
//!   payload or sign. A NaN still decides comparisons and selects;
//! - every constant is of exactly its position's float type (no implicit conversion).

use super::builder::FuncBuilder;
use super::choice::Pick;
use arbitrary::{Result, Unstructured};
use compiler::ir::{BinOp, FBinOp, FCmpPred, Inst, IrConst, IrType, Operand, Value};

/// `f32` or `f64`.
pub fn float_type(u: &mut Unstructured) -> Result<IrType> {
    Ok(if u.chance(50)? {
        IrType::F32
    } else {
        IrType::F64
    })
}

/// A float constant of `ty` from the edges: zeros of both signs, small exact numbers,
/// fractions that round (0.1), the limits of exactness (2^24, 2^53), the integer range
/// edges, the extremes, subnormals, infinities, a NaN, or random bits (never a NaN).
pub fn interesting_float(u: &mut Unstructured, ty: IrType) -> Result<IrConst> {
    let v: f64 = match u.weighted(&[4, 3, 5, 4, 3, 2, 2, 2, 2, 1, 2, 2, 4])? {
        0 => 0.0,
        1 => -0.0,
        2 => u.between(1, 12)? as f64 * if u.chance(30)? { -1.0 } else { 1.0 },
        3 => [0.5, 0.1, 0.2, 0.3, 1.5, 2.5, -0.75, 1e-3][u.index(8)?],
        4 => [
            16777216.0,
            16777217.0,
            9007199254740992.0,
            9007199254740993.0,
        ][u.index(4)?],
        5 => [2147483647.0, 2147483648.0, -2147483648.0, 4294967295.0][u.index(4)?],
        6 => [1e10, 1e-10, 65504.0, 3.4028234663852886e38][u.index(4)?],
        7 => [f64::MAX, f64::MIN_POSITIVE, 5e-324, 1.401298464324817e-45][u.index(4)?],
        8 => f64::INFINITY,
        9 => f64::NEG_INFINITY,
        10 => f64::NAN,
        11 => u.between(0, 1000)? as f64 / 64.0 - 7.0,
        _ => {
            return random_float(u, ty);
        }
    };
    Ok(if ty == IrType::F32 {
        // The value rounded once to f32 (Rust's `as` rounds to nearest-even).
        IrConst::f32(if v.is_nan() { f32::NAN } else { v as f32 })
    } else {
        IrConst::f64(v)
    })
}

/// Random bits of `ty` that are not a NaN (a NaN constant's payload is not judged).
fn random_float(u: &mut Unstructured, ty: IrType) -> Result<IrConst> {
    let bits = u.bits64()?;
    Ok(if ty == IrType::F32 {
        let v = f32::from_bits(bits as u32);
        IrConst::f32(if v.is_nan() { 1.25 } else { v })
    } else {
        let v = f64::from_bits(bits);
        IrConst::f64(if v.is_nan() { 1.25 } else { v })
    })
}

/// A random float arithmetic operation.
pub fn float_op(u: &mut Unstructured) -> Result<FBinOp> {
    Ok(FBinOp::ALL[u.index(FBinOp::ALL.len())?])
}

/// A random float comparison predicate.
pub fn float_pred(u: &mut Unstructured) -> Result<FCmpPred> {
    Ok(FCmpPred::ALL[u.index(FCmpPred::ALL.len())?])
}

/// Emits `op ty lhs, rhs`.
pub fn emit_fbin(b: &mut FuncBuilder, op: FBinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Value {
    let dest = b.fresh();
    b.push(Inst::FBin {
        dest,
        op,
        ty,
        lhs,
        rhs,
    });
    dest
}

/// Emits `fneg ty src`.
pub fn emit_fneg(b: &mut FuncBuilder, ty: IrType, src: Operand) -> Value {
    let dest = b.fresh();
    b.push(Inst::FNeg { dest, ty, src });
    dest
}

/// Emits `fcmp pred ty lhs, rhs` (an `i8`).
pub fn emit_fcmp(
    b: &mut FuncBuilder,
    pred: FCmpPred,
    ty: IrType,
    lhs: Operand,
    rhs: Operand,
) -> Value {
    let dest = b.fresh();
    b.push(Inst::FCmp {
        dest,
        pred,
        ty,
        lhs,
        rhs,
    });
    dest
}

/// Emits `bitcast from src to to`.
pub fn emit_bitcast(b: &mut FuncBuilder, from: IrType, src: Operand, to: IrType) -> Value {
    let dest = b.fresh();
    b.push(Inst::Bitcast {
        dest,
        from,
        src,
        to,
    });
    dest
}

/// `v` (of float type `ty`) with a NaN replaced by `+0.0`.
fn without_nan(b: &mut FuncBuilder, ty: IrType, v: Operand) -> Operand {
    let is_nan = emit_fcmp(b, FCmpPred::Uno, ty, v, v);
    let zero = Operand::Const(IrConst::float_bits(ty, 0).unwrap_or(IrConst::f64(0.0)));
    b.select(ty, is_nan.into(), zero, v).into()
}

/// The bits of `v` (float type `ty`) as an `i64`, a NaN counted as `+0.0`.
pub fn emit_float_bits(b: &mut FuncBuilder, ty: IrType, v: Operand) -> Operand {
    let clean = without_nan(b, ty, v);
    let (int_ty, wide) = if ty == IrType::F32 {
        (IrType::U32, true)
    } else {
        (IrType::I64, false)
    };
    let bits = emit_bitcast(b, ty, clean, int_ty);
    if wide {
        b.cast(int_ty, bits.into(), IrType::I64).into()
    } else {
        bits.into()
    }
}

/// The open interval of floats whose truncation fits the integer type `to` (`i32`, `u32`,
/// `i64` or `u64`); both bounds are powers of two (or minus them, or -1), exact in `f32`
/// and `f64`.
fn range(to: IrType) -> (f64, f64) {
    match to {
        IrType::I32 => (-2147483649.0, 2147483648.0),
        IrType::U32 => (-1.0, 4294967296.0),
        IrType::U64 => (-1.0, 18446744073709551616.0),
        _ => (-9223372036854775808.0, 9223372036854775808.0),
    }
}

/// `v` (float type `fty`) as integer type `ity`, defined for every `v`: a comparison
/// (0 or 1), the truncation of `v` when it fits a 32- or 64-bit integer (else of `0.0`),
/// or the NaN-free bits.
pub fn emit_float_to_int(
    b: &mut FuncBuilder,
    u: &mut Unstructured,
    fty: IrType,
    v: Operand,
    ity: IrType,
) -> Result<Operand> {
    let (wide, wide_ty): (Operand, IrType) = match u.weighted(&[3, 5, 3])? {
        0 => {
            let rhs = if u.chance(60)? {
                Operand::Const(interesting_float(u, fty)?)
            } else {
                v
            };
            let pred = float_pred(u)?;
            (emit_fcmp(b, pred, fty, v, rhs).into(), IrType::I8)
        }
        1 => {
            let to = [IrType::I32, IrType::U32, IrType::I64, IrType::U64][u.index(4)?];
            let (lo, hi) = range(to);
            // -2147483649.0 is not an f32: there the bound is -2^31, tested with `oge`.
            let (lo_pred, lo) = if fty == IrType::F32 && to == IrType::I32 {
                (FCmpPred::Oge, -2147483648.0)
            } else {
                (FCmpPred::Ogt, lo)
            };
            let bound = |x: f64| {
                Operand::Const(if fty == IrType::F32 {
                    IrConst::f32(x as f32)
                } else {
                    IrConst::f64(x)
                })
            };
            let above = emit_fcmp(b, lo_pred, fty, v, bound(lo));
            let below = emit_fcmp(b, FCmpPred::Olt, fty, v, bound(hi));
            let inside = b.bin(BinOp::And, IrType::I8, above.into(), below.into());
            let safe = b.select(fty, inside.into(), v, bound(0.0));
            (b.cast(fty, safe.into(), to).into(), to)
        }
        _ => (emit_float_bits(b, fty, v), IrType::I64),
    };
    Ok(if wide_ty == ity {
        wide
    } else {
        b.cast(wide_ty, wide, ity).into()
    })
}
