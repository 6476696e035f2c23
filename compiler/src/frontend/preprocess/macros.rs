//! Macro definitions: parsing a `#define` line, the macro table, and the redefinition
//! rule.
//!
//! Why it exists: the expander needs each replacement list pre-digested (parameters
//! resolved to indices, `#`/`##` operands known), and `#define`/`#undef` must apply
//! C99 6.10.3's constraints with clear messages.
//!
//! Invariants:
//! - A parsed definition satisfies the constraints of 6.10.3: unique parameter names,
//!   `#` in a function-like macro is followed by a parameter, `##` is not at either
//!   end, `__VA_ARGS__` appears only in a variadic macro's replacement list (where it
//!   is its last parameter).
//! - Replacement-list tokens carry `FROM_DEFINE`, never `LINE_START`, and the first one
//!   has no `LEADING_SPACE` (the invocation supplies it).
//! - Redefinition (6.10.3p2): an identical one is silent; a different one is a
//!   *warning* (as in gcc) and the new definition replaces the old one.
//! - `disabled[sym]` counts the live expansion contexts of the macro named `sym`; a
//!   macro is disabled (not expanded, identifiers naming it are painted blue) while
//!   that count is nonzero.

use crate::frontend::intern::{wk, Interner, Sym};
use crate::frontend::source::Loc;
use crate::frontend::token::{flags, PpKind, PpToken, Punct};
use std::rc::Rc;

/// Macros whose expansion is computed, not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    File,
    Line,
    Date,
    Time,
}

#[derive(Debug)]
pub(super) struct MacroDef {
    pub name: Sym,
    pub loc: Loc,
    pub function_like: bool,
    /// Parameter names; a variadic macro's last one is `__VA_ARGS__` (or the GNU name
    /// given before `...`).
    pub params: Vec<Sym>,
    pub variadic: bool,
    pub body: Rc<[PpToken]>,
    /// The body needs `#`/`##`/parameter processing (else it is pushed as is).
    pub needs_substitution: bool,
    /// Per parameter: it appears somewhere that is not a `#` or `##` operand, so its
    /// argument must be fully macro-expanded first (6.10.3.1).
    pub param_expanded: Vec<bool>,
    pub builtin: Option<Builtin>,
}

impl MacroDef {
    pub fn builtin(name: Sym, kind: Builtin, loc: Loc) -> MacroDef {
        MacroDef {
            name,
            loc,
            function_like: false,
            params: Vec::new(),
            variadic: false,
            body: Rc::from(Vec::new()),
            needs_substitution: false,
            param_expanded: Vec::new(),
            builtin: Some(kind),
        }
    }

    /// The redefinition rule of 6.10.3p2: same kind, same parameters, same replacement
    /// list (same tokens with the same whitespace separation).
    pub fn same_definition(&self, other: &MacroDef) -> bool {
        self.function_like == other.function_like
            && self.params == other.params
            && self.variadic == other.variadic
            && self.builtin == other.builtin
            && self.body.len() == other.body.len()
            && self.body.iter().zip(other.body.iter()).all(|(a, b)| {
                a.kind == b.kind
                    && a.sym == b.sym
                    && a.param == b.param
                    && a.leading_space() == b.leading_space()
            })
    }
}

/// All defined macros, indexed by the interned name.
#[derive(Debug, Default)]
pub(super) struct MacroTable {
    defs: Vec<Option<Rc<MacroDef>>>,
    disabled: Vec<u32>,
}

impl MacroTable {
    pub fn get(&self, name: Sym) -> Option<&Rc<MacroDef>> {
        self.defs.get(name.0 as usize).and_then(Option::as_ref)
    }

    pub fn is_defined(&self, name: Sym) -> bool {
        self.get(name).is_some()
    }

    /// Installs `def`, returning the definition it replaces.
    pub fn define(&mut self, def: MacroDef) -> Option<Rc<MacroDef>> {
        let index = def.name.0 as usize;
        if self.defs.len() <= index {
            self.defs.resize(index + 1, None);
        }
        self.defs[index].replace(Rc::new(def))
    }

    /// Puts back a saved state of `name` (`#pragma pop_macro`): that definition, or
    /// none.
    pub fn restore(&mut self, name: Sym, saved: Option<Rc<MacroDef>>) {
        let index = name.0 as usize;
        if self.defs.len() <= index {
            self.defs.resize(index + 1, None);
        }
        self.defs[index] = saved;
    }

    pub fn undef(&mut self, name: Sym) -> Option<Rc<MacroDef>> {
        self.defs.get_mut(name.0 as usize).and_then(Option::take)
    }

    pub fn disable(&mut self, name: Sym) {
        let index = name.0 as usize;
        if self.disabled.len() <= index {
            self.disabled.resize(index + 1, 0);
        }
        self.disabled[index] += 1;
    }

    pub fn enable(&mut self, name: Sym) {
        if let Some(count) = self.disabled.get_mut(name.0 as usize) {
            *count = count.saturating_sub(1);
        }
    }

    pub fn is_disabled(&self, name: Sym) -> bool {
        self.disabled.get(name.0 as usize).is_some_and(|&c| c > 0)
    }
}

/// A problem in a directive: where and what.
pub(super) type DirectiveError = (Loc, String);

