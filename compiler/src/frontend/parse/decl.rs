//! Declarations: the translation unit, external declarations (function definitions,
//! global objects, typedefs, function declarations), block-scope declarations, type
//! names, and the linkage rules that merge redeclarations.
//!
//! Why it exists: what a declared name means depends on where it is declared and what
//! was declared before (tentative definitions, `extern`, an array completed later, a
//! prototype after an old-style declaration); this file is the one place that decides
//! it and records the result in `Parser::globals`, `function_decls`, the scopes and the
//! current function's locals.
//!
//! Invariants:
//! - A file-scope object has exactly one `GlobalVar` (found through `global_index`);
//!   redeclarations merge into it with the composite type, or fail with gcc's
//!   "conflicting types for 'x'". `is_extern_only` stays true only while every
//!   declaration said `extern` and none had an initializer.
//! - A function has one `FunctionDecl` in `function_decls` holding the composite type;
//!   a definition is added to `functions` once ("redefinition of 'f'" otherwise).
//! - Parameters are the locals `0..n` of their function, unnamed ones included.
//! - `static` locals are globals named `function.name.N` (N counts per function).
//!
//! Not represented (accepted and ignored): `aligned(N)` on typedefs and on objects
//! (only record and member alignment is modelled); `__asm__` symbol names.

use super::attributes::Attrs;
use super::declarator::{Declarator, DeclaratorKind, Derivation, SpecContext, Storage};
use super::{FunctionState, OrdinaryEntity, Parser};
use crate::frontend::ast::{
    Expr, ExprKind, FunctionDecl, FunctionDef, GlobalId, GlobalVar, Initializer, LocalId, LocalVar,
    Stmt,
};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Keyword, Punct, TokenKind};
use crate::frontend::types::{FunctionType, QualType, Type};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Linkage and attribute facts about a function, across its declarations.
#[derive(Clone, Debug, Default)]
pub(crate) struct FunctionInfo {
    pub is_static: bool,
    pub is_inline: bool,
    pub noinline: bool,
    pub defined: bool,
    /// `__attribute__((aligned(N)))` on any declaration: the largest N
    /// (`object_align.rs`).
    pub align: Option<u64>,
}

/// The declarations part's bookkeeping inside `Parser`.
#[derive(Debug, Default)]
pub(crate) struct DeclState {
    /// Current nesting of declarators / struct bodies / initializer braces.
    pub depth: u32,
    /// The weight of each level entered (see `enter_decl_nesting_by`).
    pub weights: Vec<u32>,
    /// Records whose body is being parsed (a nested redefinition is an error).
    pub records_being_defined: HashSet<u32>,
    /// Enum tags declared without a body, by (name, scope depth).
    pub forward_enums: HashSet<(String, usize)>,
    pub functions: HashMap<String, FunctionInfo>,
    /// The next fresh enumerated-type identity (`enum_identity.rs`).
    pub next_enum_identity: u32,
    /// The identity of the enum specifier just parsed (`parse_enum_specifier` sets it).
    pub enum_spec_identity: Option<u32>,
    /// The identity of the type name just parsed (`parse_type_name` sets it).
    pub type_name_enum_identity: Option<u32>,
    /// Typedefs, by (name, scope depth), whose `aligned` attribute phicc cannot give
    /// them: each use is an error (`typedef_align.rs`).
    pub unaligned_typedefs: HashSet<(String, usize)>,
    /// The targets of `alias("...")` attributes, indexed by `AliasRef` (`alias_attr.rs`).
    pub alias_targets: Vec<(String, Loc)>,
    /// Function aliases: alias name -> the target's IR symbol (`alias_attr.rs`).
    pub function_aliases: HashMap<String, String>,
}

/// Are two types compatible (C99 6.2.7), qualifiers included?
pub(crate) fn compatible(a: &QualType, b: &QualType) -> bool {
    a.is_const == b.is_const && a.is_volatile == b.is_volatile && compatible_types(&a.ty, &b.ty)
}

fn compatible_types(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Pointer(x), Type::Pointer(y)) => compatible(x, y),
        (Type::Array(x, n), Type::Array(y, m)) => {
            compatible(x, y) && (n.is_none() || m.is_none() || n == m)
        }
        (Type::Function(f), Type::Function(g)) => compatible_functions(f, g),
        _ => a == b,
    }
}

/// Does the type survive the default argument promotions unchanged?
fn is_promoted(t: &Type) -> bool {
    match t {
        Type::Bool => false,
        Type::Int(k) => k.rank() >= 3,
        Type::Float(crate::frontend::types::FloatKind::Float) => false,
        _ => true,
    }
}

