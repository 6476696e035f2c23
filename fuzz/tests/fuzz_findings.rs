//! Where a cargo-fuzz finding lands, on stable Rust: the `ir_pipeline` target's `check`
//! (the function `cargo fuzz run ir_pipeline` calls) with a seeded bug on and
//! `PHIHUNT_FUZZ_FINDINGS` pointing at a temporary folder. The finding must be on disk
//! in a hunt's layout before the target panics, one folder per signature however many
//! inputs (and threads) hit it, and `phihunt check` must replay it: failing with the bug
//! on, passing without it (the independent judge here is the oracle at every stage of the
//! replay, not the code that saved the file).
//!
//! One test function: the environment variables are process-wide and read once.

use phihunt::findings::FindingRecord;
use phihunt::fuzzers::findings::{read_inputs, FINDINGS_ENV};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A seeded bug the `cfg` generator shows as a miscompile (a wrong result, not a verifier
/// failure) within a few random inputs: 9 from this seed when written.
const BUG: &str = "simplify_srem_pow2_as_mask";
/// The seed of the random inputs (printed).
const SEED: u64 = 0x00f0_2201;
/// Inputs tried before the test gives up.
const MAX_TRIES: usize = 5_000;

/// True when `check` panicked, i.e. reported a finding.
fn finds(data: &[u8]) -> bool {
    catch_unwind(AssertUnwindSafe(|| {
        phihunt::fuzzers::ir_pipeline::check(data)
    }))
    .is_err()
}

/// The folders directly below `root` (staging folders included, so a leftover shows).
fn folders(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// `phihunt check FILE [--mutant BUG] --targets none`'s exit code.
fn replay(file: &Path, mutant: Option<&str>) -> i32 {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phihunt"));
    cmd.env_remove("PHIHUNT_MUTANT");
    if let Some(m) = mutant {
        cmd.args(["--mutant", m]);
    }
    let out = cmd
        .args(["check", "--targets", "none"])
        .arg(file)
        .output()
        .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
    out.status.code().unwrap()
}

#[test]
fn a_fuzz_finding_lands_in_phihunt_expects_deduplicated_and_replayable() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("findings");
    std::env::set_var(FINDINGS_ENV, &root);
    std::env::set_var("PHIHUNT_MUTANT", BUG);
    std::env::set_var("PHIHUNT_TARGETS", "none");

    eprintln!("random inputs from seed {SEED:#x}, bug {BUG}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut found = None;
    for tries in 1..=MAX_TRIES {
        let mut data = vec![0; rng.gen_range(0..4096)];
        rng.fill_bytes(&mut data);
        if finds(&data) {
            eprintln!("finding after {tries} inputs");
            found = Some(data);
            break;
        }
    }
    let data = found.unwrap_or_else(|| panic!("{BUG} not found in {MAX_TRIES} inputs"));

    // One folder, named by the bug signature, holding a hunt's files.
    let dirs = folders(&root);
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let dir = &dirs[0];
    let json = std::fs::read(dir.join("finding.json")).unwrap();
    let record: FindingRecord = serde_json::from_slice(&json).unwrap();
    assert_eq!(
        dir.file_name().unwrap().to_str().unwrap(),
        record.signature.bug().file_component()
    );
    assert!(
        record.signature.to_string().starts_with("mismatch@"),
        "a miscompile: {}",
        record.signature
    );
    assert_eq!(record.generator, "cfg");
    assert_eq!(record.mutants, [BUG]);
    assert_eq!(std::fs::read(dir.join("input.bin")).unwrap(), data);
    assert_eq!(read_inputs(dir).unwrap(), std::slice::from_ref(&data));
    let ir = std::fs::read_to_string(dir.join("input.ir")).unwrap();
    assert!(ir.contains("; run:"), "{ir}");

    // The same bug again, from this thread and from four at once: lines, not folders.
    assert!(finds(&data));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| finds(&data))).collect();
        for h in handles {
            assert!(h.join().unwrap(), "a thread's check did not report the bug");
        }
    });
    assert_eq!(
        folders(&root),
        dirs,
        "one folder per signature, no staging left"
    );
    assert_eq!(read_inputs(dir).unwrap(), vec![data.clone(); 6]);
    assert_eq!(
        std::fs::read_to_string(dir.join("input.ir")).unwrap(),
        ir,
        "the first input's program stays"
    );

    // phihunt replays it: a stage disagrees with the bug on, every stage agrees without.
    assert_eq!(replay(&dir.join("input.ir"), Some(BUG)), 1);
    assert_eq!(replay(&dir.join("input.ir"), None), 0);
}
