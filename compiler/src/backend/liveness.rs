//! Liveness over the phi-eliminated IR: live-in/live-out sets per block, a linear
//! numbering of program positions, and one live interval per value.
//!
//! Why it exists: the register allocator needs to know, for every value, where it is
//! live; the allocation checker needs the live-in sets to keep its abstract states small.
//! After phi elimination the function is not SSA — `copy` may assign one value on several
//! paths, a value may be read on a path where nothing assigned it (the oracle's
//! `UndefinedValue`), and blocks may be unreachable — so this is the classic backward
//! dataflow over variables, not an SSA liveness.
//!
//! The pieces:
//! - [`live_sets`]: `live_in(b) = UE(b) ∪ (live_out(b) − DEF(b))`,
//!   `live_out(b) = ∪ live_in(s)` over the successors `s`, where `UE(b)` are the values `b`
//!   reads before assigning them. A value read before any assignment on some path from
//!   the entry is live-in at the entry. Solved per value by walking predecessors from the
//!   blocks that read it ("path exploration"), so the cost is the size of the answer, not
//!   blocks × values; unreachable blocks are included like any other.
//! - Positions: instruction number `k` counts every instruction *and terminator* of every
//!   block, in the order of `func.blocks`. Instruction `k` reads its operands at its use
//!   point `2k` and writes its destination at its def point `2k + 1` (the backends read all
//!   operands before writing the destination). An interval that ends at an instruction's
//!   use point therefore never overlaps one that starts at its def point: the destination
//!   may take the location of an operand that dies there.
//! - [`LiveInterval`]: per value one conservative closed range `[start, end]` covering every
//!   position where the value is live, assigned or read. Lifetime holes are ignored: a
//!   value live in two distant regions holds its location in between too. This is sound
//!   (two values whose ranges do not overlap are never live at the same position) and
//!   only costs registers.
//! - `crosses_call` / `crosses_memcpy` are exact: the value is live immediately after a
//!   `call` (resp. `memcpy`) that does not define it, so it must survive what that
//!   instruction clobbers. Computed by a backward walk over the blocks that contain one.
//!
//! Invariants: live sets are sorted by value number and duplicate-free; every value the
//! function assigns or reads has an interval and no other value has one; `start <= end`;
//! nothing here is quadratic or recursive (10^5-instruction functions take milliseconds).

use crate::ir::analysis::{build_cfg, build_label_map, FlatAdj};
use crate::ir::{Inst, IrFunction, Value};

/// A linear program position (see the module doc): `2k` is the use point of instruction
/// `k`, `2k + 1` its def point.
pub type Pos = u32;

/// The position where instruction `k` reads its operands.
pub fn use_point(k: u32) -> Pos {
    2 * k
}

/// The position where instruction `k` writes its destination (and after its clobbers).
pub fn def_point(k: u32) -> Pos {
    2 * k + 1
}

/// A set of values per block, sorted, in two flat arrays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockValueSets {
    offsets: Vec<u32>,
    values: Vec<Value>,
}

impl BlockValueSets {
    /// Groups `(block index, value)` pairs by block, keeping their order within a block.
    pub(crate) fn from_pairs(num_blocks: usize, pairs: &[(u32, Value)]) -> BlockValueSets {
        let mut offsets = vec![0u32; num_blocks + 1];
        for &(b, _) in pairs {
            offsets[b as usize + 1] += 1;
        }
        for i in 0..num_blocks {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut values = vec![Value(0); pairs.len()];
        for &(b, v) in pairs {
            values[fill[b as usize] as usize] = v;
            fill[b as usize] += 1;
        }
        BlockValueSets { offsets, values }
    }

    /// The values of block `block` (an index into `func.blocks`), sorted.
    pub fn of(&self, block: usize) -> &[Value] {
        &self.values[self.offsets[block] as usize..self.offsets[block + 1] as usize]
    }

    /// True when `v` is in the set of block `block`.
    pub fn contains(&self, block: usize, v: Value) -> bool {
        self.of(block).binary_search(&v).is_ok()
    }

    /// Total number of (block, value) entries.
    pub fn total(&self) -> usize {
        self.values.len()
    }
}

/// Live-in and live-out sets of every block, indexed like `func.blocks`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSets {
    pub live_in: BlockValueSets,
    pub live_out: BlockValueSets,
}

