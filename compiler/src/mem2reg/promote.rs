//! SSA construction: promotes stack slots (`alloca`) to SSA values and phis.
//!
//! Why: the lowering puts every local in memory (a `store` per assignment, a `load` per
//! read). This pass, the seed's `promote_allocas`, turns the locals that never need an
//! address into values that flow directly between instructions (Cytron et al.: phis at the
//! iterated dominance frontier, then renaming by a walk of the dominator tree), so every
//! later pass sees SSA. The steps, one file each:
//! 1. `candidates`: which allocas may be promoted (the rules below) and where they are
//!    stored;
//! 2. `placement`: the phi blocks of each candidate (iterated dominance frontier of its
//!    defining blocks, reachable blocks only), then the phi copy cost cap;
//! 3. `rename`: one iterative dominator-tree walk that rewrites loads, drops stores and
//!    fills the phis, then the rewrite of unreachable blocks.
//!
//! An alloca is promoted only when all of these hold (the seed's three rules, our fourth,
//! then the seed's cost cap):
//! 1. *scalar*: its size and its type's largest size are at most
//!    [`MAX_PROMOTABLE_ALLOCA_SIZE`] bytes, and its type is not `void`;
//! 2. *not address-taken*: its value appears only as the `ptr` operand of `load` and
//!    `store` — as a stored value, a gep base or offset, a call argument, a memcpy operand,
//!    any other instruction's operand or a terminator's, the address escapes;
//! 3. *not volatile*;
//! 4. *no type punning*: every load and store through it uses exactly the alloca's type;
//! 5. *within budget*: the estimated phi-elimination copies of all promoted slots stay at
//!    most [`MAX_PHI_COPY_COST`]; above it the most expensive slots stay in memory.
//!
//! Parameter allocas ([`IrFunction::param_allocas`]) are skipped by [`promote_allocas`] and
//! included by [`promote_allocas_with_params`].
//!
//! Invariants of the output:
//! - every load of a promoted slot becomes `%d = copy TYPE X` with the *same* `%d`, so no use
//!   of `%d` anywhere needs rewriting; X is the definition reaching the load, or the zero
//!   of the type when no store reaches it (an uninitialized read, or an unreachable block);
//! - every store to a promoted slot is removed; a stored constant of another type is
//!   narrowed to the slot's type first (the lowering writes `:i64` literals);
//! - the entry block never gets a phi: a back edge into it can only carry a value that the
//!   input reads uninitialized (each alloca execution is a fresh slot), see `placement`;
//! - new phis sit at the very start of their block (before any phis already there), take
//!   fresh value numbers from [`IrFunction::value_bound`], and have exactly one incoming
//!   entry per distinct reachable predecessor, in predecessor (block) order;
//! - promoted allocas are removed, *except* promoted parameter allocas, which stay in the
//!   entry block (with no loads or stores left): the seed's backend finds a parameter's
//!   slot by its position among the entry block's parameter allocas (`find_param_alloca`);
//! - the CFG is unchanged; nothing recurses (100k-block functions are fine).
//!
//! Seeded bugs (`crate::mutants`), each at the decision it breaks: `M2rPromoteGepBase` in
//! `candidates` (rule 2), `M2rFrontierSkipsLoopHeader` in `placement`, `M2rNoStackPop` and
//! `M2rNoNarrowing` in `rename`.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: promotable slots whatever the CFG — `loop_without_preheader` (a header
//!   entered from a `condbr`: its phis are placed all the same), `irreducible_cycle` (the
//!   iterated dominance frontier puts a phi at each entry of the cycle),
//!   `unreachable_block` (loads there read the zero of the type),
//!   `param_written_after_entry` (with `promote_allocas_with_params` only: each store is
//!   one more definition of the parameter's variable);
//! - must hold back: `address_taken_slot` (rule 2), volatile or punned slots, parameter
//!   slots in the first run (`promote_allocas`), and never a phi in the entry block.

mod candidates;
mod placement;
mod rename;

#[cfg(test)]
mod tests;

use crate::ir::analysis::CfgAnalysis;
use crate::ir::IrFunction;

/// Largest alloca (and type) size that can live in one register.
pub const MAX_PROMOTABLE_ALLOCA_SIZE: u32 = 8;
/// Estimated phi-elimination copies above which the most expensive allocas stay in memory.
pub const MAX_PHI_COPY_COST: usize = 50_000;

/// Promotes every promotable alloca except parameter allocas. Returns allocas promoted.
pub fn promote_allocas(func: &mut IrFunction) -> usize {
    promote(func, false)
}

/// Promotes every promotable alloca, parameter allocas included. Returns allocas promoted.
pub fn promote_allocas_with_params(func: &mut IrFunction) -> usize {
    promote(func, true)
}

/// The whole pass: find the candidates, place their phis, rename.
fn promote(func: &mut IrFunction, include_params: bool) -> usize {
    // A function that calls `setjmp` keeps its variables in memory
    // (`setjmp_intrinsics`: a second return must read what was last stored).
    if func.blocks.is_empty() || crate::setjmp_intrinsics::calls_returns_twice(func) {
        return 0;
    }
    let mut slots = candidates::find_candidates(func, include_params);
    if slots.is_empty() {
        return 0;
    }
    let cfg = CfgAnalysis::build(func);
    let first_fresh = slots.value_bound;
    let phis = placement::place_phis(&cfg, &mut slots, first_fresh);
    let promoted = slots.promoted_count();
    if promoted == 0 {
        return 0;
    }
    rename::rename(func, &cfg, &slots, &phis);
    promoted
}
