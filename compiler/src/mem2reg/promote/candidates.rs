//! Step 1 of SSA construction: which allocas may become SSA values.
//!
//! Why: promoting a slot is only sound when every access to it is a whole-slot `load` or
//! `store` through the alloca itself; one escaping use (a call argument, a gep base, a
//! stored pointer...) means memory may be read or written behind the pass's back.
//!
//! Invariants: the result lists every alloca of every block (reachable or not) in function
//! order; a slot whose rules fail is present but not `promoted`, and [`Slots::promoted`]
//! answers `None` for it. `def_blocks` lists each block with a store to the slot once, in
//! block order.

use super::MAX_PROMOTABLE_ALLOCA_SIZE;
use crate::ir::{Inst, IrFunction, IrType, Operand, Value};
use crate::mutants::{self, Mutant};

/// "Not a slot" in the value -> slot table.
const NO_SLOT: u32 = u32::MAX;

/// One alloca and what the pass decided about it.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    /// The alloca's type: the type of every load and store through it.
    pub ty: IrType,
    /// Still promotable (all rules checked so far hold).
    pub promoted: bool,
    /// Keep the alloca instruction even when promoted (parameter allocas; and, under the
    /// `M2rPromoteGepBase` mutant, allocas whose address still feeds a gep).
    pub retain_alloca: bool,
    /// Blocks (indices) holding a store to the slot, ascending, each once.
    pub def_blocks: Vec<u32>,
}

/// How an instruction touches a promoted slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    /// It is the slot's alloca.
    Alloca,
    /// It loads the slot.
    Load,
    /// It stores to the slot.
    Store,
}

/// Every alloca of a function, and the value -> slot table.
#[derive(Clone, Debug)]
pub(super) struct Slots {
    pub slots: Vec<Slot>,
    /// The function's [`IrFunction::value_bound`]: its first fresh value number.
    pub value_bound: u32,
    /// Slot index of each value that an alloca defines; `NO_SLOT` elsewhere.
    slot_of: Vec<u32>,
}

impl Slots {
    /// The slot of `v` when `v` is a promoted alloca.
    pub fn promoted(&self, v: Value) -> Option<usize> {
        let s = *self.slot_of.get(v.index())?;
        if s != NO_SLOT && self.slots[s as usize].promoted {
            Some(s as usize)
        } else {
            None
        }
    }

    /// The slot promoted when `op` is a promoted alloca's value.
    pub fn promoted_operand(&self, op: &Operand) -> Option<usize> {
        op.as_value().and_then(|v| self.promoted(v))
    }

    /// Whether, and how, `inst` touches a promoted slot (and which).
    pub fn access(&self, inst: &Inst) -> Option<(Access, usize)> {
        match inst {
            Inst::Alloca { dest, .. } => self.promoted(*dest).map(|s| (Access::Alloca, s)),
            Inst::Load { ptr, .. } => self.promoted_operand(ptr).map(|s| (Access::Load, s)),
            Inst::Store { ptr, .. } => self.promoted_operand(ptr).map(|s| (Access::Store, s)),
            _ => None,
        }
    }

    /// Number of slots still promoted.
    pub fn promoted_count(&self) -> usize {
        self.slots.iter().filter(|s| s.promoted).count()
    }

    /// True when no slot is promoted.
    pub fn is_empty(&self) -> bool {
        self.promoted_count() == 0
    }

    /// The slot of `v` when `v` is any alloca (promoted or not).
    fn any_slot(&self, v: Value) -> Option<usize> {
        let s = *self.slot_of.get(v.index())?;
        (s != NO_SLOT).then_some(s as usize)
    }

    /// Marks the alloca behind `op` (if it is one) as not promotable.
    fn escape(&mut self, op: &Operand) {
        if let Some(s) = op.as_value().and_then(|v| self.any_slot(v)) {
            self.slots[s].promoted = false;
        }
    }
}

