//! `dce`: dead code elimination.
//!
//! Why: propagation and folding leave instructions whose results nobody reads any more
//! (and phis that only feed each other around a loop); they cost time in every later pass
//! and copies in phi elimination.
//!
//! What it may assume: SSA input that verifies — one definition per value.
//!
//! Rule: an instruction is deleted when it has no effect of its own and nothing live reads
//! its result. Liveness is a mark phase with a worklist, so it reaches its fixed point in
//! one linear pass and handles cycles: the roots are the terminators' operands and every
//! instruction that must stay; a value is live when a live instruction (or terminator)
//! reads it. A phi cycle that only feeds itself is never marked, so it goes, whole.
//!
//! What must stay (conservative — [`Inst::has_side_effects`], refined for divisions):
//! - stores, memcpy, calls (memory, output, exit), loads (they can be undefined: out of
//!   bounds, uninitialised, a dead frame) and allocas (each one creates an object whose
//!   address may be compared or printed);
//! - shifts, because a shift by the width or more is undefined and must not be hidden;
//! - `sdiv`, `srem`, `udiv`, `urem`, because they trap — unless the divisor is a constant
//!   that cannot trap: any non-zero constant for `udiv`/`urem`, any constant other than 0
//!   and -1 for `sdiv`/`srem` (read in the instruction's type, as the interpreter reads
//!   it). Such a division computes a value and nothing else.
//!
//! Everything else (arithmetic, compares, casts, copies, selects, geps, paramrefs,
//! globaladdrs, phis) computes a value and nothing else.
//!
//! Seeded bug: `DceRemovesStore` treats a store to an alloca whose address is only ever
//! used as a load or store address as dead (as if nothing could read that memory back).
//!
//! Returns the number of instructions deleted.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `dead_pure` instructions, and phis that only feed each other around an
//!   `irreducible_cycle` or a loop;
//! - must hold back: anything with an effect, or that can trap when it runs (an unused
//!   division by a divisor that may be 0 or -1 stays, see above).

use crate::ir::{BinOp, Inst, IrConst, IrFunction, Operand, Value};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashSet;

/// "No definition" in the value -> definition table.
const NO_DEF: (u32, u32) = (u32::MAX, u32::MAX);

/// Runs the pass on one function; returns the number of changes made.
pub fn run(func: &mut IrFunction) -> usize {
    let bound = func.value_bound() as usize;
    let dead_stores_to = if mutants::enabled(Mutant::DceRemovesStore) {
        // Mutant: stores to load/store-only allocas are taken for dead.
        load_store_only_allocas(func)
    } else {
        FxHashSet::default()
    };
    let must_stay = |inst: &Inst| match inst {
        Inst::Store {
            ptr: Operand::Value(p),
            ..
        } if dead_stores_to.contains(p) => false,
        _ => has_effect(inst),
    };

    // Where each value is defined (block, instruction).
    let mut def = vec![NO_DEF; bound];
    for (b, block) in func.blocks.iter().enumerate() {
        for (k, inst) in block.insts.iter().enumerate() {
            if let Some(d) = inst.dest() {
                def[d.index()] = (b as u32, k as u32);
            }
        }
    }

    // Mark: roots first, then whatever live instructions read.
    let mut live = vec![false; bound];
    let mut worklist: Vec<Value> = Vec::new();
    let mark = |v: Value, live: &mut Vec<bool>, worklist: &mut Vec<Value>| {
        if let Some(seen) = live.get_mut(v.index()) {
            if !*seen {
                *seen = true;
                worklist.push(v);
            }
        }
    };
    for block in &func.blocks {
        for inst in &block.insts {
            if must_stay(inst) {
                inst.for_each_used_value(|v| mark(v, &mut live, &mut worklist));
            }
        }
        block
            .term
            .for_each_used_value(|v| mark(v, &mut live, &mut worklist));
    }
    while let Some(v) = worklist.pop() {
        let (b, k) = def[v.index()];
        if (b, k) == NO_DEF {
            continue; // used but never defined: nothing to keep alive
        }
        let inst = &func.blocks[b as usize].insts[k as usize];
        inst.for_each_used_value(|u| mark(u, &mut live, &mut worklist));
    }

    // Sweep.
    let mut deleted = 0;
    for block in &mut func.blocks {
        let before = block.insts.len();
        block
            .insts
            .retain(|inst| must_stay(inst) || inst.dest().is_some_and(|d| live[d.index()]));
        deleted += before - block.insts.len();
    }
    deleted
}

/// True when deleting `inst` could change what the program does even if its result is
/// unused (the module doc's list).
fn has_effect(inst: &Inst) -> bool {
    match inst {
        Inst::Bin {
            op,
            ty,
            rhs: Operand::Const(divisor),
            ..
        } if op.can_trap() => {
            let divisor = IrConst::new(*ty, divisor.bits).bits;
            match op {
                BinOp::SDiv | BinOp::SRem => divisor == 0 || divisor == -1,
                _ => divisor == 0,
            }
        }
        other => other.has_side_effects(),
    }
}

/// The allocas whose value is used only as the address of loads and stores.
fn load_store_only_allocas(func: &IrFunction) -> FxHashSet<Value> {
    let mut slots: FxHashSet<Value> = FxHashSet::default();
    for inst in func.blocks.iter().flat_map(|b| &b.insts) {
        if let Inst::Alloca { dest, .. } = inst {
            slots.insert(*dest);
        }
    }
    let mut escaped: FxHashSet<Value> = FxHashSet::default();
    for block in &func.blocks {
        for inst in &block.insts {
            match inst {
                Inst::Load { .. } => {}
                Inst::Store { val, .. } => {
                    if let Operand::Value(v) = val {
                        escaped.insert(*v);
                    }
                }
                other => other.for_each_used_value(|v| {
                    escaped.insert(v);
                }),
            }
        }
        block.term.for_each_used_value(|v| {
            escaped.insert(v);
        });
    }
    slots.retain(|s| !escaped.contains(s));
    slots
}

#[cfg(test)]
#[path = "dce/tests.rs"]
mod tests;
