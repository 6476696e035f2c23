//! The preprocessing directives (C99 6.10): conditional inclusion, `#define`/`#undef`,
//! `#include`, `#line`, `#error`/`#warning` and `#pragma`.
//!
//! Why it exists: each directive's syntax and error messages in one place, separate
//! from how tokens are read (`files`) and how macros expand (`expand`).
//!
//! Invariants:
//! - Conditional directives are processed even inside skipped groups (to keep the
//!   nesting), but their expressions are evaluated only when their branch could be
//!   taken: `#elif` after a taken branch is never evaluated, so an invalid expression
//!   there is no error, as in gcc. Every other directive in a skipped group is ignored.
//! - A directive consumes exactly its logical line.
//! - `#pragma once`, `#pragma pack` (handed to the parser as a pragma token, with its
//!   arguments macro-expanded as gcc does) and `#pragma push_macro`/`pop_macro`
//!   (`macro_stack`) are understood; other pragmas are ignored. `#ident`/`#sccs` are accepted and ignored.
//! - A different redefinition of a macro is a warning with a note at the previous
//!   definition; the new definition wins.

use super::files::Cond;
use super::include;
use super::macros::parse_define;
use super::Preprocessor;
use crate::frontend::diag::Diagnostic;
use crate::frontend::intern::{wk, Sym};
use crate::frontend::literal::string_bytes;
use crate::frontend::token::{flags, PpKind, PpToken, Punct};

