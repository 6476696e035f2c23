//! `findings.jsonl`: one line per saved finding, appended the moment it is saved.
//!
//! Why: `summary.json` and the reports are written at the end of a hunt; a hunt that is
//! killed (SIGKILL, a machine that reboots at 3 am) never gets there. The journal is what
//! a script tails during the hunt and reads after a crash: every finding that reached
//! disk is in it, with its signature, generator, seed, directory and time.
//!
//! Invariants:
//! - a line is appended only after the finding's directory is written (the caller saves
//!   first), so every line names a finding that exists;
//! - each line is one complete JSON object written by a single `write` on a file opened
//!   in append mode and flushed to disk, so concurrent workers never interleave lines and
//!   a crash leaves at most a missing last line, never a torn one in the middle;
//! - a finding is appended by the worker that saved it, right after saving; a front-end
//!   panic (a finding without a signature) by the main thread when the worker reports it;
//! - the file is created (empty) when the hunt starts, so "no findings" is an empty file,
//!   not a missing one.

use crate::diff::Signature;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// The journal's file name in the out dir.
pub const FILE_NAME: &str = "findings.jsonl";

/// One line of `findings.jsonl`.
#[derive(Clone, Debug, Serialize, serde::Deserialize, PartialEq)]
pub struct JournalEntry {
    /// The finding's id (its directory's `NNNN`); `null` for a front-end panic.
    pub id: Option<u64>,
    /// The signature as found (`mismatch@gvn#2`); `null` for a front-end panic, which has
    /// none.
    pub signature: Option<String>,
    /// The bug it counts under (`mismatch@gvn`).
    pub bug: Option<String>,
    /// `finding` or `front_end_panic`.
    pub kind: String,
    pub generator: String,
    pub seed: Option<u64>,
    /// The finding's directory.
    pub path: String,
    /// Seconds since the hunt started.
    pub t: f64,
    /// Seconds since the Unix epoch.
    pub unix_time: u64,
}

impl JournalEntry {
    /// The entry of a finding with `signature` saved in `dir`.
    pub fn finding(
        id: u64,
        signature: &Signature,
        generator: &str,
        seed: Option<u64>,
        dir: &Path,
    ) -> JournalEntry {
        JournalEntry {
            id: Some(id),
            signature: Some(signature.to_string()),
            bug: Some(signature.bug().to_string()),
            kind: "finding".into(),
            generator: generator.into(),
            seed,
            path: dir.display().to_string(),
            t: 0.0,
            unix_time: 0,
        }
    }

    /// The entry of a finding past the signature's stored copies (`keep`): recorded as
    /// a seed line in `seeds` (`findings/more/SIG.seeds`), no directory of its own.
    pub fn seed_line(
        signature: &Signature,
        generator: &str,
        seed: u64,
        seeds: &Path,
    ) -> JournalEntry {
        JournalEntry {
            id: None,
            signature: Some(signature.to_string()),
            bug: Some(signature.bug().to_string()),
            kind: "seed_line".into(),
            generator: generator.into(),
            seed: Some(seed),
            path: seeds.display().to_string(),
            t: 0.0,
            unix_time: 0,
        }
    }

    /// The entry of a front-end panic on a generated program, saved in `dir`
    /// (`front-end-panics/GENERATOR-SEED`).
    pub fn front_end_panic(generator: &str, dir: &str) -> JournalEntry {
        let seed = dir.rsplit_once('-').and_then(|(_, s)| s.parse().ok());
        JournalEntry {
            id: None,
            signature: None,
            bug: None,
            kind: "front_end_panic".into(),
            generator: generator.into(),
            seed,
            path: dir.into(),
            t: 0.0,
            unix_time: 0,
        }
    }
}

/// The open journal of one hunt, shared by its workers.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    start: Instant,
}

impl Journal {
    /// Opens `OUT/findings.jsonl` for appending, creating it if needed; times in it count
    /// from `start`. Lines an earlier hunt left in the same out dir stay (never delete a
    /// finding's record): their `unix_time` tells them apart, and a continued hunt simply
    /// goes on appending.
    pub fn open(out_dir: &Path, start: Instant) -> std::io::Result<Journal> {
        let path = out_dir.join(FILE_NAME);
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        Ok(Journal {
            path,
            file: Mutex::new(file),
            start,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `entry` (its times set now) as one line, flushed to disk.
    pub fn append(&self, mut entry: JournalEntry) -> std::io::Result<()> {
        entry.t = self.start.elapsed().as_secs_f64();
        entry.unix_time = crate::findings::unix_now();
        let mut line = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
        line.push(b'\n');
        // A worker that panicked while holding the lock left the file as it was: go on.
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(&line)?;
        f.sync_data()
    }
}

/// Reads a journal back (for tests and for scripts written in Rust); a torn last line
/// (a hunt killed mid-write) is ignored, any other bad line is an error naming it.
pub fn read(path: &Path) -> std::io::Result<Vec<JournalEntry>> {
    let text = std::fs::read_to_string(path)?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str(line.trim_end()) {
            Ok(e) => out.push(e),
            Err(_) if i + 1 == lines.len() && !line.ends_with('\n') => {}
            Err(e) => {
                return Err(std::io::Error::other(format!(
                    "{}:{}: {e}",
                    path.display(),
                    i + 1
                )))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::FindingKind;

    #[test]
    fn concurrent_appends_give_whole_lines_and_a_torn_tail_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::open(dir.path(), Instant::now()).unwrap();
        let sig = Signature::new(FindingKind::Mismatch, "gvn#2");
        std::thread::scope(|s| {
            for w in 0..4u64 {
                let (journal, sig) = (&journal, &sig);
                s.spawn(move || {
                    for i in 0..25u64 {
                        let id = w * 100 + i;
                        let e = JournalEntry::finding(
                            id,
                            sig,
                            "c",
                            Some(id),
                            Path::new("a <dir> & \"quoted\""),
                        );
                        journal.append(e).unwrap();
                    }
                });
            }
        });
        // A hunt killed in the middle of a write.
        let mut f = OpenOptions::new()
            .append(true)
            .open(journal.path())
            .unwrap();
        f.write_all(b"{\"id\": 9").unwrap();
        let entries = read(journal.path()).unwrap();
        assert_eq!(entries.len(), 100);
        let mut ids: Vec<u64> = entries.iter().filter_map(|e| e.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 100);
        assert_eq!(entries[0].bug.as_deref(), Some("mismatch@gvn"));
        assert_eq!(entries[0].signature.as_deref(), Some("mismatch@gvn#2"));
        assert_eq!(entries[0].path, "a <dir> & \"quoted\"");
    }
}
