//! `gvn`: dominator-based global value numbering.
//!
//! What it does: walks the dominator tree (preorder, explicit stack) with a scoped hash
//! table from expression keys ([`key`]) to the value that first computed them. A pure
//! instruction whose key is already in the table — computed earlier in the same block or
//! in a dominating block — is redundant: every use of its value is rewritten to the
//! earlier value and the instruction is removed (no copy is left behind). Leaving a block's
//! subtree drops the keys it added, so a value is only reused where it dominates.
//!
//! Which instructions are numbered: arithmetic, comparisons, casts, selects, geps,
//! `globaladdr`, `paramref` and phis (same block, same entries). Division, remainder and
//! shifts are numbered too: the earlier instruction dominates the later one, so when the
//! later one would trap or be undefined the earlier one already did. Loads are numbered
//! only within one block and only while no `store`, `memcpy` or `call` has run since the
//! earlier load (any of them may write the address); a load through a `volatile` alloca
//! is never numbered. Allocas, calls and stores never are; copies are left to copy
//! propagation.
//!
//! What it assumes: the function passed the verifier in SSA mode (every use dominated by
//! its definition) and `cfg` was built for it (checked: a mismatching analysis makes the
//! pass do nothing).
//!
//! What it must not do: change the CFG (it touches no terminator but its operands); move
//! any instruction; merge two loads across a possible write.
//!
//! Mutant `GvnLoadAcrossStore`: a `store` no longer ends the availability of earlier loads.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `redundant_dominated` (the later instruction goes);
//! - must hold back: `redundant_not_dominated` (equal instructions in sibling branches
//!   stay both), and an `irreducible_cycle` gives no dominance beyond what the tree says;
//!   at a `late_dominator` block (an irreducible cycle entered through a block of its
//!   own) that tree needs the dominator iteration to run to its fixed point, or the
//!   entry's own block looks like a dominator and its values get reused.

mod key;

#[cfg(test)]
mod tests;

use crate::ir::analysis::CfgAnalysis;
use crate::ir::substitute::Substitution;
use crate::ir::{Inst, IrFunction, Operand, Value};
use crate::mutants::{self, Mutant};
use key::{expr_key, load_key, ExprKey, LoadKey};
use rustc_hash::{FxHashMap, FxHashSet};

/// Runs the pass on one function with a CFG analysis that is valid for it (GVN and LICM
/// share one); returns the number of redundant instructions removed. Never changes the
/// CFG.
pub fn run(func: &mut IrFunction, cfg: &CfgAnalysis) -> usize {
    if !analysis_matches(func, cfg) || func.blocks.is_empty() {
        return 0;
    }
    let volatile_slots: FxHashSet<Value> = func
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|inst| match inst {
            Inst::Alloca {
                dest,
                volatile: true,
                ..
            } => Some(*dest),
            _ => None,
        })
        .collect();
    let mut subst = Substitution::new(func);
    let mut available: FxHashMap<ExprKey, Value> = FxHashMap::default();
    // Keys added by the blocks on the current dominator-tree path, in order.
    let mut added: Vec<ExprKey> = Vec::new();
    let mut loads: FxHashMap<LoadKey, Value> = FxHashMap::default();
    let mut removed = 0;

    enum Step {
        Enter(usize),
        /// Leave a subtree: forget the keys added since `added` had this length.
        Leave(usize),
    }
    let mut stack = vec![Step::Enter(0)];
    while let Some(step) = stack.pop() {
        let b = match step {
            Step::Enter(b) => b,
            Step::Leave(len) => {
                for key in added.drain(len..) {
                    available.remove(&key);
                }
                continue;
            }
        };
        stack.push(Step::Leave(added.len()));
        stack.extend(cfg.dom_children[b].iter().rev().map(|&c| Step::Enter(c)));

        let block = &mut func.blocks[b];
        let label = block.label;
        // Rule: a load is reused only in its block, while nothing that may write memory
        // has run since.
        loads.clear();
        for inst in block.insts.iter_mut() {
            subst.rewrite_inst(inst);
            match inst {
                Inst::Store { .. } => {
                    if !mutants::enabled(Mutant::GvnLoadAcrossStore) {
                        loads.clear();
                    }
                }
                // A stack restore ends objects: nothing read before it is reused after.
                Inst::Memcpy { .. } | Inst::Call { .. } | Inst::StackRestore { .. } => {
                    loads.clear()
                }
                Inst::Load { dest, ty, ptr } => {
                    if matches!(ptr, Operand::Value(p) if volatile_slots.contains(p)) {
                        continue;
                    }
                    let key = load_key(*ty, ptr);
                    match loads.get(&key) {
                        Some(&earlier) => removed += subst.insert(*dest, earlier.into()) as usize,
                        None => {
                            loads.insert(key, *dest);
                        }
                    }
                }
                _ => {
                    // Rule: a pure instruction whose key a dominating one computed is that
                    // value.
                    let (Some(dest), Some(key)) = (inst.dest(), expr_key(inst, label)) else {
                        continue;
                    };
                    match available.get(&key) {
                        Some(&earlier) => removed += subst.insert(dest, earlier.into()) as usize,
                        None => {
                            available.insert(key.clone(), dest);
                            added.push(key);
                        }
                    }
                }
            }
        }
    }
    subst.apply(func);
    subst.remove_replaced(func);
    removed
}

/// True when `cfg` describes `func`'s blocks as they are (same count, same labels at the
/// same indexes).
fn analysis_matches(func: &IrFunction, cfg: &CfgAnalysis) -> bool {
    cfg.num_blocks == func.blocks.len()
        && cfg.dom_children.len() == func.blocks.len()
        && func
            .blocks
            .iter()
            .enumerate()
            .all(|(i, b)| cfg.label_to_idx.get(&b.label) == Some(&i))
}
