//! Structured control flow: sequences, if/else, switch, loops, break/continue, early
//! returns.
//!
//! Why: SSA construction breaks on joins, loops with several back edges, critical edges
//! and repeated targets; this module produces them the way a C front end's lowering does,
//! nested, with the shapes varied (`condbr %c, .LBB5, .LBB5`, switch cases sharing a
//! target, fall-through between switch arms, latches that branch back or out).
//!
//! Invariants (with those of `function`):
//! - every loop has its own counter slot, reset right before the loop and incremented and
//!   tested (`<= bound`) on every trip: in the header for `while` loops (continue jumps
//!   there), in the latch for `do-while` loops (continue jumps to the latch), so every
//!   cycle passes the test and a loop runs at most `bound + 1` times per entry;
//! - `weight` is multiplied by `bound + 1` inside a loop and restored after it, and a loop
//!   is only opened while `weight * (bound + 1) <= max_weight`;
//! - a loop for which `invariant_div` prepared a guarded division (in the block that jumps
//!   to its header) contains it: as a statement of the body or, failing that, at the
//!   body's end when the cost and block budgets still allow;
//! - a loop without such a division is sometimes entered by a `condbr` on a data
//!   condition whose other target is the loop's exit (the loop may be skipped): such a
//!   loop has no preheader, the situation mem2reg, LICM and cfg_simplify must handle;
//! - recursion depth is bounded by `MAX_DEPTH`, not by the input.

use super::expr::int_type;
use super::frame::Role;
use super::function::{FnGen, LoopTargets};
use crate::gen::choice::Pick;
use crate::gen::consts::canonical;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, BlockId, CmpPred, IrConst, IrType, Operand, Terminator};

/// Deepest nesting of constructs.
pub(super) const MAX_DEPTH: u32 = 5;

/// Instructions a statement may add at most, for the cost check (a generous estimate).
const STATEMENT_COST: u64 = 80;

impl FnGen<'_, '_> {
    /// Up to `max_stmts` statements; then, sometimes, reads of guarded slots written here.
    pub fn sequence(&mut self, depth: u32, max_stmts: u32) -> Result<()> {
        let n = self.u.between(1, max_stmts.max(1))?;
        let guards_before = self.guards.len();
        for _ in 0..n {
            if !self.b.is_open() {
                break;
            }
            self.statement(depth)?;
        }
        for gi in guards_before..self.guards.len() {
            let g = self.guards[gi];
            if !g.read && self.in_scope(g.cond) && self.blocks_left >= 2 && self.u.chance(70)? {
                self.guarded_read(gi)?;
            }
        }
        Ok(())
    }

    /// Room for a cycle: the largest trip bound that keeps `weight` within budget.
    fn trip_room(&self) -> u32 {
        let room = self.cfg.max_weight / self.b.weight.max(1);
        room.saturating_sub(1).min(self.cfg.max_loop_bound as u64) as u32
    }

    /// One statement, chosen among those the budgets allow.
    fn statement(&mut self, depth: u32) -> Result<()> {
        let over_budget = self
            .b
            .cost
            .saturating_add(self.b.weight.saturating_mul(STATEMENT_COST))
            > self.cfg.max_cost;
        if over_budget {
            return Ok(());
        }
        let nest = depth < MAX_DEPTH;
        let bl = self.blocks_left;
        let in_loop = !self.loops.is_empty();
        let can_loop = nest && self.loop_depth < self.cfg.max_loop_depth && self.trip_room() >= 1;
        let guard_ready = self.guards.iter().any(|g| self.in_scope(g.cond));
        let on = |cond: bool, w: u32| if cond { w } else { 0 };
        let weights = [
            12,
            on(nest && bl >= 2, 5),
            on(nest && bl >= 3, 4),
            on(nest && bl >= 3, 2),
            on(can_loop && bl >= 3, 4),
            on(can_loop && bl >= 5, self.cfg.irreducible_weight),
            on(in_loop && bl >= 1, 2),
            on(in_loop && bl >= 1, 2),
            on(bl >= 2, 1),
            on(guard_ready && bl >= 2, 3),
            on(bl >= 2, 1),
            on(bl >= 3, self.cfg.unreachable_weight),
            on(self.pending_invariant_div().is_some() && bl >= 2, 4),
        ];
        match self.u.weighted(&weights)? {
            0 => self.simple_statement(),
            1 => self.if_stmt(depth, false),
            2 => self.if_stmt(depth, true),
            3 => self.switch_stmt(depth),
            4 => self.loop_stmt(depth),
            5 => self.irreducible_stmt(depth),
            6 => self.jump_out(true),
            7 => self.jump_out(false),
            8 => self.guarded_write(),
            9 => {
                let ready: Vec<usize> = (0..self.guards.len())
                    .filter(|&i| self.in_scope(self.guards[i].cond))
                    .collect();
                let gi = ready[self.u.index(ready.len())?];
                self.guarded_read(gi)
            }
            10 => self.early_return(),
            11 => self.unreachable_stmt(),
            _ => match self.pending_invariant_div() {
                Some(k) => self.invariant_div_stmt(k),
                None => Ok(()),
            },
        }
    }

