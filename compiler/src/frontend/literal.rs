//! Decoding of literal spellings: pp-numbers into integer and floating constants,
//! character constants into their `int` value, string literals into bytes.
//!
//! Why it exists: phase 7 (`classify`) and `#if` evaluation both need the value of a
//! constant, with the same rules and the same error messages.
//!
//! Invariants:
//! - Functions take the exact spelling and return a message (no location; the caller
//!   knows the token's position) on malformed input; they never panic.
//! - Values follow C99 and gcc: an integer constant that does not fit in 64 bits is an
//!   error; floating constants are correctly rounded (hex ones by exact bit
//!   arithmetic); a character constant is an `int`, one character converted through
//!   plain `char` of the target, several packed big-endian as gcc does (the last four
//!   bytes kept, sign taken from bit 31).
//! - Only narrow (unprefixed) character constants and string literals are accepted
//!   (`u8` strings too, which are the same bytes); `u` and `U` ones are rejected
//!   with a clear message. `L` ones never reach this file: `wide_literal` decodes them.

use super::token::{FloatLit, FloatSuffix, IntLit, LongSuffix, Radix};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    Int(IntLit),
    Float(FloatLit),
}

/// Parses a pp-number as a C integer or floating constant.
pub(crate) fn parse_number(s: &str) -> Result<Number, String> {
    let b = s.as_bytes();
    let hex = b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X');
    let float = if hex {
        s.bytes().any(|c| matches!(c, b'.' | b'p' | b'P'))
    } else {
        s.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'))
    };
    if float {
        if hex {
            parse_hex_float(s).map(Number::Float)
        } else {
            parse_decimal_float(s).map(Number::Float)
        }
    } else {
        parse_integer(s).map(Number::Int)
    }
}

/// Reads an integer suffix: `u`, `l`, `ll` in any case and order (`ll` in one case).
fn parse_int_suffix(suffix: &str) -> Option<(bool, LongSuffix)> {
    let mut rest = suffix;
    let mut unsigned = false;
    if let Some(r) = rest.strip_prefix(['u', 'U']) {
        unsigned = true;
        rest = r;
    }
    let mut long = LongSuffix::None;
    if let Some(r) = rest.strip_prefix("ll").or_else(|| rest.strip_prefix("LL")) {
        long = LongSuffix::LongLong;
        rest = r;
    } else if let Some(r) = rest.strip_prefix(['l', 'L']) {
        long = LongSuffix::Long;
        rest = r;
    }
    if !unsigned {
        if let Some(r) = rest.strip_prefix(['u', 'U']) {
            unsigned = true;
            rest = r;
        }
    }
    rest.is_empty().then_some((unsigned, long))
}

pub(crate) fn parse_integer(s: &str) -> Result<IntLit, String> {
    let b = s.as_bytes();
    let (radix, digits_from) = if b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        (Radix::Hex, 2)
    } else if b.first() == Some(&b'0') {
        (Radix::Octal, 0)
    } else {
        (Radix::Decimal, 0)
    };
    let base: u64 = match radix {
        Radix::Hex => 16,
        Radix::Octal => 8,
        Radix::Decimal => 10,
    };
    let digits_end = b[digits_from..]
        .iter()
        .position(|c| {
            if radix == Radix::Hex {
                !c.is_ascii_hexdigit()
            } else {
                !c.is_ascii_digit()
            }
        })
        .map_or(b.len(), |p| p + digits_from);
    if digits_end == digits_from {
        // `0x` with no digits: gcc reports the `x...` as the suffix of `0`.
        return Err(format!(
            "invalid suffix \"{}\" on integer constant",
            &s[1..]
        ));
    }
    let Some((unsigned, long)) = parse_int_suffix(&s[digits_end..]) else {
        return Err(format!(
            "invalid suffix \"{}\" on integer constant",
            &s[digits_end..]
        ));
    };
    let mut value: u64 = 0;
    for &c in &b[digits_from..digits_end] {
        let digit = (c as char).to_digit(16).unwrap_or(0) as u64;
        if digit >= base {
            return Err(format!("invalid digit \"{}\" in octal constant", c as char));
        }
        value = value
            .checked_mul(base)
            .and_then(|v| v.checked_add(digit))
            .ok_or_else(|| "integer constant is too large for its type".to_string())?;
    }
    Ok(IntLit {
        value,
        radix,
        unsigned,
        long,
    })
}

