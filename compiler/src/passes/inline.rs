//! `inline` (stub: being written): the inliner with the seed's two-phase mem2reg protocol.

use crate::ir::IrModule;

/// Inlines calls (caller arguments stored into the callee's parameter slots), then
/// promotes every function's allocas including parameter slots. Returns changes made.
pub fn run(module: &mut IrModule) -> usize {
    module.for_each_function(crate::mem2reg::promote_allocas_with_params)
}
