//! Where an edge's phase-1 copies go: the end of the predecessor, or a trampoline block.
//!
//! Why: copies at the end of a predecessor run on every edge that leaves it. That is right
//! only when the predecessor has one distinct successor; otherwise (a critical edge) the
//! copies would clobber values on the other paths, so they go into a trampoline, a new
//! block holding only the copies and `br target`, and the predecessor's edges to the
//! target are redirected to it.
//!
//! Invariants:
//! - one trampoline per (predecessor, target) pair, memoized; every edge from that
//!   predecessor to that target is redirected to it (a switch may name the target in
//!   several cases);
//! - trampoline ids come from the module-wide counter, one per trampoline (if the counter
//!   ever wraps, the duplicate label is left for the verifier to report);
//! - [`Placement::finish`] puts each trampoline right after its predecessor in block
//!   order, in creation order, so the layout stays close to the source order.

use crate::ir::{BasicBlock, BlockId, Inst, IrFunction, Terminator};
use crate::mutants::{enabled, Mutant};
use rustc_hash::FxHashMap;

/// Trampolines created so far in one function and the module-wide block counter.
pub(super) struct Placement<'a> {
    next_block: &'a mut u32,
    /// Trampolines to insert after the block of the same index.
    after: Vec<Vec<BasicBlock>>,
    /// (predecessor index, target label) -> position of its trampoline in `after[pred]`.
    memo: FxHashMap<(usize, BlockId), usize>,
}

impl<'a> Placement<'a> {
    pub fn new(num_blocks: usize, next_block: &'a mut u32) -> Placement<'a> {
        Placement {
            next_block,
            after: vec![Vec::new(); num_blocks],
            memo: FxHashMap::default(),
        }
    }

    /// Places `copies` for the edge(s) `pred -> target`; `distinct_succs` is the number
    /// of distinct successors of `pred`.
    pub fn place(
        &mut self,
        func: &mut IrFunction,
        distinct_succs: usize,
        pred: usize,
        target: BlockId,
        copies: Vec<Inst>,
    ) {
        let critical = distinct_succs > 1;
        if !critical || enabled(Mutant::PhiElimNoTrampoline) {
            func.blocks[pred].insts.extend(copies);
            return;
        }
        if let Some(&slot) = self.memo.get(&(pred, target)) {
            self.after[pred][slot].insts.extend(copies);
            return;
        }
        let label = BlockId(*self.next_block);
        *self.next_block = self.next_block.wrapping_add(1);
        let mut trampoline = BasicBlock::new(label, Terminator::Br(target));
        trampoline.insts = copies;
        self.memo.insert((pred, target), self.after[pred].len());
        self.after[pred].push(trampoline);

        let only_first = enabled(Mutant::PhiElimRepeatedTargetOnce);
        let mut redirected = false;
        func.blocks[pred].term.for_each_successor_mut(|succ| {
            if *succ == target && !(only_first && redirected) {
                *succ = label;
                redirected = true;
            }
        });
    }

    /// Inserts the trampolines after their predecessors.
    pub fn finish(self, func: &mut IrFunction) {
        if self.memo.is_empty() {
            return;
        }
        let blocks = std::mem::take(&mut func.blocks);
        func.blocks.reserve(blocks.len() + self.memo.len());
        for (block, trampolines) in blocks.into_iter().zip(self.after) {
            func.blocks.push(block);
            func.blocks.extend(trampolines);
        }
    }
}
