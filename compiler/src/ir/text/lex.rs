//! Lexer for the IR text form: bytes -> tokens, one token at a time.
//!
//! Why: the parser reads one token of lookahead and never backtracks, so the lexer is a
//! pull-based stream; a bad character, an unterminated string or an oversized number is
//! reported at its own line and column, and only when the parser gets that far.
//!
//! Invariants:
//! - linear time: every byte is looked at a bounded number of times;
//! - never panics: slicing uses `str::get`, arithmetic saturates or is checked;
//! - lines and columns are 1-based; a column counts characters, not bytes;
//! - newlines are tokens (the grammar is line-oriented); spaces, tabs, `\r` and comments
//!   (`;` to the end of the line) are skipped.

use super::parse::ParseError;

/// What a token is. Identifiers and `@names` keep their text in the token's byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TokKind {
    /// A bare word: keyword, type name, opcode, predicate (`[A-Za-z_][A-Za-z0-9_]*`).
    Ident,
    /// `@name`; the name is the token's text without the `@`.
    Global,
    /// `%N`
    Value(u32),
    /// `.LBBN`
    Label(u32),
    /// A decimal or hex literal, possibly negative; its magnitude is at most `u64::MAX`.
    Int(i128),
    /// A float literal (`1.5`, `-2e-3`, `inf`, `-inf`, `nan`, `nan(0x7fc00001)`); its text
    /// is the token's byte range, read in the position's type by `ir::float_text`.
    Float,
    /// `"..."`, escapes decoded.
    Str(Vec<u8>),
    Comma,
    Colon,
    Equals,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Arrow,
    Plus,
    Ellipsis,
    Newline,
    Eof,
}

/// A token with where it starts (line, column) and its byte range in the source.
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: TokKind,
    pub line: u32,
    pub col: u32,
    pub start: usize,
    pub end: usize,
}

/// The pull-based lexer.
pub(super) struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
}

/// Characters of a bare word after its first.
fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Characters of an `@name`.
pub(super) fn is_symbol_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$'
}

