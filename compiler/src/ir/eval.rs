//! Constant evaluation of the integer instructions, with exactly the meaning IR.md gives
//! them and the oracle (`oracle/src/interp/value.rs`) executes.
//!
//! Why: constant folding must compute the value a run would compute, bit for bit, and must
//! know when a run would not compute one at all (a trap, undefined behaviour) so that it
//! leaves that instruction for run time. Keeping the arithmetic here, in one place, lets a
//! test compare it with the interpreter on many inputs (`oracle/tests/passes_p2_eval.rs`).
//!
//! Invariants:
//! - every input is a raw 64-bit pattern that is first *read* at the operand's position
//!   type (truncated to the width, extended by the type's signedness), as the interpreter
//!   reads every operand; every `Ok` result is canonical for the result type (the
//!   instruction's type; `i8` for a comparison; the target type for a cast);
//! - `Err` is returned exactly where a run traps (division by zero, `MIN / -1` in
//!   `sdiv`/`srem` at the type's width) or is undefined (a shift amount, read unsigned at
//!   the width, that is the width or more);
//! - `ptr` and `void` are refused ([`EvalError::NotInteger`]): the pointer width is a
//!   property of the target, so no target-independent pass may fold pointer arithmetic.

use super::{BinOp, CmpPred, IrType, UnOp};
use std::fmt;

/// Why a constant expression has no value at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalError {
    /// `sdiv`/`udiv`/`srem`/`urem` by zero: traps at run time.
    DivByZero,
    /// `sdiv`/`srem` of the signed minimum by -1: traps at run time.
    DivOverflow,
    /// A shift by the width or more: undefined behaviour at run time.
    ShiftTooLarge,
    /// A type whose width the IR does not fix (`ptr`) or that has no values (`void`).
    NotInteger,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalError::DivByZero => "division by zero",
            EvalError::DivOverflow => "signed division overflow",
            EvalError::ShiftTooLarge => "shift amount out of range",
            EvalError::NotInteger => "not an integer type",
        })
    }
}

impl std::error::Error for EvalError {}

/// Width in bits of an integer type, or `NotInteger`.
fn width(ty: IrType) -> Result<u32, EvalError> {
    if ty.is_integer() {
        Ok(ty.bits(8))
    } else {
        Err(EvalError::NotInteger)
    }
}

/// `raw` read at `ty`: its canonical form (what the interpreter does to every operand).
pub fn read(ty: IrType, raw: u64) -> u64 {
    ty.canonicalize(raw, 8)
}

/// All ones at the width of `ty` (the unsigned maximum), e.g. `0xff` for `i8` and `u8`.
pub fn width_mask(ty: IrType) -> Result<u64, EvalError> {
    let bits = width(ty)?;
    Ok(if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    })
}

/// `raw` read as a signed number of `ty`'s width (whatever `ty`'s signedness).
pub fn signed_value(ty: IrType, raw: u64) -> Result<i64, EvalError> {
    let shift = 64 - width(ty)?;
    Ok(((raw << shift) as i64) >> shift)
}

/// `raw` read as an unsigned number of `ty`'s width (whatever `ty`'s signedness).
pub fn unsigned_value(ty: IrType, raw: u64) -> Result<u64, EvalError> {
    Ok(raw & width_mask(ty)?)
}

/// The signed minimum of `ty`'s width, as a signed number.
fn signed_min(ty: IrType) -> Result<i64, EvalError> {
    Ok(i64::MIN >> (64 - width(ty)?))
}

/// `a OP b` at type `ty`.
pub fn eval_binop(op: BinOp, ty: IrType, a: u64, b: u64) -> Result<u64, EvalError> {
    let bits = width(ty)?;
    let (a, b) = (read(ty, a), read(ty, b));
    let result = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::SDiv | BinOp::SRem => {
            let (a, b) = (signed_value(ty, a)?, signed_value(ty, b)?);
            // Rule: division by zero and MIN / -1 at the type's width trap.
            if b == 0 {
                return Err(EvalError::DivByZero);
            }
            if b == -1 && a == signed_min(ty)? {
                return Err(EvalError::DivOverflow);
            }
            if op == BinOp::SDiv {
                (a / b) as u64
            } else {
                (a % b) as u64
            }
        }
        BinOp::UDiv | BinOp::URem => {
            let (a, b) = (unsigned_value(ty, a)?, unsigned_value(ty, b)?);
            // Rule: division by zero traps.
            if b == 0 {
                return Err(EvalError::DivByZero);
            }
            if op == BinOp::UDiv {
                a / b
            } else {
                a % b
            }
        }
        BinOp::Shl | BinOp::AShr | BinOp::LShr => {
            // Rule: the amount is read unsigned at the width; the width or more is undefined.
            let amount = unsigned_value(ty, b)?;
            if amount >= bits as u64 {
                return Err(EvalError::ShiftTooLarge);
            }
            let n = amount as u32;
            match op {
                BinOp::Shl => a << n,
                BinOp::AShr => (signed_value(ty, a)? >> n) as u64,
                _ => unsigned_value(ty, a)? >> n,
            }
        }
    };
    Ok(read(ty, result))
}

