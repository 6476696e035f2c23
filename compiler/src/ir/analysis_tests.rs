//! Tests of the CFG and dominator analysis: the seeds' example graphs with the results
//! their texts give, the corner cases (irreducible loops, unreachable blocks, back edges
//! into the entry, self loops, repeated targets), 100k-block graphs, and a brute-force
//! comparison on random small graphs.

use super::*;
use crate::ir::{BasicBlock, FuncAttrs, IrType, Operand, Terminator, Value};

/// A function whose block `i` (label `.LBBi`) branches to `succs[i]`, in order, repeats
/// kept: no target is `ret`, one is `br`, two are `condbr`, more are a `switch`.
fn function_of(succs: &[&[usize]]) -> IrFunction {
    let cond = Operand::Value(Value(0));
    let blocks = succs
        .iter()
        .enumerate()
        .map(|(i, targets)| {
            let t: Vec<BlockId> = targets.iter().map(|&b| BlockId(b as u32)).collect();
            let term = match t.len() {
                0 => Terminator::Ret(None),
                1 => Terminator::Br(t[0]),
                2 => Terminator::CondBr {
                    cond,
                    if_true: t[0],
                    if_false: t[1],
                },
                _ => Terminator::Switch {
                    ty: IrType::I32,
                    val: cond,
                    default: t[0],
                    cases: t[1..]
                        .iter()
                        .enumerate()
                        .map(|(k, &b)| (k as i64, b))
                        .collect(),
                },
            };
            BasicBlock::new(BlockId(i as u32), term)
        })
        .collect();
    IrFunction {
        name: "g".into(),
        params: vec![],
        ret: IrType::Void,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks,
    }
}

fn analysis_of(succs: &[&[usize]]) -> CfgAnalysis {
    CfgAnalysis::build(&function_of(succs))
}

