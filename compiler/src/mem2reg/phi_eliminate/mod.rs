//! Phi elimination: every phi becomes `copy` instructions on the edges that reach its block.
//!
//! Why: the backend knows nothing of phis; it lowers `copy` to register moves. The pass
//! runs last in the middle end, after every SSA pass (seed design,
//! `shared/seeds/mem2reg-subsystem.txt`, "Phi elimination"). Afterwards the function is no
//! longer SSA: a phi destination is assigned once per incoming edge.
//!
//! How, for each block B with phis and each distinct predecessor P that has an entry:
//! - `edges`: which phi reads what on the edge P -> B (entries for blocks that are not
//!   predecessors are ignored, repeated entries keep the first, predecessors without any
//!   entry — unreachable ones — get no copies);
//! - `conflicts`: a phi goes through a temporary when, on some edge, its source is another
//!   phi's destination, or a conflicting phi reads its destination (the seed's safety
//!   net). Temporaries are per phi and shared by all edges;
//! - phase 1, on the edge: `%tmp_i = copy src_i` for phis with a temporary (even when
//!   `src_i` is the phi itself: phase 2 reads the temporary on every edge), then
//!   `%dest_i = copy src_i` for the others, self-copies elided;
//! - phase 2, once, at the top of B: `%dest_i = copy %tmp_i`;
//! - `placement`: the phase-1 copies go at the end of P when P has one distinct successor
//!   (`condbr %c, .LBB1, .LBB1` included); otherwise into a trampoline block
//!   (copies + `br B`) with a fresh module-wide id, placed right after P in block order,
//!   and every edge P -> B (a switch may name B several times) is redirected to it.
//!
//! Invariants kept:
//! - On every edge P -> B, running P's new tail, the trampoline and B's phase-2 prefix
//!   leaves in each phi destination the value its incoming operand had at the end of P,
//!   and writes nothing else but phi destinations of B and fresh temporaries
//!   ([`replay::check_phi_elimination`] checks exactly this).
//! - No phase-1 copy reads a value written earlier on its edge. Temporaries are fresh.
//!   A direct copy of phi i writes `dest_i`; if any other phi k on the edge read `dest_i`,
//!   k would conflict (its source is another phi's destination) and the safety net would
//!   give i a temporary. A direct copy reads `src_i`; if that were another phi's
//!   destination written on the edge, i itself would conflict. So the order of the phase-1
//!   copies does not matter; saves are still emitted before direct copies, which keeps the
//!   sequence right even without the safety net.
//! - Every copy has its phi's type; temporaries take numbers from
//!   [`IrFunction::value_bound`] upward, trampolines from [`IrModule::next_block_id`].
//!
//! Mutants (`crate::mutants`): `PhiElimNoTemporaries` emits every copy direct, in phi
//! order; `PhiElimNoTrampoline` puts a critical edge's copies at the end of P;
//! `PhiElimRepeatedTargetOnce` redirects only P's first edge to B into the trampoline.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: every phi — `phi_permutation` (phis that swap or rotate on an edge go
//!   through temporaries), `critical_edge_into_phi` (copies go into a trampoline, never at
//!   the end of a block with other successors), `loop_with_preheader` (the back edge's
//!   copies run after the loop body read the old values), `irreducible_cycle` (no
//!   dominance is assumed: each edge gets its own copies), `empty_block_many_preds`
//!   (a block with only a `br` still takes its own copies);
//! - must hold back: nothing on edges from unreachable predecessors; no copy that
//!   overwrites a value another copy of the same edge still reads.

mod conflicts;
mod edges;
mod placement;
pub mod replay;

#[cfg(test)]
mod tests;

use crate::ir::analysis::build_cfg;
use crate::ir::{Inst, IrFunction, IrModule, Operand, Value};
use crate::mutants::{enabled, Mutant};
use conflicts::find_conflicting_phis;
use edges::{collect_edge_sources, leading_phis, EdgeSources, PhiNode};
use placement::Placement;

/// Replaces every phi of the module by copies. Returns the number of phis eliminated.
pub fn eliminate_phis(m: &mut IrModule) -> usize {
    let mut next_block = m.next_block_id();
    m.functions
        .iter_mut()
        .map(|f| eliminate_phis_in_function(f, &mut next_block))
        .sum()
}

/// Replaces every phi of `func` by copies. Trampoline blocks take their ids from
/// `next_block`, the module-wide counter, which is advanced by one per trampoline.
/// Returns the number of phis eliminated.
pub fn eliminate_phis_in_function(func: &mut IrFunction, next_block: &mut u32) -> usize {
    if func.blocks.iter().all(|b| b.phi_count() == 0) {
        return 0;
    }
    let label_to_idx = func.block_index();
    let (preds, succs) = build_cfg(func, &label_to_idx);
    let mut next_value = func.value_bound();
    let mut placement = Placement::new(func.blocks.len(), next_block);
    let mut eliminated = 0;

    for b in 0..func.blocks.len() {
        let phis = leading_phis(&func.blocks[b]);
        if phis.is_empty() {
            continue;
        }
        let edges = collect_edge_sources(func, preds.row(b), &phis);
        let dests: Vec<Value> = phis.iter().map(|p| p.dest).collect();
        let temps: Vec<Option<Value>> = if enabled(Mutant::PhiElimNoTemporaries) {
            vec![None; phis.len()]
        } else {
            find_conflicting_phis(&dests, &edges)
                .into_iter()
                .map(|conflicting| {
                    conflicting.then(|| {
                        let tmp = Value(next_value);
                        next_value = next_value.wrapping_add(1);
                        tmp
                    })
                })
                .collect()
        };

        let target = func.blocks[b].label;
        for edge in &edges {
            let copies = phase_one_copies(&phis, &temps, edge);
            if !copies.is_empty() {
                placement.place(func, succs.len(edge.pred), edge.pred, target, copies);
            }
        }

        let restores: Vec<Inst> = phis
            .iter()
            .zip(&temps)
            .filter_map(|(phi, tmp)| tmp.map(|t| copy(phi, Operand::Value(t), phi.dest)))
            .collect();
        func.blocks[b].insts.splice(0..phis.len(), restores);
        eliminated += phis.len();
    }
    placement.finish(func);
    eliminated
}

/// The phase-1 copies of one edge: saves into temporaries first, then direct copies, each
/// group in phi order; self-copies of phis without a temporary are elided.
fn phase_one_copies(phis: &[PhiNode], temps: &[Option<Value>], edge: &EdgeSources) -> Vec<Inst> {
    let mut saves = Vec::new();
    let mut direct = Vec::new();
    for &(i, src) in &edge.sources {
        let phi = &phis[i];
        match temps[i] {
            Some(tmp) => saves.push(copy(phi, src, tmp)),
            None if src != Operand::Value(phi.dest) => direct.push(copy(phi, src, phi.dest)),
            None => {}
        }
    }
    saves.extend(direct);
    saves
}

/// `%dest = copy TYPE src` with the phi's type.
fn copy(phi: &PhiNode, src: Operand, dest: Value) -> Inst {
    Inst::Copy {
        dest,
        ty: phi.ty,
        src,
    }
}
