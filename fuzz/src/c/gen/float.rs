//! `float` and `double` values of generated programs, and C's IEEE arithmetic on them.
//!
//! Why: the generator knows every value it prints, floats included, so it needs IEEE
//! binary32/binary64 exactly as every target computes them with FLT_EVAL_METHOD 0 (x86-64
//! SSE2, i686 with `-msse2 -mfpmath=sse`, AArch64, RISC-V LP64D): each operation in its own
//! type, rounded once to nearest-even. Rust's `f32`/`f64` operations are exactly that; only
//! a NaN's sign and payload are not fixed (neither are they in C: see the invariants).
//!
//! Invariants:
//! - an [`FVal`] holds the bits of a value of its kind (an `f32` in the low 32 bits);
//! - a NaN's sign and payload are never observed: a printed or checksummed float goes
//!   through the program's `float_bits`/`double_bits`, which map every NaN to
//!   [`NAN_MARK`] (so x86's negative default NaN and AArch64's payload propagation print
//!   alike), a NaN converted to an integer is guarded (see [`guard_range`]), and a
//!   comparison does not see the sign or payload;
//! - nothing here is undefined in C with Annex F (which gcc and phicc follow): division by
//!   zero gives an infinity or a NaN, overflow an infinity; the only undefined float
//!   operation, a conversion to an integer of a value out of range or a NaN, is guarded by
//!   the evaluator (`Expr::FToInt`).

use super::types::IntKind;
use super::value::BinOp;

/// `float` or `double`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FKind {
    Float,
    Double,
}

impl FKind {
    pub fn c_name(self) -> &'static str {
        match self {
            FKind::Float => "float",
            FKind::Double => "double",
        }
    }

    /// The usual arithmetic conversions of two float kinds (6.3.1.8): `double` wins.
    pub fn common(a: FKind, b: FKind) -> FKind {
        if a == FKind::Double || b == FKind::Double {
            FKind::Double
        } else {
            FKind::Float
        }
    }

    /// The name of the program's helper that prints this kind's bits.
    pub fn bits_helper(self) -> &'static str {
        match self {
            FKind::Float => "float_bits",
            FKind::Double => "double_bits",
        }
    }
}

/// What `float_bits`/`double_bits` return for any NaN.
pub const NAN_MARK: u64 = u64::MAX;

/// The helpers every program with floats defines: the bits of a float (a NaN as
/// [`NAN_MARK`]) and the guarded float-to-integer conversion.
pub const FLOAT_HELPERS_C: &str = "static unsigned long long float_bits(float x)\n\
{\n    unsigned int u;\n    if (x != x)\n        return 0xffffffffffffffffULL;\n    \
memcpy(&u, &x, sizeof u);\n    return u;\n}\n\
static unsigned long long double_bits(double x)\n\
{\n    unsigned long long u;\n    if (x != x)\n        return 0xffffffffffffffffULL;\n    \
memcpy(&u, &x, sizeof u);\n    return u;\n}\n\
static long long float_to_int(double x, double lo, double hi)\n\
{\n    return (x > lo && x < hi) ? (long long)x : 0;\n}\n";

/// A float value of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FVal {
    pub kind: FKind,
    pub bits: u64,
}

impl FVal {
    /// `x` converted to `kind` (rounded to nearest-even for `float`).
    pub fn from_f64(kind: FKind, x: f64) -> FVal {
        match kind {
            FKind::Float => FVal::from_f32(x as f32),
            FKind::Double => FVal {
                kind,
                bits: x.to_bits(),
            },
        }
    }

    pub fn from_f32(x: f32) -> FVal {
        FVal {
            kind: FKind::Float,
            bits: x.to_bits() as u64,
        }
    }

    /// The exact value as an `f64` (every `f32` is one).
    pub fn f64(self) -> f64 {
        match self.kind {
            FKind::Float => f32::from_bits(self.bits as u32) as f64,
            FKind::Double => f64::from_bits(self.bits),
        }
    }

    fn f32(self) -> f32 {
        f32::from_bits(self.bits as u32)
    }

    /// This value converted to `kind` (exact to `double`, rounded to `float`).
    pub fn to(self, kind: FKind) -> FVal {
        if kind == self.kind {
            self
        } else {
            FVal::from_f64(kind, self.f64())
        }
    }

    pub fn is_nan(self) -> bool {
        self.f64().is_nan()
    }

