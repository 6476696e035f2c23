//! Step 3 of SSA construction: renaming, the rewrite that removes the promoted slots.
//!
//! Why: once the phis are placed, the definition reaching any point of a block is the
//! latest store (or phi) of that slot on the dominator-tree path to it. A walk of the
//! dominator tree with one *definition stack* per slot knows that definition at every
//! instruction: the top of the stack.
//!
//! Invariants:
//! - the walk is iterative (an explicit frame stack), so 100k-block functions are fine;
//! - every stack starts with the zero of the slot's type and is never empty; each block
//!   pops on exit exactly what it pushed (one undo log for all slots);
//! - a value pushed for a slot always has the slot's type: stored constants are narrowed
//!   to it;
//! - each phi gets one incoming entry per distinct reachable predecessor (the CFG rows are
//!   deduplicated, so a `condbr %c, .LBB1, .LBB1` adds one), sorted by predecessor index;
//! - loads and stores of promoted slots in unreachable blocks are rewritten too (loads read
//!   zero, stores vanish), so no use of a removed alloca remains anywhere.

use super::candidates::{Access, Slots};
use super::placement::PhiPlan;
use crate::ir::analysis::CfgAnalysis;
use crate::ir::{BlockId, Inst, IrConst, IrFunction, IrType, Operand};
use crate::mutants::{self, Mutant};

/// One block on the walk's path from the entry.
struct Frame {
    block: usize,
    /// Position of the next dominator-tree child to visit.
    next_child: usize,
    /// Length of the undo log when the block was entered.
    undo_len: usize,
}

/// The walk's state.
struct Renamer<'a> {
    slots: &'a Slots,
    plan: &'a PhiPlan,
    cfg: &'a CfgAnalysis,
    /// Definition stack of each slot; the top is the definition reaching this point.
    stacks: Vec<Vec<Operand>>,
    /// Slots pushed, in push order, so a block can pop what it pushed.
    undo: Vec<u32>,
    /// Incoming entries of each phi, as (predecessor index, value).
    incoming: Vec<Vec<(u32, Operand)>>,
}

/// Rewrites `func`: inserts the planned phis, turns loads of promoted slots into copies,
/// removes their stores and (except retained ones) their allocas.
pub(super) fn rename(func: &mut IrFunction, cfg: &CfgAnalysis, slots: &Slots, plan: &PhiPlan) {
    let mut renamer = Renamer {
        slots,
        plan,
        cfg,
        stacks: slots
            .slots
            .iter()
            .map(|s| vec![Operand::Const(IrConst::zero(s.ty))])
            .collect(),
        undo: Vec::new(),
        incoming: vec![Vec::new(); plan.len()],
    };
    renamer.walk_dominator_tree(func);
    renamer.fill_phis(func);
    for b in 0..func.blocks.len() {
        if !cfg.is_reachable(b) {
            rewrite_unreachable_block(func, b, slots);
        }
    }
}