/// Solves the live-in and live-out sets of every block of `func`.
pub fn live_sets(func: &IrFunction) -> LiveSets {
    let n = func.blocks.len();
    let labels = build_label_map(func);
    let (preds, _succs) = build_cfg(func, &labels);
    let bound = func.value_bound() as usize;

    // UE(b) and DEF(b) as (value, block) pairs. `assigned_in[v] == b` once block b has
    // assigned v, so a later read in b is not upward-exposed.
    let mut assigned_in = vec![u32::MAX; bound];
    let mut upward_exposed: Vec<(u32, u32)> = Vec::new();
    let mut defs: Vec<(u32, u32)> = Vec::new();
    for (b, block) in func.blocks.iter().enumerate() {
        let b = b as u32;
        let read = |v: Value, assigned_in: &[u32], upward_exposed: &mut Vec<(u32, u32)>| {
            if assigned_in[v.index()] != b {
                upward_exposed.push((v.0, b));
            }
        };
        for inst in &block.insts {
            inst.for_each_used_value(|v| read(v, &assigned_in, &mut upward_exposed));
            if let Some(d) = inst.dest() {
                if assigned_in[d.index()] != b {
                    assigned_in[d.index()] = b;
                    defs.push((d.0, b));
                }
            }
        }
        block
            .term
            .for_each_used_value(|v| read(v, &assigned_in, &mut upward_exposed));
    }
    let ue_by_value = FlatAdj::from_edges(bound, &upward_exposed);
    let defs_by_value = FlatAdj::from_edges(bound, &defs);

    // Path exploration, one value at a time in increasing order (so every block's sets
    // come out sorted). The marks hold the value being processed.
    let mut defines = vec![u32::MAX; n];
    let mut in_mark = vec![u32::MAX; n];
    let mut out_mark = vec![u32::MAX; n];
    let mut in_pairs: Vec<(u32, Value)> = Vec::new();
    let mut out_pairs: Vec<(u32, Value)> = Vec::new();
    let mut work: Vec<u32> = Vec::new();
    for v in 0..bound {
        let readers = ue_by_value.row(v);
        if readers.is_empty() {
            continue;
        }
        let v32 = v as u32;
        for &b in defs_by_value.row(v) {
            defines[b as usize] = v32;
        }
        for &b in readers {
            if in_mark[b as usize] != v32 {
                in_mark[b as usize] = v32;
                in_pairs.push((b, Value(v32)));
                work.push(b);
            }
        }
        while let Some(b) = work.pop() {
            for &p in preds.row(b as usize) {
                let pi = p as usize;
                if out_mark[pi] == v32 {
                    continue;
                }
                out_mark[pi] = v32;
                out_pairs.push((p, Value(v32)));
                if defines[pi] != v32 && in_mark[pi] != v32 {
                    in_mark[pi] = v32;
                    in_pairs.push((p, Value(v32)));
                    work.push(p);
                }
            }
        }
    }
    LiveSets {
        live_in: BlockValueSets::from_pairs(n, &in_pairs),
        live_out: BlockValueSets::from_pairs(n, &out_pairs),
    }
}

/// Where one value is live, as one range of positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveInterval {
    /// The first position where the value is live, assigned or read.
    pub start: Pos,
    /// The last such position (inclusive).
    pub end: Pos,
    /// Live across some `call` (it must survive the call's clobbers).
    pub crosses_call: bool,
    /// Live across some `memcpy`.
    pub crosses_memcpy: bool,
}

impl LiveInterval {
    fn at(pos: Pos) -> LiveInterval {
        LiveInterval {
            start: pos,
            end: pos,
            crosses_call: false,
            crosses_memcpy: false,
        }
    }

    /// True when the two closed ranges share a position.
    pub fn overlaps(&self, other: &LiveInterval) -> bool {
        self.start <= other.end && other.start <= self.end
    }

    /// True when `pos` is in the range.
    pub fn contains(&self, pos: Pos) -> bool {
        self.start <= pos && pos <= self.end
    }
}

/// Everything the allocator needs to know about where values are live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    pub sets: LiveSets,
    /// Instruction number of the first instruction (or the terminator, for an empty
    /// block) of each block; the terminator of block `b` is number
    /// `block_first_inst[b] + insts.len()`.
    pub block_first_inst: Vec<u32>,
    /// Instructions and terminators in the function: positions are below `2 * inst_count`.
    pub inst_count: u32,
    /// Indexed by `Value.0`; `None` for numbers the function never mentions.
    pub intervals: Vec<Option<LiveInterval>>,
}

impl Liveness {
    /// The instruction number of instruction `index` of block `block` (`index ==
    /// insts.len()` is the terminator).
    pub fn inst_number(&self, block: usize, index: usize) -> u32 {
        self.block_first_inst[block] + index as u32
    }

