//! The reference for C input: compile a C file with gcc, run the binary, classify.
//!
//! Why: for C input the harness needs an independent answer to "what does this program
//! print and with what status does it exit"; gcc at -O0 is the most trusted one (and gcc
//! at -O2 the check that the program is defined). [`reference_run`] is the host's `gcc`
//! (or any driver named in the config); [`reference_on`] is the target's cross gcc with
//! the binary run as every native binary is run (qemu-user for non-host targets).
//!
//! Invariants:
//! - both are [`build`](fn@super::build) then [`run`](fn@super::run): every child runs under
//!   [`super::process::run_limited`] (compile 30 s, run 10 s by default), in a temporary
//!   directory of its own that is deleted afterwards (two runs in parallel never share a
//!   path);
//! - the binary runs as the oracle starts `main` ([`crate::Program::run_main`]): `argv`
//!   is exactly `{PROGRAM_NAME, NULL}` (its real path is not visible to the program) and
//!   the environment is empty, so `envp` is `{NULL}` on both sides too;
//! - the outcome is one of: gcc rejected the file (its first error line kept), the
//!   binary timed out, died by a signal, or exited with a status and stdout bytes;
//! - `Err` is reserved for a broken setup (gcc missing, temp dir not writable), never for
//!   anything the program does.

use super::build::{build, build_with, Build, BuildConfig, BuildError, Source};
use super::process::{run_limited, Termination};
use super::run::{run, Execution, Exit, RunLimits};
use compiler::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How the reference is built and run.
#[derive(Clone, Debug)]
pub struct ReferenceConfig {
    /// The compiler (default `gcc`).
    pub gcc: PathBuf,
    /// `-I` directories, in order.
    pub include_dirs: Vec<PathBuf>,
    /// Extra flags after `-O0 -w` (e.g. `-DNAME`).
    pub extra_flags: Vec<String>,
    /// Wall-time limit of the compiler driver.
    pub compile_timeout: Duration,
    /// Wall-time limit of the binary.
    pub run_timeout: Duration,
    /// Bytes of the program's stdout kept.
    pub max_stdout: usize,
}

impl Default for ReferenceConfig {
    fn default() -> ReferenceConfig {
        ReferenceConfig {
            gcc: PathBuf::from("gcc"),
            include_dirs: Vec::new(),
            extra_flags: Vec::new(),
            compile_timeout: Duration::from_secs(30),
            run_timeout: Duration::from_secs(10),
            max_stdout: 1 << 20,
        }
    }
}

/// How the reference build and run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeOutcome {
    /// gcc rejected the file (or timed out compiling it); the message is its first error
    /// line (or says it timed out).
    CompileFailed(String),
    /// The binary ran past the run time limit.
    TimedOut,
    /// The binary was killed by this signal (`SIGSEGV`, `SIGABRT`, ...).
    Signaled(i32),
    /// The binary exited with this status (0..=255) after printing `stdout`.
    Exited {
        /// The exit status.
        code: i32,
        /// The bytes written to stdout.
        stdout: Vec<u8>,
    },
}

impl NativeOutcome {
    /// The outcome of a binary that ran and ended with `exit` after printing `stdout`.
    pub fn from_execution(exit: Exit, stdout: Vec<u8>) -> NativeOutcome {
        match exit {
            Exit::Code(code) => NativeOutcome::Exited { code, stdout },
            Exit::Signal(s) => NativeOutcome::Signaled(s),
            Exit::TimedOut => NativeOutcome::TimedOut,
        }
    }

    /// Short text for tables and reports.
    pub fn describe(&self) -> String {
        match self {
            NativeOutcome::CompileFailed(m) => format!("gcc rejects the file: {m}"),
            NativeOutcome::TimedOut => "reference timeout".into(),
            NativeOutcome::Signaled(s) => format!("reference killed by signal {s}"),
            NativeOutcome::Exited { code, stdout } => {
                let mut s = format!("exit {code}");
                if !stdout.is_empty() {
                    s.push_str(&format!(", stdout {}", quote_stdout(stdout)));
                }
                s
            }
        }
    }
}

