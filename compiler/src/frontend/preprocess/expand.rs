//! Macro replacement (C99 6.10.3): invocation recognition, argument collection and
//! pre-expansion, `#` stringizing, `##` pasting, rescanning with blue paint, the
//! builtin macros, `defined` inside `#if`, and the `_Pragma` operator.
//!
//! Why it exists: this is the heart of the preprocessor; everything else feeds it
//! tokens or consumes its output.
//!
//! Model (the one gcc and clang use, which the standard's examples pin down):
//! - A *context* is a replacement list being rescanned; while it is live its macro is
//!   disabled. Reading an identifier that names a disabled macro paints it blue
//!   (`NO_EXPAND`) for good (6.10.3.4p2). A context is popped lazily, only when a read
//!   needs the token after its end, so looking for the `(` of an invocation may end a
//!   context and re-enable its macro (that is how `f(2)(9)` in 6.10.3.4's example
//!   becomes `2*9*g`).
//! - A *frame* is one token stream being fully macro-expanded: `frames[0]` is the
//!   translation unit (or an `#if`/`#include`/`#line` line), and every argument that
//!   must be expanded before substitution (6.10.3.1) gets its own frame on top, whose
//!   output is collected. This replaces the natural recursion (argument expansion
//!   inside argument expansion) by an explicit stack, so deeply nested invocations
//!   cannot overflow the call stack.
//!
//! Invariants:
//! - A frame with a pending invocation reads nothing until all the arguments it needs
//!   expanded are; then the substituted replacement list is pushed as a context.
//! - `##` operands are the unexpanded arguments, with a placemarker for an empty one;
//!   placemarkers never leave `substitute`.
//! - Every token produced by expansion has `FROM_MACRO`; the first token of an
//!   expansion takes the invocation's leading whitespace and line start, no other
//!   expanded token starts a line.
//! - The total number of tokens produced by expansions is bounded (`EXPANSION_BUDGET`),
//!   and so is the number of argument tokens invocations copy (collected, and again for
//!   pre-expansion: `ARGUMENT_COPY_BUDGET`); that turns runaway expansions into
//!   errors: exponential ones, and quadratic ones such as `f(f(f(...)))` nested
//!   thousands deep (each level copies the rest of the nest as its argument).

use super::files::FileRead;
use super::macros::{Builtin, MacroDef};
use super::predefined::{FIXED_DATE, FIXED_TIME};
use super::Preprocessor;
use crate::frontend::diag::Diagnostic;
use crate::frontend::intern::{wk, Sym};
use crate::frontend::lex::{lex_single, Lexer};
use crate::frontend::source::Loc;
use crate::frontend::token::{flags, PpKind, PpToken, Punct};
use std::path::Path;
use std::rc::Rc;

/// Where a frame's tokens come from once its contexts are exhausted.
pub(super) enum Base {
    /// The include stack (directives run as they are met).
    Files,
    /// A fixed list: a macro argument, or a directive line. `end` positions the `Eof`.
    Tokens {
        tokens: Vec<PpToken>,
        pos: usize,
        end: Loc,
    },
}

/// The tokens of a context: a macro body shared as is, or a substituted list.
enum ContextTokens {
    Shared(Rc<[PpToken]>),
    Owned(Vec<PpToken>),
}

impl ContextTokens {
    fn get(&self, index: usize) -> Option<&PpToken> {
        match self {
            ContextTokens::Shared(t) => t.get(index),
            ContextTokens::Owned(t) => t.get(index),
        }
    }

    fn len(&self) -> usize {
        match self {
            ContextTokens::Shared(t) => t.len(),
            ContextTokens::Owned(t) => t.len(),
        }
    }
}

/// A replacement list being rescanned.
pub(super) struct Context {
    tokens: ContextTokens,
    pos: usize,
    /// The macro disabled while this context is live.
    disables: Option<Sym>,
    /// `LEADING_SPACE`/`LINE_START` of the invocation, given to the first token.
    first_flags: u8,
    /// The outermost invocation this context belongs to (for token locations).
    expansion_loc: Loc,
}

