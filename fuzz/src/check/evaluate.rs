//! Holds one `.ir` file to its `; run:` directives at every stage.
//!
//! Why: this is `phihunt check` for one file — parse, verify, run the pipeline, and run
//! every directive on every stage's snapshot in the oracle.
//!
//! Invariants: an input that cannot be judged (parse or verifier error, a malformed
//! directive, a directive naming a missing function or passing arguments that do not fit,
//! an external the oracle does not support) is `Invalid` with a `file:line:col` message —
//! never a pass and never a mismatch. A stage that fails the verifier or panics fails
//! every directive from that stage on.

use super::directives::{parse_directives, trap_name, Expect, RunDirective};
use super::native_rows::ir_native_rows;
use crate::native::NativePlan;
use crate::stages::{snapshot_stages, StageFailure};
use compiler::ir::text::parse_module;
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::{IrModule, IrType};
use compiler::pipeline::PipelineOptions;
use oracle::{Outcome, Program, RunConfig, RunResult};

/// One cell of the table: a directive at a stage.
#[derive(Clone, Debug)]
pub struct Cell {
    pub ok: bool,
    /// No verdict (a native row whose reference is undefined or timed out): neither a pass
    /// nor a failure, counted apart. `ok` is false.
    pub discarded: bool,
    pub text: String,
}

impl Cell {
    pub fn pass() -> Cell {
        Cell {
            ok: true,
            discarded: false,
            text: "ok".into(),
        }
    }

    pub fn fail(text: impl Into<String>) -> Cell {
        Cell {
            ok: false,
            discarded: false,
            text: text.into(),
        }
    }

    pub fn discarded(text: impl Into<String>) -> Cell {
        Cell {
            ok: false,
            discarded: true,
            text: text.into(),
        }
    }

    /// True for a failing cell (neither ok nor discarded).
    pub fn failed(&self) -> bool {
        !self.ok && !self.discarded
    }
}

/// The result of checking one file.
#[derive(Clone, Debug)]
pub enum FileVerdict {
    /// Every stage was run; `cells[stage][directive]`.
    Judged {
        stages: Vec<String>,
        directives: Vec<RunDirective>,
        cells: Vec<Vec<Cell>>,
        /// Extra lines to print under the table (verifier messages, panics).
        notes: Vec<String>,
        /// (stage, changes, time) for every stage that ran, for `--time-passes`.
        timings: Vec<(String, usize, std::time::Duration)>,
    },
    /// The input cannot be judged; the message has `file:line:col`.
    Invalid(String),
}

impl FileVerdict {
    /// (passed, failed) cells.
    pub fn counts(&self) -> (usize, usize) {
        match self {
            FileVerdict::Judged { cells, .. } => {
                let ok = cells.iter().flatten().filter(|c| c.ok).count();
                let bad = cells.iter().flatten().filter(|c| c.failed()).count();
                (ok, bad)
            }
            FileVerdict::Invalid(_) => (0, 0),
        }
    }

    /// Cells with no verdict (discarded native cells).
    pub fn discarded(&self) -> usize {
        match self {
            FileVerdict::Judged { cells, .. } => {
                cells.iter().flatten().filter(|c| c.discarded).count()
            }
            FileVerdict::Invalid(_) => 0,
        }
    }
}

/// A directive's arguments and expectation, read in the function's types.
struct PreparedRun {
    args: Vec<i64>,
    ret: IrType,
}

fn prepare(file: &str, m: &IrModule, d: &RunDirective) -> Result<PreparedRun, String> {
    let at = |msg: String| format!("{file}:{}:1: {msg}", d.line);
    let f = m.function(&d.func).ok_or_else(|| {
        at(format!(
            "`; run:` names @{}, which the module does not define",
            d.func
        ))
    })?;
    if f.params.len() != d.args.len() {
        return Err(at(format!(
            "@{} takes {} arguments, the directive passes {}",
            d.func,
            f.params.len(),
            d.args.len()
        )));
    }
    let mut args = Vec::new();
    for (i, (a, &ty)) in d.args.iter().zip(&f.params).enumerate() {
        match a.bits_in(ty) {
            Ok(bits) => args.push(bits),
            Err(why) => return Err(at(format!("argument {}: {why}", i + 1))),
        }
    }
    match &d.expect {
        Expect::Returns(v) if f.ret == IrType::Void => {
            return Err(at(format!(
                "@{} returns void; write `== void`, not `== {v}`",
                d.func
            )))
        }
        Expect::Returns(v) => {
            if let Err(why) = v.bits_in(f.ret) {
                return Err(at(format!("expected value: {why}")));
            }
        }
        Expect::ReturnsVoid if f.ret != IrType::Void => {
            return Err(at(format!("@{} returns {}, not void", d.func, f.ret)))
        }
        _ => {}
    }
    Ok(PreparedRun { args, ret: f.ret })
}

