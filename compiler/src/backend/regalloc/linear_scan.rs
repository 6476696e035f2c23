//! The linear-scan allocator (Poletto and Sarkar, "Linear Scan Register Allocation",
//! TOPLAS 1999) over the intervals of [`crate::backend::liveness`].
//!
//! Why it exists: it is the real allocator — one pass over the intervals in order of
//! their start, linear in the function's size apart from the sort, good enough code for a
//! differential-testing compiler (the stack allocator is the reference it is compared
//! with).
//!
//! The scan: intervals sorted by start (then value number, so the result is
//! deterministic). At each interval's start, intervals that ended before it give back
//! their register or spill slot. Then:
//! - a [`ValueClass::StackOnly`] value gets a spill slot;
//! - otherwise it takes the first free register, in the register file's preference order,
//!   that it may hold: an interval live across a call never takes a register in
//!   `call_clobbers`, one live across a memcpy never one in `memcpy_clobbers`;
//! - when none is free, of the active intervals holding a register it could take, the
//!   one ending furthest away is spilled — if it ends after the new interval, which then
//!   takes its register; otherwise the new interval is spilled. A value has one location
//!   for its whole life, so spilling an active interval moves all of it to a slot.
//!
//! Spill slots are shaped by `RegisterFile::slot_shape` and reused: once the value in a
//! slot has ended, the slot may go to a value that starts after that end and needs the
//! same or a smaller shape (an exact shape first, else the smallest larger one).
//!
//! Invariants (those of [`Allocation`], which `checker` verifies): two values whose
//! intervals overlap never share a register or a slot; every value `all_value_types`
//! reports gets a location; `used_callee_saved` lists the callee-saved registers handed
//! out, in the order of `RegisterFile::callee_saved`.
//!
//! Seeded bug: [`Mutant::RegallocSharedSpillSlot`] gives a newly spilled value the most
//! recently assigned spill slot (when its shape fits) even if that slot's value is live.

use super::{
    all_value_types, Allocation, Loc, PReg, RegisterFile, SlotShape, SpillSlot, ValueClass,
};
use crate::backend::liveness::{self, LiveInterval, Pos};
use crate::ir::{IrFunction, IrType, Value};
use crate::mutants::{self, Mutant};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

pub(super) fn allocate(func: &IrFunction, regs: &RegisterFile) -> Allocation {
    let types = all_value_types(func);
    let liveness = liveness::compute(func);
    let mut order: Vec<(Pos, u32)> = liveness
        .intervals
        .iter()
        .enumerate()
        .filter_map(|(v, iv)| iv.map(|iv| (iv.start, v as u32)))
        .collect();
    order.sort_unstable();

    let mut scan = Scan::new(regs, types.len());
    for &(_, v) in &order {
        let value = Value(v);
        let (Some(iv), Some(ty)) = (liveness.intervals[v as usize], types[v as usize]) else {
            continue;
        };
        scan.allocate_interval(value, ty, iv);
    }
    // A value with a type but no interval cannot happen (both come from the same defs and
    // uses); if it did, a slot of its own keeps the allocation complete.
    for (v, ty) in types.iter().enumerate() {
        if let (Some(ty), None) = (ty, scan.locs[v]) {
            let slot = scan.new_slot(regs.slot_shape(*ty));
            scan.locs[v] = Some(Loc::Spill(slot));
        }
    }
    let used_callee_saved = regs
        .callee_saved
        .iter()
        .copied()
        .filter(|r| scan.ever_used[r.0 as usize])
        .collect();
    Allocation {
        locs: scan.locs,
        types,
        spill_slots: scan.slots,
        used_callee_saved,
    }
}

/// An interval holding a register.
#[derive(Clone, Copy, Debug)]
struct Active {
    value: Value,
    ty: IrType,
    start: Pos,
    end: Pos,
    reg: PReg,
}

/// Free spill slots of one shape, by the end of the interval that last held them.
struct SlotPool {
    shape: SlotShape,
    free: BTreeSet<(Pos, u32)>,
}

struct Scan<'a> {
    regs: &'a RegisterFile,
    /// Indexed by `PReg.0`.
    reg_free: Vec<bool>,
    ever_used: Vec<bool>,
    clobbered_by_call: Vec<bool>,
    clobbered_by_memcpy: Vec<bool>,
    /// Intervals in registers, sorted by end.
    active: Vec<Active>,
    /// Spilled intervals whose slot is still taken: (end, slot).
    spilled_active: BinaryHeap<Reverse<(Pos, u32)>>,
    pools: Vec<SlotPool>,
    slots: Vec<SlotShape>,
    last_slot: Option<SpillSlot>,
    locs: Vec<Option<Loc>>,
}

