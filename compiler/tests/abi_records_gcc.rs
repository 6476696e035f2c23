//! Records passed and returned by value link with gcc's code on all four targets: the
//! mixed-link test of `lowering::abi`.
//!
//! `abi_records/` holds a header of 17 record types (sizes 1 to 32 bytes, mixed member
//! types, a packed one with misaligned members, unions, bit-fields), `callee.c` with five
//! functions per type (make a record, sum one, take many records and ints so records
//! spill to the stack and a pair splits between the last register and the stack, take
//! five ints before a record, pass one through) and `caller.c`, which calls each in its
//! own child process and prints what came back (`generate.py` writes all three). Per
//! target the test builds the caller and the callee once with gcc -O2 and once with
//! phicc, links phicc's caller with gcc's callee and gcc's caller with phicc's callee,
//! and compares every line with what the all-gcc program prints.
//!
//! `abi_float_records/` is the same test for 24 records with `float`/`double` members
//! (SSE and mixed eightbytes, HFAs of one to four members, RISC-V's flattened pairs,
//! nested records, arrays, unions, a packed one, and ones too large for registers),
//! with two more functions each: seven doubles before the record and a double and a
//! float after it (the float registers run out), and a variadic callee with the record
//! named and doubles in `...` (x86-64's `%al`).
//!
//! `abi_aligned_records/` is the same test (with `fgap`) for 3 records aligned to 16
//! bytes, which gcc places like the others except on the x86-64 stack (`many` pushes
//! them past the registers); phicc refuses such a record on the RISC-V stack, so
//! `many` is compiled and checked everywhere else (`generate.py`'s GUARDS).
//!
//! The expected values come from gcc alone; every case must agree, with both register
//! allocators. Every child runs under a time limit in a `tempfile` directory; a missing
//! toolchain fails with the setup hint.

mod native_support;

use compiler::backend::{RegallocMode, Target};
use native_support::phicc::{assemble, c_module};
use native_support::toolchain::{gcc, require_toolchain, run_binary};
use std::collections::BTreeMap;
use std::path::Path;

/// One generated test: its directory under `tests/`, its record types and functions.
struct Suite {
    dir: &'static str,
    types: &'static [&'static str],
    functions: &'static [&'static str],
}

const INTEGER_RECORDS: Suite = Suite {
    dir: "abi_records",
    types: &TYPES,
    functions: &FUNCTIONS,
};

const FLOAT_RECORDS: Suite = Suite {
    dir: "abi_float_records",
    types: &FLOAT_TYPES,
    functions: &FLOAT_FUNCTIONS,
};

const ALIGNED_RECORDS: Suite = Suite {
    dir: "abi_aligned_records",
    types: &ALIGNED_TYPES,
    functions: &ALIGNED_FUNCTIONS,
};

/// The record types of `abi_aligned_records/records.h` (`generate.py`'s ALIGNED_TYPES:
/// `aligned(16)` integer, mixed and float records whose members fill both eightbytes;
/// phicc refuses the others on x86-64).
const ALIGNED_TYPES: [&str; 3] = ["A16", "AX16", "AD16"];

const ALIGNED_FUNCTIONS: [&str; 6] = ["make", "sum", "many", "gap", "pass", "fgap"];

/// The record types of `abi_records/records.h` (the number is the LP64 size).
const TYPES: [&str; 17] = [
    "S1", "S2", "S3", "S4", "S5", "S7", "S8", "S12", "S16", "S17", "S24", "S32", "P5", "U8", "U12",
    "B8", "B12",
];

const FUNCTIONS: [&str; 5] = ["make", "sum", "many", "gap", "pass"];

/// The record types of `abi_float_records/records.h` (`generate.py`'s FLOAT_TYPES).
const FLOAT_TYPES: [&str; 24] = [
    "F4", "F8", "F12", "F16", "F20", "D8", "D16", "D24", "D32", "FD16", "DF16", "DL16", "LD16",
    "DI16", "IF8", "FI8", "CF8", "SD16", "FFI12", "NF12", "PF5", "UF8", "UH8", "UI4",
];

const FLOAT_FUNCTIONS: [&str; 7] = ["make", "sum", "many", "gap", "pass", "fgap", "vnamed"];

/// The float records without a `vnamed` case (`generate.py`'s NO_VNAMED: x86-64 passes
/// them in memory, and a variadic definition with such a named parameter while registers
/// are left is refused).
const NO_VNAMED: [&str; 4] = ["F20", "D24", "D32", "PF5"];

/// The printed line of each case, by case name.
fn lines_by_case(stdout: &[u8]) -> BTreeMap<String, String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| {
            let name = l.split(' ').next()?;
            Some((name.to_string(), l.to_string()))
        })
        .collect()
}

