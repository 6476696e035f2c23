//! CFG and dominator analysis shared by mem2reg, the verifier and the SSA passes.
//!
//! Why: every pass that reasons about control flow needs the same four things —
//! predecessor/successor lists, a reverse postorder, immediate dominators and dominance
//! frontiers — and computing them one way, in one place, keeps them consistent.
//!
//! Invariants:
//! - Blocks are referred to by their index in `IrFunction::blocks`; index 0 is the entry.
//! - [`FlatAdj`] rows are deduplicated: a `condbr %c, .LBB1, .LBB1` gives one successor and
//!   one predecessor entry (phis have one entry per distinct predecessor). Edges to labels
//!   that do not exist are ignored here (the verifier reports them).
//! - `idom[0] == 0`; an unreachable block has `idom == UNREACHABLE` and appears in no
//!   dominator-tree child list, no frontier and no reverse postorder. Predecessors that are
//!   unreachable are ignored by the dominator and frontier computations.
//! - The entry has an implicit predecessor (the caller): a back edge into it makes it a
//!   join point, so it is in the frontier of every block on that cycle, itself included.
//! - Nothing here recurses: 100k-block functions must not overflow the stack.
//!
//! Seeded bug: [`crate::mutants::Mutant::DominatorsSinglePass`] stops the dominator
//! iteration after one pass (enough for reducible CFGs only).

use super::{BlockId, IrFunction};
use rustc_hash::FxHashMap;

/// `idom` of a block that the entry cannot reach.
pub const UNREACHABLE: usize = usize::MAX;

/// Compressed sparse rows: `n` variable-length rows in two flat arrays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlatAdj {
    offsets: Vec<u32>,
    data: Vec<u32>,
}

