//! `phihunt reduce FILE.ir`: the reducer on a file, as a compiler engineer runs it.
//!
//! The file's `; run:` lines give the entry (the first line's function) and the argument
//! vectors; the stage differential gives the signature to keep. The reduced file carries
//! `; run:` lines with the reference's expected values, so `phihunt check` replays it.

use super::{reduce, size, ReduceGoal};
use crate::check::directives::parse_directives;
use crate::diff::{DiffConfig, Verdict};
use crate::findings::{test_file_text, write_atomically};
use crate::native::{full_verdict, NativePlan};
use compiler::ir::text::parse_module;
use compiler::ir::verify::{verify_module, VerifyMode};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A failing input read from a test file, with what the reducer must keep.
pub struct LoadedFinding {
    pub module: compiler::ir::IrModule,
    pub goal: ReduceGoal,
    /// The finding's detail (outcomes, verifier message), for the user.
    pub detail: String,
}

/// Why a file cannot be reduced: an input error (exit 2) or nothing to reduce (exit 1).
pub enum LoadError {
    Invalid(String),
    NothingToReduce(String),
}

/// Reads `file` (IR with `; run:` lines), runs the differential (with `plan`'s native
/// stages) and returns the module with the goal of keeping the finding it shows.
pub fn load_finding(file: &Path, plan: &NativePlan) -> Result<LoadedFinding, LoadError> {
    use LoadError::Invalid;
    let name = file.display().to_string();
    let src = std::fs::read_to_string(file).map_err(|e| Invalid(format!("{name}: error: {e}")))?;
    let module =
        parse_module(&src).map_err(|e| Invalid(format!("{}: parse error", e.with_file(&name))))?;
    if let Err(errors) = verify_module(&module, VerifyMode::Ssa) {
        return Err(Invalid(format!(
            "{name}:1:1: error: the input does not verify: {}",
            errors[0]
        )));
    }
    let directives = match parse_directives(&src) {
        Ok(d) if !d.is_empty() => d,
        Ok(_) => {
            return Err(Invalid(format!(
                "{name}:1:1: error: no `; run:` line says which function to call"
            )))
        }
        Err(e) => return Err(Invalid(e.with_file(&name).to_string())),
    };
    let entry = directives[0].func.clone();
    let Some(func) = module.function(&entry) else {
        return Err(Invalid(format!(
            "{name}:{}:1: error: no function @{entry}",
            directives[0].line
        )));
    };
    let mut vectors = Vec::new();
    for d in directives.iter().filter(|d| d.func == entry) {
        if d.args.len() != func.params.len()
            || d.args
                .iter()
                .zip(&func.params)
                .any(|(a, t)| a.bits_in(*t).is_err())
        {
            return Err(Invalid(format!(
                "{name}:{}:1: error: arguments do not fit @{entry}'s parameters",
                d.line
            )));
        }
        vectors.push(
            d.args
                .iter()
                .zip(&func.params)
                .map(|(a, t)| a.bits_in(*t).unwrap_or_default())
                .collect(),
        );
    }
    let diff = DiffConfig::default();
    let finding = match full_verdict(&module, &entry, &vectors, &diff, plan) {
        Err(setup) => return Err(Invalid(format!("error: cannot run natively: {setup}"))),
        Ok((Verdict::Finding(f), _)) => f,
        Ok((Verdict::Agree { .. }, _)) => {
            return Err(LoadError::NothingToReduce(
                "every stage agrees with the reference: nothing to reduce".into(),
            ))
        }
        Ok((Verdict::Discarded { reason, .. }, _)) => {
            return Err(Invalid(format!(
                "{name}:1:1: error: the reference run is not valid ({reason}): nothing to reduce"
            )))
        }
    };
    let arg_vectors = if finding.args.is_empty() {
        vectors
    } else {
        vec![finding.args.clone()]
    };
    let goal = ReduceGoal {
        native: ReduceGoal::native_plan_for(&finding.signature, plan.limits),
        entry,
        arg_vectors,
        signature: finding.signature.clone(),
        diff,
    };
    Ok(LoadedFinding {
        module,
        goal,
        detail: finding.detail.clone(),
    })
}

/// Runs the command; returns the exit code (0 reduced, 1 nothing to reduce, 2 bad input).
/// `plan`: the native stages that may show the bug (the first failing one's signature is
/// kept, and only that stage re-runs while reducing).
pub fn reduce_file(file: &Path, output: Option<&Path>, budget: Duration, plan: &NativePlan) -> i32 {
    let name = file.display().to_string();
    let LoadedFinding {
        module,
        goal,
        detail,
    } = match load_finding(file, plan) {
        Ok(l) => l,
        Err(LoadError::Invalid(msg)) => {
            eprintln!("{msg}");
            return 2;
        }
        Err(LoadError::NothingToReduce(msg)) => {
            println!("{msg}");
            return 1;
        }
    };
    println!("signature {}: {detail}", goal.signature);
    let entry = goal.entry.clone();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let reduced = reduce(&module, &goal, budget);
    std::panic::set_hook(hook);
    let expectations = goal
        .finding(&reduced.module)
        .map_or_else(Vec::new, |f| f.expectations);
    let header = format!(
        "reduced from {name} ({}), size {} -> {}",
        goal.signature, reduced.size_before, reduced.size_after
    );
    let text = test_file_text(&header, &entry, &expectations, &reduced.module);
    let out: PathBuf = output
        .map(Path::to_path_buf)
        .unwrap_or_else(|| file.with_extension("reduced.ir"));
    if let Err(e) = write_atomically(&out, text.as_bytes()) {
        eprintln!("{}: error: {e}", out.display());
        return 2;
    }
    println!(
        "size {} -> {} ({} candidates tried, {} kept{}); wrote {}",
        reduced.size_before,
        size(&reduced.module),
        reduced.candidates_tried,
        reduced.candidates_kept,
        if reduced.finished {
            ""
        } else {
            ", budget ran out"
        },
        out.display()
    );
    0
}
