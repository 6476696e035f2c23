//! Tests of `copy_prop`, expected IR worked out by hand from the rules in the module doc.

use super::run;
use crate::ir::text::{parse_module, print_function};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{
    BasicBlock, BlockId, Inst, IrConst, IrFunction, IrType, Operand, Terminator, Value,
};

fn propagate(src: &str) -> (usize, String) {
    let mut m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("input: {e:?}"));
    let n = run(&mut m.functions[0]);
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("output: {e:?}\n{m}"));
    (n, print_function(&m.functions[0]))
}

fn expect(src: &str) -> String {
    print_function(&parse_module(src).unwrap().functions[0])
}

#[test]
fn chains_resolve_to_the_first_source_and_phi_operands_are_uses() {
    let (n, out) = propagate(
        "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = copy i32 %0
    %2 = copy i32 %1
    condbr %2, .LBB1, .LBB2
.LBB1:
    %3 = copy i32 5
    br .LBB2
.LBB2:
    %4 = phi i32 [%2, .LBB0], [%3, .LBB1]
    %5 = copy i32 %4
    %6 = add i32 %5, %2
    ret i32 %6
}",
    );
    assert_eq!(n, 4);
    assert_eq!(
        out,
        expect(
            "func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr %0, .LBB1, .LBB2
.LBB1:
    br .LBB2
.LBB2:
    %4 = phi i32 [%0, .LBB0], [5, .LBB1]
    %6 = add i32 %4, %0
    ret i32 %6
}"
        )
    );
}

#[test]
fn a_copied_constant_reaches_conditions_and_returns_with_its_type() {
    let (n, out) = propagate(
        "func @f() -> u8 {
.LBB0:
    %0 = copy i8 1
    %1 = copy u8 200
    condbr %0, .LBB1, .LBB2
.LBB1:
    ret u8 %1
.LBB2:
    ret u8 0
}",
    );
    assert_eq!(n, 2);
    assert_eq!(
        out,
        expect(
            "func @f() -> u8 {
.LBB0:
    condbr 1, .LBB1, .LBB2
.LBB1:
    ret u8 200
.LBB2:
    ret u8 0
}"
        )
    );
}

#[test]
fn a_copy_cycle_in_an_unreachable_block_is_left_alone() {
    let src = "func @f() -> i32 {
.LBB0:
    ret i32 0
.LBB1:
    %1 = copy i32 %2
    %2 = copy i32 %1
    %3 = copy i32 %2
    br .LBB1
}";
    let (n, out) = propagate(src);
    assert_eq!(n, 0);
    assert_eq!(out, expect(src));
}

/// One block: `insts`, then `ret i32 %ret`.
fn function(insts: Vec<Inst>, ret: u32) -> IrFunction {
    IrFunction {
        name: "f".into(),
        params: vec![IrType::I32],
        ret: IrType::I32,
        variadic: false,
        attrs: Default::default(),
        blocks: vec![BasicBlock {
            label: BlockId(0),
            insts,
            term: Terminator::Ret(Some((IrType::I32, Operand::Value(Value(ret))))),
        }],
    }
}

#[test]
fn copies_whose_types_disagree_are_not_propagated() {
    // Input the verifier rejects, built directly: a copy of a wider constant and a copy of
    // a value of another type. Propagating either would change a phi/copy type or a
    // value's width, so both stay.
    let wide = Inst::Copy {
        dest: Value(1),
        ty: IrType::I32,
        src: Operand::Const(IrConst::new(IrType::I64, 1 << 40)),
    };
    let param = Inst::ParamRef {
        dest: Value(0),
        index: 0,
        ty: IrType::I32,
    };
    let retyped = Inst::Copy {
        dest: Value(2),
        ty: IrType::I64,
        src: Operand::Value(Value(0)),
    };
    let mut f = function(vec![param, wide, retyped], 1);
    let before = f.clone();
    assert_eq!(run(&mut f), 0);
    assert_eq!(f, before);
}
