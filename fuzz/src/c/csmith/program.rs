//! One csmith seed end to end: generate, build the gcc reference, compile with phicc,
//! run every stage in the oracle, classify.
//!
//! Invariants: the classification is total and exclusive (see [`Verdict`]); the program
//! text is kept in memory so a mismatch can be saved after the temporary file is gone;
//! phicc's time is measured in-process, per program, as one front-end run plus one
//! pipeline run (front end through phi elimination, verification included, no
//! snapshots); gcc's is the wall time of the `gcc -O0 -w` process (compile, assemble and
//! link: gcc has a back end, phicc does not yet), and separately `gcc -O0 -S` alone.
//!
//! A reference that times out is not simply dropped: the oracle runs the `lowered` stage
//! for `probe_fuel` steps ([`TimeoutProbe`]). Running on past them agrees with gcc (most
//! csmith timeouts are loops over 64-bit counters that no machine finishes). Finishing
//! is suspicious — a front-end bug can turn an endless loop into a finite one, and a
//! program the oracle finishes in `probe_fuel` steps runs natively in a fraction of the
//! time limit — so gcc's binary is run again with `long_ref_timeout`: if it finishes
//! now, the program is judged against that reference as usual; if it still runs on, the
//! seed is [`Verdict::Suspect`] and saved, never called a miscompile.

use super::CSMITH_INCLUDE;
use crate::check::c_source::{front_end, judge_stages, reference_result, FrontEndFailure};
use crate::check::c_source::{run_main, CJudgement, Invalid};
use crate::check::ub_judge::checked_front_end;
use crate::native::c_program::{judge_c_natively, CNativeRows};
use crate::native::NativePlan;
use compiler::pipeline::{run_pipeline, PipelineOptions};
use oracle::native::gcc::{compile_only_time, quote_stdout};
use oracle::native::{reference_run, run_limited, NativeOutcome, ReferenceConfig, Termination};
use oracle::{Outcome, RunConfig};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Settings shared by every seed.
#[derive(Clone, Debug)]
pub struct SeedConfig {
    pub csmith_options: Vec<String>,
    /// Where the temporary `.c` files go.
    pub work_dir: PathBuf,
    pub fuel: u64,
    pub csmith_timeout: Duration,
    pub ref_timeout: Duration,
    /// Oracle steps the `lowered` stage gets when the reference timed out.
    pub probe_fuel: u64,
    /// The second, longer limit for gcc's binary when the probe finished.
    pub long_ref_timeout: Duration,
    pub pipeline: PipelineOptions,
    /// The native stages every judged seed also runs (gcc -O0 on each target, confirmed
    /// by -O2).
    pub native: NativePlan,
}

/// What the oracle's `lowered` stage did with a program whose gcc binary timed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeoutProbe {
    /// It ran out of the probe's fuel too: consistent with gcc.
    RunsOn { steps: u64 },
    /// The oracle cannot run it (an unsupported external, a `main` it cannot call).
    OracleCannotRun(String),
}

/// How one seed ended.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// csmith failed or timed out.
    GeneratorFailed(String),
    /// The gcc binary ran past its time limit, and what the oracle's `lowered` stage did
    /// with the program.
    ReferenceTimeout(TimeoutProbe),
    /// gcc rejected the program or its binary crashed.
    ReferenceInvalid(String),
    /// The front end refused the program (its first error).
    Unsupported(String),
    /// The oracle cannot use the `lowered` stage as a reference (unsupported external,
    /// out of fuel).
    OracleInvalid(String),
    /// The UB judge found undefined behaviour of this category (`check::ub_judge`): no
    /// verdict, counted by category; saved, since csmith promises programs without UB.
    Undefined { category: String, detail: String },
    /// gcc's binary ran past even the long time limit, but the oracle's `lowered` stage
    /// finished within the probe's fuel (what it did is the detail): no verdict, but
    /// likely a front-end bug; saved for a human.
    Suspect(String),
    /// Every stage agrees with gcc.
    Matched,
    /// A stage disagrees with gcc, fails the verifier or panics (`frontend` when the
    /// front end panicked).
    Mismatched { stage: String, detail: String },
}

