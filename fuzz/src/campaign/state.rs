//! A hunt's persistent state: what `phihunt hunt --resume DIR` continues from.
//!
//! Why: a nightly hunt gets killed (a reboot, the OOM killer, a second Ctrl-C). Its
//! findings are on disk already (saved before anything else happens to them); what would
//! be lost is where it was — which program indexes ran, the counts, the signature tallies
//! — and the settings its seed only reproduces together with. `OUT/state.json` holds that,
//! rewritten atomically every few seconds and at the end.
//!
//! Invariants:
//! - program `i` of a hunt is a pure function of (settings, base seed, `i`); the state
//!   records the set of *completed* indexes exactly ([`Completed`]: every index below a
//!   watermark, plus the ones finished above it), so a resumed hunt runs exactly the
//!   indexes the uninterrupted hunt had not finished: the in-flight ones are redone,
//!   nothing is skipped or run twice;
//! - the counts in the state are those of the completed indexes and nothing else
//!   (`totals.programs == completed.len()`), except findings adopted from disk (see
//!   `resume`), which complete their index when adopted;
//! - the file is replaced atomically (a sibling temporary file, renamed), so a kill
//!   leaves the previous state or the new one, never half of one.

use super::stats::Totals;
use crate::diff::Signature;
use crate::findings::write_atomically;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The state file's name in a hunt's out dir.
pub const STATE_FILE: &str = "state.json";

/// Format version of the state file (a resume refuses another one). Version 2: program
/// seeds come from `seeds::program_seed` (version 1 hunts used `base + index`, so their
/// indexes name other programs now).
pub const STATE_VERSION: u32 = 2;

/// The program indexes a hunt has finished: all below `below`, plus `above`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completed {
    /// Every index below this one is complete.
    pub below: u64,
    /// Complete indexes at or above `below` (finished out of order).
    pub above: BTreeSet<u64>,
}

impl Completed {
    /// Records index `i` as complete (idempotent).
    pub fn mark(&mut self, i: u64) {
        if i < self.below {
            return;
        }
        if i == self.below {
            self.below += 1;
            while self.above.remove(&self.below) {
                self.below += 1;
            }
        } else {
            self.above.insert(i);
        }
    }

    pub fn contains(&self, i: u64) -> bool {
        i < self.below || self.above.contains(&i)
    }

    /// Number of completed indexes.
    pub fn len(&self) -> u64 {
        self.below + self.above.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The settings a hunt's programs depend on (and the ones a resume keeps).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StoredSettings {
    pub generators: String,
    pub base_seed: u64,
    /// The whole time budget, in seconds (a resume gets what is left of it).
    pub time_secs: f64,
    pub max_programs: Option<u64>,
    pub reduce_time_secs: f64,
    pub corpus_found: PathBuf,
    pub targets: String,
    pub native_every: u64,
    pub keep_per_signature: u64,
    /// Seeded bugs switched on (names).
    pub mutants: Vec<String>,
    /// Passes switched off, and the optimization loop's iterations.
    pub disabled_passes: Vec<String>,
    pub max_iterations: usize,
    /// `--cc CMD`, `--cc-target T`, `--no-phicc` (absent in states written before them).
    #[serde(default)]
    pub cc: Option<String>,
    #[serde(default)]
    pub cc_target: Option<String>,
    #[serde(default)]
    pub no_phicc: bool,
    /// `--shard I/N` (absent for a whole hunt, and in states written before shards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::Shard>,
}

/// One signature's tally as the state keeps it (no module: that is on disk).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct StoredTally {
    /// The bug signature (always set; optional only for `Default`).
    pub signature: Option<Signature>,
    pub count: u64,
    pub stages_seen: BTreeMap<String, u64>,
    /// Directory of the first stored finding.
    pub first: String,
    pub first_seed: Option<u64>,
    pub first_generator: String,
}

/// Everything a resume needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HuntState {
    pub version: u32,
    pub settings: StoredSettings,
    pub completed: Completed,
    /// Seconds hunted so far, over every run of this hunt.
    pub elapsed_secs: f64,
    pub totals: Totals,
    pub per_generator: BTreeMap<String, Totals>,
    /// Bug signature (as `Display`) -> tally.
    pub signatures: BTreeMap<String, StoredTally>,
    /// Time and program count of the first finding.
    pub first_finding: Option<(f64, u64)>,
    /// How many times this hunt has been started (1 + resumes).
    pub runs: u64,
    /// True once the hunt ended normally (time, program count or Ctrl-C).
    pub finished: bool,
}

impl HuntState {
    /// Writes `dir/state.json` atomically.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        write_atomically(&dir.join(STATE_FILE), &json)
    }

    /// Reads `dir/state.json`.
    pub fn load(dir: &Path) -> Result<HuntState, String> {
        let path = dir.join(STATE_FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let state: HuntState = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a hunt state: {e}", path.display()))?;
        if state.version != STATE_VERSION {
            return Err(format!(
                "{}: state version {} (this phihunt reads {STATE_VERSION}){}",
                path.display(),
                state.version,
                if state.version < STATE_VERSION {
                    "; finish that hunt with the phihunt that started it, or start a new \
                     one: its program indexes name other programs under this phihunt's \
                     seeds (campaign/seeds.rs)"
                } else {
                    ""
                }
            ));
        }
        Ok(state)
    }
}

/// The tally key of a signature in the state file.
pub fn signature_key(sig: &Signature) -> String {
    sig.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completed_indexes_keep_a_watermark_and_the_out_of_order_ones() {
        let mut c = Completed::default();
        for i in [0, 2, 3, 5] {
            c.mark(i);
        }
        assert_eq!(c.below, 1);
        assert_eq!(c.above, BTreeSet::from([2, 3, 5]));
        c.mark(1);
        assert_eq!(c.below, 4);
        assert_eq!(c.above, BTreeSet::from([5]));
        c.mark(1);
        assert_eq!(c.len(), 5);
        assert!(c.contains(5) && !c.contains(4) && c.contains(0));
    }
}
