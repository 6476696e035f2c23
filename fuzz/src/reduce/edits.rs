//! The reducer's edits: each takes a module and an index and returns a smaller (or
//! simpler) candidate, or `None` when the index is past the last place it applies.
//!
//! Invariant: an edit never produces IR that breaks the verifier's *structural* rules on
//! its own account — removed values are replaced by zero constants of their type, removed
//! edges take their phi entries with them, blocks left unreachable are deleted with every
//! phi entry naming them — but candidates are verified anyway by the differential (a
//! candidate that fails at `lowered` has another signature and is rejected).

use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{
    BlockId, Callee, Inst, IrConst, IrFunction, IrModule, IrType, Operand, Terminator, Value,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// One kind of edit; `apply(module, entry, index)`.
pub type Edit = fn(&IrModule, &str, usize) -> Option<IrModule>;

/// Every edit, cheapest-and-biggest first. The reducer runs them to a fixpoint, so a
/// reduced case is 1-minimal for this set: no single edit at any place keeps the bug.
pub const EDITS: [(&str, Edit); 14] = [
    (
        "drop instruction chunk",
        super::chunks::drop_instruction_chunk,
    ),
    ("drop function", drop_function),
    ("drop parameter", drop_parameter),
    ("redirect branch", redirect_branch),
    ("drop instruction", drop_instruction),
    (
        "replace by operand",
        super::operand_edits::replace_by_operand,
    ),
    (
        "forward store to load",
        super::operand_edits::forward_store_to_load,
    ),
    ("merge duplicate", super::simplify_edits::merge_duplicate),
    ("skip cast", super::simplify_edits::skip_cast),
    ("operand to constant", operand_to_constant),
    ("shrink constant", shrink_constant),
    ("drop global", drop_global),
    ("drop declaration", super::simplify_edits::drop_declaration),
    ("merge blocks", merge_blocks),
];

/// Replaces every use of `v` in `f` by `with`.
pub(super) fn replace_uses(f: &mut IrFunction, v: Value, with: Operand) {
    for b in &mut f.blocks {
        for i in &mut b.insts {
            i.for_each_operand_mut(|op| {
                if *op == Operand::Value(v) {
                    *op = with;
                }
            });
        }
        b.term.for_each_operand_mut(|op| {
            if *op == Operand::Value(v) {
                *op = with;
            }
        });
    }
}

/// The `index`-th instruction, in module order (functions, blocks, instructions), for
/// which `pick(block's instructions, position)` gives a replacement operand; returns
/// `m` without it, every use of its value taken by that operand.
pub(super) fn remove_nth_replacing(
    m: &IrModule,
    index: usize,
    mut pick: impl FnMut(&[Inst], usize) -> Option<Operand>,
) -> Option<IrModule> {
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        for (bi, b) in f.blocks.iter().enumerate() {
            for ii in 0..b.insts.len() {
                let Some(with) = pick(&b.insts, ii) else {
                    continue;
                };
                if k > 0 {
                    k -= 1;
                    continue;
                }
                let mut out = m.clone();
                let func = &mut out.functions[fi];
                let removed = func.blocks[bi].insts.remove(ii);
                replace_uses(func, removed.dest()?, with);
                return Some(out);
            }
        }
    }
    None
}

/// Deletes blocks the entry cannot reach and phi entries naming non-predecessors.
pub fn prune_cfg(f: &mut IrFunction) {
    let cfg = CfgAnalysis::build(f);
    let keep: Vec<bool> = (0..f.blocks.len()).map(|b| cfg.is_reachable(b)).collect();
    let mut preds: FxHashMap<BlockId, FxHashSet<BlockId>> = FxHashMap::default();
    for (i, b) in f.blocks.iter().enumerate() {
        if keep[i] {
            b.term.for_each_successor(|s| {
                preds.entry(s).or_default().insert(b.label);
            });
        }
    }
    let mut i = 0;
    f.blocks.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    for b in &mut f.blocks {
        let label = b.label;
        for inst in &mut b.insts {
            if let Inst::Phi { incoming, .. } = inst {
                let ps = preds.get(&label);
                incoming.retain(|(_, p)| ps.is_some_and(|s| s.contains(p)));
            }
        }
    }
}

