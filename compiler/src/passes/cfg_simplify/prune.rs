//! Step 2 of `cfg_simplify`: unreachable blocks, stale phi entries, single-entry phis.
//!
//! Rules:
//! - a block the entry cannot reach is deleted (no edge into it can ever be taken; a value
//!   it defines is used, in verified input, only in blocks it dominates — unreachable too —
//!   or in phi entries for it, which the next rule drops);
//! - a phi entry whose label is not a predecessor of its block is dropped (the edge it
//!   stood for was folded away or its block deleted), so phis keep one entry per distinct
//!   predecessor;
//! - in a block with exactly one predecessor (not the entry), every phi `%d = phi T [V, P]`
//!   becomes `%d = copy T V`: a phi with one way in just passes its value on. The phis of a
//!   block read their entries all at once, so this is skipped when one of them reads
//!   another phi of the same block (which only an unreachable block can do).

use super::Cfg;
use crate::ir::analysis::{build_cfg, compute_reverse_postorder};
use crate::ir::{Inst, IrFunction, Value};
use rustc_hash::FxHashSet;

/// Deletes the blocks the entry cannot reach; returns how many.
pub(super) fn remove_unreachable_blocks(func: &mut IrFunction) -> usize {
    let label_to_idx = func.block_index();
    let (_, succs) = build_cfg(func, &label_to_idx);
    let n = func.blocks.len();
    let mut reachable = vec![false; n];
    for b in compute_reverse_postorder(n, &succs) {
        reachable[b] = true;
    }
    let removed = reachable.iter().filter(|r| !**r).count();
    if removed > 0 {
        let mut index = 0;
        func.blocks.retain(|_| {
            index += 1;
            reachable[index - 1]
        });
    }
    removed
}

/// Drops phi entries whose label is not a predecessor; returns how many. Linear: a
/// join with thousands of predecessors marks them once, then checks each entry in O(1).
pub(super) fn drop_stale_phi_entries(func: &mut IrFunction, cfg: &Cfg) -> usize {
    let mut dropped = 0;
    // `pred_of[p] == b + 1` while looking at block b: p is one of its predecessors.
    let mut pred_of = vec![0usize; func.blocks.len()];
    for (b, block) in func.blocks.iter_mut().enumerate() {
        if block.phi_count() == 0 {
            continue;
        }
        for &p in cfg.preds.row(b) {
            pred_of[p as usize] = b + 1;
        }
        for inst in &mut block.insts {
            let Inst::Phi { incoming, .. } = inst else {
                break;
            };
            let before = incoming.len();
            incoming.retain(|&(_, label)| cfg.index(label).is_some_and(|p| pred_of[p] == b + 1));
            dropped += before - incoming.len();
        }
    }
    dropped
}

/// Turns the phis of single-predecessor blocks into copies; returns how many.
pub(super) fn single_predecessor_phis_to_copies(func: &mut IrFunction, cfg: &Cfg) -> usize {
    let mut converted = 0;
    for (b, block) in func.blocks.iter_mut().enumerate().skip(1) {
        let phis = block.phi_count();
        if phis == 0 || cfg.preds.len(b) != 1 {
            continue;
        }
        let dests: FxHashSet<Value> = block.insts[..phis].iter().filter_map(Inst::dest).collect();
        let reads_own_phi = block.insts[..phis].iter().any(|phi| {
            let mut found = false;
            phi.for_each_used_value(|v| found |= dests.contains(&v));
            found
        });
        if reads_own_phi {
            continue;
        }
        for inst in &mut block.insts[..phis] {
            let Inst::Phi { dest, ty, incoming } = inst else {
                continue;
            };
            // One predecessor, one entry (stale ones were dropped just before).
            let [(src, _)] = incoming.as_slice() else {
                continue;
            };
            *inst = Inst::Copy {
                dest: *dest,
                ty: *ty,
                src: *src,
            };
            converted += 1;
        }
    }
    converted
}