/// A function-like macro invocation whose arguments are being expanded.
struct Pending {
    mac: Rc<MacroDef>,
    name: PpToken,
    args: Vec<Vec<PpToken>>,
    /// Fully macro-expanded arguments (`None`: not needed, or identical to the raw one).
    expanded: Vec<Option<Vec<PpToken>>>,
    /// The next argument to consider for expansion.
    next_check: usize,
    /// The argument whose frame is running.
    expanding: usize,
}

pub(super) struct Frame {
    base: Base,
    contexts: Vec<Context>,
    /// The expanded tokens of an argument frame.
    output: Vec<PpToken>,
    pending: Option<Box<Pending>>,
}

impl Frame {
    pub fn files() -> Frame {
        Frame {
            base: Base::Files,
            contexts: Vec::new(),
            output: Vec::new(),
            pending: None,
        }
    }

    fn tokens(tokens: Vec<PpToken>, end: Loc) -> Frame {
        Frame {
            base: Base::Tokens {
                tokens,
                pos: 0,
                end,
            },
            contexts: Vec::new(),
            output: Vec::new(),
            pending: None,
        }
    }
}

/// Where a token was read from, so that it can be put back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Context,
    Base,
}

impl Preprocessor<'_> {
    /// The next fully macro-expanded token of `frames[0]`; `Eof` at its end.
    pub(super) fn next_expanded(&mut self) -> Result<PpToken, Diagnostic> {
        loop {
            let Some(fi) = self.frames.len().checked_sub(1) else {
                return Err(Diagnostic::global_error("internal error: no token stream"));
            };
            if self.frames[fi].pending.is_some() {
                self.advance_pending(fi)?;
                continue;
            }
            let Some((tok, _)) = self.read(fi, FileRead::Normal)? else {
                if fi == 0 {
                    let end = match &self.frames[0].base {
                        Base::Tokens { end, .. } => *end,
                        Base::Files => Loc::new(crate::frontend::source::FileId(0), 1, 1),
                    };
                    return Ok(PpToken::new(PpKind::Eof, wk::EMPTY, end, flags::LINE_START));
                }
                // An argument is fully expanded: hand its tokens to the invocation.
                if let Some(done) = self.frames.pop() {
                    if let Some(p) = self.frames[fi - 1].pending.as_mut() {
                        let slot = p.expanding;
                        if let Some(s) = p.expanded.get_mut(slot) {
                            *s = Some(done.output);
                        }
                    }
                }
                continue;
            };
            if tok.kind == PpKind::Ident && !tok.has(flags::NO_EXPAND) {
                if self.in_if && tok.sym == wk::DEFINED {
                    let value = self.defined_operator(fi, tok)?;
                    if fi == 0 {
                        return Ok(value);
                    }
                    self.frames[fi].output.push(value);
                    continue;
                }
                if let Some(mac) = self.macros.get(tok.sym).cloned() {
                    if self.expand_macro(fi, tok, mac)? {
                        continue;
                    }
                } else if tok.sym == wk::PRAGMA_OP
                    && fi == 0
                    && !self.in_if
                    && matches!(self.frames[0].base, Base::Files)
                {
                    if let Some(pragma) = self.pragma_operator(tok)? {
                        return Ok(pragma);
                    }
                    continue;
                }
            }
            if fi == 0 {
                return Ok(self.locate(tok));
            }
            self.frames[fi].output.push(tok);
        }
    }

    /// Gives a token spelled in a `#define` the position of the outermost invocation.
    fn locate(&self, mut tok: PpToken) -> PpToken {
        if tok.has(flags::FROM_DEFINE) {
            if let Some(loc) = self.frames[0]
                .contexts
                .first()
                .map(|c| c.expansion_loc)
                .or(self.last_expansion_loc)
            {
                tok.loc = loc;
            }
        }
        tok
    }

    /// Reads the next token of frame `fi` (contexts first, then the base); `None` when
    /// a token-list base is exhausted.
    fn read(&mut self, fi: usize, mode: FileRead) -> Result<Option<(PpToken, Source)>, Diagnostic> {
        loop {
            let Some(frame) = self.frames.get_mut(fi) else {
                return Ok(None);
            };
            if let Some(ctx) = frame.contexts.last_mut() {
                if let Some(&raw) = ctx.tokens.get(ctx.pos) {
                    let mut tok = raw;
                    let first = ctx.pos == 0;
                    ctx.pos += 1;
                    tok.flags &= !flags::LINE_START;
                    if first {
                        tok.flags = (tok.flags & !flags::LEADING_SPACE) | ctx.first_flags;
                    }
                    tok.flags |= flags::FROM_MACRO;
                    self.paint(&mut tok);
                    return Ok(Some((tok, Source::Context)));
                }
                // Exhausted: the context ends and its macro is enabled again.
                if let Some(done) = frame.contexts.pop() {
                    if let Some(m) = done.disables {
                        self.macros.enable(m);
                    }
                }
                continue;
            }
            if let Base::Tokens { tokens, pos, .. } = &mut frame.base {
                let Some(&raw) = tokens.get(*pos) else {
                    return Ok(None);
                };
                *pos += 1;
                let mut tok = raw;
                self.paint(&mut tok);
                return Ok(Some((tok, Source::Base)));
            }
            let tok = self.next_file_token(mode)?;
            return Ok(Some((tok, Source::Base)));
        }
    }

    /// Paints an identifier blue if it names a macro that is being expanded.
    fn paint(&self, tok: &mut PpToken) {
        if tok.kind == PpKind::Ident && self.macros.is_disabled(tok.sym) {
            tok.flags |= flags::NO_EXPAND;
        }
    }

    /// Puts back the token just read from frame `fi`.
    fn unread(&mut self, fi: usize, tok: PpToken, source: Source) {
        let Some(frame) = self.frames.get_mut(fi) else {
            return;
        };
        match source {
            Source::Context => {
                if let Some(ctx) = frame.contexts.last_mut() {
                    ctx.pos = ctx.pos.saturating_sub(1);
                }
            }
            Source::Base => match &mut frame.base {
                Base::Tokens { pos, .. } => *pos = pos.saturating_sub(1),
                Base::Files => self.unread_file_token(tok),
            },
        }
    }

    /// Starts expanding `mac` named by `name`; false if it is a function-like macro
    /// not followed by `(` (then `name` is an ordinary identifier).
    fn expand_macro(
        &mut self,
        fi: usize,
        name: PpToken,
        mac: Rc<MacroDef>,
    ) -> Result<bool, Diagnostic> {
        if let Some(builtin) = mac.builtin {
            let tok = self.builtin_token(builtin, name);
            self.push_context(fi, ContextTokens::Owned(vec![tok]), None, name)?;
            return Ok(true);
        }
        if !mac.function_like {
            let tokens = if mac.needs_substitution {
                ContextTokens::Owned(self.substitute(&mac, &[], &[], name)?)
            } else {
                ContextTokens::Shared(mac.body.clone())
            };
            self.push_context(fi, tokens, Some(mac.name), name)?;
            return Ok(true);
        }
        match self.read(fi, FileRead::Peek)? {
            Some((t, _)) if t.is(Punct::LParen) => {}
            Some((t, s)) => {
                self.unread(fi, t, s);
                return Ok(false);
            }
            None => return Ok(false),
        }
        let args = self.collect_args(fi, &mac, name)?;
        self.copy_arguments(args.iter().map(Vec::len).sum(), name)?;
        let count = args.len();
        self.frames[fi].pending = Some(Box::new(Pending {
            mac,
            name,
            args,
            expanded: vec![None; count],
            next_check: 0,
            expanding: 0,
        }));
        Ok(true)
    }

    /// Reads the arguments of an invocation up to its closing `)` (the `(` is read)
    /// and checks their number.
    fn collect_args(
        &mut self,
        fi: usize,
        mac: &MacroDef,
        name: PpToken,
    ) -> Result<Vec<Vec<PpToken>>, Diagnostic> {
        let macro_name = self.interner.get(mac.name).to_string();
        let params = mac.params.len();
        let mut args: Vec<Vec<PpToken>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let Some((mut tok, _)) = self.read(fi, FileRead::Args)? else {
                return Err(self.error(
                    name.loc,
                    format!("unterminated argument list invoking macro \"{macro_name}\""),
                ));
            };
            match tok.kind {
                PpKind::Eof => {
                    return Err(self.error(
                        name.loc,
                        format!("unterminated argument list invoking macro \"{macro_name}\""),
                    ));
                }
                // A `#pragma` inside macro arguments is dropped.
                PpKind::Pragma => continue,
                _ => {}
            }
            if tok.line_start() {
                tok.flags = (tok.flags & !flags::LINE_START) | flags::LEADING_SPACE;
            }
            // Commas split arguments only outside nested parentheses and before the
            // variable arguments, which take all the remaining commas.
            if tok.is(Punct::LParen) {
                depth += 1;
            } else if tok.is(Punct::RParen) {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            } else if tok.is(Punct::Comma) && depth == 0 && !(mac.variadic && args.len() >= params)
            {
                args.push(Vec::new());
                continue;
            }
            if let Some(last) = args.last_mut() {
                last.push(tok);
            }
        }
        if params == 0 {
            if args.len() == 1 && args[0].is_empty() {
                args.clear();
            } else {
                return Err(self.error(
                    name.loc,
                    format!(
                        "macro \"{macro_name}\" passed {} arguments, but takes just 0",
                        args.len()
                    ),
                ));
            }
        } else if args.len() < params {
            if mac.variadic && args.len() + 1 == params {
                // The variable arguments may be left out entirely (a GNU extension
                // C99 requires at least one).
                args.push(Vec::new());
            } else {
                return Err(self.error(
                    name.loc,
                    format!(
                        "macro \"{macro_name}\" requires {params} arguments, but only {} given",
                        args.len()
                    ),
                ));
            }
        } else if args.len() > params {
            return Err(self.error(
                name.loc,
                format!(
                    "macro \"{macro_name}\" passed {} arguments, but takes just {params}",
                    args.len()
                ),
            ));
        }
        Ok(args)
    }

    /// Expands the next argument that needs it, or finishes the invocation.
    fn advance_pending(&mut self, fi: usize) -> Result<(), Diagnostic> {
        let Some(mut pending) = self.frames[fi].pending.take() else {
            return Ok(());
        };
        while pending.next_check < pending.args.len() {
            let i = pending.next_check;
            pending.next_check += 1;
            let wanted = pending.mac.param_expanded.get(i).copied().unwrap_or(false);
            if wanted && self.needs_expansion(&pending.args[i]) {
                pending.expanding = i;
                self.copy_arguments(pending.args[i].len(), pending.name)?;
                let tokens = pending.args[i].clone();
                let end = pending.name.loc;
                self.frames[fi].pending = Some(pending);
                self.frames.push(Frame::tokens(tokens, end));
                return Ok(());
            }
        }
        let body = self.substitute(&pending.mac, &pending.args, &pending.expanded, pending.name)?;
        self.push_context(
            fi,
            ContextTokens::Owned(body),
            Some(pending.mac.name),
            pending.name,
        )
    }

    /// Charges `tokens` produced by the expansion of `name` to the budget.
    fn spend(&mut self, tokens: usize, name: PpToken) -> Result<(), Diagnostic> {
        if charge(&mut self.expansion_budget, tokens) {
            return Ok(());
        }
        let msg = format!(
            "macro expansion too large: more than {} tokens in all (runaway expansion?)",
            super::EXPANSION_BUDGET
        );
        Err(self.error(name.loc, msg))
    }

    /// Charges `tokens` argument tokens copied by the invocation `name` to the budget.
    fn copy_arguments(&mut self, tokens: usize, name: PpToken) -> Result<(), Diagnostic> {
        if charge(&mut self.argument_copy_budget, tokens) {
            return Ok(());
        }
        let msg = format!(
            "macro invocations nested too deeply in arguments: more than {} argument \
             tokens copied in all",
            super::ARGUMENT_COPY_BUDGET
        );
        Err(self.error(name.loc, msg))
    }

    /// Whether expanding `arg` could change it.
    fn needs_expansion(&self, arg: &[PpToken]) -> bool {
        arg.iter().any(|t| {
            t.kind == PpKind::Ident
                && !t.has(flags::NO_EXPAND)
                && (self.macros.is_defined(t.sym) || (self.in_if && t.sym == wk::DEFINED))
        })
    }

    fn push_context(
        &mut self,
        fi: usize,
        tokens: ContextTokens,
        disables: Option<Sym>,
        name: PpToken,
    ) -> Result<(), Diagnostic> {
        self.spend(tokens.len(), name)?;
        let expansion_loc = if fi == 0 {
            match self.frames[0].contexts.first() {
                Some(outer) => outer.expansion_loc,
                None if name.has(flags::FROM_DEFINE) => self.last_expansion_loc.unwrap_or(name.loc),
                None => name.loc,
            }
        } else {
            name.loc
        };
        if fi == 0 && self.frames[0].contexts.is_empty() {
            self.last_expansion_loc = Some(expansion_loc);
        }
        if let Some(m) = disables {
            self.macros.disable(m);
        }
        self.frames[fi].contexts.push(Context {
            tokens,
            pos: 0,
            disables,
            first_flags: name.flags & (flags::LEADING_SPACE | flags::LINE_START),
            expansion_loc,
        });
        Ok(())
    }

    /// The replacement list of `mac` with parameters replaced (6.10.3.1), `#` applied
    /// (6.10.3.2) and `##` applied (6.10.3.3).
    fn substitute(
        &mut self,
        mac: &MacroDef,
        args: &[Vec<PpToken>],
        expanded: &[Option<Vec<PpToken>>],
        name: PpToken,
    ) -> Result<Vec<PpToken>, Diagnostic> {
        let body = mac.body.clone();
        let empty: Vec<PpToken> = Vec::new();
        let arg = |param: u16| -> &[PpToken] {
            args.get(usize::from(param).wrapping_sub(1))
                .unwrap_or(&empty)
        };
        let mut out: Vec<PpToken> = Vec::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            let tok = body[i];
            let stringized_param = |at: usize| -> Option<u16> {
                let hash = body.get(at)?;
                let param = body.get(at + 1)?.param;
                (mac.function_like && hash.is(Punct::Hash) && param != 0).then_some(param)
            };
            if let Some(param) = stringized_param(i) {
                out.push(self.stringize(arg(param), tok));
                i += 2;
                continue;
            }
            if tok.is(Punct::HashHash) && i + 1 < body.len() {
                let next = body[i + 1];
                let (rhs, consumed): (Vec<PpToken>, usize) =
                    if let Some(param) = stringized_param(i + 1) {
                        (vec![self.stringize(arg(param), next)], 3)
                    } else if next.param != 0 {
                        let raw = arg(next.param);
                        if raw.is_empty() {
                            (vec![placemarker(next)], 2)
                        } else {
                            (raw.to_vec(), 2)
                        }
                    } else {
                        (vec![next], 2)
                    };
                i += consumed;
                let lhs = out.pop();
                // GNU `, ## __VA_ARGS__`: the comma disappears when the variable
                // arguments are empty; otherwise `##` does nothing.
                let va_param = mac.variadic && usize::from(next.param) == mac.params.len();
                if let Some(l) = lhs.filter(|l| l.is(Punct::Comma) && va_param) {
                    if rhs.first().is_some_and(|r| r.kind != PpKind::Placemarker) {
                        out.push(l);
                        out.extend(rhs);
                    }
                    continue;
                }
                let mut rhs = rhs.into_iter();
                let first = rhs.next();
                match (lhs, first) {
                    (Some(l), Some(r)) => {
                        let pasted = self.paste(l, r, name)?;
                        out.push(pasted);
                    }
                    (l, r) => out.extend(l.into_iter().chain(r)),
                }
                out.extend(rhs);
                continue;
            }
            if tok.param != 0 {
                let before_paste = body.get(i + 1).is_some_and(|n| n.is(Punct::HashHash));
                let raw = arg(tok.param);
                let source: &[PpToken] = if before_paste {
                    raw
                } else {
                    expanded
                        .get(usize::from(tok.param) - 1)
                        .and_then(Option::as_deref)
                        .unwrap_or(raw)
                };
                if source.is_empty() {
                    if before_paste {
                        out.push(placemarker(tok));
                    }
                } else {
                    let start = out.len();
                    out.extend_from_slice(source);
                    let first = &mut out[start];
                    first.flags =
                        (first.flags & !flags::LEADING_SPACE) | (tok.flags & flags::LEADING_SPACE);
                }
                i += 1;
                continue;
            }
            out.push(tok);
            i += 1;
        }
        out.retain(|t| t.kind != PpKind::Placemarker);
        Ok(out)
    }

    /// `#arg`: the spelling of the argument as a string literal, with `"` and `\`
    /// escaped inside string and character literals and each run of whitespace
    /// between tokens made one space (6.10.3.2p2).
    fn stringize(&mut self, arg: &[PpToken], hash: PpToken) -> PpToken {
        let mut text = String::from("\"");
        let mut first = true;
        for tok in arg.iter().filter(|t| t.kind != PpKind::Placemarker) {
            if !first && tok.leading_space() {
                text.push(' ');
            }
            first = false;
            let spelling = self.interner.get(tok.sym);
            if matches!(tok.kind, PpKind::Str | PpKind::Char | PpKind::Unterminated) {
                for c in spelling.chars() {
                    if c == '"' || c == '\\' {
                        text.push('\\');
                    }
                    text.push(c);
                }
            } else {
                text.push_str(spelling);
            }
        }
        text.push('"');
        let sym = self.interner.intern(&text);
        PpToken::new(
            PpKind::Str,
            sym,
            hash.loc,
            hash.flags & (flags::LEADING_SPACE | flags::FROM_DEFINE),
        )
    }

    /// `l ## r`: the two spellings must form exactly one pp-token.
    fn paste(&mut self, l: PpToken, r: PpToken, name: PpToken) -> Result<PpToken, Diagnostic> {
        if l.kind == PpKind::Placemarker {
            return Ok(r);
        }
        if r.kind == PpKind::Placemarker {
            return Ok(l);
        }
        let text = format!("{}{}", self.interner.get(l.sym), self.interner.get(r.sym));
        let Some(kind) = lex_single(&text) else {
            let message = format!(
                "pasting \"{}\" and \"{}\" does not give a valid preprocessing token",
                self.interner.get(l.sym),
                self.interner.get(r.sym)
            );
            return Err(self.error(name.loc, message));
        };
        let sym = self.interner.intern(&text);
        Ok(PpToken::new(
            kind,
            sym,
            l.loc,
            l.flags & (flags::LEADING_SPACE | flags::FROM_DEFINE),
        ))
    }

    /// The token a builtin macro expands to.
    fn builtin_token(&mut self, builtin: Builtin, name: PpToken) -> PpToken {
        let (kind, text) = match builtin {
            Builtin::File => {
                let mut quoted = String::from("\"");
                for c in self.presumed_file_name().chars() {
                    if c == '"' || c == '\\' {
                        quoted.push('\\');
                    }
                    quoted.push(c);
                }
                quoted.push('"');
                (PpKind::Str, quoted)
            }
            Builtin::Line => {
                let physical = if name.has(flags::FROM_DEFINE) {
                    self.frames[0]
                        .contexts
                        .first()
                        .map(|c| c.expansion_loc)
                        .or(self.last_expansion_loc)
                        .map_or(name.loc.line, |l| l.line)
                } else {
                    name.loc.line
                };
                let delta = self.files.last().map_or(0, |f| f.line_delta);
                let line = (i64::from(physical) + delta).max(0);
                (PpKind::Number, line.to_string())
            }
            Builtin::Date => (PpKind::Str, FIXED_DATE.to_string()),
            Builtin::Time => (PpKind::Str, FIXED_TIME.to_string()),
        };
        let sym = self.interner.intern(&text);
        PpToken::new(kind, sym, name.loc, name.flags & flags::LEADING_SPACE)
    }

    /// `defined X` or `defined ( X )` in an `#if` line: 1 or 0.
    fn defined_operator(&mut self, fi: usize, op: PpToken) -> Result<PpToken, Diagnostic> {
        let requires = "operator \"defined\" requires an identifier";
        let mut next = self.read(fi, FileRead::Normal)?.map(|(t, _)| t);
        let parenthesized = next.is_some_and(|t| t.is(Punct::LParen));
        if parenthesized {
            next = self.read(fi, FileRead::Normal)?.map(|(t, _)| t);
        }
        let Some(ident) = next.filter(|t| t.kind == PpKind::Ident) else {
            return Err(self.error(next.map_or(op.loc, |t| t.loc), requires));
        };
        if parenthesized {
            let close = self.read(fi, FileRead::Normal)?.map(|(t, _)| t);
            if !close.is_some_and(|t| t.is(Punct::RParen)) {
                return Err(self.error(
                    close.map_or(ident.loc, |t| t.loc),
                    "missing ')' after \"defined\"",
                ));
            }
        }
        let value = if self.macros.is_defined(ident.sym) {
            wk::ONE
        } else {
            wk::ZERO
        };
        Ok(PpToken::new(
            PpKind::Number,
            value,
            op.loc,
            op.flags & flags::LEADING_SPACE,
        ))
    }

    /// `_Pragma ( string-literal )` (6.10.9): the string, destringized, is a
    /// `#pragma` line.
    fn pragma_operator(&mut self, op: PpToken) -> Result<Option<PpToken>, Diagnostic> {
        let malformed = "_Pragma takes a parenthesized string literal";
        let mut operands = Vec::new();
        for _ in 0..3 {
            match self.read(0, FileRead::Args)? {
                Some((t, _)) if t.kind != PpKind::Eof => operands.push(t),
                _ => return Err(self.error(op.loc, malformed)),
            }
        }
        let [open, string, close] = [operands[0], operands[1], operands[2]];
        if !open.is(Punct::LParen) || string.kind != PpKind::Str || !close.is(Punct::RParen) {
            return Err(self.error(op.loc, malformed));
        }
        let spelling = self.interner.get(string.sym);
        let body = spelling
            .strip_prefix('L')
            .unwrap_or(spelling)
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or("");
        let mut text = String::with_capacity(body.len());
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && matches!(chars.peek(), Some('"' | '\\')) {
                continue;
            }
            text.push(c);
        }
        let text: Rc<str> = Rc::from(text);
        let id = self.sources.add(
            "<_Pragma>".to_string(),
            Path::new("<_Pragma>"),
            text.clone(),
            Some(op.loc),
        );
        let mut lexer = Lexer::new(id, &text);
        let mut line = Vec::new();
        loop {
            let tok = lexer
                .next(&mut self.interner)
                .map_err(|e| self.lex_error(e))?;
            if tok.kind == PpKind::Eof {
                break;
            }
            line.push(tok);
        }
        self.pragma(&line, op)
    }

    /// Fully macro-expands a directive line (`in_if`: `defined` is an operator).
    pub(super) fn expand_line(
        &mut self,
        tokens: Vec<PpToken>,
        in_if: bool,
        end: Loc,
    ) -> Result<Vec<PpToken>, Diagnostic> {
        let saved_frames = std::mem::replace(&mut self.frames, vec![Frame::tokens(tokens, end)]);
        let saved_in_if = std::mem::replace(&mut self.in_if, in_if);
        let mut out = Vec::new();
        let result = loop {
            match self.next_expanded() {
                Ok(t) if t.kind == PpKind::Eof => break Ok(()),
                Ok(t) => out.push(t),
                Err(e) => break Err(e),
            }
        };
        // After an error some contexts may still hold their macros disabled.
        for frame in &self.frames {
            for ctx in &frame.contexts {
                if let Some(m) = ctx.disables {
                    self.macros.enable(m);
                }
            }
        }
        self.frames = saved_frames;
        self.in_if = saved_in_if;
        result.map(|()| out)
    }
}

fn placemarker(at: PpToken) -> PpToken {
    PpToken::new(
        PpKind::Placemarker,
        wk::EMPTY,
        at.loc,
        at.flags & flags::LEADING_SPACE,
    )
}

/// Takes `tokens` from `budget`; false (budget untouched) when it has fewer left.
fn charge(budget: &mut u64, tokens: usize) -> bool {
    match budget.checked_sub(tokens as u64) {
        Some(left) => {
            *budget = left;
            true
        }
        None => false,
    }
}
