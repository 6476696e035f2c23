//! Random parallel-copy graphs over random small CFGs.
//!
//! Each function has 2..8 blocks whose terminators are random `br`, `condbr` (sometimes
//! with both targets equal) and `switch` (usually with repeated targets) or `ret`; every
//! block with predecessors gets 0..5 phis of type i32 or i64 whose sources are, mostly,
//! destinations of phis of the same block (cycles, chains, self-references), else
//! destinations of other blocks' phis, parameters or constants. Some phis carry an entry
//! for a block that is not a predecessor, or a second entry for one predecessor.
//!
//! The inputs are deliberately not SSA (phi elimination does not need it): the entry
//! block gives every phi destination an initial value, so every value is defined on every
//! path and the concrete walk can compare all of them.
//!
//! Each output must pass the post-phi-elimination verifier, the replay checker, and a
//! concrete walk: the function before (phi semantics) and after (copies) run side by
//! side along the same random path, and at the top of every original block, once its
//! phis (or restores) have run, every original value must be equal.

use super::build::*;
use crate::ir::text::print_function;
use crate::ir::{konst, BasicBlock, BlockId, Inst, IrFunction, IrType, Operand, Terminator, Value};
use crate::mem2reg::phi_eliminate::replay::check_phi_elimination;
use crate::mutants::Mutant;
use rustc_hash::FxHashMap;

const CASES: u64 = 3000;

fn random_function(rng: &mut Rng) -> IrFunction {
    let n = 2 + rng.below(7) as u32;
    // Labels need not be 0..n: start somewhere and leave gaps.
    let base = rng.below(50) as u32;
    let label = |i: u32| BlockId(base + 2 * i);
    let any_non_entry = |rng: &mut Rng| 1 + rng.below(u64::from(n - 1)) as u32;

    let mut terms = Vec::new();
    for _ in 0..n {
        let term = match rng.below(10) {
            0..=2 => Terminator::Br(label(any_non_entry(rng))),
            3..=5 => {
                let t = any_non_entry(rng);
                let f = if rng.chance(1, 4) {
                    t
                } else {
                    any_non_entry(rng)
                };
                Terminator::CondBr {
                    cond: v(0),
                    if_true: label(t),
                    if_false: label(f),
                }
            }
            6..=7 => Terminator::Switch {
                ty: IrType::I32,
                val: v(0),
                default: label(any_non_entry(rng)),
                cases: (0..1 + rng.below(4) as i64)
                    .map(|c| (c, label(any_non_entry(rng))))
                    .collect(),
            },
            _ => ret32(v(0)),
        };
        terms.push(term);
    }

    // Distinct predecessors of each block, in block order.
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for (p, term) in terms.iter().enumerate() {
        term.for_each_successor(|s| {
            let s = ((s.0 - base) / 2) as usize;
            if preds[s].last() != Some(&(p as u32)) {
                preds[s].push(p as u32);
            }
        });
    }

    // Phi destinations and types.
    let mut next_value = PARAMS.len() as u32;
    let mut phi_dests: Vec<Vec<(Value, IrType)>> = vec![Vec::new(); n as usize];
    for (i, dests) in phi_dests.iter_mut().enumerate().skip(1) {
        if preds[i].is_empty() {
            continue;
        }
        for _ in 0..rng.below(5) {
            let ty = if rng.chance(1, 4) {
                IrType::I64
            } else {
                IrType::I32
            };
            dests.push((Value(next_value), ty));
            next_value += 1;
        }
    }
    let all_dests: Vec<(Value, IrType)> = phi_dests.iter().flatten().copied().collect();

    let mut blocks = Vec::new();
    for i in 0..n as usize {
        let mut insts = Vec::new();
        if i == 0 {
            insts = paramrefs();
            for &(dest, ty) in &all_dests {
                insts.push(copy(dest.0, ty, konst(ty, 1000 + i64::from(dest.0))));
            }
        }
        for &(dest, ty) in &phi_dests[i] {
            let mut incoming = Vec::new();
            for &p in &preds[i] {
                let src = random_source(rng, ty, &phi_dests[i], &all_dests);
                incoming.push((src, label(p)));
                if rng.chance(1, 12) {
                    // A repeated entry: the first one counts.
                    incoming.push((random_source(rng, ty, &phi_dests[i], &all_dests), label(p)));
                }
            }
            if rng.chance(1, 8) {
                // An entry for a block that is not a predecessor: ignored.
                let other = rng.below(u64::from(n)) as u32;
                if !preds[i].contains(&other) {
                    incoming.push((konst(ty, 77), label(other)));
                }
            }
            if rng.chance(1, 2) {
                incoming.reverse();
            }
            insts.push(Inst::Phi { dest, ty, incoming });
        }
        blocks.push(BasicBlock {
            label: label(i as u32),
            insts,
            term: terms[i].clone(),
        });
    }
    func("random", blocks)
}

