//! The include stack and the file-level token stream: tokens come from the innermost
//! file, directives are carried out as they are met, skipped groups are dropped, and
//! a file's end pops it.
//!
//! Why it exists: everything above it (macro expansion, argument collection) sees one
//! stream of tokens from "the files", whatever the nesting of `#include` and `#if`.
//!
//! Invariants:
//! - A directive is a `#` that starts a logical line and is read in `Normal` or `Args`
//!   mode. In `Peek` mode (looking for the `(` of a function-like macro invocation) it
//!   is returned as a plain token and the caller puts it back, so the directive runs
//!   on the next ordinary read (gcc's behaviour: a directive ends the search for `(`).
//! - The end of an included file is returned as `Eof` (and not crossed) in `Peek` and
//!   `Args` mode: a macro invocation never spans the end of a file.
//! - At the end of every file its conditional stack must be empty
//!   (`unterminated #if`); the file's include-guard verdict is recorded then.
//! - `lookahead` holds at most one token that was read but not consumed.

use super::include::{GuardTracker, MAX_INCLUDE_DEPTH};
use super::Preprocessor;
use crate::frontend::diag::Diagnostic;
use crate::frontend::intern::Sym;
use crate::frontend::lex::Lexer;
use crate::frontend::source::{FileId, Loc};
use crate::frontend::token::{PpKind, PpToken, Punct};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Why the file stream is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FileRead {
    Normal,
    /// Looking for the `(` after a function-like macro name.
    Peek,
    /// Collecting macro arguments.
    Args,
}

/// One open `#if`/`#ifdef`/`#ifndef` group.
#[derive(Clone, Debug)]
pub(super) struct Cond {
    /// Where the opening directive's name is (for "unterminated #if").
    pub loc: Loc,
    pub directive: &'static str,
    /// The enclosing group is being included.
    pub parent_active: bool,
    /// The current branch is being included.
    pub active: bool,
    /// Some branch of this group was (or, when the parent is skipped, can no longer
    /// be) taken.
    pub taken: bool,
    pub seen_else: bool,
}

/// One file on the include stack.
pub(super) struct FileState {
    pub id: FileId,
    pub lexer: Lexer,
    pub lookahead: Option<PpToken>,
    pub conds: Vec<Cond>,
    pub guard: GuardTracker,
    /// The directory quoted includes are searched in first.
    pub dir: Option<PathBuf>,
    /// Identity of the file for `#pragma once` and guards.
    pub key: PathBuf,
    /// Index of the search directory the file was found in (for `#include_next`).
    pub search_index: Option<usize>,
    /// `#line`: added to physical line numbers for `__LINE__`.
    pub line_delta: i64,
    /// `#line N "name"`: the name `__FILE__` gives.
    pub presumed_name: Option<Rc<str>>,
}

impl FileState {
    pub fn new(
        id: FileId,
        text: &Rc<str>,
        path: &Path,
        key: PathBuf,
        search_index: Option<usize>,
    ) -> FileState {
        FileState {
            id,
            lexer: Lexer::new(id, text),
            lookahead: None,
            conds: Vec::new(),
            guard: GuardTracker::Start,
            dir: path.parent().map(Path::to_path_buf),
            key,
            search_index,
            line_delta: 0,
            presumed_name: None,
        }
    }

    pub fn skipping(&self) -> bool {
        self.conds.last().is_some_and(|c| !c.active)
    }
}

