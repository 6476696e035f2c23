//! The hunt's scratch directory: every temporary file of a hunt — the harness's own
//! (through `tempfile`), gcc's, the assembler's, csmith's — lives below one directory,
//! and that directory is removed when the hunt ends, however it ends.
//!
//! Why: a long hunt gets killed (SIGKILL, the OOM killer, a reboot of the session). Drop
//! handlers do not run then, and the children (gcc, its `cc1` and `as`, qemu) die with
//! their own files half written in `$TMPDIR`. A killed hunt must leave nothing behind.
//!
//! How: [`Scratch::install`] creates `phihunt-hunt-XXXXXX` in the current temporary
//! directory (through `tempfile`), points `TMPDIR` of this process (and so of every child
//! and of `tempfile`) at it, and starts a *reaper*: a small `sh` whose stdin is a pipe
//! from this process. Nothing else holds the pipe's write end (Rust opens pipes
//! close-on-exec), so when this process dies — by any signal — the reaper reads end of
//! file and removes the directory (retrying for a few seconds while killed children
//! finish dying). On a normal exit the `TempDir` removes it first and the reaper finds
//! nothing to do. The reaper runs in a process group of its own and ignores SIGINT,
//! SIGTERM and SIGHUP, so a Ctrl-C at the terminal or a kill of the hunt's process group
//! (`timeout`) does not take it down before the hunt.
//!
//! Invariant: installed once per process, from the command line (`hunt_command` for
//! `hunt`; [`for_command`] for every other long command: `bench *`, `reduce`, `check`,
//! `replay`), before any worker thread starts; library callers (tests running hunts
//! in-process) do not change the environment of their process.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The hunt's scratch directory and its reaper. Dropping it removes the directory.
pub struct Scratch {
    dir: Option<tempfile::TempDir>,
    reaper: Option<Child>,
}

const REAPER: &str = "trap '' INT TERM HUP; cat >/dev/null; \
    for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf -- \"$1\" 2>/dev/null; \
    [ -e \"$1\" ] || exit 0; sleep 1; done";

impl Scratch {
    /// Creates the scratch directory, makes it this process's `TMPDIR` and starts its
    /// reaper. Call before any other thread exists.
    pub fn install() -> Result<Scratch, String> {
        let dir = tempfile::Builder::new()
            .prefix("phihunt-hunt-")
            .tempdir()
            .map_err(|e| format!("cannot create the hunt's scratch directory: {e}"))?;
        let reaper = Command::new("sh")
            .arg("-c")
            .arg(REAPER)
            .arg("phihunt-reaper")
            .arg(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group: a kill of the hunt's group (`timeout`, a terminal's
            // Ctrl-C) does not reach it.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start the scratch directory's reaper: {e}"))?;
        // Single-threaded here (see the invariant): no other thread reads the environment.
        std::env::set_var("TMPDIR", dir.path());
        Ok(Scratch {
            dir: Some(dir),
            reaper: Some(reaper),
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), |d| d.path())
    }

    /// The scratch directory's path (for messages).
    pub fn path_buf(&self) -> PathBuf {
        self.path().to_path_buf()
    }
}

/// The scratch directory of a long command (`long`), installed as [`Scratch::install`]
/// does; `None` for a short one (`gen`, `reduce-test`: C-Vise runs the latter hundreds of
/// times inside `reduce`'s own scratch directory).
pub fn for_command(long: bool) -> Result<Option<Scratch>, String> {
    long.then(Scratch::install).transpose()
}

impl Drop for Scratch {
    fn drop(&mut self) {
        drop(self.dir.take());
        if let Some(mut reaper) = self.reaper.take() {
            // Closing the pipe lets the reaper finish (it finds the directory gone).
            drop(reaper.stdin.take());
            let _ = reaper.wait();
        }
    }
}
