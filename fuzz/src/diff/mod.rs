//! The stage differential: run a program at every stage and name the stage that broke it.
//!
//! Why: a miscompile is only useful to a compiler engineer with the pass that caused it.
//! The reference is the oracle's run of the `lowered` stage; the first stage whose outcome
//! differs from it, on any argument vector, is the broken stage. A verifier failure after
//! a stage, or a panic inside it, is a finding of that stage too.
//!
//! Invariants (never a false positive, never a lost finding):
//! - argument vectors whose reference run is undefined behaviour or out of fuel are
//!   dropped and counted by reason; a program with no valid vector is `Discarded`, never a
//!   finding; an input the oracle cannot run at all (unsupported external) is discarded
//!   as `unsupported`;
//! - later stages get more fuel than the reference used (`fuel_factor` times its steps,
//!   plus slack), since phi elimination legitimately adds copies; running out of that is
//!   a mismatch (the stage made a terminating program loop);
//! - stages are examined in pipeline order and the FIRST disagreeing one is reported, so
//!   a bug's signature `(kind, stage)` is stable across programs; a stage whose output
//!   is identical to the previous module run is not run again (same module, same
//!   deterministic outcome);
//! - run with a pointer width other than 8 (`cfg.run.ptr_bytes`), signatures name the
//!   stage with the width (`mismatch@gvn@4`, see [`Signature::at_width`]).

pub mod signature;

use crate::census::Census;
use crate::stages::{snapshot_stages, StageFailure, StageSnapshot};
use compiler::ir::IrModule;
use compiler::pipeline::PipelineOptions;
use oracle::{Program, RunConfig, RunResult};
pub use signature::{FindingKind, Signature};
use std::sync::Arc;

/// Settings of the differential.
#[derive(Clone, Debug)]
pub struct DiffConfig {
    /// How the reference runs (fuel is the reference's budget).
    pub run: RunConfig,
    pub pipeline: PipelineOptions,
    /// Later stages may use this many times the reference's steps ...
    pub fuel_factor: u64,
    /// ... plus this many.
    pub fuel_slack: u64,
    /// Run every stage's snapshot (the default). When false, only the final stage is
    /// compared with the reference, and every stage is run only when that disagrees (to
    /// name the first stage that differs): much cheaper per program, but a miscompile
    /// that a later pass masks goes unseen. The fuzz targets use it on a deterministic
    /// share of inputs; hunts always check every stage.
    pub every_stage: bool,
    /// Take each program's census (`crate::census`) where the caller asks for it
    /// (`differential_census`); hunts do unless `--no-census`.
    pub census: bool,
}

impl Default for DiffConfig {
    fn default() -> DiffConfig {
        DiffConfig {
            run: RunConfig {
                fuel: 2_000_000,
                ..RunConfig::default()
            },
            pipeline: PipelineOptions::default(),
            fuel_factor: 8,
            fuel_slack: 10_000,
            every_stage: true,
            census: false,
        }
    }
}

/// What one stage did with one argument vector.
#[derive(Clone, Debug)]
pub struct StageRun {
    pub stage: String,
    pub args: Vec<i64>,
    pub result: RunResult,
}

/// A miscompile (or verifier failure, or panic) pinned to a stage.
#[derive(Clone, Debug)]
pub struct Finding {
    pub signature: Signature,
    /// The argument vector that shows it (empty for verify/panic findings).
    pub args: Vec<i64>,
    /// The reference outcome for `args` (None for verify/panic findings).
    pub reference: Option<RunResult>,
    /// What the broken stage did (None for verify/panic findings).
    pub got: Option<RunResult>,
    /// Human-readable detail (verifier messages, panic message, outcomes).
    pub detail: String,
    /// The reference outcome of every valid argument vector, for `; run:` lines.
    pub expectations: Vec<(Vec<i64>, RunResult)>,
}

/// The differential's answer for one program.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Every stage agreed with the reference on every valid argument vector.
    Agree {
        /// The reference outcome of each valid vector.
        expectations: Vec<(Vec<i64>, RunResult)>,
        /// Vectors dropped because their reference was invalid, by reason.
        dropped: Vec<String>,
        /// (pass, changes) for every stage that ran, for per-pass statistics.
        pass_changes: Vec<(&'static str, usize)>,
    },
    /// The program cannot serve as a test; the reason is for counting and people, the
    /// cause for callers that act on it.
    Discarded {
        reason: String,
        cause: DiscardCause,
    },
    Finding(Box<Finding>),
}

