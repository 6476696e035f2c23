//! The native stages of a generated (or reduced) IR program: what hunts, the fuzz targets
//! and the reducer run after the stage differential agreed.
//!
//! Why: one function decides, for every caller alike, whether phicc's binaries on each
//! planned target do what the oracle says the program does, so a signature found by a hunt
//! is the signature the reducer keeps.
//!
//! The reference of `native:T` is the oracle's run of `lowered` with T's pointer width.
//! At 8 bytes that is the stage differential's own reference; at another width (i686: 4)
//! the stage differential is run again at that width (final stage only, bisecting when it
//! differs), and:
//! - vectors whose reference is undefined or out of fuel at that width are dropped and
//!   counted for each stage of that width (a program with none left is discarded for them);
//! - when a middle-end stage disagrees with `lowered` at that width, that is the finding,
//!   `KIND@STAGE@4` ([`crate::diff::Signature::at_width`]): a bug of the middle end that
//!   only 4-byte pointers show — never lost, never blamed on a backend.
//!
//! Invariants: stages run in plan order and the first failure is the finding (one
//! finding per program, as for the stage differential); a finding carries the
//! expectations of its stage's width (its `; run:` lines are what that target must do);
//! `Err` only for a broken setup.

use super::ir_program::{prepare_entries, run_ir_stage, CallExpectation, IrStageResult};
use super::plan::{NativePlan, NativeStage};
use super::verdict::{NativeTimes, RowVerdict};
use crate::diff::{differential, DiffConfig, Finding, FindingKind, Signature, Verdict};
use crate::stages::{final_stage, StageFailure};
use compiler::ir::IrModule;
use oracle::RunResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// Counters of one native stage over a campaign.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct StageTally {
    /// Programs the stage ran (built and ran at least one call).
    pub programs: u64,
    /// Calls run and judged.
    pub vectors_run: u64,
    /// Vectors dropped: their reference at this stage's width is invalid.
    pub vectors_dropped: u64,
    /// Programs with no verdict for this stage (no valid vector at its width, a build
    /// timeout), by reason.
    pub discarded: BTreeMap<String, u64>,
    pub phicc_us: u64,
    pub build_us: u64,
    pub run_us: u64,
}

impl StageTally {
    fn add_times(&mut self, t: NativeTimes) {
        self.phicc_us += t.phicc.as_micros() as u64;
        self.build_us += t.build.as_micros() as u64;
        self.run_us += t.run.as_micros() as u64;
    }

    /// Adds `o` into `self`.
    pub fn merge(&mut self, o: &StageTally) {
        self.programs += o.programs;
        self.vectors_run += o.vectors_run;
        self.vectors_dropped += o.vectors_dropped;
        for (k, v) in &o.discarded {
            *self.discarded.entry(k.clone()).or_default() += v;
        }
        self.phicc_us += o.phicc_us;
        self.build_us += o.build_us;
        self.run_us += o.run_us;
    }
}

/// What the native stages did with one program.
#[derive(Clone, Debug, Default)]
pub struct NativeReport {
    /// Stage name -> its counters for this program.
    pub stages: BTreeMap<String, StageTally>,
    /// The first failure, as a finding (saved by the caller before anything else).
    pub finding: Option<Box<Finding>>,
}

