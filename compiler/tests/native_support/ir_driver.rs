//! Every `; run:` line of the IR corpus (`corpus/ir`, `corpus/ir/passes`, and the
//! reduced findings in `corpus/found`) holds natively: the module goes through the
//! pipeline and the backend (both allocators), and each line is called from a C `main`
//! that gcc compiles, so every argument and result crosses the target's real ABI as gcc
//! sees it (LP64 or ILP32).
//!
//! Why: the IR files carry their own expected values, written by hand or checked by the
//! interpreter; running them on the target checks the backend against those values
//! without phicc judging itself.
//!
//! Invariants: each line runs in a process of its own, forked from a driver that has
//! called nothing yet, so it sees the program's initial state whatever the other lines
//! did, and dies alone (a trap, an exit, SIGALRM after `LINE_SECONDS`); a returned value
//! is compared canonical in the function's IR return type (pointers at the target's
//! width); a line that expects an exit or a trap must not return; stdout is unbuffered,
//! so what the function printed before a trap is seen; a line the driver never reached
//! fails.

use super::corpus::corpus_files;
use super::phicc::assemble;
use super::process::{assert_no_problems, on_two_threads};
use super::run_lines::{run_lines, Expect, RunLine};
use super::toolchain::{gcc, require_toolchain, run_binary_for, RUN_TIMEOUT};
use compiler::backend::{RegallocMode, Target};
use compiler::ir::{Callee, GlobalInit, GlobalItem, Inst, IrModule, IrType};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The name the module's own `@main` takes (the driver is `main`).
const IR_MAIN: &str = "phihunt_ir_main";