/// Stdout as a short quoted string (long output abbreviated).
pub fn quote_stdout(bytes: &[u8]) -> String {
    const MAX: usize = 60;
    let text = String::from_utf8_lossy(bytes);
    if text.chars().count() <= MAX {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head:?}... ({} bytes)", bytes.len())
    }
}

/// A finished reference build and run.
#[derive(Clone, Debug)]
pub struct NativeRun {
    /// How the build and the run ended.
    pub outcome: NativeOutcome,
    /// Wall time of the gcc process (compile, assemble, link).
    pub compile_time: Duration,
    /// Wall time of the binary (zero when it was not run).
    pub run_time: Duration,
}

/// Compiles `source` with `cfg.gcc -O0 -w` (dynamically linked, as a host compiler
/// does by default) and runs it on this machine with `argv = {PROGRAM_NAME, NULL}` and an
/// empty environment.
pub fn reference_run(source: &Path, cfg: &ReferenceConfig) -> Result<NativeRun, String> {
    let start = Instant::now();
    let built = build_with(
        &cfg.gcc,
        false,
        &[Source::CFile(source)],
        &build_config(cfg, "-O0"),
    );
    // The host's own binary runs directly, whatever the target table says.
    finish(built, start.elapsed(), cfg, |b, limits| {
        super::run::run_directly(b, &[], limits)
    })
}

/// Compiles `source` with `target`'s gcc driver (`-static -w`, then `opt`, e.g. `-O0` or
/// `-O2`; `cfg.gcc` is not used) and runs it as every native binary of `target` runs
/// ([`run`]: directly on the host's architecture, under qemu-user otherwise), with
/// `argv = {PROGRAM_NAME, NULL}` and an empty environment.
pub fn reference_on(
    target: Target,
    source: &Path,
    cfg: &ReferenceConfig,
    opt: &str,
) -> Result<NativeRun, String> {
    let start = Instant::now();
    let built = build(target, &[Source::CFile(source)], &build_config(cfg, opt));
    finish(built, start.elapsed(), cfg, |b, limits| {
        run(target, b, &[], limits)
    })
}

fn build_config(cfg: &ReferenceConfig, opt: &str) -> BuildConfig {
    BuildConfig {
        opt: opt.to_string(),
        include_dirs: cfg.include_dirs.clone(),
        extra_flags: cfg.extra_flags.clone(),
        timeout: cfg.compile_timeout,
    }
}

/// Runs a successful build with `cfg`'s limits and classifies; a rejected or timed-out
/// build is [`NativeOutcome::CompileFailed`] (with `build_time`, the wall time of the
/// attempt, as its compile time).
fn finish(
    built: Result<Build, BuildError>,
    build_time: Duration,
    cfg: &ReferenceConfig,
    run_build: impl FnOnce(&Build, &RunLimits) -> Result<Execution, String>,
) -> Result<NativeRun, String> {
    let failed = |msg: String| NativeRun {
        outcome: NativeOutcome::CompileFailed(msg),
        compile_time: build_time,
        run_time: Duration::ZERO,
    };
    let built = match built {
        Ok(b) => b,
        Err(BuildError::Rejected(m)) => return Ok(failed(m)),
        Err(BuildError::TimedOut) => {
            return Ok(failed(format!(
                "gcc timed out after {:?}",
                cfg.compile_timeout
            )))
        }
        Err(BuildError::Setup(m)) => return Err(m),
    };
    let limits = RunLimits {
        timeout: cfg.run_timeout,
        max_output: cfg.max_stdout,
    };
    let ran = run_build(&built, &limits)?;
    Ok(NativeRun {
        outcome: NativeOutcome::from_execution(ran.exit, ran.stdout),
        compile_time: built.elapsed,
        run_time: ran.elapsed,
    })
}

