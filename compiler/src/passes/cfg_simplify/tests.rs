//! Tests of `cfg_simplify`: one per rule and per thing it must not do. Expected IR is
//! worked out by hand from the rules in the module docs.

use super::run;
use crate::ir::text::{parse_module, print_function};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{IrFunction, IrModule};
use crate::mutants::{set_active, Mutant};

fn parse(src: &str) -> IrModule {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("input: {e:?}"));
    m
}

/// Runs the pass on the only function of `src`; checks the output verifies and that a
/// second run finds nothing left to do.
fn simplify(src: &str) -> (usize, String) {
    let mut m = parse(src);
    let n = run(&mut m.functions[0]);
    if let Err(errors) = verify_module(&m, VerifyMode::Ssa) {
        let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("verifier:\n  {}\n{m}", errors.join("\n  "));
    }
    let mut again = m.functions[0].clone();
    assert_eq!(run(&mut again), 0, "not a fixed point:\n{m}");
    (n, print_function(&m.functions[0]))
}

fn expect(src: &str) -> String {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    print_function(&m.functions[0])
}

#[test]
fn a_constant_branch_unreachable_arm_and_its_phi_entry_go() {
    let (n, out) = simplify(
        "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr 1, .LBB1, .LBB2
.LBB1:
    %1 = add i32 %0, 1
    br .LBB3
.LBB2:
    %2 = add i32 %0, 2
    br .LBB3
.LBB3:
    %3 = phi i32 [%1, .LBB1], [%2, .LBB2]
    ret i32 %3
}",
    );
    // fold, delete .LBB2, drop its phi entry, phi -> copy, merge .LBB1, merge .LBB3.
    assert_eq!(n, 6);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    %3 = copy i32 %1
    ret i32 %3
}"
        )
    );
}

#[test]
fn conditions_and_switch_values_are_read_in_their_types() {
    // 256:i32 is a condition non-zero in its own type: the true arm (.LBB2; as an i8 it
    // would be 0). A switch value is read in the switch's type: 263:i32 as i8 is 7.
    let (_, out) = simplify(
        "func @f() -> i32 {
.LBB0:
    condbr 256:i32, .LBB2, .LBB1
.LBB1:
    ret i32 1
.LBB2:
    switch i8 263:i32, .LBB3 [7: .LBB4, 1: .LBB3]
.LBB3:
    ret i32 3
.LBB4:
    ret i32 4
}",
    );
    assert_eq!(
        out,
        expect(
            "func @f() -> i32 {
.LBB0:
    ret i32 4
}"
        )
    );
}

#[test]
fn a_switch_on_a_constant_without_a_matching_case_takes_the_default() {
    let (_, out) = simplify(
        "func @f() -> i32 {
.LBB0:
    switch i32 -5, .LBB1 [5: .LBB2]
.LBB1:
    ret i32 1
.LBB2:
    ret i32 2
}",
    );
    assert_eq!(out, expect("func @f() -> i32 {\n.LBB0:\n    ret i32 1\n}"));
}

#[test]
fn same_target_branches_and_switches_become_br() {
    let (n, out) = simplify(
        "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr %0, .LBB1, .LBB1
.LBB1:
    switch i32 %0, .LBB2 [1: .LBB2, 2: .LBB2]
.LBB2:
    ret i32 %0
}",
    );
    // two folds, two merges
    assert_eq!(n, 4);
    assert_eq!(
        out,
        expect("func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    ret i32 %0\n}")
    );
}

const CHAIN: &str = "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp sgt i32 %0, 0
    condbr %1, .LBB1, .LBB4
.LBB1:
    %2 = add i32 %0, 1
    br .LBB2
.LBB2:
    %3 = mul i32 %2, 3
    br .LBB3
.LBB3:
    %4 = sub i32 %3, 1
    br .LBB5
.LBB4:
    br .LBB5
.LBB5:
    %5 = phi i32 [%4, .LBB3], [%0, .LBB4]
    ret i32 %5
}";

