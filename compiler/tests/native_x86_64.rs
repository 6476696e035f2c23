//! phicc's x86-64 code runs right: checked against gcc -O0 and against the IR's own
//! arithmetic, with both register allocators.
//!
//! - every `corpus/c` program (they check themselves: ASSERT lines on stdout, exit status
//!   1 on a wrong value), compiled by phicc's library (`compile_c_file`, the pipeline,
//!   `backend::compile_module`), linked by `x86_64-linux-gnu-gcc -static`, exits with the
//!   same status and prints the same bytes as gcc -O0's binary of the same file;
//! - every integer operation at every width, with value and constant operands, computes
//!   what `ir::eval` (the oracle's arithmetic) computes; frames (realignment, stack
//!   parameters, a 1 MiB alloca), memcpy of many sizes, and traps behave as the IR says;
//! - each x86-64 seeded bug (and the shared parallel-move one) changes what a program
//!   computes, so the native runs can find it.
//!
//! Every child runs under a timeout in a temporary directory with `argv[0] = "a.out"`
//! (the harness's convention, which `corpus/c/argv.c` checks). The test needs an x86-64
//! host and the x86_64 gcc driver; without them it fails with a hint instead of skipping.

use compiler::backend::{compile_module, BackendOptions, RegallocMode, Target};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const GCC: &str = "x86_64-linux-gnu-gcc";
const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);
const RUN_TIMEOUT: Duration = Duration::from_secs(10);

/// How a program ended.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// The exit status, or `signal N`, or `timeout`.
    status: String,
    stdout: Vec<u8>,
}

/// Runs `cmd` with stdout and stderr captured, killing it after `timeout`; the outcome
/// and stderr.
fn run(mut cmd: Command, timeout: Duration) -> Result<(Outcome, Vec<u8>), String> {
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
    Ok((Outcome { status, stdout }, stderr))
}

/// Links `sources` (C or assembly) statically into `exe`.
fn gcc(args: &[&str], sources: &[&Path], exe: &Path) -> Result<(), String> {
    let mut cmd = Command::new(GCC);
    cmd.args(args)
        .arg("-static")
        .arg("-o")
        .arg(exe)
        .args(sources);
    let (outcome, stderr) = run(cmd, COMPILE_TIMEOUT)?;
    if outcome.status != "0" {
        return Err(format!(
            "{GCC} failed ({}): {}",
            outcome.status,
            String::from_utf8_lossy(&stderr)
        ));
    }
    Ok(())
}

/// Runs `exe` in `dir` as `a.out`.
fn run_binary(exe: &Path, dir: &Path) -> Result<Outcome, String> {
    let mut cmd = Command::new(exe);
    cmd.arg0("a.out").current_dir(dir);
    run(cmd, RUN_TIMEOUT).map(|(outcome, _)| outcome)
}

/// phicc's assembly for `file` with allocator `mode`.
fn phicc_assembly(file: &Path, mode: RegallocMode) -> Result<String, String> {
    let compiled = compile_c_file(file, &default_options()).map_err(|e| e.to_string())?;
    let module = run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    let opts = BackendOptions {
        regalloc: mode,
        check_allocation: true,
    };
    compile_module(&module, Target::X86_64, &opts).map_err(|e| e.to_string())
}

