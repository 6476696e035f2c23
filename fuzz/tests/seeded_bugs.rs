//! Every seeded-bug regression file in the corpus, checked in both directions: it passes
//! on the correct compiler and fails with its seeded bug switched on.
//!
//! Why: a regression file for a seeded bug is only evidence if it can fail; a file that
//! passes with its bug on (a pass that no longer fires on it, an expectation the bug
//! happens to keep) would stay green forever. The files name their bug in a header line
//! `// seeded bug: NAME` (C) or `; seeded bug: NAME` (IR) within their first lines; this
//! test finds them, runs `phihunt check` as a user would, and also requires one file for
//! each bug in [`NEEDS_A_FILE`] (the issue-15 catalog, which promised one each, and the
//! float bugs of issue 14 found from generated C).

use compiler::mutants::Mutant;
use std::path::{Path, PathBuf};
mod common;
use common::{phihunt, workspace_root};

/// The seeded bugs that must each have their own regression file.
const NEEDS_A_FILE: [&str; 16] = [
    "lower_u16_widen_sign_extends",
    "lower_compound_narrow_in_lhs_type",
    "lower_bitfield_byte_no_sign_extend",
    "lower_switch_case_truncated_32",
    "lower_ptr_diff_unsigned_divide",
    "simplify_sdiv_pow2_as_ashr",
    "simplify_srem_pow2_as_mask",
    "simplify_add_cmp_ignores_overflow",
    "simplify_neg_eq_self_as_zero",
    "licm_single_back_edge",
    "licm_preheader_first_entry",
    "dominators_single_pass",
    "i686_wide_shift_no_word_fixup",
    "const_eval_float_kept_in_double",
    "lower_float_ne_ordered",
    "const_fold_int_to_float_toward_zero",
];

/// How many leading lines may hold the header.
const HEADER_LINES: usize = 6;

/// Every `.c` and `.ir` file under `dir`, sorted (explicit stack, no recursion).
fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("corpus directory reads") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "c" || e == "ir") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The seeded bug a file's header names, if any. Files that are not UTF-8 have none.
fn seeded_bug_of(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().take(HEADER_LINES).find_map(|line| {
        let rest = line
            .trim_start_matches(['/', ';'])
            .trim()
            .strip_prefix("seeded bug:")?;
        Some(rest.trim().to_string())
    })
}

/// `phihunt [--mutant M] check --targets T FILE`: (exit code, stdout and stderr). `T` is
/// `none` for a bug above the backends (every stage runs in the oracle), else the
/// targets whose code the bug changes.
fn check(file: &Path, bug: Mutant, switched_on: bool) -> (i32, String) {
    let file = file.to_str().expect("UTF-8 path");
    let targets = if bug.is_backend() {
        let names: Vec<_> = bug.targets().iter().map(|t| t.name()).collect();
        names.join(",")
    } else {
        "none".to_string()
    };
    let mut args = Vec::new();
    if switched_on {
        args.extend(["--mutant", bug.name()]);
    }
    args.extend(["check", "--targets", &targets, file]);
    let (code, out, err) = phihunt(&args);
    (code, format!("{out}\n{err}"))
}

#[test]
fn each_seeded_bug_file_fails_with_its_bug_and_passes_without() {
    let corpus = workspace_root().join("corpus");
    let mut covered = Vec::new();
    let mut failures = Vec::new();
    for path in corpus_files(&corpus) {
        let Some(name) = seeded_bug_of(&path) else {
            continue;
        };
        let shown = path.strip_prefix(&corpus).unwrap_or(&path).display();
        let Some(bug) = Mutant::from_name(&name) else {
            failures.push(format!("{shown}: no seeded bug named `{name}`"));
            continue;
        };
        let (code, out) = check(&path, bug, false);
        if code != 0 {
            failures.push(format!(
                "{shown}: fails on the correct compiler (exit {code}):\n{out}"
            ));
        }
        let (code, out) = check(&path, bug, true);
        // 1: a stage disagrees with the reference. Any other non-zero exit (a pipeline
        // error after a pass, say) is no evidence that the file shows the bug.
        if code != 1 {
            failures.push(format!(
                "{shown}: with {name} on, exit {code} instead of 1:\n{out}"
            ));
        }
        covered.push(name);
    }
    for name in NEEDS_A_FILE {
        if !covered.iter().any(|c| c == name) {
            failures.push(format!("no regression file names `{name}`"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `--gen mutate` never mutates a seeded bug's regression file (it would find that bug at
/// once): each C one is left out of the default pool, with its bug named as the reason.
#[test]
fn regression_files_stay_out_of_the_mutation_pool() {
    let corpus = workspace_root().join("corpus");
    let pool = phihunt::c::mutate::pool::Pool::from_dirs(&[corpus.join("c")]).expect("pool");
    let mut seen = 0;
    for path in corpus_files(&corpus.join("c")) {
        let Some(bug) = seeded_bug_of(&path) else {
            continue;
        };
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let in_pool = pool.programs().iter().any(|(n, _)| n.ends_with(&file));
        assert!(!in_pool, "{file} is in the mutation pool");
        let reason = pool
            .left_out()
            .iter()
            .find(|(n, _)| n.ends_with(&file))
            .map(|(_, r)| r.as_str());
        assert!(
            reason.is_some_and(|r| r.contains(&bug)),
            "{file}: left out without naming {bug}: {reason:?}"
        );
        seen += 1;
    }
    assert!(seen >= 6, "only {seen} C regression files of seeded bugs");
}
