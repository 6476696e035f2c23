//! `dead_static`: dead static function elimination.
//!
//! Why: after inlining, a `static` function whose every call was inlined is never called
//! again, but it is still compiled, checked and emitted; deleting it is the payoff of
//! inlining for code size.
//!
//! What it may assume: the module verifies. Only `static` functions may go: any other
//! function can be called from outside the module.
//!
//! Rule: a function is live when it is not static (a root), when a global's initializer
//! names it (`ptr @f` — a function pointer in data; globals are all roots, conservatively),
//! or when a live function calls it directly (`call @f`) or takes its address
//! (`globaladdr @f`). Liveness spreads with a worklist from the roots, so a static function
//! called only by dead static functions is dead too, and a cycle of static functions that
//! nothing live reaches goes as a whole. Dead static functions are deleted; nothing else
//! changes.
//!
//! What it must not do: delete a function that a pointer can still reach — a `globaladdr`
//! or an initializer that names a deleted function would leave the module referring to a
//! symbol that does not exist.
//!
//! Seeded bug: `DeadStaticIgnoresAddressTaken` ignores `globaladdr` and initializer
//! references, so a static function used only through a function pointer is deleted.
//!
//! Returns the number of functions deleted.

use crate::ir::{Callee, GlobalInit, GlobalItem, Inst, IrModule};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// Deletes static functions nothing references; returns how many.
pub fn run(module: &mut IrModule) -> usize {
    let index: FxHashMap<&str, usize> = module
        .functions
        .iter()
        .enumerate()
        .rev() // the first of two same-named functions wins (the verifier rejects both)
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let addresses_count = !mutants::enabled(Mutant::DeadStaticIgnoresAddressTaken);
    let n = module.functions.len();
    let mut live = vec![false; n];
    let mut worklist: Vec<usize> = Vec::new();
    let mark = |name: &str, live: &mut Vec<bool>, worklist: &mut Vec<usize>| {
        if let Some(&f) = index.get(name) {
            if !live[f] {
                live[f] = true;
                worklist.push(f);
            }
        }
    };

    // Roots: every non-static function, and every function a global's data points to.
    for f in &module.functions {
        if !f.attrs.is_static {
            mark(&f.name, &mut live, &mut worklist);
        }
    }
    if addresses_count {
        for global in &module.globals {
            if let GlobalInit::Items(items) = &global.init {
                for item in items {
                    if let GlobalItem::Ptr(name, _) = item {
                        mark(name, &mut live, &mut worklist);
                    }
                }
            }
        }
    } // else mutant: function pointers in data are not references

    // Spread: what a live function calls or takes the address of is live.
    while let Some(f) = worklist.pop() {
        for inst in module.functions[f].blocks.iter().flat_map(|b| &b.insts) {
            match inst {
                Inst::Call {
                    callee: Callee::Direct(name),
                    ..
                } => mark(name, &mut live, &mut worklist),
                Inst::GlobalAddr { name, .. } if addresses_count => {
                    mark(name, &mut live, &mut worklist)
                }
                _ => {}
            }
        }
    }

    let before = module.functions.len();
    let mut i = 0;
    module.functions.retain(|f| {
        i += 1;
        live[i - 1] || !f.attrs.is_static
    });
    before - module.functions.len()
}

#[cfg(test)]
#[path = "dead_static/tests.rs"]
mod tests;
