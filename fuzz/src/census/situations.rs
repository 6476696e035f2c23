//! The situation census: which CFG shapes and instruction patterns a function presents
//! to each pass, and whether the pass changed that function.
//!
//! Why: a pass is only tested on the situations the generators put in front of it. Each
//! pass's module doc lists the situations it transforms and those where it must hold
//! back; this classifier looks for them in the module a stage received (not in what the
//! generator meant to produce), so the report can say, per pass, how many programs
//! presented each situation and in how many the pass changed a function presenting it.
//!
//! Definitions (per function; only reachable blocks count, except `unreachable_block`):
//! - `loop_with_preheader` / `loop_without_preheader`: a natural loop (a back edge
//!   `latch -> header`, the header dominating the latch) whose header has / has not a
//!   single outside predecessor that branches only to it (the entry block has the caller
//!   as an implicit predecessor, so a loop headed by it has none);
//! - `irreducible_cycle`: a cycle entered at more than one block (a retreating DFS edge
//!   whose target does not dominate its source);
//! - `late_dominator`: a block whose immediate dominator is not the nearest common
//!   dominator of its predecessors that come before it in reverse postorder — the blocks
//!   one pass of the iterative dominator algorithm gets wrong (an irreducible cycle
//!   entered through a block of its own);
//! - `empty_block_many_preds`: a block with no instruction, ending in `br`, with at least
//!   two predecessors;
//! - `phi_permutation`: on some incoming edge, a block's phis copy each other's values in
//!   a cycle (`a <- b, b <- a`: the parallel copy needs a temporary);
//! - `critical_edge_into_phi`: an edge from a block with several successors to a block
//!   with several predecessors and phis;
//! - `param_written_after_entry`: a parameter's slot stored to outside the entry block,
//!   or more than once;
//! - `address_taken_slot`: an `alloca` whose address is used other than as a load or
//!   store address;
//! - `invariant_in_loop`: a pure integer instruction inside a natural loop whose operands
//!   are all constants or values defined outside the loop;
//! - `division_in_loop`: `sdiv udiv srem urem` inside a natural loop;
//! - `redundant_dominated` / `redundant_not_dominated`: two integer `bin`/`cmp` with the
//!   same operation, type and operands, one in a block that dominates the other's / in
//!   blocks neither of which dominates the other;
//! - `constant_operands`: an integer `bin`, `un`, `cmp` or `cast` whose operands are all
//!   constants; `constant_branch`: a `condbr` or `switch` on a constant;
//! - `identity_operand`: an integer `bin` with a constant operand 0, 1 or -1;
//! - `self_comparison`: an integer `cmp` of a value with a `un` or `bin` of that same
//!   value (`-x == x`, `x + c < x`): the identities algebraic rewrites reason about;
//! - `boundary_divisor`: a division, remainder or shift whose right operand is a constant
//!   power of two, MIN, MAX or -1 of its type;
//! - `copy`: a `copy` instruction; `dead_pure`: a pure instruction nobody reads;
//! - `call_to_defined`: a direct call of a function defined in the module;
//! - `unreachable_block`: a block the entry does not reach.
//!
//! Invariants: classification reads the function only; no recursion (explicit stacks);
//! [`PASS_SITUATIONS`] names, per pass, the situations its module doc discusses, and
//! every name there is one of [`SITUATIONS`].

