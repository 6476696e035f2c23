//! The native stage of an IR program: phicc's assembly linked with a generated C driver,
//! one build per (program, stage), one run per call, each judged against the oracle.
//!
//! Why: `; run:` lines of `.ir` files and the argument vectors of generated programs call
//! an arbitrary function with arguments; the driver (`oracle::native::ir_driver`) makes
//! that call through the target's real C ABI. The reference is an oracle outcome — the
//! directive's expectation (`check`) or the oracle's run of `lowered` at the target's
//! pointer width (hunts) — so the IR side differs from the C side only in its reference.
//!
//! Invariants:
//! - the module is the output of phi elimination of a module whose entry functions were
//!   exported *before* the pipeline ([`prepare_entries`]: a pass may delete a static
//!   function whose callers were all inlined); `@main` is renamed for the driver here;
//! - an expectation that does not check stdout takes the run's own stdout, and a `ptr`
//!   result is never compared (addresses differ between the oracle and every target);
//! - a run that times out twice (the run limit, then the long limit) is a `timeout`
//!   failure: the reference finished within the oracle's fuel, which a native run does in
//!   far less than either limit;
//! - a build that times out is `Discarded` (the machine was too slow, no verdict); a
//!   driver or assembler rejection is `asm_rejected`; a broken setup is `Err`.

use super::backend::assembly;
use super::plan::{NativeLimits, NativeStage};
use super::verdict::{NativeFailure, NativeTimes, RowVerdict};
use crate::diff::FindingKind;
use compiler::ir::{IrModule, IrType};
use oracle::native::ir_driver::export_entries;
use oracle::native::{
    build, driver_source, judge_against_oracle, parse_result, rename_main, run, BuildConfig,
    BuildError, EntryCall, Exit, NativeVerdict, RunLimits, Source, ENTRY_MAIN_RENAME,
};
use oracle::{Outcome, RunResult};

/// One call a native stage makes, and what it must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallExpectation {
    /// The function's name in the module (`main` before renaming).
    pub func: String,
    /// Arguments, canonical for the parameter types.
    pub args: Vec<i64>,
    /// What the call must end in (never `Undefined` or `OutOfFuel`: such calls are
    /// dropped before).
    pub outcome: Outcome,
    /// The stdout it must print; `None`: not checked.
    pub stdout: Option<Vec<u8>>,
}

impl CallExpectation {
    /// The expectation of an oracle run (stdout checked).
    pub fn from_run(func: &str, args: &[i64], r: &RunResult) -> CallExpectation {
        CallExpectation {
            func: func.to_string(),
            args: args.to_vec(),
            outcome: r.outcome.clone(),
            stdout: Some(r.stdout.clone()),
        }
    }
}

/// What one stage did with a program's calls.
#[derive(Clone, Debug)]
pub enum IrStageResult {
    /// Built and ran: one verdict per call, in order.
    Ran {
        calls: Vec<RowVerdict>,
        times: NativeTimes,
    },
    /// Nothing ran: the backend, assembler or linker failed (a finding for every call).
    Failed(NativeFailure, NativeTimes),
    /// Nothing ran and no verdict (a build timeout).
    Discarded(String),
}

/// Makes every function a call names global, on the module *before* the pipeline runs;
/// returns true when one was static.
pub fn prepare_entries(module: &mut IrModule, funcs: &[&str]) -> bool {
    let calls: Vec<EntryCall> = funcs
        .iter()
        .map(|f| EntryCall {
            func: f.to_string(),
            params: Vec::new(),
            ret: IrType::Void,
            args: Vec::new(),
        })
        .collect();
    export_entries(module, &calls) > 0
}

/// The driver's calls for `calls` on `module` (renamed `@main` included); `Err` names a
/// call the module cannot take.
fn entry_calls(
    module: &IrModule,
    renamed_main: bool,
    calls: &[CallExpectation],
) -> Result<Vec<EntryCall>, String> {
    calls
        .iter()
        .map(|c| {
            let name = if renamed_main && c.func == "main" {
                ENTRY_MAIN_RENAME
            } else {
                c.func.as_str()
            };
            let f = module
                .function(name)
                .ok_or_else(|| format!("@{} is not in the module after the pipeline", c.func))?;
            Ok(EntryCall {
                func: name.to_string(),
                params: f.params.clone(),
                ret: f.ret,
                args: c.args.clone(),
            })
        })
        .collect()
}