impl Renamer<'_> {
    /// Visits every reachable block, each after its immediate dominator, popping each
    /// block's definitions when its dominator subtree is done.
    fn walk_dominator_tree(&mut self, func: &mut IrFunction) {
        let pop_on_exit = !mutants::enabled(Mutant::M2rNoStackPop);
        let mut frames = vec![self.enter(func, 0)];
        while let Some(frame) = frames.last_mut() {
            let children = &self.cfg.dom_children[frame.block];
            if frame.next_child < children.len() {
                let child = children[frame.next_child];
                frame.next_child += 1;
                let child_frame = self.enter(func, child);
                frames.push(child_frame);
            } else {
                let undo_len = frame.undo_len;
                frames.pop();
                if pop_on_exit {
                    self.pop_to(undo_len);
                } else {
                    // Mutant: the block's definitions stay visible to its siblings.
                    self.undo.truncate(undo_len);
                }
            }
        }
    }

    /// Processes block `b`: pushes its phis, rewrites its loads and stores in order, then
    /// gives each successor's phis the definitions live at the end of `b`.
    fn enter(&mut self, func: &mut IrFunction, b: usize) -> Frame {
        let undo_len = self.undo.len();
        let phis = self.plan.of_block(b);
        let mut new_phis = Vec::with_capacity(phis.len());
        for id in phis {
            let slot = self.plan.slot[id] as usize;
            let dest = self.plan.dest[id];
            new_phis.push(Inst::Phi {
                dest,
                ty: self.slots.slots[slot].ty,
                incoming: Vec::new(), // filled by `fill_phis` once the walk is done
            });
            self.push(slot, Operand::Value(dest));
        }
        // Rewritten in place, in order: each load reads the definition of the moment.
        let insts = &mut func.blocks[b].insts;
        insts.retain_mut(|inst| match self.slots.access(inst) {
            Some((Access::Alloca, slot)) => self.slots.slots[slot].retain_alloca,
            Some((Access::Load, slot)) => {
                if let Inst::Load { dest, ty, .. } = *inst {
                    let src = self.top(slot);
                    *inst = Inst::Copy { dest, ty, src };
                }
                true
            }
            Some((Access::Store, slot)) => {
                if let Inst::Store { val, .. } = *inst {
                    let val = narrow(val, self.slots.slots[slot].ty);
                    self.push(slot, val);
                }
                false
            }
            None => true,
        });
        // The new phis go first, before any phi the block already had.
        if !new_phis.is_empty() {
            insts.splice(0..0, new_phis);
        }

        // Successor phis: the CFG rows are deduplicated, so one entry per predecessor.
        for &s in self.cfg.succs.row(b) {
            for id in self.plan.of_block(s as usize) {
                let value = self.top(self.plan.slot[id] as usize);
                self.incoming[id].push((b as u32, value));
            }
        }
        Frame {
            block: b,
            next_child: 0,
            undo_len,
        }
    }

    /// Writes the collected incoming entries into the phis, in predecessor order.
    fn fill_phis(&mut self, func: &mut IrFunction) {
        let labels: Vec<BlockId> = func.blocks.iter().map(|b| b.label).collect();
        for (b, block) in func.blocks.iter_mut().enumerate() {
            for (position, id) in self.plan.of_block(b).enumerate() {
                let mut entries = std::mem::take(&mut self.incoming[id]);
                entries.sort_by_key(|&(pred, _)| pred);
                if let Some(Inst::Phi { incoming, .. }) = block.insts.get_mut(position) {
                    *incoming = entries
                        .into_iter()
                        .map(|(pred, value)| (value, labels[pred as usize]))
                        .collect();
                }
            }
        }
    }

    fn push(&mut self, slot: usize, value: Operand) {
        self.stacks[slot].push(value);
        self.undo.push(slot as u32);
    }

    /// The definition of `slot` reaching this point.
    fn top(&self, slot: usize) -> Operand {
        let stack = &self.stacks[slot];
        // The initial zero is never popped; the fallback only guards that invariant.
        stack
            .last()
            .copied()
            .unwrap_or(Operand::Const(IrConst::zero(self.slots.slots[slot].ty)))
    }

    /// Pops every definition pushed since the undo log had `len` entries.
    fn pop_to(&mut self, len: usize) {
        while self.undo.len() > len {
            if let Some(slot) = self.undo.pop() {
                self.stacks[slot as usize].pop();
            }
        }
    }
}

/// The value a store of `val` leaves in a slot of type `slot_ty`: a constant of another
/// type (the lowering's `:i64` literals) is narrowed to the slot's type.
fn narrow(val: Operand, slot_ty: IrType) -> Operand {
    match val {
        Operand::Const(c) if c.ty != slot_ty => {
            if mutants::enabled(Mutant::M2rNoNarrowing) {
                val // mutant: the wide literal flows on into narrow copies and phis
            } else {
                Operand::Const(c.narrowed_to(slot_ty))
            }
        }
        _ => val,
    }
}

/// An unreachable block gets no phis and no walk, but may still load or store promoted
/// slots: loads read the zero of their type, stores vanish, allocas go.
fn rewrite_unreachable_block(func: &mut IrFunction, b: usize, slots: &Slots) {
    func.blocks[b]
        .insts
        .retain_mut(|inst| match slots.access(inst) {
            Some((Access::Alloca, slot)) => slots.slots[slot].retain_alloca,
            Some((Access::Load, _)) => {
                if let Inst::Load { dest, ty, .. } = *inst {
                    let src = Operand::Const(IrConst::zero(ty));
                    *inst = Inst::Copy { dest, ty, src };
                }
                true
            }
            Some((Access::Store, _)) => false,
            None => true,
        });
}
