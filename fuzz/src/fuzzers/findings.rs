//! Where the differential fuzz targets put a finding: one folder per bug signature under
//! `fuzz/findings/` (or `$PHIHUNT_FUZZ_FINDINGS`), in the layout a hunt's findings have.
//!
//! Why: libFuzzer keeps the crashing *bytes* (`fuzz/artifacts/TARGET/crash-SHA1`), which
//! only the fuzz target can read. phihunt's tools work on programs: `phihunt check` and
//! `phihunt reduce` take an `.ir` file with `; run:` lines. In fork mode
//! (`-fork=N -ignore_crashes=1`) or under ClusterFuzzLite, many inputs hit the same bug, in
//! several processes at once; a folder per input would bury the one that matters.
//!
//! Layout (`SIG` is the bug signature, [`Signature::bug`], as a file name component):
//! ```text
//! fuzz/findings/SIG/input.ir      the first input's program with `; run:` lines of the
//!                                 reference outcomes (phihunt check / phihunt reduce)
//! fuzz/findings/SIG/finding.json  a hunt's FindingRecord (generator, mutants, outcomes ...)
//! fuzz/findings/SIG/input.bin     its fuzzer bytes (`cargo fuzz run TARGET input.bin`)
//! fuzz/findings/SIG/inputs.txt    one line per input that showed SIG, the first included:
//!                                 `TARGET HASH UNIX_TIME HEX_BYTES`
//! ```
//!
//! Invariants: a finding is on disk before the target panics (never a lost finding: every
//! input, duplicate or not, is a line of `inputs.txt` holding its bytes); the first input of
//! a signature is written into a `tempfile` folder beside the others and renamed into
//! place, so a concurrent process sees a complete folder or none, and exactly one process
//! wins the name (a rename onto a non-empty folder fails); lines are appended with one
//! `write` on a file opened for appending, so processes never interleave within a line.

use crate::diff::{Finding, Signature};
use crate::findings::{test_file_text, unix_now, write_atomically, FindingRecord};
use crate::gen::GenKind;
use compiler::ir::IrModule;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The environment variable that moves the findings folder.
pub const FINDINGS_ENV: &str = "PHIHUNT_FUZZ_FINDINGS";

/// The findings folder when [`FINDINGS_ENV`] is not set, relative to the working
/// directory (the repository's root for `cargo fuzz run`).
pub const DEFAULT_FINDINGS_DIR: &str = "fuzz/findings";

/// The findings folder: `$PHIHUNT_FUZZ_FINDINGS`, else [`DEFAULT_FINDINGS_DIR`].
pub fn findings_dir() -> PathBuf {
    std::env::var_os(FINDINGS_ENV).map_or_else(|| PathBuf::from(DEFAULT_FINDINGS_DIR), Into::into)
}

/// What [`save`] did with one input.
#[derive(Debug)]
pub struct Saved {
    /// The signature's folder.
    pub dir: PathBuf,
    /// True when this input was the first of its signature (its program is `input.ir`).
    pub first: bool,
}

/// One finding of a differential fuzz target, with what is needed to write it.
pub struct FuzzFinding<'a> {
    /// The cargo-fuzz target's name (`ir_pipeline`).
    pub target: &'a str,
    pub generator: GenKind,
    /// The fuzzer's input bytes.
    pub data: &'a [u8],
    pub entry: &'a str,
    pub module: &'a IrModule,
    pub finding: &'a Finding,
}

/// Saves `f` under `root` (see the module doc): the signature's folder if it is the first,
/// and its line in `inputs.txt` in every case.
pub fn save(root: &Path, f: &FuzzFinding) -> std::io::Result<Saved> {
    let signature = f.finding.signature.bug();
    std::fs::create_dir_all(root)?;
    let dir = root.join(signature.file_component());
    let first = if dir.is_dir() {
        false
    } else {
        write_first(root, &dir, &signature, f)?
    };
    append_line(&dir, f)?;
    Ok(Saved { dir, first })
}

