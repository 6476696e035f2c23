//! Random alloca-form functions run before and after promotion must return the same
//! thing; and 100k-block functions must promote without overflowing the stack.

use super::build::*;
use super::eval::run;
use super::ssa_check::check_ssa;
use super::{memory_ops_through, promote, promote_params, verify};
use crate::ir::{CmpPred, Inst, IrFunction, IrType, Terminator, Value};
use crate::mem2reg::promote_allocas;
use crate::mutants::{set_active, Mutant};

/// splitmix64: a deterministic generator for reproducible test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Builds random functions of two i32 parameters returning i64, in alloca form.
struct Gen {
    rng: Rng,
    next_value: u32,
    slots: Vec<(u32, IrType)>,
}

impl Gen {
    fn fresh(&mut self) -> u32 {
        self.next_value += 1;
        self.next_value - 1
    }

    fn slot(&mut self) -> (u32, IrType) {
        self.slots[self.rng.below(self.slots.len() as u64) as usize]
    }

    /// A small constant of `ty`, sometimes written as the lowering's `:i64` literal.
    fn literal(&mut self, ty: IrType) -> crate::ir::Operand {
        let x = self.rng.below(600) as i64 - 300;
        if self.rng.chance(30) {
            c(I64, x)
        } else {
            c(ty, x)
        }
    }

    /// Random slot traffic: stores of literals, increments, converting copies.
    fn body(&mut self, insts: &mut Vec<Inst>) {
        for _ in 0..self.rng.below(4) {
            let (s, ty) = self.slot();
            match self.rng.below(4) {
                0 => {
                    let lit = self.literal(ty);
                    insts.push(store(ty, lit, s));
                }
                1 => {
                    let (x, y) = (self.fresh(), self.fresh());
                    insts.push(load(x, ty, s));
                    let k = c(ty, self.rng.below(5) as i64 + 1);
                    insts.push(add(y, ty, v(x), k));
                    insts.push(store(ty, v(y), s));
                }
                2 => {
                    let (s2, ty2) = self.slot();
                    let (x, y) = (self.fresh(), self.fresh());
                    insts.push(load(x, ty, s));
                    insts.push(Inst::Cast {
                        dest: Value(y),
                        from: ty,
                        src: v(x),
                        to: ty2,
                    });
                    insts.push(store(ty2, v(y), s2));
                }
                _ => {
                    let x = self.fresh();
                    insts.push(load(x, ty, s));
                }
            }
        }
    }

    /// A random terminator for a function of `n` blocks (targets may repeat, may be the
    /// entry, may leave blocks unreachable).
    fn terminator(&mut self, insts: &mut Vec<Inst>, n: u32) -> Terminator {
        let (s, ty) = self.slot();
        let x = self.fresh();
        insts.push(load(x, ty, s));
        let target = |g: &mut Gen| g.rng.below(n as u64) as u32;
        match self.rng.below(5) {
            0 => {
                let r = self.fresh();
                insts.push(Inst::Cast {
                    dest: Value(r),
                    from: ty,
                    src: v(x),
                    to: I64,
                });
                ret(I64, v(r))
            }
            1 => br(target(self)),
            2 | 3 => {
                let cond = self.fresh();
                let k = c(ty, self.rng.below(40) as i64);
                insts.push(cmp(cond, CmpPred::Slt, ty, v(x), k));
                let t = target(self);
                let f = if self.rng.chance(20) { t } else { target(self) };
                condbr(v(cond), t, f)
            }
            _ => {
                let cases: Vec<(i64, u32)> = (0..self.rng.below(4))
                    .map(|k| (k as i64, target(self)))
                    .collect();
                switch(ty, v(x), target(self), &cases)
            }
        }
    }

