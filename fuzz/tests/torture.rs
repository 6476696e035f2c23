//! gcc's c-torture suite in `cargo test`: a fixed sample (`corpus/torture/sample.txt`, 40
//! tests spread over the suite) through `phihunt torture` on every target, checked both
//! ways against `corpus/torture/expected-failures.txt` — a failure not listed there, or a
//! listed test that passes, fails this test. `scripts/nightly.sh` runs the whole suite.
//!
//! The sources are not in the repository: `bash scripts/c-torture.sh fetch` (which
//! `scripts/setup.sh` runs) extracts them into `~/.cache/phihunt/c-torture` (or
//! `$PHIHUNT_TORTURE_CACHE`). Without them this test fails and says so: it never skips.

mod common;

use common::{last_line, phihunt, workspace_root};
use std::path::PathBuf;

/// The suite's directory, as `scripts/c-torture.sh path` prints it.
fn suite_dir() -> PathBuf {
    let cache = std::env::var_os("PHIHUNT_TORTURE_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
                .join(".cache/phihunt/c-torture")
        });
    cache.join("execute")
}

#[test]
fn the_torture_sample_matches_the_expected_failures_on_every_target() {
    let suite = suite_dir();
    assert!(
        suite.join(".complete").is_file(),
        "gcc's c-torture sources are missing ({} has no .complete marker): run `bash scripts/c-torture.sh fetch` (scripts/setup.sh runs it)",
        suite.display()
    );
    let sample = workspace_root().join("corpus/torture/sample.txt");
    let names = std::fs::read_to_string(&sample).expect("corpus/torture/sample.txt");
    let names: Vec<&str> = names
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(names.len(), 40, "the sample has 40 tests");
    let out = tempfile::tempdir().expect("temporary directory");
    let out_arg = out.path().to_string_lossy().into_owned();
    let suite_arg = suite.to_string_lossy().into_owned();
    let (code, stdout, stderr) = phihunt(&[
        "torture",
        &suite_arg,
        "--only-file",
        "corpus/torture/sample.txt",
        "--jobs",
        "2",
        "--out",
        &out_arg,
    ]);
    let last = last_line(&stdout);
    let problems: Vec<&str> = stdout.lines().filter(|l| l.starts_with('✗')).collect();
    assert_eq!(
        code,
        0,
        "phihunt torture on the sample: exit {code}, {last}\n{}\nstderr tail:\n{}",
        problems.join("\n"),
        stderr.lines().rev().take(10).collect::<Vec<_>>().join("\n")
    );
    assert!(
        last.ends_with("0 problem(s) against corpus/torture/expected-failures.txt"),
        "{last}"
    );
    // Every test ran on every target where gcc -O0 runs it cleanly: at least 35 of the 40
    // tests on each of the four targets, so at least 140 judged pairs.
    let judged: usize = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        judged >= 140,
        "only {judged} (test, target) pairs judged: {last}"
    );
    assert!(out.path().join("report.md").is_file() && out.path().join("summary.json").is_file());
}
