//! Expressions (owner: the expressions work; this is the stub the other parts compile
//! against until it lands).

use super::Parser;
use crate::frontend::ast::Expr;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;

impl Parser<'_> {
    /// expression: assignment-expression (',' assignment-expression)*
    pub(crate) fn parse_expr(&mut self) -> Result<Expr, Diagnostic> {
        Err(self.error_here("expressions are not implemented yet"))
    }

    /// assignment-expression
    pub(crate) fn parse_assign_expr(&mut self) -> Result<Expr, Diagnostic> {
        Err(self.error_here("expressions are not implemented yet"))
    }

    /// constant-expression: conditional-expression, evaluated as an integer constant
    /// expression. Returns its mathematical value (an `unsigned long long` fits) and
    /// where it started; an error if it is not an integer constant expression.
    pub(crate) fn parse_int_constant_expr(&mut self) -> Result<(i128, Loc), Diagnostic> {
        Err(self.error_here("expressions are not implemented yet"))
    }
}
