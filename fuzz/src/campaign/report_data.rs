//! Everything a hunt's reports say, computed once: `summary.json` is this struct
//! serialized, and `report.md` and `report.html` are rendered from it.
//!
//! Why: three files that a person compares (the HTML in a browser, the Markdown in a pull
//! request, the JSON in a script) must never disagree; computing each number in one place
//! makes that true by construction.
//!
//! Invariants:
//! - `summary.json` keeps every key it had before this struct existed (`generators`,
//!   `base_seed`, `duration_s`, `totals`, `findings`, `unique_findings`, ...), so scripts
//!   that read it keep working; new keys are only added;
//! - the findings matrix counts every finding (not one per signature): its cells add up
//!   to `totals.findings` less the front-end panics and the findings whose save failed;
//! - `unique_findings` is the number of signatures, the number of rows in the reports'
//!   findings lists.

use super::phases::PhaseTimes;
use super::reproduce::reproduce_commands;
use super::source::ProgramSource;
use super::stats::{SignatureTally, Totals};
use super::timeline::Timeline;
use super::{HuntConfig, HuntResult};
use crate::census::values::{value_rows, ValueRow};
use crate::census::{has_census, situation_rows, SituationRow};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The findings matrix: rows are the places a bug can live (the pipeline's stages in
/// order, then the native stages the hunt ran, then anything else findings named),
/// columns the generators, then `all`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingsMatrix {
    pub rows: Vec<MatrixRow>,
    pub columns: Vec<String>,
}

/// One place (a pass or a native stage) and its findings per generator.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatrixRow {
    /// `mem2reg`, `gvn`, `native:i686/stack`, `gvn@4`.
    pub stage: String,
    /// False for a pass switched off with `--disable-passes` (nothing can be found there).
    pub ran: bool,
    /// Findings per column (the last column is the row's total).
    pub counts: Vec<u64>,
    /// Findings by kind (`mismatch` -> n) per column, for the cell's tooltip.
    pub kinds: Vec<BTreeMap<String, u64>>,
}

/// One signature with how to reproduce it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingDetail {
    pub signature: String,
    /// Shell commands that reproduce the finding.
    pub reproduce: Vec<String>,
    /// The file a person should read first: the reduced case, else the C program, else
    /// the raw input.
    pub source_file: Option<String>,
}

/// The hunt as its reports tell it (read back by `phihunt merge`, `super::merge`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReportData {
    pub generators: Vec<String>,
    pub base_seed: u64,
    pub duration_s: f64,
    /// The hunt's time budget (`--time`).
    pub budget_s: f64,
    pub interrupted: bool,
    pub jobs: usize,
    pub programs_per_s: f64,
    pub mutants: Vec<String>,
    pub native_stages: Vec<String>,
    pub native_every: u64,
    /// Passes switched off with `--disable-passes`.
    pub disabled_passes: Vec<String>,
    pub totals: Totals,
    pub per_generator: BTreeMap<String, Totals>,
    pub findings: Vec<SignatureTally>,
    pub unique_findings: usize,
    /// Per signature, in `findings`' order.
    pub finding_details: Vec<FindingDetail>,
    /// Seconds into the hunt of the first finding, and the programs run by then.
    pub first_finding: Option<(f64, u64)>,
    pub matrix: FindingsMatrix,
    /// Seconds per phase, summed over the workers (and the reducer).
    pub phase_seconds: PhaseTimes,
    pub timeline: Timeline,
    /// The value census (`crate::census::values`), empty when not taken (rebuilt from
    /// `totals.features` when read back).
    #[serde(skip_deserializing)]
    pub value_census: Vec<ValueRow>,
    /// The situation census (`crate::census::situations`), empty when not taken.
    #[serde(skip_deserializing)]
    pub situation_census: Vec<SituationRow>,
    /// The hunt's share of the seed space (`--shard I/N`); absent for a whole hunt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::Shard>,
    /// Wall-clock time (Unix seconds) of the timeline's zero (absent in reports written
    /// before it existed).
    #[serde(default)]
    pub timeline_origin_unix: Option<f64>,
    /// A merged report's shards and every shard's copies of each finding (`merge`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<super::merge_data::Merged>,
}

