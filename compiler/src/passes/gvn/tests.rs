//! Tests of GVN: what is merged (dominated recomputations, same-block loads with nothing
//! in between) and what must not be (siblings, loads across writes or blocks); expected
//! outputs written by hand.

use super::run;
use crate::ir::analysis::CfgAnalysis;
use crate::ir::text::{parse_module, print_module};
use crate::mutants::{self, Mutant};
use crate::passes::test_support::{canonical, run_cfg_preserving};

fn gvn_module(src: &str) -> (usize, String) {
    run_cfg_preserving("GVN", src, run)
}

fn assert_gvn(src: &str, changes: usize, expected: &str) {
    let (n, out) = gvn_module(src);
    assert_eq!(out, canonical(expected), "output differs");
    assert_eq!(n, changes, "change count");
}

fn assert_unchanged(src: &str) {
    assert_gvn(src, 0, src);
}

#[test]
fn merges_in_one_block_with_normalized_operands() {
    assert_gvn(
        "func @f(i32, i32) -> i8 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = paramref 1, i32\n    \
         %2 = add i32 %0, %1\n    %3 = add i32 %1, %0\n    %4 = mul i32 %2, 5:i64\n    \
         %5 = mul i32 5, %3\n    %6 = cmp sgt i32 %4, %0\n    %7 = cmp slt i32 %0, %5\n    \
         %8 = xor i8 %6, %7\n    ret i8 %8\n}\n",
        3,
        "func @f(i32, i32) -> i8 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = paramref 1, i32\n    \
         %2 = add i32 %0, %1\n    %4 = mul i32 %2, 5:i64\n    \
         %6 = cmp sgt i32 %4, %0\n    %8 = xor i8 %6, %6\n    ret i8 %8\n}\n",
    );
}

const DIAMOND: &str = "func @f(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
    %1 = paramref 1, i32\n    ENTRY\n    condbr %0, .LBB1, .LBB2\n.LBB1:\n    THEN\n    br .LBB3\n\
    .LBB2:\n    ELSE\n    br .LBB3\n.LBB3:\n    %9 = phi i32 [%5, .LBB1], [%6, .LBB2]\n    \
    JOIN\n    %11 = add i32 %9, %7\n    ret i32 %11\n}\n";

fn diamond(entry: &str, then: &str, else_: &str, join: &str) -> String {
    DIAMOND
        .replace("ENTRY", entry)
        .replace("THEN", then)
        .replace("ELSE", else_)
        .replace("JOIN", join)
}

#[test]
fn reuses_dominating_values_across_blocks() {
    // %4 in the entry dominates the branches and the join: %5, %6 and %7 are %4.
    assert_gvn(
        &diamond(
            "%4 = sdiv i32 %0, %1",
            "%5 = sdiv i32 %0, %1",
            "%6 = sdiv i32 %0, %1",
            "%7 = sdiv i32 %0, %1",
        ),
        3,
        "func @f(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = paramref 1, i32\n    \
         %4 = sdiv i32 %0, %1\n    condbr %0, .LBB1, .LBB2\n.LBB1:\n    br .LBB3\n\
         .LBB2:\n    br .LBB3\n.LBB3:\n    %9 = phi i32 [%4, .LBB1], [%4, .LBB2]\n    \
         %11 = add i32 %9, %4\n    ret i32 %11\n}\n",
    );
}

#[test]
fn never_reuses_values_of_sibling_blocks() {
    // The division in .LBB1 does not run on the path through .LBB2: the join's division
    // (which may trap) must stay, and so must the sibling's.
    assert_unchanged(&diamond(
        "%4 = add i32 %0, 1",
        "%5 = sdiv i32 %0, %1",
        "%6 = sdiv i32 %0, %1",
        "%7 = sdiv i32 %0, %1",
    ));
}

#[test]
fn merges_identical_phis_of_one_block() {
    assert_gvn(
        "func @f(i8, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i8\n    %1 = paramref 1, i32\n    \
         condbr %0, .LBB1, .LBB2\n.LBB1:\n    br .LBB2\n.LBB2:\n    \
         %2 = phi i32 [%1, .LBB0], [7, .LBB1]\n    %3 = phi i32 [7, .LBB1], [%1, .LBB0]\n    \
         %4 = phi i32 [%1, .LBB0], [8, .LBB1]\n    %5 = add i32 %2, %3\n    \
         %6 = add i32 %5, %4\n    ret i32 %6\n}\n",
        1,
        "func @f(i8, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i8\n    %1 = paramref 1, i32\n    \
         condbr %0, .LBB1, .LBB2\n.LBB1:\n    br .LBB2\n.LBB2:\n    \
         %2 = phi i32 [%1, .LBB0], [7, .LBB1]\n    \
         %4 = phi i32 [%1, .LBB0], [8, .LBB1]\n    %5 = add i32 %2, %2\n    \
         %6 = add i32 %5, %4\n    ret i32 %6\n}\n",
    );
}

