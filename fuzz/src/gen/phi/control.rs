//! Control flow of the phi generator: if/else, switch, loops whose headers carry phis,
//! break, continue, early return.
//!
//! Why: phi elimination must place copies on every edge into a phi block; its failures
//! are on critical edges (a latch that branches back or out, an if without else), on
//! repeated edges (`condbr %c, .LBB5, .LBB5`, switch cases sharing a target), on joins
//! with many predecessors, and in the parallel copies of back edges — which shuffles
//! (see `shuffle`) make into swaps, rotations and chains.
//!
//! Invariants:
//! - every loop has a counter phi `i = phi [0, pre], [next, latch]...` tested `i < bound`
//!   in the header, with `next = i + 1` defined at the top of the body, which dominates
//!   every back edge's source; so a loop runs its body at most `bound` times per entry and
//!   `weight` is multiplied by `bound + 1` inside it;
//! - every edge records the environment at its source (`PhiGen::record`), and every merge
//!   point is entered through `PhiGen::enter` (joins) or closed by the header's phis, so
//!   all phi entries are available at the end of their predecessor;
//! - sequences start and end with an open block; recursion depth is bounded by
//!   `MAX_DEPTH`.

use super::function::{Dest, LoopCtx, PhiGen};
use super::join::Header;
use super::shuffle::{plan_shuffle, Source};
use crate::gen::choice::Pick;
use crate::gen::consts::canonical;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, CmpPred, IrType, Operand, Terminator};

/// Deepest nesting of constructs.
const MAX_DEPTH: u32 = 5;

/// Instructions a statement may add at most, for the cost check.
const STATEMENT_COST: u64 = 40;

impl PhiGen<'_, '_> {
    /// Up to `max_stmts` statements.
    pub fn sequence(&mut self, depth: u32, max_stmts: u32) -> Result<()> {
        let n = self.u.between(1, max_stmts.max(1))?;
        for _ in 0..n {
            if !self.b.is_open() {
                break;
            }
            self.statement(depth)?;
        }
        Ok(())
    }

    fn trip_room(&self) -> u32 {
        let room = self.cfg.max_weight / self.b.weight.max(1);
        room.saturating_sub(1).min(self.cfg.max_loop_bound as u64) as u32
    }

    fn statement(&mut self, depth: u32) -> Result<()> {
        if self
            .b
            .cost
            .saturating_add(self.b.weight.saturating_mul(STATEMENT_COST))
            > self.cfg.max_cost
        {
            return Ok(());
        }
        let nest = depth < MAX_DEPTH;
        let bl = self.blocks_left;
        let in_loop = !self.loops.is_empty();
        let can_loop =
            nest && (self.loops.len() as u32) < self.cfg.max_loop_depth && self.trip_room() >= 1;
        let on = |c: bool, w: u32| if c { w } else { 0 };
        let w = [
            10,
            on(nest && bl >= 2, 4),
            on(nest && bl >= 3, 4),
            on(nest && bl >= 3, 3),
            on(can_loop && bl >= 3, 6),
            on(in_loop && bl >= 1, 2),
            on(in_loop && bl >= 1, 3),
            on(bl >= 2, 1),
        ];
        match self.u.weighted(&w)? {
            0 => self.simple_statement(),
            1 => self.if_stmt(depth, false),
            2 => self.if_stmt(depth, true),
            3 => self.switch_stmt(depth),
            4 => self.loop_stmt(depth),
            5 => self.jump_out(true),
            6 => self.jump_out(false),
            _ => self.early_return(),
        }
    }

    /// An arm: enter it, fill it, jump to `join`.
    fn arm(&mut self, arm: usize, join: usize, depth: u32) -> Result<()> {
        self.enter(arm)?;
        self.sequence(depth + 1, self.cfg.max_stmts)?;
        self.close_to(Dest::Join(join))
    }

    /// `if (c) {...} [else {...}]`, sometimes `condbr c, join, join`.
    fn if_stmt(&mut self, depth: u32, with_else: bool) -> Result<()> {
        let c = self.cond()?;
        let join = self.new_join();
        if !with_else && self.u.chance(8)? {
            self.branch(c, Dest::Join(join), Dest::Join(join))?;
            return self.enter(join);
        }
        let then = self.new_join();
        if with_else {
            let els = self.new_join();
            self.branch(c, Dest::Join(then), Dest::Join(els))?;
            self.arm(then, join, depth)?;
            self.arm(els, join, depth)?;
        } else {
            self.branch(c, Dest::Join(then), Dest::Join(join))?;
            self.arm(then, join, depth)?;
        }
        self.enter(join)
    }

