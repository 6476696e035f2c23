//! `Program::run_main`: `main` started as a hosted C program, with `argc`, a real `argv`
//! (and `envp`) in the run's memory, at both pointer widths.
//!
//! Expected values are worked out by hand from the layout C11 5.1.2.2.1 prescribes:
//! `argv[0]` points to the bytes of "a.out" then NUL ('a' = 97, '.' = 46, 'o' = 111,
//! 'u' = 117, 't' = 116), `argv[argc]` is null, `argv[i]` sits `i * ptr_bytes` bytes
//! after `argv`.

mod common;
use common::*;
use oracle::interp::PROGRAM_NAME;
use oracle::{Outcome, Program, RunResult, Ub};

const WIDTHS: [u32; 2] = [4, 8];

fn run_main(src: &str, ptr_bytes: u32, argv: &[&[u8]]) -> RunResult {
    let p = Program::new(&module(src), &cfg(ptr_bytes)).expect("the test module prepares");
    p.run_main(argv)
        .unwrap_or_else(|e| panic!("run_main refused: {e}"))
}

fn main_error(src: &str, argv: &[&[u8]]) -> String {
    let p = Program::new(&module(src), &cfg(8)).expect("the test module prepares");
    match p.run_main(argv) {
        Err(e) => e.message,
        Ok(r) => panic!("expected an InterpError, ran to {}", r.outcome),
    }
}

/// Returns `argc << 32 | argv[0][0] << 24 | argv[0][4] << 16 | argv[0][5] << 8 |
/// (argv[argc] == null)`, indexing `argv` by `argc` scaled to the pointer width.
fn reader(pb: u32) -> String {
    format!(
        "func @main(i32, ptr) -> i64 {{
.LBB0:
    %0 = paramref 0, i32
    %1 = paramref 1, ptr
    %2 = load ptr %1
    %3 = load u8 %2
    %4 = gep %2, 4
    %5 = load u8 %4
    %6 = gep %2, 5
    %7 = load u8 %6
    %8 = mul i32 %0, {pb}
    %9 = cast i32 %8 to {pw}
    %10 = gep %1, %9
    %11 = load ptr %10
    %12 = cmp eq ptr %11, 0
    %13 = cast i32 %0 to i64
    %14 = shl i64 %13, 32
    %15 = cast u8 %3 to i64
    %16 = shl i64 %15, 24
    %17 = cast u8 %5 to i64
    %18 = shl i64 %17, 16
    %19 = cast u8 %7 to i64
    %20 = shl i64 %19, 8
    %21 = cast i8 %12 to i64
    %22 = or i64 %14, %16
    %23 = or i64 %22, %18
    %24 = or i64 %23, %20
    %25 = or i64 %24, %21
    ret i64 %25
}}",
        pw = if pb == 4 { "i32" } else { "i64" }
    )
}

#[test]
fn main_reads_argc_the_program_name_and_the_null_terminator() {
    assert_eq!(PROGRAM_NAME, "a.out");
    for pb in WIDTHS {
        let r = run_main(&reader(pb), pb, &[b"a.out"]);
        // argc 1; 'a' = 0x61; 't' = 0x74; the NUL after "a.out" (bits 8..16 zero);
        // argv[1] is null.
        let want = (1i64 << 32) | (0x61 << 24) | (0x74 << 16) | 1;
        assert_eq!(r.outcome, ret(want), "ptr_bytes {pb}");
    }
}

#[test]
fn several_arguments_each_get_their_string_and_argv_ends_in_null() {
    for pb in WIDTHS {
        // argc 3; argv[0] "xyzuvw": 'x' = 0x78, [4] 'v' = 0x76, [5] 'w' = 0x77; argv[3]
        // (past "b", "") is null.
        let r = run_main(&reader(pb), pb, &[b"xyzuvw", b"b", b""]);
        let want = (3i64 << 32) | (0x78 << 24) | (0x76 << 16) | (0x77 << 8) | 1;
        assert_eq!(r.outcome, ret(want), "ptr_bytes {pb}");
    }
}

/// `argv[0][0] = 'X'`, `argv[0][4] = '!'`, then returns `strcmp(argv[0], "X.ou!") * 1000
/// + argv[0][0]`, and replaces `argv[1]` (the array is writable too) with `argv[0]`.
fn writer(pb: u32) -> String {
    format!(
        "global @want : 6 align 1 const = [str \"X.ou!\\00\"]
declare @strcmp(ptr, ptr) -> i32

func @main(i32, ptr) -> i32 {{
.LBB0:
    %1 = paramref 1, ptr
    %2 = load ptr %1
    store u8 88, %2
    %3 = gep %2, 4
    store u8 33, %3
    %4 = gep %1, {pb}
    store ptr %2, %4
    %5 = load ptr %4
    %6 = globaladdr @want
    %7 = call i32 @strcmp(ptr %5, ptr %6)
    %8 = mul i32 %7, 1000
    %9 = load u8 %5
    %10 = cast u8 %9 to i32
    %11 = add i32 %8, %10
    ret i32 %11
}}"
    )
}

#[test]
fn the_argument_strings_and_the_array_are_writable() {
    for pb in WIDTHS {
        let r = run_main(&writer(pb), pb, &[b"a.out"]);
        // strcmp of equal strings is 0; the byte written is 'X' = 88.
        assert_eq!(r.outcome, ret(88), "ptr_bytes {pb}");
    }
}

