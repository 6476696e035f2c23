//! Which register reads are proven to follow an assignment.
//!
//! Why: reading a register the current frame never assigned is undefined behaviour (it
//! catches broken phi elimination), but checking every read would slow every instruction.
//! A read is *proven* when some definition of the register dominates it: that definition
//! ran, in this frame, before the read. Only the other reads get a run-time check, and
//! only registers with such reads pay for recording assignments. In SSA form every read is
//! proven; after phi elimination a copy on one path of a diamond is not.
//!
//! Invariants:
//! - positions inside block `b`: a phi defines at position 0; instruction `i` defines at
//!   position `i + 1` and reads at position `i`; the terminator reads at position
//!   `insts.len()`; a phi's incoming value is read at the end of the predecessor,
//!   position [`END_OF_BLOCK`];
//! - `proven` may say "no" for a read that is in fact always assigned (it stops looking
//!   after [`MAX_DEFS_EXAMINED`] definitions); it never says "yes" wrongly. Unreachable
//!   blocks prove nothing.

use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{IrFunction, Value};

/// Read position of a phi's incoming value in its predecessor.
pub(crate) const END_OF_BLOCK: u32 = u32::MAX;
/// Definitions of one register looked at per read (post-phi-elimination registers have a
/// few; a pathological input may have thousands).
const MAX_DEFS_EXAMINED: usize = 16;

/// Definition sites of every register, in compressed rows.
pub(crate) struct Definitions {
    offsets: Vec<u32>,
    /// `(block index, position)` of each definition, grouped by register.
    sites: Vec<(u32, u32)>,
}

impl Definitions {
    /// Collects the definitions of `func`'s registers; `reg` numbers them `0..reg_count`.
    pub fn collect(func: &IrFunction, reg: impl Fn(Value) -> u32, reg_count: usize) -> Definitions {
        // Counting sort by register: count, prefix-sum, then place each site in
        // traversal order (block order, then position: for a well-formed block, whose
        // phis come first, that is (block, position) order).
        let each_def = |f: &mut dyn FnMut(u32, u32, u32)| {
            for (b, block) in func.blocks.iter().enumerate() {
                for (i, inst) in block.insts.iter().enumerate() {
                    if let Some(d) = inst.dest() {
                        let pos = if inst.is_phi() { 0 } else { i as u32 + 1 };
                        f(reg(d), b as u32, pos);
                    }
                }
            }
        };
        let mut offsets = vec![0u32; reg_count + 1];
        each_def(&mut |r, _, _| {
            if (r as usize) < reg_count {
                offsets[r as usize + 1] += 1;
            }
        });
        for i in 0..reg_count {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut sites = vec![(0u32, 0u32); offsets[reg_count] as usize];
        each_def(&mut |r, b, p| {
            if let Some(at) = fill.get_mut(r as usize) {
                sites[*at as usize] = (b, p);
                *at += 1;
            }
        });
        Definitions { offsets, sites }
    }

    /// Definition sites of register `v` (dense number).
    pub fn of(&self, v: u32) -> &[(u32, u32)] {
        let v = v as usize;
        if v + 1 >= self.offsets.len() {
            return &[];
        }
        &self.sites[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// True when some definition of `v` runs before every execution of a read at
    /// (`block`, `pos`).
    pub fn proven(&self, cfg: &CfgAnalysis, v: u32, block: usize, pos: u32) -> bool {
        self.of(v)
            .iter()
            .take(MAX_DEFS_EXAMINED)
            .any(|&(db, dpos)| {
                let db = db as usize;
                if db == block {
                    dpos <= pos && cfg.is_reachable(block)
                } else {
                    cfg.dominates(db, block)
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::{konst, BasicBlock, BlockId, FuncAttrs, Inst, IrType, Operand, Terminator};

    fn copy(d: u32, v: i64) -> Inst {
        Inst::Copy {
            dest: Value(d),
            ty: IrType::I32,
            src: konst(IrType::I32, v),
        }
    }

    /// A diamond: .LBB0 -> .LBB1 | .LBB2 -> .LBB3; %0 is copied on both arms (as phi
    /// elimination leaves it), %1 on one arm only, %2 in the entry.
    fn diamond() -> IrFunction {
        let b = |n| BlockId(n);
        IrFunction {
            name: "f".into(),
            params: vec![],
            ret: IrType::I32,
            variadic: false,
            attrs: FuncAttrs::default(),
            blocks: vec![
                BasicBlock {
                    label: b(0),
                    insts: vec![copy(2, 0)],
                    term: Terminator::CondBr {
                        cond: Operand::Value(Value(2)),
                        if_true: b(1),
                        if_false: b(2),
                    },
                },
                BasicBlock {
                    label: b(1),
                    insts: vec![copy(0, 1), copy(1, 1)],
                    term: Terminator::Br(b(3)),
                },
                BasicBlock {
                    label: b(2),
                    insts: vec![copy(0, 2)],
                    term: Terminator::Br(b(3)),
                },
                BasicBlock {
                    label: b(3),
                    insts: vec![],
                    term: Terminator::Ret(Some((IrType::I32, Operand::Value(Value(0))))),
                },
            ],
        }
    }

    #[test]
    fn dominating_definitions_prove_reads() {
        let f = diamond();
        let cfg = CfgAnalysis::build(&f);
        let defs = Definitions::collect(&f, |v| v.0, 3);
        // %2 is defined at entry position 1: proven in every later block, and after it in
        // the entry, but not before it.
        assert!(defs.proven(&cfg, 2, 0, 1));
        assert!(!defs.proven(&cfg, 2, 0, 0));
        assert!(defs.proven(&cfg, 2, 3, 0));
        // %0 is assigned on both arms but neither arm dominates the join: not proven (a
        // run-time check decides), though it is proven inside each arm after the copy.
        assert!(!defs.proven(&cfg, 0, 3, 0));
        assert!(defs.proven(&cfg, 0, 1, 1));
        assert!(!defs.proven(&cfg, 0, 1, 0));
        // %1 only on one arm.
        assert!(!defs.proven(&cfg, 1, 3, 0));
        assert!(defs.proven(&cfg, 1, 1, END_OF_BLOCK));
    }
}
