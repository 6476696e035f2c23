//! Memory: initialisation, bounds, dead frames, constants, pointer provenance through
//! memory and integer casts, at both pointer widths.

mod common;
use common::*;
use oracle::{Program, RunConfig, Ub};

const WIDTHS: [u32; 2] = [4, 8];

#[test]
fn reading_bytes_never_written_is_undefined() {
    let src = "
func @f() -> i32 {
.LBB0:
    %0 = alloca i32, 4, 4
    %1 = load i32 %0
    ret i32 %1
}

func @partial() -> i32 {
.LBB1:
    %0 = alloca i32, 4, 4
    store i8 1, %0
    %1 = load i32 %0
    ret i32 %1
}

func @bytes() -> i8 {
.LBB2:
    %0 = alloca i32, 4, 4
    store i32 287454020, %0
    %1 = gep %0, 1
    %2 = load i8 %1
    ret i8 %2
}";
    for pb in WIDTHS {
        let r = |f: &str| run_cfg(src, f, &[], &cfg(pb)).outcome;
        assert_eq!(r("f"), undefined_at(Ub::UninitRead, "f", 0, Some(1)));
        assert_eq!(
            r("partial"),
            undefined_at(Ub::UninitRead, "partial", 1, Some(2))
        );
        // 287454020 = 0x11223344, little-endian: byte 1 is 0x33 = 51.
        assert_eq!(r("bytes"), ret(51));
    }
}

#[test]
fn accesses_out_of_bounds_are_undefined_but_gep_is_not() {
    let src = "
func @at(i64) -> i32 {
.LBB0:
    %0 = paramref 0, i64
    %1 = alloca i32, 8, 4
    store i32 1, %1
    %2 = gep %1, 4
    store i32 2, %2
    %3 = gep %1, %0
    %4 = load i32 %3
    ret i32 %4
}

func @far_and_back() -> i32 {
.LBB1:
    %0 = alloca i32, 4, 4
    store i32 9, %0
    %1 = gep %0, 1073741824
    %2 = gep %1, -1073741824
    %3 = load i32 %2
    ret i32 %3
}

func @wide() -> i64 {
.LBB2:
    %0 = alloca i32, 4, 4
    store i32 9, %0
    %1 = load i64 %0
    ret i64 %1
}";
    for pb in WIDTHS {
        let at = |off: i64| run_cfg(src, "at", &[off], &cfg(pb)).outcome;
        assert_eq!(at(0), ret(1));
        assert_eq!(at(4), ret(2));
        // Bytes 2..6 are 00 00 02 00 (little-endian): 0x00020000.
        assert_eq!(at(2), ret(131072));
        let oob = undefined_at(Ub::OutOfBounds, "at", 0, Some(6));
        assert_eq!(at(8), oob, "past the end, ptr_bytes {pb}");
        assert_eq!(at(5), oob, "straddling the end");
        assert_eq!(at(-4), oob, "before the start");
        let run = |f: &str| run_cfg(src, f, &[], &cfg(pb)).outcome;
        assert_eq!(run("far_and_back"), ret(9));
        assert_eq!(ub_of(&run("wide")), Ub::OutOfBounds);
    }
    // With 8-byte pointers an allocation keeps its identity 2 GiB either way.
    assert_eq!(
        outcome(src, "at", &[1 << 20]),
        undefined_at(Ub::OutOfBounds, "at", 0, Some(6))
    );
}

#[test]
fn slots_of_returned_frames_are_dead() {
    let src = "
func @leak() -> ptr {
.LBB0:
    %0 = alloca i32, 4, 4
    store i32 5, %0
    ret ptr %0
}

func @load() -> i32 {
.LBB1:
    %0 = call ptr @leak()
    %1 = load i32 %0
    ret i32 %1
}

func @store() -> void {
.LBB2:
    %0 = call ptr @leak()
    store i32 1, %0
    ret
}";
    for pb in WIDTHS {
        let r = |f: &str| run_cfg(src, f, &[], &cfg(pb)).outcome;
        assert_eq!(r("load"), undefined_at(Ub::DeadFrame, "load", 1, Some(1)));
        assert_eq!(r("store"), undefined_at(Ub::DeadFrame, "store", 2, Some(1)));
    }
}

