//! phicc's AArch64 code, run under qemu-aarch64, computes what gcc's code and the IR's
//! own arithmetic compute.
//!
//! Why: the backend is only right if its programs run right. The references are never
//! phicc itself:
//! - every `corpus/c` program (they check themselves: ASSERT lines on stdout, exit status
//!   1 on a wrong value) compiled by phicc with both register allocators must exit with
//!   the same status and print the same bytes as `aarch64-linux-gnu-gcc -O0`'s binary;
//! - every `; run:` line of `corpus/ir` (expected values written in the files) is called
//!   through a C driver that gcc compiles, so the call crosses the real AAPCS64;
//! - a generated module runs every operation at every width with values, immediates and
//!   wide constants, and must print what `ir::eval` computes;
//! - frames (realignment, stack arguments, a 1 MiB alloca), memcpy of every size, traps
//!   at every width, and the three seeded AArch64 bugs (each must change what a program
//!   computes, while the correct backend computes the hand-worked value);
//! - a function of 1.2 MB of code, whose branches must be printed in their long form;
//! - a few csmith programs (fixed seeds) against gcc -O0.
//!
//! Every child runs under a timeout in a temporary directory, qemu with `argv[0] =
//! "a.out"` (which `corpus/c/argv.c` checks) and no core dumps. Without the cross gcc or
//! qemu-aarch64 the tests fail with a hint instead of skipping.

use compiler::backend::{compile_module, BackendOptions, RegallocMode, Target};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::ir::IrModule;
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const GCC: &str = "aarch64-linux-gnu-gcc";
const QEMU: &str = "qemu-aarch64";
const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);
const RUN_TIMEOUT: Duration = Duration::from_secs(10);

/// How a program ended.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// The exit status, or `signal N`, or `timeout`.
    status: String,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs `cmd` with stdout and stderr captured, killing it after `timeout`.
fn run(mut cmd: Command, timeout: Duration) -> Result<Outcome, String> {
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let mut out_pipe = child.stdout.take().ok_or("no stdout pipe")?;
    let mut err_pipe = child.stderr.take().ok_or("no stderr pipe")?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("waiting for {cmd:?}: {e}")),
        }
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let status = match status {
        None => "timeout".to_string(),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => code.to_string(),
            (None, Some(sig)) => format!("signal {sig}"),
            (None, None) => format!("{s}"),
        },
    };
    Ok(Outcome {
        status,
        stdout,
        stderr,
    })
}

/// Links `sources` (C or assembly) statically into `exe`.
fn gcc(args: &[&str], sources: &[&Path], exe: &Path) -> Result<(), String> {
    let mut cmd = Command::new(GCC);
    cmd.args(args)
        .arg("-static")
        .arg("-o")
        .arg(exe)
        .args(sources);
    let outcome = run(cmd, COMPILE_TIMEOUT)?;
    if outcome.status != "0" {
        return Err(format!(
            "{GCC} failed ({}): {}",
            outcome.status,
            String::from_utf8_lossy(&outcome.stderr)
        ));
    }
    Ok(())
}

/// Runs `exe` under qemu-aarch64 in `dir` as `a.out` with `args`, without core dumps
/// (qemu writes the guest's core itself when the guest dies of a signal).
fn run_binary(exe: &Path, dir: &Path, args: &[&str], timeout: Duration) -> Result<Outcome, String> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -c 0 && exec \"$0\" \"$@\"")
        .arg(QEMU)
        .arg("-0")
        .arg("a.out")
        .arg(exe)
        .args(args)
        .current_dir(dir);
    run(cmd, timeout)
}

fn assert_toolchain() {
    for tool in [GCC, QEMU] {
        assert!(
            Command::new(tool).arg("--version").output().is_ok(),
            "{tool} not found: run scripts/setup.sh (it installs the cross toolchains and qemu-user)"
        );
    }
}

fn options(mode: RegallocMode) -> BackendOptions {
    BackendOptions {
        regalloc: mode,
        check_allocation: true,
    }
}

/// The module `file` compiles to, through the whole pipeline, for AArch64.
fn phicc_module(file: &Path) -> Result<IrModule, String> {
    let mut opts = default_options();
    opts.target = Target::Aarch64;
    let compiled = compile_c_file(file, &opts).map_err(|e| e.to_string())?;
    run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())
}

/// Compares phicc's binaries of the C file `file` (both allocators) with gcc -O0's; the
/// differences, described.
fn check_c_file(file: &Path, run_timeout: Duration) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reference_exe = dir.path().join("gcc.out");
    gcc(&["-O0", "-w"], &[file], &reference_exe)?;
    let reference = run_binary(&reference_exe, dir.path(), &[], run_timeout)?;
    let mut problems = Vec::new();
    let module = match phicc_module(file) {
        Ok(m) => m,
        Err(e) => return Ok(vec![format!("{}: phicc: {e}", file.display())]),
    };
    for mode in RegallocMode::ALL {
        let asm = dir.path().join(format!("{}.s", mode.name()));
        let exe = dir.path().join(format!("{}.out", mode.name()));
        let text = match compile_module(&module, Target::Aarch64, &options(mode)) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{}: phicc/{}: {e}", file.display(), mode.name()));
                continue;
            }
        };
        std::fs::write(&asm, text).map_err(|e| e.to_string())?;
        if let Err(e) = gcc(&[], &[&asm], &exe) {
            problems.push(format!("{}: {}: {e}", file.display(), mode.name()));
            continue;
        }
        let mine = run_binary(&exe, dir.path(), &[], run_timeout)?;
        if mine.status != reference.status || mine.stdout != reference.stdout {
            problems.push(format!(
                "{}: {}: exit {} vs gcc's {}; stdout {:?}\n  gcc's {:?}",
                file.display(),
                mode.name(),
                mine.status,
                reference.status,
                String::from_utf8_lossy(&mine.stdout),
                String::from_utf8_lossy(&reference.stdout)
            ));
        }
    }
    Ok(problems)
}

fn corpus_files(sub: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// Runs `check` on every item on two threads; every problem found.
fn on_two_threads<T: Send + Clone>(
    items: Vec<T>,
    check: impl Fn(&T) -> Vec<String> + Sync,
) -> Vec<String> {
    let queue = Mutex::new(items);
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(item) = queue.lock().unwrap().pop() else {
                    break;
                };
                let found = check(&item);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    problems.into_inner().unwrap()
}

#[test]
fn corpus_c_runs_like_gcc_with_both_allocators() {
    assert_toolchain();
    let files = corpus_files("c", "c");
    assert!(files.len() >= 20, "corpus/c has only {} files", files.len());
    let count = files.len();
    let problems = on_two_threads(files, |file| {
        check_c_file(file, RUN_TIMEOUT).unwrap_or_else(|e| vec![format!("{}: {e}", file.display())])
    });
    assert!(
        problems.is_empty(),
        "{} of {} corpus runs differ from gcc -O0:\n{}",
        problems.len(),
        2 * count,
        problems.join("\n")
    );
}

// ---- corpus/ir `; run:` lines through a C driver ----------------------------------------

use compiler::ir::{Callee, GlobalInit, GlobalItem, Inst, IrType};

/// What a `; run:` line expects.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    Value(i64),
    Void,
    Exit(i64),
    /// The signal the process must die of.
    Signal(u32),
}

