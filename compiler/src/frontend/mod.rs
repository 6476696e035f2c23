//! phicc's C front end (issue 5: C99 plus what csmith emits, lowered to the alloca IR).
//!
//! This first layer turns a `.c` file into a stream of classified tokens: source
//! management (`source`), diagnostics (`diag`), the target data model (`crate::target`),
//! the lexer (`lex`), literal decoding (`literal`), the preprocessor (`preprocess`)
//! and phase-7 token classification (`classify`). The parser, semantic analysis and
//! lowering are built on top of `Token`: `parse` (parser + semantic analysis, one pass)
//! builds the typed AST of `ast` over the types of `types`; `crate::lowering` turns it
//! into IR; `crate::compile_c` is the whole driver.
//!
//! Public API: `preprocess` / `preprocess_str` with `PreprocessOptions`, giving a
//! `PpOutput` (tokens ending in one `Eof`, the `SourceMap`, warnings) or the first
//! error as a `Diagnostic`; `tokens_to_text` prints tokens for `phicc -E`.
//!
//! Decisions the later layers rely on:
//! - Errors read `file:line:col: error: message`, columns counted in characters; the
//!   front end never panics and stops at the first error.
//! - Adjacent string literals are separate tokens: concatenating them (phase 6) is the
//!   parser's job (a byte concatenation of the `TokenKind::Str` payloads).
//! - Integer constants carry value, radix and suffix; choosing their type (C99
//!   6.4.4.1) is the parser's job, with `Target`'s sizes.
//! - Character constants already have their `int` value (target `char` signedness);
//!   `L` ones are `TokenKind::WideChar`/`WideStr` (`wide_literal`, the target's
//!   `wchar_t`); `u`/`U` character constants and strings are rejected.
//! - A token from a macro's replacement list is located at the outermost invocation;
//!   a token from a macro argument keeps its own position (`Token::from_macro` tells
//!   both from source tokens).
//! - `#pragma pack(...)` and `_Pragma("pack(...)")` become one `TokenKind::Pragma`
//!   token holding the expanded tokens after `pragma`; other pragmas disappear.
//! - A different macro redefinition is a warning (as in gcc); the new one wins.
//! - A source byte that is not UTF-8 is kept as an escape character (`raw_bytes`) and
//!   is that byte again inside a string or character literal, as in gcc.

pub mod ast;
mod classify;
pub mod diag;
mod intern;
mod lex;
mod literal;
pub mod parse;
mod preprocess;
mod raw_bytes;
pub mod source;
mod text;
pub mod token;
pub mod types;
mod wide_literal;

pub use crate::target::Target;
pub use diag::{Diagnostic, Severity};
pub use preprocess::{preprocess, preprocess_str, PpOutput, PreprocessOptions};
pub use source::{FileId, Loc, SourceMap};
pub use text::tokens_to_text;
pub use token::{Keyword, Punct, Token, TokenKind};
