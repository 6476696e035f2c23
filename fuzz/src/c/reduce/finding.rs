//! A hunt's C finding reduced where it lies: `program.c` in the finding's directory
//! becomes `reduced.c` beside it (and, for a real bug, a test in `corpus/found/`).
//!
//! Why: the campaign reduces the first finding of each signature; for generated C the
//! program itself is what a compiler engineer wants to read, and the IR reducer cannot
//! hold a finding judged against the program's expected output (`lowered` or a native
//! stage). This is the one call the campaign makes.
//!
//! Invariants: the original `program.c` is never touched; `reduced.c` is written
//! atomically; a reduction that fails leaves `reduce-c.txt` saying why (nothing is lost
//! silently); seeded bugs must already be active on the calling thread, and with any
//! active nothing is copied to `corpus/found/`.

use super::corpus::{copy_to_found, test_file_text};
use super::{reduce_c_finding, CReduced};
use crate::diff::Signature;
use crate::findings::{write_atomically, FindingRecord};
use compiler::pipeline::PipelineOptions;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where a reduced C finding went.
#[derive(Clone, Debug)]
pub struct StoredReduction {
    pub reduced: CReduced,
    /// `DIR/reduced.c`.
    pub path: PathBuf,
    /// The copy in `corpus/found/`, when made.
    pub corpus_copy: Option<PathBuf>,
}

/// Reduces `dir/program.c` keeping `signature` for at most `budget` (through the hunt's
/// `pipeline`; rerunning the compiler under test `cc` for a `*@cc` signature), writes
/// `dir/reduced.c`, and copies it to `corpus_found` when given and no seeded bug is on.
/// `Err` (also written to `dir/reduce-c.txt`) when it cannot be reduced.
pub fn reduce_saved_finding(
    dir: &Path,
    signature: &Signature,
    record: &FindingRecord,
    budget: Duration,
    pipeline: &PipelineOptions,
    corpus_found: Option<&Path>,
    cc: Option<&crate::c::cc::CompilerUnderTest>,
) -> Result<StoredReduction, String> {
    let result = reduce_and_store(dir, signature, record, budget, pipeline, corpus_found, cc);
    if let Err(why) = &result {
        let _ = write_atomically(&dir.join("reduce-c.txt"), format!("{why}\n").as_bytes());
    }
    result
}

fn reduce_and_store(
    dir: &Path,
    signature: &Signature,
    record: &FindingRecord,
    budget: Duration,
    pipeline: &PipelineOptions,
    corpus_found: Option<&Path>,
    cc: Option<&crate::c::cc::CompilerUnderTest>,
) -> Result<StoredReduction, String> {
    let reduced = reduce_c_finding(&dir.join("program.c"), signature, budget, pipeline, cc)?;
    let origin = format!(
        "from {} seed {}{}",
        record.generator,
        record.seed.map_or("-".into(), |s| s.to_string()),
        if record.mutants.is_empty() {
            String::new()
        } else {
            format!(", seeded bugs {}", record.mutants.join(","))
        }
    );
    let text = test_file_text(
        signature,
        &origin,
        reduced.status,
        &reduced.stdout,
        &reduced.text,
    );
    let path = dir.join("reduced.c");
    write_atomically(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    let corpus_copy = match corpus_found {
        Some(found) if compiler::mutants::active().is_empty() => Some(
            copy_to_found(found, &signature.bug(), &text)
                .map_err(|e| format!("{}: {e}", found.display()))?,
        ),
        _ => None,
    };
    Ok(StoredReduction {
        reduced,
        path,
        corpus_copy,
    })
}
