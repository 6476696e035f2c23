//! Canonical register values and the integer semantics of the IR.
//!
//! Why: every register holds a `u64` that is *canonical* for its type (signed types
//! sign-extended from their width, unsigned types and `ptr` zero-extended), and every
//! operation is defined on canonical inputs at the instruction type's width. Keeping the
//! arithmetic here, in small `#[inline(always)]` functions, lets the decoder fold constants
//! with exactly the code the execution loop runs.
//!
//! Invariants:
//! - [`Canon::apply`] is `IrType::canonicalize` precomputed into a shift and a sign flag;
//! - every function here takes canonical inputs and returns a canonical result for the
//!   instruction type (`wrapping` at its width), or the trap / undefined behaviour the IR
//!   contract names (division by zero, `MIN / -1`, a shift by the width or more).

use crate::outcome::{Trap, Ub};
use compiler::ir::{CmpPred, IrType};

/// How a run can fail inside one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    Trap(Trap),
    Ub(Ub),
}

impl From<Ub> for Fault {
    fn from(ub: Ub) -> Fault {
        Fault::Ub(ub)
    }
}

/// Canonicalization for one type at one pointer width: keep the low `64 - shift` bits,
/// extend by the type's signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Canon {
    shift: u8,
    signed: bool,
}

impl Canon {
    /// The canonical form of `ty` when pointers are `ptr_bytes` wide. `void` is the
    /// identity.
    pub fn of(ty: IrType, ptr_bytes: u32) -> Canon {
        let bits = ty.bits(ptr_bytes);
        let shift = if bits == 0 || bits >= 64 {
            0
        } else {
            64 - bits
        };
        Canon {
            shift: shift as u8,
            signed: ty.is_signed(),
        }
    }

    /// Width in bits.
    #[inline(always)]
    pub fn bits(self) -> u32 {
        64 - self.shift as u32
    }

    /// Truncates `x` to the width and extends it by the signedness.
    #[inline(always)]
    pub fn apply(self, x: u64) -> u64 {
        if self.signed {
            sext(x, self.shift)
        } else {
            zext(x, self.shift)
        }
    }

    /// `x` read as a signed number of this width.
    #[inline(always)]
    pub fn signed_value(self, x: u64) -> i64 {
        sext(x, self.shift) as i64
    }

    /// `x` read as an unsigned number of this width.
    #[inline(always)]
    pub fn unsigned_value(self, x: u64) -> u64 {
        zext(x, self.shift)
    }

    /// True when every value canonical for `from` is unchanged by `self.apply`: reading a
    /// register of type `from` in a position of this type needs no conversion.
    pub fn accepts_unchanged(self, from: Canon) -> bool {
        let (to_bits, from_bits) = (self.bits(), from.bits());
        if to_bits == 64 {
            return true;
        }
        if from_bits > to_bits {
            return false;
        }
        if from_bits == to_bits {
            return from.signed == self.signed;
        }
        // A narrower value: zero-extended ones stay put under either extension; a
        // sign-extended one only under sign extension.
        !from.signed || self.signed
    }
}

#[inline(always)]
fn sext(x: u64, shift: u8) -> u64 {
    (((x << shift) as i64) >> shift) as u64
}

#[inline(always)]
fn zext(x: u64, shift: u8) -> u64 {
    (x << shift) >> shift
}

/// `sdiv`: traps on a zero divisor and on MIN / -1 at the type's width.
#[inline(always)]
pub(crate) fn sdiv(c: Canon, a: u64, b: u64) -> Result<u64, Trap> {
    let (a, b) = (c.signed_value(a), c.signed_value(b));
    if b == 0 {
        return Err(Trap::DivByZero);
    }
    if b == -1 && a == signed_min(c) {
        return Err(Trap::DivOverflow);
    }
    Ok(c.apply((a / b) as u64))
}

