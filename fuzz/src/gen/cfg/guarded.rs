//! Read-before-write on an untaken path: a slot written only under a condition and read
//! only under the same condition.
//!
//! Why: at the join after the write, SSA construction sees "no store yet" on the other
//! path and must fill that phi entry with zero (the seed design's choice) — a classic
//! place for mem2reg to go wrong — while the lowered program never reads uninitialized
//! memory, so its reference run stays valid.
//!
//! Invariants: a guarded slot is stored exactly once per execution of its guard's head,
//! as the *first* instruction of the then-arm of `condbr cond, W, J`, so nothing can jump
//! out of the arm before the store; it is read only in a block entered by `condbr cond,
//! R, ...` where `cond` is the same SSA value and is in scope (its definition dominates
//! the read), so the read happens only if the latest evaluation of `cond` was true,
//! which sent control through the store. Guarded slots are never addressable, never
//! written elsewhere (except in blocks nothing reaches) and never in the checksum.

use super::expr::int_type;
use super::frame::Role;
use super::function::{FnGen, Guard};
use crate::gen::choice::Pick;
use arbitrary::Result;
use compiler::ir::{Operand, Terminator};

impl FnGen<'_, '_> {
    /// `if (c) { g = expr; ... }`, recording the guard.
    pub fn guarded_write(&mut self) -> Result<()> {
        let Operand::Value(c) = self.compare(1)? else {
            return Ok(());
        };
        let ty = int_type(self.u)?;
        let slot = self.new_late_slot(ty, Role::Guarded);
        let mark = self.mark();
        let write = self.block();
        let join = self.block();
        self.b.terminate(Terminator::CondBr {
            cond: c.into(),
            if_true: write,
            if_false: join,
        });
        self.b.switch_to(write);
        // The expression is computed first, then stored: the store is the arm's first
        // memory effect and no branch precedes it.
        let v = self.expr(ty, 1)?;
        let ptr = self.frame.slots[slot].ptr;
        self.b.store(ty, v, ptr.into());
        if self.u.chance(40)? {
            self.simple_statement()?;
        }
        self.close_to(join)?;
        self.reset(mark);
        self.b.switch_to(join);
        self.guards.push(Guard {
            slot,
            cond: c,
            read: false,
        });
        Ok(())
    }

    /// `if (c) { x = g op ...; }` for guard `gi`, whose condition is in scope.
    pub fn guarded_read(&mut self, gi: usize) -> Result<()> {
        let g = self.guards[gi];
        if !self.in_scope(g.cond) {
            return Ok(());
        }
        self.guards[gi].read = true;
        let mark = self.mark();
        let read = self.block();
        let join = self.block();
        self.b.terminate(Terminator::CondBr {
            cond: g.cond.into(),
            if_true: read,
            if_false: join,
        });
        self.b.switch_to(read);
        let slot = self.frame.slots[g.slot];
        let ty = slot.spec.ty;
        let v = self.b.load(ty, slot.ptr.into());
        self.define(v, ty);
        // Fold it into a data slot so the value reaches the checksum.
        let targets: Vec<usize> = self
            .frame
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.spec.ty.is_integer() && s.spec.role == Role::Data)
            .map(|(i, _)| i)
            .collect();
        if !targets.is_empty() {
            let t = self.frame.slots[targets[self.u.index(targets.len())?]];
            let val = self.convert(v.into(), ty, t.spec.ty);
            let old = self.b.load(t.spec.ty, t.ptr.into());
            let mixed = self
                .b
                .bin(compiler::ir::BinOp::Xor, t.spec.ty, old.into(), val);
            self.b.store(t.spec.ty, mixed.into(), t.ptr.into());
        }
        self.close_to(join)?;
        self.reset(mark);
        self.b.switch_to(join);
        Ok(())
    }
}
