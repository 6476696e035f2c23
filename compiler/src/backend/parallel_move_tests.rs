//! Parallel move tests: swaps, cycles, chains, fan-out and constants with the expected
//! sequences worked out by hand; random move sets (a fixed-seed xorshift) checked by
//! `replay` and by the optimal move count (one extra move per cycle, counted
//! independently); `replay` itself rejects wrong sequences; the mutant is wired.

use super::*;
use crate::mutants::set_active;

/// Locations are small integers; 99 is the scratch; constants are `i64`.
type M = Move<u8, i64>;
const SCRATCH: u8 = 99;

fn mv(dst: u8, src: u8) -> M {
    Move::from_loc(dst, src)
}

fn k(dst: u8, value: i64) -> M {
    Move::from_const(dst, value)
}

fn resolved(moves: &[M]) -> Vec<M> {
    let seq = resolve(moves, SCRATCH).expect("valid parallel moves");
    replay(moves, &seq, SCRATCH).unwrap_or_else(|e| panic!("{e}\n{moves:?}\n{seq:?}"));
    seq
}

#[test]
fn nothing_and_self_moves_need_no_moves() {
    assert!(resolved(&[]).is_empty());
    assert!(resolved(&[mv(1, 1), mv(2, 2)]).is_empty());
}

#[test]
fn a_chain_is_emitted_from_its_free_end() {
    // 1 <- 2, 2 <- 3, 3 <- 4: 1 must be written before 2 is overwritten, and so on.
    let seq = resolved(&[mv(2, 3), mv(3, 4), mv(1, 2)]);
    assert_eq!(seq, vec![mv(1, 2), mv(2, 3), mv(3, 4)]);
}

#[test]
fn a_swap_goes_through_the_scratch() {
    let seq = resolved(&[mv(1, 2), mv(2, 1)]);
    assert_eq!(seq, vec![mv(SCRATCH, 1), mv(1, 2), mv(2, SCRATCH)]);
}

#[test]
fn a_three_cycle_takes_four_moves() {
    // 1 <- 2, 2 <- 3, 3 <- 1.
    let seq = resolved(&[mv(1, 2), mv(2, 3), mv(3, 1)]);
    assert_eq!(
        seq,
        vec![mv(SCRATCH, 1), mv(1, 2), mv(2, 3), mv(3, SCRATCH)]
    );
}

#[test]
fn fan_out_from_one_source_reads_it_before_it_is_overwritten() {
    // 2, 3 and 4 all get 1's value while 1 gets 5's.
    let seq = resolved(&[mv(1, 5), mv(2, 1), mv(3, 1), mv(4, 1)]);
    assert_eq!(seq.len(), 4);
    assert_eq!(seq.last(), Some(&mv(1, 5)));
}

#[test]
fn fan_out_hanging_off_a_cycle_needs_one_scratch_move() {
    // Swap 1 and 2, and copy 1 into 3 and 4: the copies go first, then the swap.
    let seq = resolved(&[mv(1, 2), mv(2, 1), mv(3, 1), mv(4, 2)]);
    assert_eq!(seq.len(), 5);
    assert_eq!(seq.iter().filter(|m| m.dst == SCRATCH).count(), 1);
}

#[test]
fn constants_are_loaded_after_their_destination_is_read() {
    // 2 <- 1 (old value of 1), 1 <- 7.
    let seq = resolved(&[k(1, 7), mv(2, 1), k(3, -1)]);
    let pos = |m: &M| seq.iter().position(|x| x == m).expect("emitted");
    assert!(pos(&mv(2, 1)) < pos(&k(1, 7)));
    assert_eq!(seq.len(), 3);
}

#[test]
fn malformed_move_sets_are_errors() {
    assert_eq!(
        resolve(&[mv(1, 2), mv(1, 3)], SCRATCH),
        Err(ParallelMoveError::DuplicateDestination(1))
    );
    assert_eq!(
        resolve(&[mv(1, SCRATCH)], SCRATCH),
        Err(ParallelMoveError::ScratchInUse(SCRATCH))
    );
    assert_eq!(
        resolve(&[k(SCRATCH, 3)], SCRATCH),
        Err(ParallelMoveError::ScratchInUse(SCRATCH))
    );
}