use crate::gen::census::count_irreducible_targets;
use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{
    Callee, Inst, IrConst, IrFunction, IrModule, IrType, Operand, Terminator, Value,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Every situation, in report order.
pub const SITUATIONS: [&str; 22] = [
    "loop_with_preheader",
    "loop_without_preheader",
    "irreducible_cycle",
    "late_dominator",
    "empty_block_many_preds",
    "phi_permutation",
    "critical_edge_into_phi",
    "param_written_after_entry",
    "address_taken_slot",
    "invariant_in_loop",
    "division_in_loop",
    "redundant_dominated",
    "redundant_not_dominated",
    "constant_operands",
    "constant_branch",
    "identity_operand",
    "self_comparison",
    "boundary_divisor",
    "copy",
    "dead_pure",
    "call_to_defined",
    "unreachable_block",
];

/// Per pass, the situations its module doc discusses (what it transforms and where it
/// must hold back), in report order.
pub const PASS_SITUATIONS: [(&str, &[&str]); 10] = [
    (
        "mem2reg",
        &[
            "param_written_after_entry",
            "address_taken_slot",
            "loop_without_preheader",
            "irreducible_cycle",
            "unreachable_block",
        ],
    ),
    (
        "inline",
        &[
            "call_to_defined",
            "param_written_after_entry",
            "address_taken_slot",
        ],
    ),
    (
        "cfg_simplify",
        &[
            "empty_block_many_preds",
            "constant_branch",
            "unreachable_block",
            "irreducible_cycle",
            "loop_without_preheader",
            "critical_edge_into_phi",
        ],
    ),
    ("copy_prop", &["copy", "phi_permutation"]),
    ("const_fold", &["constant_operands", "boundary_divisor"]),
    (
        "simplify",
        &["identity_operand", "self_comparison", "boundary_divisor"],
    ),
    (
        "gvn",
        &[
            "redundant_dominated",
            "redundant_not_dominated",
            "irreducible_cycle",
            "late_dominator",
        ],
    ),
    (
        "licm",
        &[
            "loop_with_preheader",
            "loop_without_preheader",
            "irreducible_cycle",
            "invariant_in_loop",
            "division_in_loop",
        ],
    ),
    ("dce", &["dead_pure", "irreducible_cycle"]),
    (
        "phi_elim",
        &[
            "phi_permutation",
            "critical_edge_into_phi",
            "loop_with_preheader",
            "irreducible_cycle",
            "empty_block_many_preds",
        ],
    ),
];

/// A set of situations (bit i: `SITUATIONS[i]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Situations(pub u32);

impl Situations {
    fn set(&mut self, name: &str) {
        let i = index(name);
        self.0 |= 1 << i;
    }

    /// Whether `name` is in the set.
    pub fn has(self, name: &str) -> bool {
        self.0 & (1 << index(name)) != 0
    }
}

fn index(name: &str) -> usize {
    SITUATIONS
        .iter()
        .position(|s| *s == name)
        .expect("a situation name from SITUATIONS")
}

/// The situations of every function of `m`, by function name.
pub fn classify_module(m: &IrModule) -> FxHashMap<&str, Situations> {
    let defined: FxHashSet<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    m.functions
        .iter()
        .map(|f| (f.name.as_str(), classify(f, &defined)))
        .collect()
}

/// The situations `f` presents (`defined`: the module's function names).
pub fn classify(f: &IrFunction, defined: &FxHashSet<&str>) -> Situations {
    let mut s = Situations::default();
    if f.blocks.is_empty() {
        return s;
    }
    let cfg = CfgAnalysis::build(f);
    control_flow(f, &cfg, &mut s);
    slots(f, &mut s);
    instructions(f, &cfg, defined, &mut s);
    s
}

/// Loops, irreducible cycles, empty joins, phi copies, critical edges, dead blocks.
fn control_flow(f: &IrFunction, cfg: &CfgAnalysis, s: &mut Situations) {
    if count_irreducible_targets(cfg) > 0 {
        s.set("irreducible_cycle");
    }
    if has_late_dominator(cfg) {
        s.set("late_dominator");
    }
    for (u, block) in f.blocks.iter().enumerate() {
        if !cfg.is_reachable(u) {
            s.set("unreachable_block");
            continue;
        }
        if block.insts.is_empty()
            && matches!(block.term, Terminator::Br(_))
            && reachable_preds(cfg, u) >= 2
        {
            s.set("empty_block_many_preds");
        }
        for &v in cfg.succs.row(u) {
            let v = v as usize;
            if cfg.succs.len(u) >= 2 && cfg.preds.len(v) >= 2 && f.blocks[v].phi_count() > 0 {
                s.set("critical_edge_into_phi");
            }
        }
        if phi_copy_has_cycle(f, u) {
            s.set("phi_permutation");
        }
    }
    for (header, body) in natural_loops(cfg) {
        let outside: Vec<usize> = cfg
            .preds
            .row(header)
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| cfg.is_reachable(p) && !body.contains(&p))
            .collect();
        let preheader = header != 0 && outside.len() == 1 && cfg.succs.row(outside[0]).len() == 1;
        s.set(if preheader {
            "loop_with_preheader"
        } else {
            "loop_without_preheader"
        });
        loop_body(f, &body, s);
    }
}