/// Runs every stage of `plan` on `module` (the program as generated, `lowered`), calling
/// `entry` with `vectors`. `expectations` are the stage differential's valid references
/// (8-byte pointers) from its `Agree` verdict.
pub fn native_differential(
    module: &IrModule,
    entry: &str,
    vectors: &[Vec<i64>],
    expectations: &[(Vec<i64>, RunResult)],
    cfg: &DiffConfig,
    plan: &NativePlan,
) -> Result<NativeReport, String> {
    let mut report = NativeReport::default();
    if plan.is_empty() {
        return Ok(report);
    }
    // The references of each width the plan needs.
    // Width -> the valid references at it, or why there are none.
    type References = Result<Vec<(Vec<i64>, RunResult)>, String>;
    let mut by_width: BTreeMap<u32, References> = BTreeMap::new();
    let mut dropped_at: BTreeMap<u32, u64> = BTreeMap::new();
    for stage in &plan.stages {
        let w = stage.ptr_bytes();
        if by_width.contains_key(&w) {
            continue;
        }
        if w == cfg.run.ptr_bytes {
            by_width.insert(w, Ok(expectations.to_vec()));
            continue;
        }
        let at_width = DiffConfig {
            run: oracle::RunConfig {
                ptr_bytes: w,
                ..cfg.run.clone()
            },
            every_stage: false,
            ..cfg.clone()
        };
        match differential(module, entry, vectors, &at_width) {
            Verdict::Agree {
                expectations,
                dropped,
                ..
            } => {
                dropped_at.insert(w, dropped.len() as u64);
                by_width.insert(w, Ok(expectations));
            }
            Verdict::Discarded { reason, .. } => {
                by_width.insert(w, Err(format!("ptr{w}: {reason}")));
            }
            Verdict::Finding(f) => {
                report.finding = Some(f);
                return Ok(report);
            }
        }
    }

    // The module every backend compiles: entries exported, then the whole pipeline.
    let mut prepared = module.clone();
    prepare_entries(&mut prepared, &[entry]);
    let phi_elim = match final_stage(prepared, &cfg.pipeline) {
        Ok(m) => m,
        Err(f) => {
            // The stage differential ran this pipeline cleanly on the unexported module;
            // exporting the entry made it break: still the middle end's bug, at its stage.
            let kind = match f {
                StageFailure::Verify(_) => FindingKind::Verify,
                StageFailure::Panic { .. } => FindingKind::Panic,
                StageFailure::UnreportedChange { .. } => FindingKind::UnreportedChange,
            };
            report.finding = Some(Box::new(Finding {
                signature: Signature::new(kind, f.stage()),
                args: Vec::new(),
                reference: None,
                got: None,
                detail: format!("with the entry exported for native runs: {}", f.message()),
                expectations: expectations.to_vec(),
            }));
            return Ok(report);
        }
    };

    for &stage in &plan.stages {
        let name = stage.name();
        let tally = report.stages.entry(name.clone()).or_default();
        let w = stage.ptr_bytes();
        tally.vectors_dropped += dropped_at.get(&w).copied().unwrap_or(0);
        let refs = match &by_width[&w] {
            Ok(r) => r,
            Err(reason) => {
                *tally.discarded.entry(reason.clone()).or_default() += 1;
                continue;
            }
        };
        let calls: Vec<CallExpectation> = refs
            .iter()
            .map(|(args, r)| CallExpectation::from_run(entry, args, r))
            .collect();
        match run_ir_stage(&phi_elim, stage, &calls, &plan.limits)? {
            IrStageResult::Discarded(reason) => {
                *tally.discarded.entry(reason).or_default() += 1;
            }
            IrStageResult::Failed(f, times) => {
                tally.add_times(times);
                report.finding = Some(native_finding(stage, f.kind, f.detail, None, refs));
                return Ok(report);
            }
            IrStageResult::Ran {
                calls: verdicts,
                times,
            } => {
                tally.programs += 1;
                tally.vectors_run += verdicts.len() as u64;
                tally.add_times(times);
                for (v, (args, want)) in verdicts.iter().zip(refs) {
                    if let RowVerdict::Failed(f) = v {
                        let detail = format!("with args {args:?}: {}", f.detail);
                        report.finding = Some(native_finding(
                            stage,
                            f.kind,
                            detail,
                            Some((args.clone(), want.clone())),
                            refs,
                        ));
                        return Ok(report);
                    }
                }
            }
        }
    }
    Ok(report)
}

fn native_finding(
    stage: NativeStage,
    kind: FindingKind,
    detail: String,
    shown_by: Option<(Vec<i64>, RunResult)>,
    expectations: &[(Vec<i64>, RunResult)],
) -> Box<Finding> {
    let (args, reference) = match shown_by {
        Some((a, r)) => (a, Some(r)),
        None => (Vec::new(), None),
    };
    Box::new(Finding {
        signature: Signature::new(kind, &stage.name()),
        args,
        reference,
        got: None,
        detail: format!("{}: {detail}", stage.name()),
        expectations: expectations.to_vec(),
    })
}

/// The stage differential and then, when it agrees, the native stages: one verdict (what
/// the reducer and the fuzz targets ask). The native report is `None` when the native
/// stages did not run.
pub fn full_verdict(
    module: &IrModule,
    entry: &str,
    vectors: &[Vec<i64>],
    cfg: &DiffConfig,
    plan: &NativePlan,
) -> Result<(Verdict, Option<NativeReport>), String> {
    let verdict = differential(module, entry, vectors, cfg);
    let Verdict::Agree { expectations, .. } = &verdict else {
        return Ok((verdict, None));
    };
    if plan.is_empty() {
        return Ok((verdict, None));
    }
    let mut report = native_differential(module, entry, vectors, expectations, cfg, plan)?;
    Ok(match report.finding.take() {
        Some(f) => (Verdict::Finding(f), Some(report)),
        None => (verdict, Some(report)),
    })
}
