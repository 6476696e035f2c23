//! Printer: module -> text. (Stub: being written.)

use crate::ir::{IrFunction, IrModule};

/// The text form of a module.
pub fn print_module(m: &IrModule) -> String {
    let _ = m;
    todo!("printer")
}

/// The text form of one function.
pub fn print_function(f: &IrFunction) -> String {
    let _ = f;
    todo!("printer")
}
