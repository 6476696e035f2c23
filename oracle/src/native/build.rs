//! Building a static executable for a target with its gcc driver, in a temporary
//! directory of its own.
//!
//! Why: every native run starts from a binary — gcc's build of a C program (the
//! reference), phicc's assembly linked with a C driver (`ir_driver`), a test's program —
//! and all of them are built the same way: `<gcc> -static -w <opt> <-I dirs> <extra>
//! <sources> -o a.out` (linked by GNU gold where the target has it), under a time limit,
//! in a directory nobody else uses.
//!
//! Invariants:
//! - a [`Build`] owns its directory (a [`tempfile::TempDir`]): the sources written for it,
//!   the binary, and whatever the binary writes when it runs there all go when the `Build`
//!   is dropped, also on a panic; a failed build leaves nothing behind;
//! - a directory is named `phihunt-native-PID-XXXXXX` after the process that made it, so
//!   the directories of a process killed outright (no destructor ran) are found and
//!   removed by [`remove_stale_dirs`], which the first build of every process runs;
//! - two builds never share a path, so builds may run in parallel;
//! - the driver runs under [`run_limited`] (its whole process group, `cc1`, `as`, `ld`, is
//!   killed on timeout);
//! - what the driver says is an outcome ([`BuildError::Rejected`], with paths inside the
//!   temporary directory shown relative to it, so the message is the same on every run);
//!   only a broken setup (driver missing, directory not writable) is
//!   [`BuildError::Setup`].

use super::process::{run_limited, Termination};
use super::targets::{native_target, tool_path};
use compiler::target::Target;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Once;
use std::time::Duration;
use tempfile::TempDir;

