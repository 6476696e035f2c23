//! Tests of algebraic simplification: one test per identity family and per thing the pass
//! must leave alone; expected outputs written by hand.

use super::run;
use crate::ir::text::{parse_module, print_module};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::mutants::{self, Mutant};

/// Parses `src`, checks it verifies, runs the pass on every function, checks the output
/// verifies; returns the change count and the printed result.
fn simplify_module(src: &str) -> (usize, String) {
    let mut m = parse_module(src).expect("test input parses");
    verify_module(&m, VerifyMode::Ssa).expect("test input verifies");
    let n = m.for_each_function(run);
    if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
        panic!("output does not verify: {e:?}\n{}", print_module(&m));
    }
    (n, print_module(&m))
}

fn canonical(src: &str) -> String {
    print_module(&parse_module(src).expect("expected text parses"))
}

/// `@f(TY x, TY y) -> TY` whose body is `%2 = INST` and `ret TY %2`.
fn one_inst(ty: &str, inst: &str) -> String {
    format!(
        "func @f({ty}, {ty}) -> {ty} {{\n.LBB0:\n    %0 = paramref 0, {ty}\n    \
         %1 = paramref 1, {ty}\n    %2 = {inst}\n    ret {ty} %2\n}}\n"
    )
}

/// `@f` after the instruction was replaced by `result`.
fn replaced_by(ty: &str, result: &str) -> String {
    format!(
        "func @f({ty}, {ty}) -> {ty} {{\n.LBB0:\n    %0 = paramref 0, {ty}\n    \
         %1 = paramref 1, {ty}\n    ret {ty} {result}\n}}\n"
    )
}

fn assert_replaced(ty: &str, inst: &str, result: &str) {
    let (n, out) = simplify_module(&one_inst(ty, inst));
    assert_eq!(out, canonical(&replaced_by(ty, result)), "{inst}");
    assert_eq!(n, 1, "{inst}");
}

fn assert_rewritten(ty: &str, inst: &str, new_inst: &str) {
    let (n, out) = simplify_module(&one_inst(ty, inst));
    assert_eq!(out, canonical(&one_inst(ty, new_inst)), "{inst}");
    assert_eq!(n, 1, "{inst}");
}

fn assert_kept(ty: &str, inst: &str) {
    let src = one_inst(ty, inst);
    let (n, out) = simplify_module(&src);
    assert_eq!(out, canonical(&src), "{inst}");
    assert_eq!(n, 0, "{inst}");
}

#[test]
fn identities_that_give_an_operand() {
    for inst in [
        "add i32 %0, 0",
        "add i32 0, %0",
        "sub i32 %0, 0",
        "or i32 %0, 0",
        "xor i32 0, %0",
        "shl i32 %0, 0",
        "ashr i32 %0, 0",
        "lshr i32 %0, 0",
        "mul i32 %0, 1",
        "mul i32 1, %0",
        "sdiv i32 %0, 1",
        "udiv i32 %0, 1",
        "and i32 %0, -1",
        "and i32 %0, %0",
        "or i32 %0, %0",
        // Constants are read at the type: 4294967296:i64 is 0 as an i32.
        "add i32 %0, 4294967296:i64",
    ] {
        assert_replaced("i32", inst, "%0");
    }
    // -1 and 255 are both all ones for an 8-bit type, signed or not.
    assert_replaced("u8", "and u8 %0, -1:i32", "%0");
    assert_replaced("i8", "and i8 %0, 255:i32", "%0");
    // 256 is 0 as a u8: a shift by 0.
    assert_replaced("u8", "shl u8 %0, 256:i32", "%0");
}

#[test]
fn identities_that_give_a_constant() {
    for inst in [
        "mul i32 %0, 0",
        "mul i32 0, %0",
        "and i32 %0, 0",
        "sub i32 %0, %0",
        "xor i32 %0, %0",
        "srem i32 %0, 1",
        "urem i32 %0, 1",
    ] {
        assert_replaced("i32", inst, "0");
    }
    assert_replaced("i32", "or i32 %0, -1", "-1");
    assert_replaced("u16", "or u16 -1:i64, %0", "65535");
}

