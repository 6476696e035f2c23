//! Liveness tests: hand-computed sets and intervals on small non-SSA functions, and the
//! corpus through the pipeline against a naive reference (round-robin iteration over
//! `BTreeSet`s, then a backward walk per block that records every live position).

use super::*;
use crate::backend::regalloc::test_ir::{corpus_post_phi_elim, function, parse_post_phi_elim};
use crate::ir::BlockId;
use std::collections::BTreeSet;

fn values(ns: &[u32]) -> Vec<Value> {
    ns.iter().map(|&n| Value(n)).collect()
}

fn interval(l: &Liveness, v: u32) -> (Pos, Pos) {
    let iv = l.interval(Value(v)).expect("value has an interval");
    (iv.start, iv.end)
}

#[test]
fn straight_line_positions_and_intervals() {
    let m = parse_post_phi_elim(
        "func @f(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             %1 = add i32 %0, 1
             %2 = mul i32 %1, %0
             ret i32 %2
         }",
    );
    let l = compute(function(&m, "f"));
    // Instruction k: use point 2k, def point 2k+1; the terminator is k = 3.
    assert_eq!(l.inst_count, 4);
    assert_eq!(l.block_first_inst, vec![0]);
    assert_eq!(interval(&l, 0), (1, 4));
    assert_eq!(interval(&l, 1), (3, 4));
    assert_eq!(interval(&l, 2), (5, 6));
    // %1 dies where %2 is born: they may share a location.
    let (i1, i2) = (l.interval(Value(1)).unwrap(), l.interval(Value(2)).unwrap());
    assert!(!i1.overlaps(i2));
    assert!(l.sets.live_in.of(0).is_empty() && l.sets.live_out.of(0).is_empty());
}

/// A loop whose counter %1 is assigned on two paths (entry and latch), as phi elimination
/// leaves it.
const COUNTING_LOOP: &str = "func @g(i32) -> i32 {
    .LBB0:
        %0 = paramref 0, i32
        %1 = copy i32 0
        br .LBB1
    .LBB1:
        %2 = cmp slt i32 %1, %0
        condbr %2, .LBB2, .LBB3
    .LBB2:
        %3 = add i32 %1, 1
        %1 = copy i32 %3
        br .LBB1
    .LBB3:
        ret i32 %1
    }";

#[test]
fn a_value_assigned_on_two_paths_is_live_around_the_loop() {
    let m = parse_post_phi_elim(COUNTING_LOOP);
    let l = compute(function(&m, "g"));
    assert_eq!(l.sets.live_in.of(0), values(&[]).as_slice());
    assert_eq!(l.sets.live_in.of(1), values(&[0, 1]).as_slice());
    assert_eq!(l.sets.live_in.of(2), values(&[0, 1]).as_slice());
    assert_eq!(l.sets.live_in.of(3), values(&[1]).as_slice());
    assert_eq!(l.sets.live_out.of(0), values(&[0, 1]).as_slice());
    assert_eq!(l.sets.live_out.of(1), values(&[0, 1]).as_slice());
    assert_eq!(l.sets.live_out.of(2), values(&[0, 1]).as_slice());
    assert_eq!(l.sets.live_out.of(3), values(&[]).as_slice());
    // Numbering: .LBB0 = 0..=2, .LBB1 = 3..=4, .LBB2 = 5..=7, .LBB3 = 8.
    assert_eq!(l.block_first_inst, vec![0, 3, 5, 8]);
    assert_eq!(interval(&l, 0), (1, 15)); // live out of the latch's `br` (def point 15)
    assert_eq!(interval(&l, 1), (3, 16)); // to the `ret`'s use point
    assert_eq!(interval(&l, 2), (7, 8));
    assert_eq!(interval(&l, 3), (11, 12));
}