/// The longest source excerpt an error message quotes.
const MAX_QUOTE_CHARS: usize = 24;

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            line: 1,
            col: 1,
        }
    }

    /// The source text of a byte range (empty if the range is not on char boundaries,
    /// which tokens never produce).
    pub fn text(&self, start: usize, end: usize) -> &'a str {
        self.src.get(start..end).unwrap_or("")
    }

    /// How an error message names a token: its text in backticks (shortened), or
    /// "end of line" / "end of input".
    pub fn describe(&self, tok: &Token) -> String {
        match tok.kind {
            TokKind::Newline => "end of line".into(),
            TokKind::Eof => "end of input".into(),
            _ => quote(self.text(tok.start, tok.end)),
        }
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    /// Moves past one byte, keeping line and column (a column counts UTF-8 lead bytes).
    fn advance(&mut self) {
        if let Some(&b) = self.bytes.get(self.pos) {
            self.pos += 1;
            if b == b'\n' {
                self.line = self.line.saturating_add(1);
                self.col = 1;
            } else if b & 0xC0 != 0x80 {
                self.col = self.col.saturating_add(1);
            }
        }
    }

    fn advance_while(&mut self, pred: impl Fn(u8) -> bool) {
        while self.peek_byte(0).is_some_and(&pred) {
            self.advance();
        }
    }

    fn error(&self, line: u32, col: u32, message: String) -> ParseError {
        ParseError { line, col, message }
    }

    /// The next token; `Eof` forever once the input is exhausted.
    pub fn next_token(&mut self) -> Result<Token, ParseError> {
        // Whitespace and comments are skipped; a newline is a token.
        loop {
            match self.peek_byte(0) {
                Some(b' ' | b'\t' | b'\r') => self.advance(),
                Some(b';') => self.advance_while(|b| b != b'\n'),
                _ => break,
            }
        }
        let (line, col, start) = (self.line, self.col, self.pos);
        let Some(b) = self.peek_byte(0) else {
            return Ok(self.token(TokKind::Eof, line, col, start));
        };
        let kind = match b {
            b'\n' => self.punct(TokKind::Newline),
            b',' => self.punct(TokKind::Comma),
            b':' => self.punct(TokKind::Colon),
            b'=' => self.punct(TokKind::Equals),
            b'(' => self.punct(TokKind::LParen),
            b')' => self.punct(TokKind::RParen),
            b'[' => self.punct(TokKind::LBracket),
            b']' => self.punct(TokKind::RBracket),
            b'{' => self.punct(TokKind::LBrace),
            b'}' => self.punct(TokKind::RBrace),
            b'+' => self.punct(TokKind::Plus),
            b'-' if self.peek_byte(1) == Some(b'>') => {
                self.advance();
                self.punct(TokKind::Arrow)
            }
            b'-' | b'0'..=b'9' => self.int(line, col)?,
            b'%' => self.value(line, col)?,
            b'.' => self.dot(line, col)?,
            b'@' => self.global(line, col)?,
            b'"' => self.string(line, col)?,
            b if b.is_ascii_alphabetic() || b == b'_' => {
                self.advance_while(is_ident_char);
                match self.text(start, self.pos) {
                    "inf" => TokKind::Float,
                    "nan" => self.nan_payload(line, col)?,
                    _ => TokKind::Ident,
                }
            }
            _ => {
                let ch = self
                    .src
                    .get(self.pos..)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('\u{fffd}');
                return Err(self.error(line, col, format!("unexpected character {ch:?}")));
            }
        };
        Ok(self.token(kind, line, col, start))
    }

    fn token(&self, kind: TokKind, line: u32, col: u32, start: usize) -> Token {
        Token {
            kind,
            line,
            col,
            start,
            end: self.pos,
        }
    }

    fn punct(&mut self, kind: TokKind) -> TokKind {
        self.advance();
        kind
    }

    /// A literal must not run into letters or digits that are not part of it (`12ab`).
    fn check_literal_end(&self, what: &str) -> Result<(), ParseError> {
        match self.peek_byte(0) {
            Some(b) if is_ident_char(b) => Err(self.error(
                self.line,
                self.col,
                format!("unexpected {:?} in {what}", b as char),
            )),
            _ => Ok(()),
        }
    }

    /// After `nan`: an optional `(0xHEX)` with the NaN's whole bit pattern.
    fn nan_payload(&mut self, line: u32, col: u32) -> Result<TokKind, ParseError> {
        if self.peek_byte(0) != Some(b'(') {
            return Ok(TokKind::Float);
        }
        self.advance();
        self.advance_while(|b| b.is_ascii_alphanumeric());
        if self.peek_byte(0) != Some(b')') {
            return Err(self.error(line, col, "expected `nan(0xBITS)`".into()));
        }
        self.advance();
        Ok(TokKind::Float)
    }

    /// The rest of a decimal float after its integer digits: `.D+` and/or `[eE][+-]?D+`.
    /// Returns false (having consumed nothing) when neither follows.
    fn float_tail(&mut self) -> Result<bool, ParseError> {
        let point = self.peek_byte(0) == Some(b'.')
            && self.peek_byte(1).is_some_and(|b| b.is_ascii_digit());
        if point {
            self.advance();
            self.advance_while(|b| b.is_ascii_digit());
        }
        let exponent = matches!(self.peek_byte(0), Some(b'e' | b'E'))
            && match self.peek_byte(1) {
                Some(b'+' | b'-') => self.peek_byte(2).is_some_and(|b| b.is_ascii_digit()),
                Some(b) => b.is_ascii_digit(),
                None => false,
            };
        if exponent {
            self.advance();
            if matches!(self.peek_byte(0), Some(b'+' | b'-')) {
                self.advance();
            }
            self.advance_while(|b| b.is_ascii_digit());
        }
        if point || exponent {
            self.check_literal_end("float literal")?;
        }
        Ok(point || exponent)
    }

    /// `-?[0-9]+` or `-?0x[0-9a-fA-F]+`; the magnitude must fit 64 bits. A decimal
    /// followed by `.D` or an exponent is a float literal instead, and so is `-inf`.
    fn int(&mut self, line: u32, col: u32) -> Result<TokKind, ParseError> {
        let start = self.pos;
        let negative = self.peek_byte(0) == Some(b'-');
        if negative {
            self.advance();
            if self.bytes.get(self.pos..self.pos + 3) == Some(b"inf".as_slice())
                && !self.peek_byte(3).is_some_and(is_ident_char)
            {
                self.advance();
                self.advance();
                self.advance();
                return Ok(TokKind::Float);
            }
            if !self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                return Err(self.error(line, col, "expected a digit after `-`".into()));
            }
        }
        let hex = self.peek_byte(0) == Some(b'0') && matches!(self.peek_byte(1), Some(b'x' | b'X'));
        let radix: u32 = if hex { 16 } else { 10 };
        if hex {
            self.advance();
            self.advance();
        }
        // The magnitude saturates just above u64::MAX, so the scan stays linear and
        // an oversized literal is reported after it has been read whole.
        let mut magnitude: u128 = 0;
        let mut digits = 0usize;
        while let Some(d) = self.peek_byte(0).and_then(|b| (b as char).to_digit(radix)) {
            magnitude = (magnitude * radix as u128 + d as u128).min(u64::MAX as u128 + 1);
            digits += 1;
            self.advance();
        }
        if digits == 0 {
            return Err(self.error(self.line, self.col, "expected hex digits after `0x`".into()));
        }
        if !hex && self.float_tail()? {
            return Ok(TokKind::Float);
        }
        self.check_literal_end("literal")?;
        if magnitude > u64::MAX as u128 {
            let text = quote(self.text(start, self.pos));
            return Err(self.error(line, col, format!("literal {text} is too large")));
        }
        let value = magnitude as i128;
        Ok(TokKind::Int(if negative { -value } else { value }))
    }

    /// Decimal digits after a sigil (`%N`, `.LBBN`), as a u32; `noun` names the token.
    fn sigil_number(
        &mut self,
        line: u32,
        col: u32,
        sigil: &str,
        noun: &str,
    ) -> Result<u32, ParseError> {
        let start = self.pos;
        let mut n: u64 = 0;
        let mut digits = 0usize;
        while let Some(b) = self.peek_byte(0).filter(u8::is_ascii_digit) {
            n = (n * 10 + (b - b'0') as u64).min(u32::MAX as u64 + 1);
            digits += 1;
            self.advance();
        }
        if digits == 0 {
            return Err(self.error(line, col, format!("expected a number after `{sigil}`")));
        }
        self.check_literal_end(noun)?;
        match u32::try_from(n) {
            Ok(n) if n <= crate::ir::entities::MAX_ENTITY_NUMBER => Ok(n),
            _ => {
                let text = quote(&format!("{sigil}{}", self.text(start, self.pos)));
                Err(self.error(
                    line,
                    col,
                    format!(
                        "{noun} {text} is too large (at most {})",
                        crate::ir::entities::MAX_ENTITY_NUMBER
                    ),
                ))
            }
        }
    }

    /// `%N`
    fn value(&mut self, line: u32, col: u32) -> Result<TokKind, ParseError> {
        self.advance();
        Ok(TokKind::Value(self.sigil_number(
            line,
            col,
            "%",
            "value number",
        )?))
    }

    /// `.LBBN` or `...`
    fn dot(&mut self, line: u32, col: u32) -> Result<TokKind, ParseError> {
        if self.peek_byte(1) == Some(b'.') && self.peek_byte(2) == Some(b'.') {
            self.advance();
            self.advance();
            self.advance();
            return Ok(TokKind::Ellipsis);
        }
        if self.bytes.get(self.pos + 1..self.pos + 4) != Some(b"LBB".as_slice()) {
            return Err(self.error(line, col, "expected a block label `.LBBN`".into()));
        }
        for _ in 0..4 {
            self.advance();
        }
        Ok(TokKind::Label(self.sigil_number(
            line,
            col,
            ".LBB",
            "block label",
        )?))
    }

    /// `@name`
    fn global(&mut self, line: u32, col: u32) -> Result<TokKind, ParseError> {
        self.advance();
        let start = self.pos;
        self.advance_while(is_symbol_char);
        if self.pos == start {
            return Err(self.error(line, col, "expected a name after `@`".into()));
        }
        Ok(TokKind::Global)
    }

    /// `"..."` with escapes `\n \t \\ \"` and `\HH` (exactly two hex digits).
    fn string(&mut self, line: u32, col: u32) -> Result<TokKind, ParseError> {
        self.advance();
        let mut bytes = Vec::new();
        loop {
            match self.peek_byte(0) {
                None | Some(b'\n') => {
                    return Err(self.error(line, col, "unterminated string".into()));
                }
                Some(b'"') => {
                    self.advance();
                    return Ok(TokKind::Str(bytes));
                }
                Some(b'\\') => {
                    let (esc_line, esc_col) = (self.line, self.col);
                    self.advance();
                    let decoded = match self.peek_byte(0) {
                        Some(b'n') => Some(b'\n'),
                        Some(b't') => Some(b'\t'),
                        Some(b'\\') => Some(b'\\'),
                        Some(b'"') => Some(b'"'),
                        _ => None,
                    };
                    if let Some(byte) = decoded {
                        self.advance();
                        bytes.push(byte);
                        continue;
                    }
                    let hi = self.peek_byte(0).and_then(|b| (b as char).to_digit(16));
                    let lo = self.peek_byte(1).and_then(|b| (b as char).to_digit(16));
                    let (Some(hi), Some(lo)) = (hi, lo) else {
                        return Err(self.error(
                            esc_line,
                            esc_col,
                            "invalid escape in string: expected `\\n`, `\\t`, `\\\\`, `\\\"` \
                             or two hex digits"
                                .into(),
                        ));
                    };
                    self.advance();
                    self.advance();
                    bytes.push((hi * 16 + lo) as u8);
                }
                Some(b) => {
                    self.advance();
                    bytes.push(b);
                }
            }
        }
    }
}

