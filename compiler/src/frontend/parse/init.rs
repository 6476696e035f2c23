//! Initializers (C99 6.7.8): brace lists with designators and brace elision, string
//! literals for character arrays, scalars, and records from record-typed expressions.
//!
//! Why it exists: the lowering wants an initializer flattened to stores at byte (and
//! bit) offsets, and static objects want bytes; both come from the same walk of the
//! object's type along the initializer, done once here.
//!
//! Invariants:
//! - Every `InitItem` value is converted to its member's type (`convert_for_assignment`)
//!   and is a scalar or a whole record; bit-field items carry the placement of
//!   `RecordDef::fields[i].bitfield` and the offset of the record containing them.
//! - A later item that overlaps an earlier one (designators re-initializing a member)
//!   replaces it; the remaining items are returned in source order.
//! - An incomplete array's length is the largest index initialized plus one (for a
//!   string: its length including the NUL); the completed type is returned.
//! - Brace nesting is limited by `MAX_NESTING` (through `enter_decl_nesting_by`).
//!
//! - A flexible array member is initialized as an array of unknown length at its offset
//!   (gcc's extension; how large the object becomes is `flexible_init.rs`).
//!
//! Not supported (clear errors or gcc's warnings): GNU range designators
//! `[a ... b]`. Excess initializers are skipped with gcc's "excess elements in ...
//! initializer" warning.

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind, InitItem, Initializer, StaticInit};
use crate::frontend::diag::Diagnostic;
use crate::frontend::token::{Punct, TokenKind};
use crate::frontend::types::{BitField, IntKind, QualType, RecordKind, Type};
use std::collections::BTreeMap;

/// Where a subobject lives: its byte offset, or for a bit-field the offset of the
/// record containing it and its placement there.
#[derive(Clone, Copy, Debug)]
struct Place {
    offset: u64,
    bitfield: Option<BitField>,
}

impl Place {
    fn at(offset: u64) -> Place {
        Place {
            offset,
            bitfield: None,
        }
    }
}

/// The items collected so far, keyed by their first bit (items never overlap), and the
/// items of size 0 (an empty struct member): they store nothing and overlap nothing, but
/// their value is still evaluated for its side effects, as gcc does (c-torture
/// `zero-struct-2.c`: `{ .empty = f() }` calls `f`).
#[derive(Default)]
pub(crate) struct Items {
    by_start: BTreeMap<u64, (u64, u64, InitItem)>,
    zero_size: Vec<(u64, InitItem)>,
    next_seq: u64,
}

impl Items {
    fn add(&mut self, item: InitItem, size_bytes: u64) {
        let (start, end) = match item.bitfield {
            Some(bf) => {
                let s = item.offset * 8 + bf.bit_offset;
                (s, s + u64::from(bf.width))
            }
            None => (item.offset * 8, item.offset * 8 + size_bytes * 8),
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        if end == start {
            self.zero_size.push((seq, item));
            return;
        }
        // Remove the items overlapping [start, end).
        let overlapping: Vec<u64> = self
            .by_start
            .range(..end)
            .rev()
            .take_while(|(_, (e, _, _))| *e > start)
            .map(|(s, _)| *s)
            .collect();
        for s in overlapping {
            self.by_start.remove(&s);
        }
        self.by_start.insert(start, (end, seq, item));
    }

    /// The items in source order.
    pub(crate) fn into_vec(self) -> Vec<InitItem> {
        let mut v: Vec<(u64, InitItem)> = self
            .by_start
            .into_values()
            .map(|(_, seq, item)| (seq, item))
            .chain(self.zero_size)
            .collect();
        v.sort_by_key(|(seq, _)| *seq);
        v.into_iter().map(|(_, i)| i).collect()
    }
}

/// The result of parsing an initializer: one expression for the whole object, or items.
pub(crate) enum InitResult {
    Expr(Expr),
    Items(Items),
}

fn is_char_kind(t: &Type) -> bool {
    matches!(
        t,
        Type::Int(IntKind::Char) | Type::Int(IntKind::SChar) | Type::Int(IntKind::UChar)
    )
}

impl Parser<'_> {
    /// initializer: assignment-expression | '{' initializer-list ','? '}'
    /// For an automatic object: the `ast::Initializer` and the completed type.
    pub(crate) fn parse_local_initializer(
        &mut self,
        ty: &QualType,
    ) -> Result<(Initializer, QualType), Diagnostic> {
        let (r, ty) = self.parse_initializer(ty)?;
        Ok(match r {
            InitResult::Expr(e) => (Initializer::Expr(e), ty),
            InitResult::Items(items) => {
                let items = items.into_vec();
                self.check_automatic_flexible_init(&ty.ty, &items)?;
                (Initializer::List(items), ty)
            }
        })
    }

