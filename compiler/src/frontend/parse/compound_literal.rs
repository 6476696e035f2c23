//! Compound literals (C99 6.5.2.5): `(struct point){1, 2}`, `(int[]){3, 4, 5}`.
//!
//! Why it exists: c-torture (and modern C) builds temporary objects this way; without it
//! such programs are refused.
//!
//! Invariants: a compound literal in a function is a hidden local (`.compound`) of the
//! literal's type (an array of unknown size is completed by its initializer, as for a
//! declaration), expressed as `ExprKind::CompoundLiteral`: an lvalue whose evaluation
//! initialises the object first, each time, so a literal in a loop is fresh on every
//! iteration, as C says. At file scope it is an unnamed object with static storage
//! (C11 6.5.2.5p5): a hidden static global (`compound_literal.N`) whose initializer is a
//! static initializer (constant expressions, as for any file-scope object), expressed as
//! `ExprKind::Global`, so its address is an address constant that static initializers
//! of pointers may use (`struct C e = { &(struct B){ &(struct A){1, 2} } };`).

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind, GlobalId, GlobalVar, LocalVar};
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
        if matches!(ty.ty, Type::Function(_)) {
            return Err(self.error_at(loc, "compound literal has function type"));
        }
        if self.func.is_none() {
            return self.parse_file_scope_compound_literal(ty, loc);
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

    /// A compound literal at file scope (the cursor on its `{`): a static object.
    fn parse_file_scope_compound_literal(
        &mut self,
        ty: &QualType,
        loc: Loc,
    ) -> Result<Expr, Diagnostic> {
        let id = GlobalId(self.globals.len() as u32);
        // The name cannot clash with a C identifier (it has a dot).
        self.globals.push(GlobalVar {
            name: format!("compound_literal.{}", id.0),
            ty: ty.clone(),
            is_static: true,
            init: None,
            is_extern_only: false,
            loc,
            align: None,
        });
        let (init, ty) = self.parse_static_initializer(ty)?;
        if self.size_of(&ty.ty).is_none() {
            return Err(self.error_at(loc, "compound literal has incomplete type"));
        }
        let global = &mut self.globals[id.0 as usize];
        global.init = Some(init);
        global.ty = ty.clone();
        Ok(Expr::new(ExprKind::Global(id), ty, loc))
    }
}
