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
//! seeded bugs active now, the passes switched off, the include directories, the
//! signature and, for a `*@cc` finding, the compiler under test and its target — so the
//! script judges a candidate exactly as the in-process reducer does.

use crate::c::cc::CompilerUnderTest;
use crate::diff::Signature;
use compiler::mutants;
use compiler::pipeline::PipelineOptions;
use oracle::native::{run_limited, Termination};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The file name C-Vise reduces inside its directory.
const FILE_NAME: &str = "case.c";

/// What the script's `phihunt reduce-test` must judge a candidate by, besides the file.
#[derive(Clone, Debug)]
pub struct ScriptTest<'a> {
    pub signature: &'a Signature,
    pub include_dirs: &'a [PathBuf],
    /// The gcc lint flags in force.
    pub lint: &'a [String],
    /// The passes switched off (`--disable-passes`).
    pub pipeline: &'a PipelineOptions,
    /// The compiler under test of a `*@cc` signature (`--cc`, `--cc-target`).
    pub cc: Option<&'a CompilerUnderTest>,
}

/// A word for `sh`, in single quotes.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The interestingness script: exits 0 when `case.c` in the current directory is
/// defined and shows `test.signature`.
pub fn script_text(phihunt: &Path, test: &ScriptTest) -> String {
    let (signature, include_dirs, lint) = (test.signature, test.include_dirs, test.lint);
    let mut cmd = vec![shell_quote(&phihunt.display().to_string())];
    let active = mutants::active();
    if !active.is_empty() {
        let names: Vec<&str> = active.iter().map(|m| m.name()).collect();
        cmd.push(format!("--mutant {}", names.join(",")));
    }
    if !test.pipeline.disabled.is_empty() {
        let names: Vec<&str> = test.pipeline.disabled.iter().map(String::as_str).collect();
        cmd.push(format!(
            "--disable-passes {}",
            shell_quote(&names.join(","))
        ));
    }
    cmd.push("reduce-test".into());
    if let Some(cc) = test.cc {
        cmd.push(format!("--cc {}", shell_quote(&cc.command)));
        cmd.push(format!("--cc-target {}", cc.target.name()));
    }
    cmd.push(format!(
        "--signature {}",
        shell_quote(&signature.to_string())
    ));
    for d in include_dirs {
        cmd.push(format!("-I {}", shell_quote(&d.display().to_string())));
    }
    cmd.push(format!("--lint={}", shell_quote(&lint.join(","))));
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

/// Runs C-Vise on `text` with the script for `test`, for at most `budget`. `Err` when
/// C-Vise is missing or fails to start.
pub fn run_cvise(text: &str, test: &ScriptTest, budget: Duration) -> Result<CviseResult, String> {
    let dir = tempfile::Builder::new()
        .prefix("phihunt-cvise-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let phihunt =
        std::env::current_exe().map_err(|e| format!("cannot find phihunt itself: {e}"))?;
    let script = dir.path().join("interesting.sh");
    std::fs::write(&script, script_text(&phihunt, test))
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
