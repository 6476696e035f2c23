//! Integer semantics: every operation at its width, traps, shift UB, casts in each
//! direction, comparison signedness, operand conversion, select.
//!
//! Expected values are worked out by hand from two's complement arithmetic; the comments
//! show the working where it is not obvious.

mod common;
use common::*;
use oracle::{Outcome, Trap, Ub};

/// `@f(a, b) = OP TY a, b`, returning TY.
fn binary(op: &str, ty: &str) -> String {
    format!(
        "func @f({ty}, {ty}) -> {ty} {{
.LBB0:
    %0 = paramref 0, {ty}
    %1 = paramref 1, {ty}
    %2 = {op} {ty} %0, %1
    ret {ty} %2
}}"
    )
}

fn bin(op: &str, ty: &str, a: i64, b: i64) -> Outcome {
    outcome(&binary(op, ty), "f", &[a, b])
}

#[test]
fn add_sub_mul_wrap_at_the_type_width() {
    assert_eq!(bin("add", "i32", 2147483647, 1), ret(-2147483648));
    assert_eq!(bin("add", "i8", 127, 1), ret(-128));
    assert_eq!(bin("add", "u8", 255, 1), ret(0));
    assert_eq!(bin("add", "i64", i64::MAX, 1), ret(i64::MIN));
    assert_eq!(bin("sub", "u32", 0, 1), ret(4294967295));
    assert_eq!(bin("sub", "i64", i64::MIN, 1), ret(i64::MAX));
    assert_eq!(bin("sub", "u16", 3, 5), ret(65534));
    // 300 * 300 = 90000 = 0x15f90; low 16 bits 0x5f90 = 24464 (positive as i16).
    assert_eq!(bin("mul", "i16", 300, 300), ret(24464));
    // 16 * 17 = 272 = 0x110; low byte 0x10.
    assert_eq!(bin("mul", "u8", 16, 17), ret(16));
    // 0x10000 * 0x10000 = 2^32: zero in 32 bits.
    assert_eq!(bin("mul", "i32", 65536, 65536), ret(0));
    // u64 results come back as their i64 bit pattern.
    assert_eq!(bin("mul", "u64", -1, 2), ret(-2));
}

#[test]
fn division_and_remainder() {
    assert_eq!(bin("sdiv", "i32", -7, 2), ret(-3));
    assert_eq!(bin("srem", "i32", -7, 2), ret(-1));
    assert_eq!(bin("srem", "i32", 7, -2), ret(1));
    assert_eq!(bin("udiv", "u32", 7, 2), ret(3));
    assert_eq!(bin("urem", "u32", 7, 3), ret(1));
    // udiv reads its operands unsigned whatever the type: 0xffffffff / 2 = 0x7fffffff.
    assert_eq!(bin("udiv", "i32", -1, 2), ret(2147483647));
    // urem i8: -1 is 255 unsigned; 255 % 10 = 5.
    assert_eq!(bin("urem", "i8", -1, 10), ret(5));
    // sdiv reads signed whatever the type: u32 0xfffffffe is -2; -2 / 2 = -1 = 0xffffffff.
    assert_eq!(bin("sdiv", "u32", 0xffff_fffe, 2), ret(4294967295));
    // The same bits unsigned divide fine: 0x80000000 / 0xffffffff = 0.
    assert_eq!(bin("udiv", "u32", 0x8000_0000, 0xffff_ffff), ret(0));
}

#[test]
fn division_traps() {
    let div0 = Outcome::Trapped(Trap::DivByZero);
    let overflow = Outcome::Trapped(Trap::DivOverflow);
    for op in ["sdiv", "udiv", "srem", "urem"] {
        for ty in ["i8", "u16", "i32", "u64"] {
            assert_eq!(bin(op, ty, 5, 0), div0, "{op} {ty}");
        }
    }
    assert_eq!(bin("sdiv", "i32", i32::MIN as i64, -1), overflow);
    assert_eq!(bin("srem", "i32", i32::MIN as i64, -1), overflow);
    assert_eq!(bin("sdiv", "i8", -128, -1), overflow);
    assert_eq!(bin("sdiv", "i64", i64::MIN, -1), overflow);
    // MIN / -1 only overflows at the instruction's own width.
    assert_eq!(bin("sdiv", "i64", i32::MIN as i64, -1), ret(2147483648));
    // u8 128 is -128 as a signed byte: sdiv u8 traps too.
    assert_eq!(bin("sdiv", "u8", 128, 255), overflow);
}

