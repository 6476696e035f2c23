//! The allocation checker, in the style of regalloc2's `checker.rs`: it replays the
//! function over abstract locations and proves that every use reads the location that
//! holds its value.
//!
//! Why it exists: an allocator bug (two live values in one register, a value left in a
//! register a call clobbers, a slot reused too early) usually produces code that works on
//! most inputs; the checker finds it on every function, without running anything, and
//! names the use that would read the wrong value. The harness runs it on every program;
//! a failure is a [`BackendError`] whose message starts `regalloc checker:`.
//!
//! The rules, each stated again above the code that checks it:
//! - Rule 3 (locations): every value the function mentions has a location and was
//!   allocated for its type; a register location is an allocatable register and never
//!   holds a [`ValueClass::StackOnly`] value; a spill slot exists and is big and aligned
//!   enough for the value's type.
//! - Rule 2 (callee-saved): every callee-saved register some value was given is in
//!   `used_callee_saved`, which lists callee-saved registers only, once each, in the
//!   register file's order.
//! - Rule 0 (the liveness the states are pruned with is sound): see below.
//! - Rule 1 (uses): at every use of a value `v` that the IR has definitely assigned
//!   there, `loc(v)` holds `v`.
//!
//! Rule 1 is a forward dataflow over abstract states `Loc -> Value` ("this location was
//! last written by a definition of that value, on every path"): the entry block starts
//! empty; the meet keeps only the entries that are identical in both states; blocks are
//! visited in reverse postorder until nothing changes, unreachable blocks are skipped.
//! Per instruction: its uses are checked, then the registers it clobbers
//! (`RegisterFile::clobbers`) become unknown, then its definition writes its location.
//! A value the IR reads where some path never assigned it (the oracle's `UndefinedValue`)
//! may be anywhere: the same dataflow over values first computes which values are
//! definitely assigned, and only their uses are checked.
//!
//! Efficiency: in this IR a location is only ever written by definitions of the values
//! allocated to it, so an entry `loc -> v` always has `loc == loc(v)`, and a state is the
//! set of values that their location holds. The states at block entries are kept sparse:
//! only values live into the block (`liveness::live_sets`) are carried across a block
//! boundary — for the "held" states this can only make the checker stricter; for the
//! "definitely assigned" states it is exact provided the live-in sets are a sound
//! liveness solution, which Rule 0 checks first: every value a block reads before
//! assigning it is live-in, and every value live into a successor is live into the block
//! or assigned in it. So a liveness bug cannot make the checker accept a wrong
//! allocation. Memory and time are the size of the live sets times the number of passes.
//!
//! Invariants: never panics, whatever the allocation (missing locations, slot numbers out
//! of range and foreign registers are Rule 3 errors, found before anything indexes by
//! them); reports the first broken rule it finds, its message starting with the value,
//! the instruction and the block.

use super::{all_value_types, Allocation, Loc, PReg, RegisterFile, ValueClass};
use crate::backend::liveness::{live_sets, BlockValueSets};
use crate::backend::BackendError;
use crate::ir::analysis::{build_cfg, build_label_map, compute_reverse_postorder, FlatAdj};
use crate::ir::text::{print_inst, print_terminator};
use crate::ir::{BlockId, IrFunction, IrType, Value};
use crate::target::Target;
use std::fmt;

/// Why an allocation is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// Starts with the value, the instruction and the block, then says what is wrong.
    pub message: String,
    /// The instruction to blame, as the IR printer writes it, when there is one.
    pub inst: Option<String>,
}

impl CheckError {
    /// `{what} {value} in block {block} at `{inst}`: {problem}`.
    fn at(what: &str, value: Value, block: BlockId, inst: String, problem: String) -> Self {
        CheckError {
            message: format!("{what}{value} in block {block} at `{inst}`: {problem}"),
            inst: Some(inst),
        }
    }

    /// A problem with the allocation as a whole.
    fn general(message: String) -> CheckError {
        CheckError {
            message,
            inst: None,
        }
    }

