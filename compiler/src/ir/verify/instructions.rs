//! Rules local to one instruction or terminator: allocas, paramrefs, calls, addresses,
//! casts, switches, returns, the types an instruction names, and which operations take
//! integers and which floats.
//!
//! Why: these rules need nothing but the instruction, its function's signature and the
//! module's symbol table, so they are checked in one pass over the instructions, apart
//! from the value rules (`values`), which need every definition first.
//!
//! Invariants: each instruction is looked at once; a switch's case set is the only
//! allocation per instruction.

use super::symbols::{SymbolKind, SymbolTable};
use super::At;
use crate::ir::{BlockId, Callee, Inst, IrFunction, IrType, Terminator};
use rustc_hash::FxHashSet;

pub(super) fn check(func: &IrFunction, symbols: &SymbolTable, at: &mut At) {
    for block in &func.blocks {
        if at.is_full() {
            return;
        }
        for (k, inst) in block.insts.iter().enumerate() {
            check_inst(func, symbols, inst, block.label, k, at);
        }
        check_terminator(func, &block.term, block.label, at);
    }
}

fn check_inst(
    func: &IrFunction,
    symbols: &SymbolTable,
    inst: &Inst,
    block: BlockId,
    k: usize,
    at: &mut At,
) {
    let mut error = |msg: String| at.inst_error(block, k, msg);

    // Rule: the types an instruction names are not void (an alloca's TYPE only describes
    // its slot and is exempt; a call may return void).
    for_each_named_type(inst, |ty| {
        if ty == IrType::Void {
            error(format!("{} of type void", kind_name(inst)));
        }
    });

    match inst {
        // Rule: an alloca has a size > 0 and a power-of-two alignment.
        Inst::Alloca { size, align, .. } => {
            if *size == 0 {
                error("alloca of size 0".into());
            }
            if !align.is_power_of_two() {
                error(format!("alloca align {align} is not a power of two"));
            }
        }
        // Rule: a dynalloca's alignment is a power of two no larger than a page (4096).
        Inst::DynAlloca { align, .. } if !align.is_power_of_two() || *align > 4096 => error(
            format!("dynalloca align {align} is not a power of two up to 4096"),
        ),
        // Rule: `paramref N, TYPE` names an existing parameter, with that parameter's type.
        Inst::ParamRef { index, ty, .. } => match func.params.get(*index as usize) {
            None => error(format!(
                "paramref {index}, but the function has {} parameters",
                func.params.len()
            )),
            Some(&param_ty) if param_ty != *ty => error(format!(
                "paramref {index} is {ty}, but parameter {index} is {param_ty}"
            )),
            Some(_) => {}
        },
        // Rule: `globaladdr @s` names a global, function or declaration.
        Inst::GlobalAddr { name, .. } if symbols.get(name).is_none() => {
            error(format!("globaladdr of unknown symbol @{name}"));
        }
        // Rule: both types of a cast are scalar (not void).
        Inst::Cast { from, to, .. } if !from.is_scalar() || !to.is_scalar() => {
            error(format!(
                "cast from {from} to {to}: cast types must be scalar"
            ));
        }
        // Rule: a cast with a float on one side has an integer or a float on the other
        // (no `ptr`: a pointer's bits are not a number).
        Inst::Cast { from, to, .. }
            if (from.is_float() || to.is_float())
                && (*from == IrType::Ptr || *to == IrType::Ptr) =>
        {
            error(format!(
                "cast from {from} to {to}: floats convert only to and from integers and floats"
            ));
        }
        // Rule: a bitcast is between two different integer or float types of one size.
        Inst::Bitcast { from, to, .. }
            if !(from.is_integer() || from.is_float())
                || !(to.is_integer() || to.is_float())
                || from.max_size() != to.max_size() =>
        {
            error(format!(
                "bitcast from {from} to {to}: both must be integers or floats of one size"
            ));
        }
        // Rule: integer operations take integer (or `ptr`) types, never floats.
        Inst::Bin { op, ty, .. } if ty.is_float() => {
            error(format!("`{op} {ty}`: float arithmetic is `f{op}`"));
        }
        Inst::Un { op, ty, .. } if ty.is_float() => {
            error(format!("`{op} {ty}`: a float is negated by `fneg`"));
        }
        Inst::Cmp { ty, .. } if ty.is_float() => {
            error(format!("`cmp` of {ty}: floats are compared by `fcmp`"));
        }
        // Rule: float operations take `f32` or `f64`.
        Inst::FBin { op, ty, .. } if !ty.is_float() => {
            error(format!("`{op} {ty}`: {op} takes f32 or f64"));
        }
        Inst::FNeg { ty, .. } if !ty.is_float() => {
            error(format!("`fneg {ty}`: fneg takes f32 or f64"));
        }
        Inst::FCmp { ty, .. } if !ty.is_float() => {
            error(format!("`fcmp` of {ty}: fcmp takes f32 or f64"));
        }
        Inst::Call {
            dest,
            ret,
            callee,
            args,
            named,
        } => {
            // Rule: a call that returns void defines no value.
            if *ret == IrType::Void && dest.is_some() {
                error("`call void` defines a value".into());
            }
            // Rule: `...` stands among the arguments, and only in an indirect call (a
            // direct call's callee declaration says which arguments are named).
            if let Some(n) = named {
                if *n as usize > args.len() {
                    error(format!(
                        "`...` after {n} named arguments of a call with {}",
                        args.len()
                    ));
                }
                if matches!(callee, Callee::Direct(_)) {
                    error("`...` in a direct call (the declaration says it)".into());
                }
            }
            if let Callee::Direct(name) = callee {
                check_direct_call(symbols, name, *ret, args, &mut error);
            }
        }
        _ => {}
    }
}

