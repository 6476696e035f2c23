//! The function builder: values, blocks, and the entry block's allocas.
//!
//! Why: lowering statements is mostly "emit into the current block, end it, start the
//! next"; this keeps that bookkeeping (and the alloca-in-the-entry-block rule) out of the
//! translation code.
//!
//! Invariants:
//! - allocas are collected apart and placed at the very start of the entry block, so
//!   every local slot is created once per call, before anything else runs;
//! - after a terminator there is no current block; an instruction emitted then (dead
//!   code, such as the statements after a `return`) opens a fresh block without
//!   predecessors, and a terminator emitted then is dropped;
//! - every block label handed out by `new_label` must be placed with `start` before
//!   `finish`, which reports a label that never was (a lowering bug, not an input error);
//! - every instruction has the C source position it was lowered from, kept in a list
//!   parallel to its block's instructions (`finish` returns them, in the same order).

use crate::frontend::Loc;
use crate::ir::{BasicBlock, BlockId, Inst, IrConst, IrType, Operand, Terminator, Value};
use rustc_hash::FxHashSet;

/// The C source position of each instruction of each finished block.
pub type BlockPositions = Vec<(BlockId, Vec<Loc>)>;

pub struct Builder {
    next_value: u32,
    allocas: Vec<Inst>,
    allocas_at: Vec<Loc>,
    blocks: Vec<BasicBlock>,
    blocks_at: Vec<Vec<Loc>>,
    /// The open block: its label, instructions so far and their positions.
    current: Option<(BlockId, Vec<Inst>, Vec<Loc>)>,
    /// Labels handed out and not yet placed.
    pending: FxHashSet<BlockId>,
    /// The position of the instructions emitted next.
    at: Loc,
}

impl Builder {
    /// A builder whose entry block is `entry` (open).
    pub fn new(entry: BlockId, at: Loc) -> Builder {
        Builder {
            next_value: 0,
            allocas: Vec::new(),
            allocas_at: Vec::new(),
            blocks: Vec::new(),
            blocks_at: Vec::new(),
            current: Some((entry, Vec::new(), Vec::new())),
            pending: FxHashSet::default(),
            at,
        }
    }

    /// The C position of the instructions emitted from now on.
    pub fn set_position(&mut self, at: Loc) {
        self.at = at;
    }

    pub fn fresh_value(&mut self) -> Value {
        let v = Value(self.next_value);
        self.next_value += 1;
        v
    }

    /// Notes a label handed out by the module counter, to be placed later.
    pub fn expect_label(&mut self, label: BlockId) {
        self.pending.insert(label);
    }

    /// True when there is an open block (the code being emitted is reachable in the
    /// structured sense).
    pub fn is_open(&self) -> bool {
        self.current.is_some()
    }

    /// A new slot in the entry block.
    pub fn alloca(&mut self, ty: IrType, size: u64, align: u32, volatile: bool) -> Operand {
        let dest = self.fresh_value();
        self.allocas_at.push(self.at);
        self.allocas.push(Inst::Alloca {
            dest,
            ty,
            size: size.clamp(1, u64::from(u32::MAX)) as u32,
            align,
            volatile,
        });
        Operand::Value(dest)
    }

    /// Appends `inst` to the current block (opening a dead one if there is none).
    pub fn push(&mut self, inst: Inst, fresh: impl FnOnce() -> BlockId) {
        if self.current.is_none() {
            self.current = Some((fresh(), Vec::new(), Vec::new()));
        }
        if let Some((_, insts, at)) = &mut self.current {
            insts.push(inst);
            at.push(self.at);
        }
    }

    /// Ends the current block with `term` (dropped when there is no current block).
    pub fn terminate(&mut self, term: Terminator) {
        if let Some((label, insts, at)) = self.current.take() {
            self.blocks.push(BasicBlock { label, insts, term });
            self.blocks_at.push(at);
        }
    }

    /// Starts block `label`; the current block, if any, falls through into it.
    pub fn start(&mut self, label: BlockId) {
        self.terminate(Terminator::Br(label));
        self.pending.remove(&label);
        self.current = Some((label, Vec::new(), Vec::new()));
    }

    /// The finished blocks (the current one must have been terminated), allocas first in
    /// the entry block, and their instructions' positions. `Err` names a label that was
    /// handed out but never placed.
    pub fn finish(mut self) -> Result<(Vec<BasicBlock>, BlockPositions), String> {
        if let Some(&label) = self.pending.iter().min() {
            return Err(format!("block {label} was never placed"));
        }
        if self.current.is_some() {
            return Err("the last block has no terminator".into());
        }
        if let (Some(entry), Some(entry_at)) = (self.blocks.first_mut(), self.blocks_at.first_mut())
        {
            let mut insts = std::mem::take(&mut self.allocas);
            insts.append(&mut entry.insts);
            entry.insts = insts;
            let mut at = std::mem::take(&mut self.allocas_at);
            at.append(entry_at);
            *entry_at = at;
        }
        let positions = self
            .blocks
            .iter()
            .map(|b| b.label)
            .zip(self.blocks_at)
            .collect();
        Ok((self.blocks, positions))
    }
}

/// A literal from the source: an `:i64` constant for integers (the seed's convention; it
/// is converted to its position's type on read), a `ptr` constant for pointers. `bits`
/// is the value, canonical for `ty`.
pub fn literal(ty: IrType, bits: i64) -> Operand {
    if ty == IrType::Ptr {
        Operand::Const(IrConst::new(IrType::Ptr, bits))
    } else {
        Operand::Const(IrConst::new(IrType::I64, bits))
    }
}

/// A constant of exactly `ty` (for values the lowering makes up: masks, steps, zeros).
pub fn exact(ty: IrType, bits: i64) -> Operand {
    Operand::Const(IrConst::new(ty, bits))
}

/// The value a constant operand has when read at a position of type `ty`.
pub fn const_value(c: IrConst, ty: IrType, ptr_bytes: u32) -> i64 {
    ty.canonicalize(c.bits as u64, ptr_bytes) as i64
}