    /// A function with 1..=4 slots of mixed types and 2..=10 blocks; slot 0 is sometimes
    /// the first parameter's slot (the paramref + store protocol).
    fn function(&mut self) -> IrFunction {
        const TYPES: [IrType; 5] = [I8, I32, I64, U8, U16];
        self.next_value = 2;
        self.slots.clear();
        let mut entry = vec![paramref(0, 0, I32), paramref(1, 1, I32)];
        for _ in 0..=self.rng.below(4) {
            let ty = TYPES[self.rng.below(TYPES.len() as u64) as usize];
            let s = self.fresh();
            entry.push(alloca(s, ty));
            self.slots.push((s, ty));
        }
        for &(s, ty) in &self.slots.clone() {
            if ty == I32 && self.rng.chance(50) {
                entry.push(store(I32, v(self.rng.below(2) as u32), s));
            } else if self.rng.chance(90) {
                let lit = self.literal(ty);
                entry.push(store(ty, lit, s));
            }
        }
        let n = 2 + self.rng.below(9) as u32;
        let mut blocks = Vec::new();
        for b in 0..n {
            let mut insts = if b == 0 {
                std::mem::take(&mut entry)
            } else {
                Vec::new()
            };
            self.body(&mut insts);
            let term = if b == n - 1 && self.rng.chance(50) {
                let (s, ty) = self.slot();
                let (x, r) = (self.fresh(), self.fresh());
                insts.push(load(x, ty, s));
                insts.push(Inst::Cast {
                    dest: Value(r),
                    from: ty,
                    src: v(x),
                    to: I64,
                });
                ret(I64, v(r))
            } else {
                self.terminator(&mut insts, n)
            };
            blocks.push(block(b, insts, term));
        }
        func(&[I32, I32], I64, blocks)
    }
}

const ARGS: [[i64; 2]; 4] = [[0, 0], [1, 2], [-3, 7], [25, -1]];
const FUEL: u64 = 1000;

