//! Irreducible regions: a cycle entered at two different blocks.
//!
//! Why: in an irreducible cycle neither entry dominates the other, so there is no single
//! loop header; dominator computation, dominance frontiers and phi placement all meet
//! the case textbooks skip.
//!
//! Shape: the head evaluates `c` and enters at `A` or `B`; each of `A` and `B` increments
//! the region's counter and tests it, then runs a body that jumps to the other entry (or
//! leaves). The cycle `A -> bodyA -> B -> bodyB -> A` is entered at both `A` and `B`.
//!
//! Detour: sometimes the head reaches `A` through a block `P` of its own (`head -> P -> A`,
//! `head -> B`). `P` computes a pure expression of the head's values and keeps it; `A`
//! computes the same expression again. The true immediate dominator of `A` is the head,
//! but `P` is `A`'s first predecessor in reverse postorder, so a dominator computation
//! that stops after one pass makes `P` dominate `A`, and GVN then reuses `P`'s value on
//! the path through `B` that never ran `P` (issue 15: "several entries into a cycle, with
//! instructions the pass would touch"; seeded bug `dominators_single_pass`).
//!
//! Invariants: the counter is reset at the head and both entries increment and test it,
//! so every trip around any cycle of the region passes a test, and the region runs at
//! most `bound + 1` entry blocks per execution of the head; `weight` is multiplied
//! accordingly; values of the head are in scope in both entries and the exit, values of
//! one entry's body (and of the detour) are in scope nowhere else; the detour's expression
//! has only the head's values and constants as operands, so `A` may compute it again.

use super::function::{FnGen, RecentBin};
use crate::gen::arith::{emit_safe_bin, DivisorGuard};
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, IrType, Operand, Terminator, Value};

impl FnGen<'_, '_> {
    /// An irreducible region with its own counter.
    pub fn irreducible_stmt(&mut self, depth: u32) -> Result<()> {
        let bound = self.u.between(1, self.trip_room_for_irreducible())?;
        let ctr = self.fresh_counter()?;
        let c = self.compare(1)?;
        let mark = self.mark();
        let a = self.block();
        let b = self.block();
        let exit = self.block();
        let detour = self.detour_expression()?;
        let first_a = match detour {
            Some(_) => self.block(),
            None => a,
        };
        let a_from_head = first_a;
        if self.u.chance(25)? {
            // The same choice as a switch on the i8 condition.
            self.b.terminate(Terminator::Switch {
                ty: IrType::I8,
                val: c,
                default: a_from_head,
                cases: vec![(0, b)],
            });
        } else {
            self.branch_either(c, a_from_head, b)?;
        }
        if let Some(expr) = detour {
            self.b.switch_to(first_a);
            self.emit_kept(expr)?;
            self.b.terminate(Terminator::Br(a));
            self.reset(mark);
        }
        let outer_weight = self.b.weight;
        self.b.weight = outer_weight.saturating_mul(bound as u64 + 1);
        for (entry, other) in [(a, b), (b, a)] {
            self.b.switch_to(entry);
            let t = self.counter_step(ctr, bound)?;
            if let (Some(expr), true) = (detour, entry == a) {
                // The detour's expression again: redundant only if the detour dominated.
                self.emit_kept(expr)?;
            }
            let body = self.block();
            self.branch_keep_going(t, body, exit)?;
            self.b.switch_to(body);
            self.sequence(depth + 1, self.cfg.max_stmts.div_ceil(2))?;
            if self.u.chance(40)? {
                let d: Operand = self.cond(0)?;
                self.branch_either(d, other, exit)?;
            } else {
                self.b.terminate(Terminator::Br(other));
            }
            self.reset(mark);
        }
        self.b.weight = outer_weight;
        self.b.switch_to(exit);
        self.reset(mark);
        Ok(())
    }

    /// The detour's expression (one time in three, when the head has an integer value in
    /// scope): a binary operation on head values and interesting constants.
    fn detour_expression(&mut self) -> Result<Option<RecentBin>> {
        let ints: Vec<(Value, IrType)> = self
            .avail
            .iter()
            .copied()
            .filter(|(_, ty)| ty.is_integer())
            .collect();
        if ints.is_empty() || !self.u.chance(33)? {
            return Ok(None);
        }
        let (lhs, ty) = ints[self.u.index(ints.len())?];
        let same: Vec<Value> = ints
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(v, _)| *v)
            .collect();
        let rhs: Operand = if self.u.chance(50)? {
            same[self.u.index(same.len())?].into()
        } else {
            konst(ty, interesting(self.u, ty)?)
        };
        let op = BinOp::ALL[self.u.index(BinOp::ALL.len())?];
        let guard = DivisorGuard::pick(self.u, op)?;
        Ok(Some(RecentBin {
            op,
            ty,
            lhs: lhs.into(),
            rhs,
            guard,
        }))
    }

    /// Emits `expr` and folds its value into a slot, so it is live and observable.
    fn emit_kept(&mut self, expr: RecentBin) -> Result<()> {
        let v = emit_safe_bin(
            &mut self.b,
            expr.op,
            expr.ty,
            expr.lhs,
            expr.rhs,
            expr.guard,
        );
        self.define(v, expr.ty);
        self.keep_result(v, expr.ty)
    }

    fn trip_room_for_irreducible(&self) -> u32 {
        let room = self.cfg.max_weight / self.b.weight.max(1);
        room.saturating_sub(1)
            .min(self.cfg.max_loop_bound as u64)
            .max(1) as u32
    }
}
