//! Statements (C99 6.8): blocks with their scopes, selection, iteration and jump
//! statements, labels, `switch`/`case`/`default`.
//!
//! Why it exists: the statement structure and its context rules (which `break` leaves
//! what, which `switch` a `case` belongs to, that every `goto` target exists) are
//! checked here, so the lowering only translates.
//! Invariants:
//! - Every compound statement and every `for` with its init clause has its own scope,
//!   popped on exit.
//! - `break`/`continue`/`case`/`default` are only accepted inside the construct they
//!   belong to (gcc's errors otherwise); case values are converted to the promoted type
//!   of the controlling expression and are distinct.
//! - Conditions are scalar rvalues (not converted to `int`).
//! - Statement nesting counts towards `Parser::depth` like expression nesting.
//! - Every statement and block-scope declaration but `Null` is wrapped in `Stmt::At` with
//!   the position of its first token (the lowering's statement-level diagnostics).
//! - `#pragma pack` tokens inside a function take effect there, as in gcc (interpreted
//!   by the declarations part's `parse_pragma_token`).

use super::convert::cast_to;
use super::stmt_expr::OuterTargets;
use super::Parser;
use crate::frontend::ast::{CaseId, Expr, LabelId, Stmt};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Keyword, Punct, TokenKind};
use crate::frontend::types::{QualType, Type};
use std::rc::Rc;

type PResult<T> = Result<T, Diagnostic>;

/// One enclosing construct `break`/`continue`/`case` can refer to.
enum Construct {
    Loop,
    Switch(SwitchCtx),
}

/// The `switch` being parsed: its promoted controlling type and labels so far.
struct SwitchCtx {
    ty: Type,
    cases: Vec<(u64, CaseId)>,
    /// GNU case ranges (`case_range.rs`).
    ranges: Vec<(u64, u64, CaseId)>,
    default: Option<CaseId>,
}

/// The statement context, innermost construct last.
#[derive(Default)]
pub(crate) struct StmtCtx {
    stack: Vec<Construct>,
    /// Inside a statement expression: what encloses it (`stmt_expr.rs`).
    outer: OuterTargets,
}

impl StmtCtx {
    /// The context of a statement expression's block inside statements `outer`.
    pub(crate) fn inside_stmt_expr(outer: OuterTargets) -> StmtCtx {
        StmtCtx {
            stack: Vec::new(),
            outer,
        }
    }

    /// What `break`, `continue` and `case` could target here.
    fn targets(&self) -> OuterTargets {
        let has = |f: fn(&Construct) -> bool| self.stack.iter().any(f);
        OuterTargets {
            in_loop: self.outer.in_loop || has(|c| matches!(c, Construct::Loop)),
            breakable: self.outer.breakable || !self.stack.is_empty(),
            in_switch: self.outer.in_switch || has(|c| matches!(c, Construct::Switch(_))),
        }
    }
}

