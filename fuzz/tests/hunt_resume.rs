//! A hunt that is SIGKILLed and resumed, as a user would run it: a real `phihunt hunt`
//! process with a seeded bug on (generated IR and generated C, the x86_64 native stage, so
//! that gcc and the assembler write temporary files), killed once it has saved findings,
//! then continued with `--resume`.
//!
//! Checked: the kill leaves nothing in the child's `TMPDIR` (a fresh directory of the
//! test's); every finding directory saved before the kill is still there and counted; no
//! signature has more than `--keep-per-signature` directories; the final summary counts
//! exactly the programs asked for; and the findings (by seed) are exactly those of the
//! same hunt run without interruption (an independent in-process run of the library's
//! hunt): none lost, none made twice, no program skipped.

mod common;
use common::workspace_root;
use compiler::mutants::Mutant;
use phihunt::campaign::generators::sources_for;
use phihunt::campaign::keep::scan;
use phihunt::campaign::source::ProgramSource;
use phihunt::campaign::state::HuntState;
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::diff::DiffConfig;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SEED: u64 = 5;
const PROGRAMS: u64 = 100;
const KEEP: u64 = 3;
const GENERATORS: &str = "cfg,c";
const MUTANT: Mutant = Mutant::GvnLoadAcrossStore;

fn hunt_command(tmp: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phihunt"));
    cmd.current_dir(workspace_root())
        .env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .env("TMPDIR", tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Seeds of every stored finding (directories and seed lines) under `out`.
fn finding_seeds(out: &Path) -> Vec<u64> {
    let mut seeds: Vec<u64> = scan(out).unwrap().iter().map(|f| f.seed).collect();
    seeds.sort_unstable();
    seeds
}

/// Finding directories (with their `finding.json`) per bug signature.
fn directories(out: &Path) -> BTreeMap<String, Vec<String>> {
    let mut dirs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in scan(out).unwrap() {
        if let Some(d) = f.dir {
            dirs.entry(f.signature.bug().to_string())
                .or_default()
                .push(d.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    dirs
}

fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_killed_hunt_resumes_without_losing_or_repeating_anything() {
    let tmp = tempfile::Builder::new()
        .prefix("phihunt-resume-tmp-")
        .tempdir()
        .unwrap();
    let work = tempfile::Builder::new()
        .prefix("phihunt-resume-")
        .tempdir()
        .unwrap();
    let out = work.path().join("hunt");
    let programs = PROGRAMS.to_string();
    let seed = SEED.to_string();
    let keep = KEEP.to_string();
    let found = work.path().join("found");
    let mut child = hunt_command(tmp.path())
        .args([
            "--mutant",
            MUTANT.name(),
            "hunt",
            "--gen",
            GENERATORS,
            "--seed",
            &seed,
            "--jobs",
            "2",
            "--targets",
            "x86_64",
            "--native-every",
            "4",
            "--reduce-time",
            "0s",
            "--time",
            "10m",
            "--max-programs",
            &programs,
            "--keep-per-signature",
            &keep,
            "--corpus-found",
            found.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();

    // Kill it once it has saved findings and written a state with some progress.
    let start = Instant::now();
    loop {
        let saved = directories(&out).values().map(Vec::len).sum::<usize>();
        let progress = HuntState::load(&out).map_or(0, |s| s.completed.len());
        if saved >= 2 && progress >= 8 {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the hunt ended ({status}) before it could be killed");
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no findings after 300 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = HuntState::load(&out).unwrap();
    assert!(!before.finished, "the hunt finished before the kill");
    assert!(before.completed.len() < PROGRAMS);

    // Nothing left in the child's temporary directory (its reaper cleans up after it).
    let start = Instant::now();
    while !entries(tmp.path()).is_empty() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        entries(tmp.path()),
        Vec::<String>::new(),
        "left in TMPDIR after SIGKILL"
    );
    let dirs_before = directories(&out);
    let seeds_before = finding_seeds(&out);

    let done = hunt_command(tmp.path())
        .args(["hunt", "--resume", out.to_str().unwrap(), "--jobs", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("resuming"), "{stdout}");
    assert_eq!(entries(tmp.path()), Vec::<String>::new(), "left in TMPDIR");

    // Every directory from before the kill is still there, and at most K per signature.
    let dirs_after = directories(&out);
    for (sig, dirs) in &dirs_before {
        for d in dirs {
            assert!(dirs_after[sig].contains(d), "{d} lost by the resume");
        }
    }
    for (sig, dirs) in &dirs_after {
        assert!(dirs.len() as u64 <= KEEP, "{sig}: {dirs:?}");
    }
    let seeds_after = finding_seeds(&out);
    let unique: BTreeSet<u64> = seeds_after.iter().copied().collect();
    assert_eq!(unique.len(), seeds_after.len(), "a program found twice");
    assert!(seeds_before.iter().all(|s| unique.contains(s)));

    // The summary counts every program once and every stored finding.
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["totals"]["programs"], PROGRAMS, "{summary}");
    assert_eq!(
        summary["totals"]["findings"],
        seeds_after.len() as u64,
        "{summary}"
    );
    let counted: u64 = summary["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["count"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, seeds_after.len() as u64, "{summary}");
    let after = HuntState::load(&out).unwrap();
    assert!(after.finished && after.runs == 2);
    assert_eq!(
        (after.completed.below, after.completed.above.len()),
        (PROGRAMS, 0)
    );

    // The same hunt without interruption finds the same programs.
    let reference = work.path().join("reference");
    let sources = sources_for(GENERATORS).unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let cfg = HuntConfig {
        native: phihunt::native::NativePlan::for_targets(&[compiler::target::Target::X86_64])
            .with_limits(phihunt::campaign::cli::hunt_native_limits()),
        native_every: 4,
        duration: Duration::from_secs(600),
        base_seed: SEED,
        jobs: 2,
        out_dir: reference.clone(),
        mutants: vec![MUTANT],
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(PROGRAMS),
        show_progress: false,
        keep_per_signature: KEEP,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
        cc: None,
    };
    let r = hunt(&refs, &cfg).unwrap();
    assert_eq!(r.totals.programs, PROGRAMS);
    assert_eq!(finding_seeds(&reference), seeds_after);
}
