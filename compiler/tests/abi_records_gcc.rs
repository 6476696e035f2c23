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
//! The expected values come from gcc alone; every case must agree, with both register
//! allocators. Every child runs under a time limit in a `tempfile` directory; a missing
//! toolchain fails with the setup hint.

mod native_support;

use compiler::backend::{RegallocMode, Target};
use native_support::phicc::{assemble, c_module};
use native_support::toolchain::{gcc, require_toolchain, run_binary};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn inputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/abi_records")
}

/// The record types of `abi_records/records.h` and how many bytes each has on LP64.
const TYPES: [(&str, u64); 17] = [
    ("S1", 1),
    ("S2", 2),
    ("S3", 3),
    ("S4", 4),
    ("S5", 5),
    ("S7", 7),
    ("S8", 8),
    ("S12", 12),
    ("S16", 16),
    ("S17", 17),
    ("S24", 24),
    ("S32", 32),
    ("P5", 5),
    ("U8", 8),
    ("U12", 12),
    ("B8", 8),
    ("B12", 12),
];

const FUNCTIONS: [&str; 5] = ["make", "sum", "many", "gap", "pass"];

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

fn records_link_with_gcc(target: Target) {
    require_toolchain(target);
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    let inputs = inputs();
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
    let cases: Vec<String> = TYPES
        .iter()
        .flat_map(|(ty, _)| FUNCTIONS.iter().map(move |f| format!("{f}_{ty}")))
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
                "{} {name}: {} of {} cases as gcc",
                target.name(),
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
    records_link_with_gcc(Target::X86_64);
}

#[test]
fn records_by_value_link_with_gcc_on_i686() {
    records_link_with_gcc(Target::I686);
}

#[test]
fn records_by_value_link_with_gcc_on_aarch64() {
    records_link_with_gcc(Target::Aarch64);
}

#[test]
fn records_by_value_link_with_gcc_on_riscv64() {
    records_link_with_gcc(Target::Riscv64);
}
