//! Running a child process under a time limit, capturing its output.
//!
//! Why: the native runner starts gcc drivers, qemu-user and the programs under test, any
//! of which may loop forever or print without end; the harness must always get control
//! back. Every child the native runner starts goes through [`run_limited`].
//!
//! Invariants:
//! - the child runs in its own process group; on timeout the whole group is killed with
//!   `SIGKILL` (so `gcc`'s `cc1`/`as`/`ld` children die with it) and reaped;
//! - stdout and stderr are drained by threads while the child runs (a full pipe never
//!   blocks it); at most `max_output` bytes of each are kept, the rest is read and
//!   dropped, and `truncated` says so;
//! - stdin is `/dev/null`;
//! - no child dumps core (`RLIMIT_CORE` is 0 in the child): a crashing program under test
//!   is an outcome, and writing its core (qemu-user writes the guest's core itself) would
//!   only cost time and leave files behind;
//! - the child dies with the thread that started it (`PR_SET_PDEATHSIG` = `SIGKILL`):
//!   when the harness is killed outright (no destructor runs), a looping program or qemu
//!   does not live on. (`run_limited` waits in that thread, so the signal never fires
//!   while the parent is alive. Grandchildren such as gcc's `cc1` are not covered; they
//!   end by themselves.)

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How a limited child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Exited with this status (0..=255).
    Exited(i32),
    /// Killed by this signal (not by us).
    Signaled(i32),
    /// Ran past its time limit and was killed.
    TimedOut,
}

/// A finished child.
#[derive(Clone, Debug)]
pub struct ProcessResult {
    /// How the child ended.
    pub termination: Termination,
    /// The first `max_output` bytes of its stdout.
    pub stdout: Vec<u8>,
    /// The first `max_output` bytes of its stderr.
    pub stderr: Vec<u8>,
    /// True when stdout or stderr went past `max_output` (the kept part is a prefix).
    pub truncated: bool,
    /// Wall-clock time from spawn to exit.
    pub elapsed: Duration,
}

/// Reads `r` to its end, keeping the first `limit` bytes.
fn drain(mut r: impl Read, limit: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut truncated = false;
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                if n > room {
                    truncated = true;
                }
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    (kept, truncated)
}

/// Runs `cmd` with a time limit. `Err` only when the child cannot be started (the program
/// is missing, ...): that is a problem of the setup, not an outcome.
pub fn run_limited(
    cmd: &mut Command,
    timeout: Duration,
    max_output: usize,
) -> Result<ProcessResult, String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child before exec and calls only
    // setrlimit(2), prctl(2), getppid(2) and _exit(2), which are async-signal-safe; it
    // touches no memory of the parent.
    unsafe {
        cmd.pre_exec(move || {
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::setrlimit(libc::RLIMIT_CORE, &none) != 0
                || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died between fork and prctl: the death signal will never come.
            if libc::getppid() != parent {
                libc::_exit(127);
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run `{}`: {e}", cmd.get_program().to_string_lossy()))?;
    let pid = child.id() as i32;
    let out = child
        .stdout
        .take()
        .map(|s| thread::spawn(move || drain(s, max_output)));
    let err = child
        .stderr
        .take()
        .map(|s| thread::spawn(move || drain(s, max_output)));
    let mut pause = Duration::from_micros(200);
    let termination = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                break match (status.code(), status.signal()) {
                    (Some(c), _) => Termination::Exited(c),
                    (None, Some(s)) => Termination::Signaled(s),
                    (None, None) => Termination::Signaled(0),
                }
            }
            Ok(None) if start.elapsed() >= timeout => {
                kill_group(pid);
                let _ = child.wait();
                break Termination::TimedOut;
            }
            Ok(None) => {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(e) => {
                kill_group(pid);
                let _ = child.wait();
                return Err(format!("waiting for the child failed: {e}"));
            }
        }
    };
    let elapsed = start.elapsed();
    // The group may still hold children that inherited the pipes (a daemonising child);
    // kill it so the readers see end of file.
    if termination != Termination::TimedOut {
        kill_group(pid);
    }
    let (stdout, t1) = out.and_then(|h| h.join().ok()).unwrap_or_default();
    let (stderr, t2) = err.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(ProcessResult {
        termination,
        stdout,
        stderr,
        truncated: t1 || t2,
        elapsed,
    })
}

/// `SIGKILL` to the process group `pgid` (ignoring "no such group").
fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group; it has no memory
        // effects in this process.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_exit_status_and_output() {
        let r = run_limited(
            Command::new("sh").args(["-c", "printf 'a\\nb'; echo err >&2; exit 3"]),
            Duration::from_secs(20),
            1 << 20,
        )
        .unwrap();
        assert_eq!(r.termination, Termination::Exited(3));
        assert_eq!(r.stdout, b"a\nb");
        assert_eq!(r.stderr, b"err\n");
        assert!(!r.truncated);
    }

    #[test]
    fn kills_a_child_that_runs_too_long() {
        let r = run_limited(
            Command::new("sh").args(["-c", "sleep 30"]),
            Duration::from_millis(100),
            1 << 20,
        )
        .unwrap();
        assert_eq!(r.termination, Termination::TimedOut);
    }

    #[test]
    fn reports_a_signal_and_keeps_a_prefix_of_big_output() {
        let r = run_limited(
            Command::new("sh").args(["-c", "head -c 100000 /dev/zero; kill -SEGV $$"]),
            Duration::from_secs(20),
            1000,
        )
        .unwrap();
        assert_eq!(r.termination, Termination::Signaled(libc::SIGSEGV));
        assert_eq!(r.stdout.len(), 1000);
        assert!(r.truncated);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        assert!(run_limited(
            &mut Command::new("/nonexistent/phihunt-no-such-program"),
            Duration::from_secs(1),
            10
        )
        .is_err());
    }
}
