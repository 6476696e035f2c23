//! Variadic functions link with gcc's code on all four targets: the mixed-link test of
//! `<stdarg.h>` (`lowering::varargs`, `backend::va` and each target's `va.rs`).
//!
//! `varargs/callee.c` defines variadic functions (ints, long longs, unsigned values and
//! pointers past the register count, records of 1 to 40 bytes around every register
//! boundary, a named record parameter, `va_copy`, a `va_list` forwarded to libc's
//! `vsprintf`) and two functions that read a `va_list` their caller started;
//! `varargs/caller.c` calls each and defines two variadic functions that hand their
//! `va_list` to the callee's. Per target the test builds both with gcc -O2 and with
//! phicc, links phicc's caller with gcc's callee and gcc's caller with phicc's callee
//! (so every `va_list` and every unnamed argument crosses between the compilers both
//! ways), and compares every printed line with what the all-gcc program prints.
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
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/varargs")
}

/// The cases `caller.c` prints, one line each.
const CASES: [&str; 18] = [
    "sum_ll_0",
    "sum_ll_10",
    "sum_ll_20",
    "sum_int_11",
    "mixed_8",
    "after9",
    "take_each",
    "take_pair4",
    "take_pair5",
    "take_pair6",
    "take_pair7",
    "take_big",
    "take_many",
    "named",
    "copies",
    "fwd",
    "via_vsum",
    "via_vtake",
];

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

/// Builds and runs one combination; the printed lines by case (a crash is reported by
/// the cases it did not print).
fn run(target: Target, dir: &Path, name: &str, sources: &[&Path]) -> BTreeMap<String, String> {
    let exe = dir.join(name);
    gcc(target, &["-w"], sources, &exe).unwrap_or_else(|e| panic!("{name}: {e}"));
    let done = run_binary(target, &exe, dir, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut lines = lines_by_case(&done.stdout);
    if done.status != "0" {
        lines.insert("status".into(), format!("status {}", done.status));
    }
    lines
}

fn varargs_link_with_gcc(target: Target) {
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
    assert_eq!(
        expected.get("status"),
        None,
        "gcc's own program: {expected:?}"
    );
    for case in CASES {
        assert!(expected.contains_key(case), "gcc's own program: no {case}");
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
            (
                "phicc caller + phicc callee",
                &phicc_s["caller"],
                &phicc_s["callee"],
            ),
        ] {
            let name = format!("{combo} ({})", mode.name());
            let exe = name.replace(' ', "_").replace(['+', '(', ')'], "");
            let got = run(target, d, &exe, &[caller, callee]);
            if let Some(status) = got.get("status") {
                problems.push(format!("{name}: {status}"));
            }
            let wrong: Vec<&str> = CASES
                .iter()
                .copied()
                .filter(|c| got.get(*c) != expected.get(*c))
                .collect();
            eprintln!(
                "{} {name}: {} of {} cases as gcc",
                target.name(),
                CASES.len() - wrong.len(),
                CASES.len()
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
fn variadic_functions_link_with_gcc_on_x86_64() {
    varargs_link_with_gcc(Target::X86_64);
}

#[test]
fn variadic_functions_link_with_gcc_on_i686() {
    varargs_link_with_gcc(Target::I686);
}

#[test]
fn variadic_functions_link_with_gcc_on_aarch64() {
    varargs_link_with_gcc(Target::Aarch64);
}

#[test]
fn variadic_functions_link_with_gcc_on_riscv64() {
    varargs_link_with_gcc(Target::Riscv64);
}
