//! The whole middle end in one function, stage by stage (QBE's `main.c` idea).
//!
//! Why: the harness bisects a miscompile to the first stage whose output behaves
//! differently, so every stage must be observable. [`run_pipeline`] runs
//! `lowered -> mem2reg -> phi_elim`, verifies the module after every stage, and hands each
//! snapshot to an observer with the stage's stable name.
//!
//! Invariants: the observer sees `lowered` (the input, once it verifies) first and then
//! every stage in order; a stage whose output fails the verifier stops the pipeline with a
//! [`StageError`] naming that stage — the observer never sees an unverified module.

use crate::ir::verify::{verify_module, VerifyError, VerifyMode};
use crate::ir::IrModule;
use crate::mem2reg::{eliminate_phis, promote_allocas};
use std::fmt;

/// Stable stage names, in pipeline order.
pub const STAGE_LOWERED: &str = "lowered";
pub const STAGE_MEM2REG: &str = "mem2reg";
pub const STAGE_PHI_ELIM: &str = "phi_elim";

/// The stages `run_pipeline` goes through, in order.
pub fn stage_names(_opts: &PipelineOptions) -> Vec<String> {
    vec![
        STAGE_LOWERED.into(),
        STAGE_MEM2REG.into(),
        STAGE_PHI_ELIM.into(),
    ]
}

/// Settings of one pipeline run.
#[derive(Clone, Debug, Default)]
pub struct PipelineOptions {}

/// The verifier rejected the module a stage produced (or the input, for `lowered`).
#[derive(Clone, Debug)]
pub struct StageError {
    pub stage: String,
    pub errors: Vec<VerifyError>,
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "verifier failed after stage `{}`", self.stage)?;
        for e in self.errors.iter().take(10) {
            write!(f, "\n  {e}")?;
        }
        if self.errors.len() > 10 {
            write!(f, "\n  ... and {} more", self.errors.len() - 10)?;
        }
        Ok(())
    }
}

impl std::error::Error for StageError {}

fn checked(stage: &str, m: &IrModule, mode: VerifyMode) -> Result<(), StageError> {
    verify_module(m, mode).map_err(|errors| StageError {
        stage: stage.to_string(),
        errors,
    })
}

/// Runs the middle end on `module`, calling `observer(stage, &module)` after each stage.
/// Returns the final (post-phi-elimination) module.
pub fn run_pipeline(
    mut module: IrModule,
    _opts: &PipelineOptions,
    observer: &mut dyn FnMut(&str, &IrModule),
) -> Result<IrModule, StageError> {
    checked(STAGE_LOWERED, &module, VerifyMode::Ssa)?;
    observer(STAGE_LOWERED, &module);

    module.for_each_function(promote_allocas);
    checked(STAGE_MEM2REG, &module, VerifyMode::Ssa)?;
    observer(STAGE_MEM2REG, &module);

    eliminate_phis(&mut module);
    checked(STAGE_PHI_ELIM, &module, VerifyMode::PostPhiElim)?;
    observer(STAGE_PHI_ELIM, &module);

    Ok(module)
}
