//! The i686 backend run under `qemu-i386` against gcc and against the IR's own
//! arithmetic, with both register allocators (the checks are shared with the other
//! backends: `native_support`):
//! - every `corpus/c` file, compiled by phicc's library for i686 (front end told the
//!   target, the whole pipeline, then `backend::compile_module`), linked `-static` with
//!   `i686-linux-gnu-gcc`, exits and prints like the `-O0` gcc build of the same file;
//! - every `; run:` line of the IR corpus holds when called from gcc's code across the
//!   i386 calling convention (ILP32: pointers are 4 bytes, 64-bit values are pairs);
//! - every operation at every width computes what `ir::eval` computes; frames, stack
//!   arguments, memcpy of every size and traps behave as the IR says.
//!
//! Why: only a run on the target shows that the assembly phicc writes for a 32-bit
//! machine — 64-bit values in register pairs, byte registers, the i386 calling
//! convention with libc — behaves as gcc's does.
//!
//! Invariants: a missing cross gcc or qemu fails the test with the way to install them
//! (`scripts/setup.sh`), never a skip; every child process runs under a time limit in a
//! `tempfile` directory; every difference is listed before the test fails. Run it in
//! release (`cargo test --release -p compiler --test native_i686`).

mod native_support;

use compiler::backend::Target;

const TARGET: Target = Target::I686;

#[test]
fn corpus_c_on_i686_agrees_with_gcc() {
    native_support::corpus_c_runs_like_gcc(TARGET);
}

#[test]
fn corpus_ir_run_lines_hold_when_called_from_gcc_code() {
    native_support::corpus_ir_run_lines_hold(TARGET);
}

#[test]
fn every_binary_operation_at_every_width_computes_what_ir_eval_computes() {
    native_support::every_binary_operation_at_every_width(TARGET);
}

#[test]
fn unary_ops_comparisons_casts_selects_and_switches_at_every_width() {
    native_support::unary_ops_comparisons_casts_selects_and_switches(TARGET);
}

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    native_support::frames_stack_arguments_and_memcpy_of_every_size(TARGET);
}

#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    native_support::traps_happen_exactly_where_the_ir_traps(TARGET);
}

#[test]
fn floats_cross_the_abi_both_ways_like_gcc() {
    native_support::float_abi::floats_cross_the_abi_both_ways_like_gcc(TARGET);
}

#[test]
fn variadic_functions_read_doubles_like_gcc() {
    native_support::float_abi::variadic_doubles_read_like_gcc(TARGET);
}

#[test]
fn float_arithmetic_and_fneg_compute_what_eval_float_computes() {
    native_support::float_ops_x86::float_arithmetic_matches_eval(TARGET);
}

#[test]
fn float_comparisons_conversions_bitcasts_and_selects_compute_what_eval_float_computes() {
    native_support::float_ops_x86::float_comparisons_and_conversions_match_eval(TARGET);
}

/// The i686 float mutant changes what a program computes; the correct backend computes
/// the right value: 1.0 + 2.5 = 3.5, truncated to 3 (the exit status).
#[test]
fn seeded_float_bug_changes_what_runs() {
    native_support::toolchain::require_toolchain(TARGET);
    let constant = "func noinline @add(f64) -> i32 {\n.LBB0:\n    %0 = paramref 0, f64\n    \
        %1 = fadd f64 %0, 2.5\n    %2 = cast f64 %1 to i32\n    ret i32 %2\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @add(f64 1.0)\n    \
        ret i32 %0\n}\n";
    native_support::phicc::seeded_bug_changes_what_runs(
        TARGET,
        compiler::mutants::Mutant::I686F64ConstHalvesSwapped,
        constant,
        &[],
        "3",
        &compiler::backend::RegallocMode::ALL,
    );
}
