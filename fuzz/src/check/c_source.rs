//! Holds one C program to gcc -O0 at every pipeline stage.
//!
//! Why: `phihunt check FILE.c` and `phihunt bench csmith` both ask the same question: does
//! phicc (front end, then every middle-end stage, run in the oracle) make the program do
//! what the native gcc -O0 build does? "Do" is the exit status (`main`'s return value
//! `& 0xff`, or `exit(N)`'s) and the stdout bytes.
//!
//! How `main` is called: as a hosted C program is started, the same way on both sides.
//! The oracle's [`Program::run_main`] gives `main` (when it takes `(int, char **)` or
//! `(int, char **, char **)`) `argc = 1`, `argv = {PROGRAM_NAME, NULL}` with a writable
//! copy of the name, and `envp = {NULL}`; the gcc binary is run with that `argv[0]` and an
//! empty environment. A `main` of another shape is [`Invalid::OracleCannotRun`].
//! csmith's `main` reads `argv` only when `argc == 2`.
//!
//! Invariants:
//! - an input that cannot be judged is an [`Invalid`] with its reason: front-end
//!   error (the diagnostic's headline), gcc rejects it, the reference times out or dies by
//!   a signal, the oracle cannot run the `lowered` stage (an unsupported external), the
//!   UB judge (`ub_judge.rs`, the checked lowering run first) finds undefined behaviour,
//!   or the `lowered` stage itself ends in undefined behaviour or runs out of fuel;
//! - a front-end panic, a stage failing the verifier or panicking, and any stage whose
//!   (status, stdout) differs from gcc's are failures, reported per stage; so is IR of
//!   the front end that fails the verifier (judged before the UB judge: broken IR is a
//!   bug whatever the program does) or that the oracle cannot load for a reason other
//!   than an honest gap (`c::hunt::lowered_failure` tells them apart);
//! - the front end runs under `catch_unwind`: a panic is reported, never propagated.

use super::evaluate::Cell;
use crate::stages::{snapshot_stages, StageFailure};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::ir::IrModule;
use compiler::lowering::SourcePositions;
use compiler::pipeline::{PipelineOptions, STAGE_LOWERED};
use compiler::target::Target;
use oracle::interp::PROGRAM_NAME;
use oracle::native::{gcc::quote_stdout, NativeOutcome};
use oracle::{InterpError, Outcome, Program, RunConfig, RunResult};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a C input cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// phicc's front end refused it (the first error's headline).
    FrontEnd(String),
    /// gcc refused it.
    ReferenceRejects(String),
    ReferenceTimeout,
    /// The reference binary died by this signal.
    ReferenceCrash(i32),
    /// The oracle cannot run the `lowered` stage (unknown external, bad `main`).
    OracleCannotRun(String),
    /// The `lowered` stage runs out of fuel (or, in the normal lowering, has undefined
    /// behaviour the checked one did not see) in the oracle.
    OracleInvalid(String),
    /// The UB judge (`ub_judge.rs`): the checked lowering's `main` has undefined
    /// behaviour of this category (a `Ub` kind's name, `DivByZero`, `DivOverflow`).
    Undefined {
        category: String,
        detail: String,
    },
}

impl Invalid {
    /// A one-line account.
    pub fn message(&self) -> String {
        match self {
            Invalid::FrontEnd(h) => h.clone(),
            Invalid::ReferenceRejects(m) => format!("gcc rejects the file: {m}"),
            Invalid::ReferenceTimeout => "reference timeout (gcc -O0 build ran too long)".into(),
            Invalid::ReferenceCrash(s) => format!("reference crashed (signal {s})"),
            Invalid::OracleCannotRun(m) => format!("the oracle cannot run this input: {m}"),
            Invalid::OracleInvalid(m) => {
                format!("the lowered program is not a valid reference in the oracle: {m}")
            }
            Invalid::Undefined { category, detail } => {
                format!("undefined behaviour ({category}): the checked lowering ends {detail}")
            }
        }
    }
}

/// Why the front end gave no module.
#[derive(Clone, Debug)]
pub enum FrontEndFailure {
    /// It refused the input (an `Invalid::FrontEnd`).
    Refused(Invalid),
    /// It panicked (a bug of phicc).
    Panic(String),
}

