//! Which c-torture tests are tests on a target: gcc -O0 builds them and their binary runs
//! cleanly (exit status 0, no signal, within the time limit) on that target — cached.
//!
//! Why: a test that gcc's own -O0 build fails (a GNU feature the cross glibc lacks, a
//! `dg-options` flag the plain build does not pass, a target-specific test) says nothing
//! about phicc, so it is left out on that target and counted under its reason. gcc's run
//! is also the reference every phicc stage is held to: exit 0 and exactly its stdout
//! (almost every test prints nothing). Building and running 1,500 tests on four targets
//! takes several minutes of gcc and qemu, so the result is cached.
//!
//! How it is built: `<target gcc> -static -w -O0 TEST.c` (the native runner's `build`),
//! run like every native binary (x86_64 directly, the others under qemu-user, empty
//! environment, `argv[0] = a.out`, in the build's temporary directory). No gcc -O2 check
//! (the one `check FILE.c` makes): gcc runs these tests at every optimisation level in its
//! own test suite, so they are defined by construction; the UB judge still runs on every
//! test phicc accepts (`judge.rs`), and what it finds is listed.
//!
//! The cache: one JSON file per target, `selection-TARGET-VERSION.json` in the cache
//! directory, where VERSION is the first line of the target driver's `--version`
//! (sanitised): another gcc is another file, never a stale answer. Each entry keeps a
//! hash of the test's source, so an edited or replaced test is built again. The file is
//! rewritten atomically (a `tempfile` in the same directory, renamed over it).
//!
//! Invariants: every build and run is under a time limit (the native runner's
//! `run_limited`); a setup failure (driver or qemu missing) is an `Err`, never a test
//! that is "not clean".

use super::suite::TortureTest;
use crate::native::NativeLimits;
use compiler::target::Target;
use oracle::native::targets::{native_target, tool_path};
use oracle::native::{
    build, run, run_limited, BuildConfig, BuildError, Exit, RunLimits, Source, Termination,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// gcc -O0's build and run of one test on one target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// FNV-1a hash of the test's bytes, hex.
    pub source_hash: String,
    /// `clean`, or why not: `rejected: ...`, `exit N`, `signal N (SIGABRT)`, `timeout`,
    /// `build timeout`.
    pub verdict: String,
    /// The binary's stdout (a clean run's is the reference).
    #[serde(default)]
    pub stdout: Vec<u8>,
    /// Wall time of the run, in milliseconds.
    #[serde(default)]
    pub run_ms: u64,
}

impl Reference {
    pub const CLEAN: &'static str = "clean";

    pub fn is_clean(&self) -> bool {
        self.verdict == Reference::CLEAN
    }

    /// The reason a test is left out, as it is counted (`exit N` and `signal N` folded
    /// into their kind, `rejected` without the message).
    pub fn reason_class(&self) -> String {
        let v = self.verdict.as_str();
        if v.starts_with("rejected") {
            "gcc -O0 rejects it".into()
        } else if v.contains("SIGABRT") {
            "gcc -O0's binary aborts".into()
        } else if v.starts_with("signal") {
            "gcc -O0's binary dies by a signal".into()
        } else if v.starts_with("exit") {
            "gcc -O0's binary exits non-zero".into()
        } else {
            v.to_string()
        }
    }
}

/// The cached selection of one target.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TargetSelection {
    /// The driver's `--version` first line: the cache key.
    pub gcc_version: String,
    pub tests: BTreeMap<String, Reference>,
}

/// FNV-1a of `bytes`, as 16 hex digits (a cache key, not a security hash).
pub fn source_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The first line of `target`'s gcc driver's `--version`. `Err` when it is missing.
pub fn gcc_version(target: Target) -> Result<String, String> {
    let gcc = native_target(target).gcc;
    let driver =
        tool_path(gcc).ok_or_else(|| format!("{gcc} is not on PATH: run scripts/setup.sh"))?;
    let done = run_limited(
        Command::new(driver).arg("--version"),
        Duration::from_secs(30),
        1 << 16,
    )?;
    if done.termination != Termination::Exited(0) {
        return Err(format!("{gcc} --version failed"));
    }
    Ok(String::from_utf8_lossy(&done.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string())
}

/// The cache file of `target` under `dir` for the driver `version`.
pub fn cache_file(dir: &Path, target: Target, version: &str) -> PathBuf {
    dir.join(format!(
        "selection-{}-{}.json",
        target.name(),
        file_key(version)
    ))
}

/// `version` as a file-name part: anything but letters, digits, `.` and `-` is `_`.
pub fn file_key(version: &str) -> String {
    version
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Reads a cache file; a missing or unreadable one is an empty selection (rebuilt).
fn load(path: &Path, version: &str) -> TargetSelection {
    let read = std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<TargetSelection>(&b).ok());
    match read {
        Some(s) if s.gcc_version == version => s,
        _ => TargetSelection {
            gcc_version: version.to_string(),
            tests: BTreeMap::new(),
        },
    }
}

/// Writes `sel` to `path` atomically (also the classification's cache).
pub(super) fn store<T: Serialize>(path: &Path, sel: &T) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| format!("cannot create a temporary file in {}: {e}", dir.display()))?;
    let text = serde_json::to_vec_pretty(sel).map_err(|e| e.to_string())?;
    tmp.write_all(&text)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// gcc -O0's build and run of `test` on `target`. `Err` only for a broken setup.