/// `OP a` at type `ty`.
pub fn eval_unop(op: UnOp, ty: IrType, a: u64) -> Result<u64, EvalError> {
    width(ty)?;
    let a = read(ty, a);
    Ok(read(
        ty,
        match op {
            UnOp::Neg => a.wrapping_neg(),
            UnOp::Not => !a,
        },
    ))
}

/// `cmp PRED ty a, b`: operands read at the width with the predicate's signedness.
pub fn eval_cmp(pred: CmpPred, ty: IrType, a: u64, b: u64) -> Result<bool, EvalError> {
    let (sa, sb) = (signed_value(ty, a)?, signed_value(ty, b)?);
    let (ua, ub) = (unsigned_value(ty, a)?, unsigned_value(ty, b)?);
    Ok(match pred {
        CmpPred::Eq => ua == ub,
        CmpPred::Ne => ua != ub,
        CmpPred::Slt => sa < sb,
        CmpPred::Sle => sa <= sb,
        CmpPred::Sgt => sa > sb,
        CmpPred::Sge => sa >= sb,
        CmpPred::Ult => ua < ub,
        CmpPred::Ule => ua <= ub,
        CmpPred::Ugt => ua > ub,
        CmpPred::Uge => ua >= ub,
    })
}

/// `cast from a to to`: read at `from` (which extends by `from`'s signedness), then
/// truncated to `to`'s width and extended by `to`'s signedness.
pub fn eval_cast(from: IrType, to: IrType, a: u64) -> Result<u64, EvalError> {
    width(from)?;
    width(to)?;
    Ok(read(to, read(from, a)))
}

/// The predicate that gives the same answer with the operands swapped
/// (`a < b` is `b > a`).
pub fn swapped_pred(pred: CmpPred) -> CmpPred {
    match pred {
        CmpPred::Eq => CmpPred::Eq,
        CmpPred::Ne => CmpPred::Ne,
        CmpPred::Slt => CmpPred::Sgt,
        CmpPred::Sle => CmpPred::Sge,
        CmpPred::Sgt => CmpPred::Slt,
        CmpPred::Sge => CmpPred::Sle,
        CmpPred::Ult => CmpPred::Ugt,
        CmpPred::Ule => CmpPred::Uge,
        CmpPred::Ugt => CmpPred::Ult,
        CmpPred::Uge => CmpPred::Ule,
    }
}