/// A function with a slot holding 5, two loads of it with `BETWEEN` in between.
fn two_loads(between: &str) -> String {
    format!(
        "declare @putchar(i32) -> i32\n\n\
         func @f(ptr) -> i32 {{\n.LBB0:\n    %0 = paramref 0, ptr\n    %1 = alloca i32, 4, 4\n    \
         store i32 5, %1\n    %2 = load i32 %1\n    {between}\n    %3 = load i32 %1\n    \
         %4 = add i32 %2, %3\n    ret i32 %4\n}}\n"
    )
}

#[test]
fn loads_merge_only_with_nothing_written_in_between() {
    // A pure instruction in between does not write memory: the loads merge.
    let merged = "declare @putchar(i32) -> i32\n\n\
         func @f(ptr) -> i32 {\n.LBB0:\n    %0 = paramref 0, ptr\n    %1 = alloca i32, 4, 4\n    \
         store i32 5, %1\n    %2 = load i32 %1\n    %9 = gep %0, 4\n    \
         %4 = add i32 %2, %2\n    ret i32 %4\n}\n";
    assert_gvn(&two_loads("%9 = gep %0, 4"), 1, merged);
    // A store (even through another pointer), a memcpy or a call may write the slot.
    assert_unchanged(&two_loads("store i32 6, %1"));
    assert_unchanged(&two_loads("store i32 6, %0"));
    assert_unchanged(&two_loads("memcpy %1, %0, 4"));
    assert_unchanged(&two_loads("%9 = call i32 @putchar(i32 65)"));
    // A load of another type is another load (and writes nothing).
    let (n, out) = gvn_module(&two_loads("%9 = load u32 %1"));
    assert_eq!(n, 1);
    assert!(out.contains("%9 = load u32 %1") && out.contains("%4 = add i32 %2, %2"));
}

#[test]
fn loads_do_not_merge_across_blocks() {
    assert_unchanged(
        "func @f(ptr) -> i32 {\n.LBB0:\n    %0 = paramref 0, ptr\n    %1 = load i32 %0\n    \
         br .LBB1\n.LBB1:\n    %2 = load i32 %0\n    %3 = add i32 %1, %2\n    ret i32 %3\n}\n",
    );
}

#[test]
fn volatile_slots_are_always_reloaded() {
    assert_unchanged(
        "func @f() -> i32 {\n.LBB0:\n    %1 = alloca i32, 4, 4 volatile\n    store i32 5, %1\n    \
         %2 = load i32 %1\n    %3 = load i32 %1\n    %4 = add i32 %2, %3\n    ret i32 %4\n}\n",
    );
}

#[test]
fn mutant_merges_loads_across_a_store() {
    mutants::set_active(&[Mutant::GvnLoadAcrossStore]);
    let result = std::panic::catch_unwind(|| gvn_module(&two_loads("store i32 6, %1")));
    mutants::set_active(&[]);
    let (n, out) = result.expect("the pass runs");
    assert_eq!(n, 1);
    assert!(out.contains("%4 = add i32 %2, %2"), "{out}");
    // Calls still end availability under the mutant.
    mutants::set_active(&[Mutant::GvnLoadAcrossStore]);
    let result =
        std::panic::catch_unwind(|| gvn_module(&two_loads("%9 = call i32 @putchar(i32 65)")));
    mutants::set_active(&[]);
    assert_eq!(result.expect("the pass runs").0, 0);
}

#[test]
fn uses_in_unreachable_blocks_and_back_edge_phis_are_rewritten() {
    // %4 is %2; it is used by the loop header's phi on the back edge (visited before the
    // latch) and by an unreachable block (never visited).
    assert_gvn(
        "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %2 = mul i32 %0, 3\n    \
         br .LBB1\n.LBB1:\n    %3 = phi i32 [0, .LBB0], [%4, .LBB2]\n    \
         %5 = cmp slt i32 %3, 10\n    condbr %5, .LBB2, .LBB3\n.LBB2:\n    %4 = mul i32 3, %0\n    \
         br .LBB1\n.LBB3:\n    ret i32 %3\n.LBB4:\n    %6 = add i32 %4, 1\n    ret i32 %6\n}\n",
        1,
        "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %2 = mul i32 %0, 3\n    \
         br .LBB1\n.LBB1:\n    %3 = phi i32 [0, .LBB0], [%2, .LBB2]\n    \
         %5 = cmp slt i32 %3, 10\n    condbr %5, .LBB2, .LBB3\n.LBB2:\n    \
         br .LBB1\n.LBB3:\n    ret i32 %3\n.LBB4:\n    %6 = add i32 %2, 1\n    ret i32 %6\n}\n",
    );
}

#[test]
fn a_stale_analysis_makes_it_do_nothing() {
    let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = add i32 %0, 1\n    \
               %2 = add i32 %0, 1\n    br .LBB1\n.LBB1:\n    %3 = add i32 %1, %2\n    ret i32 %3\n}\n";
    let mut m = parse_module(src).unwrap();
    let other = parse_module("func @g() -> void {\n.LBB7:\n    ret\n}\n").unwrap();
    let stale = CfgAnalysis::build(&other.functions[0]);
    assert_eq!(run(&mut m.functions[0], &stale), 0);
    assert_eq!(print_module(&m), canonical(src));
}
