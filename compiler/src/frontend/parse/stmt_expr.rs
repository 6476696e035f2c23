//! GNU statement expressions `({ block-item* })` and the conditional with its middle
//! operand omitted, `a ?: b`.
//!
//! Why it exists: both are GNU C that c-torture (and macros in real code) use widely;
//! `a ?: b` is a statement expression in disguise (`a` evaluated once, kept in a hidden
//! local), so they live together.
//!
//! Invariants (gcc's rules, checked with gcc 12.2):
//! - The value and type of `({ ...; e; })` are those of `e`, the last block item when it
//!   is an expression statement, after lvalue conversion (arrays decay, qualifiers go);
//!   otherwise the expression is `void`. The block is a scope of its own, and `e` is
//!   evaluated inside it (`ast::ExprKind::StmtExpr`).
//! - Only inside a function (gcc: "braced-group within expression allowed only inside a
//!   function").
//! - Jumping *out* of a statement expression (`break`, `continue`, `return`, `goto`) is
//!   allowed, as in gcc; jumping *into* one is an error: a `goto` outside to a label
//!   inside ("jump into statement expression", at the `goto`), and a `case`/`default`
//!   inside for a `switch` outside ("switch jumps into statement expression").
//!   [`StmtExprJumps`] records the statement expressions around every label and `goto`
//!   of the function; [`Parser::check_stmt_expr_jumps`] compares them once the body is
//!   parsed (a forward `goto` may name a label not seen yet).
//! - `a ?: b` is `a ? a : b` with `a` evaluated once: its value is stored in a hidden
//!   local `.cond` first (a statement expression), except when `a` is an integer
//!   constant (then it is simply repeated, so `1 ?: 2` stays a constant expression).

use super::stmt::StmtCtx;
use super::Parser;
use crate::frontend::ast::{Expr, ExprKind, Initializer, LabelId, LocalVar, Stmt};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::Punct;
use crate::frontend::types::{QualType, Type};
use std::collections::HashMap;

type PResult<T> = Result<T, Diagnostic>;

/// The statements enclosing the statement being parsed that `break`, `continue` and
/// `case` could target (a statement expression's block starts a fresh `StmtCtx` and
/// keeps these for `break` and `continue`, which may leave it).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OuterTargets {
    /// Inside a loop (`continue` and `break` are allowed).
    pub in_loop: bool,
    /// Inside a loop or a `switch` (`break` is allowed).
    pub breakable: bool,
    /// Inside a `switch` (a `case` here would jump into the statement expression).
    pub in_switch: bool,
}

/// Per function: the statement expressions around each label and `goto`.
#[derive(Debug, Default)]
pub(crate) struct StmtExprJumps {
    /// The ids of the statement expressions being parsed, outermost first.
    pub path: Vec<u32>,
    pub next_id: u32,
    /// The enclosing targets of the statement being parsed (set by `parse_statement`).
    pub outer: OuterTargets,
    /// Each defined label's path.
    pub labels: HashMap<LabelId, Vec<u32>>,
    /// Each `goto`: its label, its path and its position.
    pub gotos: Vec<(LabelId, Vec<u32>, Loc)>,
}

