//! phicc's AArch64 code, run under qemu-aarch64, computes what gcc's code and the IR's
//! own arithmetic compute.
//!
//! Why: the backend is only right if its programs run right. The references are never
//! phicc itself:
//! - every `corpus/c` program (they check themselves: ASSERT lines on stdout, exit status
//!   1 on a wrong value) compiled by phicc with both register allocators must exit with
//!   the same status and print the same bytes as `aarch64-linux-gnu-gcc -O0`'s binary;
//! - every `; run:` line of the IR corpus (expected values written in the files) is
//!   called through a C driver that gcc compiles, so the call crosses the real AAPCS64;
//! - a generated module runs every operation at every width with values, immediates
//!   (add/sub/cmp 12-bit, logical bitmask) and wide constants (movz/movn/movk), and must
//!   print what `ir::eval` computes;
//! - frames (realignment, stack arguments, a 1 MiB alloca), memcpy of every size, traps
//!   at every width (these shared with the other backends: `native_support`), and the
//!   three seeded AArch64 bugs (each must change what a program computes, while the
//!   correct backend computes the hand-worked value);
//! - a function of 1.2 MB of code, whose branches must be printed in their long form;
//! - a few csmith programs (fixed seeds) against gcc -O0.
//!
//! Every child runs under a timeout in a temporary directory, qemu with `argv[0] =
//! "a.out"` (which `corpus/c/argv.c` checks) and no core dumps. Without the cross gcc or
//! qemu-aarch64 the tests fail with a hint instead of skipping.

mod native_support;

use compiler::backend::{RegallocMode, Target};
use compiler::mutants::Mutant;
use native_support::phicc::{run_ir, seeded_bug_changes_what_runs};
use native_support::toolchain::require_toolchain;
use std::path::Path;

const TARGET: Target = Target::Aarch64;

#[test]
fn corpus_c_runs_like_gcc_with_both_allocators() {
    native_support::corpus_c_runs_like_gcc(TARGET);
}

#[test]
fn corpus_ir_run_lines_hold_natively_with_both_allocators() {
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
fn every_float_operation_predicate_and_conversion_computes_what_ir_eval_computes() {
    native_support::every_float_operation_predicate_and_conversion(TARGET);
}

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    native_support::frames_stack_arguments_and_memcpy_of_every_size(TARGET);
}

#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    native_support::traps_happen_exactly_where_the_ir_traps(TARGET);
}

/// Seeds whose programs gcc -O0 runs in well under a second under qemu.
const CSMITH_SEEDS: [u64; 4] = [1, 2, 3, 4];

#[test]
fn csmith_programs_run_like_gcc() {
    native_support::csmith_programs_run_like_gcc(TARGET, &CSMITH_SEEDS);
}

/// A loop whose body is about 300,000 instruction words (1.2 MB): the loop's exit is a
/// conditional branch over the whole body, beyond the ±1 MiB a `b.cond` reaches, so the
/// function must be printed with long conditional branches (and the division's trap
/// branch too). `@huge(n)` adds 65537 (a movz + movk constant) 100,000 times per
/// iteration, n times, then divides by n.
#[test]
fn a_function_longer_than_a_conditional_branch_reaches() {
    require_toolchain(TARGET);
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
    let outcome = run_ir(
        TARGET,
        &text,
        RegallocMode::LinearScan,
        dir.path(),
        &[],
        &[],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outcome.status, "1");
}

/// Each AArch64 mutant changes what some program computes (so the native runs can find
/// it), and the correct backend computes the hand-worked value on the same program.
#[test]
fn seeded_backend_bugs_change_what_runs() {
    require_toolchain(TARGET);
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
        seeded_bug_changes_what_runs(TARGET, mutant, text, &c_sources, right, &RegallocMode::ALL);
    }
}

/// Each AArch64 float mutant changes what a program computes, and the correct backend
/// computes the hand-worked value: the u64 2^64 - 1 converts to the double 2^64
/// (`scvtf` reads it as -1), and `nan olt 1.0` is false (`lt` holds for unordered
/// operands).
#[test]
fn seeded_float_bugs_change_what_runs() {
    require_toolchain(TARGET);
    let from_unsigned = "func noinline @u(u64) -> f64 {\n.LBB0:\n    %0 = paramref 0, u64\n    \
        %1 = cast u64 %0 to f64\n    ret f64 %1\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call f64 @u(u64 18446744073709551615)\n    \
        %1 = fcmp oeq f64 %0, 18446744073709551616.0\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n";
    let less_than = "func noinline @lt(f64, f64) -> i32 {\n.LBB0:\n    %0 = paramref 0, f64\n    \
        %1 = paramref 1, f64\n    %2 = fcmp olt f64 %0, %1\n    %3 = cast i8 %2 to i32\n    \
        ret i32 %3\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @lt(f64 nan, f64 1.0)\n    \
        %1 = add i32 %0, 1\n    ret i32 %1\n}\n";
    for (mutant, text) in [
        (Mutant::Aarch64UnsignedToFloatSigned, from_unsigned),
        (Mutant::Aarch64FcmpOltAsLt, less_than),
    ] {
        seeded_bug_changes_what_runs(TARGET, mutant, text, &[], "1", &RegallocMode::ALL);
    }
}
