//! Tests of `dce`, expected IR worked out by hand from the rules in the module doc.

use super::run;
use crate::ir::text::{parse_module, print_function};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::mutants::{set_active, Mutant};

fn dce(src: &str) -> (usize, String) {
    let mut m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("input: {e:?}"));
    let n = run(&mut m.functions[0]);
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("output: {e:?}\n{m}"));
    let mut again = m.functions[0].clone();
    assert_eq!(run(&mut again), 0, "not a fixed point");
    (n, print_function(&m.functions[0]))
}

fn expect(src: &str) -> String {
    print_function(&parse_module(src).unwrap().functions[0])
}

#[test]
fn a_dead_chain_goes_in_one_run() {
    let (n, out) = dce("func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    %2 = mul i32 %1, 2
    %3 = sub i32 %2, 1
    %4 = cast i32 %3 to i64
    ret i32 %1
}");
    assert_eq!(n, 3);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    ret i32 %1
}"
        )
    );
}

#[test]
fn a_phi_cycle_that_only_feeds_itself_goes() {
    // %1 and %3 feed each other around the loop and nothing else reads them.
    let (n, out) = dce("func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %1 = phi i32 [0, .LBB0], [%3, .LBB2]
    %2 = phi i32 [%0, .LBB0], [%4, .LBB2]
    %5 = cmp slt i32 %2, 10
    condbr %5, .LBB2, .LBB3
.LBB2:
    %3 = add i32 %1, 7
    %4 = add i32 %2, 1
    br .LBB1
.LBB3:
    ret i32 %2
}");
    assert_eq!(n, 2);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    br .LBB1
.LBB1:
    %2 = phi i32 [%0, .LBB0], [%4, .LBB2]
    %5 = cmp slt i32 %2, 10
    condbr %5, .LBB2, .LBB3
.LBB2:
    %4 = add i32 %2, 1
    br .LBB1
.LBB3:
    ret i32 %2
}"
        )
    );
}

#[test]
fn effects_and_possible_traps_stay_and_their_operands_stay_live() {
    let (n, out) = dce("declare @g(i32) -> i32
func @f(i32, ptr) -> void {
.LBB0:
    %0 = paramref 0, i32
    %1 = paramref 1, ptr
    %2 = alloca i32, 4, 4
    %3 = add i32 %0, 1
    store i32 %3, %2
    %4 = load i32 %1
    %5 = call i32 @g(i32 %0)
    %6 = sdiv i32 %0, %4
    %7 = sdiv i32 %0, 4294967295:i64
    %8 = urem u8 5, 256:i32
    %9 = shl i32 %0, 40
    %10 = sdiv i32 %0, 3
    %11 = udiv i32 %0, -1
    %12 = srem i32 %0, 0x80000000
    %13 = add i32 %10, %11
    ret
}");
    // 4294967295:i64 read as i32 is -1 (MIN / -1 traps); 256:i32 read as u8 is 0; the shift
    // may be out of range. Dividing by 3, by -1 as u32 (4294967295) and taking srem by
    // MIN cannot trap: %10, %11, %12 and %13 go.
    assert_eq!(n, 4);
    assert_eq!(
        out,
        expect(
            "func @f(i32, ptr) -> void {
.LBB0:
    %0 = paramref 0, i32
    %1 = paramref 1, ptr
    %2 = alloca i32, 4, 4
    %3 = add i32 %0, 1
    store i32 %3, %2
    %4 = load i32 %1
    %5 = call i32 @g(i32 %0)
    %6 = sdiv i32 %0, %4
    %7 = sdiv i32 %0, 4294967295:i64
    %8 = urem u8 5, 256:i32
    %9 = shl i32 %0, 40
    ret
}
declare @g(i32) -> i32"
        )
    );
}

const VOLATILE: &str = "func @f() -> i32 {
.LBB0:
    %0 = alloca i32, 4, 4 volatile
    store i32 5, %0
    %1 = load i32 %0
    ret i32 %1
}";

#[test]
fn stores_to_a_slot_stay_but_the_mutant_removes_them() {
    let (n, out) = dce(VOLATILE);
    assert_eq!(n, 0);
    assert_eq!(out, expect(VOLATILE));
    set_active(&[Mutant::DceRemovesStore]);
    let (n, out) = dce(VOLATILE);
    set_active(&[]);
    assert_eq!(n, 1);
    assert!(!out.contains("store"), "{out}");
}
