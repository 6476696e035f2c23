//! Where a hunt starts from: nothing (a new hunt), or a stopped or killed hunt's state
//! plus the findings it saved after its last state write (`--resume DIR`).
//!
//! Why: the state file is written every few seconds; a worker saves a finding the moment
//! it has one. Between the two, a kill leaves findings on disk whose programs the state
//! does not list as complete. They are *adopted*: counted as the finding their program
//! was, and their index marked complete — so no finding is lost, none is counted twice,
//! and no duplicate directory is made by redoing their program.
//!
//! Invariants: after [`restore`], `totals.programs == completed.len()`; every finding
//! directory and seed line under `OUT/findings/` of an index in `completed` is counted in
//! the signature tallies exactly once; new finding ids continue after the largest stored.

use super::source::ProgramSource;
use super::state::{signature_key, Completed, HuntState, StoredTally};
use super::stats::Totals;
use crate::diff::Signature;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// A hunt's starting point.
#[derive(Default)]
pub struct Restored {
    pub completed: Completed,
    pub totals: Totals,
    pub per_generator: BTreeMap<String, Totals>,
    /// Bug signature -> tally.
    pub tallies: BTreeMap<Signature, StoredTally>,
    /// Time hunted before this run.
    pub elapsed: Duration,
    pub first_finding: Option<(Duration, u64)>,
    /// The next finding id.
    pub next_id: u64,
    /// Stored finding directories per bug signature.
    pub stored: BTreeMap<Signature, u64>,
    /// Runs before this one.
    pub runs: u64,
    /// Findings adopted from disk (saved after the last state write).
    pub adopted: u64,
}

/// Counts one finding of `generator` with signature `sig` (as it ran) into the tallies.
pub fn count_finding(
    tallies: &mut BTreeMap<Signature, StoredTally>,
    sig: &Signature,
    dir: Option<&Path>,
    seed: Option<u64>,
    generator: &str,
) {
    let bug = sig.bug();
    let t = tallies.entry(bug.clone()).or_insert_with(|| StoredTally {
        signature: Some(bug),
        ..StoredTally::default()
    });
    t.count += 1;
    *t.stages_seen.entry(sig.stage.clone()).or_default() += 1;
    if let (true, Some(d)) = (t.first.is_empty(), dir) {
        t.first = d.display().to_string();
        t.first_seed = seed;
        t.first_generator = generator.to_string();
    }
}

/// The starting point of (the share `shard` of) a hunt over `sources` into `out`: fresh
/// without `state`, otherwise `state` plus the adopted findings. Completed indexes are
/// the shard's local ones (`super::shard`).
pub fn restore(
    out: &Path,
    sources: &[&dyn ProgramSource],
    state: Option<&HuntState>,
    shard: super::shard::Shard,
) -> std::io::Result<Restored> {
    let Some(state) = state else {
        return Ok(Restored {
            next_id: 1,
            ..Restored::default()
        });
    };
    let mut r = Restored {
        completed: state.completed.clone(),
        totals: state.totals.clone(),
        per_generator: state.per_generator.clone(),
        elapsed: Duration::from_secs_f64(state.elapsed_secs.max(0.0)),
        first_finding: state
            .first_finding
            .map(|(secs, n)| (Duration::from_secs_f64(secs.max(0.0)), n)),
        runs: state.runs,
        next_id: 1,
        ..Restored::default()
    };
    for (key, t) in &state.signatures {
        if let Some(sig) = &t.signature {
            debug_assert_eq!(&signature_key(sig), key);
            r.tallies.insert(sig.clone(), t.clone());
        }
    }
    let base = state.settings.base_seed;
    let n = sources.len().max(1) as u64;
    for f in super::keep::scan(out)? {
        r.next_id = r.next_id.max(f.id + 1);
        if f.dir.is_some() {
            *r.stored.entry(f.signature.bug()).or_default() += 1;
        }
        // Only hunts persist a state, and hunts spread their seeds.
        let index = super::seeds::program_index(base, f.seed);
        let ours = sources
            .get((index % n) as usize)
            .is_some_and(|s| s.name() == f.generator);
        let Some(local) = shard.local(index).filter(|_| ours) else {
            continue;
        };
        if r.completed.contains(local) {
            continue;
        }
        r.completed.mark(local);
        r.adopted += 1;
        for t in [
            &mut r.totals,
            r.per_generator.entry(f.generator.clone()).or_default(),
        ] {
            t.programs += 1;
            t.findings += 1;
        }
        r.first_finding
            .get_or_insert((r.elapsed, r.totals.programs));
        count_finding(
            &mut r.tallies,
            &f.signature,
            f.dir.as_deref(),
            Some(f.seed),
            &f.generator,
        );
    }
    Ok(r)
}
