//! Tests of the inliner. Expected IR is worked out by hand from the module doc: values
//! renumbered from the caller's value bound, the continuation's label drawn before the
//! copy's, the callee's entry allocas at the end of the caller's entry block.

use super::{inline_calls, run, MAX_CALLEE_INSTS};
use crate::ir::text::{parse_module, print_function};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::IrModule;
use crate::mutants::{set_active, Mutant};

fn parse(src: &str) -> IrModule {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("input: {e:?}"));
    m
}

fn assert_verifies(m: &IrModule) {
    if let Err(errors) = verify_module(m, VerifyMode::Ssa) {
        let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("verifier:\n  {}\n{m}", errors.join("\n  "));
    }
}

/// The function `name` of `src` after [`inline_calls`], and the number of calls inlined.
fn inlined(src: &str, name: &str) -> (usize, String) {
    let mut m = parse(src);
    let n = inline_calls(&mut m);
    assert_verifies(&m);
    (n, print_function(m.function(name).unwrap()))
}

/// `src` (one function) as the printer writes it.
fn expect(src: &str) -> String {
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    print_function(&m.functions[0])
}

const ADD: &str = "
func @add(i32, i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 %0, %1
    %2 = paramref 1, i32
    %3 = alloca i32, 4, 4
    store i32 %2, %3
    %4 = load i32 %1
    %5 = load i32 %3
    %6 = add i32 %4, %5
    ret i32 %6
}
";

#[test]
fn arguments_are_stored_into_the_callee_parameter_slots() {
    let src = format!(
        "{ADD}
func @main(i32) -> i32 {{
.LBB1:
    %0 = paramref 0, i32
    %1 = call i32 @add(i32 %0, i32 7:i64)
    %2 = mul i32 %1, 2
    ret i32 %2
}}"
    );
    let (n, main) = inlined(&src, "main");
    assert_eq!(n, 1);
    // cont = .LBB2 (drawn first), the callee's .LBB0 = .LBB3; callee %v = %(3 + v); the
    // `:i64` argument is read as an i32.
    let want = expect(
        "func @main(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    %4 = alloca i32, 4, 4
    %6 = alloca i32, 4, 4
    br .LBB3
.LBB3:
    store i32 %0, %4
    store i32 7, %6
    %7 = load i32 %4
    %8 = load i32 %6
    %9 = add i32 %7, %8
    br .LBB2
.LBB2:
    %1 = copy i32 %9
    %2 = mul i32 %1, 2
    ret i32 %2
}",
    );
    assert_eq!(main, want);
}

#[test]
fn the_second_mem2reg_promotes_the_inlined_slots() {
    let src = format!(
        "{ADD}
func @main(i32) -> i32 {{
.LBB1:
    %0 = paramref 0, i32
    %1 = call i32 @add(i32 %0, i32 7)
    ret i32 %1
}}"
    );
    let mut m = parse(&src);
    // One call inlined; two slots promoted in @main, two (retained) in @add. @main's
    // value bound is 2, so the callee's values move up by 2.
    assert_eq!(run(&mut m), 5);
    assert_verifies(&m);
    let want = expect(
        "func @main(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    br .LBB3
.LBB3:
    %6 = copy i32 %0
    %7 = copy i32 7
    %8 = add i32 %6, %7
    br .LBB2
.LBB2:
    %1 = copy i32 %8
    ret i32 %1
}",
    );
    assert_eq!(print_function(m.function("main").unwrap()), want);
}

