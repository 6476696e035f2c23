//! Running a built binary: directly when its target is this machine, under the target's
//! qemu-user otherwise, under a time limit.
//!
//! Why: a native run must start the program exactly as the oracle starts `main`
//! ([`crate::Program::run_main`]), whatever runs it, so that the two can be compared byte
//! for byte; and it must always come back (a program may loop or print forever).
//!
//! Invariants:
//! - the program sees `argv = {PROGRAM_NAME, args..., NULL}` ([`PROGRAM_NAME`] is
//!   `"a.out"`; its real path is invisible) and an empty environment. Directly that is
//!   `arg0` plus `env_clear`; under qemu it is `qemu-ARCH -0 a.out BINARY args...` with
//!   qemu's own environment empty (qemu-user hands the guest its own environment);
//! - the working directory is a fresh, empty `tempfile` directory of its own inside the
//!   build's temporary directory, removed when the run returns (and, if this process is
//!   killed, with the build's directory by `build::remove_stale_dirs`): a file the program
//!   creates by a relative name never outlives the run, never meets another run's (each
//!   run of one binary starts empty, as the oracle's file system of a run does,
//!   `interp/libc_files.rs`), and the build's own files (sources, the binary) are not in
//!   the program's directory. Absolute names are the host's: glibc's `tmpnam` names
//!   `/tmp/fileXXXXXX` whatever the directory (c-torture's fprintf-2.c and printf-2.c
//!   `remove` theirs; a run killed in between leaves one such file);
//! - the child runs under [`run_limited`]: on timeout its process group (qemu and its
//!   threads, or the binary) is killed and reaped, so nothing outlives the call;
//! - a program killed by a signal is [`Exit::Signal`] with the host's number of that
//!   signal, under qemu too: qemu-user reports a guest's fatal signal by restoring the
//!   default action and killing itself with the same signal (after printing
//!   `qemu: uncaught target signal N (...)` on stderr for some targets), so the parent
//!   sees the signal, never an exit status. (Checked for SIGFPE, SIGABRT, SIGILL, SIGTRAP
//!   and SIGSEGV on all four targets by `oracle/tests/native_run.rs`.)
//! - `Err` is a broken setup (qemu or the binary cannot be started), never something the
//!   program did.

use super::build::Build;
use super::process::{run_limited, ProcessResult, Termination};
use super::targets::{native_target, tool_path};
use crate::interp::PROGRAM_NAME;
use compiler::target::Target;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// Wall-time limit (qemu's start included).
    pub timeout: Duration,
    /// Bytes kept of stdout and of stderr, each; the rest is read and dropped.
    pub max_output: usize,
}

impl Default for RunLimits {
    /// 10 seconds, 1 MiB.
    fn default() -> RunLimits {
        RunLimits {
            timeout: Duration::from_secs(10),
            max_output: 1 << 20,
        }
    }
}

/// How a native run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    /// The program exited with this status (0..=255).
    Code(i32),
    /// The program was killed by this signal (host numbering: 4 SIGILL, 6 SIGABRT,
    /// 8 SIGFPE, 11 SIGSEGV, ...).
    Signal(i32),
    /// The program ran past [`RunLimits::timeout`] and was killed.
    TimedOut,
}

impl Exit {
    /// Short text: `exit 3`, `signal 8 (SIGFPE)`, `timeout`.
    pub fn describe(self) -> String {
        match self {
            Exit::Code(c) => format!("exit {c}"),
            Exit::Signal(s) => format!("signal {s} ({})", signal_name(s)),
            Exit::TimedOut => "timeout".into(),
        }
    }
}

/// The conventional name of signal `sig` (`SIGFPE`), or `SIG?` when it has none here.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => "SIG?",
    }
}

/// A finished native run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// How the program ended.
    pub exit: Exit,
    /// The program's stdout (at most [`RunLimits::max_output`] bytes).
    pub stdout: Vec<u8>,
    /// Its stderr (qemu's own messages included), at most [`RunLimits::max_output`].
    pub stderr: Vec<u8>,
    /// True when stdout or stderr went past the limit (what is kept is a prefix).
    pub truncated: bool,
    /// Wall time of the run (qemu's start included).
    pub elapsed: Duration,
}

impl Execution {
    /// Short text for tables: `exit 3, stdout "..."`.
    pub fn describe(&self) -> String {
        let mut s = self.exit.describe();
        if !self.stdout.is_empty() {
            s.push_str(&format!(
                ", stdout {}",
                super::gcc::quote_stdout(&self.stdout)
            ));
        }
        s
    }
}

impl From<ProcessResult> for Execution {
    fn from(p: ProcessResult) -> Execution {
        Execution {
            exit: match p.termination {
                Termination::Exited(c) => Exit::Code(c),
                Termination::Signaled(s) => Exit::Signal(s),
                Termination::TimedOut => Exit::TimedOut,
            },
            stdout: p.stdout,
            stderr: p.stderr,
            truncated: p.truncated,
            elapsed: p.elapsed,
        }
    }
}

/// Runs `build` (built for `target`) with `argv = {PROGRAM_NAME, args...}`, an empty
/// environment and the build's directory as working directory, under `limits`.
pub fn run(
    target: Target,
    build: &Build,
    args: &[&str],
    limits: &RunLimits,
) -> Result<Execution, String> {
    let qemu = match native_target(target).qemu {
        None => None,
        Some(name) => Some(tool_path(name).ok_or_else(|| {
            format!(
                "{name} (runs {} binaries) is not on PATH: run scripts/setup.sh",
                target.name()
            )
        })?),
    };
    match qemu {
        Some(qemu) => {
            let mut cmd = Command::new(qemu);
            cmd.arg("-0").arg(PROGRAM_NAME).arg(&build.binary);
            finish(cmd, build, args, limits)
        }
        None => run_directly(build, args, limits),
    }
}

/// Runs `build` on this machine, without qemu (the host reference's binaries).
pub(crate) fn run_directly(
    build: &Build,
    args: &[&str],
    limits: &RunLimits,
) -> Result<Execution, String> {
    let mut cmd = Command::new(&build.binary);
    cmd.arg0(PROGRAM_NAME);
    finish(cmd, build, args, limits)
}

/// A fresh, empty working directory for one run of `build`'s binary, inside the build's
/// directory (removed when dropped; swept with the build's directory if this process is
/// killed).
pub fn fresh_run_dir(build: &Build) -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix("run-")
        .tempdir_in(build.dir())
        .map_err(|e| format!("cannot create the run's working directory: {e}"))
}

/// Adds the program's arguments, the empty environment and a fresh working directory, then
/// runs under the limits.
fn finish(
    mut cmd: Command,
    build: &Build,
    args: &[&str],
    limits: &RunLimits,
) -> Result<Execution, String> {
    let cwd = fresh_run_dir(build)?;
    cmd.args(args).env_clear().current_dir(cwd.path());
    run_limited(&mut cmd, limits.timeout, limits.max_output).map(Execution::from)
}
