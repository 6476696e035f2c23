//! `licm`: loop-invariant code motion into existing preheaders.
//!
//! What it does: for every natural loop ([`loops`]) that has a preheader, innermost loops
//! first, it moves to the end of the preheader (before its terminator) every instruction
//! of the loop that (a) may run speculatively — it cannot trap, be undefined, touch memory
//! or have an effect, whatever its operands — and (b) reads only values defined outside
//! the loop (or by instructions already moved out). Blocks are visited in reverse
//! postorder, so an invariant chain moves in one run and keeps its order; a value moved
//! out of an inner loop into its preheader, which is in the outer loop, can move again.
//!
//! May run speculatively: `add sub mul and or xor`, `neg not`, `cmp`, `cast`, `select`,
//! `gep`, `globaladdr`, `copy`; a shift only by a constant smaller than the width; a
//! division or remainder only on an integer type by a constant that is neither 0 nor -1
//! (all ones) at the width. Never: phis, loads (out of bounds or uninitialised reads are
//! undefined), stores, memcpys, calls, allocas, paramrefs.
//!
//! What it assumes: the function passed the verifier in SSA mode and `cfg` was built for
//! it (checked: a mismatching analysis makes the pass do nothing). A value defined outside
//! a loop and used inside it dominates the header, hence the preheader's end, so the moved
//! instruction's operands are still defined before it.
//!
//! What it must not do: change the CFG (no preheader is created: a loop without one is
//! left alone); move anything out of an irreducible cycle (not a natural loop); make an
//! instruction run on a path where it did not and could then trap — the loop may run zero
//! times, and a guarded `if (d != 0) x / d` must not divide in the preheader.
//!
//! Mutant `LicmHoistGuardedDiv`: divisions and remainders by a non-constant divisor are
//! moved out too.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `invariant_in_loop` of a `loop_with_preheader`, and a
//!   `division_in_loop` by a constant neither 0 nor -1;
//! - must hold back: `loop_without_preheader` (left alone), `irreducible_cycle` (not a
//!   natural loop), a `division_in_loop` by a non-constant divisor (the loop may run zero
//!   times, or the division may sit under a guard).

mod loops;

#[cfg(test)]
mod tests;

use crate::ir::analysis::CfgAnalysis;
use crate::ir::eval;
use crate::ir::{Inst, IrFunction, Operand};
use crate::mutants::{self, Mutant};
use loops::natural_loops;

/// `def_block` entry of a value no instruction defines.
const NO_BLOCK: u32 = u32::MAX;

/// Runs the pass on one function with a CFG analysis that is valid for it (GVN and LICM
/// share one); returns the number of instructions moved. Never changes the CFG.
pub fn run(func: &mut IrFunction, cfg: &CfgAnalysis) -> usize {
    if !analysis_matches(func, cfg) {
        return 0;
    }
    let loops = natural_loops(cfg);
    if loops.iter().all(|l| l.preheader.is_none()) {
        return 0;
    }
    // The block defining each value; updated as instructions move.
    let mut def_block = vec![NO_BLOCK; func.value_bound() as usize];
    for (b, block) in func.blocks.iter().enumerate() {
        for inst in &block.insts {
            if let Some(d) = inst.dest() {
                def_block[d.index()] = b as u32;
            }
        }
    }
    let mut in_loop = vec![false; func.blocks.len()];
    let mut moved = 0;
    for lp in &loops {
        let Some(preheader) = lp.preheader else {
            continue;
        };
        for &b in &lp.blocks {
            in_loop[b] = true;
        }
        let mut hoisted: Vec<Inst> = Vec::new();
        for &b in &lp.blocks {
            let insts = std::mem::take(&mut func.blocks[b].insts);
            let mut kept = Vec::with_capacity(insts.len());
            for inst in insts {
                // Rule: move what may run speculatively and reads only values defined
                // outside the loop (moved ones included).
                let invariant = operands_defined_outside(&inst, &def_block, &in_loop);
                if invariant && may_speculate(&inst) {
                    if let Some(d) = inst.dest() {
                        def_block[d.index()] = preheader as u32;
                    }
                    hoisted.push(inst);
                } else {
                    kept.push(inst);
                }
            }
            func.blocks[b].insts = kept;
        }
        moved += hoisted.len();
        func.blocks[preheader].insts.extend(hoisted);
        for &b in &lp.blocks {
            in_loop[b] = false;
        }
    }
    moved
}

