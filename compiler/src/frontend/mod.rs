//! phicc's C front end (issue 5: C99 plus what csmith emits, lowered to the alloca IR).
//!
//! This first layer turns a `.c` file into a stream of classified tokens: source
//! management (`source`), diagnostics (`diag`), the target data model (`target`),
//! the lexer (`lex`), the preprocessor (`preprocess`) and phase-7 token
//! classification (`classify`). The parser, semantic analysis and lowering are built
//! on top of `Token`.
//!
//! Public API: `preprocess` / `preprocess_str` with `PreprocessOptions`, giving a
//! `PpOutput` (tokens, the `SourceMap`, warnings) or a `Diagnostic`; `tokens_to_text`
//! prints tokens for `phicc -E`.

mod classify;
pub mod diag;
mod intern;
mod lex;
mod literal;
mod preprocess;
pub mod source;
pub mod target;
mod text;
pub mod token;

pub use diag::{Diagnostic, Severity};
pub use preprocess::{preprocess, preprocess_str, PpOutput, PreprocessOptions};
pub use source::{FileId, Loc, SourceMap};
pub use target::Target;
pub use text::tokens_to_text;
pub use token::{Keyword, Punct, Token, TokenKind};
