//! Calls: recursion without host recursion, depth limits, indirect calls, signature
//! mismatches, and the inputs that cannot be run at all.

mod common;
use common::*;
use oracle::{InterpErrorKind, Outcome, Program, RunConfig, Ub};

const FIB: &str = "
func @fib(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp slt i32 %0, 2
    condbr %1, .LBB1, .LBB2
.LBB1:
    ret i32 %0
.LBB2:
    %2 = sub i32 %0, 1
    %3 = call i32 @fib(i32 %2)
    %4 = sub i32 %0, 2
    %5 = call i32 @fib(i32 %4)
    %6 = add i32 %3, %5
    ret i32 %6
}";

#[test]
fn recursion() {
    assert_eq!(outcome(FIB, "fib", &[0]), ret(0));
    assert_eq!(outcome(FIB, "fib", &[1]), ret(1));
    assert_eq!(outcome(FIB, "fib", &[10]), ret(55));
    assert_eq!(outcome(FIB, "fib", &[20]), ret(6765));
}

const DEPTH: &str = "
func @depth(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp eq i32 %0, 0
    condbr %1, .LBB1, .LBB2
.LBB1:
    ret i32 0
.LBB2:
    %2 = sub i32 %0, 1
    %3 = call i32 @depth(i32 %2)
    %4 = add i32 %3, 1
    ret i32 %4
}";

#[test]
fn call_depth_is_limited() {
    let cfg = RunConfig {
        max_call_depth: 10,
        ..RunConfig::default()
    };
    // depth(9) needs 10 frames, depth(10) needs 11.
    assert_eq!(run_cfg(DEPTH, "depth", &[9], &cfg).outcome, ret(9));
    assert_eq!(
        run_cfg(DEPTH, "depth", &[10], &cfg).outcome,
        undefined_at(Ub::StackOverflow, "depth", 2, Some(1))
    );
    // Deep recursion runs on the interpreter's own stack, never the host's.
    let deep = RunConfig {
        max_call_depth: 200_000,
        fuel: u64::MAX,
        ..RunConfig::default()
    };
    assert_eq!(
        run_cfg(DEPTH, "depth", &[150_000], &deep).outcome,
        ret(150_000)
    );
    // Unbounded recursion ends at the default limit.
    assert_eq!(ub_of(&outcome(DEPTH, "depth", &[-1])), Ub::StackOverflow);
}

const INDIRECT: &str = "
global @table : 16 align 8 = [ptr @inc, ptr @dbl]
global @data : 4 align 4 = [i32 0]

func @inc(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    ret i32 %1
}

func @dbl(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    %1 = mul i32 %0, 2
    ret i32 %1
}

func @through_table(i64, i32) -> i32 {
.LBB2:
    %0 = paramref 0, i64
    %1 = paramref 1, i32
    %2 = globaladdr @table
    %3 = mul i64 %0, 8
    %4 = gep %2, %3
    %5 = load ptr %4
    %6 = call i32 %5(i32 %1)
    ret i32 %6
}

func @direct_address(i32) -> i32 {
.LBB3:
    %0 = paramref 0, i32
    %1 = globaladdr @dbl
    %2 = call i32 %1(i32 %0)
    ret i32 %2
}

func @not_code() -> i32 {
.LBB4:
    %0 = globaladdr @data
    %1 = call i32 %0(i32 1)
    ret i32 %1
}

func @wrong_signature() -> i32 {
.LBB5:
    %0 = globaladdr @inc
    %1 = call i32 %0(i64 1)
    ret i32 %1
}

func @to_libc() -> i32 {
.LBB6:
    %0 = globaladdr @putchar
    %1 = call i32 %0(i32 65)
    ret i32 %1
}

declare @putchar(i32) -> i32";

#[test]
fn indirect_calls() {
    assert_eq!(outcome(INDIRECT, "through_table", &[0, 20]), ret(21));
    assert_eq!(outcome(INDIRECT, "through_table", &[1, 20]), ret(40));
    assert_eq!(outcome(INDIRECT, "direct_address", &[7]), ret(14));
    assert_eq!(
        outcome(INDIRECT, "not_code", &[]),
        undefined_at(Ub::InvalidPointer, "not_code", 4, Some(1))
    );
    assert_eq!(
        outcome(INDIRECT, "wrong_signature", &[]),
        undefined_at(Ub::BadCall, "wrong_signature", 5, Some(1))
    );
    let r = run_src(INDIRECT, "to_libc", &[]);
    assert_eq!(r.outcome, ret(65));
    assert_eq!(r.stdout, b"A");
    // Past the table: the slot after @table's 16 bytes is out of bounds.
    assert_eq!(
        ub_of(&outcome(INDIRECT, "through_table", &[2, 0])),
        Ub::OutOfBounds
    );
}

#[test]
fn indirect_calls_with_4_byte_pointers() {
    let src = INDIRECT.replace("%3 = mul i64 %0, 8", "%3 = mul i64 %0, 4");
    let r = |args: &[i64]| run_cfg(&src, "through_table", args, &cfg(4)).outcome;
    assert_eq!(r(&[0, 20]), ret(21));
    assert_eq!(r(&[1, 20]), ret(40));
}