#[derive(Clone, Debug)]
struct RunLine {
    text: String,
    func: String,
    args: Vec<i64>,
    expect: Expect,
    stdout: Option<Vec<u8>>,
}

/// Decodes the `"..."` of a `stdout` clause (`\n`, `\t`, `\\`, `\"`, `\xHH`).
fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('\\') => out.push(b'\\'),
            Some('"') => out.push(b'"'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).map_err(|e| e.to_string())?);
            }
            other => return Err(format!("unknown escape \\{other:?} in {s:?}")),
        }
    }
    Ok(out)
}

/// The `; run:` lines of an IR file (the grammar of docs/ir-notes.md).
fn run_lines(src: &str) -> Result<Vec<RunLine>, String> {
    let mut lines = Vec::new();
    for line in src.lines() {
        let Some(rest) = line.trim().strip_prefix(';') else {
            continue;
        };
        let Some(rest) = rest.trim().strip_prefix("run:") else {
            continue;
        };
        let bad = || format!("bad run line: {line}");
        let rest = rest.trim().strip_prefix('@').ok_or_else(bad)?;
        let open = rest.find('(').ok_or_else(bad)?;
        let close = rest.find(')').ok_or_else(bad)?;
        let func = rest[..open].to_string();
        let args = rest[open + 1..close]
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| {
                a.parse::<i64>()
                    .or_else(|_| a.parse::<u64>().map(|u| u as i64))
                    .map_err(|_| bad())
            })
            .collect::<Result<Vec<i64>, String>>()?;
        let tail = rest[close + 1..].trim();
        let (expect_text, stdout) = match tail.find(", stdout ") {
            Some(i) => {
                let quoted = tail[i + ", stdout ".len()..].trim();
                let inner = quoted
                    .strip_prefix('"')
                    .and_then(|q| q.strip_suffix('"'))
                    .ok_or_else(bad)?;
                (&tail[..i], Some(unescape(inner)?))
            }
            None => (tail, None),
        };
        let mut words = expect_text.split_whitespace();
        let expect = match (words.next(), words.next()) {
            (Some("=="), Some("void")) => Expect::Void,
            (Some("=="), Some(v)) => Expect::Value(
                v.parse::<i64>()
                    .or_else(|_| v.parse::<u64>().map(|u| u as i64))
                    .map_err(|_| bad())?,
            ),
            (Some("exit"), Some(v)) => Expect::Exit(v.parse().map_err(|_| bad())?),
            (Some("trap"), Some(kind)) => Expect::Signal(match kind {
                "div_by_zero" | "div_overflow" => 8,
                "abort" => 6,
                "unreachable" => 4,
                _ => return Err(bad()),
            }),
            _ => return Err(bad()),
        };
        lines.push(RunLine {
            text: line.trim().to_string(),
            func,
            args,
            expect,
            stdout,
        });
    }
    Ok(lines)
}

/// The C spelling of an IR type on AArch64.
fn c_type(ty: IrType) -> &'static str {
    match ty {
        IrType::I8 => "signed char",
        IrType::U8 => "unsigned char",
        IrType::I16 => "short",
        IrType::U16 => "unsigned short",
        IrType::I32 => "int",
        IrType::U32 => "unsigned",
        IrType::I64 => "long long",
        IrType::U64 => "unsigned long long",
        IrType::Ptr => "void *",
        IrType::Void => "void",
    }
}

const IR_MAIN: &str = "phihunt_ir_main";

/// Renames `@main` (the driver is `main`) everywhere the module names it, and makes every
/// function global so the driver can call it.
fn prepare_for_driver(module: &mut IrModule) {
    let rename = |name: &mut String| {
        if name == "main" {
            *name = IR_MAIN.to_string();
        }
    };
    for f in &mut module.functions {
        rename(&mut f.name);
        f.attrs.is_static = false;
        for block in &mut f.blocks {
            for inst in &mut block.insts {
                match inst {
                    Inst::Call {
                        callee: Callee::Direct(name),
                        ..
                    } => rename(name),
                    Inst::GlobalAddr { name, .. } => rename(name),
                    _ => {}
                }
            }
        }
    }
    for g in &mut module.globals {
        if let GlobalInit::Items(items) = &mut g.init {
            for item in items {
                if let GlobalItem::Ptr(name, _) = item {
                    rename(name);
                }
            }
        }
    }
}

/// A C `main` that makes call number `argv[1]` of `lines` and prints `result N` (the
/// value canonical for its IR type) on stderr when it returns.
fn c_driver(module: &IrModule, lines: &[RunLine]) -> Result<String, String> {
    let mut text = String::from("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n");
    let mut declared = std::collections::HashSet::new();
    let mut cases = String::new();
    for (i, line) in lines.iter().enumerate() {
        let name = if line.func == "main" {
            IR_MAIN
        } else {
            line.func.as_str()
        };
        let f = module
            .function(name)
            .ok_or_else(|| format!("{}: no function @{}", line.text, line.func))?;
        if f.params.len() != line.args.len() {
            return Err(format!("{}: wrong argument count", line.text));
        }
        let c_name = format!("entry_{}", name.replace(['.', '$'], "_"));
        if declared.insert(name.to_string()) {
            let params: Vec<&str> = f.params.iter().map(|t| c_type(*t)).collect();
            let params = if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            };
            let _ = writeln!(
                text,
                "extern {} {c_name}({params}) __asm__(\"{name}\");",
                c_type(f.ret)
            );
        }
        let args: Vec<String> = f
            .params
            .iter()
            .zip(&line.args)
            .map(|(t, a)| format!("({}){a}LL", c_type(*t)))
            .collect();
        let call = format!("{c_name}({})", args.join(", "));
        let report = if f.ret == IrType::Void {
            format!("{call}; fprintf(stderr, \"result void\\n\");")
        } else {
            format!("long long r = (long long){call}; fprintf(stderr, \"result %lld\\n\", r);")
        };
        let _ = writeln!(cases, "    case {i}: {{ {report} break; }}");
    }
    let _ = writeln!(
        text,
        "int main(int argc, char **argv) {{\n    setvbuf(stdout, 0, _IONBF, 0);\n    \
         if (argc < 2) return 125;\n    switch (atoi(argv[1])) {{\n{cases}    \
         default: return 125;\n    }}\n    return 0;\n}}"
    );
    Ok(text)
}

