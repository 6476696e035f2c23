//! phicc's riscv64 backend, run under `qemu-riscv64` against gcc and against the IR's
//! own arithmetic.
//!
//! Why: the backend is only right if the code it writes computes what the IR says on a
//! real (emulated) RV64 machine and links with code gcc compiled. Every expected value
//! comes from outside the backend:
//! - `corpus/c`: each program compiled by phicc's library (both register allocators),
//!   linked by `riscv64-linux-gnu-gcc -static`, must exit and print exactly like gcc
//!   -O0's binary of the same file;
//! - `corpus/ir`: each `; run:` line, called from a C driver that gcc compiles (so every
//!   argument and result crosses the LP64 ABI as gcc sees it: `u32` sign-extended), must
//!   give the directive's value, trap or stdout;
//! - every operation at every width, with values and immediates and constants of every
//!   size, against `ir::eval`; frames (realignment, 1 MiB alloca, stack arguments),
//!   memcpy of every size, far branches, traps, a mixed link with gcc's code both ways;
//! - each riscv64 seeded bug changes what some program computes.
//!
//! Every child runs under a timeout in a temporary directory, as `a.out` (`qemu-riscv64
//! -0 a.out`). Without the cross gcc or qemu the tests fail with a hint, never skip.

use compiler::backend::{compile_module, BackendOptions, RegallocMode, Target};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::ir::eval::{eval_binop, eval_cast, eval_cmp, eval_unop};
use compiler::ir::{BinOp, CmpPred, IrModule, IrType, UnOp};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const GCC: &str = "riscv64-linux-gnu-gcc";
const QEMU: &str = "qemu-riscv64";
const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);
const RUN_TIMEOUT: Duration = Duration::from_secs(20);

// ---- Running things ---------------------------------------------------------------------

/// How a program ended.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// The exit status, or `signal N`, or `timeout`.
    status: String,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs `cmd` with its output captured, killed after `timeout`.
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
    let out_reader = std::thread::spawn(move || {
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
    let stdout = out_reader.join().unwrap_or_default();
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

/// Compiles and links `sources` (C or assembly) statically into `exe` with `flags`.
fn gcc(flags: &[&str], sources: &[&Path], exe: &Path) -> Result<(), String> {
    let mut cmd = Command::new(GCC);
    cmd.args(flags)
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

/// Runs the riscv64 executable `exe` under qemu in `dir` as `a.out` with `args`.
fn run_binary(exe: &Path, dir: &Path, args: &[&str]) -> Result<Outcome, String> {
    let mut cmd = Command::new(QEMU);
    cmd.arg("-0")
        .arg("a.out")
        .arg(exe)
        .args(args)
        .current_dir(dir);
    run(cmd, RUN_TIMEOUT)
}

/// Fails with the setup hint when the toolchain is missing.
fn require_toolchain() {
    for tool in [GCC, QEMU] {
        assert!(
            Command::new(tool).arg("--version").output().is_ok(),
            "{tool} not found: run scripts/setup.sh (it installs the cross toolchains and \
             qemu-user)"
        );
    }
}

fn backend_options(mode: RegallocMode) -> BackendOptions {
    BackendOptions {
        regalloc: mode,
        check_allocation: true,
    }
}

/// The assembly of `module` (already through phi elimination).
fn assemble(module: &IrModule, mode: RegallocMode) -> Result<String, String> {
    compile_module(module, Target::Riscv64, &backend_options(mode)).map_err(|e| e.to_string())
}

/// Compiles the phi-free IR `text` (no pipeline: nothing folds the operations away)
/// with allocator `mode`, links it and runs it.
fn run_ir(text: &str, mode: RegallocMode, dir: &Path) -> Result<Outcome, String> {
    let module = compiler::ir::text::parse_module(text).map_err(|e| e.to_string())?;
    compiler::ir::verify::verify_module(&module, compiler::ir::verify::VerifyMode::PostPhiElim)
        .map_err(|e| format!("{e:?}"))?;
    let asm = assemble(&module, mode)?;
    let s = dir.join(format!("{}.s", mode.name()));
    let exe = dir.join(format!("{}.out", mode.name()));
    std::fs::write(&s, asm).map_err(|e| e.to_string())?;
    gcc(&[], &[&s], &exe)?;
    run_binary(&exe, dir, &[])
}

/// Runs `jobs` on two threads; the problems they report, in no particular order.
fn run_parallel<T: Send>(jobs: Vec<T>, check: impl Fn(T) -> Vec<String> + Sync) -> Vec<String> {
    let queue = Mutex::new(jobs);
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(job) = queue.lock().unwrap().pop() else {
                    break;
                };
                let found = check(job);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    problems.into_inner().unwrap()
}

fn files_in(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

// ---- corpus/c against gcc -O0 -----------------------------------------------------------

/// phicc's assembly for the C file `file` with allocator `mode`.
fn phicc_c_assembly(file: &Path, mode: RegallocMode) -> Result<String, String> {
    let mut opts = default_options();
    opts.target = Target::Riscv64;
    let compiled = compile_c_file(file, &opts).map_err(|e| e.to_string())?;
    let module = run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    assemble(&module, mode)
}

/// Compares phicc's binaries of `file` (both allocators) with gcc -O0's; the
/// differences, described.
fn check_c_file(file: &Path) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reference_exe = dir.path().join("gcc.out");
    gcc(&["-O0", "-w"], &[file], &reference_exe)?;
    let reference = run_binary(&reference_exe, dir.path(), &[])?;
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let name = format!("{}: {}", file.display(), mode.name());
        let asm = dir.path().join(format!("{}.s", mode.name()));
        let exe = dir.path().join(format!("{}.out", mode.name()));
        let text = match phicc_c_assembly(file, mode) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{name}: phicc: {e}"));
                continue;
            }
        };
        std::fs::write(&asm, text).map_err(|e| e.to_string())?;
        if let Err(e) = gcc(&[], &[&asm], &exe) {
            problems.push(format!("{name}: {e}"));
            continue;
        }
        let mine = run_binary(&exe, dir.path(), &[])?;
        if (&mine.status, &mine.stdout) != (&reference.status, &reference.stdout) {
            problems.push(format!(
                "{name}: exit {} vs gcc's {}; stdout {:?}\n  gcc's {:?}",
                mine.status,
                reference.status,
                String::from_utf8_lossy(&mine.stdout),
                String::from_utf8_lossy(&reference.stdout)
            ));
        }
    }
    Ok(problems)
}

