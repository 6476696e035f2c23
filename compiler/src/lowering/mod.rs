//! Lowering of the typed AST (`frontend::ast`) to the alloca-form IR (owner: the lowering
//! work; this is the stub the rest compiles against until it lands).

use crate::frontend::ast::TranslationUnit;
use crate::frontend::{Diagnostic, SourceMap};
use crate::ir::IrModule;

/// Lowers a translation unit to an IR module in alloca form (the `lowered` stage).
pub fn lower(unit: &TranslationUnit, sources: &SourceMap) -> Result<IrModule, Diagnostic> {
    let _ = (unit, sources);
    Err(Diagnostic::global_error("lowering is not implemented yet"))
}
