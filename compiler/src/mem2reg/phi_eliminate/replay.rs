//! Replay checker for phi elimination: regalloc2's parallel-move checker, for phis.
//!
//! Why: whether a sequence of copies implements a parallel copy is easy to get wrong and
//! easy to check by running the copies on symbols. On an edge P -> S every value starts
//! out holding itself ("what %v held at the end of P"); a copy moves a symbol; at the end
//! each phi destination of S must hold the symbol of its incoming operand for P, and
//! nothing but phi destinations of S and temporaries may have been written. The checker
//! knows the pass's protocol only through the shape it promises, not through its code, so
//! tests and fuzzers can run it on any output.
//!
//! Rules checked, comparing a function before and after phi elimination:
//! - no phi survives;
//! - every original block is still there and keeps its original non-phi instructions,
//!   between a phase-2 prefix (copies from temporaries into its phi destinations) and a
//!   tail (the phase-1 copies of its outgoing edge);
//! - every terminator keeps its shape; each edge goes to its original target or to a
//!   trampoline (a new block of copies only, ending in `br` to that target); every new
//!   block is a trampoline some edge uses;
//! - on every edge, replaying tail -> trampoline -> prefix gives each phi destination the
//!   symbol of its incoming operand, writes only phi destinations of the target and
//!   temporaries (values numbered at or above the original `value_bound`), and every copy
//!   into a phi destination has the phi's type.

use super::edges::leading_phis;
use crate::ir::{
    BasicBlock, BlockId, Inst, IrConst, IrFunction, IrModule, IrType, Operand, Terminator, Value,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// What a register holds during the replay: the value some `%v` had at the end of the
/// predecessor, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    Value(Value),
    Const(IrConst),
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sym::Value(v) => write!(f, "{v}"),
            Sym::Const(c) => write!(f, "{c}:{}", c.ty),
        }
    }
}

impl From<Operand> for Sym {
    fn from(op: Operand) -> Sym {
        match op {
            Operand::Value(v) => Sym::Value(v),
            Operand::Const(c) => Sym::Const(c),
        }
    }
}

/// Checks every function of `after` against the function of the same name in `before`.
pub fn check_module(before: &IrModule, after: &IrModule) -> Result<(), String> {
    if before.functions.len() != after.functions.len() {
        return Err("the number of functions changed".into());
    }
    for (b, a) in before.functions.iter().zip(&after.functions) {
        if b.name != a.name {
            return Err(format!("function @{} became @{}", b.name, a.name));
        }
        check_phi_elimination(b, a).map_err(|e| format!("@{}: {e}", b.name))?;
    }
    Ok(())
}

/// Checks that `after` is `before` with its phis correctly eliminated (see the module doc).
/// Returns the first broken rule.
pub fn check_phi_elimination(before: &IrFunction, after: &IrFunction) -> Result<(), String> {
    let bound = before.value_bound();
    let before_index = first_index_of_labels(before);
    let after_index = first_index_of_labels(after);

    // Rule: no phi survives.
    for block in &after.blocks {
        if block.insts.iter().any(Inst::is_phi) {
            return Err(format!("{} still has a phi", block.label));
        }
    }

    let mut trampolines_used: FxHashSet<BlockId> = FxHashSet::default();
    let mut layouts: Vec<Layout> = Vec::with_capacity(before.blocks.len());
    // Rule: each original block is [prefix][its original non-phi instructions][tail].
    for block in &before.blocks {
        let Some(&a) = after_index.get(&block.label) else {
            return Err(format!("{} disappeared", block.label));
        };
        layouts.push(Layout::find(block, &after.blocks[a], a, bound)?);
    }

    // Rule: terminators keep their shape; each edge reaches its target directly or through
    // a trampoline; the copies on the way implement the phis of the target.
    for (x, block) in before.blocks.iter().enumerate() {
        let layout = &layouts[x];
        let new_block = &after.blocks[layout.after_index];
        let old_targets = block.term.successors();
        let new_targets = new_block.term.successors();
        if old_targets.len() != new_targets.len() {
            return Err(format!("{}: the terminator changed", block.label));
        }
        let mut unredirected = new_block.term.clone();
        let mut k = 0;
        unredirected.for_each_successor_mut(|t| {
            *t = old_targets[k];
            k += 1;
        });
        if unredirected != block.term {
            return Err(format!("{}: the terminator changed", block.label));
        }
        for (k, (&old, &new)) in old_targets.iter().zip(&new_targets).enumerate() {
            let edge = format!("edge {} -> {old} (successor {k})", block.label);
            let mut path: Vec<&Inst> = new_block.insts[layout.tail_start..].iter().collect();
            if new != old {
                let trampoline = after_index
                    .get(&new)
                    .map(|&t| &after.blocks[t])
                    .filter(|_| !before_index.contains_key(&new))
                    .ok_or_else(|| format!("{edge}: goes to {new}, not a new block"))?;
                if trampoline.term != Terminator::Br(old) {
                    return Err(format!("{edge}: trampoline {new} does not `br {old}`"));
                }
                trampolines_used.insert(new);
                path.extend(&trampoline.insts);
            }
            let Some(&s) = before_index.get(&old) else {
                continue; // a target that never existed: nothing to implement
            };
            let target_layout = &layouts[s];
            let target_new = &after.blocks[target_layout.after_index];
            path.extend(&target_new.insts[..target_layout.prefix_len]);
            replay_edge(&edge, &path, block.label, &before.blocks[s], bound)?;
        }
    }

    // Rule: every new block is a trampoline that some edge uses.
    for block in &after.blocks {
        if !before_index.contains_key(&block.label) && !trampolines_used.contains(&block.label) {
            return Err(format!("{} is new but no edge uses it", block.label));
        }
    }
    Ok(())
}

