//! Semantic tests of the passes `inline`, `cfg_simplify`, `copy_prop`, `dce` and
//! `dead_static`, on the interpreter (the compiler crate cannot depend on the oracle).
//!
//! Why: the unit tests check each rule's IR by hand; these check that each pass, run
//! alone on every corpus program, keeps what the program does, that every seeded bug of
//! these passes is caught by its regression file, and they measure how much each pass
//! changes on the corpus (printed with `--nocapture`).
//!
//! The programs and their arguments come from the `; run:` lines of `corpus/**/*.ir`;
//! the reference is the interpreter on the file as written (`lowered`), and a reference
//! that is undefined or out of fuel is skipped, as the harness does.

use compiler::ir::text::parse_module;
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::{IrFunction, IrModule};
use compiler::mem2reg::{promote_allocas, promote_allocas_with_params};
use compiler::mutants::{set_active, Mutant};
use compiler::passes::{cfg_simplify, copy_prop, dce, dead_static, inline};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use oracle::{Program, RunConfig, RunResult};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A per-function pass.
type FunctionPass = fn(&mut IrFunction) -> usize;

/// One corpus program: its path, module and run lines (function, arguments).
struct Case {
    path: PathBuf,
    module: IrModule,
    runs: Vec<(String, Vec<i64>)>,
}

/// Every `.ir` file under `corpus/` with at least one `; run:` line, sorted by path.
fn corpus() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "ir") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let src = std::fs::read_to_string(&path).ok()?;
            let runs: Vec<_> = src.lines().filter_map(run_line).collect();
            if runs.is_empty() {
                return None;
            }
            let module = parse_module(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Some(Case { path, module, runs })
        })
        .collect()
}

/// `; run: @f(1, -2) ...` -> ("f", [1, -2]).
fn run_line(line: &str) -> Option<(String, Vec<i64>)> {
    let rest = line.trim_start().strip_prefix(';')?.trim_start();
    let call = rest.strip_prefix("run:")?.trim_start().strip_prefix('@')?;
    let (name, rest) = call.split_once('(')?;
    let (args, _) = rest.split_once(')')?;
    let args = args
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| a.parse::<i128>().map(|v| v as i64))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    Some((name.to_string(), args))
}

/// The outcome of every run line on `m` (`None`: the input cannot run at all).
fn outcomes(m: &IrModule, runs: &[(String, Vec<i64>)]) -> Vec<Option<RunResult>> {
    let cfg = RunConfig::default();
    let Ok(program) = Program::new(m, &cfg) else {
        return vec![None; runs.len()];
    };
    runs.iter()
        .map(|(f, args)| program.run(f, args).ok())
        .collect()
}

/// Panics unless `after` verifies and agrees with `reference` on every valid run.
fn assert_same_meaning(what: &str, case: &Case, reference: &[Option<RunResult>], after: &IrModule) {
    if let Err(errors) = verify_module(after, VerifyMode::Ssa) {
        panic!(
            "{what} on {}: verifier: {errors:?}\n{after}",
            case.path.display()
        );
    }
    let got = outcomes(after, &case.runs);
    for ((want, got), (f, args)) in reference.iter().zip(&got).zip(&case.runs) {
        let Some(want) = want else { continue };
        if want.outcome.is_invalid_reference() {
            continue;
        }
        let agrees = got.as_ref().is_some_and(|g| g.agrees_with(want));
        assert!(
            agrees,
            "{what} on {}: @{f}{args:?}: want {want:?}, got {got:?}\n{after}",
            case.path.display()
        );
    }
}

/// The module after the pipeline's first two stages without inlining: SSA, parameter
/// slots promoted — what the loop passes see when the inliner is off.
fn ssa(m: &IrModule) -> IrModule {
    let mut m = m.clone();
    m.for_each_function(promote_allocas);
    m.for_each_function(promote_allocas_with_params);
    m
}

