//! Real gcc for every phicc target, used compile-only: the cross compilers of
//! `scripts/setup.sh` turn a C program into assembly (`-S`), and the data of its
//! initialised globals is read back from the `.s` text, so a fact of the target ABI
//! (a size, an offset, a bit pattern) is taken from gcc without running anything for
//! aarch64 or riscv64 (no qemu needed).
//!
//! Shared by `layout_gcc.rs` and `target_facts_gcc.rs`; its child-process runner
//! ([`run_limited`]) also runs the native tests' gcc, qemu and programs
//! (`native_support`).
//!
//! Invariants: a missing cross gcc fails the calling test with the way to install it
//! (`scripts/setup.sh`), never a skip; every child process runs under a time limit; the
//! bytes read for a global always have the length its `.size` directive states (a data
//! directive this reader does not know fails loudly instead of being dropped).
#![allow(dead_code)]

use compiler::frontend::Target;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The gcc driver that compiles for `target`, and the Debian package that provides it.
pub fn gcc_for(target: Target) -> (&'static str, &'static str) {
    match target {
        Target::X86_64 => ("gcc", "gcc"),
        Target::I686 => ("i686-linux-gnu-gcc", "gcc-i686-linux-gnu"),
        Target::Aarch64 => ("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
        Target::Riscv64 => ("riscv64-linux-gnu-gcc", "gcc-riscv64-linux-gnu"),
    }
}

/// How a child run under [`run_limited`] ended, and what it printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The exit status (`"0"`, `"1"`, ...), `"signal N"`, or `"timeout"` when it was killed
    /// after its time limit.
    pub status: String,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs `cmd` with stdin empty and its stdout and stderr sent to anonymous temporary
/// files (no pipe can fill up; parallel runs in one directory cannot clash), killing it
/// after `limit` (its status is then `"timeout"`). `Err` only when it cannot be started.
pub fn run_limited(cmd: &mut Command, limit: Duration) -> Result<Finished, String> {
    use std::io::{Read, Seek};
    use std::os::unix::process::ExitStatusExt;
    let mut out = tempfile::tempfile().map_err(|e| format!("stdout file: {e}"))?;
    let mut err = tempfile::tempfile().map_err(|e| format!("stderr file: {e}"))?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::from(out.try_clone().map_err(|e| e.to_string())?))
        .stderr(Stdio::from(err.try_clone().map_err(|e| e.to_string())?))
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("waiting for {cmd:?}: {e}")),
        }
    };
    let read = |f: &mut std::fs::File| {
        let mut bytes = Vec::new();
        let _ = f.rewind();
        let _ = f.read_to_end(&mut bytes);
        bytes
    };
    let status = match status {
        None => "timeout".to_string(),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => code.to_string(),
            (None, Some(sig)) => format!("signal {sig}"),
            (None, None) => format!("{s}"),
        },
    };
    Ok(Finished {
        status,
        stdout: read(&mut out),
        stderr: read(&mut err),
    })
}

/// The way to install every toolchain these tests use.
pub const SETUP_HINT: &str = "run scripts/setup.sh (it installs gcc, the cross compilers \
     gcc-i686-linux-gnu, gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu, and qemu-user)";

/// [`run_limited`] for a tool that must finish: returns (success, stdout, stderr); panics
/// after `limit`, and when the program cannot be started (with the way to install it).
pub fn run_with_timeout(cmd: &mut Command, limit: Duration) -> (bool, String, String) {
    let done = run_limited(cmd, limit).unwrap_or_else(|e| panic!("{e}: {SETUP_HINT}"));
    assert!(
        done.status != "timeout",
        "{cmd:?} timed out after {limit:?}"
    );
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (done.status == "0", text(&done.stdout), text(&done.stderr))
}

/// A fresh scratch directory for one test, removed when the test's value drops (even when
/// the test fails); it reads as the directory's `Path`.
pub struct ScratchDir(tempfile::TempDir);

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

/// A scratch directory for `test` (the name shows in the directory's name, for debugging).
pub fn scratch_dir(test: &str) -> ScratchDir {
    ScratchDir(
        tempfile::Builder::new()
            .prefix(&format!("phicc_{test}_"))
            .tempdir()
            .expect("temp dir"),
    )
}

/// Compiles `program` for `target` with `gcc -std=gnu99 -w -O0 -S` plus `extra`, and
/// returns the assembly text. gcc rejecting the program fails the test.
pub fn gcc_asm(target: Target, program: &str, extra: &[&str], dir: &Path, name: &str) -> String {
    let (gcc, package) = gcc_for(target);
    let c = dir.join(format!("{name}.c"));
    let s = dir.join(format!("{name}.s"));
    std::fs::write(&c, program).expect("write C");
    let (ok, _, stderr) = run_with_timeout(
        Command::new(gcc)
            .args(["-std=gnu99", "-w", "-O0", "-S"])
            .args(extra)
            .arg(&c)
            .arg("-o")
            .arg(&s),
        Duration::from_secs(120),
    );
    assert!(
        ok,
        "{gcc} (package {package}, installed by scripts/setup.sh) failed on {}:\n{stderr}",
        c.display()
    );
    std::fs::read_to_string(&s).expect("read .s")
}