/// Rule: a direct call names a function or declaration; it passes as many arguments as
/// the callee has parameters (at least that many if the callee is variadic), each fixed
/// argument with its parameter's type, and its return type is the callee's.
fn check_direct_call(
    symbols: &SymbolTable,
    name: &str,
    ret: IrType,
    args: &[(IrType, crate::ir::Operand)],
    error: &mut impl FnMut(String),
) {
    let Some(symbol) = symbols.get(name) else {
        error(format!("call to unknown function @{name}"));
        return;
    };
    let Some(sig) = symbol
        .signature
        .filter(|_| symbol.kind != SymbolKind::Global)
    else {
        error(format!("call to @{name}, which is a global"));
        return;
    };
    let count_ok = if sig.variadic {
        args.len() >= sig.params.len()
    } else {
        args.len() == sig.params.len()
    };
    if !count_ok {
        error(format!(
            "call to @{name} passes {} arguments, it takes {}{}",
            args.len(),
            sig.params.len(),
            if sig.variadic { " or more" } else { "" }
        ));
    }
    for (i, ((arg_ty, _), param_ty)) in args.iter().zip(sig.params).enumerate() {
        if arg_ty != param_ty {
            error(format!(
                "call to @{name}: argument {i} is {arg_ty}, the parameter is {param_ty}"
            ));
        }
    }
    if ret != sig.ret {
        error(format!(
            "call to @{name} returns {ret}, the callee returns {}",
            sig.ret
        ));
    }
}

fn check_terminator(func: &IrFunction, term: &Terminator, block: BlockId, at: &mut At) {
    let mut error = |msg: String| at.term_error(block, msg);
    match term {
        // Rule: a switch is over an integer type; its case values are distinct and
        // canonical for that type.
        Terminator::Switch { ty, cases, .. } => {
            if !ty.is_integer() {
                error(format!("switch over {ty}, not an integer type"));
                return;
            }
            let mut seen = FxHashSet::default();
            for &(value, _) in cases {
                if ty.canonicalize(value as u64, 8) as i64 != value {
                    error(format!("switch case {value} is not canonical for {ty}"));
                } else if !seen.insert(value) {
                    error(format!("switch case {value} appears twice"));
                }
            }
        }
        // Rule: `ret` matches the return type: a value of exactly that type, or none for
        // a void function.
        Terminator::Ret(ret) => match (ret, func.ret) {
            (None, IrType::Void) => {}
            (None, want) => error(format!(
                "ret without a value in a function returning {want}"
            )),
            (Some(_), IrType::Void) => error("ret with a value in a void function".into()),
            (Some((ty, _)), want) if *ty != want => {
                error(format!("ret {ty} in a function returning {want}"))
            }
            (Some(_), _) => {}
        },
        Terminator::Br(_) | Terminator::CondBr { .. } | Terminator::Unreachable => {}
    }
}

/// The types an instruction names in its text, other than an alloca's slot type, a call's
/// return type and a cast's types (which have their own rule).
fn for_each_named_type(inst: &Inst, mut f: impl FnMut(IrType)) {
    match inst {
        Inst::Alloca { .. }
        | Inst::GlobalAddr { .. }
        | Inst::Gep { .. }
        | Inst::Memcpy { .. }
        | Inst::Cast { .. }
        | Inst::Bitcast { .. }
        | Inst::DynAlloca { .. }
        | Inst::StackSave { .. }
        | Inst::StackRestore { .. } => {}
        Inst::ParamRef { ty, .. }
        | Inst::Load { ty, .. }
        | Inst::Store { ty, .. }
        | Inst::Bin { ty, .. }
        | Inst::Un { ty, .. }
        | Inst::Cmp { ty, .. }
        | Inst::FBin { ty, .. }
        | Inst::FNeg { ty, .. }
        | Inst::FCmp { ty, .. }
        | Inst::Copy { ty, .. }
        | Inst::Select { ty, .. }
        | Inst::Phi { ty, .. } => f(*ty),
        Inst::Call { args, .. } => args.iter().for_each(|(ty, _)| f(*ty)),
    }
}

/// The instruction's mnemonic, for messages.
fn kind_name(inst: &Inst) -> &'static str {
    match inst {
        Inst::Alloca { .. } => "alloca",
        Inst::ParamRef { .. } => "paramref",
        Inst::Load { .. } => "load",
        Inst::Store { .. } => "store",
        Inst::Gep { .. } => "gep",
        Inst::GlobalAddr { .. } => "globaladdr",
        Inst::Memcpy { .. } => "memcpy",
        Inst::Bin { .. } => "arithmetic",
        Inst::Un { .. } => "unary operation",
        Inst::Cmp { .. } => "cmp",
        Inst::Cast { .. } => "cast",
        Inst::FBin { .. } => "float arithmetic",
        Inst::FNeg { .. } => "fneg",
        Inst::FCmp { .. } => "fcmp",
        Inst::Bitcast { .. } => "bitcast",
        Inst::Copy { .. } => "copy",
        Inst::Select { .. } => "select",
        Inst::Phi { .. } => "phi",
        Inst::Call { .. } => "call argument",
        Inst::DynAlloca { .. } => "dynalloca",
        Inst::StackSave { .. } => "stacksave",
        Inst::StackRestore { .. } => "stackrestore",
    }
}
