//! Step 2 of SSA construction: where each promoted slot needs a phi, and whether the
//! copies those phis will cost are affordable.
//!
//! Why: a slot needs a phi exactly where two of its definitions can meet — the iterated
//! dominance frontier of the blocks that store to it (Cytron et al.). Phi elimination later
//! turns each phi into one copy per predecessor, so a big switch-dispatch loop times many
//! slots can explode; the seed's cost cap leaves the most expensive slots in memory.
//!
//! Invariants: phis are placed in reachable blocks only (unreachable blocks are in no
//! frontier), never in the entry (see `place_phis`); a slot dropped by the cost cap gets
//! no phi at all. The plan lists each block's phis in slot order, and numbers their results
//! consecutively from the function's first fresh value, in block order then slot order.

use super::candidates::Slots;
use super::MAX_PHI_COPY_COST;
use crate::ir::analysis::CfgAnalysis;
use crate::ir::Value;
use crate::mutants::{self, Mutant};
use std::ops::Range;

/// The phis to insert: for each block, which slots get one and what value it defines.
#[derive(Clone, Debug, Default)]
pub(super) struct PhiPlan {
    /// Phis of block `b` are ids `offsets[b]..offsets[b + 1]`.
    offsets: Vec<u32>,
    /// The slot each phi merges.
    pub slot: Vec<u32>,
    /// The value each phi defines.
    pub dest: Vec<Value>,
}

impl PhiPlan {
    /// Ids of the phis of block `b`.
    pub fn of_block(&self, b: usize) -> Range<usize> {
        self.offsets[b] as usize..self.offsets[b + 1] as usize
    }

    /// Total number of phis.
    pub fn len(&self) -> usize {
        self.slot.len()
    }
}

/// Places the phis of every promoted slot, then, while the estimated copy cost is over
/// budget, drops the most expensive slots (rule 5 of the module doc). `first_fresh` is the
/// first unused value number.
pub(super) fn place_phis(cfg: &CfgAnalysis, slots: &mut Slots, first_fresh: u32) -> PhiPlan {
    let n = cfg.num_blocks;
    let frontiers = cfg.dominance_frontiers();
    let loop_headers = if mutants::enabled(Mutant::M2rFrontierSkipsLoopHeader) {
        find_loop_headers(cfg)
    } else {
        vec![false; n]
    };

    // Phi blocks of each slot: the iterated dominance frontier of its defining blocks,
    // by the classic worklist (a phi is itself a definition, so its block joins the list).
    let mut phi_blocks: Vec<Vec<u32>> = vec![Vec::new(); slots.slots.len()];
    let mut has_phi_stamp = vec![u32::MAX; n];
    let mut queued_stamp = vec![u32::MAX; n];
    let mut worklist: Vec<u32> = Vec::new();
    for (s, slot) in slots.slots.iter_mut().enumerate() {
        if !slot.promoted {
            continue;
        }
        let stamp = s as u32;
        worklist.clear();
        for &d in &slot.def_blocks {
            queued_stamp[d as usize] = stamp;
            worklist.push(d);
        }
        let blocks = &mut phi_blocks[s];
        while let Some(x) = worklist.pop() {
            for &y in &frontiers[x as usize] {
                if loop_headers[y] {
                    continue; // mutant: a loop header is wrongly thought to need no phi
                }
                if has_phi_stamp[y] != stamp {
                    has_phi_stamp[y] = stamp;
                    blocks.push(y as u32);
                }
                if queued_stamp[y] != stamp {
                    queued_stamp[y] = stamp;
                    worklist.push(y as u32);
                }
            }
        }
        // The entry never gets a phi (it could not name its implicit predecessor, the
        // caller). None is needed: every path from the entry to a load passes the slot's
        // alloca, and each execution of an alloca makes a fresh, unwritten slot, so a value
        // arriving over a back edge into the entry can only reach a load that reads
        // uninitialized memory (undefined in the input; the promoted program reads zero).
        blocks.retain(|&b| b != 0);
        blocks.sort_unstable();
    }

    apply_cost_cap(cfg, slots, &mut phi_blocks);
    build_plan(n, slots, &phi_blocks, first_fresh)
}

/// Rule 5. A phi costs one copy per distinct reachable predecessor; a slot costs the sum
/// over its phis. While the total is over [`MAX_PHI_COPY_COST`], the most expensive slot
/// stays in memory (among equal costs, the one found last in the function goes first).
fn apply_cost_cap(cfg: &CfgAnalysis, slots: &mut Slots, phi_blocks: &mut [Vec<u32>]) {
    let reachable_preds = |b: u32| {
        cfg.preds
            .row(b as usize)
            .iter()
            .filter(|&&p| cfg.is_reachable(p as usize))
            .count()
    };
    let mut costs: Vec<(usize, usize)> = Vec::new(); // (cost, slot)
    let mut total = 0usize;
    for (s, slot) in slots.slots.iter().enumerate() {
        if slot.promoted {
            let cost: usize = phi_blocks[s].iter().map(|&b| reachable_preds(b)).sum();
            total += cost;
            costs.push((cost, s));
        }
    }
    if total <= MAX_PHI_COPY_COST {
        return;
    }
    costs.sort_unstable_by(|a, b| b.cmp(a)); // most expensive first, later slot first
    for (cost, s) in costs {
        if total <= MAX_PHI_COPY_COST {
            break;
        }
        slots.slots[s].promoted = false;
        phi_blocks[s].clear();
        total -= cost;
    }
}

/// Lays the phis out per block (slot order inside a block) and numbers their results.
fn build_plan(n: usize, slots: &Slots, phi_blocks: &[Vec<u32>], first_fresh: u32) -> PhiPlan {
    let mut offsets = vec![0u32; n + 1];
    for (s, blocks) in phi_blocks.iter().enumerate() {
        if slots.slots[s].promoted {
            for &b in blocks {
                offsets[b as usize + 1] += 1;
            }
        }
    }
    for b in 0..n {
        offsets[b + 1] += offsets[b];
    }
    let total = offsets[n] as usize;
    let mut slot_of_phi = vec![0u32; total];
    let mut fill: Vec<u32> = offsets[..n].to_vec();
    // Slots in ascending order, so each block's phis come out in slot order.
    for (s, blocks) in phi_blocks.iter().enumerate() {
        if slots.slots[s].promoted {
            for &b in blocks {
                slot_of_phi[fill[b as usize] as usize] = s as u32;
                fill[b as usize] += 1;
            }
        }
    }
    let dest = (0..total as u32).map(|i| Value(first_fresh + i)).collect();
    PhiPlan {
        offsets,
        slot: slot_of_phi,
        dest,
    }
}

/// Loop headers: targets of a back edge, i.e. of an edge whose target dominates its
/// source. Only the `M2rFrontierSkipsLoopHeader` mutant needs them.
fn find_loop_headers(cfg: &CfgAnalysis) -> Vec<bool> {
    let mut header = vec![false; cfg.num_blocks];
    for &p in &cfg.rpo {
        for &h in cfg.succs.row(p) {
            if cfg.dominates(h as usize, p) {
                header[h as usize] = true;
            }
        }
    }
    header
}