/// Writes the signature's folder in a temporary folder and renames it to `dir`; false
/// when another process got there first.
fn write_first(
    root: &Path,
    dir: &Path,
    signature: &Signature,
    f: &FuzzFinding,
) -> std::io::Result<bool> {
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(root)?;
    let header = format!(
        "cargo fuzz finding {signature} (target {}, generator {})\n{}",
        f.target, f.generator, f.finding.detail
    );
    let text = test_file_text(&header, f.entry, &f.finding.expectations, f.module);
    write_atomically(&staging.path().join("input.ir"), text.as_bytes())?;
    write_atomically(&staging.path().join("input.bin"), f.data)?;
    let json = serde_json::to_vec_pretty(&record(f)).map_err(std::io::Error::other)?;
    write_atomically(&staging.path().join("finding.json"), &json)?;
    match std::fs::rename(staging.path(), dir) {
        Ok(()) => {
            // The folder is in place under its final name: nothing left to delete.
            let _ = staging.keep();
            Ok(true)
        }
        // Another process renamed its folder first (ENOTEMPTY / EEXIST): its copy stands,
        // ours is deleted with `staging`, and this input becomes a line.
        Err(_) if dir.is_dir() => Ok(false),
        Err(e) => Err(e),
    }
}

/// A hunt's finding record for a fuzz finding: no seed (the bytes are in `input.bin`).
fn record(f: &FuzzFinding) -> FindingRecord {
    let (target, regalloc, ptr_bytes) = crate::campaign::finding_context(&f.finding.signature, 8);
    FindingRecord {
        id: 0,
        signature: f.finding.signature.clone(),
        generator: f.generator.name().to_string(),
        seed: None,
        entry: f.entry.to_string(),
        args: f.finding.args.clone(),
        reference: f.finding.reference.as_ref().map(|r| r.to_string()),
        got: f.finding.got.as_ref().map(|r| r.to_string()),
        detail: f.finding.detail.clone(),
        mutants: compiler::mutants::active()
            .iter()
            .map(|m| m.name().to_string())
            .collect(),
        target,
        regalloc,
        ptr_bytes,
        found_at: unix_now(),
    }
}

/// Appends `TARGET HASH UNIX_TIME HEX_BYTES` to `dir/inputs.txt` in one write.
fn append_line(dir: &Path, f: &FuzzFinding) -> std::io::Result<()> {
    let mut line = format!(
        "{} {:016x} {} ",
        f.target,
        crate::findings::content_hash(f.data),
        unix_now()
    );
    for b in f.data {
        line.push_str(&format!("{b:02x}"));
    }
    line.push('\n');
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("inputs.txt"))?;
    file.write_all(line.as_bytes())?;
    file.sync_data()
}

/// The input bytes of every line of an `inputs.txt` (for tests and tools).
pub fn read_inputs(dir: &Path) -> std::io::Result<Vec<Vec<u8>>> {
    let text = std::fs::read_to_string(dir.join("inputs.txt"))?;
    let mut inputs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |what: &str| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}:{}: {what}", dir.join("inputs.txt").display(), n + 1),
            )
        };
        let hex = line
            .split(' ')
            .nth(3)
            .ok_or_else(|| bad("fewer than 4 fields"))?;
        if !hex.is_ascii() || hex.len() % 2 != 0 {
            return Err(bad("not an even number of hex digits"));
        }
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad("not hex")))
            .collect::<Result<Vec<u8>, _>>()?;
        inputs.push(bytes);
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_lines_read_back_and_bad_lines_name_their_place() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::write(
            dir.join("inputs.txt"),
            "ir_pipeline 00000000000000aa 1795619436 00ff10\nir_pipeline 1 2 \n",
        )
        .unwrap();
        // Hand-decoded: "00ff10" is [0, 255, 16]; an empty hex field is the empty input.
        assert_eq!(read_inputs(dir).unwrap(), [vec![0, 255, 16], vec![]]);
        for (bad, what) in [
            ("ir_pipeline 1 2\n", "inputs.txt:1: fewer than 4 fields"),
            ("ir_pipeline 1 2 0f0\n", "inputs.txt:1: not an even number"),
            (
                "ir_pipeline 1 2 00\nir_pipeline 1 2 zz\n",
                "inputs.txt:2: not hex",
            ),
            ("ir_pipeline 1 2 é0\n", "inputs.txt:1: not an even number"),
        ] {
            std::fs::write(dir.join("inputs.txt"), bad).unwrap();
            let e = read_inputs(dir).unwrap_err().to_string();
            assert!(e.contains(what), "{bad:?}: {e}");
        }
    }
}
