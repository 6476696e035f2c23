//! The reference: compile a C file with the host `gcc -O0 -w`, run the binary, classify.
//!
//! Why: for C input the harness needs an independent answer to "what does this program
//! print and with what status does it exit"; gcc at -O0 is the most trusted one.
//!
//! Invariants:
//! - every child runs under [`run_limited`] (compile 30 s, run 10 s by default);
//! - the binary runs as the oracle starts `main` ([`crate::Program::run_main`]): `argv`
//!   is exactly `{PROGRAM_NAME, NULL}` (its real path is not visible to the program) and
//!   the environment is empty, so `envp` is `{NULL}` on both sides too;
//! - the outcome is one of: gcc rejected the file (its first error line kept), the
//!   binary timed out, died by a signal, or exited with a status and stdout bytes;
//! - the binary is written to a fresh temporary path and removed afterwards; two runs in
//!   parallel never share a path;
//! - `Err` is reserved for a broken setup (gcc missing, temp dir not writable), never for
//!   anything the program does.

use super::process::{run_limited, Termination};
use crate::interp::PROGRAM_NAME;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How the reference is built and run.
#[derive(Clone, Debug)]
pub struct ReferenceConfig {
    /// The compiler (default `gcc`).
    pub gcc: PathBuf,
    /// `-I` directories, in order.
    pub include_dirs: Vec<PathBuf>,
    /// Extra flags after `-O0 -w` (e.g. `-DNAME`).
    pub extra_flags: Vec<String>,
    pub compile_timeout: Duration,
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
    Exited { code: i32, stdout: Vec<u8> },
}

impl NativeOutcome {
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
    pub outcome: NativeOutcome,
    /// Wall time of the gcc process (compile, assemble, link).
    pub compile_time: Duration,
    /// Wall time of the binary (zero when it was not run).
    pub run_time: Duration,
}

static NEXT_BINARY: AtomicU64 = AtomicU64::new(0);

/// Compiles `source` with `gcc -O0 -w` and runs it with `argv = {PROGRAM_NAME, NULL}` and
/// an empty environment.
pub fn reference_run(source: &Path, cfg: &ReferenceConfig) -> Result<NativeRun, String> {
    let binary = std::env::temp_dir().join(format!(
        "phihunt-ref-{}-{}",
        std::process::id(),
        NEXT_BINARY.fetch_add(1, Ordering::Relaxed)
    ));
    let result = build_and_run(source, &binary, cfg);
    let _ = std::fs::remove_file(&binary);
    result
}

fn build_and_run(source: &Path, binary: &Path, cfg: &ReferenceConfig) -> Result<NativeRun, String> {
    let mut gcc = Command::new(&cfg.gcc);
    gcc.args(["-O0", "-w"]);
    for dir in &cfg.include_dirs {
        gcc.arg("-I").arg(dir);
    }
    gcc.args(&cfg.extra_flags).arg(source).arg("-o").arg(binary);
    let built = run_limited(&mut gcc, cfg.compile_timeout, 1 << 16)?;
    let compile_time = built.elapsed;
    let failed = |msg: String| NativeRun {
        outcome: NativeOutcome::CompileFailed(msg),
        compile_time,
        run_time: Duration::ZERO,
    };
    match built.termination {
        Termination::Exited(0) => {}
        Termination::TimedOut => {
            return Ok(failed(format!(
                "gcc timed out after {:?}",
                cfg.compile_timeout
            )))
        }
        _ => {
            let stderr = String::from_utf8_lossy(&built.stderr);
            let first = stderr
                .lines()
                .find(|l| l.contains("error"))
                .or_else(|| stderr.lines().next())
                .unwrap_or("gcc failed without a message");
            return Ok(failed(first.to_string()));
        }
    }
    let mut run = Command::new(binary);
    run.arg0(PROGRAM_NAME).env_clear();
    let ran = run_limited(&mut run, cfg.run_timeout, cfg.max_stdout)?;
    let outcome = match ran.termination {
        Termination::Exited(code) => NativeOutcome::Exited {
            code,
            stdout: ran.stdout,
        },
        Termination::Signaled(s) => NativeOutcome::Signaled(s),
        Termination::TimedOut => NativeOutcome::TimedOut,
    };
    Ok(NativeRun {
        outcome,
        compile_time,
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

    fn c_file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("oracle-native-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn outcome(name: &str, text: &str, cfg: &ReferenceConfig) -> NativeOutcome {
        reference_run(&c_file(name, text), cfg).unwrap().outcome
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
        let ok = c_file("s.c", "int main(void) { return 0; }\n");
        assert!(compile_only_time(&ok, &cfg).unwrap().is_some());
        let bad = c_file("s_bad.c", "int main(void) { return x; }\n");
        assert_eq!(compile_only_time(&bad, &cfg).unwrap(), None);
    }

    #[test]
    fn include_dirs_are_passed_through() {
        let dir = std::env::temp_dir().join(format!("oracle-native-inc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("answer.h"), "#define ANSWER 42\n").unwrap();
        let cfg = ReferenceConfig {
            include_dirs: vec![dir],
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
