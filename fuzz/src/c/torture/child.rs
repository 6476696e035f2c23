//! Each (test, target) is judged in a child process (`phihunt torture-one`) under a
//! wall-time limit.
//!
//! Why: 1,500 tests written to torture compilers will find the ways phicc can fail that
//! `catch_unwind` cannot catch — a stack overflow in the front end or a pass aborts the
//! whole process, and an endless loop in a pass never returns. In a child, such a test
//! costs its own judgement only: it is an `error` (the child died by a signal) or a
//! `timeout` (the child ran past `--test-timeout`, and its whole process group was
//! killed), and the suite goes on.
//!
//! Protocol: the parent runs `phihunt [--mutant ..] [--disable-passes ..] torture-one
//! FILE --target T --ref-stdout HEX --ref-ms N --fuel F --run-timeout D --build-timeout D`;
//! the child prints the [`Outcome`] as one JSON line on stdout and exits 0, or prints a
//! setup error on stderr and exits [`SETUP_ERROR`].
//!
//! Invariants: the child runs under `run_limited` (own process group, killed on timeout,
//! dies with the parent's thread); the judgement inside runs on a thread with the large
//! stack the C workers use (`c::csmith::WORKER_STACK`).

use super::judge::{clean_reference, judge, JudgeSettings};
use super::outcome::{one_line, Kind, Outcome};
use crate::native::{NativeLimits, NativePlan};
use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::native::{run_limited, Termination};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The child's exit status for a broken setup (its stderr says what).
pub const SETUP_ERROR: i32 = 3;

/// How children are started.
#[derive(Clone, Debug)]
pub struct ChildSettings {
    /// The `phihunt` executable.
    pub exe: PathBuf,
    /// Global options passed on (`--mutant`, `--disable-passes`).
    pub forward: Vec<String>,
    pub fuel: u64,
    pub limits: NativeLimits,
    /// Wall-time limit of one child.
    pub test_timeout: Duration,
}

/// Lower-case hex of `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads [`to_hex`] back.
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd-length hex `{s}`"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad hex `{s}`"))
        })
        .collect()
}

/// Judges `file` on `target` in a child. `Err` only for a broken setup.
pub fn judge_in_child(
    file: &Path,
    target: Target,
    ref_stdout: &[u8],
    ref_ms: u64,
    s: &ChildSettings,
) -> Result<Outcome, String> {
    let mut cmd = Command::new(&s.exe);
    cmd.args(&s.forward)
        .arg("torture-one")
        .arg(file)
        .arg("--target")
        .arg(target.name())
        .arg("--ref-stdout")
        .arg(format!("={}", to_hex(ref_stdout)))
        .arg("--ref-ms")
        .arg(ref_ms.to_string())
        .arg("--fuel")
        .arg(s.fuel.to_string())
        .arg("--run-timeout")
        .arg(format!("{}ms", s.limits.run_timeout.as_millis()))
        .arg("--build-timeout")
        .arg(format!("{}ms", s.limits.build_timeout.as_millis()));
    let done = run_limited(&mut cmd, s.test_timeout, 1 << 20)?;
    let stderr = String::from_utf8_lossy(&done.stderr);
    let tail = || {
        one_line(
            &stderr
                .lines()
                .rev()
                .filter(|l| !l.trim().is_empty())
                .take(3)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join(" | "),
        )
    };
    match done.termination {
        Termination::Exited(0) => {
            let stdout = String::from_utf8_lossy(&done.stdout);
            let line = stdout
                .lines()
                .rev()
                .find(|l| l.starts_with('{'))
                .unwrap_or("");
            serde_json::from_str::<Outcome>(line).or_else(|e| {
                Ok(Outcome::new(
                    Kind::Error,
                    "",
                    format!("the judging process printed no outcome ({e}): {}", tail()),
                ))
            })
        }
        Termination::Exited(SETUP_ERROR) => Err(format!("{}: {}", file.display(), tail())),
        Termination::Exited(code) => Ok(Outcome::new(
            Kind::Error,
            "",
            format!("the judging process exited with status {code}: {}", tail()),
        )),
        Termination::Signaled(sig) => Ok(Outcome::new(
            Kind::Error,
            "",
            format!(
                "the judging process died by signal {sig} ({}): {}",
                oracle::native::run::signal_name(sig),
                tail()
            ),
        )),
        Termination::TimedOut => Ok(Outcome::new(
            Kind::Timeout,
            "",
            format!(
                "the judgement (front end, oracle stages, native builds and runs) ran past {} s",
                s.test_timeout.as_secs()
            ),
        )),
    }
}

/// What `phihunt torture-one` was asked.
#[derive(Clone, Debug)]
pub struct OneArgs {
    pub file: PathBuf,
    pub target: String,
    /// gcc's stdout, as `=HEX` (the `=` keeps an empty value an argument).
    pub ref_stdout: String,
    pub ref_ms: u64,
    pub fuel: u64,
    pub run_timeout: Duration,
    pub build_timeout: Duration,
}

/// `phihunt torture-one`: the child's side. Prints the outcome's JSON line; exit 0, or
/// [`SETUP_ERROR`] with the message on stderr.
pub fn torture_one_command(args: OneArgs, pipeline: PipelineOptions) -> i32 {
    let result = (|| -> Result<Outcome, String> {
        let target = Target::from_name(&args.target)
            .ok_or_else(|| format!("unknown target `{}`", args.target))?;
        let stdout = from_hex(args.ref_stdout.trim_start_matches('='))?;
        let reference = clean_reference(&stdout, args.ref_ms);
        let stages = NativePlan::for_targets(&[target]).stages;
        let settings = JudgeSettings {
            pipeline,
            fuel: args.fuel,
            limits: NativeLimits {
                run_timeout: args.run_timeout,
                build_timeout: args.build_timeout,
                ..NativeLimits::default()
            },
        };
        let file = args.file.clone();
        let worker = std::thread::Builder::new()
            .name("torture-one".into())
            .stack_size(crate::c::csmith::WORKER_STACK)
            .spawn(move || judge(&file, target, &stages, &reference, &settings))
            .map_err(|e| format!("cannot start the judging thread: {e}"))?;
        worker.join().unwrap_or_else(|p| {
            Ok(Outcome::new(
                Kind::Error,
                "",
                format!(
                    "the judgement panicked: {}",
                    crate::stages::panic_message(&p)
                ),
            ))
        })
    })();
    match result {
        Ok(outcome) => match serde_json::to_string(&outcome) {
            Ok(line) => {
                println!("{line}");
                0
            }
            Err(e) => {
                eprintln!("error: {e}");
                SETUP_ERROR
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            SETUP_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_reads_back() {
        for bytes in [&b""[..], b"a\n", &[0u8, 255, 16]] {
            assert_eq!(from_hex(&to_hex(bytes)).unwrap(), bytes);
        }
        assert_eq!(to_hex(b"\x00\xff"), "00ff");
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").is_err());
    }
}
