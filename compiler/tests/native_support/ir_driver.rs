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
//! did, and dies alone (see `forking_driver`); a returned value
//! is compared canonical in the function's IR return type (pointers at the target's
//! width); a line that expects an exit or a trap must not return; stdout is unbuffered,
//! so what the function printed before a trap is seen; a line the driver never reached
//! fails.

use super::corpus::corpus_files;
use super::forking_driver::{forking_limit, forking_main, split_runs, CaseRun, FORKING_INCLUDES};
use super::phicc::assemble;
use super::process::{assert_no_problems, on_two_threads};
use super::run_lines::{run_lines, value_bits, Expect, RunLine};
use super::toolchain::{gcc, require_toolchain, run_binary_for};
use compiler::backend::{RegallocMode, Target};
use compiler::ir::{Callee, GlobalInit, GlobalItem, Inst, IrModule, IrType};
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
        IrType::F32 => "float",
        IrType::F64 => "double",
        IrType::Ptr => "void *",
        IrType::Void => "void",
    }
}

/// A C expression of type `ty` for the bits `value` (pointers through `unsigned long`,
/// so no pointer is made from a wider integer).
pub fn c_value(ty: IrType, value: u64) -> String {
    match ty {
        IrType::Ptr => format!("(void *)(unsigned long){value:#x}ULL"),
        // A float from its bits, reinterpreted (never converted).
        IrType::F32 => format!("((union {{ unsigned u; float f; }}){{ .u = {value:#x}U }}).f"),
        IrType::F64 => {
            format!("((union {{ unsigned long long u; double f; }}){{ .u = {value:#x}ULL }}).f")
        }
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

/// A C program that makes each call of `lines` in a child process of its own
/// ([`forking_main`]); the child prints `result N` (the value as a `long long`; pointers
/// zero-extended) or `result void` on stderr when the call returns.
pub fn c_driver(module: &IrModule, lines: &[RunLine], target: Target) -> Result<String, String> {
    let mut text = format!("{FORKING_INCLUDES}#include <string.h>\n");
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
        let ptr_bytes = target.sizeof_pointer();
        let args: Vec<String> = f
            .params
            .iter()
            .zip(&line.args)
            .map(|(t, a)| {
                value_bits(*t, a, ptr_bytes)
                    .map(|bits| c_value(*t, bits))
                    .map_err(|e| format!("{}: {e}", line.text))
            })
            .collect::<Result<_, _>>()?;
        if let Expect::Returns(v) = &line.expect {
            value_bits(f.ret, v, ptr_bytes).map_err(|e| format!("{}: {e}", line.text))?;
        }
        let call = format!("{c_name}({})", args.join(", "));
        let report = match f.ret {
            IrType::Void => format!("{call}; fprintf(stderr, \"result void\\n\");"),
            IrType::Ptr => format!(
                "long long r = (long long)(unsigned long){call}; \
                 fprintf(stderr, \"result %lld\\n\", r);"
            ),
            // A float result's bits, zero-extended (never a conversion).
            IrType::F32 | IrType::F64 => format!(
                "{} f = {call}; unsigned long long r = 0; memcpy(&r, &f, sizeof f); \
                 fprintf(stderr, \"result %lld\\n\", (long long)r);",
                c_type(f.ret)
            ),
            _ => {
                format!("long long r = (long long){call}; fprintf(stderr, \"result %lld\\n\", r);")
            }
        };
        let _ = writeln!(cases, "    case {i}: {{ {report} break; }}");
    }
    let _ = writeln!(
        text,
        "static void run_case(int i) {{\n  switch (i) {{\n{cases}  }}\n}}\n"
    );
    text.push_str(&forking_main(lines.len()));
    Ok(text)
}

/// The bits a function returning `bits` of type `ret` delivers to its caller on
/// `target`: the same, except that the i386 System V ABI returns a float in the x87's
/// `st(0)`, and an x87 load of a signaling NaN delivers it quieted (Intel SDM, FLD with
/// the invalid-operation exception masked): the quiet bit (22 of an `f32`, 51 of an
/// `f64`) is set. No `f32`/`f64` return on i686 can keep a signaling NaN, gcc's neither.
fn abi_returned_bits(target: Target, ret: IrType, bits: u64) -> u64 {
    let (exponent, quiet) = match ret {
        IrType::F32 => (0x7f80_0000u64, 1u64 << 22),
        IrType::F64 => (0x7ff0_0000_0000_0000, 1 << 51),
        _ => return bits,
    };
    let mantissa = quiet * 2 - 1;
    let signaling_nan = bits & exponent == exponent && bits & mantissa != 0 && bits & quiet == 0;
    if target == Target::I686 && signaling_nan {
        bits | quiet
    } else {
        bits
    }
}

/// Whether `got` (status, the driver's `result` line, stdout) is what `line` expects of
/// a function returning `ret` on `target`.
fn line_holds(line: &RunLine, ret: IrType, target: Target, got: &CaseRun) -> bool {
    let ptr_size = target.sizeof_pointer();
    let Some(status) = got.status.as_deref() else {
        return false;
    };
    let result = got.result.as_deref();
    let ok = match &line.expect {
        Expect::Returns(v) => match value_bits(ret, v, ptr_size) {
            Ok(bits) => {
                let want = ret.canonicalize(abi_returned_bits(target, ret, bits), ptr_size) as i64;
                status == "0" && result == Some(want.to_string().as_str())
            }
            Err(_) => false,
        },
        Expect::ReturnsVoid => status == "0" && result == Some("void"),
        Expect::Exits(code) => status == code.to_string() && result.is_none(),
        Expect::Signal(sig) => status == format!("signal {sig}"),
    };
    ok && line.stdout.as_ref().is_none_or(|want| *want == got.stdout)
}

/// Runs every `; run:` line of the IR file `file` for `target` with both allocators (the
/// pipeline runs and gcc compiles the driver once); the lines that fail, described.
pub fn check_ir_file(target: Target, file: &Path) -> Result<Vec<String>, String> {
    let src = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let module = compiler::ir::text::parse_module(&src).map_err(|e| e.to_string())?;
    let lines = run_lines(&src, file)?;
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let mut module = run_pipeline(module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    prepare_for_driver(&mut module);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (c, o) = (dir.path().join("driver.c"), dir.path().join("driver.o"));
    std::fs::write(&c, c_driver(&module, &lines, target)?).map_err(|e| e.to_string())?;
    // i686: floats in SSE2, as the harness's reference builds (an x87 load in gcc's
    // default code would quiet a signaling NaN argument before phicc's code sees it).
    let flags: &[&str] = if target == Target::I686 {
        &["-O0", "-w", "-c", "-msse2", "-mfpmath=sse"]
    } else {
        &["-O0", "-w", "-c"]
    };
    gcc(target, flags, &[&c], &o)?;
    let mut problems = Vec::new();
    for mode in RegallocMode::ALL {
        let s = dir.path().join(format!("{}.s", mode.name()));
        let exe = dir.path().join(format!("{}.out", mode.name()));
        let tag = format!("{} ({} {})", file.display(), target.name(), mode.name());
        let asm = match assemble(&module, target, mode) {
            Ok(a) => a,
            Err(e) => {
                problems.push(format!("{tag}: backend: {e}"));
                continue;
            }
        };
        std::fs::write(&s, asm).map_err(|e| e.to_string())?;
        if let Err(e) = gcc(target, &[], &[&o, &s], &exe) {
            problems.push(format!("{tag}: {e}"));
            continue;
        }
        let got = run_binary_for(target, &exe, dir.path(), &[], forking_limit(lines.len()))?;
        let runs = split_runs(&got.stdout, &got.stderr, lines.len());
        for (line, run) in lines.iter().zip(&runs) {
            let ret = module
                .function(callee_name(line))
                .map_or(IrType::Void, |f| f.ret);
            if !line_holds(line, ret, target, run) {
                let status = run
                    .status
                    .clone()
                    .unwrap_or_else(|| format!("not reached (the driver ended {})", got.status));
                problems.push(format!(
                    "{tag}: `{}`: status {status}, result {:?}, stdout {:?}",
                    line.text,
                    run.result,
                    String::from_utf8_lossy(&run.stdout)
                ));
            }
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
    let mut problems = on_two_threads(files, |file| {
        check_ir_file(target, &file)
            .unwrap_or_else(|e| vec![format!("{} ({}): {e}", file.display(), target.name())])
    });
    problems.sort();
    assert_no_problems(&problems, &format!("run lines fail on {}", target.name()));
}
