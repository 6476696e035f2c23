//! Step 3 of `cfg_simplify`: a block is appended to its only predecessor.
//!
//! Rule: block B is merged into P when P ends in `br B`, P is B's only predecessor, B has
//! no phis (single-predecessor phis became copies in step 2), and B is not the entry and
//! not P itself. P gets B's instructions after its own and B's terminator; B is deleted.
//! Every path to B went through P's `br`, so B's instructions run exactly when they did,
//! after the same instructions. The edges that left B now leave P: phi entries naming B
//! in B's successors are renamed to P (P had no edge to them before, so no phi gets two
//! entries for P). Chains P -> B -> C are merged in one round: after B, P ends in B's
//! terminator and is looked at again.
//!
//! Seeded bug: `CfgSimplifyNoPhiFix` skips the renaming.

use super::{rename_phi_predecessor, Cfg};
use crate::ir::{IrFunction, Terminator};
use crate::mutants::{self, Mutant};

/// Merges every mergeable block; returns how many were merged.
pub(super) fn merge_chains(func: &mut IrFunction, cfg: &Cfg) -> usize {
    let n = func.blocks.len();
    let mut merged_away = vec![false; n];
    let mut merged = 0;
    for p in 0..n {
        if merged_away[p] {
            continue;
        }
        while let Terminator::Br(target) = func.blocks[p].term {
            let Some(b) = cfg.index(target) else {
                break;
            };
            // The predecessor count is from before this round's merges; a merge only
            // renames a block's predecessor (B -> P), so counts stay right.
            let mergeable = b != p
                && b != 0
                && !merged_away[b]
                && cfg.preds.len(b) == 1
                && func.blocks[b].phi_count() == 0;
            if !mergeable {
                break;
            }
            let absorbed = std::mem::take(&mut func.blocks[b].insts);
            let term = std::mem::replace(&mut func.blocks[b].term, Terminator::Unreachable);
            let (p_label, b_label) = (func.blocks[p].label, target);
            func.blocks[p].insts.extend(absorbed);
            func.blocks[p].term = term;
            merged_away[b] = true;
            merged += 1;
            if mutants::enabled(Mutant::CfgSimplifyNoPhiFix) {
                // Mutant: the successors' phis keep naming the deleted block.
            } else {
                let mut successors = func.blocks[p].term.successors();
                successors.sort_unstable();
                successors.dedup();
                for s in successors {
                    if let Some(s) = cfg.index(s) {
                        rename_phi_predecessor(&mut func.blocks[s].insts, b_label, p_label);
                    }
                }
            }
        }
    }
    if merged > 0 {
        let mut index = 0;
        func.blocks.retain(|_| {
            index += 1;
            !merged_away[index - 1]
        });
    }
    merged
}
