//! Test IR for the backend's shared pieces (liveness, allocators, checker): text in,
//! post-phi-elimination functions out, and the register files the tests allocate for.
//!
//! Why it exists: the liveness, linear-scan and checker tests all need the same three
//! things — hand-written non-SSA IR that is known to verify, real pipeline output (the
//! shapes phi elimination leaves), and small register files — and must build them the
//! same way.

use super::{PReg, RegisterFile};
use crate::ir::text::{parse_module, print_module};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{IrFunction, IrModule};
use crate::pipeline::{run_pipeline, PipelineOptions};
use std::path::Path;

/// Parses post-phi-elimination IR written by hand (non-SSA copies allowed) and checks it
/// verifies as such.
pub fn parse_post_phi_elim(src: &str) -> IrModule {
    let m = parse_module(src).unwrap_or_else(|e| panic!("test IR does not parse: {e}\n{src}"));
    if let Err(errs) = verify_module(&m, VerifyMode::PostPhiElim) {
        panic!("test IR does not verify: {}\n{src}", errs[0]);
    }
    m
}

/// Runs SSA-form (or alloca-form) IR text through the whole middle end, phi elimination
/// included.
pub fn through_pipeline(src: &str) -> IrModule {
    let m = parse_module(src).unwrap_or_else(|e| panic!("test IR does not parse: {e}\n{src}"));
    run_pipeline(m, &PipelineOptions::default(), &mut |_, _| {})
        .unwrap_or_else(|e| panic!("pipeline failed: {e}\n{src}"))
}

/// The function called `name`.
pub fn function<'a>(m: &'a IrModule, name: &str) -> &'a IrFunction {
    m.functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function @{name} in\n{}", print_module(m)))
}

/// Every `corpus/ir/*.ir` file with a `; run:` line, through the pipeline, with its name.
pub fn corpus_post_phi_elim() -> Vec<(String, IrModule)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/ir");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let name = path.display().to_string();
            let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
            if !src.lines().any(|l| l.trim_start().starts_with("; run:")) {
                return None;
            }
            Some((name, through_pipeline(&src)))
        })
        .collect()
}

fn pregs(numbers: &[u8]) -> Vec<PReg> {
    numbers.iter().map(|&n| PReg(n)).collect()
}

/// x86-64-like: rbx r12-r15 rsi rdi r8-r10 allocatable (callee-saved first); a call
/// clobbers rax rcx rdx rsi rdi r8-r11; memcpy clobbers rcx rsi rdi (`rep movsb`).
pub fn x86_64_like() -> RegisterFile {
    RegisterFile {
        allocatable: pregs(&[3, 12, 13, 14, 15, 6, 7, 8, 9, 10]),
        call_clobbers: pregs(&[0, 1, 2, 6, 7, 8, 9, 10, 11]),
        memcpy_clobbers: pregs(&[1, 6, 7]),
        callee_saved: pregs(&[3, 5, 12, 13, 14, 15]),
        ptr_bytes: 8,
        reg_bytes: 8,
    }
}

/// i686-like: ebx esi edi allocatable, all callee-saved; i64 values are stack-only.
pub fn i686_like() -> RegisterFile {
    RegisterFile {
        allocatable: pregs(&[3, 6, 7]),
        call_clobbers: pregs(&[0, 1, 2]),
        memcpy_clobbers: Vec::new(),
        callee_saved: pregs(&[3, 6, 7, 5]),
        ptr_bytes: 4,
        reg_bytes: 4,
    }
}

/// Two allocatable registers, one caller-saved (r8) and one callee-saved (rbx): spilling
/// and the call constraint on almost every function.
pub fn two_regs() -> RegisterFile {
    RegisterFile {
        allocatable: pregs(&[8, 3]),
        call_clobbers: pregs(&[0, 1, 2, 6, 7, 8, 9, 10, 11]),
        memcpy_clobbers: Vec::new(),
        callee_saved: pregs(&[3, 5, 12, 13, 14, 15]),
        ptr_bytes: 8,
        reg_bytes: 8,
    }
}