#[test]
fn replay_rejects_wrong_sequences() {
    let swap = [mv(1, 2), mv(2, 1)];
    // In the given order the swap loses 1's value.
    assert!(replay(&swap, &swap, SCRATCH).is_err());
    // Writing a location that is neither a destination nor the scratch.
    let seq = [mv(7, 1), mv(1, 2), mv(2, 7)];
    assert!(replay(&swap, &seq, SCRATCH).is_err());
    // A constant that is not the one asked for.
    assert!(replay(&[k(1, 3)], &[k(1, 4)], SCRATCH).is_err());
    // A destination left alone.
    assert!(replay(&[mv(1, 2)], &[], SCRATCH).is_err());
    assert!(replay(&swap, &[mv(SCRATCH, 1), mv(1, 2), mv(2, SCRATCH)], SCRATCH).is_ok());
}

#[test]
fn the_in_order_mutant_emits_the_moves_as_given() {
    let swap = [mv(1, 2), mv(2, 1)];
    set_active(&[Mutant::ParallelMoveInOrder]);
    let seq = resolve(&swap, SCRATCH);
    set_active(&[]);
    let seq = seq.expect("valid parallel moves");
    assert_eq!(seq, swap.to_vec());
    assert!(replay(&swap, &seq, SCRATCH).is_err());
}

/// xorshift64: the random cases are the same on every run.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Cycles of length >= 2 among the location-to-location moves: following `dst -> src`
/// from a destination comes back to it. Each destination has one source, so a walk of at
/// most `moves.len()` steps decides.
fn count_cycles(moves: &[M]) -> usize {
    let src_of = |l: u8| {
        moves.iter().find(|m| m.dst == l).and_then(|m| match m.src {
            Source::Loc(s) => Some(s),
            Source::Const(_) => None,
        })
    };
    let is_on_cycle = |start: u8| {
        let mut l = start;
        for _ in 0..moves.len() {
            let Some(s) = src_of(l) else {
                return false;
            };
            if s == start {
                // Back at the start: a cycle, unless it is a move of start to itself.
                return l != start;
            }
            l = s;
        }
        false
    };
    let on_cycle: std::collections::BTreeSet<u8> = moves
        .iter()
        .map(|m| m.dst)
        .filter(|&d| is_on_cycle(d))
        .collect();
    // Each cycle of length n puts n destinations in `on_cycle`; count cycles by walking
    // each one once.
    let mut seen = std::collections::BTreeSet::new();
    let mut cycles = 0;
    for &d in &on_cycle {
        if seen.contains(&d) {
            continue;
        }
        cycles += 1;
        let mut l = d;
        while seen.insert(l) {
            l = src_of(l).expect("a cycle member has a location source");
        }
    }
    cycles
}

#[test]
fn cycle_counting_is_right_on_known_shapes() {
    assert_eq!(count_cycles(&[mv(1, 2), mv(2, 1)]), 1);
    assert_eq!(
        count_cycles(&[mv(1, 2), mv(2, 3), mv(3, 1), mv(4, 5), mv(5, 4)]),
        2
    );
    assert_eq!(count_cycles(&[mv(1, 2), mv(2, 3)]), 0);
    assert_eq!(count_cycles(&[mv(1, 1)]), 0);
    assert_eq!(count_cycles(&[mv(1, 2), mv(2, 1), mv(3, 1)]), 1);
}

#[test]
fn random_permutations_and_mixtures_replay_with_one_extra_move_per_cycle() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for case in 0..3000 {
        let n = 1 + rng.below(12) as u8;
        let mut moves: Vec<M> = Vec::new();
        if case % 3 == 0 {
            // A random permutation of 0..n (Fisher-Yates).
            let mut perm: Vec<u8> = (0..n).collect();
            for i in (1..perm.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                perm.swap(i, j);
            }
            moves = (0..n).map(|d| mv(d, perm[d as usize])).collect();
        } else {
            // Random sources over 0..n+3 (fan-out, chains, cycles), some constants, some
            // locations not moved at all.
            for d in 0..n {
                match rng.below(8) {
                    0 => {}
                    1 => moves.push(k(d, rng.below(1000) as i64)),
                    _ => moves.push(mv(d, rng.below(n as u64 + 3) as u8)),
                }
            }
        }
        let seq = resolve(&moves, SCRATCH).expect("valid parallel moves");
        replay(&moves, &seq, SCRATCH)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{moves:?}\n{seq:?}"));
        let real = moves.iter().filter(|m| m.src != Source::Loc(m.dst)).count();
        assert_eq!(
            seq.len(),
            real + count_cycles(&moves),
            "case {case}: {moves:?}\n{seq:?}"
        );
    }
}
