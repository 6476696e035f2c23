//! Printer: module -> text, in the grammar of `shared/IR.md`.
//!
//! Why: the text form is the test format, the corpus format and what a human reads in a
//! finding, so the printer must be exact (the parser reads back the same module) and
//! stable (one spelling per module).
//!
//! Invariants:
//! - `parse_module(&print_module(&m)) == Ok(m)` for every module with canonical constants;
//! - a constant carries a `:TYPE` suffix exactly when its type differs from its position's
//!   context type, which comes from `Inst::for_each_operand_typed` /
//!   `Terminator::for_each_operand_typed` (the same visitors the parser uses);
//! - items are printed globals, declarations, functions (each list in order), one blank
//!   line between items; instructions are indented by four spaces; attributes are printed
//!   in the order `static inline noinline`;
//! - no recursion; linear in the size of the module.

use crate::ir::{
    BasicBlock, Callee, GlobalInit, GlobalItem, Inst, IrConst, IrDecl, IrFunction, IrGlobal,
    IrModule, IrType, Operand, Terminator,
};
use std::fmt::{self, Write};

/// The text form of a module.
pub fn print_module(m: &IrModule) -> String {
    m.to_string()
}

/// The text form of one function.
pub fn print_function(f: &IrFunction) -> String {
    f.to_string()
}

/// The text form of one instruction, without indentation or newline.
pub fn print_inst(inst: &Inst) -> String {
    let mut out = String::new();
    let _ = write_inst(&mut out, inst, &mut Vec::new());
    out
}

/// The text form of one terminator, without indentation or newline.
pub fn print_terminator(term: &Terminator) -> String {
    let mut out = String::new();
    let _ = write_terminator(&mut out, term, &mut Vec::new());
    out
}

impl fmt::Display for IrModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_module(f, self)
    }
}

impl fmt::Display for IrFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_function(f, self, &mut Vec::new())
    }
}

fn write_module(out: &mut impl Write, m: &IrModule) -> fmt::Result {
    let mut first = true;
    // One blank line between items, none before the first.
    let mut separate = |out: &mut dyn Write| -> fmt::Result {
        if !std::mem::replace(&mut first, false) {
            out.write_char('\n')?;
        }
        Ok(())
    };
    for g in &m.globals {
        separate(out)?;
        write_global(out, g)?;
    }
    for d in &m.decls {
        separate(out)?;
        write_decl(out, d)?;
    }
    let mut operands = Vec::new();
    for func in &m.functions {
        separate(out)?;
        write_function(out, func, &mut operands)?;
    }
    Ok(())
}

/// `global @g : SIZE align A [const] = [items] | zeroinit`
fn write_global(out: &mut impl Write, g: &IrGlobal) -> fmt::Result {
    write!(out, "global @{} : {} align {}", g.name, g.size, g.align)?;
    if g.is_const {
        out.write_str(" const")?;
    }
    out.write_str(" = ")?;
    match &g.init {
        GlobalInit::Zero => out.write_str("zeroinit")?,
        GlobalInit::Items(items) => {
            out.write_char('[')?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_str(", ")?;
                }
                write_global_item(out, item)?;
            }
            out.write_char(']')?;
        }
    }
    out.write_char('\n')
}

fn write_global_item(out: &mut impl Write, item: &GlobalItem) -> fmt::Result {
    match item {
        GlobalItem::Int(ty, bits) => write!(
            out,
            "{ty} {}",
            IrConst {
                ty: *ty,
                bits: *bits
            }
        ),
        GlobalItem::Ptr(name, 0) => write!(out, "ptr @{name}"),
        GlobalItem::Ptr(name, off) if *off > 0 => write!(out, "ptr @{name}+{off}"),
        GlobalItem::Ptr(name, off) => write!(out, "ptr @{name}{off}"),
        GlobalItem::Zero(n) => write!(out, "zero {n}"),
        GlobalItem::Str(bytes) => {
            out.write_str("str \"")?;
            write_escaped(out, bytes)?;
            out.write_char('"')
        }
    }
}

/// String bytes with the escapes the lexer reads: `\n \t \\ \"`, printable ASCII as is,
/// every other byte as `\HH`.
fn write_escaped(out: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    for &b in bytes {
        match b {
            b'\n' => out.write_str("\\n")?,
            b'\t' => out.write_str("\\t")?,
            b'\\' => out.write_str("\\\\")?,
            b'"' => out.write_str("\\\"")?,
            0x20..=0x7e => out.write_char(b as char)?,
            _ => write!(out, "\\{b:02x}")?,
        }
    }
    Ok(())
}

