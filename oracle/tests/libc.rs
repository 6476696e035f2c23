//! The libc subset end to end: output, exit and abort, heap, string and memory routines,
//! and the stdout limit.

mod common;
use common::*;
use oracle::{Outcome, RunConfig, Trap, Ub};

const DECLS: &str = "
declare @printf(ptr, ...) -> i32
declare @puts(ptr) -> i32
declare @putchar(i32) -> i32
declare @exit(i32) -> void
declare @abort() -> void
declare @malloc(u64) -> ptr
declare @calloc(u64, u64) -> ptr
declare @free(ptr) -> void
declare @memset(ptr, i32, u64) -> ptr
declare @memcpy(ptr, ptr, u64) -> ptr
declare @memcmp(ptr, ptr, u64) -> i32
declare @strcmp(ptr, ptr) -> i32
declare @strncmp(ptr, ptr, u64) -> i32
declare @strlen(ptr) -> u64
";

fn with_decls(body: &str) -> String {
    format!("{DECLS}\n{body}")
}

#[test]
fn printf_prints_and_counts() {
    let src = with_decls(
        "
global @fmt : 32 align 1 const = [str \"x = %d, %5u|%-4x|%c%%\\0a\\00\"]

func @main() -> i32 {
.LBB0:
    %0 = globaladdr @fmt
    %1 = call i32 @printf(ptr %0, i32 -42, u32 7, i32 255, i32 33)
    ret i32 %1
}",
    );
    let r = run_src(&src, "main", &[]);
    let expected = "x = -42,     7|ff  |!%\n";
    assert_eq!(String::from_utf8_lossy(&r.stdout), expected);
    assert_eq!(r.outcome, ret(expected.len() as i64));
}

#[test]
fn puts_and_putchar() {
    let src = with_decls(
        "
global @s : 3 align 1 const = [str \"hi\\00\"]

func @main() -> i32 {
.LBB0:
    %0 = globaladdr @s
    %1 = call i32 @puts(ptr %0)
    %2 = call i32 @putchar(i32 321)
    %3 = add i32 %1, %2
    ret i32 %3
}",
    );
    let r = run_src(&src, "main", &[]);
    // puts wrote 3 bytes; putchar(321) writes and returns (unsigned char)321 = 65.
    assert_eq!(r.stdout, b"hi\nA");
    assert_eq!(r.outcome, ret(68));
}

#[test]
fn exit_and_abort_keep_stdout() {
    let src = with_decls(
        "
func @bye(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = call i32 @putchar(i32 66)
    condbr %0, .LBB1, .LBB2
.LBB1:
    call void @exit(i32 3)
    unreachable
.LBB2:
    call void @abort()
    unreachable
}",
    );
    let r = run_src(&src, "bye", &[1]);
    assert_eq!(r.outcome, Outcome::Exited(3));
    assert_eq!(r.stdout, b"B");
    let r = run_src(&src, "bye", &[0]);
    assert_eq!(r.outcome, Outcome::Trapped(Trap::Abort));
    assert_eq!(r.stdout, b"B");
}

#[test]
fn heap_blocks() {
    let src = with_decls(
        "
func @roundtrip() -> i32 {
.LBB0:
    %0 = call ptr @malloc(u64 8)
    store i32 5, %0
    %1 = load i32 %0
    call void @free(ptr %0)
    ret i32 %1
}

func @uninit() -> i32 {
.LBB1:
    %0 = call ptr @malloc(u64 8)
    %1 = load i32 %0
    ret i32 %1
}

func @zeroed() -> i64 {
.LBB2:
    %0 = call ptr @calloc(u64 2, u64 4)
    %1 = load i64 %0
    ret i64 %1
}

func @after_free() -> i32 {
.LBB3:
    %0 = call ptr @malloc(u64 4)
    store i32 1, %0
    call void @free(ptr %0)
    %1 = load i32 %0
    ret i32 %1
}

func @double_free() -> void {
.LBB4:
    %0 = call ptr @malloc(u64 4)
    call void @free(ptr %0)
    call void @free(ptr %0)
    ret
}

func @too_big() -> i8 {
.LBB5:
    %0 = call ptr @malloc(u64 -1)
    %1 = cmp eq ptr %0, 0
    ret i8 %1
}",
    );
    assert_eq!(outcome(&src, "roundtrip", &[]), ret(5));
    assert_eq!(ub_of(&outcome(&src, "uninit", &[])), Ub::UninitRead);
    assert_eq!(outcome(&src, "zeroed", &[]), ret(0));
    assert_eq!(
        outcome(&src, "after_free", &[]),
        undefined_at(Ub::UseAfterFree, "after_free", 3, Some(3))
    );
    assert_eq!(
        outcome(&src, "double_free", &[]),
        undefined_at(Ub::BadLibcCall, "double_free", 4, Some(2))
    );
    assert_eq!(outcome(&src, "too_big", &[]), ret(1));
}

#[test]
fn string_and_memory_routines() {
    let src = with_decls(
        "
global @a : 4 align 1 const = [str \"abc\\00\"]
global @b : 4 align 1 const = [str \"abd\\00\"]

func @cmp() -> i32 {
.LBB0:
    %0 = globaladdr @a
    %1 = globaladdr @b
    %2 = call i32 @strcmp(ptr %0, ptr %1)
    ret i32 %2
}

func @ncmp(u64) -> i32 {
.LBB1:
    %0 = paramref 0, u64
    %1 = globaladdr @a
    %2 = globaladdr @b
    %3 = call i32 @strncmp(ptr %1, ptr %2, u64 %0)
    ret i32 %3
}

func @len() -> u64 {
.LBB2:
    %0 = globaladdr @a
    %1 = call u64 @strlen(ptr %0)
    ret u64 %1
}

func @copy_set_compare() -> i32 {
.LBB3:
    %0 = alloca i32, 4, 4
    %1 = alloca i32, 4, 4
    %2 = call ptr @memset(ptr %0, i32 7, u64 4)
    %3 = call ptr @memcpy(ptr %1, ptr %0, u64 4)
    %4 = call i32 @memcmp(ptr %0, ptr %1, u64 4)
    %5 = load i32 %1
    %6 = add i32 %4, %5
    ret i32 %6
}",
    );
    // 'c' - 'd' = -1.
    assert_eq!(outcome(&src, "cmp", &[]), ret(-1));
    assert_eq!(outcome(&src, "ncmp", &[2]), ret(0));
    assert_eq!(outcome(&src, "ncmp", &[3]), ret(-1));
    assert_eq!(outcome(&src, "len", &[]), ret(3));
    // memset 7 fills 0x07070707 = 117901063; memcmp of equal bytes is 0.
    assert_eq!(outcome(&src, "copy_set_compare", &[]), ret(117901063));
}

#[test]
fn stdout_is_limited() {
    let src = with_decls(
        "
func @spam() -> void {
.LBB0:
    br .LBB1
.LBB1:
    %0 = call i32 @putchar(i32 120)
    br .LBB1
}",
    );
    let cfg = RunConfig {
        max_stdout: 10,
        ..RunConfig::default()
    };
    let r = run_cfg(&src, "spam", &[], &cfg);
    assert_eq!(r.outcome, undefined_at(Ub::OutputLimit, "spam", 1, Some(0)));
    assert_eq!(r.stdout, b"xxxxxxxxxx");
}

#[test]
fn printf_long_follows_the_pointer_width() {
    let src = |long_ty: &str| {
        with_decls(&format!(
            "
global @fmt : 8 align 1 const = [str \"%ld %zu\\00\"]

func @main() -> i32 {{
.LBB0:
    %0 = globaladdr @fmt
    %1 = call i32 @printf(ptr %0, {long_ty} -1, {long_ty} -1)
    ret i32 0
}}"
        ))
    };
    // Under ILP32 long and size_t are 32 bits.
    let r = run_cfg(&src("i32"), "main", &[], &cfg(4));
    assert_eq!(r.outcome, ret(0));
    assert_eq!(r.stdout, b"-1 4294967295");
    let r = run_cfg(&src("i64"), "main", &[], &cfg(8));
    assert_eq!(r.stdout, b"-1 18446744073709551615");
    // A 4-byte argument for a 64-bit long is a bad call, not a guess.
    let r = run_cfg(&src("i32"), "main", &[], &cfg(8));
    assert_eq!(ub_of(&r.outcome), Ub::BadLibcCall);
}
