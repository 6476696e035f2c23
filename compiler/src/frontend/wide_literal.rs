//! Decoding of wide (`L`-prefixed) character constants and string literals.
//!
//! Why it exists: `L'a'` and `L"abc"` are values of `wchar_t`, a 32-bit type on every
//! phicc target (`int` on x86_64 and riscv64, `long` on i686, `unsigned int` on aarch64:
//! `Target::wchar_type`, which follows each target's gcc `__WCHAR_TYPE__`). Their
//! characters are code points, not bytes, so they need their own decoder beside the
//! narrow one of `literal`.
//!
//! Invariants:
//! - A source character is its Unicode code point (the source is read as UTF-8, as
//!   gcc's default `-finput-charset`); a source byte that was not UTF-8 (`raw_bytes`)
//!   is that byte's value.
//! - Escapes follow C and gcc: simple escapes as in narrow literals, octal (at most
//!   three digits) and hexadecimal escapes up to 32 bits (more is "hex escape sequence
//!   out of range"), `\u` / `\U` universal character names (exactly 4 / 8 hex digits).
//! - A wide character constant with several characters keeps the last one, with gcc's
//!   warning "character constant too long for its type"; its value is the `wchar_t`
//!   value (sign-extended from bit 31 when `wchar_t` is signed).
//! - Only the `L` prefix is handled here; `u` and `U` stay rejected by `literal`.

use super::raw_bytes::source_bytes_at;

/// Is `spelling` a wide (`L`-prefixed) character constant or string literal?
pub(crate) fn is_wide(spelling: &str) -> bool {
    spelling.starts_with("L'") || spelling.starts_with("L\"")
}

/// The value of the wide character constant `spelling` (`L'...'`) as a `wchar_t`
/// converted to `i64`.
pub(crate) fn wide_char_value(
    spelling: &str,
    wchar_signed: bool,
    warnings: &mut Vec<String>,
) -> Result<i64, String> {
    let units = decode(body(spelling, '\'')?)?;
    let Some(&last) = units.last() else {
        return Err("empty character constant".to_string());
    };
    if units.len() > 1 {
        warnings.push("character constant too long for its type".to_string());
    }
    Ok(if wchar_signed {
        i64::from(last as i32)
    } else {
        i64::from(last)
    })
}

/// The code units of the wide string literal `spelling` (`L"..."`), without the
/// terminating null unit.
pub(crate) fn wide_string_units(spelling: &str) -> Result<Vec<u32>, String> {
    decode(body(spelling, '"')?)
}

/// The text between the quotes of an `L`-prefixed literal.
fn body(spelling: &str, quote: char) -> Result<&str, String> {
    let rest = spelling
        .strip_prefix('L')
        .and_then(|s| s.strip_prefix(quote))
        .ok_or_else(|| "malformed wide literal".to_string())?;
    rest.strip_suffix(quote)
        .ok_or_else(|| format!("missing terminating {quote} character"))
}

/// The code units of a literal's body, escapes decoded.
fn decode(body: &str) -> Result<Vec<u32>, String> {
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 1;
            out.push(escape(bytes, &mut i)?);
            continue;
        }
        if let (Some(raw), len) = source_bytes_at(bytes, i) {
            out.push(u32::from(raw));
            i += len;
            continue;
        }
        // `i` is at a character boundary: escapes and raw bytes consume whole characters.
        let Some(c) = body.get(i..).and_then(|s| s.chars().next()) else {
            return Err("malformed wide literal".to_string());
        };
        out.push(u32::from(c));
        i += c.len_utf8();
    }
    Ok(out)
}

/// The value of the escape whose first byte after `\` is `bytes[*i]`; advances `*i`.
fn escape(bytes: &[u8], i: &mut usize) -> Result<u32, String> {
    let Some(&c) = bytes.get(*i) else {
        return Err("missing character after '\\'".to_string());
    };
    *i += 1;
    let simple = match c {
        b'n' => Some(10),
        b't' => Some(9),
        b'\\' | b'\'' | b'"' | b'?' => Some(u32::from(c)),
        b'a' => Some(7),
        b'b' => Some(8),
        b'f' => Some(12),
        b'r' => Some(13),
        b'v' => Some(11),
        b'e' | b'E' => Some(27),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok(v);
    }
    match c {
        b'0'..=b'7' => {
            let mut value = u32::from(c - b'0');
            let mut count = 1;
            while count < 3 {
                match bytes.get(*i) {
                    Some(&d @ b'0'..=b'7') => {
                        value = value * 8 + u32::from(d - b'0');
                        *i += 1;
                        count += 1;
                    }
                    _ => break,
                }
            }
            Ok(value)
        }
        b'x' => {
            let mut value: u64 = 0;
            let mut count = 0;
            while let Some(d) = bytes.get(*i).and_then(|&d| (d as char).to_digit(16)) {
                value = value.saturating_mul(16).saturating_add(u64::from(d));
                *i += 1;
                count += 1;
            }
            if count == 0 {
                return Err("\\x used with no following hex digits".to_string());
            }
            u32::try_from(value).map_err(|_| "hex escape sequence out of range".to_string())
        }
        b'u' | b'U' => {
            let digits = if c == b'u' { 4 } else { 8 };
            let text = bytes
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
            Ok(value)
        }
        _ => Ok(u32::from(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: gcc 12 on x86_64 (`printf("%d", (int)L'...')`).
    #[test]
    fn wide_character_constants() {
        let mut w = Vec::new();
        assert_eq!(wide_char_value("L'a'", true, &mut w), Ok(97));
        assert_eq!(wide_char_value("L'\\400'", true, &mut w), Ok(256));
        assert_eq!(wide_char_value("L'\\377'", true, &mut w), Ok(255));
        assert_eq!(wide_char_value("L'\\xffffffff'", true, &mut w), Ok(-1));
        assert_eq!(
            wide_char_value("L'\\xffffffff'", false, &mut w),
            Ok(0xffff_ffff)
        );
        assert_eq!(wide_char_value("L'Ä'", true, &mut w), Ok(0xc4));
        assert_eq!(wide_char_value("L'\\u00e9'", true, &mut w), Ok(0xe9));
        assert!(w.is_empty());
        assert_eq!(wide_char_value("L'ab'", true, &mut w), Ok(98));
        assert_eq!(w, ["character constant too long for its type"]);
        assert_eq!(
            wide_char_value("L''", true, &mut w).unwrap_err(),
            "empty character constant"
        );
        assert_eq!(
            wide_char_value("L'\\x100000000'", true, &mut w).unwrap_err(),
            "hex escape sequence out of range"
        );
    }

    #[test]
    fn wide_strings() {
        assert_eq!(wide_string_units("L\"a\\n\""), Ok(vec![97, 10]));
        assert_eq!(wide_string_units("L\"Äx\""), Ok(vec![0xc4, 120]));
        assert_eq!(wide_string_units("L\"\""), Ok(vec![]));
        assert!(is_wide("L\"x\"") && is_wide("L'x'") && !is_wide("\"L\"") && !is_wide("u8\"\""));
    }
}
