//! Counting a module's features ([`FeatureCounts`]) by looking at it.
//!
//! Why: the counts must describe the program, not what the generator meant to produce;
//! so they are computed here from the finished module with the compiler's own CFG and
//! dominator analysis, and would be right for any module, generated or hand-written.
//!
//! Invariants: no recursion (explicit stacks only); every edge count uses the
//! deduplicated successor lists of `CfgAnalysis` except `repeated_targets`, which is about
//! the duplicates; the parallel copy of an edge is the list `dest_i <- src_i` of a block's
//! phis for one predecessor, and its cycles are found on the functional graph
//! `dest -> src` restricted to that block's phi destinations.

mod call_args;
mod guarded_divs;
mod statics;
mod trapping_divs;

use super::features::FeatureCounts;
use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{Callee, Inst, IrFunction, IrModule, IrType, Operand, Terminator, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// The feature counts of `m` (with `programs == 1`).
pub fn census(m: &IrModule) -> FeatureCounts {
    let mut fc = FeatureCounts {
        programs: 1,
        functions: m.functions.len() as u64,
        globals: m.globals.len() as u64,
        ..Default::default()
    };
    for f in &m.functions {
        let cfg = CfgAnalysis::build(f);
        count_control_flow(f, &cfg, &mut fc);
        count_slots(f, &mut fc);
        count_instructions(m, f, &mut fc);
        call_args::count_call_args(f, &mut fc);
        count_phis(f, &cfg, &mut fc);
        fc.guarded_invariant_divs += guarded_divs::count_guarded_invariant_divs(f, &cfg);
        fc.trapping_divs += trapping_divs::count_trapping_divs(f, &cfg);
    }
    statics::count_static_references(m, &mut fc);
    fc
}

/// Blocks, edges, loops and irreducibility.
fn count_control_flow(f: &IrFunction, cfg: &CfgAnalysis, fc: &mut FeatureCounts) {
    let n = cfg.num_blocks;
    fc.blocks += n as u64;
    fc.insts += f.inst_count() as u64;
    let has_phi: Vec<bool> = f.blocks.iter().map(|b| b.phi_count() > 0).collect();
    let mut back_edges_into: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (u, block) in f.blocks.iter().enumerate() {
        let targets = block.term.successors();
        let distinct: FxHashSet<_> = targets.iter().collect();
        if distinct.len() < targets.len() {
            fc.repeated_targets += 1;
            if matches!(block.term, Terminator::Switch { .. }) {
                fc.switch_shared_targets += 1;
            }
        }
        if matches!(block.term, Terminator::Switch { .. }) {
            fc.switches += 1;
        }
        if !cfg.is_reachable(u) {
            fc.unreachable_blocks += 1;
        }
        for &v in cfg.succs.row(u) {
            let v = v as usize;
            if !cfg.is_reachable(u) && cfg.is_reachable(v) {
                fc.unreachable_into_reachable += 1;
            }
            // A critical edge: many successors on one side, many predecessors on the other.
            if cfg.succs.len(u) >= 2 && cfg.preds.len(v) >= 2 {
                fc.critical_edges += 1;
                if has_phi[v] {
                    fc.phi_critical_edges += 1;
                }
            }
            // A back edge goes to a block that dominates its source.
            if cfg.dominates(v, u) {
                fc.back_edges += 1;
                back_edges_into.entry(v).or_default().push(u);
            }
        }
    }
    for v in 0..n {
        if cfg.preds.len(v) >= 3 {
            fc.multi_pred_joins += 1;
        }
    }
    fc.loops += back_edges_into.len() as u64;
    fc.multi_back_edge_loops += back_edges_into.values().filter(|s| s.len() >= 2).count() as u64;
    fc.nested_loops += count_nested_headers(cfg, &back_edges_into);
    fc.irreducible_regions += count_irreducible_targets(cfg);
}

/// Loop headers that lie in the natural loop body of another header.
fn count_nested_headers(cfg: &CfgAnalysis, back_edges_into: &FxHashMap<usize, Vec<usize>>) -> u64 {
    let mut nested: FxHashSet<usize> = FxHashSet::default();
    let mut headers: Vec<usize> = back_edges_into.keys().copied().collect();
    headers.sort_unstable();
    for &h in &headers {
        // The body: h and everything that reaches a latch without passing through h.
        let mut body: FxHashSet<usize> = FxHashSet::default();
        body.insert(h);
        let mut stack: Vec<usize> = back_edges_into[&h].clone();
        while let Some(b) = stack.pop() {
            if body.insert(b) {
                for &p in cfg.preds.row(b) {
                    if cfg.is_reachable(p as usize) {
                        stack.push(p as usize);
                    }
                }
            }
        }
        for &other in &headers {
            if other != h && body.contains(&other) {
                nested.insert(other);
            }
        }
    }
    nested.len() as u64
}

/// Distinct targets of retreating DFS edges whose target does not dominate the source.
pub(crate) fn count_irreducible_targets(cfg: &CfgAnalysis) -> u64 {
    let n = cfg.num_blocks;
    if n == 0 {
        return 0;
    }
    let mut on_stack = vec![false; n];
    let mut visited = vec![false; n];
    let mut targets: FxHashSet<usize> = FxHashSet::default();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    visited[0] = true;
    on_stack[0] = true;
    while let Some(&mut (b, ref mut pos)) = stack.last_mut() {
        let row = cfg.succs.row(b);
        if *pos < row.len() {
            let s = row[*pos] as usize;
            *pos += 1;
            if on_stack[s] {
                // A retreating edge; reducible exactly when its target dominates its source.
                if !cfg.dominates(s, b) {
                    targets.insert(s);
                }
            } else if !visited[s] {
                visited[s] = true;
                on_stack[s] = true;
                stack.push((s, 0));
            }
        } else {
            on_stack[b] = false;
            stack.pop();
        }
    }
    targets.len() as u64
}

/// How a slot's address is used.
#[derive(Default, Clone, Copy)]
struct Escapes {
    gep: bool,
    call: bool,
    stored: bool,
    memcpy: bool,
    other: bool,
}

impl Escapes {
    fn any(&self) -> bool {
        self.gep || self.call || self.stored || self.memcpy || self.other
    }
}

/// Allocas by kind, escapes by kind, promotability.
fn count_slots(f: &IrFunction, fc: &mut FeatureCounts) {
    let mut allocas: Vec<(Value, IrType, u32, bool)> = Vec::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let Inst::Alloca {
                dest,
                ty,
                size,
                volatile,
                ..
            } = i
            {
                allocas.push((*dest, *ty, *size, *volatile));
            }
        }
    }
    let slot_of: FxHashMap<Value, usize> =
        allocas.iter().enumerate().map(|(i, a)| (a.0, i)).collect();
    let mut escapes = vec![Escapes::default(); allocas.len()];
    let mut mark = |op: &Operand, how: fn(&mut Escapes)| {
        if let Some(&i) = op.as_value().and_then(|v| slot_of.get(&v)) {
            how(&mut escapes[i]);
        }
    };
    for b in &f.blocks {
        for inst in &b.insts {
            match inst {
                Inst::Load { .. } => {}
                Inst::Store { val, .. } => mark(val, |e| e.stored = true),
                Inst::Gep { base, offset, .. } => {
                    mark(base, |e| e.gep = true);
                    mark(offset, |e| e.other = true);
                }
                Inst::Call { callee, args, .. } => {
                    if let Callee::Indirect(op) = callee {
                        mark(op, |e| e.other = true);
                    }
                    for (_, op) in args {
                        mark(op, |e| e.call = true);
                    }
                }
                Inst::Memcpy { dst, src, .. } => {
                    mark(dst, |e| e.memcpy = true);
                    mark(src, |e| e.memcpy = true);
                }
                other => other.for_each_operand(|op| mark(op, |e| e.other = true)),
            }
        }
        b.term
            .for_each_operand_typed(|op, _| mark(op, |e| e.other = true));
    }
    let mut stored_in_entry: FxHashSet<Value> = FxHashSet::default();
    if let Some(entry) = f.blocks.first() {
        for i in &entry.insts {
            if let Inst::Store {
                ptr: Operand::Value(p),
                ..
            } = i
            {
                stored_in_entry.insert(*p);
            }
        }
    }
    fc.param_slots += f.param_allocas().iter().flatten().count() as u64;
    for (i, &(v, ty, size, volatile)) in allocas.iter().enumerate() {
        let e = escapes[i];
        let ty_size = ty.max_size();
        fc.slots += 1;
        *fc.slot_types.entry(ty.name().to_string()).or_default() += 1;
        fc.ptr_slots += (ty == IrType::Ptr) as u64;
        fc.volatile_slots += volatile as u64;
        // Larger than its type: an array when its address is taken (elements are reached
        // through it), a padded scalar when only loaded and stored at offset 0.
        let larger = ty_size > 0 && size > ty_size;
        fc.array_slots += (larger && size >= 2 * ty_size && e.any()) as u64;
        fc.padded_slots += (larger && !e.any()) as u64;
        fc.escaped_gep += e.gep as u64;
        fc.escaped_call += e.call as u64;
        fc.escaped_stored += e.stored as u64;
        fc.escaped_memcpy += e.memcpy as u64;
        fc.escaped_other += e.other as u64;
        let promotable = !volatile && size <= 8 && ty_size <= 8 && !e.any();
        if promotable {
            fc.promotable_slots += 1;
            if !stored_in_entry.contains(&v) {
                fc.uninitialized_at_entry += 1;
            }
        }
    }
}

