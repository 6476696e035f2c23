//! One c-torture test on one target: phicc's front end for the target, every pipeline
//! stage in the oracle at the target's pointer width, and phicc's binaries on the target
//! (x86_64: both allocators), each against gcc -O0's run of the test on that target.
//!
//! Why: this is the question the suite asks for each (test, target), answered with the
//! machinery `phihunt check FILE.c` uses — `check::c_source` (front end, stage
//! judgement), `check::ub_judge` (the checked lowering), `native::c_program`
//! (phicc's backend, link and run against a gcc run) — but with the reference taken from
//! the cached selection (`selection.rs`), so no gcc build is repeated per run, and every
//! cell folded into one [`Outcome`].
//!
//! The order, and the first answer that wins:
//! 1. the front end for the target refuses the test: `refused` (its first error); it
//!    panics: `error`;
//! 2. the UB judge (the checked lowering's `main` in the oracle at the target's width)
//!    finds undefined behaviour: `ub` (no verdict is possible). phicc's binaries still
//!    run against gcc's, and whether they behave alike is kept with the outcome
//!    (`Outcome::ub_natives`), as information for reviewing the judge's verdicts: a UB
//!    test never becomes a pass or a wrong code through it;
//! 3. a stage after it differs from gcc's run: `wrong-code` at that stage (at `lowered`
//!    too: the front end, or the oracle's libc, is then wrong); a stage runs out of fuel
//!    where `lowered` did not: `timeout`; a stage fails the verifier or panics: `error`;
//! 4. the native stages: a run that differs is `wrong-code` at `native:TARGET`, one past
//!    the limit `timeout`, a backend refusal, allocation-checker failure or rejected
//!    assembly `error` (the worst of the target's stages wins, in that order);
//! 5. otherwise `pass`, unless the oracle gave no verdict at `lowered` (out of fuel, or an
//!    external it cannot run), which is `oracle-invalid` with the oracle's reason.
//!
//! Invariants: `Err` only for a broken setup (a driver or qemu missing); nothing here
//! panics on a test's input (the front end, the pipeline and the backend run under
//! `catch_unwind` in the functions called); every child (link, run) is under the native
//! limits' timeouts.

use super::outcome::{Kind, Outcome, UB_NATIVES_LIKE_GCC};
use crate::check::c_source::{front_end_for, judge_stages_at, FrontEndFailure, Invalid};
use crate::check::ub_judge::checked_front_end_positions;
use crate::diff::FindingKind;
use crate::native::c_program::run_c_stage;
use crate::native::{NativeLimits, NativeStage, RowVerdict};
use crate::stages::final_stage;
use compiler::ir::IrModule;
use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::native::{Execution, Exit};
use oracle::RunConfig;
use std::path::Path;
use std::time::Duration;

/// How one (test, target) is judged.
#[derive(Clone, Debug)]
pub struct JudgeSettings {
    pub pipeline: PipelineOptions,
    /// Oracle instructions per stage run (the UB judge's run included).
    pub fuel: u64,
    pub limits: NativeLimits,
}

/// gcc -O0's clean run of a test as a native reference: exit 0 with `stdout`.
pub fn clean_reference(stdout: &[u8], run_ms: u64) -> Execution {
    Execution {
        exit: Exit::Code(0),
        stdout: stdout.to_vec(),
        stderr: Vec::new(),
        truncated: false,
        elapsed: Duration::from_millis(run_ms),
    }
}

/// Judges the test at `path` on `target` (native stages `stages`, all of that target)
/// against `reference` (gcc -O0's clean run there). `Err` only for a broken setup. The
/// test's path in any message is shortened to its file name, so that outcomes read the
/// same on every machine (the expected-failures list compares them).
pub fn judge(
    path: &Path,
    target: Target,
    stages: &[NativeStage],
    reference: &Execution,
    settings: &JudgeSettings,
) -> Result<Outcome, String> {
    let mut outcome = judge_at(path, target, stages, reference, settings)?;
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        outcome.detail = outcome.detail.replace(&path.display().to_string(), name);
    }
    Ok(outcome)
}

