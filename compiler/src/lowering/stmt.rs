//! Statements: blocks, `if`, loops, `goto`/labels, `break`/`continue`, `return`,
//! declarations and expression statements (`switch` is in `switch.rs`).
//!
//! Why: statements are the CFG; each construct gets the textbook block shape (a loop's
//! condition block, body, step, exit), so the SSA passes see the loops a C compiler
//! produces.
//!
//! Invariants: an error that belongs to a statement itself (nesting too deep, `break`
//! outside a loop, an unknown label) is at the innermost placed statement
//! (`FnLower::stmt_loc`), not at the function; `break`/`continue` jump to the innermost
//! enclosing targets (an error if there is none); a label's block is created on first
//! mention (by `goto` or by the label itself) and placed exactly once; `return` copies a
//! record result to the hidden slot before `ret void`; the frames on the recursion
//! through `stmt` are small (each nesting construct has its own function).

use super::abi::RetPlace;
use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use super::goto_scopes::for_init_declares;
use crate::abi_intrinsics::{AbiFloatPart, AbiHi};
use crate::frontend::ast::{Expr, LabelId, Stmt};
use crate::frontend::Loc;
use crate::ir::{BlockId, Terminator};

impl FnLower<'_, '_> {
    /// Lowers one statement. A placed statement (`Stmt::At`) is one level of nesting
    /// with its wrapper, and its position is `stmt_loc` while it is lowered.
    pub fn stmt(&mut self, s: &Stmt) -> Res<()> {
        let (loc, s) = match s {
            Stmt::At(loc, inner) => (*loc, inner.inner()),
            s => (self.stmt_loc, s),
        };
        let outer = std::mem::replace(&mut self.stmt_loc, loc);
        let mut r = self.enter(loc);
        if r.is_ok() {
            r = self.stmt_inner(s);
        }
        self.leave();
        self.stmt_loc = outer;
        r
    }

    // Every arm that nests calls a separate function: the frames on the recursion
    // through `stmt` stay small (it is bounded by `MAX_DEPTH`, and a debug build's test
    // thread has 2 MiB of stack).
    fn stmt_inner(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Null => Ok(()),
            // Not reached through `stmt`, which strips every wrapper.
            Stmt::At(_, inner) => self.stmt_inner(inner),
            Stmt::Expr(e) => self.rvalue(e).map(|_| ()),
            Stmt::Decl(items) => {
                for (id, init) in items {
                    self.declare(*id, init.as_ref())?;
                }
                Ok(())
            }
            Stmt::Compound(items) => {
                self.open_scope(items);
                self.vla_enter(items);
                for (k, item) in items.iter().enumerate() {
                    self.vla_item(k);
                    if let Err(e) = self.stmt(item) {
                        self.scopes.pop();
                        return Err(e);
                    }
                }
                self.vla_leave();
                self.close_scope();
                Ok(())
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => self.if_stmt(cond, then, otherwise.as_deref()),
            Stmt::While { cond, body } => self.while_stmt(cond, body),
            Stmt::DoWhile { body, cond } => self.do_while_stmt(body, cond),
            Stmt::For {
                init,
                cond,
                step,
                body,
            } => self.for_stmt(init.as_deref(), cond.as_ref(), step.as_ref(), body),
            Stmt::Switch {
                cond,
                body,
                cases,
                ranges,
                default,
            } => self.switch(cond, body, cases, ranges, *default),
            Stmt::Case(..) | Stmt::Label(..) | Stmt::Goto(_) | Stmt::Break | Stmt::Continue => {
                self.label_or_jump(s)
            }
            Stmt::Return(value) => self.ret(value.as_ref()),
            Stmt::IndirectGoto(index) => self.indirect_goto(index),
        }
    }

