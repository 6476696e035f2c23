//! The phi copy cost cap on a generated switch-dispatch loop (the seed's VM-dispatch case).

use super::build::*;
use super::{has_alloca, memory_ops_through, promote};
use crate::ir::{Inst, IrFunction};
use crate::mem2reg::MAX_PHI_COPY_COST;

/// Number of switch cases of the dispatch loop.
const CASES: u32 = 249;

/// A dispatch loop: entry 0 -> header 1 -> `switch` to the exit 2 (default) and to the
/// cases 3..=251, which go back to the header. Case 3 may also leave to the exit.
/// - `normal` slots (%1..) are stored in the entry and in cases 4..=251: one phi, in the
///   header (its 250 predecessors: the entry and every case), cost 250 each;
/// - two "heavy" slots are stored in every case, 3 included: DF(3) = {1, 2}, so they also
///   get a phi in the exit (predecessors 1 and 3), cost 252 each;
/// - one slot stored only in the entry: no phi, cost 0.
///
/// Returns the function and the heavy and cheap slots' values.
fn dispatch_loop(normal: u32) -> (IrFunction, [u32; 2], u32) {
    let normal_slots: Vec<u32> = (1..=normal).collect();
    let heavy = [normal + 1, normal + 2];
    let cheap = normal + 3;
    let mut entry = vec![paramref(0, 0, I32)];
    for s in 1..=cheap {
        entry.push(alloca(s, I32));
        entry.push(store(I32, c(I32, 0), s));
    }
    let cases: Vec<(i64, u32)> = (1..=CASES).map(|k| (k as i64, 2 + k)).collect();
    let mut blocks = vec![
        block(0, entry, br(1)),
        block(1, vec![], switch(I32, v(0), 2, &cases)),
        block(
            2,
            vec![load(cheap + 1, I32, cheap), load(cheap + 2, I32, heavy[0])],
            ret(I32, v(cheap + 1)),
        ),
    ];
    for case in 3..=2 + CASES {
        let stored: Vec<u32> = if case == 3 {
            heavy.to_vec()
        } else {
            normal_slots.iter().chain(&heavy).copied().collect()
        };
        let insts = stored
            .iter()
            .map(|&s| store(I32, c(I32, case as i64), s))
            .collect();
        let term = if case == 3 { condbr(v(0), 1, 2) } else { br(1) };
        blocks.push(block(case, insts, term));
    }
    (func(&[I32], I32, blocks), heavy, cheap)
}

/// Number of phis at the start of block `b`.
fn phis_in(f: &IrFunction, b: usize) -> usize {
    f.blocks[b].insts.iter().filter(|i| i.is_phi()).count()
}

#[test]
fn under_the_cap_everything_is_promoted() {
    // 10 * 250 + 2 * 252 = 3004 copies.
    let (f, heavy, _) = dispatch_loop(10);
    let (n, out) = promote(&f);
    assert_eq!(n, 13);
    assert_eq!(phis_in(&out, 1), 12);
    assert_eq!(phis_in(&out, 2), 2);
    assert!(!has_alloca(&out, heavy[0]));
    let header_phi = &out.blocks[1].insts[0];
    assert!(matches!(header_phi, Inst::Phi { incoming, .. } if incoming.len() == 250));
}

#[test]
fn over_the_cap_the_most_expensive_slots_stay_in_memory() {
    // 200 * 250 + 2 * 252 = 50504 > 50000: both heavy slots go (50252 after the first is
    // still over), leaving exactly 50000, which is allowed.
    assert_eq!(MAX_PHI_COPY_COST, 50_000);
    let (f, heavy, cheap) = dispatch_loop(200);
    let (n, out) = promote(&f);
    assert_eq!(n, 201);
    for h in heavy {
        assert!(has_alloca(&out, h));
    }
    // The entry's store, one per case, and (for the first) the exit's load.
    assert_eq!(memory_ops_through(&out, heavy[0]), 1 + CASES as usize + 1);
    assert_eq!(memory_ops_through(&out, heavy[1]), 1 + CASES as usize);
    assert!(!has_alloca(&out, cheap));
    assert!(!has_alloca(&out, 1));
    assert_eq!(phis_in(&out, 1), 200);
    assert_eq!(phis_in(&out, 2), 0);
    let copies: usize = out
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .map(|i| match i {
            Inst::Phi { incoming, .. } => incoming.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(copies, MAX_PHI_COPY_COST);
}

#[test]
fn the_cap_stops_dropping_once_under_budget_later_slot_first() {
    // 198 * 250 + 2 * 252 = 50004: dropping one heavy slot (the later one, on a tie) gives
    // 49752, under the cap; the other heavy slot stays promoted.
    let (f, heavy, _) = dispatch_loop(198);
    let (n, out) = promote(&f);
    assert_eq!(n, 198 + 1 + 1);
    assert!(!has_alloca(&out, heavy[0]));
    assert!(has_alloca(&out, heavy[1]));
    assert_eq!(phis_in(&out, 1), 199);
    assert_eq!(phis_in(&out, 2), 1);
}