#[test]
fn chains_merge_and_successor_phis_are_renamed() {
    let (n, out) = simplify(CHAIN);
    // .LBB2 and .LBB3 into .LBB1 (the phi's .LBB3 becomes .LBB1); .LBB4 bypassed (its
    // predecessor .LBB0 is not yet a predecessor of .LBB5).
    assert_eq!(n, 3);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp sgt i32 %0, 0
    condbr %1, .LBB1, .LBB5
.LBB1:
    %2 = add i32 %0, 1
    %3 = mul i32 %2, 3
    %4 = sub i32 %3, 1
    br .LBB5
.LBB5:
    %5 = phi i32 [%4, .LBB1], [%0, .LBB0]
    ret i32 %5
}"
        )
    );
}

#[test]
fn no_phi_fix_mutant_leaves_the_merged_label_in_the_phi() {
    let mut m = parse(CHAIN);
    set_active(&[Mutant::CfgSimplifyNoPhiFix]);
    run(&mut m.functions[0]);
    set_active(&[]);
    let errors = verify_module(&m, VerifyMode::Ssa).expect_err("the verifier must object");
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("no entry for predecessor")),
        "{errors:?}"
    );
}

#[test]
fn an_empty_block_is_kept_when_its_predecessor_already_reaches_the_phi() {
    // .LBB1 is empty, but .LBB0 branches to .LBB2 directly too: bypassing .LBB1 would need
    // two entries for .LBB0 in the phi (1 and 2).
    let src = "func @f(i8) -> i32 {
.LBB0:
    %0 = paramref 0, i8
    condbr %0, .LBB1, .LBB2
.LBB1:
    br .LBB2
.LBB2:
    %1 = phi i32 [2, .LBB1], [1, .LBB0]
    ret i32 %1
}";
    let (n, out) = simplify(src);
    assert_eq!(n, 0);
    assert_eq!(out, expect(src));
}

#[test]
fn an_empty_block_with_several_predecessors_splits_its_phi_entry() {
    let (n, out) = simplify(
        "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    switch i32 %0, .LBB1 [1: .LBB2, 2: .LBB3]
.LBB1:
    br .LBB4
.LBB2:
    br .LBB4
.LBB3:
    %1 = add i32 %0, 5
    br .LBB5
.LBB4:
    br .LBB5
.LBB5:
    %2 = phi i32 [%1, .LBB3], [7, .LBB4]
    ret i32 %2
}",
    );
    // Round 1 bypasses .LBB1 and .LBB2 (into .LBB4) — .LBB4 is then touched, so it waits;
    // round 2 bypasses .LBB4: .LBB0 reaches .LBB5 through it with 7. Then .LBB0's switch
    // has default and case 1 on .LBB5 but case 2 on .LBB3, so it stays a switch.
    assert_eq!(n, 3);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    switch i32 %0, .LBB5 [1: .LBB5, 2: .LBB3]
.LBB3:
    %1 = add i32 %0, 5
    br .LBB5
.LBB5:
    %2 = phi i32 [%1, .LBB3], [7, .LBB0]
    ret i32 %2
}"
        )
    );
}

#[test]
fn a_dead_loop_with_phis_is_deleted_and_the_entry_stays_first() {
    let (n, out) = simplify(
        "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr 0, .LBB1, .LBB3
.LBB1:
    %1 = phi i32 [0, .LBB0], [%2, .LBB2]
    br .LBB2
.LBB2:
    %2 = add i32 %1, 1
    condbr %2, .LBB1, .LBB3
.LBB3:
    %3 = phi i32 [%0, .LBB0], [%2, .LBB2]
    ret i32 %3
}",
    );
    // fold; delete .LBB1 and .LBB2; drop the phi entry for .LBB2; phi -> copy; merge.
    assert_eq!(n, 6);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %3 = copy i32 %0
    ret i32 %3
}"
        )
    );
}