/// The result of one seed.
#[derive(Clone, Debug)]
pub struct SeedResult {
    pub seed: u64,
    pub verdict: Verdict,
    /// The program csmith wrote (empty when it failed).
    pub program: String,
    /// The gcc reference's outcome (when built).
    pub reference: Option<NativeOutcome>,
    /// The per-stage results (when judged).
    pub judgement: Option<CJudgement>,
    /// phicc's front end and pipeline times (when the front end accepted the program).
    pub front_end_time: Option<Duration>,
    pub pipeline_time: Option<Duration>,
    /// gcc's compile time (when gcc ran): the whole build (compile, assemble, link).
    pub gcc_time: Option<Duration>,
    /// `gcc -O0 -S` alone (when it succeeded).
    pub gcc_s_time: Option<Duration>,
    /// The native stages' verdicts and times, when they ran (the program was judged at
    /// the stages: the front end accepted it and gcc's host reference finished).
    pub native: Option<CNativeRows>,
}

impl SeedResult {
    /// The mismatching stage and detail, if the seed is a mismatch.
    pub fn mismatch(&self) -> Option<(&str, &str)> {
        match &self.verdict {
            Verdict::Mismatched { stage, detail } => Some((stage, detail)),
            _ => None,
        }
    }

    /// One progress line.
    pub fn line(&self, saved: Option<&Result<PathBuf, String>>) -> String {
        let place = match saved {
            Some(Ok(p)) => format!(" (saved to {})", p.display()),
            Some(Err(e)) => format!(" (NOT SAVED: {e})"),
            None => String::new(),
        };
        let what = match &self.verdict {
            Verdict::GeneratorFailed(m) => format!("csmith failed: {m}"),
            Verdict::ReferenceTimeout(TimeoutProbe::RunsOn { steps }) => {
                format!("reference timeout (lowered also ran on past {steps} steps)")
            }
            Verdict::ReferenceTimeout(TimeoutProbe::OracleCannotRun(m)) => {
                format!("reference timeout (the oracle cannot run lowered: {m})")
            }
            Verdict::Suspect(m) => format!("SUSPECT: {m}{place}"),
            Verdict::ReferenceInvalid(m) => format!("reference invalid: {m}"),
            Verdict::Unsupported(m) => format!("unsupported: {m}"),
            Verdict::OracleInvalid(m) => format!("oracle invalid: {m}{place}"),
            Verdict::Undefined { category, detail } => {
                format!("undefined ({category}): {detail}{place}")
            }
            Verdict::Matched => "matched".into(),
            Verdict::Mismatched { stage, detail } => {
                format!("MISMATCH at {stage}: {detail}{place}")
            }
        };
        let mut times = Vec::new();
        if let (Some(fe), Some(p)) = (self.front_end_time, self.pipeline_time) {
            times.push(format!("phicc {:.1} ms", (fe + p).as_secs_f64() * 1e3));
        }
        if let Some(g) = self.gcc_time {
            times.push(format!("gcc {:.1} ms", g.as_secs_f64() * 1e3));
        }
        if times.is_empty() {
            format!("seed {}: {what}", self.seed)
        } else {
            format!("seed {}: {what} ({})", self.seed, times.join(", "))
        }
    }
}

/// csmith's program for `seed` (`Ok(Err(why))` when csmith fails or times out; `Err` when
/// it cannot be started). csmith writes `platform.info` into its working directory: each
/// call runs it in a fresh temporary directory below `work_dir`, because two csmith
/// processes sharing one directory race on that file (seen: exit 255, no message).
pub fn csmith_program(
    seed: u64,
    options: &[String],
    work_dir: &std::path::Path,
    timeout: Duration,
) -> Result<Result<String, String>, String> {
    let own_dir = tempfile::Builder::new()
        .prefix("csmith-")
        .tempdir_in(work_dir)
        .map_err(|e| format!("cannot create a directory in {}: {e}", work_dir.display()))?;
    let mut csmith = Command::new("csmith");
    csmith
        .arg("--seed")
        .arg(seed.to_string())
        .args(options)
        .current_dir(own_dir.path());
    let generated = run_limited(&mut csmith, timeout, 64 << 20)?;
    match generated.termination {
        Termination::Exited(0) if !generated.truncated => {
            Ok(Ok(String::from_utf8_lossy(&generated.stdout).into_owned()))
        }
        t => {
            let stderr = String::from_utf8_lossy(&generated.stderr);
            let first = stderr.lines().next().unwrap_or("").to_string();
            Ok(Err(format!("{t:?} {first}")))
        }
    }
}

