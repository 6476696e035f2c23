//! The programs that build and run a target's code: its gcc driver (which compiles C,
//! assembles phicc's output and links `-static`), and the qemu-user binary that runs it
//! (none for x86_64, which runs directly on the x86_64 host these tests need).
//!
//! Why: every native check links and runs the same way; the differences between targets
//! are one row of [`toolchain`].
//!
//! Invariants: every child runs under a time limit ([`COMPILE_TIMEOUT`],
//! [`RUN_TIMEOUT`]) in the caller's `tempfile` directory; every program runs with
//! `argv[0] = "a.out"` (the harness's convention, which `corpus/c/argv.c` checks), and
//! under qemu without core dumps (qemu writes the guest's core itself when the guest dies
//! of a signal); a missing gcc or qemu fails with [`SETUP_HINT`], never a skip.

use super::gcc_cross::{run_limited, Finished, SETUP_HINT};
use compiler::backend::Target;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long gcc may take to compile or link one program.
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long one program may run (qemu included).
pub const RUN_TIMEOUT: Duration = Duration::from_secs(20);

/// How a program ended (`status`: exit status, `signal N` or `timeout`) and its output.
pub type Outcome = Finished;

/// The tools of one target.
#[derive(Clone, Copy, Debug)]
pub struct Toolchain {
    /// The gcc driver.
    pub gcc: &'static str,
    /// The qemu-user binary, or `None` when the code runs directly.
    pub qemu: Option<&'static str>,
    /// gcc flags for every build: gold where binutils has it for the target (two to three
    /// times faster than bfd on a static glibc link, and these tests link hundreds of
    /// programs per target; riscv64 has only bfd), and i686's SSE2 floats.
    pub link_flags: &'static [&'static str],
}

/// The tools of `target`.
pub fn toolchain(target: Target) -> Toolchain {
    let qemu = match target {
        Target::X86_64 => None,
        Target::I686 => Some("qemu-i386"),
        Target::Aarch64 => Some("qemu-aarch64"),
        Target::Riscv64 => Some("qemu-riscv64"),
    };
    let link_flags: &[&str] = match target {
        Target::Riscv64 => &[],
        // gold's Cortex-A53 erratum 843419 rewrite (which Debian's gcc asks for) dies
        // with an internal error on some layouts; qemu needs no erratum fix.
        Target::Aarch64 => &["-fuse-ld=gold", "-mno-fix-cortex-a53-843419"],
        // Floats in SSE2, as phicc's i686 backend and the harness's references
        // (`oracle::native::targets`): gcc's default x87 code keeps excess precision.
        Target::I686 => &["-fuse-ld=gold", "-msse2", "-mfpmath=sse"],
        _ => &["-fuse-ld=gold"],
    };
    Toolchain {
        gcc: target.gcc_driver(),
        qemu,
        link_flags,
    }
}

/// Fails with the setup hint when a tool of `target` is missing (or, for x86_64, when
/// the host cannot run x86-64 code).
pub fn require_toolchain(target: Target) {
    if target == Target::X86_64 {
        assert!(
            std::env::consts::ARCH == "x86_64",
            "the x86_64 native tests run phicc's code directly: they need an x86_64 host"
        );
    }
    let tools = toolchain(target);
    for tool in std::iter::once(tools.gcc).chain(tools.qemu) {
        let found = run_limited(Command::new(tool).arg("--version"), COMPILE_TIMEOUT);
        assert!(
            found.is_ok_and(|f| f.status == "0"),
            "{tool} ({}) not found: {SETUP_HINT}",
            target.name()
        );
    }
}

/// Compiles and links `sources` (C or assembly) with `target`'s gcc, `flags`, its link
/// flags and `-static` into `exe` (with `-c` in `flags`: compiles only); `Err` with gcc's message when it fails.
pub fn gcc(target: Target, flags: &[&str], sources: &[&Path], exe: &Path) -> Result<(), String> {
    let tools = toolchain(target);
    let gcc = tools.gcc;
    let mut cmd = Command::new(gcc);
    cmd.args(flags)
        .args(tools.link_flags)
        .arg("-static")
        .arg("-o")
        .arg(exe)
        .args(sources);
    // The math library (floor, sqrt, ... of `math.h`) is not in libc.a.
    if !flags.contains(&"-c") {
        cmd.arg("-lm");
    }
    let done = run_limited(&mut cmd, COMPILE_TIMEOUT).map_err(|e| format!("{e}: {SETUP_HINT}"))?;
    if done.status != "0" {
        return Err(format!(
            "{gcc} failed ({}): {}",
            done.status,
            String::from_utf8_lossy(&done.stderr)
        ));
    }
    Ok(())
}

/// Runs `target`'s executable `exe` in `dir` as `a.out` with `args`, killed after
/// `limit`.
pub fn run_binary_for(
    target: Target,
    exe: &Path,
    dir: &Path,
    args: &[&str],
    limit: Duration,
) -> Result<Outcome, String> {
    let mut cmd = match toolchain(target).qemu {
        None => {
            let mut cmd = Command::new(exe);
            cmd.arg0("a.out");
            cmd
        }
        Some(qemu) => {
            let mut cmd = Command::new("sh");
            cmd.arg("-c")
                .arg("ulimit -c 0 && exec \"$0\" \"$@\"")
                .arg(qemu)
                .arg("-0")
                .arg("a.out")
                .arg(exe);
            cmd
        }
    };
    cmd.args(args).current_dir(dir);
    run_limited(&mut cmd, limit).map_err(|e| format!("{e}: {SETUP_HINT}"))
}

/// [`run_binary_for`] with the usual time limit.
pub fn run_binary(
    target: Target,
    exe: &Path,
    dir: &Path,
    args: &[&str],
) -> Result<Outcome, String> {
    run_binary_for(target, exe, dir, args, RUN_TIMEOUT)
}