fn compatible_functions(f: &FunctionType, g: &FunctionType) -> bool {
    if !compatible_types(&f.ret.ty, &g.ret.ty) {
        return false;
    }
    match (f.has_prototype, g.has_prototype) {
        (true, true) => {
            f.variadic == g.variadic
                && f.params.len() == g.params.len()
                && f.params
                    .iter()
                    .zip(&g.params)
                    .all(|(x, y)| compatible_types(&x.ty, &y.ty))
        }
        (true, false) => !f.variadic && f.params.iter().all(|p| is_promoted(&p.ty)),
        (false, true) => !g.variadic && g.params.iter().all(|p| is_promoted(&p.ty)),
        (false, false) => true,
    }
}

/// The composite type of two compatible types (C99 6.2.7p3).
pub(crate) fn composite(a: &QualType, b: &QualType) -> QualType {
    let ty = match (&a.ty, &b.ty) {
        (Type::Pointer(x), Type::Pointer(y)) => Type::Pointer(Rc::new(composite(x, y))),
        (Type::Array(x, n), Type::Array(y, m)) => Type::Array(Rc::new(composite(x, y)), n.or(*m)),
        (Type::Function(f), Type::Function(g)) => {
            if f.has_prototype || !g.has_prototype {
                Type::Function(f.clone())
            } else {
                Type::Function(g.clone())
            }
        }
        _ => a.ty.clone(),
    };
    QualType {
        ty,
        is_const: a.is_const,
        is_volatile: a.is_volatile,
    }
}