    /// For a static object: its bytes and relocations, and the completed type.
    pub(crate) fn parse_static_initializer(
        &mut self,
        ty: &QualType,
    ) -> Result<(StaticInit, QualType), Diagnostic> {
        let (r, ty) = self.parse_initializer(ty)?;
        let items = match r {
            InitResult::Expr(e) => vec![InitItem {
                offset: 0,
                bitfield: None,
                value: e,
            }],
            InitResult::Items(items) => items.into_vec(),
        };
        let init = self.static_bytes(&ty, &items)?;
        Ok((init, ty))
    }

    /// Parses the initializer of an object of type `ty`.
    fn parse_initializer(&mut self, ty: &QualType) -> Result<(InitResult, QualType), Diagnostic> {
        let loc = self.loc();
        if let Type::Function(_) = ty.ty {
            return Err(self.error_here("function is initialized like a variable"));
        }
        if ty.ty == Type::Void {
            return Err(self.error_here("variable has incomplete type 'void'"));
        }
        let mut items = Items::default();
        let incomplete_array = matches!(ty.ty, Type::Array(_, None));
        if !incomplete_array && self.size_of(&ty.ty).is_none() {
            return Err(self.error_here("variable has initializer but incomplete type"));
        }
        if self.is_punct(Punct::LBrace) {
            let mut len = 0u64;
            self.init_braced(ty, Place::at(0), &mut items, Some(&mut len))?;
            let ty = self.complete_array(ty, len);
            return Ok((InitResult::Items(items), ty));
        }
        let e = self.parse_assign_expr()?;
        match &ty.ty {
            Type::Array(elem, n) => {
                if let Some(bytes) = self.string_literal_bytes(&e, &elem.ty) {
                    let len = n.unwrap_or(bytes.len() as u64 + 1);
                    self.string_items(&elem.ty, &bytes, len, 0, &mut items, e.loc)?;
                    let ty = self.complete_array(ty, len);
                    return Ok((InitResult::Items(items), ty));
                }
                Err(self.error_at(loc, "invalid initializer"))
            }
            Type::Record(_) => {
                if e.ty.ty != ty.ty {
                    return Err(self.error_at(loc, "invalid initializer"));
                }
                let e = self.convert_for_assignment(e, &QualType::new(ty.ty.clone()))?;
                Ok((InitResult::Expr(e), ty.clone()))
            }
            _ => {
                let e = self.convert_for_assignment(e, &QualType::new(ty.ty.clone()))?;
                Ok((InitResult::Expr(e), ty.clone()))
            }
        }
    }

    fn complete_array(&self, ty: &QualType, len: u64) -> QualType {
        match &ty.ty {
            Type::Array(elem, None) => QualType {
                ty: Type::Array(elem.clone(), Some(len)),
                ..ty.clone()
            },
            _ => ty.clone(),
        }
    }

    /// The characters (code units) of a string literal initializing an array of `elem`:
    /// a narrow literal for a character type, a wide one (`wide_strings.rs`) for an
    /// integer type of `wchar_t`'s size.
    fn string_literal_bytes(&self, e: &Expr, elem: &Type) -> Option<Vec<u64>> {
        match &e.kind {
            ExprKind::Str(id) if is_char_kind(elem) && !self.is_wide_string(*id) => {
                let mut b = self.strings.get(id.0 as usize)?.clone();
                b.pop(); // the NUL
                Some(b.into_iter().map(u64::from).collect())
            }
            ExprKind::Str(id) if self.is_wchar_compatible(elem) => self.wide_string_units(*id),
            _ => None,
        }
    }

    /// Items for `char a[len]` (or `wchar_t a[len]`) at `offset` from a string's
    /// characters (the terminating null only if it fits).
    fn string_items(
        &mut self,
        elem: &Type,
        units: &[u64],
        len: u64,
        offset: u64,
        items: &mut Items,
        loc: crate::frontend::source::Loc,
    ) -> Result<(), Diagnostic> {
        let unit_size = self.size_of(elem).unwrap_or(1);
        if units.len() as u64 > len {
            let what = if unit_size == 1 { "char" } else { "wchar_t" };
            self.warn_at(
                loc,
                format!("initializer-string for array of '{what}' is too long"),
            );
        }
        let n = (units.len() as u64 + 1).min(len);
        for i in 0..n {
            let b = units.get(i as usize).copied().unwrap_or(0);
            items.add(
                InitItem {
                    offset: offset + i * unit_size,
                    bitfield: None,
                    value: Expr::int_lit(b, elem.clone(), loc),
                },
                unit_size,
            );
        }
        Ok(())
    }

