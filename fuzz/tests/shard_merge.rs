//! A sharded hunt as a team runs one: four `phihunt hunt --shard` processes (the real
//! binary, seeded bugs on, generated IR and generated C, the x86_64 native stage for one
//! program in three), two taking their index from Kubernetes' `JOB_COMPLETION_INDEX` and
//! two from Slurm's `SLURM_ARRAY_TASK_ID` (an array numbered from 1, `--shard-base 1`),
//! then `phihunt merge`, compared with one unsharded run of the same hunt.
//!
//! Checked, against the unsharded run as the independent reference:
//! - each shard ran exactly its programs (blocks `I, I+4, ...` of `2 generators × 3`
//!   programs below `--max-programs`) in its own folder `shard-I-of-4`, and the same
//!   command run again continues it (nothing rerun);
//! - the merged counts equal the unsharded run's: programs, verdicts, reasons, findings per
//!   signature and the stages they were seen at, the census (feature counts), pass
//!   changes, the native stage's programs and vectors (which programs get native stages is
//!   decided by the global index: a shard that used its own count would differ here);
//! - the findings are the same programs: the seeds of every stored finding (directories
//!   and seed lines) over the shards equal the unsharded run's; every shard's copy is
//!   listed and on disk, the merged `findings.jsonl` has every shard's lines;
//! - bad input is refused with exit 2 and a message: a missing shard (accepted with
//!   `--allow-missing`, and named), the same shard twice, a shard of another seed, a
//!   folder that is no hunt, and the auto index when the Slurm array contradicts the base.

use oracle::native::process::{run_limited, Termination};
use phihunt::campaign::keep::scan;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const SEED: &str = "11";
const PROGRAMS: u64 = 96;
const SHARDS: u64 = 4;
/// Generators × `--native-every`: the programs of one block.
const BLOCK: u64 = 2 * 3;
const MUTANTS: &str =
    "m2r_frontier_skips_loop_header,gvn_load_across_store,x86_i8_load_no_sign_extend";

