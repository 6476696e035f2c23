//! `printf`'s floating conversions `%f %F %e %E %g %G %a %A`, byte-exact with glibc.
//!
//! Why: the harness compares a program's stdout byte for byte with native builds linked
//! against glibc; a float printed one digit differently would be a false miscompile.
//!
//! How (glibc's `printf_fp.c` and `printf_fphex.c` rules, in the default rounding mode):
//! - decimal digits are the exact binary value correctly rounded to the precision, ties
//!   to even (Rust's exact formatting, `{:.*}` and `{:.*e}`, computes the same digits);
//! - `%e`: `d.ddde±XX`, at least two exponent digits; `%g`: precision P (0 means 1,
//!   default 6), the `%e` exponent X after rounding to P digits chooses `%f` with P-1-X
//!   digits when P > X >= -4, else `%e` with P-1; without `#` trailing zeros and a
//!   trailing point go (with `#`, a rounding carry that moves the value from the `%f`
//!   range to the `%e` one prints the mantissa without zeros, as glibc 2.36 does);
//! - `%a`: `0x1.hhhp±d` for normal numbers, `0x0.hhhp-1022` for subnormals (glibc does not
//!   normalize them), `0x0p+0` for zero; without a precision the shortest exact digits;
//!   with one, the mantissa is rounded to nearest, ties to even (a carry into the leading
//!   digit gives `0x2.000p+e`, as glibc prints);
//! - infinities and NaNs print `inf`/`nan` (`INF`/`NAN` for the upper-case conversions)
//!   with their sign (`-nan` for a NaN whose sign bit is set), never zero-padded;
//! - flags: `-` left-justifies, `+`/space give the sign of a positive value, `0` pads with
//!   zeros after the sign (and after `0x`), also with a precision, `#` keeps the point.
//!
//! Invariants: output goes through [`Stdout`]; a precision beyond the exact digits a
//! double has (1074 after the point) is written as zeros, never formatted in memory.

use super::output::Stdout;
use crate::outcome::Ub;

/// The flags, width and precision of one conversion.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FloatSpec {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: usize,
    pub precision: Option<usize>,
}

/// More fractional digits than any double has: the rest of a precision is zeros.
const EXACT_DIGITS: usize = 1100;

/// Prints `x` with conversion `conv` (one of `fFeEgGaA`).
pub(super) fn print_float(out: &mut Stdout, spec: &FloatSpec, conv: u8, x: f64) -> Result<(), Ub> {
    let upper = conv.is_ascii_uppercase();
    let sign: &[u8] = if x.is_sign_negative() {
        b"-"
    } else if spec.plus {
        b"+"
    } else if spec.space {
        b" "
    } else {
        b""
    };
    if !x.is_finite() {
        let body: &[u8] = match (x.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        let parts = Parts {
            body: body.to_vec(),
            zeros: 0,
            exponent: Vec::new(),
        };
        return emit(out, spec, sign, b"", parts, false);
    }
    let a = x.abs();
    let (prefix, parts): (&[u8], Parts) = match conv.to_ascii_lowercase() {
        b'f' => (b"", fixed(a, spec.precision.unwrap_or(6), spec.alt)),
        b'e' => (
            b"",
            exponential(a, spec.precision.unwrap_or(6), spec.alt, upper),
        ),
        b'g' => (b"", general(a, spec.precision, spec.alt, upper)),
        _ => {
            let prefix: &[u8] = if upper { b"0X" } else { b"0x" };
            (prefix, hex(a, spec.precision, spec.alt, upper))
        }
    };
    emit(out, spec, sign, prefix, parts, spec.zero)
}

/// A number's text without sign and prefix: `body`, then `zeros` zeros (the rest of a
/// long precision), then `exponent`.
struct Parts {
    body: Vec<u8>,
    zeros: usize,
    exponent: Vec<u8>,
}

/// Writes `sign prefix parts`, padded to the width; `zero_pad` pads with zeros after the
/// prefix.
fn emit(
    out: &mut Stdout,
    spec: &FloatSpec,
    sign: &[u8],
    prefix: &[u8],
    parts: Parts,
    zero_pad: bool,
) -> Result<(), Ub> {
    let len = sign.len() + prefix.len() + parts.body.len() + parts.zeros + parts.exponent.len();
    let fill = spec.width.saturating_sub(len);
    let zero_pad = zero_pad && !spec.left;
    if !spec.left && !zero_pad {
        out.repeat(b' ', fill)?;
    }
    out.write(sign)?;
    out.write(prefix)?;
    if zero_pad {
        out.repeat(b'0', fill)?;
    }
    out.write(&parts.body)?;
    out.repeat(b'0', parts.zeros)?;
    out.write(&parts.exponent)?;
    if spec.left {
        out.repeat(b' ', fill)?;
    }
    Ok(())
}

/// `%f` of `a >= 0`.
fn fixed(a: f64, precision: usize, alt: bool) -> Parts {
    let p = precision.min(EXACT_DIGITS);
    let mut s = format!("{a:.p$}").into_bytes();
    if precision == 0 && alt {
        s.push(b'.');
    }
    Parts {
        body: s,
        zeros: precision - p,
        exponent: Vec::new(),
    }
}

/// `%e` of `a >= 0`: `d.ddde±XX`.
fn exponential(a: f64, precision: usize, alt: bool, upper: bool) -> Parts {
    let p = precision.min(EXACT_DIGITS);
    let (mantissa, exp) = split_exponential(a, p);
    let mut s = mantissa.into_bytes();
    if precision == 0 && alt {
        s.push(b'.');
    }
    let mut e = vec![if upper { b'E' } else { b'e' }];
    e.push(if exp < 0 { b'-' } else { b'+' });
    e.extend(format!("{:02}", exp.unsigned_abs()).bytes());
    Parts {
        body: s,
        zeros: precision - p,
        exponent: e,
    }
}

/// Rust's `{:.p$e}` of `a` as (mantissa text, decimal exponent); zero has exponent 0.
fn split_exponential(a: f64, p: usize) -> (String, i32) {
    let text = format!("{a:.p$e}");
    match text.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (text, 0),
    }
}

