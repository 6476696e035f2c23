//! The `<math.h>` functions the oracle runs: only those whose result IEEE 754 fixes
//! exactly (exact operations, or correctly rounded ones), so every target's libm agrees.
//!
//! Why: a transcendental function (`sin`, `exp`, `pow`, ...) is not correctly rounded in
//! glibc and differs between targets in the last bit; the oracle could not say what a
//! native run must print. Those stay unmodelled (a program calling them is refused when
//! the oracle loads it, naming the function); the functions here are exact:
//! `sqrt` (correctly rounded by IEEE 754), `fabs floor ceil trunc round fmod copysign
//! fmin fmax ldexp frexp modf` and their `f` variants.
//!
//! Invariants: arguments must have the prototype's IR types (`f64`, or `f32` for the `f`
//! variants; `i32` exponents; pointers) or the call is `BadLibcCall`; a NaN result computed
//! from non-NaN operands is the default NaN, as the IR's arithmetic gives (docs/ir-notes.md);
//! `fabs` and `copysign` move bits only. `fmin`/`fmax` of two zeros of different signs is
//! unspecified by C and differs between targets (x86-64's `minsd` returns the second
//! operand, AArch64's `fminnm` the negative zero): it is `BadLibcCall`, so such a run is
//! discarded rather than compared.

use super::memory::Memory;
use crate::outcome::Ub;
use compiler::ir::IrType;

/// A supported math function (`single`: the `f` variant on `float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MathFn {
    op: MathOp,
    single: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MathOp {
    Sqrt,
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Round,
    Fmod,
    Copysign,
    Fmin,
    Fmax,
    Ldexp,
    Frexp,
    Modf,
}

const OPS: [(MathOp, &str, &str); 13] = [
    (MathOp::Sqrt, "sqrt", "sqrtf"),
    (MathOp::Fabs, "fabs", "fabsf"),
    (MathOp::Floor, "floor", "floorf"),
    (MathOp::Ceil, "ceil", "ceilf"),
    (MathOp::Trunc, "trunc", "truncf"),
    (MathOp::Round, "round", "roundf"),
    (MathOp::Fmod, "fmod", "fmodf"),
    (MathOp::Copysign, "copysign", "copysignf"),
    (MathOp::Fmin, "fmin", "fminf"),
    (MathOp::Fmax, "fmax", "fmaxf"),
    (MathOp::Ldexp, "ldexp", "ldexpf"),
    (MathOp::Frexp, "frexp", "frexpf"),
    (MathOp::Modf, "modf", "modff"),
];

/// The math functions phicc's `<math.h>` declares that the oracle does not model.
pub(crate) const UNMODELLED: [&str; 19] = [
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2",
    "log", "log2", "log10", "pow", "cbrt", "hypot", "expm1",
];

impl MathFn {
    pub fn by_name(name: &str) -> Option<MathFn> {
        OPS.iter().find_map(|&(op, d, f)| {
            if name == d {
                Some(MathFn { op, single: false })
            } else if name == f {
                Some(MathFn { op, single: true })
            } else {
                None
            }
        })
    }

