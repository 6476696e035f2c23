//! Tests of constant folding: every expected constant below was worked out by hand from
//! IR.md's rules (wrapping at the width, signedness in the type, traps left alone).

use super::{fold, run};
use crate::ir::text::{parse_module, print_module};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{BinOp, Inst, IrConst, IrModule, IrType, Operand, Value};
use crate::mutants::{self, Mutant};

/// Parses `src`, checks it verifies, runs the pass on every function, checks the output
/// verifies; returns the change count and the printed result.
fn fold_module(src: &str) -> (usize, String) {
    let mut m = parse_module(src).expect("test input parses");
    verify_module(&m, VerifyMode::Ssa).expect("test input verifies");
    let n = m.for_each_function(run);
    if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
        panic!("output does not verify: {e:?}\n{}", print_module(&m));
    }
    (n, print_module(&m))
}

/// The printed form of `src` (so expectations are compared in one spelling).
fn canonical(src: &str) -> String {
    print_module(&parse_module(src).expect("expected text parses"))
}

fn assert_folds_to(src: &str, changes: usize, expected: &str) {
    let (n, out) = fold_module(src);
    assert_eq!(out, canonical(expected), "output differs");
    assert_eq!(n, changes, "change count");
}

fn bin(op: BinOp, ty: IrType, a: IrConst, b: IrConst) -> Inst {
    Inst::Bin {
        dest: Value(1),
        op,
        ty,
        lhs: Operand::Const(a),
        rhs: Operand::Const(b),
    }
}

#[test]
fn folds_a_chain_in_one_run() {
    // (2 + 3) * 4 = 20; 20 < 21 is 1; the comparison's constant is an i8.
    assert_folds_to(
        "func @f() -> i8 {\n.LBB0:\n    %1 = add i32 2, 3\n    %2 = mul i32 %1, 4\n    \
         %3 = cmp slt i32 %2, 21\n    ret i8 %3\n}\n",
        3,
        "func @f() -> i8 {\n.LBB0:\n    ret i8 1\n}\n",
    );
}

#[test]
fn folds_with_the_types_signedness_and_width() {
    // udiv u8 200, 3 = 66; urem u8 200, 3 = 2; add i8 127, 1 wraps to -128;
    // sub u16 0, 1 = 65535; cast i8 -1 to u32 = 4294967295 (sign-extends from i8);
    // cast i32 300 to i8 = 44; lshr i8 -128, 7 = 1; ashr i8 -128, 7 = -1.
    assert_folds_to(
        "func @f() -> void {\n.LBB0:\n    %1 = udiv u8 200, 3\n    %2 = urem u8 200, 3\n    \
         %3 = add i8 127, 1\n    %4 = sub u16 0, 1\n    %5 = cast i8 -1 to u32\n    \
         %6 = cast i32 300 to i8\n    %7 = lshr i8 -128, 7\n    %8 = ashr i8 -128, 7\n    \
         call void @g(u8 %1, u8 %2, i8 %3, u16 %4, u32 %5, i8 %6, i8 %7, i8 %8)\n    ret\n}\n\
         declare @g(u8, u8, i8, u16, u32, i8, i8, i8) -> void\n",
        8,
        "declare @g(u8, u8, i8, u16, u32, i8, i8, i8) -> void\n\n\
         func @f() -> void {\n.LBB0:\n    \
         call void @g(u8 66, u8 2, i8 -128, u16 65535, u32 4294967295, i8 44, i8 1, i8 -1)\n    \
         ret\n}\n",
    );
}

#[test]
fn reads_constants_at_the_position_type() {
    // 300:i64 read as an i8 is 44; 44 + 1 = 45. 0x1_0000_0002:i64 read as a u32 is 2.
    assert_folds_to(
        "func @f() -> i8 {\n.LBB0:\n    %1 = add i8 300:i64, 1\n    ret i8 %1\n}\n\n\
         func @g() -> u32 {\n.LBB1:\n    %1 = mul u32 4294967298:i64, 3\n    ret u32 %1\n}\n",
        2,
        "func @f() -> i8 {\n.LBB0:\n    ret i8 45\n}\n\n\
         func @g() -> u32 {\n.LBB1:\n    ret u32 6\n}\n",
    );
}

#[test]
fn never_folds_traps_or_undefined_shifts() {
    let src = "func @f() -> void {\n.LBB0:\n    %1 = sdiv i8 -128, -1\n    \
               %2 = srem i32 -2147483648, -1\n    %3 = udiv u32 7, 0\n    %4 = urem i64 7, 0\n    \
               %5 = sdiv i16 1, 65536:i64\n    %6 = shl i32 1, 32\n    %7 = lshr u8 1, 255\n    \
               %8 = ashr i8 1, -1\n    ret\n}\n";
    let (n, out) = fold_module(src);
    assert_eq!(n, 0);
    assert_eq!(out, canonical(src));
}

#[test]
fn never_folds_pointer_arithmetic() {
    // The pointer width is the target's: `add ptr` and `cmp ptr` wait for run time.
    let src = "func @f() -> i8 {\n.LBB0:\n    %1 = add ptr 4294967295, 1\n    \
               %2 = cmp eq ptr %1, 0\n    %3 = cast i64 4294967296 to ptr\n    \
               %4 = cmp eq ptr %3, 0\n    %5 = and i8 %2, %4\n    ret i8 %5\n}\n";
    let (n, out) = fold_module(src);
    assert_eq!(n, 0);
    assert_eq!(out, canonical(src));
}