fn judge_at(
    path: &Path,
    target: Target,
    stages: &[NativeStage],
    reference: &Execution,
    settings: &JudgeSettings,
) -> Result<Outcome, String> {
    // 1. The front end.
    let module = match front_end_for(path, &[], target).result {
        Ok(m) => m,
        Err(FrontEndFailure::Refused(why)) => return Ok(refused(why)),
        Err(FrontEndFailure::Panic(m)) => {
            return Ok(Outcome::new(
                Kind::Error,
                "front end",
                format!("the front end panicked: {m}"),
            ))
        }
    };
    let (checked, positions) = match checked_front_end_positions(path, &[], target) {
        Ok(c) => c,
        Err(FrontEndFailure::Refused(why)) => {
            return Ok(Outcome::new(
                Kind::Refused,
                "",
                format!("the checked lowering (UB judge): {}", why.message()),
            ))
        }
        Err(FrontEndFailure::Panic(m)) => {
            return Ok(Outcome::new(
                Kind::Error,
                "front end",
                format!("the checked lowering panicked: {m}"),
            ))
        }
    };
    // 2. and 3. The UB judge, then every stage in the oracle.
    let run = RunConfig {
        ptr_bytes: target.sizeof_pointer(),
        fuel: settings.fuel,
        ..RunConfig::default()
    };
    let expected = (0, reference.stdout.clone());
    let mut oracle_invalid: Option<String> = None;
    match judge_stages_at(
        &module,
        (&checked, Some(&positions)),
        expected,
        &settings.pipeline,
        &run,
    ) {
        Err(Invalid::Undefined { category, detail }) => {
            let mut ub = Outcome::new(Kind::Ub, "", format!("{category}: {detail}"));
            ub.ub_natives = ub_natives(module, target, stages, reference, settings)?;
            return Ok(ub);
        }
        Err(why) => oracle_invalid = Some(why.message()),
        Ok(j) => {
            let failing = j.stages.iter().zip(&j.cells).find(|(_, c)| c.failed());
            if let Some((stage, cell)) = failing {
                let notes = j.notes.join("; ");
                let with_notes = |t: &str| {
                    if notes.is_empty() {
                        t.to_string()
                    } else {
                        format!("{t} ({notes})")
                    }
                };
                let outcome = match cell.text.as_str() {
                    "verifier failed" | "panicked" | "unreported change" | "cannot run" => {
                        Outcome::new(Kind::Error, stage, with_notes(&cell.text))
                    }
                    t if t.contains("out of fuel") => Outcome::new(
                        Kind::Timeout,
                        stage,
                        format!(
                            "out of oracle fuel ({} instructions) where lowered finished",
                            settings.fuel
                        ),
                    ),
                    t => Outcome::new(
                        Kind::WrongCode,
                        stage,
                        format!("{}; gcc -O0: {}", with_notes(t), reference.describe()),
                    ),
                };
                return Ok(outcome);
            }
        }
    }
    // 4. The native stages.
    if let Some(w) = native_failure(module, target, stages, reference, settings)? {
        return Ok(w);
    }
    // 5.
    Ok(match oracle_invalid {
        Some(why) => Outcome::new(Kind::OracleInvalid, "lowered", why),
        None => Outcome::pass(),
    })
}

/// What phicc's binaries do on a test the UB judge calls undefined, for the record
/// ([`Outcome::ub_natives`]): [`UB_NATIVES_LIKE_GCC`], or `differ (KIND at STAGE): ` and
/// the worst native failure's detail. Never a verdict: the test stays `ub`.
fn ub_natives(
    module: IrModule,
    target: Target,
    stages: &[NativeStage],
    reference: &Execution,
    settings: &JudgeSettings,
) -> Result<String, String> {
    Ok(
        match native_failure(module, target, stages, reference, settings)? {
            None => UB_NATIVES_LIKE_GCC.to_string(),
            Some(o) => format!("differ ({} at {}): {}", o.kind.name(), o.stage, o.detail),
        },
    )
}

/// phicc's binaries of `module` on `target` against `reference`: the worst failing
/// native stage's outcome (wrong code over error over timeout), a pipeline failure as
/// an `error`, or `None` when every native stage agrees. `Err` only for a broken setup.
fn native_failure(
    module: IrModule,
    target: Target,
    stages: &[NativeStage],
    reference: &Execution,
    settings: &JudgeSettings,
) -> Result<Option<Outcome>, String> {
    let native = match final_stage(module, &settings.pipeline) {
        Ok(m) => m,
        Err(f) => {
            return Ok(Some(Outcome::new(
                Kind::Error,
                f.stage(),
                format!("the pipeline: {}", f.message()),
            )))
        }
    };
    let mut worst: Option<Outcome> = None;
    for &stage in stages.iter().filter(|s| s.target == target) {
        let (verdict, _) = run_c_stage(&native, stage, reference, &settings.limits)?;
        let outcome = match verdict {
            RowVerdict::Agrees => continue,
            RowVerdict::Failed(f) => match f.kind {
                FindingKind::Mismatch => Outcome::new(Kind::WrongCode, stage.name(), f.detail),
                FindingKind::Timeout => Outcome::new(Kind::Timeout, stage.name(), f.detail),
                k => Outcome::new(
                    Kind::Error,
                    stage.name(),
                    format!("{}: {}", k.name(), f.detail),
                ),
            },
            RowVerdict::Discarded(why) => Outcome::new(Kind::Timeout, stage.name(), why),
        };
        if worst
            .as_ref()
            .is_none_or(|w| rank(outcome.kind) > rank(w.kind))
        {
            worst = Some(outcome);
        }
    }
    Ok(worst)
}

/// How bad a native stage's failure is, to pick one per target.
fn rank(k: Kind) -> u8 {
    match k {
        Kind::WrongCode => 3,
        Kind::Error => 2,
        Kind::Timeout => 1,
        _ => 0,
    }
}

fn refused(why: Invalid) -> Outcome {
    Outcome::new(Kind::Refused, "", why.message())
}