/// True when every value `inst` reads is defined, and outside the loop `in_loop` marks.
fn operands_defined_outside(inst: &Inst, def_block: &[u32], in_loop: &[bool]) -> bool {
    let mut outside = true;
    inst.for_each_used_value(|v| {
        let b = def_block.get(v.index()).copied().unwrap_or(NO_BLOCK);
        if b == NO_BLOCK || in_loop[b as usize] {
            outside = false;
        }
    });
    outside
}

/// True when running `inst` where it did not run before can change nothing but its own
/// value: no trap, no undefined behaviour, no memory access, no effect.
fn may_speculate(inst: &Inst) -> bool {
    match inst {
        Inst::Bin { op, ty, rhs, .. } => {
            if op.can_trap() {
                // Rule: a division runs early only when its divisor is a constant that can
                // neither be zero nor make MIN / -1 overflow.
                if matches!(rhs, Operand::Value(_)) && mutants::enabled(Mutant::LicmHoistGuardedDiv)
                {
                    return true;
                }
                divisor_never_traps(*ty, rhs)
            } else if op.is_shift() {
                // Rule: a shift runs early only by a constant amount below the width.
                shift_amount_in_range(*ty, rhs)
            } else {
                true
            }
        }
        // Rule: a float to integer conversion is undefined out of range: never early.
        Inst::Cast { from, to, .. } => !from.is_float() || to.is_float(),
        // Float arithmetic neither traps nor is undefined (IEEE default results).
        Inst::Un { .. }
        | Inst::Cmp { .. }
        | Inst::FBin { .. }
        | Inst::FNeg { .. }
        | Inst::FCmp { .. }
        | Inst::Bitcast { .. }
        | Inst::Select { .. }
        | Inst::Gep { .. }
        | Inst::GlobalAddr { .. }
        | Inst::Copy { .. } => true,
        Inst::Phi { .. }
        | Inst::Load { .. }
        | Inst::Store { .. }
        | Inst::Memcpy { .. }
        | Inst::Call { .. }
        | Inst::Alloca { .. }
        | Inst::DynAlloca { .. }
        | Inst::StackSave { .. }
        | Inst::StackRestore { .. }
        | Inst::ParamRef { .. } => false,
    }
}

/// True when `divisor` is a constant that is neither 0 nor all ones at `ty`'s width.
fn divisor_never_traps(ty: crate::ir::IrType, divisor: &Operand) -> bool {
    let (Some(k), Ok(mask)) = (divisor.as_const(), eval::width_mask(ty)) else {
        return false;
    };
    let d = k.bits as u64 & mask;
    d != 0 && d != mask
}

/// True when `amount` is a constant below `ty`'s width (read unsigned at the width).
fn shift_amount_in_range(ty: crate::ir::IrType, amount: &Operand) -> bool {
    let (Some(k), Ok(mask)) = (amount.as_const(), eval::width_mask(ty)) else {
        return false;
    };
    (k.bits as u64 & mask) < u64::from(ty.bits(8))
}

/// True when `cfg` describes `func`'s blocks as they are (same count, same labels at the
/// same indexes).
fn analysis_matches(func: &IrFunction, cfg: &CfgAnalysis) -> bool {
    cfg.num_blocks == func.blocks.len()
        && func
            .blocks
            .iter()
            .enumerate()
            .all(|(i, b)| cfg.label_to_idx.get(&b.label) == Some(&i))
}
