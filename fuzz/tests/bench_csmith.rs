//! `phihunt bench csmith` as a user runs it. A fake `csmith` (a shell script first in
//! PATH) prints a fixed program per seed, so every classification is exercised quickly
//! and deterministically: matched, mismatched (with a seeded middle-end bug), reference
//! timeout, unsupported (front-end error), csmith failure, and oracle invalid (an
//! external the oracle does not have), a reference timeout probed in the oracle (runs
//! on; finishes and the long rerun finishes; finishes and the long rerun does not: a
//! suspect). The bench runs on the campaign engine, so what it saves is the engine's
//! layout (`findings/`, `discards/csmith-K/`, `findings.jsonl`) plus `info.txt`. One test
//! runs the real csmith (installed by scripts/setup.sh).

mod common;
use common::workspace_root;
use std::path::Path;
use std::process::Command;

/// A fresh directory, removed when the returned guard is dropped.
fn fresh_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("phihunt-bcs-{tag}-"))
        .tempdir()
        .unwrap()
}

/// A `csmith` that prints, for `--seed K`, program K (exits 1 for unknown seeds and for
/// seed 5), in a
/// directory of its own per `tag` (tests run in parallel).
fn fake_csmith(tag: &str) -> tempfile::TempDir {
    let guard = fresh_dir(&format!("bin-{tag}"));
    let dir = guard.path();
    let programs = [
        // 1: agrees with gcc everywhere.
        "#include <stdio.h>\nint main(void) { unsigned c = 0; for (int i = 0; i < 42; i++) c++; printf(\"checksum = %X\\n\", c); return 0; }\n",
        // 2: -8 >> 28 is -1 (arithmetic shift): wrong with the seeded ashr-as-lshr bug.
        "#include <stdio.h>\nint main(int argc, char **argv) { int x = -8 * argc; printf(\"%d\\n\", x >> 28); return 0; }\n",
        // 3: never ends.
        "int main(void) { for (;;) {} }\n",
        // 4: gcc takes it, phicc's front end does not (`long double`).
        "int main(void) { long double x = 0; return (int)x; }\n",
        // 5: none (csmith fails).
        "",
        // 6: ends, but only after 20,000,000 iterations: 20-60 ms natively at -O0, far
        // past a 1 ms reference limit on any machine; 15 oracle steps an iteration in `lowered`.
        "#include <stdio.h>\nint main(void) { unsigned long c = 0; for (unsigned long i = 0; i < 20000000; i++) c += i ^ (c >> 3); printf(\"checksum = %lX\\n\", c); return 0; }\n",
        // 7: gcc links getppid from libc; the oracle has no such external.
        "#include <stdio.h>\nint getppid(void);\nint main(void) { printf(\"%d\\n\", getppid() > 0); return 0; }\n",
    ];
    let mut script = String::from("#!/bin/sh\n# fake csmith for phihunt tests\ncase \"$2\" in\n");
    for (i, p) in programs.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
        std::fs::write(dir.join(format!("p{}.c", i + 1)), p).unwrap();
        script.push_str(&format!(
            "  {}) cat '{}' ;;\n",
            i + 1,
            dir.join(format!("p{}.c", i + 1)).display()
        ));
    }
    script.push_str("  *) echo 'no such seed' >&2; exit 1 ;;\nesac\n");
    let path = dir.join("csmith");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    guard
}