/// `srem`: same traps as `sdiv`.
#[inline(always)]
pub(crate) fn srem(c: Canon, a: u64, b: u64) -> Result<u64, Trap> {
    let (a, b) = (c.signed_value(a), c.signed_value(b));
    if b == 0 {
        return Err(Trap::DivByZero);
    }
    if b == -1 && a == signed_min(c) {
        return Err(Trap::DivOverflow);
    }
    Ok(c.apply((a % b) as u64))
}

/// `udiv`: traps on a zero divisor.
#[inline(always)]
pub(crate) fn udiv(c: Canon, a: u64, b: u64) -> Result<u64, Trap> {
    let (a, b) = (c.unsigned_value(a), c.unsigned_value(b));
    if b == 0 {
        return Err(Trap::DivByZero);
    }
    Ok(c.apply(a / b))
}

/// `urem`: traps on a zero divisor.
#[inline(always)]
pub(crate) fn urem(c: Canon, a: u64, b: u64) -> Result<u64, Trap> {
    let (a, b) = (c.unsigned_value(a), c.unsigned_value(b));
    if b == 0 {
        return Err(Trap::DivByZero);
    }
    Ok(c.apply(a % b))
}

fn signed_min(c: Canon) -> i64 {
    (1u64 << (c.bits() - 1)).wrapping_neg() as i64
}

/// The shift amount, read unsigned at the width; undefined when it is the width or more.
#[inline(always)]
fn shift_amount(c: Canon, b: u64) -> Result<u32, Ub> {
    let amount = c.unsigned_value(b);
    if amount >= c.bits() as u64 {
        return Err(Ub::ShiftTooLarge);
    }
    Ok(amount as u32)
}

/// `shl`.
#[inline(always)]
pub(crate) fn shl(c: Canon, a: u64, b: u64) -> Result<u64, Ub> {
    Ok(c.apply(a << shift_amount(c, b)?))
}

/// `ashr`: arithmetic, whatever the type's signedness.
#[inline(always)]
pub(crate) fn ashr(c: Canon, a: u64, b: u64) -> Result<u64, Ub> {
    let n = shift_amount(c, b)?;
    Ok(c.apply((c.signed_value(a) >> n) as u64))
}

/// `lshr`: logical, whatever the type's signedness.
#[inline(always)]
pub(crate) fn lshr(c: Canon, a: u64, b: u64) -> Result<u64, Ub> {
    let n = shift_amount(c, b)?;
    Ok(c.apply(c.unsigned_value(a) >> n))
}

/// A comparison predicate prepared for execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pred {
    Eq,
    Ne,
    Slt,
    Sle,
    Ult,
    Ule,
}

/// Maps an IR predicate to an executable one, swapping operands for `>`/`>=`.
pub(crate) fn prepare_pred(p: CmpPred) -> (Pred, bool) {
    match p {
        CmpPred::Eq => (Pred::Eq, false),
        CmpPred::Ne => (Pred::Ne, false),
        CmpPred::Slt => (Pred::Slt, false),
        CmpPred::Sle => (Pred::Sle, false),
        CmpPred::Sgt => (Pred::Slt, true),
        CmpPred::Sge => (Pred::Sle, true),
        CmpPred::Ult => (Pred::Ult, false),
        CmpPred::Ule => (Pred::Ule, false),
        CmpPred::Ugt => (Pred::Ult, true),
        CmpPred::Uge => (Pred::Ule, true),
    }
}