#[test]
fn corpus_c_runs_like_gcc_with_both_allocators() {
    require_toolchain();
    let files = files_in("../corpus/c", "c");
    assert!(files.len() >= 20, "corpus/c has only {} files", files.len());
    let count = files.len();
    let problems = run_parallel(files, |file| {
        check_c_file(&file).unwrap_or_else(|e| vec![format!("{}: {e}", file.display())])
    });
    assert!(
        problems.is_empty(),
        "{} of {} corpus runs differ from gcc -O0:\n{}",
        problems.len(),
        2 * count,
        problems.join("\n")
    );
}

// ---- corpus/ir run lines, called from gcc's code ----------------------------------------

/// What a `; run:` line expects.
#[derive(Debug)]
enum Expect {
    Returns(i128),
    ReturnsVoid,
    Exits(i32),
    /// The signal the trap is on riscv64 Linux.
    Signal(i32),
}

#[derive(Debug)]
struct RunLine {
    func: String,
    args: Vec<i128>,
    expect: Expect,
    stdout: Option<Vec<u8>>,
}

/// Parses `"..."` with the IR's escapes (`\n \t \\ \"` and `\HH`).
fn parse_string(s: &str) -> Option<Vec<u8>> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let c = *bytes.get(i + 1)?;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'\\' | b'"' => out.push(c),
            _ => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 1;
            }
        }
        i += 2;
    }
    Some(out)
}

fn malformed<T>(file: &Path, n: usize, line: &str) -> T {
    panic!("{}:{}: malformed run line `{line}`", file.display(), n + 1)
}

/// The `; run:` lines of an IR file (see `docs/ir-notes.md`); a malformed one panics.
fn run_lines(text: &str, file: &Path) -> Vec<RunLine> {
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.trim().strip_prefix(';') else {
            continue;
        };
        let Some(rest) = rest.trim().strip_prefix("run:") else {
            continue;
        };
        macro_rules! bad {
            () => {
                malformed(file, n, line)
            };
        }
        let rest = rest.trim();
        let (call, tail) = rest.split_once(')').unwrap_or_else(|| bad!());
        let (func, args) = call.split_once('(').unwrap_or_else(|| bad!());
        let func = func
            .trim()
            .strip_prefix('@')
            .unwrap_or_else(|| bad!())
            .to_string();
        let args: Vec<i128> = args
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| a.parse().unwrap_or_else(|_| bad!()))
            .collect();
        let (expect, stdout) = match tail.split_once(", stdout ") {
            Some((e, s)) => (
                e.trim(),
                Some(parse_string(s.trim()).unwrap_or_else(|| bad!())),
            ),
            None => (tail.trim(), None),
        };
        let expect = if let Some(v) = expect.strip_prefix("==") {
            match v.trim() {
                "void" => Expect::ReturnsVoid,
                v => Expect::Returns(v.parse().unwrap_or_else(|_| bad!())),
            }
        } else if let Some(c) = expect.strip_prefix("exit") {
            Expect::Exits(c.trim().parse().unwrap_or_else(|_| bad!()))
        } else if let Some(t) = expect.strip_prefix("trap") {
            Expect::Signal(match t.trim() {
                "div_by_zero" | "div_overflow" => 8,
                "abort" => 6,
                "unreachable" => 4,
                _ => bad!(),
            })
        } else {
            bad!()
        };
        lines.push(RunLine {
            func,
            args,
            expect,
            stdout,
        });
    }
    lines
}

fn c_type(t: IrType) -> &'static str {
    match t {
        IrType::I8 => "signed char",
        IrType::U8 => "unsigned char",
        IrType::I16 => "short",
        IrType::U16 => "unsigned short",
        IrType::I32 => "int",
        IrType::U32 => "unsigned int",
        IrType::I64 => "long long",
        IrType::U64 => "unsigned long long",
        IrType::Ptr => "void *",
        IrType::Void => "void",
    }
}

/// A C driver whose `main(argc, argv)` makes call number `argv[1]` of `lines` and prints
/// the result on stderr (stdout belongs to the function).
fn c_driver(module: &IrModule, lines: &[RunLine], renamed_main: &str) -> Result<String, String> {
    let mut decls = String::from("#include <stdio.h>\n#include <stdlib.h>\n");
    let mut cases = String::new();
    let mut declared = std::collections::HashSet::new();
    for (i, line) in lines.iter().enumerate() {
        let name = if line.func == "main" {
            renamed_main
        } else {
            &line.func
        };
        let f = module
            .function(name)
            .ok_or_else(|| format!("run line names @{}, which the module lacks", line.func))?;
        if f.params.len() != line.args.len() {
            return Err(format!("@{}: wrong argument count", line.func));
        }
        if declared.insert(name.to_string()) {
            let params: Vec<&str> = f.params.iter().map(|t| c_type(*t)).collect();
            let params = if params.is_empty() {
                "void".to_string()
            } else {
                params.join(", ")
            };
            let _ = writeln!(decls, "{} {name}({params});", c_type(f.ret));
        }
        let args: Vec<String> = f
            .params
            .iter()
            .zip(&line.args)
            .map(|(t, a)| format!("({})0x{:x}ULL", c_type(*t), *a as u64))
            .collect();
        let call = format!("{name}({})", args.join(", "));
        let body = if f.ret == IrType::Void {
            format!("{call}; fflush(stdout); fprintf(stderr, \"void\\n\");")
        } else {
            format!(
                "long long r = (long long){call}; fflush(stdout); fprintf(stderr, \"%lld\\n\", r);"
            )
        };
        let _ = writeln!(cases, "    case {i}: {{ {body} return 0; }}");
    }
    Ok(format!(
        "{decls}\nint main(int argc, char **argv) {{\n  switch (argc > 1 ? atoi(argv[1]) : -1) {{\n{cases}  }}\n  return 99;\n}}\n"
    ))
}

