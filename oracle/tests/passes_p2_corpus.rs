//! The corpus through the whole pipeline, counting the changes `const_fold`, `simplify`,
//! `gvn` and `licm` make: each regression file `corpus/ir/passes/<pass>_*.ir` must make
//! its pass change something (else it no longer tests it), except the files that test
//! that the pass leaves a shape alone. Prints the per-pass totals over the whole corpus
//! (`cargo test -p oracle --test passes_p2_corpus -- --nocapture`).

use compiler::ir::text::parse_module;
use compiler::ir::IrModule;
use compiler::mutants::{self, Mutant};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use oracle::{Program, RunConfig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const PASSES: [&str; 4] = ["const_fold", "simplify", "gvn", "licm"];

/// Files that check a pass leaves something alone: it must make no change there. A
/// mutant's file holds exactly what the right pass keeps and the mutant changes.
const UNTOUCHED: [(&str, &str); 3] = [
    ("licm_irreducible.ir", "licm"),
    ("simplify_mutant_ashr_as_lshr.ir", "simplify"),
    ("gvn_mutant_load_across_store.ir", "gvn"),
];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// Every `.ir` file under `dir`, sorted (explicit stack, no recursion).
fn ir_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("corpus directory reads") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "ir") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Changes per pass name when the pipeline runs on `path`.
fn changes_per_pass(path: &Path) -> BTreeMap<&'static str, usize> {
    let text = std::fs::read_to_string(path).expect("file reads");
    let module = parse_module(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut changes = BTreeMap::new();
    run_pipeline(module, &PipelineOptions::default(), &mut |event, _| {
        *changes.entry(event.pass).or_insert(0) += event.changes;
    })
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    changes
}

#[test]
fn regression_files_exercise_their_pass() {
    let mut totals: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in ir_files(&corpus_dir()) {
        let changes = changes_per_pass(&path);
        for pass in PASSES {
            *totals.entry(pass).or_insert(0) += changes.get(pass).copied().unwrap_or(0);
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let in_passes_dir = path.parent().is_some_and(|p| p.ends_with("passes"));
        for pass in PASSES {
            if !in_passes_dir || !name.starts_with(&format!("{pass}_")) {
                continue;
            }
            let made = changes.get(pass).copied().unwrap_or(0);
            let must_be_untouched = UNTOUCHED.contains(&(name.as_str(), pass));
            println!("{name}: {pass} made {made} change(s)");
            if must_be_untouched != (made == 0) {
                failures.push(format!("{name}: {pass} made {made} change(s)"));
            }
        }
    }
    println!("changes over the whole corpus: {totals:?}");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The calls of a file's `; run: @f(a, b) ...` lines (what follows the call is the
/// harness's business).
fn run_calls(text: &str) -> Vec<(String, Vec<i64>)> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("; run: @"))
        .map(|call| {
            let (name, rest) = call.split_once('(').expect("a call");
            let args = rest.split_once(')').expect("closed call").0;
            let args = args
                .split(',')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(|a| a.parse::<i128>().expect("integer argument") as i64)
                .collect();
            (name.to_string(), args)
        })
        .collect()
}

/// Stages (by name) at which some run line's outcome differs from the input's, with
/// `active` mutants switched on while the pipeline runs.
fn disagreeing_stages(path: &Path, active: &[Mutant]) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("file reads");
    let module = parse_module(&text).expect("file parses");
    let calls = run_calls(&text);
    let cfg = RunConfig::default();
    let reference = Program::new(&module, &cfg).expect("reference compiles");
    let expected: Vec<_> = calls
        .iter()
        .map(|(f, args)| reference.run(f, args).expect("reference runs"))
        .collect();
    let mut stages: Vec<(String, IrModule)> = Vec::new();
    mutants::set_active(active);
    let result = run_pipeline(module, &PipelineOptions::default(), &mut |event, m| {
        stages.push((event.name.clone(), m.clone()));
    });
    mutants::set_active(&[]);
    result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    stages
        .into_iter()
        .filter(|(_, m)| {
            let program = Program::new(m, &cfg).expect("stage compiles");
            calls
                .iter()
                .zip(&expected)
                .any(|((f, args), want)| !program.run(f, args).unwrap().agrees_with(want))
        })
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn each_mutant_file_exposes_its_mutant_at_its_pass() {
    let dir = corpus_dir().join("ir/passes");
    let mut seen = 0;
    for path in ir_files(&dir) {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let Some((pass, rest)) = PASSES
            .iter()
            .find_map(|p| Some((*p, name.strip_prefix(&format!("{p}_mutant_"))?)))
        else {
            continue;
        };
        let mutant = Mutant::from_name(&format!("{pass}_{rest}"))
            .unwrap_or_else(|| panic!("{name}: no mutant {pass}_{rest}"));
        assert_eq!(
            disagreeing_stages(&path, &[]),
            Vec::<String>::new(),
            "{name}"
        );
        let stages = disagreeing_stages(&path, &[mutant]);
        assert_eq!(
            stages.first().map(String::as_str),
            Some(pass),
            "{name}: {mutant} should first show at stage {pass}"
        );
        seen += 1;
    }
    assert_eq!(seen, 4, "one file per mutant");
}