    /// `-x`: the sign bit flipped.
    pub fn negated(self) -> FVal {
        let sign = match self.kind {
            FKind::Float => 1u64 << 31,
            FKind::Double => 1u64 << 63,
        };
        FVal {
            kind: self.kind,
            bits: self.bits ^ sign,
        }
    }

    /// What `float_bits`/`double_bits` return for this value.
    pub fn observed_bits(self) -> u64 {
        if self.is_nan() {
            NAN_MARK
        } else {
            self.bits
        }
    }

    /// The integer `v` (of at most 64 bits) converted to `kind`: rounded once, to
    /// nearest-even (Rust's integer-to-float `as` is exactly that).
    pub fn from_int(kind: FKind, v: i128) -> FVal {
        match kind {
            FKind::Float => FVal::from_f32(v as f32),
            FKind::Double => FVal::from_f64(FKind::Double, v as f64),
        }
    }
}

/// The float arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl FOp {
    pub const ALL: [FOp; 4] = [FOp::Add, FOp::Sub, FOp::Mul, FOp::Div];

    pub fn c_text(self) -> &'static str {
        match self {
            FOp::Add => "+",
            FOp::Sub => "-",
            FOp::Mul => "*",
            FOp::Div => "/",
        }
    }
}

/// `a op b` in the common kind of the operands, rounded once in that kind.
pub fn arith(op: FOp, a: FVal, b: FVal) -> FVal {
    let k = FKind::common(a.kind, b.kind);
    let (a, b) = (a.to(k), b.to(k));
    match k {
        FKind::Float => {
            let (x, y) = (a.f32(), b.f32());
            FVal::from_f32(match op {
                FOp::Add => x + y,
                FOp::Sub => x - y,
                FOp::Mul => x * y,
                FOp::Div => x / y,
            })
        }
        FKind::Double => {
            let (x, y) = (a.f64(), b.f64());
            FVal::from_f64(
                k,
                match op {
                    FOp::Add => x + y,
                    FOp::Sub => x - y,
                    FOp::Mul => x * y,
                    FOp::Div => x / y,
                },
            )
        }
    }
}

/// C's comparison `a op b` (a NaN makes every operator false but `!=`). Comparing in
/// `f64` is exact for both kinds.
pub fn compare(op: BinOp, a: FVal, b: FVal) -> bool {
    let (x, y) = (a.f64(), b.f64());
    match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Eq => x == y,
        _ => x != y,
    }
}

/// The open interval `(lo, hi)` of values the guarded conversion to `k` converts (its
/// truncation fits `k` under every data model: `long` as 32 bits, and within `long long`,
/// which `float_to_int` returns); outside it, and for a NaN, it gives 0. `lo` and `hi` are
/// exact `double`s (powers of two, or -2^(b-1) - 1 which is exact up to 32 bits and rounds
/// to -2^63 for 64, a narrower interval).
pub fn guard_range(k: IntKind) -> (f64, f64) {
    let b = k.bits(super::context::NARROW_DM) as i32;
    if k.is_signed() {
        (-(2f64.powi(b - 1)) - 1.0, 2f64.powi(b - 1))
    } else {
        (-1.0, 2f64.powi(b.min(63)))
    }
}

/// What `float_to_int(x, lo, hi)` converted to `k` gives (see [`guard_range`]).
pub fn guarded_to_int(x: FVal, k: IntKind) -> i128 {
    let (lo, hi) = guard_range(k);
    let v = x.f64();
    if v > lo && v < hi {
        v.trunc() as i128
    } else {
        0
    }
}

/// The truncation of `x` if C's conversion to an integer kind of range `lo..=hi` is
/// defined for it (not a NaN, truncation in range), else `None`.
pub fn plain_to_int(x: FVal, (lo, hi): (i128, i128)) -> Option<i128> {
    let v = x.f64();
    if v.is_nan() || v.is_infinite() {
        return None;
    }
    let t = v.trunc();
    // |t| < 2^1024 always; compare in f64 against the exact bounds (at most 2^64 here).
    if t < lo as f64 || t > hi as f64 {
        return None;
    }
    let t = t as i128;
    (lo..=hi).contains(&t).then_some(t)
}

