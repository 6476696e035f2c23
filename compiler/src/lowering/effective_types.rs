//! Strict aliasing (C11 6.5p6,7) in the checked lowering: effective types recorded on
//! typed stores and checked on typed loads (`docs/ub-judge.md`).
//!
//! Why: reading an `int` through a `short *` (or a `long` through a `long long *`, a
//! pointer through a `long *`) is undefined, and gcc and clang optimise on it; the IR
//! cannot see it, since a load is only a size. The checked lowering states the C type
//! class of an access: after a store through a scalar lvalue, `__phi_ub.store_type` gives
//! the stored bytes that class as their effective type; before a load, `__phi_ub.load_type`
//! reports `StrictAliasing` when a byte read has another class. The oracle keeps the class
//! in each byte's initialisation mark (`oracle::interp::memory`), so it costs no memory.
//!
//! Invariants (never a false report):
//! - a class stands for a type up to qualifiers and signedness (6.5p7 allows the signed
//!   or unsigned variant): `_Bool`, `short`, `int` (and enums), `long`, `long long`,
//!   pointers (all pointer types are one class: not judged), `float`, `double`;
//!   character types have no class and are never checked nor recorded (6.5p7 allows
//!   them everywhere);
//! - accesses through a union member (`u.m`, `p->m` of a union, at any level of the
//!   lvalue) and bit-fields are never checked nor recorded; an object with a union
//!   anywhere in its type is marked untyped (`__phi_ub.untyped`), so pointers derived
//!   from its members never see a type either;
//! - bytes written any other way (a character store, `memcpy` and struct copies, libc,
//!   zero initialisation) have no effective type and match every load;
//! - a read of a named scalar object (`x`, not through a pointer) is not checked: its
//!   type is the declared one, and a mismatch there needs a store through a pointer of
//!   another type into a declared object, which is not judged (a missed report).

use super::function::FnLower;
use super::lvalue::LVal;
use crate::frontend::ast::{Expr, ExprKind, TranslationUnit};
use crate::frontend::types::{FloatKind, IntKind, RecordKind, RecordTable, Type};
use crate::frontend::Loc;
use crate::ir::{Callee, Inst, IrModule, IrType, Operand, Value};
use crate::ub_intrinsics::UbIntrinsic;

/// The effective-type class of a scalar type (the tag the oracle stores per byte, >= 2),
/// or `None` for character types and anything not judged.
pub fn type_class(ty: &Type) -> Option<u8> {
    Some(match ty {
        Type::Bool => 2,
        Type::Int(IntKind::Short | IntKind::UShort) => 3,
        Type::Int(IntKind::Int | IntKind::UInt) => 4,
        Type::Int(IntKind::Long | IntKind::ULong) => 5,
        Type::Int(IntKind::LongLong | IntKind::ULongLong) => 6,
        Type::Pointer(_) => 7,
        Type::Float(FloatKind::Float) => 8,
        Type::Float(FloatKind::Double) => 9,
        _ => return None,
    })
}

/// True when an object of type `ty` has a union somewhere in it.
pub fn contains_union(records: &RecordTable, ty: &Type) -> bool {
    match ty {
        Type::Array(elem, _) => contains_union(records, &elem.ty),
        Type::Record(id) => records.records.get(id.0 as usize).is_some_and(|def| {
            def.kind == RecordKind::Union
                || def.fields.iter().any(|f| contains_union(records, &f.ty.ty))
        }),
        _ => false,
    }
}

/// True when lvalue `e` designates (part of) a union member: some `.m` or `->m` on its
/// path selects a member of a union.
fn through_union(records: &RecordTable, e: &Expr) -> bool {
    let mut e = e;
    loop {
        match &e.kind {
            ExprKind::Member { base, record, .. } => {
                let union = records
                    .records
                    .get(record.0 as usize)
                    .is_none_or(|d| d.kind == RecordKind::Union);
                if union {
                    return true;
                }
                e = base;
            }
            // `*p`, `a[i]`: an array element continues the path (`u.a[1]`); a pointer
            // ends it (`p->m` is `Member { base: Deref(p) }`, already looked at).
            ExprKind::Deref(p) => match &p.kind {
                ExprKind::PtrAdd { ptr, .. } => match &ptr.kind {
                    ExprKind::Decay(array) => e = array,
                    _ => return false,
                },
                ExprKind::Decay(array) => e = array,
                _ => return false,
            },
            _ => return false,
        }
    }
}