/// True when `r` is what `d` asks for.
fn meets(d: &RunDirective, ret: IrType, r: &RunResult) -> bool {
    let outcome_ok = match (&d.expect, &r.outcome) {
        (Expect::Returns(v), Outcome::Returned(Some(got))) => v.bits_in(ret) == Ok(*got),
        (Expect::ReturnsVoid, Outcome::Returned(None)) => true,
        (Expect::Exits(c), Outcome::Exited(got)) => c == got,
        (Expect::Traps(t), Outcome::Trapped(got)) => t == got,
        _ => false,
    };
    outcome_ok && d.stdout.as_ref().is_none_or(|s| *s == r.stdout)
}

/// Short text for a cell.
fn describe(r: &RunResult, d: &RunDirective) -> String {
    let mut s = match &r.outcome {
        Outcome::Trapped(t) => format!("trap {}", trap_name(*t)),
        o => o.to_string(),
    };
    if d.stdout.as_ref().is_some_and(|want| *want != r.stdout) {
        s.push_str(&format!(
            ", stdout {:?}",
            String::from_utf8_lossy(&r.stdout)
        ));
    }
    s
}

/// Checks the text of one `.ir` file named `file` at every stage, then on every stage of
/// `native` (one row each, under the pipeline's).
pub fn check_ir_source(
    file: &str,
    src: &str,
    opts: &PipelineOptions,
    cfg: &RunConfig,
    native: &NativePlan,
) -> FileVerdict {
    let module = match parse_module(src) {
        Ok(m) => m,
        Err(e) => return FileVerdict::Invalid(format!("{}: parse error", e.with_file(file))),
    };
    if let Err(errors) = verify_module(&module, VerifyMode::Ssa) {
        let mut msg = format!("{file}:1:1: the input does not verify:");
        for e in errors.iter().take(10) {
            msg.push_str(&format!("\n  {e}"));
        }
        return FileVerdict::Invalid(msg);
    }
    let directives = match parse_directives(src) {
        Ok(d) => d,
        Err(e) => return FileVerdict::Invalid(e.with_file(file)),
    };
    if directives.is_empty() {
        return FileVerdict::Invalid(format!(
            "{file}:1:1: no `; run:` directive: nothing to check"
        ));
    }
    let mut prepared = Vec::new();
    for d in &directives {
        match prepare(file, &module, d) {
            Ok(p) => prepared.push(p),
            Err(msg) => return FileVerdict::Invalid(msg),
        }
    }

    let staged = snapshot_stages(&module, opts);
    let timings = staged
        .snapshots
        .iter()
        .map(|s| (s.stage.clone(), s.changes, s.elapsed))
        .collect();
    let mut stages = Vec::new();
    let mut cells = Vec::new();
    let mut notes = Vec::new();
    for snap in &staged.snapshots {
        let program = match Program::new(&snap.module, cfg) {
            Ok(p) => p,
            Err(e) if snap.stage == compiler::pipeline::STAGE_LOWERED => {
                return FileVerdict::Invalid(format!(
                    "{file}:1:1: the oracle cannot run this input: {e}"
                ))
            }
            Err(e) => {
                notes.push(format!(
                    "stage `{}`: the oracle cannot run its output: {e}",
                    snap.stage
                ));
                stages.push(snap.stage.clone());
                cells.push(vec![
                    Cell {
                        ok: false,
                        discarded: false,
                        text: "cannot run".into()
                    };
                    directives.len()
                ]);
                continue;
            }
        };
        let row = directives
            .iter()
            .zip(&prepared)
            .map(|(d, p)| match program.run(&d.func, &p.args) {
                Ok(r) if meets(d, p.ret, &r) => Cell {
                    ok: true,
                    discarded: false,
                    text: "ok".into(),
                },
                Ok(r) => Cell {
                    ok: false,
                    discarded: false,
                    text: describe(&r, d),
                },
                Err(e) => Cell {
                    ok: false,
                    discarded: false,
                    text: format!("cannot run: {e}"),
                },
            })
            .collect();
        stages.push(snap.stage.clone());
        cells.push(row);
    }
    if let Some(f) = &staged.failure {
        if f.stage() == compiler::pipeline::STAGE_LOWERED {
            return FileVerdict::Invalid(format!("{file}:1:1: {}", f.message()));
        }
        let label = match f {
            StageFailure::Verify(_) => "verifier failed",
            StageFailure::Panic { .. } => "panicked",
            StageFailure::UnreportedChange { .. } => "unreported change",
        };
        stages.push(f.stage().to_string());
        cells.push(vec![
            Cell {
                ok: false,
                discarded: false,
                text: label.into()
            };
            directives.len()
        ]);
        notes.push(f.message());
    }
    let calls: Vec<(Vec<i64>, IrType)> = prepared.iter().map(|p| (p.args.clone(), p.ret)).collect();
    match ir_native_rows(&module, &directives, &calls, opts, native) {
        Ok((native_stages, rows, native_notes)) => {
            stages.extend(native_stages);
            cells.extend(rows);
            notes.extend(native_notes);
        }
        Err(setup) => {
            return FileVerdict::Invalid(format!("{file}:1:1: cannot run natively: {setup}"))
        }
    }
    FileVerdict::Judged {
        stages,
        directives,
        cells,
        notes,
        timings,
    }
}
