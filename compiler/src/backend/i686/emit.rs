//! The assembly text of an i686 module: each function's prologue and selected
//! instructions between its symbol directives, its jump tables in `.rodata`, then the
//! globals.
//!
//! Why it exists: instruction selection ([`super::isel`], [`super::wide`], [`super::abi`])
//! produces shared x86 [`Inst`]s with concrete operands; this file only decides where
//! they go in the output (sections, symbol visibility and type, `.size`) and leaves the
//! text of each instruction to the shared x86 printer, with 4-byte addresses (`(%esp)`).
//!
//! Invariants: a function is `.globl` unless `static`; every function has `.type` and
//! `.size`; jump tables are read-only data after their function; the module ends with a
//! `.note.GNU-stack` section (the stack is not executable).

use crate::backend::x86::emit::Printer;
use crate::backend::x86::inst::Inst;
use crate::ir::IrFunction;
use std::fmt::Write;

/// The shared x86 printer with i686's address width.
pub(super) const PRINTER: Printer = Printer { addr_bytes: 4 };

/// A function's selected code.
pub(super) struct FunctionCode {
    pub prologue: Vec<Inst>,
    pub body: Vec<Inst>,
    /// Jump tables (labels and `.long` entries).
    pub rodata: Vec<Inst>,
}

/// Appends the text of one function to `out`.
pub(super) fn emit_function(func: &IrFunction, code: &FunctionCode, out: &mut String) {
    let name = &func.name;
    let _ = writeln!(out, "\t.text");
    if !func.attrs.is_static {
        let _ = writeln!(out, "\t.globl {name}");
    }
    let _ = writeln!(out, "\t.type {name}, @function");
    let _ = writeln!(
        out,
        "\t.p2align {}",
        crate::backend::function_p2align(func, 4)
    );
    PRINTER.print(&Inst::Label(name.clone()), out);
    PRINTER.print_all(&code.prologue, out);
    PRINTER.print_all(&code.body, out);
    let _ = writeln!(out, "\t.size {name}, .-{name}");
    if !code.rodata.is_empty() {
        let _ = writeln!(out, "\t.section .rodata");
        PRINTER.print_all(&code.rodata, out);
    }
}

/// The last lines of every module.
pub(super) fn emit_trailer(out: &mut String) {
    let _ = writeln!(out, "\t.section .note.GNU-stack,\"\",@progbits");
}
