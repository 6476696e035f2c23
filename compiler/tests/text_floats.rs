//! Floats in the IR text and the verifier: a module with every float form prints back
//! verbatim and round-trips bit for bit (signed zeros, NaN payloads, f32 rounding), and
//! the verifier's float rules reject what they name.

use compiler::ir::text::{parse_module, print_module};
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::{GlobalInit, GlobalItem, Inst, IrConst, IrType, Operand};

const FLOATS: &str = "\
global @d : 16 align 8 = [f64 -0.0, f32 0.1, f32 nan(0xffc00001)]

func @f(f32, f64) -> f64 {
.LBB0:
    %0 = paramref 0, f32
    %1 = paramref 1, f64
    %2 = fadd f32 %0, 1.5
    %3 = fsub f32 %2, -0.0
    %4 = fmul f64 %1, 1e-300
    %5 = fdiv f64 %4, inf
    %6 = fneg f64 %5
    %7 = fcmp une f64 %6, nan
    %8 = fcmp ord f32 %3, nan(0x7fc00001)
    %9 = cast f32 %3 to f64
    %10 = cast f64 %9 to i32
    %11 = cast u64 18446744073709551615 to f32
    %12 = bitcast f32 %11 to u32
    %13 = select f64 %7, %9, -inf
    %14 = and i8 %7, %8
    condbr %14, .LBB1, .LBB2
.LBB1:
    br .LBB2
.LBB2:
    %15 = phi f64 [%13, .LBB0], [0.30000000000000004, .LBB1]
    ret f64 %15
}
";

#[test]
fn float_forms_print_back_verbatim_and_round_trip() {
    let m = parse_module(FLOATS).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(print_module(&m), FLOATS);
    assert_eq!(parse_module(&print_module(&m)), Ok(m.clone()));
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("{e:?}"));
    let GlobalInit::Items(items) = &m.global("d").unwrap().init else {
        panic!("items expected")
    };
    assert_eq!(items[0], GlobalItem::Int(IrType::F64, i64::MIN));
    assert_eq!(items[1], GlobalItem::Int(IrType::F32, 0x3dcc_cccd));
    assert_eq!(items[2], GlobalItem::Int(IrType::F32, 0xffc0_0001));
    let f = m.function("f").unwrap();
    // `-0.0` is its own constant, not `0.0`.
    let Inst::FBin { rhs, .. } = &f.blocks[0].insts[3] else {
        panic!("fsub expected")
    };
    assert_eq!(*rhs, Operand::Const(IrConst::f32(-0.0)));
    assert_ne!(*rhs, Operand::Const(IrConst::f32(0.0)));
}

/// `@f(f64) -> i32` with BODY (which may use `%0`), returning `%9`.
fn with_body(body: &str) -> String {
    format!(
        "func @f(f64) -> i32 {{\n.LBB0:\n    %0 = paramref 0, f64\n{body}\n    ret i32 %9\n}}\n"
    )
}

#[track_caller]
fn rejects(body: &str, needle: &str) {
    let src = with_body(body);
    let m = parse_module(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let errors = verify_module(&m, VerifyMode::Ssa).expect_err("the verifier must reject it");
    assert!(
        errors.iter().any(|e| e.message.contains(needle)),
        "no error mentions {needle:?}: {errors:?}"
    );
}

#[test]
fn verifier_float_rules() {
    rejects("    %9 = add f64 %0, %0", "float arithmetic is `fadd`");
    rejects("    %1 = neg f64 %0\n    %9 = cast f64 %1 to i32", "fneg");
    rejects(
        "    %1 = cmp eq f64 %0, %0\n    %9 = cast i8 %1 to i32",
        "fcmp",
    );
    rejects(
        "    %1 = cast f64 %0 to i64\n    %9 = fadd i32 1, 2",
        "takes f32 or f64",
    );
    rejects(
        "    %1 = fadd f64 %0, 1.5:f32\n    %9 = cast f64 %1 to i32",
        "float constants are never",
    );
    rejects(
        "    %1 = fadd f64 %0, 1:i64\n    %9 = cast f64 %1 to i32",
        "float constants are never",
    );
    rejects(
        "    %1 = bitcast f64 %0 to i32\n    %9 = copy i32 %1",
        "bitcast from f64 to i32",
    );
    rejects(
        "    %1 = alloca i32, 4, 4\n    %2 = cast ptr %1 to f64\n    %9 = cast f64 %2 to i32",
        "floats convert only",
    );
    rejects(
        "    %1 = fadd f32 %0, 1.0\n    %9 = cast f32 %1 to i32",
        "must be f32",
    );
    rejects("    %9 = select i32 %0, 1, 2", "not an integer");
}

#[test]
fn parser_float_literal_errors() {
    for (body, needle) in [
        (
            "    %1 = fadd f64 %0, 1\n    %9 = cast f64 %1 to i32",
            "write a float",
        ),
        (
            "    %1 = fadd f64 %0, nan(0x7fc00000)\n    %9 = cast f64 %1 to i32",
            "not a NaN of f64",
        ),
        ("    %9 = add i32 1.5, 2", "where a i32 is expected"),
        (
            "    %1 = fcmp slt f64 %0, %0\n    %9 = cast i8 %1 to i32",
            "unknown float comparison predicate",
        ),
    ] {
        let src = with_body(body);
        let e = parse_module(&src).expect_err("must not parse");
        assert!(e.message.contains(needle), "{needle:?} not in {e}");
        assert_eq!(e.line, 4, "{e}");
    }
}