/// Runs seed `seed`. `Err` only for a broken setup (csmith or gcc cannot be started).
pub fn run_seed(seed: u64, cfg: &SeedConfig) -> Result<SeedResult, String> {
    let mut result = SeedResult {
        seed,
        verdict: Verdict::Matched,
        program: String::new(),
        reference: None,
        judgement: None,
        front_end_time: None,
        pipeline_time: None,
        gcc_time: None,
        gcc_s_time: None,
        native: None,
    };
    result.program =
        match csmith_program(seed, &cfg.csmith_options, &cfg.work_dir, cfg.csmith_timeout)? {
            Ok(p) => p,
            Err(why) => {
                result.verdict = Verdict::GeneratorFailed(why);
                return Ok(result);
            }
        };
    let path = cfg.work_dir.join(format!("csmith-{seed}.c"));
    std::fs::write(&path, &result.program)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let verdict = judge(&path, cfg, &mut result);
    let _ = std::fs::remove_file(&path);
    result.verdict = verdict?;
    Ok(result)
}

/// csmith's runtime headers, for phicc and gcc alike.
fn include_dirs() -> Vec<PathBuf> {
    vec![PathBuf::from(CSMITH_INCLUDE)]
}

fn judge(
    path: &std::path::Path,
    cfg: &SeedConfig,
    result: &mut SeedResult,
) -> Result<Verdict, String> {
    let includes = include_dirs();
    let reference_cfg = ReferenceConfig {
        include_dirs: includes.clone(),
        run_timeout: cfg.ref_timeout,
        ..ReferenceConfig::default()
    };
    let native = reference_run(path, &reference_cfg)?;
    result.gcc_time = Some(native.compile_time);
    result.gcc_s_time = compile_only_time(path, &reference_cfg)?;
    result.reference = Some(native.outcome.clone());

    let fe = front_end(path, &includes);
    let module = match fe.result {
        Ok(m) => m,
        Err(FrontEndFailure::Refused(why)) => {
            // The temporary path means nothing once the file is gone: keep `csmith-K.c`.
            let prefix = format!("{}/", cfg.work_dir.display());
            return Ok(Verdict::Unsupported(why.message().replace(&prefix, "")));
        }
        Err(FrontEndFailure::Panic(msg)) => {
            return Ok(Verdict::Mismatched {
                stage: "frontend".into(),
                detail: format!("the front end panicked: {msg}"),
            })
        }
    };
    result.front_end_time = Some(fe.elapsed);
    // phicc's compile time: the pipeline alone, as a compile would run it.
    let start = Instant::now();
    let timed = catch_unwind(AssertUnwindSafe(|| {
        run_pipeline(module.clone(), &cfg.pipeline, &mut |_, _| {})
    }));
    if matches!(timed, Ok(Ok(_))) {
        result.pipeline_time = Some(start.elapsed());
    }

    let reference = match reference_result(&native.outcome) {
        Ok(r) => r,
        Err(Invalid::ReferenceTimeout) => {
            match probe_timeout(path, &module, &reference_cfg, cfg, result)? {
                Ok(long_reference) => long_reference,
                Err(verdict) => return Ok(verdict),
            }
        }
        Err(why) => return Ok(Verdict::ReferenceInvalid(why.message())),
    };
    let run = RunConfig {
        fuel: cfg.fuel,
        ..RunConfig::default()
    };
    let checked = match checked_front_end(path, &includes) {
        Ok(m) => m,
        Err(FrontEndFailure::Refused(why)) => {
            let prefix = format!("{}/", cfg.work_dir.display());
            return Ok(Verdict::Unsupported(why.message().replace(&prefix, "")));
        }
        Err(FrontEndFailure::Panic(msg)) => {
            return Ok(Verdict::Mismatched {
                stage: "frontend".into(),
                detail: format!("the checked front end panicked: {msg}"),
            })
        }
    };
    let verdict = match judge_stages(&module, &checked, reference, &cfg.pipeline, &run) {
        Err(Invalid::Undefined { category, detail }) => {
            return Ok(Verdict::Undefined { category, detail })
        }
        Err(why) => return Ok(Verdict::OracleInvalid(why.message())),
        Ok(j) => {
            let verdict = match j.first_mismatch() {
                None => Verdict::Matched,
                Some((stage, detail)) => Verdict::Mismatched {
                    stage: stage.to_string(),
                    detail: detail.to_string(),
                },
            };
            result.judgement = Some(j);
            verdict
        }
    };
    if cfg.native.is_empty() {
        return Ok(verdict);
    }
    let rows = judge_c_natively(
        path,
        &includes,
        &cfg.pipeline,
        &cfg.native.stages,
        &cfg.native.limits,
        None,
    )?;
    // The first failing native stage makes a matched seed a mismatch (a stage mismatch
    // found first keeps its verdict: it is the earlier stage).
    let native_failure = rows.rows.iter().find_map(|(stage, v, _)| {
        v.failure().map(|f| Verdict::Mismatched {
            stage: stage.name(),
            detail: format!("{}: {}", f.kind.name(), f.detail),
        })
    });
    result.native = Some(rows);
    Ok(match (verdict, native_failure) {
        (Verdict::Matched, Some(native)) => native,
        (v, _) => v,
    })
}

