//! Runs the compiler's pipeline and keeps a snapshot of the module after every stage.
//!
//! Why: both `phihunt check` and the stage differential need "the program as it stands
//! after each stage", plus, when a stage breaks the verifier or panics, which stage did
//! it. The compiler reports stages through an observer; this module turns that into data.
//!
//! Invariants: snapshots are in pipeline order and start with `lowered`; when the pipeline
//! fails, `failure` names the stage that failed and there is no snapshot of it or of any
//! later stage. A panic inside a stage is caught and attributed to the stage the
//! pipeline was running (`compiler::pipeline::current_stage`) — it never escapes.

use compiler::ir::IrModule;
use compiler::pipeline::{current_stage, run_pipeline, PipelineOptions, StageError};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// The module as it stood after one stage.
#[derive(Clone, Debug)]
pub struct StageSnapshot {
    pub stage: String,
    /// The pass behind the stage (`gvn` for `gvn#2`).
    pub pass: &'static str,
    /// Changes the stage reported.
    pub changes: usize,
    pub elapsed: std::time::Duration,
    /// Shared with the previous snapshot when the stage changed nothing.
    pub module: Arc<IrModule>,
}

/// How a pipeline run broke.
#[derive(Clone, Debug)]
pub enum StageFailure {
    /// The verifier rejected a stage's output (for `lowered`: the input itself).
    Verify(StageError),
    /// The stage panicked.
    Panic { stage: String, message: String },
    /// The stage reported no change but changed the module (the fixed-point loop and the
    /// pipeline's verification policy rely on honest change counts).
    UnreportedChange { stage: String },
}

impl StageFailure {
    /// The stage that failed.
    pub fn stage(&self) -> &str {
        match self {
            StageFailure::Verify(e) => &e.stage,
            StageFailure::Panic { stage, .. } | StageFailure::UnreportedChange { stage } => stage,
        }
    }

    /// `verify` or `panic`: the kind part of a finding's signature.
    pub fn kind(&self) -> &'static str {
        match self {
            StageFailure::Verify(_) => "verify",
            StageFailure::Panic { .. } => "panic",
            StageFailure::UnreportedChange { .. } => "unreported_change",
        }
    }

    /// A human-readable account.
    pub fn message(&self) -> String {
        match self {
            StageFailure::Verify(e) => e.to_string(),
            StageFailure::Panic { stage, message } => {
                format!("stage `{stage}` panicked: {message}")
            }
            StageFailure::UnreportedChange { stage } => {
                format!("stage `{stage}` reported no change but changed the module")
            }
        }
    }
}

/// Every snapshot the pipeline produced, and how it broke if it did.
#[derive(Clone, Debug)]
pub struct StagedPipeline {
    pub snapshots: Vec<StageSnapshot>,
    pub failure: Option<StageFailure>,
}

/// Runs the pipeline on a copy of `module`, keeping every stage's snapshot.
pub fn snapshot_stages(module: &IrModule, opts: &PipelineOptions) -> StagedPipeline {
    let mut snapshots: Vec<StageSnapshot> = Vec::new();
    // A stage that reports no change must leave the module as it was; one that does not
    // is a bug of that stage (the pipeline skips verifying such stages, so catch it here).
    let mut lied: Option<String> = None;
    let result = catch_unwind(AssertUnwindSafe(|| {
        run_pipeline(module.clone(), opts, &mut |event, m| {
            let shared = match snapshots.last() {
                Some(prev) if event.changes == 0 && lied.is_none() => {
                    if *prev.module == *m {
                        Some(prev.module.clone())
                    } else {
                        lied = Some(event.name.clone());
                        None
                    }
                }
                _ => None,
            };
            snapshots.push(StageSnapshot {
                stage: event.name.clone(),
                pass: event.pass,
                changes: event.changes,
                elapsed: event.elapsed,
                module: shared.unwrap_or_else(|| Arc::new(m.clone())),
            })
        })
    }));
    if let Some(stage) = lied {
        // Keep the snapshots before the offending stage: they are what can be trusted.
        let keep = snapshots
            .iter()
            .position(|s| s.stage == stage)
            .unwrap_or(snapshots.len());
        snapshots.truncate(keep);
        return StagedPipeline {
            snapshots,
            failure: Some(StageFailure::UnreportedChange { stage }),
        };
    }
    let failure = match result {
        Ok(Ok(_)) => None,
        Ok(Err(e)) => Some(StageFailure::Verify(e)),
        Err(payload) => Some(StageFailure::Panic {
            stage: current_stage(),
            message: panic_message(&payload),
        }),
    };
    StagedPipeline { snapshots, failure }
}

/// The text of a caught panic's payload.
pub fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".into())
}

/// Runs the pipeline on `module` to its end (`phi_elim`) without keeping snapshots: the
/// module a backend compiles. A verifier failure or a panic is the failing stage's.
pub fn final_stage(module: IrModule, opts: &PipelineOptions) -> Result<IrModule, StageFailure> {
    match catch_unwind(AssertUnwindSafe(|| {
        run_pipeline(module, opts, &mut |_, _| {})
    })) {
        Ok(Ok(m)) => Ok(m),
        Ok(Err(e)) => Err(StageFailure::Verify(e)),
        Err(payload) => Err(StageFailure::Panic {
            stage: current_stage(),
            message: panic_message(&payload),
        }),
    }
}
