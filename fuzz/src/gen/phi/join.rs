//! Joins and loop headers: where the phi generator writes phis.
//!
//! Why: the phi generator keeps the program's variables as an environment of SSA values
//! (the way SSA construction itself works); wherever control merges, the environment of
//! every incoming edge must be reconciled by phis. Doing it in one place makes the
//! generated phis correct by construction.
//!
//! Invariants:
//! - a [`Join`] records one environment per *distinct* predecessor (a predecessor naming
//!   the join twice in its terminator is recorded once), taken when the predecessor's
//!   terminator is emitted, so every recorded value is available at the end of that
//!   predecessor;
//! - at a join, a variable whose incoming values all agree may keep that value without a
//!   phi (its definition dominates every predecessor, hence the join); otherwise it gets
//!   a phi with exactly one entry per recorded predecessor, and constants of exactly the
//!   variable's type;
//! - a loop header gets a phi for every variable and for its counter, with one entry for
//!   the preheader and one per distinct back-edge source, filled in when the loop closes.

use crate::gen::builder::FuncBuilder;
use crate::gen::choice::Pick;
use arbitrary::{Result, Unstructured};
use compiler::ir::{BlockId, Inst, IrType, Operand, Value};

/// A block where control merges, and the environments flowing in.
#[derive(Clone, Debug)]
pub struct Join {
    pub block: BlockId,
    pub edges: Vec<(BlockId, Vec<Operand>)>,
}

impl Join {
    pub fn new(block: BlockId) -> Join {
        Join {
            block,
            edges: Vec::new(),
        }
    }

    /// Records the environment of the edge from `pred` (once per predecessor).
    pub fn add_edge(&mut self, pred: BlockId, env: &[Operand]) {
        if !self.edges.iter().any(|(p, _)| *p == pred) {
            self.edges.push((pred, env.to_vec()));
        }
    }
}

/// Emits the phis of `join` into the current block (which must be the join's block, still
/// empty) and returns the environment after them. `extra_percent`: how often a variable
/// whose incoming values agree still gets a phi (a phi with identical entries, or with a
/// single entry).
pub fn emit_join_phis(
    b: &mut FuncBuilder,
    u: &mut Unstructured,
    types: &[IrType],
    join: &Join,
    extra_percent: u32,
) -> Result<Vec<Operand>> {
    let Some(first) = join.edges.first() else {
        return Ok(Vec::new());
    };
    let mut env = first.1.clone();
    for (i, &ty) in types.iter().enumerate() {
        let agree = join.edges.iter().all(|(_, e)| e[i] == first.1[i]);
        if agree && !u.chance(extra_percent)? {
            continue;
        }
        let dest = b.fresh();
        b.push(Inst::Phi {
            dest,
            ty,
            incoming: join.edges.iter().map(|(p, e)| (e[i], *p)).collect(),
        });
        env[i] = dest.into();
    }
    Ok(env)
}

/// A loop header under construction: its phi destinations and incoming entries.
#[derive(Clone, Debug)]
pub struct Header {
    pub block: BlockId,
    /// One phi per variable.
    pub dests: Vec<Value>,
    /// The trip counter's phi and type.
    pub counter: Value,
    pub counter_ty: IrType,
    /// `(predecessor, environment, counter value)`, once per distinct predecessor.
    pub entries: Vec<(BlockId, Vec<Operand>, Operand)>,
}

impl Header {
    /// Records an entry edge (the preheader's or a back edge), once per predecessor.
    pub fn add_entry(&mut self, pred: BlockId, env: &[Operand], counter: Operand) {
        if !self.entries.iter().any(|(p, _, _)| *p == pred) {
            self.entries.push((pred, env.to_vec(), counter));
        }
    }

    /// The header's phis: the variables', then the counter's.
    pub fn phis(&self, types: &[IrType]) -> Vec<Inst> {
        let mut out: Vec<Inst> = self
            .dests
            .iter()
            .enumerate()
            .map(|(i, &dest)| Inst::Phi {
                dest,
                ty: types[i],
                incoming: self.entries.iter().map(|(p, e, _)| (e[i], *p)).collect(),
            })
            .collect();
        out.push(Inst::Phi {
            dest: self.counter,
            ty: self.counter_ty,
            incoming: self.entries.iter().map(|(p, _, c)| (*c, *p)).collect(),
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::builder::BlockCounter;
    use compiler::ir::konst;

    #[test]
    fn agreeing_values_need_no_phi_and_repeated_preds_count_once() {
        let mut ids = BlockCounter::default();
        let mut b = FuncBuilder::new(&mut ids);
        let j = b.new_block(&mut ids);
        let x = b.fresh();
        let mut join = Join::new(j);
        let e1 = vec![Operand::Value(x), konst(IrType::I8, 1)];
        let e2 = vec![Operand::Value(x), konst(IrType::I8, 2)];
        join.add_edge(BlockId(0), &e1);
        join.add_edge(BlockId(0), &e2); // the same predecessor again: ignored
        join.add_edge(BlockId(5), &e2);
        assert_eq!(join.edges.len(), 2);
        let mut u = Unstructured::new(&[]);
        let env = emit_join_phis(&mut b, &mut u, &[IrType::I32, IrType::I8], &join, 0).unwrap();
        assert_eq!(env[0], Operand::Value(x));
        let Operand::Value(p) = env[1] else {
            panic!("expected a phi")
        };
        assert_ne!(p, x);
    }
}