#[test]
fn mismatched_direct_calls_are_undefined_only_when_executed() {
    let src = "
func @g(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    ret i32 %0
}

func @f(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    condbr %0, .LBB2, .LBB3
.LBB2:
    %1 = call i32 @g(i32 1, i32 2)
    ret i32 %1
.LBB3:
    %2 = call i64 @g(i32 1)
    %3 = cast i64 %2 to i32
    ret i32 %3
}

func @h() -> i32 {
.LBB4:
    %0 = call i32 @g(i64 5)
    ret i32 %0
}";
    assert_eq!(
        outcome(src, "f", &[1]),
        undefined_at(Ub::BadCall, "f", 2, Some(0))
    );
    assert_eq!(
        outcome(src, "f", &[0]),
        undefined_at(Ub::BadCall, "f", 3, Some(0))
    );
    assert_eq!(
        outcome(src, "h", &[]),
        undefined_at(Ub::BadCall, "h", 4, Some(0))
    );
}

#[test]
fn paramref_past_the_arguments_passed_is_undefined() {
    // @v is variadic with one named parameter; reading a second argument needs a caller
    // that passed it.
    let src = "
func @v(i32, ...) -> i32 {
.LBB0:
    %0 = paramref 1, i32
    ret i32 %0
}

func @two() -> i32 {
.LBB1:
    %0 = call i32 @v(i32 1, i32 2)
    ret i32 %0
}

func @one() -> i32 {
.LBB2:
    %0 = call i32 @v(i32 1)
    ret i32 %0
}";
    assert_eq!(outcome(src, "two", &[]), ret(2));
    assert_eq!(
        outcome(src, "one", &[]),
        undefined_at(Ub::BadCall, "v", 0, Some(0))
    );
}

#[test]
fn call_results_assigned_on_one_path_are_tracked() {
    // Post-phi-elimination: %1 comes from a call on one arm and a copy on the other.
    let src = "
func @seven() -> i32 {
.LBB0:
    ret i32 7
}

func @f(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    condbr %0, .LBB2, .LBB3
.LBB2:
    %1 = call i32 @seven()
    br .LBB4
.LBB3:
    %1 = copy i32 3
    br .LBB4
.LBB4:
    ret i32 %1
}";
    assert_eq!(outcome(src, "f", &[1]), ret(7));
    assert_eq!(outcome(src, "f", &[0]), ret(3));
}

#[test]
fn inputs_that_cannot_run_are_errors() {
    let err = |src: &str, func: &str, args: &[i64]| {
        try_run(src, func, args, &RunConfig::default())
            .expect_err("should not run")
            .message
    };
    assert!(err(FIB, "nope", &[]).contains("@nope"));
    assert!(err(FIB, "fib", &[]).contains("1 argument"));
    assert!(err(FIB, "fib", &[1, 2]).contains("2 given"));
    let unsupported = "
declare @getppid() -> i32

func @f() -> i32 {
.LBB0:
    %0 = call i32 @getppid()
    ret i32 0
}";
    assert!(err(unsupported, "f", &[]).contains("@getppid"));
    // Whose reason it is travels with the error: the oracle's model stops short, and
    // the harness cannot call a missing entry; neither is malformed IR.
    let kind = |src: &str, func: &str| {
        try_run(src, func, &[], &RunConfig::default())
            .expect_err("should not run")
            .kind
    };
    assert_eq!(kind(unsupported, "f"), InterpErrorKind::OutsideModel);
    assert_eq!(kind(FIB, "nope"), InterpErrorKind::Entry);
    // Named only by a block no path reaches (c-torture's `link_error`): it runs.
    let dead_only = "
declare @link_error() -> void

func @f() -> i32 {
.LBB0:
    ret i32 0
.LBB1:
    call void @link_error()
    ret i32 1
}";
    assert_eq!(
        try_run(dead_only, "f", &[], &RunConfig::default())
            .expect("runs")
            .outcome,
        Outcome::Returned(Some(0))
    );
    let undefined = "
func @f() -> i32 {
.LBB0:
    %0 = call i32 @missing()
    ret i32 %0
}";
    assert!(err(undefined, "f", &[]).contains("@missing"));
    let bad_decl = "
declare @putchar(i32, i32) -> i32

func @f() -> i32 {
.LBB0:
    ret i32 0
}";
    assert!(err(bad_decl, "f", &[]).contains("@putchar"));
    let bad_width = try_run(
        FIB,
        "fib",
        &[1],
        &RunConfig {
            ptr_bytes: 3,
            ..RunConfig::default()
        },
    );
    assert!(bad_width.is_err());
}

#[test]
fn a_program_runs_many_times() {
    let program = Program::new(&module(FIB), &RunConfig::default()).unwrap();
    for (n, f) in [(5, 5), (6, 8), (7, 13), (5, 5)] {
        let r = program.run("fib", &[n]).unwrap();
        assert_eq!(r.outcome, Outcome::Returned(Some(f)));
    }
}
