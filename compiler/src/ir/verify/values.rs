//! Value rules: definitions, operand types and, in SSA mode, dominance.
//!
//! Why: a value's type is its defining instruction's result type, and every reader must
//! agree with it; in SSA form a value must also be computed before anything reads it on
//! every path, which is what dominance guarantees.
//!
//! Invariants: two linear passes — definitions first, then uses — with one table lookup
//! per use (a flat table indexed by value number when the numbers are dense enough, a
//! hash map otherwise, so memory stays linear in the function's size whatever its value
//! numbers) and O(1) dominance queries ([`CfgAnalysis::dominates`]). Uses in unreachable
//! blocks, and phi entries for unreachable predecessors, are exempt from dominance (the
//! entry never reaches them) but not from the other rules.

use super::{At, VerifyMode};
use crate::ir::analysis::CfgAnalysis;
use crate::ir::{BlockId, Inst, IrFunction, IrType, Operand, Terminator, Value};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// Where a value is (first) defined, and its type.
#[derive(Clone, Copy, Debug)]
struct Def {
    block: usize,
    inst: usize,
    ty: IrType,
}

/// The first definition of each value. Value numbers are dense in practice (the IR
/// allocates them from a per-function counter), so a flat table indexed by number is
/// used when the largest number is at most a small multiple of the number of
/// definitions and uses; otherwise (hand-written or fuzzed input with huge numbers) a
/// hash map.
enum DefTable {
    Flat(Vec<Option<Def>>),
    Hashed(FxHashMap<Value, Def>),
}

/// A flat table may have this many slots per definition or use, plus [`FLAT_SLACK`].
const FLAT_SLOTS_PER_MENTION: usize = 4;
const FLAT_SLACK: usize = 64;

impl DefTable {
    fn for_function(func: &IrFunction) -> DefTable {
        let mut mentions = 0usize;
        let mut bound = 0usize;
        let mut see = |v: Value| {
            mentions += 1;
            bound = bound.max(v.0 as usize + 1);
        };
        for block in &func.blocks {
            for inst in &block.insts {
                if let Some(d) = inst.dest() {
                    see(d);
                }
                inst.for_each_used_value(&mut see);
            }
            block.term.for_each_used_value(&mut see);
        }
        if bound <= mentions * FLAT_SLOTS_PER_MENTION + FLAT_SLACK {
            DefTable::Flat(vec![None; bound])
        } else {
            DefTable::Hashed(FxHashMap::with_capacity_and_hasher(
                mentions,
                Default::default(),
            ))
        }
    }

    fn get(&self, v: Value) -> Option<Def> {
        match self {
            DefTable::Flat(t) => t.get(v.0 as usize).copied().flatten(),
            DefTable::Hashed(m) => m.get(&v).copied(),
        }
    }

    /// Records `def` as `v`'s definition unless it has one; returns the earlier one.
    fn insert_first(&mut self, v: Value, def: Def) -> Option<Def> {
        match self {
            DefTable::Flat(t) => {
                // Every defined value was counted in the bound.
                let slot = &mut t[v.0 as usize];
                match slot {
                    Some(first) => Some(*first),
                    None => {
                        *slot = Some(def);
                        None
                    }
                }
            }
            DefTable::Hashed(m) => match m.entry(v) {
                Entry::Vacant(e) => {
                    e.insert(def);
                    None
                }
                Entry::Occupied(e) => Some(*e.get()),
            },
        }
    }
}

pub(super) fn check(func: &IrFunction, cfg: &CfgAnalysis, mode: VerifyMode, at: &mut At) {
    let defs = collect_definitions(func, mode, at);
    check_uses(func, cfg, mode, &defs, at);
}

fn collect_definitions(func: &IrFunction, mode: VerifyMode, at: &mut At) -> DefTable {
    let mut defs = DefTable::for_function(func);
    // Rule: a value has one type, its defining instruction's result type. In SSA mode it
    // is defined at most once; after phi elimination it may be defined several times
    // (one copy per incoming edge), always with the same type.
    for (b, block) in func.blocks.iter().enumerate() {
        for (k, inst) in block.insts.iter().enumerate() {
            let Some(dest) = inst.dest() else {
                continue;
            };
            let ty = inst.result_type();
            let def = Def {
                block: b,
                inst: k,
                ty,
            };
            match defs.insert_first(dest, def) {
                None => {}
                Some(first) => {
                    let first_label = func.blocks[first.block].label;
                    if mode == VerifyMode::Ssa {
                        at.inst_error(
                            block.label,
                            k,
                            format!("{dest} is defined more than once (first in {first_label})"),
                        );
                    } else if first.ty != ty {
                        at.inst_error(
                            block.label,
                            k,
                            format!(
                                "{dest} is defined as {ty} here but as {} in {first_label}",
                                first.ty
                            ),
                        );
                    }
                }
            }
        }
    }
    defs
}

/// What an operand position demands.
#[derive(Clone, Copy)]
struct Position {
    /// The context type ([`Inst::for_each_operand_typed`]).
    ty: IrType,
    /// A `condbr`/`select` condition: a value of any integer type is accepted.
    is_condition: bool,
    /// In a `phi` or `copy`: a constant must have exactly `ty`.
    exact_constant: bool,
}

/// Where a use sits: block index and instruction index (`insts.len()` for the
/// terminator).
#[derive(Clone, Copy)]
struct Site {
    block: usize,
    inst: usize,
    label: BlockId,
    is_terminator: bool,
}

impl Site {
    fn error(&self, at: &mut At, msg: String) {
        if self.is_terminator {
            at.term_error(self.label, msg);
        } else {
            at.inst_error(self.label, self.inst, msg);
        }
    }
}

