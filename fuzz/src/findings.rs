//! Findings on disk.
//!
//! Why: "never a lost finding". A finding is written to disk, atomically (temporary file
//! then rename), before anything else happens to it — before reduction, before
//! deduplication, before the report — so a crash, a Ctrl-C or a reducer bug cannot lose it.
//!
//! Layout under a campaign's out dir:
//! ```text
//! findings/NNNN-<kind>@<stage>/input.ir      the program, with `; run:` lines of the
//!                                             reference outcomes (replayable by check)
//! findings/NNNN-<kind>@<stage>/finding.json  signature, generator, seed, outcomes,
//!                                             target, allocator and pointer width ...
//! findings/NNNN-<kind>@<stage>/reduced.ir    after reduction, if it ran
//! ```

use crate::check::directives::format_directive;
use crate::diff::{Finding, Signature};
use compiler::ir::text::print_module;
use compiler::ir::IrModule;
use oracle::RunResult;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Everything needed to reproduce and understand a finding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingRecord {
    pub id: u64,
    pub signature: Signature,
    /// Generator name (`cfg`, `phi`, ...) or `file` for a given input.
    pub generator: String,
    /// The seed that generated the program (`phihunt gen GENERATOR --seed SEED`).
    pub seed: Option<u64>,
    pub entry: String,
    /// The argument vector that shows a mismatch (empty for verify/panic findings).
    pub args: Vec<i64>,
    pub reference: Option<String>,
    pub got: Option<String>,
    pub detail: String,
    /// Seeded bugs that were switched on.
    pub mutants: Vec<String>,
    /// A native finding's target (`x86_64`, `i686`); `None` for the middle end's.
    #[serde(default)]
    pub target: Option<String>,
    /// A native finding's register allocator (`linear`, `stack`).
    #[serde(default)]
    pub regalloc: Option<String>,
    /// The pointer width the reference ran with (8, or 4 for i686 and `STAGE@4`).
    #[serde(default = "default_ptr_bytes")]
    pub ptr_bytes: u32,
    /// Seconds since the Unix epoch.
    pub found_at: u64,
}

fn default_ptr_bytes() -> u32 {
    8
}

/// Writes `bytes` to `path` atomically: a sibling temporary file, flushed, then renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// `; run:` lines for every expectation, one per line.
/// `module` gives the entry's types (float arguments and results are written as floats).
pub fn directive_block(
    entry: &str,
    module: &IrModule,
    expectations: &[(Vec<i64>, RunResult)],
) -> String {
    let (params, ret) = module
        .function(entry)
        .map_or((Vec::new(), compiler::ir::IrType::I64), |f| {
            (f.params.clone(), f.ret)
        });
    let mut s = String::new();
    for (args, r) in expectations {
        if let Some(line) = format_directive(entry, &params, ret, args, r) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s
}

/// The text of a replayable test file: a header, `; run:` lines, the module.
pub fn test_file_text(
    header: &str,
    entry: &str,
    expectations: &[(Vec<i64>, RunResult)],
    module: &IrModule,
) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str("; ");
        s.push_str(line);
        s.push('\n');
    }
    s.push_str(&directive_block(entry, module, expectations));
    s.push('\n');
    s.push_str(&print_module(module));
    s
}

/// Saves a raw finding under `out/findings/`; returns its directory.
pub fn save_raw(
    out: &Path,
    record: &FindingRecord,
    finding: &Finding,
    module: &IrModule,
) -> std::io::Result<PathBuf> {
    let dir = out.join("findings").join(format!(
        "{:04}-{}",
        record.id,
        record.signature.file_component()
    ));
    std::fs::create_dir_all(&dir)?;
    let header = format!(
        "phihunt finding {} ({})\ngenerator {} seed {}\n{}",
        record.id,
        record.signature,
        record.generator,
        record.seed.map_or("-".into(), |s| s.to_string()),
        record.detail
    );
    let text = test_file_text(&header, &record.entry, &finding.expectations, module);
    write_atomically(&dir.join("input.ir"), text.as_bytes())?;
    let json = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    write_atomically(&dir.join("finding.json"), &json)?;
    Ok(dir)
}

/// A short content hash for file names of saved findings (unique enough to tell two
/// findings of one signature apart; not stable across versions of the hasher).
pub fn content_hash(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    bytes.hash(&mut h);
    h.finish()
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `YYYYMMDD-HHMMSS` in UTC, for default out-dir names.
pub fn timestamp(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_civil_utc() {
        assert_eq!(timestamp(0), "19700101-000000");
        // 2026-11-21 23:15:39 UTC
        assert_eq!(timestamp(1_795_302_939), "20261121-231539");
        // 2000-02-29 12:00:00 UTC (leap day)
        assert_eq!(timestamp(951_825_600), "20000229-120000");
    }

    #[test]
    fn atomic_write_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let p = dir.join("x.json");
        write_atomically(&p, b"one").unwrap();
        write_atomically(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