/// Every stage's result against the reference.
#[derive(Clone, Debug)]
pub struct CJudgement {
    /// The reference's status and stdout.
    pub reference: (i32, Vec<u8>),
    /// One row per stage (a failing pipeline stage included), in pipeline order.
    pub stages: Vec<String>,
    pub cells: Vec<Cell>,
    /// Verifier messages, panics, oracle refusals of later stages.
    pub notes: Vec<String>,
    /// (stage, changes, time) for every stage that ran, for `--time-passes`.
    pub timings: Vec<(String, usize, Duration)>,
}

impl CJudgement {
    /// The first stage that does not agree with gcc.
    pub fn first_mismatch(&self) -> Option<(&str, &str)> {
        self.stages
            .iter()
            .zip(&self.cells)
            .find(|(_, c)| c.failed())
            .map(|(s, c)| (s.as_str(), c.text.as_str()))
    }
}

/// What the C compile of one file produced, with the front end's time.
pub struct FrontEnd {
    pub result: Result<IrModule, FrontEndFailure>,
    pub elapsed: Duration,
}

/// Runs phicc's front end on `path` with the extra `-I` directories (panics caught), for
/// x86_64 (the data model of the oracle rows' gcc reference).
pub fn front_end(path: &Path, include_dirs: &[PathBuf]) -> FrontEnd {
    front_end_for(path, include_dirs, Target::X86_64)
}

/// [`front_end`] for `target` (its data model: i686 is ILP32).
pub fn front_end_for(path: &Path, include_dirs: &[PathBuf], target: Target) -> FrontEnd {
    let mut opts = default_options();
    opts.target = target;
    opts.include_dirs.extend(include_dirs.iter().cloned());
    let start = Instant::now();
    let caught = catch_unwind(AssertUnwindSafe(|| compile_c_file(path, &opts)));
    let elapsed = start.elapsed();
    let result = match caught {
        Ok(Ok(compiled)) => Ok(compiled.module),
        Ok(Err(diag)) => Err(FrontEndFailure::Refused(Invalid::FrontEnd(diag.headline()))),
        Err(payload) => Err(FrontEndFailure::Panic(crate::stages::panic_message(
            &payload,
        ))),
    };
    FrontEnd { result, elapsed }
}

/// The reference's (status, stdout), or why it cannot serve.
pub fn reference_result(r: &NativeOutcome) -> Result<(i32, Vec<u8>), Invalid> {
    match r {
        NativeOutcome::CompileFailed(m) => Err(Invalid::ReferenceRejects(m.clone())),
        NativeOutcome::TimedOut => Err(Invalid::ReferenceTimeout),
        NativeOutcome::Signaled(s) => Err(Invalid::ReferenceCrash(*s)),
        NativeOutcome::Exited { code, stdout } => Ok((*code, stdout.clone())),
    }
}

/// `argv[0]`: the name the gcc reference binary is run under.
const PROGRAM_NAME_BYTES: &[u8] = PROGRAM_NAME.as_bytes();

/// Runs `module`'s `main` in the oracle as [`judge_stages`] does at each stage (argv
/// `{PROGRAM_NAME, NULL}`); `Err` when the oracle cannot run it (why, and whose reason).
pub fn run_main(module: &IrModule, cfg: &RunConfig) -> Result<RunResult, InterpError> {
    Program::new(module, cfg).and_then(|p| p.run_main(&[PROGRAM_NAME_BYTES]))
}

/// The status a run ends with on a real machine, when it ends normally.
fn exit_status(r: &RunResult) -> Option<i32> {
    match r.outcome {
        Outcome::Returned(Some(v)) => Some((v & 0xff) as i32),
        Outcome::Exited(c) => Some(c & 0xff),
        _ => None,
    }
}

/// Short text for a stage's result that differs from the reference.
fn describe(r: &RunResult, want_stdout: &[u8]) -> String {
    let mut s = match exit_status(r) {
        Some(code) => format!("exit {code}"),
        None => r.outcome.to_string(),
    };
    if r.stdout != want_stdout {
        let at = r
            .stdout
            .iter()
            .zip(want_stdout)
            .position(|(a, b)| a != b)
            .unwrap_or(r.stdout.len().min(want_stdout.len()));
        s.push_str(&format!(
            ", stdout {} (differs at byte {at})",
            quote_stdout(&r.stdout)
        ));
    }
    s
}

/// Asks the UB judge whether the program is defined (`checked` is its checked lowering,
/// see `ub_judge.rs`), then runs the pipeline on `module` and every stage's `main` in the
/// oracle; compares each with `reference` (status, stdout).
pub fn judge_stages(
    module: &IrModule,
    checked: &IrModule,
    reference: (i32, Vec<u8>),
    opts: &PipelineOptions,
    cfg: &RunConfig,
) -> Result<CJudgement, Invalid> {
    judge_stages_at(module, (checked, None), reference, opts, cfg)
}

