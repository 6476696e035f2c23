//! GNU nested functions at their call sites: the static chain a direct call passes, and
//! the refusal of a capturing nested function's address.
//!
//! Why: the parser lifted each nested function to a static function whose last
//! parameter, when it uses locals of the functions around it, is a `void **` chain
//! (`frontend/parse/nested_fn.rs`); the caller builds that table here, in a fresh
//! temporary slot, at every call, from its own frame.
//!
//! Invariants: entry i of the table is the address of `captures[i]`: the caller's own
//! local's object when the caller owns it, else the address the caller itself received
//! in its chain (the parser made every caller capture what its callees capture); the
//! address of a nested function with captures is never taken (a pointer to it could not
//! carry the chain: gcc makes a trampoline on the stack, phicc refuses at the use).

use super::builder::exact;
use super::function::{FnLower, Res};
use super::ModuleCtx;
use crate::frontend::ast::Capture;
use crate::frontend::types::{QualType, Type};
use crate::frontend::Loc;
use crate::ir::{BlockId, IrType, Operand, Terminator};
use std::rc::Rc;

/// Refuses the address of `name` when it is a nested function with captures.
pub(crate) fn check_nested_address(ctx: &ModuleCtx, name: &str, loc: Loc) -> Res<()> {
    let Some(n) = ctx.definition(name).and_then(|d| d.nested.as_ref()) else {
        return Ok(());
    };
    if n.captures.is_empty() {
        return Ok(());
    }
    Err(ctx.error(
        loc,
        format!(
            "the address of nested function '{}' is used, but it uses locals of the \
             function around it: that needs a trampoline, which phicc does not support \
             (only direct calls of such a function)",
            n.c_name
        ),
    ))
}

impl FnLower<'_, '_> {
    /// For a direct call of `name` at `loc`: the static chain to pass as the last
    /// argument, when `name` is a nested function with captures.
    pub fn static_chain(&mut self, name: &str, loc: Loc) -> Res<Option<Operand>> {
        let Some(def) = self.ctx.definition(name) else {
            return Ok(None);
        };
        let Some(n) = def.nested.as_ref().filter(|n| !n.captures.is_empty()) else {
            return Ok(None);
        };
        if def.ty.variadic {
            return Err(self.err(
                loc,
                format!(
                    "variadic nested function '{}' uses locals of the function around it: \
                     not supported (its static chain cannot follow the '...')",
                    n.c_name
                ),
            ));
        }
        let pb = u64::from(self.ctx.ptr_bytes);
        let table = self.temp(IrType::I8, pb * n.captures.len() as u64, self.ctx.ptr_bytes);
        for (i, c) in n.captures.iter().enumerate() {
            let addr = self.capture_address(c, loc)?;
            let at = self.ptr_offset(table, exact(IrType::I64, i as i64), IrType::I64, pb);
            self.store(IrType::Ptr, addr, at);
        }
        Ok(Some(table))
    }

    /// Right after a direct call of `name`: for each non-local goto flag among its
    /// captures, when set, the owner jumps to the label it names (clearing it), any other
    /// caller returns at once (its callers check in turn).
    pub fn check_nonlocal_goto(&mut self, name: &str, loc: Loc) -> Res<()> {
        let Some(n) = self.ctx.definition(name).and_then(|d| d.nested.as_ref()) else {
            return Ok(());
        };
        for c in &n.captures {
            let owner = self.ctx.definition(&c.owner);
            let Some(targets) = owner.and_then(|o| o.nonlocal_goto.as_ref()) else {
                continue;
            };
            if targets.flag != c.local {
                continue;
            }
            let flag = self.capture_address(c, loc)?;
            let v = self.load(IrType::I32, flag);
            let (taken, go_on) = (self.new_label(), self.new_label());
            self.b.terminate(Terminator::CondBr {
                cond: v,
                if_true: taken,
                if_false: go_on,
            });
            self.start(taken);
            if c.owner == self.def.name {
                self.store(IrType::I32, exact(IrType::I32, 0), flag);
                let cases: Vec<(i64, BlockId)> = targets
                    .labels
                    .iter()
                    .map(|l| (i64::from(l.0) + 1, self.new_label()))
                    .collect();
                let default = self.new_label();
                self.b.terminate(Terminator::Switch {
                    ty: IrType::I32,
                    val: v,
                    default,
                    cases: cases.clone(),
                });
                for (&(_, block), &label) in cases.iter().zip(&targets.labels) {
                    self.start(block);
                    let target = self.goto_label(label, loc)?;
                    self.end_scopes_for_goto(label);
                    self.br(target);
                }
                self.start(default);
                self.b.terminate(Terminator::Unreachable);
            } else {
                self.ret_without_value();
            }
            self.start(go_on);
        }
        Ok(())
    }

    /// The address of captured object `c`, seen from the function being lowered.
    fn capture_address(&mut self, c: &Capture, loc: Loc) -> Res<Operand> {
        let internal = |f: &Self| f.err(loc, "internal error: a capture the caller lacks");
        if c.owner == self.def.name {
            return self
                .locals
                .get(c.local.0 as usize)
                .copied()
                .ok_or_else(|| internal(self));
        }
        let own = self.def.nested.as_ref();
        let Some((chain, j)) =
            own.and_then(|n| Some((n.chain, n.captures.iter().position(|k| k == c)?)))
        else {
            return Err(internal(self));
        };
        let Some(&slot) = self.locals.get(chain.0 as usize) else {
            return Err(internal(self));
        };
        let table = self.load(IrType::Ptr, slot);
        let pb = u64::from(self.ctx.ptr_bytes);
        let at = self.ptr_offset(table, exact(IrType::I64, j as i64), IrType::I64, pb);
        Ok(self.load(IrType::Ptr, at))
    }
}

/// The C type of the chain argument, `void **`.
pub(crate) fn chain_type() -> QualType {
    let void_ptr = Type::Pointer(Rc::new(QualType::new(Type::Void)));
    QualType::new(Type::Pointer(Rc::new(QualType::new(void_ptr))))
}
