//! The census of a hunt: what the programs put in front of the compiler, measured on the
//! programs themselves, not on what the generators meant to produce.
//!
//! Why: a generator can print boundary constants that a mask removes before they reach
//! a division, or aim at a loop shape that an earlier pass rewrites before the pass it
//! was meant for sees it. Two counts say what really happened:
//! - [`values`]: per integer operation, width and operand, the class of every value that
//!   met it in the oracle's reference run (0, ±1, MIN, MAX, powers of two, ...);
//! - [`situations`]: per pass, the programs whose input to that pass presented each
//!   situation its module doc discusses, and those where the pass changed such a function.
//!
//! Invariants: a [`Census`] belongs to one program and turns into campaign features
//! ([`Census::features`]: `value/...` and `situation/...` keys) that the campaign sums
//! like any other feature; the report rebuilds its tables from those sums
//! ([`values::value_rows`], [`situation_rows`]), so summary.json, report.md and
//! report.html show the same numbers. Taking a census never changes a verdict: the
//! observed reference run has the outcome of the plain one.

pub mod situations;
pub mod values;

use crate::stages::StageSnapshot;
use compiler::ir::IrModule;
use rustc_hash::{FxHashMap, FxHashSet};
use situations::{classify, classify_module, Situations, PASS_SITUATIONS};
use std::collections::BTreeMap;
use std::sync::Arc;
use values::ValueCensus;

/// The census of one program.
#[derive(Clone, Default)]
pub struct Census {
    pub values: ValueCensus,
    /// Per entry of `PASS_SITUATIONS`: situations presented, and those of functions the
    /// pass changed.
    presented: [Situations; PASS_SITUATIONS.len()],
    changed: [Situations; PASS_SITUATIONS.len()],
}

impl Census {
    /// Records, for every stage after `lowered` whose pass is in `PASS_SITUATIONS`, the
    /// situations of the module it received and those of the functions it changed. Each
    /// function is classified once per distinct version: a stage's output reuses the
    /// classes of the functions it left unchanged.
    pub fn record_stages(&mut self, snapshots: &[StageSnapshot]) {
        let Some(first) = snapshots.first() else {
            return;
        };
        let defined = |m: &IrModule| -> FxHashSet<String> {
            m.functions.iter().map(|f| f.name.clone()).collect()
        };
        let mut names = defined(&first.module);
        let mut classes: FxHashMap<String, Situations> = classify_module(&first.module)
            .into_iter()
            .map(|(n, s)| (n.to_string(), s))
            .collect();
        for pair in snapshots.windows(2) {
            let (input, output) = (&pair[0].module, &pair[1].module);
            let pass = PASS_SITUATIONS
                .iter()
                .position(|(name, _)| *name == pair[1].pass);
            if Arc::ptr_eq(input, output) {
                if let Some(p) = pass {
                    for s in classes.values() {
                        self.presented[p].0 |= s.0;
                    }
                }
                continue;
            }
            let out_names = defined(output);
            let same_names = out_names == names;
            let mut next: FxHashMap<String, Situations> = FxHashMap::default();
            for f in &input.functions {
                let s = classes.get(&f.name).copied().unwrap_or_default();
                let after = output.function(&f.name);
                let unchanged = after == Some(f);
                if let Some(p) = pass {
                    self.presented[p].0 |= s.0;
                    if !unchanged {
                        self.changed[p].0 |= s.0;
                    }
                }
                // A function's situations depend on the module only through the set of
                // defined names (`call_to_defined`).
                if unchanged && same_names {
                    next.insert(f.name.clone(), s);
                }
            }
            let out_set: FxHashSet<&str> = out_names.iter().map(|n| n.as_str()).collect();
            for f in &output.functions {
                if !next.contains_key(&f.name) {
                    next.insert(f.name.clone(), classify(f, &out_set));
                }
            }
            classes = next;
            names = out_names;
        }
    }

    /// The census as campaign features: the value counts, and `1` for each
    /// `situation/PASS/NAME/presented` and `.../changed` that holds.
    pub fn features(&self, out: &mut BTreeMap<String, u64>) {
        self.values.features(out);
        for (p, (pass, names)) in PASS_SITUATIONS.iter().enumerate() {
            for name in names.iter() {
                if self.presented[p].has(name) {
                    out.insert(format!("situation/{pass}/{name}/presented"), 1);
                }
                if self.changed[p].has(name) {
                    out.insert(format!("situation/{pass}/{name}/changed"), 1);
                }
            }
        }
    }
}

/// Whether a campaign feature is a census count (shown in the census tables, not in the
/// feature list).
pub fn is_census_feature(key: &str) -> bool {
    key.starts_with("value/") || key.starts_with("situation/")
}

/// One row of the situation census: programs whose input to `pass` presented
/// `situation`, and programs where the pass changed a function presenting it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SituationRow {
    pub pass: String,
    pub situation: String,
    pub presented: u64,
    pub changed: u64,
}

/// The situation census rows (every pass and situation of `PASS_SITUATIONS`, zero rows
/// included) from summed campaign features.
pub fn situation_rows(features: &BTreeMap<String, u64>) -> Vec<SituationRow> {
    let get = |k: String| features.get(&k).copied().unwrap_or(0);
    PASS_SITUATIONS
        .iter()
        .flat_map(|(pass, names)| {
            names.iter().map(move |name| SituationRow {
                pass: pass.to_string(),
                situation: name.to_string(),
                presented: get(format!("situation/{pass}/{name}/presented")),
                changed: get(format!("situation/{pass}/{name}/changed")),
            })
        })
        .collect()
}

/// Whether the summed features hold any census count (a hunt with the census off has
/// none, and its report says so instead of showing empty tables).
pub fn has_census(features: &BTreeMap<String, u64>) -> bool {
    features.keys().any(|k| is_census_feature(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate_from_seed, GenKind};
    use crate::stages::snapshot_stages;
    use compiler::pipeline::PipelineOptions;

    /// The definition, stage by stage, without reusing any classification.
    fn naive(snapshots: &[StageSnapshot]) -> Census {
        let mut c = Census::default();
        for pair in snapshots.windows(2) {
            let Some(p) = PASS_SITUATIONS
                .iter()
                .position(|(name, _)| *name == pair[1].pass)
            else {
                continue;
            };
            let classes = classify_module(&pair[0].module);
            for f in &pair[0].module.functions {
                let s = classes[f.name.as_str()];
                c.presented[p].0 |= s.0;
                if pair[1].module.function(&f.name) != Some(f) {
                    c.changed[p].0 |= s.0;
                }
            }
        }
        c
    }

    #[test]
    fn reusing_classes_gives_the_definitions_counts() {
        for seed in 0..12 {
            for kind in [GenKind::Cfg, GenKind::Phi] {
                let p = generate_from_seed(kind, seed);
                let staged = snapshot_stages(&p.module, &PipelineOptions::default());
                let mut fast = Census::default();
                fast.record_stages(&staged.snapshots);
                let slow = naive(&staged.snapshots);
                assert_eq!(fast.presented, slow.presented, "{kind:?} seed {seed}");
                assert_eq!(fast.changed, slow.changed, "{kind:?} seed {seed}");
            }
        }
    }
}