    /// How many positional subobjects an aggregate has (`u64::MAX`: incomplete array).
    fn subobject_count(&self, ty: &Type) -> u64 {
        match ty {
            Type::Array(_, Some(n)) => *n,
            Type::Array(_, None) => u64::MAX,
            Type::Record(id) => {
                let r = self.records.get(*id);
                match r.kind {
                    RecordKind::Struct => r.fields.len() as u64,
                    RecordKind::Union => r.fields.len().min(1) as u64,
                }
            }
            _ => 0,
        }
    }

    /// The type and place of subobject `i` of aggregate `ty` placed at `offset`.
    fn subobject(&self, ty: &Type, offset: u64, i: u64) -> Result<(QualType, Place), Diagnostic> {
        match ty {
            Type::Array(elem, _) => {
                let es = self.size_of(&elem.ty).unwrap_or(0);
                let off = i
                    .checked_mul(es)
                    .and_then(|o| o.checked_add(offset))
                    .filter(|o| *o <= (1u64 << 60))
                    .ok_or_else(|| self.error_here("size of array is too large"))?;
                Ok(((**elem).clone(), Place::at(off)))
            }
            Type::Record(id) => {
                let f = self
                    .records
                    .get(*id)
                    .fields
                    .get(i as usize)
                    .ok_or_else(|| self.error_here("excess elements in struct initializer"))?;
                // A flexible array member is an array of unknown length here: its
                // initializer may run past the record (`flexible_init.rs`).
                Ok(match f.bitfield {
                    Some(bf) => (
                        f.ty.clone(),
                        Place {
                            offset,
                            bitfield: Some(bf),
                        },
                    ),
                    None => (f.ty.clone(), Place::at(offset + f.offset)),
                })
            }
            _ => Err(self.error_here("invalid initializer")),
        }
    }

    /// '{' initializer-list ','? '}' for an object of type `ty` at `place`.
    /// initializer-list: designation? initializer (',' designation? initializer)*
    fn init_braced(
        &mut self,
        ty: &QualType,
        place: Place,
        items: &mut Items,
        len_out: Option<&mut u64>,
    ) -> Result<(), Diagnostic> {
        self.enter_decl_nesting_by(4)?;
        let r = self.init_braced_inner(ty, place, items, len_out);
        self.leave_decl_nesting();
        r
    }