/// Opcodes, stores of literals, calls, globals.
fn count_instructions(m: &IrModule, f: &IrFunction, fc: &mut FeatureCounts) {
    for b in &f.blocks {
        for inst in &b.insts {
            let name = match inst {
                Inst::Alloca { .. } => "alloca",
                Inst::ParamRef { .. } => "paramref",
                Inst::Load { .. } => "load",
                Inst::Store { .. } => "store",
                Inst::Gep { .. } => "gep",
                Inst::GlobalAddr { .. } => "globaladdr",
                Inst::Memcpy { .. } => "memcpy",
                Inst::Bin { op, .. } => op.name(),
                Inst::Un { op, .. } => op.name(),
                Inst::Cmp { .. } => "cmp",
                Inst::Cast { .. } => "cast",
                Inst::FBin { op, .. } => op.name(),
                Inst::FNeg { .. } => "fneg",
                Inst::FCmp { .. } => "fcmp",
                Inst::Bitcast { .. } => "bitcast",
                Inst::Copy { .. } => "copy",
                Inst::Select { .. } => "select",
                Inst::Phi { .. } => "phi",
                Inst::Call { .. } => "call",
                Inst::DynAlloca { .. } => "dynalloca",
                Inst::StackSave { .. } => "stacksave",
                Inst::StackRestore { .. } => "stackrestore",
            };
            *fc.ops.entry(name.to_string()).or_default() += 1;
            match inst {
                Inst::Store {
                    ty,
                    val: Operand::Const(c),
                    ..
                } if c.ty != *ty => {
                    fc.wide_literal_stores += 1;
                    if c.ty.max_size() > ty.max_size() {
                        fc.narrowing_stores += 1;
                    }
                }
                Inst::GlobalAddr { .. } => fc.global_accesses += 1,
                Inst::Call {
                    callee: Callee::Direct(name),
                    args,
                    ..
                } => {
                    if m.function(name).is_some() {
                        fc.calls += 1;
                        if args.iter().any(|(t, _)| *t == IrType::Ptr) {
                            fc.calls_with_ptr_args += 1;
                        }
                    }
                    if name == "printf" {
                        fc.printf_calls += 1;
                    }
                }
                _ => {}
            }
        }
    }
}