fn parse_float_suffix(suffix: &str, kind: &str) -> Result<FloatSuffix, String> {
    match suffix {
        "" => Ok(FloatSuffix::None),
        "f" | "F" => Ok(FloatSuffix::F),
        "l" | "L" => Ok(FloatSuffix::L),
        _ => Err(format!("invalid suffix \"{suffix}\" on {kind} constant")),
    }
}

/// Length of the run of bytes satisfying `pred` at the start of `b`.
fn run(b: &[u8], pred: impl Fn(u8) -> bool) -> usize {
    b.iter().position(|&c| !pred(c)).unwrap_or(b.len())
}

/// Scans an exponent `[+-]? digits` starting at `b[at]` (just after `e` or `p`);
/// returns the end offset.
fn scan_exponent(b: &[u8], at: usize) -> Result<usize, String> {
    let mut i = at;
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = run(&b[i.min(b.len())..], |c| c.is_ascii_digit());
    if digits == 0 {
        return Err("exponent has no digits".to_string());
    }
    Ok(i + digits)
}

fn parse_decimal_float(s: &str) -> Result<FloatLit, String> {
    let b = s.as_bytes();
    let int_digits = run(b, |c| c.is_ascii_digit());
    let mut i = int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = run(&b[i..], |c| c.is_ascii_digit());
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return Err(format!("invalid floating constant \"{s}\""));
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i = scan_exponent(b, i + 1)?;
    }
    let suffix = parse_float_suffix(&s[i..], "floating")?;
    let text = &s[..i];
    let value = match suffix {
        FloatSuffix::F => text.parse::<f32>().map(f64::from),
        _ => text.parse::<f64>(),
    }
    .map_err(|_| format!("invalid floating constant \"{s}\""))?;
    Ok(FloatLit { value, suffix })
}

fn parse_hex_float(s: &str) -> Result<FloatLit, String> {
    let b = s.as_bytes();
    // Significant bits gathered so far (at most 64), the binary exponent that scales
    // them, and whether any nonzero digit was dropped (the sticky bit for rounding).
    let mut mantissa: u64 = 0;
    let mut exponent: i64 = 0;
    let mut sticky = false;
    let mut digits = 0;
    let mut i = 2;
    let mut after_point = false;
    while i < b.len() {
        let c = b[i];
        if c == b'.' && !after_point {
            after_point = true;
        } else if let Some(d) = (c as char).to_digit(16) {
            digits += 1;
            if mantissa >> 60 == 0 {
                mantissa = mantissa << 4 | d as u64;
                if after_point {
                    exponent -= 4;
                }
            } else {
                sticky |= d != 0;
                if !after_point {
                    exponent += 4;
                }
            }
        } else {
            break;
        }
        i += 1;
    }
    if digits == 0 {
        return Err(format!("invalid floating constant \"{s}\""));
    }
    if !matches!(b.get(i), Some(b'p' | b'P')) {
        return Err("hexadecimal floating constants require an exponent".to_string());
    }
    let exp_start = i + 1;
    let exp_end = scan_exponent(b, exp_start)?;
    let written: i64 = s[exp_start..exp_end].parse::<i64>().unwrap_or_else(|_| {
        if b[exp_start] == b'-' {
            -1_000_000
        } else {
            1_000_000
        }
    });
    exponent = exponent.saturating_add(written.clamp(-1_000_000, 1_000_000));
    let suffix = parse_float_suffix(&s[exp_end..], "floating")?;
    let value = match suffix {
        FloatSuffix::F => round_binary(mantissa, exponent, sticky, 24, 127),
        _ => round_binary(mantissa, exponent, sticky, 53, 1023),
    };
    Ok(FloatLit { value, suffix })
}