fn random_source(
    rng: &mut Rng,
    ty: IrType,
    same_block: &[(Value, IrType)],
    all: &[(Value, IrType)],
) -> Operand {
    let pick = |rng: &mut Rng, pool: &[(Value, IrType)]| -> Option<Operand> {
        let typed: Vec<Value> = pool.iter().filter(|d| d.1 == ty).map(|d| d.0).collect();
        (!typed.is_empty()).then(|| v(typed[rng.below(typed.len() as u64) as usize].0))
    };
    let choice = rng.below(10);
    let picked = match choice {
        0..=5 => pick(rng, same_block),
        6..=7 => pick(rng, all),
        _ => None,
    };
    picked.unwrap_or_else(|| {
        if rng.chance(1, 2) {
            // A parameter of the phi's type.
            let base = if ty == IrType::I32 { 0 } else { 2 };
            v(base + rng.below(2) as u32)
        } else {
            konst(ty, rng.below(9) as i64 - 4)
        }
    })
}

/// Concrete machine state: value -> bits (absent: never written).
type State = FxHashMap<Value, u64>;

fn eval(state: &State, op: &Operand) -> Option<u64> {
    match op {
        Operand::Value(v) => state.get(v).copied(),
        Operand::Const(c) => Some(c.bits as u64),
    }
}

fn assign(state: &mut State, dest: Value, value: Option<u64>) {
    match value {
        Some(bits) => state.insert(dest, bits),
        None => state.remove(&dest),
    };
}

/// Runs a non-phi instruction of the random functions (paramrefs and copies).
fn run_inst(state: &mut State, inst: &Inst, params: &[u64]) -> Result<(), String> {
    match inst {
        Inst::ParamRef { dest, index, .. } => {
            state.insert(*dest, params[*index as usize]);
        }
        Inst::Copy { dest, src, .. } => {
            let value = eval(state, src);
            assign(state, *dest, value);
        }
        other => return Err(format!("unexpected instruction {other:?}")),
    }
    Ok(())
}

