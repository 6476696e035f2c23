//! Mutation of real C programs (`--gen mutate`), GrayC / MetaMut style, with phihunt's own
//! oracle as the judge of every mutant's definedness.
//!
//! Why: generated programs have a generator's shapes; a mutant of real code (the corpus,
//! earlier findings, gcc's c-torture tests) has the shapes compilers meet, changed in one place a
//! compiler must get right. Tools that mutate C cannot tell a defined mutant from an
//! undefined one; here every mutant passes the UB judge at `lowered` and gcc -O0 against
//! -O2 on both data models before it is compiled and compared (`source.rs`), and everything
//! dropped is counted by reason.
//!
//! Pieces: `mutators.rs` (the families: operator swaps within a class, constants to
//! boundary values, `=` to compound assignments, narrower types, negated sub-expressions,
//! statements in loops or run twice), `structural.rs` (calls inlined by hand, integer
//! types of objects and fields given the other signedness or `long long`), `pool.rs` (the programs mutated), `source.rs` (the
//! campaign program source and its judges).
//!
//! Invariants: a mutant is a pure function of (pool, seed): the seed picks the base program,
//! the number of mutations (1 to [`MAX_MUTATIONS`]) and each mutation; `phihunt gen mutate
//! --seed S` prints exactly what a hunt ran. A program the light parser cannot read gives an
//! error, never a panic.

pub mod mutators;
pub mod pool;
pub mod source;
pub mod structural;

use crate::c::reduce::edits::{apply, Program};
use crate::c::reduce::tokens::{print, tokenize};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// At most this many mutations are stacked on one base program.
pub const MAX_MUTATIONS: usize = 3;

/// A mutant and how it was made.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// The base program's name in the pool.
    pub base: String,
    pub text: String,
    /// The family of each mutation applied, in order.
    pub applied: Vec<&'static str>,
}

/// Applies 1 to [`MAX_MUTATIONS`] mutations, chosen by `rng`, to `text`. `Err` when the
/// program cannot be read or no family applies anywhere.
pub fn mutate_text(
    text: &str,
    rng: &mut ChaCha8Rng,
) -> Result<(String, Vec<&'static str>), String> {
    let mut toks = tokenize(text).map_err(|e| e.to_string())?;
    let count = rng.gen_range(1..=MAX_MUTATIONS);
    let mut applied = Vec::new();
    for _ in 0..count {
        let program = Program::new(toks.clone())?;
        let mut order: Vec<usize> = (0..mutators::FAMILIES.len()).collect();
        order.shuffle(rng);
        let mut done = false;
        for f in order {
            let (name, family) = mutators::FAMILIES[f];
            let edits = family(&program);
            if edits.is_empty() {
                continue;
            }
            let edit = &edits[rng.gen_range(0..edits.len())];
            toks = apply(&program.toks, edit);
            applied.push(name);
            done = true;
            break;
        }
        if !done {
            break;
        }
    }
    if applied.is_empty() {
        return Err("no mutation applies to the program".into());
    }
    Ok((print(&toks), applied))
}

/// The mutant for `seed` over `pool`.
pub fn mutant(pool: &pool::Pool, seed: u64) -> Result<Mutant, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (base, text) = pool.pick(&mut rng).ok_or("the mutation pool is empty")?;
    let (text, applied) = mutate_text(text, &mut rng).map_err(|e| format!("{base}: {e}"))?;
    Ok(Mutant {
        base: base.clone(),
        text,
        applied,
    })
}