pub fn reference_of(
    test: &TortureTest,
    target: Target,
    hash: &str,
    limits: &NativeLimits,
) -> Result<Reference, String> {
    let cfg = BuildConfig {
        opt: "-O0".into(),
        timeout: limits.build_timeout,
        ..BuildConfig::default()
    };
    let entry = |verdict: String| Reference {
        source_hash: hash.to_string(),
        verdict,
        stdout: Vec::new(),
        run_ms: 0,
    };
    let built = match build(target, &[Source::CFile(&test.path)], &cfg) {
        Ok(b) => b,
        Err(BuildError::Rejected(m)) => return Ok(entry(format!("rejected: {m}"))),
        Err(BuildError::TimedOut) => return Ok(entry("build timeout".into())),
        Err(BuildError::Setup(m)) => return Err(m),
    };
    let limits = RunLimits {
        timeout: limits.run_timeout,
        max_output: limits.max_output,
    };
    let exec = run(target, &built, &[], &limits)?;
    let verdict = match exec.exit {
        Exit::Code(0) => Reference::CLEAN.to_string(),
        Exit::TimedOut => "timeout".into(),
        other => other.describe(),
    };
    Ok(Reference {
        source_hash: hash.to_string(),
        verdict,
        stdout: exec.stdout,
        run_ms: exec.elapsed.as_millis() as u64,
    })
}

/// Every target's selection of `tests`: taken from the cache in `cache_dir` where its
/// entry is current, built (on `jobs` threads) where not, and the cache rewritten.
/// Progress goes to stderr. `Err` for a broken setup.
pub fn select(
    tests: &[TortureTest],
    targets: &[Target],
    cache_dir: &Path,
    jobs: usize,
    limits: &NativeLimits,
) -> Result<Vec<(Target, TargetSelection)>, String> {
    let mut out = Vec::new();
    let mut hashes = BTreeMap::new();
    for t in tests {
        let bytes = std::fs::read(&t.path).map_err(|e| format!("{}: {e}", t.path.display()))?;
        hashes.insert(t.name.clone(), source_hash(&bytes));
    }
    for &target in targets {
        let version = gcc_version(target)?;
        let path = cache_file(cache_dir, target, &version);
        let mut sel = load(&path, &version);
        let todo: Vec<&TortureTest> = tests
            .iter()
            .filter(|t| {
                sel.tests
                    .get(&t.name)
                    .is_none_or(|r| Some(&r.source_hash) != hashes.get(&t.name))
            })
            .collect();
        if !todo.is_empty() {
            eprintln!(
                "torture: selecting {} test(s) on {} (gcc -O0 build and run; cached in {})",
                todo.len(),
                target.name(),
                path.display()
            );
            let built = build_all(&todo, target, &hashes, jobs, limits)?;
            sel.tests.extend(built);
            store(&path, &sel)?;
        }
        out.push((target, sel));
    }
    Ok(out)
}

/// [`reference_of`] for every test of `todo` on `jobs` threads.
fn build_all(
    todo: &[&TortureTest],
    target: Target,
    hashes: &BTreeMap<String, String>,
    jobs: usize,
    limits: &NativeLimits,
) -> Result<Vec<(String, Reference)>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(String, Reference)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(todo.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(test) = todo.get(i) else { break };
                let hash = hashes.get(&test.name).cloned().unwrap_or_default();
                match reference_of(test, target, &hash, limits) {
                    Ok(r) => {
                        let mut done = results.lock().unwrap_or_else(|p| p.into_inner());
                        done.push((test.name.clone(), r));
                        if done.len().is_multiple_of(200) {
                            eprintln!(
                                "torture: {} of {} selected on {}",
                                done.len(),
                                todo.len(),
                                target.name()
                            );
                        }
                    }
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        next.store(todo.len(), Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(results.into_inner().unwrap_or_else(|p| p.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_hash_matches_the_published_vectors() {
        // FNV-1a 64 test vectors (Fowler, Noll, Vo).
        assert_eq!(source_hash(b""), "cbf29ce484222325");
        assert_eq!(source_hash(b"a"), "af63dc4c8601ec8c");
        assert_eq!(source_hash(b"foobar"), "85944171f73967e8");
    }

    #[test]
    fn cache_files_differ_by_target_and_version() {
        let d = Path::new("/c");
        let a = cache_file(
            d,
            Target::I686,
            "i686-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0",
        );
        assert_eq!(
            a,
            Path::new("/c/selection-i686-i686-linux-gnu-gcc__Debian_12.2.0-14__12.2.0.json")
        );
        assert_ne!(a, cache_file(d, Target::I686, "i686-linux-gnu-gcc 13.1.0"));
        assert_ne!(
            a,
            cache_file(
                d,
                Target::Aarch64,
                "i686-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0"
            )
        );
    }
}
