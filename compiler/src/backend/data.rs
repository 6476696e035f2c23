//! Global data: `.data`, `.rodata` and `.bss` directives for a module's globals, the same
//! GNU assembler text on every target.
//!
//! Why it exists: a global's bytes do not depend on the instruction set, only on the
//! pointer width and the byte order (little-endian on all four targets).
//!
//! Invariants: each global gets exactly `size` bytes at its alignment (items in order, the
//! rest zero); an address item is a relocation `sym+off` of pointer width; globals are
//! local symbols (never `.globl`), so a program's global can never clash with a libc
//! symbol in a static link; a module whose items overflow their global is an error; a
//! float item (`f32`, `f64`) is the integer of its bits (`.4byte`/`.8byte`), every bit
//! kept, NaN payloads and signaling NaNs included.

use super::BackendError;
use crate::ir::{GlobalInit, GlobalItem, IrGlobal, IrModule, IrType};
use crate::target::Target;
use std::fmt::Write;

/// Appends the directives for every global of `module` to `out`.
pub fn emit_globals(
    module: &IrModule,
    target: Target,
    out: &mut String,
) -> Result<(), BackendError> {
    let ptr_bytes = target.sizeof_pointer();
    for g in &module.globals {
        emit_global(g, target, ptr_bytes, out)?;
    }
    Ok(())
}

fn emit_global(
    g: &IrGlobal,
    target: Target,
    ptr_bytes: u32,
    out: &mut String,
) -> Result<(), BackendError> {
    let error = |message: String| BackendError {
        target,
        function: String::new(),
        inst: None,
        message: format!("global @{}: {message}", g.name),
    };
    if !g.align.is_power_of_two() {
        return Err(error(format!(
            "alignment {} is not a power of two",
            g.align
        )));
    }
    let section = match (&g.init, g.is_const) {
        (GlobalInit::Zero, false) => ".bss",
        (_, true) => ".section .rodata",
        (GlobalInit::Items(_), false) => ".data",
    };
    let _ = writeln!(out, "\t{section}");
    let _ = writeln!(out, "\t.balign {}", g.align.max(1));
    let _ = writeln!(out, "\t.type {}, @object", g.name);
    let _ = writeln!(out, "\t.size {}, {}", g.name, g.size);
    let _ = writeln!(out, "{}:", g.name);
    let mut used: u64 = 0;
    if let GlobalInit::Items(items) = &g.init {
        for item in items {
            used += u64::from(item.size(ptr_bytes));
            if used > u64::from(g.size) {
                return Err(error(format!("items take more than its {} bytes", g.size)));
            }
            emit_item(item, ptr_bytes, out);
        }
    }
    let rest = u64::from(g.size) - used;
    if rest > 0 {
        let _ = writeln!(out, "\t.zero {rest}");
    }
    Ok(())
}

fn emit_item(item: &GlobalItem, ptr_bytes: u32, out: &mut String) {
    let directive = |bytes: u32| match bytes {
        1 => ".byte",
        2 => ".2byte",
        4 => ".4byte",
        _ => ".8byte",
    };
    match item {
        GlobalItem::Int(ty, v) => {
            let bytes = ty.size(ptr_bytes);
            let bits = if *ty == IrType::Void { 0 } else { bytes * 8 };
            let value = if bits == 0 {
                0
            } else if bits >= 64 {
                *v as u64
            } else {
                (*v as u64) & ((1u64 << bits) - 1)
            };
            if bytes > 0 {
                let _ = writeln!(out, "\t{} {value}", directive(bytes));
            }
        }
        GlobalItem::Ptr(name, off) => {
            let _ = match off.cmp(&0) {
                std::cmp::Ordering::Equal => writeln!(out, "\t{} {name}", directive(ptr_bytes)),
                std::cmp::Ordering::Greater => {
                    writeln!(out, "\t{} {name}+{off}", directive(ptr_bytes))
                }
                std::cmp::Ordering::Less => writeln!(out, "\t{} {name}{off}", directive(ptr_bytes)),
            };
        }
        GlobalItem::Zero(n) => {
            if *n > 0 {
                let _ = writeln!(out, "\t.zero {n}");
            }
        }
        GlobalItem::Str(bytes) => {
            for chunk in bytes.chunks(16) {
                let list: Vec<String> = chunk.iter().map(|b| b.to_string()).collect();
                let _ = writeln!(out, "\t.byte {}", list.join(","));
            }
        }
    }
}