/// `mantissa * 2^exponent` (plus a sticky fraction below the mantissa's last bit)
/// rounded to nearest-even in a binary format with `precision` significand bits and
/// maximum exponent `emax` (minimum normal exponent `1 - emax`), as an exact `f64`.
fn round_binary(
    mut mantissa: u64,
    mut exponent: i64,
    sticky: bool,
    precision: i64,
    emax: i64,
) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let bits = 64 - mantissa.leading_zeros() as i64;
    // The value lies in [2^top, 2^(top+1)).
    let top = exponent + bits - 1;
    let emin = 1 - emax;
    // Below the normal range fewer bits are kept (subnormals); far below, none.
    let keep = if top >= emin {
        precision
    } else {
        precision - (emin - top)
    };
    if keep < 0 {
        return 0.0;
    }
    let drop = bits - keep;
    if drop > 0 {
        let drop = drop.min(64) as u32;
        let half = 1u64 << (drop - 1);
        let low = if drop == 64 {
            mantissa
        } else {
            mantissa & ((1u64 << drop) - 1)
        };
        mantissa = mantissa.checked_shr(drop).unwrap_or(0);
        exponent += i64::from(drop);
        let above_half = low > half || (low == half && sticky);
        let exactly_half = low == half && !sticky;
        // Round to nearest, ties to even.
        if above_half || (exactly_half && mantissa & 1 == 1) {
            mantissa += 1;
        }
    }
    let bits_now = 64 - mantissa.leading_zeros() as i64;
    if mantissa != 0 && exponent + bits_now - 1 > emax {
        return f64::INFINITY;
    }
    scale_by_power_of_two(mantissa as f64, exponent)
}

/// `x * 2^e` computed in steps that stay exact when the result is representable.
fn scale_by_power_of_two(mut x: f64, mut e: i64) -> f64 {
    let big = 2f64.powi(600);
    let small = 2f64.powi(-600);
    while e > 600 {
        x *= big;
        e -= 600;
    }
    while e < -600 {
        x *= small;
        e += 600;
    }
    x * 2f64.powi(e as i32)
}

/// An escape sequence's value before it is fitted to a character type.
pub(crate) enum Escape {
    /// A simple escape (`\n`, `\e`, ...) or an unknown one (the character itself,
    /// warned about as gcc does).
    Plain(u8),
    /// An octal escape (at most three digits).
    Octal(u32),
    /// A hexadecimal escape (saturated at `u64::MAX`).
    Hex(u64),
    /// A universal character name `\u`/`\U`: a valid code point.
    Universal(u32),
}

/// Reads the escape after a backslash at `body[*i]` (the byte after `\`), advancing
/// `*i` past it. Narrow (`decode_escape`) and wide (`wide_literal`) literals fit the
/// value to their character type.
pub(crate) fn read_escape(
    body: &[u8],
    i: &mut usize,
    warnings: &mut Vec<String>,
) -> Result<Escape, String> {
    let Some(&c) = body.get(*i) else {
        return Err("missing character after '\\'".to_string());
    };
    *i += 1;
    let simple = match c {
        b'n' => Some(b'\n'),
        b't' => Some(b'\t'),
        b'\\' | b'\'' | b'"' | b'?' => Some(c),
        b'a' => Some(7),
        b'b' => Some(8),
        b'f' => Some(12),
        b'r' => Some(b'\r'),
        b'v' => Some(11),
        b'e' | b'E' => Some(27),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok(Escape::Plain(v));
    }
    match c {
        b'0'..=b'7' => {
            let mut value = u32::from(c - b'0');
            let mut count = 1;
            while count < 3 {
                match body.get(*i) {
                    Some(&d @ b'0'..=b'7') => {
                        value = value * 8 + u32::from(d - b'0');
                        *i += 1;
                        count += 1;
                    }
                    _ => break,
                }
            }
            Ok(Escape::Octal(value))
        }
        b'x' => {
            let mut value: u64 = 0;
            let mut count = 0;
            while let Some(d) = body.get(*i).and_then(|&d| (d as char).to_digit(16)) {
                value = value.saturating_mul(16).saturating_add(u64::from(d));
                *i += 1;
                count += 1;
            }
            if count == 0 {
                return Err("\\x used with no following hex digits".to_string());
            }
            Ok(Escape::Hex(value))
        }
        b'u' | b'U' => {
            let digits = if c == b'u' { 4 } else { 8 };
            let text = body
                .get(*i..*i + digits)
                .and_then(|s| std::str::from_utf8(s).ok())
                .filter(|s| s.bytes().all(|d| d.is_ascii_hexdigit()));
            let Some(text) = text else {
                return Err(format!(
                    "incomplete universal character name \\{}",
                    c as char
                ));
            };
            *i += digits;
            let value = u32::from_str_radix(text, 16)
                .map_err(|_| "invalid universal character name".to_string())?;
            if char::from_u32(value).is_none() {
                return Err(format!(
                    "\\{}{text} is not a valid universal character",
                    c as char
                ));
            }
            Ok(Escape::Universal(value))
        }
        _ => {
            let shown = String::from_utf8_lossy(&body[*i - 1..*i]).into_owned();
            warnings.push(format!("unknown escape sequence: '\\{shown}'"));
            Ok(Escape::Plain(c))
        }
    }
}

