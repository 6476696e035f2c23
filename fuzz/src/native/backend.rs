//! phicc's backend as a native stage runs it: a phi-eliminated module to assembly text,
//! with every way it can fail classified.
//!
//! Why: every native stage (C or IR, check or hunt) starts here, and a backend failure
//! must mean the same everywhere: the allocation checker's rejection is
//! `regalloc_check`, any other [`BackendError`] is `backend_error` (every construct the IR
//! has must be supported: a refusal is a bug of phicc, not of the input), and a panic is
//! `panic` — caught, never propagated.
//!
//! Invariant: the allocation checker always runs (`check_allocation: true`).

use super::plan::NativeStage;
use super::verdict::NativeFailure;
use crate::diff::FindingKind;
use compiler::backend::{compile_module, BackendError, BackendOptions};
use compiler::ir::IrModule;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The options a native stage compiles with.
pub fn options(stage: NativeStage) -> BackendOptions {
    BackendOptions {
        regalloc: stage.regalloc,
        check_allocation: true,
    }
}

/// The failure a backend error is.
pub fn classify(e: &BackendError) -> NativeFailure {
    let kind = if e.is_checker_failure() {
        FindingKind::RegallocCheck
    } else {
        FindingKind::BackendError
    };
    NativeFailure::new(kind, e.to_string())
}

/// Compiles `module` (after phi elimination) for `stage`; the assembly and the time taken.
pub fn assembly(
    module: &IrModule,
    stage: NativeStage,
) -> Result<(String, Duration), NativeFailure> {
    let start = Instant::now();
    let opts = options(stage);
    let caught = catch_unwind(AssertUnwindSafe(|| {
        compile_module(module, stage.target, &opts)
    }));
    let elapsed = start.elapsed();
    match caught {
        Ok(Ok(asm)) => Ok((asm, elapsed)),
        Ok(Err(e)) => Err(classify(&e)),
        Err(payload) => Err(NativeFailure::new(
            FindingKind::Panic,
            format!(
                "the {} backend panicked: {}",
                stage.target.name(),
                crate::stages::panic_message(&payload)
            ),
        )),
    }
}
