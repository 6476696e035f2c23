//! Old-style (pre-C89, "K&R") C as gcc accepts it: implicit `int` at file scope
//! (`main() { ... }`, `x;`) and function definitions with an identifier list and a
//! declaration list (`f(a, p) char *p; { ... }`).
//!
//! Why it exists: a large part of gcc's c-torture suite (and of older real code) is
//! written this way; gcc accepts it with warnings, so phicc does too, with the same
//! meaning.
//!
//! Invariants (C99 6.9.1 and gcc):
//! - A file-scope declaration without any specifier declares `int` (a warning).
//! - An identifier list declares each named parameter once; a name the declaration list
//!   does not declare is `int` (gcc's warning); the list may declare nothing else.
//! - The definition's function type has no prototype: callers pass the *promoted*
//!   arguments (integer promotions, `float` to `double`). So the function receives each
//!   parameter in its promoted type, and a parameter declared with a narrower type
//!   (`char c`) is a local initialised from the promoted one on entry (converted as by
//!   assignment), exactly what gcc does. When a prototype of the function is already in
//!   scope, the definition takes it: the parameters arrive in their declared types.

use super::declarator::{
    adjust_parameter_type, Declarator, DeclaratorKind, Derivation, ParamDecl, SpecContext,
};
use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Punct, TokenKind};
use crate::frontend::types::{FloatKind, FunctionType, QualType, Type};
use std::rc::Rc;

impl Parser<'_> {
    /// Whether a file-scope declaration starts without any declaration specifier, as in
    /// `main() { ... }` or `x = 1;`: an identifier that is not a typedef name, followed
    /// by what can follow a declarator's name.
    pub(crate) fn at_implicit_int_declaration(&self) -> bool {
        let TokenKind::Ident(name) = &self.peek().kind else {
            return false;
        };
        if self.is_typedef_name(name) || &**name == "_Static_assert" {
            return false;
        }
        matches!(
            self.peek_at(1).kind,
            TokenKind::Punct(
                Punct::LParen | Punct::Semi | Punct::Comma | Punct::Assign | Punct::LBracket
            )
        )
    }

    /// identifier-list: identifier (',' identifier)* ')'  (after the `(`)
    pub(crate) fn parse_identifier_list(&mut self, loc: Loc) -> Result<Derivation, Diagnostic> {
        let mut params = Vec::new();
        loop {
            let (name, nloc) = self.expect_ident()?;
            if self.is_typedef_name(&name) {
                return Err(self.error_at(nloc, "expected identifier before type name"));
            }
            params.push(ParamDecl {
                name: Some((name, nloc)),
                ty: QualType::new(Type::int()),
                loc: nloc,
                lengths: Vec::new(),
            });
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect_punct(Punct::RParen)?;
        Ok(Derivation::Function {
            params,
            variadic: false,
            has_prototype: false,
            identifier_list: true,
            loc,
        })
    }

    /// The declaration list of an old-style definition, up to its `{`, applied to the
    /// identifier list of `d`. Returns the declarator with each parameter's declared
    /// (adjusted) type, and the function type the definition has.
    ///
    /// declaration-list: (declaration-specifiers declarator (',' declarator)* ';')*
    pub(crate) fn parse_old_style_parameters(
        &mut self,
        ret: &QualType,
        d: &Declarator,
    ) -> Result<(Declarator, Rc<FunctionType>), Diagnostic> {
        let Some(Derivation::Function { params, .. }) = d.derivations.last() else {
            return Err(self.error_at(d.loc, "expected '{' before this declaration"));
        };
        let mut params = params.clone();
        let mut declared = vec![false; params.len()];
        while !self.is_punct(Punct::LBrace) {
            let spec = self.parse_decl_specs(SpecContext::Parameter)?;
            loop {
                let pd = self.parse_declarator(DeclaratorKind::Named)?;
                let _ = self.parse_declarator_suffix_attrs()?;
                let ty = self.apply_declarator(spec.ty.clone(), &pd)?;
                let (name, nloc) = match &pd.name {
                    Some(n) => n.clone(),
                    None => return Err(self.error_at(pd.loc, "expected identifier or '('")),
                };
                let Some(i) = params
                    .iter()
                    .position(|p| p.name.as_ref().is_some_and(|(n, _)| *n == name))
                else {
                    return Err(self.error_at(
                        nloc,
                        format!("declaration for parameter '{name}' but no such parameter"),
                    ));
                };
                if declared[i] {
                    return Err(self.error_at(nloc, format!("redefinition of parameter '{name}'")));
                }
                if ty.ty == Type::Void {
                    return Err(self.error_at(nloc, format!("parameter '{name}' declared void")));
                }
                if self.is_punct(Punct::Assign) {
                    return Err(self.error_at(nloc, format!("parameter '{name}' is initialized")));
                }
                declared[i] = true;
                params[i].ty = adjust_parameter_type(ty, &pd);
                params[i].loc = nloc;
                if !self.eat_punct(Punct::Comma) {
                    break;
                }
            }
            self.expect_punct(Punct::Semi)?;
        }
        for (p, _) in params.iter().zip(&declared).filter(|(_, d)| !**d) {
            if let Some((name, loc)) = &p.name {
                self.warn_at(*loc, format!("type of '{name}' defaults to 'int'"));
            }
        }
        let name = d.name.as_ref().map(|(n, _)| n.to_string());
        let prototype = name
            .as_ref()
            .and_then(|n| self.function_decls.get(n))
            .filter(|f| f.ty.has_prototype)
            .map(|f| f.ty.clone());
        let fty = match prototype {
            // A prototype in scope: the parameters arrive as it declares them (gcc).
            Some(_) => FunctionType {
                ret: ret.clone(),
                params: params
                    .iter()
                    .map(|p| QualType::new(p.ty.ty.clone()))
                    .collect(),
                variadic: false,
                has_prototype: true,
            },
            None => FunctionType {
                ret: ret.clone(),
                params: params
                    .iter()
                    .map(|p| QualType::new(promoted_parameter_type(&p.ty.ty)))
                    .collect(),
                variadic: false,
                has_prototype: false,
            },
        };
        let mut d = d.clone();
        if let Some(Derivation::Function {
            params: slot,
            identifier_list,
            ..
        }) = d.derivations.last_mut()
        {
            *slot = params;
            *identifier_list = false;
        }
        Ok((d, Rc::new(fty)))
    }
}

/// The type an argument for a parameter of type `ty` has when the callee has no
/// prototype: the integer promotions, and `float` becomes `double` (C99 6.5.2.2p6).
pub(crate) fn promoted_parameter_type(ty: &Type) -> Type {
    match ty {
        Type::Float(FloatKind::Float) => Type::Float(FloatKind::Double),
        _ => super::convert::promote_type(ty),
    }
}
