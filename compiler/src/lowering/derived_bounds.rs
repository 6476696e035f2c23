//! Sub-object bounds through derived pointers in the checked lowering: `int *p = s.a;
//! p[5]` is undefined like `s.a[5]` when `a` is an `int[4]` member (C99 6.5.6p8), even
//! though `s` goes on (`docs/ub-judge.md`).
//!
//! Why: a pointer is an allocation plus an offset in the oracle, so a pointer derived
//! from an array member is bounded only by the whole object. Pointers are plain integers
//! (they survive stores, casts and copies), so the bounds cannot travel in the value;
//! they travel with the *pointer variable* instead. When the checked lowering stores a
//! pointer derived from an array member (`s.a`, `s.a + k`, `&s.a[k]`, `p->a`) into a named
//! pointer variable, it tells the oracle the array's range (`__phi_ub.subobject`,
//! `__phi_ub.bind_bounds`); arithmetic on that variable (`p + k`, `p[k]`, `*p`, `p++`,
//! `p += k`, `p = p + k`) states which variable the result came from
//! (`__phi_ub.ptr_in_bounds`, `__phi_ub.access_in_bounds`, `__phi_ub.keep_bounds`).
//!
//! Invariants (never a false report):
//! - the oracle drops a variable's bounds at *any* write to its slot (a store through
//!   another pointer, `memcpy`, a plain assignment of another value) before the write
//!   happens, and at the end of its scope; only the lowering's own `p++`-like stores
//!   restore them, right after the store;
//! - only arrays of known length N > 0 that are members of a record (`Member` lvalues)
//!   bind bounds — the rule `s.a[i]` already follows, trailing one-element arrays
//!   reached through a pointer excepted (`trailing_arrays.rs`); inner rows of a multidimensional
//!   array (`int *p = m[0]`, the flat-walk idiom) and whole objects do not;
//! - a conversion (`(char *)s.a`, `(void *)s.a`) is not a derived pointer: it binds
//!   nothing, so byte access to the whole object stays defined.

use super::function::{FnLower, Res};
use super::lvalue::LVal;
use super::types::object_size;
use crate::frontend::ast::{Expr, ExprKind, LocalId};
use crate::frontend::types::Type;
use crate::ir::{IrType, Operand};
use crate::ub_intrinsics::UbIntrinsic;

/// The array member a pointer-valued `e` is directly derived from: `A` of `Decay(A)`
/// where `A` is a record member of array type with known length N > 0, with N.
fn member_array(e: &Expr) -> Option<(&Expr, u64)> {
    let ExprKind::Decay(array) = &e.kind else {
        return None;
    };
    let ExprKind::Member { .. } = &array.kind else {
        return None;
    };
    match &array.ty.ty {
        Type::Array(_, Some(n)) if *n > 0 => Some((array, *n)),
        _ => None,
    }
}

impl FnLower<'_, '_> {
    /// The slot of `e` when it names a pointer variable of this frame.
    fn pointer_variable(&self, e: &Expr) -> Option<(LocalId, Operand)> {
        let ExprKind::Local(id) = e.kind else {
            return None;
        };
        if !matches!(e.ty.ty, Type::Pointer(_)) {
            return None;
        }
        match self.locals.get(id.0 as usize)? {
            slot @ Operand::Value(_) => Some((id, *slot)),
            Operand::Const(_) => None,
        }
    }