    fn init_braced_inner(
        &mut self,
        ty: &QualType,
        place: Place,
        items: &mut Items,
        mut len_out: Option<&mut u64>,
    ) -> Result<(), Diagnostic> {
        let open = self.expect_punct(Punct::LBrace)?;
        if ty.ty.is_scalar() {
            if self.is_punct(Punct::RBrace) {
                return Err(self.error_at(open.loc, "empty scalar initializer"));
            }
            self.init_sub(ty, place, items, None)?;
            if self.eat_punct(Punct::Comma) && !self.is_punct(Punct::RBrace) {
                self.warn_at(self.loc(), "excess elements in scalar initializer");
                self.skip_initializers()?;
            }
            self.expect_punct(Punct::RBrace)?;
            return Ok(());
        }
        if !matches!(ty.ty, Type::Array(..) | Type::Record(_)) {
            return Err(self.error_at(open.loc, "invalid initializer"));
        }
        // `char s[] = { "abc" }`
        if let Type::Array(elem, n) = &ty.ty {
            if (is_char_kind(&elem.ty) || self.is_wchar_compatible(&elem.ty))
                && matches!(self.peek().kind, TokenKind::Str(_) | TokenKind::WideStr(_))
                && matches!(
                    self.peek_at(1).kind,
                    TokenKind::Punct(Punct::RBrace)
                        | TokenKind::Punct(Punct::Comma)
                        | TokenKind::Str(_)
                        | TokenKind::WideStr(_)
                )
            {
                let e = self.parse_assign_expr()?;
                if let Some(bytes) = self.string_literal_bytes(&e, &elem.ty) {
                    let len = n.unwrap_or(bytes.len() as u64 + 1);
                    self.string_items(&elem.ty, &bytes, len, place.offset, items, e.loc)?;
                    if let Some(l) = len_out.as_deref_mut() {
                        *l = len;
                    }
                    self.eat_punct(Punct::Comma);
                    self.expect_punct(Punct::RBrace)?;
                    return Ok(());
                }
                return Err(self.error_at(e.loc, "invalid initializer"));
            }
        }
        let count = self.subobject_count(&ty.ty);
        let is_union =
            matches!(&ty.ty, Type::Record(id) if self.records.get(*id).kind == RecordKind::Union);
        let mut cursor = 0u64;
        loop {
            if self.is_punct(Punct::RBrace) {
                break;
            }
            if self.is_punct(Punct::Dot) || self.is_punct(Punct::LBracket) {
                let idx = self.init_designated(ty, place.offset, items, None)?;
                cursor = if is_union { count } else { idx + 1 };
            } else if cursor < count {
                let (mty, mplace) = self.subobject(&ty.ty, place.offset, cursor)?;
                self.init_sub(&mty, mplace, items, None)?;
                cursor += 1;
            } else {
                let what = match &ty.ty {
                    Type::Array(..) => "array",
                    _ if is_union => "union",
                    _ => "struct",
                };
                self.warn_at(self.loc(), format!("excess elements in {what} initializer"));
                self.skip_initializers()?;
                break;
            }
            if let Some(l) = len_out.as_deref_mut() {
                *l = (*l).max(cursor);
            }
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect_punct(Punct::RBrace)?;
        Ok(())
    }

    /// Skips the rest of an initializer list up to (not including) its `}`.
    fn skip_initializers(&mut self) -> Result<(), Diagnostic> {
        let mut depth = 0usize;
        loop {
            match &self.peek().kind {
                TokenKind::Eof => return Err(self.error_expected("'}'")),
                TokenKind::Punct(Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    if depth == 0 {
                        return Ok(());
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Initializes the subobject `ty` at `place` from the next initializer (or from
    /// the already parsed `pending` expression), eliding braces as C99 6.7.8p20 says.
    fn init_sub(
        &mut self,
        ty: &QualType,
        place: Place,
        items: &mut Items,
        pending: Option<Expr>,
    ) -> Result<(), Diagnostic> {
        let e = match pending {
            Some(e) => e,
            None => {
                if self.is_punct(Punct::LBrace) {
                    return self.init_braced(ty, place, items, None);
                }
                self.parse_assign_expr()?
            }
        };
        match &ty.ty {
            Type::Record(_) if e.ty.ty == ty.ty => {
                let size = self.size_of(&ty.ty).unwrap_or(0);
                let v = self.convert_for_assignment(e, &QualType::new(ty.ty.clone()))?;
                items.add(
                    InitItem {
                        offset: place.offset,
                        bitfield: None,
                        value: v,
                    },
                    size,
                );
                Ok(())
            }
            Type::Array(elem, n) => {
                if let Some(bytes) = self.string_literal_bytes(&e, &elem.ty) {
                    let len = n.unwrap_or(bytes.len() as u64 + 1);
                    return self.string_items(&elem.ty, &bytes, len, place.offset, items, e.loc);
                }
                self.init_elided(ty, place.offset, items, e)
            }
            Type::Record(_) => self.init_elided(ty, place.offset, items, e),
            _ => {
                let size = self.size_of(&ty.ty).unwrap_or(0);
                let v = self.convert_for_assignment(e, &QualType::new(ty.ty.clone()))?;
                items.add(
                    InitItem {
                        offset: place.offset,
                        bitfield: place.bitfield,
                        value: v,
                    },
                    size,
                );
                Ok(())
            }
        }
    }

    /// An aggregate initialized without its braces: the first subobject from `first`,
    /// the following ones from the next initializers of the enclosing list.
    fn init_elided(
        &mut self,
        ty: &QualType,
        offset: u64,
        items: &mut Items,
        first: Expr,
    ) -> Result<(), Diagnostic> {
        self.enter_decl_nesting_by(4)?;
        let r = (|| {
            if self.subobject_count(&ty.ty) == 0 {
                return Err(self.error_at(first.loc, "invalid initializer"));
            }
            let (mty, mplace) = self.subobject(&ty.ty, offset, 0)?;
            self.init_sub(&mty, mplace, items, Some(first))?;
            self.init_continue(ty, offset, items, 1)
        })();
        self.leave_decl_nesting();
        r
    }

    /// Continues initializing subobjects `start..` of an aggregate whose braces were
    /// elided (or after a designated subobject), while the next initializer is neither
    /// designated nor the end of the list.
    fn init_continue(
        &mut self,
        ty: &QualType,
        offset: u64,
        items: &mut Items,
        start: u64,
    ) -> Result<(), Diagnostic> {
        let count = self.subobject_count(&ty.ty);
        let mut i = start;
        while i < count {
            if !self.is_punct(Punct::Comma) {
                break;
            }
            let next = self.peek_at(1);
            if next.is_punct(Punct::RBrace)
                || next.is_punct(Punct::Dot)
                || next.is_punct(Punct::LBracket)
            {
                break;
            }
            self.bump();
            let (mty, mplace) = self.subobject(&ty.ty, offset, i)?;
            self.init_sub(&mty, mplace, items, None)?;
            i += 1;
        }
        Ok(())
    }

    /// designation initializer, relative to aggregate `ty` at `offset`:
    /// designator: '[' constant-expression ']' | '.' identifier
    /// designation: designator+ '='
    /// Returns the index designated at this level. `preset` is the rest of a path to
    /// a member inside anonymous struct/union members.
    fn init_designated(
        &mut self,
        ty: &QualType,
        offset: u64,
        items: &mut Items,
        preset: Option<Vec<usize>>,
    ) -> Result<u64, Diagnostic> {
        self.enter_decl_nesting_by(4)?;
        let r = self.init_designated_inner(ty, offset, items, preset);
        self.leave_decl_nesting();
        r
    }

    fn init_designated_inner(
        &mut self,
        ty: &QualType,
        offset: u64,
        items: &mut Items,
        preset: Option<Vec<usize>>,
    ) -> Result<u64, Diagnostic> {
        let (idx, rest) = match preset {
            Some(path) if !path.is_empty() => (path[0] as u64, Some(path[1..].to_vec())),
            _ => {
                if self.eat_punct(Punct::LBracket) {
                    let Type::Array(_, n) = &ty.ty else {
                        return Err(self.error_here("array index in non-array initializer"));
                    };
                    let n = *n;
                    let (v, vloc) = self.decl_int_constant()?;
                    if v < 0 || n.is_some_and(|n| v >= i128::from(n)) || v > (1i128 << 40) {
                        return Err(
                            self.error_at(vloc, "array index in initializer exceeds array bounds")
                        );
                    }
                    self.expect_punct(Punct::RBracket)?;
                    (v as u64, None)
                } else if self.eat_punct(Punct::Dot) {
                    let (name, nloc) = self.expect_ident()?;
                    let Type::Record(id) = &ty.ty else {
                        return Err(
                            self.error_at(nloc, "field name not in record or union initializer")
                        );
                    };
                    let Some(path) = self.field_path(*id, &name) else {
                        return Err(self.error_at(
                            nloc,
                            format!("unknown field '{name}' specified in initializer"),
                        ));
                    };
                    (path[0] as u64, Some(path[1..].to_vec()))
                } else {
                    return Err(self.error_expected("'=' or designator"));
                }
            }
        };
        let (mty, mplace) = self.subobject(&ty.ty, offset, idx)?;
        let more_path = rest.as_ref().is_some_and(|r| !r.is_empty());
        if more_path || self.is_punct(Punct::Dot) || self.is_punct(Punct::LBracket) {
            if !matches!(mty.ty, Type::Array(..) | Type::Record(_)) {
                return Err(self.error_here("invalid designator for a scalar member"));
            }
            let sub =
                self.init_designated(&mty, mplace.offset, items, rest.filter(|r| !r.is_empty()))?;
            let is_union = matches!(&mty.ty, Type::Record(id) if self.records.get(*id).kind == RecordKind::Union);
            if !is_union {
                self.init_continue(&mty, mplace.offset, items, sub + 1)?;
            }
        } else {
            if !self.eat_punct(Punct::Assign) {
                return Err(self.error_expected("'='"));
            }
            self.init_sub(&mty, mplace, items, None)?;
        }
        Ok(idx)
    }

    /// The field indexes leading to member `name` of record `id`, through anonymous
    /// struct/union members.
    pub(crate) fn field_path(
        &self,
        id: crate::frontend::types::RecordId,
        name: &str,
    ) -> Option<Vec<usize>> {
        fn go(
            p: &Parser<'_>,
            id: crate::frontend::types::RecordId,
            name: &str,
            depth: u32,
        ) -> Option<Vec<usize>> {
            if depth > 64 {
                return None;
            }
            let r = p.records.get(id);
            for (i, f) in r.fields.iter().enumerate() {
                match (&f.name, &f.ty.ty) {
                    (Some(n), _) if n == name => return Some(vec![i]),
                    (None, Type::Record(inner)) => {
                        if let Some(mut rest) = go(p, *inner, name, depth + 1) {
                            rest.insert(0, i);
                            return Some(rest);
                        }
                    }
                    _ => {}
                }
            }
            None
        }
        go(self, id, name, 0)
    }
}
