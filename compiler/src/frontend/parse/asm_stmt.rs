//! GNU `asm` statements whose template is empty: the optimisation barriers of test code
//! (`asm volatile ("" : "+r" (x));`, `asm ("" : : "g" (&v) : "memory")`).
//!
//! Why it exists: c-torture hides values from gcc's optimiser this way. An empty template
//! executes no instruction, so its meaning is fully given by its operands: inputs are
//! evaluated, a `+` output keeps its value (its address is still computed, with any
//! side effects), an output tied to an input (`"=r" (r) : "0"
//! (p)`) receives that input's value, a memory output (`"=m"`) keeps its memory. phicc
//! lowers exactly that, with no barrier (phicc does not optimise across memory in a way a
//! barrier could change for a defined program).
//!
//! Invariants: any other asm is an error at its `asm` keyword, never ignored: a
//! non-empty template (phicc cannot assemble it for the oracle), `asm goto`, a register
//! output with no tie (its value would be whatever the register held). The result is a
//! plain statement (`Stmt::Compound` of expression statements), so no later phase knows
//! about asm.

use super::Parser;
use crate::frontend::ast::{Expr, Stmt};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Keyword, Punct, TokenKind};
use std::rc::Rc;

type PResult<T> = Result<T, Diagnostic>;

/// One operand: `[name]? "constraint" ( expression )`.
struct AsmOperand {
    name: Option<Rc<str>>,
    constraint: String,
    expr: Expr,
    loc: Loc,
}

impl Parser<'_> {
    /// asm-statement:
    ///     'asm' ('volatile' | 'inline')* '(' string-literal+
    ///         (':' operands? (':' operands? (':' clobbers?)?)?)? ')' ';'
    /// operands: operand (',' operand)*
    /// clobbers: string-literal (',' string-literal)*
    pub(crate) fn parse_asm_statement(&mut self) -> PResult<Stmt> {
        let asm_loc = self.bump().loc;
        loop {
            if self.eat_keyword(Keyword::Volatile) || self.eat_keyword(Keyword::Inline) {
                continue;
            }
            if self.is_keyword(Keyword::Goto) {
                return Err(self.error_here("'asm goto' is not supported by phicc"));
            }
            break;
        }
        self.expect_punct(Punct::LParen)?;
        let mut template = Vec::new();
        let mut any = false;
        while let TokenKind::Str(s) = &self.peek().kind {
            template.extend_from_slice(s);
            any = true;
            self.bump();
        }
        if !any {
            return Err(self.error_expected("string literal"));
        }
        if !template.iter().all(u8::is_ascii_whitespace) {
            return Err(self.error_at(
                asm_loc,
                "inline assembly is not supported by phicc (only an empty template is)",
            ));
        }
        let mut outputs = Vec::new();
        let mut inputs = Vec::new();
        if self.eat_punct(Punct::Colon) {
            outputs = self.parse_asm_operands()?;
            if self.eat_punct(Punct::Colon) {
                inputs = self.parse_asm_operands()?;
                if self.eat_punct(Punct::Colon) {
                    self.parse_asm_clobbers()?;
                }
            }
        }
        self.expect_punct(Punct::RParen)?;
        self.expect_punct(Punct::Semi)?;
        self.asm_meaning(asm_loc, outputs, inputs)
    }

    fn parse_asm_operands(&mut self) -> PResult<Vec<AsmOperand>> {
        let mut ops = Vec::new();
        if !matches!(
            self.peek().kind,
            TokenKind::Str(_) | TokenKind::Punct(Punct::LBracket)
        ) {
            return Ok(ops);
        }
        loop {
            let loc = self.loc();
            let mut name = None;
            if self.eat_punct(Punct::LBracket) {
                name = Some(self.expect_ident()?.0);
                self.expect_punct(Punct::RBracket)?;
            }
            let TokenKind::Str(c) = &self.peek().kind else {
                return Err(self.error_expected("string literal"));
            };
            let constraint = String::from_utf8_lossy(c).into_owned();
            self.bump();
            self.expect_punct(Punct::LParen)?;
            let expr = self.parse_expr()?;
            self.expect_punct(Punct::RParen)?;
            ops.push(AsmOperand {
                name,
                constraint,
                expr,
                loc,
            });
            if !self.eat_punct(Punct::Comma) {
                return Ok(ops);
            }
        }
    }

    fn parse_asm_clobbers(&mut self) -> PResult<()> {
        while let TokenKind::Str(_) = &self.peek().kind {
            self.bump();
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        if self.is_punct(Punct::Colon) {
            return Err(self.error_here("'asm goto' is not supported by phicc"));
        }
        Ok(())
    }

    /// What an empty template does with its operands (see the module doc).
    fn asm_meaning(
        &mut self,
        asm_loc: Loc,
        outputs: Vec<AsmOperand>,
        inputs: Vec<AsmOperand>,
    ) -> PResult<Stmt> {
        let mut tied: Vec<Option<Expr>> = (0..outputs.len()).map(|_| None).collect();
        let mut stmts = Vec::new();
        for input in inputs {
            let digits = input.constraint.trim_start_matches(['%', '&']);
            let tie = if let Ok(n) = digits.parse::<usize>() {
                Some(n)
            } else if let Some(name) = digits.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
                outputs.iter().position(|o| o.name.as_deref() == Some(name))
            } else {
                None
            };
            match tie {
                Some(n) if n < outputs.len() => tied[n] = Some(input.expr),
                Some(_) => {
                    return Err(self.error_at(
                        input.loc,
                        "matching constraint references invalid operand number",
                    ))
                }
                None => stmts.push(Stmt::Expr(self.rvalue(input.expr))),
            }
        }
        for (out, tie) in outputs.into_iter().zip(tied) {
            if !out.constraint.starts_with(['=', '+']) {
                return Err(self.error_at(
                    out.loc,
                    format!(
                        "output operand constraint lacks '=' (\"{}\")",
                        out.constraint
                    ),
                ));
            }
            let read_write = out.constraint.starts_with('+');
            // Only a memory operand keeps its value: `=rm` or `=g` may be a register.
            let memory = out.constraint[1..]
                .chars()
                .all(|c| matches!(c, 'm' | 'o' | 'V' | '&'));
            match tie {
                Some(value) if !read_write => {
                    let loc = out.loc;
                    let assign = self.build_assign(out.expr, value, loc)?;
                    stmts.push(Stmt::Expr(assign));
                }
                Some(_) => {
                    return Err(self.error_at(
                        out.loc,
                        "an input tied to a '+' output is not supported by phicc",
                    ))
                }
                None if read_write || memory => {
                    // Unchanged, but its address is computed (`"+r" (*f())` calls f).
                    self.check_modifiable(&out.expr, "assignment", "asm output", out.loc)?;
                    let addr = self.build_addr_of(out.expr, out.loc)?;
                    stmts.push(Stmt::Expr(self.rvalue(addr)));
                }
                None => {
                    return Err(self.error_at(
                        asm_loc,
                        format!(
                            "an empty asm's output \"{}\" with no matching input has no \
                             defined value (not supported by phicc)",
                            out.constraint
                        ),
                    ))
                }
            }
        }
        Ok(Stmt::Compound(stmts))
    }
}
