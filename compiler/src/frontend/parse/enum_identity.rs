//! Which enumerated type a type name denotes, for `__builtin_types_compatible_p`.
//!
//! Why it exists: phicc represents an enumerated type by its compatible integer type
//! (`frontend::types`: an enum never reaches the lowering), so arithmetic, conversions
//! and layout need nothing more. But two different enumerated types are not compatible
//! with each other (C99 6.7.2.2p4 makes each one compatible with its integer type only),
//! and gcc's `__builtin_types_compatible_p(enum A, enum B)` is 0 (c-torture
//! `builtin-types-compatible-p.c`). The identity travels beside the type, only where a
//! type *name* can carry it: an enum specifier, a typedef name declared from one, and
//! `__typeof__(type-name)`.
//!
//! Invariants:
//! - Every enum specifier that defines an enumeration (or declares it forward) gets a
//!   fresh identity; a later `enum TAG` reference finds it in the scope of the tag.
//! - A typedef name has the identity of its specifiers when its declarator adds nothing
//!   (`typedef enum {...} E;`), none otherwise (`typedef enum E *P;`); shadowing follows
//!   the ordinary scopes, so an inner typedef of another type hides the outer identity.
//! - `__typeof__(expression)` has no identity (an enum-typed *object*'s enum is not
//!   tracked): such a type compares by its integer type alone, as phicc did before — the
//!   one place where this can still answer 1 for two distinct enums.

use super::declarator::DeclSpec;
use super::Parser;
use crate::frontend::types::QualType;
use std::rc::Rc;

/// The identity of one enumerated type in a translation unit.
pub(crate) type EnumIdentity = u32;

/// The key of a tag's identity in `Scope::enum_identities` (typedef names are their own
/// key; no identifier contains a space).
fn tag_key(tag: &str) -> Rc<str> {
    format!("enum {tag}").into()
}

impl Parser<'_> {
    /// A fresh identity for an enumeration defined (or declared forward) here, recorded
    /// for its tag in the current scope when it has one.
    pub(crate) fn new_enum_identity(&mut self, tag: Option<&str>) -> EnumIdentity {
        let id = self.decl.next_enum_identity;
        self.decl.next_enum_identity += 1;
        if let (Some(tag), Some(scope)) = (tag, self.scopes.last_mut()) {
            scope.enum_identities.insert(tag_key(tag), id);
        }
        id
    }

    /// The identity of `enum TAG` as visible here (the scope that declares the tag).
    pub(crate) fn tag_enum_identity(&self, tag: &str) -> Option<EnumIdentity> {
        let scope = self
            .scopes
            .iter()
            .rev()
            .find(|s| s.tags.contains_key(tag))?;
        scope.enum_identities.get(&tag_key(tag)).copied()
    }

    /// The identity of the typedef name `name` as visible here.
    pub(crate) fn typedef_enum_identity(&self, name: &str) -> Option<EnumIdentity> {
        let scope = self
            .scopes
            .iter()
            .rev()
            .find(|s| s.ordinary.contains_key(name))?;
        scope.enum_identities.get(name).copied()
    }

    /// Records the identity of the typedef `name` just declared in the current scope
    /// with specifiers `spec` and type `ty`.
    pub(crate) fn note_typedef_enum(&mut self, name: &Rc<str>, spec: &DeclSpec, ty: &QualType) {
        let id = spec.enum_identity.filter(|_| ty.ty == spec.ty.ty);
        if let Some(scope) = self.scopes.last_mut() {
            match id {
                Some(id) => scope.enum_identities.insert(name.clone(), id),
                None => scope.enum_identities.remove(name),
            };
        }
    }
}

/// gcc's `__builtin_types_compatible_p` on two type names (top-level qualifiers already
/// dropped): compatible types, and not two different enumerated types.
pub(crate) fn types_compatible(
    a: (&QualType, Option<EnumIdentity>),
    b: (&QualType, Option<EnumIdentity>),
) -> bool {
    let distinct_enums = matches!((a.1, b.1), (Some(x), Some(y)) if x != y);
    !distinct_enums && super::decl::compatible(a.0, b.0)
}