    /// The interval of `v`, if the function mentions it.
    pub fn interval(&self, v: Value) -> Option<&LiveInterval> {
        self.intervals.get(v.index()).and_then(Option::as_ref)
    }
}

/// Computes live sets, positions and intervals for `func`.
pub fn compute(func: &IrFunction) -> Liveness {
    let sets = live_sets(func);
    let bound = func.value_bound() as usize;
    let mut intervals: Vec<Option<LiveInterval>> = vec![None; bound];
    let extend = |intervals: &mut Vec<Option<LiveInterval>>, v: Value, pos: Pos| {
        let slot = &mut intervals[v.index()];
        match slot {
            Some(iv) => {
                iv.start = iv.start.min(pos);
                iv.end = iv.end.max(pos);
            }
            None => *slot = Some(LiveInterval::at(pos)),
        }
    };

    let mut block_first_inst = Vec::with_capacity(func.blocks.len());
    let mut k = 0u32;
    for (b, block) in func.blocks.iter().enumerate() {
        block_first_inst.push(k);
        let first = use_point(k);
        let last = def_point(k + block.insts.len() as u32);
        for &v in sets.live_in.of(b) {
            extend(&mut intervals, v, first);
        }
        for inst in &block.insts {
            inst.for_each_used_value(|v| extend(&mut intervals, v, use_point(k)));
            if let Some(d) = inst.dest() {
                extend(&mut intervals, d, def_point(k));
            }
            k += 1;
        }
        block
            .term
            .for_each_used_value(|v| extend(&mut intervals, v, use_point(k)));
        k += 1;
        for &v in sets.live_out.of(b) {
            extend(&mut intervals, v, last);
        }
    }

    mark_crossings(func, &sets, &mut intervals);
    Liveness {
        sets,
        block_first_inst,
        inst_count: k,
        intervals,
    }
}

/// Sets `crosses_call` / `crosses_memcpy` on every value live immediately after a call /
/// memcpy that does not define it: a backward walk from `live_out` through each block
/// that has one.
fn mark_crossings(func: &IrFunction, sets: &LiveSets, intervals: &mut [Option<LiveInterval>]) {
    let mut live = SparseSet::new(intervals.len());
    for (b, block) in func.blocks.iter().enumerate() {
        let has_clobbering_inst = block
            .insts
            .iter()
            .any(|i| matches!(i, Inst::Call { .. } | Inst::Memcpy { .. }));
        if !has_clobbering_inst {
            continue;
        }
        live.clear();
        for &v in sets.live_out.of(b) {
            live.insert(v.0);
        }
        block.term.for_each_used_value(|v| live.insert(v.0));
        for inst in block.insts.iter().rev() {
            if let Some(d) = inst.dest() {
                live.remove(d.0);
            }
            let is_call = matches!(inst, Inst::Call { .. });
            let is_memcpy = matches!(inst, Inst::Memcpy { .. });
            if is_call || is_memcpy {
                for &v in live.iter() {
                    if let Some(iv) = intervals[v as usize].as_mut() {
                        iv.crosses_call |= is_call;
                        iv.crosses_memcpy |= is_memcpy;
                    }
                }
            }
            inst.for_each_used_value(|v| live.insert(v.0));
        }
    }
}

/// A set of small integers with O(1) insert, remove and clear, and iteration over the
/// members only (Briggs and Torczon's sparse set).
struct SparseSet {
    dense: Vec<u32>,
    sparse: Vec<u32>,
}

impl SparseSet {
    fn new(universe: usize) -> SparseSet {
        SparseSet {
            dense: Vec::new(),
            sparse: vec![0; universe],
        }
    }

    fn contains(&self, x: u32) -> bool {
        let i = self.sparse[x as usize] as usize;
        i < self.dense.len() && self.dense[i] == x
    }

    fn insert(&mut self, x: u32) {
        if !self.contains(x) {
            self.sparse[x as usize] = self.dense.len() as u32;
            self.dense.push(x);
        }
    }

    fn remove(&mut self, x: u32) {
        if self.contains(x) {
            let i = self.sparse[x as usize] as usize;
            let last = self.dense.len() - 1;
            self.dense.swap(i, last);
            self.sparse[self.dense[i] as usize] = i as u32;
            self.dense.pop();
        }
    }

    fn clear(&mut self) {
        self.dense.clear();
    }

    fn iter(&self) -> impl Iterator<Item = &u32> {
        self.dense.iter()
    }
}

#[cfg(test)]
#[path = "liveness_tests.rs"]
mod tests;