    /// A switch whose cases and default share targets, some going straight to the join,
    /// with fall-through between arms.
    fn switch_stmt(&mut self, depth: u32) -> Result<()> {
        let mut ty = self.types[self.u.index(self.types.len())?];
        if ty.is_float() {
            ty = IrType::I32;
        }
        let mut v = self.operand(ty)?;
        if self.u.chance(85)? {
            v = self.b.bin(BinOp::And, ty, v, konst(ty, 3)).into();
        }
        let narms =
            self.u
                .between(1, 3.min(self.blocks_left.saturating_sub(1)).max(1))? as usize;
        let join = self.new_join();
        let arms: Vec<usize> = (0..narms).map(|_| self.new_join()).collect();
        let mut pool: Vec<usize> = arms.clone();
        pool.push(join);
        // Every arm gets at least one edge: either the default takes arm 0 and the first
        // cases the others, or the cases take all arms and the default goes anywhere.
        let ncases = (self.u.between(1, 5)? as usize).max(narms);
        let default_anywhere = self.u.chance(30)?;
        let default = if default_anywhere {
            pool[self.u.index(pool.len())?]
        } else {
            arms[0]
        };
        let first_arm = if default_anywhere { 0 } else { 1 };
        let mut cases: Vec<(i64, usize)> = Vec::new();
        let mut next_val = 0i64;
        for k in 0..ncases {
            let target = match arms.get(first_arm + k) {
                Some(&a) => a,
                None => pool[self.u.index(pool.len())?],
            };
            // Strictly increasing small values: distinct after canonicalization.
            let val = canonical(ty, next_val);
            next_val += 1 + self.u.between(0, 1)? as i64;
            if !cases.iter().any(|&(x, _)| x == val) {
                cases.push((val, target));
            }
        }
        let default_block = self.record(Dest::Join(default));
        let mut case_blocks = Vec::new();
        for &(val, j) in &cases {
            case_blocks.push((val, self.record(Dest::Join(j))));
        }
        self.b.terminate(Terminator::Switch {
            ty,
            val: v,
            default: default_block,
            cases: case_blocks,
        });
        for (i, &arm) in arms.iter().enumerate() {
            // An arm no edge reaches would be unreachable; every arm has an edge by
            // construction, but stay safe.
            if self.joins[arm].edges.is_empty() {
                self.b.switch_to(self.joins[arm].block);
                self.b.terminate(Terminator::Unreachable);
                continue;
            }
            self.enter(arm)?;
            self.sequence(depth + 1, self.cfg.max_stmts.div_ceil(2))?;
            if i + 1 < arms.len() && self.u.chance(25)? {
                self.goto(Dest::Join(arms[i + 1]));
            } else {
                self.close_to(Dest::Join(join))?;
            }
        }
        self.enter(join)
    }

    /// A loop: header phis for every variable and a counter; body; latches that jump back
    /// (often right after a shuffle, making the back edge's parallel copy a permutation)
    /// or branch back-or-out; an exit join whose phis read the header's.
    fn loop_stmt(&mut self, depth: u32) -> Result<()> {
        let bound = self.u.between(1, self.trip_room())?;
        let counter_ty = IrType::INTEGERS[self.u.index(IrType::INTEGERS.len())?];
        let header_block = self.block();
        let exit = self.new_join();
        let body = self.new_join();
        let Some(pre) = self.b.current() else {
            return Ok(());
        };
        let dests: Vec<_> = self.types.iter().map(|_| self.b.fresh()).collect();
        let counter = self.b.fresh();
        let mut header = Header {
            block: header_block,
            dests: dests.clone(),
            counter,
            counter_ty,
            entries: Vec::new(),
        };
        header.add_entry(pre, &self.env, konst(counter_ty, 0));
        self.b.terminate(Terminator::Br(header_block));
        let outer_weight = self.b.weight;
        self.b.weight = outer_weight.saturating_mul(bound as u64 + 1);
        self.b.switch_to(header_block);
        self.env = dests.iter().map(|&d| d.into()).collect();
        if self.u.chance(25)? {
            // Work in the header itself: the exit then reads values computed there.
            let i = self.u.index(self.types.len())?;
            let ty = self.types[i];
            self.env[i] = self.expr(ty, 1)?;
        }
        self.loops.push(LoopCtx {
            header,
            exit,
            next: konst(counter_ty, 0),
        });
        // The counter test's sense makes the loop terminate: `i < bound` stays, or its
        // negation `i >= bound` leaves; never a random order.
        let bound_op = konst(counter_ty, bound as i64);
        let signed = counter_ty.is_signed();
        if self.u.chance(50)? {
            let pred = if signed { CmpPred::Slt } else { CmpPred::Ult };
            let t = self.b.cmp(pred, counter_ty, counter.into(), bound_op);
            self.branch_exact(t.into(), Dest::Join(body), Dest::Join(exit));
        } else {
            let pred = if signed { CmpPred::Sge } else { CmpPred::Uge };
            let t = self.b.cmp(pred, counter_ty, counter.into(), bound_op);
            self.branch_exact(t.into(), Dest::Join(exit), Dest::Join(body));
        }
        self.enter(body)?;
        let next = self
            .b
            .bin(BinOp::Add, counter_ty, counter.into(), konst(counter_ty, 1));
        if let Some(l) = self.loops.last_mut() {
            l.next = next.into();
        }
        self.sequence(depth + 1, self.cfg.max_stmts)?;
        self.before_back_edge()?;
        if self.u.chance(40)? {
            let d = self.cond()?;
            self.branch(d, Dest::Header, Dest::Join(exit))?;
        } else {
            self.close_to(Dest::Header)?;
        }
        let Some(ctx) = self.loops.pop() else {
            return Ok(());
        };
        let phis = ctx.header.phis(&self.types);
        self.b.prepend(header_block, phis);
        self.b.weight = outer_weight;
        self.enter(exit)?;
        if self.u.chance(50)? {
            self.read_header_after_exit(&ctx.header)?;
        }
        Ok(())
    }

