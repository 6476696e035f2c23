//! Judging a generated C program against its own expected output.
//!
//! Why: the generator's expected output is the reference for generated C, but it is
//! checked, never trusted. Two independent judges ask whether the *generator* is right:
//! the host gcc's build (optionally under UBSan and ASan) must print exactly the expected
//! output, and the oracle must find no undefined behaviour at `lowered`. Only when both
//! hold is a difference at a later stage a finding against phicc.
//!
//! Invariants:
//! - every child process runs under a timeout, in a temporary directory (the program is
//!   written through `tempfile`);
//! - a program the oracle finds undefined at `lowered`, or that gcc prints differently
//!   from the expected output, is a [`GeneratorBug`]-kind verdict, never a compiler
//!   finding;
//! - the front end refusing a generated program is counted apart: the generator must only
//!   make what phicc compiles (100% acceptance is a goal the bench measures).

use super::gen::CProgram;
use crate::check::c_source::{judge_stages, Invalid};
use crate::check::ub_judge::judge_defined;
use crate::stages::panic_message;
use compiler::compile_c::{compile_c_source_with, default_options};
use compiler::ir::IrModule;
use compiler::lowering::LowerOptions;
use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::native::gcc::{quote_stdout, reference_run, NativeOutcome, ReferenceConfig};
use oracle::RunConfig;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// gcc's verdict on a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GccVerdict {
    /// Exit 0 and exactly the expected stdout.
    Agrees,
    /// gcc rejected the program, or the binary timed out, crashed (a sanitizer report
    /// aborts it) or printed something else: a generator bug.
    GeneratorBug(String),
}

/// Flags of the sanitizer build.
pub const SANITIZER_FLAGS: [&str; 2] =
    ["-fsanitize=undefined,address", "-fno-sanitize-recover=all"];

/// Builds `p` with the host gcc -O0 (plus the sanitizers when `sanitize`) and compares
/// its run with the x86_64 expected output. `Err` only for a broken setup.
pub fn gcc_verdict(
    p: &CProgram,
    sanitize: bool,
    run_timeout: Duration,
) -> Result<GccVerdict, String> {
    gcc_verdict_on(p, Target::X86_64, sanitize, run_timeout)
}

/// [`gcc_verdict`] on `target`: the host gcc for x86_64, otherwise the target's cross
/// gcc (`-static`, run under qemu-user; no sanitizers there), against `target`'s expected
/// output.
pub fn gcc_verdict_on(
    p: &CProgram,
    target: Target,
    sanitize: bool,
    run_timeout: Duration,
) -> Result<GccVerdict, String> {
    let _phase = crate::campaign::phases::enter(crate::campaign::phases::Phase::GccReference);
    let mut file = tempfile::Builder::new()
        .prefix("phihunt-cgen-")
        .suffix(".c")
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    file.write_all(p.text.as_bytes())
        .map_err(|e| format!("cannot write the program: {e}"))?;
    let cfg = ReferenceConfig {
        include_dirs: p.include_dirs.clone(),
        extra_flags: if sanitize {
            SANITIZER_FLAGS.iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        },
        run_timeout,
        ..ReferenceConfig::default()
    };
    let run = if target == Target::X86_64 {
        reference_run(file.path(), &cfg)?
    } else {
        oracle::native::gcc::reference_on(target, file.path(), &cfg, "-O0")?
    };
    let want = p.expected(target).as_bytes();
    Ok(match run.outcome {
        NativeOutcome::Exited { code: 0, stdout }
            if oracle::native::c_stdout::same_c_stdout(&stdout, want) =>
        {
            GccVerdict::Agrees
        }
        NativeOutcome::Exited { code, stdout } => GccVerdict::GeneratorBug(format!(
            "gcc's binary: exit {code}, stdout {} (expected {})",
            quote_stdout(&stdout),
            quote_stdout(want)
        )),
        NativeOutcome::CompileFailed(m) => GccVerdict::GeneratorBug(format!("gcc rejects it: {m}")),
        NativeOutcome::TimedOut => GccVerdict::GeneratorBug("gcc's binary timed out".into()),
        NativeOutcome::Signaled(s) => GccVerdict::GeneratorBug(format!(
            "gcc's binary died by signal {s} (a sanitizer report aborts)"
        )),
    })
}

