//! Renumbering a generated module for reading.
//!
//! Why: generators allocate block ids and values in the order they decide things, which
//! is not the order a reader reads. Renumbering blocks in layout order (module-wide,
//! function by function) and values in definition order makes the printed program read
//! top to bottom, and makes "same seed, same module" a comparison of canonical forms.
//!
//! Invariants: a bijection on block ids (module-wide, so they stay unique) and on defined
//! values (per function); a value used but never defined (a generator bug) is mapped to a
//! fresh number after all defined ones, never merged with a defined value.

use compiler::ir::{BlockId, Inst, IrModule, Operand, Value};
use rustc_hash::FxHashMap;

/// Renumbers blocks (from 0, in function then layout order) and values (per function, in
/// definition order).
pub fn renumber_module(m: &mut IrModule) {
    let mut next_block = 0u32;
    for f in &mut m.functions {
        let mut blocks: FxHashMap<BlockId, BlockId> =
            FxHashMap::with_capacity_and_hasher(f.blocks.len(), Default::default());
        for b in &f.blocks {
            blocks.insert(b.label, BlockId(next_block));
            next_block += 1;
        }
        let insts: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
        let mut values: FxHashMap<Value, Value> =
            FxHashMap::with_capacity_and_hasher(insts, Default::default());
        let mut next_value = 0u32;
        for b in &f.blocks {
            for i in &b.insts {
                if let Some(d) = i.dest() {
                    values.entry(d).or_insert_with(|| {
                        next_value += 1;
                        Value(next_value - 1)
                    });
                }
            }
        }
        let mut rename = |v: &mut Value| {
            let new = *values.entry(*v).or_insert_with(|| {
                next_value += 1;
                Value(next_value - 1)
            });
            *v = new;
        };
        let map_block = |b: &mut BlockId| {
            if let Some(n) = blocks.get(b) {
                *b = *n;
            }
        };
        for b in &mut f.blocks {
            map_block(&mut b.label);
            for i in &mut b.insts {
                if let Some(d) = i.dest_mut() {
                    rename(d);
                }
                i.for_each_operand_mut(|op| {
                    if let Operand::Value(v) = op {
                        rename(v);
                    }
                });
                if let Inst::Phi { incoming, .. } = i {
                    for (_, l) in incoming {
                        map_block(l);
                    }
                }
            }
            b.term.for_each_operand_mut(|op| {
                if let Operand::Value(v) = op {
                    rename(v);
                }
            });
            b.term.for_each_successor_mut(map_block);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::{BasicBlock, BinOp, IrFunction, IrType, Terminator};

    #[test]
    fn renumbers_in_reading_order() {
        let f = IrFunction {
            name: "f".into(),
            params: vec![],
            ret: IrType::I32,
            variadic: false,
            attrs: Default::default(),
            blocks: vec![
                BasicBlock {
                    label: BlockId(7),
                    insts: vec![Inst::Bin {
                        dest: Value(9),
                        op: BinOp::Add,
                        ty: IrType::I32,
                        lhs: Operand::Value(Value(9)),
                        rhs: Operand::Value(Value(4)),
                    }],
                    term: Terminator::Br(BlockId(3)),
                },
                BasicBlock {
                    label: BlockId(3),
                    insts: vec![Inst::Phi {
                        dest: Value(4),
                        ty: IrType::I32,
                        incoming: vec![(Operand::Value(Value(9)), BlockId(7))],
                    }],
                    term: Terminator::Ret(Some((IrType::I32, Operand::Value(Value(4))))),
                },
            ],
        };
        let mut m = IrModule {
            functions: vec![f],
            ..Default::default()
        };
        renumber_module(&mut m);
        let f = &m.functions[0];
        assert_eq!(f.blocks[0].label, BlockId(0));
        assert_eq!(f.blocks[1].label, BlockId(1));
        assert_eq!(f.blocks[0].term, Terminator::Br(BlockId(1)));
        assert_eq!(
            f.blocks[0].insts[0],
            Inst::Bin {
                dest: Value(0),
                op: BinOp::Add,
                ty: IrType::I32,
                lhs: Operand::Value(Value(0)),
                rhs: Operand::Value(Value(1)),
            }
        );
        assert_eq!(
            f.blocks[1].insts[0],
            Inst::Phi {
                dest: Value(1),
                ty: IrType::I32,
                incoming: vec![(Operand::Value(Value(0)), BlockId(0))],
            }
        );
    }
}
