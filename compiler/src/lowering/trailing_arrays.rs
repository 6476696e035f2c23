//! Trailing one-element array members in the checked lowering: `p->data[4]` of
//! `struct { int n; char data[1]; }` is treated as gcc treats it, like a flexible array
//! member, so the judge checks it against the allocation only, not against the length 1.
//!
//! Why: ISO C makes the access undefined (C11 6.5.6p8, the "struct hack"), but gcc
//! documents it as handled: "Although using one-element arrays this way is discouraged,
//! GCC handles accesses to trailing one-element array members analogously to zero-length
//! arrays" (gcc manual, "Arrays of Length Zero"), and old C code (c-torture's
//! 20080222-1.c, pr41395-1.c, pr41395-2.c, pr41463.c) relies on it. phicc never uses the
//! array's length either: an element's address is a byte `gep` from the array's address
//! (`lowering/expr.rs`, `ptr_offset`), the IR knows no sub-object, and the oracle judges
//! every access against its allocation (`OutOfBounds` past the end of the `malloc`ed or
//! declared object stays reported, at every stage). So following gcc here cannot hide a
//! phicc miscompile (`docs/ub-judge.md`, "Trailing one-element arrays").
//!
//! Invariants:
//! - only arrays of length exactly 1 (length 0 and unknown lengths are never checked
//!   anyway) that are a *trailing* member: the last member of their struct, or a member
//!   of a union, reached through a pointer (`p->a`, `(*p).a`) or through a member that is
//!   itself trailing by the same rule (`p->u.vec`, `p->vec.a` with `vec` a union
//!   member) — the struct-hack idiom, an object allocated or cast to the struct's type.
//!   A declared object (`s.a`, `arr[k].a`, `(&s)->a`) has its declared size and stays
//!   checked, and so does `p->inner.a[1]` where `inner` is not the last member;
//! - every other array keeps its index check (`IndexOutOfBounds`) and its derived bounds.

use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::types::{RecordKind, RecordTable, Type};

/// True when `array` (an lvalue of array type) is a trailing one-element array member,
/// which gcc handles like a flexible array member.
pub fn is_trailing_one_element(records: &RecordTable, array: &Expr) -> bool {
    matches!(array.ty.ty, Type::Array(_, Some(1))) && is_trailing_member(records, array)
}

/// True when `e` is a `Member` that ends its record (the last member of a struct, any
/// member of a union) and whose base is not a member or is a trailing member itself.
fn is_trailing_member(records: &RecordTable, e: &Expr) -> bool {
    let ExprKind::Member {
        base,
        record,
        field,
    } = &e.kind
    else {
        return false;
    };
    let Some(def) = records.records.get(record.0 as usize) else {
        return false;
    };
    let ends_record = match def.kind {
        RecordKind::Union => true,
        RecordKind::Struct => *field + 1 == def.fields.len(),
    };
    ends_record
        && match &base.kind {
            ExprKind::Member { .. } => is_trailing_member(records, base),
            ExprKind::Deref(p) => !designates_declared_object(p),
            _ => false,
        }
}

/// True when pointer `p` visibly points into a declared object: `&x`, or an element of a
/// declared array (`arr[k]` is `*(arr + k)`). Such an object has its declared size, so
/// the struct hack does not apply to it.
fn designates_declared_object(p: &Expr) -> bool {
    match &p.kind {
        ExprKind::AddrOf(_) => true,
        ExprKind::PtrAdd { ptr, .. } => matches!(ptr.kind, ExprKind::Decay(_)),
        _ => false,
    }
}

/// The length the checked lowering holds an index into the array `e` decays from to:
/// `expr::decayed_array_len`, except for a trailing one-element array member.
pub fn checked_array_len(records: &RecordTable, e: &Expr) -> Option<u64> {
    let len = super::expr::decayed_array_len(e)?;
    match &e.kind {
        ExprKind::Decay(array) if is_trailing_one_element(records, array) => None,
        _ => Some(len),
    }
}
