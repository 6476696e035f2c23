//! The i686 backend against gcc on the C corpus: every `corpus/c` file is compiled by
//! phicc's library for i686 (front end told the target, the whole pipeline, then
//! `backend::compile_module` with each register allocator), linked `-static` with
//! `i686-linux-gnu-gcc`, run under `qemu-i386`, and its exit status and stdout compared
//! with the `i686-linux-gnu-gcc -O0 -w -static` build of the same file.
//!
//! Why: the corpus files check themselves (`ASSERT`), but only a run on the target shows
//! that the assembly phicc writes for a 32-bit machine — 64-bit values in register pairs,
//! byte registers, the i386 calling convention with libc — behaves as gcc's does.
//!
//! Invariants: a missing cross gcc or qemu fails the test with the way to install them
//! (`scripts/setup.sh`), never a skip; every child process runs under a time limit in a
//! `tempfile` directory; every difference is listed before the test fails. Run it in
//! release (`cargo test --release -p compiler --test native_i686`): it compiles and runs
//! each file three times.

use compiler::backend::{compile_module, BackendOptions, RegallocMode, Target};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const GCC: &str = "i686-linux-gnu-gcc";
const QEMU: &str = "qemu-i386";
const SETUP_HINT: &str = "run scripts/setup.sh (it installs gcc-i686-linux-gnu and qemu-user)";
const COMPILE_LIMIT: Duration = Duration::from_secs(60);
const RUN_LIMIT: Duration = Duration::from_secs(10);

/// How a program run ended.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    Exited(i32),
    Signaled(i32),
    TimedOut,
}

/// A finished child: how it ended, its stdout and stderr.
struct Finished {
    ending: Ending,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `cmd` in `dir` with stdout and stderr in files (no pipe can fill up), killing it
/// after `limit`. A program that cannot be started fails the test with the setup hint.
fn run_limited(cmd: &mut Command, limit: Duration, dir: &Path, tag: &str) -> Finished {
    let out_path = dir.join(format!("{tag}.stdout"));
    let err_path = dir.join(format!("{tag}.stderr"));
    let out = std::fs::File::create(&out_path).expect("create stdout file");
    let err = std::fs::File::create(&err_path).expect("create stderr file");
    let mut child = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}: {SETUP_HINT}"));
    let start = Instant::now();
    let ending = loop {
        if let Some(status) = child.try_wait().expect("wait for child") {
            break match (status.code(), status.signal()) {
                (Some(code), _) => Ending::Exited(code),
                (None, Some(sig)) => Ending::Signaled(sig),
                (None, None) => Ending::Signaled(0),
            };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break Ending::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Finished {
        ending,
        stdout: std::fs::read(&out_path).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned(),
    }
}

/// Links (or compiles and links) `inputs` with the cross gcc into `exe`; `Err` with gcc's
/// message when it fails.
fn gcc_build(flags: &[&str], input: &Path, exe: &Path, dir: &Path) -> Result<(), String> {
    let done = run_limited(
        Command::new(GCC)
            .args(flags)
            .arg("-static")
            .arg("-o")
            .arg(exe)
            .arg(input),
        COMPILE_LIMIT,
        dir,
        "gcc",
    );
    match done.ending {
        Ending::Exited(0) => Ok(()),
        other => Err(format!("{GCC} {other:?}: {}", done.stderr)),
    }
}

fn run_exe(exe: &Path, dir: &Path) -> (Ending, Vec<u8>) {
    let done = run_limited(Command::new(QEMU).arg(exe), RUN_LIMIT, dir, "run");
    (done.ending, done.stdout)
}

/// The phi-eliminated module of a C file, compiled for i686.
fn phicc_module(file: &Path) -> Result<compiler::ir::IrModule, String> {
    let mut opts = default_options();
    opts.target = Target::I686;
    let compiled = compile_c_file(file, &opts).map_err(|e| e.to_string())?;
    run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())
}

/// Checks one corpus file; returns its differences from gcc (empty: it agrees).
fn check_file(file: &Path) -> Vec<String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let dir = tempfile::Builder::new()
        .prefix("native_i686_")
        .tempdir()
        .expect("temporary directory");
    let dir = dir.path();
    let reference = dir.join("reference");
    if let Err(e) = gcc_build(&["-O0", "-w"], file, &reference, dir) {
        return vec![format!("{name}: the gcc reference does not build: {e}")];
    }
    let (ref_ending, ref_stdout) = run_exe(&reference, dir);
    if ref_ending == Ending::TimedOut {
        return vec![format!("{name}: the gcc reference timed out")];
    }
    let module = match phicc_module(file) {
        Ok(m) => m,
        Err(e) => return vec![format!("{name}: phicc: {e}")],
    };
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let opts = BackendOptions {
            regalloc: mode,
            check_allocation: true,
        };
        let tag = format!("{name} [{}]", mode.name());
        let asm = match compile_module(&module, Target::I686, &opts) {
            Ok(a) => a,
            Err(e) => {
                problems.push(format!("{tag}: backend: {e}"));
                continue;
            }
        };
        let asm_path = dir.join(format!("{}.s", mode.name()));
        std::fs::write(&asm_path, asm).expect("write assembly");
        let exe = dir.join(mode.name());
        if let Err(e) = gcc_build(&[], &asm_path, &exe, dir) {
            problems.push(format!("{tag}: the assembly does not link: {e}"));
            continue;
        }
        let (ending, stdout) = run_exe(&exe, dir);
        if ending != ref_ending {
            problems.push(format!("{tag}: {ending:?}, gcc: {ref_ending:?}"));
        }
        if stdout != ref_stdout {
            let line = stdout
                .split(|b| *b == b'\n')
                .zip(ref_stdout.split(|b| *b == b'\n'))
                .position(|(a, b)| a != b)
                .map_or(String::from("at the end"), |i| format!("at line {}", i + 1));
            problems.push(format!("{tag}: stdout differs from gcc's {line}"));
        }
    }
    problems
}

#[test]
fn corpus_c_on_i686_agrees_with_gcc() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/c");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/c")
        .map(|e| e.expect("corpus/c entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "corpus/c has only {} files", files.len());
    // Two workers: the machine's cores are shared.
    let queue = Mutex::new(files.iter());
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(file) = queue.lock().unwrap().next() else {
                    break;
                };
                let found = check_file(file);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    let mut problems = problems.into_inner().unwrap();
    problems.sort();
    assert!(
        problems.is_empty(),
        "{} differences from gcc on i686 ({} files):\n  {}",
        problems.len(),
        files.len(),
        problems.join("\n  ")
    );
}
