//! `cfg_simplify`: CFG simplification.
//!
//! Why: constant folding leaves branches on constants, inlining leaves chains of blocks
//! joined by unconditional branches, and phi elimination later pays for every edge and
//! every block; fewer, larger blocks also give GVN and DCE more to see at once.
//!
//! What it may assume: the function verifies in SSA mode — phis only at block starts, one
//! entry per distinct reachable predecessor, every use dominated by its definition, no phi
//! in the entry block.
//!
//! What it does, in rounds until a round changes nothing (one file per step):
//! 1. `fold`: `condbr` on a constant, `switch` on a constant, `condbr %c, .LBBx, .LBBx` and
//!    a switch whose every target is one block become `br` (constants are read the way the
//!    interpreter reads them: a condition non-zero in its own type, a switch value in the switch's type);
//! 2. `prune`: blocks the entry cannot reach are deleted, phi entries naming a block that
//!    is no longer a predecessor are dropped, and in a block with a single predecessor
//!    every phi becomes a copy;
//! 3. `merge`: a block whose only predecessor ends in `br` to it, and that has no phis, is
//!    appended to that predecessor (whole chains in one round); the phis of its successors
//!    are renamed to the predecessor;
//! 4. `forward`: an empty block (no instructions, `br T`) is bypassed — its predecessors
//!    branch to `T` directly — when that keeps `T`'s phis exact (see `forward.rs`).
//!
//! Invariants it keeps: the entry block stays first and is never deleted, merged away or
//! bypassed; every phi keeps exactly one entry per distinct reachable predecessor; no
//! value is renumbered and every definition still dominates its uses (a merged block's
//! instructions follow its predecessor's, a phi that becomes a copy keeps its value).
//!
//! What it must not do: drop an edge that can be taken; leave a phi entry naming a
//! deleted block; give a block two entries for one predecessor. Every step removes a
//! block, a phi, a phi entry or a terminator's choice, so the rounds end.
//!
//! Seeded bug: `CfgSimplifyNoPhiFix` (in `merge`) leaves the merged block's label in its
//! successors' phis.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `constant_branch` (fold), `unreachable_block` (prune),
//!   `empty_block_many_preds` (forward, when the target's phis stay exact);
//! - must hold back: forwarding an empty block when two of its predecessors would give
//!   the target's phis different values (`critical_edge_into_phi` targets), merging into
//!   a block with several successors; `irreducible_cycle` and `loop_without_preheader`
//!   shapes are kept as they are (no block of a cycle may be dropped while reachable).

mod fold;
mod forward;
mod merge;
mod prune;

#[cfg(test)]
#[path = "cfg_simplify/tests.rs"]
mod tests;

use crate::ir::analysis::{build_cfg, FlatAdj};
use crate::ir::{BlockId, Inst, IrFunction};
use rustc_hash::FxHashMap;

/// Runs the pass on one function; returns the number of changes made.
pub fn run(func: &mut IrFunction) -> usize {
    if func.blocks.is_empty() {
        return 0;
    }
    let mut total = 0;
    loop {
        let changes = round(func);
        if changes == 0 {
            return total;
        }
        total += changes;
    }
}

/// One round of the four steps; returns the changes it made.
fn round(func: &mut IrFunction) -> usize {
    let mut changes = fold::fold_terminators(func);
    changes += prune::remove_unreachable_blocks(func);
    let cfg = Cfg::build(func);
    changes += prune::drop_stale_phi_entries(func, &cfg);
    changes += prune::single_predecessor_phis_to_copies(func, &cfg);
    changes += merge::merge_chains(func, &cfg);
    let cfg = Cfg::build(func);
    changes += forward::bypass_empty_blocks(func, &cfg);
    changes
}

/// Block indices and distinct predecessors, as of when it was built.
struct Cfg {
    label_to_idx: FxHashMap<BlockId, usize>,
    preds: FlatAdj,
}

impl Cfg {
    fn build(func: &IrFunction) -> Cfg {
        let label_to_idx = func.block_index();
        let (preds, _) = build_cfg(func, &label_to_idx);
        Cfg {
            label_to_idx,
            preds,
        }
    }

    /// Index of the block labelled `label`.
    fn index(&self, label: BlockId) -> Option<usize> {
        self.label_to_idx.get(&label).copied()
    }
}

/// Renames `from` to `to` in the incoming labels of `block`'s phis.
fn rename_phi_predecessor(insts: &mut [Inst], from: BlockId, to: BlockId) {
    for inst in insts {
        let Inst::Phi { incoming, .. } = inst else {
            break; // phis lead the block
        };
        for (_, pred) in incoming.iter_mut() {
            if *pred == from {
                *pred = to;
            }
        }
    }
}
