//! Every `corpus/c` program compiled by phicc for x86-64 runs like gcc -O0's build of it.
//!
//! Why: the corpus programs check themselves (ASSERT lines on stdout, exit status 1 on a
//! wrong value), and gcc is the reference: phicc's library (`compile_c_file`, the
//! pipeline, `backend::compile_module`) compiles each file with both register allocators,
//! `x86_64-linux-gnu-gcc -static` links the assembly, and the binary must exit with the
//! same status and print the same bytes as gcc -O0's binary of the same file.
//!
//! Every child runs under a timeout in a temporary directory with `argv[0] = "a.out"`
//! (the harness's convention, which `corpus/c/argv.c` checks). The test needs the x86_64
//! gcc driver and an x86_64 host; without them it fails with a hint instead of skipping.

use compiler::backend::{compile_module, BackendOptions, RegallocMode, Target};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const GCC: &str = "x86_64-linux-gnu-gcc";
const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);
const RUN_TIMEOUT: Duration = Duration::from_secs(10);

/// How a program ended.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// The exit status, or `signal N`, or `timeout`.
    status: String,
    stdout: Vec<u8>,
}

/// Runs `cmd` with stdout and stderr captured, killing it after `timeout`; the outcome
/// and stderr.
fn run(mut cmd: Command, timeout: Duration) -> Result<(Outcome, Vec<u8>), String> {
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let mut out_pipe = child.stdout.take().ok_or("no stdout pipe")?;
    let mut err_pipe = child.stderr.take().ok_or("no stderr pipe")?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("waiting for {cmd:?}: {e}")),
        }
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let status = match status {
        None => "timeout".to_string(),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => code.to_string(),
            (None, Some(sig)) => format!("signal {sig}"),
            (None, None) => format!("{s}"),
        },
    };
    Ok((Outcome { status, stdout }, stderr))
}

/// Links `sources` (C or assembly) statically into `exe`.
fn gcc(args: &[&str], sources: &[&Path], exe: &Path) -> Result<(), String> {
    let mut cmd = Command::new(GCC);
    cmd.args(args)
        .arg("-static")
        .arg("-o")
        .arg(exe)
        .args(sources);
    let (outcome, stderr) = run(cmd, COMPILE_TIMEOUT)?;
    if outcome.status != "0" {
        return Err(format!(
            "{GCC} failed ({}): {}",
            outcome.status,
            String::from_utf8_lossy(&stderr)
        ));
    }
    Ok(())
}

/// Runs `exe` in `dir` as `a.out`.
fn run_binary(exe: &Path, dir: &Path) -> Result<Outcome, String> {
    let mut cmd = Command::new(exe);
    cmd.arg0("a.out").current_dir(dir);
    run(cmd, RUN_TIMEOUT).map(|(outcome, _)| outcome)
}

/// phicc's assembly for `file` with allocator `mode`.
fn phicc_assembly(file: &Path, mode: RegallocMode) -> Result<String, String> {
    let compiled = compile_c_file(file, &default_options()).map_err(|e| e.to_string())?;
    let module = run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    let opts = BackendOptions {
        regalloc: mode,
        check_allocation: true,
    };
    compile_module(&module, Target::X86_64, &opts).map_err(|e| e.to_string())
}

/// Compares phicc's binaries of `file` (both allocators) with gcc -O0's; the
/// differences, described.
fn check_file(file: &Path) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reference_exe = dir.path().join("gcc.out");
    gcc(&["-O0", "-w"], &[file], &reference_exe)?;
    let reference = run_binary(&reference_exe, dir.path())?;
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let asm = dir.path().join(format!("{}.s", mode.name()));
        let exe = dir.path().join(format!("{}.out", mode.name()));
        let text = match phicc_assembly(file, mode) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{}: phicc/{}: {e}", file.display(), mode.name()));
                continue;
            }
        };
        std::fs::write(&asm, text).map_err(|e| e.to_string())?;
        if let Err(e) = gcc(&[], &[&asm], &exe) {
            problems.push(format!("{}: {}: {e}", file.display(), mode.name()));
            continue;
        }
        let mine = run_binary(&exe, dir.path())?;
        if mine != reference {
            problems.push(format!(
                "{}: {}: exit {} vs gcc's {}; stdout {:?}\n  gcc's {:?}",
                file.display(),
                mode.name(),
                mine.status,
                reference.status,
                String::from_utf8_lossy(&mine.stdout),
                String::from_utf8_lossy(&reference.stdout)
            ));
        }
    }
    Ok(problems)
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/c");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_c_runs_like_gcc_with_both_allocators() {
    assert!(
        cfg!(target_arch = "x86_64"),
        "this test runs x86-64 binaries directly: it needs an x86-64 host"
    );
    assert!(
        Command::new(GCC).arg("--version").output().is_ok(),
        "{GCC} not found: run scripts/setup.sh (it installs the cross toolchains)"
    );
    let files = corpus_files();
    assert!(files.len() >= 20, "corpus/c has only {} files", files.len());
    let queue = Mutex::new(files.clone());
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(file) = queue.lock().unwrap().pop() else {
                    break;
                };
                let found =
                    check_file(&file).unwrap_or_else(|e| vec![format!("{}: {e}", file.display())]);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    let problems = problems.into_inner().unwrap();
    assert!(
        problems.is_empty(),
        "{} of {} corpus runs differ from gcc -O0:\n{}",
        problems.len(),
        2 * files.len(),
        problems.join("\n")
    );
}
