//! Tests of SSA construction. Expected IR is written out by hand from the rules in the
//! module doc (and, for the seeds' examples, from the seeds' own results); every output is
//! also run through a small SSA checker, and the larger tests compare the program's result
//! before and after promotion on a small evaluator.

mod build;
mod eval;
mod ssa_check;

mod cost_cap;
mod differential;
mod mutant_hooks;
mod placement;
mod rules;

use super::{promote_allocas, promote_allocas_with_params};
use crate::ir::verify::{verify_module, VerifyError, VerifyMode};
use crate::ir::{Inst, IrFunction, IrModule, Value};

/// Runs `promote_allocas` on a copy of `f`, checks the output is SSA (and passes the
/// verifier when the input did), returns both.
fn promote(f: &IrFunction) -> (usize, IrFunction) {
    let mut out = f.clone();
    let n = promote_allocas(&mut out);
    assert_ssa(&out);
    assert_verifies_if_input_did(f, &out);
    (n, out)
}

/// Same with `promote_allocas_with_params`.
fn promote_params(f: &IrFunction) -> (usize, IrFunction) {
    let mut out = f.clone();
    let n = promote_allocas_with_params(&mut out);
    assert_ssa(&out);
    assert_verifies_if_input_did(f, &out);
    (n, out)
}

/// The verifier's result on a module holding just `f`.
fn verify(f: &IrFunction) -> Result<(), Vec<VerifyError>> {
    let module = IrModule {
        functions: vec![f.clone()],
        ..IrModule::default()
    };
    verify_module(&module, VerifyMode::Ssa)
}

/// mem2reg keeps the verifier's rules: what went in valid comes out valid. (Some rule
/// tests build inputs the verifier rejects, e.g. calls to undeclared functions.)
fn assert_verifies_if_input_did(before: &IrFunction, after: &IrFunction) {
    if verify(before).is_ok() {
        if let Err(errors) = verify(after) {
            let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!(
                "the verifier rejects the output:\n  {}",
                errors.join("\n  ")
            );
        }
    }
}

/// Panics with every broken SSA rule.
fn assert_ssa(f: &IrFunction) {
    if let Err(errors) = ssa_check::check_ssa(f) {
        panic!("not SSA:\n  {}", errors.join("\n  "));
    }
}

/// True when some instruction of `f` defines `v` with an alloca.
fn has_alloca(f: &IrFunction, v: u32) -> bool {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(i, Inst::Alloca { dest, .. } if *dest == Value(v)))
}

/// Number of loads and stores through `%p` left in `f`.
fn memory_ops_through(f: &IrFunction, p: u32) -> usize {
    let p = crate::ir::Operand::Value(Value(p));
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| match i {
            Inst::Load { ptr, .. } | Inst::Store { ptr, .. } => *ptr == p,
            _ => false,
        })
        .count()
}