/// A reference that timed out: runs `lowered` in the oracle for `probe_fuel` steps and,
/// when it finishes, gcc's binary again for `long_ref_timeout` (see the module doc).
/// `Ok(reference)` when the long run finished (judge against it), `Err(verdict)`
/// otherwise; the outer `Err` only for a broken setup.
fn probe_timeout(
    path: &std::path::Path,
    module: &compiler::ir::IrModule,
    reference_cfg: &ReferenceConfig,
    cfg: &SeedConfig,
    result: &mut SeedResult,
) -> Result<Result<(i32, Vec<u8>), Verdict>, String> {
    let probe = RunConfig {
        fuel: cfg.probe_fuel,
        ..RunConfig::default()
    };
    let run = match run_main(module, &probe) {
        Ok(r) => r,
        Err(why) => {
            return Ok(Err(Verdict::ReferenceTimeout(
                TimeoutProbe::OracleCannotRun(why),
            )))
        }
    };
    match run.outcome {
        Outcome::OutOfFuel => {
            return Ok(Err(Verdict::ReferenceTimeout(TimeoutProbe::RunsOn {
                steps: run.steps,
            })))
        }
        Outcome::Undefined(..) => {
            return Ok(Err(Verdict::OracleInvalid(format!(
                "gcc's binary timed out; lowered: {}",
                run.outcome
            ))))
        }
        _ => {}
    }
    let long_cfg = ReferenceConfig {
        run_timeout: cfg.long_ref_timeout,
        ..reference_cfg.clone()
    };
    let long = reference_run(path, &long_cfg)?;
    result.reference = Some(long.outcome.clone());
    let finished = format!(
        "the oracle's lowered stage finished in {} steps ({}, stdout {})",
        run.steps,
        run.outcome,
        quote_stdout(&run.stdout)
    );
    Ok(match reference_result(&long.outcome) {
        Ok(r) => Ok(r),
        Err(Invalid::ReferenceTimeout) => Err(Verdict::Suspect(format!(
            "gcc's binary ran past {} s; {finished}",
            cfg.long_ref_timeout.as_secs_f64()
        ))),
        Err(why) => Err(Verdict::ReferenceInvalid(format!(
            "{} (on the long rerun; {finished})",
            why.message()
        ))),
    })
}