/// Compares `after` with `before` on every argument list; returns how many runs of
/// `before` returned (and so were compared).
fn same_results(before: &IrFunction, after: &IrFunction, seed: u64) -> usize {
    let mut compared = 0;
    for args in ARGS {
        let expected = run(before, &args, FUEL);
        if let Ok(value) = expected {
            assert_eq!(
                run(after, &args, FUEL),
                Ok(value),
                "seed {seed}, args {args:?}\nbefore: {before:#?}\nafter: {after:#?}"
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn random_functions_behave_the_same_after_promotion() {
    let mut gen = Gen {
        rng: Rng(0x5eed),
        next_value: 0,
        slots: Vec::new(),
    };
    let (mut compared, mut runs) = (0, 0);
    for seed in 0..1000u64 {
        let f = gen.function();
        let slots = gen.slots.clone();
        let (n, promoted) = promote(&f);
        let (n_all, promoted_all) = promote_params(&f);
        let params = f.param_allocas().into_iter().flatten().count();
        // Nothing escapes here, so every slot is promoted (parameter slots only by the
        // second entry point) and no load or store through a slot is left.
        assert_eq!(n + params, slots.len(), "seed {seed}");
        assert_eq!(n_all, slots.len(), "seed {seed}");
        for &(s, _) in &slots {
            assert_eq!(memory_ops_through(&promoted_all, s), 0, "seed {seed}");
        }
        assert!(
            verify(&f).is_ok(),
            "seed {seed}: the generator's input is invalid"
        );
        compared += same_results(&f, &promoted, seed);
        compared += same_results(&f, &promoted_all, seed);
        runs += 2 * ARGS.len();
    }
    // Many random programs read a slot before writing it (undefined, not compared) or
    // loop forever; make sure enough of them were actually compared.
    assert!(
        compared * 4 > runs,
        "only {compared} of {runs} runs compared"
    );
}

#[test]
fn mutants_are_seen_on_random_functions() {
    // The harness sees a mutant as a behaviour difference or as a verifier rejection; on
    // these random functions (no geps, so not M2rPromoteGepBase) each of the other three
    // must show up. Skipping loop-header phis still gives SSA (only behaviour shows it);
    // an unnarrowed literal is a type error for the verifier (the evaluator's casts and
    // arithmetic re-canonicalize, so behaviour rarely shows it).
    for mutant in [
        Mutant::M2rNoStackPop,
        Mutant::M2rFrontierSkipsLoopHeader,
        Mutant::M2rNoNarrowing,
    ] {
        let mut gen = Gen {
            rng: Rng(0xfeed),
            next_value: 0,
            slots: Vec::new(),
        };
        let (mut differences, mut rejections) = (0, 0);
        for _ in 0..800 {
            let f = gen.function();
            let mut out = f.clone();
            set_active(&[mutant]);
            promote_allocas(&mut out);
            set_active(&[]);
            // Both checkers agree on what is rejected.
            assert_eq!(check_ssa(&out).is_err(), verify(&out).is_err());
            if verify(&out).is_err() {
                rejections += 1;
                continue;
            }
            for args in ARGS {
                if let Ok(x) = run(&f, &args, FUEL) {
                    if run(&out, &args, FUEL) != Ok(x) {
                        differences += 1;
                    }
                }
            }
        }
        match mutant {
            Mutant::M2rFrontierSkipsLoopHeader => {
                assert_eq!(rejections, 0);
                assert!(differences > 0, "{mutant}: no difference");
            }
            Mutant::M2rNoNarrowing => assert!(rejections > 0, "{mutant}: never rejected"),
            _ => assert!(differences > 0, "{mutant}: no difference"),
        }
    }
}

/// A `length`-block ladder: block i adds i to the slot and either falls to i + 1 or
/// skips to i + 2 (a join at every block from 3 on), the last block loops back to block 1
/// once (a second slot counts the rounds), then exits to block `length`.
fn ladder(length: u32) -> IrFunction {
    let mut blocks = vec![block(
        0,
        vec![
            alloca(0, I64),
            alloca(1, I32),
            paramref(2, 0, I32),
            store(I64, c(I64, 0), 0),
            store(I32, c(I32, 0), 1),
        ],
        br(1),
    )];
    let mut next = 3u32;
    for b in 1..length {
        let (x, y, k) = (next, next + 1, next + 2);
        next += 3;
        let mut insts = vec![
            load(x, I64, 0),
            add(y, I64, v(x), c(I64, b as i64)),
            store(I64, v(y), 0),
            cmp(k, CmpPred::Slt, I64, v(y), c(I64, b as i64 * 3)),
        ];
        let term = if b + 2 < length {
            condbr(v(k), b + 1, b + 2)
        } else if b + 1 < length {
            br(b + 1)
        } else {
            let (count, count1, again) = (next, next + 1, next + 2);
            next += 3;
            insts.push(load(count, I32, 1));
            insts.push(add(count1, I32, v(count), c(I32, 1)));
            insts.push(store(I32, v(count1), 1));
            insts.push(cmp(again, CmpPred::Slt, I32, v(count1), c(I32, 2)));
            let r = next;
            next += 1;
            blocks.push(block(length, vec![load(r, I64, 0)], ret(I64, v(r))));
            condbr(v(again), 1, length)
        };
        blocks.push(block(b, insts, term));
    }
    // The exit was pushed before the last block; keep block order = label order.
    let exit = blocks.remove(blocks.len() - 2);
    blocks.push(exit);
    func(&[I32], I64, blocks)
}

#[test]
fn ladder_promotes_and_behaves_the_same() {
    let f = ladder(12);
    let (n, out) = promote(&f);
    assert_eq!(n, 2);
    let expected = run(&f, &[0], 10_000);
    assert!(expected.is_ok(), "{expected:?}");
    assert_eq!(run(&out, &[0], 10_000), expected);
}

/// Number of phis in `f`.
fn phi_count(f: &IrFunction) -> usize {
    f.blocks.iter().map(|b| b.phi_count()).sum()
}

#[test]
fn big_ladders_promote_within_the_cost_cap() {
    // ladder(n) has n - 2 two-predecessor joins (block 1, via the back edge, and 3..n-1):
    // the i64 slot, stored everywhere, needs a phi in each (cost 2 * (n - 2)); the count
    // slot, stored in the last block only, one in block 1 (cost 2).
    let f = ladder(20_000);
    let (n, out) = promote(&f);
    assert_eq!(n, 2);
    assert_eq!(phi_count(&out), 19_998 + 1);
    assert_eq!(run(&out, &[0], 1_000_000), run(&f, &[0], 1_000_000));
    // At 100k blocks the i64 slot alone would cost 199,996 copies: it stays in memory.
    let f = ladder(100_000);
    let mut out = f.clone();
    assert_eq!(promote_allocas(&mut out), 1);
    assert_eq!(phi_count(&out), 1);
    assert_eq!(memory_ops_through(&out, 1), 0);
    assert!(check_ssa(&out).is_ok());
}

#[test]
fn hundred_thousand_block_chain_does_not_overflow() {
    // A straight chain: dominator tree 100k deep.
    let mut blocks = vec![block(
        0,
        vec![alloca(0, I32), store(I32, c(I32, 1), 0)],
        br(1),
    )];
    for b in 1..100_000u32 {
        blocks.push(block(
            b,
            vec![
                load(2 * b, I32, 0),
                add(2 * b + 1, I32, v(2 * b), c(I32, 1)),
                store(I32, v(2 * b + 1), 0),
            ],
            br(b + 1),
        ));
    }
    blocks.push(block(100_000, vec![load(1, I32, 0)], ret(I32, v(1))));
    let chain = func(&[], I32, blocks);
    let mut out = chain.clone();
    assert_eq!(promote_allocas(&mut out), 1);
    assert_eq!(out.blocks[100_000].insts, vec![copy(1, I32, v(199_999))]);
    assert_eq!(out.blocks[5].insts[0], copy(10, I32, v(9)));
    assert_eq!(run(&out, &[], 1_000_000), Ok(100_000));
}
