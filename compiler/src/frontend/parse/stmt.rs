//! Statements (owner: the statements work; this is the stub the other parts compile
//! against until it lands).

use super::Parser;
use crate::frontend::ast::Stmt;
use crate::frontend::diag::Diagnostic;

impl Parser<'_> {
    /// function-body: compound-statement. Called with `self.func` set up (parameters
    /// declared in a pushed scope); checks every `goto` label is defined.
    pub(crate) fn parse_function_body(&mut self) -> Result<Stmt, Diagnostic> {
        Err(self.error_here("statements are not implemented yet"))
    }
}