fn drop_function(m: &IrModule, entry: &str, index: usize) -> Option<IrModule> {
    let victims: Vec<usize> = (0..m.functions.len())
        .filter(|&i| m.functions[i].name != entry)
        .collect();
    let victim = m.functions[*victims.get(index)?].name.clone();
    let mut out = m.clone();
    out.functions.retain(|f| f.name != victim);
    for f in &mut out.functions {
        let mut replaced = Vec::new();
        for b in &mut f.blocks {
            b.insts.retain_mut(|i| match i {
                Inst::Call {
                    dest,
                    ret,
                    callee: Callee::Direct(name),
                    ..
                } if *name == victim => {
                    if let Some(d) = dest {
                        replaced.push((*d, *ret));
                        *i = Inst::Copy {
                            dest: *d,
                            ty: *ret,
                            src: Operand::Const(IrConst::zero(*ret)),
                        };
                        true
                    } else {
                        false
                    }
                }
                Inst::GlobalAddr { name, .. } if *name == victim => true,
                _ => true,
            });
        }
    }
    Some(out)
}

fn redirect_branch(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    // Enumerate (function, block, choice) over branches with a choice to make.
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        for (bi, b) in f.blocks.iter().enumerate() {
            let choices = match &b.term {
                Terminator::CondBr { .. } => 2,
                Terminator::Switch { cases, .. } => 1 + cases.len(),
                _ => 0,
            };
            if k >= choices {
                k -= choices;
                continue;
            }
            let mut out = m.clone();
            let term = &mut out.functions[fi].blocks[bi].term;
            let new = match term {
                Terminator::CondBr {
                    if_true, if_false, ..
                } => Terminator::Br(if k == 0 { *if_true } else { *if_false }),
                Terminator::Switch { default, cases, .. } => {
                    if k == 0 {
                        Terminator::Br(*default)
                    } else {
                        cases.remove(k - 1);
                        term.clone()
                    }
                }
                _ => unreachable!("counted above"),
            };
            *term = new;
            prune_cfg(&mut out.functions[fi]);
            return Some(out);
        }
    }
    None
}

fn drop_instruction(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        for (bi, b) in f.blocks.iter().enumerate() {
            if k >= b.insts.len() {
                k -= b.insts.len();
                continue;
            }
            let mut out = m.clone();
            let func = &mut out.functions[fi];
            let inst = func.blocks[bi].insts.remove(k);
            if let Some(d) = inst.dest() {
                let ty = inst.result_type();
                replace_uses(func, d, Operand::Const(IrConst::zero(ty)));
            }
            return Some(out);
        }
    }
    None
}

/// Visits every operand slot of the module in a fixed order with its context type.
fn nth_operand(m: &mut IrModule, mut k: usize, f: impl FnOnce(&mut Operand, IrType)) -> bool {
    for func in &mut m.functions {
        for b in &mut func.blocks {
            for i in &mut b.insts {
                let mut types = Vec::new();
                i.for_each_operand_typed(|_, t| types.push(t));
                if k < types.len() {
                    let mut n = 0;
                    let mut f = Some(f);
                    i.for_each_operand_mut(|op| {
                        if n == k {
                            if let Some(f) = f.take() {
                                f(op, types[k]);
                            }
                        }
                        n += 1;
                    });
                    return true;
                }
                k -= types.len();
            }
            let mut types = Vec::new();
            b.term.for_each_operand_typed(|_, t| types.push(t));
            if k < types.len() {
                let ty = types[k];
                let mut f = Some(f);
                b.term.for_each_operand_mut(|op| {
                    if let Some(f) = f.take() {
                        f(op, ty);
                    }
                });
                return true;
            }
            k -= types.len();
        }
    }
    false
}

fn operand_to_constant(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let mut out = m.clone();
    let mut changed = false;
    let exists = nth_operand(&mut out, index, |op, ty| {
        if matches!(op, Operand::Value(_)) && ty.is_scalar() {
            *op = Operand::Const(IrConst::zero(ty));
            changed = true;
        }
    });
    if !exists {
        return None;
    }
    Some(if changed { out } else { m.clone() })
}

