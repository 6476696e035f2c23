//! A function under construction: blocks, fresh values, and a cost estimate.
//!
//! Why: both generators emit code the way a front end does — into "the current block",
//! opening new blocks and closing them with terminators — and both need an upper bound on
//! how many instructions a run can execute, to keep programs far from the fuel limit.
//!
//! Invariants:
//! - block ids come from one module-wide [`BlockCounter`], so they are unique across the
//!   module; value numbers are fresh per function;
//! - a block is laid out when it is first entered (so the text reads in generation order);
//!   blocks never entered are laid out at the end;
//! - every instruction and terminator adds the current `weight` (how many times this
//!   point can run per call, an upper bound) to `cost`; callers add callee costs for calls;
//! - instructions in the prologue are placed at the head of the entry block by [`FuncBuilder::finish`].

use compiler::ir::{
    BasicBlock, BinOp, BlockId, Callee, CmpPred, FuncAttrs, Inst, IrFunction, IrType, Operand,
    Terminator, UnOp, Value,
};
use rustc_hash::FxHashMap;

/// The module-wide source of block ids.
#[derive(Clone, Debug, Default)]
pub struct BlockCounter {
    next: u32,
}

impl BlockCounter {
    /// A fresh id.
    pub fn fresh(&mut self) -> BlockId {
        let id = BlockId(self.next);
        self.next += 1;
        id
    }
}

/// A block's state while the function is being built.
struct Slot {
    block: BasicBlock,
    placed: bool,
    terminated: bool,
}

/// Builds one function.
pub struct FuncBuilder {
    slots: Vec<Slot>,
    pos: FxHashMap<BlockId, usize>,
    layout: Vec<usize>,
    current: Option<usize>,
    prologue: Vec<Inst>,
    next_value: u32,
    /// How many times the current point can run per call (an upper bound).
    pub weight: u64,
    /// Upper bound on instructions executed per call, so far.
    pub cost: u64,
}

impl FuncBuilder {
    /// A builder whose entry block is current.
    pub fn new(ids: &mut BlockCounter) -> FuncBuilder {
        let mut b = FuncBuilder {
            slots: Vec::new(),
            pos: FxHashMap::default(),
            layout: Vec::new(),
            current: None,
            prologue: Vec::new(),
            next_value: 0,
            weight: 1,
            cost: 0,
        };
        let entry = b.new_block(ids);
        b.switch_to(entry);
        b
    }

    /// The entry block's id.
    pub fn entry(&self) -> BlockId {
        self.slots[0].block.label
    }

    /// A new, empty, not yet laid out block.
    pub fn new_block(&mut self, ids: &mut BlockCounter) -> BlockId {
        let id = ids.fresh();
        self.pos.insert(id, self.slots.len());
        self.slots.push(Slot {
            block: BasicBlock::new(id, Terminator::Unreachable),
            placed: false,
            terminated: false,
        });
        id
    }

    /// Makes `b` current (laying it out if it is new). Entering a terminated block is a
    /// generator bug; it is ignored so that no input can make generation panic.
    pub fn switch_to(&mut self, b: BlockId) {
        let Some(&i) = self.pos.get(&b) else {
            debug_assert!(false, "unknown block {b}");
            return;
        };
        debug_assert!(!self.slots[i].terminated, "re-entering terminated {b}");
        if !self.slots[i].placed {
            self.slots[i].placed = true;
            self.layout.push(i);
        }
        self.current = if self.slots[i].terminated {
            None
        } else {
            Some(i)
        };
    }

    /// The current block, if one is open.
    pub fn current(&self) -> Option<BlockId> {
        self.current.map(|i| self.slots[i].block.label)
    }

    /// True when a block is open for instructions.
    pub fn is_open(&self) -> bool {
        self.current.is_some()
    }

    /// A fresh value number.
    pub fn fresh(&mut self) -> Value {
        let v = Value(self.next_value);
        self.next_value += 1;
        v
    }

    /// Appends to the current block.
    pub fn push(&mut self, inst: Inst) {
        self.cost = self.cost.saturating_add(self.weight);
        match self.current {
            Some(i) => self.slots[i].block.insts.push(inst),
            None => debug_assert!(false, "instruction with no open block"),
        }
    }

    /// Appends to the entry block's prologue (allocas, parameter stores, initial stores).
    pub fn push_prologue(&mut self, inst: Inst) {
        self.cost = self.cost.saturating_add(1);
        self.prologue.push(inst);
    }

    /// Puts `insts` (phis) at the head of block `b`.
    pub fn prepend(&mut self, b: BlockId, insts: Vec<Inst>) {
        if let Some(&i) = self.pos.get(&b) {
            let block = &mut self.slots[i].block;
            let rest = std::mem::take(&mut block.insts);
            block.insts = insts;
            block.insts.extend(rest);
        }
    }

    /// Closes the current block with `term`.
    pub fn terminate(&mut self, term: Terminator) {
        self.cost = self.cost.saturating_add(self.weight);
        match self.current.take() {
            Some(i) => {
                self.slots[i].block.term = term;
                self.slots[i].terminated = true;
            }
            None => debug_assert!(false, "terminator with no open block"),
        }
    }

    /// Blocks created but never given a terminator (must be zero in a finished function).
    pub fn unterminated(&self) -> usize {
        self.slots.iter().filter(|s| !s.terminated).count()
    }

