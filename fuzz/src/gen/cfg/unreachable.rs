//! Blocks nothing reaches, branching into blocks something does.
//!
//! Why: an unreachable predecessor of a join must get no phi entry and its loads and
//! stores must be cleaned up; dominator-based passes must not trip over blocks outside
//! the dominator tree. C code has them after `return` or in `if (0)` arms.
//!
//! Invariants: an unreachable block uses only the frame's allocas, globals, constants and
//! values it defines itself (never values of reachable blocks, whose definitions do not
//! dominate it); it may store to any slot, counters and guarded slots included — it never
//! runs, so no run depends on it; it contributes nothing to `cost` (weight 0); it never
//! calls or prints.

use super::function::FnGen;
use crate::gen::choice::Pick;
use arbitrary::Result;
use compiler::ir::{konst, BlockId, IrType, Terminator};

impl FnGen<'_, '_> {
    /// Splits the current point with a jump to a fresh block `next`, and adds one or two
    /// unreachable blocks that branch into `next` (or the enclosing loop).
    pub fn unreachable_stmt(&mut self) -> Result<()> {
        let next = self.block();
        self.close_to(next)?;
        let saved_avail = std::mem::take(&mut self.avail);
        let saved_weight = self.b.weight;
        let saved_flag = self.in_unreachable;
        self.b.weight = 0;
        self.in_unreachable = true;
        let dead = self.block();
        self.fill_dead_block(dead, next)?;
        if self.blocks_left >= 1 && self.u.chance(25)? {
            // A second dead block feeding the first.
            let dead2 = self.block();
            self.fill_dead_block(dead2, dead)?;
        }
        self.in_unreachable = saved_flag;
        self.b.weight = saved_weight;
        self.avail = saved_avail;
        self.b.switch_to(next);
        Ok(())
    }

    /// Straight-line code in `dead`, then a terminator into `next`, the enclosing loop, or
    /// nowhere (`unreachable`, `ret`).
    fn fill_dead_block(&mut self, dead: BlockId, next: BlockId) -> Result<()> {
        self.b.switch_to(dead);
        self.avail.clear();
        let n = self.u.between(1, 3)?;
        for _ in 0..n {
            self.simple_statement()?;
        }
        let loop_target = self
            .loops
            .last()
            .map(|l| if l.cont == next { l.brk } else { l.cont });
        let w = [6, if loop_target.is_some() { 2 } else { 0 }, 1, 1, 2];
        match self.u.weighted(&w)? {
            0 => self.b.terminate(Terminator::Br(next)),
            1 => {
                let c = self.cond(0)?;
                let other = loop_target.unwrap_or(next);
                self.branch_either(c, next, other)?;
            }
            2 => self.b.terminate(Terminator::Unreachable),
            3 => {
                let ret = self.plan.sigs[self.fi].ret;
                let r = if ret == IrType::Void {
                    None
                } else {
                    Some((ret, konst(ret, 0)))
                };
                self.b.terminate(Terminator::Ret(r));
            }
            _ => {
                let c = self.cond(0)?;
                self.b.terminate(Terminator::CondBr {
                    cond: c,
                    if_true: next,
                    if_false: next,
                });
            }
        }
        self.avail.clear();
        Ok(())
    }
}
