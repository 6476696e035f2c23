//! Natural loops and their preheaders, from the shared CFG analysis.
//!
//! Why: LICM needs, for each loop, the set of blocks that make it up and the one block
//! outside it where every entry to the loop passes, so that an instruction moved there
//! runs before the loop and dominates every block of it.
//!
//! Definitions and invariants:
//! - a *back edge* is an edge `latch -> header` of reachable blocks where the header
//!   dominates the latch; cycles without one (irreducible ones) are not loops here;
//! - the *body* of the loop at `header` is the header plus every reachable block that
//!   reaches one of its latches without passing through the header; every body block is
//!   dominated by the header, and the only edges into the body from outside go to the
//!   header;
//! - the *preheader* is the only reachable predecessor of the header outside the body,
//!   provided its only successor is the header; otherwise the loop has none (blocks are
//!   never created here: the CFG must not change). The entry block has the caller as an
//!   implicit predecessor, so a loop headed by the entry has no preheader;
//! - loops come innermost first (a loop's body is strictly larger than any loop it
//!   contains), and each body lists its blocks in reverse postorder;
//! - no recursion: explicit worklists only.
//!
//! Seeded bugs: [`Mutant::LicmSingleBackEdge`] (the body from the first latch only) and
//! [`Mutant::LicmPreheaderFirstEntry`] (a preheader picked for a loop with two entries).

use crate::ir::analysis::CfgAnalysis;
use crate::mutants::{self, Mutant};

/// One natural loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct NaturalLoop {
    pub header: usize,
    /// Block indexes of the body, header first, in reverse postorder.
    pub blocks: Vec<usize>,
    pub preheader: Option<usize>,
}

/// The natural loops of the function `cfg` describes, innermost first.
pub(super) fn natural_loops(cfg: &CfgAnalysis) -> Vec<NaturalLoop> {
    let n = cfg.num_blocks;
    let mut rpo_index = vec![usize::MAX; n];
    for (i, &b) in cfg.rpo.iter().enumerate() {
        rpo_index[b] = i;
    }
    // Latches of each header, headers in reverse postorder.
    let mut latches: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut headers = Vec::new();
    for &b in &cfg.rpo {
        for &h in cfg.succs.row(b) {
            let h = h as usize;
            // Rule: an edge is a back edge when its target dominates its source.
            if cfg.dominates(h, b) {
                if latches[h].is_empty() {
                    headers.push(h);
                }
                latches[h].push(b);
            }
        }
    }

    let mut in_body = vec![false; n];
    let mut loops = Vec::with_capacity(headers.len());
    for header in headers {
        let mut blocks = vec![header];
        in_body[header] = true;
        let mut work: Vec<usize> = Vec::new();
        // Seeded bug `LicmSingleBackEdge`: the walk starts at the first latch only; the
        // other latches count as body blocks, their predecessors are never walked.
        let single = mutants::enabled(Mutant::LicmSingleBackEdge);
        for (i, &latch) in latches[header].iter().enumerate() {
            if !in_body[latch] {
                in_body[latch] = true;
                blocks.push(latch);
                if i == 0 || !single {
                    work.push(latch);
                }
            }
        }
        // Walk predecessors backwards from the latches; the header stops the walk.
        while let Some(b) = work.pop() {
            for &p in cfg.preds.row(b) {
                let p = p as usize;
                if cfg.is_reachable(p) && !in_body[p] {
                    in_body[p] = true;
                    blocks.push(p);
                    work.push(p);
                }
            }
        }
        let preheader = find_preheader(cfg, header, &in_body);
        for &b in &blocks {
            in_body[b] = false;
        }
        blocks.sort_unstable_by_key(|&b| rpo_index[b]);
        loops.push(NaturalLoop {
            header,
            blocks,
            preheader,
        });
    }
    loops.sort_by_key(|l| l.blocks.len());
    loops
}