#[test]
fn bitwise() {
    assert_eq!(bin("and", "i32", 12, 10), ret(8));
    assert_eq!(bin("or", "i32", 12, 10), ret(14));
    assert_eq!(bin("xor", "i32", 12, 10), ret(6));
    assert_eq!(bin("xor", "u8", 0xf0, 0xff), ret(0x0f));
    assert_eq!(bin("and", "i16", -1, -2), ret(-2));
}

#[test]
fn shifts() {
    assert_eq!(bin("shl", "i32", 1, 31), ret(-2147483648));
    // 3 << 7 = 0x180; low byte 0x80.
    assert_eq!(bin("shl", "u8", 3, 7), ret(128));
    assert_eq!(bin("ashr", "i32", -16, 2), ret(-4));
    // ashr is arithmetic even on an unsigned type: 0x80 >> 7 fills with ones = 0xff.
    assert_eq!(bin("ashr", "u8", 0x80, 7), ret(255));
    // lshr is logical even on a signed type: 0xffffffff >> 28 = 0xf.
    assert_eq!(bin("lshr", "i32", -1, 28), ret(15));
    assert_eq!(bin("lshr", "i8", -128, 7), ret(1));
    assert_eq!(bin("ashr", "i64", i64::MIN, 63), ret(-1));
}

#[test]
fn shifts_by_the_width_or_more_are_undefined() {
    let at = |ty: &str, a, b, op: &str| {
        let o = bin(op, ty, a, b);
        assert_eq!(
            o,
            undefined_at(Ub::ShiftTooLarge, "f", 0, Some(2)),
            "{op} {ty} {b}"
        );
    };
    at("i32", 1, 32, "shl");
    at("i64", 1, 64, "shl");
    at("u8", 1, 8, "lshr");
    at("i16", 1, 16, "ashr");
    // The amount is read unsigned: -1 is the largest amount, not a small one.
    at("i32", 1, -1, "shl");
    at("i8", 1, -128, "lshr");
}

#[test]
fn negation_and_not() {
    let unary = |op: &str, ty: &str, a: i64| {
        let src = format!(
            "func @f({ty}) -> {ty} {{
.LBB0:
    %0 = paramref 0, {ty}
    %1 = {op} {ty} %0
    ret {ty} %1
}}"
        );
        outcome(&src, "f", &[a])
    };
    assert_eq!(unary("neg", "i32", i32::MIN as i64), ret(i32::MIN as i64));
    assert_eq!(unary("neg", "i32", 5), ret(-5));
    assert_eq!(unary("neg", "u8", 1), ret(255));
    assert_eq!(unary("not", "i16", 0), ret(-1));
    assert_eq!(unary("not", "u16", 0), ret(65535));
    assert_eq!(unary("not", "u64", 0), ret(-1));
}

fn cast(from: &str, to: &str, a: i64) -> Outcome {
    let src = format!(
        "func @f({from}) -> {to} {{
.LBB0:
    %0 = paramref 0, {from}
    %1 = cast {from} %0 to {to}
    ret {to} %1
}}"
    );
    outcome(&src, "f", &[a])
}

#[test]
fn casts_extend_by_the_source_signedness() {
    assert_eq!(cast("i8", "i32", -1), ret(-1));
    assert_eq!(cast("u8", "i32", 255), ret(255));
    // Sign-extend to 32 bits, then read as unsigned: 0xffffffff.
    assert_eq!(cast("i8", "u32", -1), ret(4294967295));
    assert_eq!(cast("i32", "i64", -1), ret(-1));
    assert_eq!(cast("u32", "i64", 4294967295), ret(4294967295));
    assert_eq!(cast("i16", "u64", -2), ret(-2));
    assert_eq!(cast("u16", "u64", 65534), ret(65534));
}

#[test]
fn casts_truncate_then_take_the_target_signedness() {
    // 0x1_0000_00ff: low byte 0xff.
    assert_eq!(cast("i64", "i8", 0x1_0000_00ff), ret(-1));
    assert_eq!(cast("i64", "u8", 0x1_0000_00ff), ret(255));
    // 300 = 0x12c: low byte 0x2c = 44.
    assert_eq!(cast("i64", "i8", 300), ret(44));
    assert_eq!(cast("i32", "i16", 65535), ret(-1));
    assert_eq!(cast("u32", "u16", 65536 + 7), ret(7));
    // Same width, other signedness: reinterpretation.
    assert_eq!(cast("i32", "u32", -1), ret(4294967295));
    assert_eq!(cast("u8", "i8", 200), ret(-56));
    assert_eq!(cast("u64", "i64", -1), ret(-1));
}