/// `phihunt ARGS` with `env` set: (exit code, stdout, stderr).
fn phihunt(args: &[String], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phihunt"));
    cmd.args(args)
        .env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_MIN")
        .env_remove("SLURM_ARRAY_TASK_COUNT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let r = run_limited(&mut cmd, Duration::from_secs(300), 1 << 20).unwrap();
    let code = match r.termination {
        Termination::Exited(c) => c,
        other => panic!("phihunt {args:?} did not finish: {other:?}"),
    };
    (
        code,
        String::from_utf8_lossy(&r.stdout).into_owned(),
        String::from_utf8_lossy(&r.stderr).into_owned(),
    )
}

/// The hunt's arguments (without `--shard`), into `out`.
fn hunt_args(out: &Path, work: &Path) -> Vec<String> {
    let mut a: Vec<String> = [
        "--mutant", MUTANTS, "hunt", "--gen", "cfg,c", "--seed", SEED,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(
        [
            "--max-programs",
            &PROGRAMS.to_string(),
            "--jobs",
            "1",
            "--targets",
            "x86_64",
            "--native-every",
            "3",
            "--keep-per-signature",
            "2",
            "--reduce-time",
            "0s",
            "--time",
            "10m",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    a.push("--corpus-found".into());
    a.push(work.join("found").display().to_string());
    a.push("--out".into());
    a.push(out.display().to_string());
    a
}

fn summary(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

/// Seeds of every stored finding (directories and seed lines) below `dirs`.
fn finding_seeds(dirs: &[PathBuf]) -> Vec<u64> {
    let mut seeds: Vec<u64> = dirs
        .iter()
        .flat_map(|d| scan(d).unwrap())
        .map(|f| f.seed)
        .collect();
    seeds.sort_unstable();
    seeds
}

/// The counts a merge must sum exactly (not times, not paths).
fn counts(t: &Value) -> Value {
    let mut t = t.clone();
    let o = t.as_object_mut().unwrap();
    o.remove("front_end_panics");
    for tally in o["native"].as_object_mut().unwrap().values_mut() {
        let tally = tally.as_object_mut().unwrap();
        for timing in ["phicc_us", "build_us", "run_us"] {
            tally.remove(timing);
        }
    }
    t
}

/// `(signature, count, stages seen)` per finding row.
fn rows(s: &Value) -> Vec<(String, u64, String)> {
    s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                format!("{}@{}", f["signature"]["kind"], f["signature"]["stage"]),
                f["count"].as_u64().unwrap(),
                f["stages_seen"].to_string(),
            )
        })
        .collect()
}

fn merge(dirs: &[&Path], out: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut a = vec!["merge".to_string()];
    a.extend(dirs.iter().map(|d| d.display().to_string()));
    a.extend(extra.iter().map(|s| s.to_string()));
    a.push("--out".into());
    a.push(out.display().to_string());
    phihunt(&a, &[])
}

#[test]
fn four_shards_merged_equal_one_unsharded_hunt() {
    let work = tempfile::Builder::new()
        .prefix("phihunt-shards-")
        .tempdir()
        .unwrap();
    let w = work.path();
    let sharded = w.join("sharded");
    let whole = w.join("whole");
    // The shards and the reference run at once, as separate processes.
    let shard_env: Vec<Vec<(&str, String)>> = vec![
        vec![("JOB_COMPLETION_INDEX", "0".into())],
        vec![("JOB_COMPLETION_INDEX", "1".into())],
        // Slurm `--array=1-4`: task ids 3 and 4 are shards 2 and 3.
        vec![
            ("SLURM_ARRAY_TASK_ID", "3".into()),
            ("SLURM_ARRAY_TASK_MIN", "1".into()),
            ("SLURM_ARRAY_TASK_COUNT", "4".into()),
        ],
        vec![
            ("SLURM_ARRAY_TASK_ID", "4".into()),
            ("SLURM_ARRAY_TASK_MIN", "1".into()),
            ("SLURM_ARRAY_TASK_COUNT", "4".into()),
        ],
    ];
    let shard_args = |i: usize| {
        let mut a = hunt_args(&sharded, w);
        a.extend(["--shard".into(), format!("auto/{SHARDS}")]);
        if i >= 2 {
            a.extend(["--shard-base".into(), "1".into()]);
        }
        a
    };
    let results: Vec<(i32, String, String)> = std::thread::scope(|s| {
        let mut handles: Vec<_> = (0..SHARDS as usize)
            .map(|i| {
                let args = shard_args(i);
                let env = shard_env[i].clone();
                s.spawn(move || {
                    let env: Vec<(&str, &str)> =
                        env.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    phihunt(&args, &env)
                })
            })
            .collect();
        let whole_args = hunt_args(&whole, w);
        handles.push(s.spawn(move || phihunt(&whole_args, &[])));
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (code, stdout, stderr) in &results {
        assert_eq!(*code, 1, "the seeded bugs are found:\n{stdout}\n{stderr}");
    }

    // Each shard: its own folder, exactly its programs.
    let dirs: Vec<PathBuf> = (0..SHARDS)
        .map(|i| sharded.join(format!("shard-{i}-of-{SHARDS}")))
        .collect();
    for (i, d) in dirs.iter().enumerate() {
        let s = summary(d);
        let own = (0..PROGRAMS)
            .filter(|g| (g / BLOCK) % SHARDS == i as u64)
            .count() as u64;
        assert_eq!(s["totals"]["programs"], own, "{}", d.display());
        assert_eq!(s["shard"]["index"], i as u64);
        assert_eq!(s["shard"]["count"], SHARDS);
        let state: Value =
            serde_json::from_slice(&std::fs::read(d.join("state.json")).unwrap()).unwrap();
        assert_eq!(state["settings"]["shard"]["index"], i as u64);
    }
    // The same command again (a restarted pod): it continues, reruns nothing.
    let before = summary(&dirs[1]);
    let (code, stdout, stderr) = phihunt(&shard_args(1), &[("JOB_COMPLETION_INDEX", "1")]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(stdout.contains("continuing it"), "{stdout}");
    let after = summary(&dirs[1]);
    assert_eq!(counts(&after["totals"]), counts(&before["totals"]));
    let state: Value =
        serde_json::from_slice(&std::fs::read(dirs[1].join("state.json")).unwrap()).unwrap();
    assert_eq!(state["runs"], 2);

    // The merge (of the parent folder, which stands for its shard-* folders).
    let merged = w.join("merged");
    let (code, stdout, stderr) = merge(&[&sharded], &merged, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(stdout.contains("4 of 4 shards"), "{stdout}");
    let m = summary(&merged);
    let r = summary(&whole);
    assert_eq!(r["totals"]["programs"], PROGRAMS);
    assert_eq!(counts(&m["totals"]), counts(&r["totals"]));
    for (g, t) in r["per_generator"].as_object().unwrap() {
        assert_eq!(counts(&m["per_generator"][g]), counts(t), "generator {g}");
    }
    assert!(
        r["totals"]["native_programs"].as_u64().unwrap() > 0,
        "the native stage ran"
    );
    assert_eq!(rows(&m), rows(&r));
    assert!(rows(&r).len() >= 2, "several signatures: {:?}", rows(&r));
    assert_eq!(m["unique_findings"], r["unique_findings"]);
    assert_eq!(m["matrix"], r["matrix"]);
    assert_eq!(m["value_census"], r["value_census"]);
    assert_eq!(m["situation_census"], r["situation_census"]);
    assert_eq!(
        finding_seeds(&dirs),
        finding_seeds(std::slice::from_ref(&whole))
    );

    // Every shard's copies listed, and on disk; the journal has every shard's lines.
    let copies = m["merged"]["copies"].as_array().unwrap();
    assert_eq!(copies.len(), rows(&m).len());
    for (c, f) in copies.iter().zip(m["findings"].as_array().unwrap()) {
        let mut sum = 0;
        for s in c["shards"].as_array().unwrap() {
            sum += s["count"].as_u64().unwrap();
            let stored = s["directories"].as_array().unwrap();
            assert!(!stored.is_empty() && stored.len() <= 2, "{s}");
            for d in stored {
                assert!(Path::new(d.as_str().unwrap())
                    .join("finding.json")
                    .is_file());
            }
            if let Some(seeds) = s["seeds_file"].as_str() {
                assert!(Path::new(seeds).is_file(), "{seeds}");
            }
        }
        assert_eq!(sum, f["count"].as_u64().unwrap());
        assert!(Path::new(f["first"].as_str().unwrap()).is_dir(), "{f}");
    }
    let journal = std::fs::read_to_string(merged.join("findings.jsonl")).unwrap();
    let lines: Vec<Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len() as u64,
        r["totals"]["findings"].as_u64().unwrap()
    );
    let shards_seen: BTreeSet<u64> = lines.iter().map(|l| l["shard"].as_u64().unwrap()).collect();
    assert_eq!(shards_seen.len() as u64, SHARDS);
    for l in &lines {
        assert!(Path::new(l["path"].as_str().unwrap()).exists(), "{l}");
    }
    // The time series ends at every program and every signature, counters monotone.
    let samples = m["timeline"]["samples"].as_array().unwrap();
    let last = samples.last().unwrap();
    assert_eq!(last["programs"], PROGRAMS);
    assert_eq!(last["unique"], r["unique_findings"]);
    for w in samples.windows(2) {
        for k in ["t", "programs", "findings", "unique"] {
            assert!(
                w[0][k].as_f64() <= w[1][k].as_f64(),
                "{k}: {} then {}",
                w[0],
                w[1]
            );
        }
    }
    let md = std::fs::read_to_string(merged.join("report.md")).unwrap();
    assert!(md.starts_with("# phihunt merged hunt report"), "{md}");
    assert!(md.contains(&format!("| **all** | {PROGRAMS} |")), "{md}");

    // Bad input: refused, with a message that says why.
    let refused = |dirs: &[&Path], extra: &[&str], says: &str| {
        let out = tempfile::tempdir_in(w).unwrap();
        let (code, stdout, stderr) = merge(dirs, &out.path().join("m"), extra);
        assert_eq!(code, 2, "{stdout}\n{stderr}");
        assert!(stderr.contains(says), "expected `{says}` in: {stderr}");
    };
    let three: Vec<&Path> = dirs[..3].iter().map(|d| d.as_path()).collect();
    refused(&three, &[], "shards 3/4 are missing");
    let (code, stdout, _) = merge(&three, &w.join("partial"), &["--allow-missing"]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        summary(&w.join("partial"))["merged"]["missing"],
        serde_json::json!([3])
    );
    let copy = w.join("copy-of-0");
    copy_dir(&dirs[0], &copy);
    refused(&[&dirs[0], &copy], &[], "both shard 0/4");
    let state_file = copy.join("state.json");
    let text = std::fs::read_to_string(&state_file).unwrap();
    let other_seed = text.replacen("\"base_seed\": 11", "\"base_seed\": 12", 1);
    assert_ne!(text, other_seed);
    std::fs::write(&state_file, other_seed).unwrap();
    refused(&[&dirs[1], &copy], &[], "base seed (--seed)");
    refused(&[&dirs[0], &whole], &[], "shard count");
    let empty = w.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(&[&empty], &[], "not a hunt folder");
    // The Slurm array numbered from 1 without --shard-base: refused before hunting.
    let (code, _, stderr) = phihunt(
        &shard_args(0),
        &[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1")],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("--shard-base 1"), "{stderr}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}
