//! Tests of LICM: what moves (invariant, speculatable), where (the existing preheader,
//! innermost loops first) and what must stay (guarded divisions, loads, calls, variant
//! values, loops without a preheader, irreducible cycles); expected outputs by hand.

use super::run;
use crate::ir::analysis::CfgAnalysis;
use crate::ir::text::{parse_module, print_module};
use crate::mutants::{self, Mutant};
use crate::passes::test_support::{canonical, run_cfg_preserving};

fn licm_module(src: &str) -> (usize, String) {
    run_cfg_preserving("LICM", src, run)
}

fn assert_licm(src: &str, changes: usize, expected: &str) {
    let (n, out) = licm_module(src);
    assert_eq!(out, canonical(expected), "output differs");
    assert_eq!(n, changes, "change count");
}

fn assert_unchanged(src: &str) {
    assert_licm(src, 0, src);
}

/// `@f(a, b, n)`: a counted loop `i = 0 .. n` whose body is `BODY` (which may use %0,
/// %1, %2 and the induction variable %3) and adds %9 to the sum %4.
///   .LBB0 entry/preheader -> .LBB1 header -> .LBB2 body -> .LBB1; .LBB1 -> .LBB3 exit
fn counted_loop(body: &str) -> String {
    format!(
        "declare @putchar(i32) -> i32\n\n\
         func @f(i32, i32, i32) -> i32 {{\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    br .LBB1\n\
         .LBB1:\n    %3 = phi i32 [0, .LBB0], [%5, .LBB2]\n    \
         %4 = phi i32 [0, .LBB0], [%6, .LBB2]\n    %7 = cmp slt i32 %3, %2\n    \
         condbr %7, .LBB2, .LBB3\n\
         .LBB2:\n    {body}\n    %5 = add i32 %3, 1\n    %6 = add i32 %4, %9\n    br .LBB1\n\
         .LBB3:\n    ret i32 %4\n}}\n"
    )
}

/// The same loop with `MOVED` at the end of the preheader and `BODY` left in the loop.
fn counted_loop_after(moved: &str, body: &str) -> String {
    format!(
        "declare @putchar(i32) -> i32\n\n\
         func @f(i32, i32, i32) -> i32 {{\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    {moved}\n    br .LBB1\n\
         .LBB1:\n    %3 = phi i32 [0, .LBB0], [%5, .LBB2]\n    \
         %4 = phi i32 [0, .LBB0], [%6, .LBB2]\n    %7 = cmp slt i32 %3, %2\n    \
         condbr %7, .LBB2, .LBB3\n\
         .LBB2:\n    {body}\n    %5 = add i32 %3, 1\n    %6 = add i32 %4, %9\n    br .LBB1\n\
         .LBB3:\n    ret i32 %4\n}}\n"
    )
}

fn assert_moved(body: &str) {
    assert_licm(&counted_loop(body), 1, &counted_loop_after(body, ""));
}

fn assert_stays(body: &str) {
    assert_unchanged(&counted_loop(body));
}

#[test]
fn moves_speculatable_invariants() {
    for body in [
        "%9 = mul i32 %0, %1",
        "%9 = xor i32 %1, 7",
        "%9 = neg i32 %0",
        "%9 = select i32 %0, %1, 3",
        "%9 = copy i32 %1",
        // Division by a constant that is neither 0 nor -1 cannot trap.
        "%9 = sdiv i32 %0, 7",
        "%9 = urem i32 %0, 10",
        "%9 = sdiv i32 %0, -2",
        // Shifts by a constant below the width are defined.
        "%9 = shl i32 %0, 31",
        "%9 = ashr i32 %1, 3",
    ] {
        assert_moved(body);
    }
}

#[test]
fn keeps_what_could_trap_be_undefined_or_has_effects() {
    for body in [
        // Divisors that may be zero (the loop may not run, or may guard it) or -1.
        "%9 = sdiv i32 %0, %1",
        "%9 = udiv i32 %0, %1",
        "%9 = srem i32 %0, 0",
        "%9 = sdiv i32 %0, -1",
        // -1 is all ones: 4294967295 as a u32 is the same divisor.
        "%9 = sdiv i32 %0, 4294967295:i64",
        "%9 = udiv i32 %0, -1",
        // Shifts by a variable or out-of-range amount.
        "%9 = shl i32 %0, %1",
        "%9 = lshr i32 %0, 32",
        // Effects and memory.
        "%9 = call i32 @putchar(i32 %0)",
        // Loop-variant operands.
        "%9 = mul i32 %3, %0",
        "%9 = add i32 %4, 1",
    ] {
        assert_stays(body);
    }
}

