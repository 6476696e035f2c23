//! Structural rules of one function: branch targets, phi placement and phi entries.
//!
//! Why: every later rule and every pass assumes edges go to blocks of the same function
//! and that a block's phis say exactly what flows in on each edge. IR.md: "A block with two
//! edges from the same predecessor has one incoming entry for that predecessor".
//!
//! Invariants: predecessors come from [`CfgAnalysis`] (deduplicated, unreachable ones
//! included); the entry checks use per-block and per-phi stamps, so a join with many
//! predecessors costs linear time.

use super::{At, VerifyMode};
use crate::ir::analysis::CfgAnalysis;
use crate::ir::{Inst, IrFunction};

pub(super) fn check(func: &IrFunction, cfg: &CfgAnalysis, mode: VerifyMode, at: &mut At) {
    check_branch_targets(func, cfg, at);
    check_phi_placement(func, mode, at);
    check_phi_entries(func, cfg, at);
}

fn check_branch_targets(func: &IrFunction, cfg: &CfgAnalysis, at: &mut At) {
    // Rule: every branch target is a block of this function.
    for block in &func.blocks {
        block.term.for_each_successor(|target| {
            if !cfg.label_to_idx.contains_key(&target) {
                at.term_error(
                    block.label,
                    format!("branch target {target} is not a block of this function"),
                );
            }
        });
    }
}

fn check_phi_placement(func: &IrFunction, mode: VerifyMode, at: &mut At) {
    // Rule: after phi elimination there are no phis; before it, the entry block has none
    // and phis stand only at the start of a block.
    for (b, block) in func.blocks.iter().enumerate() {
        let leading = block.phi_count();
        for (k, inst) in block.insts.iter().enumerate() {
            if !inst.is_phi() {
                continue;
            }
            if mode == VerifyMode::PostPhiElim {
                at.inst_error(block.label, k, "phi after phi elimination".into());
            } else if b == 0 {
                at.inst_error(block.label, k, "phi in the entry block".into());
            } else if k >= leading {
                at.inst_error(
                    block.label,
                    k,
                    "phi after a non-phi instruction: phis only at the start of a block".into(),
                );
            }
        }
    }
}

fn check_phi_entries(func: &IrFunction, cfg: &CfgAnalysis, at: &mut At) {
    let n = func.blocks.len();
    // `pred_of[p] == b + 1` while checking block b: p is one of its predecessors.
    let mut pred_of = vec![0usize; n];
    // `entry_seen[p] == stamp` while checking one phi: it has an entry for p.
    let mut entry_seen = vec![0usize; n];
    let mut stamp = 0usize;
    // Rule: each phi has one entry per distinct reachable predecessor, no entry for a
    // block that is not a predecessor, and no two entries for the same block (entries for
    // unreachable predecessors are allowed, at most one each).
    for (b, block) in func.blocks.iter().enumerate() {
        if at.is_full() {
            return;
        }
        if !block.insts.iter().any(Inst::is_phi) {
            continue;
        }
        for &p in cfg.preds.row(b) {
            pred_of[p as usize] = b + 1;
        }
        for (k, inst) in block.insts.iter().enumerate() {
            let Inst::Phi { incoming, .. } = inst else {
                continue;
            };
            stamp += 1;
            for (_, label) in incoming {
                let Some(&p) = cfg
                    .label_to_idx
                    .get(label)
                    .filter(|&&p| pred_of[p] == b + 1)
                else {
                    at.inst_error(
                        block.label,
                        k,
                        format!("phi has an entry for {label}, which is not a predecessor"),
                    );
                    continue;
                };
                if entry_seen[p] == stamp {
                    at.inst_error(block.label, k, format!("phi has two entries for {label}"));
                }
                entry_seen[p] = stamp;
            }
            for &p in cfg.preds.row(b) {
                let p = p as usize;
                if cfg.is_reachable(p) && entry_seen[p] != stamp {
                    at.inst_error(
                        block.label,
                        k,
                        format!("phi has no entry for predecessor {}", func.blocks[p].label),
                    );
                }
            }
        }
    }
}