/// Phis and the parallel copies they stand for.
fn count_phis(f: &IrFunction, cfg: &CfgAnalysis, fc: &mut FeatureCounts) {
    // Loop headers: targets of back edges.
    let mut is_header = vec![false; cfg.num_blocks];
    for u in 0..cfg.num_blocks {
        for &v in cfg.succs.row(u) {
            if cfg.dominates(v as usize, u) {
                is_header[v as usize] = true;
            }
        }
    }
    let mut phi_block_of: FxHashMap<Value, usize> = FxHashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        for p in b.phis() {
            if let Some(d) = p.dest() {
                phi_block_of.insert(d, bi);
            }
        }
    }
    for (bi, b) in f.blocks.iter().enumerate() {
        let phis: Vec<(Value, &Vec<(Operand, compiler::ir::BlockId)>)> = b
            .phis()
            .filter_map(|p| match p {
                Inst::Phi { dest, incoming, .. } => Some((*dest, incoming)),
                _ => None,
            })
            .collect();
        if phis.is_empty() {
            continue;
        }
        fc.phi_blocks += 1;
        fc.phis += phis.len() as u64;
        for &(dest, incoming) in &phis {
            for (op, _) in incoming {
                match op {
                    Operand::Const(_) => fc.phi_constants += 1,
                    Operand::Value(v) if *v == dest => fc.phi_self_refs += 1,
                    Operand::Value(v) => {
                        if let Some(&hb) = phi_block_of.get(v) {
                            if hb != bi && is_header[hb] {
                                fc.phi_reads_header_phi += 1;
                            }
                        }
                    }
                }
            }
        }
        for &p in cfg.preds.row(bi) {
            let pred = &f.blocks[p as usize];
            if pred
                .term
                .successors()
                .iter()
                .filter(|&&t| t == b.label)
                .count()
                >= 2
            {
                fc.phi_repeated_pred_edges += 1;
            }
            let copies: Vec<(Value, Option<Value>)> = phis
                .iter()
                .filter_map(|&(dest, incoming)| {
                    incoming
                        .iter()
                        .find(|(_, l)| *l == pred.label)
                        .map(|(op, _)| (dest, op.as_value()))
                })
                .collect();
            count_parallel_copy(&copies, fc);
        }
    }
}