impl Preprocessor<'_> {
    /// Carries out the directive introduced by `hash`; returns a token to emit (a
    /// pragma for the parser), if any.
    pub(super) fn directive(&mut self, hash: PpToken) -> Result<Option<PpToken>, Diagnostic> {
        let name = self.lex_raw()?;
        if name.line_start() {
            // The null directive: `#` alone on its line.
            self.unread_file_token(name);
            return Ok(None);
        }
        let (skipping, depth) = match self.files.last() {
            Some(f) => (f.skipping(), f.conds.len()),
            None => (false, 0),
        };
        if name.kind == PpKind::Ident {
            match name.sym {
                wk::IF => return self.dir_if(name, skipping, depth).map(|()| None),
                wk::IFDEF => return self.dir_ifdef(name, skipping, depth, false).map(|()| None),
                wk::IFNDEF => return self.dir_ifdef(name, skipping, depth, true).map(|()| None),
                wk::ELIF => return self.dir_elif(name, depth).map(|()| None),
                wk::ELSE => return self.dir_else(name, depth).map(|()| None),
                wk::ENDIF => return self.dir_endif(name, depth).map(|()| None),
                _ => {}
            }
        }
        if skipping {
            self.read_line()?;
            return Ok(None);
        }
        self.guard_directive(name.sym, depth, None);
        if name.kind == PpKind::Number {
            // GNU line marker `# 33 "file"`.
            let mut line = vec![name];
            line.extend(self.read_line()?);
            return self.dir_line(hash, line, true).map(|()| None);
        }
        if name.kind != PpKind::Ident {
            let message = format!("invalid preprocessing directive #{}", self.spelling(&name));
            return Err(self.error(name.loc, message));
        }
        match name.sym {
            wk::DEFINE => self.dir_define(name).map(|()| None),
            wk::UNDEF => self.dir_undef(name).map(|()| None),
            wk::INCLUDE => self.dir_include(name, false).map(|()| None),
            wk::INCLUDE_NEXT => self.dir_include(name, true).map(|()| None),
            wk::LINE_DIRECTIVE => {
                let line = self.read_line()?;
                self.dir_line(name, line, false).map(|()| None)
            }
            wk::ERROR => {
                let line = self.read_line()?;
                let text = self.join_spellings(&line);
                let message = if text.is_empty() {
                    "#error".to_string()
                } else {
                    format!("#error {text}")
                };
                Err(self.error(name.loc, message))
            }
            wk::WARNING => {
                let line = self.read_line()?;
                let text = self.join_spellings(&line);
                let message = if text.is_empty() {
                    "#warning".to_string()
                } else {
                    format!("#warning {text}")
                };
                self.warn(name.loc, message);
                Ok(None)
            }
            wk::PRAGMA => {
                let line = self.read_line()?;
                self.pragma(&line, hash)
            }
            wk::IDENT | wk::SCCS => {
                self.read_line()?;
                Ok(None)
            }
            _ => {
                let message = format!("invalid preprocessing directive #{}", self.spelling(&name));
                Err(self.error(name.loc, message))
            }
        }
    }

    /// Spellings separated by one space where the source had whitespace.
    pub(super) fn join_spellings(&self, tokens: &[PpToken]) -> String {
        let mut text = String::new();
        for (i, tok) in tokens.iter().enumerate() {
            if i > 0 && tok.leading_space() {
                text.push(' ');
            }
            text.push_str(self.spelling(tok));
        }
        text
    }

    fn push_cond(&mut self, cond: Cond) {
        if let Some(file) = self.files.last_mut() {
            file.conds.push(cond);
        }
    }

    fn dir_if(&mut self, name: PpToken, skipping: bool, depth: usize) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        self.guard_directive(name.sym, depth, None);
        let active = !skipping && self.eval_condition(line, name, "if")?;
        self.push_cond(Cond {
            loc: name.loc,
            directive: "#if",
            parent_active: !skipping,
            active,
            taken: active || skipping,
            seen_else: false,
        });
        Ok(())
    }

    /// `#ifdef` (`negate` false) and `#ifndef` (`negate` true).
    fn dir_ifdef(
        &mut self,
        name: PpToken,
        skipping: bool,
        depth: usize,
        negate: bool,
    ) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        let directive = if negate { "#ifndef" } else { "#ifdef" };
        let mut macro_name: Option<Sym> = None;
        if !skipping {
            let Some(first) = line.first() else {
                return Err(self.error(
                    name.loc,
                    format!("no macro name given in {directive} directive"),
                ));
            };
            if first.kind != PpKind::Ident {
                return Err(self.error(first.loc, "macro names must be identifiers"));
            }
            if let Some(extra) = line.get(1) {
                self.warn(
                    extra.loc,
                    format!("extra tokens at end of {directive} directive"),
                );
            }
            macro_name = Some(first.sym);
        }
        self.guard_directive(name.sym, depth, if negate { macro_name } else { None });
        let active = macro_name.is_some_and(|m| self.macros.is_defined(m) != negate);
        self.push_cond(Cond {
            loc: name.loc,
            directive,
            parent_active: !skipping,
            active,
            taken: active || skipping,
            seen_else: false,
        });
        Ok(())
    }

    fn dir_elif(&mut self, name: PpToken, depth: usize) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        self.guard_directive(name.sym, depth, None);
        let Some(cond) = self.files.last().and_then(|f| f.conds.last()).cloned() else {
            return Err(self.error(name.loc, "#elif without #if"));
        };
        if cond.seen_else {
            return Err(self.error(name.loc, "#elif after #else").with_note(
                &self.sources,
                cond.loc,
                "the conditional began here",
            ));
        }
        // A branch after a taken one is skipped without evaluating its condition.
        let active =
            cond.parent_active && !cond.taken && self.eval_condition(line, name, "elif")?;
        if let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) {
            c.active = active;
            c.taken |= active;
        }
        Ok(())
    }

    fn dir_else(&mut self, name: PpToken, depth: usize) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        self.guard_directive(name.sym, depth, None);
        let Some(cond) = self.files.last().and_then(|f| f.conds.last()).cloned() else {
            return Err(self.error(name.loc, "#else without #if"));
        };
        if cond.seen_else {
            return Err(self.error(name.loc, "#else after #else").with_note(
                &self.sources,
                cond.loc,
                "the conditional began here",
            ));
        }
        if cond.parent_active {
            if let Some(extra) = line.first() {
                self.warn(extra.loc, "extra tokens at end of #else directive");
            }
        }
        if let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) {
            c.active = c.parent_active && !c.taken;
            c.taken = true;
            c.seen_else = true;
        }
        Ok(())
    }

    fn dir_endif(&mut self, name: PpToken, depth: usize) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        self.guard_directive(name.sym, depth, None);
        let Some(cond) = self.files.last_mut().and_then(|f| f.conds.pop()) else {
            return Err(self.error(name.loc, "#endif without #if"));
        };
        if cond.parent_active {
            if let Some(extra) = line.first() {
                self.warn(extra.loc, "extra tokens at end of #endif directive");
            }
        }
        Ok(())
    }

    /// Macro-expands an `#if`/`#elif` line and evaluates it.
    fn eval_condition(
        &mut self,
        line: Vec<PpToken>,
        name: PpToken,
        directive: &str,
    ) -> Result<bool, Diagnostic> {
        let expanded = self.expand_line(line, true, name.loc)?;
        super::if_expr::evaluate(
            &expanded,
            &self.interner,
            (
                self.opts.target.char_is_signed(),
                self.opts.target.wchar_is_signed(),
            ),
            name.loc,
            directive,
        )
        .map_err(|(loc, message)| self.error(loc, message))
    }

    fn dir_define(&mut self, name: PpToken) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        let def =
            parse_define(&line, name.loc, &self.interner).map_err(|(loc, m)| self.error(loc, m))?;
        if let Some(old) = self.macros.get(def.name) {
            if old.builtin.is_some() || !old.same_definition(&def) {
                let message = format!("\"{}\" redefined", self.interner.get(def.name));
                let warning = Diagnostic::warning(&self.sources, def.loc, message).with_note(
                    &self.sources,
                    old.loc,
                    "this is the location of the previous definition",
                );
                self.warnings.push(warning);
            }
        }
        self.macros.define(def);
        Ok(())
    }

    fn dir_undef(&mut self, name: PpToken) -> Result<(), Diagnostic> {
        let line = self.read_line()?;
        let Some(first) = line.first() else {
            return Err(self.error(name.loc, "no macro name given in #undef directive"));
        };
        if first.kind != PpKind::Ident {
            return Err(self.error(first.loc, "macro names must be identifiers"));
        }
        if first.sym == wk::DEFINED {
            return Err(self.error(first.loc, "\"defined\" cannot be used as a macro name"));
        }
        if let Some(extra) = line.get(1) {
            self.warn(extra.loc, "extra tokens at end of #undef directive");
        }
        if self
            .macros
            .get(first.sym)
            .is_some_and(|m| m.builtin.is_some())
        {
            let message = format!("undefining \"{}\"", self.spelling(first));
            self.warn(first.loc, message);
        }
        self.macros.undef(first.sym);
        Ok(())
    }

    /// `#include` and `#include_next`.
    fn dir_include(&mut self, name: PpToken, next: bool) -> Result<(), Diagnostic> {
        let directive = if next { "#include_next" } else { "#include" };
        let expects = format!("{directive} expects \"FILENAME\" or <FILENAME>");
        let header = match self.files.last_mut() {
            Some(file) if file.lookahead.is_none() => file.lexer.header_name(&mut self.interner),
            _ => Ok(None),
        };
        let header = header.map_err(|e| self.lex_error(e))?;
        let (spelling, header_loc) = match header {
            Some(h) => {
                let rest = self.read_line()?;
                if let Some(extra) = rest.first() {
                    self.warn(
                        extra.loc,
                        format!("extra tokens at end of {directive} directive"),
                    );
                }
                (self.spelling(&h).to_string(), h.loc)
            }
            None => {
                // A computed include: the macro-expanded line must form a header name.
                let line = self.read_line()?;
                let Some(first) = line.first().copied() else {
                    return Err(self.error(name.loc, expects));
                };
                let expanded = self.expand_line(line, false, name.loc)?;
                match expanded.first() {
                    Some(t) if t.kind == PpKind::Str && expanded.len() == 1 => {
                        (self.spelling(t).to_string(), t.loc)
                    }
                    Some(t) if t.is(Punct::Lt) => {
                        let Some(close) = expanded.iter().position(|t| t.is(Punct::Gt)) else {
                            return Err(self.error(t.loc, "missing terminating > character"));
                        };
                        let inner = self.join_spellings(&expanded[1..close]);
                        (format!("<{inner}>"), t.loc)
                    }
                    _ => return Err(self.error(first.loc, expects)),
                }
            }
        };
        let quoted = spelling.starts_with('"');
        let file_name = spelling
            .get(1..spelling.len().saturating_sub(1))
            .unwrap_or("");
        if file_name.is_empty() {
            return Err(self.error(header_loc, format!("empty filename in {directive}")));
        }
        let (current_dir, start_after) = match self.files.last() {
            Some(f) => (f.dir.clone(), if next { f.search_index } else { None }),
            None => (None, None),
        };
        let found = include::search(
            file_name,
            quoted,
            current_dir.as_deref(),
            &self.search_dirs,
            start_after,
        );
        let Some(found) = found else {
            return Err(self.error(
                header_loc,
                format!("{file_name}: No such file or directory"),
            ));
        };
        self.enter_file(&found.path, found.search_index, name.loc)
    }

    /// `#line N ["file"]` and the GNU marker `# N "file" flags...`.
    fn dir_line(
        &mut self,
        name: PpToken,
        line: Vec<PpToken>,
        marker: bool,
    ) -> Result<(), Diagnostic> {
        let end_line = line.last().map_or(name.loc.line, |t| t.loc.line);
        let expanded = if marker {
            line
        } else {
            self.expand_line(line, false, name.loc)?
        };
        let Some(number) = expanded.first() else {
            return Err(self.error(name.loc, "unexpected end of file after #line"));
        };
        let digits = self.spelling(number);
        let value = if number.kind == PpKind::Number && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse::<u32>().ok()
        } else {
            None
        };
        let Some(value) = value else {
            let message = format!("\"{digits}\" after #line is not a positive integer");
            return Err(self.error(number.loc, message));
        };
        let mut presumed = None;
        if let Some(file_tok) = expanded.get(1) {
            let mut ignored = Vec::new();
            let bytes = (file_tok.kind == PpKind::Str)
                .then(|| string_bytes(self.spelling(file_tok), &mut ignored).ok())
                .flatten();
            let Some(bytes) = bytes else {
                let message = format!("invalid filename \"{}\"", self.spelling(file_tok));
                return Err(self.error(file_tok.loc, message));
            };
            presumed = Some(String::from_utf8_lossy(&bytes).into_owned());
            if let Some(extra) = expanded.get(2).filter(|_| !marker) {
                self.warn(extra.loc, "extra tokens at end of #line directive");
            }
        }
        if let Some(file) = self.files.last_mut() {
            // The line after the directive is line `value`.
            file.line_delta = i64::from(value) - (i64::from(end_line) + 1);
            if let Some(p) = presumed {
                file.presumed_name = Some(p.into());
            }
        }
        Ok(())
    }

    /// A `#pragma` line (or `_Pragma` operand): returns the pragma token for the
    /// parser when it is `pack`.
    pub(super) fn pragma(
        &mut self,
        line: &[PpToken],
        at: PpToken,
    ) -> Result<Option<PpToken>, Diagnostic> {
        let Some(first) = line.first().copied() else {
            return Ok(None);
        };
        if first.kind != PpKind::Ident {
            return Ok(None);
        }
        match first.sym {
            wk::ONCE => {
                self.mark_once();
                Ok(None)
            }
            wk::PACK => {
                let mut tokens = vec![first];
                tokens.extend(self.expand_line(line[1..].to_vec(), false, first.loc)?);
                let index = u32::try_from(self.pragmas.len()).unwrap_or(u32::MAX);
                self.pragmas.push(tokens);
                Ok(Some(PpToken::new(
                    PpKind::Pragma,
                    Sym(index),
                    at.loc,
                    flags::LINE_START,
                )))
            }
            sym => {
                let name = self.interner.get(sym);
                if let Some(op) = super::macro_stack::MacroStackOp::from_pragma_name(name) {
                    self.pragma_macro_stack(op, first, &line[1..]);
                }
                Ok(None)
            }
        }
    }
}
