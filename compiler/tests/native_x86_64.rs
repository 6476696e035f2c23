//! phicc's x86-64 code runs right: checked against gcc -O0 and against the IR's own
//! arithmetic, with both register allocators, directly on the x86_64 host.
//!
//! - every `corpus/c` program runs like gcc -O0's binary of it, and every `; run:` line
//!   of the IR corpus holds when called from gcc's code across the SysV ABI;
//! - every integer operation at every width, with value and constant operands
//!   (immediates, and 64-bit constants that need `movabsq`), computes what `ir::eval`
//!   computes; frames (realignment, stack parameters, a 1 MiB alloca), memcpy of many
//!   sizes, and traps behave as the IR says (all shared with the other backends:
//!   `native_support`);
//! - each x86-64 seeded bug (and the shared parallel-move one) changes what a program
//!   computes, so the native runs can find it.
//!
//! Every child runs under a timeout in a temporary directory with `argv[0] = "a.out"`
//! (the harness's convention, which `corpus/c/argv.c` checks). The test needs an x86-64
//! host and the x86_64 gcc driver; without them it fails with a hint instead of skipping.

mod native_support;

use compiler::backend::{RegallocMode, Target};
use compiler::mutants::Mutant;
use native_support::phicc::seeded_bug_changes_what_runs;
use native_support::toolchain::require_toolchain;
use std::path::Path;

const TARGET: Target = Target::X86_64;

#[test]
fn corpus_c_runs_like_gcc_with_both_allocators() {
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

/// Each x86-64 mutant changes what some program computes (so the native runs can find it),
/// and the correct backend computes the right value on the same program.
#[test]
fn seeded_backend_bugs_change_what_runs() {
    require_toolchain(TARGET);
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
    // A NaN is equal to nothing, itself included: `fcmp oeq` gives 0 (exit status 0).
    let nan_equal = "func noinline @eq(f64, f64) -> i32 {\n.LBB0:\n    %0 = paramref 0, f64\n    \
        %1 = paramref 1, f64\n    %2 = fcmp oeq f64 %0, %1\n    %3 = cast i8 %2 to i32\n    \
        ret i32 %3\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @eq(f64 nan, f64 nan)\n    ret i32 %0\n}\n";
    let cases: [(Mutant, &str, &str, &[RegallocMode]); 5] = [
        (
            Mutant::X86_64FcmpIgnoresParity,
            nan_equal,
            "0",
            &RegallocMode::ALL,
        ),
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
        seeded_bug_changes_what_runs(TARGET, mutant, text, &[], right, modes);
    }
}

#[test]
fn a_real_segfault_in_a_forked_case_is_reported_after_its_rerun() {
    native_support::forking_driver::a_real_segfault_is_reported_after_its_rerun(TARGET);
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
