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
//! Invariants: the counter is reset at the head and both entries increment and test it,
//! so every trip around any cycle of the region passes a test, and the region runs at
//! most `bound + 1` entry blocks per execution of the head; `weight` is multiplied
//! accordingly; values of the head are in scope in both entries and the exit, values of
//! one entry's body are in scope nowhere else.

use super::function::FnGen;
use crate::gen::choice::Pick;
use arbitrary::Result;
use compiler::ir::{IrType, Operand, Terminator};

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
        if self.u.chance(25)? {
            // The same choice as a switch on the i8 condition.
            self.b.terminate(Terminator::Switch {
                ty: IrType::I8,
                val: c,
                default: a,
                cases: vec![(0, b)],
            });
        } else {
            self.branch_either(c, a, b)?;
        }
        let outer_weight = self.b.weight;
        self.b.weight = outer_weight.saturating_mul(bound as u64 + 1);
        for (entry, other) in [(a, b), (b, a)] {
            self.b.switch_to(entry);
            let t = self.counter_step(ctr, bound)?;
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

    fn trip_room_for_irreducible(&self) -> u32 {
        let room = self.cfg.max_weight / self.b.weight.max(1);
        room.saturating_sub(1)
            .min(self.cfg.max_loop_bound as u64)
            .max(1) as u32
    }
}