/// The stages of the pipeline where a bug can live, in pipeline order, as
/// [`crate::diff::Signature::bug`] names them.
pub fn pipeline_rows() -> Vec<String> {
    use compiler::pipeline::*;
    let mut rows = vec![
        STAGE_LOWERED.to_string(),
        STAGE_MEM2REG.to_string(),
        STAGE_INLINE.to_string(),
    ];
    for (_, pass) in LOOP_SLOTS {
        if !rows.iter().any(|r| r == pass) {
            rows.push(pass.to_string());
        }
    }
    rows.push(STAGE_DEAD_STATIC.to_string());
    rows.push(STAGE_PHI_ELIM.to_string());
    rows
}

/// Splits a bug signature's text (`mismatch@gvn@4`) into kind and stage.
fn split_signature(sig: &str) -> (&str, &str) {
    sig.split_once('@').unwrap_or(("finding", sig))
}

fn matrix(
    cfg: &HuntConfig,
    generators: &[String],
    per: &BTreeMap<String, Totals>,
) -> FindingsMatrix {
    let native: Vec<String> = cfg.native.stages.iter().map(|s| s.name()).collect();
    let disabled: Vec<String> = cfg.diff.pipeline.disabled.iter().cloned().collect();
    matrix_of(&native, &disabled, generators, per)
}

