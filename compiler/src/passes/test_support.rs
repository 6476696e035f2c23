//! Shared by the tests of the passes that must not change the CFG (GVN, LICM): run a
//! pass with a fresh `CfgAnalysis` per function and hold it to its contract.

use crate::ir::analysis::CfgAnalysis;
use crate::ir::text::{parse_module, print_module};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{IrFunction, IrModule};

/// The terminators and labels of every block: what "the CFG" is here.
pub fn cfg_shape(m: &IrModule) -> Vec<String> {
    m.functions
        .iter()
        .flat_map(|f| &f.blocks)
        .map(|b| format!("{} {:?}", b.label, b.term.successors()))
        .collect()
}

/// Parses and verifies `src`, runs `pass` on every function with a fresh analysis,
/// checks that the output verifies and has the same CFG; returns the change count and
/// the printed output.
pub fn run_cfg_preserving(
    name: &str,
    src: &str,
    pass: fn(&mut IrFunction, &CfgAnalysis) -> usize,
) -> (usize, String) {
    let mut m = parse_module(src).expect("test input parses");
    verify_module(&m, VerifyMode::Ssa).expect("test input verifies");
    let shape = cfg_shape(&m);
    let mut n = 0;
    for f in &mut m.functions {
        let cfg = CfgAnalysis::build(f);
        n += pass(f, &cfg);
    }
    if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
        panic!("output does not verify: {e:?}\n{}", print_module(&m));
    }
    assert_eq!(cfg_shape(&m), shape, "{name} changed the CFG");
    (n, print_module(&m))
}

/// `src` as the printer writes it (expected outputs are compared in printed form).
pub fn canonical(src: &str) -> String {
    print_module(&parse_module(src).expect("expected text parses"))
}