fn cmp(pred: &str, ty: &str, a: i64, b: i64) -> Outcome {
    let src = format!(
        "func @f({ty}, {ty}) -> i8 {{
.LBB0:
    %0 = paramref 0, {ty}
    %1 = paramref 1, {ty}
    %2 = cmp {pred} {ty} %0, %1
    ret i8 %2
}}"
    );
    outcome(&src, "f", &[a, b])
}

#[test]
fn comparisons_take_the_predicate_signedness() {
    let (t, f) = (ret(1), ret(0));
    assert_eq!(cmp("slt", "i32", -1, 1), t);
    assert_eq!(cmp("ult", "i32", -1, 1), f);
    // u8 255 read signed is -1.
    assert_eq!(cmp("sgt", "u8", 255, 1), f);
    assert_eq!(cmp("ugt", "u8", 255, 1), t);
    assert_eq!(cmp("sle", "i64", 5, 5), t);
    assert_eq!(cmp("sge", "i64", i64::MIN, i64::MAX), f);
    assert_eq!(cmp("ule", "u16", 0, 65535), t);
    assert_eq!(cmp("uge", "i16", -1, 0), t);
    assert_eq!(
        cmp("eq", "i8", -1, 255),
        t,
        "the argument 255 is -1 as an i8"
    );
    assert_eq!(cmp("ne", "u32", 1, 2), t);
    assert_eq!(cmp("eq", "u32", 7, 7), t);
    assert_eq!(cmp("ne", "i64", 7, 7), f);
}

#[test]
fn operands_are_converted_to_their_position_type() {
    // An i64 literal in an i32 add: 4294967297 = 2^32 + 1 truncates to 1.
    let src = "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 4294967297:i64
    ret i32 %1
}";
    assert_eq!(outcome(src, "f", &[5]), ret(6));
    // A u8 literal 255 in an i8 position is -1.
    let src = "func @f(i8) -> i8 {
.LBB0:
    %0 = paramref 0, i8
    %1 = add i8 %0, 255:u8
    ret i8 %1
}";
    assert_eq!(outcome(src, "f", &[5]), ret(4));
    // An i64 register read by an i32 sdiv: 0x1_0000_0004 reads as 4, so 4 / 2 = 2 (without
    // conversion the quotient would be wrong).
    let src = "func @f(i64) -> i32 {
.LBB0:
    %0 = paramref 0, i64
    %1 = sdiv i32 %0, 2
    ret i32 %1
}";
    assert_eq!(outcome(src, "f", &[0x1_0000_0004]), ret(2));
    // An i32 register holding -1 read as u32 by a compare: 0xffffffff > 1.
    let src = "func @f(i32) -> i8 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp ugt u32 %0, 1
    ret i8 %1
}";
    assert_eq!(outcome(src, "f", &[-1]), ret(1));
}

#[test]
fn entry_arguments_are_read_in_the_parameter_types() {
    let id = |ty: &str| {
        format!(
            "func @f({ty}) -> {ty} {{
.LBB0:
    %0 = paramref 0, {ty}
    ret {ty} %0
}}"
        )
    };
    assert_eq!(outcome(&id("u8"), "f", &[511]), ret(255));
    assert_eq!(outcome(&id("i8"), "f", &[-129]), ret(127));
    assert_eq!(outcome(&id("u32"), "f", &[-1]), ret(4294967295));
    // A paramref of another type converts: 300 read as i8 is 44.
    let src = "func @f(i32) -> i8 {
.LBB0:
    %0 = paramref 0, i8
    ret i8 %0
}";
    assert_eq!(outcome(src, "f", &[300]), ret(44));
}

#[test]
fn select_picks_and_evaluates_both() {
    let src = "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp slt i32 %0, 0
    %2 = neg i32 %0
    %3 = select i32 %1, %2, %0
    ret i32 %3
}";
    assert_eq!(outcome(src, "f", &[-9]), ret(9));
    assert_eq!(outcome(src, "f", &[9]), ret(9));
    // The operand not chosen is still read: %9 is never assigned.
    let src = "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = select i32 1, %0, %9
    ret i32 %1
}";
    assert_eq!(
        outcome(src, "f", &[1]),
        undefined_at(Ub::UndefinedValue, "f", 0, Some(1))
    );
}

#[test]
fn steps_count_instructions_and_terminators() {
    let r = run_src(&binary("add", "i32"), "f", &[1, 2]);
    assert_eq!(r.outcome, ret(3));
    assert_eq!(r.steps, 4);
}