#[test]
fn a_value_read_before_any_assignment_on_some_path_is_live_into_the_entry() {
    let m = parse_post_phi_elim(
        "func @h(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             condbr %0, .LBB1, .LBB2
         .LBB1:
             %1 = copy i32 5
             br .LBB2
         .LBB2:
             ret i32 %1
         }",
    );
    let l = compute(function(&m, "h"));
    assert_eq!(l.sets.live_in.of(0), values(&[1]).as_slice());
    assert_eq!(l.sets.live_out.of(0), values(&[1]).as_slice());
    assert_eq!(l.sets.live_in.of(1), values(&[]).as_slice());
    assert_eq!(l.sets.live_in.of(2), values(&[1]).as_slice());
    // From the entry's first position to the `ret` (instruction 4, use point 8).
    assert_eq!(interval(&l, 1), (0, 8));
}

#[test]
fn unreachable_blocks_have_live_sets_and_positions() {
    let m = parse_post_phi_elim(
        "func @u(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             ret i32 %0
         .LBB1:
             %1 = add i32 %0, 1
             br .LBB2
         .LBB2:
             ret i32 %1
         }",
    );
    let l = compute(function(&m, "u"));
    assert_eq!(l.sets.live_in.of(1), values(&[0]).as_slice());
    assert_eq!(l.sets.live_out.of(1), values(&[1]).as_slice());
    assert_eq!(l.sets.live_out.of(0), values(&[]).as_slice());
    // %0: defined at 1, read by `ret` at 2, live into .LBB1 (first use point 4).
    assert_eq!(interval(&l, 0), (1, 4));
    assert_eq!(interval(&l, 1), (5, 8));
}

#[test]
fn crossing_a_call_or_memcpy_means_live_after_it_and_not_defined_by_it() {
    let m = parse_post_phi_elim(
        "declare @g(i32) -> i32
         func @f(i32, ptr, ptr) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             %4 = paramref 1, ptr
             %5 = paramref 2, ptr
             %1 = add i32 %0, 1
             %2 = call i32 @g(i32 %1)
             memcpy %4, %5, 8
             %3 = add i32 %2, %0
             ret i32 %3
         }",
    );
    let l = compute(function(&m, "f"));
    let iv = |v: u32| *l.interval(Value(v)).unwrap();
    // %0 is read after the call and the memcpy.
    assert!(iv(0).crosses_call && iv(0).crosses_memcpy);
    // %1 dies at the call (its argument); %2 is the call's result.
    assert!(!iv(1).crosses_call && !iv(1).crosses_memcpy);
    assert!(!iv(2).crosses_call && iv(2).crosses_memcpy);
    // %4 and %5 are live across the call and die at the memcpy.
    assert!(iv(4).crosses_call && !iv(4).crosses_memcpy);
    assert!(iv(5).crosses_call && !iv(5).crosses_memcpy);
    assert!(!iv(3).crosses_call && !iv(3).crosses_memcpy);
}

#[test]
fn a_value_live_around_a_loop_with_a_call_crosses_it() {
    let m = parse_post_phi_elim(
        "declare @g(i32) -> i32
         func @f(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             %1 = copy i32 0
             br .LBB1
         .LBB1:
             %2 = call i32 @g(i32 %1)
             %1 = copy i32 %2
             %3 = cmp slt i32 %1, %0
             condbr %3, .LBB1, .LBB2
         .LBB2:
             ret i32 %1
         }",
    );
    let l = compute(function(&m, "f"));
    assert!(l.interval(Value(0)).unwrap().crosses_call);
    // %1 is read by the call and reassigned right after it: never live across it.
    assert!(!l.interval(Value(1)).unwrap().crosses_call);
}

