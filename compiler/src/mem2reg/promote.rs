//! SSA construction. (Stub: being written.)

use crate::ir::IrFunction;

/// Largest alloca (and type) size that can live in one register.
pub const MAX_PROMOTABLE_ALLOCA_SIZE: u32 = 8;
/// Estimated phi-elimination copies above which the most expensive allocas stay in memory.
pub const MAX_PHI_COPY_COST: usize = 50_000;

/// Promotes every promotable alloca except parameter allocas. Returns allocas promoted.
pub fn promote_allocas(func: &mut IrFunction) -> usize {
    let _ = func;
    0
}

/// Promotes every promotable alloca, parameter allocas included. Returns allocas promoted.
pub fn promote_allocas_with_params(func: &mut IrFunction) -> usize {
    let _ = func;
    0
}
