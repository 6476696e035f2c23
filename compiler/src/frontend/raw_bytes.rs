//! Lossless reading of source bytes that are not UTF-8.
//!
//! Why it exists: the front end works on `str` text, but C source is bytes, and gcc copies
//! the bytes inside a string or character literal verbatim: `"<0xFF>"` is the one byte
//! 0xFF (`-1` as a signed `char`), whatever the file's encoding. Replacing invalid UTF-8
//! by U+FFFD (3 bytes, EF BF BD) changed such a literal's value and length: wrong code.
//!
//! How: every byte that is not part of valid UTF-8 becomes one *escape character*
//! `U+10FF00 + byte` (a private-use code point of plane 16), and so does every byte of a
//! valid character that itself lies in that range (so that an escape character in the
//! text always stands for exactly one source byte, never for itself). Literal decoding
//! (`literal::decode_body`) turns each escape character back into its byte; any other
//! character is its UTF-8 bytes, as before.
//!
//! Invariants: [`decode_source`] followed by [`encode_text`] gives back the original
//! bytes, for every input; an escape character counts as one column, like one byte.

/// The first escape character: `ESCAPE_BASE + b` stands for the raw byte `b`.
const ESCAPE_BASE: u32 = 0x10_FF00;

/// The escape character standing for the raw source byte `b`.
fn escape_char(b: u8) -> char {
    // ESCAPE_BASE + 255 = U+10FFFF, the last scalar value: always valid.
    char::from_u32(ESCAPE_BASE + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The raw byte an escape character stands for, if `c` is one.
pub(crate) fn escaped_byte(c: char) -> Option<u8> {
    let v = u32::from(c);
    (v >= ESCAPE_BASE).then(|| (v - ESCAPE_BASE) as u8)
}

/// Source bytes as text: valid UTF-8 stays as it is (except characters in the escape
/// range), every other byte becomes its escape character.
pub(crate) fn decode_source(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) if !s.chars().any(|c| escaped_byte(c).is_some()) => s,
        Ok(s) => escape_chunks(s.as_bytes()),
        Err(e) => escape_chunks(e.as_bytes()),
    }
}

fn escape_chunks(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if escaped_byte(c).is_some() {
                let mut buf = [0u8; 4];
                out.extend(c.encode_utf8(&mut buf).bytes().map(escape_char));
            } else {
                out.push(c);
            }
        }
        out.extend(chunk.invalid().iter().copied().map(escape_char));
    }
    out
}

/// At `body[i]` (inside the UTF-8 of decoded text): `(Some(b), 4)` when an escape
/// character for the raw byte `b` starts there (escape characters are 4 bytes long, all
/// starting with 0xF4), `(None, 1)` otherwise.
pub(crate) fn source_bytes_at(body: &[u8], i: usize) -> (Option<u8>, usize) {
    if body.get(i) != Some(&0xF4) {
        return (None, 1);
    }
    let raw = body
        .get(i..i + 4)
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.chars().next())
        .and_then(escaped_byte);
    match raw {
        Some(b) => (Some(b), 4),
        None => (None, 1),
    }
}

/// Text back to the source bytes it was decoded from (the inverse of [`decode_source`]).
#[cfg(test)]
pub(crate) fn encode_text(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match escaped_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_of_any_bytes() {
        let cases: Vec<Vec<u8>> = vec![
            b"plain ascii".to_vec(),
            "caf\u{e9} \u{10FF41}".as_bytes().to_vec(),
            vec![b'"', 0xFF, 0x80, b'"'],
            vec![0xF4, 0x8F, 0xBC, 0x80, 0xC3],
            (0..=255u8).collect(),
        ];
        for bytes in cases {
            let text = decode_source(bytes.clone());
            assert_eq!(encode_text(&text), bytes, "{text:?}");
        }
    }

    #[test]
    fn invalid_byte_is_one_escape_character() {
        let text = decode_source(vec![b'a', 0xFF, b'b']);
        assert_eq!(text.chars().count(), 3);
        let body = text.as_bytes();
        assert_eq!(source_bytes_at(body, 1), (Some(0xFF), 4));
        assert_eq!(source_bytes_at(body, 0), (None, 1));
    }
}