/// `text` in backticks, shortened to [`MAX_QUOTE_CHARS`] characters.
fn quote(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTE_CHARS) {
        Some((cut, _)) => format!("`{}...`", &text[..cut]),
        None => format!("`{text}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Result<Vec<TokKind>, ParseError> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token()?;
            if t.kind == TokKind::Eof {
                return Ok(out);
            }
            out.push(t.kind);
        }
    }

    #[test]
    fn numbers_signs_and_suffix_punctuation() {
        use TokKind::*;
        assert_eq!(
            kinds("5:i64 -1 0x7fffffff -0x80 18446744073709551615").unwrap(),
            vec![
                Int(5),
                Colon,
                Ident,
                Int(-1),
                Int(0x7fff_ffff),
                Int(-128),
                Int(u64::MAX as i128)
            ]
        );
        assert_eq!(
            kinds("-> @g+4 @g-4 ...").unwrap(),
            vec![Arrow, Global, Plus, Int(4), Global, Int(-4), Ellipsis]
        );
    }

    #[test]
    fn sigils_comments_and_newlines() {
        use TokKind::*;
        assert_eq!(
            kinds(".LBB12: %3 ; comment %4\n\r\n}").unwrap(),
            vec![Label(12), Colon, Value(3), Newline, Newline, RBrace]
        );
    }

    #[test]
    fn string_escapes() {
        assert_eq!(
            kinds(r#""a\n\t\\\"\00\ff;""#).unwrap(),
            vec![TokKind::Str(b"a\n\t\\\"\x00\xff;".to_vec())]
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = kinds("\n  \"abc").unwrap_err();
        assert_eq!(
            (e.line, e.col, e.message.as_str()),
            (2, 3, "unterminated string")
        );
        let e = kinds("x \"a\\0\"").unwrap_err();
        assert_eq!((e.line, e.col), (1, 5));
        let e = kinds("%99999999999999").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(e.message.contains("too large"), "{}", e.message);
        let e = kinds("99999999999999999999999").unwrap_err();
        assert!(e.message.contains("too large"), "{}", e.message);
        let e = kinds("12ab").unwrap_err();
        assert_eq!((e.line, e.col), (1, 3));
        let e = kinds("0x").unwrap_err();
        assert_eq!((e.line, e.col), (1, 3));
        let e = kinds("é #").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        let e = kinds("\"é\" #").unwrap_err();
        assert_eq!((e.line, e.col), (1, 5), "columns count characters");
        assert!(kinds(".LBx").is_err());
        assert!(kinds("%").is_err());
        assert!(kinds("@").is_err());
        assert!(kinds("- 1").is_err());
    }
}
