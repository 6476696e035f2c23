//! Replays `corpus/c` with `phihunt check` semantics: every file is compiled by phicc's
//! front end, run at every pipeline stage in the oracle and compared with the host
//! `gcc -O0` build (status and stdout). The files' expected values are written from the
//! C standard inside the files (`ASSERT`), so gcc's build passing them is checked too.
//!
//! Fails until the C front end (issue 5) lands; the failure lists every failing file
//! with its first error.

use phihunt::check::{check_c_file, CheckSettings, CheckSummary};
use std::path::Path;

#[test]
fn corpus_c_agrees_with_gcc_at_every_stage() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/c");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus/c")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "corpus/c has only {} files", files.len());
    let settings = CheckSettings::default();
    let mut failures = Vec::new();
    let mut cells = 0;
    for f in &files {
        let mut out = String::new();
        let mut summary = CheckSummary::default();
        check_c_file(f, &settings, &mut out, &mut summary);
        cells += summary.passed;
        if summary.failed > 0 || summary.invalid > 0 || summary.passed == 0 {
            let first = out
                .lines()
                .find(|l| l.contains("error:") || l.contains('✗') || l.starts_with("note:"))
                .unwrap_or("no result line")
                .to_string();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            failures.push(format!("{name}: {first}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus/c files fail:\n  {}",
        failures.len(),
        files.len(),
        failures.join("\n  ")
    );
    // Every file is checked at lowered, mem2reg, inline, ..., phi_elim.
    assert!(cells >= 3 * files.len(), "only {cells} stage cells passed");
}
