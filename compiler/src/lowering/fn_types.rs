//! Function types in the checked lowering: a call through a pointer of the wrong C type
//! (C99 6.3.2.3p8, 6.5.2.2p9), also when the IR signatures agree (`int(int)` called as
//! `int(unsigned)`, `void(int *)` as `void(long *)`), which the oracle's IR-level
//! signature check cannot see.
//!
//! Why: the oracle knows functions only by their IR signature. The checked lowering tells
//! it each defined function's C type (`__phi_ub.fn_type(@f, h)` at the entry of `main`,
//! before anything can call through a pointer) and the C type every indirect call uses
//! (`__phi_ub.call_type(p, h)` just before the call, after the callee and every argument
//! are evaluated: the call itself is what is undefined, C11 6.5.2.2p9,10, so an argument
//! that exits first keeps the program defined, as c-torture's call-trap-1.c requires);
//! the oracle reports `BadCall` when they differ.
//!
//! Invariants (never a false report):
//! - `h` is a hash of a *canonical* type in which compatible types (C99 6.7.5.3p15) are
//!   equal: top-level qualifiers of parameters and of the result are dropped; array
//!   lengths are dropped (`int (*)[]` is compatible with `int (*)[4]`); a nested function
//!   type is reduced to "a function" (an unprototyped one is compatible with many
//!   prototypes). So two types with different hashes are incompatible (up to hash
//!   collisions, which only hide a report);
//! - an unprototyped type (`int f()`) is unknown (hash 0) and is never compared;
//! - functions the module does not define (libc) are never registered, so calls to them
//!   are never judged here.

use super::function::FnLower;
use crate::frontend::ast::TranslationUnit;
use crate::frontend::types::{FunctionType, Type};
use crate::frontend::Loc;
use crate::ir::{BasicBlock, Callee, Inst, IrModule, IrType, Operand, Value};
use crate::ub_intrinsics::UbIntrinsic;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The hash of `ty`'s canonical form; 0 when the type is unknown (no prototype).
pub fn fn_type_hash(ty: &FunctionType) -> u64 {
    if !ty.has_prototype {
        return 0;
    }
    let mut h = DefaultHasher::new();
    canonical_object(&ty.ret.ty, &mut h);
    ty.params.len().hash(&mut h);
    for p in &ty.params {
        canonical_object(&p.ty, &mut h);
    }
    ty.variadic.hash(&mut h);
    h.finish().max(1)
}

/// Feeds the canonical form of an object or result type (qualifiers of `t` itself are
/// not part of it; those of what it points to are).
fn canonical_object(t: &Type, h: &mut DefaultHasher) {
    match t {
        Type::Void => 0u8.hash(h),
        Type::Bool => 1u8.hash(h),
        Type::Int(k) => (2u8, k).hash(h),
        Type::Float(k) => (3u8, k).hash(h),
        Type::Pointer(q) => {
            (4u8, q.is_const, q.is_volatile).hash(h);
            canonical_object(&q.ty, h);
        }
        Type::Array(q, _) => {
            (5u8, q.is_const, q.is_volatile).hash(h);
            canonical_object(&q.ty, h);
        }
        Type::Function(_) => 6u8.hash(h),
        Type::Record(id) => (7u8, id).hash(h),
    }
}

impl FnLower<'_, '_> {
    /// Before a call through `fp` whose C type is `ty`, once its arguments are evaluated
    /// (checked lowering only).
    pub fn check_call_type(&mut self, fp: Operand, ty: &FunctionType) {
        let h = fn_type_hash(ty);
        if self.ub_checks() && h != 0 {
            self.intrinsic(
                UbIntrinsic::CallType,
                vec![(IrType::Ptr, fp), (IrType::I64, i64_operand(h))],
            );
        }
    }
}

fn i64_operand(h: u64) -> Operand {
    super::builder::exact(IrType::I64, h as i64)
}

/// Registers the C type of every function the module defines at the entry of `main`
/// (after its `paramref`s and `alloca`s), declaring the intrinsic. Does nothing
/// when the module has no `main`. Returns where the instructions went (index in the
/// entry block, count) and `main`'s position, for the position table.
pub fn register_function_types(
    unit: &TranslationUnit,
    module: &mut IrModule,
) -> Option<(usize, usize, Loc)> {
    let known: Vec<(String, u64)> = module
        .functions
        .iter()
        .filter_map(|f| {
            let def = unit.functions.iter().find(|d| d.name == f.name)?;
            let h = fn_type_hash(&def.ty);
            (h != 0).then(|| (f.name.clone(), h))
        })
        .collect();
    let main = module.functions.iter_mut().find(|f| f.name == "main")?;
    let main_loc = unit.functions.iter().find(|d| d.name == "main")?.loc;
    if known.is_empty() {
        return None;
    }
    let mut code = Vec::with_capacity(2 * known.len());
    for (next, (name, h)) in (main.value_bound()..).zip(known) {
        let dest = Value(next);
        code.push(Inst::GlobalAddr { dest, name });
        code.push(Inst::Call {
            dest: None,
            ret: IrType::Void,
            callee: Callee::Direct(UbIntrinsic::FnType.name().to_string()),
            args: vec![
                (IrType::Ptr, Operand::Value(dest)),
                (IrType::I64, i64_operand(h)),
            ],
            named: None,
        });
    }
    let count = code.len();
    let entry = main.blocks.first_mut()?;
    let index = insert_after_prologue(entry, code);
    let decl = UbIntrinsic::FnType.decl();
    if !module.decls.iter().any(|d| d.name == decl.name) {
        module.decls.push(decl);
    }
    Some((index, count, main_loc))
}

/// Inserts `code` after the entry block's last `paramref` or `alloca` (the parameters'
/// homes are written in between, and a call must not come before a `paramref`).
pub(super) fn insert_after_prologue(entry: &mut BasicBlock, code: Vec<Inst>) -> usize {
    let at = entry
        .insts
        .iter()
        .rposition(|i| matches!(i, Inst::ParamRef { .. } | Inst::Alloca { .. }))
        .map_or(0, |i| i + 1);
    entry.insts.splice(at..at, code);
    at
}
