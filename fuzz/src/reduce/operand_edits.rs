//! Replace an instruction by one of its operands (llvm-reduce's "operands to args" and
//! "instructions" passes, on our IR).
//!
//! Why: dropping an instruction replaces its value by zero, which often removes the bug;
//! a person finishing the reduction by hand would instead bypass identity operations
//! (`ashr x, 0`, `add 0, x`, `mul x, 1`, a `copy`, a cast to the same type) and keep the
//! value flowing. This edit does exactly that: every use of the instruction's value is
//! replaced by one of its operands of the same type, and the instruction is removed.
//!
//! Its companion for memory, `forward store to load`, replaces a load by the value that
//! the closest earlier store in the same block wrote through the same pointer operand
//! (nothing that may write memory in between), the step that collapses the store/load
//! chains C lowering leaves through volatile or address-taken slots.
//!
//! Invariant: only operands whose type is the instruction's result type are used, so the
//! candidate is type-correct; dominance is not checked here (an operand of a phi may not
//! dominate the phi's uses): the differential verifies every candidate at `lowered` and
//! rejects what breaks a rule.

use super::edits::{remove_nth_replacing, replace_uses};
use compiler::ir::{Inst, IrModule, Operand};

/// The `(function, block, instruction, operand)` of replacement `index`, in the module's
/// fixed order, with the replacing operand.
fn nth_replacement(m: &IrModule, index: usize) -> Option<(usize, usize, usize, Operand)> {
    let mut k = index;
    for (fi, f) in m.functions.iter().enumerate() {
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                if inst.dest().is_none() {
                    continue;
                }
                let result = inst.result_type();
                let mut same_typed = Vec::new();
                inst.for_each_operand_typed(|op, ty| {
                    if ty == result && !same_typed.contains(op) {
                        same_typed.push(*op);
                    }
                });
                if k < same_typed.len() {
                    return Some((fi, bi, ii, same_typed[k]));
                }
                k -= same_typed.len();
            }
        }
    }
    None
}

/// Replacement `index`: the instruction's uses take the operand, the instruction goes.
pub fn replace_by_operand(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let (fi, bi, ii, operand) = nth_replacement(m, index)?;
    let mut out = m.clone();
    let func = &mut out.functions[fi];
    let inst = func.blocks[bi].insts.remove(ii);
    let dest = inst.dest()?;
    // A self-reference (a phi naming itself) cannot stand for itself.
    if operand == Operand::Value(dest) {
        return Some(m.clone());
    }
    replace_uses(func, dest, operand);
    Some(out)
}

/// For the load at `(block, index)`, the value the closest earlier store in its block
/// wrote through the same pointer operand with the same type, if nothing that may write
/// memory (another store, a memcpy, a call) stands between them.
fn forwarded_value(insts: &[Inst], load_at: usize) -> Option<Operand> {
    let Inst::Load { ty, ptr, .. } = &insts[load_at] else {
        return None;
    };
    for inst in insts[..load_at].iter().rev() {
        match inst {
            Inst::Store { ty: t, val, ptr: p } if p == ptr && t == ty => return Some(*val),
            Inst::Store { .. } | Inst::Memcpy { .. } | Inst::Call { .. } => return None,
            _ => {}
        }
    }
    None
}

/// Forwarding `index`, counted over the loads that have a forwardable store.
pub fn forward_store_to_load(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    remove_nth_replacing(m, index, forwarded_value)
}