/// gcc's predefined macros for `target` under `-std=gnu99` (`gcc -dM -E`), by name.
pub fn gcc_predefined(target: Target) -> HashMap<String, String> {
    let (gcc, package) = gcc_for(target);
    // i686: floats in SSE2, as phicc's backend and the harness's references
    // (`__FLT_EVAL_METHOD__` 0, not x87's 2).
    let sse: &[&str] = if target == Target::I686 {
        &["-msse2", "-mfpmath=sse"]
    } else {
        &[]
    };
    let (ok, stdout, stderr) = run_with_timeout(
        Command::new(gcc)
            .args(sse)
            .args(["-std=gnu99", "-dM", "-E", "-x", "c", "/dev/null"]),
        Duration::from_secs(60),
    );
    assert!(ok, "{gcc} -dM -E (package {package}) failed:\n{stderr}");
    let mut macros = HashMap::new();
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("#define ") else {
            continue;
        };
        let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
        macros.insert(name.to_string(), value.to_string());
    }
    macros
}

/// The width of a data directive in bytes on `target` (`.word` is 2 bytes for the x86
/// assembler, 4 for aarch64's and riscv's); `None` for a directive that is not a sized
/// integer.
fn directive_width(directive: &str, target: Target) -> Option<usize> {
    let x86 = matches!(target, Target::X86_64 | Target::I686);
    Some(match directive {
        ".byte" => 1,
        ".value" | ".short" | ".hword" | ".half" | ".2byte" => 2,
        ".word" if x86 => 2,
        ".word" | ".long" | ".int" | ".4byte" => 4,
        ".quad" | ".xword" | ".dword" | ".8byte" => 8,
        _ => return None,
    })
}

/// The bytes of a C-escaped assembler string (`"\005\006"`, `"a\"b"`).
fn string_bytes(text: &str, line: &str) -> Vec<u8> {
    let inner = text
        .trim()
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or_else(|| panic!("unexpected string directive: {line}"));
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let e = *bytes.get(i).unwrap_or_else(|| panic!("bad escape: {line}"));
        i += 1;
        match e {
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                let mut n = 1;
                while n < 3 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'f' => out.push(0x0c),
            b'b' => out.push(0x08),
            b'v' => out.push(0x0b),
            b'a' => out.push(0x07),
            b'\\' | b'"' | b'\'' => out.push(e),
            _ => panic!("unknown escape \\{} in: {line}", e as char),
        }
    }
    out
}

/// The bytes of every labelled object in gcc's assembly for `target` (all targets are
/// little-endian), by label. Data before the first label of a section, and directives
/// that hold no data (`.align`, `.type`, `.globl`, ...), are ignored; every object's
/// length is checked against its `.size`.
pub fn data_objects(asm: &str, target: Target) -> HashMap<String, Vec<u8>> {
    let mut objects: HashMap<String, Vec<u8>> = HashMap::new();
    let mut sizes: HashMap<String, usize> = HashMap::new();
    let mut current: Option<String> = None;
    for line in asm.lines() {
        if !line.starts_with([' ', '\t']) {
            if let Some(label) = line.trim_end().strip_suffix(':') {
                objects.insert(label.to_string(), Vec::new());
                current = Some(label.to_string());
            }
            continue;
        }
        let t = line.trim();
        let (directive, rest) = t
            .split_once(|c: char| c.is_whitespace())
            .map_or((t, ""), |(d, r)| (d, r.trim()));
        match directive {
            ".size" => {
                let (name, n) = rest
                    .split_once(',')
                    .unwrap_or_else(|| panic!("bad .size: {line}"));
                if let Ok(n) = n.trim().parse::<usize>() {
                    sizes.insert(name.trim().to_string(), n);
                }
                continue;
            }
            ".text" | ".data" | ".bss" | ".section" | ".previous" => {
                current = None;
                continue;
            }
            _ => {}
        }
        let Some(name) = current.as_ref() else {
            continue;
        };
        let data = objects.get_mut(name).expect("current object");
        if let Some(width) = directive_width(directive, target) {
            for item in rest.split(',') {
                let item = item.trim();
                let (neg, digits) = match item.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, item),
                };
                let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
                    u128::from_str_radix(hex, 16)
                } else {
                    digits.parse::<u128>()
                }
                .unwrap_or_else(|_| panic!("unexpected data value: {line}"));
                let value = if neg {
                    magnitude.wrapping_neg()
                } else {
                    magnitude
                };
                data.extend_from_slice(&value.to_le_bytes()[..width]);
            }
        } else {
            match directive {
                ".zero" | ".skip" | ".space" => {
                    let n: usize = rest
                        .split(',')
                        .next()
                        .and_then(|n| n.trim().parse().ok())
                        .unwrap_or_else(|| panic!("bad {directive}: {line}"));
                    data.extend(std::iter::repeat_n(0u8, n));
                }
                ".string" | ".asciz" => {
                    data.extend(string_bytes(rest, line));
                    data.push(0);
                }
                ".ascii" => data.extend(string_bytes(rest, line)),
                _ if directive.starts_with(".") => {
                    // `.align`, `.type`, `.globl`, `.ident`, ...: no data.
                    const DATA_LIKE: [&str; 5] =
                        [".float", ".double", ".single", ".octa", ".sleb128"];
                    assert!(
                        !DATA_LIKE.contains(&directive),
                        "unhandled data directive: {line}"
                    );
                }
                _ => {}
            }
        }
    }
    for (name, size) in &sizes {
        if let Some(data) = objects.get(name) {
            assert_eq!(
                data.len(),
                *size,
                "{}: object {name}: bytes read from the .s differ from its .size",
                target.name()
            );
        }
    }
    objects
}

/// Little-endian `u64`s of `width` bytes each (`width` 1, 2, 4 or 8).
pub fn le_values(bytes: &[u8], width: usize) -> Vec<u64> {
    bytes
        .chunks(width)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

/// Fails listing every difference from gcc, if there is any.
pub fn assert_no_differences(mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{} differences from gcc:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
