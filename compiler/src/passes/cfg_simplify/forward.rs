//! Step 4 of `cfg_simplify`: empty forwarding blocks are bypassed.
//!
//! Rule: a block B other than the entry, with no instructions and `br T` (T != B), is
//! deleted and every predecessor P of B branches to T instead. When T has phis, T's entry
//! `[V, B]` becomes one entry `[V, P]` per predecessor P — allowed only when no P is
//! already a predecessor of T (it would need two entries, possibly with different values:
//! in doubt, nothing is done). V stays available: B is empty, so V is defined in a block
//! that strictly dominates B (or is T's own phi, and T then dominates B) and every path to
//! any P continues to B, so that block dominates every P too.
//!
//! One round bypasses each block at most once and touches each block in at most one
//! bypass (the predecessor lists it works from stay exact); the next round does the rest.

use super::Cfg;
use crate::ir::{BlockId, Inst, IrFunction, Terminator};

/// Bypasses every empty forwarding block it safely can; returns how many.
pub(super) fn bypass_empty_blocks(func: &mut IrFunction, cfg: &Cfg) -> usize {
    let n = func.blocks.len();
    let mut touched = vec![false; n];
    // `pred_of[p] == t + 1` while checking a bypass into block t: p is a predecessor of t.
    let mut pred_of = vec![0usize; n];
    let mut bypassed = vec![false; n];
    let mut count = 0;
    for b in 1..n {
        let block = &func.blocks[b];
        let Terminator::Br(target) = block.term else {
            continue;
        };
        let Some(t) = cfg.index(target) else {
            continue;
        };
        if !block.insts.is_empty() || t == b || touched[b] || touched[t] {
            continue;
        }
        let preds: Vec<usize> = cfg.preds.row(b).iter().map(|&p| p as usize).collect();
        if preds.is_empty() || preds.iter().any(|&p| touched[p]) {
            continue;
        }
        let b_label = block.label;
        let t_has_phis = func.blocks[t].phi_count() > 0;
        if t_has_phis {
            for &p in cfg.preds.row(t) {
                pred_of[p as usize] = t + 1;
            }
            if preds.iter().any(|&p| pred_of[p] == t + 1) {
                continue;
            }
            if !every_phi_has_one_entry_for(&func.blocks[t].insts, b_label) {
                continue;
            }
        }
        let pred_labels: Vec<BlockId> = preds.iter().map(|&p| func.blocks[p].label).collect();
        for &p in &preds {
            func.blocks[p].term.for_each_successor_mut(|s| {
                if *s == b_label {
                    *s = target;
                }
            });
            touched[p] = true;
        }
        if t_has_phis {
            split_phi_entry(&mut func.blocks[t].insts, b_label, &pred_labels);
        }
        touched[b] = true;
        touched[t] = true;
        bypassed[b] = true;
        count += 1;
    }
    if count > 0 {
        let mut index = 0;
        func.blocks.retain(|_| {
            index += 1;
            !bypassed[index - 1]
        });
    }
    count
}

/// True when each of the leading phis has exactly one entry for `label`.
fn every_phi_has_one_entry_for(insts: &[Inst], label: BlockId) -> bool {
    insts
        .iter()
        .take_while(|i| i.is_phi())
        .all(|phi| match phi {
            Inst::Phi { incoming, .. } => incoming.iter().filter(|(_, l)| *l == label).count() == 1,
            _ => false,
        })
}

/// Replaces each phi's entry for `from` by one entry per label of `to`, same value.
fn split_phi_entry(insts: &mut [Inst], from: BlockId, to: &[BlockId]) {
    for inst in insts {
        let Inst::Phi { incoming, .. } = inst else {
            break;
        };
        let Some(k) = incoming.iter().position(|&(_, l)| l == from) else {
            continue;
        };
        let value = incoming[k].0;
        incoming[k].1 = to[0];
        incoming.extend(to[1..].iter().map(|&l| (value, l)));
    }
}