#[test]
fn several_returns_meet_in_a_phi_and_the_call_block_successors_are_renamed() {
    // @abs has two returns; the call sits in a loop body whose back edge feeds a phi.
    let src = "
func @abs(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 %0, %1
    %2 = load i32 %1
    %3 = cmp slt i32 %2, 0
    condbr %3, .LBB1, .LBB2
.LBB1:
    %4 = neg i32 %2
    ret i32 %4
.LBB2:
    ret i32 %2
}

func @sum(i32) -> i32 {
.LBB10:
    %0 = paramref 0, i32
    br .LBB11
.LBB11:
    %1 = phi i32 [%0, .LBB10], [%4, .LBB12]
    %2 = phi i32 [0, .LBB10], [%5, .LBB12]
    %3 = cmp sgt i32 %1, -3
    condbr %3, .LBB12, .LBB13
.LBB12:
    %6 = call i32 @abs(i32 %1)
    %5 = add i32 %2, %6
    %4 = sub i32 %1, 1
    br .LBB11
.LBB13:
    ret i32 %2
}";
    let (n, sum) = inlined(src, "sum");
    assert_eq!(n, 1);
    // cont .LBB14; @abs's .LBB0/1/2 -> .LBB15/16/17; callee values + 7. The back edge
    // now leaves from the continuation, so the header's phis name .LBB14.
    let want = expect(
        "func @sum(i32) -> i32 {
.LBB10:
    %0 = paramref 0, i32
    %8 = alloca i32, 4, 4
    br .LBB11
.LBB11:
    %1 = phi i32 [%0, .LBB10], [%4, .LBB14]
    %2 = phi i32 [0, .LBB10], [%5, .LBB14]
    %3 = cmp sgt i32 %1, -3
    condbr %3, .LBB12, .LBB13
.LBB12:
    br .LBB15
.LBB15:
    store i32 %1, %8
    %9 = load i32 %8
    %10 = cmp slt i32 %9, 0
    condbr %10, .LBB16, .LBB17
.LBB16:
    %11 = neg i32 %9
    br .LBB14
.LBB17:
    br .LBB14
.LBB14:
    %6 = phi i32 [%11, .LBB16], [%9, .LBB17]
    %5 = add i32 %2, %6
    %4 = sub i32 %1, 1
    br .LBB11
.LBB13:
    ret i32 %2
}",
    );
    assert_eq!(sum, want);
}

#[test]
fn nested_calls_are_inlined_bottom_up() {
    // @outer calls @mid calls @leaf: @leaf goes into @mid first, then @mid (with it) into
    // @outer, so @outer ends with no calls at all.
    let src = "
func @outer() -> i32 {
.LBB0:
    %0 = call i32 @mid(i32 4)
    ret i32 %0
}
func @mid(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    %1 = call i32 @leaf(i32 %0)
    %2 = add i32 %1, 1
    ret i32 %2
}
func @leaf(i32) -> i32 {
.LBB2:
    %0 = paramref 0, i32
    %1 = mul i32 %0, 10
    ret i32 %1
}";
    let mut m = parse(src);
    assert_eq!(
        inline_calls(&mut m),
        2,
        "leaf into mid, then mid into outer"
    );
    assert_verifies(&m);
    let calls = |f: &str| {
        print_function(m.function(f).unwrap())
            .lines()
            .filter(|l| l.contains("call"))
            .count()
    };
    assert_eq!(calls("outer"), 0);
    assert_eq!(calls("mid"), 0);
    // The constant argument reaches the innermost multiply.
    assert!(print_function(m.function("outer").unwrap()).contains("mul i32 4, 10"));
}

#[test]
fn noinline_recursive_and_variadic_callees_stay_calls() {
    let src = "
declare @printf(ptr, ...) -> i32
func noinline @never(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    ret i32 %0
}
func @fact(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    %1 = cmp sle i32 %0, 1
    condbr %1, .LBB2, .LBB3
.LBB2:
    ret i32 1
.LBB3:
    %2 = sub i32 %0, 1
    %3 = call i32 @fact(i32 %2)
    %4 = mul i32 %0, %3
    ret i32 %4
}
func @ping(i32) -> i32 {
.LBB4:
    %0 = paramref 0, i32
    %1 = call i32 @pong(i32 %0)
    ret i32 %1
}
func @pong(i32) -> i32 {
.LBB5:
    %0 = paramref 0, i32
    %1 = cmp eq i32 %0, 0
    condbr %1, .LBB6, .LBB7
.LBB6:
    ret i32 0
.LBB7:
    %2 = sub i32 %0, 1
    %3 = call i32 @ping(i32 %2)
    ret i32 %3
}
func @var(i32, ...) -> i32 {
.LBB8:
    %0 = paramref 0, i32
    ret i32 %0
}
func @main() -> i32 {
.LBB9:
    %0 = call i32 @never(i32 1)
    %1 = call i32 @fact(i32 3)
    %2 = call i32 @ping(i32 2)
    %3 = call i32 @var(i32 4, i32 5)
    ret i32 %3
}";
    let mut m = parse(src);
    let before = m.clone();
    assert_eq!(inline_calls(&mut m), 0);
    assert_eq!(m, before);
}