/// `cmp`: 1 or 0, operands read at the width with the predicate's signedness.
#[inline(always)]
pub(crate) fn compare(p: Pred, c: Canon, a: u64, b: u64) -> u64 {
    let r = match p {
        Pred::Eq => c.unsigned_value(a) == c.unsigned_value(b),
        Pred::Ne => c.unsigned_value(a) != c.unsigned_value(b),
        Pred::Slt => c.signed_value(a) < c.signed_value(b),
        Pred::Sle => c.signed_value(a) <= c.signed_value(b),
        Pred::Ult => c.unsigned_value(a) < c.unsigned_value(b),
        Pred::Ule => c.unsigned_value(a) <= c.unsigned_value(b),
    };
    r as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(ty: IrType) -> Canon {
        Canon::of(ty, 8)
    }

    #[test]
    fn canon_matches_canonicalize() {
        let samples = [0u64, 1, 0x7f, 0x80, 0xff, 0x1234_5678_9abc_def0, u64::MAX];
        for ty in IrType::ALL {
            for pb in [4, 8] {
                for &x in &samples {
                    assert_eq!(Canon::of(ty, pb).apply(x), ty.canonicalize(x, pb));
                }
            }
        }
    }

    #[test]
    fn accepts_unchanged_is_exact() {
        // Brute force over sample values: the claim holds iff no canonical value changes.
        let samples = [
            0u64,
            1,
            0x7f,
            0x80,
            0xff,
            0x8000,
            0x8000_0000,
            u64::MAX,
            1 << 63,
        ];
        for from in IrType::ALL {
            for to in IrType::ALL {
                let (cf, ct) = (c(from), c(to));
                let unchanged = samples
                    .iter()
                    .map(|&x| cf.apply(x))
                    .all(|x| ct.apply(x) == x);
                assert_eq!(ct.accepts_unchanged(cf), unchanged, "{from} -> {to}");
            }
        }
    }

    #[test]
    fn division_traps_at_width() {
        let i32c = c(IrType::I32);
        let min = i32c.apply(0x8000_0000);
        let minus1 = i32c.apply(u64::MAX);
        assert_eq!(sdiv(i32c, min, minus1), Err(Trap::DivOverflow));
        assert_eq!(srem(i32c, min, minus1), Err(Trap::DivOverflow));
        assert_eq!(sdiv(i32c, 7, 0), Err(Trap::DivByZero));
        // The same bits as u32 are an ordinary unsigned division.
        let u32c = c(IrType::U32);
        assert_eq!(udiv(u32c, 0x8000_0000, 0xffff_ffff), Ok(0));
        // -7 / 2 truncates toward zero; -7 % 2 keeps the dividend's sign.
        let m7 = i32c.apply(-7i64 as u64);
        assert_eq!(sdiv(i32c, m7, 2), Ok(-3i64 as u64));
        assert_eq!(srem(i32c, m7, 2), Ok(-1i64 as u64));
        // i64 MIN / -1 also traps.
        let i64c = c(IrType::I64);
        assert_eq!(
            sdiv(i64c, i64::MIN as u64, u64::MAX),
            Err(Trap::DivOverflow)
        );
    }

    #[test]
    fn shifts() {
        let i8c = c(IrType::I8);
        assert_eq!(shl(i8c, 1, 7), Ok(-128i64 as u64));
        assert_eq!(shl(i8c, 1, 8), Err(Ub::ShiftTooLarge));
        // The amount is read unsigned: -1 as i8 is 255.
        assert_eq!(shl(i8c, 1, u64::MAX), Err(Ub::ShiftTooLarge));
        assert_eq!(ashr(i8c, -128i64 as u64, 7), Ok(u64::MAX));
        assert_eq!(lshr(i8c, -128i64 as u64, 7), Ok(1));
        let u8c = c(IrType::U8);
        assert_eq!(ashr(u8c, 0x80, 7), Ok(0xff));
    }

    #[test]
    fn comparisons_use_predicate_signedness() {
        let i32c = c(IrType::I32);
        let m1 = u64::MAX;
        let (p, swap) = prepare_pred(CmpPred::Slt);
        assert!(!swap);
        assert_eq!(compare(p, i32c, m1, 1), 1);
        let (p, _) = prepare_pred(CmpPred::Ult);
        assert_eq!(compare(p, i32c, m1, 1), 0);
        let (p, swap) = prepare_pred(CmpPred::Uge);
        assert!(swap);
        // uge a, b == ule b, a
        assert_eq!(compare(p, i32c, 1, m1), 1);
    }
}
