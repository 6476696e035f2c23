//! Declarations (owner: the declarations work; this is the stub the other parts compile
//! against until it lands).

use super::Parser;
use crate::frontend::ast::Stmt;
use crate::frontend::diag::Diagnostic;
use crate::frontend::types::QualType;

impl Parser<'_> {
    /// translation-unit: external-declaration*
    pub(crate) fn parse_translation_unit(&mut self) -> Result<(), Diagnostic> {
        Err(self.error_here("declarations are not implemented yet"))
    }

    /// Does the current token start a type name (type specifier or qualifier, or a
    /// typedef name)?
    pub(crate) fn is_type_name_start(&self) -> bool {
        false
    }

    /// Does the current token start a declaration (a type name start, a storage class,
    /// `inline`, `__extension__` before one, `_Static_assert`)?
    pub(crate) fn is_declaration_start(&self) -> bool {
        false
    }

    /// type-name: specifier-qualifier-list abstract-declarator?
    pub(crate) fn parse_type_name(&mut self) -> Result<QualType, Diagnostic> {
        Err(self.error_here("type names are not implemented yet"))
    }

    /// A block-scope declaration up to and including its `;`: objects (with their
    /// initializers, as `Stmt::Decl`), static locals (new globals; `Stmt::Null`),
    /// typedefs, tags, function declarations (`Stmt::Null`).
    pub(crate) fn parse_local_declaration(&mut self) -> Result<Stmt, Diagnostic> {
        Err(self.error_here("declarations are not implemented yet"))
    }
}