/// Decodes the escape after a backslash at `body[*i]` (the byte after `\`), advancing
/// `*i` past it; returns the byte value.
fn decode_escape(body: &[u8], i: &mut usize, warnings: &mut Vec<String>) -> Result<u8, String> {
    match read_escape(body, i, warnings)? {
        Escape::Plain(b) => Ok(b),
        Escape::Octal(v) => {
            u8::try_from(v).map_err(|_| "octal escape sequence out of range".to_string())
        }
        Escape::Hex(v) => {
            u8::try_from(v).map_err(|_| "hex escape sequence out of range".to_string())
        }
        Escape::Universal(_) => Err("universal character names are not supported".to_string()),
    }
}

/// The bytes between the quotes of a literal, escapes decoded.
fn decode_body(body: &[u8], warnings: &mut Vec<String>) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' {
            i += 1;
            out.push(decode_escape(body, &mut i, warnings)?);
        } else if let (Some(raw), len) = super::raw_bytes::source_bytes_at(body, i) {
            // A source byte that was not UTF-8 (`raw_bytes`): the byte itself, as gcc.
            out.push(raw);
            i += len;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// The text between the quotes of `spelling`, after rejecting wide prefixes.
fn literal_body<'a>(spelling: &'a str, quote: char, what: &str) -> Result<&'a str, String> {
    let Some(open) = spelling.find(quote) else {
        return Err(format!("malformed {what}"));
    };
    let prefix = &spelling[..open];
    let narrow = prefix.is_empty() || (prefix == "u8" && quote == '"');
    if !narrow {
        return Err(format!(
            "wide {what}s (prefix '{prefix}') are not supported"
        ));
    }
    let inner = &spelling[open + 1..];
    inner
        .strip_suffix(quote)
        .ok_or_else(|| format!("missing terminating {quote} character"))
}

/// The `int` value of a character constant; `char_signed` is the target's plain `char`.
pub(crate) fn char_value(
    spelling: &str,
    char_signed: bool,
    warnings: &mut Vec<String>,
) -> Result<i64, String> {
    let body = literal_body(spelling, '\'', "character constant")?;
    let bytes = decode_body(body.as_bytes(), warnings)?;
    match bytes.len() {
        0 => Err("empty character constant".to_string()),
        1 => {
            let b = bytes[0];
            Ok(if char_signed {
                i64::from(b as i8)
            } else {
                i64::from(b)
            })
        }
        n => {
            if n > 4 {
                warnings.push("character constant too long for its type".to_string());
            } else {
                warnings.push("multi-character character constant".to_string());
            }
            // Packed big-endian into a 32-bit int: only the last four bytes survive.
            let packed = bytes.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b));
            Ok(i64::from(packed as i32))
        }
    }
}