    /// Closes the current block with a jump to `target`, sometimes as a `condbr` naming it
    /// twice (a repeated target).
    pub fn close_to(&mut self, target: BlockId) -> Result<()> {
        if self.u.chance(10)? {
            let c = self.cond(0)?;
            self.b.terminate(Terminator::CondBr {
                cond: c,
                if_true: target,
                if_false: target,
            });
        } else {
            self.b.terminate(Terminator::Br(target));
        }
        Ok(())
    }

    /// `condbr c, a, b` with the two targets in random order: only for data conditions,
    /// whose sense does not matter to the program's validity (never for counter tests,
    /// see [`FnGen::branch_keep_going`]).
    pub fn branch_either(&mut self, c: Operand, a: BlockId, b: BlockId) -> Result<()> {
        let (t, f) = if self.u.chance(50)? { (a, b) } else { (b, a) };
        self.b.terminate(Terminator::CondBr {
            cond: c,
            if_true: t,
            if_false: f,
        });
        Ok(())
    }

    /// Branches to `stay` when the counter test `t` holds and to `leave` otherwise: as
    /// `condbr t, stay, leave`, or negated as `condbr (t == 0), leave, stay`. The sense of a
    /// counter test is what makes the cycle terminate, so it is never randomized.
    pub fn branch_keep_going(&mut self, t: Operand, stay: BlockId, leave: BlockId) -> Result<()> {
        let term = if self.u.chance(50)? {
            let negated = self.b.cmp(CmpPred::Eq, IrType::I8, t, konst(IrType::I8, 0));
            self.define(negated, IrType::I8);
            Terminator::CondBr {
                cond: negated.into(),
                if_true: leave,
                if_false: stay,
            }
        } else {
            Terminator::CondBr {
                cond: t,
                if_true: stay,
                if_false: leave,
            }
        };
        self.b.terminate(term);
        Ok(())
    }

    /// An arm: enter `start`, fill it, jump to `join`, forget the arm's values.
    fn arm(&mut self, start: BlockId, join: BlockId, depth: u32, mark: usize) -> Result<()> {
        self.b.switch_to(start);
        self.sequence(depth + 1, self.cfg.max_stmts)?;
        self.close_to(join)?;
        self.reset(mark);
        Ok(())
    }

    /// `if (c) {...}` or `if (c) {...} else {...}`; without else, the edge from the head to
    /// the join is critical. Sometimes degenerate: `condbr c, join, join` or both edges to
    /// the then-arm.
    fn if_stmt(&mut self, depth: u32, with_else: bool) -> Result<()> {
        let c = self.cond(1)?;
        let mark = self.mark();
        let join = self.block();
        if !with_else && self.u.chance(6)? {
            self.b.terminate(Terminator::CondBr {
                cond: c,
                if_true: join,
                if_false: join,
            });
            self.b.switch_to(join);
            return Ok(());
        }
        let then = self.block();
        if with_else {
            let els = self.block();
            self.branch_either(c, then, els)?;
            self.arm(then, join, depth, mark)?;
            self.arm(els, join, depth, mark)?;
        } else {
            if self.u.chance(8)? {
                self.b.terminate(Terminator::CondBr {
                    cond: c,
                    if_true: then,
                    if_false: then,
                });
            } else {
                self.branch_either(c, then, join)?;
            }
            self.arm(then, join, depth, mark)?;
        }
        self.b.switch_to(join);
        self.reset(mark);
        Ok(())
    }

