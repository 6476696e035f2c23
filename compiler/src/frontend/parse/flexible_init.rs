//! Initializing a flexible array member (gcc's extension, c-torture's 20010924-1.c,
//! pr28865.c): `struct { int n; int a[]; } x = { 2, { 5, 6 } };`.
//!
//! Why it exists: C11 6.7.2.1p18 gives a flexible array member no elements of its own,
//! so C forbids initializing one; gcc accepts it for an object of static storage duration
//! and makes *that object* larger than `sizeof` its type (the type, and `sizeof`, stay
//! as they are). The initializer walk (`init.rs`) treats the member as an array of
//! unknown length at its offset; this file decides how large the object becomes and
//! refuses, as gcc does, the automatic objects that would need to grow.
//!
//! Invariants: an object grows only when its type ends in a flexible array member
//! (directly, through its last member, or through a union member), to exactly the end
//! of its last initialized byte (no rounding to the alignment, as gcc's `.size`); an
//! initializer that stays inside `sizeof` the type (`{}` for the member, or a union
//! large enough, pr28865.c) changes nothing.

use super::Parser;
use crate::frontend::ast::InitItem;
use crate::frontend::diag::Diagnostic;
use crate::frontend::types::{RecordKind, Type};

/// Records nest without a bound the parser controls: stop looking after this many.
const MAX_NESTED_RECORDS: usize = 4096;

impl Parser<'_> {
    /// True when an object of type `ty` can end in a flexible array member: `ty` is a
    /// struct whose last member is one (or a record that ends in one), or a union with
    /// such a member.
    pub(super) fn ends_in_flexible_member(&self, ty: &Type) -> bool {
        let mut pending = vec![ty];
        let mut seen = 0usize;
        while let Some(t) = pending.pop() {
            seen += 1;
            if seen > MAX_NESTED_RECORDS {
                return false;
            }
            let Type::Record(id) = t else { continue };
            let r = self.records.get(*id);
            let candidates: Vec<&Type> = match r.kind {
                RecordKind::Struct => r.fields.last().map(|f| &f.ty.ty).into_iter().collect(),
                RecordKind::Union => r.fields.iter().map(|f| &f.ty.ty).collect(),
            };
            for c in candidates {
                if matches!(c, Type::Array(_, None)) {
                    return true;
                }
                pending.push(c);
            }
        }
        false
    }

    /// The size of an object of type `ty` initialized by `items`: `sizeof` its type,
    /// or more when the items initialize its flexible array member past it.
    pub(super) fn initialized_object_size(&self, ty: &Type, items: &[InitItem]) -> u64 {
        let size = self.size_of(ty).unwrap_or(0);
        if !self.ends_in_flexible_member(ty) {
            return size;
        }
        items
            .iter()
            .filter(|i| i.bitfield.is_none())
            .map(|i| {
                let item_size = self.size_of(&i.value.ty.ty).unwrap_or(0);
                i.offset.saturating_add(item_size)
            })
            .fold(size, u64::max)
    }

    /// gcc's error for an automatic object (or compound literal in a function) whose
    /// flexible array member is initialized past `sizeof` its type.
    pub(super) fn check_automatic_flexible_init(
        &self,
        ty: &Type,
        items: &[InitItem],
    ) -> Result<(), Diagnostic> {
        let size = self.size_of(ty).unwrap_or(0);
        if self.initialized_object_size(ty, items) <= size {
            return Ok(());
        }
        let loc = items
            .iter()
            .find(|i| i.offset >= size)
            .map_or(self.loc(), |i| i.value.loc);
        Err(self.error_at(loc, "non-static initialization of a flexible array member"))
    }
}
