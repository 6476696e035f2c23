//! GNU `__attribute__((alias("target")))`: a declaration that names the definition of
//! `target` under another name (`extern int b __attribute__((alias("a")));`,
//! `void f(void) __attribute__((alias("g")));`).
//!
//! Why it exists: c-torture (alias-3.c) and library-style code define a thing once and
//! give it a second name. An alias is not a second object: every use of `b` is a use of
//! `a`'s storage, so phicc resolves the name to the target right here — the alias's
//! ordinary identifier designates the target's `GlobalVar` (with the alias's declared
//! type, as gcc reads it) or the target function's IR symbol. The IR, every pass, the
//! oracle and the backends then see one definition under one symbol; no separate alias
//! symbol is emitted, which only another translation unit could tell (phihunt builds
//! programs of one unit).
//!
//! Invariants: the target must be defined earlier in the unit (gcc requires it defined
//! somewhere in the unit; phicc requires it before the alias, an error otherwise), be of
//! the same kind (object for an object, function for a function), and the alias
//! declaration has no initializer or body (gcc: the alias *is* a definition, so a later
//! definition of the alias's name is a redefinition).

use super::attributes::Attrs;
use super::{OrdinaryEntity, Parser};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Punct, TokenKind};
use crate::frontend::types::{FunctionType, QualType};
use std::rc::Rc;

/// An `alias("target")` attribute: an index into `DeclState::alias_targets` (so that
/// `Attrs` stays `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AliasRef(u32);

impl Parser<'_> {
    /// alias-attribute-arguments: '(' string-literal ')' (the cursor is on `(`).
    pub(crate) fn parse_alias_argument(&mut self) -> Result<AliasRef, Diagnostic> {
        self.expect_punct(Punct::LParen)?;
        let tok = self.peek().clone();
        let TokenKind::Str(bytes) = &tok.kind else {
            return Err(self.error_here("alias argument not a string"));
        };
        let target = String::from_utf8_lossy(bytes)
            .trim_end_matches('\0')
            .to_string();
        self.bump();
        self.expect_punct(Punct::RParen)?;
        let index = u32::try_from(self.decl.alias_targets.len())
            .map_err(|_| self.error_at(tok.loc, "too many alias attributes"))?;
        self.decl.alias_targets.push((target, tok.loc));
        Ok(AliasRef(index))
    }

    /// The alias target `attrs` names, if any.
    fn alias_target(&self, attrs: &Attrs) -> Option<(String, Loc)> {
        let AliasRef(i) = attrs.alias?;
        self.decl.alias_targets.get(i as usize).cloned()
    }

    /// Declares object `name` (type `ty`, at file scope) as an alias when `attrs` say so:
    /// `Ok(true)` when it was one (nothing else to declare), `Ok(false)` otherwise.
    pub(crate) fn declare_object_alias(
        &mut self,
        name: &str,
        loc: Loc,
        ty: &QualType,
        attrs: &Attrs,
    ) -> Result<bool, Diagnostic> {
        let Some((target, target_loc)) = self.alias_target(attrs) else {
            return Ok(false);
        };
        if self.is_punct(Punct::Assign) {
            return Err(self.error_at(
                loc,
                format!("'{name}' defined both normally and as 'alias' attribute"),
            ));
        }
        if self.global_index.contains_key(name) || self.function_decls.contains_key(name) {
            return Err(self.error_at(
                loc,
                format!("'{name}' defined both normally and as 'alias' attribute"),
            ));
        }
        let id = match self.global_index.get(target.as_str()) {
            Some(&id) if !self.globals[id.0 as usize].is_extern_only => id,
            _ => {
                return Err(self.error_at(
                    target_loc,
                    format!(
                        "'{name}' aliased to undefined symbol '{target}' (phicc needs the \
                         target defined before the alias)"
                    ),
                ))
            }
        };
        self.global_index.insert(name.to_string(), id);
        self.scopes[0]
            .ordinary
            .insert(Rc::from(name), OrdinaryEntity::Global(id, ty.clone()));
        Ok(true)
    }

    /// Declares function `name` (type `fty`, at file scope) as an alias when `attrs` say
    /// so: `Ok(true)` when it was one, `Ok(false)` otherwise.
    pub(crate) fn declare_function_alias(
        &mut self,
        name: &str,
        loc: Loc,
        fty: &Rc<FunctionType>,
        attrs: &Attrs,
    ) -> Result<bool, Diagnostic> {
        let Some((target, target_loc)) = self.alias_target(attrs) else {
            return Ok(false);
        };
        if self.global_index.contains_key(name) || self.function_decls.contains_key(name) {
            return Err(self.error_at(
                loc,
                format!("'{name}' defined both normally and as 'alias' attribute"),
            ));
        }
        let defined = self
            .decl
            .functions
            .get(target.as_str())
            .is_some_and(|f| f.defined);
        if !defined {
            return Err(self.error_at(
                target_loc,
                format!(
                    "'{name}' aliased to undefined symbol '{target}' (phicc needs the target \
                     defined before the alias)"
                ),
            ));
        }
        self.decl
            .function_aliases
            .insert(name.to_string(), target.clone());
        self.scopes[0].ordinary.insert(
            Rc::from(name),
            OrdinaryEntity::Function(target, fty.clone()),
        );
        Ok(true)
    }
}