#[test]
fn never_moves_loads() {
    // The load is invariant (its address %8 is) but may be out of bounds or
    // uninitialised on a path where the loop does not run.
    assert_unchanged(
        "func @f(ptr, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, ptr\n    %1 = paramref 1, i32\n    \
         br .LBB1\n.LBB1:\n    %3 = phi i32 [0, .LBB0], [%5, .LBB2]\n    \
         %7 = cmp slt i32 %3, %1\n    condbr %7, .LBB2, .LBB3\n\
         .LBB2:\n    %9 = load i32 %0\n    %5 = add i32 %3, %9\n    br .LBB1\n\
         .LBB3:\n    ret i32 %3\n}\n",
    );
}

#[test]
fn moves_chains_in_order() {
    assert_licm(
        &counted_loop("%8 = add i32 %0, 1\n    %10 = mul i32 %8, %1\n    %9 = sub i32 %10, %8"),
        3,
        &counted_loop_after(
            "%8 = add i32 %0, 1\n    %10 = mul i32 %8, %1\n    %9 = sub i32 %10, %8",
            "",
        ),
    );
    // A variant link stops the chain at that link.
    assert_licm(
        &counted_loop("%8 = add i32 %0, 1\n    %10 = mul i32 %8, %3\n    %9 = sub i32 %10, %8"),
        1,
        &counted_loop_after(
            "%8 = add i32 %0, 1",
            "%10 = mul i32 %8, %3\n    %9 = sub i32 %10, %8",
        ),
    );
}

/// The guarded division of the mutant's regression file: `if (d != 0) s += x / d`.
const GUARDED_DIV: &str = "func @f(i32, i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
    %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    br .LBB1\n\
    .LBB1:\n    %3 = phi i32 [0, .LBB0], [%5, .LBB4]\n    %4 = phi i32 [0, .LBB0], [%6, .LBB4]\n    \
    %7 = cmp slt i32 %3, %2\n    condbr %7, .LBB2, .LBB3\n\
    .LBB2:\n    %8 = cmp ne i32 %1, 0\n    condbr %8, .LBB5, .LBB4\n\
    .LBB5:\n    %9 = sdiv i32 %0, %1\n    br .LBB4\n\
    .LBB4:\n    %10 = phi i32 [0, .LBB2], [%9, .LBB5]\n    %6 = add i32 %4, %10\n    \
    %5 = add i32 %3, 1\n    br .LBB1\n\
    .LBB3:\n    ret i32 %4\n}\n";

#[test]
fn guarded_division_stays_and_the_mutant_moves_it() {
    // Only the guard's comparison is invariant and speculatable.
    let after = GUARDED_DIV
        .replace("    %8 = cmp ne i32 %1, 0\n    condbr %8", "    condbr %8")
        .replace(
            "    %2 = paramref 2, i32\n    br .LBB1",
            "    %2 = paramref 2, i32\n    %8 = cmp ne i32 %1, 0\n    br .LBB1",
        );
    assert_licm(GUARDED_DIV, 1, &after);

    mutants::set_active(&[Mutant::LicmHoistGuardedDiv]);
    let result = std::panic::catch_unwind(|| licm_module(GUARDED_DIV));
    mutants::set_active(&[]);
    let (n, out) = result.expect("the pass runs");
    assert_eq!(n, 2);
    let moved = after.replace("    %9 = sdiv i32 %0, %1\n", "").replace(
        "%8 = cmp ne i32 %1, 0\n",
        "%8 = cmp ne i32 %1, 0\n    %9 = sdiv i32 %0, %1\n",
    );
    assert_eq!(out, canonical(&moved));
}

