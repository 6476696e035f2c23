//! The native target table: for each [`Target`], the gcc driver that assembles and links
//! its binaries and the qemu-user binary that runs them (DESIGN.md: a new target is one
//! folder under `compiler/src/backend/` and one row here).
//!
//! Why: the native runner, the harness and the tests must agree on which programs build
//! and run a target's code, and on whether a target can be used on this machine at all;
//! one table answers both.
//!
//! Invariants:
//! - a target runs directly (`qemu: None`) exactly when it is the architecture this
//!   oracle was compiled for; every other target runs under its qemu-user binary (i686
//!   too on an x86_64 host, as the issue asks: the same runner path as on any other host);
//! - tools are looked up on `PATH` once per process ([`tool_path`] caches the answer), so
//!   asking for availability in a loop costs nothing, and every child is started from the
//!   absolute path found then (a child with an empty environment has no `PATH` of its
//!   own to search).

use compiler::target::Target;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// One row of the table: how binaries of `target` are built and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeTarget {
    /// The target this row is for.
    pub target: Target,
    /// The gcc driver (a program name looked up on `PATH`): compiles C, assembles, and
    /// links `-static` against the target's glibc.
    pub gcc: &'static str,
    /// The qemu-user binary that runs the target's programs, or `None` when they run
    /// directly on this machine.
    pub qemu: Option<&'static str>,
    /// Code-generation flags every build for the target passes to `gcc`: i686 computes
    /// floats in SSE2 registers (`-msse2 -mfpmath=sse`), as phicc's backend does, rather
    /// than on the x87 stack, whose 80-bit intermediates (FLT_EVAL_METHOD 2) round
    /// differently from the IR's `f32`/`f64` operations. Harmless for integer code (the
    /// same results; gcc may only pick other instructions), so every i686 reference build
    /// gets them, not only programs with floats.
    pub cflags: &'static [&'static str],
}

/// The architecture this oracle runs on, when it is one of phicc's targets.
pub const HOST: Option<Target> = if cfg!(target_arch = "x86_64") {
    Some(Target::X86_64)
} else if cfg!(target_arch = "x86") {
    Some(Target::I686)
} else if cfg!(target_arch = "aarch64") {
    Some(Target::Aarch64)
} else if cfg!(target_arch = "riscv64") {
    Some(Target::Riscv64)
} else {
    None
};

/// The row for `t`.
pub fn native_target(t: Target) -> NativeTarget {
    let (gcc, qemu) = match t {
        Target::X86_64 => ("x86_64-linux-gnu-gcc", "qemu-x86_64"),
        Target::I686 => ("i686-linux-gnu-gcc", "qemu-i386"),
        Target::Aarch64 => ("aarch64-linux-gnu-gcc", "qemu-aarch64"),
        Target::Riscv64 => ("riscv64-linux-gnu-gcc", "qemu-riscv64"),
    };
    let cflags: &'static [&'static str] = match t {
        Target::I686 => &["-msse2", "-mfpmath=sse"],
        _ => &[],
    };
    NativeTarget {
        target: t,
        gcc,
        qemu: (HOST != Some(t)).then_some(qemu),
        cflags,
    }
}

/// The tools of `t` (its gcc driver, its qemu when it needs one) that are not on `PATH`,
/// in that order; empty when the target can be used.
pub fn missing_tools(t: Target) -> Vec<&'static str> {
    let row = native_target(t);
    std::iter::once(row.gcc)
        .chain(row.qemu)
        .filter(|tool| tool_path(tool).is_none())
        .collect()
}

/// True when every tool of `t` is on `PATH`.
pub fn available(t: Target) -> bool {
    missing_tools(t).is_empty()
}

/// The targets whose tools are all installed, in [`Target::ALL`] order.
pub fn available_targets() -> Vec<Target> {
    Target::ALL.into_iter().filter(|&t| available(t)).collect()
}

/// A one-line hint for a target that cannot be used: which tools are missing and how to
/// install them. `None` when nothing is missing.
pub fn setup_hint(t: Target) -> Option<String> {
    let missing = missing_tools(t);
    (!missing.is_empty()).then(|| {
        format!(
            "native target {} needs {} on PATH: run scripts/setup.sh",
            t.name(),
            missing.join(" and ")
        )
    })
}

/// The absolute path of the executable `tool` on `PATH` (or `tool` itself when it
/// contains a `/`), looked up once per process and cached; `None` when there is none.
pub fn tool_path(tool: &str) -> Option<PathBuf> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<PathBuf>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    // A poisoned lock only means another thread panicked between lookups; the map is
    // still a valid cache.
    let mut map = cache.lock().unwrap_or_else(|poison| poison.into_inner());
    map.entry(tool.to_string())
        .or_insert_with(|| search_path(tool, std::env::var_os("PATH").as_deref()))
        .clone()
}

/// `tool` searched in the directories of `path` (a `PATH` value), as `execvp` would.
fn search_path(tool: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    if tool.contains('/') {
        let p = Path::new(tool);
        return is_executable(p).then(|| p.to_path_buf());
    }
    std::env::split_paths(path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(tool))
        .find(|candidate| is_executable(candidate))
}

/// A regular file with an execute bit set.
fn is_executable(p: &Path) -> bool {
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_each_targets_driver_and_qemu() {
        let rows: Vec<_> = Target::ALL.into_iter().map(native_target).collect();
        assert_eq!(rows[0].gcc, "x86_64-linux-gnu-gcc");
        assert_eq!(rows[1].gcc, "i686-linux-gnu-gcc");
        assert_eq!(rows[1].cflags, ["-msse2", "-mfpmath=sse"]);
        assert!(rows[0].cflags.is_empty());
        assert_eq!(rows[2].gcc, "aarch64-linux-gnu-gcc");
        assert_eq!(rows[3].gcc, "riscv64-linux-gnu-gcc");
        for row in &rows {
            assert_eq!(row.qemu.is_none(), HOST == Some(row.target), "{row:?}");
        }
        if cfg!(target_arch = "x86_64") {
            let qemus: Vec<_> = rows.iter().map(|r| r.qemu).collect();
            assert_eq!(
                qemus,
                [
                    None,
                    Some("qemu-i386"),
                    Some("qemu-aarch64"),
                    Some("qemu-riscv64")
                ]
            );
        }
    }

    #[test]
    fn path_search_finds_executables_only() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("tool-x");
        let plain = dir.path().join("tool-plain");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::write(&plain, "").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path =
            std::env::join_paths(["/nonexistent-phihunt", dir.path().to_str().unwrap()]).unwrap();
        assert_eq!(search_path("tool-x", Some(&path)), Some(exe.clone()));
        assert_eq!(search_path("tool-plain", Some(&path)), None);
        assert_eq!(search_path("tool-none", Some(&path)), None);
        assert_eq!(search_path("tool-x", None), None);
        assert_eq!(search_path(exe.to_str().unwrap(), None), Some(exe));
    }

    #[test]
    fn a_missing_tool_is_named_in_the_hint() {
        assert_eq!(tool_path("phihunt-no-such-tool-xyz"), None);
        // `sh` is on every PATH this runs with.
        assert!(tool_path("sh").is_some_and(|p| p.is_absolute()));
        for t in available_targets() {
            assert_eq!(setup_hint(t), None);
        }
    }
}
