//! Where a campaign's programs come from.
//!
//! Why: the campaign loop is the same for every generator (random CFGs, phi graphs, C
//! programs later); a source turns a seed into a candidate program and says what it
//! contains, and the campaign does the rest.
//!
//! Invariant: `make(seed)` is a pure function of the seed — `phihunt gen NAME --seed S`
//! prints exactly the program a campaign ran under that seed. A source that cannot make a
//! usable program for a seed says why ([`Rejection`]); the campaign saves and counts it,
//! never reports it as a compiler finding.

use crate::c::gen::CProgram;
use crate::diff::Signature;
use compiler::ir::IrModule;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// A program ready for the differential.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub module: IrModule,
    pub entry: String,
    pub arg_vectors: Vec<Vec<i64>>,
    /// Feature name -> count, summed over the campaign for the coverage table.
    pub features: BTreeMap<String, u64>,
    /// For generated C: the program and its expected output (the reference every stage
    /// is held to); `module` is its `lowered` stage for x86_64 and `entry` is `main`.
    pub c_program: Option<Arc<CProgram>>,
}

/// The [`Rejection::kind`] of a broken setup (a tool missing): the campaign stops.
pub const SETUP_ERROR: &str = "setup-error";

/// Why a source made no program for a seed.
#[derive(Clone, Debug)]
pub struct Rejection {
    /// A bug of the generator (counted as a generator bug), or a compiler panic on the
    /// generated input (counted as a finding).
    pub compiler_panic: bool,
    /// The reason's name, the key it is counted under (`oracle-ub`, `o0-o2-disagree`,
    /// ...: `crate::c::reference::Reason`; `generator` for an IR generator's).
    pub kind: &'static str,
    pub reason: String,
    /// Files that reproduce it (name, contents), saved by the campaign.
    pub files: Vec<(String, String)>,
}

/// A named, seeded program generator.
pub trait ProgramSource: Sync {
    /// The generator's name (`cfg`, `phi`, ...).
    fn name(&self) -> &'static str;
    /// The program for `seed`.
    fn make(&self, seed: u64) -> Result<Candidate, Rejection>;
    /// True when a rejected program is a discard (counted by reason, no verdict) rather
    /// than a bug of the generator: for sources that promise nothing (csmith).
    fn rejections_are_discards(&self) -> bool {
        false
    }
    /// Told how the campaign judged the program of `seed`, once per program, by the
    /// worker that ran it, after anything it saved is on disk. A source that keeps
    /// per-program records (`bench csmith`'s measurements) listens here; the default
    /// ignores it.
    fn observe(&self, _seed: u64, _outcome: &ProgramOutcome) {}
}

/// How the campaign judged one program (what [`ProgramSource::observe`] hears).
#[derive(Debug)]
pub enum ProgramOutcome<'a> {
    /// Every stage agreed.
    Agreed,
    /// No verdict from the differential (out of fuel, no valid vector): the reason.
    Discarded(&'a str),
    /// The source rejected the program, or the campaign did on its behalf (reference
    /// confirmation): the reason's name and detail, and where it was saved, if it was.
    Rejected {
        kind: &'a str,
        reason: &'a str,
        saved: Option<&'a Path>,
    },
    /// A finding (a front-end panic is `panic@frontend`): where it was saved (`None`
    /// when only its seed line was recorded, past `--keep-per-signature`).
    Finding {
        signature: &'a Signature,
        detail: &'a str,
        saved: Option<&'a Path>,
    },
}