#[test]
fn nested_loops_move_outward_step_by_step() {
    // Outer loop .LBB1 (i < n), inner loop .LBB3 (j < n) with preheader .LBB2.
    // %20 = a * b is invariant in both loops: it moves to .LBB2, then on to .LBB0.
    // %21 = i * 3 varies with the outer loop only: it moves to .LBB2 and stays there.
    let src = "func @f(i32, i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
        %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    br .LBB1\n\
        .LBB1:\n    %3 = phi i32 [0, .LBB0], [%5, .LBB5]\n    %4 = phi i32 [0, .LBB0], [%12, .LBB5]\n    \
        %6 = cmp slt i32 %3, %2\n    condbr %6, .LBB2, .LBB6\n\
        .LBB2:\n    br .LBB3\n\
        .LBB3:\n    %10 = phi i32 [0, .LBB2], [%13, .LBB4]\n    %12 = phi i32 [%4, .LBB2], [%14, .LBB4]\n    \
        %11 = cmp slt i32 %10, %2\n    condbr %11, .LBB4, .LBB5\n\
        .LBB4:\n    %20 = mul i32 %0, %1\n    %21 = mul i32 %3, 3\n    %22 = add i32 %20, %21\n    \
        %14 = add i32 %12, %22\n    %13 = add i32 %10, 1\n    br .LBB3\n\
        .LBB5:\n    %5 = add i32 %3, 1\n    br .LBB1\n\
        .LBB6:\n    ret i32 %4\n}\n";
    let expected = "func @f(i32, i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
        %1 = paramref 1, i32\n    %2 = paramref 2, i32\n    %20 = mul i32 %0, %1\n    br .LBB1\n\
        .LBB1:\n    %3 = phi i32 [0, .LBB0], [%5, .LBB5]\n    %4 = phi i32 [0, .LBB0], [%12, .LBB5]\n    \
        %6 = cmp slt i32 %3, %2\n    condbr %6, .LBB2, .LBB6\n\
        .LBB2:\n    %21 = mul i32 %3, 3\n    %22 = add i32 %20, %21\n    br .LBB3\n\
        .LBB3:\n    %10 = phi i32 [0, .LBB2], [%13, .LBB4]\n    %12 = phi i32 [%4, .LBB2], [%14, .LBB4]\n    \
        %11 = cmp slt i32 %10, %2\n    condbr %11, .LBB4, .LBB5\n\
        .LBB4:\n    %14 = add i32 %12, %22\n    %13 = add i32 %10, 1\n    br .LBB3\n\
        .LBB5:\n    %5 = add i32 %3, 1\n    br .LBB1\n\
        .LBB6:\n    ret i32 %4\n}\n";
    // Inner loop: %20, %21, %22 move to .LBB2 (3); outer loop: %20 moves on (1).
    assert_licm(src, 4, expected);
}

#[test]
fn loops_without_a_preheader_are_left_alone() {
    // The header .LBB2 is entered from .LBB0 and .LBB1: no single preheader.
    assert_unchanged(
        "func @f(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = paramref 1, i32\n    \
         condbr %0, .LBB1, .LBB2\n.LBB1:\n    br .LBB2\n\
         .LBB2:\n    %3 = phi i32 [0, .LBB0], [1, .LBB1], [%5, .LBB2]\n    %9 = mul i32 %0, %1\n    \
         %5 = add i32 %3, %9\n    %7 = cmp slt i32 %5, 100\n    condbr %7, .LBB2, .LBB3\n\
         .LBB3:\n    ret i32 %5\n}\n",
    );
}

#[test]
fn irreducible_cycles_are_left_alone() {
    // .LBB1 <-> .LBB2 is entered at both blocks: not a natural loop.
    assert_unchanged(
        "func @f(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = paramref 1, i32\n    \
         condbr %0, .LBB1, .LBB2\n\
         .LBB1:\n    %3 = phi i32 [0, .LBB0], [%6, .LBB2]\n    %4 = mul i32 %0, %1\n    \
         %5 = add i32 %3, %4\n    %8 = cmp slt i32 %5, 100\n    condbr %8, .LBB2, .LBB3\n\
         .LBB2:\n    %7 = phi i32 [1, .LBB0], [%5, .LBB1]\n    %9 = mul i32 %1, %0\n    \
         %6 = add i32 %7, %9\n    %10 = cmp slt i32 %6, 100\n    condbr %10, .LBB1, .LBB3\n\
         .LBB3:\n    %11 = phi i32 [%5, .LBB1], [%6, .LBB2]\n    ret i32 %11\n}\n",
    );
}

#[test]
fn a_stale_analysis_makes_it_do_nothing() {
    let src = counted_loop("%9 = mul i32 %0, %1");
    let mut m = parse_module(&src).unwrap();
    let other = parse_module("func @g() -> void {\n.LBB7:\n    ret\n}\n").unwrap();
    let stale = CfgAnalysis::build(&other.functions[0]);
    assert_eq!(run(&mut m.functions[0], &stale), 0);
    assert_eq!(print_module(&m), canonical(&src));
}
