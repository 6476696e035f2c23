//! Conversions (owner: the expressions work; this is the stub the other parts compile
//! against until it lands).

use super::Parser;
use crate::frontend::ast::Expr;
use crate::frontend::diag::Diagnostic;
use crate::frontend::types::QualType;

impl Parser<'_> {
    /// Converts `expr` as if by assignment to an object of type `to` (C99 6.5.16.1):
    /// decays arrays/functions, checks the constraint (error otherwise, gcc's wording),
    /// warns where gcc warns, inserts a `Cast` when the types differ. Used for `=`,
    /// initializers, arguments and `return`.
    pub(crate) fn convert_for_assignment(
        &mut self,
        expr: Expr,
        to: &QualType,
    ) -> Result<Expr, Diagnostic> {
        let _ = to;
        Err(self.error_at(expr.loc, "conversions are not implemented yet"))
    }
}