/// Runs `phihunt ARGS` (`bench csmith ...`); without `--targets` in ARGS, with
/// `--targets none`: only the test of a real csmith program runs the native stages.
fn bench(args: &[&str], fake: Option<&Path>) -> (i32, String, String) {
    let mut args: Vec<&str> = args.to_vec();
    if !args.contains(&"--targets") {
        let after = args
            .iter()
            .position(|a| *a == "csmith")
            .map_or(args.len(), |i| i + 1);
        args.splice(after..after, ["--targets", "none"]);
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phihunt"));
    cmd.args(args)
        .current_dir(workspace_root())
        .env_remove("PHIHUNT_MUTANT")
        .env_remove("PHIHUNT_DISABLE_PASSES");
    if let Some(dir) = fake {
        let path = std::env::var("PATH").unwrap_or_default();
        cmd.env("PATH", format!("{}:{path}", dir.display()));
    }
    let out = cmd.output().expect("run phihunt");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The directories the engine saved findings in (`findings.jsonl`, one JSON object a line).
fn saved_findings(out_dir: &Path) -> Vec<std::path::PathBuf> {
    let journal = std::fs::read_to_string(out_dir.join("findings.jsonl")).unwrap();
    journal
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            std::path::PathBuf::from(v["path"].as_str().unwrap())
        })
        .collect()
}

/// What the bench kept besides its reports: the `findings` and `discards` folders' entries.
fn kept(out_dir: &Path) -> Vec<String> {
    let mut kept = Vec::new();
    for folder in ["findings", "discards", "generator-bugs", "harness-panics"] {
        if let Ok(entries) = std::fs::read_dir(out_dir.join(folder)) {
            for e in entries {
                kept.push(format!(
                    "{folder}/{}",
                    e.unwrap().file_name().to_string_lossy()
                ));
            }
        }
    }
    kept.sort();
    kept
}

fn count(out: &str, label: &str) -> usize {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{out}"));
    line.split_whitespace().last().unwrap().parse().unwrap()
}