/// Runs `calls` natively on `stage` with the phi-eliminated `module`. `Err` only for a
/// broken setup (a tool missing).
pub fn run_ir_stage(
    module: &IrModule,
    stage: NativeStage,
    calls: &[CallExpectation],
    limits: &NativeLimits,
) -> Result<IrStageResult, String> {
    let mut renamed = module.clone();
    rename_main(&mut renamed);
    match assembly(&renamed, stage) {
        Ok((asm, t)) => {
            let mut r = run_ir_assembly(&asm, module, stage, calls, limits)?;
            match &mut r {
                IrStageResult::Ran { times, .. } | IrStageResult::Failed(_, times) => {
                    times.phicc = t
                }
                IrStageResult::Discarded(_) => {}
            }
            Ok(r)
        }
        Err(f) => Ok(IrStageResult::Failed(f, NativeTimes::default())),
    }
}

/// [`run_ir_stage`] from the assembly `asm` of `module` (the module names the calls'
/// signatures; `@main` is called under its renamed name).
pub fn run_ir_assembly(
    asm: &str,
    module: &IrModule,
    stage: NativeStage,
    calls: &[CallExpectation],
    limits: &NativeLimits,
) -> Result<IrStageResult, String> {
    let mut times = NativeTimes::default();
    let mut module = module.clone();
    let renamed = rename_main(&mut module);
    let entries = match entry_calls(&module, renamed, calls) {
        Ok(e) => e,
        Err(why) => return Ok(IrStageResult::Discarded(format!("no entry: {why}"))),
    };
    let driver = driver_source(&entries, stage.target);
    let cfg = BuildConfig {
        timeout: limits.build_timeout,
        ..BuildConfig::default()
    };
    let built = match build(stage.target, &[Source::Asm(asm), Source::C(&driver)], &cfg) {
        Ok(b) => b,
        Err(BuildError::Rejected(m)) => {
            let f = NativeFailure::new(
                FindingKind::AsmRejected,
                format!(
                    "{}'s gcc rejects phicc's assembly: {m}",
                    stage.target.name()
                ),
            );
            return Ok(IrStageResult::Failed(f, times));
        }
        Err(BuildError::TimedOut) => return Ok(IrStageResult::Discarded("build timeout".into())),
        Err(BuildError::Setup(m)) => return Err(m),
    };
    times.build = built.elapsed;
    let run_limits = RunLimits {
        timeout: limits.run_timeout,
        max_output: limits.max_output,
    };
    let mut verdicts = Vec::new();
    // Set once a call of this binary ran past the long limit too: the program is a timeout
    // finding already, so a later call past the short limit is not given the long one
    // again (a hung binary with four entries would otherwise hold its worker, and a
    // stopping hunt, for four long limits).
    let mut hang_confirmed = false;
    for (i, (call, entry)) in calls.iter().zip(&entries).enumerate() {
        let index = i.to_string();
        let mut exec = run(stage.target, &built, &[index.as_str()], &run_limits)?;
        times.run += exec.elapsed;
        let mut long_rerun = false;
        if exec.exit == Exit::TimedOut && !hang_confirmed {
            // A loaded machine (or qemu) can be slow: only a binary that also runs past the
            // long limit is a finding, never one that was merely slow once.
            let long = RunLimits {
                timeout: limits.long_run_timeout,
                ..run_limits
            };
            exec = run(stage.target, &built, &[index.as_str()], &long)?;
            times.run += exec.elapsed;
            long_rerun = true;
        }
        if exec.exit == Exit::TimedOut {
            hang_confirmed = true;
            let second = if long_rerun {
                format!(
                    "and past {:.1} s on a second run",
                    limits.long_run_timeout.as_secs_f64()
                )
            } else {
                "not rerun: an earlier call of this binary ran past the long limit".to_string()
            };
            verdicts.push(RowVerdict::Failed(NativeFailure::new(
                FindingKind::Timeout,
                format!(
                    "phicc's binary ran past {:.1} s ({second}); the oracle's run: {}",
                    limits.run_timeout.as_secs_f64(),
                    call.outcome
                ),
            )));
            continue;
        }
        let result = parse_result(&exec.stderr);
        let outcome = match (&call.outcome, entry.ret) {
            // Addresses differ between the oracle and the target: compare all but the value.
            (Outcome::Returned(Some(_)), IrType::Ptr) if result.is_some() => {
                Outcome::Returned(result)
            }
            (o, _) => o.clone(),
        };
        let expected = RunResult {
            outcome,
            stdout: call.stdout.clone().unwrap_or_else(|| exec.stdout.clone()),
            steps: 0,
        };
        verdicts.push(match judge_against_oracle(&expected, &exec, result) {
            NativeVerdict::Agrees => RowVerdict::Agrees,
            NativeVerdict::Differs(d) => {
                RowVerdict::Failed(NativeFailure::new(FindingKind::Mismatch, d))
            }
        });
    }
    Ok(IrStageResult::Ran {
        calls: verdicts,
        times,
    })
}
