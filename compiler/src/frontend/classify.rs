//! Translation phase 7's token conversion: each pre-processing token that leaves the
//! preprocessor becomes a `Token` with its keyword, value or punctuator decoded.
//!
//! Why it exists: the parser should never look at spellings to learn what a token is,
//! and malformed constants (`08`, `1.2.3`, `'\400'`, an unterminated `'`) are reported
//! here, at the token's position, before parsing starts.
//!
//! Invariants: the output token keeps the spelling, position and whitespace flags of
//! its pre-processing token; identifier and spelling strings are shared (`Rc`) between
//! tokens with the same spelling.

use super::diag::Diagnostic;
use super::intern::{Interner, Sym};
use super::literal::{char_value, parse_number, string_bytes, Number};
use super::source::SourceMap;
use super::token::{flags, Keyword, PpKind, PpToken, Token, TokenKind};
use super::wide_literal::{is_wide, wide_char_value, wide_string_units};
use crate::target::Target;
use std::rc::Rc;

pub(crate) struct Classifier {
    target: Target,
    /// Keyword (or not) of each identifier symbol seen, to look each spelling up once.
    keywords: Vec<Option<Option<Keyword>>>,
}

impl Classifier {
    pub fn new(target: Target) -> Classifier {
        Classifier {
            target,
            keywords: Vec::new(),
        }
    }

    fn keyword(&mut self, sym: Sym, interner: &Interner) -> Option<Keyword> {
        let index = sym.0 as usize;
        if self.keywords.len() <= index {
            self.keywords.resize(index + 1, None);
        }
        *self.keywords[index].get_or_insert_with(|| Keyword::from_spelling(interner.get(sym)))
    }

    /// Converts one pre-processing token; `pragmas` holds the token lists of pragma
    /// tokens.
    pub fn classify(
        &mut self,
        tok: &PpToken,
        interner: &Interner,
        pragmas: &[Vec<PpToken>],
        sources: &SourceMap,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Token, Diagnostic> {
        let spelling = interner.rc(tok.sym);
        let fail = |message: String| Diagnostic::error(sources, tok.loc, message);
        let mut literal_warnings = Vec::new();
        let kind = match tok.kind {
            PpKind::Ident => match self.keyword(tok.sym, interner) {
                Some(k) => TokenKind::Keyword(k),
                None => TokenKind::Ident(spelling.clone()),
            },
            PpKind::Number => match parse_number(&spelling).map_err(fail)? {
                Number::Int(i) => TokenKind::Int(i),
                Number::Float(f) => TokenKind::Float(f),
            },
            PpKind::Char if is_wide(&spelling) => TokenKind::WideChar(
                wide_char_value(
                    &spelling,
                    self.target.wchar_is_signed(),
                    &mut literal_warnings,
                )
                .map_err(fail)?,
            ),
            PpKind::Str if is_wide(&spelling) => TokenKind::WideStr(Rc::from(
                wide_string_units(&spelling, &mut literal_warnings).map_err(fail)?,
            )),
            PpKind::Char => TokenKind::Char(
                char_value(
                    &spelling,
                    self.target.char_is_signed(),
                    &mut literal_warnings,
                )
                .map_err(fail)?,
            ),
            PpKind::Str => TokenKind::Str(Rc::from(
                string_bytes(&spelling, &mut literal_warnings).map_err(fail)?,
            )),
            PpKind::Punct(p) => TokenKind::Punct(p),
            PpKind::Unterminated => {
                // The token starts with its (possibly prefixed) opening quote.
                let quote = spelling
                    .chars()
                    .find(|&c| c == '"' || c == '\'')
                    .unwrap_or('\'');
                return Err(fail(format!("missing terminating {quote} character")));
            }
            PpKind::Other | PpKind::HeaderName | PpKind::Placemarker => TokenKind::Stray,
            PpKind::Pragma => {
                let inner = pragmas
                    .get(tok.sym.0 as usize)
                    .map_or(&[][..], Vec::as_slice);
                let mut tokens = Vec::with_capacity(inner.len());
                for t in inner {
                    tokens.push(self.classify(t, interner, &[], sources, warnings)?);
                }
                return Ok(Token {
                    kind: TokenKind::Pragma(Rc::from(tokens)),
                    spelling: Rc::from("pragma"),
                    loc: tok.loc,
                    leading_space: false,
                    line_start: true,
                    from_macro: false,
                });
            }
            PpKind::Eof => TokenKind::Eof,
        };
        for message in literal_warnings {
            warnings.push(Diagnostic::warning(sources, tok.loc, message));
        }
        Ok(Token {
            kind,
            spelling,
            loc: tok.loc,
            leading_space: tok.has(flags::LEADING_SPACE),
            line_start: tok.has(flags::LINE_START),
            from_macro: tok.has(flags::FROM_MACRO),
        })
    }
}