/// Compares phicc's binaries of `file` (both allocators) with gcc -O0's; the
/// differences, described.
fn check_file(file: &Path) -> Result<Vec<String>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let reference_exe = dir.path().join("gcc.out");
    gcc(&["-O0", "-w"], &[file], &reference_exe)?;
    let reference = run_binary(&reference_exe, dir.path())?;
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let asm = dir.path().join(format!("{}.s", mode.name()));
        let exe = dir.path().join(format!("{}.out", mode.name()));
        let text = match phicc_assembly(file, mode) {
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
        let mine = run_binary(&exe, dir.path())?;
        if mine != reference {
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

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/c");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_c_runs_like_gcc_with_both_allocators() {
    assert!(
        Command::new(GCC).arg("--version").output().is_ok(),
        "{GCC} not found: run scripts/setup.sh (it installs the cross toolchains)"
    );
    let files = corpus_files();
    assert!(files.len() >= 20, "corpus/c has only {} files", files.len());
    let queue = Mutex::new(files.clone());
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(file) = queue.lock().unwrap().pop() else {
                    break;
                };
                let found =
                    check_file(&file).unwrap_or_else(|e| vec![format!("{}: {e}", file.display())]);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    let problems = problems.into_inner().unwrap();
    assert!(
        problems.is_empty(),
        "{} of {} corpus runs differ from gcc -O0:\n{}",
        problems.len(),
        2 * files.len(),
        problems.join("\n")
    );
}

// ---- Every operation at every width, against the IR's own arithmetic -----------------
//
// A generated IR module (phi-free, so it goes straight to the backend: no pass can fold
// the operations away) calls one small function per operation, width and operand shape
// (both operands values, or one a constant — immediates, and 64-bit constants that need
// `movabsq`), prints every result, and the printed lines must be `ir::eval`'s values.

use compiler::ir::eval::{eval_binop, eval_cast, eval_cmp, eval_unop};
use compiler::ir::{BinOp, CmpPred, IrType, UnOp};
use std::fmt::Write as _;

/// Interesting operands of `ty`, canonical and distinct.
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
        0x5a5a_5a5a_5a5a_5a5a,
    ];
    if bits == 64 {
        v.extend([
            0x8000_0000,
            0xffff_ffff,
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

/// Builds the module text and the expected output lines (with a description of each).
struct OpsModule {
    functions: String,
    drivers: Vec<String>,
    current: String,
    calls_in_current: usize,
    next_value: usize,
    next_block: u32,
    expected: Vec<(i64, String)>,
    /// Functions whose narrow result is returned as an i64.
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

    /// `func noinline @name(params) -> ret` with `body` (instructions after the paramrefs
    /// %0, %1, ...; the body may use fresh values from %10 on). A body that ends in
    /// `ret TYPE %10` for a type narrower than i64 returns `cast TYPE %10 to i64` instead,
    /// so that a result left non-canonical inside the function shows (the caller's
    /// re-extension of a narrow result would hide it).
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
        self.expected.push((
            ret.canonicalize(expected, 8) as i64,
            format!("@{name}({})", arg_text.join(", ")),
        ));
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
                // The constant on the right, and (fewer) on the left.
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
            // As a value, and as a branch right after the comparison.
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
            for &a in &vals {
                for &b in &vals {
                    let r = u64::from(eval_cmp(pred, ty, a, b).expect("integer cmp"));
                    m.call(&name, IrType::I8, &[(ty, a), (ty, b)], r);
                    m.call(&branch, IrType::I32, &[(ty, a), (ty, b)], r);
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
/// and runs it.
fn run_ir(text: &str, mode: RegallocMode, dir: &Path) -> Result<Outcome, String> {
    let module = compiler::ir::text::parse_module(text).map_err(|e| e.to_string())?;
    compiler::ir::verify::verify_module(&module, compiler::ir::verify::VerifyMode::PostPhiElim)
        .map_err(|e| format!("{e:?}"))?;
    let opts = BackendOptions {
        regalloc: mode,
        check_allocation: true,
    };
    let asm = compile_module(&module, Target::X86_64, &opts).map_err(|e| e.to_string())?;
    let s = dir.join(format!("{}.s", mode.name()));
    let exe = dir.join(format!("{}.out", mode.name()));
    std::fs::write(&s, asm).map_err(|e| e.to_string())?;
    gcc(&[], &[&s], &exe)?;
    run_binary(&exe, dir)
}

#[test]
fn every_operation_at_every_width_computes_what_ir_eval_computes() {
    let (text, expected) = ops_module();
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome =
            run_ir(&text, mode, dir.path()).unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        assert_eq!(outcome.status, "0", "{}", mode.name());
        let lines: Vec<&str> = std::str::from_utf8(&outcome.stdout)
            .unwrap()
            .lines()
            .collect();
        let mut wrong = Vec::new();
        for (i, (want, what)) in expected.iter().enumerate() {
            let got = lines.get(i).copied().unwrap_or("<missing>");
            if got != want.to_string() {
                wrong.push(format!("{what} = {got}, expected {want}"));
            }
        }
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

// ---- Frames, memcpy and traps ---------------------------------------------------------

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

/// A function with ten parameters of mixed widths (four on the stack), a 64-aligned
/// alloca (the prologue realigns %rsp, stack parameters are read through %rbp) and a
/// 1 MiB alloca, that calls `@weigh` with its parameters rotated; and `@weigh`.
const FRAME_FUNCTIONS: &str = "
func noinline @weigh(i8, u16, i32, i64, u8, i16, u32, i64, i8, u64) -> i64 {
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
    %10 = cast i8 %0 to i64
    %11 = cast u16 %1 to i64
    %12 = cast i32 %2 to i64
    %14 = cast u8 %4 to i64
    %15 = cast i16 %5 to i64
    %16 = cast u32 %6 to i64
    %18 = cast i8 %8 to i64
    %19 = cast u64 %9 to i64
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
    ret i64 %37
}

func noinline @framed(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> i64 {
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
    %30 = call i64 @weigh(i8 %20, u16 %21, i32 %22, i64 %4, u8 %24, i16 %25, u32 %26, i64 %15, i8 %28, u64 %29)
    %31 = cast u64 %13 to i64
    %32 = mul i64 %31, 1000000007
    %33 = add i64 %30, %32
    ret i64 %33
}
";

/// What `@framed(p0..p9)` returns: the rotated parameters weighed at their types.
fn framed_expected(p: [i64; 10]) -> i64 {
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
    ];
    args.iter()
        .fold(0i64, |h, &a| h.wrapping_mul(3).wrapping_add(a))
}

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    let mut text = String::from(
        "global @fmt : 6 align 1 const = [str \"%lld\\0a\\00\"]\n\
         declare @printf(ptr, ...) -> i32\n",
    );
    text.push_str(FRAME_FUNCTIONS);
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
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
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
        ],
        [i64::MAX, -129, 65536, -3, 256, 40000, 1 << 33, 77, 127, 1],
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
        let outcome =
            run_ir(&text, mode, dir.path()).unwrap_or_else(|e| panic!("{}: {e}", mode.name()));
        assert_eq!(outcome.status, "0", "{}", mode.name());
        let out = String::from_utf8_lossy(&outcome.stdout);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), expected.len(), "{}: {out}", mode.name());
        for ((want, what), got) in expected.iter().zip(&lines) {
            assert_eq!(*got, want.to_string(), "{}: {what}", mode.name());
        }
    }
}

/// `@main` calls `@t(a, b)` = `OP TYPE a, b` (or `unreachable`) and must die of `signal`.
#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    // (operation, type, a, b, expected status): MIN / -1 and division by zero at every
    // width trap (SIGFPE = signal 8); the same operations one step away do not.
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        ("sdiv", "i8", "-128", "-1", "signal 8"),
        ("srem", "i8", "-128", "-1", "signal 8"),
        ("sdiv", "i16", "-32768", "-1", "signal 8"),
        ("sdiv", "i32", "-2147483648", "-1", "signal 8"),
        ("srem", "i64", "-9223372036854775808", "-1", "signal 8"),
        ("udiv", "u8", "7", "0", "signal 8"),
        ("urem", "u64", "7", "0", "signal 8"),
        ("sdiv", "u8", "128", "255", "signal 8"),
        ("sdiv", "i8", "-127", "-1", "127"),
        ("udiv", "u8", "128", "255", "0"),
        ("unreachable", "i32", "0", "0", "signal 4"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (op, ty, a, b, want) in cases {
        let body = if *op == "unreachable" {
            "    unreachable".to_string()
        } else {
            format!("    %2 = {op} {ty} %0, %1\n    %3 = cast {ty} %2 to i32\n    ret i32 %3")
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
                "{op} {ty} {a}, {b} ({})",
                mode.name()
            );
        }
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

/// Each x86-64 mutant changes what some program computes (so the native runs can find it),
/// and the correct backend computes the right value on the same program.
#[test]
fn seeded_backend_bugs_change_what_runs() {
    use compiler::mutants::Mutant;
    let dir = tempfile::tempdir().unwrap();
    // A signed byte loaded from memory: -5 must stay negative (exit status 1).
    let i8_load = "global @g : 1 align 1 = [i8 -5]\n\
        func noinline @get() -> i32 {\n.LBB0:\n    %0 = globaladdr @g\n    %1 = load i8 %0\n    \
        %2 = cast i8 %1 to i32\n    %3 = cmp slt i32 %2, 0\n    %4 = cast i8 %3 to i32\n    \
        ret i32 %4\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @get()\n    ret i32 %0\n}\n";
    // The seventh and later arguments: 7 * 10 + 8 = 78.
    let stack_args =
        "func noinline @last(i64, i64, i64, i64, i64, i64, i64, i64) -> i64 {\n.LBB0:\n    \
        %6 = paramref 6, i64\n    %7 = paramref 7, i64\n    %8 = mul i64 %6, 10\n    \
        %9 = add i64 %8, %7\n    ret i64 %9\n}\n\
        func @main() -> i32 {\n.LBB1:\n    \
        %0 = call i64 @last(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8)\n    \
        %1 = cast i64 %0 to i32\n    ret i32 %1\n}\n";
    // Values live across recursive calls sit in callee-saved registers (linear scan):
    // fib(12) = 144.
    let recursion = "func noinline @fib(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
        %1 = cmp slt i32 %0, 2\n    condbr %1, .LBB1, .LBB2\n.LBB1:\n    ret i32 %0\n\
        .LBB2:\n    %2 = sub i32 %0, 1\n    %3 = call i32 @fib(i32 %2)\n    \
        %4 = sub i32 %0, 2\n    %5 = call i32 @fib(i32 %4)\n    %6 = add i32 %3, %5\n    \
        ret i32 %6\n}\n\
        func @main() -> i32 {\n.LBB3:\n    %0 = call i32 @fib(i32 12)\n    ret i32 %0\n}\n";
    let linear = [RegallocMode::LinearScan];
    let perm = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/native_inputs/argument_cycle.ir"),
    )
    .expect("tests/native_inputs/argument_cycle.ir");
    let cases: [(Mutant, &str, &str, &[RegallocMode]); 4] = [
        (
            Mutant::X86I8LoadNoSignExtend,
            i8_load,
            "1",
            &RegallocMode::ALL,
        ),
        (
            Mutant::X86_64StackArgOffBy8,
            stack_args,
            "78",
            &RegallocMode::ALL,
        ),
        // The stack allocator uses no callee-saved register: nothing to skip there.
        (Mutant::X86_64CalleeSavedNotSaved, recursion, "144", &linear),
        // Argument registers that feed each other: only the resolver's order is right.
        (Mutant::ParallelMoveInOrder, &perm, "210", &linear),
    ];
    for (mutant, text, right, modes) in cases {
        for &mode in modes {
            let correct = run_ir(text, mode, dir.path()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(correct.status, right, "{mutant} off, {}", mode.name());
            let wrong = run_ir_with_mutant(text, mode, mutant, dir.path());
            assert_ne!(wrong.status, right, "{mutant} on, {}", mode.name());
        }
    }
}