/// Runs every `; run:` line of the IR file `file` through the pipeline and the backend
/// (allocator `mode`), called from gcc's driver; the failures, described.
fn check_ir_file(file: &Path, mode: RegallocMode) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let lines = run_lines(&text, file);
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let module = compiler::ir::text::parse_module(&text).map_err(|e| e.to_string())?;
    let mut module = run_pipeline(module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    // The driver is `main`: the module's own becomes `ir_main`; every function is
    // exported so the driver can call it.
    const RENAMED: &str = "ir_main";
    for f in &mut module.functions {
        if f.name == "main" {
            f.name = RENAMED.into();
        }
        f.attrs.is_static = false;
        for b in &mut f.blocks {
            for inst in &mut b.insts {
                if let compiler::ir::Inst::Call {
                    callee: compiler::ir::Callee::Direct(n),
                    ..
                } = inst
                {
                    if n == "main" {
                        *n = RENAMED.into();
                    }
                }
            }
        }
    }
    let asm = assemble(&module, mode)?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (s, c, exe) = (
        dir.path().join("ir.s"),
        dir.path().join("driver.c"),
        dir.path().join("a.out"),
    );
    std::fs::write(&s, asm).map_err(|e| e.to_string())?;
    std::fs::write(&c, c_driver(&module, &lines, RENAMED)?).map_err(|e| e.to_string())?;
    gcc(&["-O0", "-w"], &[&c, &s], &exe)?;
    let mut problems = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let what = format!(
            "{} ({}): @{}{:?}",
            file.display(),
            mode.name(),
            line.func,
            line.args
        );
        let out = run_binary(&exe, dir.path(), &[&i.to_string()])?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let ret = module
            .function(if line.func == "main" {
                RENAMED
            } else {
                &line.func
            })
            .map_or(IrType::Void, |f| f.ret);
        let ok = match &line.expect {
            Expect::Returns(v) => {
                let want = ret.canonicalize(*v as u64, 8) as i64;
                out.status == "0" && stderr.trim() == want.to_string()
            }
            Expect::ReturnsVoid => out.status == "0" && stderr.trim() == "void",
            Expect::Exits(c) => out.status == c.to_string(),
            Expect::Signal(s) => out.status == format!("signal {s}"),
        };
        let stdout_ok = line.stdout.as_ref().is_none_or(|s| *s == out.stdout);
        if !ok || !stdout_ok {
            problems.push(format!(
                "{what}: expected {:?} (stdout {:?}), got status {}, result {stderr:?}, stdout {:?}",
                line.expect,
                line.stdout.as_ref().map(|s| String::from_utf8_lossy(s).into_owned()),
                out.status,
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    Ok(problems)
}

#[test]
fn corpus_ir_run_lines_hold_when_called_from_gcc_code() {
    require_toolchain();
    let mut files = files_in("../corpus/ir", "ir");
    files.extend(files_in("../corpus/ir/passes", "ir"));
    assert!(
        files.len() >= 40,
        "corpus/ir has only {} files",
        files.len()
    );
    let jobs: Vec<(PathBuf, RegallocMode)> = files
        .iter()
        .flat_map(|f| RegallocMode::ALL.map(|m| (f.clone(), m)))
        .collect();
    let problems = run_parallel(jobs, |(file, mode)| {
        check_ir_file(&file, mode).unwrap_or_else(|e| vec![format!("{}: {e}", file.display())])
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---- Every operation at every width, against the IR's own arithmetic -----------------
//
// A generated phi-free module calls one small function per operation, width and operand
// shape (both operands values, a constant on the right, a constant on the left: 12-bit
// immediates, lui pairs and 64-bit constants), prints every result, and the printed
// lines must be `ir::eval`'s values.

/// Interesting operands of `ty`, canonical and distinct.
fn values(ty: IrType) -> Vec<u64> {
    let bits = ty.size(8) * 8;
    let min = 1u64 << (bits - 1);
    let mut v = vec![
        0,
        1,
        2,
        7,
        u64::MAX,
        u64::MAX - 1,
        min,
        min - 1,
        min + 1,
        100,
        (-100i64) as u64,
        2047,
        2048,
        (-2048i64) as u64,
        0x5a5a_5a5a_5a5a_5a5a,
        0x1234_5fff,
    ];
    if bits == 64 {
        v.extend([
            0x8000_0000,
            0xffff_ffff,
            0x7fff_f800,
            0x1_2345_6789,
            0xffff_ffff_7fff_ffff,
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

/// Builds the module text and the expected output lines (with what each one is).
struct OpsModule {
    functions: String,
    drivers: Vec<String>,
    current: String,
    calls_in_current: usize,
    next_value: usize,
    next_block: u32,
    expected: Vec<(i64, String)>,
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
        }
    }

    fn block(&mut self) -> String {
        self.next_block += 1;
        format!(".LBB{}", self.next_block)
    }

    /// `func noinline @name(params) -> i64` whose body computes `%10` of type `ty` from
    /// the parameters %0, %1, ... and returns it cast to i64 (so that a result left
    /// non-canonical inside the function shows: a caller's re-extension of a narrow
    /// result would hide it). `body` may instead end in its own `ret`.
    fn function(&mut self, name: &str, params: &[IrType], ty: IrType, body: &str) {
        let entry = self.block();
        let list: Vec<&str> = params.iter().map(|t| t.name()).collect();
        let _ = writeln!(
            self.functions,
            "func noinline @{name}({}) -> i64 {{\n{entry}:",
            list.join(", ")
        );
        for (i, t) in params.iter().enumerate() {
            let _ = writeln!(self.functions, "    %{i} = paramref {i}, {t}");
        }
        if body.contains("ret ") {
            let _ = writeln!(self.functions, "{body}}}\n");
        } else {
            let _ = writeln!(
                self.functions,
                "{body}    %11 = cast {ty} %10 to i64\n    ret i64 %11\n}}\n"
            );
        }
    }

    /// A call of `@name(args)`, whose printed result must be `expected` (canonical in
    /// `ty`, printed as the i64 it casts to).
    fn call(&mut self, name: &str, ty: IrType, args: &[(IrType, u64)], expected: u64) {
        if self.calls_in_current >= 64 {
            self.flush();
        }
        self.calls_in_current += 1;
        let arg_text: Vec<String> = args
            .iter()
            .map(|(t, v)| format!("{t} {}", lit(*t, *v)))
            .collect();
        let (r, sink) = (self.next_value, self.next_value + 1);
        self.next_value += 2;
        let _ = writeln!(
            self.current,
            "    %{r} = call i64 @{name}({})\n    %{sink} = call i32 @printf(ptr %0, i64 %{r})",
            arg_text.join(", ")
        );
        let want = eval_cast(ty, IrType::I64, ty.canonicalize(expected, 8)).expect("cast");
        self.expected
            .push((want as i64, format!("@{name}({})", arg_text.join(", "))));
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

fn add_binary_ops(m: &mut OpsModule, ty: IrType) {
    let vals = values(ty);
    for op in BinOp::ALL {
        let name = format!("bin_{op}_{ty}");
        let body = format!("    %10 = {op} {ty} %0, %1\n");
        m.function(&name, &[ty, ty], ty, &body);
        for (i, &b) in vals.iter().enumerate() {
            let right = format!("binr_{op}_{ty}_{i}");
            let body = format!("    %10 = {op} {ty} %0, {}\n", lit(ty, b));
            m.function(&right, &[ty], ty, &body);
            let left = format!("binl_{op}_{ty}_{i}");
            let body = format!("    %10 = {op} {ty} {}, %0\n", lit(ty, b));
            m.function(&left, &[ty], ty, &body);
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
}

fn add_other_ops(m: &mut OpsModule, ty: IrType) {
    let vals = values(ty);
    for op in UnOp::ALL {
        let name = format!("un_{op}_{ty}");
        m.function(&name, &[ty], ty, &format!("    %10 = {op} {ty} %0\n"));
        for &a in &vals {
            m.call(&name, ty, &[(ty, a)], eval_unop(op, ty, a).expect("unop"));
        }
    }
    for pred in CmpPred::ALL {
        // As a value, against a constant, and as a branch.
        let name = format!("cmp_{pred}_{ty}");
        let body = format!("    %10 = cmp {pred} {ty} %0, %1\n");
        m.function(&name, &[ty, ty], IrType::I8, &body);
        let (yes, no) = (m.block(), m.block());
        let branch = format!("br_{pred}_{ty}");
        let body = format!(
            "    %10 = cmp {pred} {ty} %0, %1\n    condbr %10, {yes}, {no}\n{yes}:\n    ret i64 1\n{no}:\n    ret i64 0\n"
        );
        m.function(&branch, &[ty, ty], IrType::I64, &body);
        for &a in &vals {
            for &b in &vals {
                let r = u64::from(eval_cmp(pred, ty, a, b).expect("cmp"));
                m.call(&name, IrType::I8, &[(ty, a), (ty, b)], r);
                m.call(&branch, IrType::I64, &[(ty, a), (ty, b)], r);
            }
        }
        for (i, &b) in vals.iter().enumerate() {
            let konst = format!("cmpk_{pred}_{ty}_{i}");
            let body = format!("    %10 = cmp {pred} {ty} %0, {}\n", lit(ty, b));
            m.function(&konst, &[ty], IrType::I8, &body);
            for &x in &vals {
                let r = u64::from(eval_cmp(pred, ty, x, b).expect("cmp"));
                m.call(&konst, IrType::I8, &[(ty, x)], r);
            }
        }
    }
    for to in IrType::INTEGERS {
        let name = format!("cast_{ty}_{to}");
        m.function(
            &name,
            &[ty],
            to,
            &format!("    %10 = cast {ty} %0 to {to}\n"),
        );
        for &a in &vals {
            m.call(&name, to, &[(ty, a)], eval_cast(ty, to, a).expect("cast"));
        }
    }
    // select with a condition of this type (true when non-zero in its own type), and a
    // select of this type's values.
    let name = format!("select_cond_{ty}");
    let body = "    %10 = select i64 %0, %1, %2\n";
    m.function(&name, &[ty, IrType::I64, IrType::I64], IrType::I64, body);
    let values_name = format!("select_{ty}");
    let body = format!("    %10 = select {ty} %0, %1, %2\n");
    m.function(&values_name, &[IrType::I8, ty, ty], ty, &body);
    for &c in &vals {
        let r = if c != 0 { 11 } else { 22 };
        let args = [(ty, c), (IrType::I64, 11), (IrType::I64, 22)];
        m.call(&name, IrType::I64, &args, r);
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
    for (kind, cases) in [("dense", dense), ("sparse", vals.clone())] {
        let name = format!("switch_{kind}_{ty}");
        let default = m.block();
        let targets: Vec<String> = cases.iter().map(|_| m.block()).collect();
        let list: Vec<String> = cases
            .iter()
            .zip(&targets)
            .map(|(c, t)| format!("{}: {t}", lit(ty, *c)))
            .collect();
        let mut body = format!("    switch {ty} %0, {default} [{}]\n", list.join(", "));
        let _ = writeln!(body, "{default}:\n    ret i64 0");
        for (i, t) in targets.iter().enumerate() {
            let _ = writeln!(body, "{t}:\n    ret i64 {}", i + 1);
        }
        m.function(&name, &[ty], IrType::I64, &body);
        let mut probes = vals.clone();
        probes.extend((0..8).map(|k| ty.canonicalize((-4i64 + k) as u64, 8)));
        for a in probes {
            let r = cases.iter().position(|c| *c == a).map_or(0, |i| i + 1);
            m.call(&name, IrType::I64, &[(ty, a)], r as u64);
        }
    }
}

/// Runs the generated module with both allocators and compares every printed line.
fn check_ops_module(m: OpsModule) {
    let (text, expected) = m.finish();
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome =
            run_ir(&text, mode, dir.path()).unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        assert_eq!(outcome.status, "0", "{}", mode.name());
        let out = String::from_utf8_lossy(&outcome.stdout);
        let lines: Vec<&str> = out.lines().collect();
        let wrong: Vec<String> = expected
            .iter()
            .enumerate()
            .filter_map(|(i, (want, what))| {
                let got = lines.get(i).copied().unwrap_or("<missing>");
                (got != want.to_string()).then(|| format!("{what} = {got}, expected {want}"))
            })
            .collect();
        assert!(
            wrong.is_empty() && lines.len() == expected.len(),
            "{}: {} of {} results wrong ({} lines printed):\n{}",
            mode.name(),
            wrong.len(),
            expected.len(),
            lines.len(),
            wrong
                .iter()
                .take(40)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn every_binary_operation_at_every_width_computes_what_ir_eval_computes() {
    require_toolchain();
    let mut m = OpsModule::new();
    for ty in IrType::INTEGERS {
        add_binary_ops(&mut m, ty);
    }
    check_ops_module(m);
}

#[test]
fn unary_ops_comparisons_casts_selects_and_switches_at_every_width() {
    require_toolchain();
    let mut m = OpsModule::new();
    for ty in IrType::INTEGERS {
        add_other_ops(&mut m, ty);
    }
    check_ops_module(m);
}

// ---- Frames, memcpy, far branches and traps -------------------------------------------

/// Runs the IR module `text` (with a `@main` that prints `%lld` lines through `@fmt`)
/// with both allocators; every printed line must be the expected value.
fn check_printed(text: &str, expected: &[(i64, String)]) {
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome =
            run_ir(text, mode, dir.path()).unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        assert_eq!(outcome.status, "0", "{}", mode.name());
        let out = String::from_utf8_lossy(&outcome.stdout);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), expected.len(), "{}: {out}", mode.name());
        for ((want, what), got) in expected.iter().zip(&lines) {
            assert_eq!(*got, want.to_string(), "{}: {what}", mode.name());
        }
    }
}

const PRINTF_HEADER: &str = "global @fmt : 6 align 1 const = [str \"%lld\\0a\\00\"]\n\
                             declare @printf(ptr, ...) -> i32\n";

/// `@main` calling each `(callee, args, expected)` and printing the i64 results.
fn main_printing(calls: &[(String, String, i64)]) -> (String, Vec<(i64, String)>) {
    let mut body = String::new();
    let mut expected = Vec::new();
    for (i, (callee, args, want)) in calls.iter().enumerate() {
        let (r, sink) = (2 * i + 1, 2 * i + 2);
        let _ = writeln!(
            body,
            "    %{r} = call i64 @{callee}({args})\n    %{sink} = call i32 @printf(ptr %0, i64 %{r})"
        );
        expected.push((*want, format!("@{callee}({args})")));
    }
    let text = format!(
        "func @main() -> i32 {{\n.LBB5:\n    %0 = globaladdr @fmt\n{body}    ret i32 0\n}}\n"
    );
    (text, expected)
}

/// `@copy_N_S_D(seed)`: fills an N+16-byte buffer with bytes `seed + 7i`, zeroes
/// another, copies N bytes from offset S to offset D (an inline memcpy: unrolled or a
/// loop, by size) and returns the hash `h = h * 31 + byte` of the whole destination.
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

/// What `@copy_N_S_D(seed)` returns, computed directly.
fn memcpy_expected(n: u32, src_off: u32, dst_off: u32, seed: i64) -> i64 {
    let total = (n + 16) as usize;
    let src: Vec<u8> = (0..total).map(|i| (seed + 7 * i as i64) as u8).collect();
    let mut dst = vec![0u8; total];
    let (s, d) = (src_off as usize, dst_off as usize);
    dst[d..d + n as usize].copy_from_slice(&src[s..s + n as usize]);
    dst.iter()
        .fold(0i64, |h, &b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
}

/// `@weigh` takes twelve parameters of mixed widths (the last four on the stack) and
/// folds them `h = 3h + p`; `@framed` has twelve i64 parameters, a 64-aligned alloca
/// (the prologue realigns sp; stack parameters are read through s0), a 1 MiB alloca
/// (slots beyond ±2 KiB from sp) through which two parameters pass, and calls `@weigh`
/// with its parameters rotated and narrowed.
const FRAME_FUNCTIONS: &str = "
func noinline @weigh(i8, u16, i32, i64, u8, i16, u32, i64, i8, u64, u32, i16) -> i64 {
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
    %40 = paramref 10, u32
    %41 = paramref 11, i16
    %10 = cast i8 %0 to i64
    %11 = cast u16 %1 to i64
    %12 = cast i32 %2 to i64
    %14 = cast u8 %4 to i64
    %15 = cast i16 %5 to i64
    %16 = cast u32 %6 to i64
    %18 = cast i8 %8 to i64
    %19 = cast u64 %9 to i64
    %42 = cast u32 %40 to i64
    %43 = cast i16 %41 to i64
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
    %52 = cast i64 %50 to u32
    %53 = cast i64 %51 to i16
    %30 = call i64 @weigh(i8 %20, u16 %21, i32 %22, i64 %4, u8 %24, i16 %25, u32 %26, i64 %15, i8 %28, u64 %29, u32 %52, i16 %53)
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
        p[10] as u32 as i64,
        p[11] as i16 as i64,
    ];
    args.iter()
        .fold(0i64, |h, &a| h.wrapping_mul(3).wrapping_add(a))
}

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    require_toolchain();
    let mut text = String::from(PRINTF_HEADER);
    text.push_str(FRAME_FUNCTIONS);
    let mut calls = Vec::new();
    let params: [[i64; 12]; 3] = [
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
            0x8000_0000,
            -2,
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
            0xffff_ffff,
            40000,
        ],
    ];
    for p in params {
        let args: Vec<String> = p.iter().map(|v| format!("i64 {v}")).collect();
        calls.push(("framed".to_string(), args.join(", "), framed_expected(p)));
    }
    let mut block = 10_000;
    for n in [
        1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 127, 128, 129, 200, 257,
    ] {
        for (src_off, dst_off) in [(0, 0), (3, 1), (8, 5)] {
            text.push_str(&memcpy_function(n, src_off, dst_off, block));
            block += 10;
            let seed = i64::from(n) * 13 + 1;
            calls.push((
                format!("copy_{n}_{src_off}_{dst_off}"),
                format!("i64 {seed}"),
                memcpy_expected(n, src_off, dst_off, seed),
            ));
        }
    }
    let (main, expected) = main_printing(&calls);
    text.push_str(&main);
    check_printed(&text, &expected);
}

/// `@long(n)`: `1000 / n` first (its trap test branches to the stub after the body, far
/// away), then a loop of `n` rounds whose body is `STEPS` multiply-adds with constants of
/// every size, so the loop's exit branch and the trap branch are far beyond ±4 KiB.
const STEPS: usize = 1500;

fn long_function() -> String {
    let mut body = String::new();
    let mut prev = 1;
    for k in 0..STEPS {
        let (m, a) = (2 * k + 10, 2 * k + 11);
        let _ = writeln!(
            body,
            "    %{m} = mul i64 %{prev}, 3\n    %{a} = add i64 %{m}, {}",
            step_constant(k)
        );
        prev = a;
    }
    format!(
        "func noinline @long(i64) -> i64 {{
.LBB200:
    %0 = paramref 0, i64
    %5 = sdiv i64 1000, %0
    %1 = copy i64 %5
    %2 = copy i64 0
    br .LBB201
.LBB201:
    %3 = cmp slt i64 %2, %0
    condbr %3, .LBB202, .LBB203
.LBB202:
{body}    %1 = copy i64 %{prev}
    %4 = add i64 %2, 1
    %2 = copy i64 %4
    br .LBB201
.LBB203:
    ret i64 %1
}}
"
    )
}

/// The constant step `k` of `@long` adds: small, 32-bit and 64-bit ones.
fn step_constant(k: usize) -> i64 {
    let k = k as i64;
    match k % 3 {
        0 => k,
        1 => k * 0x0101_0101 - 0x7ff,
        _ => k.wrapping_mul(0x0123_4567_89ab_cdef),
    }
}

fn long_expected(n: i64) -> i64 {
    let mut acc = 1000 / n;
    for _ in 0..n {
        for k in 0..STEPS {
            acc = acc.wrapping_mul(3).wrapping_add(step_constant(k));
        }
    }
    acc
}

#[test]
fn branches_beyond_four_kib_reach_their_targets() {
    require_toolchain();
    let mut text = String::from(PRINTF_HEADER);
    text.push_str(&long_function());
    let calls: Vec<(String, String, i64)> = [1, 2, 7]
        .iter()
        .map(|&n| ("long".to_string(), format!("i64 {n}"), long_expected(n)))
        .collect();
    let (main, expected) = main_printing(&calls);
    text.push_str(&main);
    // The far branches really are there (rewritten into a branch around a `j`).
    let module = compiler::ir::text::parse_module(&text).unwrap();
    let asm = assemble(&module, RegallocMode::LinearScan).unwrap();
    assert!(asm.contains("_far"), "no branch was rewritten");
    check_printed(&text, &expected);
    // n = 0: the division's far branch to the trap stub.
    let mut trapping = long_function();
    trapping.push_str(
        "func @main() -> i32 {\n.LBB6:\n    %0 = call i64 @long(i64 0)\n    ret i32 0\n}\n",
    );
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome = run_ir(&trapping, mode, dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, "signal 8", "{}", mode.name());
    }
}

/// `@main` calls `@t(a, b)` = `OP TYPE a, b` (or `unreachable`) and must end as the IR
/// says: SIGFPE (8) for division by zero and MIN / -1 at the operation's width (RISC-V's
/// divide never traps, so these are phicc's own tests), SIGILL (4) for `unreachable`.
#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    require_toolchain();
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        ("sdiv", "i8", "-128", "-1", "signal 8"),
        ("srem", "i8", "-128", "-1", "signal 8"),
        ("sdiv", "i16", "-32768", "-1", "signal 8"),
        ("srem", "i16", "-32768", "-1", "signal 8"),
        ("sdiv", "i32", "-2147483648", "-1", "signal 8"),
        ("srem", "i32", "-2147483648", "-1", "signal 8"),
        ("sdiv", "i64", "-9223372036854775808", "-1", "signal 8"),
        ("srem", "i64", "-9223372036854775808", "-1", "signal 8"),
        ("sdiv", "u8", "128", "255", "signal 8"),
        ("sdiv", "u32", "2147483648", "4294967295", "signal 8"),
        ("udiv", "u8", "7", "0", "signal 8"),
        ("urem", "u16", "7", "0", "signal 8"),
        ("udiv", "u32", "7", "0", "signal 8"),
        ("urem", "u64", "7", "0", "signal 8"),
        ("sdiv", "i32", "7", "0", "signal 8"),
        ("srem", "i64", "0", "0", "signal 8"),
        ("udiv", "i8", "-1", "0", "signal 8"),
        // One step away from a trap: no trap.
        ("sdiv", "i8", "-127", "-1", "127"),
        ("sdiv", "i16", "-32768", "1", "0"),
        ("udiv", "u8", "128", "255", "0"),
        ("udiv", "i32", "-2147483648", "-1", "0"),
        ("srem", "i32", "-2147483647", "-1", "0"),
        ("sdiv", "i64", "-9223372036854775807", "-1", "255"),
        ("unreachable", "i32", "0", "0", "signal 4"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (op, ty, a, b, want) in cases {
        // Both operands values, and the divisor a constant.
        for constant_divisor in [false, true] {
            let rhs = if constant_divisor { b } else { "%1" };
            let body = if *op == "unreachable" {
                "    unreachable".to_string()
            } else {
                format!(
                    "    %2 = {op} {ty} %0, {rhs}\n    %3 = cast {ty} %2 to i32\n    ret i32 %3"
                )
            };
            let text = format!(
                "func noinline @t({ty}, {ty}) -> i32 {{\n.LBB0:\n    %0 = paramref 0, {ty}\n    \
                 %1 = paramref 1, {ty}\n{body}\n}}\n\n\
                 func @main() -> i32 {{\n.LBB1:\n    %0 = call i32 @t({ty} {a}, {ty} {b})\n    ret i32 %0\n}}\n"
            );
            for mode in RegallocMode::ALL {
                let outcome = run_ir(&text, mode, dir.path()).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    outcome.status,
                    *want,
                    "{op} {ty} {a}, {rhs} ({})",
                    mode.name()
                );
            }
        }
    }
}

// ---- A mixed link with gcc's code, both ways --------------------------------------------

/// C compiled by gcc: `raw_*` read a whole argument register (declared `long long` in C,
/// narrow in the IR), `c_weigh` takes narrow parameters, and `main` calls phicc's
/// functions, some through prototypes that read the raw result register.
const MIXED_C: &str = r#"
#include <stdio.h>
long long raw_arg(long long x) { return x; }
long long c_weigh(signed char a, unsigned char b, short c, unsigned short d,
                  int e, unsigned int f, long long g, unsigned long long h,
                  unsigned int i, signed char j) {
    long long r = 0;
    r = r * 3 + a; r = r * 3 + b; r = r * 3 + c; r = r * 3 + d; r = r * 3 + e;
    r = r * 3 + f; r = r * 3 + g; r = r * 3 + (long long)h; r = r * 3 + i; r = r * 3 + j;
    return r;
}
unsigned int c_u32(unsigned int x) { return x * 3u; }
/* phicc's functions, through their real prototypes ... */
unsigned long long u32_wide(unsigned int x);
unsigned int u32_half(unsigned int x);
long long call_c(void);
long long pass_u32(unsigned int x);
/* ... and through prototypes that read whole registers. */
long long ret_u32_raw(void) __asm__("ret_u32");
long long ret_u8_raw(void) __asm__("ret_u8");
long long ret_i16_raw(void) __asm__("ret_i16");
unsigned long long u32_wide_dirty(long long x) __asm__("u32_wide");
long long i8_wide_dirty(long long x) __asm__("i8_wide");
int main(void) {
    printf("%llu\n", u32_wide(0x80000000u));
    printf("%u\n", u32_half(0xfffffffeu));
    printf("%lld\n", call_c());
    printf("%lld\n", pass_u32(0xfffffff0u));
    printf("%lld\n", ret_u32_raw());
    printf("%lld\n", ret_u8_raw());
    printf("%lld\n", ret_i16_raw());
    printf("%llu\n", u32_wide_dirty(0x1234567880000001LL));
    printf("%lld\n", i8_wide_dirty(0x12345680LL));
    return 0;
}
"#;

/// The IR side: functions gcc's `main` calls, and calls into gcc's functions.
const MIXED_IR: &str = "
declare @raw_arg(u32) -> i64
declare @c_weigh(i8, u8, i16, u16, i32, u32, i64, u64, u32, i8) -> i64
declare @c_u32(u32) -> u32

func @u32_wide(u32) -> u64 {
.LBB1:
    %0 = paramref 0, u32
    %1 = cast u32 %0 to u64
    ret u64 %1
}

func @u32_half(u32) -> u32 {
.LBB2:
    %0 = paramref 0, u32
    %1 = lshr u32 %0, 1
    ret u32 %1
}

func @i8_wide(i8) -> i64 {
.LBB3:
    %0 = paramref 0, i8
    %1 = cast i8 %0 to i64
    ret i64 %1
}

func @ret_u32() -> u32 {
.LBB4:
    ret u32 4294967295
}

func @ret_u8() -> u8 {
.LBB5:
    ret u8 200
}

func @ret_i16() -> i16 {
.LBB6:
    ret i16 -300
}

func @pass_u32(u32) -> i64 {
.LBB7:
    %0 = paramref 0, u32
    %1 = call i64 @raw_arg(u32 %0)
    ret i64 %1
}

func @call_c() -> i64 {
.LBB8:
    %0 = call i64 @c_weigh(i8 -1, u8 255, i16 -2, u16 65535, i32 -3, u32 4294967295, i64 -4, u64 5, u32 2147483648, i8 127)
    %1 = call u32 @c_u32(u32 2863311531)
    %2 = cast u32 %1 to i64
    %3 = mul i64 %0, 1000
    %4 = add i64 %3, %2
    ret i64 %4
}
";

/// What `MIXED_C`'s `main` prints, by hand: the LP64 ABI sign-extends 32-bit values
/// (also unsigned ones) in registers and extends narrower ones by their own signedness;
/// phicc's code must accept any upper bits and produce exactly the ABI's.
fn mixed_expected() -> String {
    let weigh = [
        -1i64, 255, -2, 65535, -3, 4294967295, -4, 5, 2147483648, 127,
    ]
    .iter()
    .fold(0i64, |r, &a| r * 3 + a);
    // c_u32(0xaaaaaaab) = 0xaaaaaaab * 3 mod 2^32 = 1, read back as an unsigned 32-bit.
    let call_c = weigh * 1000 + 1;
    [
        "2147483648".to_string(),
        "2147483647".to_string(),
        call_c.to_string(),
        // 0xfffffff0 as the ABI passes a u32: sign-extended.
        "-16".to_string(),
        // u32 0xffffffff returned sign-extended, u8 200 zero-extended, i16 -300
        // sign-extended.
        "-1".to_string(),
        "200".to_string(),
        "-300".to_string(),
        // Garbage above a u32 argument and an i8 argument is ignored.
        "2147483649".to_string(),
        "-128".to_string(),
    ]
    .join("\n")
        + "\n"
}

/// Builds gcc's C and phicc's IR (allocator `mode`) into one binary and runs it.
fn run_mixed(mode: RegallocMode, dir: &Path) -> Outcome {
    let module = compiler::ir::text::parse_module(MIXED_IR).unwrap();
    let asm = assemble(&module, mode).unwrap();
    let (s, c, exe) = (
        dir.join("mixed.s"),
        dir.join("mixed.c"),
        dir.join("mixed.out"),
    );
    std::fs::write(&s, asm).unwrap();
    std::fs::write(&c, MIXED_C).unwrap();
    gcc(&["-O1", "-w"], &[&c, &s], &exe).unwrap();
    run_binary(&exe, dir, &[]).unwrap()
}

#[test]
fn phicc_and_gcc_code_call_each_other_through_the_lp64_abi() {
    require_toolchain();
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome = run_mixed(mode, dir.path());
        assert_eq!(outcome.status, "0", "{}", mode.name());
        assert_eq!(
            String::from_utf8_lossy(&outcome.stdout),
            mixed_expected(),
            "{}",
            mode.name()
        );
    }
}

// ---- Seeded bugs ------------------------------------------------------------------------

/// Runs `text` with `mutant` switched on in this thread (it is compiled here).
fn run_ir_with_mutant(
    text: &str,
    mode: RegallocMode,
    mutant: compiler::mutants::Mutant,
    dir: &Path,
) -> Outcome {
    compiler::mutants::set_active(&[mutant]);
    let outcome = run_ir(text, mode, dir);
    compiler::mutants::set_active(&[]);
    outcome.unwrap_or_else(|e| panic!("{mutant}: {e}"))
}

/// Each riscv64 mutant changes what some program computes (so the native runs can find
/// it), and the correct backend computes the right value on the same program.
#[test]
fn seeded_backend_bugs_change_what_runs() {
    use compiler::mutants::Mutant;
    require_toolchain();
    // A u32 parameter arrives sign-extended (the ABI's form); phicc must zero-extend it:
    // 0x80000000 as a u64 is 2^31 (exit status 1 when it is).
    let narrow_param = "func noinline @wide(u32) -> u64 {\n.LBB0:\n    %0 = paramref 0, u32\n    \
        %1 = cast u32 %0 to u64\n    ret u64 %1\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call u64 @wide(u32 2147483648)\n    \
        %1 = cmp eq u64 %0, 2147483648\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n";
    // 7 / 0 traps.
    let div_zero = "func noinline @d(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
        %1 = paramref 1, i32\n    %2 = sdiv i32 %0, %1\n    ret i32 %2\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @d(i32 7, i32 0)\n    ret i32 3\n}\n";
    // 0x12345fff (low 12 bits 0xfff) needs a rounded lui; one more is 0x12346000,
    // which needs no addi, so the mutant cannot get it wrong too.
    let lui = "func noinline @k() -> i64 {\n.LBB0:\n    ret i64 305422335\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i64 @k()\n    %3 = add i64 %0, 1\n    \
        %1 = cmp eq i64 %3, 305422336\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n";
    // INT_MAX + 1 must wrap to INT_MIN, sign-extended (cast to i64 needs no extension).
    let add_word = "func noinline @inc(i32) -> i64 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
        %1 = add i32 %0, 1\n    %2 = cast i32 %1 to i64\n    ret i64 %2\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i64 @inc(i32 2147483647)\n    \
        %1 = cmp eq i64 %0, -2147483648\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n";
    let cases = [
        (Mutant::Riscv64NarrowParamNotExtended, narrow_param, "1"),
        (Mutant::Riscv64DivZeroNoTrap, div_zero, "signal 8"),
        (Mutant::Riscv64LuiNoRounding, lui, "1"),
        (Mutant::Riscv64I32AddNotWord, add_word, "1"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (mutant, text, right) in cases {
        for mode in RegallocMode::ALL {
            let correct = run_ir(text, mode, dir.path()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(correct.status, right, "{mutant} off, {}", mode.name());
            let wrong = run_ir_with_mutant(text, mode, mutant, dir.path());
            assert_ne!(wrong.status, right, "{mutant} on, {}", mode.name());
        }
    }
}