/// The C spelling of an IR type (the same on ILP32 and LP64: `long long` is 64 bits on
/// both; pointers go through `unsigned long`, which is pointer-sized on both).
pub fn c_type(ty: IrType) -> &'static str {
    match ty {
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

/// A C expression of type `ty` for the bits `value` (pointers through `unsigned long`,
/// so no pointer is made from a wider integer).
pub fn c_value(ty: IrType, value: u64) -> String {
    match ty {
        IrType::Ptr => format!("(void *)(unsigned long){value:#x}ULL"),
        _ => format!("({}){value:#x}ULL", c_type(ty)),
    }
}

/// Renames `@main` everywhere the module names it (calls, addresses, global
/// initialisers), and makes every function global so the driver can call it.
pub fn prepare_for_driver(module: &mut IrModule) {
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

/// The module's name for the function a run line calls.
fn callee_name(line: &RunLine) -> &str {
    if line.func == "main" {
        IR_MAIN
    } else {
        &line.func
    }
}

/// How long one run line may take inside the driver (`alarm`, so a looping call dies
/// of SIGALRM and the lines after it still run).
const LINE_SECONDS: u32 = 10;

/// What the driver prints on stdout after line `i`'s own output.
fn end_marker(i: usize) -> String {
    format!("\n@@phihunt run line {i} ended@@\n")
}

/// A C `main` that makes every call of `lines` in a child process of its own (`fork`: each
/// call starts from the program's initial state, as if run alone, and one qemu start
/// serves the whole file). The child prints `result N` (the value as a `long long`;
/// pointers zero-extended) or `result void` on stderr when the call returns; the parent
/// then prints `end I STATUS` on stderr (the exit status, or `signal N`) and
/// [`end_marker`] on stdout.
pub fn c_driver(module: &IrModule, lines: &[RunLine]) -> Result<String, String> {
    let mut text = String::from(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <sys/wait.h>\n",
    );
    let mut declared = std::collections::HashSet::new();
    let mut cases = String::new();
    for (i, line) in lines.iter().enumerate() {
        let name = callee_name(line);
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
            .map(|(t, a)| c_value(*t, *a as u64))
            .collect();
        let call = format!("{c_name}({})", args.join(", "));
        let report = match f.ret {
            IrType::Void => format!("{call}; fprintf(stderr, \"result void\\n\");"),
            IrType::Ptr => format!(
                "long long r = (long long)(unsigned long){call}; \
                 fprintf(stderr, \"result %lld\\n\", r);"
            ),
            _ => {
                format!("long long r = (long long){call}; fprintf(stderr, \"result %lld\\n\", r);")
            }
        };
        let _ = writeln!(cases, "    case {i}: {{ {report} break; }}");
    }
    let marker = end_marker(0).replace('\n', "\\n").replace(" 0 ", " %d ");
    let _ = writeln!(
        text,
        "static void run_line(int i) {{\n  switch (i) {{\n{cases}  }}\n}}\n\n\
         int main(void) {{\n  setvbuf(stdout, 0, _IONBF, 0);\n  setvbuf(stderr, 0, _IONBF, 0);\n  \
         for (int i = 0; i < {n}; i++) {{\n    pid_t child = fork();\n    \
         if (child < 0) return 126;\n    \
         if (child == 0) {{ alarm({LINE_SECONDS}); run_line(i); exit(0); }}\n    \
         int status;\n    if (waitpid(child, &status, 0) != child) return 127;\n    \
         if (WIFSIGNALED(status)) fprintf(stderr, \"end %d signal %d\\n\", i, WTERMSIG(status));\n    \
         else fprintf(stderr, \"end %d %d\\n\", i, WEXITSTATUS(status));\n    \
         printf(\"{marker}\", i);\n  }}\n  return 0;\n}}",
        n = lines.len()
    );
    Ok(text)
}

/// What one run line did: its status, its `result` (when the call returned) and its
/// stdout.
#[derive(Debug, Default)]
struct LineRun {
    status: Option<String>,
    result: Option<String>,
    stdout: Vec<u8>,
}

/// Splits the driver's output into what each of `count` lines did; lines the driver did
/// not reach (it was killed) have no status.
fn split_runs(stdout: &[u8], stderr: &[u8], count: usize) -> Vec<LineRun> {
    let mut runs: Vec<LineRun> = (0..count).map(|_| LineRun::default()).collect();
    let mut current = 0;
    for l in String::from_utf8_lossy(stderr).lines() {
        if let Some(r) = l.strip_prefix("result ") {
            if let Some(run) = runs.get_mut(current) {
                run.result.get_or_insert_with(|| r.to_string());
            }
        } else if let Some(end) = l.strip_prefix("end ") {
            let Some((i, status)) = end.split_once(' ') else {
                continue;
            };
            if let Some(run) = i.parse::<usize>().ok().and_then(|i| runs.get_mut(i)) {
                run.status = Some(status.to_string());
            }
            current += 1;
        }
    }
    let mut rest = stdout;
    for (i, run) in runs.iter_mut().enumerate() {
        let marker = end_marker(i);
        let found = rest
            .windows(marker.len())
            .position(|w| w == marker.as_bytes());
        match found {
            Some(at) => {
                run.stdout = rest[..at].to_vec();
                rest = &rest[at + marker.len()..];
            }
            None => {
                run.stdout = rest.to_vec();
                break;
            }
        }
    }
    runs
}

/// Whether `got` (status, the driver's `result` line, stdout) is what `line` expects of
/// a function returning `ret` on `target`.
fn line_holds(line: &RunLine, ret: IrType, target: Target, got: &LineRun) -> bool {
    let ptr_size = target.sizeof_pointer();
    let Some(status) = got.status.as_deref() else {
        return false;
    };
    let result = got.result.as_deref();
    let ok = match &line.expect {
        Expect::Returns(v) => {
            let want = ret.canonicalize(*v as u64, ptr_size) as i64;
            status == "0" && result == Some(want.to_string().as_str())
        }
        Expect::ReturnsVoid => status == "0" && result == Some("void"),
        Expect::Exits(code) => status == code.to_string() && result.is_none(),
        Expect::Signal(sig) => status == format!("signal {sig}"),
    };
    ok && line.stdout.as_ref().is_none_or(|want| *want == got.stdout)
}

/// Runs every `; run:` line of the IR file `file` for `target` with allocator `mode`;
/// the lines that fail, described.
pub fn check_ir_file(
    target: Target,
    file: &Path,
    mode: RegallocMode,
) -> Result<Vec<String>, String> {
    let src = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let lines = run_lines(&src, file)?;
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let module = compiler::ir::text::parse_module(&src).map_err(|e| e.to_string())?;
    let mut module = run_pipeline(module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    prepare_for_driver(&mut module);
    let asm = assemble(&module, target, mode)?;
    let driver = c_driver(&module, &lines)?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (s, c, exe) = (
        dir.path().join("phicc.s"),
        dir.path().join("driver.c"),
        dir.path().join("a.out"),
    );
    std::fs::write(&s, asm).map_err(|e| e.to_string())?;
    std::fs::write(&c, driver).map_err(|e| e.to_string())?;
    gcc(target, &["-O0", "-w"], &[&c, &s], &exe)?;
    let limit = RUN_TIMEOUT + Duration::from_secs(u64::from(LINE_SECONDS) * lines.len() as u64);
    let got = run_binary_for(target, &exe, dir.path(), &[], limit)?;
    let runs = split_runs(&got.stdout, &got.stderr, lines.len());
    let mut problems = Vec::new();
    for (line, run) in lines.iter().zip(&runs) {
        let ret = module
            .function(callee_name(line))
            .map_or(IrType::Void, |f| f.ret);
        if !line_holds(line, ret, target, run) {
            problems.push(format!(
                "{} ({} {}): `{}`: status {}, result {:?}, stdout {:?}",
                file.display(),
                target.name(),
                mode.name(),
                line.text,
                run.status
                    .clone()
                    .unwrap_or_else(|| format!("not reached (the driver ended {})", got.status)),
                run.result,
                String::from_utf8_lossy(&run.stdout)
            ));
        }
    }
    Ok(problems)
}

/// The IR files whose run lines the native tests replay.
pub fn corpus_ir_files() -> Vec<PathBuf> {
    let mut files = corpus_files("ir", "ir");
    files.extend(corpus_files("ir/passes", "ir"));
    // Reduced findings, as they are added.
    files.extend(corpus_files("found", "ir"));
    files
}

/// Every `; run:` line of the IR corpus holds on `target` with both allocators.
pub fn corpus_ir_run_lines_hold(target: Target) {
    require_toolchain(target);
    let files = corpus_ir_files();
    assert!(
        files.len() >= 40,
        "corpus/ir has only {} files",
        files.len()
    );
    let jobs: Vec<(PathBuf, RegallocMode)> = files
        .iter()
        .flat_map(|f| RegallocMode::ALL.map(|m| (f.clone(), m)))
        .collect();
    let mut problems = on_two_threads(jobs, |(file, mode)| {
        check_ir_file(target, &file, mode).unwrap_or_else(|e| {
            vec![format!(
                "{} ({} {}): {e}",
                file.display(),
                target.name(),
                mode.name()
            )]
        })
    });
    problems.sort();
    assert_no_problems(&problems, &format!("run lines fail on {}", target.name()));
}