    /// `case`, `default` and `goto` labels, `goto`, `break`, `continue`.
    fn label_or_jump(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Case(id, inner) => {
                let label = self.case_label(*id, self.stmt_loc)?;
                self.start(label);
                self.revive_scopes();
                self.stmt(inner)
            }
            Stmt::Label(id, inner) => {
                let label = self.goto_label(*id, self.stmt_loc)?;
                self.start(label);
                self.revive_scopes();
                self.stmt(inner)
            }
            Stmt::Goto(id) => {
                let label = self.goto_label(*id, self.stmt_loc)?;
                self.end_scopes_for_goto(*id);
                self.vla_restore_for_goto(*id);
                self.br(label);
                Ok(())
            }
            Stmt::Break => match self.breaks.last() {
                Some(&l) => {
                    let depth = self.break_scopes.last().copied().unwrap_or(0);
                    self.end_scopes_to(depth);
                    self.vla_restore_for_jump(l);
                    self.br(l);
                    Ok(())
                }
                None => Err(self.err(self.stmt_loc, "`break` outside a loop or switch")),
            },
            Stmt::Continue => match self.continues.last() {
                Some(&l) => {
                    let depth = self.continue_scopes.last().copied().unwrap_or(0);
                    self.end_scopes_to(depth);
                    self.vla_restore_for_jump(l);
                    self.br(l);
                    Ok(())
                }
                None => Err(self.err(self.stmt_loc, "`continue` outside a loop")),
            },
            _ => Err(self.err(self.stmt_loc, "internal error: not a label or jump")),
        }
    }

    fn if_stmt(&mut self, cond: &Expr, then: &Stmt, otherwise: Option<&Stmt>) -> Res<()> {
        let (t, join) = (self.new_label(), self.new_label());
        let f = if otherwise.is_some() {
            self.new_label()
        } else {
            join
        };
        self.cond_branch(cond, t, f)?;
        self.start(t);
        self.stmt(then)?;
        self.br(join);
        if let Some(other) = otherwise {
            self.start(f);
            self.stmt(other)?;
            self.br(join);
        }
        self.start(join);
        Ok(())
    }

    fn while_stmt(&mut self, cond: &Expr, body: &Stmt) -> Res<()> {
        let (head, body_l, exit) = (self.new_label(), self.new_label(), self.new_label());
        self.start(head);
        self.cond_branch(cond, body_l, exit)?;
        self.start(body_l);
        self.loop_body(body, exit, head)?;
        self.br(head);
        self.start(exit);
        Ok(())
    }

    fn do_while_stmt(&mut self, body: &Stmt, cond: &Expr) -> Res<()> {
        let (body_l, cond_l, exit) = (self.new_label(), self.new_label(), self.new_label());
        self.start(body_l);
        self.loop_body(body, exit, cond_l)?;
        self.start(cond_l);
        self.cond_branch(cond, body_l, exit)?;
        self.start(exit);
        Ok(())
    }

    fn for_stmt(
        &mut self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Res<()> {
        let scoped = init.filter(|i| self.ub_checks() && for_init_declares(i));
        if let Some(init) = scoped {
            self.open_for_scope(init);
        }
        if let Some(init) = init {
            self.stmt(init)?;
        }
        let (head, body_l, step_l, exit) = (
            self.new_label(),
            self.new_label(),
            self.new_label(),
            self.new_label(),
        );
        self.start(head);
        match cond {
            Some(c) => self.cond_branch(c, body_l, exit)?,
            None => self.br(body_l),
        }
        self.start(body_l);
        self.loop_body(body, exit, step_l)?;
        self.start(step_l);
        if let Some(step) = step {
            self.rvalue(step)?;
        }
        self.br(head);
        self.start(exit);
        if scoped.is_some() {
            self.close_scope();
        }
        Ok(())
    }

    /// A loop body with its `break` and `continue` targets.
    fn loop_body(&mut self, body: &Stmt, brk: BlockId, cont: BlockId) -> Res<()> {
        self.breaks.push(brk);
        self.continues.push(cont);
        self.vla_jump_target(brk);
        self.vla_jump_target(cont);
        self.break_scopes.push(self.scopes.len());
        self.continue_scopes.push(self.scopes.len());
        let r = self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        self.break_scopes.pop();
        self.continue_scopes.pop();
        r
    }

    /// The block of goto label `id`.
    pub(crate) fn goto_label(&mut self, id: LabelId, loc: Loc) -> Res<BlockId> {
        let Some(slot) = self.labels.get(id.0 as usize).copied() else {
            return Err(self.err(loc, "internal error: unknown label"));
        };
        Ok(match slot {
            Some(l) => l,
            None => {
                let l = self.new_label();
                self.labels[id.0 as usize] = Some(l);
                l
            }
        })
    }

    fn ret(&mut self, value: Option<&Expr>) -> Res<()> {
        let Some(e) = value else {
            // `return;` in a non-void function: the value is unusable (C99 6.8.6.4
            // forbids it; gcc accepts it with a warning).
            self.ret_without_value();
            return Ok(());
        };
        match self.rvalue(e)? {
            RVal::Scalar(v, t) => {
                if self.ret == crate::ir::IrType::Void {
                    self.b.terminate(Terminator::Ret(None));
                } else {
                    let v = self.cast(t, v, self.ret);
                    self.b.terminate(Terminator::Ret(Some((self.ret, v))));
                }
            }
            RVal::Record(addr) => match self.ret_place {
                RetPlace::Piece { piece, size, align } | RetPlace::Pair { piece, size, align } => {
                    let pieces = self.record_pieces(addr, size, align, piece)?;
                    if let RetPlace::Pair { .. } = self.ret_place {
                        let hi = pieces.get(1).copied().unwrap_or(exact(piece, 0));
                        // The last instruction before the `ret`.
                        self.abi_hi(AbiHi::RetHi, vec![(piece, hi)]);
                    }
                    let v = pieces.first().copied().unwrap_or(exact(piece, 0));
                    self.b.terminate(Terminator::Ret(Some((piece, v))));
                }
                RetPlace::Parts(rp) => {
                    let values = self.record_parts(addr, rp.size, rp.align, rp.parts())?;
                    // The last instructions before the `ret`.
                    let mut result = None;
                    for (i, (p, v)) in rp.parts().iter().zip(values).enumerate() {
                        if rp.is_result(i) {
                            result = Some((p.ty, v));
                        } else {
                            let k = AbiFloatPart {
                                set: true,
                                ty: p.ty,
                                reg: rp.float_reg(i),
                            };
                            self.abi_float_part(k, vec![(p.ty, v)]);
                        }
                    }
                    let r = rp.result();
                    let result = result.unwrap_or((r.ty, exact(r.ty, 0)));
                    self.b.terminate(Terminator::Ret(Some(result)));
                }
                _ => {
                    if let Some(slot) = self.sret {
                        let size = self.size_of(e)?;
                        self.memcpy(slot, addr, size)?;
                    }
                    self.ret_without_value();
                }
            },
            RVal::Void => self.ret_without_value(),
        }
        Ok(())
    }
}
