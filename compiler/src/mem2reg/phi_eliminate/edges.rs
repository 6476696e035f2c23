//! What each phi reads on each edge into its block.
//!
//! Why: conflict detection and copy emission both work edge by edge, on the pairs
//! (phi, source) of one predecessor; building those lists once keeps the pass linear in
//! the number of phi entries, even for a join block with thousands of predecessors.
//!
//! Invariants: one [`EdgeSources`] per distinct predecessor that has at least one entry;
//! its sources are in phi order, at most one per phi (the first entry wins); entries for a
//! block that is not a predecessor are ignored.

use crate::ir::{BasicBlock, BlockId, Inst, IrFunction, IrType, Operand, Value};
use rustc_hash::FxHashMap;

/// One leading phi of a block, detached from the block so the block can be rewritten.
#[derive(Clone, Debug)]
pub(super) struct PhiNode {
    pub dest: Value,
    pub ty: IrType,
    pub incoming: Vec<(Operand, BlockId)>,
}

/// The sources of the phis on one edge `pred -> block`.
#[derive(Clone, Debug)]
pub(super) struct EdgeSources {
    /// Index of the predecessor in `IrFunction::blocks`.
    pub pred: usize,
    /// `(phi index, source)` in phi order, one per phi that has an entry for `pred`.
    pub sources: Vec<(usize, Operand)>,
}

/// The leading phis of `block`.
pub(super) fn leading_phis(block: &BasicBlock) -> Vec<PhiNode> {
    block
        .insts
        .iter()
        .map_while(|inst| match inst {
            Inst::Phi { dest, ty, incoming } => Some(PhiNode {
                dest: *dest,
                ty: *ty,
                incoming: incoming.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The sources of `phis` on each edge from the distinct predecessors `preds` (indices).
pub(super) fn collect_edge_sources(
    func: &IrFunction,
    preds: &[u32],
    phis: &[PhiNode],
) -> Vec<EdgeSources> {
    let mut edges: Vec<EdgeSources> = preds
        .iter()
        .map(|&p| EdgeSources {
            pred: p as usize,
            sources: Vec::new(),
        })
        .collect();
    let edge_of_label: FxHashMap<BlockId, usize> = preds
        .iter()
        .enumerate()
        .map(|(e, &p)| (func.blocks[p as usize].label, e))
        .collect();
    for (i, phi) in phis.iter().enumerate() {
        for &(src, label) in &phi.incoming {
            // An entry for a block that is not a predecessor is not an edge: ignored.
            let Some(&e) = edge_of_label.get(&label) else {
                continue;
            };
            let sources = &mut edges[e].sources;
            // Phis are visited in order, so a repeated entry of phi i is the last pushed.
            if sources.last().map(|&(j, _)| j) != Some(i) {
                sources.push((i, src));
            }
        }
    }
    edges.retain(|e| !e.sources.is_empty());
    edges
}