#[test]
fn a_paramref_without_a_slot_is_replaced_by_the_argument() {
    // The corpus's address_taken_call.ir: @set reads its parameters directly.
    let src = "
func @set(ptr, i32) -> void {
.LBB0:
    %0 = paramref 0, ptr
    %1 = paramref 1, i32
    store i32 %1, %0
    ret
}
func @main(i32) -> i32 {
.LBB10:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 1:i64, %1
    call void @set(ptr %1, i32 %0)
    %2 = load i32 %1
    ret i32 %2
}";
    let (n, main) = inlined(src, "main");
    assert_eq!(n, 1);
    let want = expect(
        "func @main(i32) -> i32 {
.LBB10:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 1:i64, %1
    br .LBB12
.LBB12:
    store i32 %0, %1
    br .LBB11
.LBB11:
    %2 = load i32 %1
    ret i32 %2
}",
    );
    assert_eq!(main, want);
}

#[test]
fn a_callee_that_never_returns_leaves_a_zero_result() {
    let src = "
func @spin() -> i32 {
.LBB0:
    br .LBB0
}
func @main() -> i32 {
.LBB1:
    %0 = call i32 @spin()
    ret i32 %0
}";
    let (n, main) = inlined(src, "main");
    assert_eq!(n, 1);
    let want = expect(
        "func @main() -> i32 {
.LBB1:
    br .LBB3
.LBB3:
    br .LBB3
.LBB2:
    %0 = copy i32 0
    ret i32 %0
}",
    );
    assert_eq!(main, want);
}

/// A callee of `n` instructions (terminator included), optionally hinted `inline`.
fn callee_of_size(n: usize, hint: bool) -> String {
    let mut body = String::from("    %0 = paramref 0, i32\n");
    for i in 1..n - 1 {
        body += &format!("    %{i} = add i32 %{}, 1\n", i - 1);
    }
    format!(
        "func {}@big(i32) -> i32 {{\n.LBB0:\n{body}    ret i32 %{}\n}}\n",
        if hint { "inline " } else { "" },
        n - 2
    )
}

#[test]
fn the_callee_size_budget_and_the_inline_hint() {
    let caller = "func @main() -> i32 {\n.LBB1:\n %0 = call i32 @big(i32 1)\n ret i32 %0\n}";
    for (size, hint, want) in [
        (MAX_CALLEE_INSTS, false, 1),
        (MAX_CALLEE_INSTS + 1, false, 0),
        (MAX_CALLEE_INSTS + 1, true, 1),
    ] {
        let src = format!("{}{caller}", callee_of_size(size, hint));
        let (n, _) = inlined(&src, "main");
        assert_eq!(n, want, "callee of {size} instructions, hint {hint}");
    }
}

#[test]
fn the_caller_growth_is_capped() {
    // 60-instruction callee, 100 call sites: at most 3000 / 60 = 50 are inlined.
    let mut src = callee_of_size(MAX_CALLEE_INSTS, false);
    src += "func @main() -> i32 {\n.LBB1:\n";
    for i in 0..100 {
        src += &format!(" %{i} = call i32 @big(i32 {i})\n");
    }
    src += " ret i32 %99\n}";
    let (n, main) = inlined(&src, "main");
    assert_eq!(n, 50);
    assert_eq!(main.matches("call i32 @big").count(), 50);
}

#[test]
fn skip_param_store_mutant_drops_the_last_slot_store() {
    let src = format!(
        "{ADD}
func @main() -> i32 {{
.LBB1:
    %0 = call i32 @add(i32 3, i32 4)
    ret i32 %0
}}"
    );
    set_active(&[Mutant::InlineSkipParamStore]);
    let (n, main) = inlined(&src, "main");
    set_active(&[]);
    assert_eq!(n, 1);
    // @main's value bound is 1: the slots %1 and %3 become %2 and %4.
    assert!(main.contains("store i32 3, %2"), "{main}");
    assert!(!main.contains("store i32 4"), "{main}");
    // Without the mutant both stores are there.
    let (_, main) = inlined(&src, "main");
    assert!(main.contains("store i32 3, %2") && main.contains("store i32 4, %4"));
}
