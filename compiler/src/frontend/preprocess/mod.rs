//! The C preprocessor (translation phase 4): directives, macro expansion and
//! conditional inclusion over the lexer's pre-processing tokens, then phase 7's
//! classification into `Token`s.
//!
//! Why it exists: it is the first layer of phicc's C front end; the parser consumes
//! the token stream it returns.
//!
//! Structure (one concept per file): `files` reads tokens from the include stack and
//! dispatches directives, `directives` implements each directive, `macros` holds
//! definitions, `expand` does macro replacement, `if_expr` evaluates `#if`, `include`
//! finds headers, `predefined` writes the predefined macros.
//!
//! Invariants:
//! - Every error is returned as a `Diagnostic` at the exact `file:line:col` of the
//!   offending token; nothing panics on any input, and nothing recurses on input
//!   structure (includes, macro arguments and `#if` nesting use explicit stacks).
//! - The output ends with exactly one `Eof` token.

mod directives;
mod embedded;
mod expand;
mod files;
mod if_expr;
mod include;
#[cfg(test)]
mod limit_tests;
mod macro_stack;
mod macros;
mod predefined;

use super::classify::Classifier;
use super::diag::Diagnostic;
use super::intern::{wk, Interner};
use super::lex::LexError;
use super::source::{Loc, SourceMap};
use super::token::{PpToken, Token};
use crate::target::Target;
use expand::Frame;
use files::FileState;
use include::IncludeCache;
use macros::{Builtin, MacroDef, MacroTable};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What the preprocessor needs to know besides the main file.
#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    pub target: Target,
    /// `-I` directories, searched for both `"..."` and `<...>` includes.
    pub include_dirs: Vec<PathBuf>,
    /// System directories, searched after `include_dirs` (the driver passes
    /// phicc's own `compiler/include`).
    pub system_dirs: Vec<PathBuf>,
    /// `-D NAME` (`None`: defined as 1) and `-D NAME=VALUE`, applied in order.
    pub defines: Vec<(String, Option<String>)>,
}

/// The result of preprocessing one translation unit.
#[derive(Debug)]
pub struct PpOutput {
    /// The classified tokens, ending with one `TokenKind::Eof`.
    pub tokens: Vec<Token>,
    /// Every file read (one entry per inclusion), for the parser's diagnostics.
    pub sources: SourceMap,
    /// Warnings (`#warning`, macro redefinitions, multi-character constants, ...).
    pub warnings: Vec<Diagnostic>,
}

/// Preprocesses the file at `main_file`.
pub fn preprocess(main_file: &Path, opts: &PreprocessOptions) -> Result<PpOutput, Diagnostic> {
    let text = include::read_text(main_file).map_err(|e| {
        Diagnostic::global_error(format!("{}: {}", main_file.display(), io_message(&e)))
    })?;
    let name = main_file.to_string_lossy().into_owned();
    Preprocessor::new(opts).run(name, main_file, text)
}

/// Preprocesses `text` as if it were the file `name` (quoted includes are searched
/// relative to `name`'s directory).
pub fn preprocess_str(
    name: &str,
    text: &str,
    opts: &PreprocessOptions,
) -> Result<PpOutput, Diagnostic> {
    Preprocessor::new(opts).run(name.to_string(), Path::new(name), Rc::from(text))
}

/// An I/O error as gcc words it (`No such file or directory`), without Rust's
/// `(os error 2)` suffix.
fn io_message(e: &std::io::Error) -> String {
    let full = e.to_string();
    match full.find(" (os error") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

/// The most tokens all macro expansions of one translation unit may produce; beyond
/// it the input is treated as a runaway (e.g. exponential) expansion. A csmith program
/// produces under a thousand (its macros are few and short) and at most ~10^5 tokens
/// in all; the preprocessor's tests expand `f(x) (x)` nested 2000 deep, about 4 million
/// (n^2 + 2n: each level yields its argument's expansion and a pair of parentheses).
/// Five million keeps a runaway's time (seconds) and memory (its output tokens, a few
/// hundred MB) bounded. It was 200 million: an exponential `#define` chain in 20 bytes
/// of a fuzz input then ran for minutes and gigabytes before it was refused.
pub(crate) const EXPANSION_BUDGET: u64 = 5_000_000;

/// The most argument tokens the macro invocations of one translation unit may copy
/// (each invocation collects its arguments, and copies one again to pre-expand it).
/// Invocations nested in arguments copy the rest of the nest at every level, so
/// `f(f(...f(1)...))` n deep copies 3n^2 - n - 1 tokens: 27 million at n = 3000, which
/// the preprocessor's tests require to work; 32 million admits n = 3266 and refuses a
/// deeper nest (20 KB of fuzz input reach n = 6700: 135 million copies, gigabytes and
/// tens of seconds) within a few seconds and well under a gigabyte.
pub(crate) const ARGUMENT_COPY_BUDGET: u64 = 32_000_000;

pub(crate) struct Preprocessor<'o> {
    opts: &'o PreprocessOptions,
    sources: SourceMap,
    interner: Interner,
    macros: MacroTable,
    /// The include stack; the last entry is the file being read.
    files: Vec<FileState>,
    includes: IncludeCache,
    /// `-I` directories followed by system directories.
    search_dirs: Vec<PathBuf>,
    /// Macro-expansion frames; `frames[0]` is the stream being read (see `expand`).
    frames: Vec<Frame>,
    /// Expanding an `#if` line: `defined` is an operator.
    in_if: bool,
    /// Tokens of `#pragma`s handed to the parser, indexed by a pragma token's `sym`.
    pragmas: Vec<Vec<PpToken>>,
    /// Definitions saved by `#pragma push_macro`, per name (`macro_stack`).
    pushed_macros: macro_stack::MacroStacks,
    warnings: Vec<Diagnostic>,
    expansion_budget: u64,
    argument_copy_budget: u64,
    /// Where the last outermost macro invocation of the main stream was.
    last_expansion_loc: Option<Loc>,
}