impl Preprocessor<'_> {
    /// The next raw token of the current file (the lookahead first).
    pub(super) fn lex_raw(&mut self) -> Result<PpToken, Diagnostic> {
        let Some(file) = self.files.last_mut() else {
            return Err(Diagnostic::global_error("internal error: no file to read"));
        };
        if let Some(tok) = file.lookahead.take() {
            return Ok(tok);
        }
        match file.lexer.next(&mut self.interner) {
            Ok(tok) => Ok(tok),
            Err(e) => Err(self.lex_error(e)),
        }
    }

    /// Puts a token back in front of the current file's stream.
    pub(super) fn unread_file_token(&mut self, tok: PpToken) {
        if let Some(file) = self.files.last_mut() {
            file.lookahead = Some(tok);
        }
    }

    /// The rest of the current directive line (the token starting the next line is
    /// kept as lookahead).
    pub(super) fn read_line(&mut self) -> Result<Vec<PpToken>, Diagnostic> {
        let mut line = Vec::new();
        loop {
            let tok = self.lex_raw()?;
            if tok.line_start() {
                self.unread_file_token(tok);
                return Ok(line);
            }
            line.push(tok);
        }
    }

    /// The next token of the file stream that is not a directive and not skipped.
    pub(super) fn next_file_token(&mut self, mode: FileRead) -> Result<PpToken, Diagnostic> {
        loop {
            let tok = self.lex_raw()?;
            if tok.kind == PpKind::Eof {
                if mode != FileRead::Normal {
                    self.unread_file_token(tok);
                    return Ok(tok);
                }
                self.end_of_file()?;
                if self.files.len() > 1 {
                    self.files.pop();
                    continue;
                }
                self.unread_file_token(tok);
                return Ok(tok);
            }
            if tok.is(Punct::Hash) && tok.line_start() {
                if mode == FileRead::Peek {
                    return Ok(tok);
                }
                if let Some(emitted) = self.directive(tok)? {
                    return Ok(emitted);
                }
                continue;
            }
            let Some(file) = self.files.last_mut() else {
                return Ok(tok);
            };
            if file.skipping() {
                continue;
            }
            file.guard.token();
            return Ok(tok);
        }
    }

    /// Checks the end of the current file and records its include guard.
    fn end_of_file(&mut self) -> Result<(), Diagnostic> {
        let Some(file) = self.files.last() else {
            return Ok(());
        };
        if let Some(cond) = file.conds.last() {
            return Err(self.error(cond.loc, format!("unterminated {}", cond.directive)));
        }
        if let GuardTracker::Closed(guard) = file.guard {
            let key = file.key.clone();
            self.includes.guards.insert(key, guard);
        }
        Ok(())
    }

    /// Opens an included file (or skips it when `#pragma once` or its guard says it
    /// would add nothing).
    pub(super) fn enter_file(
        &mut self,
        path: &Path,
        search_index: Option<usize>,
        directive_loc: Loc,
    ) -> Result<(), Diagnostic> {
        if self.files.len() >= MAX_INCLUDE_DEPTH {
            return Err(self.error(
                directive_loc,
                format!(
                    "#include nested depth {} exceeds maximum of {MAX_INCLUDE_DEPTH}",
                    self.files.len()
                ),
            ));
        }
        let key = super::include::file_key(path);
        if self.includes.once.contains(&key) {
            return Ok(());
        }
        if let Some(&guard) = self.includes.guards.get(&key) {
            if self.macros.is_defined(guard) {
                return Ok(());
            }
        }
        let text = match self.includes.text(&key, path) {
            Ok(text) => text,
            Err(e) => {
                let message = format!("{}: {}", path.display(), super::io_message(&e));
                return Err(self.error(directive_loc, message));
            }
        };
        let name = path.to_string_lossy().into_owned();
        let id = self
            .sources
            .add(name, path, text.clone(), Some(directive_loc));
        self.files
            .push(FileState::new(id, &text, path, key, search_index));
        Ok(())
    }

    /// The presumed name of the current file (`#line` may change it).
    pub(super) fn presumed_file_name(&self) -> Rc<str> {
        match self.files.last() {
            Some(file) => match &file.presumed_name {
                Some(name) => name.clone(),
                None => Rc::from(self.sources.name(file.id)),
            },
            None => Rc::from(""),
        }
    }

    /// Marks the current file as `#pragma once`.
    pub(super) fn mark_once(&mut self) {
        if let Some(file) = self.files.last() {
            self.includes.once.insert(file.key.clone());
        }
    }

    /// Tells the guard tracker of the current file about a directive.
    pub(super) fn guard_directive(&mut self, name: Sym, depth_before: usize, ifndef: Option<Sym>) {
        if let Some(file) = self.files.last_mut() {
            file.guard.directive(name, depth_before, ifndef);
        }
    }
}