/// Builds and runs one combination; the printed lines by case.
fn run(target: Target, dir: &Path, name: &str, sources: &[&Path]) -> BTreeMap<String, String> {
    let exe = dir.join(name);
    gcc(target, &["-w"], sources, &exe).unwrap_or_else(|e| panic!("{name}: {e}"));
    let done = run_binary(target, &exe, dir, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(done.status, "0", "{name} on {}: {done:?}", target.name());
    lines_by_case(&done.stdout)
}

fn records_link_with_gcc(target: Target, suite: &Suite) {
    require_toolchain(target);
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(suite.dir);
    let mut gcc_objects = BTreeMap::new();
    let mut modules = BTreeMap::new();
    for part in ["caller", "callee"] {
        let c = inputs.join(format!("{part}.c"));
        let o = d.join(format!("gcc_{part}.o"));
        gcc(target, &["-O2", "-w", "-c"], &[&c], &o).unwrap_or_else(|e| panic!("{e}"));
        gcc_objects.insert(part, o);
        let module = c_module(target, &c, &[&inputs]).unwrap_or_else(|e| panic!("{part}: {e}"));
        modules.insert(part, module);
    }
    let expected = run(
        target,
        d,
        "gcc_gcc",
        &[&gcc_objects["caller"], &gcc_objects["callee"]],
    );
    let cases: Vec<String> = suite
        .types
        .iter()
        .flat_map(|ty| suite.functions.iter().map(move |f| format!("{f}_{ty}")))
        .filter(|case| !NO_VNAMED.iter().any(|ty| *case == format!("vnamed_{ty}")))
        .filter(|case| {
            !(suite.dir == "abi_aligned_records"
                && target == Target::Riscv64
                && case.starts_with("many_"))
        })
        .collect();
    for case in &cases {
        let line = expected.get(case);
        assert!(
            line.is_some_and(|l| !l.ends_with(" crashed")),
            "gcc's own program: {case}: {line:?}"
        );
    }
    let mut problems = Vec::new();
    for mode in [RegallocMode::LinearScan, RegallocMode::Stack] {
        let mut phicc_s = BTreeMap::new();
        for (part, module) in &modules {
            let asm = assemble(module, target, mode).unwrap_or_else(|e| panic!("{part}: {e}"));
            let s = d.join(format!("phicc_{part}_{}.s", mode.name()));
            std::fs::write(&s, asm).expect("write assembly");
            phicc_s.insert(*part, s);
        }
        for (combo, caller, callee) in [
            (
                "phicc caller + gcc callee",
                &phicc_s["caller"],
                &gcc_objects["callee"],
            ),
            (
                "gcc caller + phicc callee",
                &gcc_objects["caller"],
                &phicc_s["callee"],
            ),
        ] {
            let name = format!("{combo} ({})", mode.name());
            let exe = name.replace(' ', "_").replace(['+', '(', ')'], "");
            let got = run(target, d, &exe, &[caller, callee]);
            let wrong: Vec<&String> = cases
                .iter()
                .filter(|c| got.get(*c) != expected.get(*c))
                .collect();
            eprintln!(
                "{} {} {name}: {} of {} cases as gcc",
                target.name(),
                suite.dir,
                cases.len() - wrong.len(),
                cases.len()
            );
            for case in wrong {
                problems.push(format!(
                    "{name}: {case}: expected {:?}, got {:?}",
                    expected.get(case),
                    got.get(case)
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}:\n{}",
        target.name(),
        problems.join("\n")
    );
}

#[test]
fn records_by_value_link_with_gcc_on_x86_64() {
    records_link_with_gcc(Target::X86_64, &INTEGER_RECORDS);
}

#[test]
fn records_by_value_link_with_gcc_on_i686() {
    records_link_with_gcc(Target::I686, &INTEGER_RECORDS);
}

#[test]
fn records_by_value_link_with_gcc_on_aarch64() {
    records_link_with_gcc(Target::Aarch64, &INTEGER_RECORDS);
}

#[test]
fn records_by_value_link_with_gcc_on_riscv64() {
    records_link_with_gcc(Target::Riscv64, &INTEGER_RECORDS);
}

#[test]
fn float_records_by_value_link_with_gcc_on_x86_64() {
    records_link_with_gcc(Target::X86_64, &FLOAT_RECORDS);
}

#[test]
fn float_records_by_value_link_with_gcc_on_i686() {
    records_link_with_gcc(Target::I686, &FLOAT_RECORDS);
}

#[test]
fn float_records_by_value_link_with_gcc_on_aarch64() {
    records_link_with_gcc(Target::Aarch64, &FLOAT_RECORDS);
}

#[test]
fn float_records_by_value_link_with_gcc_on_riscv64() {
    records_link_with_gcc(Target::Riscv64, &FLOAT_RECORDS);
}

#[test]
fn aligned_records_by_value_link_with_gcc_on_x86_64() {
    records_link_with_gcc(Target::X86_64, &ALIGNED_RECORDS);
}

#[test]
fn aligned_records_by_value_link_with_gcc_on_i686() {
    records_link_with_gcc(Target::I686, &ALIGNED_RECORDS);
}

#[test]
fn aligned_records_by_value_link_with_gcc_on_aarch64() {
    records_link_with_gcc(Target::Aarch64, &ALIGNED_RECORDS);
}

#[test]
fn aligned_records_by_value_link_with_gcc_on_riscv64() {
    records_link_with_gcc(Target::Riscv64, &ALIGNED_RECORDS);
}
