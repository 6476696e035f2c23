//! `copy_prop`: copy propagation.
//!
//! Why: mem2reg turns every load of a promoted slot into `%d = copy T X`, the inliner and
//! `cfg_simplify` add more; each is a value that only renames another. Reading the source
//! directly removes the copy and lets the other passes see the real value (a constant
//! reaches `const_fold`, two copies of one value are one value for GVN).
//!
//! What it may assume: the function is in SSA form and verifies — every value has exactly
//! one definition, and that definition dominates every use. It must NOT run after phi
//! elimination (the pipeline's `CopyPropAfterPhiElim` mutant does exactly that): there a
//! `copy` is a move at one program point, its destination may be assigned on several
//! paths, and its source may be assigned again later (a phi's destination is rewritten on
//! every back edge). Replacing a use of the destination by the source then reads the
//! source's *newer* value — the lost-copy problem: in `%t = copy %a; %a = copy %b;
//! %b = copy %t` (a swap), `%b` would get the new `%a`. In SSA the source's one definition
//! dominates the copy, which dominates every use, so the source holds the same value
//! everywhere the destination is read.
//!
//! Rules:
//! - `%d = copy T S` is propagated when S is a value of type T or a constant of exactly
//!   type T (the verifier demands both; the check keeps the pass honest on any input);
//! - chains `%b = copy %a; %c = copy %b` resolve to the first source; a cycle of copies
//!   (possible only in unreachable blocks, which dominance does not constrain) is left as
//!   it is;
//! - every use is rewritten — instruction operands, phi entries (a phi entry's source
//!   dominates the end of its predecessor, as the copy did) and terminator operands. A
//!   constant replacing a value keeps its exact type T, which is what a phi or copy
//!   position requires; a condition position tests it for non-zero in type T, exactly as it tested `%d`;
//! - the propagated copies are then deleted here (not left to DCE): none of their uses is
//!   left, and a copy has no effect.
//!
//! Returns the number of copies propagated (each one deleted).
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: every `copy` in SSA form;
//! - must hold back: after phi elimination (copies are moves there), and a
//!   `phi_permutation` is never collapsed: phis that read each other are not copies.

use crate::ir::{Inst, IrFunction, IrType, Operand};

/// Runs the pass on one function; returns the number of changes made.
pub fn run(func: &mut IrFunction) -> usize {
    let bound = func.value_bound() as usize;
    let sources = copy_sources(func, bound);
    let resolved = resolve_chains(&sources);
    let propagated = resolved.iter().filter(|r| r.is_some()).count();
    if propagated == 0 {
        return 0;
    }
    let rewrite = |op: &mut Operand| {
        if let Operand::Value(v) = *op {
            if let Some(Some(src)) = resolved.get(v.index()) {
                *op = *src;
            }
        }
    };
    for block in &mut func.blocks {
        block.insts.retain(|inst| match inst {
            Inst::Copy { dest, .. } => resolved[dest.index()].is_none(),
            _ => true,
        });
        for inst in &mut block.insts {
            inst.for_each_operand_mut(rewrite);
        }
        block.term.for_each_operand_mut(rewrite);
    }
    propagated
}

/// For each value defined by a propagatable copy, the copy's source.
fn copy_sources(func: &IrFunction, bound: usize) -> Vec<Option<Operand>> {
    let mut def_type: Vec<Option<IrType>> = vec![None; bound];
    for inst in func.blocks.iter().flat_map(|b| &b.insts) {
        if let Some(d) = inst.dest() {
            def_type[d.index()] = Some(inst.result_type());
        }
    }
    let mut sources = vec![None; bound];
    // Rule: a copy is propagated when its source has exactly the copy's type.
    for inst in func.blocks.iter().flat_map(|b| &b.insts) {
        let Inst::Copy { dest, ty, src } = inst else {
            continue;
        };
        let same_type = match src {
            Operand::Value(v) => def_type.get(v.index()).copied().flatten() == Some(*ty),
            Operand::Const(c) => c.ty == *ty,
        };
        if same_type {
            sources[dest.index()] = Some(*src);
        }
    }
    sources
}

/// Follows copy chains to their first source; `None` for values that are not copies and
/// for copies on (or leading into) a cycle of copies. Iterative, linear.
fn resolve_chains(sources: &[Option<Operand>]) -> Vec<Option<Operand>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unvisited,
        OnPath,
        Done,
    }
    let mut state = vec![State::Unvisited; sources.len()];
    let mut resolved: Vec<Option<Operand>> = vec![None; sources.len()];
    let mut path = Vec::new();
    for start in 0..sources.len() {
        if sources[start].is_none() || state[start] == State::Done {
            continue;
        }
        let mut current = start;
        let end = loop {
            match state[current] {
                State::Done => break resolved[current],
                State::OnPath => break None, // a cycle of copies
                State::Unvisited => {}
            }
            state[current] = State::OnPath;
            path.push(current);
            match sources[current] {
                Some(Operand::Value(v)) if sources.get(v.index()).is_some_and(|s| s.is_some()) => {
                    current = v.index();
                }
                other => break other,
            }
        };
        for v in path.drain(..) {
            resolved[v] = end;
            state[v] = State::Done;
        }
    }
    resolved
}

#[cfg(test)]
#[path = "copy_prop/tests.rs"]
mod tests;