impl FnLower<'_, '_> {
    /// The intrinsic argument `class | size << 8` for an access of IR type `t` through
    /// lvalue `e`, when the access is judged.
    fn access_code(&self, e: &Expr, t: IrType) -> Option<i64> {
        if !self.ub_checks() {
            return None;
        }
        let class = type_class(&e.ty.ty)?;
        if through_union(&self.ctx.unit.records, e) {
            return None;
        }
        let size = i64::from(t.size(self.ctx.ptr_bytes));
        Some(i64::from(class) | size << 8)
    }

    /// Before loading scalar lvalue `e` (of IR type `t`) from `lv`.
    pub fn check_load_type(&mut self, lv: &LVal, e: &Expr, t: IrType) {
        let LVal::Addr(addr) = *lv else { return };
        if matches!(e.kind, ExprKind::Local(_) | ExprKind::Global(_)) {
            return;
        }
        if let Some(code) = self.access_code(e, t) {
            self.type_intrinsic(UbIntrinsic::LoadType, addr, code);
        }
    }

    /// After storing scalar lvalue `e` (of IR type `t`) to `lv`.
    pub fn note_store_type(&mut self, lv: &LVal, e: &Expr, t: IrType) {
        let LVal::Addr(addr) = *lv else { return };
        if let Some(code) = self.access_code(e, t) {
            self.type_intrinsic(UbIntrinsic::StoreType, addr, code);
        }
    }

    /// After initialising a scalar object of C type `ty` (IR type `t`) at `addr` (a
    /// declaration's own object or an element or member of it, never through a union:
    /// a union-holding object is untyped anyway).
    pub fn note_init_type(&mut self, addr: Operand, ty: &Type, t: IrType) {
        if !self.ub_checks() {
            return;
        }
        if let Some(class) = type_class(ty) {
            let size = i64::from(t.size(self.ctx.ptr_bytes));
            self.type_intrinsic(UbIntrinsic::StoreType, addr, i64::from(class) | size << 8);
        }
    }

    fn type_intrinsic(&mut self, k: UbIntrinsic, addr: Operand, code: i64) {
        let code = super::builder::exact(IrType::I64, code);
        self.intrinsic(k, vec![(IrType::Ptr, addr), (IrType::I64, code)]);
    }

    /// In the prologue: every local whose type holds a union is untyped.
    pub fn mark_untyped_locals(&mut self) {
        if !self.ub_checks() {
            return;
        }
        let slots: Vec<Operand> = self
            .def
            .locals
            .iter()
            .zip(&self.locals)
            .filter(|(local, slot)| {
                matches!(slot, Operand::Value(_))
                    && contains_union(&self.ctx.unit.records, &local.ty.ty)
            })
            .map(|(_, slot)| *slot)
            .collect();
        for slot in slots {
            self.intrinsic(UbIntrinsic::Untyped, vec![(IrType::Ptr, slot)]);
        }
    }
}

/// Marks every global of the module whose type holds a union untyped, at the entry of
/// `main` (after its prologue, like `fn_types::register_function_types`), declaring the
/// intrinsic. Returns where the instructions went (index in the entry block, count) and
/// `main`'s position, for the position table; `None` when there is nothing to mark.
pub fn mark_untyped_globals(
    unit: &TranslationUnit,
    module: &mut IrModule,
) -> Option<(usize, usize, Loc)> {
    let names: Vec<String> = unit
        .globals
        .iter()
        .filter(|g| !g.is_extern_only && contains_union(&unit.records, &g.ty.ty))
        .filter(|g| module.globals.iter().any(|m| m.name == g.name))
        .map(|g| g.name.clone())
        .collect();
    if names.is_empty() {
        return None;
    }
    let main = module.functions.iter_mut().find(|f| f.name == "main")?;
    let main_loc = unit.functions.iter().find(|d| d.name == "main")?.loc;
    let mut code = Vec::with_capacity(2 * names.len());
    for (next, name) in (main.value_bound()..).zip(names) {
        let dest = Value(next);
        code.push(Inst::GlobalAddr { dest, name });
        code.push(Inst::Call {
            dest: None,
            ret: IrType::Void,
            callee: Callee::Direct(UbIntrinsic::Untyped.name().to_string()),
            args: vec![(IrType::Ptr, Operand::Value(dest))],
            named: None,
        });
    }
    let count = code.len();
    let entry = main.blocks.first_mut()?;
    let index = super::fn_types::insert_after_prologue(entry, code);
    let decl = UbIntrinsic::Untyped.decl();
    if !module.decls.iter().any(|d| d.name == decl.name) {
        module.decls.push(decl);
    }
    Some((index, count, main_loc))
}
