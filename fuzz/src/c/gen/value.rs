//! Integer values and C's arithmetic on them, with undefined behaviour detected.
//!
//! Why: the generator knows the value of everything it writes (the expected output is
//! computed, not observed). Each operation here either gives C's result for the
//! operand kinds or says why C leaves it undefined, so the caller can rewrite it.
//!
//! Invariants:
//! - a [`Val`] always holds a value in its kind's range (under the data model it was
//!   made with): conversions wrap modulo 2^N, as gcc defines for out-of-range signed
//!   conversions (implementation-defined, not undefined);
//! - [`binary`] takes operands already converted to the operation's type and never
//!   wraps a signed result: overflow is `Err(Ub::Overflow)`.

use super::types::{DataModel, IntKind};

/// An integer value of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Val {
    pub kind: IntKind,
    pub v: i128,
}

/// Why an operation is undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ub {
    Overflow,
    ShiftCount,
    ShiftNegative,
    DivZero,
}

impl Val {
    /// `v` converted to `kind` (modulo 2^bits).
    pub fn new(kind: IntKind, v: i128, dm: DataModel) -> Val {
        let bits = kind.bits(dm);
        let m = v & ((1i128 << bits) - 1);
        let v = if kind.is_signed() && m >= 1i128 << (bits - 1) {
            m - (1i128 << bits)
        } else {
            m
        };
        Val { kind, v }
    }

    /// This value converted to `kind`.
    pub fn to(self, kind: IntKind, dm: DataModel) -> Val {
        Val::new(kind, self.v, dm)
    }

    /// Converted by the integer promotions.
    pub fn promoted(self, dm: DataModel) -> Val {
        self.to(self.kind.promote(), dm)
    }

    pub fn is_true(self) -> bool {
        self.v != 0
    }

    /// An `int` 0 or 1.
    pub fn boolean(b: bool) -> Val {
        Val {
            kind: IntKind::Int,
            v: b as i128,
        }
    }
}

/// The binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    pub fn c_text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
        }
    }

    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr)
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }

    /// The operators that can be undefined for some values of their (converted) type.
    pub fn can_be_undefined(self, kind: IntKind) -> bool {
        match self {
            BinOp::Add | BinOp::Sub | BinOp::Mul => kind.is_signed(),
            BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr => true,
            _ => false,
        }
    }
}

/// The kind an operation on operands of kinds `a` and `b` computes in: the left
/// operand's promoted kind for shifts, the usual arithmetic conversions otherwise.
pub fn operation_kind(op: BinOp, a: IntKind, b: IntKind, dm: DataModel) -> IntKind {
    if op.is_shift() {
        a.promote()
    } else {
        super::types::common_kind(a, b, dm)
    }
}

/// The kind of the result of `op` (comparisons give `int`).
pub fn result_kind(op: BinOp, a: IntKind, b: IntKind, dm: DataModel) -> IntKind {
    if op.is_comparison() {
        IntKind::Int
    } else {
        operation_kind(op, a, b, dm)
    }
}

/// `a op b` on operand values of any kinds (converted here as C converts them).
pub fn binary(op: BinOp, a: Val, b: Val, dm: DataModel) -> Result<Val, Ub> {
    let k = operation_kind(op, a.kind, b.kind, dm);
    let x = a.to(k, dm).v;
    let (lo, hi) = k.range(dm);
    let bits = k.bits(dm) as i128;
    if op.is_shift() {
        let n = b.promoted(dm).v;
        if n < 0 || n >= bits {
            return Err(Ub::ShiftCount);
        }
        return match op {
            BinOp::Shl => {
                if k.is_signed() {
                    if x < 0 {
                        return Err(Ub::ShiftNegative);
                    }
                    let r = x << n;
                    if r > hi {
                        return Err(Ub::Overflow);
                    }
                    Ok(Val { kind: k, v: r })
                } else {
                    Ok(Val::new(k, x << n, dm))
                }
            }
            _ => Ok(Val { kind: k, v: x >> n }),
        };
    }
    let y = b.to(k, dm).v;
    let exact = |r: i128| -> Result<Val, Ub> {
        if k.is_signed() && (r < lo || r > hi) {
            Err(Ub::Overflow)
        } else {
            Ok(Val::new(k, r, dm))
        }
    };
    match op {
        BinOp::Add => exact(x + y),
        BinOp::Sub => exact(x - y),
        BinOp::Mul => exact(x.wrapping_mul(y)),
        BinOp::Div | BinOp::Mod => {
            if y == 0 {
                return Err(Ub::DivZero);
            }
            // INT_MIN / -1 overflows, and C99 makes INT_MIN % -1 undefined with it.
            if k.is_signed() && x == lo && y == -1 {
                return Err(Ub::Overflow);
            }
            // Rust's / and % truncate toward zero, as C99 does.
            Ok(Val::new(
                k,
                if op == BinOp::Div { x / y } else { x % y },
                dm,
            ))
        }
        BinOp::And => Ok(Val::new(k, x & y, dm)),
        BinOp::Or => Ok(Val::new(k, x | y, dm)),
        BinOp::Xor => Ok(Val::new(k, x ^ y, dm)),
        BinOp::Lt => Ok(Val::boolean(x < y)),
        BinOp::Le => Ok(Val::boolean(x <= y)),
        BinOp::Gt => Ok(Val::boolean(x > y)),
        BinOp::Ge => Ok(Val::boolean(x >= y)),
        BinOp::Eq => Ok(Val::boolean(x == y)),
        BinOp::Ne => Ok(Val::boolean(x != y)),
        BinOp::Shl | BinOp::Shr => unreachable!("shifts handled above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const LP64: DataModel = DataModel { long_bits: 64 };

    fn v(kind: IntKind, x: i128) -> Val {
        Val::new(kind, x, LP64)
    }

    #[test]
    fn arithmetic_follows_c_and_reports_undefined_cases() {
        use IntKind::*;
        // -1 < 0u is false: -1 converts to UINT_MAX.
        assert_eq!(
            binary(BinOp::Lt, v(Int, -1), v(UInt, 0), LP64),
            Ok(v(Int, 0))
        );
        // unsigned short * unsigned short is int arithmetic, and 65535^2 overflows it.
        assert_eq!(
            binary(BinOp::Mul, v(UShort, 65535), v(UShort, 65535), LP64),
            Err(Ub::Overflow)
        );
        assert_eq!(
            binary(BinOp::Add, v(UInt, u32::MAX as i128), v(Int, 1), LP64),
            Ok(v(UInt, 0))
        );
        assert_eq!(
            binary(BinOp::Div, v(Int, i32::MIN as i128), v(Int, -1), LP64),
            Err(Ub::Overflow)
        );
        assert_eq!(
            binary(BinOp::Mod, v(Int, -7), v(Int, 2), LP64),
            Ok(v(Int, -1))
        );
        assert_eq!(
            binary(BinOp::Shl, v(Int, 1), v(Int, 31), LP64),
            Err(Ub::Overflow)
        );
        assert_eq!(
            binary(BinOp::Shl, v(Int, -1), v(Int, 1), LP64),
            Err(Ub::ShiftNegative)
        );
        assert_eq!(
            binary(BinOp::Shr, v(Int, -8), v(Int, 1), LP64),
            Ok(v(Int, -4))
        );
        assert_eq!(
            binary(BinOp::Shl, v(UChar, 1), v(Int, 32), LP64),
            Err(Ub::ShiftCount)
        );
        assert_eq!(
            v(SChar, 200),
            Val {
                kind: SChar,
                v: -56
            }
        );
    }
}