/// One source file of a build.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// GNU assembly text (phicc's output); written to `sN.s`.
    Asm(&'a str),
    /// C text; written to `sN.c`.
    C(&'a str),
    /// A C file that already exists, passed to the driver by its path.
    CFile(&'a Path),
}

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The optimisation flag (`-O0`, `-O2`); an empty string passes none.
    pub opt: String,
    /// `-I` directories, in order.
    pub include_dirs: Vec<PathBuf>,
    /// Further flags after the `-I` directories (`-DNAME`, ...).
    pub extra_flags: Vec<String>,
    /// Wall-time limit of the driver.
    pub timeout: Duration,
}

impl Default for BuildConfig {
    /// `-O0`, no include directories or flags, 30 seconds.
    fn default() -> BuildConfig {
        BuildConfig {
            opt: "-O0".into(),
            include_dirs: Vec::new(),
            extra_flags: Vec::new(),
            timeout: Duration::from_secs(30),
        }
    }
}

/// A built executable. Dropping it deletes its directory and everything in it.
#[derive(Debug)]
pub struct Build {
    dir: TempDir,
    /// The executable (`a.out` in the build's directory).
    pub binary: PathBuf,
    /// Wall time of the driver (compile, assemble, link).
    pub elapsed: Duration,
}

impl Build {
    /// The build's temporary directory (the runner's working directory).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A build that the caller's own command made in `dir` (from [`build_dir`]): the
    /// executable is `dir/a.out`; `elapsed` is the command's wall time. (phihunt's
    /// `--cc` runs any C compiler this way and classifies its failures itself.)
    pub fn adopt(dir: TempDir, elapsed: Duration) -> Build {
        let binary = dir.path().join("a.out");
        Build {
            dir,
            binary,
            elapsed,
        }
    }
}

/// A fresh build directory, named so that [`remove_stale_dirs`] finds it when this
/// process is killed outright.
pub fn build_dir() -> Result<TempDir, String> {
    static SWEEP: Once = Once::new();
    SWEEP.call_once(|| {
        remove_stale_dirs();
    });
    tempfile::Builder::new()
        .prefix(&format!("{DIR_PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))
}

/// Why there is no executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The driver failed: its first error line (paths in the build directory relative).
    Rejected(String),
    /// The driver ran past [`BuildConfig::timeout`] and was killed.
    TimedOut,
    /// The build could not be attempted: the driver is not installed, the temporary
    /// directory cannot be written, ...
    Setup(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Rejected(m) => write!(f, "build failed: {m}"),
            BuildError::TimedOut => write!(f, "build timed out"),
            BuildError::Setup(m) => write!(f, "cannot build: {m}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds `sources` into one static executable for `target` with the target's gcc
/// driver: `<gcc> -static -w <opt> <-I dirs> <extra flags> <target cflags> <sources> -o
/// a.out` (the target's `cflags`: i686's SSE2 float flags).
pub fn build(target: Target, sources: &[Source], cfg: &BuildConfig) -> Result<Build, BuildError> {
    let row = native_target(target);
    let gcc = row.gcc;
    let driver = tool_path(gcc).ok_or_else(|| {
        BuildError::Setup(format!(
            "{gcc} (the {} driver) is not on PATH: run scripts/setup.sh",
            target.name()
        ))
    })?;
    let gold = gold_flag(gcc);
    // gold's Cortex-A53 erratum 843419 rewrite (which Debian's gcc asks for) dies with an
    // internal error on some layouts ("try_fix_erratum_843419_optimized"); qemu needs no
    // erratum fix.
    let no_erratum_fix = (gold.is_some() && target == Target::Aarch64)
        .then(|| "-mno-fix-cortex-a53-843419".to_string());
    let cfg = BuildConfig {
        extra_flags: cfg
            .extra_flags
            .iter()
            .cloned()
            .chain(row.cflags.iter().map(|f| f.to_string()))
            .chain(gold)
            .chain(no_erratum_fix)
            .collect(),
        ..cfg.clone()
    };
    build_with(&driver, true, sources, &cfg)
}

/// `-fuse-ld=gold` when the driver's target has GNU gold (`TRIPLE-ld.gold` on `PATH`):
/// a static link against glibc is most of a native stage's cost, and gold does it with
/// about 40% less CPU than the default BFD linker (measured for x86_64, i686 and
/// aarch64; riscv64 has no gold and keeps BFD). The binary behaves the same.
fn gold_flag(gcc: &str) -> Option<String> {
    let triple = gcc.strip_suffix("-gcc")?;
    tool_path(&format!("{triple}-ld.gold")).map(|_| "-fuse-ld=gold".to_string())
}

/// [`build`] with an explicit driver, linked statically or not (the host reference of
/// [`super::gcc::reference_run`] keeps its dynamic link).
pub(crate) fn build_with(
    driver: &Path,
    link_static: bool,
    sources: &[Source],
    cfg: &BuildConfig,
) -> Result<Build, BuildError> {
    let dir = build_dir().map_err(BuildError::Setup)?;
    let mut gcc = Command::new(driver);
    if link_static {
        gcc.arg("-static");
    }
    gcc.arg("-w");
    if !cfg.opt.is_empty() {
        gcc.arg(&cfg.opt);
    }
    for inc in &cfg.include_dirs {
        gcc.arg("-I").arg(inc);
    }
    gcc.args(&cfg.extra_flags);
    for (i, source) in sources.iter().enumerate() {
        let (text, ext) = match source {
            Source::CFile(path) => {
                gcc.arg(path);
                continue;
            }
            Source::Asm(text) => (text, "s"),
            Source::C(text) => (text, "c"),
        };
        let path = dir.path().join(format!("s{i}.{ext}"));
        std::fs::write(&path, text)
            .map_err(|e| BuildError::Setup(format!("cannot write {}: {e}", path.display())))?;
        gcc.arg(path);
    }
    // The math library (floor, sqrt, ... of `math.h`) is not in a static libc.a.
    gcc.arg("-lm");
    let binary = dir.path().join("a.out");
    gcc.arg("-o").arg(&binary);
    let done = run_limited(&mut gcc, cfg.timeout, 1 << 16).map_err(BuildError::Setup)?;
    match done.termination {
        Termination::Exited(0) => Ok(Build {
            dir,
            binary,
            elapsed: done.elapsed,
        }),
        Termination::TimedOut => Err(BuildError::TimedOut),
        Termination::Exited(code) => Err(BuildError::Rejected(first_error_line(
            &done.stderr,
            dir.path(),
            &format!(
                "{} exited with status {code} without a message",
                driver.display()
            ),
        ))),
        Termination::Signaled(sig) => Err(BuildError::Rejected(format!(
            "{} killed by signal {sig}",
            driver.display()
        ))),
    }
}

/// The start of every build directory's name; the creating process's id follows.
const DIR_PREFIX: &str = "phihunt-native-";

/// Removes the build directories (in the system's temporary directory, owned by this
/// user) of processes that no longer exist: what a killed harness left behind. Returns
/// how many were removed. Directories of live processes, this one included, are kept.
pub fn remove_stale_dirs() -> usize {
    remove_stale_dirs_in(&std::env::temp_dir())
}

fn remove_stale_dirs_in(tmp: &Path) -> usize {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return 0;
    };
    // SAFETY: getuid(2) cannot fail and has no memory effects.
    let uid = unsafe { libc::getuid() };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(DIR_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        let ours = entry.metadata().is_ok_and(|m| m.is_dir() && m.uid() == uid);
        if ours && pid > 0 && !process_exists(pid) && std::fs::remove_dir_all(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// True when a process `pid` exists (signal 0 reaches it, or it exists but is not ours).
fn process_exists(pid: libc::pid_t) -> bool {
    // SAFETY: kill(2) with signal 0 only checks for existence and permission.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// The first line of `stderr` that mentions an error (gcc's `error:`, the assembler's
/// `Error:`, the linker's `undefined reference`), else the first line, else `fallback`;
/// `dir/` removed so messages do not depend on the temporary directory's name.
pub fn first_error_line(stderr: &[u8], dir: &Path, fallback: &str) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text
        .lines()
        .find(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("error") || l.contains("undefined reference")
        })
        .or_else(|| text.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or(fallback);
    let prefix = format!("{}/", dir.display());
    line.replace(&prefix, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_directories_of_dead_processes_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let mut child = Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = tmp.path().join(format!("{DIR_PREFIX}{dead}-abc"));
        let live = tmp
            .path()
            .join(format!("{DIR_PREFIX}{}-def", std::process::id()));
        let other = tmp.path().join(format!("other-{dead}-abc"));
        for d in [&stale, &live, &other] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("a.out"), "x").unwrap();
        }
        assert_eq!(remove_stale_dirs_in(tmp.path()), 1);
        assert!(!stale.exists() && live.exists() && other.exists());
    }

    #[test]
    fn error_lines_are_picked_and_made_independent_of_the_directory() {
        let dir = Path::new("/tmp/phihunt-native-abc");
        let stderr = b"/tmp/phihunt-native-abc/s0.c: In function 'main':\n\
            /tmp/phihunt-native-abc/s0.c:1:25: error: 'x' undeclared\n";
        assert_eq!(
            first_error_line(stderr, dir, "none"),
            "s0.c:1:25: error: 'x' undeclared"
        );
        let stderr = b"/tmp/phihunt-native-abc/s0.s: Assembler messages:\n\
            /tmp/phihunt-native-abc/s0.s:3: Error: no such instruction: `bogus'\n";
        assert_eq!(
            first_error_line(stderr, dir, "none"),
            "s0.s:3: Error: no such instruction: `bogus'"
        );
        assert_eq!(first_error_line(b"odd\n", dir, "none"), "odd");
        assert_eq!(first_error_line(b"", dir, "none"), "none");
    }
}