impl FlatAdj {
    /// Builds the rows from `(row, neighbour)` pairs; each row keeps its first-seen order
    /// and drops repeats.
    pub fn from_edges(num_rows: usize, edges: &[(u32, u32)]) -> FlatAdj {
        // Bucket the edges by row (counting sort, stable), then drop repeats within each
        // row with a stamp per neighbour: O(edges) even for a switch with thousands of
        // targets.
        let mut offsets = vec![0u32; num_rows + 1];
        for &(r, _) in edges {
            offsets[r as usize + 1] += 1;
        }
        for i in 0..num_rows {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut bucketed = vec![0u32; edges.len()];
        for &(r, n) in edges {
            bucketed[fill[r as usize] as usize] = n;
            fill[r as usize] += 1;
        }
        let stamps = edges
            .iter()
            .map(|&(_, n)| n as usize + 1)
            .max()
            .unwrap_or(0);
        let mut seen = vec![u32::MAX; stamps];
        let mut data = Vec::with_capacity(edges.len());
        let mut out_offsets = Vec::with_capacity(num_rows + 1);
        out_offsets.push(0u32);
        for r in 0..num_rows {
            for &n in &bucketed[offsets[r] as usize..offsets[r + 1] as usize] {
                if seen[n as usize] != r as u32 {
                    seen[n as usize] = r as u32;
                    data.push(n);
                }
            }
            out_offsets.push(data.len() as u32);
        }
        FlatAdj {
            offsets: out_offsets,
            data,
        }
    }

    /// The neighbours of row `i`.
    pub fn row(&self, i: usize) -> &[u32] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Number of neighbours of row `i`.
    pub fn len(&self, i: usize) -> usize {
        (self.offsets[i + 1] - self.offsets[i]) as usize
    }

    /// Number of rows.
    pub fn num_rows(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.num_rows() == 0
    }
}

/// Map from block label to block index.
pub fn build_label_map(func: &IrFunction) -> FxHashMap<BlockId, usize> {
    func.block_index()
}

/// Predecessor and successor lists, built from the terminators.
pub fn build_cfg(
    func: &IrFunction,
    label_to_idx: &FxHashMap<BlockId, usize>,
) -> (FlatAdj, FlatAdj) {
    let n = func.blocks.len();
    let mut succ_edges = Vec::with_capacity(n * 2);
    for (i, b) in func.blocks.iter().enumerate() {
        b.term.for_each_successor(|t| {
            if let Some(&j) = label_to_idx.get(&t) {
                succ_edges.push((i as u32, j as u32));
            }
        });
    }
    let succs = FlatAdj::from_edges(n, &succ_edges);
    let mut pred_edges = Vec::with_capacity(succ_edges.len());
    for i in 0..n {
        for &s in succs.row(i) {
            pred_edges.push((s, i as u32));
        }
    }
    let preds = FlatAdj::from_edges(n, &pred_edges);
    (preds, succs)
}

/// Blocks reachable from the entry, in reverse postorder (iterative DFS).
pub fn compute_reverse_postorder(num_blocks: usize, succs: &FlatAdj) -> Vec<usize> {
    if num_blocks == 0 {
        return Vec::new();
    }
    let mut visited = vec![false; num_blocks];
    let mut post = Vec::with_capacity(num_blocks);
    // Stack of (block, next successor position).
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    visited[0] = true;
    while let Some(&mut (b, ref mut pos)) = stack.last_mut() {
        let row = succs.row(b);
        if *pos < row.len() {
            let s = row[*pos] as usize;
            *pos += 1;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Immediate dominators by Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
/// Algorithm" (2001): iterate over the reverse postorder, intersecting the dominators of
/// the already-processed predecessors, until nothing changes. Handles irreducible CFGs.
pub fn compute_dominators(num_blocks: usize, preds: &FlatAdj, succs: &FlatAdj) -> Vec<usize> {
    let mut idom = vec![UNREACHABLE; num_blocks];
    if num_blocks == 0 {
        return idom;
    }
    let rpo = compute_reverse_postorder(num_blocks, succs);
    let mut rpo_num = vec![usize::MAX; num_blocks];
    for (i, &b) in rpo.iter().enumerate() {
        rpo_num[b] = i;
    }
    idom[0] = 0;
    let intersect = |idom: &[usize], mut a: usize, mut b: usize| -> usize {
        while a != b {
            while rpo_num[a] > rpo_num[b] {
                a = idom[a];
            }
            while rpo_num[b] > rpo_num[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    // Seeded bug `DominatorsSinglePass`: one pass, as if every CFG were reducible.
    let single_pass = crate::mutants::enabled(crate::mutants::Mutant::DominatorsSinglePass);
    let mut passes = 0;
    while changed && !(single_pass && passes == 1) {
        passes += 1;
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new_idom = UNREACHABLE;
            for &p in preds.row(b) {
                let p = p as usize;
                if idom[p] == UNREACHABLE {
                    continue; // not processed yet, or unreachable
                }
                new_idom = if new_idom == UNREACHABLE {
                    p
                } else {
                    intersect(&idom, p, new_idom)
                };
            }
            if new_idom != UNREACHABLE && idom[b] != new_idom {
                idom[b] = new_idom;
                changed = true;
            }
        }
    }
    idom
}

/// Dominance frontiers: for each join point (two or more reachable predecessors), a runner
/// walks up the dominator tree from each predecessor until the join's immediate dominator,
/// adding the join to the frontier of every block it passes. The entry is a join point as
/// soon as it has one reachable predecessor (it also has the implicit edge from the
/// caller), and nothing strictly dominates it, so its runners climb to the entry itself and
/// add it there too: a back edge `p -> entry` puts the entry in the frontier of every block
/// from `p` up to the entry inclusive. `df[b]` is deduplicated and ordered by join-point
/// index.
pub fn compute_dominance_frontiers(
    num_blocks: usize,
    preds: &FlatAdj,
    idom: &[usize],
) -> Vec<Vec<usize>> {
    let mut df: Vec<Vec<usize>> = vec![Vec::new(); num_blocks];
    for b in 0..num_blocks {
        if idom[b] == UNREACHABLE {
            continue;
        }
        let reachable_preds = preds
            .row(b)
            .iter()
            .filter(|&&p| idom[p as usize] != UNREACHABLE)
            .count();
        let is_entry = b == 0;
        if reachable_preds < 2 && !(is_entry && reachable_preds == 1) {
            continue;
        }
        for &p in preds.row(b) {
            let mut runner = p as usize;
            if idom[runner] == UNREACHABLE {
                continue;
            }
            // The runner stops at the join's immediate dominator; the entry has none, so
            // for the entry it stops after the entry itself.
            loop {
                if !is_entry && runner == idom[b] {
                    break;
                }
                // Each join is handled in one go, so a repeat is always the last entry.
                if df[runner].last() != Some(&b) {
                    df[runner].push(b);
                }
                if runner == 0 {
                    break; // the entry's idom is itself: nothing above it
                }
                runner = idom[runner];
            }
        }
    }
    df
}

/// Inverts `idom` into dominator-tree children lists (the entry is nobody's child).
pub fn build_dom_tree_children(num_blocks: usize, idom: &[usize]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); num_blocks];
    for (b, &d) in idom.iter().enumerate().take(num_blocks).skip(1) {
        if d != UNREACHABLE && d != b {
            children[d].push(b);
        }
    }
    children
}

/// Everything above for one function, computed once and shared by passes that do not
/// change the CFG.
#[derive(Clone, Debug)]
pub struct CfgAnalysis {
    pub num_blocks: usize,
    pub label_to_idx: FxHashMap<BlockId, usize>,
    pub preds: FlatAdj,
    pub succs: FlatAdj,
    /// Reachable blocks in reverse postorder.
    pub rpo: Vec<usize>,
    pub idom: Vec<usize>,
    pub dom_children: Vec<Vec<usize>>,
    /// Preorder and postorder numbers in the dominator tree, for O(1) dominance queries.
    dom_pre: Vec<u32>,
    dom_post: Vec<u32>,
}

impl CfgAnalysis {
    /// Builds the CFG, dominators and dominator tree of `func`.
    pub fn build(func: &IrFunction) -> CfgAnalysis {
        let label_to_idx = build_label_map(func);
        let (preds, succs) = build_cfg(func, &label_to_idx);
        let n = func.blocks.len();
        let rpo = compute_reverse_postorder(n, &succs);
        let idom = compute_dominators(n, &preds, &succs);
        let dom_children = build_dom_tree_children(n, &idom);
        let mut dom_pre = vec![u32::MAX; n];
        let mut dom_post = vec![u32::MAX; n];
        if n > 0 {
            let (mut pre, mut post) = (0u32, 0u32);
            let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
            dom_pre[0] = pre;
            pre += 1;
            while let Some(&mut (b, ref mut pos)) = stack.last_mut() {
                if *pos < dom_children[b].len() {
                    let c = dom_children[b][*pos];
                    *pos += 1;
                    dom_pre[c] = pre;
                    pre += 1;
                    stack.push((c, 0));
                } else {
                    dom_post[b] = post;
                    post += 1;
                    stack.pop();
                }
            }
        }
        CfgAnalysis {
            num_blocks: n,
            label_to_idx,
            preds,
            succs,
            rpo,
            idom,
            dom_children,
            dom_pre,
            dom_post,
        }
    }

    /// True when the entry reaches block `b`.
    pub fn is_reachable(&self, b: usize) -> bool {
        self.idom[b] != UNREACHABLE
    }

    /// True when `a` dominates `b` (every block dominates itself). False when either is
    /// unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.is_reachable(a)
            && self.is_reachable(b)
            && self.dom_pre[a] <= self.dom_pre[b]
            && self.dom_post[b] <= self.dom_post[a]
    }

    /// Dominance frontiers of every block.
    pub fn dominance_frontiers(&self) -> Vec<Vec<usize>> {
        compute_dominance_frontiers(self.num_blocks, &self.preds, &self.idom)
    }
}

#[cfg(test)]
#[path = "analysis_tests.rs"]
mod tests;