/// `(TYPES[, ...])`
fn write_params(out: &mut impl Write, params: &[IrType], variadic: bool) -> fmt::Result {
    out.write_char('(')?;
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{p}")?;
    }
    if variadic {
        if !params.is_empty() {
            out.write_str(", ")?;
        }
        out.write_str("...")?;
    }
    out.write_char(')')
}

/// `declare @name(TYPES[, ...]) -> TYPE`
fn write_decl(out: &mut impl Write, d: &IrDecl) -> fmt::Result {
    write!(out, "declare @{}", d.name)?;
    write_params(out, &d.params, d.variadic)?;
    writeln!(out, " -> {}", d.ret)
}

/// `func [static] [inline] [noinline] [align N] @name(TYPES) -> TYPE { blocks }`; `operands` is
/// scratch space reused across instructions.
fn write_function(
    out: &mut impl Write,
    func: &IrFunction,
    operands: &mut Vec<(Operand, IrType)>,
) -> fmt::Result {
    out.write_str("func")?;
    for (set, word) in [
        (func.attrs.is_static, " static"),
        (func.attrs.is_inline, " inline"),
        (func.attrs.is_noinline, " noinline"),
    ] {
        if set {
            out.write_str(word)?;
        }
    }
    if func.attrs.align != 0 {
        write!(out, " align {}", func.attrs.align)?;
    }
    write!(out, " @{}", func.name)?;
    write_params(out, &func.params, func.variadic)?;
    writeln!(out, " -> {} {{", func.ret)?;
    for block in &func.blocks {
        write_block(out, block, operands)?;
    }
    out.write_str("}\n")
}

fn write_block(
    out: &mut impl Write,
    block: &BasicBlock,
    operands: &mut Vec<(Operand, IrType)>,
) -> fmt::Result {
    writeln!(out, "{}:", block.label)?;
    for inst in &block.insts {
        out.write_str("    ")?;
        write_inst(out, inst, operands)?;
        out.write_char('\n')?;
    }
    out.write_str("    ")?;
    write_terminator(out, &block.term, operands)?;
    out.write_char('\n')
}

/// The operands of one instruction with their context types, in text order, read by
/// position as the instruction is printed.
struct TypedOperands<'v> {
    list: &'v [(Operand, IrType)],
    next: usize,
}

impl TypedOperands<'_> {
    /// Writes the next operand: `%N`, or a literal with `:TYPE` when its type is not the
    /// context type.
    fn write_next(&mut self, out: &mut impl Write) -> fmt::Result {
        let Some((op, context)) = self.list.get(self.next) else {
            // Unreachable while instruction.rs visits every operand; never panic on it.
            return out.write_str("<missing operand>");
        };
        self.next += 1;
        match op {
            Operand::Value(v) => write!(out, "{v}"),
            Operand::Const(c) if c.ty == *context => write!(out, "{c}"),
            Operand::Const(c) => write!(out, "{c}:{}", c.ty),
        }
    }
}