/// Runs every `; run:` line of the IR file `file` natively with allocator `mode`.
fn check_ir_file(file: &Path, mode: RegallocMode) -> Vec<String> {
    let fail = |e: String| vec![format!("{} ({}): {e}", file.display(), mode.name())];
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => return fail(e.to_string()),
    };
    let lines = match run_lines(&src) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    if lines.is_empty() {
        return Vec::new();
    }
    let result = (|| -> Result<Vec<String>, String> {
        let module = compiler::ir::text::parse_module(&src).map_err(|e| e.to_string())?;
        let mut module = run_pipeline(module, &PipelineOptions::default(), &mut |_, _| {})
            .map_err(|e| e.to_string())?;
        prepare_for_driver(&mut module);
        let asm =
            compile_module(&module, Target::Aarch64, &options(mode)).map_err(|e| e.to_string())?;
        let driver = c_driver(&module, &lines)?;
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let (s, c, exe) = (
            dir.path().join("phicc.s"),
            dir.path().join("driver.c"),
            dir.path().join("a.out"),
        );
        std::fs::write(&s, asm).map_err(|e| e.to_string())?;
        std::fs::write(&c, driver).map_err(|e| e.to_string())?;
        gcc(&["-O0", "-w"], &[&c, &s], &exe)?;
        let mut problems = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let index = i.to_string();
            let got = run_binary(&exe, dir.path(), &[&index], RUN_TIMEOUT)?;
            let stderr = String::from_utf8_lossy(&got.stderr);
            let result = stderr
                .lines()
                .find_map(|l| l.strip_prefix("result "))
                .map(str::to_string);
            let ok = match &line.expect {
                Expect::Value(v) => got.status == "0" && result == Some(v.to_string()),
                Expect::Void => got.status == "0" && result.as_deref() == Some("void"),
                Expect::Exit(code) => got.status == code.to_string() && result.is_none(),
                Expect::Signal(sig) => got.status == format!("signal {sig}"),
            } && line.stdout.as_ref().is_none_or(|want| *want == got.stdout);
            if !ok {
                problems.push(format!(
                    "{} ({}): `{}`: status {}, result {result:?}, stdout {:?}",
                    file.display(),
                    mode.name(),
                    line.text,
                    got.status,
                    String::from_utf8_lossy(&got.stdout)
                ));
            }
        }
        Ok(problems)
    })();
    result.unwrap_or_else(fail)
}