impl Parser<'_> {
    /// statement-expression: '(' compound-statement ')'
    /// (the `(` is consumed; the cursor is on the `{`)
    pub(crate) fn parse_stmt_expr(&mut self, loc: Loc) -> PResult<Expr> {
        let Some(f) = self.func.as_mut() else {
            return Err(self.error_at(
                loc,
                "braced-group within expression allowed only inside a function",
            ));
        };
        let id = f.stmt_exprs.next_id;
        f.stmt_exprs.next_id += 1;
        f.stmt_exprs.path.push(id);
        let mut ctx = StmtCtx::inside_stmt_expr(f.stmt_exprs.outer);
        self.bump(); // '{'
        self.push_scope();
        let items = self.nested(|p| {
            p.enter_nesting()?;
            p.parse_block_items(&mut ctx)
        });
        self.pop_scope();
        if let Some(f) = self.func.as_mut() {
            f.stmt_exprs.path.pop();
        }
        let mut body = items?;
        self.expect_punct(Punct::RParen)?;
        let value = match body.last().map(Stmt::inner) {
            Some(Stmt::Expr(_)) => match body.pop().map(|s| s.inner().clone()) {
                Some(Stmt::Expr(e)) => Some(e),
                _ => None,
            },
            _ => None,
        };
        let ty = match &value {
            Some(v) => QualType::new(v.ty.ty.clone()),
            None => QualType::new(Type::Void),
        };
        let value = value.map(Box::new);
        Ok(Expr::new(ExprKind::StmtExpr { body, value }, ty, loc))
    }

    /// Records label `id` defined here (its statement expressions).
    pub(crate) fn note_label_for_stmt_exprs(&mut self, id: LabelId) {
        if let Some(f) = self.func.as_mut() {
            let path = f.stmt_exprs.path.clone();
            f.stmt_exprs.labels.insert(id, path);
        }
    }

    /// Records a `goto` to label `id` at `loc`.
    pub(crate) fn note_goto_for_stmt_exprs(&mut self, id: LabelId, loc: Loc) {
        if let Some(f) = self.func.as_mut() {
            let path = f.stmt_exprs.path.clone();
            f.stmt_exprs.gotos.push((id, path, loc));
        }
    }

    /// The first `goto` (in source order) that jumps into a statement expression: an
    /// error at it. A label's statement expressions must all enclose the `goto` too.
    pub(crate) fn check_stmt_expr_jumps(&self) -> PResult<()> {
        let Some(f) = &self.func else {
            return Ok(());
        };
        let jumps = &f.stmt_exprs;
        for (label, from, loc) in &jumps.gotos {
            let Some(to) = jumps.labels.get(label) else {
                continue;
            };
            if !from.starts_with(to) {
                return Err(self.error_at(*loc, "jump into statement expression"));
            }
        }
        Ok(())
    }

    /// Runs `f` (the parse of one statement) with `outer` as the enclosing targets a
    /// statement expression inside it would see.
    pub(crate) fn with_outer_targets<T>(
        &mut self,
        outer: OuterTargets,
        f: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<T> {
        let saved = self
            .func
            .as_mut()
            .map(|st| std::mem::replace(&mut st.stmt_exprs.outer, outer));
        let r = f(self);
        if let (Some(st), Some(saved)) = (self.func.as_mut(), saved) {
            st.stmt_exprs.outer = saved;
        }
        r
    }

    /// conditional-expression: logical-OR-expression '?' ':' conditional-expression
    /// (GNU; `c` is the condition already converted to an rvalue and checked scalar, the
    /// cursor is on the `:`)
    pub(crate) fn parse_omitted_middle(&mut self, c: Expr, loc: Loc) -> PResult<Expr> {
        let colon = self.expect_punct(Punct::Colon)?.loc;
        let b = self.parse_cond_expr()?;
        let constant = c.ty.ty.is_integer() && self.eval_int_const(&c).is_some();
        if constant || self.func.is_none() {
            // Evaluating a constant twice is evaluating it once; outside a function an
            // operand that is not constant is an error of the initializer anyway.
            let mut e = self.build_cond(c.clone(), c, b, colon)?;
            e.loc = loc;
            return Ok(e);
        }
        let ty = QualType::new(c.ty.ty.clone());
        let id = self.add_local(LocalVar {
            name: ".cond".to_string(),
            ty: ty.clone(),
            loc,
            is_param: false,
            align: None,
        });
        let temp = || Expr::new(ExprKind::Local(id), ty.clone(), loc);
        let mut value = self.build_cond(temp(), temp(), b, colon)?;
        value.loc = loc;
        let vty = value.ty.clone();
        let decl = Stmt::at(loc, Stmt::Decl(vec![(id, Some(Initializer::Expr(c)))]));
        Ok(Expr::new(
            ExprKind::StmtExpr {
                body: vec![decl],
                value: Some(Box::new(value)),
            },
            vty,
            loc,
        ))
    }
}
