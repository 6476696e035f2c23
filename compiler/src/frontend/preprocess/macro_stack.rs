//! `#pragma push_macro("NAME")` and `#pragma pop_macro("NAME")`, as gcc implements them.
//!
//! Why it exists: a header saves a macro, redefines it, and restores it; ignoring the
//! pragmas (as phicc once did) leaves the redefinition in force, so later code expands
//! differently from gcc's: silently wrong code.
//!
//! Invariants (gcc's behaviour): each name has its own stack; `push_macro` saves the
//! current definition, or "not defined", and leaves the macro as it is; `pop_macro`
//! restores the last saved state (defining or undefining the macro) and drops it; a
//! `pop_macro` with nothing saved changes nothing. A malformed operand is ignored with a
//! warning, as gcc does; the operand is never macro-expanded.

use super::macros::MacroDef;
use super::Preprocessor;
use crate::frontend::intern::Sym;
use crate::frontend::literal::string_bytes;
use crate::frontend::token::{PpKind, PpToken, Punct};
use std::collections::HashMap;
use std::rc::Rc;

/// Saved definitions per macro name (`None`: the macro was not defined).
pub(super) type MacroStacks = HashMap<Sym, Vec<Option<Rc<MacroDef>>>>;

/// Which of the two pragmas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MacroStackOp {
    Push,
    Pop,
}

impl MacroStackOp {
    /// The operation a pragma's first word names, if any.
    pub(super) fn from_pragma_name(name: &str) -> Option<MacroStackOp> {
        match name {
            "push_macro" => Some(MacroStackOp::Push),
            "pop_macro" => Some(MacroStackOp::Pop),
            _ => None,
        }
    }
}

impl Preprocessor<'_> {
    /// `#pragma push_macro ( string-literal )` / `pop_macro`; `operand` is the line after
    /// the pragma's name.
    pub(super) fn pragma_macro_stack(
        &mut self,
        op: MacroStackOp,
        name_tok: PpToken,
        operand: &[PpToken],
    ) {
        let Some(name) = self.macro_stack_operand(operand) else {
            let which = match op {
                MacroStackOp::Push => "push_macro",
                MacroStackOp::Pop => "pop_macro",
            };
            self.warn(
                name_tok.loc,
                format!("invalid #pragma {which} directive; expected '(\"NAME\")'"),
            );
            return;
        };
        let sym = self.interner.intern(&name);
        match op {
            MacroStackOp::Push => {
                let saved = self.macros.get(sym).cloned();
                self.pushed_macros.entry(sym).or_default().push(saved);
            }
            MacroStackOp::Pop => {
                if let Some(saved) = self.pushed_macros.get_mut(&sym).and_then(Vec::pop) {
                    self.macros.restore(sym, saved);
                }
            }
        }
    }

    /// The macro name of `( "NAME" )`.
    fn macro_stack_operand(&self, operand: &[PpToken]) -> Option<String> {
        let [open, string, close, ..] = operand else {
            return None;
        };
        if open.kind != PpKind::Punct(Punct::LParen)
            || string.kind != PpKind::Str
            || close.kind != PpKind::Punct(Punct::RParen)
        {
            return None;
        }
        let mut ignored = Vec::new();
        let bytes = string_bytes(self.spelling(string), &mut ignored).ok()?;
        String::from_utf8(bytes).ok()
    }
}