#[test]
fn rewrites_to_cheaper_or_canonical_forms() {
    assert_rewritten("i32", "mul i32 %0, 8", "shl i32 %0, 3");
    assert_rewritten("i32", "mul i32 8, %0", "shl i32 %0, 3");
    // -128 as an i8 is 0x80 = 2^7 at the width: x * -128 == x << 7 modulo 256.
    assert_rewritten("i8", "mul i8 %0, -128", "shl i8 %0, 7");
    assert_rewritten("u64", "mul u64 %0, 9223372036854775808", "shl u64 %0, 63");
    assert_rewritten("i32", "xor i32 %0, -1", "not i32 %0");
    assert_rewritten("i32", "add i32 5, %0", "add i32 %0, 5");
    assert_rewritten("i32", "and i32 6, %1", "and i32 %1, 6");
    // Not a power of two: only the constant moves.
    assert_rewritten("i32", "mul i32 6, %0", "mul i32 %0, 6");
}

#[test]
fn leaves_what_can_trap_or_be_undefined() {
    for inst in [
        // x / x is not 1 and x % x is not 0 when x is 0: the trap must stay.
        "sdiv i32 %0, %0",
        "udiv i32 %0, %0",
        "srem i32 %0, %0",
        "urem i32 %0, %0",
        // 0 / x traps when x is 0.
        "sdiv i32 0, %0",
        // sdiv by -1 traps on MIN.
        "sdiv i32 %0, -1",
        // A shift of 0 by x is undefined when x >= 32.
        "shl i32 0, %1",
        "lshr i32 %0, %1",
        // A shift by a constant other than 0 stays.
        "ashr i32 %0, 3",
        // Not commutative: the constant stays on the left.
        "sub i32 5, %0",
        "mul i32 %0, 6",
        "add i32 %0, %1",
    ] {
        assert_kept("i32", inst);
    }
}

#[test]
fn leaves_pointer_arithmetic() {
    for inst in [
        "add ptr %0, 0",
        "and ptr %0, -1",
        "xor ptr %0, %0",
        "mul ptr %0, 1",
    ] {
        assert_kept("ptr", inst);
    }
}

#[test]
fn double_negation_and_not() {
    let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
               %1 = neg i32 %0\n    %2 = neg i32 %1\n    %3 = not i32 %2\n    \
               %4 = not i32 %3\n    %5 = neg i32 %4\n    %6 = not i32 %5\n    \
               %7 = add i32 %6, %1\n    ret i32 %7\n}\n";
    // %2 -> %0, %4 -> %2 -> %0 (so %5 = neg %0, which is %1's shape but not a double
    // negation), %6 = not (neg %0) stays.
    let (n, out) = simplify_module(src);
    assert_eq!(
        out,
        canonical(
            "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
             %1 = neg i32 %0\n    %3 = not i32 %0\n    %5 = neg i32 %0\n    \
             %6 = not i32 %5\n    %7 = add i32 %6, %1\n    ret i32 %7\n}\n"
        )
    );
    assert_eq!(n, 2);
    // A negation of another type is a different operation: no look-through across types
    // can arise in verified input, and neg (not x) is not x.
    assert_kept("i32", "neg i32 %0");
}

