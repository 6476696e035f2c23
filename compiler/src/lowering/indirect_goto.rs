//! GNU computed `goto *p`: an IR `switch` over the function's address-taken labels.
//!
//! Why: a label's address is byte k of the function's hidden label object
//! (`frontend/parse/local_labels.rs`), and the parser already turned `goto *p` into the
//! index k of its target, so the IR needs no indirect branch: the switch has one case per
//! label whose address the function takes, `k -> label`.
//!
//! Invariants: each case leaves the scopes a plain `goto` to its label would leave (the
//! checked lowering's lifetimes), then branches to the label's block; an index that is
//! no label of the function (an address from another function, or not a label at all:
//! undefined in GNU C) reaches the default edge, `unreachable` (the oracle's trap for
//! reaching it, never a value of our choosing).

use super::builder::{const_value, exact};
use super::function::{FnLower, Res};
use crate::frontend::ast::Expr;
use crate::ir::{Operand, Terminator};

impl FnLower<'_, '_> {
    /// `goto *p` with `index` the target's index among `def.label_addresses`.
    pub fn indirect_goto(&mut self, index: &Expr) -> Res<()> {
        let (v, ty) = self.scalar(index)?;
        if !ty.is_integer() {
            return Err(self.err(index.loc, "internal error: computed goto index"));
        }
        // The switch reads a value, never a constant-typed literal of another width.
        let v = match v {
            Operand::Const(c) => exact(ty, const_value(c, ty, self.ctx.ptr_bytes)),
            v => v,
        };
        let labels = self.def.label_addresses.clone();
        let mut cases = Vec::with_capacity(labels.len());
        for k in 0..labels.len() {
            cases.push((k as i64, self.new_label()));
        }
        let default = self.new_label();
        self.b.terminate(Terminator::Switch {
            ty,
            val: v,
            default,
            cases: cases.clone(),
        });
        for (&(_, block), &label) in cases.iter().zip(&labels) {
            self.start(block);
            let target = self.goto_label(label, index.loc)?;
            self.end_scopes_for_goto(label);
            self.br(target);
        }
        self.start(default);
        self.b.terminate(Terminator::Unreachable);
        Ok(())
    }
}