/// Why a program is no test, in terms a caller acts on (never the reason's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardCause {
    /// The reference run gives no verdict on any vector: undefined behaviour (its kind is
    /// in the reason), or no argument vectors.
    Reference,
    /// The reference run ran out of fuel.
    OutOfFuel,
    /// The oracle cannot run the input for a reason of its own: a gap in its model or an
    /// entry its harness cannot call (`oracle::InterpError::is_oracle_limit`).
    OracleLimit,
    /// The input is broken: it fails the verifier or panics the pipeline's first stage,
    /// or the oracle cannot load it (`oracle::InterpErrorKind::Malformed`). From a
    /// generator or reducer that is a bad candidate; from a front end, its bug (the
    /// finding kind to report it as).
    BrokenInput(FindingKind),
    /// A judge after the stage differential set it aside (the compiler under test, ...).
    Later,
}

impl DiscardCause {
    /// The cause of the oracle refusing to prepare or start the reference.
    pub fn of_interp_error(e: &oracle::InterpError) -> DiscardCause {
        if e.is_oracle_limit() {
            DiscardCause::OracleLimit
        } else {
            DiscardCause::BrokenInput(FindingKind::CannotRun)
        }
    }
}

/// Runs `module` at every stage on every argument vector and compares with `lowered`.
pub fn differential(
    module: &IrModule,
    entry: &str,
    arg_vectors: &[Vec<i64>],
    cfg: &DiffConfig,
) -> Verdict {
    differential_census(module, entry, arg_vectors, cfg, None)
}

/// [`differential`], also taking the program's census (`crate::census`) into `census`
/// when given: the reference runs are observed, the stages' inputs classified. The
/// verdict is the same either way.
pub fn differential_census(
    module: &IrModule,
    entry: &str,
    arg_vectors: &[Vec<i64>],
    cfg: &DiffConfig,
    mut census: Option<&mut Census>,
) -> Verdict {
    // Reference: the input itself, i.e. the `lowered` stage.
    let prepared = match census {
        Some(_) => Program::new_observed(module, &cfg.run),
        None => Program::new(module, &cfg.run),
    };
    let reference_program = match prepared {
        Ok(p) => p,
        Err(e) => {
            return Verdict::Discarded {
                reason: format!("unsupported: {e}"),
                cause: DiscardCause::of_interp_error(&e),
            }
        }
    };
    let mut expectations: Vec<(Vec<i64>, RunResult)> = Vec::new();
    let mut dropped = Vec::new();
    for args in arg_vectors {
        let run = match census.as_deref_mut() {
            Some(c) => reference_program.run_observed(entry, args, &mut c.values),
            None => reference_program.run(entry, args),
        };
        match run {
            Ok(r) => match r.outcome.discard_reason() {
                Some(reason) => dropped.push(reason),
                None => expectations.push((args.clone(), r)),
            },
            Err(e) => {
                return Verdict::Discarded {
                    reason: format!("unsupported: {e}"),
                    cause: DiscardCause::of_interp_error(&e),
                }
            }
        }
    }
    if expectations.is_empty() {
        let fuel = oracle::Outcome::OutOfFuel.discard_reason();
        let cause = if dropped.first() == fuel.as_ref() {
            DiscardCause::OutOfFuel
        } else {
            DiscardCause::Reference
        };
        let reason = dropped
            .first()
            .cloned()
            .unwrap_or_else(|| "no argument vectors".into());
        return Verdict::Discarded { reason, cause };
    }
    let max_ref_steps = expectations.iter().map(|(_, r)| r.steps).max().unwrap_or(0);
    let stage_cfg = RunConfig {
        fuel: max_ref_steps
            .saturating_mul(cfg.fuel_factor)
            .saturating_add(cfg.fuel_slack),
        ..cfg.run.clone()
    };

    let staged = snapshot_stages(module, &cfg.pipeline);
    if let Some(c) = census {
        c.record_stages(&staged.snapshots);
    }
    // An input that fails the verifier (or panics the pipeline) before `lowered` is
    // observed has no reference stage: it is not a test (a generator bug, or a reducer
    // candidate gone bad), so it is discarded and counted, never reported.
    let Some(reference) = staged.snapshots.first() else {
        let kind = match &staged.failure {
            Some(StageFailure::Panic { .. }) => FindingKind::Panic,
            _ => FindingKind::Verify,
        };
        let why = staged
            .failure
            .map_or_else(|| "no stages".into(), |f| f.message());
        return Verdict::Discarded {
            reason: format!("invalid input: {}", why.lines().next().unwrap_or("")),
            cause: DiscardCause::BrokenInput(kind),
        };
    };
    let reference_module = &reference.module;
    let later: Vec<&StageSnapshot> = staged.snapshots.iter().skip(1).collect();
    let checked: Vec<&StageSnapshot> = if cfg.every_stage {
        later.clone()
    } else {
        later.last().copied().into_iter().collect()
    };
    if let Some(found) = first_disagreement(
        &checked,
        reference_module,
        &reference_program,
        entry,
        &expectations,
        &stage_cfg,
    ) {
        // Final-stage-only mode: bisect over every stage to name the first that differs
        // (it exists: at worst the final stage itself).
        if !cfg.every_stage {
            if let Some(first) = first_disagreement(
                &later,
                reference_module,
                &reference_program,
                entry,
                &expectations,
                &stage_cfg,
            ) {
                return first;
            }
        }
        return found;
    }
    if let Some(f) = staged.failure {
        let kind = match f {
            StageFailure::Verify(_) => FindingKind::Verify,
            StageFailure::Panic { .. } => FindingKind::Panic,
            StageFailure::UnreportedChange { .. } => FindingKind::UnreportedChange,
        };
        return finding(
            Signature::at_width(kind, f.stage(), cfg.run.ptr_bytes),
            f.message(),
            expectations,
        );
    }
    let pass_changes = staged
        .snapshots
        .iter()
        .map(|s| (s.pass, s.changes))
        .collect();
    Verdict::Agree {
        expectations,
        dropped,
        pass_changes,
    }
}