/// The findings matrix of a hunt whose native stages were `native` and whose switched-off
/// passes were `disabled` (names, as `summary.json` lists them).
pub fn matrix_of(
    native: &[String],
    disabled: &[String],
    generators: &[String],
    per: &BTreeMap<String, Totals>,
) -> FindingsMatrix {
    let mut stages = pipeline_rows();
    stages.extend(native.iter().cloned());
    let mut extra: Vec<String> = per
        .values()
        .flat_map(|t| t.findings_by_signature.keys())
        .map(|sig| split_signature(sig).1.to_string())
        .filter(|stage| !stages.contains(stage))
        .collect();
    extra.sort();
    extra.dedup();
    stages.extend(extra);
    let mut columns = generators.to_vec();
    columns.push("all".into());
    let rows = stages
        .into_iter()
        .map(|stage| {
            let mut kinds: Vec<BTreeMap<String, u64>> = generators
                .iter()
                .map(|g| {
                    per.get(g)
                        .map(|t| {
                            t.findings_by_signature
                                .iter()
                                .filter(|(sig, _)| split_signature(sig).1 == stage)
                                .map(|(sig, n)| (split_signature(sig).0.to_string(), *n))
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect();
            let mut all = BTreeMap::new();
            for k in &kinds {
                for (kind, n) in k {
                    *all.entry(kind.clone()).or_default() += n;
                }
            }
            kinds.push(all);
            MatrixRow {
                ran: !disabled.contains(&stage),
                counts: kinds.iter().map(|k| k.values().sum()).collect(),
                kinds,
                stage,
            }
        })
        .collect();
    FindingsMatrix { rows, columns }
}

impl ReportData {
    pub fn new(cfg: &HuntConfig, sources: &[&dyn ProgramSource], r: &HuntResult) -> ReportData {
        let generators: Vec<String> = sources.iter().map(|s| s.name().to_string()).collect();
        ReportData {
            matrix: matrix(cfg, &generators, &r.per_generator),
            finding_details: r
                .signatures
                .iter()
                .map(|s| reproduce_commands(cfg, s))
                .collect(),
            generators,
            base_seed: cfg.base_seed,
            duration_s: r.elapsed.as_secs_f64(),
            budget_s: cfg.duration.as_secs_f64(),
            interrupted: r.interrupted,
            jobs: cfg.jobs,
            programs_per_s: r.rate,
            mutants: cfg.mutants.iter().map(|m| m.name().to_string()).collect(),
            native_stages: cfg.native.stages.iter().map(|s| s.name()).collect(),
            native_every: cfg.native_every,
            disabled_passes: cfg.diff.pipeline.disabled.iter().cloned().collect(),
            totals: r.totals.clone(),
            per_generator: r.per_generator.clone(),
            findings: r.signatures.clone(),
            unique_findings: r.signatures.len(),
            first_finding: r.first_finding.map(|(t, n)| (t.as_secs_f64(), n)),
            phase_seconds: r.phases,
            timeline: r.timeline.clone(),
            value_census: if has_census(&r.totals.features) {
                value_rows(&r.totals.features)
            } else {
                Vec::new()
            },
            situation_census: if has_census(&r.totals.features) {
                situation_rows(&r.totals.features)
            } else {
                Vec::new()
            },
            shard: Some(r.shard).filter(|s| !s.is_whole()),
            timeline_origin_unix: Some(r.timeline_origin_unix),
            merged: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::DiffConfig;
    use crate::native::NativePlan;
    use compiler::target::Target;
    use std::time::Duration;

    fn cfg() -> HuntConfig {
        let mut diff = DiffConfig::default();
        diff.pipeline.disabled.insert("licm".into());
        HuntConfig {
            native: NativePlan::for_targets(&[Target::I686]),
            native_every: 1,
            duration: Duration::from_secs(1),
            base_seed: 0,
            jobs: 1,
            out_dir: "out".into(),
            mutants: Vec::new(),
            diff,
            stop_at_first: false,
            reduce_budget: Duration::ZERO,
            corpus_found: None,
            max_programs: None,
            show_progress: false,
            keep_per_signature: super::super::keep::DEFAULT_KEEP_PER_SIGNATURE,
            persist: None,
            seeds: crate::campaign::seeds::SeedScheme::Spread,
            resume: None,
            cc: None,
        }
    }

    #[test]
    fn the_matrix_has_every_stage_in_pipeline_order_and_counts_by_generator() {
        let totals = |pairs: &[(&str, u64)]| Totals {
            findings_by_signature: pairs.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
            ..Totals::default()
        };
        let per: BTreeMap<String, Totals> = [
            (
                "cfg".to_string(),
                totals(&[
                    ("mismatch@gvn", 3),
                    ("verify@gvn", 1),
                    ("mismatch@gvn@4", 2),
                ]),
            ),
            (
                "c".to_string(),
                totals(&[("mismatch@gvn", 5), ("mismatch@native:i686", 7)]),
            ),
        ]
        .into();
        let m = matrix(&cfg(), &["cfg".into(), "phi".into(), "c".into()], &per);
        assert_eq!(m.columns, ["cfg", "phi", "c", "all"]);
        let stages: Vec<&str> = m.rows.iter().map(|r| r.stage.as_str()).collect();
        assert_eq!(
            stages,
            [
                "lowered",
                "mem2reg",
                "inline",
                "cfg_simplify",
                "copy_prop",
                "const_fold",
                "simplify",
                "gvn",
                "licm",
                "dce",
                "dead_static",
                "phi_elim",
                // The plan's stage for i686 (linear scan only), then the extra row.
                "native:i686",
                "gvn@4"
            ]
        );
        let row = |s: &str| m.rows.iter().find(|r| r.stage == s).unwrap();
        // cfg: 3 mismatches + 1 verify; phi: none; c: 5; all: 9.
        assert_eq!(row("gvn").counts, [4, 0, 5, 9]);
        assert_eq!(row("gvn").kinds[0]["verify"], 1);
        assert_eq!(row("gvn@4").counts, [2, 0, 0, 2]);
        assert_eq!(row("native:i686").counts, [0, 0, 7, 7]);
        assert_eq!(row("mem2reg").counts, [0, 0, 0, 0]);
        assert!(!row("licm").ran && row("gvn").ran);
    }
}