    /// The backend error for this failure in `func` (the message starts `regalloc
    /// checker:`, see [`BackendError::is_checker_failure`]).
    pub fn into_backend_error(self, target: Target, func: &IrFunction) -> BackendError {
        BackendError {
            target,
            function: func.name.clone(),
            inst: self.inst,
            message: format!("regalloc checker: {}", self.message),
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CheckError {}

/// Checks that `alloc` is a correct allocation of `func` for `regs`.
pub fn check(func: &IrFunction, regs: &RegisterFile, alloc: &Allocation) -> Result<(), CheckError> {
    let types = all_value_types(func);
    let locs = check_locations(func, regs, alloc, &types)?;
    check_callee_saved(func, regs, alloc, &types)?;
    let labels = build_label_map(func);
    let (_preds, succs) = build_cfg(func, &labels);
    let rpo = compute_reverse_postorder(func.blocks.len(), &succs);
    let live_in = live_sets(func).live_in;
    check_liveness_is_sound(func, &succs, &rpo, &live_in)?;
    Dataflow::new(func, regs, &locs, &succs, &live_in, alloc.spill_slots.len()).run(&rpo)
}

/// Index of a location in the dense per-location tables: registers first, then slots.
fn loc_index(loc: Loc) -> usize {
    match loc {
        Loc::Reg(r) => r.0 as usize,
        Loc::Spill(s) => 256 + s.0 as usize,
    }
}

/// The first instruction (or terminator) that assigns or reads `v`, with its block, for
/// messages about a value as a whole.
fn first_mention(func: &IrFunction, v: Value) -> (BlockId, String) {
    for block in &func.blocks {
        for inst in &block.insts {
            let mut reads = false;
            inst.for_each_used_value(|u| reads |= u == v);
            if reads || inst.dest() == Some(v) {
                return (block.label, print_inst(inst));
            }
        }
        let mut reads = false;
        block.term.for_each_used_value(|u| reads |= u == v);
        if reads {
            return (block.label, print_terminator(&block.term));
        }
    }
    (BlockId(0), String::new())
}

/// Rule 3, for every value `types` has (every value the function assigns or reads).
/// Returns each value's location index (`usize::MAX` for numbers the function does not
/// mention).
fn check_locations(
    func: &IrFunction,
    regs: &RegisterFile,
    alloc: &Allocation,
    types: &[Option<IrType>],
) -> Result<Vec<usize>, CheckError> {
    let mut locs = vec![usize::MAX; types.len()];
    for (i, ty) in types.iter().enumerate() {
        let Some(ty) = *ty else { continue };
        let v = Value(i as u32);
        let fail = |problem: String| {
            let (block, inst) = first_mention(func, v);
            CheckError::at("", v, block, inst, problem)
        };
        // Rule 3a: every mentioned value has a location, allocated for its type.
        let Some(loc) = alloc.locs.get(i).copied().flatten() else {
            return Err(fail("it has no location".into()));
        };
        let allocated_as = alloc.types.get(i).copied().flatten();
        if allocated_as != Some(ty) {
            return Err(fail(format!(
                "it is {ty} but was allocated as {}",
                allocated_as.map_or("nothing".to_string(), |t| t.to_string())
            )));
        }
        match loc {
            // Rule 3b: a register is allocatable and never holds a stack-only value.
            Loc::Reg(r) => {
                if regs.class_of(ty) == ValueClass::StackOnly {
                    return Err(fail(format!("{ty} is stack-only but it is in {loc}")));
                }
                if !regs.allocatable.contains(&r) {
                    return Err(fail(format!("{loc} is not an allocatable register")));
                }
            }
            // Rule 3c: a spill slot exists and is big and aligned enough.
            Loc::Spill(s) => {
                let Some(shape) = alloc.spill_slots.get(s.0 as usize) else {
                    return Err(fail(format!(
                        "{loc} does not exist (the function has {} spill slots)",
                        alloc.spill_slots.len()
                    )));
                };
                let need = regs.slot_shape(ty);
                let aligned =
                    shape.align >= need.align && shape.align.is_multiple_of(need.align.max(1));
                if shape.size < need.size || !aligned {
                    return Err(fail(format!(
                        "{loc} ({} bytes, align {}) is too small for {ty} ({} bytes, align {})",
                        shape.size, shape.align, need.size, need.align
                    )));
                }
            }
        }
        locs[i] = loc_index(loc);
    }
    Ok(locs)
}

/// Rule 2.
fn check_callee_saved(
    func: &IrFunction,
    regs: &RegisterFile,
    alloc: &Allocation,
    types: &[Option<IrType>],
) -> Result<(), CheckError> {
    // Rule 2a: `used_callee_saved` lists callee-saved registers only, once each, in the
    // register file's order.
    let order = |r: PReg| regs.callee_saved.iter().position(|&c| c == r);
    let mut last: Option<usize> = None;
    for &r in &alloc.used_callee_saved {
        let Some(i) = order(r) else {
            return Err(CheckError::general(format!(
                "used_callee_saved lists {}, which is not callee-saved",
                Loc::Reg(r)
            )));
        };
        if last.is_some_and(|l| l >= i) {
            return Err(CheckError::general(format!(
                "used_callee_saved {:?} repeats a register or is not in the register file's order",
                alloc.used_callee_saved
            )));
        }
        last = Some(i);
    }
    // Rule 2b: every callee-saved register some value was given is listed (the prologue
    // saves exactly those).
    for (i, ty) in types.iter().enumerate() {
        if ty.is_none() {
            continue;
        }
        if let Some(Some(Loc::Reg(r))) = alloc.locs.get(i) {
            if regs.callee_saved.contains(r) && !alloc.used_callee_saved.contains(r) {
                let v = Value(i as u32);
                let (block, inst) = first_mention(func, v);
                return Err(CheckError::at(
                    "",
                    v,
                    block,
                    inst,
                    format!(
                        "it is in callee-saved {} but used_callee_saved does not list it",
                        Loc::Reg(*r)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Rule 0: the live-in sets are a sound liveness solution on the reachable blocks (a
/// post-fixpoint of the liveness equations, hence a superset of the true live sets).
fn check_liveness_is_sound(
    func: &IrFunction,
    succs: &FlatAdj,
    rpo: &[usize],
    live_in: &BlockValueSets,
) -> Result<(), CheckError> {
    let bound = func.value_bound() as usize;
    let mut live_stamp = vec![usize::MAX; bound];
    let mut assigned_stamp = vec![usize::MAX; bound];
    for &b in rpo {
        let block = &func.blocks[b];
        for &v in live_in.of(b) {
            live_stamp[v.index()] = b;
        }
        // Rule 0a: a value read before any assignment in the block is live into it.
        let exposed =
            |v: Value, assigned: &[usize]| assigned[v.index()] != b && live_stamp[v.index()] != b;
        let unsound = |v: Value, inst: String| {
            CheckError::at(
                "",
                v,
                block.label,
                inst,
                "it is read before any assignment in the block, but the liveness the checker \
                 relies on does not have it live-in"
                    .into(),
            )
        };
        for inst in &block.insts {
            let mut bad = None;
            inst.for_each_used_value(|v| {
                if bad.is_none() && exposed(v, &assigned_stamp) {
                    bad = Some(v);
                }
            });
            if let Some(v) = bad {
                return Err(unsound(v, print_inst(inst)));
            }
            if let Some(d) = inst.dest() {
                assigned_stamp[d.index()] = b;
            }
        }
        let mut bad = None;
        block.term.for_each_used_value(|v| {
            if bad.is_none() && exposed(v, &assigned_stamp) {
                bad = Some(v);
            }
        });
        if let Some(v) = bad {
            return Err(unsound(v, print_terminator(&block.term)));
        }
        // Rule 0b: a value live into a successor is live into the block or assigned in it.
        for &s in succs.row(b) {
            let s = s as usize;
            if let Some(&v) = live_in.of(s).iter().find(|&&v| exposed(v, &assigned_stamp)) {
                return Err(CheckError::at(
                    "",
                    v,
                    block.label,
                    print_terminator(&block.term),
                    format!(
                        "it is live into successor {} and not assigned in the block, but the \
                         liveness the checker relies on does not have it live-in",
                        func.blocks[s].label
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// What the checker knows a location holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    /// Nothing known on every path.
    Unknown,
    /// Last written by a definition of this value.
    Value(Value),
    /// Clobbered by instruction `inst` of block `block` (indexes into the function).
    Clobbered { block: usize, inst: usize },
}

/// The state at a block's entry, restricted to the block's live-in values; both sorted.
#[derive(Clone, Debug, Default)]
struct EntryState {
    /// Values their location holds on every path.
    held: Vec<Value>,
    /// Values definitely assigned on every path.
    assigned: Vec<Value>,
}

/// The elements of two sorted lists that are in both.
fn intersect(a: &[Value], b: &[Value]) -> Vec<Value> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len().min(b.len()));
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// Rule 1's dataflow.
struct Dataflow<'a> {
    func: &'a IrFunction,
    regs: &'a RegisterFile,
    /// Location index of each value (Rule 3 made them all valid).
    locs: &'a [usize],
    succs: &'a FlatAdj,
    live_in: &'a BlockValueSets,
    /// `None`: not reached yet.
    entry: Vec<Option<EntryState>>,
    dirty: Vec<bool>,
    /// Per location; valid where `holder_stamp == visit`, `Unknown` elsewhere.
    holder: Vec<Holder>,
    holder_stamp: Vec<u32>,
    /// Per value: assigned on every path so far where `assigned_stamp == visit`.
    assigned_stamp: Vec<u32>,
    visit: u32,
    uses: Vec<Value>,
}

impl<'a> Dataflow<'a> {
    fn new(
        func: &'a IrFunction,
        regs: &'a RegisterFile,
        locs: &'a [usize],
        succs: &'a FlatAdj,
        live_in: &'a BlockValueSets,
        spill_slots: usize,
    ) -> Dataflow<'a> {
        let n = func.blocks.len();
        Dataflow {
            func,
            regs,
            locs,
            succs,
            live_in,
            entry: vec![None; n],
            dirty: vec![false; n],
            holder: vec![Holder::Unknown; 256 + spill_slots],
            holder_stamp: vec![0; 256 + spill_slots],
            assigned_stamp: vec![0; locs.len()],
            visit: 0,
            uses: Vec::new(),
        }
    }

    fn run(mut self, rpo: &[usize]) -> Result<(), CheckError> {
        let Some(&entry) = rpo.first() else {
            return Ok(());
        };
        self.entry[entry] = Some(EntryState::default());
        self.dirty[entry] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo {
                if self.dirty[b] {
                    self.dirty[b] = false;
                    changed = true;
                    self.run_block(b, false)?;
                }
            }
        }
        // At the fixpoint the states are final: check every use once. (Checking during
        // the iteration could report a use whose value a later pass finds not definitely
        // assigned.)
        for &b in rpo {
            self.run_block(b, true)?;
        }
        Ok(())
    }

    fn holder(&self, loc: usize) -> Holder {
        if self.holder_stamp[loc] == self.visit {
            self.holder[loc]
        } else {
            Holder::Unknown
        }
    }

    fn write(&mut self, loc: usize, h: Holder) {
        self.holder[loc] = h;
        self.holder_stamp[loc] = self.visit;
    }

    /// Replays block `b` from its entry state. With `check`, verifies its uses (Rule 1);
    /// without, meets its exit state into its successors' entry states.
    fn run_block(&mut self, b: usize, check: bool) -> Result<(), CheckError> {
        self.visit += 1;
        let visit = self.visit;
        let Some(state) = self.entry[b].take() else {
            return Ok(());
        };
        for &v in &state.held {
            self.write(self.locs[v.index()], Holder::Value(v));
        }
        for &v in &state.assigned {
            self.assigned_stamp[v.index()] = visit;
        }
        self.entry[b] = Some(state);

        let func = self.func;
        let block = &func.blocks[b];
        let mut uses = std::mem::take(&mut self.uses);
        for (i, inst) in block.insts.iter().enumerate() {
            if check {
                uses.clear();
                inst.for_each_used_value(|v| uses.push(v));
                self.check_uses(b, Some(i), &uses)?;
            }
            for r in self.regs.clobbers(inst) {
                self.write(r.0 as usize, Holder::Clobbered { block: b, inst: i });
            }
            if let Some(d) = inst.dest() {
                self.write(self.locs[d.index()], Holder::Value(d));
                self.assigned_stamp[d.index()] = visit;
            }
        }
        if check {
            uses.clear();
            block.term.for_each_used_value(|v| uses.push(v));
            self.check_uses(b, None, &uses)?;
        }
        self.uses = uses;
        if !check {
            for &s in self.succs.row(b) {
                self.meet_into(s as usize);
            }
        }
        Ok(())
    }

    // Rule 1: at every use of a value `v` that is definitely assigned there, `loc(v)`
    // holds `v` (on every path: the meet keeps only what all paths agree on).
    fn check_uses(&self, b: usize, inst: Option<usize>, uses: &[Value]) -> Result<(), CheckError> {
        for &v in uses {
            if self.assigned_stamp[v.index()] != self.visit {
                continue;
            }
            let loc = self.locs[v.index()];
            let holder = self.holder(loc);
            if holder == Holder::Value(v) {
                continue;
            }
            let block = &self.func.blocks[b];
            let text = match inst {
                Some(i) => print_inst(&block.insts[i]),
                None => print_terminator(&block.term),
            };
            let loc_name = loc_name(loc);
            let problem = match holder {
                Holder::Value(w) => format!("{loc_name} holds {w}"),
                Holder::Clobbered {
                    block: cb,
                    inst: ci,
                } => format!(
                    "{loc_name} was clobbered by `{}` in block {}",
                    print_inst(&self.func.blocks[cb].insts[ci]),
                    self.func.blocks[cb].label
                ),
                Holder::Unknown => {
                    format!("{loc_name} does not hold {v} on every path that reaches this use")
                }
            };
            return Err(CheckError::at("use of ", v, block.label, text, problem));
        }
        Ok(())
    }

    /// Meets the current (end-of-block) state into successor `s`'s entry state.
    fn meet_into(&mut self, s: usize) {
        let live = self.live_in.of(s);
        let held: Vec<Value> = live
            .iter()
            .copied()
            .filter(|v| self.holder(self.locs[v.index()]) == Holder::Value(*v))
            .collect();
        let assigned: Vec<Value> = live
            .iter()
            .copied()
            .filter(|v| self.assigned_stamp[v.index()] == self.visit)
            .collect();
        match &mut self.entry[s] {
            slot @ None => {
                *slot = Some(EntryState { held, assigned });
                self.dirty[s] = true;
            }
            Some(state) => {
                let new_held = intersect(&state.held, &held);
                let new_assigned = intersect(&state.assigned, &assigned);
                if new_held.len() != state.held.len() || new_assigned.len() != state.assigned.len()
                {
                    state.held = new_held;
                    state.assigned = new_assigned;
                    self.dirty[s] = true;
                }
            }
        }
    }
}

/// The name of a location index (`r3`, `slot2`).
fn loc_name(loc: usize) -> String {
    if loc < 256 {
        format!("{}", Loc::Reg(PReg(loc as u8)))
    } else {
        format!("{}", Loc::Spill(super::SpillSlot((loc - 256) as u32)))
    }
}

#[cfg(test)]
#[path = "checker_tests.rs"]
mod tests;