/// Times `gcc -O0 -w -S` (compile to assembly only, written to /dev/null): the part of
/// gcc's work that corresponds to a compiler without assembler and linker. `Ok(None)` when
/// gcc fails or times out.
pub fn compile_only_time(source: &Path, cfg: &ReferenceConfig) -> Result<Option<Duration>, String> {
    let mut gcc = Command::new(&cfg.gcc);
    gcc.args(["-O0", "-w", "-S"]);
    for dir in &cfg.include_dirs {
        gcc.arg("-I").arg(dir);
    }
    gcc.args(&cfg.extra_flags)
        .arg(source)
        .args(["-o", "/dev/null"]);
    let r = run_limited(&mut gcc, cfg.compile_timeout, 1 << 16)?;
    Ok((r.termination == Termination::Exited(0)).then_some(r.elapsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A C file `name` with `text` in a fresh temporary directory (kept alive by the
    /// returned guard).
    fn c_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        (dir, p)
    }

    fn outcome(name: &str, text: &str, cfg: &ReferenceConfig) -> NativeOutcome {
        let (_dir, path) = c_file(name, text);
        reference_run(&path, cfg).unwrap().outcome
    }

    #[test]
    fn exit_status_and_stdout() {
        let cfg = ReferenceConfig::default();
        let src = "#include <stdio.h>\nint main(void) { printf(\"%X|\", 255u); return 300; }\n";
        // 300 & 0xff = 44: the status the kernel keeps.
        assert_eq!(
            outcome("ret.c", src, &cfg),
            NativeOutcome::Exited {
                code: 44,
                stdout: b"FF|".to_vec()
            }
        );
        let src = "#include <stdlib.h>\nint main(void) { exit(7); }\n";
        assert_eq!(
            outcome("exit.c", src, &cfg),
            NativeOutcome::Exited {
                code: 7,
                stdout: Vec::new()
            }
        );
    }

    #[test]
    fn rejected_crashing_and_looping_programs() {
        let cfg = ReferenceConfig {
            run_timeout: Duration::from_millis(300),
            ..ReferenceConfig::default()
        };
        match outcome("bad.c", "int main(void) { return x; }\n", &cfg) {
            NativeOutcome::CompileFailed(m) => assert!(m.contains("error"), "{m}"),
            o => panic!("{o:?}"),
        }
        let src = "#include <stdlib.h>\nint main(void) { abort(); }\n";
        assert_eq!(outcome("abort.c", src, &cfg), NativeOutcome::Signaled(6));
        let src = "int main(void) { for (;;) {} }\n";
        assert_eq!(outcome("loop.c", src, &cfg), NativeOutcome::TimedOut);
    }

    #[test]
    fn the_binary_sees_the_oracles_argv_and_no_environment() {
        let cfg = ReferenceConfig::default();
        let src = "#include <stdio.h>\n\
            int main(int argc, char **argv, char **envp) {\n\
              printf(\"%d|%s|%d|%d\", argc, argv[0], argv[1] == 0, envp[0] == 0);\n\
              argv[0][0] = 'X';\n\
              return argv[0][0];\n\
            }\n";
        // 'X' = 88.
        assert_eq!(
            outcome("argv.c", src, &cfg),
            NativeOutcome::Exited {
                code: 88,
                stdout: b"1|a.out|1|1".to_vec()
            }
        );
    }

    #[test]
    fn compile_only_timing() {
        let cfg = ReferenceConfig::default();
        let (_ok_dir, ok) = c_file("s.c", "int main(void) { return 0; }\n");
        assert!(compile_only_time(&ok, &cfg).unwrap().is_some());
        let (_bad_dir, bad) = c_file("s_bad.c", "int main(void) { return x; }\n");
        assert_eq!(compile_only_time(&bad, &cfg).unwrap(), None);
    }

    #[test]
    fn include_dirs_are_passed_through() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("answer.h"), "#define ANSWER 42\n").unwrap();
        let cfg = ReferenceConfig {
            include_dirs: vec![dir.path().to_path_buf()],
            ..ReferenceConfig::default()
        };
        let src = "#include \"answer.h\"\nint main(void) { return ANSWER; }\n";
        assert_eq!(
            outcome("inc.c", src, &cfg),
            NativeOutcome::Exited {
                code: 42,
                stdout: Vec::new()
            }
        );
    }
}
