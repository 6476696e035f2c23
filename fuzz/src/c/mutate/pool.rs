//! The programs `--gen mutate` mutates.
//!
//! Why: the pool is the mutator's seed corpus; which programs it holds, in which order, is
//! part of what a seed means, so it is loaded once, sorted by path, and named in every
//! mutant.
//!
//! Invariants:
//! - the default pool is the project's own C corpus (`corpus/c`, the defined programs of
//!   `corpus/ub`, `corpus/found`), found from the working directory or, failing that, from
//!   the source tree phihunt was built from;
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

/// The programs, as (name, text), sorted by name, and the files left out with why.
#[derive(Clone, Debug, Default)]
pub struct Pool {
    programs: Vec<(String, String)>,
    left_out: Vec<(String, String)>,
}

impl Pool {
    pub fn programs(&self) -> &[(String, String)] {
        &self.programs
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
        Ok(Pool { programs, left_out })
    }

    /// The default pool (see the module doc).
    pub fn default_corpus() -> Result<Pool, String> {
        let root = default_corpus_root().ok_or(
            "no corpus/ directory in the working directory or the source tree: give --mutate-from DIR",
        )?;
        Pool::from_dirs(&[root.join("c"), root.join("ub"), root.join("found")])
    }
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

fn default_corpus_root() -> Option<PathBuf> {
    let here = PathBuf::from("corpus");
    if here.join("c").is_dir() {
        return Some(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    built.join("c").is_dir().then_some(built)
}