    pub fn name(self) -> &'static str {
        let entry = OPS.iter().find(|e| e.0 == self.op).unwrap_or(&OPS[0]);
        if self.single {
            entry.2
        } else {
            entry.1
        }
    }

    /// Named parameters of the prototype.
    pub fn arity(self) -> usize {
        match self.op {
            MathOp::Fmod
            | MathOp::Copysign
            | MathOp::Fmin
            | MathOp::Fmax
            | MathOp::Ldexp
            | MathOp::Frexp
            | MathOp::Modf => 2,
            _ => 1,
        }
    }

    fn float_type(self) -> IrType {
        if self.single {
            IrType::F32
        } else {
            IrType::F64
        }
    }

    /// Runs the function on `args`; returns the result's raw bits.
    pub fn call(self, args: &[(IrType, u64)], mem: &mut Memory) -> Result<u64, Ub> {
        let ft = self.float_type();
        let float_arg = |i: usize| -> Result<f64, Ub> {
            match args.get(i) {
                Some(&(t, v)) if t == ft => Ok(if self.single {
                    f64::from(f32::from_bits(v as u32))
                } else {
                    f64::from_bits(v)
                }),
                _ => Err(Ub::BadLibcCall),
            }
        };
        let raw = |i: usize| args.get(i).map_or(0, |a| a.1);
        let x = float_arg(0)?;
        // Every result below is exact in the argument's type, so computing in f64 and
        // narrowing an f32 result loses nothing (sqrt: one f64 rounding of an f32
        // operand, then to f32, is the correctly rounded f32 square root: 53 >= 2*24+2).
        let result = match self.op {
            MathOp::Sqrt => x.sqrt(),
            MathOp::Floor => x.floor(),
            MathOp::Ceil => x.ceil(),
            MathOp::Trunc => x.trunc(),
            MathOp::Round => x.round(),
            MathOp::Fmod => x % float_arg(1)?,
            MathOp::Fabs => return Ok(self.with_sign(raw(0), false)),
            MathOp::Copysign => {
                float_arg(1)?;
                let negative = self.sign_of(raw(1));
                return Ok(self.with_sign(raw(0), negative));
            }
            MathOp::Fmin | MathOp::Fmax => {
                let y = float_arg(1)?;
                if x == 0.0 && y == 0.0 && x.is_sign_negative() != y.is_sign_negative() {
                    return Err(Ub::BadLibcCall);
                }
                if x.is_nan() {
                    return Ok(raw(1));
                }
                if y.is_nan() {
                    return Ok(raw(0));
                }
                let pick_x = if self.op == MathOp::Fmin {
                    x < y
                } else {
                    x > y
                };
                return Ok(if pick_x { raw(0) } else { raw(1) });
            }
            MathOp::Ldexp => {
                if !matches!(args.get(1), Some(&(IrType::I32, _))) {
                    return Err(Ub::BadLibcCall);
                }
                let n = raw(1) as u32 as i32;
                if self.single {
                    return Ok(u64::from(ldexp_f32(x as f32, n).to_bits()));
                }
                ldexp(x, n)
            }
            MathOp::Frexp => {
                let p = self.pointer_arg(args)?;
                let (m, e) = frexp(x);
                mem.store(p, 4, u64::from(e as u32))?;
                m
            }
            MathOp::Modf => {
                let p = self.pointer_arg(args)?;
                let int = x.trunc();
                let frac = if x.is_infinite() {
                    0.0f64.copysign(x)
                } else {
                    (x - int).copysign(x)
                };
                mem.store(p, if self.single { 4 } else { 8 }, self.bits(int))?;
                frac
            }
        };
        Ok(self.bits(result))
    }

    fn pointer_arg(self, args: &[(IrType, u64)]) -> Result<u64, Ub> {
        match args.get(1) {
            Some(&(IrType::Ptr, p)) => Ok(p),
            _ => Err(Ub::BadLibcCall),
        }
    }

    /// `v` in the function's type as raw bits; a NaN is the default NaN.
    fn bits(self, v: f64) -> u64 {
        match (self.single, v.is_nan()) {
            (true, true) => compiler::ir::eval_float::default_nan(IrType::F32),
            (false, true) => compiler::ir::eval_float::default_nan(IrType::F64),
            (true, false) => u64::from((v as f32).to_bits()),
            (false, false) => v.to_bits(),
        }
    }

    fn sign_of(self, raw: u64) -> bool {
        if self.single {
            raw & (1 << 31) != 0
        } else {
            raw & (1 << 63) != 0
        }
    }

    fn with_sign(self, raw: u64, negative: bool) -> u64 {
        let bit = if self.single { 1u64 << 31 } else { 1u64 << 63 };
        let magnitude = raw & (bit - 1) & if self.single { 0xffff_ffff } else { u64::MAX };
        if negative {
            magnitude | bit
        } else {
            magnitude
        }
    }
}

/// `x` = m * 2^e with 0.5 <= |m| < 1 (zero, infinities and NaNs: themselves, e = 0).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (x, bias) = if x.abs() < f64::MIN_POSITIVE {
        (x * 2f64.powi(64), -64)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1022;
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, e + bias)
}

/// `x * 2^n`, correctly rounded (one rounding, also into the subnormals).
fn ldexp(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let (m, e) = frexp(x);
    let target = i64::from(e) + i64::from(n);
    if target > 1024 {
        return f64::INFINITY.copysign(x);
    }
    if target >= -1021 {
        // Normal: exact, as two exact power-of-two scalings.
        let t = target as i32;
        return m * 2f64.powi(t / 2) * 2f64.powi(t - t / 2);
    }
    // Subnormal or zero: |m| * 2^53 is an integer M; the result is M * 2^(target - 53),
    // i.e. M >> (-1074 - (target - 53)) units of 2^-1074, rounded to nearest-even.
    let big = (m.abs() * 2f64.powi(53)) as u64;
    let shift = (-1074 - (target - 53)) as u64;
    let units = round_shift(big, shift);
    f64::from_bits(units).copysign(x)
}

/// `x * 2^n` rounded once to `f32`.
fn ldexp_f32(x: f32, n: i32) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let (m, e) = frexp(f64::from(x));
    let target = i64::from(e) + i64::from(n);
    if target > 128 {
        return f32::INFINITY.copysign(x);
    }
    if target >= -125 {
        return ldexp(f64::from(x), n) as f32;
    }
    let big = (m.abs() * 2f64.powi(24)) as u64;
    let shift = (-149 - (target - 24)) as u64;
    f32::from_bits(round_shift(big, shift) as u32).copysign(x)
}

/// `v >> shift`, rounded to nearest, ties to even.
fn round_shift(v: u64, shift: u64) -> u64 {
    if shift == 0 {
        return v;
    }
    if shift >= 64 {
        return 0;
    }
    let q = v >> shift;
    let rest = v & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if rest > half || (rest == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ldexp_rounds_once() {
        assert_eq!(ldexp(1.5, 3), 12.0);
        assert_eq!(ldexp(1.0, -1074), f64::from_bits(1));
        // 1.5 * 2^-1075 is 0.75 units: rounds to 1 unit.
        assert_eq!(ldexp(1.5, -1075), f64::from_bits(1));
        // 0.5 units exactly: ties to even, 0.
        assert_eq!(ldexp(1.0, -1075), 0.0);
        assert_eq!(ldexp(1.0, 1024), f64::INFINITY);
        assert_eq!(ldexp(f64::MIN_POSITIVE, -1), f64::MIN_POSITIVE / 2.0);
        assert_eq!(ldexp_f32(1.0, -149), f32::from_bits(1));
        assert_eq!(ldexp_f32(3.0, -151), f32::from_bits(1));
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(f64::from_bits(1)), (0.5, -1073));
    }
}
