//! Constants and operands.
//!
//! Why: a constant carries its own type (the lowering emits `:i64` literals, and mem2reg
//! must narrow them when it stores them into a narrower slot), so "the constant 5" and
//! "the constant 5 of type i64" are different things in this IR.
//!
//! Invariants: `IrConst::bits` is canonical for `IrConst::ty` (sign-extended from the type's
//! width for signed types, zero-extended for unsigned types; `ptr` constants are full
//! 64-bit patterns, canonicalized to the pointer width only by whoever knows it). Build
//! constants with [`IrConst::new`], which canonicalizes, so two equal numbers of one type
//! always compare equal.
//!
//! Float constants keep their raw IEEE bit pattern in `bits` (an `f32` zero-extended from its
//! 32 bits, an `f64` as its 64 bits), so two constants are equal exactly when their bits
//! are: `-0.0` differs from `0.0` and every NaN payload is its own constant.

use super::{IrType, Value};
use std::fmt;

/// A literal with its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IrConst {
    /// The constant's own type.
    pub ty: IrType,
    /// Its value, canonical for `ty` (reinterpret as `u64` for unsigned types).
    pub bits: i64,
}

impl IrConst {
    /// The constant `value` of type `ty`, wrapped to the type's width (pointers as 64-bit).
    pub fn new(ty: IrType, value: i64) -> IrConst {
        IrConst {
            ty,
            bits: ty.canonicalize(value as u64, 8) as i64,
        }
    }

    /// The zero of `ty` (what a promoted variable reads before any store).
    pub fn zero(ty: IrType) -> IrConst {
        IrConst { ty, bits: 0 }
    }

    /// The `f32` constant with exactly these bits.
    pub fn f32(value: f32) -> IrConst {
        IrConst {
            ty: IrType::F32,
            bits: value.to_bits() as i64,
        }
    }

    /// The `f64` constant with exactly these bits.
    pub fn f64(value: f64) -> IrConst {
        IrConst {
            ty: IrType::F64,
            bits: value.to_bits() as i64,
        }
    }

    /// The float constant of type `ty` (`f32` or `f64`) whose bit pattern is `raw`
    /// (truncated to the width); `None` for other types.
    pub fn float_bits(ty: IrType, raw: u64) -> Option<IrConst> {
        ty.is_float().then(|| IrConst {
            ty,
            bits: ty.canonicalize(raw, 8) as i64,
        })
    }

    /// The same number converted to `ty` (truncated, then extended by `ty`'s signedness).
    pub fn narrowed_to(self, ty: IrType) -> IrConst {
        IrConst::new(ty, self.bits)
    }

    /// True when the literal `value` (as written, possibly negative or above `i64::MAX`
    /// as an unsigned pattern) fits `ty` read either as signed or as unsigned.
    pub fn fits(ty: IrType, value: i128) -> bool {
        let bits = ty.max_size() * 8;
        if bits == 0 {
            return false;
        }
        let min = -(1i128 << (bits - 1));
        let max = (1i128 << bits) - 1;
        (min..=max).contains(&value)
    }
}

impl fmt::Display for IrConst {
    /// The number alone, signed for signed types and unsigned otherwise; the `:TYPE`
    /// suffix is the printer's business (it depends on the instruction around it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ty.is_float() {
            return f.write_str(&super::float_text::format_float(self.ty, self.bits as u64));
        }
        if self.ty.is_signed() {
            write!(f, "{}", self.bits)
        } else {
            write!(f, "{}", self.bits as u64)
        }
    }
}

/// An instruction operand: a virtual register or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Value(Value),
    Const(IrConst),
}

impl Operand {
    /// The value, if this operand is one.
    pub fn as_value(&self) -> Option<Value> {
        match self {
            Operand::Value(v) => Some(*v),
            Operand::Const(_) => None,
        }
    }

    /// The constant, if this operand is one.
    pub fn as_const(&self) -> Option<IrConst> {
        match self {
            Operand::Const(c) => Some(*c),
            Operand::Value(_) => None,
        }
    }

    /// A constant operand of type `ty`.
    pub fn konst(ty: IrType, value: i64) -> Operand {
        Operand::Const(IrConst::new(ty, value))
    }
}

impl From<Value> for Operand {
    fn from(v: Value) -> Operand {
        Operand::Value(v)
    }
}

impl From<IrConst> for Operand {
    fn from(c: IrConst) -> Operand {
        Operand::Const(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_wraps_and_extends() {
        let c = IrConst::new(IrType::I64, 300);
        assert_eq!(
            c.narrowed_to(IrType::I8),
            IrConst {
                ty: IrType::I8,
                bits: 44
            }
        );
        assert_eq!(
            IrConst::new(IrType::I64, 255).narrowed_to(IrType::I8).bits,
            -1
        );
        assert_eq!(
            IrConst::new(IrType::I64, -1).narrowed_to(IrType::U16).bits,
            0xffff
        );
        assert_eq!(IrConst::new(IrType::U8, 256), IrConst::zero(IrType::U8));
    }

    #[test]
    fn fits_either_reading() {
        assert!(IrConst::fits(IrType::I8, 255));
        assert!(IrConst::fits(IrType::I8, -128));
        assert!(!IrConst::fits(IrType::I8, 256));
        assert!(!IrConst::fits(IrType::U8, -129));
        assert!(IrConst::fits(IrType::U64, u64::MAX as i128));
        assert!(!IrConst::fits(IrType::Void, 0));
    }
}