fn write_inst(
    out: &mut impl Write,
    inst: &Inst,
    scratch: &mut Vec<(Operand, IrType)>,
) -> fmt::Result {
    scratch.clear();
    inst.for_each_operand_typed(|op, ty| scratch.push((*op, ty)));
    let mut ops = TypedOperands {
        list: scratch,
        next: 0,
    };
    if let Some(dest) = inst.dest() {
        write!(out, "{dest} = ")?;
    }
    match inst {
        Inst::Alloca {
            ty,
            size,
            align,
            volatile,
            ..
        } => {
            write!(out, "alloca {ty}, {size}, {align}")?;
            if *volatile {
                out.write_str(" volatile")?;
            }
        }
        Inst::ParamRef { index, ty, .. } => write!(out, "paramref {index}, {ty}")?,
        Inst::Load { ty, .. } => {
            write!(out, "load {ty} ")?;
            ops.write_next(out)?;
        }
        Inst::Store { ty, .. } => {
            write!(out, "store {ty} ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::Gep { .. } => {
            out.write_str("gep ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::GlobalAddr { name, .. } => write!(out, "globaladdr @{name}")?,
        Inst::Memcpy { size, .. } => {
            out.write_str("memcpy ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
            write!(out, ", {size}")?;
        }
        Inst::DynAlloca { align, .. } => {
            out.write_str("dynalloca ")?;
            ops.write_next(out)?;
            write!(out, ", {align}")?;
        }
        Inst::StackSave { .. } => out.write_str("stacksave")?,
        Inst::StackRestore { .. } => {
            out.write_str("stackrestore ")?;
            ops.write_next(out)?;
        }
        Inst::Bin { op, ty, .. } => {
            write!(out, "{op} {ty} ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::Un { op, ty, .. } => {
            write!(out, "{op} {ty} ")?;
            ops.write_next(out)?;
        }
        Inst::Cmp { pred, ty, .. } => {
            write!(out, "cmp {pred} {ty} ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::Cast { from, to, .. } => {
            write!(out, "cast {from} ")?;
            ops.write_next(out)?;
            write!(out, " to {to}")?;
        }
        Inst::Bitcast { from, to, .. } => {
            write!(out, "bitcast {from} ")?;
            ops.write_next(out)?;
            write!(out, " to {to}")?;
        }
        Inst::FBin { op, ty, .. } => {
            write!(out, "{op} {ty} ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::FNeg { ty, .. } => {
            write!(out, "fneg {ty} ")?;
            ops.write_next(out)?;
        }
        Inst::FCmp { pred, ty, .. } => {
            write!(out, "fcmp {pred} {ty} ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::Copy { ty, .. } => {
            write!(out, "copy {ty} ")?;
            ops.write_next(out)?;
        }
        Inst::Select { ty, .. } => {
            write!(out, "select {ty} ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
            out.write_str(", ")?;
            ops.write_next(out)?;
        }
        Inst::Phi { ty, incoming, .. } => {
            write!(out, "phi {ty}")?;
            for (i, (_, block)) in incoming.iter().enumerate() {
                out.write_str(if i == 0 { " [" } else { ", [" })?;
                ops.write_next(out)?;
                write!(out, ", {block}]")?;
            }
        }
        Inst::Call {
            ret,
            callee,
            args,
            named,
            ..
        } => {
            write!(out, "call {ret} ")?;
            match callee {
                Callee::Direct(name) => write!(out, "@{name}")?,
                Callee::Indirect(_) => ops.write_next(out)?,
            }
            out.write_char('(')?;
            let ellipsis = named.map(|n| n as usize);
            for (i, (ty, _)) in args.iter().enumerate() {
                if ellipsis == Some(i) {
                    out.write_str(if i > 0 { ", ..." } else { "..." })?;
                }
                if i > 0 || ellipsis == Some(0) {
                    out.write_str(", ")?;
                }
                write!(out, "{ty} ")?;
                ops.write_next(out)?;
            }
            if ellipsis.is_some_and(|n| n >= args.len()) {
                out.write_str(if args.is_empty() { "..." } else { ", ..." })?;
            }
            out.write_char(')')?;
        }
    }
    Ok(())
}

fn write_terminator(
    out: &mut impl Write,
    term: &Terminator,
    scratch: &mut Vec<(Operand, IrType)>,
) -> fmt::Result {
    scratch.clear();
    term.for_each_operand_typed(|op, ty| scratch.push((*op, ty)));
    let mut ops = TypedOperands {
        list: scratch,
        next: 0,
    };
    match term {
        Terminator::Br(target) => write!(out, "br {target}"),
        Terminator::CondBr {
            if_true, if_false, ..
        } => {
            out.write_str("condbr ")?;
            ops.write_next(out)?;
            write!(out, ", {if_true}, {if_false}")
        }
        Terminator::Switch {
            ty, default, cases, ..
        } => {
            write!(out, "switch {ty} ")?;
            ops.write_next(out)?;
            write!(out, ", {default} [")?;
            for (i, (value, target)) in cases.iter().enumerate() {
                if i > 0 {
                    out.write_str(", ")?;
                }
                let case = IrConst {
                    ty: *ty,
                    bits: *value,
                };
                write!(out, "{case}: {target}")?;
            }
            out.write_char(']')
        }
        Terminator::Ret(None) => out.write_str("ret"),
        Terminator::Ret(Some((ty, _))) => {
            write!(out, "ret {ty} ")?;
            ops.write_next(out)
        }
        Terminator::Unreachable => out.write_str("unreachable"),
    }
}
