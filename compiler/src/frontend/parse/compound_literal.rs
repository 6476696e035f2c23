//! Compound literals (C99 6.5.2.5): `(struct point){1, 2}`, `(int[]){3, 4, 5}`.
//!
//! Why it exists: c-torture (and modern C) builds temporary objects this way; without it
//! such programs are refused.
//!
//! Invariants: a compound literal in a function is a hidden local (`.compound`) of the
//! literal's type (an array of unknown size is completed by its initializer, as for a
//! declaration), expressed as `ExprKind::CompoundLiteral`: an lvalue whose evaluation
//! initialises the object first, each time, so a literal in a loop is fresh on every
//! iteration, as C says. At file scope (a static object) it is an error at its `(`.

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind, LocalVar};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::{QualType, Type};

impl Parser<'_> {
    /// compound-literal: '(' type-name ')' '{' initializer-list ','? '}'
    /// (the type name is parsed; the cursor is on the `{`)
    pub(crate) fn parse_compound_literal(
        &mut self,
        ty: &QualType,
        loc: Loc,
    ) -> Result<Expr, Diagnostic> {
        if self.func.is_none() {
            return Err(self.error_at(
                loc,
                "compound literals at file scope are not supported by phicc",
            ));
        }
        if matches!(ty.ty, Type::Function(_)) {
            return Err(self.error_at(loc, "compound literal has function type"));
        }
        let (init, ty) = self.parse_local_initializer(ty)?;
        if self.size_of(&ty.ty).is_none() {
            return Err(self.error_at(loc, "compound literal has incomplete type"));
        }
        let id = self.add_local(LocalVar {
            name: ".compound".to_string(),
            ty: ty.clone(),
            loc,
            is_param: false,
            align: None,
        });
        Ok(Expr::new(
            ExprKind::CompoundLiteral(id, Box::new(init)),
            ty,
            loc,
        ))
    }
}
