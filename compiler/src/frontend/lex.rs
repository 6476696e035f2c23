//! The C lexer: source text to pre-processing tokens (translation phases 1-3).
//!
//! Why it exists: the preprocessor needs pp-tokens with their exact spelling, their
//! position, and two facts about the whitespace before them (any at all; a newline),
//! since directives are line-based and `-E` output and `#` stringizing depend on
//! spacing.
//!
//! Invariants:
//! - Line splices (backslash-newline, also backslash-CR-LF) are removed before lexing,
//!   anywhere, even inside tokens; positions still refer to the physical text: every
//!   removed splice is remembered by its offset in the spliced text and moves the
//!   position to the next physical line when the lexer crosses it.
//! - Comments are whitespace; a newline inside a block comment does not start a new
//!   logical line (phase 3 replaces the comment by one space before phase 4 runs).
//! - An unterminated block comment is an error. An unterminated quote is not: it makes
//!   an `Unterminated` token running to the end of the line, which the preprocessor
//!   rejects only if it is used (inside `#if 0` it is harmless, as in gcc).
//! - Every token slice starts and ends on a character boundary: all token kinds end on
//!   an ASCII byte or take whole UTF-8 characters.
//! - The lexer never panics: all reads past the end yield a 0 sentinel and the position
//!   is checked against the length before a token is classified.

use super::intern::{wk, Interner};
use super::source::{FileId, Loc};
use super::token::{flags, PpKind, PpToken, Punct};
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LexError {
    pub loc: Loc,
    pub message: String,
}

/// A cursor over one file's spliced text.
#[derive(Clone, Debug)]
pub(crate) struct Lexer {
    file: FileId,
    text: Rc<str>,
    /// Offsets in `text` at which a splice was removed, ascending.
    splices: Vec<u32>,
    next_splice: usize,
    pos: usize,
    line: u32,
    col: u32,
    at_line_start: bool,
}

/// Removes backslash-newline pairs, returning the spliced text and the offsets (in the
/// spliced text) where each one was.
fn remove_splices(raw: &Rc<str>) -> (Rc<str>, Vec<u32>) {
    if !raw.contains("\\\n") && !raw.contains("\\\r\n") {
        return (raw.clone(), Vec::new());
    }
    let bytes = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut splices = Vec::new();
    let mut copied_from = 0;
    let mut i = 0;
    while i < bytes.len() {
        let splice_len = if bytes[i] != b'\\' {
            0
        } else if bytes.get(i + 1) == Some(&b'\n') {
            2
        } else if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') {
            3
        } else {
            0
        };
        if splice_len == 0 {
            i += 1;
            continue;
        }
        // Only ASCII bytes are removed, so both slices are on character boundaries.
        out.push_str(&raw[copied_from..i]);
        splices.push(u32::try_from(out.len()).unwrap_or(u32::MAX));
        i += splice_len;
        copied_from = i;
    }
    out.push_str(&raw[copied_from..]);
    (Rc::from(out), splices)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

impl Lexer {
    pub fn new(file: FileId, raw: &Rc<str>) -> Lexer {
        let (text, splices) = remove_splices(raw);
        let mut lexer = Lexer {
            file,
            text,
            splices,
            next_splice: 0,
            pos: 0,
            line: 1,
            col: 1,
            at_line_start: true,
        };
        lexer.cross_splices();
        lexer
    }

    fn len(&self) -> usize {
        self.text.len()
    }

    /// The byte `k` ahead of the cursor, 0 past the end.
    fn peek(&self, k: usize) -> u8 {
        self.text.as_bytes().get(self.pos + k).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.len()
    }

    pub fn loc(&self) -> Loc {
        Loc::new(self.file, self.line, self.col)
    }

