//! Traps happen exactly where the IR traps: division by zero and MIN / -1 at every width
//! (signed and unsigned operations, on signed and unsigned types: the operation decides)
//! raise SIGFPE (8) — on AArch64 and RISC-V, whose divide never traps, through phicc's own
//! checks — `unreachable` raises SIGILL (4), and the same operations one step away
//! return their value.
//!
//! Why: a missing trap is a miscompile the fuzzer can only see natively, and a spurious
//! one hides every other result of a program.
//!
//! Invariant: one module and one link per allocator hold every case, with the divisor a
//! value and a constant; gcc's C driver runs each case in a process of its own
//! (`forking_driver`), calling it from gcc's code (so the arguments cross the target's
//! ABI) and exiting with its result's low byte.

use super::forking_driver::{forking_limit, forking_main, split_runs, FORKING_INCLUDES};
use super::ir_driver::{c_type, c_value};
use super::phicc::assemble;
use super::process::assert_no_problems;
use super::toolchain::{gcc, require_toolchain, run_binary_for};
use compiler::backend::{RegallocMode, Target};
use compiler::ir::IrType;
use std::fmt::Write as _;

/// How a case must end.
#[derive(Clone, Copy, Debug)]
enum Ending {
    /// It returns this value (the exit status is its low byte).
    Returns(i64),
    /// It dies of this signal.
    Signal(i32),
}

use Ending::{Returns, Signal};

/// (operation, type, a, b, ending).
const CASES: &[(&str, IrType, i128, i128, Ending)] = &[
    ("sdiv", IrType::I8, -128, -1, Signal(8)),
    ("srem", IrType::I8, -128, -1, Signal(8)),
    ("sdiv", IrType::I16, -32768, -1, Signal(8)),
    ("srem", IrType::I16, -32768, -1, Signal(8)),
    ("sdiv", IrType::I32, -2147483648, -1, Signal(8)),
    ("srem", IrType::I32, -2147483648, -1, Signal(8)),
    ("sdiv", IrType::I64, i64::MIN as i128, -1, Signal(8)),
    ("srem", IrType::I64, i64::MIN as i128, -1, Signal(8)),
    ("udiv", IrType::U8, 7, 0, Signal(8)),
    ("urem", IrType::U16, 7, 0, Signal(8)),
    ("udiv", IrType::U32, 7, 0, Signal(8)),
    ("urem", IrType::U64, 7, 0, Signal(8)),
    ("sdiv", IrType::I32, 7, 0, Signal(8)),
    ("srem", IrType::I64, 7, 0, Signal(8)),
    ("srem", IrType::I64, 0, 0, Signal(8)),
    ("udiv", IrType::I8, -1, 0, Signal(8)),
    // Signedness comes from the operation: sdiv u8 128, 255 is -128 / -1.
    ("sdiv", IrType::U8, 128, 255, Signal(8)),
    ("srem", IrType::U16, 32768, 65535, Signal(8)),
    ("sdiv", IrType::U32, 2147483648, 4294967295, Signal(8)),
    // One step away from a trap: no trap.
    ("sdiv", IrType::I8, -127, -1, Returns(127)),
    ("sdiv", IrType::I16, -32768, 1, Returns(-32768)),
    ("sdiv", IrType::I32, -2147483647, -1, Returns(2147483647)),
    ("srem", IrType::I32, -2147483647, -1, Returns(0)),
    (
        "sdiv",
        IrType::I64,
        -9223372036854775807,
        -1,
        Returns(i64::MAX),
    ),
    ("srem", IrType::I64, -9223372036854775807, -1, Returns(0)),
    ("udiv", IrType::U8, 128, 255, Returns(0)),
    ("udiv", IrType::I8, -128, -1, Returns(0)),
    ("udiv", IrType::I32, -2147483648, -1, Returns(0)),
    ("unreachable", IrType::I32, 0, 0, Signal(4)),
];

/// The module (`@t_K` for every case, the divisor a value and a constant), gcc's C
/// `main`, and for each K the status it must end with and what the case is.
fn trap_program() -> (String, String, Vec<(String, String)>) {
    let mut text = String::new();
    let mut driver = String::from(FORKING_INCLUDES);
    let mut switch = String::new();
    let mut expected = Vec::new();
    for (i, &(op, ty, a, b, ending)) in CASES.iter().enumerate() {
        for constant_divisor in [false, true] {
            let k = expected.len();
            let b_text = if ty.is_signed() {
                (b as i64).to_string()
            } else {
                (b as u64).to_string()
            };
            let rhs = if constant_divisor {
                b_text.as_str()
            } else {
                "%1"
            };
            let body = if op == "unreachable" {
                "    unreachable".to_string()
            } else {
                format!(
                    "    %2 = {op} {ty} %0, {rhs}\n    %3 = cast {ty} %2 to i32\n    ret i32 %3"
                )
            };
            let _ = writeln!(
                text,
                "func noinline @t_{k}({ty}, {ty}) -> i32 {{\n.LBB{}:\n    %0 = paramref 0, {ty}\n    \
                 %1 = paramref 1, {ty}\n{body}\n}}\n",
                100 + k
            );
            let c = c_type(ty);
            let _ = writeln!(driver, "extern int t_{k}({c}, {c});");
            let _ = writeln!(
                switch,
                "    case {k}: exit(t_{k}({}, {}));",
                c_value(ty, a as u64),
                c_value(ty, b as u64)
            );
            let want = match ending {
                // The function returns its result cast to i32; the exit status is the
                // low byte.
                Returns(v) => (v & 0xff).to_string(),
                Signal(s) => format!("signal {s}"),
            };
            expected.push((want, format!("case {i}: {op} {ty} {a}, {rhs}")));
        }
    }
    let _ = writeln!(
        driver,
        "static void run_case(int i) {{\n    switch (i) {{\n{switch}    }}\n}}\n"
    );
    driver.push_str(&forking_main(expected.len()));
    (text, driver, expected)
}

/// Every case ends as the IR says on `target`, with both allocators.
pub fn traps_happen_exactly_where_the_ir_traps(target: Target) {
    require_toolchain(target);
    let (text, driver, expected) = trap_program();
    let dir = tempfile::tempdir().expect("temporary directory");
    let c = dir.path().join("traps_main.c");
    std::fs::write(&c, driver).expect("write the driver");
    let module = compiler::ir::text::parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    for mode in RegallocMode::ALL {
        let asm = assemble(&module, target, mode).unwrap_or_else(|e| panic!("{e}"));
        let s = dir.path().join(format!("traps_{}.s", mode.name()));
        let exe = dir.path().join(format!("traps_{}.out", mode.name()));
        std::fs::write(&s, asm).expect("write the assembly");
        gcc(target, &["-O0", "-w"], &[&c, &s], &exe).unwrap_or_else(|e| panic!("{e}"));
        let got = run_binary_for(target, &exe, dir.path(), &[], forking_limit(expected.len()))
            .unwrap_or_else(|e| panic!("{e}"));
        let runs = split_runs(&got.stdout, &got.stderr, expected.len());
        let wrong: Vec<String> = expected
            .iter()
            .zip(&runs)
            .filter(|((want, _), run)| run.status.as_deref() != Some(want.as_str()))
            .map(|((want, what), run)| {
                format!(
                    "{what} ({} {}): {}, expected {want}",
                    target.name(),
                    mode.name(),
                    run.status.as_deref().unwrap_or("not reached")
                )
            })
            .collect();
        assert_no_problems(&wrong, "trap cases end wrong");
    }
}