/// [`judge_stages`] with the checked lowering's C positions, so undefined behaviour is
/// reported at its `file:line:col` too.
pub fn judge_stages_at(
    module: &IrModule,
    (checked, positions): (&IrModule, Option<&SourcePositions>),
    reference: (i32, Vec<u8>),
    opts: &PipelineOptions,
    cfg: &RunConfig,
) -> Result<CJudgement, Invalid> {
    if module.function("main").is_none() {
        return Err(Invalid::OracleCannotRun(
            "the program defines no `main`".into(),
        ));
    }
    let staged = snapshot_stages(module, opts);
    if let Some(f) = staged
        .failure
        .as_ref()
        .filter(|f| f.stage() == STAGE_LOWERED)
    {
        // The front end's own IR fails the verifier (or the first stage panics): phicc's
        // bug whatever the program does, so no UB verdict is needed to report it.
        return Ok(broken_lowering(reference, f));
    }
    super::ub_judge::judge_defined_at(checked, positions, cfg)?;
    let timings = staged
        .snapshots
        .iter()
        .map(|s| (s.stage.clone(), s.changes, s.elapsed))
        .collect();
    let (want_code, want_stdout) = &reference;
    let mut stages = Vec::new();
    let mut cells = Vec::new();
    let mut notes = Vec::new();
    for snap in &staged.snapshots {
        let lowered = snap.stage == STAGE_LOWERED;
        let run = run_main(&snap.module, cfg);
        let cell = match run {
            Err(e) if lowered => {
                let cause = crate::diff::DiscardCause::of_interp_error(&e);
                match crate::c::hunt::lowered_failure(&format!("unsupported: {e}"), cause) {
                    // The oracle cannot load IR the front end made (an intrinsic with the
                    // wrong signature, ...): phicc's bug, a failure of `lowered`.
                    Some((_, detail)) => {
                        notes.push(detail);
                        Cell {
                            ok: false,
                            discarded: false,
                            text: "cannot run".into(),
                        }
                    }
                    // An external outside the oracle's libc subset, a `main` the harness
                    // cannot call: no verdict.
                    None => return Err(Invalid::OracleCannotRun(e.message)),
                }
            }
            Err(e) => {
                notes.push(format!(
                    "stage `{}`: the oracle cannot run its output: {e}",
                    snap.stage
                ));
                Cell {
                    ok: false,
                    discarded: false,
                    text: "cannot run".into(),
                }
            }
            Ok(r) if lowered && r.outcome.is_invalid_reference() => {
                return Err(Invalid::OracleInvalid(r.outcome.to_string()))
            }
            Ok(r)
                if exit_status(&r) == Some(*want_code)
                    && oracle::native::c_stdout::same_c_stdout(&r.stdout, want_stdout) =>
            {
                Cell {
                    ok: true,
                    discarded: false,
                    text: "ok".into(),
                }
            }
            Ok(r) => Cell {
                ok: false,
                discarded: false,
                text: describe(&r, want_stdout),
            },
        };
        stages.push(snap.stage.clone());
        cells.push(cell);
    }
    if let Some(f) = &staged.failure {
        if f.stage() == STAGE_LOWERED {
            // The front end produced IR the verifier rejects: phicc's bug, not the input's.
            notes.push(format!("the front end's output: {}", f.message()));
        } else {
            notes.push(f.message());
        }
        let label = match f {
            StageFailure::Verify(_) => "verifier failed",
            StageFailure::Panic { .. } => "panicked",
            StageFailure::UnreportedChange { .. } => "unreported change",
        };
        stages.push(f.stage().to_string());
        cells.push(Cell {
            ok: false,
            discarded: false,
            text: label.into(),
        });
    }
    Ok(CJudgement {
        reference,
        stages,
        cells,
        notes,
        timings,
    })
}

/// The judgement of a program whose `lowered` stage itself is broken: one failing cell.
fn broken_lowering(reference: (i32, Vec<u8>), failure: &StageFailure) -> CJudgement {
    let label = match failure {
        StageFailure::Panic { .. } => "panicked",
        _ => "verifier failed",
    };
    CJudgement {
        reference,
        stages: vec![failure.stage().to_string()],
        cells: vec![Cell {
            ok: false,
            discarded: false,
            text: label.into(),
        }],
        notes: vec![format!("the front end's output: {}", failure.message())],
        timings: Vec::new(),
    }
}