/// The naive reference: live-in/live-out by round-robin iteration to a fixpoint.
fn naive_live_sets(func: &IrFunction) -> (Vec<BTreeSet<Value>>, Vec<BTreeSet<Value>>) {
    let index: std::collections::HashMap<BlockId, usize> = func
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label, i))
        .collect();
    let n = func.blocks.len();
    let mut live_in = vec![BTreeSet::new(); n];
    let mut live_out = vec![BTreeSet::new(); n];
    loop {
        let mut changed = false;
        for b in (0..n).rev() {
            let block = &func.blocks[b];
            let mut out = BTreeSet::new();
            for s in block.term.successors() {
                if let Some(&si) = index.get(&s) {
                    out.extend(live_in[si].iter().copied());
                }
            }
            let mut live = out.clone();
            block.term.for_each_used_value(|v| {
                live.insert(v);
            });
            for inst in block.insts.iter().rev() {
                if let Some(d) = inst.dest() {
                    live.remove(&d);
                }
                inst.for_each_used_value(|v| {
                    live.insert(v);
                });
            }
            if out != live_out[b] || live != live_in[b] {
                changed = true;
                live_out[b] = out;
                live_in[b] = live;
            }
        }
        if !changed {
            return (live_in, live_out);
        }
    }
}

/// Checks `compute` against the naive reference on one function: equal sets; every
/// interval covers every position where its value is live, assigned or read; crossings
/// exactly where a value is live after a call/memcpy that does not define it.
fn check_against_naive(name: &str, func: &IrFunction) {
    let l = compute(func);
    let (naive_in, naive_out) = naive_live_sets(func);
    let mut crosses_call = BTreeSet::new();
    let mut crosses_memcpy = BTreeSet::new();
    let covered = |v: Value, pos: Pos, what: &str| {
        let iv = l
            .interval(v)
            .unwrap_or_else(|| panic!("{name}: {v} has no interval"));
        assert!(
            iv.contains(pos),
            "{name}: {v} {what} at {pos} outside {iv:?}"
        );
    };
    for (b, block) in func.blocks.iter().enumerate() {
        let got_in: BTreeSet<Value> = l.sets.live_in.of(b).iter().copied().collect();
        let got_out: BTreeSet<Value> = l.sets.live_out.of(b).iter().copied().collect();
        assert_eq!(got_in, naive_in[b], "{name}: live-in of {}", block.label);
        assert_eq!(got_out, naive_out[b], "{name}: live-out of {}", block.label);
        let term_k = l.inst_number(b, block.insts.len());
        let mut live = naive_out[b].clone();
        for &v in &live {
            covered(v, def_point(term_k), "live out");
        }
        block.term.for_each_used_value(|v| {
            covered(v, use_point(term_k), "read");
            live.insert(v);
        });
        for (i, inst) in block.insts.iter().enumerate().rev() {
            let k = l.inst_number(b, i);
            for &v in &live {
                covered(v, def_point(k), "live after");
            }
            if let Some(d) = inst.dest() {
                covered(d, def_point(k), "assigned");
                live.remove(&d);
            }
            match inst {
                Inst::Call { .. } => crosses_call.extend(live.iter().copied()),
                Inst::Memcpy { .. } => crosses_memcpy.extend(live.iter().copied()),
                _ => {}
            }
            inst.for_each_used_value(|v| {
                covered(v, use_point(k), "read");
                live.insert(v);
            });
            for &v in &live {
                covered(v, use_point(k), "live before");
            }
        }
    }
    for (v, iv) in l.intervals.iter().enumerate() {
        if let Some(iv) = iv {
            let v = Value(v as u32);
            assert!(iv.start <= iv.end);
            assert_eq!(iv.crosses_call, crosses_call.contains(&v), "{name}: {v}");
            assert_eq!(
                iv.crosses_memcpy,
                crosses_memcpy.contains(&v),
                "{name}: {v}"
            );
        }
    }
}

#[test]
fn the_corpus_agrees_with_the_naive_reference() {
    let corpus = corpus_post_phi_elim();
    assert!(!corpus.is_empty(), "corpus/ir has programs");
    for (name, m) in &corpus {
        for f in &m.functions {
            check_against_naive(&format!("{name} @{}", f.name), f);
        }
    }
}

#[test]
fn hand_written_functions_agree_with_the_naive_reference() {
    let m = parse_post_phi_elim(COUNTING_LOOP);
    check_against_naive("counting loop", function(&m, "g"));
}