/// An exact C literal of `x` (a `double` literal; `float` adds the `f` suffix, and a
/// `float` value is exactly representable, so its literal reads back exactly): hexadecimal,
/// negative values as `(-LIT)`. Infinities and NaNs have no literal: callers never ask.
pub fn literal(x: FVal) -> String {
    let v = x.f64();
    let sfx = if x.kind == FKind::Float { "f" } else { "" };
    let body = hex_magnitude(v.abs());
    if v.is_sign_negative() {
        format!("(-{body}{sfx})")
    } else {
        format!("{body}{sfx}")
    }
}

/// `0x1.HHHHp+E` (normal) or `0x0.HHHHp-1022` (subnormal) for a finite `v >= 0` (as an
/// `f64`), trailing zero digits dropped.
fn hex_magnitude(v: f64) -> String {
    if v == 0.0 {
        return "0x0p+0".into();
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (lead, e) = if exp == 0 {
        (0, -1022)
    } else {
        (1, exp - 1023)
    };
    let mut digits = format!("{frac:013x}");
    while digits.ends_with('0') {
        digits.pop();
    }
    let sign = if e < 0 { "-" } else { "+" };
    if digits.is_empty() {
        format!("0x{lead}p{sign}{}", e.abs())
    } else {
        format!("0x{lead}.{digits}p{sign}{}", e.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_exact_hex() {
        assert_eq!(literal(FVal::from_f64(FKind::Double, 1.5)), "0x1.8p+0");
        assert_eq!(literal(FVal::from_f64(FKind::Float, -0.0)), "(-0x0p+0f)");
        assert_eq!(
            literal(FVal::from_f64(FKind::Double, 0.1)),
            "0x1.999999999999ap-4"
        );
        // The smallest subnormal double, 2^-1074.
        assert_eq!(
            literal(FVal::from_f64(FKind::Double, f64::from_bits(1))),
            "0x0.0000000000001p-1022"
        );
        // The smallest subnormal float, 2^-149, is a normal double.
        assert_eq!(literal(FVal::from_f32(f32::from_bits(1))), "0x1p-149f");
        assert_eq!(
            literal(FVal::from_f64(FKind::Double, -1024.0)),
            "(-0x1p+10)"
        );
    }

    #[test]
    fn arithmetic_rounds_once_in_the_common_kind() {
        let f = |x: f32| FVal::from_f32(x);
        // 2^24 + 1 is a tie in float: rounds to even, 2^24 (by hand).
        assert_eq!(arith(FOp::Add, f(16777216.0), f(1.0)).f64(), 16777216.0);
        // float + double is double: 2^24 + 1 exactly.
        let d = FVal::from_f64(FKind::Double, 1.0);
        assert_eq!(arith(FOp::Add, f(16777216.0), d).f64(), 16777217.0);
        // 0.0 / 0.0 is a NaN, observed as the mark; -NaN too.
        let nan = arith(FOp::Div, f(0.0), f(0.0));
        assert_eq!(nan.observed_bits(), NAN_MARK);
        assert_eq!(nan.negated().observed_bits(), NAN_MARK);
        assert!(compare(BinOp::Ne, nan, nan));
        assert!(!compare(BinOp::Eq, nan, nan));
        assert!(!compare(BinOp::Ge, nan, f(0.0)));
    }

    #[test]
    fn conversions_to_integers_are_guarded_at_the_edges() {
        // INT_MAX + 1 = 2^31 does not fit an int; 2^31 - 128 (a float) does.
        let two31 = FVal::from_f32(2147483648.0);
        assert_eq!(plain_to_int(two31, (-(1 << 31), (1 << 31) - 1)), None);
        assert_eq!(guarded_to_int(two31, IntKind::Int), 0);
        let below = FVal::from_f32(2147483520.0);
        assert_eq!(guarded_to_int(below, IntKind::Int), 2147483520);
        // -0.9 truncates to 0: defined even for unsigned.
        let neg = FVal::from_f64(FKind::Double, -0.9);
        assert_eq!(plain_to_int(neg, (0, 255)), Some(0));
        assert_eq!(guarded_to_int(neg, IntKind::UChar), 0);
        // A NaN is never converted.
        let nan = FVal::from_f64(FKind::Double, f64::NAN);
        assert_eq!(plain_to_int(nan, (0, 255)), None);
        assert_eq!(guarded_to_int(nan, IntKind::LLong), 0);
        // u32 -> float rounds to nearest-even: 2^31 + 129 -> 2^31 + 256 (by hand).
        let r = FVal::from_int(FKind::Float, (1 << 31) + 129);
        assert_eq!(r.f64(), 2147483904.0);
    }
}
