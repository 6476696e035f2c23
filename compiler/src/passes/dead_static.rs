//! `dead_static` (stub: being written): dead static function elimination.

use crate::ir::IrModule;

/// Deletes static functions nothing references; returns how many.
pub fn run(module: &mut IrModule) -> usize {
    let _ = module;
    0
}
