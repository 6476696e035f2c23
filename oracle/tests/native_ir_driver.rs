//! The IR driver end to end on every target: a C "callee" standing in for phicc's
//! assembly (same names, same C ABI) is linked with `driver_source`'s `main`, and every
//! call's result, exit, stdout and stderr protocol is checked against values written by
//! hand (each IR type's extremes, a call with more arguments than registers, exits and
//! aborts after printing, a symbol name that is no C identifier). Also `rename_main` and
//! `export_entries` on parsed IR, with the oracle running the renamed module.

mod native_common;

use compiler::ir::text::{parse_module, print_module};
use compiler::ir::IrType::{self, *};
use compiler::target::Target;
use oracle::native::compare::{judge_against_oracle, NativeVerdict};
use oracle::native::ir_driver::{call_returned, export_entries, DRIVER_MISUSE_STATUS};
use oracle::native::{
    build, driver_source, parse_result, rename_main, run, BuildConfig, EntryCall, Exit, RunLimits,
    Source, ENTRY_MAIN_RENAME,
};
use oracle::{Outcome, RunConfig, RunResult, Trap};

/// The functions the driver calls, in C. Each `id_*` returns its argument; `many` checks
/// ten arguments (more than any target passes in registers) against the values the test
/// passes and returns 0, or the 1-based position of the first wrong one.
const CALLEE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
signed char ret_i8(void) { return -128; }
unsigned char ret_u8(void) { return 255; }
short ret_i16(void) { return -32768; }
unsigned short ret_u16(void) { return 65535; }
int ret_i32(void) { return -2147483647 - 1; }
unsigned ret_u32(void) { return 4294967295u; }
long long ret_i64(void) { return -9223372036854775807LL - 1; }
unsigned long long ret_u64(void) { return 18446744073709551615ULL; }
signed char id_i8(signed char x) { return x; }
unsigned char id_u8(unsigned char x) { return x; }
short id_i16(short x) { return x; }
unsigned short id_u16(unsigned short x) { return x; }
int id_i32(int x) { return x; }
unsigned id_u32(unsigned x) { return x; }
long long id_i64(long long x) { return x; }
unsigned long long id_u64(unsigned long long x) { return x; }
long long many(signed char a, unsigned char b, short c, unsigned short d, int e,
               unsigned f, long long g, unsigned long long h, signed char i, long long j)
{
	if (a != -128) return 1;
	if (b != 255) return 2;
	if (c != -32768) return 3;
	if (d != 65535) return 4;
	if (e != -2147483647 - 1) return 5;
	if (f != 4294967295u) return 6;
	if (g != -9223372036854775807LL - 1) return 7;
	if (h != 18446744073709551615ULL) return 8;
	if (i != 127) return 9;
	if (j != 9223372036854775807LL) return 10;
	return 0;
}
void say(int x) { printf("say %d\n", x); }
int quit(int code) { printf("bye"); exit(code); }
int boom(void) { printf("partial"); abort(); }
static int cell;
void *address(void) { return &cell; }
int is_null(void *p) { return p == 0; }
int odd_name(void) __asm__("odd.name");
int odd_name(void) { return 7; }
"#;