impl Parser<'_> {
    /// translation-unit: external-declaration*
    /// external-declaration: function-definition | declaration | ';' | '#pragma pack'
    pub(crate) fn parse_translation_unit(&mut self) -> Result<(), Diagnostic> {
        while !self.at_eof() {
            if self.at_pragma() {
                self.parse_pragma_token()?;
                continue;
            }
            if self.eat_punct(Punct::Semi) {
                continue;
            }
            if self.at_static_assert() {
                self.parse_static_assert()?;
                continue;
            }
            if let TokenKind::Stray = self.peek().kind {
                return Err(self.error_expected("identifier"));
            }
            self.parse_external_declaration()?;
        }
        self.finish_globals()
    }

    /// End of the unit: tentative definitions of incomplete arrays get one element
    /// (gcc's warning), other incomplete definitions are errors.
    fn finish_globals(&mut self) -> Result<(), Diagnostic> {
        for i in 0..self.globals.len() {
            let g = &self.globals[i];
            if g.is_extern_only || g.init.is_some() {
                continue;
            }
            let (loc, name) = (g.loc, g.name.clone());
            if let Type::Array(elem, None) = &g.ty.ty {
                let ty = QualType {
                    ty: Type::Array(elem.clone(), Some(1)),
                    ..g.ty.clone()
                };
                self.warn_at(loc, format!("array '{name}' assumed to have one element"));
                self.globals[i].ty = ty.clone();
                if let Some(OrdinaryEntity::Global(..)) = self.scopes[0].ordinary.get(name.as_str())
                {
                    self.scopes[0].ordinary.insert(
                        Rc::from(name.as_str()),
                        OrdinaryEntity::Global(GlobalId(i as u32), ty),
                    );
                }
            } else if self.size_of(&g.ty.ty).is_none() {
                return Err(self.error_at(loc, format!("storage size of '{name}' isn't known")));
            }
        }
        Ok(())
    }

    fn at_static_assert(&self) -> bool {
        matches!(&self.peek().kind, TokenKind::Ident(n) if &**n == "_Static_assert")
    }

    /// static-assert: '_Static_assert' '(' constant-expression ',' string-literal ')' ';'
    fn parse_static_assert(&mut self) -> Result<(), Diagnostic> {
        let loc = self.bump().loc;
        self.expect_punct(Punct::LParen)?;
        let (v, _) = self.decl_int_constant()?;
        self.expect_punct(Punct::Comma)?;
        let mut msg = Vec::new();
        let mut any = false;
        while let TokenKind::Str(s) = &self.peek().kind {
            msg.extend_from_slice(s);
            any = true;
            self.bump();
        }
        if !any {
            return Err(self.error_expected("string literal"));
        }
        self.expect_punct(Punct::RParen)?;
        self.expect_punct(Punct::Semi)?;
        if v == 0 {
            return Err(self.error_at(
                loc,
                format!(
                    "static assertion failed: \"{}\"",
                    String::from_utf8_lossy(&msg)
                ),
            ));
        }
        Ok(())
    }

    /// Does the current token start a type name (type specifier or qualifier, or a
    /// typedef name)?
    pub(crate) fn is_type_name_start(&self) -> bool {
        self.token_starts_type(0)
    }

    /// Does the current token start a declaration (a type name start, a storage class,
    /// `inline`, `__extension__` before one, `_Static_assert`)?
    pub(crate) fn is_declaration_start(&self) -> bool {
        if let TokenKind::Ident(n) = &self.peek().kind {
            if self.peek_at(1).is_punct(Punct::Colon) {
                return false; // a label
            }
            if &**n == "_Static_assert" {
                return true;
            }
        }
        let mut i = 0;
        while self.peek_at(i).is_keyword(Keyword::Extension) {
            i += 1;
        }
        self.token_starts_type(i)
            || matches!(
                self.peek_at(i).kind,
                TokenKind::Keyword(
                    Keyword::Typedef
                        | Keyword::Extern
                        | Keyword::Static
                        | Keyword::Auto
                        | Keyword::Register
                        | Keyword::Inline
                        | Keyword::Attribute
                )
            )
    }

    /// type-name: specifier-qualifier-list abstract-declarator?
    pub(crate) fn parse_type_name(&mut self) -> Result<QualType, Diagnostic> {
        let spec = self.parse_decl_specs(SpecContext::SpecifierQualifierList)?;
        let d = self.parse_declarator(DeclaratorKind::Abstract)?;
        let ty = self.apply_declarator(spec.ty.clone(), &d)?;
        let ty = self.apply_mode(ty, &spec.attrs, spec.loc)?;
        self.decl.type_name_enum_identity = spec.enum_identity.filter(|_| ty.ty == spec.ty.ty);
        Ok(ty)
    }

    /// The declared name (declarators parsed with `Named` always have one).
    fn declarator_name(&self, d: &Declarator) -> Result<(Rc<str>, Loc), Diagnostic> {
        d.name
            .clone()
            .ok_or_else(|| self.error_at(d.loc, "expected identifier or '('"))
    }

    /// declaration: declaration-specifiers (init-declarator (',' init-declarator)*)? ';'
    /// function-definition: declaration-specifiers declarator compound-statement
    /// init-declarator: declarator attribute* ('=' initializer)?
    fn parse_external_declaration(&mut self) -> Result<(), Diagnostic> {
        let spec = if self.at_implicit_int_declaration() {
            let loc = self.loc();
            self.warn_at(loc, "type defaults to 'int' in declaration");
            super::declarator::DeclSpec::implicit_int(loc)
        } else {
            self.parse_decl_specs(SpecContext::Declaration)?
        };
        if matches!(spec.storage, Some(Storage::Auto | Storage::Register)) {
            return Err(self.error_at(
                spec.loc,
                "file-scope declaration specifies 'auto' or 'register'",
            ));
        }
        if self.eat_punct(Punct::Semi) {
            if !spec.declares_tag {
                self.warn_at(spec.loc, "useless type name in empty declaration");
            }
            return Ok(());
        }
        let mut first = true;
        let mut last_initialized;
        loop {
            let d = self.parse_declarator(DeclaratorKind::Named)?;
            let mut attrs = self.parse_declarator_suffix_attrs()?;
            attrs.merge(spec.attrs);
            attrs.merge(d.attrs);
            last_initialized = self.is_punct(Punct::Assign);
            let ty = self.apply_declarator(spec.ty.clone(), &d)?;
            let (name, loc) = self.declarator_name(&d)?;
            let ty = self.apply_mode(ty, &attrs, loc)?;
            if let Type::Function(fty) = &ty.ty {
                let identifier_list = matches!(
                    d.derivations.last(),
                    Some(Derivation::Function {
                        identifier_list: true,
                        ..
                    })
                );
                if first
                    && identifier_list
                    && spec.storage != Some(Storage::Typedef)
                    && !matches!(
                        self.peek().kind,
                        TokenKind::Punct(Punct::Semi | Punct::Comma | Punct::Assign)
                    )
                {
                    let (d, fty) = self.parse_old_style_parameters(&fty.ret, &d)?;
                    return self.parse_function_definition(&spec, &d, fty, attrs);
                }
                if first && self.is_punct(Punct::LBrace) && spec.storage != Some(Storage::Typedef) {
                    return self.parse_function_definition(&spec, &d, fty.clone(), attrs);
                }
                if first && !fty.has_prototype && self.is_declaration_start() {
                    return Err(self.error_here(
                        "old-style (K&R) function definitions are not supported by phicc",
                    ));
                }
            }
            match spec.storage {
                Some(Storage::Typedef) => {
                    self.check_typedef_attrs(attrs, &name, &ty, spec.anonymous_record)?;
                    self.note_typedef_enum(&name, &spec, &ty);
                    self.declare_typedef(name, loc, ty)?
                }
                _ => match &ty.ty {
                    Type::Function(fty)
                        if self.declare_function_alias(&name, loc, fty, &attrs)? => {}
                    _ if self.declare_object_alias(&name, loc, &ty, &attrs)? => {}
                    Type::Function(fty) => {
                        self.declare_function(
                            &name,
                            loc,
                            fty.clone(),
                            spec.storage,
                            spec.is_inline,
                            attrs,
                        )?;
                        if self.is_punct(Punct::Assign) {
                            return Err(self.error_at(
                                loc,
                                format!("function '{name}' is initialized like a variable"),
                            ));
                        }
                    }
                    _ => {
                        self.parse_global_object(&name, loc, ty, spec.storage)?;
                        self.note_object_alignment(&name, attrs);
                    }
                },
            }
            first = false;
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        if !self.eat_punct(Punct::Semi) {
            return Err(self.error_expected(expected_after(last_initialized)));
        }
        Ok(())
    }

    /// `aligned(N)` on a typedef (not on the record it defines) gives the typedef name its
    /// own alignment in gcc (`typedef int A __attribute__((aligned(8)))`: `__alignof__(A)`
    /// is 8): `typedef_align.rs` gives gcc's layout where phicc's types can, and refuses
    /// each use of the name where they cannot.
    fn check_typedef_attrs(
        &mut self,
        attrs: Attrs,
        name: &str,
        ty: &QualType,
        anonymous_record: bool,
    ) -> Result<(), Diagnostic> {
        match attrs.aligned {
            Some(n) => self.typedef_alignment(name, ty, n, anonymous_record),
            None => Ok(()),
        }
    }

    /// A typedef declaration in the current scope (a redefinition to the same type is
    /// allowed, as in C11 and gcc).
    fn declare_typedef(&mut self, name: Rc<str>, loc: Loc, ty: QualType) -> Result<(), Diagnostic> {
        if let Some(scope) = self.scopes.last() {
            match scope.ordinary.get(&name) {
                Some(OrdinaryEntity::Typedef(old)) if !compatible(old, &ty) || old.ty != ty.ty => {
                    let have = self.type_name(&ty);
                    return Err(self.error_at(
                        loc,
                        format!("conflicting types for '{name}'; have '{have}'"),
                    ));
                }
                Some(OrdinaryEntity::Typedef(_)) => {}
                Some(_) => {
                    return Err(self.error_at(
                        loc,
                        format!("'{name}' redeclared as different kind of symbol"),
                    ))
                }
                None => {}
            }
        }
        self.declare_ordinary(name, OrdinaryEntity::Typedef(ty));
        Ok(())
    }

    /// Declares (or redeclares) a function with external or internal linkage, in the
    /// current scope; returns the composite type.
    fn declare_function(
        &mut self,
        name: &str,
        loc: Loc,
        fty: Rc<FunctionType>,
        storage: Option<Storage>,
        is_inline: bool,
        attrs: Attrs,
    ) -> Result<Rc<FunctionType>, Diagnostic> {
        if !self.at_file_scope() && storage == Some(Storage::Static) {
            return Err(self.error_at(loc, format!("invalid storage class for function '{name}'")));
        }
        if let Some(target) = self.decl.function_aliases.get(name).cloned() {
            // A redeclaration of an alias still designates its target (`alias_attr.rs`).
            self.declare_ordinary(
                Rc::from(name),
                OrdinaryEntity::Function(target, fty.clone()),
            );
            return Ok(fty);
        }
        if matches!(fty.ret.ty, Type::Array(..) | Type::Function(_)) {
            return Err(self.error_at(
                loc,
                format!("'{name}' declared as function returning an array"),
            ));
        }
        if self.global_index.contains_key(name) {
            return Err(self.error_at(
                loc,
                format!("'{name}' redeclared as different kind of symbol"),
            ));
        }
        if let Some(ent) = self.scopes.last().and_then(|s| s.ordinary.get(name)) {
            if !matches!(ent, OrdinaryEntity::Function(..)) {
                return Err(self.error_at(
                    loc,
                    format!("'{name}' redeclared as different kind of symbol"),
                ));
            }
        }
        let is_static = storage == Some(Storage::Static);
        let ty = match self.function_decls.get(name) {
            None => {
                self.function_decls.insert(
                    name.to_string(),
                    FunctionDecl {
                        name: name.to_string(),
                        ty: fty.clone(),
                        loc,
                    },
                );
                self.function_order.push(name.to_string());
                self.decl.functions.insert(
                    name.to_string(),
                    FunctionInfo {
                        is_static,
                        ..FunctionInfo::default()
                    },
                );
                fty
            }
            Some(old) => {
                if !compatible_functions(&old.ty, &fty) {
                    let have = self.type_name(&QualType::new(Type::Function(fty.clone())));
                    return Err(self.error_at(
                        loc,
                        format!("conflicting types for '{name}'; have '{have}'"),
                    ));
                }
                let info = self.decl.functions.get(name).cloned().unwrap_or_default();
                if is_static && !info.is_static {
                    return Err(self.error_at(
                        loc,
                        format!("static declaration of '{name}' follows non-static declaration"),
                    ));
                }
                let c = composite(
                    &QualType::new(Type::Function(old.ty.clone())),
                    &QualType::new(Type::Function(fty)),
                );
                let Type::Function(c) = c.ty else {
                    return Err(self.error_at(loc, format!("conflicting types for '{name}'")));
                };
                if let Some(d) = self.function_decls.get_mut(name) {
                    d.ty = c.clone();
                }
                c
            }
        };
        if let Some(info) = self.decl.functions.get_mut(name) {
            info.is_inline |= is_inline;
            info.noinline |= attrs.noinline;
            info.align = info.align.max(attrs.aligned);
        }
        self.declare_ordinary(
            Rc::from(name),
            OrdinaryEntity::Function(name.to_string(), ty.clone()),
        );
        if !self.at_file_scope() {
            // Keep the file-scope entry (if any) in step with the composite type.
            if let Some(OrdinaryEntity::Function(..)) = self.scopes[0].ordinary.get(name) {
                self.scopes[0].ordinary.insert(
                    Rc::from(name),
                    OrdinaryEntity::Function(name.to_string(), ty.clone()),
                );
            }
        }
        Ok(ty)
    }

    /// function-definition: declaration-specifiers declarator compound-statement
    fn parse_function_definition(
        &mut self,
        spec: &super::declarator::DeclSpec,
        d: &Declarator,
        fty: Rc<FunctionType>,
        attrs: Attrs,
    ) -> Result<(), Diagnostic> {
        let (name, loc) = self.declarator_name(d)?;
        let Some(params) = d.function_params().map(<[_]>::to_vec) else {
            return Err(self.error_at(loc, "expected ';' before '{' token"));
        };
        if matches!(spec.storage, Some(Storage::Extern | Storage::Static) | None) {
        } else {
            return Err(self.error_at(loc, format!("invalid storage class for function '{name}'")));
        }
        if self.decl.functions.get(&*name).is_some_and(|i| i.defined) {
            return Err(self.error_at(loc, format!("redefinition of '{name}'")));
        }
        if fty.ret.ty != Type::Void && self.size_of(&fty.ret.ty).is_none() {
            return Err(self.error_at(loc, "return type is an incomplete type"));
        }
        for (i, p) in params.iter().enumerate() {
            if self.size_of(&p.ty.ty).is_none() {
                let pname = p
                    .name
                    .as_ref()
                    .map_or(String::new(), |n| format!(" ('{}')", n.0));
                return Err(self.error_at(
                    p.loc,
                    format!("parameter {}{pname} has incomplete type", i + 1),
                ));
            }
        }
        // Without a prototype, each parameter arrives in its promoted type (`old_style`).
        let incoming: Vec<Type> = if fty.has_prototype {
            Vec::new()
        } else {
            fty.params.iter().map(|p| p.ty.clone()).collect()
        };
        let ty = self.declare_function(&name, loc, fty, spec.storage, spec.is_inline, attrs)?;
        self.define_function_body(&name, loc, ty, &params, incoming)
    }

    /// The parameters and body of function `name` (its IR symbol; declared already),
    /// then its `FunctionDef`. `incoming`: the promoted types of an old-style
    /// definition's parameters (empty with a prototype).
    pub(crate) fn define_function_body(
        &mut self,
        name: &str,
        loc: Loc,
        ty: Rc<FunctionType>,
        params: &[super::declarator::ParamDecl],
        incoming: Vec<Type>,
    ) -> Result<(), Diagnostic> {
        if let Some(info) = self.decl.functions.get_mut(name) {
            info.defined = true;
        }
        self.func = Some(FunctionState {
            name: name.to_string(),
            ret: Some(ty.ret.clone()),
            scope_base: self.scopes.len(),
            ..FunctionState::default()
        });
        self.push_scope();
        let mut param_ids = Vec::new();
        let mut narrowed = Vec::new();
        let mut result = Ok(Stmt::Null);
        let mut lengths = Vec::new();
        for (i, p) in params.iter().enumerate() {
            // C11 6.9.1p10: its run-time lengths run on entry, in order; they see the
            // parameters before it, not itself or later ones (its scope starts after
            // its declarator).
            match self.parameter_length_statements(&p.lengths) {
                Ok(stmts) => lengths.extend(stmts),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            let pname = p
                .name
                .as_ref()
                .map_or_else(|| format!(".param{i}"), |n| n.0.to_string());
            let arrives = incoming.get(i).filter(|t| **t != p.ty.ty);
            let mut id = self.add_local(LocalVar {
                name: match arrives {
                    Some(_) => format!(".promoted.{pname}"),
                    None => pname.clone(),
                },
                ty: arrives.map_or_else(|| p.ty.clone(), |t| QualType::new(t.clone())),
                loc: p.loc,
                is_param: true,
                align: None,
            });
            param_ids.push(id);
            if let Some(t) = arrives {
                // `f(c) char c;`: the local `c` is the promoted argument converted.
                let param = Expr::new(ExprKind::Local(id), t.clone(), p.loc);
                id = self.add_local(LocalVar {
                    name: pname,
                    ty: p.ty.clone(),
                    loc: p.loc,
                    is_param: false,
                    align: None,
                });
                let init = super::convert::cast_to(param, &p.ty.ty);
                narrowed.push((id, Some(Initializer::Expr(init))));
            }
            if let Some((n, l)) = &p.name {
                if self
                    .scopes
                    .last()
                    .is_some_and(|s| s.ordinary.contains_key(n))
                {
                    result = Err(self.error_at(*l, format!("redefinition of parameter '{n}'")));
                    break;
                }
                self.declare_ordinary(n.clone(), OrdinaryEntity::Local(id, p.ty.clone()));
            }
        }
        self.add_static_chain_param(&mut param_ids, loc);
        let mut entry = Vec::new();
        if !narrowed.is_empty() {
            entry.push(Stmt::Decl(narrowed));
        }
        entry.append(&mut lengths);
        if result.is_ok() {
            result = self.parse_function_body();
        }
        if !entry.is_empty() {
            result = result.map(|body| {
                entry.push(body);
                Stmt::Compound(entry)
            });
        }
        self.pop_scope();
        let label_addresses = self.finish_label_object();
        let state = self.func.take().unwrap_or_default();
        let body = result?;
        let info = self.decl.functions.get(name).cloned().unwrap_or_default();
        let vla_objects = self.take_vla_objects();
        self.functions.push(FunctionDef {
            name: name.to_string(),
            ty,
            is_static: info.is_static,
            is_inline: info.is_inline,
            is_noinline: info.noinline,
            align: info.align,
            locals: state.locals,
            params: param_ids,
            body,
            num_labels: state.label_state.next_id,
            num_cases: state.num_cases,
            vla_objects,
            label_addresses,
            nested: state.nested,
            nonlocal_goto: None,
            loc,
        });
        self.close_nested_functions();
        Ok(())
    }

    /// Declares or redeclares a file-scope object, then parses its initializer.
    fn parse_global_object(
        &mut self,
        name: &str,
        loc: Loc,
        ty: QualType,
        storage: Option<Storage>,
    ) -> Result<(), Diagnostic> {
        if ty.ty == Type::Void {
            return Err(self.error_at(loc, format!("variable or field '{name}' declared void")));
        }
        if self.function_decls.contains_key(name)
            || matches!(
                self.scopes[0].ordinary.get(name),
                Some(OrdinaryEntity::Typedef(_) | OrdinaryEntity::EnumConst(..))
            )
        {
            return Err(self.error_at(
                loc,
                format!("'{name}' redeclared as different kind of symbol"),
            ));
        }
        let has_init = self.is_punct(Punct::Assign);
        let is_static = storage == Some(Storage::Static);
        let is_extern = storage == Some(Storage::Extern) && !has_init;
        let id = self.merge_global(
            name,
            loc,
            ty,
            is_static,
            is_extern,
            storage == Some(Storage::Extern),
        )?;
        if has_init {
            if storage == Some(Storage::Extern) {
                self.warn_at(loc, format!("'{name}' initialized and declared 'extern'"));
            }
            self.bump();
            if self.globals[id.0 as usize].init.is_some() {
                return Err(self.error_at(loc, format!("redefinition of '{name}'")));
            }
            let gty = self.globals[id.0 as usize].ty.clone();
            let (init, gty) = self.parse_static_initializer(&gty)?;
            let g = &mut self.globals[id.0 as usize];
            g.ty = gty.clone();
            g.init = Some(init);
            g.is_extern_only = false;
            self.scopes[0]
                .ordinary
                .insert(Rc::from(name), OrdinaryEntity::Global(id, gty));
        }
        Ok(())
    }

    /// Finds or creates the `GlobalVar` of a file-scope (or block-scope `extern`)
    /// object and merges this declaration into it.
    fn merge_global(
        &mut self,
        name: &str,
        loc: Loc,
        ty: QualType,
        is_static: bool,
        is_extern_only: bool,
        said_extern: bool,
    ) -> Result<GlobalId, Diagnostic> {
        let id = match self.global_index.get(name) {
            None => {
                let id = GlobalId(self.globals.len() as u32);
                self.globals.push(GlobalVar {
                    name: name.to_string(),
                    ty: ty.clone(),
                    is_static,
                    init: None,
                    is_extern_only,
                    align: None,
                    loc,
                });
                self.global_index.insert(name.to_string(), id);
                id
            }
            Some(&id) => {
                let g = &self.globals[id.0 as usize];
                if !compatible(&g.ty, &ty) {
                    let have = self.type_name(&ty);
                    return Err(self.error_at(
                        loc,
                        format!("conflicting types for '{name}'; have '{have}'"),
                    ));
                }
                if is_static && !g.is_static {
                    return Err(self.error_at(
                        loc,
                        format!("static declaration of '{name}' follows non-static declaration"),
                    ));
                }
                if !is_static && !said_extern && g.is_static {
                    return Err(self.error_at(
                        loc,
                        format!("non-static declaration of '{name}' follows static declaration"),
                    ));
                }
                let c = composite(&g.ty, &ty);
                let g = &mut self.globals[id.0 as usize];
                g.ty = c;
                if !is_extern_only {
                    g.is_extern_only = false;
                }
                id
            }
        };
        let gty = self.globals[id.0 as usize].ty.clone();
        if self.at_file_scope() || self.scopes[0].ordinary.contains_key(name) {
            self.scopes[0]
                .ordinary
                .insert(Rc::from(name), OrdinaryEntity::Global(id, gty.clone()));
        }
        if !self.at_file_scope() {
            self.declare_ordinary(Rc::from(name), OrdinaryEntity::Global(id, gty));
        }
        Ok(id)
    }

    /// A block-scope declaration up to and including its `;`: objects (with their
    /// initializers, as `Stmt::Decl`), static locals (new globals; `Stmt::Null`),
    /// typedefs, tags, function declarations (`Stmt::Null`).
    ///
    /// declaration: declaration-specifiers (init-declarator (',' init-declarator)*)? ';'
    ///
    /// The result is placed (`Stmt::At`) at the declaration's first token.
    pub(crate) fn parse_local_declaration(&mut self) -> Result<Stmt, Diagnostic> {
        let loc = self.peek().loc;
        self.parse_local_declaration_inner()
            .map(|s| Stmt::at(loc, s))
    }

    fn parse_local_declaration_inner(&mut self) -> Result<Stmt, Diagnostic> {
        if self.at_static_assert() {
            self.parse_static_assert()?;
            return Ok(Stmt::Null);
        }
        if self.at_attribute() {
            // An attribute statement (`__attribute__((fallthrough));`) is a null
            // statement; otherwise the attributes start the declaration specifiers.
            let saved = self.pos;
            self.parse_attributes()?;
            if self.eat_punct(Punct::Semi) {
                return Ok(Stmt::Null);
            }
            self.pos = saved;
        }
        let spec = self.parse_decl_specs(SpecContext::Declaration)?;
        if self.eat_punct(Punct::Semi) {
            if !spec.declares_tag {
                self.warn_at(spec.loc, "useless type name in empty declaration");
            }
            return Ok(Stmt::Null);
        }
        let mut items: Vec<(LocalId, Option<crate::frontend::ast::Initializer>)> = Vec::new();
        let mut last_initialized;
        loop {
            let d = self.parse_declarator(DeclaratorKind::Named)?;
            let mut attrs = self.parse_declarator_suffix_attrs()?;
            attrs.merge(spec.attrs);
            last_initialized = self.is_punct(Punct::Assign);
            let ty = self.apply_declarator_allowing_vla(spec.ty.clone(), &d)?;
            let (name, loc) = self.declarator_name(&d)?;
            let ty = self.apply_mode(ty, &attrs, loc)?;
            if let (true, Type::Function(fty)) = (self.is_punct(Punct::LBrace), &ty.ty) {
                // GNU nested function (`nested_fn.rs`).
                self.parse_nested_function(&spec, &d, fty.clone(), name, loc)?;
                return Ok(Stmt::Null);
            }
            if let Some(len) = self.outer_vla_length(&d) {
                if matches!(
                    spec.storage,
                    Some(Storage::Typedef | Storage::Extern | Storage::Static)
                ) {
                    return Err(self.error_at(
                        loc,
                        "a variable-length array must be an automatic object (phicc supports \
                         no VLA typedef, static or extern)",
                    ));
                }
                self.check_block_redeclaration(&name, loc, false)?;
                let id = self.declare_vla_object(name, loc, ty, len)?;
                items.push((id, None));
                if !self.eat_punct(Punct::Comma) {
                    break;
                }
                continue;
            }
            match (spec.storage, &ty.ty) {
                (Some(Storage::Typedef), _) => {
                    self.check_typedef_attrs(attrs, &name, &ty, spec.anonymous_record)?;
                    self.note_typedef_enum(&name, &spec, &ty);
                    self.declare_typedef(name, loc, ty)?
                }
                (_, Type::Function(fty)) => {
                    self.check_block_redeclaration(&name, loc, true)?;
                    self.declare_function(
                        &name,
                        loc,
                        fty.clone(),
                        spec.storage,
                        spec.is_inline,
                        attrs,
                    )?;
                }
                (Some(Storage::Extern), _) => {
                    if self.is_punct(Punct::Assign) {
                        return Err(self
                            .error_at(loc, format!("'{name}' has both 'extern' and initializer")));
                    }
                    self.check_block_redeclaration(&name, loc, true)?;
                    if ty.ty == Type::Void {
                        return Err(
                            self.error_at(loc, format!("variable or field '{name}' declared void"))
                        );
                    }
                    if self.function_decls.contains_key(&*name) {
                        return Err(self.error_at(
                            loc,
                            format!("'{name}' redeclared as different kind of symbol"),
                        ));
                    }
                    self.merge_global(&name, loc, ty, false, true, true)?;
                    self.note_object_alignment(&name, attrs);
                }
                (Some(Storage::Static), _) => {
                    self.check_block_redeclaration(&name, loc, false)?;
                    self.parse_static_local(name.clone(), loc, ty)?;
                    self.note_object_alignment(&name, attrs);
                }
                _ => {
                    self.check_block_redeclaration(&name, loc, false)?;
                    let item = self.parse_auto_local(name.clone(), loc, ty)?;
                    self.note_object_alignment(&name, attrs);
                    items.push(item);
                }
            }
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        if !self.eat_punct(Punct::Semi) {
            return Err(self.error_expected(expected_after(last_initialized)));
        }
        Ok(if items.is_empty() {
            Stmt::Null
        } else {
            Stmt::Decl(items)
        })
    }

    /// A name declared twice in one block: only extern/function redeclarations are OK.
    fn check_block_redeclaration(
        &self,
        name: &str,
        loc: Loc,
        has_linkage: bool,
    ) -> Result<(), Diagnostic> {
        match self.scopes.last().and_then(|s| s.ordinary.get(name)) {
            None => Ok(()),
            Some(OrdinaryEntity::Global(..) | OrdinaryEntity::Function(..)) if has_linkage => {
                Ok(())
            }
            Some(OrdinaryEntity::Local(..)) | Some(OrdinaryEntity::Global(..)) => {
                Err(self.error_at(loc, format!("redeclaration of '{name}' with no linkage")))
            }
            Some(_) => Err(self.error_at(
                loc,
                format!("'{name}' redeclared as different kind of symbol"),
            )),
        }
    }

    /// A `static` local: a new global `function.name.N`, zero- or constant-initialized.
    fn parse_static_local(
        &mut self,
        name: Rc<str>,
        loc: Loc,
        ty: QualType,
    ) -> Result<(), Diagnostic> {
        if ty.ty == Type::Void {
            return Err(self.error_at(loc, format!("variable or field '{name}' declared void")));
        }
        let (fname, n) = match &mut self.func {
            Some(f) => {
                f.num_static_locals += 1;
                (f.name.clone(), f.num_static_locals - 1)
            }
            None => (String::from("file"), 0),
        };
        let id = GlobalId(self.globals.len() as u32);
        self.globals.push(GlobalVar {
            name: format!("{fname}.{name}.{n}"),
            ty: ty.clone(),
            is_static: true,
            init: None,
            is_extern_only: false,
            align: None,
            loc,
        });
        self.declare_ordinary(name.clone(), OrdinaryEntity::Global(id, ty.clone()));
        let mut ty = ty;
        if self.eat_punct(Punct::Assign) {
            let (init, t) = self.parse_static_initializer(&ty)?;
            ty = t;
            self.globals[id.0 as usize].init = Some(init);
            self.globals[id.0 as usize].ty = ty.clone();
            self.declare_ordinary(name.clone(), OrdinaryEntity::Global(id, ty.clone()));
        }
        if self.size_of(&ty.ty).is_none() {
            return Err(self.error_at(loc, format!("storage size of '{name}' isn't known")));
        }
        Ok(())
    }

    /// An automatic (or `register`) local with its optional initializer.
    fn parse_auto_local(
        &mut self,
        name: Rc<str>,
        loc: Loc,
        ty: QualType,
    ) -> Result<(LocalId, Option<crate::frontend::ast::Initializer>), Diagnostic> {
        if ty.ty == Type::Void {
            return Err(self.error_at(loc, format!("variable or field '{name}' declared void")));
        }
        if self.func.is_none() {
            return Err(self.error_at(loc, "block-scope declaration outside of a function"));
        }
        let id = self.add_local(LocalVar {
            name: name.to_string(),
            ty: ty.clone(),
            loc,
            is_param: false,
            align: None,
        });
        self.declare_ordinary(name.clone(), OrdinaryEntity::Local(id, ty.clone()));
        let mut init = None;
        let mut ty = ty;
        if self.eat_punct(Punct::Assign) {
            let (i, t) = self.parse_local_initializer(&ty)?;
            init = Some(i);
            if t != ty {
                ty = t;
                if let Some(f) = &mut self.func {
                    if let Some(v) = f.locals.get_mut(id.0 as usize) {
                        v.ty = ty.clone();
                    }
                }
                self.declare_ordinary(name.clone(), OrdinaryEntity::Local(id, ty.clone()));
            }
        }
        if self.size_of(&ty.ty).is_none() {
            return Err(self.error_at(loc, format!("storage size of '{name}' isn't known")));
        }
        Ok((id, init))
    }
}

/// gcc's "expected ..." after an init-declarator: after an initializer only `,` or `;`
/// can follow, after a bare declarator also `=`, `asm` or attributes.
fn expected_after(initialized: bool) -> &'static str {
    if initialized {
        "',' or ';'"
    } else {
        "'=', ',', ';', 'asm' or '__attribute__'"
    }
}
