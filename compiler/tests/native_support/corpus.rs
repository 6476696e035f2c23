//! `corpus/c` (and csmith's programs) compiled by phicc for a target must run exactly like
//! gcc -O0's build of the same file: the same exit status and the same stdout bytes,
//! with both register allocators.
//!
//! Why: the corpus files check themselves (ASSERT lines on stdout, exit status 1 on a
//! wrong value), but only a run on the target shows that phicc's assembly behaves as
//! gcc's does, libc calls included.
//!
//! Invariants: gcc's reference must build and finish (a reference that times out is a
//! problem, never a match of two timeouts); every difference is listed before the test
//! fails.

use super::phicc::{assemble, c_module};
use super::process::{assert_no_problems, on_two_threads};
use super::toolchain::{
    gcc, require_toolchain, run_binary_for, Outcome, COMPILE_TIMEOUT, RUN_TIMEOUT,
};
use compiler::backend::{RegallocMode, Target};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The files with extension `ext` directly in `corpus/<sub>`, sorted.
pub fn corpus_files(sub: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// Where two stdouts first differ: `at line N` or `at the end`.
fn first_difference(mine: &[u8], reference: &[u8]) -> String {
    mine.split(|b| *b == b'\n')
        .zip(reference.split(|b| *b == b'\n'))
        .position(|(a, b)| a != b)
        .map_or(String::from("at the end"), |i| format!("at line {}", i + 1))
}

/// Compares phicc's binaries of the C file `file` for `target` (both allocators) with
/// gcc -O0's (`include_dirs` searched by both, programs run for at most `run_limit`);
/// the differences, described.
pub fn check_c_file(
    target: Target,
    file: &Path,
    include_dirs: &[&Path],
    run_limit: Duration,
) -> Vec<String> {
    let name = file.display().to_string();
    let dir = match tempfile::Builder::new()
        .prefix(&format!("native_{}_", target.name()))
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => return vec![format!("{name}: temporary directory: {e}")],
    };
    let dir = dir.path();
    let mut flags = vec!["-O0", "-w"];
    for d in include_dirs {
        flags.push("-I");
        flags.push(d.to_str().expect("include directory is UTF-8"));
    }
    let reference_exe = dir.join("gcc.out");
    if let Err(e) = gcc(target, &flags, &[file], &reference_exe) {
        return vec![format!("{name}: the gcc reference does not build: {e}")];
    }
    let reference = match run_binary_for(target, &reference_exe, dir, &[], run_limit) {
        Ok(r) if r.status == "timeout" => {
            return vec![format!("{name}: the gcc reference timed out")]
        }
        Ok(r) => r,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let module = match c_module(target, file, include_dirs) {
        Ok(m) => m,
        Err(e) => return vec![format!("{name}: phicc: {e}")],
    };
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let tag = format!("{name}: {} [{}]", target.name(), mode.name());
        let asm = dir.join(format!("{}.s", mode.name()));
        let exe = dir.join(format!("{}.out", mode.name()));
        let text = match assemble(&module, target, mode) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{tag}: backend: {e}"));
                continue;
            }
        };
        if let Err(e) = std::fs::write(&asm, text) {
            problems.push(format!("{tag}: {e}"));
            continue;
        }
        if let Err(e) = gcc(target, &[], &[&asm], &exe) {
            problems.push(format!("{tag}: the assembly does not link: {e}"));
            continue;
        }
        let mine: Outcome = match run_binary_for(target, &exe, dir, &[], run_limit) {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{tag}: {e}"));
                continue;
            }
        };
        if mine.status != reference.status
            || !super::c_stdout::same_c_stdout(&mine.stdout, &reference.stdout)
        {
            problems.push(format!(
                "{tag}: exit {} vs gcc's {}; stdout differs {}: {:?}\n  gcc's {:?}",
                mine.status,
                reference.status,
                first_difference(&mine.stdout, &reference.stdout),
                String::from_utf8_lossy(&mine.stdout),
                String::from_utf8_lossy(&reference.stdout)
            ));
        }
    }
    problems
}

/// Every `corpus/c` program, compiled by phicc for `target` with both allocators, runs
/// like gcc -O0's binary of it.
pub fn corpus_c_runs_like_gcc(target: Target) {
    require_toolchain(target);
    let files = corpus_files("c", "c");
    assert!(files.len() >= 25, "corpus/c has only {} files", files.len());
    let count = files.len();
    let mut problems = on_two_threads(files, |file| check_c_file(target, &file, &[], RUN_TIMEOUT));
    problems.sort();
    assert_no_problems(
        &problems,
        &format!(
            "of {} corpus runs on {} differ from gcc -O0",
            2 * count,
            target.name()
        ),
    );
}

/// csmith's programs of `seeds` (which include `csmith.h`), compiled by phicc for
/// `target`, run like gcc -O0's binaries.
pub fn csmith_programs_run_like_gcc(target: Target, seeds: &[u64]) {
    require_toolchain(target);
    let csmith_found =
        super::gcc_cross::run_limited(Command::new("csmith").arg("--version"), COMPILE_TIMEOUT);
    assert!(
        csmith_found.is_ok_and(|f| f.status == "0"),
        "csmith not found: run scripts/setup.sh"
    );
    let include = Path::new("/usr/include/csmith");
    let problems = on_two_threads(seeds.to_vec(), |seed| {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => return vec![e.to_string()],
        };
        let file = dir.path().join(format!("csmith{seed}.c"));
        let mut cmd = Command::new("csmith");
        cmd.args(["--seed", &seed.to_string(), "-o"])
            .arg(&file)
            .current_dir(dir.path());
        match super::gcc_cross::run_limited(&mut cmd, COMPILE_TIMEOUT) {
            Ok(o) if o.status == "0" => {}
            other => return vec![format!("csmith --seed {seed}: {other:?}")],
        }
        check_c_file(target, &file, &[include], Duration::from_secs(20))
            .into_iter()
            .map(|p| format!("seed {seed}: {p}"))
            .collect()
    });
    assert_no_problems(
        &problems,
        &format!("csmith runs on {} differ from gcc -O0", target.name()),
    );
}
