//! The scheduler recipes of `deploy/` map each scheduler's job index to the right shard.
//!
//! The offline validators (yamllint, kubernetes-validate's schemas, shellcheck,
//! hadolint: `deploy/check.sh`) say the files are well-formed; this test says they do
//! what they are for, with the real binary:
//! - the Kubernetes Indexed Job: `completionMode: Indexed`, `completions` = `parallelism`
//!   = the SHARDS its script uses in `--shard auto/$SHARDS`; its container's script, run
//!   by `sh -c` with the manifest's environment and `JOB_COMPLETION_INDEX` =
//!   0..completions-1, makes exactly the folders `shard-0-of-N` .. `shard-(N-1)-of-N`,
//!   each holding its own shard, and the merge job's script joins them;
//! - the Slurm script: its `#SBATCH --array` has SHARDS ids from the `--shard-base` it
//!   passes; run by bash as `sbatch` would, once per array id (with the variables Slurm
//!   sets), it makes every shard once, and `merge.sh` joins them into one report.
//!
//! The hunts are empty (`--max-programs 0`): what is checked is the mapping, not hunting.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn deploy(file: &str) -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("deploy")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

/// The value of the first `key: value` line (indentation ignored), unquoted.
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no `{key}:` in the manifest"))
        .trim()
        .trim_matches('"')
}

/// The container's shell script: the folded scalar (`- >-`) under `args:`, its lines
/// joined by spaces as YAML folds them.
fn script(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| l.trim() != "args:");
    lines.next().expect("no `args:`");
    let head = lines.next().expect("an item under `args:`");
    assert_eq!(head.trim(), "- >-", "the script is one folded scalar");
    let indent = head.len() - head.trim_start().len();
    lines
        .take_while(|l| l.len() - l.trim_start().len() > indent)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The container's `env:` entries (`- name: X` then `value: "Y"`).
fn env_values(text: &str) -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    let mut name = None;
    for l in text.lines().map(str::trim) {
        if let Some(n) = l.strip_prefix("- name: ") {
            name = Some(n.to_string());
        } else if let (Some(v), Some(n)) = (l.strip_prefix("value: "), name.take()) {
            env.insert(n, v.trim_matches('"').to_string());
        }
    }
    env
}

/// `PATH` with the test's `phihunt` first, as the image has it on its `PATH`.
fn path_with_phihunt() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_phihunt")).parent().unwrap();
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

fn shard_of(dir: &Path) -> (u64, u64) {
    let state: Value =
        serde_json::from_slice(&std::fs::read(dir.join("state.json")).unwrap()).unwrap();
    let s = &state["settings"]["shard"];
    (s["index"].as_u64().unwrap(), s["count"].as_u64().unwrap())
}

fn folders(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("shard-"))
        .collect();
    names.sort();
    names
}

fn clean(cmd: &mut Command) -> &mut Command {
    for v in [
        "PHIHUNT_MUTANT",
        "PHIHUNT_DISABLE_PASSES",
        "JOB_COMPLETION_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
    ] {
        cmd.env_remove(v);
    }
    cmd
}

#[test]
fn the_kubernetes_indexed_job_gives_each_pod_its_shard() {
    let (_, job) = deploy("kubernetes/hunt-job.yaml");
    assert_eq!(field(&job, "completionMode"), "Indexed");
    let completions: u64 = field(&job, "completions").parse().unwrap();
    assert_eq!(field(&job, "parallelism"), completions.to_string());
    let env = env_values(&job);
    assert_eq!(env["SHARDS"], completions.to_string());
    assert_eq!(field(&job, "command"), r#"["sh", "-c"]"#);
    let script = script(&job);
    assert!(script.contains(r#"--shard "auto/$SHARDS""#), "{script}");
    let (_, merge_job) = deploy("kubernetes/merge-job.yaml");
    let merge_script = self::script(&merge_job);

    let work = tempfile::tempdir().unwrap();
    let results = work.path().join("results");
    // The pod's volume is mounted at /results: here, a directory of the test's; the hunt
    // is empty (the mapping is under test, not hunting).
    let local = |s: &str| {
        s.replace("/results", &results.display().to_string())
            .replacen("phihunt hunt ", "phihunt hunt --max-programs 0 ", 1)
    };
    for index in 0..completions {
        let mut cmd = Command::new("sh");
        clean(&mut cmd)
            .arg("-c")
            .arg(local(&script))
            .envs(&env)
            .env("PATH", path_with_phihunt())
            .env("JOB_COMPLETION_INDEX", index.to_string());
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let hunt = results.join(&env["HUNT_ID"]);
    let names = folders(&hunt);
    assert_eq!(names.len() as u64, completions, "{names:?}");
    for (i, name) in names.iter().enumerate() {
        assert_eq!(shard_of(&hunt.join(name)), (i as u64, completions));
    }
    // The merge job, with the merge job's own HUNT_ID (it must name the same hunt).
    let merge_env = env_values(&merge_job);
    assert_eq!(merge_env["HUNT_ID"], env["HUNT_ID"]);
    let mut cmd = Command::new("sh");
    let out = clean(&mut cmd)
        .arg("-c")
        .arg(local(&merge_script))
        .envs(&merge_env)
        .env("PATH", path_with_phihunt())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(hunt.join("merged/report.html").is_file());
}

#[test]
fn the_slurm_array_gives_each_task_its_shard_and_the_merge_joins_them() {
    let (script, text) = deploy("slurm/hunt-array.sh");
    let (merge_script, _) = deploy("slurm/merge.sh");
    let array = text
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .expect("#SBATCH --array");
    let (first, last) = array.split_once('-').unwrap();
    let (first, last): (u64, u64) = (first.parse().unwrap(), last.parse().unwrap());
    let shards: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("SHARDS=${SHARDS:-"))
        .and_then(|v| v.strip_suffix('}'))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(last - first + 1, shards, "the array has SHARDS tasks");
    assert!(
        text.contains(&format!("--shard-base {first}")),
        "the base is the array's first id"
    );
    assert!(text.contains("--shard \"auto/$SHARDS\""));

    let work = tempfile::tempdir().unwrap();
    let settings = [
        ("PHIHUNT", env!("CARGO_BIN_EXE_phihunt").to_string()),
        ("RESULTS", work.path().display().to_string()),
        ("HUNT_ID", "array".to_string()),
        ("HUNT_SEED", "5".to_string()),
        ("HUNT_TIME", "10s".to_string()),
        ("TARGETS", "none".to_string()),
        ("HUNT_ARGS", "--max-programs 0".to_string()),
    ];
    for id in first..=last {
        let mut cmd = Command::new("bash");
        clean(&mut cmd).arg(&script).envs(settings.iter().cloned());
        let out = cmd
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", first.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", shards.to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let hunt = work.path().join("array");
    let names = folders(&hunt);
    assert_eq!(names.len() as u64, shards, "{names:?}");
    for (i, name) in names.iter().enumerate() {
        assert_eq!(shard_of(&hunt.join(name)), (i as u64, shards));
    }
    let mut cmd = Command::new("bash");
    let out = clean(&mut cmd)
        .arg(&merge_script)
        .envs(settings.iter().cloned())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value =
        serde_json::from_slice(&std::fs::read(hunt.join("merged/summary.json")).unwrap()).unwrap();
    assert_eq!(
        merged["merged"]["shards"].as_array().unwrap().len() as u64,
        shards
    );
    assert_eq!(merged["merged"]["missing"], serde_json::json!([]));
}