fn shrink_constant(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let mut out = m.clone();
    let mut changed = false;
    let exists = nth_operand(&mut out, index, |op, _| {
        if let Operand::Const(c) = op {
            if c.bits != 0 {
                let smaller = if c.bits.unsigned_abs() <= 1 {
                    0
                } else {
                    c.bits / 2
                };
                *op = Operand::Const(IrConst::new(c.ty, smaller));
                changed = true;
            }
        }
    });
    if !exists {
        return None;
    }
    Some(if changed { out } else { m.clone() })
}

fn drop_global(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let name = m.globals.get(index)?.name.clone();
    let used = m.functions.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i, Inst::GlobalAddr { name: n, .. } if *n == name))
        })
    });
    if used {
        return Some(m.clone());
    }
    let mut out = m.clone();
    out.globals.remove(index);
    Some(out)
}

/// Merges a block ending in `br B` into it when B has that block as its only
/// predecessor and no phis.
fn merge_blocks(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        if k >= f.blocks.len() {
            k -= f.blocks.len();
            continue;
        }
        let Terminator::Br(target) = f.blocks[k].term else {
            return Some(m.clone());
        };
        let cfg = CfgAnalysis::build(f);
        let Some(&ti) = cfg.label_to_idx.get(&target) else {
            return Some(m.clone());
        };
        if ti == k || ti == 0 || cfg.preds.len(ti) != 1 || f.blocks[ti].phi_count() > 0 {
            return Some(m.clone());
        }
        let mut out = m.clone();
        let func = &mut out.functions[fi];
        let moved = func.blocks[ti].clone();
        let me = func.blocks[k].label;
        func.blocks[k].insts.extend(moved.insts);
        func.blocks[k].term = moved.term;
        func.blocks.remove(ti);
        // Successors' phis named the moved block; they now come from the merged one.
        for b in &mut func.blocks {
            for i in &mut b.insts {
                if let Inst::Phi { incoming, .. } = i {
                    for (_, p) in incoming.iter_mut() {
                        if *p == moved.label {
                            *p = me;
                        }
                    }
                }
            }
        }
        return Some(out);
    }
    None
}

/// Removes parameter `k` of a non-entry, non-variadic function that nothing takes the
/// address of: its `paramref`s become zero constants, higher `paramref` indices shift
/// down, and every direct call drops the matching argument.
fn drop_parameter(m: &IrModule, entry: &str, index: usize) -> Option<IrModule> {
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        if f.name == entry || f.variadic {
            continue;
        }
        if k >= f.params.len() {
            k -= f.params.len();
            continue;
        }
        let address_taken = m.functions.iter().any(|g| {
            g.blocks.iter().any(|b| {
                b.insts
                    .iter()
                    .any(|i| matches!(i, Inst::GlobalAddr { name, .. } if *name == f.name))
            })
        }) || m.globals.iter().any(|g| match &g.init {
            compiler::ir::GlobalInit::Items(items) => items
                .iter()
                .any(|it| matches!(it, compiler::ir::GlobalItem::Ptr(n, _) if *n == f.name)),
            compiler::ir::GlobalInit::Zero => false,
        });
        if address_taken {
            return Some(m.clone());
        }
        let name = f.name.clone();
        let mut out = m.clone();
        let func = &mut out.functions[fi];
        func.params.remove(k);
        for b in &mut func.blocks {
            for i in &mut b.insts {
                if let Inst::ParamRef { dest, index, ty: t } = i {
                    if *index as usize == k {
                        *i = Inst::Copy {
                            dest: *dest,
                            ty: *t,
                            src: Operand::Const(IrConst::zero(*t)),
                        };
                    } else if *index as usize > k {
                        *index -= 1;
                    }
                }
            }
        }
        for g in &mut out.functions {
            for b in &mut g.blocks {
                for i in &mut b.insts {
                    if let Inst::Call {
                        callee: Callee::Direct(n),
                        args,
                        ..
                    } = i
                    {
                        if *n == name && k < args.len() {
                            args.remove(k);
                        }
                    }
                }
            }
        }
        return Some(out);
    }
    None
}