/// True for the operations whose operands can be swapped.
pub fn is_commutative(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const M1: u64 = u64::MAX;

    #[test]
    fn wraps_at_the_width_and_extends_by_signedness() {
        assert_eq!(
            eval_binop(BinOp::Add, IrType::I8, 127, 1),
            Ok(-128i64 as u64)
        );
        assert_eq!(eval_binop(BinOp::Add, IrType::U8, 255, 1), Ok(0));
        assert_eq!(
            eval_binop(BinOp::Mul, IrType::U16, 300, 300),
            Ok(90000 - 65536)
        );
        assert_eq!(eval_binop(BinOp::Sub, IrType::U32, 0, 1), Ok(0xffff_ffff));
        // Operands are read at the type first: 0x1_0000_0005 is 5 as an i32.
        assert_eq!(eval_binop(BinOp::Add, IrType::I32, 0x1_0000_0005, 0), Ok(5));
    }

    #[test]
    fn division_traps_and_signedness() {
        // udiv u8 200, 3 = 66; sdiv i8 -56 (the same bits), 3 = -18.
        assert_eq!(eval_binop(BinOp::UDiv, IrType::U8, 200, 3), Ok(66));
        assert_eq!(eval_binop(BinOp::URem, IrType::U8, 200, 3), Ok(2));
        assert_eq!(
            eval_binop(BinOp::SDiv, IrType::I8, -56i64 as u64, 3),
            Ok(-18i64 as u64)
        );
        // udiv of an i32's bits is unsigned: 0xfffffff8 / 2 = 0x7ffffffc.
        assert_eq!(
            eval_binop(BinOp::UDiv, IrType::I32, -8i64 as u64, 2),
            Ok(0x7fff_fffc)
        );
        assert_eq!(
            eval_binop(BinOp::SDiv, IrType::I8, -128i64 as u64, M1),
            Err(EvalError::DivOverflow)
        );
        assert_eq!(
            eval_binop(BinOp::SRem, IrType::I64, i64::MIN as u64, M1),
            Err(EvalError::DivOverflow)
        );
        // sdiv on u8: 0x80 / 0xff reads as -128 / -1 at the width: traps too.
        assert_eq!(
            eval_binop(BinOp::SDiv, IrType::U8, 0x80, 0xff),
            Err(EvalError::DivOverflow)
        );
        assert_eq!(eval_binop(BinOp::UDiv, IrType::U8, 0x80, 0xff), Ok(0));
        for op in [BinOp::SDiv, BinOp::UDiv, BinOp::SRem, BinOp::URem] {
            assert_eq!(eval_binop(op, IrType::I32, 5, 0), Err(EvalError::DivByZero));
            // 0x1_0000_0000 is 0 as an i32.
            assert_eq!(
                eval_binop(op, IrType::I32, 5, 1 << 32),
                Err(EvalError::DivByZero)
            );
        }
        // -7 / 2 truncates toward zero; the remainder keeps the dividend's sign.
        assert_eq!(
            eval_binop(BinOp::SDiv, IrType::I32, -7i64 as u64, 2),
            Ok(-3i64 as u64)
        );
        assert_eq!(
            eval_binop(BinOp::SRem, IrType::I32, -7i64 as u64, 2),
            Ok(M1)
        );
    }

    #[test]
    fn shifts() {
        assert_eq!(eval_binop(BinOp::Shl, IrType::I8, 1, 7), Ok(-128i64 as u64));
        assert_eq!(
            eval_binop(BinOp::Shl, IrType::I8, 1, 8),
            Err(EvalError::ShiftTooLarge)
        );
        // The amount is read unsigned: -1 is 255 at 8 bits.
        assert_eq!(
            eval_binop(BinOp::LShr, IrType::I8, 1, M1),
            Err(EvalError::ShiftTooLarge)
        );
        // 256 is 0 as a u8: a shift by 0.
        assert_eq!(eval_binop(BinOp::Shl, IrType::U8, 3, 256), Ok(3));
        assert_eq!(
            eval_binop(BinOp::AShr, IrType::I8, -128i64 as u64, 7),
            Ok(M1)
        );
        assert_eq!(
            eval_binop(BinOp::LShr, IrType::I8, -128i64 as u64, 7),
            Ok(1)
        );
        // ashr is arithmetic whatever the signedness of the type.
        assert_eq!(eval_binop(BinOp::AShr, IrType::U8, 0x80, 7), Ok(0xff));
        assert_eq!(eval_binop(BinOp::LShr, IrType::U64, M1, 63), Ok(1));
        assert_eq!(eval_binop(BinOp::AShr, IrType::I64, 1 << 63, 63), Ok(M1));
    }

    #[test]
    fn unary_compare_cast() {
        assert_eq!(
            eval_unop(UnOp::Neg, IrType::I8, -128i64 as u64),
            Ok(-128i64 as u64)
        );
        assert_eq!(eval_unop(UnOp::Neg, IrType::U8, 1), Ok(255));
        assert_eq!(eval_unop(UnOp::Not, IrType::U16, 0), Ok(0xffff));
        assert_eq!(eval_unop(UnOp::Not, IrType::I16, 0), Ok(M1));
        assert_eq!(eval_cmp(CmpPred::Slt, IrType::I32, M1, 1), Ok(true));
        assert_eq!(eval_cmp(CmpPred::Ult, IrType::I32, M1, 1), Ok(false));
        assert_eq!(eval_cmp(CmpPred::Sgt, IrType::U8, 0x80, 0), Ok(false));
        assert_eq!(eval_cmp(CmpPred::Uge, IrType::U8, 0x80, 0x80), Ok(true));
        // Equality at the width: 0x100 and 0 are both 0 as an i8.
        assert_eq!(eval_cmp(CmpPred::Eq, IrType::I8, 0x100, 0), Ok(true));
        assert_eq!(eval_cast(IrType::I8, IrType::U32, M1), Ok(0xffff_ffff));
        assert_eq!(eval_cast(IrType::U8, IrType::I32, 0xff), Ok(255));
        assert_eq!(eval_cast(IrType::I32, IrType::I8, 300), Ok(44));
        assert_eq!(eval_cast(IrType::I64, IrType::U16, M1), Ok(0xffff));
    }

    #[test]
    fn pointers_are_refused() {
        assert_eq!(
            eval_binop(BinOp::Add, IrType::Ptr, 1, 2),
            Err(EvalError::NotInteger)
        );
        assert_eq!(
            eval_cast(IrType::I64, IrType::Ptr, 1),
            Err(EvalError::NotInteger)
        );
        assert_eq!(
            eval_cmp(CmpPred::Eq, IrType::Ptr, 1, 1),
            Err(EvalError::NotInteger)
        );
        assert_eq!(
            eval_unop(UnOp::Neg, IrType::Void, 1),
            Err(EvalError::NotInteger)
        );
    }

    #[test]
    fn swapped_predicates_agree() {
        let samples = [0u64, 1, 0x7f, 0x80, 0xff, M1, 1 << 63];
        for pred in CmpPred::ALL {
            for ty in IrType::INTEGERS {
                for &a in &samples {
                    for &b in &samples {
                        assert_eq!(
                            eval_cmp(pred, ty, a, b),
                            eval_cmp(swapped_pred(pred), ty, b, a)
                        );
                    }
                }
            }
        }
    }
}
