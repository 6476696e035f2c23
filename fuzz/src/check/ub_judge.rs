//! The UB judge: is this C program defined? (`docs/ub-judge.md`)
//!
//! Why: every C verdict (`phihunt check FILE.c`, `bench csmith`, and any hunt, reducer or
//! mutator that keeps a C program) leans on one promise: a program the judge calls
//! defined has one meaning, so a stage or target that disagrees with gcc is a bug. The
//! judge runs `main` of the program's *checked* lowering (the front end with
//! `LowerOptions::ub_checks`: signed overflow, signed shifts, sub-object bounds, block
//! lifetimes, cross-object pointer arithmetic and comparison, alignment become calls the
//! oracle checks) at the `lowered` stage in the oracle; the stages themselves are judged
//! on the normal lowering, which the optimizer sees unchanged.
//!
//! Invariants:
//! - an `Undefined` outcome, or a division trap (C's UB too), is [`Invalid::Undefined`]
//!   with its category (the `Ub` kind's name, or `DivByZero`/`DivOverflow`) and where:
//!   a discard counted by category, never a finding;
//! - running out of fuel is [`Invalid::OracleInvalid`] (no verdict), a program the oracle
//!   cannot run is [`Invalid::OracleCannotRun`];
//! - the checked front end runs under `catch_unwind` like the normal one.

use super::c_source::{run_main, FrontEndFailure, Invalid};
use compiler::compile_c::{compile_c_file_with, default_options};
use compiler::ir::IrModule;
use compiler::lowering::{LowerOptions, SourcePositions};
use compiler::target::Target;
use oracle::{Outcome, RunConfig, RunResult, Trap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The checked lowering of the C file at `path` (x86_64, extra `-I` directories).
pub fn checked_front_end(
    path: &Path,
    include_dirs: &[PathBuf],
) -> Result<IrModule, FrontEndFailure> {
    checked_front_end_for(path, include_dirs, Target::X86_64)
}

/// [`checked_front_end`] for `target`'s data model (i686 is ILP32).
pub fn checked_front_end_for(
    path: &Path,
    include_dirs: &[PathBuf],
    target: Target,
) -> Result<IrModule, FrontEndFailure> {
    checked_front_end_positions(path, include_dirs, target).map(|(module, _)| module)
}

/// [`checked_front_end_for`], with the C position of every instruction (for the
/// judge's report: [`judge_defined_at`]).
pub fn checked_front_end_positions(
    path: &Path,
    include_dirs: &[PathBuf],
    target: Target,
) -> Result<(IrModule, SourcePositions), FrontEndFailure> {
    let mut opts = default_options();
    opts.target = target;
    opts.include_dirs.extend(include_dirs.iter().cloned());
    let lowering = LowerOptions { ub_checks: true };
    match catch_unwind(AssertUnwindSafe(|| {
        compile_c_file_with(path, &opts, lowering)
    })) {
        Ok(Ok(compiled)) => Ok((compiled.module, compiled.positions)),
        Ok(Err(diag)) => Err(FrontEndFailure::Refused(Invalid::FrontEnd(diag.headline()))),
        Err(payload) => Err(FrontEndFailure::Panic(crate::stages::panic_message(
            &payload,
        ))),
    }
}

/// Fuel of the judge's run for a target other than x86_64 (a csmith program gcc runs in
/// 0.15 s can take 2e9 steps).
pub const TARGET_JUDGE_FUEL: u64 = 10_000_000_000;

/// The judge for a target whose data model differs from x86_64's (4-byte pointers and
/// `long`: a program defined on x86_64 may overflow there): `Some(reason)` when the
/// checked lowering for `target` is undefined in the oracle at its pointer width. No
/// verdict (front-end refusal, out of fuel) is `None`: the row's other guards apply.
pub fn undefined_on_target(
    path: &Path,
    include_dirs: &[PathBuf],
    target: Target,
) -> Option<String> {
    let checked = checked_front_end_for(path, include_dirs, target).ok()?;
    let cfg = RunConfig {
        ptr_bytes: target.sizeof_pointer(),
        fuel: TARGET_JUDGE_FUEL,
        ..RunConfig::default()
    };
    match judge_defined(&checked, &cfg) {
        Err(Invalid::Undefined { category, detail }) => Some(format!(
            "ub ({}): {category}: the checked lowering ends {detail}",
            target.name()
        )),
        _ => None,
    }
}

/// The category a C file's `// ub: CATEGORY` line expects the judge to report (the
/// `corpus/ub` convention), if it has one.
pub fn expected_ub(source: &str) -> Option<String> {
    source.lines().find_map(|l| {
        l.trim_start()
            .strip_prefix("// ub:")
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string)
    })
}

/// The source line a `// ub: CATEGORY @LINE` line says the undefined behaviour is on, if
/// it names one.
pub fn expected_ub_line(source: &str) -> Option<u32> {
    source.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("// ub:")?;
        rest.split_whitespace()
            .find_map(|w| w.strip_prefix('@'))
            .and_then(|n| n.parse().ok())
    })
}

/// The UB category of a run's outcome, if it is undefined (division traps included).
pub fn ub_category(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Undefined(ub, _) => Some(format!("{ub:?}")),
        Outcome::Trapped(Trap::DivByZero) => Some("DivByZero".into()),
        Outcome::Trapped(Trap::DivOverflow) => Some("DivOverflow".into()),
        _ => None,
    }
}

/// Runs `main` of the checked lowering: `Ok` with the run when the program is defined
/// (as far as the oracle sees), the reason otherwise.
pub fn judge_defined(checked: &IrModule, cfg: &RunConfig) -> Result<RunResult, Invalid> {
    judge_defined_at(checked, None, cfg)
}

/// [`judge_defined`], naming the C position of the undefined behaviour (`file:line:col`,
/// after the IR position) when the checked lowering's position table is given.
pub fn judge_defined_at(
    checked: &IrModule,
    positions: Option<&SourcePositions>,
    cfg: &RunConfig,
) -> Result<RunResult, Invalid> {
    let run = run_main(checked, cfg).map_err(|e| Invalid::OracleCannotRun(e.message))?;
    if let Some(category) = ub_category(&run.outcome) {
        let mut detail = run.outcome.to_string();
        if let (Outcome::Undefined(_, at), Some(positions)) = (&run.outcome, positions) {
            if let Some(c) = positions.describe(&at.function, at.block, at.inst) {
                detail.push_str(&format!(" ({c})"));
            }
        }
        return Err(Invalid::Undefined { category, detail });
    }
    if run.outcome == Outcome::OutOfFuel {
        return Err(Invalid::OracleInvalid(run.outcome.to_string()));
    }
    Ok(run)
}
