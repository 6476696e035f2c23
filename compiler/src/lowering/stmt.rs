//! Statements: blocks, `if`, loops, `goto`/labels, `break`/`continue`, `return`,
//! declarations and expression statements (`switch` is in `switch.rs`).
//!
//! Why: statements are the CFG; each construct gets the textbook block shape (a loop's
//! condition block, body, step, exit), so the SSA passes see the loops a C compiler
//! produces.
//!
//! Invariants: `break`/`continue` jump to the innermost enclosing targets (an error if
//! there is none); a label's block is created on first mention (by `goto` or by the
//! label itself) and placed exactly once; `return` copies a record result to the hidden
//! slot before `ret void`.

use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use crate::frontend::ast::{LabelId, Stmt};
use crate::frontend::Loc;
use crate::ir::{BlockId, Terminator};

impl FnLower<'_, '_> {
    /// Lowers one statement.
    pub fn stmt(&mut self, s: &Stmt) -> Res<()> {
        let loc = self.def.loc;
        self.enter(loc)?;
        let r = self.stmt_inner(s);
        self.leave();
        r
    }

    fn stmt_inner(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Null => Ok(()),
            Stmt::Expr(e) => self.rvalue(e).map(|_| ()),
            Stmt::Decl(items) => {
                for (id, init) in items {
                    self.declare(*id, init.as_ref())?;
                }
                Ok(())
            }
            Stmt::Compound(items) => {
                for item in items {
                    self.stmt(item)?;
                }
                Ok(())
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
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
            Stmt::While { cond, body } => {
                let (head, body_l, exit) = (self.new_label(), self.new_label(), self.new_label());
                self.start(head);
                self.cond_branch(cond, body_l, exit)?;
                self.start(body_l);
                self.loop_body(body, exit, head)?;
                self.br(head);
                self.start(exit);
                Ok(())
            }
            Stmt::DoWhile { body, cond } => {
                let (body_l, cond_l, exit) = (self.new_label(), self.new_label(), self.new_label());
                self.start(body_l);
                self.loop_body(body, exit, cond_l)?;
                self.start(cond_l);
                self.cond_branch(cond, body_l, exit)?;
                self.start(exit);
                Ok(())
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
            } => {
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
                Ok(())
            }
            Stmt::Switch {
                cond,
                body,
                cases,
                default,
            } => self.switch(cond, body, cases, *default),
            Stmt::Case(id, inner) => {
                let label = self.case_label(*id, self.def.loc)?;
                self.start(label);
                self.stmt(inner)
            }
            Stmt::Label(id, inner) => {
                let label = self.goto_label(*id, self.def.loc)?;
                self.start(label);
                self.stmt(inner)
            }
            Stmt::Goto(id) => {
                let label = self.goto_label(*id, self.def.loc)?;
                self.br(label);
                Ok(())
            }
            Stmt::Break => match self.breaks.last() {
                Some(&l) => {
                    self.br(l);
                    Ok(())
                }
                None => Err(self.err(self.def.loc, "`break` outside a loop or switch")),
            },
            Stmt::Continue => match self.continues.last() {
                Some(&l) => {
                    self.br(l);
                    Ok(())
                }
                None => Err(self.err(self.def.loc, "`continue` outside a loop")),
            },
            Stmt::Return(value) => self.ret(value.as_ref()),
        }
    }

    /// A loop body with its `break` and `continue` targets.
    fn loop_body(&mut self, body: &Stmt, brk: BlockId, cont: BlockId) -> Res<()> {
        self.breaks.push(brk);
        self.continues.push(cont);
        let r = self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        r
    }

    /// The block of goto label `id`.
    fn goto_label(&mut self, id: LabelId, loc: Loc) -> Res<BlockId> {
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

    fn ret(&mut self, value: Option<&crate::frontend::ast::Expr>) -> Res<()> {
        let Some(e) = value else {
            let term = match self.ret {
                crate::ir::IrType::Void => Terminator::Ret(None),
                // `return;` in a non-void function: the value is unusable (C99 6.8.6.4
                // forbids it; gcc accepts it with a warning).
                t => Terminator::Ret(Some((t, exact(t, 0)))),
            };
            self.b.terminate(term);
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
            RVal::Record(addr) => {
                if let Some(slot) = self.sret {
                    let size = self.size_of(e)?;
                    self.memcpy(slot, addr, size)?;
                }
                self.b.terminate(Terminator::Ret(None));
            }
            RVal::Void => {
                let term = match self.ret {
                    crate::ir::IrType::Void => Terminator::Ret(None),
                    t => Terminator::Ret(Some((t, exact(t, 0)))),
                };
                self.b.terminate(term);
            }
        }
        Ok(())
    }
}