/// The preheader of the loop at `header` whose body `in_body` marks, if it has one.
fn find_preheader(cfg: &CfgAnalysis, header: usize, in_body: &[bool]) -> Option<usize> {
    if header == 0 {
        return None;
    }
    let mut outside = cfg
        .preds
        .row(header)
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| cfg.is_reachable(p) && !in_body[p]);
    let candidate = outside.next()?;
    // Seeded bug `LicmPreheaderFirstEntry`: the other ways into the loop are not looked at.
    if outside.next().is_some() && !mutants::enabled(Mutant::LicmPreheaderFirstEntry) {
        return None;
    }
    // Rule: the preheader leads only to the header (distinct successors).
    (cfg.succs.row(candidate) == [header as u32]).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    fn loops_of(src: &str) -> Vec<NaturalLoop> {
        let m = parse_module(src).expect("test input parses");
        natural_loops(&CfgAnalysis::build(&m.functions[0]))
    }

    #[test]
    fn nested_loops_innermost_first_with_preheaders() {
        // 0 -> 1 (outer header) -> 2 (inner preheader) -> 3 (inner header) <-> 4;
        // 3 -> 5 (outer latch) -> 1; 1 -> 6 exit.
        let loops = loops_of(
            "func @f(i8) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    br .LBB1\n\
             .LBB1:\n    condbr %0, .LBB2, .LBB6\n.LBB2:\n    br .LBB3\n\
             .LBB3:\n    condbr %0, .LBB4, .LBB5\n.LBB4:\n    br .LBB3\n\
             .LBB5:\n    br .LBB1\n.LBB6:\n    ret\n}\n",
        );
        assert_eq!(
            loops,
            vec![
                NaturalLoop {
                    header: 3,
                    blocks: vec![3, 4],
                    preheader: Some(2)
                },
                NaturalLoop {
                    header: 1,
                    // Reverse postorder: the DFS leaves .LBB4 before .LBB5.
                    blocks: vec![1, 2, 3, 5, 4],
                    preheader: Some(0)
                },
            ]
        );
    }

    #[test]
    fn irreducible_cycles_are_not_loops() {
        // 1 <-> 2 entered at both: neither dominates the other.
        let loops = loops_of(
            "func @f(i8) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    condbr %0, .LBB1, .LBB2\n\
             .LBB1:\n    condbr %0, .LBB2, .LBB3\n.LBB2:\n    condbr %0, .LBB1, .LBB3\n\
             .LBB3:\n    ret\n}\n",
        );
        assert!(loops.is_empty());
    }

    #[test]
    fn loops_without_a_usable_preheader() {
        // Two outside predecessors (0 and 1) of header 2.
        let two_entries = loops_of(
            "func @f(i8) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    condbr %0, .LBB1, .LBB2\n\
             .LBB1:\n    br .LBB2\n.LBB2:\n    condbr %0, .LBB2, .LBB3\n.LBB3:\n    ret\n}\n",
        );
        assert_eq!(two_entries.len(), 1);
        assert_eq!(two_entries[0].preheader, None);
        // The only outside predecessor also branches elsewhere.
        let branching = loops_of(
            "func @f(i8) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    condbr %0, .LBB1, .LBB2\n\
             .LBB1:\n    condbr %0, .LBB1, .LBB2\n.LBB2:\n    ret\n}\n",
        );
        assert_eq!(branching.len(), 1);
        assert_eq!(branching[0].header, 1);
        assert_eq!(branching[0].preheader, None);
        // A loop headed by the entry: the caller is the other way in.
        let entry_loop = loops_of(
            "func @f(i8) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    condbr %0, .LBB0, .LBB1\n\
             .LBB1:\n    ret\n}\n",
        );
        assert_eq!(entry_loop[0].preheader, None);
        // An unreachable predecessor does not count; `condbr %c, .H, .H` leads only to H.
        let fine = loops_of(
            "func @f(i8) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    condbr %0, .LBB1, .LBB1\n\
             .LBB1:\n    condbr %0, .LBB1, .LBB2\n.LBB2:\n    ret\n.LBB3:\n    br .LBB1\n}\n",
        );
        assert_eq!(fine[0].preheader, Some(0));
    }
}