#[test]
fn every_classification_is_counted() {
    let fake = fake_csmith("all");
    let out_dir_tmp = fresh_dir("all");
    let out_dir = out_dir_tmp.path().to_path_buf();
    // Program 4 is a known unsupported one: in the baseline, so it does not fail the run.
    let baseline = out_dir_tmp.path().join("baseline.txt");
    std::fs::write(&baseline, "# test\n4 | - | long double\n").unwrap();
    let (code, out, err) = bench(
        &[
            "bench",
            "csmith",
            "--baseline",
            baseline.to_str().unwrap(),
            "--count",
            "5",
            "--seed-start",
            "1",
            "--jobs",
            "2",
            "--ref-timeout",
            "300ms",
            "--probe-fuel",
            "1000000",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        Some(fake.path()),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(count(&out, "matched gcc at every stage"), 2, "{out}");
    assert_eq!(count(&out, "MISMATCHED"), 0, "{out}");
    assert_eq!(count(&out, "reference timeouts"), 1, "{out}");
    // The endless loop ran on in the oracle too.
    assert_eq!(
        count(&out, "of which lowered ran on past the probe"),
        1,
        "{out}"
    );
    assert!(
        out.contains("seed 3: reference timeout (lowered also ran on past 1000000 steps)"),
        "{out}"
    );
    assert_eq!(count(&out, "SUSPECT"), 0, "{out}");
    assert_eq!(count(&out, "unsupported (front-end error)"), 1, "{out}");
    assert!(
        out.contains("no new unsupported program (1 known)"),
        "{out}"
    );
    assert_eq!(count(&out, "csmith failed"), 1, "{out}");
    // Seeds 1, 2 and 3 pass the front end (3 loops only when run).
    assert_eq!(count(&out, "compiled (front end accepted)"), 3, "{out}");
    assert!(out.contains("seed 4: "), "{out}");
    assert!(out.contains("'long double' is not supported"), "{out}");
    // Front-end errors name the program `csmith-K.c`, not a temporary path.
    assert!(out.contains("seed 4: csmith-4.c:1:"), "{out}");
    assert!(out.contains("gcc -O0 -w -S"), "{out}");
    assert!(out.contains("gcc -O0"), "{out}");
    assert!(
        out.contains("\n2 matched, 0 mismatched, 1 unsupported, 1 reference timeouts\n"),
        "{out}"
    );
    assert_eq!(kept(&out_dir), Vec::<String>::new(), "nothing to save");
    assert!(saved_findings(&out_dir).is_empty());
    // The engine's reports are there.
    assert!(out_dir.join("report.md").is_file());
}

#[test]
fn a_mismatch_is_saved_and_exits_1() {
    let fake = fake_csmith("mismatch");
    let out_dir_tmp = fresh_dir("mismatch");
    let out_dir = out_dir_tmp.path().to_path_buf();
    let (code, out, err) = bench(
        &[
            "--mutant",
            "simplify_ashr_as_lshr",
            "bench",
            "csmith",
            "--count",
            "1",
            "--seed-start",
            "2",
            "--jobs",
            "1",
            "--out",
            out_dir.to_str().unwrap(),
            "--",
            "--some-csmith-option",
        ],
        Some(fake.path()),
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(count(&out, "MISMATCHED"), 1, "{out}");
    let found = saved_findings(&out_dir);
    assert_eq!(found.len(), 1, "{out}");
    let saved = &found[0];
    assert!(
        out.contains(&format!("(saved to {})", saved.display())),
        "{out}"
    );
    let program = std::fs::read_to_string(saved.join("program.c")).unwrap();
    assert!(program.contains("x >> 28"), "{program}");
    let info = std::fs::read_to_string(saved.join("info.txt")).unwrap();
    assert!(info.contains("seed: 2"), "{info}");
    assert!(
        info.contains("csmith options: --some-csmith-option"),
        "{info}"
    );
    assert!(
        info.contains("reference (gcc -O0): exit 0, stdout \"-1\\n\""),
        "{info}"
    );
    assert!(info.contains("MISMATCH at "), "{info}");
    // The engine's own record of the finding names the seed and generator.
    let record = std::fs::read_to_string(saved.join("finding.json")).unwrap();
    assert!(record.contains("\"csmith\""), "{record}");
}

#[test]
fn an_oracle_invalid_seed_is_saved_and_is_no_mismatch() {
    // Program 7 calls getppid: gcc's binary prints "1\n" and exits 0 (-O0 and -O2 alike),
    // but the oracle has no such external, so `lowered` cannot run: oracle invalid, not a
    // verdict, and kept for a human (csmith's real programs call only what the oracle has).
    let fake = fake_csmith("oracle-invalid");
    let out_dir_tmp = fresh_dir("oracle-invalid");
    let out_dir = out_dir_tmp.path().to_path_buf();
    let (code, out, err) = bench(
        &[
            "bench",
            "csmith",
            "--count",
            "1",
            "--seed-start",
            "7",
            "--jobs",
            "1",
            "--out",
            out_dir.to_str().unwrap(),
            "--",
            "--some-csmith-option",
        ],
        Some(fake.path()),
    );
    assert_eq!(code, 0, "oracle invalid is not a mismatch:\n{out}{err}");
    assert_eq!(count(&out, "oracle invalid"), 1, "{out}");
    assert_eq!(count(&out, "matched gcc at every stage"), 0, "{out}");
    assert_eq!(count(&out, "MISMATCHED"), 0, "{out}");
    let saved = out_dir.join("discards").join("csmith-7");
    assert!(
        out.contains("seed 7: oracle invalid: ")
            && out.contains(&format!("(saved to {})", saved.display())),
        "{out}"
    );
    assert_eq!(kept(&out_dir), ["discards/csmith-7"]);
    let program = std::fs::read_to_string(saved.join("program.c")).unwrap();
    assert!(program.contains("getppid() > 0"), "{program}");
    let info = std::fs::read_to_string(saved.join("info.txt")).unwrap();
    assert!(info.contains("seed: 7\n"), "{info}");
    assert!(
        info.contains("csmith --seed 7 --some-csmith-option"),
        "{info}"
    );
    assert!(info.contains("oracle invalid"), "{info}");
    assert!(info.contains("getppid"), "{info}");
    assert!(
        info.contains("reference (gcc -O0): exit 0, stdout \"1\\n\""),
        "{info}"
    );
}

#[test]
fn a_real_csmith_program_matches_gcc() {
    let installed = std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .any(|d| Path::new(d).join("csmith").is_file());
    assert!(
        installed,
        "csmith is not on PATH: run scripts/setup.sh (it installs Debian's csmith)"
    );
    let out_dir_tmp = fresh_dir("real");
    let out_dir = out_dir_tmp.path().to_path_buf();
    // Seed 5 with csmith 2.3 is a small program.
    let (code, out, err) = bench(
        &[
            "bench",
            "csmith",
            "--count",
            "1",
            "--seed-start",
            "5",
            "--jobs",
            "1",
            "--targets",
            "x86_64,i686",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        None,
    );
    assert!(code == 0, "{out}{err}");
    assert!(out.contains("csmith summary (1 programs"), "{out}");
    assert_eq!(count(&out, "csmith failed"), 0, "{out}");
    assert_eq!(count(&out, "matched gcc at every stage"), 1, "{out}");
    // ... and natively: phicc's binary against gcc -O0's on each target.
    for stage in ["native:x86_64", "native:x86_64/stack", "native:i686"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{stage} ")))
            .unwrap_or_else(|| panic!("no {stage} line in:\n{out}"));
        assert!(
            line.contains("matched     1  FAILED 0  no verdict 0"),
            "{line}\n{out}"
        );
    }
}

/// Program 6 with a 1 ms reference limit: gcc's binary times out, the oracle's `lowered`
/// finishes within the probe's fuel, so the binary runs again with the long limit.
fn probe_program_6(tag: &str, long_limit: &str) -> (i32, String, String, tempfile::TempDir) {
    let fake = fake_csmith(tag);
    let out_dir_tmp = fresh_dir(tag);
    let out_dir = out_dir_tmp.path().to_path_buf();
    let (code, out, err) = bench(
        &[
            "bench",
            "csmith",
            "--count",
            "1",
            "--seed-start",
            "6",
            "--jobs",
            "1",
            "--ref-timeout",
            "1ms",
            "--probe-fuel",
            "1000000000",
            "--long-ref-timeout",
            long_limit,
            "--out",
            out_dir.to_str().unwrap(),
        ],
        Some(fake.path()),
    );
    (code, out, err, out_dir_tmp)
}

#[test]
fn a_timeout_whose_long_rerun_finishes_is_judged_against_it() {
    let (code, out, err, out_dir) = probe_program_6("long-ok", "30s");
    let out_dir = out_dir.path();
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(count(&out, "matched gcc at every stage"), 1, "{out}");
    assert_eq!(count(&out, "reference timeouts"), 0, "{out}");
    assert_eq!(count(&out, "SUSPECT"), 0, "{out}");
    assert_eq!(kept(out_dir), Vec::<String>::new(), "{out}");
}

#[test]
fn a_timeout_the_oracle_finishes_but_gcc_never_does_is_a_saved_suspect() {
    // The long limit is as short as the first: the binary runs on past it again, while
    // `lowered` finished (20,000,000 iterations fit in 1e9 steps).
    let (code, out, err, out_dir) = probe_program_6("suspect", "1ms");
    let out_dir = out_dir.path();
    assert_eq!(code, 1, "a suspect exits 1: {out}{err}");
    assert_eq!(count(&out, "SUSPECT"), 1, "{out}");
    assert_eq!(count(&out, "MISMATCHED"), 0, "{out}");
    assert_eq!(count(&out, "matched gcc at every stage"), 0, "{out}");
    let dir = out_dir.join("discards").join("csmith-6");
    assert!(
        out.contains(&format!("(saved to {})", dir.display())),
        "{out}"
    );
    let program = std::fs::read_to_string(dir.join("program.c")).unwrap();
    assert!(program.contains("i < 20000000"), "{program}");
    let info = std::fs::read_to_string(dir.join("info.txt")).unwrap();
    assert!(info.contains("seed: 6"), "{info}");
    // What the oracle's lowered stage did: returned 0 after printing the checksum.
    assert!(info.contains("lowered stage finished in"), "{info}");
    assert!(info.contains("checksum = "), "{info}");
    assert!(
        info.contains("reference (gcc -O0): reference timeout"),
        "{info}"
    );
}