/// Parses the tokens of a `#define` line after `define`; `directive_loc` is the
/// position of `define` (for a missing name).
pub(super) fn parse_define(
    line: &[PpToken],
    directive_loc: Loc,
    interner: &Interner,
) -> Result<MacroDef, DirectiveError> {
    let Some(name) = line.first() else {
        return Err((
            directive_loc,
            "no macro name given in #define directive".to_string(),
        ));
    };
    if name.kind != PpKind::Ident {
        return Err((name.loc, "macro names must be identifiers".to_string()));
    }
    if name.sym == wk::DEFINED {
        return Err((
            name.loc,
            "\"defined\" cannot be used as a macro name".to_string(),
        ));
    }
    let function_like = line
        .get(1)
        .is_some_and(|t| t.is(Punct::LParen) && !t.leading_space());
    let mut params = Vec::new();
    let mut variadic = false;
    let mut body_start = 1;
    if function_like {
        body_start = parse_params(line, name.loc, interner, &mut params, &mut variadic)?;
    }
    let mut body: Vec<PpToken> = line[body_start..].to_vec();
    // `a ## ## b` pastes once, as in gcc (pasting `a` with `##` would be undefined).
    body.dedup_by(|next, prev| next.is(Punct::HashHash) && prev.is(Punct::HashHash));
    for (i, tok) in body.iter_mut().enumerate() {
        tok.set(flags::LINE_START, false);
        tok.flags |= flags::FROM_DEFINE;
        if i == 0 {
            tok.set(flags::LEADING_SPACE, false);
        }
        if tok.kind == PpKind::Ident {
            if let Some(index) = params.iter().position(|&p| p == tok.sym) {
                tok.param = u16::try_from(index + 1).unwrap_or(0);
            }
            let is_va_param = variadic && params.last() == Some(&wk::VA_ARGS);
            if tok.sym == wk::VA_ARGS && !is_va_param {
                return Err((
                    tok.loc,
                    "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro"
                        .to_string(),
                ));
            }
        }
    }
    // `##` may not begin or end the replacement list (6.10.3.3p1).
    if let Some(t) = body
        .first()
        .filter(|t| t.is(Punct::HashHash))
        .or(body.last().filter(|t| t.is(Punct::HashHash)))
    {
        return Err((
            t.loc,
            "'##' cannot appear at either end of a macro expansion".to_string(),
        ));
    }
    let mut param_expanded = vec![false; params.len()];
    let mut needs_substitution = function_like;
    // In a function-like macro each `#` is followed by a parameter (6.10.3.2p1); a
    // parameter is expanded first unless it is an operand of `#` or `##` (6.10.3.1).
    for i in 0..body.len() {
        let tok = body[i];
        if tok.is(Punct::HashHash) {
            needs_substitution = true;
        }
        if function_like
            && tok.is(Punct::Hash)
            && body.get(i + 1).is_none_or(|next| next.param == 0)
        {
            return Err((
                tok.loc,
                "'#' is not followed by a macro parameter".to_string(),
            ));
        }
        if tok.param != 0 {
            let after_hash = i > 0 && function_like && body[i - 1].is(Punct::Hash);
            let pasted = (i > 0 && body[i - 1].is(Punct::HashHash))
                || body.get(i + 1).is_some_and(|n| n.is(Punct::HashHash));
            if !after_hash && !pasted {
                param_expanded[usize::from(tok.param - 1)] = true;
            }
        }
    }
    Ok(MacroDef {
        name: name.sym,
        loc: name.loc,
        function_like,
        params,
        variadic,
        body: Rc::from(body),
        needs_substitution,
        param_expanded,
        builtin: None,
    })
}

/// Parses `( params )` starting at `line[1]`; returns the index of the first body token.
fn parse_params(
    line: &[PpToken],
    name_loc: Loc,
    interner: &Interner,
    params: &mut Vec<Sym>,
    variadic: &mut bool,
) -> Result<usize, DirectiveError> {
    let missing_paren = |loc: Loc| (loc, "missing ')' in macro parameter list".to_string());
    let mut i = 2;
    if line.get(i).is_some_and(|t| t.is(Punct::RParen)) {
        return Ok(i + 1);
    }
    loop {
        let Some(tok) = line.get(i) else {
            return Err(missing_paren(line.last().map_or(name_loc, |t| t.loc)));
        };
        if tok.is(Punct::Ellipsis) {
            *variadic = true;
            params.push(wk::VA_ARGS);
            i += 1;
            return match line.get(i) {
                Some(t) if t.is(Punct::RParen) => Ok(i + 1),
                Some(t) => Err(missing_paren(t.loc)),
                None => Err(missing_paren(tok.loc)),
            };
        }
        if tok.kind != PpKind::Ident {
            return Err((
                tok.loc,
                format!(
                    "expected parameter name, found \"{}\"",
                    interner.get(tok.sym)
                ),
            ));
        }
        if tok.sym == wk::VA_ARGS {
            return Err((
                tok.loc,
                "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro".to_string(),
            ));
        }
        if params.contains(&tok.sym) {
            return Err((
                tok.loc,
                format!("duplicate macro parameter \"{}\"", interner.get(tok.sym)),
            ));
        }
        params.push(tok.sym);
        i += 1;
        match line.get(i) {
            Some(t) if t.is(Punct::Comma) => i += 1,
            Some(t) if t.is(Punct::RParen) => return Ok(i + 1),
            Some(t) if t.is(Punct::Ellipsis) => {
                // GNU named variadic parameter: `args...`.
                *variadic = true;
                i += 1;
                return match line.get(i) {
                    Some(t) if t.is(Punct::RParen) => Ok(i + 1),
                    Some(t) => Err(missing_paren(t.loc)),
                    None => Err(missing_paren(tok.loc)),
                };
            }
            Some(t) => {
                return Err((
                    t.loc,
                    format!("expected ',' or ')', found \"{}\"", interner.get(t.sym)),
                ))
            }
            None => return Err(missing_paren(tok.loc)),
        }
    }
}