    /// A switch with 1-4 arms, cases (and the default) sharing targets, some cases going
    /// straight to the join, and sometimes fall-through from one arm into the next.
    fn switch_stmt(&mut self, depth: u32) -> Result<()> {
        let ty = int_type(self.u)?;
        let mut v = self.expr(ty, 1)?;
        if self.u.chance(80)? {
            // Keep the value small so that the cases are hit.
            let mask = if self.u.chance(50)? { 3 } else { 7 };
            let masked = self.b.bin(BinOp::And, ty, v, konst(ty, mask));
            self.define(masked, ty);
            v = masked.into();
        }
        let narms =
            self.u
                .between(1, 4.min(self.blocks_left.saturating_sub(1)).max(1))? as usize;
        let join = self.block();
        let arms: Vec<BlockId> = (0..narms).map(|_| self.block()).collect();
        let mut pool = arms.clone();
        pool.push(join);
        // Every arm gets at least one edge: either the default takes arm 0 and the first
        // cases the others, or the cases take all arms and the default goes anywhere.
        let ncases = (self.u.between(1, 6)? as usize).max(narms);
        let default_anywhere = self.u.chance(30)?;
        let default = if default_anywhere {
            pool[self.u.index(pool.len())?]
        } else {
            arms[0]
        };
        let first_arm = if default_anywhere { 0 } else { 1 };
        let mut cases: Vec<(i64, BlockId)> = Vec::new();
        let mut candidate = if self.u.chance(70)? { 0 } else { -2 };
        for k in 0..ncases {
            let target = match arms.get(first_arm + k) {
                Some(&a) => a,
                None => pool[self.u.index(pool.len())?],
            };
            // Strictly increasing small candidates (-2..=12): distinct after
            // canonicalization for every type, and small enough to be hit.
            let val = canonical(ty, candidate);
            candidate += 1 + self.u.between(0, 1)? as i64;
            cases.push((val, target));
        }
        self.b.terminate(Terminator::Switch {
            ty,
            val: v,
            default,
            cases,
        });
        let mark = self.mark();
        for (i, &arm) in arms.iter().enumerate() {
            self.b.switch_to(arm);
            self.sequence(depth + 1, self.cfg.max_stmts.div_ceil(2))?;
            if i + 1 < arms.len() && self.u.chance(25)? {
                self.b.terminate(Terminator::Br(arms[i + 1]));
            } else {
                self.close_to(join)?;
            }
            self.reset(mark);
        }
        self.b.switch_to(join);
        self.reset(mark);
        Ok(())
    }

    /// Increments counter slot `ctr` and returns the `i8` "keep going" condition
    /// `ctr <= bound` (sometimes and-ed with a data condition).
    pub fn counter_step(&mut self, ctr: usize, bound: u32) -> Result<Operand> {
        let slot = self.frame.slots[ctr];
        let ty = slot.spec.ty;
        let c = self.b.load(ty, slot.ptr.into());
        let c1 = self.b.bin(BinOp::Add, ty, c.into(), konst(ty, 1));
        self.b.store(ty, c1.into(), slot.ptr.into());
        let pred = if ty.is_signed() {
            CmpPred::Sle
        } else {
            CmpPred::Ule
        };
        let t = self.b.cmp(pred, ty, c1.into(), konst(ty, bound as i64));
        self.define(c, ty);
        self.define(c1, ty);
        self.define(t, IrType::I8);
        if self.u.chance(35)? {
            let d = self.compare(1)?;
            let both = self.b.bin(BinOp::And, IrType::I8, t.into(), d);
            self.define(both, IrType::I8);
            return Ok(both.into());
        }
        Ok(t.into())
    }

    /// A fresh counter slot zeroed at the current point; returns its index.
    pub fn fresh_counter(&mut self) -> Result<usize> {
        let ty = int_type(self.u)?;
        let ctr = self.new_late_slot(ty, Role::Counter);
        let zero = if self.u.chance(50)? {
            Operand::Const(IrConst::new(IrType::I64, 0))
        } else {
            konst(ty, 0)
        };
        let ptr = self.frame.slots[ctr].ptr;
        self.b.store(ty, zero, ptr.into());
        Ok(ctr)
    }