#[test]
fn corpus_ir_run_lines_hold_natively_with_both_allocators() {
    assert_toolchain();
    let files = corpus_files("ir", "ir");
    assert!(
        files.len() >= 10,
        "corpus/ir has only {} files",
        files.len()
    );
    let jobs: Vec<(PathBuf, RegallocMode)> = files
        .iter()
        .flat_map(|f| RegallocMode::ALL.map(|m| (f.clone(), m)))
        .collect();
    let problems = on_two_threads(jobs, |(file, mode)| check_ir_file(file, *mode));
    assert!(
        problems.is_empty(),
        "{} run lines fail:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---- Every operation at every width, against the IR's own arithmetic -----------------
//
// A generated IR module (phi-free, so it goes straight to the backend: no pass can fold
// the operations away) calls one small function per operation, width and operand shape
// (both operands values, or one a constant — add/sub/cmp immediates, logical bitmask
// immediates, and constants that need movz/movn/movk), prints every result, and the
// printed lines must be `ir::eval`'s values.

use compiler::ir::eval::{eval_binop, eval_cast, eval_cmp, eval_unop};
use compiler::ir::{BinOp, CmpPred, UnOp};

/// Interesting operands of `ty`, canonical and distinct: the extremes, small values,
/// values at the edges of the 12-bit immediates, bitmask immediates and constants of
/// one to four 16-bit chunks.
fn values(ty: IrType) -> Vec<u64> {
    let bits = ty.size(8) * 8;
    let min = 1u64 << (bits - 1);
    let max = min - 1;
    let mut v = vec![
        0,
        1,
        2,
        7,
        u64::MAX,
        u64::MAX - 1,
        min,
        max,
        min + 1,
        100,
        (-100i64) as u64,
        4095,
        4096,
        (-4096i64) as u64,
        0xff0,
        0x5a5a_5a5a_5a5a_5a5a,
    ];
    if bits >= 32 {
        v.extend([0x1000_0fff, 0xabc000, 0x8000_0000, 0xffff_ffff, 0x1234_5678]);
    }
    if bits == 64 {
        v.extend([
            0x1_2345_6789,
            0xffff_ffff_7fff_ffff,
            0x1234_5678_9abc_def0,
            0x0000_ffff_0000_ffff,
        ]);
    }
    let mut out: Vec<u64> = Vec::new();
    for x in v {
        let c = ty.canonicalize(x, 8);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// A constant of `ty` as the IR text writes it.
fn lit(ty: IrType, v: u64) -> String {
    if ty.is_signed() {
        (v as i64).to_string()
    } else {
        v.to_string()
    }
}

/// Builds the module text and the expected output lines (with a description of each).
struct OpsModule {
    functions: String,
    drivers: Vec<String>,
    current: String,
    calls_in_current: usize,
    next_value: usize,
    next_block: u32,
    expected: Vec<(i64, String)>,
    /// Functions whose narrow result is returned widened to i64.
    widened: std::collections::HashSet<String>,
}

impl OpsModule {
    fn new() -> OpsModule {
        OpsModule {
            functions: String::new(),
            drivers: Vec::new(),
            current: String::new(),
            calls_in_current: 0,
            next_value: 1,
            next_block: 1_000_000,
            expected: Vec::new(),
            widened: Default::default(),
        }
    }

    fn block(&mut self) -> String {
        self.next_block += 1;
        format!(".LBB{}", self.next_block)
    }

    /// `func noinline @name(params) -> ret` with `body` (after the paramrefs %0, %1, ...;
    /// fresh values from %10 on). A body ending in `ret TYPE %10` for a type narrower
    /// than i64 returns `cast TYPE %10 to i64` instead, so a result left non-canonical
    /// inside the function shows (the caller's re-extension would hide it).
    fn function(&mut self, name: &str, params: &[IrType], ret: IrType, body: &str) {
        let entry = self.block();
        let list: Vec<&str> = params.iter().map(|t| t.name()).collect();
        let narrow_ret = format!("ret {ret} %10\n");
        let (ret_text, body) = if ret != IrType::I64 && body.ends_with(&narrow_ret) {
            self.widened.insert(name.to_string());
            let cast = format!("%11 = cast {ret} %10 to i64\n    ret i64 %11\n");
            ("i64".to_string(), body.replace(&narrow_ret, &cast))
        } else {
            (ret.to_string(), body.to_string())
        };
        let _ = writeln!(
            self.functions,
            "func noinline @{name}({}) -> {ret_text} {{\n{entry}:",
            list.join(", ")
        );
        for (i, t) in params.iter().enumerate() {
            let _ = writeln!(self.functions, "    %{i} = paramref {i}, {t}");
        }
        let _ = writeln!(self.functions, "{body}}}\n");
    }

    /// A call of `@name(args)` returning `ret`, whose printed result must be `expected`.
    fn call(&mut self, name: &str, ret: IrType, args: &[(IrType, u64)], expected: u64) {
        let expected = ret.canonicalize(expected, 8);
        let ret = if self.widened.contains(name) {
            IrType::I64
        } else {
            ret
        };
        if self.calls_in_current >= 64 {
            self.flush();
        }
        self.calls_in_current += 1;
        let arg_text: Vec<String> = args
            .iter()
            .map(|(t, v)| format!("{t} {}", lit(*t, *v)))
            .collect();
        let (r, wide, sink) = (self.next_value, self.next_value + 1, self.next_value + 2);
        self.next_value += 3;
        let _ = writeln!(
            self.current,
            "    %{r} = call {ret} @{name}({})\n    %{wide} = cast {ret} %{r} to i64\n    \
             %{sink} = call i32 @printf(ptr %0, i64 %{wide})",
            arg_text.join(", ")
        );
        self.expected
            .push((expected as i64, format!("@{name}({})", arg_text.join(", "))));
    }

    fn flush(&mut self) {
        if self.calls_in_current > 0 {
            let entry = self.block();
            let n = self.drivers.len();
            let _ = writeln!(
                self.functions,
                "func noinline @drive{n}() -> void {{\n{entry}:\n    %0 = globaladdr @fmt\n{}    ret\n}}\n",
                self.current
            );
            self.drivers.push(format!("drive{n}"));
        }
        self.current.clear();
        self.calls_in_current = 0;
        self.next_value = 1;
    }

    fn finish(mut self) -> (String, Vec<(i64, String)>) {
        self.flush();
        let entry = self.block();
        let mut text = String::from(
            "global @fmt : 6 align 1 const = [str \"%lld\\0a\\00\"]\n\
             declare @printf(ptr, ...) -> i32\n\n",
        );
        text.push_str(&self.functions);
        let _ = writeln!(text, "func @main() -> i32 {{\n{entry}:");
        for d in &self.drivers {
            let _ = writeln!(text, "    call void @{d}()");
        }
        let _ = writeln!(text, "    ret i32 0\n}}");
        (text, self.expected)
    }
}

fn ops_module() -> (String, Vec<(i64, String)>) {
    let mut m = OpsModule::new();
    for ty in IrType::INTEGERS {
        let vals = values(ty);
        for op in BinOp::ALL {
            let name = format!("bin_{op}_{ty}");
            m.function(
                &name,
                &[ty, ty],
                ty,
                &format!("    %10 = {op} {ty} %0, %1\n    ret {ty} %10\n"),
            );
            for (i, &b) in vals.iter().enumerate() {
                // The constant on the right (immediates), and on the left.
                let right = format!("binr_{op}_{ty}_{i}");
                m.function(
                    &right,
                    &[ty],
                    ty,
                    &format!("    %10 = {op} {ty} %0, {}\n    ret {ty} %10\n", lit(ty, b)),
                );
                let left = format!("binl_{op}_{ty}_{i}");
                m.function(
                    &left,
                    &[ty],
                    ty,
                    &format!("    %10 = {op} {ty} {}, %0\n    ret {ty} %10\n", lit(ty, b)),
                );
                for &a in &vals {
                    if let Ok(r) = eval_binop(op, ty, a, b) {
                        m.call(&name, ty, &[(ty, a), (ty, b)], r);
                        m.call(&right, ty, &[(ty, a)], r);
                    }
                    if let Ok(r) = eval_binop(op, ty, b, a) {
                        m.call(&left, ty, &[(ty, a)], r);
                    }
                }
            }
        }
        for op in UnOp::ALL {
            let name = format!("un_{op}_{ty}");
            m.function(
                &name,
                &[ty],
                ty,
                &format!("    %10 = {op} {ty} %0\n    ret {ty} %10\n"),
            );
            for &a in &vals {
                let r = eval_unop(op, ty, a).expect("integer unop");
                m.call(&name, ty, &[(ty, a)], r);
            }
        }
        for pred in CmpPred::ALL {
            // As a value, as a branch right after the comparison, against an immediate,
            // and feeding a select right after it.
            let name = format!("cmp_{pred}_{ty}");
            m.function(
                &name,
                &[ty, ty],
                IrType::I8,
                &format!("    %10 = cmp {pred} {ty} %0, %1\n    ret i8 %10\n"),
            );
            let (yes, no) = (m.block(), m.block());
            let branch = format!("br_{pred}_{ty}");
            m.function(
                &branch,
                &[ty, ty],
                IrType::I32,
                &format!(
                    "    %10 = cmp {pred} {ty} %0, %1\n    condbr %10, {yes}, {no}\n{yes}:\n    ret i32 1\n{no}:\n    ret i32 0\n"
                ),
            );
            let chosen = format!("csel_{pred}_{ty}");
            m.function(
                &chosen,
                &[ty, ty],
                IrType::I64,
                &format!(
                    "    %12 = cmp {pred} {ty} %0, %1\n    %10 = select i64 %12, 111, 222\n    ret i64 %10\n"
                ),
            );
            for &a in &vals {
                for &b in &vals {
                    let r = u64::from(eval_cmp(pred, ty, a, b).expect("integer cmp"));
                    m.call(&name, IrType::I8, &[(ty, a), (ty, b)], r);
                    m.call(&branch, IrType::I32, &[(ty, a), (ty, b)], r);
                    m.call(
                        &chosen,
                        IrType::I64,
                        &[(ty, a), (ty, b)],
                        if r != 0 { 111 } else { 222 },
                    );
                }
            }
            for (i, &b) in vals.iter().enumerate() {
                let imm = format!("cmpi_{pred}_{ty}_{i}");
                m.function(
                    &imm,
                    &[ty],
                    IrType::I8,
                    &format!(
                        "    %10 = cmp {pred} {ty} %0, {}\n    ret i8 %10\n",
                        lit(ty, b)
                    ),
                );
                for &a in &vals {
                    let r = u64::from(eval_cmp(pred, ty, a, b).expect("integer cmp"));
                    m.call(&imm, IrType::I8, &[(ty, a)], r);
                }
            }
        }
        for to in IrType::INTEGERS {
            let name = format!("cast_{ty}_{to}");
            m.function(
                &name,
                &[ty],
                to,
                &format!("    %10 = cast {ty} %0 to {to}\n    ret {to} %10\n"),
            );
            for &a in &vals {
                m.call(
                    &name,
                    to,
                    &[(ty, a)],
                    eval_cast(ty, to, a).expect("integer cast"),
                );
            }
        }
        // A constant of this type, returned (movz/movn/movk), for every value.
        for (i, &c) in vals.iter().enumerate() {
            let name = format!("const_{ty}_{i}");
            m.function(
                &name,
                &[],
                ty,
                &format!("    %10 = copy {ty} {}\n    ret {ty} %10\n", lit(ty, c)),
            );
            m.call(&name, ty, &[], c);
        }
        // select with a condition of this type (true when non-zero in its own type), and
        // a select of this type's values.
        let name = format!("select_cond_{ty}");
        let body = "    %10 = select i64 %0, %1, %2\n    ret i64 %10\n";
        m.function(&name, &[ty, IrType::I64, IrType::I64], IrType::I64, body);
        let values_name = format!("select_{ty}");
        let body = format!("    %10 = select {ty} %0, %1, %2\n    ret {ty} %10\n");
        m.function(&values_name, &[IrType::I8, ty, ty], ty, &body);
        for &c in &vals {
            let r = if c != 0 { 11 } else { 22 };
            m.call(
                &name,
                IrType::I64,
                &[(ty, c), (IrType::I64, 11), (IrType::I64, 22)],
                r,
            );
            for cond in [0u64, 1] {
                let r = if cond != 0 { c } else { vals[3] };
                m.call(
                    &values_name,
                    ty,
                    &[(IrType::I8, cond), (ty, c), (ty, vals[3])],
                    r,
                );
            }
        }
        // switch: a dense table and a sparse chain over this type's values.
        let dense: Vec<u64> = (0..6)
            .map(|k| ty.canonicalize((-2i64 + k) as u64, 8))
            .collect();
        let sparse = vals.clone();
        for (kind, cases) in [("dense", dense), ("sparse", sparse)] {
            let name = format!("switch_{kind}_{ty}");
            let default = m.block();
            let targets: Vec<String> = cases.iter().map(|_| m.block()).collect();
            let mut body = format!("    switch {ty} %0, {default} [");
            let list: Vec<String> = cases
                .iter()
                .zip(&targets)
                .map(|(c, t)| format!("{}: {t}", lit(ty, *c)))
                .collect();
            body.push_str(&list.join(", "));
            body.push_str("]\n");
            let _ = writeln!(body, "{default}:\n    ret i32 0");
            for (i, t) in targets.iter().enumerate() {
                let _ = writeln!(body, "{t}:\n    ret i32 {}", i + 1);
            }
            m.function(&name, &[ty], IrType::I32, &body);
            let mut probes = vals.clone();
            probes.extend((0..8).map(|k| ty.canonicalize((-4i64 + k) as u64, 8)));
            for a in probes {
                let r = cases.iter().position(|c| *c == a).map_or(0, |i| i + 1);
                m.call(&name, IrType::I32, &[(ty, a)], r as u64);
            }
        }
    }
    m.finish()
}

/// Compiles the IR module `text` (phi-free; no pipeline) with allocator `mode`, links it
/// with the C files `c_sources` and runs it.
fn run_ir(
    text: &str,
    mode: RegallocMode,
    dir: &Path,
    c_sources: &[&Path],
    args: &[&str],
) -> Result<Outcome, String> {
    let module = compiler::ir::text::parse_module(text).map_err(|e| e.to_string())?;
    compiler::ir::verify::verify_module(&module, compiler::ir::verify::VerifyMode::PostPhiElim)
        .map_err(|e| format!("{e:?}"))?;
    let asm =
        compile_module(&module, Target::Aarch64, &options(mode)).map_err(|e| e.to_string())?;
    let s = dir.join(format!("{}.s", mode.name()));
    let exe = dir.join(format!("{}.out", mode.name()));
    std::fs::write(&s, asm).map_err(|e| e.to_string())?;
    let mut sources: Vec<&Path> = c_sources.to_vec();
    sources.push(&s);
    gcc(&["-O0", "-w"], &sources, &exe)?;
    run_binary(&exe, dir, args, RUN_TIMEOUT)
}

/// The printed lines of `outcome` against `expected`; a failure message when they differ.
fn compare_lines(outcome: &Outcome, expected: &[(i64, String)], what: &str) -> Result<(), String> {
    let out = String::from_utf8_lossy(&outcome.stdout);
    let lines: Vec<&str> = out.lines().collect();
    let mut wrong = Vec::new();
    for (i, (want, call)) in expected.iter().enumerate() {
        let got = lines.get(i).copied().unwrap_or("<missing>");
        if got != want.to_string() {
            wrong.push(format!("{call} = {got}, expected {want}"));
        }
    }
    if outcome.status == "0" && wrong.is_empty() && lines.len() == expected.len() {
        return Ok(());
    }
    Err(format!(
        "{what}: status {}, {} of {} results wrong ({} lines printed):\n{}",
        outcome.status,
        wrong.len(),
        expected.len(),
        lines.len(),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    ))
}

#[test]
fn every_operation_at_every_width_computes_what_ir_eval_computes() {
    assert_toolchain();
    let (text, expected) = ops_module();
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome = run_ir(&text, mode, dir.path(), &[], &[])
            .unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        if let Err(e) = compare_lines(&outcome, &expected, mode.name()) {
            panic!("{e}");
        }
    }
}

// ---- Frames, calls, memcpy and traps ----------------------------------------------------

/// `@copy_N(seed)`: fills an N+16-byte buffer with bytes `seed + 7i`, zeroes another,
/// copies N bytes from offset `src_off` to offset `dst_off` (an inline memcpy: unrolled
/// or a loop, by size) and returns the hash `h = h * 31 + byte` of the whole destination.
fn memcpy_function(n: u32, src_off: u32, dst_off: u32, first_block: u32) -> String {
    let total = n + 16;
    let b = |k: u32| format!(".LBB{}", first_block + k);
    format!(
        "func noinline @copy_{n}_{src_off}_{dst_off}(i64) -> i64 {{
{b0}:
    %0 = paramref 0, i64
    %1 = alloca i8, {total}, 8
    %2 = alloca i8, {total}, 8
    %3 = copy i64 0
    br {b1}
{b1}:
    %4 = cmp slt i64 %3, {total}
    condbr %4, {b2}, {b3}
{b2}:
    %5 = gep %1, %3
    %6 = mul i64 %3, 7
    %7 = add i64 %6, %0
    %8 = cast i64 %7 to i8
    store i8 %8, %5
    %9 = gep %2, %3
    store i8 0, %9
    %10 = add i64 %3, 1
    %3 = copy i64 %10
    br {b1}
{b3}:
    %11 = gep %2, {dst_off}
    %12 = gep %1, {src_off}
    memcpy %11, %12, {n}
    %13 = copy i64 0
    %14 = copy i64 0
    br {b4}
{b4}:
    %15 = cmp slt i64 %13, {total}
    condbr %15, {b5}, {b6}
{b5}:
    %16 = gep %2, %13
    %17 = load u8 %16
    %18 = cast u8 %17 to i64
    %19 = mul i64 %14, 31
    %14 = add i64 %19, %18
    %20 = add i64 %13, 1
    %13 = copy i64 %20
    br {b4}
{b6}:
    ret i64 %14
}}
",
        b0 = b(0),
        b1 = b(1),
        b2 = b(2),
        b3 = b(3),
        b4 = b(4),
        b5 = b(5),
        b6 = b(6),
    )
}

/// What `@copy_N` returns, computed directly.
fn memcpy_expected(n: u32, src_off: u32, dst_off: u32, seed: i64) -> i64 {
    let total = (n + 16) as usize;
    let src: Vec<u8> = (0..total).map(|i| (seed + 7 * i as i64) as u8).collect();
    let mut dst = vec![0u8; total];
    let (s, d) = (src_off as usize, dst_off as usize);
    dst[d..d + n as usize].copy_from_slice(&src[s..s + n as usize]);
    dst.iter()
        .fold(0i64, |h, &b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
}

/// `@weigh` takes twelve parameters of mixed widths (four on the stack) and weighs them;
/// `@framed` (twelve i64 parameters) has a 64-aligned alloca (the prologue realigns sp,
/// stack parameters are read through x29), a 1 MiB alloca whose far end is beyond every
/// immediate offset, and calls `@weigh` with its parameters rotated and narrowed, so the
/// argument moves form a cycle through the argument registers.
const FRAME_FUNCTIONS: &str = "
func noinline @weigh(i8, u16, i32, i64, u8, i16, u32, i64, i8, u64, u16, i32) -> i64 {
.LBB900:
    %0 = paramref 0, i8
    %1 = paramref 1, u16
    %2 = paramref 2, i32
    %3 = paramref 3, i64
    %4 = paramref 4, u8
    %5 = paramref 5, i16
    %6 = paramref 6, u32
    %7 = paramref 7, i64
    %8 = paramref 8, i8
    %9 = paramref 9, u64
    %40 = paramref 10, u16
    %41 = paramref 11, i32
    %10 = cast i8 %0 to i64
    %11 = cast u16 %1 to i64
    %12 = cast i32 %2 to i64
    %14 = cast u8 %4 to i64
    %15 = cast i16 %5 to i64
    %16 = cast u32 %6 to i64
    %18 = cast i8 %8 to i64
    %19 = cast u64 %9 to i64
    %42 = cast u16 %40 to i64
    %43 = cast i32 %41 to i64
    %20 = mul i64 %10, 3
    %21 = add i64 %20, %11
    %22 = mul i64 %21, 3
    %23 = add i64 %22, %12
    %24 = mul i64 %23, 3
    %25 = add i64 %24, %3
    %26 = mul i64 %25, 3
    %27 = add i64 %26, %14
    %28 = mul i64 %27, 3
    %29 = add i64 %28, %15
    %30 = mul i64 %29, 3
    %31 = add i64 %30, %16
    %32 = mul i64 %31, 3
    %33 = add i64 %32, %7
    %34 = mul i64 %33, 3
    %35 = add i64 %34, %18
    %36 = mul i64 %35, 3
    %37 = add i64 %36, %19
    %44 = mul i64 %37, 3
    %45 = add i64 %44, %42
    %46 = mul i64 %45, 3
    %47 = add i64 %46, %43
    ret i64 %47
}

func noinline @framed(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> i64 {
.LBB910:
    %0 = paramref 0, i64
    %1 = paramref 1, i64
    %2 = paramref 2, i64
    %3 = paramref 3, i64
    %4 = paramref 4, i64
    %5 = paramref 5, i64
    %6 = paramref 6, i64
    %7 = paramref 7, i64
    %8 = paramref 8, i64
    %9 = paramref 9, i64
    %50 = paramref 10, i64
    %51 = paramref 11, i64
    %10 = alloca i8, 100, 64
    %11 = alloca i8, 1048576, 16
    %12 = cast ptr %10 to u64
    %13 = and u64 %12, 63
    %14 = gep %11, 1048568
    store i64 %9, %14
    store i64 %8, %11
    %15 = load i64 %14
    %16 = load i64 %11
    %20 = cast i64 %1 to i8
    %21 = cast i64 %2 to u16
    %22 = cast i64 %3 to i32
    %24 = cast i64 %5 to u8
    %25 = cast i64 %6 to i16
    %26 = cast i64 %7 to u32
    %28 = cast i64 %16 to i8
    %29 = cast i64 %0 to u64
    %52 = cast i64 %50 to u16
    %53 = cast i64 %51 to i32
    %30 = call i64 @weigh(i8 %20, u16 %21, i32 %22, i64 %4, u8 %24, i16 %25, u32 %26, i64 %15, i8 %28, u64 %29, u16 %52, i32 %53)
    %31 = cast u64 %13 to i64
    %32 = mul i64 %31, 1000000007
    %33 = add i64 %30, %32
    ret i64 %33
}
";

/// What `@framed(p0..p11)` returns: the rotated parameters weighed at their types.
fn framed_expected(p: [i64; 12]) -> i64 {
    let args = [
        p[1] as i8 as i64,
        p[2] as u16 as i64,
        p[3] as i32 as i64,
        p[4],
        p[5] as u8 as i64,
        p[6] as i16 as i64,
        p[7] as u32 as i64,
        p[9],
        p[8] as i8 as i64,
        p[0],
        p[10] as u16 as i64,
        p[11] as i32 as i64,
    ];
    args.iter()
        .fold(0i64, |h, &a| h.wrapping_mul(3).wrapping_add(a))
}

/// `@swap_args(a, b, c)` calls `@sub3(c, a, b)`-style permutations of its register
/// parameters, which are all argument registers too: the argument moves are cycles.
const PERMUTE_FUNCTIONS: &str = "
func noinline @sub3(i64, i64, i64) -> i64 {
.LBB950:
    %0 = paramref 0, i64
    %1 = paramref 1, i64
    %2 = paramref 2, i64
    %3 = mul i64 %0, 100
    %4 = mul i64 %1, 10
    %5 = add i64 %3, %4
    %6 = add i64 %5, %2
    ret i64 %6
}

func noinline @permute(i64, i64, i64) -> i64 {
.LBB951:
    %0 = paramref 0, i64
    %1 = paramref 1, i64
    %2 = paramref 2, i64
    %3 = call i64 @sub3(i64 %2, i64 %0, i64 %1)
    %4 = call i64 @sub3(i64 %1, i64 %0, i64 %2)
    %5 = mul i64 %3, 1000
    %6 = add i64 %5, %4
    ret i64 %6
}
";

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    assert_toolchain();
    let mut text = String::from(
        "global @fmt : 6 align 1 const = [str \"%lld\\0a\\00\"]\n\
         declare @printf(ptr, ...) -> i32\n",
    );
    text.push_str(FRAME_FUNCTIONS);
    text.push_str(PERMUTE_FUNCTIONS);
    let mut calls = String::new();
    let mut expected = Vec::new();
    let mut next_value = 1;
    let mut call = |callee: String, args: String, want: i64, calls: &mut String| {
        let (r, sink) = (next_value, next_value + 1);
        next_value += 2;
        let _ = writeln!(
            calls,
            "    %{r} = call i64 @{callee}({args})\n    %{sink} = call i32 @printf(ptr %0, i64 %{r})"
        );
        expected.push((want, format!("@{callee}({args})")));
    };
    let params = [
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        [
            -1,
            300,
            -70000,
            1 << 40,
            255,
            -32768,
            -1,
            i64::MIN,
            -128,
            -5,
            70000,
            -1 << 35,
        ],
        [
            i64::MAX,
            -129,
            65536,
            -3,
            256,
            40000,
            1 << 33,
            77,
            127,
            1,
            -1,
            i64::MIN,
        ],
    ];
    for p in params {
        let args: Vec<String> = p.iter().map(|v| format!("i64 {v}")).collect();
        call(
            "framed".into(),
            args.join(", "),
            framed_expected(p),
            &mut calls,
        );
    }
    call(
        "permute".into(),
        "i64 1, i64 2, i64 3".into(),
        312 * 1000 + 213,
        &mut calls,
    );
    let mut block = 10_000;
    for n in [
        1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 127, 128, 129, 200, 257,
    ] {
        for (src_off, dst_off) in [(0, 0), (3, 1), (8, 5)] {
            text.push_str(&memcpy_function(n, src_off, dst_off, block));
            block += 10;
            let seed = i64::from(n) * 13 + 1;
            call(
                format!("copy_{n}_{src_off}_{dst_off}"),
                format!("i64 {seed}"),
                memcpy_expected(n, src_off, dst_off, seed),
                &mut calls,
            );
        }
    }
    let _ = writeln!(
        text,
        "func @main() -> i32 {{\n.LBB5:\n    %0 = globaladdr @fmt\n{calls}    ret i32 0\n}}"
    );
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome = run_ir(&text, mode, dir.path(), &[], &[])
            .unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        if let Err(e) = compare_lines(&outcome, &expected, mode.name()) {
            panic!("{e}");
        }
    }
}

/// Call `k` of a C driver (`a.out k`) calls `@t_k(a, b)` = `OP TYPE a, b` (the divisor a
/// value or a constant; or `unreachable`), which must end as stated. One module and one
/// link per allocator for all cases.
#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    assert_toolchain();
    // (operation, type, a, b, expected status): MIN / -1 and division by zero at every
    // width trap (SIGFPE = signal 8); the same operations one step away do not.
    let cases: &[(&str, IrType, &str, &str, &str)] = &[
        ("sdiv", IrType::I8, "-128", "-1", "signal 8"),
        ("srem", IrType::I8, "-128", "-1", "signal 8"),
        ("sdiv", IrType::I16, "-32768", "-1", "signal 8"),
        ("srem", IrType::I16, "-32768", "-1", "signal 8"),
        ("sdiv", IrType::I32, "-2147483648", "-1", "signal 8"),
        ("srem", IrType::I32, "-2147483648", "-1", "signal 8"),
        (
            "sdiv",
            IrType::I64,
            "-9223372036854775808",
            "-1",
            "signal 8",
        ),
        (
            "srem",
            IrType::I64,
            "-9223372036854775808",
            "-1",
            "signal 8",
        ),
        ("udiv", IrType::U8, "7", "0", "signal 8"),
        ("urem", IrType::U16, "7", "0", "signal 8"),
        ("sdiv", IrType::I32, "7", "0", "signal 8"),
        ("udiv", IrType::U32, "7", "0", "signal 8"),
        ("urem", IrType::U64, "7", "0", "signal 8"),
        ("srem", IrType::I64, "7", "0", "signal 8"),
        // Signedness comes from the operation: sdiv u8 128, 255 is -128 / -1.
        ("sdiv", IrType::U8, "128", "255", "signal 8"),
        ("srem", IrType::U16, "32768", "65535", "signal 8"),
        ("sdiv", IrType::U32, "2147483648", "4294967295", "signal 8"),
        ("sdiv", IrType::I8, "-127", "-1", "127"),
        ("sdiv", IrType::I32, "-2147483647", "-1", "2147483647"),
        ("udiv", IrType::U8, "128", "255", "0"),
        ("udiv", IrType::I8, "-128", "-1", "0"),
        ("srem", IrType::I64, "-9223372036854775807", "-1", "0"),
        ("unreachable", IrType::I32, "0", "0", "signal 4"),
    ];
    let mut text = String::new();
    let mut driver = String::from("#include <stdlib.h>\n");
    let mut switch = String::new();
    let mut expected = Vec::new();
    for (i, (op, ty, a, b, want)) in cases.iter().enumerate() {
        for constant_divisor in [false, true] {
            let k = expected.len();
            let rhs = if constant_divisor { *b } else { "%1" };
            let body = if *op == "unreachable" {
                "    unreachable".to_string()
            } else {
                format!(
                    "    %2 = {op} {ty} %0, {rhs}\n    %3 = cast {ty} %2 to i32\n    ret i32 %3"
                )
            };
            let _ = writeln!(
                text,
                "func noinline @t_{k}({ty}, {ty}) -> i32 {{\n.LBB{}:\n    %0 = paramref 0, {ty}\n    \
                 %1 = paramref 1, {ty}\n{body}\n}}\n",
                100 + k
            );
            let c = c_type(*ty);
            let _ = writeln!(driver, "extern int t_{k}({c}, {c});");
            let _ = writeln!(
                switch,
                "    case {k}: return t_{k}(({c}){a}LL, ({c}){b}LL);"
            );
            // The exit status is the low byte of the result.
            let want = match want.parse::<i64>() {
                Ok(v) => (v & 0xff).to_string(),
                Err(_) => want.to_string(),
            };
            expected.push((want, format!("case {i}: {op} {ty} {a}, {rhs}")));
        }
    }
    let _ = writeln!(
        driver,
        "int main(int argc, char **argv) {{\n    switch (atoi(argv[1])) {{\n{switch}    }}\n    return 125;\n}}"
    );
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("traps_main.c");
    std::fs::write(&c, driver).unwrap();
    let module = compiler::ir::text::parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    for mode in RegallocMode::ALL {
        let asm = compile_module(&module, Target::Aarch64, &options(mode))
            .unwrap_or_else(|e| panic!("{e}"));
        let s = dir.path().join("traps.s");
        let exe = dir.path().join("traps.out");
        std::fs::write(&s, asm).unwrap();
        gcc(&["-O0", "-w"], &[&c, &s], &exe).unwrap_or_else(|e| panic!("{e}"));
        let wrong = on_two_threads(
            expected.iter().enumerate().collect(),
            |(k, (want, what))| {
                let index = k.to_string();
                match run_binary(&exe, dir.path(), &[&index], RUN_TIMEOUT) {
                    Ok(o) if o.status == *want => Vec::new(),
                    Ok(o) => vec![format!(
                        "{what} ({}): {}, expected {want}",
                        mode.name(),
                        o.status
                    )],
                    Err(e) => vec![e],
                }
            },
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}

/// A loop whose body is about 300,000 instruction words (1.2 MB): the loop's exit is a
/// conditional branch over the whole body, beyond the ±1 MiB a `b.cond` reaches, so the
/// function must be printed with long conditional branches (and the division's trap
/// branch too). `@huge(n)` adds 65537 (a movz + movk constant) 100,000 times per
/// iteration, n times, then divides by n.
#[test]
fn a_function_longer_than_a_conditional_branch_reaches() {
    assert_toolchain();
    const ADDS: u64 = 100_000;
    let mut text = String::from(
        "func noinline @huge(i64) -> i64 {\n.LBB0:\n    %0 = paramref 0, i64\n    \
         %1 = copy i64 0\n    %2 = copy i64 0\n    br .LBB1\n.LBB1:\n    \
         %3 = cmp slt i64 %2, %0\n    condbr %3, .LBB2, .LBB3\n.LBB2:\n",
    );
    for _ in 0..ADDS {
        text.push_str("    %1 = add i64 %1, 65537\n");
    }
    text.push_str(
        "    %2 = add i64 %2, 1\n    br .LBB1\n.LBB3:\n    %4 = sdiv i64 %1, %0\n    \
         ret i64 %4\n}\n\n\
         func @main() -> i32 {\n.LBB4:\n    %0 = call i64 @huge(i64 3)\n    \
         %1 = cmp eq i64 %0, 6553700000\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let outcome = run_ir(&text, RegallocMode::LinearScan, dir.path(), &[], &[])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outcome.status, "1");
}

// ---- Seeded bugs ------------------------------------------------------------------------

/// Runs `text` with `mutant` switched on in this thread (it is compiled here).
fn run_ir_with_mutant(
    text: &str,
    mode: RegallocMode,
    mutant: compiler::mutants::Mutant,
    dir: &Path,
    c_sources: &[&Path],
) -> Outcome {
    compiler::mutants::set_active(&[mutant]);
    let outcome = run_ir(text, mode, dir, c_sources, &[]);
    compiler::mutants::set_active(&[]);
    outcome.unwrap_or_else(|e| panic!("{mutant}: {e}"))
}

/// Each AArch64 mutant changes what some program computes (so the native runs can find
/// it), and the correct backend computes the hand-worked value on the same program.
#[test]
fn seeded_backend_bugs_change_what_runs() {
    use compiler::mutants::Mutant;
    assert_toolchain();
    let dir = tempfile::tempdir().unwrap();
    // gcc's caller passes 64-bit patterns to parameters phicc declares narrow (through a
    // mismatched function pointer, so the upper bits are garbage, as AAPCS64 allows):
    // i32 0x12345678_fffffffb is -5, u8 0x...01 is 1, the stack parameter i16
    // 0x...ffff8000 is -32768; -5 + 1 - 32768 = -32772, and main exits with 1 when that
    // is what came back.
    let narrow_ir = "func noinline @narrow(i32, u8, i64, i64, i64, i64, i64, i64, i16) -> i64 {\n\
        .LBB0:\n    %0 = paramref 0, i32\n    %1 = paramref 1, u8\n    %8 = paramref 8, i16\n    \
        %2 = cast i32 %0 to i64\n    %3 = cast u8 %1 to i64\n    %4 = cast i16 %8 to i64\n    \
        %5 = add i64 %2, %3\n    %6 = add i64 %5, %4\n    ret i64 %6\n}\n";
    let narrow_c = dir.path().join("narrow_main.c");
    std::fs::write(
        &narrow_c,
        "typedef long long (*wide_fn)(long long, long long, long long, long long, long long,\n\
         long long, long long, long long, long long);\n\
         extern long long narrow(int, unsigned char, long long, long long, long long, long long,\n\
         long long, long long, short);\n\
         int main(void) {\n\
           wide_fn f = (wide_fn)narrow;\n\
           long long r = f(0x12345678fffffffbLL, 0x7777777777777701LL, 0, 0, 0, 0, 0, 0,\n\
                           0x5555555555558000LL);\n\
           return r == -32772 ? 1 : 2;\n\
         }\n",
    )
    .unwrap();
    // Division by zero must trap (SIGFPE); without the test the hardware gives 0.
    let div_zero = "func noinline @d(u32, u32) -> i32 {\n.LBB0:\n    %0 = paramref 0, u32\n    \
        %1 = paramref 1, u32\n    %2 = udiv u32 %0, %1\n    %3 = cast u32 %2 to i32\n    ret i32 %3\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @d(u32 7, u32 0)\n    ret i32 %0\n}\n";
    // A constant needing movz + movk: 0x12345678 >> 20 is 0x123 = 291 (a 12-bit
    // immediate, built by no mov), so main exits with 1.
    let wide_constant =
        "func noinline @k() -> i64 {\n.LBB0:\n    %0 = copy i64 305419896\n    ret i64 %0\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i64 @k()\n    %3 = lshr i64 %0, 20\n    \
        %1 = cmp eq i64 %3, 291\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n";
    let cases: [(Mutant, &str, Option<&Path>, &str); 3] = [
        (
            Mutant::Aarch64NarrowParamNotExtended,
            narrow_ir,
            Some(&narrow_c),
            "1",
        ),
        (Mutant::Aarch64DivZeroNoTrap, div_zero, None, "signal 8"),
        (
            Mutant::Aarch64WideImmediateTruncated,
            wide_constant,
            None,
            "1",
        ),
    ];
    for (mutant, text, c, right) in cases {
        let c_sources: Vec<&Path> = c.into_iter().collect();
        for mode in RegallocMode::ALL {
            let correct =
                run_ir(text, mode, dir.path(), &c_sources, &[]).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(correct.status, right, "{mutant} off, {}", mode.name());
            let wrong = run_ir_with_mutant(text, mode, mutant, dir.path(), &c_sources);
            assert_ne!(wrong.status, right, "{mutant} on, {}", mode.name());
        }
    }
}

// ---- csmith -------------------------------------------------------------------------------

/// Seeds whose programs gcc -O0 runs in well under a second under qemu.
const CSMITH_SEEDS: [u64; 4] = [1, 2, 3, 4];

#[test]
fn csmith_programs_run_like_gcc() {
    assert_toolchain();
    assert!(
        Command::new("csmith").arg("--version").output().is_ok(),
        "csmith not found: run scripts/setup.sh"
    );
    let problems = on_two_threads(CSMITH_SEEDS.to_vec(), |seed| {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => return vec![e.to_string()],
        };
        let file = dir.path().join(format!("csmith{seed}.c"));
        let mut cmd = Command::new("csmith");
        cmd.args(["--seed", &seed.to_string(), "-o"])
            .arg(&file)
            .current_dir(dir.path());
        match run(cmd, COMPILE_TIMEOUT) {
            Ok(o) if o.status == "0" => {}
            other => return vec![format!("csmith --seed {seed}: {other:?}")],
        }
        check_c_file_with_includes(&file, Duration::from_secs(20))
            .unwrap_or_else(|e| vec![format!("seed {seed}: {e}")])
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// [`check_c_file`] for csmith's programs, which include `csmith.h`.
fn check_c_file_with_includes(file: &Path, run_timeout: Duration) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reference_exe = dir.path().join("gcc.out");
    gcc(
        &["-O0", "-w", "-I", "/usr/include/csmith"],
        &[file],
        &reference_exe,
    )?;
    let reference = run_binary(&reference_exe, dir.path(), &[], run_timeout)?;
    let mut opts = default_options();
    opts.target = Target::Aarch64;
    opts.include_dirs.push(PathBuf::from("/usr/include/csmith"));
    let compiled = compile_c_file(file, &opts).map_err(|e| e.to_string())?;
    let module = run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let asm = dir.path().join(format!("{}.s", mode.name()));
        let exe = dir.path().join(format!("{}.out", mode.name()));
        let text =
            compile_module(&module, Target::Aarch64, &options(mode)).map_err(|e| e.to_string())?;
        std::fs::write(&asm, text).map_err(|e| e.to_string())?;
        gcc(&[], &[&asm], &exe)?;
        let mine = run_binary(&exe, dir.path(), &[], run_timeout)?;
        if mine.status != reference.status || mine.stdout != reference.stdout {
            problems.push(format!(
                "{}: {}: exit {} vs gcc's {}; stdout {:?} vs {:?}",
                file.display(),
                mode.name(),
                mine.status,
                reference.status,
                String::from_utf8_lossy(&mine.stdout),
                String::from_utf8_lossy(&reference.stdout)
            ));
        }
    }
    Ok(problems)
}