#[test]
fn each_pass_alone_keeps_every_corpus_program_meaning() {
    let cases = corpus();
    assert!(!cases.is_empty(), "no corpus found");
    for case in &cases {
        let reference = outcomes(&case.module, &case.runs);

        // The inliner sees the output of the first mem2reg (parameter slots kept).
        let mut inlined = case.module.clone();
        inlined.for_each_function(promote_allocas);
        inline::run(&mut inlined);
        assert_same_meaning("inline", case, &reference, &inlined);

        let per_function: [(&str, FunctionPass); 3] = [
            ("cfg_simplify", cfg_simplify::run),
            ("copy_prop", copy_prop::run),
            ("dce", dce::run),
        ];
        let base = ssa(&case.module);
        for (name, pass) in per_function {
            let mut after = base.clone();
            after.for_each_function(pass);
            assert_same_meaning(name, case, &reference, &after);
        }

        // The five together, twice over, on the inlined module.
        let mut all = inlined.clone();
        for _ in 0..2 {
            for (_, pass) in per_function {
                all.for_each_function(pass);
            }
        }
        dead_static::run(&mut all);
        assert_same_meaning("all five", case, &reference, &all);
    }
}

/// True when the pipeline, with the switched-on mutants, fails the verifier at some stage
/// or some stage disagrees with the reference on some valid run.
fn pipeline_breaks(case: &Case) -> bool {
    let reference = outcomes(&case.module, &case.runs);
    let mut disagreed = false;
    let result = run_pipeline(
        case.module.clone(),
        &PipelineOptions::default(),
        &mut |_, m| {
            let got = outcomes(m, &case.runs);
            for (want, got) in reference.iter().zip(&got) {
                if let Some(want) = want.as_ref().filter(|w| !w.outcome.is_invalid_reference()) {
                    if !got.as_ref().is_some_and(|g| g.agrees_with(want)) {
                        disagreed = true;
                    }
                }
            }
        },
    );
    result.is_err() || disagreed
}

#[test]
fn every_mutant_of_these_passes_is_caught_by_its_regression_file() {
    let cases = corpus();
    let file = |name: &str| {
        cases
            .iter()
            .find(|c| c.path.ends_with(format!("passes/{name}.ir")))
            .unwrap_or_else(|| panic!("no corpus/ir/passes/{name}.ir"))
    };
    for mutant in [
        Mutant::InlineSkipParamStore,
        Mutant::CfgSimplifyNoPhiFix,
        Mutant::CopyPropAfterPhiElim,
        Mutant::DceRemovesStore,
        Mutant::DeadStaticIgnoresAddressTaken,
    ] {
        let case = file(mutant.name());
        assert!(!pipeline_breaks(case), "{mutant}: fails without the mutant");
        set_active(&[mutant]);
        let caught = pipeline_breaks(case);
        set_active(&[]);
        assert!(caught, "{mutant} is not caught by {}", case.path.display());
    }
}

#[test]
fn the_passes_change_the_corpus() {
    // Changes reported per pass over the whole pipeline, summed over the corpus.
    let mut changes: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut files = 0;
    let mut calls_inlined = 0;
    for case in corpus() {
        files += 1;
        let mut m = case.module.clone();
        m.for_each_function(promote_allocas);
        calls_inlined += inline::inline_calls(&mut m);
        run_pipeline(case.module, &PipelineOptions::default(), &mut |event, _| {
            *changes.entry(event.pass).or_default() += event.changes;
        })
        .unwrap_or_else(|e| panic!("{}: {e}", case.path.display()));
    }
    eprintln!("changes per pass over {files} corpus files:");
    for (pass, n) in &changes {
        eprintln!("  {pass:<14} {n}");
    }
    eprintln!("  (inline: {calls_inlined} call sites inlined, the rest promoted slots)");
    assert!(calls_inlined > 0);
    for pass in ["inline", "cfg_simplify", "copy_prop", "dce", "dead_static"] {
        assert!(
            changes.get(pass).copied().unwrap_or(0) > 0,
            "{pass} changed nothing on the corpus"
        );
    }
}
