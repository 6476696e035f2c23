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
use compiler::ir::IrConst;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Runs the command; returns the exit code (0 reduced, 1 nothing to reduce, 2 bad input).
/// `plan`: the native stages that may show the bug (the first failing one's signature is
/// kept, and only that stage re-runs while reducing).
pub fn reduce_file(file: &Path, output: Option<&Path>, budget: Duration, plan: &NativePlan) -> i32 {
    let name = file.display().to_string();
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}: error: {e}");
            return 2;
        }
    };
    let module = match parse_module(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}: parse error", e.with_file(&name));
            return 2;
        }
    };
    if let Err(errors) = verify_module(&module, VerifyMode::Ssa) {
        eprintln!(
            "{name}:1:1: error: the input does not verify: {}",
            errors[0]
        );
        return 2;
    }
    let directives = match parse_directives(&src) {
        Ok(d) if !d.is_empty() => d,
        Ok(_) => {
            eprintln!("{name}:1:1: error: no `; run:` line says which function to call");
            return 2;
        }
        Err(e) => {
            eprintln!("{}", e.with_file(&name));
            return 2;
        }
    };
    let entry = directives[0].func.clone();
    let Some(func) = module.function(&entry) else {
        eprintln!(
            "{name}:{}:1: error: no function @{entry}",
            directives[0].line
        );
        return 2;
    };
    let mut vectors = Vec::new();
    for d in directives.iter().filter(|d| d.func == entry) {
        if d.args.len() != func.params.len()
            || d.args
                .iter()
                .zip(&func.params)
                .any(|(a, t)| !IrConst::fits(*t, *a))
        {
            eprintln!(
                "{name}:{}:1: error: arguments do not fit @{entry}'s parameters",
                d.line
            );
            return 2;
        }
        vectors.push(
            d.args
                .iter()
                .zip(&func.params)
                .map(|(a, t)| IrConst::new(*t, *a as i64).bits)
                .collect(),
        );
    }
    let diff = DiffConfig::default();
    let finding = match full_verdict(&module, &entry, &vectors, &diff, plan) {
        Err(setup) => {
            eprintln!("error: cannot run natively: {setup}");
            return 2;
        }
        Ok((Verdict::Finding(f), _)) => f,
        Ok((Verdict::Agree { .. }, _)) => {
            println!("every stage agrees with the reference: nothing to reduce");
            return 1;
        }
        Ok((Verdict::Discarded { reason }, _)) => {
            eprintln!(
                "{name}:1:1: error: the reference run is not valid ({reason}): nothing to reduce"
            );
            return 2;
        }
    };
    println!("signature {}: {}", finding.signature, finding.detail);
    let arg_vectors = if finding.args.is_empty() {
        vectors
    } else {
        vec![finding.args.clone()]
    };
    let goal = ReduceGoal {
        native: ReduceGoal::native_plan_for(&finding.signature, plan.limits),
        entry: entry.clone(),
        arg_vectors: arg_vectors.clone(),
        signature: finding.signature.clone(),
        diff: diff.clone(),
    };
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