    /// Advances one byte, keeping line and column (in characters) current.
    fn bump(&mut self) {
        let Some(&b) = self.text.as_bytes().get(self.pos) else {
            return;
        };
        self.pos += 1;
        if b == b'\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else if b & 0xC0 != 0x80 {
            self.col = self.col.saturating_add(1);
        }
        self.cross_splices();
    }

    fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    /// A splice removed at the cursor's offset moves the position to the next line.
    fn cross_splices(&mut self) {
        while let Some(&at) = self.splices.get(self.next_splice) {
            if at as usize != self.pos {
                break;
            }
            self.line = self.line.saturating_add(1);
            self.col = 1;
            self.next_splice += 1;
        }
    }

    /// Skips whitespace and comments, recording what was skipped in `token_flags`.
    /// With `stop_at_newline`, a newline ends the skip unconsumed.
    fn skip_whitespace(
        &mut self,
        token_flags: &mut u8,
        stop_at_newline: bool,
    ) -> Result<(), LexError> {
        loop {
            match self.peek(0) {
                b' ' | b'\t' | 0x0b | 0x0c | b'\r' if !self.at_end() => {
                    self.bump();
                    *token_flags |= flags::LEADING_SPACE;
                }
                b'\n' if !stop_at_newline => {
                    self.bump();
                    self.at_line_start = true;
                    *token_flags |= flags::LEADING_SPACE;
                }
                b'/' if self.peek(1) == b'/' => {
                    while !self.at_end() && self.peek(0) != b'\n' {
                        self.bump();
                    }
                    *token_flags |= flags::LEADING_SPACE;
                }
                b'/' if self.peek(1) == b'*' => {
                    let start = self.loc();
                    self.bump_n(2);
                    loop {
                        if self.at_end() {
                            return Err(LexError {
                                loc: start,
                                message: "unterminated comment".to_string(),
                            });
                        }
                        if self.peek(0) == b'*' && self.peek(1) == b'/' {
                            self.bump_n(2);
                            break;
                        }
                        self.bump();
                    }
                    *token_flags |= flags::LEADING_SPACE;
                }
                _ => return Ok(()),
            }
        }
    }

    /// The next pre-processing token; at the end of the text an `Eof` token (which
    /// always has `LINE_START`, so it ends any directive line).
    pub fn next(&mut self, interner: &mut Interner) -> Result<PpToken, LexError> {
        let mut token_flags = 0;
        self.skip_whitespace(&mut token_flags, false)?;
        if self.at_line_start {
            token_flags |= flags::LINE_START;
        }
        let loc = self.loc();
        if self.at_end() {
            return Ok(PpToken::new(
                PpKind::Eof,
                wk::EMPTY,
                loc,
                token_flags | flags::LINE_START,
            ));
        }
        self.at_line_start = false;
        let start = self.pos;
        let kind = self.scan_token();
        let spelling = self.text.get(start..self.pos).unwrap_or("");
        let sym = interner.intern(spelling);
        Ok(PpToken::new(kind, sym, loc, token_flags))
    }

    /// After `#include`: a header name `<...>` or `"..."` on the current line, if the
    /// line has one (no escapes inside, as C99 6.4.7 says).
    pub fn header_name(&mut self, interner: &mut Interner) -> Result<Option<PpToken>, LexError> {
        let saved = self.clone_position();
        let mut token_flags = 0;
        self.skip_whitespace(&mut token_flags, true)?;
        let close = match self.peek(0) {
            b'<' => b'>',
            b'"' => b'"',
            _ => {
                self.restore_position(saved);
                return Ok(None);
            }
        };
        let loc = self.loc();
        let start = self.pos;
        self.bump();
        while !self.at_end() && self.peek(0) != b'\n' {
            let c = self.peek(0);
            self.bump();
            if c == close {
                let spelling = self.text.get(start..self.pos).unwrap_or("");
                let sym = interner.intern(spelling);
                return Ok(Some(PpToken::new(
                    PpKind::HeaderName,
                    sym,
                    loc,
                    token_flags,
                )));
            }
        }
        self.restore_position(saved);
        Ok(None)
    }

    fn clone_position(&self) -> (usize, u32, u32, usize, bool) {
        (
            self.pos,
            self.line,
            self.col,
            self.next_splice,
            self.at_line_start,
        )
    }

    fn restore_position(&mut self, saved: (usize, u32, u32, usize, bool)) {
        (
            self.pos,
            self.line,
            self.col,
            self.next_splice,
            self.at_line_start,
        ) = saved;
    }

    /// Scans one token starting at a non-whitespace byte before the end.
    fn scan_token(&mut self) -> PpKind {
        let c = self.peek(0);
        match c {
            b'L' | b'U' | b'u' => {
                let quote_at = if c == b'u' && self.peek(1) == b'8' {
                    2
                } else {
                    1
                };
                let quote = self.peek(quote_at);
                if quote == b'"' || (quote == b'\'' && quote_at == 1) {
                    self.bump_n(quote_at);
                    self.scan_quoted(quote)
                } else {
                    self.scan_ident()
                }
            }
            _ if is_ident_start(c) => self.scan_ident(),
            b'0'..=b'9' => self.scan_number(),
            b'.' if self.peek(1).is_ascii_digit() => self.scan_number(),
            b'\'' | b'"' => self.scan_quoted(c),
            _ => match self.scan_punct() {
                Some(p) => PpKind::Punct(p),
                None => {
                    // One whole character: the lead byte and its continuation bytes.
                    self.bump();
                    while !self.at_end() && self.peek(0) & 0xC0 == 0x80 {
                        self.bump();
                    }
                    PpKind::Other
                }
            },
        }
    }

    fn scan_ident(&mut self) -> PpKind {
        while is_ident_continue(self.peek(0)) {
            self.bump();
        }
        PpKind::Ident
    }

    /// pp-number: `.`? digit (digit | identifier-nondigit | `.` | [eEpP][+-])*
    fn scan_number(&mut self) -> PpKind {
        let mut prev = self.peek(0);
        self.bump();
        loop {
            let c = self.peek(0);
            let signed_exponent =
                (c == b'+' || c == b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
            if !(is_ident_continue(c) || c == b'.' || signed_exponent) {
                return PpKind::Number;
            }
            self.bump();
            prev = c;
        }
    }

    /// A character constant or string literal from its opening quote; a backslash
    /// escapes the next character. No closing quote before the line end makes the
    /// token `Unterminated`.
    fn scan_quoted(&mut self, quote: u8) -> PpKind {
        self.bump();
        loop {
            if self.at_end() || self.peek(0) == b'\n' {
                return PpKind::Unterminated;
            }
            let c = self.peek(0);
            self.bump();
            if c == b'\\' {
                if !self.at_end() && self.peek(0) != b'\n' {
                    self.bump();
                }
            } else if c == quote {
                return if quote == b'"' {
                    PpKind::Str
                } else {
                    PpKind::Char
                };
            }
        }
    }

    /// The longest punctuator at the cursor (digraphs included), consumed.
    fn scan_punct(&mut self) -> Option<Punct> {
        use Punct::*;
        let (p, len) = match (self.peek(0), self.peek(1), self.peek(2)) {
            (b'[', _, _) => (LBracket, 1),
            (b']', _, _) => (RBracket, 1),
            (b'(', _, _) => (LParen, 1),
            (b')', _, _) => (RParen, 1),
            (b'{', _, _) => (LBrace, 1),
            (b'}', _, _) => (RBrace, 1),
            (b'~', _, _) => (Tilde, 1),
            (b'?', _, _) => (Question, 1),
            (b';', _, _) => (Semi, 1),
            (b',', _, _) => (Comma, 1),
            (b'.', b'.', b'.') => (Ellipsis, 3),
            (b'.', _, _) => (Dot, 1),
            (b'-', b'>', _) => (Arrow, 2),
            (b'-', b'-', _) => (MinusMinus, 2),
            (b'-', b'=', _) => (MinusAssign, 2),
            (b'-', _, _) => (Minus, 1),
            (b'+', b'+', _) => (PlusPlus, 2),
            (b'+', b'=', _) => (PlusAssign, 2),
            (b'+', _, _) => (Plus, 1),
            (b'&', b'&', _) => (AmpAmp, 2),
            (b'&', b'=', _) => (AmpAssign, 2),
            (b'&', _, _) => (Amp, 1),
            (b'*', b'=', _) => (StarAssign, 2),
            (b'*', _, _) => (Star, 1),
            (b'!', b'=', _) => (Ne, 2),
            (b'!', _, _) => (Bang, 1),
            (b'/', b'=', _) => (SlashAssign, 2),
            (b'/', _, _) => (Slash, 1),
            (b'%', b'=', _) => (PercentAssign, 2),
            (b'%', b'>', _) => (RBrace, 2),
            (b'%', b':', _) => {
                if self.peek(2) == b'%' && self.peek(3) == b':' {
                    (HashHash, 4)
                } else {
                    (Hash, 2)
                }
            }
            (b'%', _, _) => (Percent, 1),
            (b'<', b'<', b'=') => (ShlAssign, 3),
            (b'<', b'<', _) => (Shl, 2),
            (b'<', b'=', _) => (Le, 2),
            (b'<', b':', _) => (LBracket, 2),
            (b'<', b'%', _) => (LBrace, 2),
            (b'<', _, _) => (Lt, 1),
            (b'>', b'>', b'=') => (ShrAssign, 3),
            (b'>', b'>', _) => (Shr, 2),
            (b'>', b'=', _) => (Ge, 2),
            (b'>', _, _) => (Gt, 1),
            (b'=', b'=', _) => (EqEq, 2),
            (b'=', _, _) => (Assign, 1),
            (b'^', b'=', _) => (CaretAssign, 2),
            (b'^', _, _) => (Caret, 1),
            (b'|', b'|', _) => (PipePipe, 2),
            (b'|', b'=', _) => (PipeAssign, 2),
            (b'|', _, _) => (Pipe, 1),
            (b':', b'>', _) => (RBracket, 2),
            (b':', _, _) => (Colon, 1),
            (b'#', b'#', _) => (HashHash, 2),
            (b'#', _, _) => (Hash, 1),
            _ => return None,
        };
        self.bump_n(len);
        Some(p)
    }
}