/// Whether some block's immediate dominator differs from the nearest common dominator of
/// its predecessors earlier in reverse postorder (what one pass of Cooper-Harvey-Kennedy
/// computes when those predecessors' dominators are already right).
fn has_late_dominator(cfg: &CfgAnalysis) -> bool {
    let mut order = vec![usize::MAX; cfg.num_blocks];
    for (i, &b) in cfg.rpo.iter().enumerate() {
        order[b] = i;
    }
    let nearest_common = |mut a: usize, mut b: usize| {
        while a != b {
            while order[a] > order[b] {
                a = cfg.idom[a];
            }
            while order[b] > order[a] {
                b = cfg.idom[b];
            }
        }
        a
    };
    cfg.rpo.iter().skip(1).any(|&b| {
        let earlier = cfg
            .preds
            .row(b)
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| cfg.is_reachable(p) && order[p] < order[b]);
        earlier
            .reduce(nearest_common)
            .is_some_and(|d| d != cfg.idom[b])
    })
}

fn reachable_preds(cfg: &CfgAnalysis, b: usize) -> usize {
    cfg.preds
        .row(b)
        .iter()
        .filter(|&&p| cfg.is_reachable(p as usize))
        .count()
}

/// Natural loops as (header, body); a header with several latches is one loop.
fn natural_loops(cfg: &CfgAnalysis) -> Vec<(usize, FxHashSet<usize>)> {
    let mut latches: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for u in 0..cfg.num_blocks {
        if !cfg.is_reachable(u) {
            continue;
        }
        for &v in cfg.succs.row(u) {
            let v = v as usize;
            if cfg.dominates(v, u) {
                latches.entry(v).or_default().push(u);
            }
        }
    }
    let mut headers: Vec<usize> = latches.keys().copied().collect();
    headers.sort_unstable();
    headers
        .into_iter()
        .map(|h| {
            let mut body: FxHashSet<usize> = FxHashSet::default();
            body.insert(h);
            let mut stack = latches[&h].clone();
            while let Some(b) = stack.pop() {
                if body.insert(b) {
                    stack.extend(
                        cfg.preds
                            .row(b)
                            .iter()
                            .map(|&p| p as usize)
                            .filter(|&p| cfg.is_reachable(p)),
                    );
                }
            }
            (h, body)
        })
        .collect()
}

/// Invariant instructions and divisions inside the loop `body`.
fn loop_body(f: &IrFunction, body: &FxHashSet<usize>, s: &mut Situations) {
    let mut inside: FxHashSet<Value> = FxHashSet::default();
    for &b in body {
        for i in &f.blocks[b].insts {
            if let Some(d) = i.dest() {
                inside.insert(d);
            }
        }
    }
    for &b in body {
        for i in &f.blocks[b].insts {
            let (op, operands) = match i {
                Inst::Bin { op, lhs, rhs, .. } => (Some(*op), vec![*lhs, *rhs]),
                Inst::Cmp { lhs, rhs, .. } => (None, vec![*lhs, *rhs]),
                Inst::Un { src, .. } | Inst::Cast { src, .. } => (None, vec![*src]),
                _ => continue,
            };
            if op.is_some_and(|o| o.can_trap()) {
                s.set("division_in_loop");
            }
            let invariant = operands
                .iter()
                .all(|o| o.as_value().is_none_or(|v| !inside.contains(&v)));
            if invariant && operands.iter().any(|o| o.as_value().is_some()) {
                s.set("invariant_in_loop");
            }
        }
    }
}