    /// A `while` loop (test in the header) or a `do-while` loop (test in the latch).
    fn loop_stmt(&mut self, depth: u32) -> Result<()> {
        let bound = self.u.between(1, self.trip_room())?;
        let ctr = self.fresh_counter()?;
        // In the block that jumps to the header: the loop's preheader (unless the loop is
        // entered by a branch that may skip it, see below).
        let prepared = self.maybe_prepare_invariant_div()?;
        let outer_weight = self.b.weight;
        let mark = self.mark();
        let header = self.block();
        let exit = self.block();
        if !prepared && self.u.chance(25)? {
            // Entered by a branch that may skip it: the header has no preheader (the
            // block before it has two successors), as mem2reg and LICM must handle.
            let c = self.cond(0)?;
            self.branch_either(c, header, exit)?;
        } else {
            self.b.terminate(Terminator::Br(header));
        }
        self.b.weight = outer_weight.saturating_mul(bound as u64 + 1);
        self.loop_depth += 1;
        if self.u.chance(65)? {
            // while: header tests, body jumps back (continue jumps to the header too).
            let body = self.block();
            self.b.switch_to(header);
            if self.u.chance(30)? {
                self.simple_statement()?;
            }
            let t = self.counter_step(ctr, bound)?;
            self.branch_keep_going(t, body, exit)?;
            let header_mark = self.mark();
            self.loops.push(LoopTargets {
                cont: header,
                brk: exit,
            });
            self.b.switch_to(body);
            self.sequence(depth + 1, self.cfg.max_stmts)?;
            self.finish_invariant_div(prepared)?;
            if self.u.chance(30)? {
                // A latch that branches back or out.
                let d = self.cond(0)?;
                self.branch_either(d, header, exit)?;
            } else {
                self.close_to(header)?;
            }
            self.reset(header_mark);
        } else {
            // do-while: the body is entered first; continue goes to the latch.
            let latch = self.block();
            self.loops.push(LoopTargets {
                cont: latch,
                brk: exit,
            });
            self.b.switch_to(header);
            self.sequence(depth + 1, self.cfg.max_stmts)?;
            self.finish_invariant_div(prepared)?;
            self.close_to(latch)?;
            self.reset(mark);
            self.b.switch_to(latch);
            let t = self.counter_step(ctr, bound)?;
            self.branch_keep_going(t, header, exit)?;
        }
        self.loops.pop();
        self.loop_depth -= 1;
        self.b.weight = outer_weight;
        self.b.switch_to(exit);
        self.reset(mark);
        Ok(())
    }

    /// At the end of a loop body: emits the division prepared for this loop (`prepared`)
    /// if no statement of the body did and the budgets allow, then forgets it.
    fn finish_invariant_div(&mut self, prepared: bool) -> Result<()> {
        let Some(k) = self
            .invariant_divs
            .len()
            .checked_sub(1)
            .filter(|_| prepared)
        else {
            return Ok(());
        };
        // Cost and blocks: the body may have spent the blocks left when it was prepared.
        let affordable = self
            .b
            .cost
            .saturating_add(self.b.weight.saturating_mul(STATEMENT_COST))
            <= self.cfg.max_cost
            && self.blocks_left >= 2;
        if !self.invariant_divs[k].used && self.b.is_open() && affordable {
            self.invariant_div_stmt(k)?;
        }
        self.invariant_divs.pop();
        Ok(())
    }

    /// `if (c) break;` (`is_break`) or `if (c) continue;` in the innermost loop.
    fn jump_out(&mut self, is_break: bool) -> Result<()> {
        let Some(targets) = self.loops.last().copied() else {
            return Ok(());
        };
        let target = if is_break { targets.brk } else { targets.cont };
        let c = self.cond(1)?;
        let next = self.block();
        self.branch_either(c, target, next)?;
        self.b.switch_to(next);
        Ok(())
    }

    /// `if (c) return checksum;`
    fn early_return(&mut self) -> Result<()> {
        let c = self.cond(1)?;
        let mark = self.mark();
        let ret = self.block();
        let next = self.block();
        self.branch_either(c, ret, next)?;
        self.b.switch_to(ret);
        self.emit_return();
        self.reset(mark);
        self.b.switch_to(next);
        Ok(())
    }
}