/// The bytes of a string literal (without a terminating NUL).
pub(crate) fn string_bytes(spelling: &str, warnings: &mut Vec<String>) -> Result<Vec<u8>, String> {
    let body = literal_body(spelling, '"', "string literal")?;
    decode_body(body.as_bytes(), warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> IntLit {
        match parse_number(s) {
            Ok(Number::Int(i)) => i,
            other => panic!("{s}: {other:?}"),
        }
    }

    fn float(s: &str) -> f64 {
        match parse_number(s) {
            Ok(Number::Float(f)) => f.value,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn integer_radixes_and_suffixes() {
        assert_eq!(int("0x1F").value, 31);
        assert_eq!(int("017").value, 15);
        assert_eq!(int("0").radix, Radix::Octal);
        let i = int("18446744073709551615uLL");
        assert_eq!(i.value, u64::MAX);
        assert!(i.unsigned);
        assert_eq!(i.long, LongSuffix::LongLong);
        for ok in [
            "1u", "1U", "1l", "1L", "1ll", "1LL", "1ul", "1lu", "1LU", "1ull", "1llu", "1ULL",
            "1LLu",
        ] {
            assert!(parse_integer(ok).is_ok(), "{ok}");
        }
        for bad in ["1lL", "1Ll", "1uu", "1lul", "1lll", "1x", "1f"] {
            assert_eq!(
                parse_integer(bad).unwrap_err(),
                format!("invalid suffix \"{}\" on integer constant", &bad[1..])
            );
        }
        assert_eq!(
            parse_number("08").unwrap_err(),
            "invalid digit \"8\" in octal constant"
        );
        assert_eq!(
            parse_number("0x").unwrap_err(),
            "invalid suffix \"x\" on integer constant"
        );
        assert_eq!(
            parse_number("18446744073709551616").unwrap_err(),
            "integer constant is too large for its type"
        );
    }

    #[test]
    fn decimal_and_hex_floats() {
        assert_eq!(float("1.5"), 1.5);
        assert_eq!(float(".5e1"), 5.0);
        assert_eq!(float("1e-2"), 0.01);
        assert_eq!(float("0x1p-2"), 0.25);
        assert_eq!(float("0x1.8p1"), 3.0);
        assert_eq!(float("0X.8P0"), 0.5);
        assert_eq!(
            float("0x1.fffffffffffff8p0"),
            2.0,
            "ties to even rounds up here"
        );
        assert_eq!(float("0x1.fffffffffffff7p0"), 1.9999999999999998);
        assert_eq!(float("0x1p-1074"), 5e-324);
        assert_eq!(
            float("0x1p-1075"),
            0.0,
            "half the smallest subnormal ties to even (0)"
        );
        assert_eq!(float("0x1.1p-1075"), 5e-324);
        assert_eq!(float("0x1p1024"), f64::INFINITY);
        assert_eq!(float("0x1.000001p0f"), 1.0, "rounded to float's 24 bits");
        assert_eq!(float("0.1f"), f64::from(0.1f32));
        assert_eq!(parse_number("1e").unwrap_err(), "exponent has no digits");
        assert_eq!(
            parse_number("0x1.0").unwrap_err(),
            "hexadecimal floating constants require an exponent"
        );
        assert_eq!(
            parse_number("1.2.3").unwrap_err(),
            "invalid suffix \".3\" on floating constant"
        );
        assert_eq!(
            parse_number("1.0fl").unwrap_err(),
            "invalid suffix \"fl\" on floating constant"
        );
    }

    #[test]
    fn character_constants() {
        let mut w = Vec::new();
        assert_eq!(char_value("'a'", true, &mut w), Ok(97));
        assert_eq!(char_value("'\\n'", true, &mut w), Ok(10));
        assert_eq!(char_value("'\\377'", true, &mut w), Ok(-1));
        assert_eq!(char_value("'\\377'", false, &mut w), Ok(255));
        assert_eq!(char_value("'\\xff'", true, &mut w), Ok(-1));
        assert_eq!(char_value("'\\0'", true, &mut w), Ok(0));
        assert!(w.is_empty());
        assert_eq!(char_value("'ab'", true, &mut w), Ok(0x6162));
        assert_eq!(char_value("'\\xff\\xff\\xff\\xff'", false, &mut w), Ok(-1));
        assert_eq!(char_value("'abcde'", true, &mut w), Ok(0x62636465));
        assert_eq!(w.len(), 3);
        assert_eq!(
            char_value("''", true, &mut w).unwrap_err(),
            "empty character constant"
        );
        assert_eq!(
            char_value("'\\400'", true, &mut w).unwrap_err(),
            "octal escape sequence out of range"
        );
        assert_eq!(
            char_value("'\\x100'", true, &mut w).unwrap_err(),
            "hex escape sequence out of range"
        );
        assert_eq!(
            char_value("'\\x'", true, &mut w).unwrap_err(),
            "\\x used with no following hex digits"
        );
        assert_eq!(
            char_value("L'a'", true, &mut w).unwrap_err(),
            "wide character constants (prefix 'L') are not supported"
        );
    }

    #[test]
    fn string_escapes() {
        let mut w = Vec::new();
        assert_eq!(
            string_bytes(r#""a\tb\\\"\?\a\b\f\r\v\101\x41\0""#, &mut w).unwrap(),
            b"a\tb\\\"?\x07\x08\x0c\r\x0bAA\0"
        );
        assert_eq!(string_bytes("u8\"x\"", &mut w).unwrap(), b"x");
        assert_eq!(string_bytes(r#""\q""#, &mut w).unwrap(), b"q");
        assert_eq!(w, ["unknown escape sequence: '\\q'"]);
    }
}