/// Whether the phis of block `b`, on some incoming edge, copy each other in a cycle.
fn phi_copy_has_cycle(f: &IrFunction, b: usize) -> bool {
    let block = &f.blocks[b];
    if block.phi_count() < 2 {
        return false;
    }
    let dests: FxHashSet<Value> = block.phis().filter_map(|p| p.dest()).collect();
    let mut preds: Vec<_> = Vec::new();
    for p in block.phis() {
        if let Inst::Phi { incoming, .. } = p {
            preds.extend(incoming.iter().map(|(_, l)| *l));
        }
    }
    preds.sort_unstable();
    preds.dedup();
    preds.into_iter().any(|pred| {
        // dest -> src among the block's own phis, for this edge.
        let mut next: FxHashMap<Value, Value> = FxHashMap::default();
        for p in block.phis() {
            if let Inst::Phi { dest, incoming, .. } = p {
                if let Some((Operand::Value(src), _)) = incoming.iter().find(|(_, l)| *l == pred) {
                    if dests.contains(src) && src != dest {
                        next.insert(*dest, *src);
                    }
                }
            }
        }
        // A functional graph: walk from each node at most `len` steps.
        next.keys().any(|&start| {
            let mut at = start;
            for _ in 0..next.len() {
                match next.get(&at) {
                    Some(&n) if n == start => return true,
                    Some(&n) => at = n,
                    None => return false,
                }
            }
            false
        })
    })
}

/// Parameter slots written again, slots whose address escapes.
fn slots(f: &IrFunction, s: &mut Situations) {
    let params: FxHashSet<Value> = f.param_allocas().into_iter().flatten().collect();
    let allocas: FxHashSet<Value> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match i {
            Inst::Alloca { dest, .. } => Some(*dest),
            _ => None,
        })
        .collect();
    if allocas.is_empty() {
        return;
    }
    let mut stores: FxHashMap<Value, u32> = FxHashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        let mut escape = |op: &Operand| {
            if op.as_value().is_some_and(|v| allocas.contains(&v)) {
                s.set("address_taken_slot");
            }
        };
        for i in &b.insts {
            match i {
                Inst::Load { .. } | Inst::Alloca { .. } => {}
                Inst::Store { val, ptr, .. } => {
                    escape(val);
                    if let Some(p) = ptr.as_value().filter(|p| params.contains(p)) {
                        *stores.entry(p).or_default() += if bi == 0 { 1 } else { 2 };
                    }
                }
                other => other.for_each_operand(|op| escape(op)),
            }
        }
        b.term.for_each_operand_typed(|op, _| escape(op));
    }
    if stores.values().any(|&n| n >= 2) {
        s.set("param_written_after_entry");
    }
}

