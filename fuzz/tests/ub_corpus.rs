//! Replays `corpus/ub`: the UB judge's specification (`docs/ub-judge.md`).
//!
//! Every file with a `// ub: KIND` line must be called undefined of exactly that category
//! by the judge (the checked lowering's `main` in the oracle), and `phihunt check` must
//! hold it to that line (one passing cell), never report it as a mismatch. Every other file (the
//! defined twins, `NAME_ok.c`, and the extra defined programs) must pass at every stage
//! against gcc -O0. The expectations come from the C standard and were checked with gcc's
//! sanitizers (`scripts/ub-corpus-gcc.sh`), not from the oracle.

use phihunt::check::c_source::Invalid;
use phihunt::check::ub_judge::{checked_front_end, judge_defined};
use phihunt::check::{check_c_file, CheckSettings, CheckSummary};
use std::path::{Path, PathBuf};

/// The category a file's `// ub:` line names, if it has one.
fn expected_ub(path: &Path) -> Option<String> {
    phihunt::check::ub_judge::expected_ub(&std::fs::read_to_string(path).expect("readable"))
}

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/ub");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus/ub")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_ub_program_is_its_category_and_every_twin_passes() {
    let files = corpus();
    let settings = CheckSettings::default();
    let mut failures = Vec::new();
    let mut ub_programs = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let mut out = String::new();
        let mut summary = CheckSummary::default();
        check_c_file(f, &settings, &mut out, &mut summary);
        match expected_ub(f) {
            Some(want) => {
                ub_programs += 1;
                let twin = f.with_file_name(name.replace(".c", "_ok.c"));
                if !twin.exists() {
                    failures.push(format!("{name}: no defined twin {}", twin.display()));
                }
                let checked = match checked_front_end(f, &[]) {
                    Ok(m) => m,
                    Err(e) => {
                        failures.push(format!("{name}: the checked front end fails: {e:?}"));
                        continue;
                    }
                };
                match judge_defined(&checked, &settings.run) {
                    Err(Invalid::Undefined { category, .. }) if category == want => {}
                    Err(other) => failures.push(format!("{name}: want {want}, judge: {other:?}")),
                    Ok(run) => {
                        failures.push(format!("{name}: want {want}, judge: defined ({run})"))
                    }
                }
                // `check` holds the file to its `// ub:` line: one passing cell, never
                // a mismatch.
                if summary.failed > 0 || summary.passed != 1 || !out.contains(&want) {
                    failures.push(format!("{name}: phihunt check does not expect it:\n{out}"));
                }
            }
            None => {
                if summary.failed > 0 || summary.invalid > 0 || summary.passed < 3 {
                    failures.push(format!("{name}: the defined program does not pass:\n{out}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s) in corpus/ub:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ub_programs >= 25, "only {ub_programs} UB programs");
}

/// The i686 judge (ILP32: 4-byte pointers and `long`, `undefined_on_target`'s data
/// model) on every program of `corpus/ub`: a `// ub:` program must be undefined of its
/// category there too, unless its `// ub-ilp32:` line names another verdict (`defined`
/// or a category) the data model gives; a defined program must stay defined.
#[test]
fn the_ilp32_judge_agrees_on_every_program() {
    use compiler::target::Target;
    use phihunt::check::ub_judge::checked_front_end_for;
    let settings = CheckSettings::default();
    let cfg = oracle::RunConfig {
        ptr_bytes: Target::I686.sizeof_pointer(),
        ..settings.run.clone()
    };
    let mut failures = Vec::new();
    for f in corpus() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&f).expect("readable");
        let want = ilp32_expectation(&source).or_else(|| expected_ub(&f));
        let checked = match checked_front_end_for(&f, &[], Target::I686) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: the i686 checked front end fails: {e:?}"));
                continue;
            }
        };
        let got = match judge_defined(&checked, &cfg) {
            Err(Invalid::Undefined { category, .. }) => Some(category),
            Err(other) => {
                failures.push(format!("{name}: no i686 verdict: {other:?}"));
                continue;
            }
            Ok(_) => None,
        };
        if got != want.clone().filter(|w| w != "defined") {
            failures.push(format!("{name}: i686 judge: want {want:?}, got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s) in corpus/ub on ILP32:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A `// ub-ilp32: VERDICT` line: what the ILP32 data model makes of the program when it
/// differs from LP64's (`defined`, or a category).
fn ilp32_expectation(source: &str) -> Option<String> {
    source.lines().find_map(|l| {
        l.trim_start()
            .strip_prefix("// ub-ilp32:")
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string)
    })
}