    /// What happens right before a back edge: nothing, a shuffle of the current values,
    /// or a rotation of the header's own phis (so that the back edge's parallel copy is a
    /// cycle among the header's phis, whatever the body computed).
    fn before_back_edge(&mut self) -> Result<()> {
        match self.u.weighted(&[2, 3, 4])? {
            1 => self.shuffle(),
            2 => self.rotate_header_phis(),
            _ => Ok(()),
        }
    }

    /// Rebinds some variables of one type to a rotation (or permutation) of the innermost
    /// header's phis. The header dominates every block of its body, so its phis are in
    /// scope at any back edge.
    fn rotate_header_phis(&mut self) -> Result<()> {
        let Some(dests) = self.loops.last().map(|l| l.header.dests.clone()) else {
            return Ok(());
        };
        let moves = plan_shuffle(self.u, &self.types)?;
        for (dest, src) in moves {
            self.env[dest] = match src {
                Source::Var(j) => dests[j].into(),
                Source::Const(c) => konst(self.types[dest], c),
            };
        }
        Ok(())
    }

    /// After a loop, folds a header phi (a variable's or the counter's) into a variable:
    /// the exit is dominated by the header, and a latch that branched out must not have
    /// clobbered the header's values on its way (copies on a critical edge).
    fn read_header_after_exit(&mut self, header: &Header) -> Result<()> {
        let n = self.types.len();
        if n == 0 {
            return Ok(());
        }
        let k = self.u.index(n)?;
        let (h, hty) = if self.u.chance(50)? {
            (header.counter, header.counter_ty)
        } else {
            let j = self.u.index(n)?;
            (header.dests[j], self.types[j])
        };
        let ty = self.types[k];
        let v = self.convert(h.into(), hty, ty);
        if ty.is_float() {
            self.env[k] = self.float_accumulate(ty, self.env[k], v)?;
            return Ok(());
        }
        let op = if self.u.chance(50)? {
            BinOp::Xor
        } else {
            BinOp::Add
        };
        self.env[k] = self.b.bin(op, ty, self.env[k], v).into();
        Ok(())
    }

    /// `if (c) break;`, or `if (c) continue;` as a critical edge straight to the header or
    /// through a block of its own that may shuffle first.
    fn jump_out(&mut self, is_break: bool) -> Result<()> {
        let Some(exit) = self.loops.last().map(|l| l.exit) else {
            return Ok(());
        };
        let c = self.cond()?;
        // A continue through a block of its own needs two blocks; with one left it goes
        // straight to the header.
        let direct = self.blocks_left < 2 || self.u.chance(50)?;
        let next = self.new_join();
        if is_break {
            self.branch(c, Dest::Join(exit), Dest::Join(next))?;
        } else if direct {
            // A critical back edge: the fall-through continues the body.
            self.branch(c, Dest::Header, Dest::Join(next))?;
        } else {
            // The shuffle happens on the continue path only: a block of its own, so the
            // fall-through keeps the old environment.
            let cont = self.new_join();
            self.branch(c, Dest::Join(cont), Dest::Join(next))?;
            self.enter(cont)?;
            self.before_back_edge()?;
            self.close_to(Dest::Header)?;
        }
        self.enter(next)
    }

    /// `if (c) return checksum;`
    fn early_return(&mut self) -> Result<()> {
        let c: Operand = self.cond()?;
        let ret = self.new_join();
        let next = self.new_join();
        self.branch(c, Dest::Join(ret), Dest::Join(next))?;
        let saved = self.env.clone();
        self.enter(ret)?;
        self.emit_return();
        self.env = saved;
        self.enter(next)
    }
}