/// Walks `before` and `after` along one random path and compares every original value
/// at the top of each original block.
fn walk(
    before: &IrFunction,
    after: &IrFunction,
    rng: &mut Rng,
    steps: usize,
) -> Result<(), String> {
    let bound = before.value_bound();
    let params: Vec<u64> = (0..PARAMS.len()).map(|_| rng.next_u64()).collect();
    let before_index: FxHashMap<BlockId, usize> = before
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label, i))
        .collect();
    let after_index: FxHashMap<BlockId, usize> = after
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label, i))
        .collect();
    let mut old = State::default();
    let mut new = State::default();
    let mut prev: Option<BlockId> = None;
    let mut cur = before.blocks[0].label;
    for _ in 0..steps {
        let old_block = &before.blocks[before_index[&cur]];
        let new_block = &after.blocks[after_index[&cur]];
        // Before: all phis read at once, from the edge taken (first entry counts).
        if let Some(p) = prev {
            let reads: Vec<(Value, Option<u64>)> = old_block
                .phis()
                .map(|inst| match inst {
                    Inst::Phi { dest, incoming, .. } => {
                        let src = incoming.iter().find(|(_, l)| *l == p).map(|(s, _)| s);
                        (*dest, src.and_then(|s| eval(&old, s)))
                    }
                    _ => unreachable!("phis() yields phis"),
                })
                .collect();
            for (dest, value) in reads {
                assign(&mut old, dest, value);
            }
        }
        for inst in &old_block.insts[old_block.phi_count()..] {
            run_inst(&mut old, inst, &params)?;
        }
        // After: the block up to its tail (restores, then the original body).
        let restores = new_block
            .insts
            .iter()
            .take_while(|i| matches!(i, Inst::Copy { src: Operand::Value(s), .. } if s.0 >= bound))
            .count();
        let body_end = restores + old_block.insts.len() - old_block.phi_count();
        for inst in &new_block.insts[..body_end] {
            run_inst(&mut new, inst, &params)?;
        }
        for v in 0..bound {
            let v = Value(v);
            if old.get(&v) != new.get(&v) {
                return Err(format!(
                    "at {cur} (from {prev:?}): {v} is {:?} before, {:?} after",
                    old.get(&v),
                    new.get(&v)
                ));
            }
        }
        // Take a random edge; run the tail and the trampoline, if any.
        let old_targets = old_block.term.successors();
        if old_targets.is_empty() {
            return Ok(());
        }
        let k = rng.below(old_targets.len() as u64) as usize;
        for inst in &new_block.insts[body_end..] {
            run_inst(&mut new, inst, &params)?;
        }
        let mut target = new_block.term.successors()[k];
        if !before_index.contains_key(&target) {
            let trampoline = &after.blocks[after_index[&target]];
            for inst in &trampoline.insts {
                run_inst(&mut new, inst, &params)?;
            }
            target = trampoline.term.successors()[0];
        }
        if target != old_targets[k] {
            return Err(format!(
                "edge {k} of {cur} reaches {target}, not {}",
                old_targets[k]
            ));
        }
        prev = Some(cur);
        cur = target;
    }
    Ok(())
}

#[test]
fn random_parallel_copies_are_replayed_and_walked() {
    let mut trampolines = 0usize;
    let mut temporaries = 0usize;
    for seed in 1..=CASES {
        let mut rng = Rng::new(seed);
        let before = random_function(&mut rng);
        let (after, _) = eliminate(&before);
        if let Err(e) = check_phi_elimination(&before, &after) {
            panic!(
                "seed {seed}: replay: {e}\nbefore:\n{}\nafter:\n{}",
                print_function(&before),
                print_function(&after)
            );
        }
        for _ in 0..4 {
            if let Err(e) = walk(&before, &after, &mut rng, 40) {
                panic!(
                    "seed {seed}: walk: {e}\nbefore:\n{}\nafter:\n{}",
                    print_function(&before),
                    print_function(&after)
                );
            }
        }
        trampolines += after.blocks.len() - before.blocks.len();
        temporaries += (after.value_bound() - before.value_bound()) as usize;
    }
    // The generator must exercise both mechanisms, a lot.
    assert!(trampolines > 1000, "only {trampolines} trampolines");
    assert!(temporaries > 1000, "only {temporaries} temporaries");
}

#[test]
fn random_cases_catch_every_mutant() {
    for mutant in [
        Mutant::PhiElimNoTemporaries,
        Mutant::PhiElimNoTrampoline,
        Mutant::PhiElimRepeatedTargetOnce,
    ] {
        let (mut by_replay, mut by_walk) = (0, 0);
        for seed in 1..=CASES / 3 {
            let mut rng = Rng::new(seed);
            let before = random_function(&mut rng);
            // `eliminate` asserts that the mutant's output still verifies.
            let (after, _) = with_mutant(mutant, || eliminate(&before));
            if check_phi_elimination(&before, &after).is_err() {
                by_replay += 1;
            }
            if (0..4).any(|_| walk(&before, &after, &mut rng, 40).is_err()) {
                by_walk += 1;
            }
        }
        assert!(by_replay > 0, "{mutant}: the replay checker never failed");
        assert!(by_walk > 0, "{mutant}: the concrete walk never failed");
    }
}