    /// The finished function, blocks in layout order, prologue at the head of the entry.
    pub fn finish(
        mut self,
        name: String,
        params: Vec<IrType>,
        ret: IrType,
        attrs: FuncAttrs,
    ) -> IrFunction {
        for i in 0..self.slots.len() {
            if !self.slots[i].placed {
                self.slots[i].placed = true;
                self.layout.push(i);
            }
        }
        let prologue = std::mem::take(&mut self.prologue);
        let entry = &mut self.slots[0].block;
        let body = std::mem::take(&mut entry.insts);
        entry.insts = prologue;
        entry.insts.extend(body);
        let mut taken: Vec<Option<BasicBlock>> =
            self.slots.into_iter().map(|s| Some(s.block)).collect();
        let blocks = self
            .layout
            .iter()
            .filter_map(|&i| taken[i].take())
            .collect();
        IrFunction {
            name,
            params,
            ret,
            variadic: false,
            attrs,
            blocks,
        }
    }

    // ---- emitters: each appends one instruction to the current block ----

    pub fn load(&mut self, ty: IrType, ptr: Operand) -> Value {
        let dest = self.fresh();
        self.push(Inst::Load { dest, ty, ptr });
        dest
    }

    pub fn store(&mut self, ty: IrType, val: Operand, ptr: Operand) {
        self.push(Inst::Store { ty, val, ptr });
    }

    pub fn bin(&mut self, op: BinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.fresh();
        self.push(Inst::Bin {
            dest,
            op,
            ty,
            lhs,
            rhs,
        });
        dest
    }

    pub fn un(&mut self, op: UnOp, ty: IrType, src: Operand) -> Value {
        let dest = self.fresh();
        self.push(Inst::Un { dest, op, ty, src });
        dest
    }

    pub fn cmp(&mut self, pred: CmpPred, ty: IrType, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.fresh();
        self.push(Inst::Cmp {
            dest,
            pred,
            ty,
            lhs,
            rhs,
        });
        dest
    }

    pub fn cast(&mut self, from: IrType, src: Operand, to: IrType) -> Value {
        let dest = self.fresh();
        self.push(Inst::Cast {
            dest,
            from,
            src,
            to,
        });
        dest
    }

    pub fn select(
        &mut self,
        ty: IrType,
        cond: Operand,
        on_true: Operand,
        on_false: Operand,
    ) -> Value {
        let dest = self.fresh();
        self.push(Inst::Select {
            dest,
            ty,
            cond,
            on_true,
            on_false,
        });
        dest
    }

    pub fn gep(&mut self, base: Operand, offset: Operand) -> Value {
        let dest = self.fresh();
        self.push(Inst::Gep { dest, base, offset });
        dest
    }

    pub fn global_addr(&mut self, name: &str) -> Value {
        let dest = self.fresh();
        self.push(Inst::GlobalAddr {
            dest,
            name: name.to_string(),
        });
        dest
    }

    /// A direct call; returns the result value unless `ret` is `void`.
    pub fn call(
        &mut self,
        ret: IrType,
        callee: &str,
        args: Vec<(IrType, Operand)>,
    ) -> Option<Value> {
        self.call_to(ret, Callee::Direct(callee.to_string()), args)
    }

    /// A direct or indirect call; returns the result value unless `ret` is `void`.
    pub fn call_to(
        &mut self,
        ret: IrType,
        callee: Callee,
        args: Vec<(IrType, Operand)>,
    ) -> Option<Value> {
        let dest = if ret == IrType::Void {
            None
        } else {
            Some(self.fresh())
        };
        self.push(Inst::Call {
            dest,
            ret,
            callee,
            args,
            named: None,
        });
        dest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::konst;

    #[test]
    fn layout_follows_first_entry_and_prologue_leads() {
        let mut ids = BlockCounter::default();
        let mut b = FuncBuilder::new(&mut ids);
        let late = b.new_block(&mut ids);
        let early = b.new_block(&mut ids);
        let x = b.bin(
            BinOp::Add,
            IrType::I32,
            konst(IrType::I32, 1),
            konst(IrType::I32, 2),
        );
        let slot = b.fresh();
        b.push_prologue(Inst::Alloca {
            dest: slot,
            ty: IrType::I32,
            size: 4,
            align: 4,
            volatile: false,
        });
        b.terminate(Terminator::Br(early));
        b.switch_to(early);
        b.terminate(Terminator::Br(late));
        b.switch_to(late);
        b.terminate(Terminator::Ret(Some((IrType::I32, x.into()))));
        assert_eq!(b.unterminated(), 0);
        let f = b.finish("f".into(), vec![], IrType::I32, FuncAttrs::default());
        let labels: Vec<u32> = f.blocks.iter().map(|b| b.label.0).collect();
        assert_eq!(labels, vec![0, 2, 1]);
        assert!(matches!(f.blocks[0].insts[0], Inst::Alloca { .. }));
        assert!(matches!(f.blocks[0].insts[1], Inst::Bin { .. }));
    }

    #[test]
    fn cost_counts_weighted_instructions() {
        let mut ids = BlockCounter::default();
        let mut b = FuncBuilder::new(&mut ids);
        b.weight = 5;
        b.un(UnOp::Neg, IrType::I8, konst(IrType::I8, 3));
        b.terminate(Terminator::Ret(None));
        assert_eq!(b.cost, 10);
        assert!(!b.is_open());
    }
}