/// Swaps, rotations, chains and shared sources of one edge's parallel copy.
fn count_parallel_copy(copies: &[(Value, Option<Value>)], fc: &mut FeatureCounts) {
    let index: FxHashMap<Value, usize> = copies.iter().enumerate().map(|(i, c)| (c.0, i)).collect();
    let mut uses: FxHashMap<Value, u32> = FxHashMap::default();
    for (_, src) in copies {
        if let Some(s) = src {
            *uses.entry(*s).or_default() += 1;
        }
    }
    fc.phi_shared_sources += uses.values().filter(|&&n| n >= 2).count() as u64;
    // next[i]: the copy whose destination copy i reads, if another phi of the block.
    let next: Vec<Option<usize>> = copies
        .iter()
        .enumerate()
        .map(|(i, (_, src))| src.and_then(|s| index.get(&s).copied()).filter(|&j| j != i))
        .collect();
    // Colour walk on the functional graph: 0 unseen, 1 on the current path, 2 done.
    let mut colour = vec![0u8; copies.len()];
    let mut in_cycle = vec![false; copies.len()];
    for start in 0..copies.len() {
        let mut path = Vec::new();
        let mut cur = Some(start);
        while let Some(c) = cur {
            if colour[c] != 0 {
                if colour[c] == 1 {
                    let at = path.iter().position(|&x| x == c).unwrap_or(0);
                    let len = path.len() - at;
                    if len == 2 {
                        fc.phi_swaps += 1;
                    } else if len >= 3 {
                        fc.phi_rotations += 1;
                    }
                    for &x in &path[at..] {
                        in_cycle[x] = true;
                    }
                }
                break;
            }
            colour[c] = 1;
            path.push(c);
            cur = next[c];
        }
        for &x in &path {
            colour[x] = 2;
        }
    }
    for i in 0..copies.len() {
        if next[i].is_some() && !in_cycle[i] {
            fc.phi_chains += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: u32) -> Value {
        Value(n)
    }

    #[test]
    fn parallel_copy_shapes_by_hand() {
        // a<-b, b<-a (swap); c<-d, d<-e, e<-c (rotation); f<-f (self: not a cycle here);
        // g<-a (chain into the swap); h<-x, i<-x (shared outside value x).
        let copies = vec![
            (v(1), Some(v(2))),
            (v(2), Some(v(1))),
            (v(3), Some(v(4))),
            (v(4), Some(v(5))),
            (v(5), Some(v(3))),
            (v(6), Some(v(6))),
            (v(7), Some(v(1))),
            (v(8), Some(v(99))),
            (v(9), Some(v(99))),
            (v(10), None),
        ];
        let mut fc = FeatureCounts::default();
        count_parallel_copy(&copies, &mut fc);
        assert_eq!(fc.phi_swaps, 1);
        assert_eq!(fc.phi_rotations, 1);
        assert_eq!(fc.phi_chains, 1);
        // v1 is read by b and g; v99 by h and i.
        assert_eq!(fc.phi_shared_sources, 2);
    }
}
