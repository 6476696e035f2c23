//! Which phis of a block must go through a temporary (the seed's `find_conflicting_phis`).
//!
//! Why: the copies of one edge form a parallel move; emitted one after another, a copy
//! that overwrites a phi destination another copy still has to read loses that value (the
//! lost-copy / swap problem). A phi routed through a temporary is saved on the edge and
//! restored at the top of the block, after every read.
//!
//! Invariants of the result, for every edge:
//! - a phi whose source is the destination of another phi on the edge (not a self-copy)
//!   is conflicting;
//! - a phi whose destination is read by a conflicting phi is conflicting too (the safety
//!   net, iterated to a fixed point), so no phi that is copied directly has a destination
//!   that anything on the edge reads.
//!   The marking is per phi over all edges: a phi conflicting on one edge uses its temporary
//!   on every edge, so the block's restore copies are the same whichever edge was taken.

use super::edges::EdgeSources;
use crate::ir::{Operand, Value};
use rustc_hash::FxHashMap;

/// For each phi (by index, destinations `dests`), whether it needs a temporary.
pub(super) fn find_conflicting_phis(dests: &[Value], edges: &[EdgeSources]) -> Vec<bool> {
    let phi_of_dest: FxHashMap<Value, usize> =
        dests.iter().enumerate().map(|(i, &d)| (d, i)).collect();
    // The phi whose destination a source names, if it is another phi than `reader`.
    let other_phi_read = |reader: usize, src: &Operand| -> Option<usize> {
        let v = src.as_value()?;
        phi_of_dest.get(&v).copied().filter(|&j| j != reader)
    };
    let mut conflicting = vec![false; dests.len()];
    // `on_edge[j] == e + 1` when phi j has an entry on edge e.
    let mut on_edge = vec![0usize; dests.len()];

    // Rule: on an edge, a phi whose source is the destination of another phi that also has
    // an entry on that edge needs a temporary (a self-copy names its own destination and
    // is never a conflict).
    for (e, edge) in edges.iter().enumerate() {
        for &(j, _) in &edge.sources {
            on_edge[j] = e + 1;
        }
        for &(i, ref src) in &edge.sources {
            if let Some(j) = other_phi_read(i, src) {
                if on_edge[j] == e + 1 {
                    conflicting[i] = true;
                }
            }
        }
    }

    // Safety net: if phi i is conflicting and on some edge its source is phi j's
    // destination, j is conflicting too; propagated to a fixed point with a worklist over
    // the "i reads j's destination" pairs, so a long chain costs one visit per pair.
    let mut reads: Vec<Vec<usize>> = vec![Vec::new(); dests.len()];
    for edge in edges {
        for &(i, ref src) in &edge.sources {
            if let Some(j) = other_phi_read(i, src) {
                reads[i].push(j);
            }
        }
    }
    let mut worklist: Vec<usize> = (0..dests.len()).filter(|&i| conflicting[i]).collect();
    while let Some(i) = worklist.pop() {
        for &j in &reads[i] {
            if !conflicting[j] {
                conflicting[j] = true;
                worklist.push(j);
            }
        }
    }
    conflicting
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{konst, IrType};

    fn v(n: u32) -> Operand {
        Operand::Value(Value(n))
    }

    fn edge(sources: Vec<(usize, Operand)>) -> EdgeSources {
        EdgeSources { pred: 0, sources }
    }

    #[test]
    fn swap_marks_both() {
        // %1 = phi [%2, P], %2 = phi [%1, P]
        let dests = [Value(1), Value(2)];
        let edges = [edge(vec![(0, v(2)), (1, v(1))])];
        assert_eq!(find_conflicting_phis(&dests, &edges), vec![true, true]);
    }

    #[test]
    fn chain_marks_reader_and_safety_net_marks_read() {
        // %1 = phi [%2, P] reads %2, which phi 1 writes; %2 = phi [%3, P] reads nothing of ours.
        let dests = [Value(1), Value(2)];
        let edges = [edge(vec![(0, v(2)), (1, v(3))])];
        assert_eq!(find_conflicting_phis(&dests, &edges), vec![true, true]);
    }

    #[test]
    fn independent_phis_and_self_copies_do_not_conflict() {
        let dests = [Value(1), Value(2), Value(3)];
        let edges = [
            edge(vec![(0, v(1)), (1, konst(IrType::I32, 7)), (2, v(9))]),
            edge(vec![(0, v(8)), (1, v(2)), (2, v(9))]),
        ];
        assert_eq!(
            find_conflicting_phis(&dests, &edges),
            vec![false, false, false]
        );
    }

    #[test]
    fn reading_a_phi_without_an_entry_on_the_edge_is_no_conflict() {
        // Phi 1 has no entry on edge 0, so %2 is not written there.
        let dests = [Value(1), Value(2)];
        let edges = [edge(vec![(0, v(2))]), edge(vec![(0, v(5)), (1, v(6))])];
        assert_eq!(find_conflicting_phis(&dests, &edges), vec![false, false]);
    }

    #[test]
    fn safety_net_crosses_edges() {
        // Phi 0 conflicts on edge 0 (it reads %3, phi 2's dest). On edge 1 it reads %2, the
        // dest of phi 1, which has no entry on edge 1: the rule alone would not mark phi 1,
        // the safety net does.
        let dests = [Value(1), Value(2), Value(3)];
        let edges = [
            edge(vec![(0, v(3)), (2, v(7))]),
            edge(vec![(0, v(2)), (2, v(9))]),
        ];
        let c = find_conflicting_phis(&dests, &edges);
        assert_eq!(c, vec![true, true, true]);
    }

    #[test]
    fn safety_net_follows_long_chains_across_edges() {
        // Edge 0: phi 0 reads phi 1's dest (both on the edge): phi 0 conflicts.
        // Edge k (k >= 1): phi k reads phi k+1's dest, which has no entry there, so only
        // the safety net, following the chain, marks phis 1 .. N-1.
        const N: usize = 50;
        let dests: Vec<Value> = (0..N as u32).map(|i| Value(100 + i)).collect();
        let mut edges = vec![edge(vec![(0, v(101)), (1, v(7))])];
        for k in 1..N - 1 {
            edges.push(edge(vec![(k, v(100 + k as u32 + 1))]));
        }
        assert_eq!(find_conflicting_phis(&dests, &edges), vec![true; N]);
    }
}