/// Patterns of single instructions and pairs of them.
fn instructions(f: &IrFunction, cfg: &CfgAnalysis, defined: &FxHashSet<&str>, s: &mut Situations) {
    let mut used: FxHashSet<Value> = FxHashSet::default();
    for b in &f.blocks {
        for i in &b.insts {
            i.for_each_operand(|op| {
                if let Some(v) = op.as_value() {
                    used.insert(v);
                }
            });
        }
        b.term.for_each_operand_typed(|op, _| {
            if let Some(v) = op.as_value() {
                used.insert(v);
            }
        });
    }
    // Value -> the operands of the `un`/`bin` defining it.
    let mut operands_of: FxHashMap<Value, (Operand, Option<Operand>)> = FxHashMap::default();
    for b in &f.blocks {
        for i in &b.insts {
            match i {
                Inst::Un { dest, src, .. } => {
                    operands_of.insert(*dest, (*src, None));
                }
                Inst::Bin { dest, lhs, rhs, .. } => {
                    operands_of.insert(*dest, (*lhs, Some(*rhs)));
                }
                _ => {}
            }
        }
    }
    let function_of = |v: &Operand, x: &Operand| {
        v.as_value()
            .and_then(|v| operands_of.get(&v))
            .is_some_and(|(a, b)| a == x || b.as_ref() == Some(x))
    };
    // (op, type, operands) -> blocks that compute it.
    let mut seen: FxHashMap<(u8, u8, IrType, Operand, Operand), Vec<usize>> = FxHashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        if !cfg.is_reachable(bi) {
            continue;
        }
        match &b.term {
            Terminator::CondBr {
                cond: Operand::Const(_),
                ..
            }
            | Terminator::Switch {
                val: Operand::Const(_),
                ..
            } => s.set("constant_branch"),
            _ => {}
        }
        for i in &b.insts {
            let pure = matches!(
                i,
                Inst::Bin { .. }
                    | Inst::Un { .. }
                    | Inst::Cmp { .. }
                    | Inst::Cast { .. }
                    | Inst::Copy { .. }
                    | Inst::Select { .. }
            );
            if pure && i.dest().is_some_and(|d| !used.contains(&d)) {
                s.set("dead_pure");
            }
            match i {
                Inst::Bin {
                    op, ty, lhs, rhs, ..
                } if ty.is_integer() => {
                    if lhs.as_value().is_none() && rhs.as_value().is_none() {
                        s.set("constant_operands");
                    }
                    if [lhs, rhs].iter().any(|o| is_identity(o)) {
                        s.set("identity_operand");
                    }
                    if (op.can_trap() || op.is_shift()) && is_boundary(rhs, *ty) {
                        s.set("boundary_divisor");
                    }
                    let key = (0, *op as u8, *ty, *lhs, *rhs);
                    seen.entry(key).or_default().push(bi);
                }
                Inst::Cmp {
                    pred, ty, lhs, rhs, ..
                } if ty.is_integer() => {
                    if lhs.as_value().is_none() && rhs.as_value().is_none() {
                        s.set("constant_operands");
                    }
                    if lhs.as_value().is_some()
                        && rhs.as_value().is_some()
                        && (function_of(lhs, rhs) || function_of(rhs, lhs))
                    {
                        s.set("self_comparison");
                    }
                    let key = (1, *pred as u8, *ty, *lhs, *rhs);
                    seen.entry(key).or_default().push(bi);
                }
                Inst::Un { ty, src, .. } if ty.is_integer() && src.as_value().is_none() => {
                    s.set("constant_operands")
                }
                Inst::Cast { from, src, .. } if from.is_integer() && src.as_value().is_none() => {
                    s.set("constant_operands")
                }
                Inst::Copy { .. } => s.set("copy"),
                Inst::Call {
                    callee: Callee::Direct(name),
                    ..
                } if defined.contains(name.as_str()) => s.set("call_to_defined"),
                _ => {}
            }
        }
    }
    for blocks in seen.values().filter(|b| b.len() >= 2) {
        for (k, &a) in blocks.iter().enumerate() {
            for &b in &blocks[k + 1..] {
                if cfg.dominates(a, b) || cfg.dominates(b, a) {
                    s.set("redundant_dominated");
                } else {
                    s.set("redundant_not_dominated");
                }
            }
        }
    }
}

/// A constant 0, 1 or -1 (all ones at its type).
fn is_identity(op: &Operand) -> bool {
    match op {
        Operand::Const(c) => c.bits == 0 || c.bits == 1 || c.bits == IrConst::new(c.ty, -1).bits,
        Operand::Value(_) => false,
    }
}