/// Runs `snaps` in order on every valid vector; the first stage that disagrees with the
/// reference (or that the oracle cannot run) is the finding. A snapshot identical to the
/// last module run is skipped: same module, same deterministic outcome. Each stage's
/// program reuses the decoded functions of the last one run where they are unchanged
/// (`reference_program` was prepared from a module equal to `reference_module`).
fn first_disagreement(
    snaps: &[&StageSnapshot],
    reference_module: &Arc<IrModule>,
    reference_program: &Program,
    entry: &str,
    expectations: &[(Vec<i64>, RunResult)],
    stage_cfg: &RunConfig,
) -> Option<Verdict> {
    let mut last_run = reference_module;
    let mut last_program: Option<Program> = None;
    for snap in snaps {
        if Arc::ptr_eq(&snap.module, last_run) || snap.module == *last_run {
            continue;
        }
        let earlier = last_program.as_ref().unwrap_or(reference_program);
        let prepared = Program::new_reusing(&snap.module, stage_cfg, earlier, last_run);
        last_run = &snap.module;
        let cannot_run = |e: oracle::InterpError| {
            finding(
                Signature::at_width(FindingKind::CannotRun, &snap.stage, stage_cfg.ptr_bytes),
                format!(
                    "the oracle cannot run `{entry}` after `{}`: {e}",
                    snap.stage
                ),
                expectations.to_vec(),
            )
        };
        let program = match prepared {
            Ok(p) => p,
            Err(e) => return Some(cannot_run(e)),
        };
        for (args, want) in expectations {
            let got = match program.run(entry, args) {
                Ok(r) => r,
                Err(e) => return Some(cannot_run(e)),
            };
            if !got.agrees_with(want) {
                let detail = format!(
                    "after `{}` with args {:?}: expected {}, got {}",
                    snap.stage, args, want, got
                );
                return Some(Verdict::Finding(Box::new(Finding {
                    signature: Signature::at_width(
                        FindingKind::Mismatch,
                        &snap.stage,
                        stage_cfg.ptr_bytes,
                    ),
                    args: args.clone(),
                    reference: Some(want.clone()),
                    got: Some(got),
                    detail,
                    expectations: expectations.to_vec(),
                })));
            }
        }
        last_program = Some(program);
    }
    None
}

fn finding(
    signature: Signature,
    detail: String,
    expectations: Vec<(Vec<i64>, RunResult)>,
) -> Verdict {
    Verdict::Finding(Box::new(Finding {
        signature,
        args: Vec::new(),
        reference: None,
        got: None,
        detail,
        expectations,
    }))
}
