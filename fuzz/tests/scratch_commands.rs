//! Every long command, not only `hunt`, keeps its temporary files in a scratch directory
//! that goes with the process however it ends (`campaign::scratch`): a SIGKILLed `bench
//! cgen`, `bench csmith`, `bench ub` or `reduce` leaves nothing in its `TMPDIR`.
//!
//! Each command runs with `TMPDIR` a fresh directory of the test's; once temporary files
//! of its own (gcc's, csmith's, the harness's) are seen below that directory, mid-run, it
//! is killed with SIGKILL — no drop handler runs — and the directory must be empty again
//! within a few seconds (the reaper's work).

mod common;

use common::workspace_root;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every file and directory below `dir` (relative names).
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            found.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    found
}

/// Runs `phihunt ARGS` with a fresh `TMPDIR`, kills it once it has temporary files
/// below its scratch directory, and checks that they all go.
fn killed_mid_run_leaves_nothing(args: &[&str]) {
    let tmp = tempfile::Builder::new()
        .prefix("phihunt-scratch-test-")
        .tempdir()
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_phihunt"))
        .args(args)
        .current_dir(workspace_root())
        .env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES")
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Mid-run: the scratch directory holds something of the command's (more than the
    // scratch directory itself).
    let start = Instant::now();
    loop {
        if tree(tmp.path()).len() >= 2 {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "`phihunt {}` ended ({status}) before it wrote a temporary file",
                args.join(" ")
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "`phihunt {}` wrote no temporary file in 60 s",
            args.join(" ")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let seen = tree(tmp.path());
    assert!(
        seen.iter().all(|p| p.starts_with("phihunt-hunt-")),
        "outside the scratch directory: {seen:?}"
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let killed = Instant::now();
    while !tree(tmp.path()).is_empty() && killed.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        tree(tmp.path()),
        Vec::<String>::new(),
        "left in TMPDIR by a SIGKILLed `phihunt {}` (seen before the kill: {seen:?})",
        args.join(" ")
    );
}

/// `phihunt ARGS --out DIR` with DIR a fresh directory (outside the child's `TMPDIR`).
fn bench(args: &[&str]) {
    let out = tempfile::tempdir().unwrap();
    let mut args = args.to_vec();
    args.extend(["--out", out.path().to_str().unwrap()]);
    killed_mid_run_leaves_nothing(&args);
}

#[test]
fn a_killed_bench_cgen_leaves_nothing_behind() {
    bench(&["bench", "cgen", "--count", "100000", "--jobs", "1"]);
}

#[test]
fn a_killed_bench_csmith_leaves_nothing_behind() {
    bench(&[
        "bench",
        "csmith",
        "--count",
        "1000",
        "--jobs",
        "1",
        "--targets",
        "none",
    ]);
}

#[test]
fn a_killed_bench_ub_leaves_nothing_behind() {
    bench(&["bench", "ub", "--count", "1000"]);
}

#[test]
fn a_killed_reduce_leaves_nothing_behind() {
    // -8 >> 28 is -1: the seeded bug makes it 15 at a middle-end stage, and the reducer
    // judges every candidate with gcc (temporary files) for a minute.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shift.c");
    std::fs::write(
        &file,
        "#include <stdio.h>\nint main(int argc, char **argv) { int x = -8 * argc; \
         int y = x + 1; int z = y * 3; printf(\"%d %d %d\\n\", x >> 28, y, z); return 0; }\n",
    )
    .unwrap();
    let out = dir.path().join("shift.reduced.c");
    killed_mid_run_leaves_nothing(&[
        "--mutant",
        "simplify_ashr_as_lshr",
        "reduce",
        file.to_str().unwrap(),
        "--targets",
        "none",
        "--time",
        "60s",
        "-o",
        out.to_str().unwrap(),
    ]);
}
