//! Basic blocks and functions.
//!
//! Why: a function is a list of blocks, the first of which is the entry. Parameters are
//! types only; their incoming values appear through `paramref N, TYPE`, which the lowering
//! stores into the parameter's stack slot (the seed's ParamRef + Store protocol).
//!
//! Invariants: value numbers are per function; fresh ones come from
//! [`IrFunction::value_bound`]. Which allocas are *parameter allocas* is derived, never
//! stored ([`IrFunction::param_allocas`]), so no pass can leave it stale.

use super::{BlockId, Inst, IrType, Operand, Terminator, Value};
use rustc_hash::FxHashMap;

/// A labelled straight-line sequence of instructions and one terminator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BasicBlock {
    pub label: BlockId,
    pub insts: Vec<Inst>,
    pub term: Terminator,
}

impl BasicBlock {
    /// An empty block ending in `term`.
    pub fn new(label: BlockId, term: Terminator) -> BasicBlock {
        BasicBlock {
            label,
            insts: Vec::new(),
            term,
        }
    }

    /// The leading phis.
    pub fn phis(&self) -> impl Iterator<Item = &Inst> {
        self.insts.iter().take_while(|i| i.is_phi())
    }

    /// Number of leading phis.
    pub fn phi_count(&self) -> usize {
        self.insts.iter().take_while(|i| i.is_phi()).count()
    }
}

/// Function attributes written after `func` in the text form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FuncAttrs {
    /// `static`: internal linkage; may be deleted when unreferenced.
    pub is_static: bool,
    /// `inline`: a hint to the inliner.
    pub is_inline: bool,
    /// `noinline`: never inlined.
    pub is_noinline: bool,
    /// `align N`: the code starts at a multiple of N bytes (a power of two; C's
    /// `__attribute__((aligned(N)))` on a function); 0 for the target's own alignment.
    pub align: u32,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IrFunction {
    pub name: String,
    pub params: Vec<IrType>,
    pub ret: IrType,
    /// Accepts `...` after the named parameters.
    pub variadic: bool,
    pub attrs: FuncAttrs,
    /// `blocks[0]` is the entry.
    pub blocks: Vec<BasicBlock>,
}

impl IrFunction {
    /// One past the largest value number defined or used: the size of a flat table
    /// indexed by value, and the first fresh value number.
    pub fn value_bound(&self) -> u32 {
        let mut bound = 0u32;
        let mut see = |v: Value| bound = bound.max(v.0 + 1);
        for b in &self.blocks {
            for i in &b.insts {
                if let Some(d) = i.dest() {
                    see(d);
                }
                i.for_each_used_value(&mut see);
            }
            b.term.for_each_used_value(&mut see);
        }
        bound
    }

    /// One past the largest block id in this function.
    pub fn block_bound(&self) -> u32 {
        self.blocks.iter().map(|b| b.label.0 + 1).max().unwrap_or(0)
    }

    /// Index of each block label in `blocks`.
    pub fn block_index(&self) -> FxHashMap<BlockId, usize> {
        self.blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.label, i))
            .collect()
    }

    /// The parameter allocas: for parameter N, the entry-block alloca that the entry block
    /// stores `paramref N` into (the lowering's ParamRef + Store protocol), if there is one.
    /// A slot counts only when it is stored a paramref of the same type as the slot.
    pub fn param_allocas(&self) -> Vec<Option<Value>> {
        let mut slots = vec![None; self.params.len()];
        let Some(entry) = self.blocks.first() else {
            return slots;
        };
        let mut allocas: FxHashMap<Value, IrType> = FxHashMap::default();
        let mut paramrefs: FxHashMap<Value, u32> = FxHashMap::default();
        for inst in &entry.insts {
            match inst {
                Inst::Alloca { dest, ty, .. } => {
                    allocas.insert(*dest, *ty);
                }
                Inst::ParamRef { dest, index, .. } => {
                    paramrefs.insert(*dest, *index);
                }
                Inst::Store {
                    ty,
                    val: Operand::Value(v),
                    ptr: Operand::Value(p),
                } => {
                    if let (Some(&n), Some(&slot_ty)) = (paramrefs.get(v), allocas.get(p)) {
                        if slot_ty == *ty
                            && (n as usize) < slots.len()
                            && slots[n as usize].is_none()
                        {
                            slots[n as usize] = Some(*p);
                        }
                    }
                }
                _ => {}
            }
        }
        slots
    }

    /// Total number of instructions, terminators included.
    pub fn inst_count(&self) -> usize {
        self.blocks.iter().map(|b| b.insts.len() + 1).sum()
    }
}