#[test]
fn constants_cannot_be_written() {
    let src = "
global @c : 4 align 4 const = [i32 7]

func @f() -> i32 {
.LBB0:
    %0 = globaladdr @c
    %1 = load i32 %0
    store i32 1, %0
    ret i32 %1
}";
    assert_eq!(
        outcome(src, "f", &[]),
        undefined_at(Ub::WriteToConst, "f", 0, Some(2))
    );
}

#[test]
fn every_run_starts_from_fresh_globals() {
    let src = "
global @n : 4 align 4 = [i32 41]

func @bump() -> i32 {
.LBB0:
    %0 = globaladdr @n
    %1 = load i32 %0
    %2 = add i32 %1, 1
    store i32 %2, %0
    ret i32 %2
}";
    let program = Program::new(&module(src), &RunConfig::default()).unwrap();
    for _ in 0..3 {
        assert_eq!(program.run("bump", &[]).unwrap().outcome, ret(42));
    }
}

#[test]
fn global_initializers() {
    let src = |pb: u32| {
        format!(
            "
global @g : 8 align 4 = [i32 6, i32 7]
global @t : 16 align 8 = [ptr @g, ptr @g+4]
global @r : 8 align 4 = [i32 1]
global @z : 16 align 16 = zeroinit
global @s : 3 align 1 = [str \"hi\\00\"]

func @f() -> i32 {{
.LBB0:
    %0 = globaladdr @t
    %1 = gep %0, {pb}
    %2 = load ptr %1
    %3 = load i32 %2
    %4 = load ptr %0
    %5 = load i32 %4
    %6 = mul i32 %3, 10
    %7 = add i32 %6, %5
    ret i32 %7
}}

func @rest() -> i32 {{
.LBB1:
    %0 = globaladdr @r
    %1 = gep %0, 4
    %2 = load i32 %1
    %3 = globaladdr @z
    %4 = gep %3, 12
    %5 = load i32 %4
    %6 = add i32 %2, %5
    %7 = globaladdr @s
    %8 = gep %7, 1
    %9 = load i8 %8
    %10 = cast i8 %9 to i32
    %11 = add i32 %6, %10
    ret i32 %11
}}"
        )
    };
    for pb in WIDTHS {
        let s = src(pb);
        // @t holds &@g[0] (6) and &@g[1] (7): 7 * 10 + 6.
        assert_eq!(run_cfg(&s, "f", &[], &cfg(pb)).outcome, ret(76));
        // Zero-filled rest of @r, zeroinit @z, and 'i' = 105.
        assert_eq!(run_cfg(&s, "rest", &[], &cfg(pb)).outcome, ret(105));
    }
}

#[test]
fn pointers_keep_their_provenance_through_memory() {
    let src = |pb: u32| {
        format!(
            "
func @f() -> i32 {{
.LBB0:
    %0 = alloca i32, 4, 4
    store i32 99, %0
    %1 = alloca ptr, 8, 8
    store ptr %0, %1
    %2 = alloca ptr, 8, 8
    memcpy %2, %1, {pb}
    %3 = load ptr %2
    %4 = load i32 %3
    ret i32 %4
}}"
        )
    };
    for pb in WIDTHS {
        assert_eq!(run_cfg(&src(pb), "f", &[], &cfg(pb)).outcome, ret(99));
    }
}

#[test]
fn pointers_round_trip_through_integers() {
    let through = |int: &str| {
        format!(
            "
func @f() -> i32 {{
.LBB0:
    %0 = alloca i32, 8, 4
    store i32 1, %0
    %1 = gep %0, 4
    store i32 2, %1
    %2 = cast ptr %0 to {int}
    %3 = add {int} %2, 4
    %4 = cast {int} %3 to ptr
    %5 = load i32 %4
    ret i32 %5
}}"
        )
    };
    for pb in WIDTHS {
        assert_eq!(run_cfg(&through("i64"), "f", &[], &cfg(pb)).outcome, ret(2));
        assert_eq!(run_cfg(&through("u64"), "f", &[], &cfg(pb)).outcome, ret(2));
    }
    // A pointer-width integer is enough...
    assert_eq!(run_cfg(&through("u32"), "f", &[], &cfg(4)).outcome, ret(2));
    // ...and a narrower one loses the pointer.
    assert_eq!(
        run_cfg(&through("i32"), "f", &[], &cfg(8)).outcome,
        undefined_at(Ub::InvalidPointer, "f", 0, Some(7))
    );
}

#[test]
fn pointer_comparisons() {
    let src = "
func @f() -> i8 {
.LBB0:
    %0 = alloca i32, 8, 4
    %1 = gep %0, 4
    %2 = cmp ult ptr %0, %1
    %3 = cmp eq ptr %0, 0
    %4 = cmp ne ptr %1, %0
    %5 = cmp eq ptr 0, 0
    %6 = cmp ugt ptr %1, %0
    %7 = shl i8 %3, 1
    %8 = shl i8 %4, 2
    %9 = shl i8 %5, 3
    %10 = shl i8 %6, 4
    %11 = or i8 %2, %7
    %12 = or i8 %11, %8
    %13 = or i8 %12, %9
    %14 = or i8 %13, %10
    ret i8 %14
}";
    // Bits: ult 1, eq-null 0, ne 1, null==null 1, ugt 1 -> 0b11101 = 29.
    for pb in WIDTHS {
        assert_eq!(run_cfg(src, "f", &[], &cfg(pb)).outcome, ret(29));
    }
}

#[test]
fn memcpy_copies_initialisation_and_rejects_overlap() {
    let src = "
func @f(i64) -> i32 {
.LBB0:
    %0 = paramref 0, i64
    %1 = alloca i64, 8, 8
    %2 = alloca i64, 8, 8
    store i32 5, %1
    memcpy %2, %1, 8
    %3 = gep %2, %0
    %4 = load i32 %3
    ret i32 %4
}

func @overlap() -> void {
.LBB1:
    %0 = alloca i64, 16, 8
    store i64 0, %0
    %1 = gep %0, 8
    store i64 0, %1
    %2 = gep %0, 4
    memcpy %2, %0, 8
    ret
}";
    for pb in WIDTHS {
        let r = |f: &str, args: &[i64]| run_cfg(src, f, args, &cfg(pb)).outcome;
        assert_eq!(r("f", &[0]), ret(5));
        assert_eq!(r("f", &[4]), undefined_at(Ub::UninitRead, "f", 0, Some(6)));
        assert_eq!(
            r("overlap", &[]),
            undefined_at(Ub::MemcpyOverlap, "overlap", 1, Some(5))
        );
    }
}

#[test]
fn null_integers_and_functions_are_not_data_pointers() {
    let src = "
func @null() -> i32 {
.LBB0:
    %0 = load i32 0
    ret i32 %0
}

func @int() -> i32 {
.LBB1:
    %0 = cast i64 1234 to ptr
    %1 = load i32 %0
    ret i32 %1
}

func @code() -> void {
.LBB2:
    %0 = globaladdr @null
    store i32 0, %0
    ret
}";
    for pb in WIDTHS {
        let r = |f: &str| ub_of(&run_cfg(src, f, &[], &cfg(pb)).outcome);
        assert_eq!(r("null"), Ub::InvalidPointer);
        assert_eq!(r("int"), Ub::InvalidPointer);
        assert_eq!(r("code"), Ub::InvalidPointer);
    }
}

#[test]
fn each_alloca_execution_is_a_fresh_slot() {
    let src = "
func @f() -> i8 {
.LBB0:
    br .LBB1
.LBB1:
    %0 = phi i32 [0, .LBB0], [%3, .LBB1]
    %1 = phi ptr [0, .LBB0], [%2, .LBB1]
    %2 = alloca i32, 4, 4
    %3 = add i32 %0, 1
    %4 = cmp slt i32 %3, 2
    condbr %4, .LBB1, .LBB2
.LBB2:
    %5 = cmp ne ptr %1, %2
    ret i8 %5
}";
    for pb in WIDTHS {
        assert_eq!(run_cfg(src, "f", &[], &cfg(pb)).outcome, ret(1));
    }
}

#[test]
fn a_huge_stack_slot_is_a_stack_overflow() {
    let src = "
func @f() -> void {
.LBB0:
    %0 = alloca i8, 4000000000, 1
    ret
}";
    assert_eq!(
        outcome(src, "f", &[]),
        undefined_at(Ub::StackOverflow, "f", 0, Some(0))
    );
}