#[test]
fn loops_are_not_merged_into_themselves() {
    // A self loop, and a two-block loop whose header has two predecessors.
    let src = "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %1 = phi i32 [%0, .LBB0], [%2, .LBB2]
    %2 = sub i32 %1, 1
    br .LBB2
.LBB2:
    %3 = cmp sgt i32 %2, 0
    condbr %3, .LBB1, .LBB3
.LBB3:
    br .LBB3
}";
    let (n, out) = simplify(src);
    // Only .LBB2 merges into .LBB1 (its only predecessor); the phi's .LBB2 becomes .LBB1.
    assert_eq!(n, 1);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %1 = phi i32 [%0, .LBB0], [%2, .LBB1]
    %2 = sub i32 %1, 1
    %3 = cmp sgt i32 %2, 0
    condbr %3, .LBB1, .LBB3
.LBB3:
    br .LBB3
}"
        )
    );
}

#[test]
fn the_entry_is_never_bypassed_or_merged_away() {
    // The entry is empty and forwards to .LBB1, which loops back to the entry. The entry
    // is not bypassed; .LBB1 (only predecessor: the entry's br) merges into it, and the
    // back edge becomes the entry's own (no phis, so nothing to rename).
    let src = "func @f() -> i32 {
.LBB0:
    br .LBB1
.LBB1:
    %0 = call i32 @g()
    condbr %0, .LBB0, .LBB2
.LBB2:
    ret i32 0
}
declare @g() -> i32";
    let (n, out) = simplify(src);
    assert_eq!(n, 1);
    assert_eq!(
        out,
        expect(
            "func @f() -> i32 {
.LBB0:
    %0 = call i32 @g()
    condbr %0, .LBB0, .LBB2
.LBB2:
    ret i32 0
}
declare @g() -> i32"
        )
    );
}

/// A chain of `n` blocks, each adding 1, as a function.
fn long_chain(n: u32) -> IrFunction {
    let mut src =
        String::from("func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    br .LBB1\n");
    for i in 1..=n {
        src += &format!(
            ".LBB{i}:\n    %{i} = add i32 %{}, 1\n    br .LBB{}\n",
            i - 1,
            i + 1
        );
    }
    src += &format!(".LBB{}:\n    ret i32 %{n}\n}}\n", n + 1);
    parse(&src).functions.remove(0)
}

#[test]
fn a_long_chain_merges_in_one_round() {
    let n = 100_000;
    let mut f = long_chain(n);
    let start = std::time::Instant::now();
    assert_eq!(run(&mut f), n as usize + 1);
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(f.blocks[0].insts.len(), n as usize + 1);
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

#[test]
fn a_join_with_many_predecessors_is_pruned_in_linear_time() {
    // A switch on the constant 7 over 5000 cases, each through its own block to one join
    // whose phi has 5000 entries: one case survives and the phi becomes a copy. (The
    // shared `FlatAdj::from_edges` dedups a row by linear scan, so a 5000-target switch
    // already costs it 12.5M comparisons; the pass itself is linear.)
    let n = 5_000u32;
    let mut src = String::from("func @f() -> i32 {\n.LBB0:\n    switch i32 7, .LBB1 [");
    let cases: Vec<String> = (0..n).map(|i| format!("{i}: .LBB{}", i + 2)).collect();
    src += &cases.join(", ");
    src += "]\n.LBB1:\n    br .LBB1\n";
    for i in 0..n {
        src += &format!(
            ".LBB{}:\n    %{i} = add i32 {i}, 100\n    br .LBB{}\n",
            i + 2,
            n + 2
        );
    }
    let entries: Vec<String> = (0..n).map(|i| format!("[%{i}, .LBB{}]", i + 2)).collect();
    src += &format!(
        ".LBB{}:\n    %{n} = phi i32 {}\n    ret i32 %{n}\n}}\n",
        n + 2,
        entries.join(", ")
    );
    let mut f = parse(&src).functions.remove(0);
    let start = std::time::Instant::now();
    run(&mut f);
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    assert_eq!(
        print_function(&f),
        expect(
            "func @f() -> i32 {
.LBB0:
    %7 = add i32 7, 100
    %5000 = copy i32 %7
    ret i32 %5000
}"
        )
    );
}
