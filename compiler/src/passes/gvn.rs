//! `gvn` (stub: being written).

use crate::ir::analysis::CfgAnalysis;
use crate::ir::IrFunction;

/// Runs the pass on one function with a CFG analysis that is valid for it (GVN and LICM
/// share one); returns the number of changes made. Must not change the CFG.
pub fn run(func: &mut IrFunction, cfg: &CfgAnalysis) -> usize {
    let _ = (func, cfg);
    0
}
