//! struct / union / enum specifiers: tags, member lists, bit-fields, enumerators.
//!
//! Why it exists: tagged types have their own name space and scoping rules (a tag is
//! declared in the innermost scope, `struct S;` declares a new incomplete type, a
//! definition completes the incomplete type of the same scope) and their members need
//! checks (bit-field widths, incomplete members, flexible arrays) before layout.
//!
//! Invariants: a `RecordDef` is pushed when the tag is first seen (incomplete) and is
//! filled in exactly once, at its closing brace, by `layout::layout_record`. Enums are
//! represented by their compatible integer type as gcc chooses it (`unsigned int` if
//! no value is negative, else `int`, wider types when the values need them).

use super::attributes::Attrs;
use super::declarator::{DeclaratorKind, SpecContext};
use super::layout::{layout_record, MemberDecl, RecordAttrs};
use super::{OrdinaryEntity, Parser, TagEntity};
use crate::frontend::diag::Diagnostic;
use crate::frontend::token::{Keyword, Punct, TokenKind};
use crate::frontend::types::{IntKind, RecordDef, RecordId, RecordKind, Type};
use std::collections::HashSet;
use std::rc::Rc;

impl Parser<'_> {
    fn new_record(&mut self, kind: RecordKind, tag: Option<&str>) -> RecordId {
        let id = RecordId(self.records.records.len() as u32);
        self.records.records.push(RecordDef {
            kind,
            tag: tag.map(str::to_string),
            complete: false,
            fields: Vec::new(),
            size: 0,
            align: 1,
            pack: None,
            reverse_order: false,
        });
        id
    }

    /// struct-or-union-specifier:
    ///   ('struct' | 'union') attribute* identifier? ('{' struct-declaration* '}' attribute*)?
    /// Returns the type, whether it named or defined a tag, and whether it is an
    /// untagged definition (an anonymous member candidate).
    pub(crate) fn parse_record_specifier(&mut self) -> Result<(Type, bool, bool), Diagnostic> {
        let kw = self.bump();
        let kind = if kw.is_keyword(Keyword::Union) {
            RecordKind::Union
        } else {
            RecordKind::Struct
        };
        let kind_name = if kind == RecordKind::Union {
            "union"
        } else {
            "struct"
        };
        let mut attrs = self.parse_attributes()?;
        let tag = match &self.peek().kind {
            TokenKind::Ident(n) => {
                let n = n.clone();
                let loc = self.bump().loc;
                Some((n, loc))
            }
            _ => None,
        };
        let has_body = self.is_punct(Punct::LBrace);
        let Some((name, tag_loc)) = tag.clone().filter(|_| true) else {
            if !has_body {
                return Err(self.error_expected("'{'"));
            }
            let id = self.new_record(kind, None);
            self.parse_record_body(id, kind, &mut attrs)?;
            return Ok((Type::Record(id), true, true));
        };
        let wrong_kind =
            |p: &Parser<'_>| p.error_at(tag_loc, format!("'{name}' defined as wrong kind of tag"));
        // `struct S;` alone or a definition: the tag of the current scope.
        let declares_here = has_body || self.is_punct(Punct::Semi);
        let existing = if declares_here {
            self.lookup_tag_in_current_scope(&name).cloned()
        } else {
            self.lookup_tag(&name).cloned()
        };
        let id = match existing {
            Some(TagEntity::Record(id)) => {
                if self.records.get(id).kind != kind {
                    return Err(wrong_kind(self));
                }
                id
            }
            Some(TagEntity::Enum(_)) => return Err(wrong_kind(self)),
            None => {
                let id = self.new_record(kind, Some(&name));
                self.declare_tag(name.clone(), TagEntity::Record(id));
                id
            }
        };
        if has_body {
            if self.records.get(id).complete || self.decl.records_being_defined.contains(&id.0) {
                return Err(self.error_at(tag_loc, format!("redefinition of '{kind_name} {name}'")));
            }
            self.parse_record_body(id, kind, &mut attrs)?;
        }
        Ok((Type::Record(id), true, false))
    }

    /// '{' struct-declaration* '}' attribute*
    /// struct-declaration: specifier-qualifier-list struct-declarator-list? ';'
    ///                   | '#pragma pack' | ';'
    /// struct-declarator: declarator attribute* | declarator? ':' constant-expression attribute*
    fn parse_record_body(
        &mut self,
        id: RecordId,
        kind: RecordKind,
        attrs: &mut Attrs,
    ) -> Result<(), Diagnostic> {
        self.enter_decl_nesting()?;
        self.decl.records_being_defined.insert(id.0);
        let r = self.parse_record_body_inner(id, kind, attrs);
        self.decl.records_being_defined.remove(&id.0);
        self.leave_decl_nesting();
        r
    }

    fn parse_record_body_inner(
        &mut self,
        id: RecordId,
        kind: RecordKind,
        attrs: &mut Attrs,
    ) -> Result<(), Diagnostic> {
        let open = self.expect_punct(Punct::LBrace)?;
        let mut members: Vec<MemberDecl> = Vec::new();
        let mut names: HashSet<String> = HashSet::new();
        let mut flexible_at: Option<crate::frontend::source::Loc> = None;
        while !self.eat_punct(Punct::RBrace) {
            if self.at_eof() {
                return Err(self.error_expected("'}'"));
            }
            if self.at_pragma() {
                self.parse_pragma_token()?;
                continue;
            }
            if self.eat_punct(Punct::Semi) {
                continue;
            }
            if self.peek().is_keyword(Keyword::Static) {
                return Err(self.error_expected("specifier-qualifier-list"));
            }
            let spec = self.parse_decl_specs(SpecContext::SpecifierQualifierList)?;
            if self.is_punct(Punct::Semi) && spec.anonymous_record {
                self.bump();
                // An anonymous struct/union member: its members are found through it.
                if let Type::Record(inner) = &spec.ty.ty {
                    let inner_names = self.member_names(*inner);
                    for n in inner_names {
                        if !names.insert(n.clone()) {
                            return Err(self.error_at(spec.loc, format!("duplicate member '{n}'")));
                        }
                    }
                }
                if let Some(l) = flexible_at {
                    return Err(self.error_at(l, "flexible array member not at end of struct"));
                }
                members.push(MemberDecl {
                    name: None,
                    ty: spec.ty.clone(),
                    width: None,
                    aligned: spec.attrs.aligned,
                    packed: spec.attrs.packed,
                });
                continue;
            }
            if self.is_punct(Punct::Semi) {
                self.bump();
                self.warn_at(spec.loc, "declaration does not declare anything");
                continue;
            }
            loop {
                let mloc = self.loc();
                let d = if self.is_punct(Punct::Colon) {
                    None
                } else {
                    Some(self.parse_declarator(DeclaratorKind::Named)?)
                };
                let mut width = None;
                if self.eat_punct(Punct::Colon) {
                    let (w, wloc) = self.decl_int_constant()?;
                    width = Some((w, wloc));
                }
                let mut mattrs = self.parse_declarator_suffix_attrs()?;
                mattrs.merge(spec.attrs);
                if let Some(d) = &d {
                    mattrs.merge(d.attrs);
                }
                let ty = match &d {
                    Some(d) => self.apply_declarator(spec.ty.clone(), d)?,
                    None => spec.ty.clone(),
                };
                let name = d.as_ref().and_then(|d| d.name.clone());
                let loc = name.as_ref().map_or(mloc, |n| n.1);
                let ty = self.apply_mode(ty, &mattrs, loc)?;
                let shown = name
                    .as_ref()
                    .map_or_else(|| "<anonymous>".to_string(), |n| n.0.to_string());
                if let Some(l) = flexible_at {
                    return Err(self.error_at(l, "flexible array member not at end of struct"));
                }
                let width = match width {
                    None => {
                        match &ty.ty {
                            Type::Function(_) => {
                                return Err(self.error_at(
                                    loc,
                                    format!("field '{shown}' declared as a function"),
                                ))
                            }
                            Type::Array(_, None) => {
                                if kind == RecordKind::Union {
                                    return Err(
                                        self.error_at(loc, "flexible array member in union")
                                    );
                                }
                                flexible_at = Some(loc);
                            }
                            t => {
                                if self.size_of(t).is_none() {
                                    return Err(self.error_at(
                                        loc,
                                        format!("field '{shown}' has incomplete type"),
                                    ));
                                }
                            }
                        }
                        None
                    }
                    Some((w, wloc)) => {
                        let bits = match &ty.ty {
                            Type::Bool => 1,
                            Type::Int(k) => k.size(self.target) * 8,
                            _ => {
                                return Err(self.error_at(
                                    loc,
                                    format!("bit-field '{shown}' has invalid type"),
                                ))
                            }
                        };
                        if w < 0 {
                            return Err(self
                                .error_at(wloc, format!("negative width in bit-field '{shown}'")));
                        }
                        if w as u128 > u128::from(bits) {
                            return Err(
                                self.error_at(loc, format!("width of '{shown}' exceeds its type"))
                            );
                        }
                        if w == 0 && name.is_some() {
                            return Err(
                                self.error_at(wloc, format!("zero width for bit-field '{shown}'"))
                            );
                        }
                        Some(w as u32)
                    }
                };
                if let Some((n, l)) = &name {
                    if !names.insert(n.to_string()) {
                        return Err(self.error_at(*l, format!("duplicate member '{n}'")));
                    }
                }
                members.push(MemberDecl {
                    name: name.map(|n| n.0),
                    ty,
                    width,
                    aligned: mattrs.aligned,
                    packed: mattrs.packed,
                });
                if !self.eat_punct(Punct::Comma) {
                    break;
                }
            }
            if !self.eat_punct(Punct::Semi) {
                return Err(self.error_expected("';', ',' or '}'"));
            }
        }
        let after = self.parse_attributes()?;
        attrs.merge(after);
        let _ = open;
        if let Some(l) = flexible_at {
            if !members
                .iter()
                .any(|m| m.name.is_some() && !matches!(m.ty.ty, Type::Array(_, None)))
            {
                return Err(
                    self.error_at(l, "flexible array member in a struct with no named members")
                );
            }
        }
        let rattrs = RecordAttrs {
            packed: attrs.packed,
            aligned: attrs.aligned,
            pragma_pack: self.pack,
        };
        let layout = layout_record(kind, &members, rattrs, self.target, &self.records)
            .map_err(|m| self.error_here(m))?;
        let r = &mut self.records.records[id.0 as usize];
        r.fields = layout.fields;
        r.size = layout.size;
        r.align = layout.align;
        r.pack = if attrs.packed { Some(1) } else { self.pack };
        r.reverse_order = attrs.big_endian;
        r.complete = true;
        Ok(())
    }

    /// Names reachable as members of a record (through anonymous members).
    pub(crate) fn member_names(&self, id: RecordId) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        let mut guard = 0;
        while let Some(r) = stack.pop() {
            guard += 1;
            if guard > 10_000 {
                break;
            }
            for f in &self.records.get(r).fields {
                match (&f.name, &f.ty.ty) {
                    (Some(n), _) => out.push(n.clone()),
                    (None, Type::Record(inner)) => stack.push(*inner),
                    _ => {}
                }
            }
        }
        out
    }

    /// enum-specifier: 'enum' attribute* identifier? ('{' enumerator-list ','? '}' attribute*)?
    /// enumerator: identifier ('=' constant-expression)?
    /// Returns the compatible integer type and whether a tag was named or defined.
    pub(crate) fn parse_enum_specifier(&mut self) -> Result<(Type, bool), Diagnostic> {
        self.bump();
        let _ = self.parse_attributes()?;
        let tag = match &self.peek().kind {
            TokenKind::Ident(n) => {
                let n = n.clone();
                let loc = self.bump().loc;
                Some((n, loc))
            }
            _ => None,
        };
        if !self.is_punct(Punct::LBrace) {
            let Some((name, loc)) = tag else {
                return Err(self.error_expected("'{'"));
            };
            return match self.lookup_tag(&name).cloned() {
                Some(TagEntity::Enum(t)) => {
                    self.decl.enum_spec_identity = self.tag_enum_identity(&name);
                    Ok((t, true))
                }
                Some(TagEntity::Record(_)) => {
                    Err(self.error_at(loc, format!("'{name}' defined as wrong kind of tag")))
                }
                None => {
                    // A forward reference to an enum (a GNU extension): unsigned int
                    // until defined, as gcc's incomplete enums.
                    let t = Type::Int(IntKind::UInt);
                    self.decl
                        .forward_enums
                        .insert((name.to_string(), self.scopes.len()));
                    self.decl.enum_spec_identity = Some(self.new_enum_identity(Some(&name)));
                    self.declare_tag(name, TagEntity::Enum(t.clone()));
                    Ok((t, true))
                }
            };
        }
        if let Some((name, loc)) = &tag {
            match self.lookup_tag_in_current_scope(name) {
                Some(TagEntity::Enum(_))
                    if !self
                        .decl
                        .forward_enums
                        .contains(&(name.to_string(), self.scopes.len())) =>
                {
                    return Err(self.error_at(*loc, format!("redeclaration of 'enum {name}'")));
                }
                Some(TagEntity::Record(_)) => {
                    return Err(
                        self.error_at(*loc, format!("'{name}' defined as wrong kind of tag"))
                    );
                }
                _ => {}
            }
        }
        self.bump(); // '{'
        let mut next: i128 = 0;
        let mut values: Vec<(Rc<str>, i128)> = Vec::new();
        let (mut min, mut max) = (0i128, 0i128);
        loop {
            if self.is_punct(Punct::RBrace) {
                if values.is_empty() {
                    return Err(self.error_expected("identifier"));
                }
                break;
            }
            let (name, loc) = self.expect_ident()?;
            let _ = self.parse_attributes()?;
            let value = if self.eat_punct(Punct::Assign) {
                self.decl_int_constant()?.0
            } else {
                next
            };
            if !(-(1i128 << 63)..(1i128 << 64)).contains(&value) {
                return Err(self.error_at(loc, "enumerator value is too large"));
            }
            if let Some(s) = self.scopes.last() {
                if s.ordinary.contains_key(&name) {
                    return Err(self.error_at(loc, format!("redeclaration of '{name}'")));
                }
            }
            min = min.min(value);
            max = max.max(value);
            // Enumeration constants that fit have type int; gcc gives wider ones the
            // enumeration's type (fixed up below once it is known).
            let cty = if (i32::MIN as i128..=i32::MAX as i128).contains(&value) {
                Type::int()
            } else {
                enum_underlying(value, value, self.target)
            };
            self.declare_ordinary(name.clone(), OrdinaryEntity::EnumConst(value as i64, cty));
            values.push((name, value));
            next = value + 1;
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect_punct(Punct::RBrace)?;
        let _ = self.parse_attributes()?;
        let ty = enum_underlying(min, max, self.target);
        for (name, value) in &values {
            if !(i32::MIN as i128..=i32::MAX as i128).contains(value) {
                self.declare_ordinary(
                    name.clone(),
                    OrdinaryEntity::EnumConst(*value as i64, ty.clone()),
                );
            }
        }
        let forward = tag.as_ref().and_then(|(name, _)| {
            let key = (name.to_string(), self.scopes.len());
            if self.decl.forward_enums.contains(&key) {
                self.tag_enum_identity(name)
            } else {
                None
            }
        });
        self.decl.enum_spec_identity = Some(match forward {
            Some(id) => id,
            None => self.new_enum_identity(tag.as_ref().map(|(n, _)| &**n)),
        });
        if let Some((name, _)) = tag {
            self.decl
                .forward_enums
                .remove(&(name.to_string(), self.scopes.len()));
            self.declare_tag(name, TagEntity::Enum(ty.clone()));
        }
        Ok((ty, true))
    }
}

/// gcc's choice of an enumeration's compatible type for values in `min..=max`.
fn enum_underlying(min: i128, max: i128, target: crate::frontend::Target) -> Type {
    let long_bits = target.sizeof_long() * 8;
    let fits = |k: IntKind| {
        let bits = match k {
            IntKind::Int | IntKind::UInt => 32,
            IntKind::Long | IntKind::ULong => long_bits,
            _ => 64,
        };
        if k.is_signed(target) {
            min >= -(1i128 << (bits - 1)) && max < (1i128 << (bits - 1))
        } else {
            min >= 0 && max < (1i128 << bits)
        }
    };
    let order = if min < 0 {
        [IntKind::Int, IntKind::Long, IntKind::LongLong]
    } else {
        [IntKind::UInt, IntKind::ULong, IntKind::ULongLong]
    };
    for k in order {
        if fits(k) {
            return Type::Int(k);
        }
    }
    Type::Int(if min < 0 {
        IntKind::LongLong
    } else {
        IntKind::ULongLong
    })
}
