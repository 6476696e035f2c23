//! Control flow: phis read at once, post-phi-elimination copies, undefined registers,
//! missing phi edges, switch dispatch, fuel, unreachable.

mod common;
use common::*;
use oracle::{Outcome, RunConfig, Trap, Ub};

/// Two header phis that read each other on the back edge: each iteration swaps them.
const SWAP: &str = "
func @swap(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %1 = phi i32 [1, .LBB0], [%2, .LBB2]
    %2 = phi i32 [2, .LBB0], [%1, .LBB2]
    %3 = phi i32 [0, .LBB0], [%5, .LBB2]
    %4 = cmp slt i32 %3, %0
    condbr %4, .LBB2, .LBB3
.LBB2:
    %5 = add i32 %3, 1
    br .LBB1
.LBB3:
    %6 = mul i32 %1, 10
    %7 = add i32 %6, %2
    ret i32 %7
}";

#[test]
fn phis_read_their_incoming_values_at_once() {
    // (a, b) starts (1, 2); every iteration swaps; the result is a * 10 + b.
    assert_eq!(outcome(SWAP, "swap", &[0]), ret(12));
    assert_eq!(outcome(SWAP, "swap", &[1]), ret(21));
    assert_eq!(outcome(SWAP, "swap", &[2]), ret(12));
    assert_eq!(outcome(SWAP, "swap", &[7]), ret(21));
}

#[test]
fn phi_rotation_and_self_reference() {
    // (a, b, c) <- (b, c, a) each iteration, and %4 keeps its own value.
    let src = "
func @rot(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %1 = phi i32 [1, .LBB0], [%2, .LBB1]
    %2 = phi i32 [2, .LBB0], [%3, .LBB1]
    %3 = phi i32 [3, .LBB0], [%1, .LBB1]
    %4 = phi i32 [9, .LBB0], [%4, .LBB1]
    %5 = phi i32 [0, .LBB0], [%6, .LBB1]
    %6 = add i32 %5, 1
    %7 = cmp slt i32 %5, %0
    condbr %7, .LBB1, .LBB2
.LBB2:
    %8 = mul i32 %1, 100
    %9 = mul i32 %2, 10
    %10 = add i32 %8, %9
    %11 = add i32 %10, %3
    %12 = mul i32 %4, 1000
    %13 = add i32 %11, %12
    ret i32 %13
}";
    // The back edge runs n times, so the triple rotates n times:
    // 0 rotations 123, 1 -> 231, 2 -> 312, 3 -> 123; %4 stays 9.
    assert_eq!(outcome(src, "rot", &[0]), ret(9123));
    assert_eq!(outcome(src, "rot", &[1]), ret(9231));
    assert_eq!(outcome(src, "rot", &[2]), ret(9312));
    assert_eq!(outcome(src, "rot", &[3]), ret(9123));
}

/// Post-phi-elimination form: `%1` and `%2` are assigned in the entry and again on the
/// back edge; `%2` is assigned on both arms of a diamond.
const COPIES: &str = "
func @sum(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = copy i32 0
    %2 = copy i32 0
    br .LBB1
.LBB1:
    %3 = cmp slt i32 %1, %0
    condbr %3, .LBB2, .LBB3
.LBB2:
    %4 = add i32 %1, 1
    %5 = add i32 %2, %4
    %1 = copy i32 %4
    %2 = copy i32 %5
    br .LBB1
.LBB3:
    ret i32 %2
}

func @sign(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp slt i32 %0, 0
    condbr %1, .LBB1, .LBB2
.LBB1:
    %2 = copy i32 -1
    br .LBB3
.LBB2:
    %2 = copy i32 1
    br .LBB3
.LBB3:
    ret i32 %2
}

func @broken(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp slt i32 %0, 0
    condbr %1, .LBB1, .LBB2
.LBB1:
    br .LBB3
.LBB2:
    %2 = copy i32 1
    br .LBB3
.LBB3:
    %3 = add i32 %2, 0
    ret i32 %3
}";

#[test]
fn copies_may_assign_a_register_on_several_paths() {
    assert_eq!(outcome(COPIES, "sum", &[10]), ret(55));
    assert_eq!(outcome(COPIES, "sum", &[0]), ret(0));
    assert_eq!(outcome(COPIES, "sign", &[-5]), ret(-1));
    assert_eq!(outcome(COPIES, "sign", &[5]), ret(1));
    // Steps: entry 3 + br, header 2 per test, body 4 + br per iteration, ret.
    // n = 1: 4 + 2 + 5 + 2 + 1 = 14.
    assert_eq!(run_src(COPIES, "sum", &[1]).steps, 14);
}

#[test]
fn reading_a_register_this_frame_never_assigned_is_undefined() {
    // The arm that forgets the copy reaches the read with %2 unassigned.
    assert_eq!(
        outcome(COPIES, "broken", &[-5]),
        undefined_at(Ub::UndefinedValue, "broken", 3, Some(0))
    );
    assert_eq!(outcome(COPIES, "broken", &[5]), ret(1));
}

#[test]
fn assignment_is_per_frame() {
    // @f assigns %1 only when its argument is 0, then calls itself with 0 first: the inner
    // frame's assignment must not count for the outer frame.
    let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %2 = cmp eq i32 %0, 0
    condbr %2, .LBB1, .LBB2
.LBB1:
    %1 = copy i32 7
    ret i32 %1
.LBB2:
    %3 = call i32 @f(i32 0)
    br .LBB3
.LBB3:
    ret i32 %1
}";
    assert_eq!(outcome(src, "f", &[0]), ret(7));
    assert_eq!(
        outcome(src, "f", &[1]),
        undefined_at(Ub::UndefinedValue, "f", 3, None)
    );
}

