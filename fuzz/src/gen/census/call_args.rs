//! Counting the call shapes that stress a backend's argument passing.
//!
//! Why: a backend's call lowering fails on stack-passed arguments (more than the target's
//! argument registers: six on x86-64, eight on aarch64 and riscv64, none on i686) and on
//! the parallel move into argument registers (a value passed at a position other than the
//! one whose register it may already occupy). These counts say whether a module contains
//! such calls at all, from the module itself.
//!
//! Invariants: a call's argument order is *permuted* when two of its value arguments,
//! both defined in the call's own block, are passed in the opposite order of their
//! definitions; a value passed at two positions is a *repeated* argument (fan-out).

use super::super::features::FeatureCounts;
use compiler::ir::{Inst, IrFunction, Operand, Value};
use rustc_hash::FxHashMap;

/// Fewest arguments that some target passes on the stack (x86-64 has six registers).
pub const MANY_ARGS: usize = 7;

/// Counts wide signatures, calls with many arguments, permuted and repeated arguments.
pub fn count_call_args(f: &IrFunction, fc: &mut FeatureCounts) {
    fc.wide_signatures += (f.params.len() >= MANY_ARGS) as u64;
    for b in &f.blocks {
        // Position of each value's definition in this block.
        let mut defined_at: FxHashMap<Value, usize> = FxHashMap::default();
        for (i, inst) in b.insts.iter().enumerate() {
            if let Inst::Call { args, .. } = inst {
                fc.many_arg_calls += (args.len() >= MANY_ARGS) as u64;
                let values: Vec<Value> = args
                    .iter()
                    .filter_map(|(_, op)| match op {
                        Operand::Value(v) => Some(*v),
                        _ => None,
                    })
                    .collect();
                let local: Vec<usize> = values
                    .iter()
                    .filter_map(|v| defined_at.get(v).copied())
                    .collect();
                if local.windows(2).any(|w| w[0] > w[1]) {
                    fc.permuted_call_args += 1;
                }
                let mut seen = values.clone();
                seen.sort_unstable_by_key(|v| v.0);
                seen.dedup();
                if seen.len() < values.len() {
                    fc.repeated_call_args += 1;
                }
            }
            if let Some(d) = inst.dest() {
                defined_at.insert(d, i);
            }
        }
    }
}
