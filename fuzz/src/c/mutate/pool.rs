//! The programs `--gen mutate` mutates.
//!
//! Why: the pool is the mutator's seed corpus; which programs it holds, in which order, is
//! part of what a seed means, so it is loaded once, sorted by path, and named in every
//! mutant.
//!
//! Invariants:
//! - the default pool is the project's own C corpus (`corpus/c`, the defined programs of
//!   `corpus/ub`, `corpus/found`), found from the working directory or, failing that, from
//!   the source tree phihunt was built from, and — when `scripts/c-torture.sh fetch` has
//!   put gcc's c-torture suite in its cache (`$PHIHUNT_TORTURE_CACHE`, else
//!   `~/.cache/phihunt/c-torture`) — every c-torture test that phicc passes on every
//!   target (not named in `corpus/torture/expected-failures.txt`); [`Pool::describe`] says
//!   which, and `hunt`/`gen mutate` print it, since the pool is part of what a seed means;
//! - a c-torture test's `abort()` (and `__builtin_abort()`) becomes a call of
//!   `phihunt_abort()`, which prints `abort` and returns: the test's own checks then
//!   print what they found instead of ending the run, so a mutant that changes a checked
//!   value is still a defined program with an output to compare (gcc -O0's, as for every
//!   mutant), and a miscompiled check shows as an extra `abort` line;
//! - a program with a `// ub:` line (a UB example of `corpus/ub`) is never in the pool;
//! - nor is the regression file of a seeded bug (a `// seeded bug: NAME` header): a mutant
//!   of it would find that bug at once and make `bench mutants --gen mutate` measure
//!   nothing; it is listed in `left_out` with that reason;
//! - the corpus's `#include "test.h"` is replaced by an ASSERT that prints and never exits,
//!   so a mutant that changes a checked value still runs to the end and prints it (every
//!   stage and target is then held to gcc's output, which is the point).

use std::path::{Path, PathBuf};

/// What replaces `#include "test.h"`: its headers and an ASSERT that only prints.
const TEST_H: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
#define ASSERT(x, y) printf(\"%s => %lld\\n\", #y, (long long)(y))\n";

/// What a c-torture test's `abort` calls become (see the module doc).
const TORTURE_ABORT: &str = "phihunt_abort";

/// Declared before a c-torture test (after nothing: the tests include what they need).
const TORTURE_PROLOGUE: &str = "int printf(const char *, ...);\nvoid phihunt_abort(void);\n";

/// Defined after a c-torture test.
const TORTURE_EPILOGUE: &str = "\nvoid phihunt_abort(void) { printf(\"abort\\n\"); }\n";

/// The programs, as (name, text), sorted by name, and the files left out with why.
#[derive(Clone, Debug, Default)]
pub struct Pool {
    programs: Vec<(String, String)>,
    left_out: Vec<(String, String)>,
    /// How many programs came from each source (`corpus`, `c-torture`).
    sources: Vec<(String, usize)>,
}

