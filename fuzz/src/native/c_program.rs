//! The native stage of a C program: phicc's binary against gcc -O0's on the same target.
//!
//! Why: for C the reference is the target's own gcc (`check FILE.c`, `bench csmith`,
//! `bench native`). gcc -O2's binary is the check that the program is defined: when -O0
//! and -O2 disagree, the program has undefined behaviour somewhere, and the row is
//! discarded and counted, never a failure.
//!
//! Steps, per target: [`gcc_reference`] (built once, shared by the target's allocators);
//! [`phicc_module`] (the front end *for that target* — i686 is ILP32 — and the pipeline
//! to `phi_elim`, once per target); [`run_c_stage`] (backend, assemble and link, run,
//! judge).
//!
//! Invariants:
//! - a reference that gcc rejects, that times out, that dies by a signal, or whose -O2
//!   build disagrees with it (or does not build, or times out) makes the row `Discarded`;
//! - phicc's binary timing out where gcc -O0's finished is a `timeout` failure — except
//!   that when gcc's run took more than a twentieth of the limit (a slow program, and
//!   phicc's code may well be slower than gcc -O0's), phicc's binary is run again with
//!   the long limit first, and only a second timeout is the failure;
//! - a target whose data model is not x86_64's (i686) first asks the UB judge on its own
//!   data model (`check::ub_judge::undefined_on_target`): UB there discards the row
//!   (`ub (i686): CATEGORY: ...`);
//! - the front end refusing a program for one target that gcc builds for it is
//!   `Discarded` (`front end (i686): ...`): counted and shown, not a finding here (the
//!   x86_64 rows of `check` already judge the front end's coverage); a front-end panic, or a
//!   pipeline stage failing on the target's module, is a failure of the row.

