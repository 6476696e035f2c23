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

use super::literal::{read_escape, Escape};
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
    let units = decode(body(spelling, '\'')?, warnings)?;
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
pub(crate) fn wide_string_units(
    spelling: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<u32>, String> {
    decode(body(spelling, '"')?, warnings)
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
fn decode(body: &str, warnings: &mut Vec<String>) -> Result<Vec<u32>, String> {
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 1;
            out.push(escape(bytes, &mut i, warnings)?);
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

/// The value of the escape whose first byte after `\` is `bytes[*i]`, as a 32-bit code
/// unit; advances `*i` (`literal::read_escape` reads it).
fn escape(bytes: &[u8], i: &mut usize, warnings: &mut Vec<String>) -> Result<u32, String> {
    Ok(match read_escape(bytes, i, warnings)? {
        Escape::Plain(b) => u32::from(b),
        Escape::Octal(v) | Escape::Universal(v) => v,
        Escape::Hex(v) => {
            u32::try_from(v).map_err(|_| "hex escape sequence out of range".to_string())?
        }
    })
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
        let mut w = Vec::new();
        assert_eq!(wide_string_units("L\"a\\n\"", &mut w), Ok(vec![97, 10]));
        assert_eq!(wide_string_units("L\"Äx\"", &mut w), Ok(vec![0xc4, 120]));
        assert_eq!(wide_string_units("L\"\"", &mut w), Ok(vec![]));
        assert!(w.is_empty());
        // An unknown escape is the character itself, with gcc's warning (as in narrow
        // literals, whose escape reader this is).
        assert_eq!(wide_string_units("L\"\\q\"", &mut w), Ok(vec![113]));
        assert_eq!(w, ["unknown escape sequence: '\\q'"]);
        assert!(is_wide("L\"x\"") && is_wide("L'x'") && !is_wide("\"L\"") && !is_wide("u8\"\""));
    }
}
