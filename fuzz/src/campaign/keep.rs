//! How many copies of a finding a hunt stores: at most K directories per bug signature
//! (`--keep-per-signature K`), the rest counted and recorded as one seed line each.
//!
//! Why: a seeded bug (or a real one in a hot pass) shows in thousands of programs of a
//! long hunt; thousands of finding directories help nobody and fill the disk. The first K
//! are kept whole (program, outcomes, `finding.json`); every further one is a line
//! `SEED GENERATOR KIND@STAGE` in `findings/more/<signature>.seeds`, enough to make it
//! again (`phihunt gen GENERATOR --seed SEED`).
//!
//! Invariants:
//! - the decision "directory or line" is taken by the worker, under one lock, before it
//!   writes anything, so no signature ever gets more than K directories, however many
//!   workers find it at once;
//! - a seed line is appended in one `write` on a file opened for appending, then synced,
//!   before the finding is reported to the main thread (saved before anything else);
//! - [`scan`] reads back every stored directory and seed line, so a resumed hunt counts
//!   the findings of the programs that were in flight when it was killed.

use crate::diff::{FindingKind, Signature};
use crate::findings::FindingRecord;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Default of `--keep-per-signature`.
pub const DEFAULT_KEEP_PER_SIGNATURE: u64 = 5;

/// The folder (under `OUT/findings/`) of the seed-line files.
pub const MORE_DIR: &str = "more";

/// Where a finding goes: its own directory, or a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Placement {
    Directory,
    Line,
}

/// Directories stored so far per bug signature, shared by the workers.
pub struct KeepPolicy {
    pub limit: u64,
    stored: Mutex<BTreeMap<Signature, u64>>,
}

impl KeepPolicy {
    /// A policy with `stored` directories already on disk (from [`scan`] on resume).
    pub fn new(limit: u64, stored: BTreeMap<Signature, u64>) -> KeepPolicy {
        KeepPolicy {
            limit: limit.max(1),
            stored: Mutex::new(stored),
        }
    }

    /// Decides where a finding with (bug) signature `bug` goes, and reserves the
    /// directory when it is one.
    pub fn place(&self, bug: &Signature) -> Placement {
        let mut stored = match self.stored.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let n = stored.entry(bug.clone()).or_default();
        if *n < self.limit {
            *n += 1;
            Placement::Directory
        } else {
            Placement::Line
        }
    }
}

/// The seed-line file of bug signature `bug`.
pub fn seeds_file(out: &Path, bug: &Signature) -> PathBuf {
    out.join("findings")
        .join(MORE_DIR)
        .join(format!("{}.seeds", bug.file_component()))
}

/// Appends the line of one finding beyond the limit (and syncs it).
pub fn append_seed_line(
    out: &Path,
    bug: &Signature,
    seed: u64,
    generator: &str,
    signature: &Signature,
) -> std::io::Result<PathBuf> {
    let path = seeds_file(out, bug);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    f.write_all(format!("{seed} {generator} {signature}\n").as_bytes())?;
    f.sync_data()?;
    Ok(path)
}

/// A finding found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFinding {
    pub seed: u64,
    pub generator: String,
    /// As it ran (`gvn#2`, not `gvn`).
    pub signature: Signature,
    /// Its directory, or `None` for a seed line.
    pub dir: Option<PathBuf>,
    pub id: u64,
}

/// Parses `SEED GENERATOR KIND@STAGE`.
fn parse_seed_line(line: &str) -> Option<(u64, String, Signature)> {
    let mut words = line.split_whitespace();
    let seed = words.next()?.parse().ok()?;
    let generator = words.next()?.to_string();
    let (kind, stage) = words.next()?.split_once('@')?;
    let kind: FindingKind = serde_json::from_value(serde_json::Value::String(kind.into())).ok()?;
    words
        .next()
        .is_none()
        .then(|| (seed, generator, Signature::new(kind, stage)))
}

/// Every finding stored under `out/findings/` (directories with a readable
/// `finding.json`, and seed lines), sorted by id then seed. A seed-line file whose last
/// line was cut by a kill gets its newline, so the next line appended stays whole (the
/// cut line is not counted: its program was in flight and is redone).
pub fn scan(out: &Path) -> std::io::Result<Vec<StoredFinding>> {
    let mut found = Vec::new();
    let root = out.join("findings");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(found);
    };
    for entry in entries {
        let path = entry?.path();
        let json = path.join("finding.json");
        if !json.is_file() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&json) else {
            continue;
        };
        let Ok(record) = serde_json::from_str::<FindingRecord>(&text) else {
            continue;
        };
        if let Some(seed) = record.seed {
            found.push(StoredFinding {
                seed,
                generator: record.generator,
                signature: record.signature,
                dir: Some(path),
                id: record.id,
            });
        }
    }
    if let Ok(entries) = std::fs::read_dir(root.join(MORE_DIR)) {
        for entry in entries {
            let path = entry?.path();
            if path.extension().is_none_or(|e| e != "seeds") {
                continue;
            }
            let text = std::fs::read_to_string(&path)?;
            if !text.is_empty() && !text.ends_with('\n') {
                let mut f = std::fs::OpenOptions::new().append(true).open(&path)?;
                f.write_all(b"\n")?;
                f.sync_data()?;
            }
            let whole = text.rsplit_once('\n').map_or("", |(done, _)| done);
            for line in whole.lines() {
                if let Some((seed, generator, signature)) = parse_seed_line(line) {
                    found.push(StoredFinding {
                        seed,
                        generator,
                        signature,
                        dir: None,
                        id: 0,
                    });
                }
            }
        }
    }
    found.sort_by_key(|a| (a.id, a.seed));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_signature_gets_more_than_k_directories() {
        let keep = KeepPolicy::new(2, BTreeMap::new());
        let gvn = Signature::new(FindingKind::Mismatch, "gvn");
        let licm = Signature::new(FindingKind::Verify, "licm");
        assert_eq!(keep.place(&gvn), Placement::Directory);
        assert_eq!(keep.place(&gvn), Placement::Directory);
        assert_eq!(keep.place(&gvn), Placement::Line);
        assert_eq!(keep.place(&licm), Placement::Directory);
        let resumed = KeepPolicy::new(2, BTreeMap::from([(gvn.clone(), 2)]));
        assert_eq!(resumed.place(&gvn), Placement::Line);
    }

    #[test]
    fn seed_lines_read_back_and_a_cut_line_is_not_counted() {
        let out = tempfile::tempdir().unwrap();
        let bug = Signature::new(FindingKind::Mismatch, "native:x86_64/stack");
        let ran = Signature::new(FindingKind::Mismatch, "native:x86_64/stack");
        append_seed_line(out.path(), &bug, 17, "c", &ran).unwrap();
        let width = Signature::new(FindingKind::Mismatch, "gvn@4");
        append_seed_line(out.path(), &width, 18, "cfg", &width).unwrap();
        // A kill in the middle of a line.
        let file = seeds_file(out.path(), &bug);
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .unwrap();
        f.write_all(b"19 c mism").unwrap();
        let found = scan(out.path()).unwrap();
        let seeds: Vec<(u64, String)> = found
            .iter()
            .map(|f| (f.seed, f.signature.to_string()))
            .collect();
        assert_eq!(
            seeds,
            [
                (17, "mismatch@native:x86_64/stack".to_string()),
                (18, "mismatch@gvn@4".to_string())
            ]
        );
        append_seed_line(out.path(), &bug, 20, "c", &ran).unwrap();
        assert_eq!(scan(out.path()).unwrap().len(), 3);
    }
}