fn check_uses(
    func: &IrFunction,
    cfg: &CfgAnalysis,
    mode: VerifyMode,
    defs: &DefTable,
    at: &mut At,
) {
    let ssa = mode == VerifyMode::Ssa;
    // Rule: every use names a value defined in this function (anywhere, in any mode).
    // Rule: a value operand has exactly its position's context type, except a condbr or
    // select condition, which may be any integer type; no value of type void is used.
    // Rule: a constant is not void; in a phi or copy it has exactly the instruction's type.
    // Rule (SSA): every use in a reachable block is dominated by its definition: defined
    // earlier in the same block, or in a block that strictly dominates the using block.
    for (b, block) in func.blocks.iter().enumerate() {
        if at.is_full() {
            return;
        }
        let check_dominance = ssa && cfg.is_reachable(b);
        for (k, inst) in block.insts.iter().enumerate() {
            let site = Site {
                block: b,
                inst: k,
                label: block.label,
                is_terminator: false,
            };
            if let Inst::Phi { ty, incoming, .. } = inst {
                check_phi_entries(func, cfg, ssa, defs, site, *ty, incoming, at);
                continue;
            }
            let mut position_index = 0;
            inst.for_each_operand_typed(|op, ty| {
                let position = Position {
                    ty,
                    is_condition: matches!(inst, Inst::Select { .. }) && position_index == 0,
                    exact_constant: matches!(inst, Inst::Copy { .. }),
                };
                position_index += 1;
                if let Some(def) = check_operand(op, position, defs, site, at) {
                    if check_dominance && !dominates_use(cfg, def, site) {
                        site.error(at, not_dominated(func, op, def));
                    }
                }
            });
        }
        let site = Site {
            block: b,
            inst: block.insts.len(),
            label: block.label,
            is_terminator: true,
        };
        block.term.for_each_operand_typed(|op, ty| {
            let position = Position {
                ty,
                is_condition: matches!(block.term, Terminator::CondBr { .. }),
                exact_constant: false,
            };
            if let Some(def) = check_operand(op, position, defs, site, at) {
                if check_dominance && !dominates_use(cfg, def, site) {
                    site.error(at, not_dominated(func, op, def));
                }
            }
        });
    }
}

/// The operand rules for one phi (types as for a copy), plus, in SSA mode, that each
/// incoming value is available at the end of its predecessor: its defining block
/// dominates that predecessor.
#[allow(clippy::too_many_arguments)]
fn check_phi_entries(
    func: &IrFunction,
    cfg: &CfgAnalysis,
    ssa: bool,
    defs: &DefTable,
    site: Site,
    ty: IrType,
    incoming: &[(Operand, BlockId)],
    at: &mut At,
) {
    let position = Position {
        ty,
        is_condition: false,
        exact_constant: true,
    };
    for (op, pred_label) in incoming {
        let Some(def) = check_operand(op, position, defs, site, at) else {
            continue;
        };
        let Some(&pred) = cfg.label_to_idx.get(pred_label) else {
            continue; // reported by the phi-entry rule
        };
        if ssa && cfg.is_reachable(pred) && !cfg.dominates(def.block, pred) {
            site.error(
                at,
                format!(
                    "phi entry {} for {pred_label} is not available at the end of \
                     {pred_label}: its definition in {} does not dominate it",
                    describe(op),
                    func.blocks[def.block].label
                ),
            );
        }
    }
}

/// Checks an operand's type rules; returns the definition of a defined value operand.
fn check_operand(
    op: &Operand,
    position: Position,
    defs: &DefTable,
    site: Site,
    at: &mut At,
) -> Option<Def> {
    match op {
        Operand::Const(c) => {
            if c.ty == IrType::Void {
                site.error(at, format!("constant {c} has type void"));
            } else if position.exact_constant && c.ty != position.ty {
                site.error(
                    at,
                    format!(
                        "constant {c}:{} where exactly {} is required (phi and copy \
                         constants are never implicitly converted)",
                        c.ty, position.ty
                    ),
                );
            } else if (c.ty.is_float() || position.ty.is_float()) && c.ty != position.ty {
                site.error(
                    at,
                    format!(
                        "constant {c}:{} where {} is required (float constants are never \
                         implicitly converted)",
                        c.ty, position.ty
                    ),
                );
            }
            None
        }
        Operand::Value(v) => {
            let Some(def) = defs.get(*v) else {
                site.error(at, format!("{v} is used but never defined"));
                return None;
            };
            if def.ty == IrType::Void {
                site.error(at, format!("{v} has type void and cannot be used"));
            } else if position.is_condition {
                if !def.ty.is_integer() {
                    site.error(at, format!("condition {v} is {}, not an integer", def.ty));
                }
            } else if def.ty != position.ty {
                site.error(
                    at,
                    format!("{v} is {} but the operand must be {}", def.ty, position.ty),
                );
            }
            Some(def)
        }
    }
}

/// True when `def` dominates a (non-phi) use at `site`.
fn dominates_use(cfg: &CfgAnalysis, def: Def, site: Site) -> bool {
    if def.block == site.block {
        def.inst < site.inst
    } else {
        cfg.dominates(def.block, site.block)
    }
}

fn not_dominated(func: &IrFunction, op: &Operand, def: Def) -> String {
    format!(
        "use of {} is not dominated by its definition ({} inst {})",
        describe(op),
        func.blocks[def.block].label,
        def.inst
    )
}

fn describe(op: &Operand) -> String {
    match op {
        Operand::Value(v) => v.to_string(),
        Operand::Const(c) => format!("{c}:{}", c.ty),
    }
}
