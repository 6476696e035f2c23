//! Compiling C and IR through phicc's library (not its CLI) for a target, and running
//! the result: the C front end and the pipeline, `backend::compile_module` with the
//! allocation checker on, gcc to link, the target's runner to run.
//!
//! Why: every native check starts from here; the module is compiled once and assembled
//! once per register allocator.
//!
//! Invariant: IR given as text to [`run_ir`] is verified as phi-free and goes straight to
//! the backend (no pass can fold the operations it tests away).

use super::toolchain::{gcc, run_binary, Outcome};
use compiler::backend::{compile_module, BackendOptions, RegallocMode, Target};
use compiler::compile_c::{compile_c_file, default_options};
use compiler::ir::IrModule;
use compiler::mutants::Mutant;
use compiler::pipeline::{run_pipeline, PipelineOptions};
use std::path::{Path, PathBuf};

/// The backend's options for allocator `mode`, with the allocation checker on.
pub fn backend_options(mode: RegallocMode) -> BackendOptions {
    BackendOptions {
        regalloc: mode,
        check_allocation: true,
    }
}

/// The module the C file `file` compiles to for `target` (front end told the target,
/// `include_dirs` searched), through the whole pipeline.
pub fn c_module(target: Target, file: &Path, include_dirs: &[&Path]) -> Result<IrModule, String> {
    let mut opts = default_options();
    opts.target = target;
    opts.include_dirs
        .extend(include_dirs.iter().map(PathBuf::from));
    let compiled = compile_c_file(file, &opts).map_err(|e| e.to_string())?;
    run_pipeline(compiled.module, &PipelineOptions::default(), &mut |_, _| {})
        .map_err(|e| e.to_string())
}

/// `target`'s assembly for `module` (already through phi elimination).
pub fn assemble(module: &IrModule, target: Target, mode: RegallocMode) -> Result<String, String> {
    compile_module(module, target, &backend_options(mode)).map_err(|e| e.to_string())
}

/// Compiles the phi-free IR module `text` for `target` with allocator `mode`, links it
/// with the C files `c_sources` (gcc -O0) and runs it in `dir` with `args`.
pub fn run_ir(
    target: Target,
    text: &str,
    mode: RegallocMode,
    dir: &Path,
    c_sources: &[&Path],
    args: &[&str],
) -> Result<Outcome, String> {
    let module = compiler::ir::text::parse_module(text).map_err(|e| e.to_string())?;
    compiler::ir::verify::verify_module(&module, compiler::ir::verify::VerifyMode::PostPhiElim)
        .map_err(|e| format!("{e:?}"))?;
    let asm = assemble(&module, target, mode)?;
    let s = dir.join(format!("{}.s", mode.name()));
    let exe = dir.join(format!("{}.out", mode.name()));
    std::fs::write(&s, asm).map_err(|e| e.to_string())?;
    let mut sources: Vec<&Path> = c_sources.to_vec();
    sources.push(&s);
    gcc(target, &["-O0", "-w"], &sources, &exe)?;
    run_binary(target, &exe, dir, args)
}

/// [`run_ir`] with `mutant` switched on in this thread (the module is compiled here).
pub fn run_ir_with_mutant(
    target: Target,
    text: &str,
    mode: RegallocMode,
    mutant: Mutant,
    dir: &Path,
    c_sources: &[&Path],
) -> Outcome {
    compiler::mutants::set_active(&[mutant]);
    let outcome = run_ir(target, text, mode, dir, c_sources, &[]);
    compiler::mutants::set_active(&[]);
    outcome.unwrap_or_else(|e| panic!("{mutant}: {e}"))
}

/// A seeded bug must change what a program computes (so the native runs can find it):
/// with each allocator of `modes`, the correct backend's program (linked with
/// `c_sources`) ends with status `right`, and the one compiled with `mutant` does not.
pub fn seeded_bug_changes_what_runs(
    target: Target,
    mutant: Mutant,
    text: &str,
    c_sources: &[&Path],
    right: &str,
    modes: &[RegallocMode],
) {
    let dir = tempfile::tempdir().expect("temporary directory");
    for &mode in modes {
        let correct = run_ir(target, text, mode, dir.path(), c_sources, &[])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(correct.status, right, "{mutant} off, {}", mode.name());
        let wrong = run_ir_with_mutant(target, text, mode, mutant, dir.path(), c_sources);
        assert_ne!(wrong.status, right, "{mutant} on, {}", mode.name());
    }
}

/// Compares the printed `%lld` lines of `outcome` (which must exit 0) with `expected`
/// (value, what was called); a failure message when they differ.
pub fn compare_lines(
    outcome: &Outcome,
    expected: &[(i64, String)],
    what: &str,
) -> Result<(), String> {
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

/// Runs the IR module `text` (whose `@main` prints `%lld` lines) for `target` with both
/// allocators; every printed line must be the expected value.
pub fn check_printed(target: Target, text: &str, expected: &[(i64, String)]) {
    let dir = tempfile::tempdir().expect("temporary directory");
    for mode in RegallocMode::ALL {
        let outcome = run_ir(target, text, mode, dir.path(), &[], &[])
            .unwrap_or_else(|e| panic!("{} {}: {e}", target.name(), mode.name()));
        if let Err(e) = compare_lines(&outcome, expected, mode.name()) {
            panic!("{}: {e}", target.name());
        }
    }
}

/// The header of a module whose functions print with `printf(@fmt, i64)`.
pub const PRINTF_HEADER: &str = "global @fmt : 6 align 1 const = [str \"%lld\\0a\\00\"]\n\
                                 declare @printf(ptr, ...) -> i32\n";

/// `@main` calling each `(callee, args, expected)` and printing the i64 results; the
/// text and the expected lines.
pub fn main_printing(calls: &[(String, String, i64)]) -> (String, Vec<(i64, String)>) {
    use std::fmt::Write as _;
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