#[test]
fn select_tests_its_condition_in_its_own_type() {
    // 256:i32 is non-zero as an i32: the true arm (5). 1:i32 picks the true arm (5). A
    // value arm is left to `simplify` (the result is no constant).
    assert_folds_to(
        "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %1 = select i32 256:i32, 5, 7\n    %2 = select i32 1:i32, 5, %0\n    \
         %3 = select i32 0, 5, %0\n    %4 = add i32 %1, %2\n    %5 = add i32 %4, %3\n    \
         ret i32 %5\n}\n",
        3,
        "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %3 = select i32 0, 5, %0\n    %5 = add i32 10, %3\n    ret i32 %5\n}\n",
    );
}

#[test]
fn folds_phis_of_one_constant_and_constants_into_phis() {
    // %3 is 7 on both edges; %4 is not. The folded %1 lands in a phi as an i32.
    assert_folds_to(
        "func @f(i8) -> i32 {\n.LBB0:\n    %0 = paramref 0, i8\n    %1 = add i32 2, 2\n    \
         condbr %0, .LBB1, .LBB2\n.LBB1:\n    br .LBB2\n.LBB2:\n    \
         %3 = phi i32 [7, .LBB0], [7, .LBB1]\n    %4 = phi i32 [%1, .LBB0], [5, .LBB1]\n    \
         %5 = add i32 %3, %4\n    ret i32 %5\n}\n",
        2,
        "func @f(i8) -> i32 {\n.LBB0:\n    %0 = paramref 0, i8\n    \
         condbr %0, .LBB1, .LBB2\n.LBB1:\n    br .LBB2\n.LBB2:\n    \
         %4 = phi i32 [4, .LBB0], [5, .LBB1]\n    %5 = add i32 7, %4\n    ret i32 %5\n}\n",
    );
}

#[test]
fn follows_loop_carried_constants_into_header_phis() {
    // The back-edge value %3 folds to 0 after the header was visited; a second round
    // folds the phi (0 on both edges) and then %4.
    assert_folds_to(
        "func @f(i8) -> i32 {\n.LBB0:\n    %0 = paramref 0, i8\n    br .LBB1\n.LBB1:\n    \
         %2 = phi i32 [0, .LBB0], [%3, .LBB2]\n    %4 = add i32 %2, 1\n    \
         condbr %0, .LBB2, .LBB3\n.LBB2:\n    %3 = mul i32 5, 0\n    br .LBB1\n.LBB3:\n    \
         ret i32 %4\n}\n",
        3,
        "func @f(i8) -> i32 {\n.LBB0:\n    %0 = paramref 0, i8\n    br .LBB1\n.LBB1:\n    \
         condbr %0, .LBB2, .LBB3\n.LBB2:\n    br .LBB1\n.LBB3:\n    ret i32 1\n}\n",
    );
}

#[test]
fn folded_conditions_keep_the_values_type() {
    // %1 is an i32 used as a condition: it becomes the i32 constant 256 (still false as a
    // condition, read as an i8), never a differently typed or re-read constant.
    assert_folds_to(
        "func @f() -> i32 {\n.LBB0:\n    %1 = shl i32 1, 8\n    condbr %1, .LBB1, .LBB2\n\
         .LBB1:\n    ret i32 1\n.LBB2:\n    ret i32 2\n}\n",
        1,
        "func @f() -> i32 {\n.LBB0:\n    condbr 256:i32, .LBB1, .LBB2\n\
         .LBB1:\n    ret i32 1\n.LBB2:\n    ret i32 2\n}\n",
    );
}

#[test]
fn result_constants_have_the_instructions_type() {
    let c = |ty, v| IrConst::new(ty, v);
    let folded = fold(&bin(
        BinOp::Add,
        IrType::U8,
        c(IrType::I64, 255),
        c(IrType::I8, 1),
    ));
    assert_eq!(folded, Some(c(IrType::U8, 0)));
    let cmp = Inst::Cmp {
        dest: Value(1),
        pred: crate::ir::CmpPred::Ult,
        ty: IrType::I64,
        lhs: Operand::Const(c(IrType::I64, -1)),
        rhs: Operand::Const(c(IrType::I64, 1)),
    };
    assert_eq!(fold(&cmp), Some(c(IrType::I8, 0)));
    let cast = Inst::Cast {
        dest: Value(1),
        from: IrType::U16,
        src: Operand::Const(c(IrType::I32, -1)),
        to: IrType::I64,
    };
    assert_eq!(fold(&cast), Some(c(IrType::I64, 65535)));
}

#[test]
fn mutant_folds_unsigned_division_as_signed() {
    // 200 as an i8 is -56; -56 / 3 = -18, which is 238 as a u8 (the right answer is 66).
    let udiv = bin(
        BinOp::UDiv,
        IrType::U8,
        IrConst::new(IrType::U8, 200),
        IrConst::new(IrType::U8, 3),
    );
    assert_eq!(fold(&udiv), Some(IrConst::new(IrType::U8, 66)));
    mutants::set_active(&[Mutant::ConstFoldUdivSigned]);
    let wrong = fold(&udiv);
    mutants::set_active(&[]);
    assert_eq!(wrong, Some(IrConst::new(IrType::U8, 238)));
}

#[test]
fn empty_function_and_no_constants() {
    let mut empty = IrModule::default();
    empty.functions.push(crate::ir::IrFunction {
        name: "e".into(),
        params: vec![],
        ret: IrType::Void,
        variadic: false,
        attrs: Default::default(),
        blocks: vec![],
    });
    assert_eq!(empty.for_each_function(run), 0);
    let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
               %1 = add i32 %0, 1\n    ret i32 %1\n}\n";
    assert_eq!(fold_module(src).0, 0);
}
