//! The c-torture suite on disk: which files are tests, and how they are named.
//!
//! Why: `phihunt torture DIR` takes gcc's `gcc.c-torture/execute` directory (what
//! `scripts/c-torture.sh fetch` extracts). Every top-level `*.c` file there is one
//! self-contained test: it returns from `main` or calls `exit(0)` when it passes and
//! calls `abort()` when it fails. The two subdirectories are left out on purpose:
//! `builtins/` tests link each test with a `-lib.c` companion and a shared `lib/main.c`
//! (a harness of its own), and `ieee/` tests are floating-point tests with per-test
//! `.x` option files; both come in when phicc has floats and the harness grows them.
//!
//! Invariants: a test is named by its file name (`20000112-1.c`), which is unique in
//! the directory; the list is sorted by name, so every run, table and list has one order.

use compiler::target::Target;
use std::path::{Path, PathBuf};

/// One test of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TortureTest {
    /// The file name, e.g. `20000112-1.c`.
    pub name: String,
    pub path: PathBuf,
}

/// The top-level `*.c` tests of `dir`, sorted by name. `Err` when `dir` cannot be read or
/// holds no test (not the execute directory, or a failed extraction).
pub fn list_tests(dir: &Path) -> Result<Vec<TortureTest>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut tests = Vec::new();
    for e in entries {
        let path = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_file() && path.extension().is_some_and(|x| x == "c") {
            if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                tests.push(TortureTest {
                    name: name.to_string(),
                    path: path.clone(),
                });
            }
        }
    }
    if tests.is_empty() {
        return Err(format!(
            "{} holds no *.c test: give gcc's gcc.c-torture/execute directory (bash scripts/c-torture.sh fetch prints it)",
            dir.display()
        ));
    }
    tests.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tests)
}

/// The tests of `all` named in `names` (in suite order); `Err` names the first name
/// that is not a test of the suite.
pub fn select_named(all: &[TortureTest], names: &[String]) -> Result<Vec<TortureTest>, String> {
    for n in names {
        if !all.iter().any(|t| &t.name == n) {
            return Err(format!("`{n}` is not a test of the suite"));
        }
    }
    Ok(all
        .iter()
        .filter(|t| names.contains(&t.name))
        .cloned()
        .collect())
}

/// A target as an ordered map key (the order of [`Target::ALL`]), so that every table and
/// list of the suite has one order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetKey(pub Target);

impl TargetKey {
    fn index(self) -> usize {
        Target::ALL
            .iter()
            .position(|t| *t == self.0)
            .unwrap_or(Target::ALL.len())
    }
}

impl Ord for TargetKey {
    fn cmp(&self, other: &TargetKey) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

impl PartialOrd for TargetKey {
    fn partial_cmp(&self, other: &TargetKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