/// `%g` of `a >= 0`.
fn general(a: f64, precision: Option<usize>, alt: bool, upper: bool) -> Parts {
    let p = match precision {
        None => 6,
        Some(0) => 1,
        Some(p) => p.min(EXACT_DIGITS),
    };
    let x = if a == 0.0 {
        0
    } else {
        split_exponential(a, p - 1).1
    };
    if alt && a != 0.0 && x == p as i32 && split_exponential(a, 40).1 < x {
        // glibc's quirk: when rounding to P digits carries into a new leading digit and
        // so moves a value of the `%f` range into the `%e` one, `%#g` prints the
        // mantissa without its zeros (`%#g` of 999999.5 is `1.e+06`, `%#.3g` of 999.5
        // `1.e+03`).
        let mut parts = exponential(a, 0, true, upper);
        parts.zeros = 0;
        return parts;
    }
    let mut parts = if (p as i64) > i64::from(x) && x >= -4 {
        fixed(a, (p as i64 - 1 - i64::from(x)) as usize, alt)
    } else {
        exponential(a, p - 1, alt, upper)
    };
    if !alt {
        let m = &mut parts.body;
        parts.zeros = 0;
        if m.contains(&b'.') {
            while m.last() == Some(&b'0') {
                m.pop();
            }
            if m.last() == Some(&b'.') {
                m.pop();
            }
        }
    }
    parts
}

/// `%a` of `a >= 0`: `h.hhhp±d` (without `0x`).
fn hex(a: f64, precision: Option<usize>, alt: bool, upper: bool) -> Parts {
    let bits = a.to_bits();
    let biased = (bits >> 52) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = match (biased, frac) {
        (0, 0) => (0u64, 0),
        (0, _) => (0, -1022),
        _ => (1, biased - 1023),
    };
    // 13 hex digits of fraction, exact.
    let mut digits = frac;
    let mut count = 13usize;
    let mut extra = 0usize;
    match precision {
        None => {
            while count > 0 && digits & 0xf == 0 {
                digits >>= 4;
                count -= 1;
            }
        }
        Some(p) if p < 13 => {
            let drop = 4 * (13 - p) as u32;
            let rest = digits & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            digits >>= drop;
            count = p;
            // Ties to even: the last digit kept is the leading one when p is 0.
            let last = if p == 0 { lead } else { digits };
            let round_up = rest > half || (rest == half && last & 1 == 1);
            if round_up {
                digits += 1;
                if digits >> (4 * p as u32) != 0 {
                    digits &= (1u64 << (4 * p as u32)) - 1;
                    lead += 1;
                }
            }
        }
        Some(p) => extra = p - 13,
    }
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut s = vec![table[lead as usize]];
    if count > 0 || extra > 0 || alt {
        s.push(b'.');
    }
    for k in (0..count).rev() {
        s.push(table[((digits >> (4 * k)) & 0xf) as usize]);
    }
    let mut e = vec![if upper { b'P' } else { b'p' }];
    e.push(if exp < 0 { b'-' } else { b'+' });
    e.extend(exp.unsigned_abs().to_string().bytes());
    Parts {
        body: s,
        zeros: extra,
        exponent: e,
    }
}