/// A constant power of two, MIN, MAX or -1 of `ty`.
fn is_boundary(op: &Operand, ty: IrType) -> bool {
    let Operand::Const(c) = op else {
        return false;
    };
    let bits = ty.bits(8);
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let x = c.bits as u64 & mask;
    x.is_power_of_two() || x == mask || x == mask >> 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::text::parse_module;

    /// Each function's situations, found by hand from its text (see the comments).
    const MODULE: &str = "
func @set(ptr, i32) -> void {
.LBB0:
    %0 = paramref 0, ptr
    %1 = paramref 1, i32
    store i32 %1, %0
    ret
}
; The parameter's slot %1 is stored again in .LBB1; %2's address goes to a call.
func @a(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 %0, %1
    %2 = alloca i32, 4, 4
    store i32 0, %2
    call void @set(ptr %2, i32 %0)
    %3 = cmp slt i32 %0, 0
    condbr %3, .LBB1, .LBB2
.LBB1:
    store i32 7, %1
    br .LBB2
.LBB2:
    %4 = load i32 %1
    ret i32 %4
}
; .LBB1 is a loop entered from a condbr (no preheader) whose phis swap on the back edge;
; %4 is invariant, %5 a division by a power of two in the loop; .LBB0 -> .LBB3 and
; .LBB0 -> .LBB1 are critical edges into phis; .LBB6 is empty with two predecessors; %9
; adds 1 and is never read.
func @b(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp slt i32 %0, 0
    condbr %1, .LBB1, .LBB3
.LBB1:
    %2 = phi i32 [%0, .LBB0], [%3, .LBB1]
    %3 = phi i32 [1, .LBB0], [%2, .LBB1]
    %4 = add i32 %0, 3
    %5 = sdiv i32 %2, 4
    %6 = cmp slt i32 %5, %4
    condbr %6, .LBB1, .LBB3
.LBB3:
    %7 = phi i32 [0, .LBB0], [%5, .LBB1]
    %8 = cmp eq i32 %7, 0
    condbr %8, .LBB4, .LBB6
.LBB4:
    %9 = add i32 %7, 1
    br .LBB6
.LBB6:
    br .LBB7
.LBB7:
    ret i32 %7
}
; .LBB1 <-> .LBB2 is a cycle entered at both blocks; .LBB1 is empty with two predecessors.
func @c(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp slt i32 %0, 0
    condbr %1, .LBB1, .LBB2
.LBB1:
    br .LBB2
.LBB2:
    %2 = cmp sgt i32 %0, 5
    condbr %2, .LBB1, .LBB3
.LBB3:
    ret i32 %0
}
; A loop with preheader .LBB0; its back edge .LBB1 -> .LBB1 is critical (two successors,
; two predecessors, a phi); %3 repeats %1 (dominated) and is invariant; %1 is unused;
; .LBB5 is unreachable.
func @d(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = add i32 %0, 1
    br .LBB1
.LBB1:
    %2 = phi i32 [0, .LBB0], [%4, .LBB1]
    %3 = add i32 %0, 1
    %4 = add i32 %2, %3
    %5 = cmp slt i32 %4, 100
    condbr %5, .LBB1, .LBB2
.LBB2:
    ret i32 %4
.LBB5:
    ret i32 0
}
; .LBB2 <-> .LBB3 is entered at .LBB2 through .LBB1 and at .LBB3 from the entry. In reverse
; postorder (.LBB0 .LBB1 .LBB2 .LBB4 .LBB3) .LBB2's only earlier predecessor is .LBB1, but
; its immediate dominator is .LBB0; .LBB3 is empty with two predecessors; %3 compares %0
; with its own negation.
func @e(i32) -> i8 {
.LBB0:
    %0 = paramref 0, i32
    %1 = cmp sgt i32 %0, 10
    condbr %1, .LBB1, .LBB3
.LBB1:
    br .LBB2
.LBB2:
    %2 = neg i32 %0
    %3 = cmp eq i32 %2, %0
    condbr %3, .LBB3, .LBB4
.LBB3:
    br .LBB2
.LBB4:
    ret i8 %3
}
";

    fn names(s: Situations) -> Vec<&'static str> {
        SITUATIONS.iter().copied().filter(|n| s.has(n)).collect()
    }

    #[test]
    fn situations_by_hand() {
        let m = parse_module(MODULE).expect("test IR parses");
        let found = classify_module(&m);
        assert_eq!(
            names(found["a"]),
            [
                "param_written_after_entry",
                "address_taken_slot",
                "call_to_defined"
            ]
        );
        assert_eq!(
            names(found["b"]),
            [
                "loop_without_preheader",
                "empty_block_many_preds",
                "phi_permutation",
                "critical_edge_into_phi",
                "invariant_in_loop",
                "division_in_loop",
                "identity_operand",
                "boundary_divisor",
                "dead_pure",
            ]
        );
        assert_eq!(
            names(found["c"]),
            ["irreducible_cycle", "empty_block_many_preds"]
        );
        assert_eq!(
            names(found["d"]),
            [
                "loop_with_preheader",
                "critical_edge_into_phi",
                "invariant_in_loop",
                "redundant_dominated",
                "identity_operand",
                "dead_pure",
                "unreachable_block"
            ]
        );
    }

    #[test]
    fn late_dominator_and_self_comparison_by_hand() {
        let m = parse_module(MODULE).expect("test IR parses");
        let found = classify_module(&m);
        assert_eq!(
            names(found["e"]),
            [
                "irreducible_cycle",
                "late_dominator",
                "empty_block_many_preds",
                "self_comparison"
            ]
        );
    }

    #[test]
    fn every_pass_situation_is_a_situation() {
        for (_, names) in PASS_SITUATIONS {
            for n in names {
                assert!(SITUATIONS.contains(n), "{n}");
            }
        }
    }
}
