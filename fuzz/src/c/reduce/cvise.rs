//! C-Vise with phihunt's own interestingness test, as a script.
//!
//! Why: `--cvise` lets C-Vise's many passes (renaming, clang-based ones) finish what our
//! reducer leaves, without giving up the guarantee that matters: the script C-Vise runs
//! calls `phihunt reduce-test`, the same test ([`super::interesting::judge`]: defined
//! first, then the signature), so C-Vise too can only keep defined programs. The same
//! script run on the *original* file measures C-Vise alone (`bench creduce`).
//!
//! Invariants: C-Vise runs in a `tempfile` directory on a copy of the file, under an
//! overall time limit (its process group is killed when it runs past it, and the copy
//! then holds its best result so far); the script names this very `phihunt` binary, the
//! seeded bugs active now, the include directories and the signature.

use crate::diff::Signature;
use compiler::mutants;
use oracle::native::{run_limited, Termination};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The file name C-Vise reduces inside its directory.
const FILE_NAME: &str = "case.c";

/// The interestingness script: exits 0 when `case.c` in the current directory is
/// defined and shows `signature`.
pub fn script_text(
    phihunt: &Path,
    signature: &Signature,
    include_dirs: &[PathBuf],
    lint: &[String],
) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let mut cmd = vec![quote(&phihunt.display().to_string())];
    let active = mutants::active();
    if !active.is_empty() {
        let names: Vec<&str> = active.iter().map(|m| m.name()).collect();
        cmd.push(format!("--mutant {}", names.join(",")));
    }
    cmd.push("reduce-test".into());
    cmd.push(format!("--signature {}", quote(&signature.to_string())));
    for d in include_dirs {
        cmd.push(format!("-I {}", quote(&d.display().to_string())));
    }
    cmd.push(format!("--lint={}", quote(&lint.join(","))));
    cmd.push(FILE_NAME.into());
    format!(
        "#!/bin/sh\n# phihunt's interestingness test for C-Vise: defined (UB judge, gcc lint, gcc -O0 = oracle), then {signature}.\nexec {} >/dev/null 2>&1\n",
        cmd.join(" ")
    )
}

/// What C-Vise produced.
#[derive(Clone, Debug)]
pub struct CviseResult {
    pub text: String,
    pub elapsed: Duration,
    /// False when the time limit stopped it.
    pub finished: bool,
}

/// Runs C-Vise on `text` with the test for `signature`, for at most `budget`. `Err` when
/// C-Vise is missing or fails to start.
pub fn run_cvise(
    text: &str,
    signature: &Signature,
    include_dirs: &[PathBuf],
    lint: &[String],
    budget: Duration,
) -> Result<CviseResult, String> {
    let dir = tempfile::Builder::new()
        .prefix("phihunt-cvise-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let phihunt =
        std::env::current_exe().map_err(|e| format!("cannot find phihunt itself: {e}"))?;
    let script = dir.path().join("interesting.sh");
    std::fs::write(
        &script,
        script_text(&phihunt, signature, include_dirs, lint),
    )
    .map_err(|e| format!("cannot write the script: {e}"))?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("cannot make the script executable: {e}"))?;
    }
    let case = dir.path().join(FILE_NAME);
    std::fs::write(&case, text).map_err(|e| format!("cannot write the case: {e}"))?;
    let start = Instant::now();
    let mut cmd = Command::new("cvise");
    cmd.current_dir(dir.path())
        .args(["--n", "1", "--tidy", "--timeout", "60"])
        .arg(&script)
        // C-Vise wants the case's bare name, relative to its working directory.
        .arg(FILE_NAME);
    let r = run_limited(&mut cmd, budget, 1 << 20)
        .map_err(|e| format!("{e} (install it: scripts/setup.sh)"))?;
    let finished = match r.termination {
        Termination::Exited(0) => true,
        Termination::TimedOut => false,
        other => {
            return Err(format!(
                "cvise failed ({other:?}): {}",
                String::from_utf8_lossy(&r.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ))
        }
    };
    let text =
        std::fs::read_to_string(&case).map_err(|e| format!("cannot read C-Vise's result: {e}"))?;
    Ok(CviseResult {
        text,
        elapsed: start.elapsed(),
        finished,
    })
}