/// `main(i32, ptr, ptr)` loading `envp[0]` and returning `(envp[0] == null)`; then
/// (when `past` is set) reading `envp[1]`.
fn envp_reader(pb: u32, past: bool) -> String {
    let extra = if past {
        format!("    %5 = gep %2, {pb}\n    %6 = load ptr %5\n")
    } else {
        String::new()
    };
    format!(
        "func @main(i32, ptr, ptr) -> i32 {{
.LBB0:
    %2 = paramref 2, ptr
    %3 = load ptr %2
    %4 = cmp eq ptr %3, 0
{extra}    %7 = cast i8 %4 to i32
    ret i32 %7
}}"
    )
}

#[test]
fn envp_holds_only_null() {
    for pb in WIDTHS {
        let r = run_main(&envp_reader(pb, false), pb, &[b"a.out"]);
        assert_eq!(r.outcome, ret(1), "ptr_bytes {pb}");
        let r = run_main(&envp_reader(pb, true), pb, &[b"a.out"]);
        assert_eq!(r.outcome, undefined_at(Ub::OutOfBounds, "main", 0, Some(4)));
    }
}

#[test]
fn reads_past_the_argument_objects_are_out_of_bounds() {
    for pb in WIDTHS {
        // argv[2] when argc is 1: argv holds two pointers.
        let past_array = format!(
            "func @main(i32, ptr) -> i32 {{
.LBB0:
    %1 = paramref 1, ptr
    %2 = gep %1, {}
    %3 = load ptr %2
    ret i32 0
}}",
            2 * pb
        );
        let r = run_main(&past_array, pb, &[b"a.out"]);
        assert_eq!(r.outcome, undefined_at(Ub::OutOfBounds, "main", 0, Some(2)));
        // argv[0][6]: "a.out" and its NUL are 6 bytes.
        let past_string = "func @main(i32, ptr) -> i32 {
.LBB0:
    %1 = paramref 1, ptr
    %2 = load ptr %1
    %3 = gep %2, 6
    %4 = load u8 %3
    ret i32 0
}";
        let r = run_main(past_string, pb, &[b"a.out"]);
        assert_eq!(r.outcome, undefined_at(Ub::OutOfBounds, "main", 0, Some(3)));
    }
}

#[test]
fn main_without_parameters_gets_nothing_and_setup_costs_no_fuel() {
    let src = "func @main() -> i32 {
.LBB0:
    ret i32 7
}";
    for pb in WIDTHS {
        let r = run_main(src, pb, &[b"a.out"]);
        assert_eq!(r.outcome, ret(7));
        assert_eq!(r.steps, 1);
    }
    // Laying out argv is not charged: `ret` is the only step.
    let src = "func @main(i32, ptr) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    ret i32 %0
}";
    for pb in WIDTHS {
        let r = run_main(src, pb, &[b"a.out", b"x"]);
        assert_eq!(r.outcome, ret(2));
        assert_eq!(r.steps, 2);
    }
}

#[test]
fn argc_of_any_integer_type_that_holds_it() {
    let src = |ty: &str| {
        format!(
            "func @main({ty}, ptr) -> i64 {{
.LBB0:
    %0 = paramref 0, {ty}
    %1 = cast {ty} %0 to i64
    ret i64 %1
}}"
        )
    };
    let many: Vec<&[u8]> = vec![b"a"; 200];
    assert_eq!(run_main(&src("u8"), 8, &many).outcome, ret(200));
    assert_eq!(run_main(&src("i64"), 4, &many).outcome, ret(200));
    // 200 does not fit i8 (max 127).
    let e = main_error(&src("i8"), &many);
    assert!(e.contains("argc = 200") && e.contains("i8"), "{e}");
    assert_eq!(run_main(&src("i8"), 8, &many[..127]).outcome, ret(127));
}

#[test]
fn main_of_no_hosted_shape_and_bad_arguments_are_refused() {
    let e = main_error("func @main(ptr) -> i32 {\n.LBB0:\n    ret i32 0\n}", &[]);
    assert!(
        e.contains("cannot be called as `main`") && e.contains("(ptr)"),
        "{e}"
    );
    let e = main_error(
        "func @main(i32, i32) -> i32 {\n.LBB0:\n    ret i32 0\n}",
        &[b"a.out"],
    );
    assert!(e.contains("(i32, i32)"), "{e}");
    let e = main_error(
        "func @main(i32, ptr, ptr, ptr) -> i32 {\n.LBB0:\n    ret i32 0\n}",
        &[b"a.out"],
    );
    assert!(e.contains("cannot be called as `main`"), "{e}");
    let e = main_error("func @f() -> i32 {\n.LBB0:\n    ret i32 0\n}", &[]);
    assert!(e.contains("no function @main"), "{e}");
    let e = main_error(
        "func @main(i32, ptr) -> i32 {\n.LBB0:\n    ret i32 0\n}",
        &[b"a\0b"],
    );
    assert!(e.contains("argv[0] contains a NUL"), "{e}");
}

#[test]
fn each_run_starts_from_fresh_arguments() {
    // The first run writes 'X' into argv[0][0]; the second must still read 'a'.
    let src = "func @main(i32, ptr) -> i32 {
.LBB0:
    %1 = paramref 1, ptr
    %2 = load ptr %1
    %3 = load u8 %2
    store u8 88, %2
    %4 = cast u8 %3 to i32
    ret i32 %4
}";
    for pb in WIDTHS {
        let p = Program::new(&module(src), &cfg(pb)).unwrap();
        for _ in 0..2 {
            let r = p.run_main(&[b"a.out"]).unwrap();
            assert_eq!(r.outcome, Outcome::Returned(Some(97)));
        }
    }
}