impl Pool {
    /// One line naming where the programs came from, e.g.
    /// `212 programs: corpus 190, c-torture 22`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .sources
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        format!("{} programs: {}", self.programs.len(), parts.join(", "))
    }

    pub fn programs(&self) -> &[(String, String)] {
        &self.programs
    }

    /// The base program for a mutant: with c-torture in the pool, first one of the two
    /// halves (the project's corpus or c-torture) with even odds — c-torture's thousand
    /// tests would otherwise crowd out the corpus written for phicc's own features — then
    /// a program of it; with one source, any program. `None` when the pool is empty.
    pub fn pick(&self, rng: &mut impl rand::Rng) -> Option<&(String, String)> {
        let is_torture = |p: &(String, String)| p.0.starts_with("c-torture/");
        let torture = self.programs.iter().filter(|p| is_torture(p)).count();
        let corpus = self.programs.len() - torture;
        if torture == 0 || corpus == 0 {
            if self.programs.is_empty() {
                return None;
            }
            return Some(&self.programs[rng.gen_range(0..self.programs.len())]);
        }
        let from_torture = rng.gen_bool(0.5);
        let n = if from_torture { torture } else { corpus };
        let k = rng.gen_range(0..n);
        self.programs
            .iter()
            .filter(|p| is_torture(p) == from_torture)
            .nth(k)
    }

    /// The `.c` files not in the pool, as (name, reason): a file that is not UTF-8 (the
    /// mutators work on text; `corpus/c/literal_raw_bytes.c` holds raw bytes on purpose),
    /// or the regression file of a seeded bug.
    pub fn left_out(&self) -> &[(String, String)] {
        &self.left_out
    }

    /// Every `.c` file under each of `dirs` (not recursive), or `Err` naming a directory
    /// that cannot be read.
    pub fn from_dirs(dirs: &[PathBuf]) -> Result<Pool, String> {
        let mut programs = Vec::new();
        let mut left_out = Vec::new();
        for dir in dirs {
            let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "c"))
                .collect();
            paths.sort();
            for path in paths {
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let Ok(text) = String::from_utf8(bytes) else {
                    left_out.push((display_name(&path), "not UTF-8".to_string()));
                    continue;
                };
                if text.lines().any(|l| l.trim_start().starts_with("// ub:")) {
                    continue;
                }
                if let Some(bug) = seeded_bug_header(&text) {
                    let why = format!("regression file of seeded bug {bug} (its mutants find it)");
                    left_out.push((display_name(&path), why));
                    continue;
                }
                programs.push((
                    display_name(&path),
                    text.replace("#include \"test.h\"", TEST_H),
                ));
            }
        }
        programs.sort();
        left_out.sort();
        let sources = vec![("corpus".to_string(), programs.len())];
        Ok(Pool {
            programs,
            left_out,
            sources,
        })
    }

    /// Adds the c-torture tests of `suite` (gcc's `gcc.c-torture/execute`) that the
    /// expected-failures list `expected` does not name, with `abort` made to print (see
    /// the module doc). `Err` when either cannot be read.
    pub fn add_torture(&mut self, suite: &Path, expected: &Path) -> Result<(), String> {
        let list = std::fs::read_to_string(expected)
            .map_err(|e| format!("{}: {e}", expected.display()))?;
        let failing: std::collections::BTreeSet<&str> = list
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split(' ').next())
            .collect();
        let tests = crate::c::torture::suite::list_tests(suite)?;
        let mut added = 0;
        for test in tests {
            if failing.contains(test.name.as_str()) {
                continue;
            }
            let name = format!("c-torture/{}", test.name);
            let bytes =
                std::fs::read(&test.path).map_err(|e| format!("{}: {e}", test.path.display()))?;
            let Ok(text) = String::from_utf8(bytes) else {
                self.left_out.push((name, "not UTF-8".to_string()));
                continue;
            };
            match torture_program(&text) {
                Ok(program) => {
                    self.programs.push((name, program));
                    added += 1;
                }
                Err(why) => self.left_out.push((name, why)),
            }
        }
        self.programs.sort();
        self.left_out.sort();
        self.sources.push(("c-torture".to_string(), added));
        Ok(())
    }

    /// The default pool (see the module doc).
    pub fn default_corpus() -> Result<Pool, String> {
        let root = default_corpus_root().ok_or(
            "no corpus/ directory in the working directory or the source tree: give --mutate-from DIR",
        )?;
        let mut pool = Pool::from_dirs(&[root.join("c"), root.join("ub"), root.join("found")])?;
        let expected = root.join("torture").join("expected-failures.txt");
        if let Some(suite) = torture_suite() {
            if expected.is_file() {
                pool.add_torture(&suite, &expected)?;
            }
        }
        Ok(pool)
    }
}

/// A c-torture test as a pool program: `abort` and `__builtin_abort` renamed to
/// [`TORTURE_ABORT`] token by token (never inside a string or comment), declared before
/// and defined after the test. `Err` when the test cannot be tokenized.
pub fn torture_program(text: &str) -> Result<String, String> {
    use crate::c::reduce::tokens::{print, tokenize};
    let mut toks = tokenize(text).map_err(|e| e.to_string())?;
    for t in toks.iter_mut() {
        if t.text == "abort" || t.text == "__builtin_abort" {
            t.text = TORTURE_ABORT.to_string();
        }
    }
    Ok(format!(
        "{TORTURE_PROLOGUE}{}{TORTURE_EPILOGUE}",
        print(&toks)
    ))
}

/// gcc's c-torture execute directory, when `scripts/c-torture.sh fetch` has extracted it.
fn torture_suite() -> Option<PathBuf> {
    let cache = match std::env::var_os("PHIHUNT_TORTURE_CACHE") {
        Some(c) => PathBuf::from(c),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".cache/phihunt/c-torture"),
    };
    let suite = cache.join("execute");
    suite.join(".complete").is_file().then_some(suite)
}

/// The seeded bug a regression file names in a `// seeded bug: NAME` line among its first
/// lines (see docs/seeded-bugs.md), if any.
fn seeded_bug_header(text: &str) -> Option<&str> {
    text.lines()
        .take(6)
        .find_map(|l| l.trim_start().strip_prefix("// seeded bug:"))
        .map(str::trim)
}

fn display_name(path: &Path) -> String {
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{parent}/{file}")
}

/// The project's `corpus/` directory: the working directory's, else the source tree's
/// phihunt was built from (for the mutation pool and the csmith unsupported baseline).
pub fn default_corpus_root() -> Option<PathBuf> {
    let here = PathBuf::from("corpus");
    if here.join("c").is_dir() {
        return Some(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    built.join("c").is_dir().then_some(built)
}
