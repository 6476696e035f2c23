//! phicc's riscv64 backend, run under `qemu-riscv64` against gcc and against the IR's
//! own arithmetic.
//!
//! Why: the backend is only right if the code it writes computes what the IR says on a
//! real (emulated) RV64 machine and links with code gcc compiled. Every expected value
//! comes from outside the backend:
//! - `corpus/c`: each program compiled by phicc's library (both register allocators),
//!   linked by `riscv64-linux-gnu-gcc -static`, must exit and print exactly like gcc
//!   -O0's binary of the same file;
//! - the IR corpus (`corpus/ir`, `corpus/ir/passes`, `corpus/found`): each `; run:`
//!   line, called from a C driver that gcc compiles (so every argument and result crosses
//!   the LP64 ABI as gcc sees it: `u32` sign-extended), must give the directive's value,
//!   trap or stdout;
//! - every operation at every width, with values and immediates and constants of every
//!   size (12-bit immediates, lui pairs), against `ir::eval`; frames (realignment, 1 MiB
//!   alloca, stack arguments), memcpy of every size and traps (these shared with the
//!   other backends: `native_support`); far branches, a mixed link with gcc's code both
//!   ways;
//! - each riscv64 seeded bug changes what some program computes.
//!
//! Every child runs under a timeout in a temporary directory, as `a.out` (`qemu-riscv64
//! -0 a.out`). Without the cross gcc or qemu the tests fail with a hint, never skip.

mod native_support;

use compiler::backend::{RegallocMode, Target};
use compiler::mutants::Mutant;
use native_support::phicc::{
    assemble, check_printed, main_printing, run_ir, seeded_bug_changes_what_runs, PRINTF_HEADER,
};
use native_support::toolchain::{gcc, require_toolchain, run_binary, Outcome};
use std::fmt::Write as _;
use std::path::Path;

const TARGET: Target = Target::Riscv64;

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
fn every_float_operation_predicate_and_conversion_computes_what_ir_eval_computes() {
    native_support::every_float_operation_predicate_and_conversion(TARGET);
}

#[test]
fn frames_stack_arguments_and_memcpy_of_every_size() {
    native_support::frames_stack_arguments_and_memcpy_of_every_size(TARGET);
}

/// SIGFPE for division by zero and MIN / -1 at the operation's width (RISC-V's divide
/// never traps, so these are phicc's own tests), SIGILL for `unreachable`.
#[test]
fn traps_happen_exactly_where_the_ir_traps() {
    native_support::traps_happen_exactly_where_the_ir_traps(TARGET);
}

// ---- Far branches -----------------------------------------------------------------------

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
    require_toolchain(TARGET);
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
    let asm = assemble(&module, TARGET, RegallocMode::LinearScan).unwrap();
    assert!(asm.contains("_far"), "no branch was rewritten");
    check_printed(TARGET, &text, &expected);
    // n = 0: the division's far branch to the trap stub.
    let mut trapping = long_function();
    trapping.push_str(
        "func @main() -> i32 {\n.LBB6:\n    %0 = call i64 @long(i64 0)\n    ret i32 0\n}\n",
    );
    let dir = tempfile::tempdir().unwrap();
    for mode in RegallocMode::ALL {
        let outcome =
            run_ir(TARGET, &trapping, mode, dir.path(), &[], &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome.status, "signal 8", "{}", mode.name());
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
    let asm = assemble(&module, TARGET, mode).unwrap();
    let (s, c, exe) = (
        dir.join("mixed.s"),
        dir.join("mixed.c"),
        dir.join("mixed.out"),
    );
    std::fs::write(&s, asm).unwrap();
    std::fs::write(&c, MIXED_C).unwrap();
    gcc(TARGET, &["-O1", "-w"], &[&c, &s], &exe).unwrap();
    run_binary(TARGET, &exe, dir, &[]).unwrap()
}

#[test]
fn phicc_and_gcc_code_call_each_other_through_the_lp64_abi() {
    require_toolchain(TARGET);
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

/// Each riscv64 mutant changes what some program computes (so the native runs can find
/// it), and the correct backend computes the right value on the same program.
#[test]
fn seeded_backend_bugs_change_what_runs() {
    require_toolchain(TARGET);
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
    for (mutant, text, right) in cases {
        seeded_bug_changes_what_runs(TARGET, mutant, text, &[], right, &RegallocMode::ALL);
    }
}

#[test]
fn a_real_segfault_in_a_forked_case_is_reported_after_its_rerun() {
    native_support::forking_driver::a_real_segfault_is_reported_after_its_rerun(TARGET);
}

/// Each riscv64 float mutant changes what a program computes, and the correct backend
/// computes the hand-worked value: the u64 2^64 - 1 converts to the double 2^64
/// (`fcvt.d.l` reads it as -1), and 1.0 ole 1.0 holds (flt would say no).
#[test]
fn seeded_float_bugs_change_what_runs() {
    require_toolchain(TARGET);
    let from_unsigned = "func noinline @u(u64) -> f64 {\n.LBB0:\n    %0 = paramref 0, u64\n    \
        %1 = cast u64 %0 to f64\n    ret f64 %1\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call f64 @u(u64 18446744073709551615)\n    \
        %1 = fcmp oeq f64 %0, 18446744073709551616.0\n    %2 = cast i8 %1 to i32\n    ret i32 %2\n}\n";
    let less_equal = "func noinline @le(f64, f64) -> i32 {\n.LBB0:\n    %0 = paramref 0, f64\n    \
        %1 = paramref 1, f64\n    %2 = fcmp ole f64 %0, %1\n    %3 = cast i8 %2 to i32\n    \
        ret i32 %3\n}\n\
        func @main() -> i32 {\n.LBB1:\n    %0 = call i32 @le(f64 1.0, f64 1.0)\n    ret i32 %0\n}\n";
    for (mutant, text, right) in [
        (Mutant::Riscv64UnsignedToFloatSigned, from_unsigned, "1"),
        (Mutant::Riscv64FleAsFlt, less_equal, "1"),
    ] {
        seeded_bug_changes_what_runs(TARGET, mutant, text, &[], right, &RegallocMode::ALL);
    }
}