/// Finds every alloca and checks the promotability rules 1-4 of the module doc (rule 5,
/// the cost cap, needs the phis and is `placement`'s). Parameter allocas are candidates only when
/// `include_params` is set, and are then retained after promotion.
pub(super) fn find_candidates(func: &IrFunction, include_params: bool) -> Slots {
    let value_bound = func.value_bound();
    let mut slots = Slots {
        slots: Vec::new(),
        value_bound,
        slot_of: vec![NO_SLOT; value_bound as usize],
    };
    let param_allocas: Vec<Value> = func.param_allocas().into_iter().flatten().collect();

    // Every block's allocas, not only the entry's: inlined bodies bring theirs along.
    for block in &func.blocks {
        for inst in &block.insts {
            let Inst::Alloca {
                dest,
                ty,
                size,
                volatile,
                ..
            } = inst
            else {
                continue;
            };
            let slot_index = slots.slots.len() as u32;
            let is_param = param_allocas.contains(dest);
            // Rule 1: a scalar that fits a register (the allocation and the type).
            let scalar = *size <= MAX_PROMOTABLE_ALLOCA_SIZE
                && ty.max_size() <= MAX_PROMOTABLE_ALLOCA_SIZE
                && ty.is_scalar();
            // Rule 3: volatile locals live in memory.
            let mut promoted = scalar && !*volatile && (include_params || !is_param);
            let entry = &mut slots.slot_of[dest.index()];
            if *entry != NO_SLOT {
                // The same value defined by two allocas: not SSA input; leave both alone.
                let other = *entry as usize;
                slots.slots[other].promoted = false;
                promoted = false;
            }
            *entry = slot_index;
            slots.slots.push(Slot {
                ty: *ty,
                promoted,
                retain_alloca: is_param,
                def_blocks: Vec::new(),
            });
        }
    }
    if slots.slots.is_empty() {
        return slots;
    }

    // Rules 2 and 4, one instruction at a time: a slot's value may appear only as the
    // address of a load or store of exactly its type; anything else is an escape.
    for (b, block) in func.blocks.iter().enumerate() {
        for inst in &block.insts {
            match inst {
                // Checked above (a redefinition by another alloca); it uses nothing.
                Inst::Alloca { .. } => {}
                Inst::Load { dest, ty, ptr } => {
                    if let Some(s) = ptr.as_value().and_then(|v| slots.any_slot(v)) {
                        if *ty != slots.slots[s].ty {
                            slots.slots[s].promoted = false; // rule 4: type punning
                        }
                    }
                    reject_redefinition(&mut slots, *dest);
                }
                Inst::Store { ty, val, ptr } => {
                    slots.escape(val); // the address itself is stored somewhere
                    if let Some(s) = ptr.as_value().and_then(|v| slots.any_slot(v)) {
                        let slot = &mut slots.slots[s];
                        if *ty != slot.ty {
                            slot.promoted = false; // rule 4: type punning
                        } else if slot.def_blocks.last() != Some(&(b as u32)) {
                            slot.def_blocks.push(b as u32);
                        }
                    }
                }
                Inst::Gep { dest, base, offset } => {
                    slots.escape(offset);
                    if mutants::enabled(Mutant::M2rPromoteGepBase) {
                        // Mutant: a gep base is wrongly taken for a harmless use. The
                        // alloca is kept so the gep still has an address to use; its
                        // memory is never written again.
                        if let Some(s) = base.as_value().and_then(|v| slots.any_slot(v)) {
                            slots.slots[s].retain_alloca = true;
                        }
                    } else {
                        slots.escape(base);
                    }
                    reject_redefinition(&mut slots, *dest);
                }
                other => {
                    other.for_each_operand(|op| slots.escape(op));
                    if let Some(d) = other.dest() {
                        reject_redefinition(&mut slots, d);
                    }
                }
            }
        }
        block.term.for_each_operand_typed(|op, _| slots.escape(op));
    }
    slots
}

/// A value that an alloca defines and another instruction defines again is not SSA
/// input; its slot is left alone.
fn reject_redefinition(slots: &mut Slots, dest: Value) {
    slots.escape(&Operand::Value(dest));
}
