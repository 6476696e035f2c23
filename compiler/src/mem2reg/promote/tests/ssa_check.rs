//! A small SSA checker for the tests (the real verifier is written in parallel): the rules
//! mem2reg's output must keep, checked on reachable blocks.

use crate::ir::analysis::CfgAnalysis;
use crate::ir::{Inst, IrFunction, IrType, Operand, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// Where a value is defined: block index and instruction position.
type Def = (usize, usize, IrType);

/// Checks, returning every broken rule:
/// - each value is defined once;
/// - phis come first in their block and have exactly one entry per distinct reachable
///   predecessor, and no other entry;
/// - every used value is defined, and its definition dominates the use (for a phi entry:
///   the end of the predecessor);
/// - every operand of a copy or phi (value or constant) has exactly the instruction's type.
pub fn check_ssa(func: &IrFunction) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    let cfg = CfgAnalysis::build(func);
    let mut defs: FxHashMap<Value, Def> = FxHashMap::default();
    for (b, block) in func.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            if let Some(d) = inst.dest() {
                if defs.insert(d, (b, i, inst.result_type())).is_some() {
                    errors.push(format!("{d} defined twice"));
                }
            }
        }
    }
    let dominates_use = |def: &Def, b: usize, i: usize| -> bool {
        if def.0 == b {
            def.1 < i
        } else {
            cfg.dominates(def.0, b)
        }
    };
    for (b, block) in func.blocks.iter().enumerate() {
        if !cfg.is_reachable(b) {
            continue;
        }
        let label = block.label;
        let phi_count = block.phi_count();
        for (i, inst) in block.insts.iter().enumerate() {
            if inst.is_phi() && i >= phi_count {
                errors.push(format!("{label} inst {i}: phi after a non-phi"));
            }
            // The operand types of copies and phis.
            if let Inst::Copy { ty, .. } | Inst::Phi { ty, .. } = inst {
                inst.for_each_operand(|op| {
                    let op_ty = match op {
                        Operand::Const(k) => Some(k.ty),
                        Operand::Value(x) => defs.get(x).map(|d| d.2),
                    };
                    if let Some(t) = op_ty {
                        if t != *ty {
                            errors.push(format!("{label} inst {i}: operand {t} in a {ty}"));
                        }
                    }
                });
            }
            if let Inst::Phi { incoming, .. } = inst {
                let preds: FxHashSet<usize> = cfg
                    .preds
                    .row(b)
                    .iter()
                    .map(|&p| p as usize)
                    .filter(|&p| cfg.is_reachable(p))
                    .collect();
                let mut seen = FxHashSet::default();
                for (op, from) in incoming {
                    let Some(&p) = cfg.label_to_idx.get(from) else {
                        errors.push(format!("{label} inst {i}: entry from unknown {from}"));
                        continue;
                    };
                    if !preds.contains(&p) {
                        errors.push(format!("{label} inst {i}: {from} is no reachable pred"));
                    }
                    if !seen.insert(p) {
                        errors.push(format!("{label} inst {i}: two entries for {from}"));
                    }
                    if let Operand::Value(x) = op {
                        match defs.get(x) {
                            None => errors.push(format!("{label} inst {i}: {x} undefined")),
                            Some(d) if !cfg.dominates(d.0, p) => {
                                errors.push(format!("{label} inst {i}: {x} not live out of {from}"))
                            }
                            _ => {}
                        }
                    }
                }
                if seen.len() != preds.len() {
                    errors.push(format!("{label} inst {i}: missing entries"));
                }
                continue;
            }
            inst.for_each_used_value(|x| match defs.get(&x) {
                None => errors.push(format!("{label} inst {i}: {x} undefined")),
                Some(d) if !dominates_use(d, b, i) => {
                    errors.push(format!("{label} inst {i}: {x} not dominated"))
                }
                _ => {}
            });
        }
        block.term.for_each_used_value(|x| match defs.get(&x) {
            None => errors.push(format!("{label} terminator: {x} undefined")),
            Some(d) if !dominates_use(d, b, usize::MAX) => {
                errors.push(format!("{label} terminator: {x} not dominated"))
            }
            _ => {}
        });
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
