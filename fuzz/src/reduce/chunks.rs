//! Delta debugging's big steps: drop a whole chunk of instructions at once.
//!
//! Why: removing instructions one at a time costs one differential run per instruction
//! per round; on a 300-instruction program most of them are irrelevant, and removing the
//! first half, then the second, then quarters ... (Zeller's ddmin granularity) discards
//! them in a handful of runs. Single-instruction removal stays in the edit set for the
//! last steps, so the fixpoint is the same 1-minimal one, reached faster.
//!
//! Invariant: a chunk is a run of consecutive instructions (terminators excluded) in the
//! module's fixed order (functions, blocks, instructions); every value a removed
//! instruction defined is replaced by a zero constant of its type, as `drop instruction`
//! does, so the candidate stays structurally well formed. Chunk sizes are N/2, N/4, ...
//! down to 2 (size 1 is `drop instruction`'s job).

use super::edits::replace_uses;
use compiler::ir::{IrConst, IrModule, Operand};

/// The chunk sizes tried for `n` instructions, largest first: n/2, n/4, ..., 2.
fn chunk_sizes(n: usize) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut s = n / 2;
    while s >= 2 {
        sizes.push(s);
        s /= 2;
    }
    sizes
}

/// Drops chunk `index` (counted over every size, largest sizes first).
pub fn drop_instruction_chunk(m: &IrModule, _entry: &str, index: usize) -> Option<IrModule> {
    let n: usize = m
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .map(|b| b.insts.len())
        .sum();
    let mut k = index;
    for size in chunk_sizes(n) {
        let chunks = n.div_ceil(size);
        if k >= chunks {
            k -= chunks;
            continue;
        }
        let (first, last) = (k * size, ((k + 1) * size).min(n));
        return Some(without_positions(m, first, last));
    }
    None
}

/// `m` without the instructions at flat positions `first..last`.
fn without_positions(m: &IrModule, first: usize, last: usize) -> IrModule {
    let mut out = m.clone();
    let mut position = 0usize;
    for func in &mut out.functions {
        let mut removed = Vec::new();
        for b in &mut func.blocks {
            let mut kept = Vec::with_capacity(b.insts.len());
            for inst in b.insts.drain(..) {
                if (first..last).contains(&position) {
                    if let Some(d) = inst.dest() {
                        removed.push((d, inst.result_type()));
                    }
                } else {
                    kept.push(inst);
                }
                position += 1;
            }
            b.insts = kept;
        }
        for (v, ty) in removed {
            replace_uses(func, v, Operand::Const(IrConst::zero(ty)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_halve_down_to_two() {
        assert_eq!(chunk_sizes(20), vec![10, 5, 2]);
        assert_eq!(chunk_sizes(3), Vec::<usize>::new());
        assert_eq!(chunk_sizes(4), vec![2]);
    }
}
