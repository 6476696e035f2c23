//! Edits that remove redundancy a person would delete by hand: an unused declaration, an
//! instruction that repeats an earlier one, a cast of a cast.
//!
//! Why: after the big deletions a reduced case still carries what the generator or the C
//! lowering wrote twice — three `globaladdr @g` of one global, `cast (cast x to i64) to
//! i32`, a `declare @printf` nothing calls any more. Each costs a line of the case and
//! none is the bug; llvm-reduce removes them with its "instructions", "operands skip" and
//! "function declarations" passes.
//!
//! Invariant: `merge duplicate` only merges instructions without side effects or memory
//! reads (address computations, arithmetic, casts, comparisons, copies, selects) within one
//! block, the earlier one defining the value, so the candidate has the same meaning as the
//! original; `skip cast` changes meaning on purpose (dropping an intermediate truncation)
//! and is kept only when the bug survives; `drop declaration` removes only declarations
//! nothing names.

use super::edits::remove_nth_replacing;
use compiler::ir::{GlobalInit, GlobalItem, Inst, IrModule, Operand};

/// True when `name` is called, has its address taken or initialises a global.
fn is_named(m: &IrModule, name: &str) -> bool {
    m.functions.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.insts.iter().any(|i| match i {
                Inst::Call {
                    callee: compiler::ir::Callee::Direct(n),
                    ..
                } => n == name,
                Inst::GlobalAddr { name: n, .. } => n == name,
                _ => false,
            })
        })
    }) || m.globals.iter().any(|g| match &g.init {
        GlobalInit::Items(items) => items
            .iter()
            .any(|it| matches!(it, GlobalItem::Ptr(n, _) if n == name)),
        GlobalInit::Zero => false,
    })
}

/// Removes declaration `index` when nothing names it.
pub fn drop_declaration(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let decl = m.decls.get(index)?;
    if is_named(m, &decl.name) {
        return Some(m.clone());
    }
    let mut out = m.clone();
    out.decls.remove(index);
    Some(out)
}

/// True for instructions whose value depends only on their operands.
fn is_pure(i: &Inst) -> bool {
    matches!(
        i,
        Inst::GlobalAddr { .. }
            | Inst::Gep { .. }
            | Inst::Bin { .. }
            | Inst::Un { .. }
            | Inst::Cmp { .. }
            | Inst::Cast { .. }
            | Inst::Copy { .. }
            | Inst::Select { .. }
    )
}

/// `b` with `a`'s destination: equal to `a` iff the two compute the same thing.
fn same_computation(a: &Inst, b: &Inst) -> bool {
    let (Some(da), Some(_)) = (a.dest(), b.dest()) else {
        return false;
    };
    let mut b = b.clone();
    if let Some(d) = b.dest_mut() {
        *d = da;
    }
    *a == b
}

/// Merge `index`, counted over the pure instructions that repeat an earlier one of their
/// block: the later one's uses take the earlier value, and the later one goes.
pub fn merge_duplicate(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    remove_nth_replacing(m, index, |insts, ii| {
        let later = &insts[ii];
        if !is_pure(later) {
            return None;
        }
        insts[..ii]
            .iter()
            .find(|e| same_computation(e, later))
            .and_then(Inst::dest)
            .map(Operand::Value)
    })
}

/// Skip `index`, counted over casts whose operand is another cast's value in the same
/// function: `cast A (cast X x to A) to B` becomes `cast X x to B` (or `x` itself, as a
/// copy, when X is B).
pub fn skip_cast(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        let inner_casts: Vec<(compiler::ir::Value, compiler::ir::IrType, Operand)> = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|i| match i {
                Inst::Cast {
                    dest, from, src, ..
                } => Some((*dest, *from, *src)),
                _ => None,
            })
            .collect();
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                let Inst::Cast {
                    src: Operand::Value(v),
                    ..
                } = inst
                else {
                    continue;
                };
                let Some(&(_, inner_from, inner_src)) = inner_casts.iter().find(|(d, _, _)| d == v)
                else {
                    continue;
                };
                if k > 0 {
                    k -= 1;
                    continue;
                }
                let mut out = m.clone();
                let slot = &mut out.functions[fi].blocks[bi].insts[ii];
                if let Inst::Cast { dest, to, .. } = *slot {
                    *slot = if inner_from == to {
                        Inst::Copy {
                            dest,
                            ty: to,
                            src: inner_src,
                        }
                    } else {
                        Inst::Cast {
                            dest,
                            from: inner_from,
                            src: inner_src,
                            to,
                        }
                    };
                }
                return Some(out);
            }
        }
    }
    None
}