/// Where an original block's parts sit in its rewritten form.
struct Layout {
    after_index: usize,
    /// Leading restore copies `%dest = copy %tmp`.
    prefix_len: usize,
    /// First instruction after the original body.
    tail_start: usize,
}

impl Layout {
    fn find(
        before: &BasicBlock,
        after: &BasicBlock,
        after_index: usize,
        bound: u32,
    ) -> Result<Layout, String> {
        let phis = leading_phis(before);
        let dests: FxHashSet<Value> = phis.iter().map(|p| p.dest).collect();
        // A restore writes a phi destination from a temporary; tails never read
        // temporaries into phi destinations, and bodies never write phi destinations.
        let prefix_len = after
            .insts
            .iter()
            .take_while(|inst| match inst {
                Inst::Copy {
                    dest,
                    src: Operand::Value(src),
                    ..
                } => dests.contains(dest) && src.0 >= bound,
                _ => false,
            })
            .count();
        let body = &before.insts[phis.len()..];
        let tail_start = prefix_len + body.len();
        if after.insts.len() < tail_start || after.insts[prefix_len..tail_start] != *body {
            return Err(format!(
                "{}: its original instructions are not intact after the restore copies",
                before.label
            ));
        }
        Ok(Layout {
            after_index,
            prefix_len,
            tail_start,
        })
    }
}

/// Replays `path` for the edge `pred -> target` and checks the result (see module doc).
fn replay_edge(
    edge: &str,
    path: &[&Inst],
    pred: BlockId,
    target: &BasicBlock,
    bound: u32,
) -> Result<(), String> {
    let phis = leading_phis(target);
    let phi_types: FxHashMap<Value, IrType> = phis.iter().map(|p| (p.dest, p.ty)).collect();
    let mut state: FxHashMap<Value, Sym> = FxHashMap::default();
    let read = |state: &FxHashMap<Value, Sym>, op: Operand| match op {
        Operand::Value(v) => state.get(&v).copied().unwrap_or(Sym::Value(v)),
        Operand::Const(c) => Sym::Const(c),
    };
    for inst in path {
        let Inst::Copy { dest, ty, src } = inst else {
            return Err(format!("{edge}: {inst:?} is not a copy"));
        };
        if let Some(&phi_ty) = phi_types.get(dest) {
            if phi_ty != *ty {
                return Err(format!(
                    "{edge}: copy into {dest} is {ty}, the phi is {phi_ty}"
                ));
            }
        } else if dest.0 < bound {
            return Err(format!(
                "{edge}: clobbers {dest}, which is no phi of the target"
            ));
        }
        let value = read(&state, *src);
        state.insert(*dest, value);
    }
    for phi in &phis {
        let Some(&(src, _)) = phi.incoming.iter().find(|(_, b)| *b == pred) else {
            continue;
        };
        let expected = Sym::from(src);
        let got = read(&state, Operand::Value(phi.dest));
        if got != expected {
            return Err(format!(
                "{edge}: {} holds {got}, expected {expected}",
                phi.dest
            ));
        }
    }
    Ok(())
}

/// Label -> index of the first block with that label.
fn first_index_of_labels(func: &IrFunction) -> FxHashMap<BlockId, usize> {
    let mut index = FxHashMap::default();
    for (i, b) in func.blocks.iter().enumerate() {
        index.entry(b.label).or_insert(i);
    }
    index
}