impl<'a> Scan<'a> {
    fn new(regs: &'a RegisterFile, values: usize) -> Scan<'a> {
        let table = |rs: &[PReg]| {
            let mut t = vec![false; 256];
            for r in rs {
                t[r.0 as usize] = true;
            }
            t
        };
        Scan {
            regs,
            reg_free: table(&regs.allocatable),
            ever_used: vec![false; 256],
            clobbered_by_call: table(&regs.call_clobbers),
            clobbered_by_memcpy: table(&regs.memcpy_clobbers),
            active: Vec::new(),
            spilled_active: BinaryHeap::new(),
            pools: Vec::new(),
            slots: Vec::new(),
            last_slot: None,
            locs: vec![None; values],
        }
    }

    /// True when a value with interval `iv` may live in `r`.
    fn may_hold(&self, iv: &LiveInterval, r: PReg) -> bool {
        let r = r.0 as usize;
        let clobbered = (iv.crosses_call && self.clobbered_by_call[r])
            || (iv.crosses_memcpy && self.clobbered_by_memcpy[r]);
        !clobbered
    }

    fn allocate_interval(&mut self, value: Value, ty: IrType, iv: LiveInterval) {
        self.expire(iv.start);
        if self.regs.class_of(ty) == ValueClass::StackOnly {
            self.spill(value, ty, iv.start, iv.end);
            return;
        }
        let free = self
            .regs
            .allocatable
            .iter()
            .copied()
            .find(|&r| self.reg_free[r.0 as usize] && self.may_hold(&iv, r));
        if let Some(r) = free {
            self.assign(value, ty, &iv, r);
            return;
        }
        // No register: spill whichever interval ends furthest away.
        let victim = self
            .active
            .iter()
            .rposition(|a| self.may_hold(&iv, a.reg))
            .filter(|&i| self.active[i].end > iv.end);
        match victim {
            Some(i) => {
                let a = self.active.remove(i);
                self.spill(a.value, a.ty, a.start, a.end);
                self.assign(value, ty, &iv, a.reg);
            }
            None => self.spill(value, ty, iv.start, iv.end),
        }
    }

    /// Gives back the registers and slots of intervals that end before `pos`.
    fn expire(&mut self, pos: Pos) {
        let ended = self.active.partition_point(|a| a.end < pos);
        for a in self.active.drain(..ended) {
            self.reg_free[a.reg.0 as usize] = true;
        }
        while let Some(&Reverse((end, slot))) = self.spilled_active.peek() {
            if end >= pos {
                break;
            }
            self.spilled_active.pop();
            let shape = self.slots[slot as usize];
            self.pool(shape).free.insert((end, slot));
        }
    }

    fn assign(&mut self, value: Value, ty: IrType, iv: &LiveInterval, r: PReg) {
        self.reg_free[r.0 as usize] = false;
        self.ever_used[r.0 as usize] = true;
        self.locs[value.index()] = Some(Loc::Reg(r));
        let a = Active {
            value,
            ty,
            start: iv.start,
            end: iv.end,
            reg: r,
        };
        let at = self.active.partition_point(|x| x.end <= a.end);
        self.active.insert(at, a);
    }

    /// Puts `value`, live over `[start, end]`, in a spill slot.
    fn spill(&mut self, value: Value, ty: IrType, start: Pos, end: Pos) {
        let shape = self.regs.slot_shape(ty);
        if mutants::enabled(Mutant::RegallocSharedSpillSlot) {
            if let Some(last) = self.last_slot {
                if fits(self.slots[last.0 as usize], shape) {
                    self.locs[value.index()] = Some(Loc::Spill(last));
                    return;
                }
            }
        }
        let slot = match self.take_free_slot(shape, start) {
            Some(s) => s,
            None => self.new_slot(shape),
        };
        self.spilled_active.push(Reverse((end, slot.0)));
        self.last_slot = Some(slot);
        self.locs[value.index()] = Some(Loc::Spill(slot));
    }

    /// A free slot big and aligned enough for `shape` whose last value ended before
    /// `start`: of the exact shape if there is one, else of the smallest larger shape.
    fn take_free_slot(&mut self, shape: SlotShape, start: Pos) -> Option<SpillSlot> {
        let mut best: Option<usize> = None;
        for (i, pool) in self.pools.iter().enumerate() {
            let usable =
                fits(pool.shape, shape) && pool.free.first().is_some_and(|&(end, _)| end < start);
            if !usable {
                continue;
            }
            let better = match best {
                None => true,
                Some(b) => {
                    let (p, q) = (pool.shape, self.pools[b].shape);
                    (p.size, p.align) < (q.size, q.align)
                }
            };
            if better {
                best = Some(i);
            }
        }
        let (_, slot) = self.pools[best?].free.pop_first()?;
        Some(SpillSlot(slot))
    }

    fn new_slot(&mut self, shape: SlotShape) -> SpillSlot {
        self.slots.push(shape);
        SpillSlot(self.slots.len() as u32 - 1)
    }

    fn pool(&mut self, shape: SlotShape) -> &mut SlotPool {
        let i = match self.pools.iter().position(|p| p.shape == shape) {
            Some(i) => i,
            None => {
                self.pools.push(SlotPool {
                    shape,
                    free: BTreeSet::new(),
                });
                self.pools.len() - 1
            }
        };
        &mut self.pools[i]
    }
}

/// True when a slot of shape `slot` can hold a value needing `need`.
fn fits(slot: SlotShape, need: SlotShape) -> bool {
    slot.size >= need.size
        && slot.align >= need.align
        && slot.align.is_multiple_of(need.align.max(1))
}

#[cfg(test)]
#[path = "linear_scan_tests.rs"]
mod tests;