/// Lexes `text` as exactly one pre-processing token (for `##`): its kind, or `None` if
/// the text is empty, has whitespace or a comment, or is more than one token.
pub(crate) fn lex_single(text: &str) -> Option<PpKind> {
    let rc: Rc<str> = Rc::from(text);
    let mut lexer = Lexer::new(FileId(0), &rc);
    if !lexer.splices.is_empty() {
        return None;
    }
    let mut token_flags = 0;
    lexer.skip_whitespace(&mut token_flags, false).ok()?;
    if token_flags != 0 || lexer.at_end() {
        return None;
    }
    let kind = lexer.scan_token();
    (lexer.at_end() && kind != PpKind::Unterminated).then_some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex_all(text: &str) -> Vec<(PpKind, String, u32, u32, u8)> {
        let mut interner = Interner::new();
        let rc: Rc<str> = Rc::from(text);
        let mut lexer = Lexer::new(FileId(0), &rc);
        let mut out = Vec::new();
        loop {
            let t = lexer.next(&mut interner).expect("lexes");
            if t.kind == PpKind::Eof {
                return out;
            }
            out.push((
                t.kind,
                interner.get(t.sym).to_string(),
                t.loc.line,
                t.loc.col,
                t.flags,
            ));
        }
    }

    #[test]
    fn splices_join_tokens_and_keep_physical_positions() {
        let toks = lex_all("ab\\\ncd x\n  y\\\r\n\\\nz");
        assert_eq!(toks[0].1, "abcd");
        assert_eq!((toks[0].2, toks[0].3), (1, 1));
        assert_eq!(toks[1].1, "x");
        assert_eq!((toks[1].2, toks[1].3), (2, 4));
        assert_eq!(toks[2].1, "yz");
        assert_eq!((toks[2].2, toks[2].3), (3, 3));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let toks = lex_all("\"é\" x");
        assert_eq!(toks[1].1, "x");
        assert_eq!(toks[1].3, 5);
    }

    #[test]
    fn pp_numbers_take_signed_exponents_only_after_e_or_p() {
        let toks = lex_all("0x1e+1 1.2.3 1+2 0x1p-3 .5e+x");
        let spellings: Vec<&str> = toks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            spellings,
            ["0x1e+1", "1.2.3", "1", "+", "2", "0x1p-3", ".5e+x"]
        );
    }

    #[test]
    fn flags_record_space_and_line_start() {
        let toks = lex_all("a/**/b /* x\n */ c\nd");
        assert_eq!(toks[0].4, flags::LINE_START);
        assert_eq!(toks[1].4, flags::LEADING_SPACE);
        assert_eq!(
            toks[2].4,
            flags::LEADING_SPACE,
            "a newline inside a comment is no line start"
        );
        assert_eq!(toks[3].4, flags::LEADING_SPACE | flags::LINE_START);
    }

    #[test]
    fn digraphs_and_longest_match() {
        let toks = lex_all("<: :> <% %> %: %:%: <<= ... .. ->");
        let kinds: Vec<PpKind> = toks.iter().map(|t| t.0).collect();
        use Punct::*;
        let expected = [
            LBracket, RBracket, LBrace, RBrace, Hash, HashHash, ShlAssign, Ellipsis, Dot, Dot,
            Arrow,
        ];
        assert_eq!(kinds, expected.map(PpKind::Punct));
    }

    #[test]
    fn unterminated_quote_runs_to_line_end_and_comment_is_an_error() {
        let toks = lex_all("a 'bc d\ne");
        assert_eq!(
            toks[1],
            (
                PpKind::Unterminated,
                "'bc d".to_string(),
                1,
                3,
                flags::LEADING_SPACE
            )
        );
        assert_eq!(toks[2].1, "e");
        let mut interner = Interner::new();
        let rc: Rc<str> = Rc::from("x\n  /* never closed");
        let mut lexer = Lexer::new(FileId(0), &rc);
        lexer.next(&mut interner).unwrap();
        let err = lexer.next(&mut interner).unwrap_err();
        assert_eq!((err.loc.line, err.loc.col), (2, 3));
        assert_eq!(err.message, "unterminated comment");
    }

    #[test]
    fn prefixed_literals_and_header_names() {
        let toks = lex_all("L'a' u8\"s\" U\"t\" Lx u 'x'");
        let kinds: Vec<PpKind> = toks.iter().map(|t| t.0).collect();
        assert_eq!(
            kinds,
            [
                PpKind::Char,
                PpKind::Str,
                PpKind::Str,
                PpKind::Ident,
                PpKind::Ident,
                PpKind::Char
            ]
        );
        let mut interner = Interner::new();
        let rc: Rc<str> = Rc::from(" <a//b.h> x");
        let mut lexer = Lexer::new(FileId(0), &rc);
        let h = lexer.header_name(&mut interner).unwrap().unwrap();
        assert_eq!(interner.get(h.sym), "<a//b.h>");
    }

    #[test]
    fn single_token_check_for_pasting() {
        assert_eq!(lex_single("+="), Some(PpKind::Punct(Punct::PlusAssign)));
        assert_eq!(lex_single("ab12"), Some(PpKind::Ident));
        assert_eq!(lex_single("//"), None);
        assert_eq!(lex_single("+-"), None);
        assert_eq!(lex_single(""), None);
        assert_eq!(lex_single("1e+"), Some(PpKind::Number));
    }
}
