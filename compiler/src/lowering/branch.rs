//! Conditions as control flow: `if`, loops, `?:`, `&&`, `||` branch on a scalar tested
//! against zero.
//!
//! Why: short-circuit operators are control flow in C; lowering a condition straight to
//! branches (instead of computing 0/1 and testing it) keeps the IR close to what a C
//! compiler emits and gives the SSA passes real CFG shapes.
//!
//! Invariants: `cond_branch` ends the current block (every path reaches `t` or `f`);
//! a `condbr` condition is always 8 bits wide (a `cmp` result or an 8-bit value);
//! the right operand of `&&`/`||` is evaluated only on the path where it decides; a
//! constant condition becomes an unconditional branch.

use super::builder::const_value;
use super::function::{FnLower, Res};
use crate::frontend::ast::{Expr, ExprKind, UnaryOp};
use crate::ir::{BlockId, CmpPred, IrType, Operand, Terminator};

impl FnLower<'_, '_> {
    /// Branches to `t` when scalar `e` is nonzero, to `f` otherwise.
    pub fn cond_branch(&mut self, e: &Expr, t: BlockId, f: BlockId) -> Res<()> {
        self.enter(e.loc)?;
        let r = self.cond_branch_inner(e, t, f);
        self.leave();
        r
    }

    fn cond_branch_inner(&mut self, e: &Expr, t: BlockId, f: BlockId) -> Res<()> {
        match &e.kind {
            ExprKind::LogAnd(a, b) => {
                let mid = self.new_label();
                self.cond_branch(a, mid, f)?;
                self.start(mid);
                self.cond_branch(b, t, f)
            }
            ExprKind::LogOr(a, b) => {
                let mid = self.new_label();
                self.cond_branch(a, t, mid)?;
                self.start(mid);
                self.cond_branch(b, t, f)
            }
            ExprKind::Unary(UnaryOp::LogNot, a) => self.cond_branch(a, f, t),
            ExprKind::Binary(op, a, b) if op.is_comparison() => {
                self.check_sequenced(e);
                let c = self.compare(*op, a, b)?;
                self.branch_on(c, IrType::I8, t, f);
                Ok(())
            }
            _ => {
                let (v, ty) = self.scalar(e)?;
                self.branch_on(v, ty, t, f);
                Ok(())
            }
        }
    }

    /// Branches on scalar `v` of type `ty` against zero.
    pub fn branch_on(&mut self, v: Operand, ty: IrType, t: BlockId, f: BlockId) {
        if ty.is_float() {
            // `x != 0.0`, which a constant NaN or -0.0 would get wrong as raw bits.
            let c = self.float_nonzero(ty, v);
            self.b.terminate(Terminator::CondBr {
                cond: c,
                if_true: t,
                if_false: f,
            });
            return;
        }
        if let Operand::Const(c) = v {
            let target = if const_value(c, ty, self.ctx.ptr_bytes) != 0 {
                t
            } else {
                f
            };
            self.br(target);
            return;
        }
        // An integer value is branched on directly (a condition is true when it is
        // non-zero in its own type, docs/ir-notes.md); a pointer is compared with null.
        let cond = if ty == IrType::Ptr {
            self.cmp(CmpPred::Ne, ty, v, super::builder::exact(ty, 0))
        } else {
            v
        };
        self.b.terminate(Terminator::CondBr {
            cond,
            if_true: t,
            if_false: f,
        });
    }
}