/// Blocks reachable from the entry when `removed` is taken out of the graph.
fn reachable_without(succs: &[Vec<usize>], removed: Option<usize>) -> Vec<bool> {
    let mut seen = vec![false; succs.len()];
    if succs.is_empty() || removed == Some(0) {
        return seen;
    }
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        for &s in &succs[b] {
            if Some(s) != removed && !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    seen
}

/// `dom[a][b]`: a dominates b, by definition: b is reachable, and removing a makes b
/// unreachable (or a is b).
fn brute_dominance(succs: &[Vec<usize>]) -> Vec<Vec<bool>> {
    let n = succs.len();
    let reachable = reachable_without(succs, None);
    (0..n)
        .map(|a| {
            let without_a = reachable_without(succs, Some(a));
            (0..n)
                .map(|b| reachable[b] && (a == b || !without_a[b]))
                .collect()
        })
        .collect()
}

/// Dominance frontiers by definition: Y is in DF(X) when X dominates a reachable
/// predecessor of Y and does not strictly dominate Y. Sorted.
fn brute_frontiers(succs: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = succs.len();
    let dom = brute_dominance(succs);
    let reachable = reachable_without(succs, None);
    let mut df = vec![Vec::new(); n];
    for (x, frontier) in df.iter_mut().enumerate() {
        for y in 0..n {
            let strictly = x != y && dom[x][y];
            let dominates_a_pred =
                (0..n).any(|p| reachable[p] && succs[p].contains(&y) && dom[x][p]);
            if dominates_a_pred && !strictly {
                frontier.push(y);
            }
        }
    }
    df
}

fn owned(succs: &[&[usize]]) -> Vec<Vec<usize>> {
    succs.iter().map(|s| s.to_vec()).collect()
}

#[test]
fn textbook_figure_1_11() {
    // mem2reg-textbook.zh.txt, figure 1-11 (n1..n8 are blocks 0..7); its walkthrough of
    // figure 1-10 visits the edges n1->n2, n2->n3, n2->n4, n3->n7, n4->n5, n4->n6,
    // n5->n7, n6->n4, n7->n8, and names the immediate dominators it climbs through.
    let g: &[&[usize]] = &[&[1], &[2, 3], &[6], &[4, 5], &[6], &[3], &[7], &[]];
    let a = analysis_of(g);
    // idom: n2 <- n1; n3, n4, n7 <- n2; n5, n6 <- n4; n8 <- n7.
    assert_eq!(a.idom, vec![0, 0, 1, 1, 3, 3, 1, 6]);
    // The text's result: DF(n3) = DF(n5) = {n7}, DF(n6) = {n4}, DF(n1) = DF(n2) = DF(n7)
    // = DF(n8) = {}. It also states DF(n4) = {n7}, claiming at the edge n6->n4 that "n4
    // strictly dominates itself"; by the definition (and by the book's own figure 1-10
    // loop, `while x does not strictly dominate b`) n4 is in its own frontier: n4
    // dominates n6, a predecessor of n4, and does not strictly dominate n4. So
    // DF(n4) = {n4, n7}, as the tinyoptimizer blog says of a loop header ("while.cond is
    // in its own frontier").
    let df = a.dominance_frontiers();
    assert_eq!(
        df,
        vec![
            vec![],
            vec![],
            vec![6],
            vec![3, 6],
            vec![6],
            vec![3],
            vec![],
            vec![]
        ]
    );
    assert_eq!(df, brute_frontiers(&owned(g)));
}

#[test]
fn textbook_figure_1_9_diamond() {
    // mem2reg-textbook.zh.txt, figure 1-9: entry -> 5, 8; 5 -> 6; 8 -> 6 (blocks 0, 1 =
    // label 5, 2 = label 6, 3 = label 8). The text: DF(5) = DF(8) = {6}, DF(6) = {}.
    let g: &[&[usize]] = &[&[1, 3], &[2], &[], &[2]];
    let a = analysis_of(g);
    assert_eq!(a.idom, vec![0, 0, 0, 0]);
    assert_eq!(
        a.dominance_frontiers(),
        vec![vec![], vec![2], vec![], vec![2]]
    );
}

#[test]
fn tinyoptimizer_blog_fib() {
    // mem2reg-tinyoptimizer-blog.txt, `fib`: entry=0, if.then=1, if.end=2, while.cond=3,
    // while.body=4, while.end=5, return=6.
    let g: &[&[usize]] = &[&[1, 2], &[6], &[3], &[4, 5], &[3], &[6], &[]];
    let a = analysis_of(g);
    // The blog's immediate dominators: if.then, if.end, return <- entry;
    // while.cond <- if.end; while.body, while.end <- while.cond.
    assert_eq!(a.idom, vec![0, 0, 0, 2, 3, 3, 0]);
    // The blog's dominator sets, e.g. while.body: {while.body, if.end, while.cond, entry};
    // return: {return, entry}.
    let dominators_of =
        |b: usize| -> Vec<usize> { (0..7).filter(|&d| a.dominates(d, b)).collect() };
    assert_eq!(dominators_of(4), vec![0, 2, 3, 4]);
    assert_eq!(dominators_of(5), vec![0, 2, 3, 5]);
    assert_eq!(dominators_of(6), vec![0, 6]);
    assert_eq!(dominators_of(1), vec![0, 1]);
    // The blog's frontiers: if.then: {return}, while.body: {while.cond}, if.end: {return},
    // while.end: {return}, while.cond: {return, while.cond}, entry and return: {}.
    assert_eq!(
        a.dominance_frontiers(),
        vec![
            vec![],
            vec![6],
            vec![6],
            vec![3, 6],
            vec![3],
            vec![6],
            vec![]
        ]
    );
    assert_eq!(a.dom_children[0], vec![1, 2, 6]);
    assert_eq!(a.dom_children[3], vec![4, 5]);
}

#[test]
fn irreducible_loop() {
    // 0 -> 1, 2; 1 <-> 2; both -> 3. Neither loop block dominates the other.
    let g: &[&[usize]] = &[&[1, 2], &[2, 3], &[1, 3], &[]];
    let a = analysis_of(g);
    assert_eq!(a.idom, vec![0, 0, 0, 0]);
    assert!(!a.dominates(1, 2) && !a.dominates(2, 1));
    assert_eq!(
        a.dominance_frontiers(),
        vec![vec![], vec![2, 3], vec![1, 3], vec![]]
    );
    assert_eq!(a.dominance_frontiers(), brute_frontiers(&owned(g)));
}

#[test]
fn unreachable_blocks_are_nowhere() {
    // 3 and 4 are unreachable; 3 jumps into 1 and 2, 4 loops on itself and into 2.
    let g: &[&[usize]] = &[&[1], &[2], &[], &[1, 2], &[4, 2]];
    let a = analysis_of(g);
    assert_eq!(a.idom, vec![0, 0, 1, UNREACHABLE, UNREACHABLE]);
    assert!(!a.is_reachable(3) && !a.is_reachable(4));
    assert_eq!(a.rpo, vec![0, 1, 2]);
    for children in &a.dom_children {
        assert!(!children.contains(&3) && !children.contains(&4));
    }
    // 1 and 2 have an unreachable second predecessor: no join, no frontier anywhere.
    assert_eq!(a.dominance_frontiers(), vec![Vec::<usize>::new(); 5]);
    assert!(!a.dominates(3, 3) && !a.dominates(3, 1) && !a.dominates(0, 4));
    // The raw CFG still lists the edges.
    assert_eq!(a.preds.row(1), &[0, 3]);
}

#[test]
fn back_edges_into_the_entry() {
    // One back edge: 0 -> 1 -> 0, 1 -> 2. The entry has an implicit predecessor (the
    // caller), so it is a join: it is in the frontier of 1 and of itself.
    let g: &[&[usize]] = &[&[1], &[0, 2], &[]];
    let a = analysis_of(g);
    assert_eq!(a.idom, vec![0, 0, 1]);
    assert_eq!(a.dominance_frontiers(), vec![vec![0], vec![0], vec![]]);
    assert_eq!(a.dominance_frontiers(), brute_frontiers(&owned(g)));
    // Two back edges: 1 -> 0 and 2 -> 0.
    let g: &[&[usize]] = &[&[1], &[0, 2], &[0]];
    let a = analysis_of(g);
    assert_eq!(a.dominance_frontiers(), vec![vec![0], vec![0], vec![0]]);
    assert_eq!(a.dominance_frontiers(), brute_frontiers(&owned(g)));
    assert_eq!(a.dom_children[0], vec![1]);
}

#[test]
fn self_loops() {
    // A self loop on a body block, and one on the entry.
    let g: &[&[usize]] = &[&[1], &[1, 2], &[]];
    let a = analysis_of(g);
    assert_eq!(a.idom, vec![0, 0, 1]);
    assert_eq!(a.dominance_frontiers(), vec![vec![], vec![1], vec![]]);
    let g: &[&[usize]] = &[&[0, 1], &[]];
    let a = analysis_of(g);
    assert_eq!(a.idom, vec![0, 0]);
    assert_eq!(a.dominance_frontiers(), vec![vec![0], vec![]]);
    assert_eq!(a.dominance_frontiers(), brute_frontiers(&owned(g)));
}

#[test]
fn repeated_targets_are_one_edge() {
    // condbr to the same block twice; a switch naming 1 three times and 2 twice.
    let g: &[&[usize]] = &[&[1, 1], &[2, 1, 2, 1, 3], &[3], &[]];
    let a = analysis_of(g);
    assert_eq!(a.succs.row(0), &[1]);
    assert_eq!(a.succs.row(1), &[2, 1, 3]);
    assert_eq!(a.preds.row(1), &[0, 1]);
    assert_eq!(a.preds.row(3), &[1, 2]);
    assert_eq!(a.succs.len(1), 3);
    assert_eq!(a.idom, vec![0, 0, 1, 1]);
    assert_eq!(
        a.dominance_frontiers(),
        vec![vec![], vec![1], vec![3], vec![]]
    );
    // The function's terminators do keep every edge.
    assert_eq!(function_of(g).blocks[1].term.successors().len(), 5);
}

#[test]
fn flat_adjacency_rows() {
    let adj = FlatAdj::from_edges(4, &[(2, 1), (0, 3), (2, 1), (2, 0), (0, 3), (3, 3)]);
    assert_eq!(adj.num_rows(), 4);
    assert_eq!(adj.row(0), &[3]);
    assert_eq!(adj.row(1), &[] as &[u32]);
    assert_eq!(adj.row(2), &[1, 0]);
    assert_eq!(adj.row(3), &[3]);
    assert!(!adj.is_empty());
    assert!(FlatAdj::from_edges(0, &[]).is_empty());
}

#[test]
fn empty_function() {
    let a = analysis_of(&[]);
    assert_eq!(a.num_blocks, 0);
    assert!(a.rpo.is_empty() && a.idom.is_empty());
    assert!(a.dominance_frontiers().is_empty());
}

#[test]
fn hundred_thousand_blocks_do_not_overflow_the_stack() {
    const N: usize = 100_000;
    // A chain 0 -> 1 -> ... -> N-1 with a back edge N-1 -> 1: the dominator tree and the
    // DFS are both N deep.
    let chain: Vec<Vec<usize>> = (0..N)
        .map(|i| if i + 1 < N { vec![i + 1] } else { vec![1] })
        .collect();
    let refs: Vec<&[usize]> = chain.iter().map(|s| s.as_slice()).collect();
    let a = analysis_of(&refs);
    assert_eq!(a.idom[N - 1], N - 2);
    assert!(a.dominates(1, N - 1) && !a.dominates(N - 1, 1));
    let df = a.dominance_frontiers();
    // Every block from 1 to N-1 dominates the latch and not the header 1.
    assert!(df[1..].iter().all(|f| f == &vec![1]));
    assert!(df[0].is_empty());

    // A ladder: i -> i+1, i+2. Every block can be jumped over, so the entry is everyone's
    // immediate dominator (a flat tree under a 100k-deep DFS), and each block from 1 on
    // has both its successors in its frontier (each is a join: 1 has the single
    // predecessor 0, every later block two).
    let ladder: Vec<Vec<usize>> = (0..N).map(|i| (i + 1..(i + 3).min(N)).collect()).collect();
    let refs: Vec<&[usize]> = ladder.iter().map(|s| s.as_slice()).collect();
    let a = analysis_of(&refs);
    assert!(a.idom[1..].iter().all(|&d| d == 0));
    assert_eq!(a.dom_children[0].len(), N - 1);
    let df = a.dominance_frontiers();
    assert!(df[0].is_empty());
    for (i, frontier) in df.iter().enumerate().take(N - 2).skip(1) {
        assert_eq!(frontier, &vec![i + 1, i + 2], "DF of {i}");
    }
    assert_eq!(df[N - 2], vec![N - 1]);
    assert!(df[N - 1].is_empty());
}

/// A deterministic generator (splitmix64) for the random graphs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

#[test]
fn dominance_and_frontiers_match_brute_force_on_random_graphs() {
    let mut rng = Rng(42);
    for round in 0..400 {
        let n = 1 + rng.below(12) as usize;
        let succs: Vec<Vec<usize>> = (0..n)
            .map(|_| {
                (0..rng.below(4))
                    .map(|_| rng.below(n as u64) as usize)
                    .collect()
            })
            .collect();
        let refs: Vec<&[usize]> = succs.iter().map(|s| s.as_slice()).collect();
        let a = analysis_of(&refs);
        let dom = brute_dominance(&succs);
        let reachable = reachable_without(&succs, None);
        for x in 0..n {
            assert_eq!(a.is_reachable(x), reachable[x], "round {round}: reach {x}");
            for (y, &expected) in dom[x].iter().enumerate() {
                assert_eq!(
                    a.dominates(x, y),
                    expected,
                    "round {round}: {x} dom {y} in {succs:?}"
                );
            }
            // idom: the strict dominator that every other strict dominator dominates.
            if x != 0 && reachable[x] {
                let d = a.idom[x];
                assert!(dom[d][x] && d != x, "round {round}: idom {x}");
                for (z, dominated_by_z) in dom.iter().enumerate() {
                    if z != x && dominated_by_z[x] {
                        assert!(dominated_by_z[d], "round {round}: idom {x} not immediate");
                    }
                }
                assert!(a.dom_children[d].contains(&x));
            }
        }
        let mut rpo_sorted = a.rpo.clone();
        rpo_sorted.sort_unstable();
        let reachable_list: Vec<usize> = (0..n).filter(|&b| reachable[b]).collect();
        assert_eq!(rpo_sorted, reachable_list, "round {round}: rpo");
        assert_eq!(
            a.dominance_frontiers(),
            brute_frontiers(&succs),
            "round {round}: {succs:?}"
        );
    }
}