#[test]
fn comparisons_with_themselves_and_constants_on_the_left() {
    for (pred, result) in [
        ("eq", 1),
        ("ne", 0),
        ("slt", 0),
        ("sle", 1),
        ("sgt", 0),
        ("sge", 1),
        ("ult", 0),
        ("ule", 1),
        ("ugt", 0),
        ("uge", 1),
    ] {
        let src = format!(
            "func @f(i64) -> i8 {{\n.LBB0:\n    %0 = paramref 0, i64\n    \
             %1 = cmp {pred} i64 %0, %0\n    ret i8 %1\n}}\n"
        );
        let (n, out) = simplify_module(&src);
        let expected = format!(
            "func @f(i64) -> i8 {{\n.LBB0:\n    %0 = paramref 0, i64\n    ret i8 {result}\n}}\n"
        );
        assert_eq!(out, canonical(&expected), "{pred}");
        assert_eq!(n, 1);
    }
    let src = "func @f(i64) -> i8 {\n.LBB0:\n    %0 = paramref 0, i64\n    \
               %1 = cmp slt i64 5, %0\n    %2 = cmp uge i64 7, %0\n    %3 = cmp eq i64 0, %0\n    \
               %4 = and i8 %1, %2\n    %5 = and i8 %4, %3\n    ret i8 %5\n}\n";
    let (n, out) = simplify_module(src);
    assert_eq!(
        out,
        canonical(
            "func @f(i64) -> i8 {\n.LBB0:\n    %0 = paramref 0, i64\n    \
             %1 = cmp sgt i64 %0, 5\n    %2 = cmp ule i64 %0, 7\n    %3 = cmp eq i64 %0, 0\n    \
             %4 = and i8 %1, %2\n    %5 = and i8 %4, %3\n    ret i8 %5\n}\n"
        )
    );
    assert_eq!(n, 3);
}

#[test]
fn selects_and_casts() {
    assert_replaced("i32", "select i32 %0, %1, %1", "%1");
    // 5:i64 and 5 are the same i32.
    assert_replaced("i32", "select i32 %0, 5:i64, 5", "5");
    // A condition is tested in its own type: 256:i32 is non-zero, the true arm; an
    // unsuffixed literal is an i8 and 0:i32 is zero.
    assert_replaced("i32", "select i32 256:i32, %0, %1", "%0");
    assert_replaced("i32", "select i32 0:i32, %0, %1", "%1");
    assert_replaced("i32", "select i32 3, %0, %1", "%0");
    assert_replaced("ptr", "select ptr 1, %0, %1", "%0");
    assert_kept("i32", "select i32 %0, %0, %1");
    assert_replaced("i32", "cast i32 %1 to i32", "%1");
    assert_replaced("ptr", "cast ptr %0 to ptr", "%0");
}

#[test]
fn cascades_within_one_run() {
    // (x + 0) * 1 - 0 is x; then x ^ x is 0 and 0 | y... is left to const_fold/simplify
    // on the constant-left form: `or 0, %1` is %1.
    let src = "func @f(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
               %1 = paramref 1, i32\n    %2 = add i32 %0, 0\n    %3 = mul i32 %2, 1\n    \
               %4 = sub i32 %3, 0\n    %5 = xor i32 %4, %0\n    %6 = or i32 %5, %1\n    \
               ret i32 %6\n}\n";
    let (n, out) = simplify_module(src);
    assert_eq!(out, canonical(&replaced_by("i32", "%1")));
    assert_eq!(n, 5);
}

#[test]
fn mutant_turns_arithmetic_shifts_logical() {
    let src = one_inst("i32", "ashr i32 %0, 3");
    mutants::set_active(&[Mutant::SimplifyAshrAsLshr]);
    let result = std::panic::catch_unwind(|| simplify_module(&src));
    mutants::set_active(&[]);
    let (n, out) = result.expect("the pass runs");
    assert_eq!(out, canonical(&one_inst("i32", "lshr i32 %0, 3")));
    assert_eq!(n, 1);
    // Out-of-range amounts are left alone even by the mutant.
    mutants::set_active(&[Mutant::SimplifyAshrAsLshr]);
    let result = std::panic::catch_unwind(|| simplify_module(&one_inst("i32", "ashr i32 %0, 32")));
    mutants::set_active(&[]);
    assert_eq!(result.expect("the pass runs").0, 0);
}