impl Parser<'_> {
    /// function-body: compound-statement. Called with `self.func` set up (parameters
    /// declared in a pushed scope); checks every `goto` label is defined.
    pub(crate) fn parse_function_body(&mut self) -> PResult<Stmt> {
        let mut ctx = StmtCtx::default();
        if !self.is_punct(Punct::LBrace) {
            return Err(self.error_expected("'{'"));
        }
        let body = self.parse_compound(&mut ctx)?;
        self.check_stmt_expr_jumps()?;
        self.check_local_labels_defined()?;
        if let Some(f) = &self.func {
            // The first label (by first use) that was never defined.
            let undefined = f
                .labels
                .iter()
                .filter(|(_, (_, def, _))| def.is_none())
                .min_by_key(|(_, (id, _, _))| id.0)
                .map(|(name, (_, _, used))| (name.clone(), *used));
            if let Some((name, used)) = undefined {
                return Err(self.error_at(used, format!("label '{name}' used but not defined")));
            }
        }
        Ok(body)
    }

    /// compound-statement: '{' block-item* '}'
    /// block-item: declaration | statement
    fn parse_compound(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        self.expect_punct(Punct::LBrace)?;
        self.push_scope();
        let r = self.parse_block_items(ctx);
        self.pop_scope();
        r.map(Stmt::Compound)
    }

    pub(crate) fn parse_block_items(&mut self, ctx: &mut StmtCtx) -> PResult<Vec<Stmt>> {
        let mut items = Vec::new();
        loop {
            match &self.peek().kind {
                TokenKind::Punct(Punct::RBrace) => {
                    self.bump();
                    return Ok(items);
                }
                TokenKind::Eof => {
                    return Err(self.error_here("expected declaration or statement at end of input"))
                }
                TokenKind::Pragma(_) => self.parse_pragma_token()?,
                _ if self.at_local_label_decl() => self.parse_local_label_decl()?,
                _ => {
                    if self.starts_declaration() {
                        items.push(self.parse_local_declaration()?);
                    } else {
                        items.push(self.parse_statement(ctx)?);
                    }
                }
            }
        }
    }

    /// A declaration starts here (and not a label `name:`).
    fn starts_declaration(&self) -> bool {
        if matches!(self.peek().kind, TokenKind::Ident(_)) && self.peek_at(1).is_punct(Punct::Colon)
        {
            return false;
        }
        self.is_declaration_start()
    }

    /// statement:
    ///     labeled-statement | compound-statement | expression-statement
    ///     selection-statement | iteration-statement | jump-statement
    /// The result is placed (`Stmt::At`) at the statement's first token.
    pub(crate) fn parse_statement(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        let loc = self.peek().loc;
        let targets = ctx.targets();
        self.with_outer_targets(targets, |p| {
            p.nested(|p| {
                p.enter_nesting()?;
                p.parse_statement_inner(ctx)
            })
        })
        .map(|s| Stmt::at(loc, s))
    }

    fn parse_statement_inner(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        let tok = self.peek().clone();
        let loc = tok.loc;
        match &tok.kind {
            TokenKind::Punct(Punct::LBrace) => self.parse_compound(ctx),
            TokenKind::Punct(Punct::Semi) => {
                self.bump();
                Ok(Stmt::Null)
            }
            TokenKind::Pragma(_) => {
                self.parse_pragma_token()?;
                Ok(Stmt::Null)
            }
            TokenKind::Ident(name) if self.peek_at(1).is_punct(Punct::Colon) => {
                self.bump();
                self.bump();
                let id = self.define_label(name.clone(), loc)?;
                self.note_label_for_stmt_exprs(id);
                let body = self.parse_labeled_body(ctx)?;
                Ok(Stmt::Label(id, Box::new(body)))
            }
            TokenKind::Keyword(k) => match k {
                Keyword::If => self.parse_if(ctx),
                Keyword::While => self.parse_while(ctx),
                Keyword::Do => self.parse_do(ctx),
                Keyword::For => self.parse_for(ctx),
                Keyword::Switch => self.parse_switch(ctx),
                Keyword::Case => self.parse_case(ctx),
                Keyword::Default => self.parse_default(ctx),
                Keyword::Goto => {
                    self.bump();
                    if self.is_punct(Punct::Star) {
                        return self.parse_indirect_goto(loc);
                    }
                    let (name, _) = self.expect_ident()?;
                    self.expect_punct(Punct::Semi)?;
                    if let Some(l) = self.resolve_label(name.clone(), loc, false) {
                        if let Some(outer) = l.outer {
                            // GNU: out of a nested function (`nested_fn.rs`).
                            return self.nonlocal_goto(outer, l.id, loc);
                        }
                    }
                    let id = self.use_label(name, loc);
                    self.note_goto_for_stmt_exprs(id, loc);
                    Ok(Stmt::Goto(id))
                }
                Keyword::Break => {
                    self.bump();
                    if !ctx.targets().breakable {
                        return Err(self.error_at(loc, "break statement not within loop or switch"));
                    }
                    self.expect_punct(Punct::Semi)?;
                    Ok(Stmt::Break)
                }
                Keyword::Continue => {
                    self.bump();
                    if !ctx.targets().in_loop {
                        return Err(self.error_at(loc, "continue statement not within a loop"));
                    }
                    self.expect_punct(Punct::Semi)?;
                    Ok(Stmt::Continue)
                }
                Keyword::Return => self.parse_return(),
                Keyword::Asm => self.parse_asm_statement(),
                _ => self.parse_expr_statement(),
            },
            _ => self.parse_expr_statement(),
        }
    }

    /// The statement after a label. gcc 12 accepts (without a warning unless
    /// `-pedantic`) a label before `}` and a declaration after a label, as C2x does:
    /// so do we (an empty statement, or the declaration in the enclosing scope).
    fn parse_labeled_body(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        if self.is_punct(Punct::RBrace) {
            return Ok(Stmt::Null);
        }
        if self.starts_declaration() {
            return self.parse_local_declaration();
        }
        self.parse_statement(ctx)
    }

    /// expression-statement: expression? ';'
    fn parse_expr_statement(&mut self) -> PResult<Stmt> {
        let e = self.parse_expr()?;
        self.expect_punct(Punct::Semi)?;
        Ok(Stmt::Expr(self.rvalue(e)))
    }

    /// '(' expression ')' as a condition: a scalar rvalue.
    fn parse_paren_condition(&mut self) -> PResult<Expr> {
        self.expect_punct(Punct::LParen)?;
        let c = self.parse_condition()?;
        self.expect_punct(Punct::RParen)?;
        Ok(c)
    }

    fn parse_condition(&mut self) -> PResult<Expr> {
        let e = self.parse_expr()?;
        let e = self.rvalue(e);
        self.check_scalar(&e)?;
        Ok(e)
    }

    /// selection-statement: 'if' '(' expression ')' statement ('else' statement)?
    fn parse_if(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        self.bump();
        let cond = self.parse_paren_condition()?;
        let then = Box::new(self.parse_statement(ctx)?);
        let otherwise = if self.eat_keyword(Keyword::Else) {
            Some(Box::new(self.parse_statement(ctx)?))
        } else {
            None
        };
        Ok(Stmt::If {
            cond,
            then,
            otherwise,
        })
    }

    /// iteration-statement: 'while' '(' expression ')' statement
    fn parse_while(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        self.bump();
        let cond = self.parse_paren_condition()?;
        let body = self.parse_loop_body(ctx)?;
        Ok(Stmt::While { cond, body })
    }

    fn parse_loop_body(&mut self, ctx: &mut StmtCtx) -> PResult<Box<Stmt>> {
        ctx.stack.push(Construct::Loop);
        let body = self.parse_statement(ctx);
        ctx.stack.pop();
        Ok(Box::new(body?))
    }

    /// iteration-statement: 'do' statement 'while' '(' expression ')' ';'
    fn parse_do(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        self.bump();
        let body = self.parse_loop_body(ctx)?;
        if !self.eat_keyword(Keyword::While) {
            return Err(self.error_expected("'while'"));
        }
        let cond = self.parse_paren_condition()?;
        self.expect_punct(Punct::Semi)?;
        Ok(Stmt::DoWhile { body, cond })
    }

    /// iteration-statement:
    ///     'for' '(' expression? ';' expression? ';' expression? ')' statement
    ///     'for' '(' declaration expression? ';' expression? ')' statement
    fn parse_for(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        self.bump();
        self.expect_punct(Punct::LParen)?;
        self.push_scope();
        let r = self.parse_for_rest(ctx);
        self.pop_scope();
        r
    }

    fn parse_for_rest(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        let init = if self.eat_punct(Punct::Semi) {
            None
        } else if self.is_declaration_start() {
            Some(Box::new(self.parse_local_declaration()?))
        } else {
            let e = self.parse_expr()?;
            self.expect_punct(Punct::Semi)?;
            Some(Box::new(Stmt::Expr(self.rvalue(e))))
        };
        let cond = if self.is_punct(Punct::Semi) {
            None
        } else {
            Some(self.parse_condition()?)
        };
        self.expect_punct(Punct::Semi)?;
        let step = if self.is_punct(Punct::RParen) {
            None
        } else {
            let e = self.parse_expr()?;
            Some(self.rvalue(e))
        };
        self.expect_punct(Punct::RParen)?;
        let body = self.parse_loop_body(ctx)?;
        Ok(Stmt::For {
            init,
            cond,
            step,
            body,
        })
    }

    /// selection-statement: 'switch' '(' expression ')' statement
    fn parse_switch(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let e = self.parse_expr()?;
        let e = self.rvalue(e);
        if !e.ty.ty.is_integer() {
            return Err(self.error_at(e.loc, "switch quantity not an integer"));
        }
        let cond = self.promote(e);
        self.expect_punct(Punct::RParen)?;
        ctx.stack.push(Construct::Switch(SwitchCtx {
            ty: cond.ty.ty.clone(),
            cases: Vec::new(),
            ranges: Vec::new(),
            default: None,
        }));
        let body = self.parse_statement(ctx);
        let Some(Construct::Switch(sw)) = ctx.stack.pop() else {
            return Err(self.error_here("internal error: switch context lost"));
        };
        Ok(Stmt::Switch {
            cond,
            body: Box::new(body?),
            cases: sw.cases,
            ranges: sw.ranges,
            default: sw.default,
        })
    }

    fn innermost_switch(ctx: &mut StmtCtx) -> Option<&mut SwitchCtx> {
        ctx.stack.iter_mut().rev().find_map(|c| match c {
            Construct::Switch(s) => Some(s),
            Construct::Loop => None,
        })
    }

    fn new_case_id(&mut self) -> CaseId {
        match &mut self.func {
            Some(f) => {
                let id = CaseId(f.num_cases);
                f.num_cases += 1;
                id
            }
            None => CaseId(0),
        }
    }

    /// labeled-statement: 'case' constant-expression ('...' constant-expression)? ':'
    ///     statement
    /// (the range form is GNU C: `case_range.rs`)
    fn parse_case(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        let loc = self.bump().loc;
        let value = self.parse_case_value()?;
        let high = if self.eat_punct(Punct::Ellipsis) {
            Some(self.parse_case_value()?)
        } else {
            None
        };
        self.expect_punct(Punct::Colon)?;
        let Some(sw_ty) = Self::innermost_switch(ctx).map(|s| s.ty.clone()) else {
            return Err(self.error_at(loc, self.case_outside_switch(ctx, "case")));
        };
        let id = self.new_case_id();
        let Some(sw) = Self::innermost_switch(ctx) else {
            return Err(self.error_at(loc, "internal error: switch context lost"));
        };
        let (cases, ranges) = (&mut sw.cases, &mut sw.ranges);
        self.add_case_label(cases, ranges, &sw_ty, (value, high), id, loc)?;
        let body = self.parse_labeled_body(ctx)?;
        Ok(Stmt::Case(id, Box::new(body)))
    }

    /// The constant of a `case` label (or of one end of a case range).
    fn parse_case_value(&mut self) -> PResult<i128> {
        let e = self.parse_cond_expr()?;
        let e = self.rvalue(e);
        let value = if e.ty.ty.is_integer() {
            self.eval_int_const(&e)
        } else {
            None
        };
        value.ok_or_else(|| {
            self.error_at(e.loc, "case label does not reduce to an integer constant")
        })
    }

    /// gcc's error for a `case`/`default` label without a `switch` around it.
    fn case_outside_switch(&self, ctx: &StmtCtx, what: &str) -> String {
        if ctx.outer.in_switch {
            "switch jumps into statement expression".to_string()
        } else if what == "case" {
            "case label not within a switch statement".to_string()
        } else {
            "'default' label not within a switch statement".to_string()
        }
    }

    /// labeled-statement: 'default' ':' statement
    fn parse_default(&mut self, ctx: &mut StmtCtx) -> PResult<Stmt> {
        let loc = self.bump().loc;
        self.expect_punct(Punct::Colon)?;
        let id = self.new_case_id();
        let outside = self.case_outside_switch(ctx, "default");
        let status = match Self::innermost_switch(ctx) {
            None => Some(outside.as_str()),
            Some(sw) if sw.default.is_some() => Some("multiple default labels in one switch"),
            Some(sw) => {
                sw.default = Some(id);
                None
            }
        };
        if let Some(msg) = status {
            return Err(self.error_at(loc, msg));
        }
        let body = self.parse_labeled_body(ctx)?;
        Ok(Stmt::Case(id, Box::new(body)))
    }

    /// The id of label `name` (created on first use; GNU local labels first:
    /// `local_labels.rs`).
    fn use_label(&mut self, name: Rc<str>, loc: Loc) -> LabelId {
        self.resolve_label(name, loc, false)
            .map(|l| l.id)
            .unwrap_or(LabelId(0))
    }

    /// labeled-statement: identifier ':' statement
    fn define_label(&mut self, name: Rc<str>, loc: Loc) -> PResult<LabelId> {
        let Some(label) = self.resolve_label(name.clone(), loc, true) else {
            return Ok(LabelId(0));
        };
        if label.defined {
            return Err(self.error_at(loc, format!("duplicate label '{name}'")));
        }
        Ok(label.id)
    }

    /// jump-statement: 'return' expression? ';'
    fn parse_return(&mut self) -> PResult<Stmt> {
        let loc = self.bump().loc;
        let ret = self
            .func
            .as_ref()
            .and_then(|f| f.ret.clone())
            .unwrap_or_else(|| QualType::new(Type::int()));
        if self.eat_punct(Punct::Semi) {
            if ret.ty != Type::Void {
                self.warn_at(
                    loc,
                    "'return' with no value, in function returning non-void",
                );
            }
            return Ok(Stmt::Return(None));
        }
        let e = self.parse_expr()?;
        self.expect_punct(Punct::Semi)?;
        if ret.ty == Type::Void {
            let e = self.rvalue(e);
            if e.ty.ty != Type::Void {
                self.warn_at(e.loc, "'return' with a value, in function returning void");
            }
            // Evaluate the value for its side effects, then return nothing.
            let e = cast_to(e, &Type::Void);
            return Ok(Stmt::Compound(vec![Stmt::Expr(e), Stmt::Return(None)]));
        }
        let e = self.convert_assign(
            e,
            &QualType::new(ret.ty.clone()),
            super::convert::AssignCtx::Return,
        )?;
        Ok(Stmt::Return(Some(e)))
    }
}
