//! GNU statement expressions (`ast::ExprKind::StmtExpr`, also the form `a ?: b` takes):
//! the block, then the value inside the block's scope.
//!
//! Why it exists: the block is lowered like a compound statement (`stmt.rs`), but its
//! last expression is a value the enclosing expression uses.
//!
//! Invariants:
//! - The block opens its scope (the checked lowering's lifetime markers, `checks.rs`)
//!   before its first item and closes it after the value is computed: the value may read
//!   the block's objects, nothing after it may.
//! - A record value is copied into a temporary of its own before the scope closes, so
//!   the result never points at an object whose lifetime has ended
//!   (`({ struct S s = f(); s; })`).
//! - `break`, `continue`, `return` and `goto` inside leave it like any jump out of a
//!   block (the parser rejects jumps into it); code after such a jump is lowered into an
//!   unreachable block, as after a jump statement.

use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::{object_align, object_size};
use crate::frontend::ast::{Expr, Stmt};
use crate::ir::IrType;

impl FnLower<'_, '_> {
    pub fn stmt_expr(&mut self, body: &[Stmt], value: Option<&Expr>, e: &Expr) -> Res<RVal> {
        self.open_scope(body);
        let r = self.stmt_expr_in_scope(body, value, e);
        match r {
            Ok(v) => {
                self.close_scope();
                Ok(v)
            }
            Err(err) => {
                self.scopes.pop();
                Err(err)
            }
        }
    }

    fn stmt_expr_in_scope(&mut self, body: &[Stmt], value: Option<&Expr>, e: &Expr) -> Res<RVal> {
        for item in body {
            self.stmt(item)?;
        }
        let Some(value) = value else {
            return Ok(RVal::Void);
        };
        match self.rvalue(value)? {
            RVal::Record(src) => {
                let size = object_size(self.ctx, &e.ty.ty).map_err(|m| self.err(e.loc, m))?;
                let align = object_align(self.ctx, &e.ty.ty);
                let copy = self.temp(IrType::I8, size, align);
                self.memcpy(copy, src, size)?;
                Ok(RVal::Record(copy))
            }
            v => Ok(v),
        }
    }
}
