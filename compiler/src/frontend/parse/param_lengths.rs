//! The run-time lengths of a function definition's array parameters, evaluated on entry.
//!
//! Why it exists: in `int f(int i, int a[i++])` the parameter `a` is a pointer, but C
//! still evaluates its length expression each time the function is entered (C11
//! 6.9.1p10: "on entry to the function, the size expressions of each variably modified
//! parameter are evaluated"; 6.7.6.2p5), so `i++` increments `i` at every call (gcc does
//! this; c-torture's 970217-1.c and pr77767.c check it). While the parameter list is
//! parsed the length may name parameters not declared yet, so the parser only records
//! where each run-time length's tokens start; the definition parses them again once its
//! parameters are in scope and runs them, in order, before the body.
//!
//! Invariants:
//! - only the lengths of a parameter list's own parameters are recorded (a nested
//!   list, `void (*g)(int n, int b[n++])`, is a prototype whose lengths C never
//!   evaluates); each `ParamDecl` carries the token positions of its own lengths, in
//!   source order, so a definition evaluates exactly the lengths of its parameters;
//! - a declaration that is not a definition evaluates nothing;
//! - a constant length (an integer constant expression) is not recorded: evaluating it
//!   could do nothing observable.

use super::Parser;
use crate::frontend::ast::Stmt;
use crate::frontend::diag::Diagnostic;

impl Parser<'_> {
    /// Records that a run-time array length starts at token `start` in the parameter
    /// list being parsed (only for the outermost list level being parsed: see the
    /// module doc).
    pub(crate) fn record_parameter_length(&mut self, start: usize) {
        if self.vla.param_depth == 1 {
            self.vla.param_lengths.push(start);
        }
    }

    /// How many run-time parameter lengths are recorded so far (a mark for
    /// [`Self::take_parameter_lengths`]).
    pub(crate) fn parameter_lengths_mark(&self) -> usize {
        self.vla.param_lengths.len()
    }

    /// The run-time lengths recorded since `mark` (those of one parameter's
    /// declarator), removed from the record.
    pub(crate) fn take_parameter_lengths(&mut self, mark: usize) -> Vec<usize> {
        let mark = mark.min(self.vla.param_lengths.len());
        self.vla.param_lengths.split_off(mark)
    }

    /// parameter-length-evaluation: assignment-expression* — the length expressions at `starts` (token
    /// positions), parsed again with the definition's parameters in scope, as expression
    /// statements in order. The cursor is left where it was.
    pub(crate) fn parameter_length_statements(
        &mut self,
        starts: &[usize],
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let resume = self.pos;
        let mut stmts = Vec::with_capacity(starts.len());
        for &start in starts {
            self.pos = start;
            let parsed = self.parse_assign_expr().map(|e| self.rvalue(e));
            match parsed {
                Ok(e) => stmts.push(Stmt::Expr(e)),
                Err(err) => {
                    self.pos = resume;
                    return Err(err);
                }
            }
        }
        self.pos = resume;
        Ok(stmts)
    }
}