impl<'o> Preprocessor<'o> {
    fn new(opts: &'o PreprocessOptions) -> Preprocessor<'o> {
        let mut search_dirs = opts.include_dirs.clone();
        search_dirs.extend(opts.system_dirs.iter().cloned());
        Preprocessor {
            opts,
            sources: SourceMap::new(),
            interner: Interner::new(),
            macros: MacroTable::default(),
            files: Vec::new(),
            includes: IncludeCache::default(),
            search_dirs,
            frames: vec![Frame::files()],
            in_if: false,
            pragmas: Vec::new(),
            pushed_macros: Default::default(),
            warnings: Vec::new(),
            expansion_budget: EXPANSION_BUDGET,
            argument_copy_budget: ARGUMENT_COPY_BUDGET,
            last_expansion_loc: None,
        }
    }

    fn error(&self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(&self.sources, loc, message)
    }

    fn warn(&mut self, loc: Loc, message: impl Into<String>) {
        let w = Diagnostic::warning(&self.sources, loc, message);
        self.warnings.push(w);
    }

    fn lex_error(&self, e: LexError) -> Diagnostic {
        self.error(e.loc, e.message)
    }

    fn spelling(&self, tok: &PpToken) -> &str {
        self.interner.get(tok.sym)
    }

    /// Runs the virtual files of predefined macros, then the main file, and classifies
    /// the output.
    fn run(mut self, name: String, path: &Path, text: Rc<str>) -> Result<PpOutput, Diagnostic> {
        self.define_builtins();
        let builtin_text = predefined::builtin_source(self.opts.target);
        self.run_virtual_file("<built-in>", &builtin_text)?;
        if !self.opts.defines.is_empty() {
            let text = predefined::command_line_source(&self.opts.defines);
            self.run_virtual_file("<command-line>", &text)?;
        }
        let id = self.sources.add(name, path, text.clone(), None);
        let key = include::file_key(path);
        self.files.push(FileState::new(id, &text, path, key, None));
        let mut classifier = Classifier::new(self.opts.target);
        let mut tokens = Vec::new();
        loop {
            let tok = self.next_expanded()?;
            let last = tok.kind == super::token::PpKind::Eof;
            let token = classifier.classify(
                &tok,
                &self.interner,
                &self.pragmas,
                &self.sources,
                &mut self.warnings,
            )?;
            tokens.push(token);
            if last {
                break;
            }
        }
        Ok(PpOutput {
            tokens,
            sources: self.sources,
            warnings: self.warnings,
        })
    }

    /// Installs `__FILE__`, `__LINE__`, `__DATE__` and `__TIME__`.
    fn define_builtins(&mut self) {
        let id = self.sources.add(
            "<built-in>".to_string(),
            Path::new("<built-in>"),
            Rc::from(""),
            None,
        );
        let loc = Loc::new(id, 1, 1);
        for (sym, kind) in [
            (wk::FILE, Builtin::File),
            (wk::LINE, Builtin::Line),
            (wk::DATE, Builtin::Date),
            (wk::TIME, Builtin::Time),
        ] {
            self.macros.define(MacroDef::builtin(sym, kind, loc));
        }
    }

    /// Preprocesses a file of `#define`s that exists only in memory.
    fn run_virtual_file(&mut self, name: &str, text: &str) -> Result<(), Diagnostic> {
        let text: Rc<str> = Rc::from(text);
        let id = self
            .sources
            .add(name.to_string(), Path::new(name), text.clone(), None);
        self.files.push(FileState::new(
            id,
            &text,
            Path::new(name),
            PathBuf::from(name),
            None,
        ));
        loop {
            let tok = self.next_file_token(files::FileRead::Normal)?;
            if tok.kind == super::token::PpKind::Eof {
                break;
            }
        }
        self.files.clear();
        Ok(())
    }
}