/// phicc's front end on the program for `target`; `Err` is (refused?, message).
pub fn front_end(p: &CProgram, target: Target) -> Result<IrModule, (bool, String)> {
    lower(p, target, LowerOptions::default())
}

/// The checked lowering of `p` for `target` (the UB judge's input, `docs/ub-judge.md`);
/// errors as [`front_end`]'s.
pub fn checked_front_end(p: &CProgram, target: Target) -> Result<IrModule, (bool, String)> {
    lower(p, target, LowerOptions { ub_checks: true })
}

/// Runs the UB judge on `p` (its checked lowering for `target`, `main` in the oracle at
/// the target's pointer width; `run` gives the fuel):
/// `Err(reason)` when the program is undefined, which for a generated program is a
/// generator bug. No verdict (the front end refuses it, or the run is out of fuel) is
/// `Ok`: the other checks apply.
pub fn ub_judge(p: &CProgram, target: Target, run: &RunConfig) -> Result<(), String> {
    let Ok(checked) = checked_front_end(p, target) else {
        return Ok(());
    };
    let run = RunConfig {
        ptr_bytes: target.sizeof_pointer(),
        ..run.clone()
    };
    match judge_defined(&checked, &run) {
        Err(Invalid::Undefined { category, detail }) => Err(format!(
            "the UB judge finds undefined behaviour ({category}) on {}: {detail}",
            target.name()
        )),
        _ => Ok(()),
    }
}

fn lower(p: &CProgram, target: Target, lowering: LowerOptions) -> Result<IrModule, (bool, String)> {
    let mut opts = default_options();
    opts.target = target;
    opts.include_dirs.extend(p.include_dirs.iter().cloned());
    let name = format!("cgen-{}.c", p.seed);
    match catch_unwind(AssertUnwindSafe(|| {
        compile_c_source_with(&name, &p.text, &opts, lowering)
    })) {
        Ok(Ok(c)) => Ok(c.module),
        Ok(Err(d)) => Err((true, d.headline())),
        Err(payload) => Err((
            false,
            format!("the front end panicked: {}", panic_message(&payload)),
        )),
    }
}

/// The oracle's verdict on a generated program at every stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleVerdict {
    /// Every stage prints the expected output.
    Agrees { pass_changes: Vec<(String, usize)> },
    /// phicc refused the program (the generator made something phicc cannot compile).
    Refused(String),
    /// The oracle finds the `lowered` stage undefined or out of fuel, or `lowered`
    /// prints something else than expected: the generator's or the front end's fault
    /// (gcc decides which).
    LoweredDiffers(String),
    /// A later stage (or the front end, by panicking) differs: a finding against phicc.
    StageDiffers { stage: String, detail: String },
}

/// Runs `p` through phicc's front end (for x86_64) and every pipeline stage in the
/// oracle, each against the expected output.
pub fn oracle_verdict(p: &CProgram, pipeline: &PipelineOptions, run: &RunConfig) -> OracleVerdict {
    let module = match front_end(p, Target::X86_64) {
        Ok(m) => m,
        Err((true, m)) => return OracleVerdict::Refused(m),
        Err((false, m)) => {
            return OracleVerdict::StageDiffers {
                stage: "front end".into(),
                detail: m,
            }
        }
    };
    let checked = match checked_front_end(p, Target::X86_64) {
        Ok(m) => m,
        Err((_, m)) => return OracleVerdict::Refused(format!("the checked lowering: {m}")),
    };
    let expected = (0, p.expected(Target::X86_64).as_bytes().to_vec());
    match judge_stages(&module, &checked, expected, pipeline, run) {
        Err(Invalid::OracleInvalid(m)) | Err(Invalid::OracleCannotRun(m)) => {
            OracleVerdict::LoweredDiffers(m)
        }
        Err(other) => OracleVerdict::LoweredDiffers(other.message()),
        Ok(j) => match j.first_mismatch() {
            Some((stage, text)) if stage == compiler::pipeline::STAGE_LOWERED => {
                OracleVerdict::LoweredDiffers(text.to_string())
            }
            Some((stage, text)) => OracleVerdict::StageDiffers {
                stage: stage.to_string(),
                detail: format!(
                    "{text}{}",
                    j.notes
                        .first()
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default()
                ),
            },
            None => OracleVerdict::Agrees {
                pass_changes: j.timings.iter().map(|(s, n, _)| (s.clone(), *n)).collect(),
            },
        },
    }
}