    /// Lowers pointer `e` when it is derived from an array member (`s.a`, `s.a + k`,
    /// `&s.a[k]`): its value, the array's address and its size in bytes.
    fn derived_from_member(&mut self, e: &Expr) -> Res<Option<(Operand, Operand, u64)>> {
        // `&s.a[k]` is `&*(s.a + k)`: the same address as `s.a + k`.
        let e = match &e.kind {
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Deref(p) if matches!(p.kind, ExprKind::PtrAdd { .. }) => p,
                _ => return Ok(None),
            },
            _ => e,
        };
        let (array, index, elem_size) = match &e.kind {
            ExprKind::Decay(_) => match member_array(e) {
                Some((array, _)) => (array, None, 0),
                None => return Ok(None),
            },
            ExprKind::PtrAdd {
                ptr,
                index,
                elem_size,
            } => match member_array(ptr) {
                Some((array, _)) => (array, Some(index), *elem_size),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let Type::Array(_, Some(n)) = &array.ty.ty else {
            return Ok(None);
        };
        // gcc handles a trailing one-element array like a flexible one (`trailing_arrays`).
        if super::trailing_arrays::is_trailing_one_element(&self.ctx.unit.records, array) {
            return Ok(None);
        }
        let n = *n;
        let bytes = object_size(self.ctx, &array.ty.ty).map_err(|m| self.err(array.loc, m))?;
        let lo = self.address_of(array)?;
        let value = match index {
            None => lo,
            Some(index) => {
                let (i, it) = self.scalar(index)?;
                self.check_index(i, it, n, true);
                self.ptr_offset(lo, i, it, elem_size)
            }
        };
        Ok(Some((value, lo, bytes)))
    }

    /// `lhs = rhs` where `lhs` is a pointer variable and `rhs` is derived from an array
    /// member: stores it and binds the member's bounds. `None`: not this case (nothing
    /// was lowered).
    pub fn assign_derived_pointer(&mut self, lhs: &Expr, rhs: &Expr) -> Res<Option<Operand>> {
        if !self.ub_checks() {
            return Ok(None);
        }
        let Some((_, slot)) = self.pointer_variable(lhs) else {
            return Ok(None);
        };
        let Some((value, lo, bytes)) = self.derived_from_member(rhs)? else {
            return Ok(None);
        };
        self.store(IrType::Ptr, value, slot);
        self.note_store_type(&LVal::Addr(slot), lhs, IrType::Ptr);
        self.bind_derived(slot, lo, bytes);
        Ok(Some(value))
    }

    /// The initialisation of pointer variable `id` (slot `slot`) with `init`, when
    /// `init` is derived from an array member. `false`: not this case (nothing lowered).
    pub fn init_derived_pointer(&mut self, id: LocalId, slot: Operand, init: &Expr) -> Res<bool> {
        if !self.ub_checks() || !matches!(slot, Operand::Value(_)) {
            return Ok(false);
        }
        let ty = match self.def.locals.get(id.0 as usize) {
            Some(local) if matches!(local.ty.ty, Type::Pointer(_)) => local.ty.ty.clone(),
            _ => return Ok(false),
        };
        let Some((value, lo, bytes)) = self.derived_from_member(init)? else {
            return Ok(false);
        };
        self.store(IrType::Ptr, value, slot);
        self.note_init_type(slot, &ty, IrType::Ptr);
        self.bind_derived(slot, lo, bytes);
        Ok(true)
    }

    fn bind_derived(&mut self, slot: Operand, lo: Operand, bytes: u64) {
        let Ok(bytes) = i64::try_from(bytes) else {
            return;
        };
        let len = super::builder::exact(IrType::I64, bytes);
        self.intrinsic(
            UbIntrinsic::SubObject,
            vec![(IrType::Ptr, lo), (IrType::I64, len)],
        );
        self.intrinsic(UbIntrinsic::BindBounds, vec![(IrType::Ptr, slot)]);
    }

    /// After a store of `new` to pointer variable `target` computed from its own value
    /// (`p++`, `p += k`; `p = p + k` when `rhs` is given): its bounds hold again, and
    /// `new` must be inside them.
    pub fn keep_derived_bounds(&mut self, target: &Expr, rhs: Option<&Expr>, new: Operand) {
        if !self.ub_checks() {
            return;
        }
        let Some((id, slot)) = self.pointer_variable(target) else {
            return;
        };
        if let Some(rhs) = rhs {
            let ExprKind::PtrAdd { ptr, .. } = &rhs.kind else {
                return;
            };
            if !matches!(ptr.kind, ExprKind::Local(base) if base == id) {
                return;
            }
        }
        self.intrinsic(UbIntrinsic::KeepBounds, vec![(IrType::Ptr, slot)]);
        self.intrinsic(
            UbIntrinsic::PtrInBounds,
            vec![(IrType::Ptr, slot), (IrType::Ptr, new)],
        );
    }

    /// `r` was computed from pointer expression `p` (`p + k`: an address; `*p`, `p[k]`:
    /// an access when `access`): when `p` is, or offsets, a pointer variable, `r` must
    /// stay inside the bounds that variable's pointer carries.
    pub fn check_derived_pointer(&mut self, p: &Expr, r: Operand, access: bool) {
        if !self.ub_checks() {
            return;
        }
        let base = match &p.kind {
            ExprKind::PtrAdd { ptr, .. } if access => ptr,
            _ => p,
        };
        let Some((_, slot)) = self.pointer_variable(base) else {
            return;
        };
        let k = if access {
            UbIntrinsic::AccessInBounds
        } else {
            UbIntrinsic::PtrInBounds
        };
        self.intrinsic(k, vec![(IrType::Ptr, slot), (IrType::Ptr, r)]);
    }
}
