//! The timeout probe: what `bench csmith` does with a program whose gcc binary ran past
//! its time limit, before it is set aside as a reference timeout.
//!
//! Why: most csmith timeouts are loops over 64-bit counters that no machine finishes, and
//! the oracle agrees (it runs out of the probe's fuel too). But a front-end bug can turn
//! an endless loop into a finite one; a program the oracle finishes in `fuel` steps runs
//! natively in a fraction of the time limit. So when the oracle's `lowered` stage
//! finishes, gcc's binary gets a second, longer limit: if it finishes now, the program is
//! judged against that run like any other; if it still runs on, the program is a
//! *suspect* — saved for a human, never called a miscompile.
//!
//! Invariants: every gcc run is `gcc_reference`'s (gcc -O0 confirmed by -O2, each child
//! under a timeout); the oracle runs under `fuel`; the verdict is total (see
//! [`ProbeVerdict`]).

use crate::check::c_source::run_main;
use crate::native::c_program::{gcc_reference, CReference};
use crate::native::NativeLimits;
use compiler::ir::IrModule;
use compiler::target::Target;
use oracle::native::gcc::quote_stdout;
use oracle::native::Execution;
use oracle::{Outcome, RunConfig};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The probe's settings (`--probe-fuel`, `--long-ref-timeout`).
#[derive(Clone, Debug)]
pub struct ProbeConfig {
    /// Oracle steps the `lowered` stage gets.
    pub fuel: u64,
    /// The second, longer limit of gcc's binary when `lowered` finished.
    pub long_run_timeout: Duration,
}

/// What the probe concluded.
#[derive(Clone, Debug)]
pub enum ProbeVerdict {
    /// `lowered` ran past the probe's fuel too: consistent with gcc (a reference timeout).
    RunsOn { steps: u64 },
    /// The oracle cannot run `lowered` (an unsupported external, a `main` it cannot call).
    OracleCannotRun(String),
    /// `lowered` hit undefined behaviour within the probe's fuel.
    Undefined(String),
    /// gcc's binary finished under the long limit: the reference to judge against.
    Finished(Execution),
    /// gcc's binary ran past the long limit too, while `lowered` finished: the detail.
    Suspect(String),
    /// The long rerun gave no usable reference (gcc -O0 and -O2 disagree, a crash).
    ReferenceInvalid(String),
}

/// Probes `module` (phicc's `lowered` stage of the program at `path`) and, when it
/// finishes, reruns gcc on `target` with the long limit. `Err` only for a broken setup.
pub fn probe(
    module: &IrModule,
    path: &Path,
    includes: &[PathBuf],
    target: Target,
    limits: &NativeLimits,
    cfg: &ProbeConfig,
) -> Result<ProbeVerdict, String> {
    let run = RunConfig {
        fuel: cfg.fuel,
        ptr_bytes: target.sizeof_pointer(),
        ..RunConfig::default()
    };
    let run = match run_main(module, &run) {
        Ok(r) => r,
        Err(why) => return Ok(ProbeVerdict::OracleCannotRun(why.message)),
    };
    match run.outcome {
        Outcome::OutOfFuel => return Ok(ProbeVerdict::RunsOn { steps: run.steps }),
        Outcome::Undefined(..) => {
            return Ok(ProbeVerdict::Undefined(format!(
                "gcc's binary timed out; lowered: {}",
                run.outcome
            )))
        }
        _ => {}
    }
    let finished = format!(
        "the oracle's lowered stage finished in {} steps ({}, stdout {})",
        run.steps,
        run.outcome,
        quote_stdout(&run.stdout)
    );
    let long = NativeLimits {
        run_timeout: cfg.long_run_timeout,
        ..*limits
    };
    Ok(match gcc_reference(target, path, includes, &long)? {
        CReference::Usable { o0, .. } => ProbeVerdict::Finished(o0),
        CReference::Discarded(why) if why == "reference timeout" => ProbeVerdict::Suspect(format!(
            "gcc's binary ran past {} s; {finished}",
            cfg.long_run_timeout.as_secs_f64()
        )),
        CReference::Discarded(why) => {
            ProbeVerdict::ReferenceInvalid(format!("{why} (on the long rerun; {finished})"))
        }
    })
}