#[test]
fn a_phi_without_an_entry_for_the_edge_taken_is_undefined() {
    let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp eq i32 %0, 0
    condbr %1, .LBB1, .LBB2
.LBB1:
    br .LBB3
.LBB2:
    br .LBB3
.LBB3:
    %2 = phi i32 [5, .LBB1]
    ret i32 %2
}

func @entry_phi() -> i32 {
.LBB10:
    %0 = phi i32 [1, .LBB11]
    br .LBB11
.LBB11:
    ret i32 %0
}";
    assert_eq!(outcome(src, "f", &[0]), ret(5));
    assert_eq!(
        outcome(src, "f", &[1]),
        undefined_at(Ub::PhiMissingEdge, "f", 3, Some(0))
    );
    // Entering a function is no edge: a phi in the entry block has nothing to read.
    assert_eq!(
        outcome(src, "entry_phi", &[]),
        undefined_at(Ub::PhiMissingEdge, "entry_phi", 10, Some(0))
    );
}

#[test]
fn repeated_targets_share_one_phi_entry() {
    // Both condbr edges go to .LBB1; the phi has one entry for .LBB0.
    let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr %0, .LBB1, .LBB1
.LBB1:
    %1 = phi i32 [%0, .LBB0]
    ret i32 %1
}";
    // condbr reads its i8 condition: 256 is 0 as an i8, 3 is not; both reach .LBB1.
    assert_eq!(outcome(src, "f", &[3]), ret(3));
    assert_eq!(outcome(src, "f", &[256]), ret(256));
}

#[test]
fn switch_dispatch() {
    let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    switch i32 %0, .LBB4 [1: .LBB1, -4: .LBB2, 100: .LBB3, 7: .LBB1]
.LBB1:
    ret i32 10
.LBB2:
    ret i32 20
.LBB3:
    ret i32 30
.LBB4:
    ret i32 0
}

func @g(u8) -> i32 {
.LBB10:
    %0 = paramref 0, u8
    switch u8 %0, .LBB12 [255: .LBB11]
.LBB11:
    %1 = phi i32 [1, .LBB10]
    ret i32 %1
.LBB12:
    ret i32 2
}";
    assert_eq!(outcome(src, "f", &[1]), ret(10));
    assert_eq!(outcome(src, "f", &[7]), ret(10));
    assert_eq!(outcome(src, "f", &[-4]), ret(20));
    assert_eq!(outcome(src, "f", &[100]), ret(30));
    assert_eq!(outcome(src, "f", &[5]), ret(0));
    assert_eq!(
        outcome(src, "f", &[0x1_0000_0001]),
        ret(10),
        "the argument is an i32"
    );
    assert_eq!(outcome(src, "g", &[-1]), ret(1), "-1 is 255 as a u8");
    assert_eq!(outcome(src, "g", &[254]), ret(2));
}

#[test]
fn fuel_runs_out() {
    let spin = "
func @spin() -> void {
.LBB0:
    br .LBB0
}";
    let cfg = RunConfig {
        fuel: 1000,
        ..RunConfig::default()
    };
    let r = run_cfg(spin, "spin", &[], &cfg);
    assert_eq!(r.outcome, Outcome::OutOfFuel);
    assert_eq!(r.steps, 1000);
    // Exactly enough fuel finishes; one less does not.
    let three = "
func @f() -> i32 {
.LBB0:
    %0 = add i32 1, 2
    %1 = mul i32 %0, 2
    ret i32 %1
}";
    let with = |fuel| {
        run_cfg(
            three,
            "f",
            &[],
            &RunConfig {
                fuel,
                ..RunConfig::default()
            },
        )
    };
    assert_eq!(with(3).outcome, ret(6));
    let short = with(2);
    assert_eq!(short.outcome, Outcome::OutOfFuel);
    assert_eq!(short.steps, 2);
    // Phis cost a step each: the swap loop with n = 0 takes br, 3 phis, cmp, condbr, mul,
    // add, ret after the paramref: 10 steps.
    assert_eq!(run_src(SWAP, "swap", &[0]).steps, 10);
}

#[test]
fn unreachable_traps() {
    let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr %0, .LBB1, .LBB2
.LBB1:
    ret i32 1
.LBB2:
    unreachable
}";
    assert_eq!(outcome(src, "f", &[1]), ret(1));
    assert_eq!(outcome(src, "f", &[0]), Outcome::Trapped(Trap::Unreachable));
}

#[test]
fn void_functions_return_nothing() {
    let src = "
func @f() -> void {
.LBB0:
    ret
}";
    assert_eq!(outcome(src, "f", &[]), Outcome::Returned(None));
}

/// A `condbr`/`select` condition value counts with all its bits (docs/ir-notes.md: any
/// integer type); a suffixed constant is read in its own type, only an unsuffixed literal
/// is an `i8`.
const WIDE_CONDITIONS: &str = "
func @wide(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = select i32 %0, 7, 9
    condbr %0, .LBB1, .LBB2
.LBB1:
    %2 = add i32 %1, 100
    %3 = select i32 256:i32, %2, 0
    condbr 256:i32, .LBB3, .LBB2
.LBB3:
    ret i32 %3
.LBB2:
    ret i32 %1
}";

#[test]
fn wide_condition_values_are_tested_in_full() {
    // 256 has a zero low byte but is true: the select picks 7, the branch goes to LBB1.
    assert_eq!(outcome(WIDE_CONDITIONS, "wide", &[256]), ret(107));
    assert_eq!(outcome(WIDE_CONDITIONS, "wide", &[-256]), ret(107));
    assert_eq!(outcome(WIDE_CONDITIONS, "wide", &[1]), ret(107));
    assert_eq!(outcome(WIDE_CONDITIONS, "wide", &[0]), ret(9));
}
