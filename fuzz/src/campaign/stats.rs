//! Campaign counters, shared by the workers and read by the progress line and report.
//!
//! Invariant: every program a worker takes is counted exactly once, as agreed, discarded
//! (with its reason), a finding, or a generator bug;
//! `programs == agreed + discarded + findings + generator_bugs`.

use crate::diff::Signature;
use crate::native::StageTally;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Totals for one generator, or for the whole campaign.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Totals {
    pub programs: u64,
    pub agreed: u64,
    pub discarded: u64,
    pub findings: u64,
    /// Programs their generator got wrong (generated C that phicc refuses, that is
    /// undefined at `lowered`, or whose expected output gcc contradicts).
    pub generator_bugs: u64,
    /// Generator bug reason -> count.
    pub generator_bug_reasons: BTreeMap<String, u64>,
    /// Directories of front-end panics on generated C (counted in `findings`).
    pub front_end_panics: Vec<String>,
    /// Argument vectors run against the reference (valid ones).
    pub vectors_valid: u64,
    /// Argument vectors dropped because their reference run was invalid.
    pub vectors_dropped: u64,
    /// Discard / drop reason -> count.
    pub discard_reasons: BTreeMap<String, u64>,
    /// Feature -> count, summed over generated programs.
    pub features: BTreeMap<String, u64>,
    /// Pass -> changes it made, summed over agreeing programs.
    pub pass_changes: BTreeMap<String, u64>,
    /// Pass -> agreeing programs in which it changed something.
    pub pass_programs: BTreeMap<String, u64>,
    /// Agreeing programs whose native stages ran (one in `--native-every`).
    pub native_programs: u64,
    /// Native stage -> its counters over those programs.
    pub native: BTreeMap<String, StageTally>,
    /// Bug signature (`mismatch@gvn`, [`Signature::bug`]) -> findings under it (every
    /// saved finding; front-end panics and failed saves have none). Per generator, this
    /// is the report's stage × generator matrix.
    pub findings_by_signature: BTreeMap<String, u64>,
}

impl Totals {
    /// Programs that could serve as tests, as a fraction of all.
    pub fn valid_ratio(&self) -> f64 {
        if self.programs == 0 {
            return 1.0;
        }
        (self.programs - self.discarded - self.generator_bugs) as f64 / self.programs as f64
    }
}

/// One unique signature's tally.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SignatureTally {
    /// The bug's signature ([`Signature::bug`]): the pass, not the slot or iteration.
    pub signature: Signature,
    pub count: u64,
    /// The stages the findings under this signature broke at, as they ran (`gvn#2`,
    /// `gvn`), with their counts.
    pub stages_seen: BTreeMap<String, u64>,
    /// Directory of the first finding with this signature.
    pub first: String,
    pub first_seed: Option<u64>,
    pub first_generator: String,
    /// Reduced test case, when reduction ran.
    pub reduced: Option<String>,
    pub size_before: Option<usize>,
    pub size_after: Option<usize>,
    /// Copy in `corpus/found/`, when made.
    pub corpus_copy: Option<String>,
    /// Generated C: the reduced program (`reduced.c`), when the C reducer ran.
    pub reduced_c: Option<String>,
}
