//! The native rows of `phihunt check`'s tables: `native:x86_64`, `native:x86_64/stack`,
//! `native:i686`, ... under the pipeline's stages.
//!
//! Why: every `; run:` line of a `.ir` file must hold on every available target too
//! (`../shared/IR.md`), and a `.c` file's `main` must do natively what gcc's binary does.
//! The rows come from the shared native stage (`crate::native`); this file only turns
//! its verdicts into cells.
//!
//! Invariants: an `.ir` file is built once per stage and run once per line, and its
//! expected values are the directives' (read in the function's types; a line that does
//! not check stdout does not check it natively either); a discarded verdict is a
//! discarded cell (`– why`), never a pass or a failure; a broken setup (a tool missing)
//! is an `Err` that makes the input unjudgeable.

use super::directives::{Expect, RunDirective};
use super::evaluate::Cell;
use crate::native::ir_program::{prepare_entries, run_ir_stage, CallExpectation, IrStageResult};
use crate::native::{NativePlan, RowVerdict};
use crate::stages::final_stage;
use compiler::ir::{IrModule, IrType};
use compiler::pipeline::PipelineOptions;
use oracle::Outcome;

/// A table cell for a native verdict.
pub fn cell_of(v: &RowVerdict) -> Cell {
    match v {
        RowVerdict::Agrees => Cell::pass(),
        RowVerdict::Discarded(why) => Cell::discarded(why.clone()),
        RowVerdict::Failed(f) => Cell::fail(format!("{}: {}", f.kind.name(), f.detail)),
    }
}

/// What directive `d` expects, as an oracle outcome (`ret` is the function's return type).
pub fn expected_outcome(d: &RunDirective, ret: IrType) -> Outcome {
    match &d.expect {
        // `prepare` has checked that the literal reads in `ret`.
        Expect::Returns(v) => Outcome::Returned(Some(v.bits_in(ret).unwrap_or_default())),
        Expect::ReturnsVoid => Outcome::Returned(None),
        Expect::Exits(c) => Outcome::Exited(*c),
        Expect::Traps(t) => Outcome::Trapped(*t),
    }
}

/// Native rows: (stage names, one row of cells per stage, notes).
pub type NativeRows = (Vec<String>, Vec<Vec<Cell>>, Vec<String>);

/// The native rows of an `.ir` file. `calls` are the directives with their canonical
/// arguments and return types.
pub fn ir_native_rows(
    module: &IrModule,
    directives: &[RunDirective],
    calls: &[(Vec<i64>, IrType)],
    pipeline: &PipelineOptions,
    plan: &NativePlan,
) -> Result<NativeRows, String> {
    let (mut stages, mut rows, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    if plan.is_empty() {
        return Ok((stages, rows, notes));
    }
    let mut prepared = module.clone();
    let funcs: Vec<&str> = directives.iter().map(|d| d.func.as_str()).collect();
    prepare_entries(&mut prepared, &funcs);
    // A float result as the target's ABI delivers it (i686 quiets a signaling NaN).
    let expectations = |target: compiler::target::Target| -> Vec<CallExpectation> {
        directives
            .iter()
            .zip(calls)
            .map(|(d, (args, ret))| CallExpectation {
                func: d.func.clone(),
                args: args.clone(),
                outcome: match expected_outcome(d, *ret) {
                    Outcome::Returned(Some(v)) => Outcome::Returned(Some(
                        compiler::backend::x86::float::abi_returned_bits(target, *ret, v as u64)
                            as i64,
                    )),
                    other => other,
                },
                stdout: d.stdout.clone(),
            })
            .collect()
    };
    let phi_elim = final_stage(prepared, pipeline);
    for &stage in &plan.stages {
        stages.push(stage.name());
        let row = match &phi_elim {
            Err(f) => {
                notes.push(format!(
                    "{}: the pipeline on the module with its entries exported: {}",
                    stage.name(),
                    f.message()
                ));
                vec![Cell::fail(format!("{} at {}", f.kind(), f.stage())); directives.len()]
            }
            Ok(m) => match run_ir_stage(m, stage, &expectations(stage.target), &plan.limits)? {
                IrStageResult::Ran { calls, .. } => calls.iter().map(cell_of).collect(),
                IrStageResult::Failed(f, _) => {
                    notes.push(format!("{}: {}: {}", stage.name(), f.kind.name(), f.detail));
                    vec![Cell::fail(f.kind.name()); directives.len()]
                }
                IrStageResult::Discarded(why) => {
                    vec![Cell::discarded(why); directives.len()]
                }
            },
        };
        rows.push(row);
    }
    Ok((stages, rows, notes))
}
