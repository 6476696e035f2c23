//! csmith's program for one seed: csmith run under a time limit, in a fresh temporary
//! directory of its own.
//!
//! Invariant: csmith's failure (a crash, a time out, a truncated output) is the seed's
//! verdict (`Ok(Err(why))`), never a broken setup; only csmith missing is `Err`.

use oracle::native::{run_limited, Termination};
use std::process::Command;
use std::time::Duration;

/// csmith's program for `seed` (`Ok(Err(why))` when csmith fails or times out; `Err` when
/// it cannot be started). csmith writes `platform.info` into its working directory: each
/// call runs it in a fresh temporary directory below `work_dir`, because two csmith
/// processes sharing one directory race on that file (seen: exit 255, no message).
pub fn csmith_program(
    seed: u64,
    options: &[String],
    work_dir: &std::path::Path,
    timeout: Duration,
) -> Result<Result<String, String>, String> {
    let own_dir = tempfile::Builder::new()
        .prefix("csmith-")
        .tempdir_in(work_dir)
        .map_err(|e| format!("cannot create a directory in {}: {e}", work_dir.display()))?;
    let mut csmith = Command::new("csmith");
    csmith
        .arg("--seed")
        .arg(seed.to_string())
        .args(options)
        .current_dir(own_dir.path());
    let generated = run_limited(&mut csmith, timeout, 64 << 20)?;
    match generated.termination {
        Termination::Exited(0) if !generated.truncated => {
            Ok(Ok(String::from_utf8_lossy(&generated.stdout).into_owned()))
        }
        t => {
            let stderr = String::from_utf8_lossy(&generated.stderr);
            let first = stderr.lines().next().unwrap_or("").to_string();
            Ok(Err(format!("{t:?} {first}")))
        }
    }
}