/// What a call must do, by hand.
enum Want {
    Returns(Option<i64>, &'static str),
    Exits(i32, &'static str),
    Traps(Trap, &'static str),
    /// Returns some pointer (its value cannot be predicted).
    ReturnsAPointer,
}

fn call(func: &str, params: &[IrType], ret: IrType, args: &[i64]) -> EntryCall {
    EntryCall {
        func: func.into(),
        params: params.to_vec(),
        ret,
        args: args.to_vec(),
    }
}

fn cases() -> Vec<(EntryCall, Want)> {
    use Want::*;
    let ret = |v: i64| Returns(Some(v), "");
    vec![
        (call("ret_i8", &[], I8, &[]), ret(-128)),
        (call("ret_u8", &[], U8, &[]), ret(255)),
        (call("ret_i16", &[], I16, &[]), ret(-32768)),
        (call("ret_u16", &[], U16, &[]), ret(65535)),
        (call("ret_i32", &[], I32, &[]), ret(-2147483648)),
        (call("ret_u32", &[], U32, &[]), ret(4294967295)),
        (call("ret_i64", &[], I64, &[]), ret(i64::MIN)),
        // u64's canonical form is its bit pattern as i64.
        (call("ret_u64", &[], U64, &[]), ret(-1)),
        (call("id_i8", &[I8], I8, &[-128]), ret(-128)),
        (call("id_i8", &[I8], I8, &[127]), ret(127)),
        (call("id_u8", &[U8], U8, &[255]), ret(255)),
        (call("id_i16", &[I16], I16, &[-32768]), ret(-32768)),
        (call("id_u16", &[U16], U16, &[65535]), ret(65535)),
        (
            call("id_i32", &[I32], I32, &[-2147483648]),
            ret(-2147483648),
        ),
        (call("id_u32", &[U32], U32, &[4294967295]), ret(4294967295)),
        (call("id_i64", &[I64], I64, &[i64::MIN]), ret(i64::MIN)),
        (call("id_i64", &[I64], I64, &[i64::MAX]), ret(i64::MAX)),
        (call("id_u64", &[U64], U64, &[-1]), ret(-1)),
        (call("id_u64", &[U64], U64, &[i64::MIN]), ret(i64::MIN)),
        (
            call(
                "many",
                &[I8, U8, I16, U16, I32, U32, I64, U64, I8, I64],
                I64,
                &[
                    -128,
                    255,
                    -32768,
                    65535,
                    -2147483648,
                    4294967295,
                    i64::MIN,
                    -1,
                    127,
                    i64::MAX,
                ],
            ),
            ret(0),
        ),
        (call("say", &[I32], Void, &[-5]), Returns(None, "say -5\n")),
        // 300 & 0xff = 44 is what the kernel keeps.
        (call("quit", &[I32], I32, &[300]), Exits(300, "bye")),
        // Unbuffered stdout: what was printed before abort() is not lost.
        (call("boom", &[], I32, &[]), Traps(Trap::Abort, "partial")),
        (call("address", &[], Ptr, &[]), ReturnsAPointer),
        (call("is_null", &[Ptr], I32, &[0]), ret(1)),
        (call("odd.name", &[], I32, &[]), ret(7)),
    ]
}

fn round_trip(t: Target) {
    native_common::require(t);
    let name = t.name();
    let cases = cases();
    let calls: Vec<EntryCall> = cases.iter().map(|(c, _)| c.clone()).collect();
    let driver = driver_source(&calls, t);
    let b = build(
        t,
        &[Source::C(CALLEE), Source::C(&driver)],
        &BuildConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: the driver does not build: {e}\n{driver}"));
    let limits = RunLimits::default();
    for (index, (c, want)) in cases.iter().enumerate() {
        let what = format!("{name}: call {index} @{}{:?}", c.func, c.args);
        let arg = index.to_string();
        let exec = run(t, &b, &[&arg], &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
        let result = parse_result(&exec.stderr);
        let stderr = String::from_utf8_lossy(&exec.stderr);
        let expected = |outcome: Outcome, stdout: &str| RunResult {
            outcome,
            stdout: stdout.as_bytes().to_vec(),
            steps: 0,
        };
        let oracle = match *want {
            Want::Returns(v, stdout) => {
                assert_eq!(exec.exit, Exit::Code(0), "{what}: {stderr}");
                assert_eq!(result, v, "{what}: {stderr}");
                assert!(call_returned(&exec.stderr), "{what}: {stderr}");
                expected(Outcome::Returned(v), stdout)
            }
            Want::Exits(code, stdout) => {
                assert_eq!(exec.exit, Exit::Code(code & 0xff), "{what}");
                assert!(
                    !call_returned(&exec.stderr) && result.is_none(),
                    "{what}: {stderr}"
                );
                expected(Outcome::Exited(code), stdout)
            }
            Want::Traps(trap, stdout) => {
                assert!(
                    matches!(exec.exit, Exit::Signal(_)),
                    "{what}: {:?}",
                    exec.exit
                );
                assert!(
                    !call_returned(&exec.stderr) && result.is_none(),
                    "{what}: {stderr}"
                );
                expected(Outcome::Trapped(trap), stdout)
            }
            Want::ReturnsAPointer => {
                assert_eq!(exec.exit, Exit::Code(0), "{what}");
                assert!(result.is_some_and(|p| p != 0), "{what}: {stderr}");
                continue;
            }
        };
        assert_eq!(
            judge_against_oracle(&oracle, &exec, result),
            NativeVerdict::Agrees,
            "{what}: stdout {:?}, stderr {stderr}",
            String::from_utf8_lossy(&exec.stdout)
        );
    }
    // Without a call index the driver refuses.
    let misuse = run(t, &b, &[], &limits).unwrap();
    assert_eq!(misuse.exit, Exit::Code(DRIVER_MISUSE_STATUS), "{name}");
    let misuse = run(t, &b, &["999"], &limits).unwrap();
    assert_eq!(misuse.exit, Exit::Code(DRIVER_MISUSE_STATUS), "{name}");
}

#[test]
fn round_trip_x86_64() {
    round_trip(Target::X86_64);
}

#[test]
fn round_trip_i686() {
    round_trip(Target::I686);
}

#[test]
fn round_trip_aarch64() {
    round_trip(Target::Aarch64);
}

#[test]
fn round_trip_riscv64() {
    round_trip(Target::Riscv64);
}

#[test]
fn an_impossible_call_fails_the_build_with_its_reason() {
    for t in native_common::all_targets() {
        let driver = driver_source(&[call("f", &[I32, I32], I32, &[1])], t);
        match build(t, &[Source::C(&driver)], &BuildConfig::default()) {
            Err(oracle::native::BuildError::Rejected(m)) => {
                assert!(
                    m.contains("@f takes 2 argument(s), 1 given"),
                    "{}: {m}",
                    t.name()
                )
            }
            other => panic!("{}: {other:?}", t.name()),
        }
    }
}

const WITH_MAIN: &str = "\
global @table : 16 align 8 = [ptr @main, ptr @twice]

func static @twice(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = globaladdr @main
    %2 = call i32 @main(i32 %0)
    %3 = call i32 %1(i32 %2)
    ret i32 %3
}

func @main(i32) -> i32 {
.LBB1:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    ret i32 %1
}
";

#[test]
fn rename_main_renames_every_reference() {
    let mut m = parse_module(WITH_MAIN).unwrap();
    let before = oracle::run(&m, "main", &[5], &RunConfig::default()).unwrap();
    assert!(rename_main(&mut m));
    let want = WITH_MAIN.replace("@main", &format!("@{ENTRY_MAIN_RENAME}"));
    assert_eq!(print_module(&m), want);
    // Same behaviour under the new name: main(5) = 6, twice(5) = main(main(5)) = 7.
    let after = oracle::run(&m, ENTRY_MAIN_RENAME, &[5], &RunConfig::default()).unwrap();
    assert_eq!(before.outcome, Outcome::Returned(Some(6)));
    assert_eq!(after.outcome, Outcome::Returned(Some(6)));
    let twice = oracle::run(&m, "twice", &[5], &RunConfig::default()).unwrap();
    assert_eq!(twice.outcome, Outcome::Returned(Some(7)));
    // No @main left: nothing to do.
    assert!(!rename_main(&mut m));
    assert_eq!(print_module(&m), want);
}

#[test]
fn export_entries_makes_called_static_functions_global() {
    let mut m = parse_module(WITH_MAIN).unwrap();
    let calls = [
        call("twice", &[I32], I32, &[1]),
        call("main", &[I32], I32, &[1]),
        call("absent", &[], I32, &[]),
    ];
    assert_eq!(export_entries(&mut m, &calls), 1);
    assert!(m.functions.iter().all(|f| !f.attrs.is_static));
    assert_eq!(export_entries(&mut m, &calls), 0);
}