use super::backend::assembly;
use super::plan::{NativeLimits, NativeStage};
use super::verdict::{NativeFailure, NativeTimes, RowVerdict};
use crate::check::c_source::{front_end_for, FrontEndFailure};
use crate::diff::FindingKind;
use crate::stages::{final_stage, StageFailure};
use compiler::ir::IrModule;
use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::native::{
    build, judge_against_reference, run, Build, BuildConfig, BuildError, Execution, Exit,
    NativeVerdict, RunLimits, Source,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// gcc's reference on one target.
#[derive(Debug)]
pub enum CReference {
    /// gcc -O0's run, confirmed by gcc -O2's; with both builds' and runs' times.
    Usable {
        o0: Execution,
        o0_build: Duration,
        o2_run: Duration,
        o2_build: Duration,
    },
    Discarded(String),
}

fn limits_of(l: &NativeLimits, timeout: Duration) -> RunLimits {
    RunLimits {
        timeout,
        max_output: l.max_output,
    }
}

/// Builds `path` with the target's gcc at `opt` and runs it.
fn gcc_run(
    target: Target,
    path: &Path,
    includes: &[PathBuf],
    opt: &str,
    limits: &NativeLimits,
) -> Result<Result<(Execution, Duration), String>, String> {
    let cfg = BuildConfig {
        opt: opt.to_string(),
        include_dirs: includes.to_vec(),
        extra_flags: Vec::new(),
        timeout: limits.build_timeout,
    };
    let built: Build = match build(target, &[Source::CFile(path)], &cfg) {
        Ok(b) => b,
        Err(BuildError::Rejected(m)) => {
            return Ok(Err(format!(
                "{}'s gcc {opt} rejects it: {m}",
                target.name()
            )))
        }
        Err(BuildError::TimedOut) => {
            return Ok(Err(format!("{}'s gcc {opt} timed out", target.name())))
        }
        Err(BuildError::Setup(m)) => return Err(m),
    };
    let exec = run(target, &built, &[], &limits_of(limits, limits.run_timeout))?;
    Ok(Ok((exec, built.elapsed)))
}

/// gcc -O0's and -O2's binaries of `path` on `target`, classified. `Err` only for a
/// broken setup.
pub fn gcc_reference(
    target: Target,
    path: &Path,
    includes: &[PathBuf],
    limits: &NativeLimits,
) -> Result<CReference, String> {
    let _phase = crate::campaign::phases::enter(crate::campaign::phases::Phase::GccReference);
    let (o0, o0_build) = match gcc_run(target, path, includes, "-O0", limits)? {
        Ok(r) => r,
        Err(why) => return Ok(CReference::Discarded(why)),
    };
    match o0.exit {
        Exit::TimedOut => return Ok(CReference::Discarded("reference timeout".into())),
        Exit::Signal(s) => {
            return Ok(CReference::Discarded(format!(
                "reference crashed ({})",
                o0.exit
                    .describe()
                    .replace(&format!("signal {s} "), &format!("signal {s}, "))
            )))
        }
        Exit::Code(_) => {}
    }
    let (o2, o2_build) = match gcc_run(target, path, includes, "-O2", limits)? {
        Ok(r) => r,
        Err(why) => return Ok(CReference::Discarded(format!("ub? {why}"))),
    };
    if let NativeVerdict::Differs(d) = judge_against_reference(&o0, &o2) {
        return Ok(CReference::Discarded(format!(
            "ub: gcc -O0 and -O2 disagree ({})",
            d.replacen("expected", "-O0", 1).replacen("got", "-O2", 1)
        )));
    }
    Ok(CReference::Usable {
        o2_run: o2.elapsed,
        o0,
        o0_build,
        o2_build,
    })
}

/// phicc's `phi_elim` module of `path` for `target`, with the time taken (front end and
/// pipeline); `Err` is the row's verdict when there is none.
pub fn phicc_module(
    target: Target,
    path: &Path,
    includes: &[PathBuf],
    pipeline: &PipelineOptions,
) -> Result<(IrModule, Duration), RowVerdict> {
    if target.sizeof_pointer() != 8 {
        // The stage-level judge ran on x86_64's data model; this one differs.
        if let Some(why) = crate::check::ub_judge::undefined_on_target(path, includes, target) {
            return Err(RowVerdict::Discarded(why));
        }
    }
    let start = Instant::now();
    let fe = front_end_for(path, includes, target);
    let module = match fe.result {
        Ok(m) => m,
        Err(FrontEndFailure::Refused(why)) => {
            return Err(RowVerdict::Discarded(format!(
                "front end ({}): {}",
                target.name(),
                why.message()
            )))
        }
        Err(FrontEndFailure::Panic(msg)) => {
            return Err(RowVerdict::Failed(NativeFailure::new(
                FindingKind::Panic,
                format!("the front end panicked for {}: {msg}", target.name()),
            )))
        }
    };
    match final_stage(module, pipeline) {
        Ok(m) => Ok((m, start.elapsed())),
        Err(f) => {
            let kind = match f {
                StageFailure::Verify(_) => FindingKind::Verify,
                StageFailure::Panic { .. } => FindingKind::Panic,
                StageFailure::UnreportedChange { .. } => FindingKind::UnreportedChange,
            };
            Err(RowVerdict::Failed(NativeFailure::new(
                kind,
                format!(
                    "the pipeline on the {} module: {}",
                    target.name(),
                    f.message().lines().next().unwrap_or("")
                ),
            )))
        }
    }
}

/// phicc's binary of the phi-eliminated `module` on `stage`, judged against gcc -O0's run
/// `reference`. `Err` only for a broken setup.
pub fn run_c_stage(
    module: &IrModule,
    stage: NativeStage,
    reference: &Execution,
    limits: &NativeLimits,
) -> Result<(RowVerdict, NativeTimes), String> {
    let (asm, phicc) = match assembly(module, stage) {
        Ok(a) => a,
        Err(f) => return Ok((RowVerdict::Failed(f), NativeTimes::default())),
    };
    let (verdict, mut times) = run_c_assembly(&asm, stage, reference, limits)?;
    times.phicc = phicc;
    Ok((verdict, times))
}

/// [`run_c_stage`] from the assembly text `asm` (a whole program, `main` included).
pub fn run_c_assembly(
    asm: &str,
    stage: NativeStage,
    reference: &Execution,
    limits: &NativeLimits,
) -> Result<(RowVerdict, NativeTimes), String> {
    let mut times = NativeTimes::default();
    let cfg = BuildConfig {
        timeout: limits.build_timeout,
        ..BuildConfig::default()
    };
    let built = match build(stage.target, &[Source::Asm(asm)], &cfg) {
        Ok(b) => b,
        Err(BuildError::Rejected(m)) => {
            let f = NativeFailure::new(
                FindingKind::AsmRejected,
                format!(
                    "{}'s gcc rejects phicc's assembly: {m}",
                    stage.target.name()
                ),
            );
            return Ok((RowVerdict::Failed(f), times));
        }
        Err(BuildError::TimedOut) => {
            return Ok((RowVerdict::Discarded("build timeout".into()), times))
        }
        Err(BuildError::Setup(m)) => return Err(m),
    };
    times.build = built.elapsed;
    let mut exec = run(
        stage.target,
        &built,
        &[],
        &limits_of(limits, limits.run_timeout),
    )?;
    times.run += exec.elapsed;
    if exec.exit == Exit::TimedOut && reference.elapsed * 20 > limits.run_timeout {
        exec = run(
            stage.target,
            &built,
            &[],
            &limits_of(limits, limits.long_run_timeout),
        )?;
        times.run += exec.elapsed;
    }
    if exec.exit == Exit::TimedOut {
        let f = NativeFailure::new(
            FindingKind::Timeout,
            format!(
                "phicc's binary ran past its limit; gcc -O0's finished in {:.2} s ({})",
                reference.elapsed.as_secs_f64(),
                reference.describe()
            ),
        );
        return Ok((RowVerdict::Failed(f), times));
    }
    let verdict = match judge_against_reference(reference, &exec) {
        NativeVerdict::Agrees => RowVerdict::Agrees,
        NativeVerdict::Differs(d) => RowVerdict::Failed(NativeFailure::new(
            FindingKind::Mismatch,
            d.replacen("expected", "gcc -O0", 1)
                .replacen("got", "phicc", 1),
        )),
    };
    Ok((verdict, times))
}

/// One C program on every stage of a plan: the rows in plan order.
#[derive(Clone, Debug)]
pub struct CNativeRows {
    /// (stage, verdict, times)
    pub rows: Vec<(NativeStage, RowVerdict, NativeTimes)>,
    /// Per target: gcc -O0's and -O2's (build, run) times, when the reference was usable.
    pub gcc_times: Vec<(Target, GccTimes)>,
    /// Per target: the reference's description, or why there is none.
    pub references: Vec<(Target, String)>,
}

/// gcc's times on one program.
#[derive(Clone, Copy, Debug, Default)]
pub struct GccTimes {
    pub o0_build: Duration,
    pub o0_run: Duration,
    pub o2_build: Duration,
    pub o2_run: Duration,
}

/// Runs every stage of `stages` on the C program `path`. `x86_64_module` is the
/// `phi_elim` module the caller already has for x86_64 (`check` does), if any.
pub fn judge_c_natively(
    path: &Path,
    includes: &[PathBuf],
    pipeline: &PipelineOptions,
    stages: &[NativeStage],
    limits: &NativeLimits,
    x86_64_module: Option<&IrModule>,
) -> Result<CNativeRows, String> {
    let mut out = CNativeRows {
        rows: Vec::new(),
        gcc_times: Vec::new(),
        references: Vec::new(),
    };
    let mut targets: Vec<Target> = Vec::new();
    for s in stages {
        if !targets.contains(&s.target) {
            targets.push(s.target);
        }
    }
    for target in targets {
        let reference = gcc_reference(target, path, includes, limits)?;
        let here: Vec<NativeStage> = stages
            .iter()
            .copied()
            .filter(|s| s.target == target)
            .collect();
        let o0 = match reference {
            CReference::Discarded(why) => {
                out.references.push((target, why.clone()));
                for s in here {
                    out.rows.push((
                        s,
                        RowVerdict::Discarded(why.clone()),
                        NativeTimes::default(),
                    ));
                }
                continue;
            }
            CReference::Usable {
                o0,
                o0_build,
                o2_run,
                o2_build,
            } => {
                out.references.push((target, o0.describe()));
                out.gcc_times.push((
                    target,
                    GccTimes {
                        o0_build,
                        o0_run: o0.elapsed,
                        o2_build,
                        o2_run,
                    },
                ));
                o0
            }
        };
        let module = match (target, x86_64_module) {
            (Target::X86_64, Some(m)) => Ok((m.clone(), Duration::ZERO)),
            _ => phicc_module(target, path, includes, pipeline),
        };
        let (module, front_time) = match module {
            Ok(m) => m,
            Err(verdict) => {
                for s in here {
                    out.rows.push((s, verdict.clone(), NativeTimes::default()));
                }
                continue;
            }
        };
        for s in here {
            let (verdict, mut times) = run_c_stage(&module, s, &o0, limits)?;
            times.phicc += front_time;
            out.rows.push((s, verdict, times));
        }
    }
    Ok(out)
}
