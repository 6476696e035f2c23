//! The refusal of floating point by the backends that do not implement it yet, per target.
//!
//! Why: the IR has `f32` and `f64` (and the oracle runs them) before every backend selects
//! float instructions. [`supports_floats`] says which targets do (all four since issue
//! 14); on a target without it a float reaching the backend must be a clear
//! [`BackendError`] naming the target and the function, never a panic and never an integer
//! instruction applied to float bits. [`refusal`] is checked once per module, before
//! instruction selection; the targets' `isel` also refuse the float instructions on their
//! own, so the gate is not the only line of defence. The harness asks [`native_refuses`]
//! to leave the native stages of such a target out.
//!
//! Invariant: on a target without float support a module is refused exactly when some
//! function's signature, instruction (any type it names, any constant it holds), call
//! argument, or return uses a float type, or a global holds a float item; on a target
//! with float support it is never refused here.

use super::BackendError;
use crate::ir::{GlobalInit, GlobalItem, Inst, IrFunction, IrModule, Operand, Terminator};
use crate::target::Target;

/// True when `target`'s backend compiles floating point.
pub fn supports_floats(target: Target) -> bool {
    match target {
        Target::X86_64 | Target::I686 | Target::Aarch64 | Target::Riscv64 => true,
    }
}

/// The error that refuses `module` on `target`, if the target has no float support and
/// the module uses a float.
pub fn refusal(module: &IrModule, target: Target) -> Option<BackendError> {
    if supports_floats(target) {
        return None;
    }
    first_float_use(module, target)
}

/// True when `target`'s backend refuses `module` for its floats (the harness leaves the
/// native stages of that target out).
pub fn native_refuses(module: &IrModule, target: Target) -> bool {
    !supports_floats(target) && module_uses_float(module)
}

/// The message every refusal carries (after the target's name in `BackendError`).
pub fn unsupported_message(target: Target) -> String {
    format!(
        "floating point is not supported by the {} backend yet",
        target.name()
    )
}

/// True when `inst` names a float type or holds a float constant.
pub fn inst_uses_float(inst: &Inst) -> bool {
    let mut uses = match inst {
        Inst::FBin { .. } | Inst::FNeg { .. } | Inst::FCmp { .. } | Inst::Bitcast { .. } => true,
        Inst::Cast { from, to, .. } => from.is_float() || to.is_float(),
        Inst::Call { ret, .. } => ret.is_float(),
        other => other.result_type().is_float(),
    };
    inst.for_each_operand_typed(|op, ty| {
        uses |= ty.is_float() || matches!(op, Operand::Const(c) if c.ty.is_float());
    });
    uses
}

fn term_uses_float(term: &Terminator) -> bool {
    let mut uses = false;
    term.for_each_operand_typed(|op, ty| {
        uses |= ty.is_float() || matches!(op, Operand::Const(c) if c.ty.is_float());
    });
    uses
}

/// The first float use in `func`, as the instruction (if one is to blame).
fn function_float_use(func: &IrFunction) -> Option<Option<&Inst>> {
    if func.params.iter().any(|t| t.is_float()) || func.ret.is_float() {
        return Some(None);
    }
    for block in &func.blocks {
        if let Some(inst) = block.insts.iter().find(|i| inst_uses_float(i)) {
            return Some(Some(inst));
        }
        if term_uses_float(&block.term) {
            return Some(None);
        }
    }
    None
}

/// True when some function, declaration or global of `module` uses a float type.
pub fn module_uses_float(module: &IrModule) -> bool {
    first_float_use(module, Target::X86_64).is_some()
}

/// The error for the first use of floating point in `module`, if any.
pub fn first_float_use(module: &IrModule, target: Target) -> Option<BackendError> {
    for func in &module.functions {
        if let Some(inst) = function_float_use(func) {
            return Some(BackendError::new(
                target,
                func,
                inst,
                unsupported_message(target),
            ));
        }
    }
    let float_decl = module
        .decls
        .iter()
        .find(|d| d.params.iter().any(|t| t.is_float()) || d.ret.is_float());
    let float_global = module.globals.iter().find(|g| match &g.init {
        GlobalInit::Items(items) => items
            .iter()
            .any(|i| matches!(i, GlobalItem::Int(t, _) if t.is_float())),
        GlobalInit::Zero => false,
    });
    let name = float_decl
        .map(|d| d.name.clone())
        .or_else(|| float_global.map(|g| g.name.clone()))?;
    Some(BackendError {
        target,
        function: String::new(),
        inst: None,
        message: format!("@{name}: {}", unsupported_message(target)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    #[test]
    fn refuses_floats_with_the_function_name() {
        let m = parse_module(
            "func @g(i32) -> i32 {\n.LBB0:\n  %0 = paramref 0, i32\n  ret i32 %0\n}\n\
             func @f(f64) -> i32 {\n.LBB1:\n  %0 = paramref 0, f64\n  %1 = cast f64 %0 to i32\n  ret i32 %1\n}\n",
        )
        .expect("parses");
        let e = first_float_use(&m, Target::X86_64).expect("refused");
        assert_eq!(e.function, "f");
        assert_eq!(
            e.to_string(),
            "x86_64: in function @f: floating point is not supported by the x86_64 backend yet"
        );
        let ints = parse_module(
            "func @g(i32) -> i32 {\n.LBB0:\n  %0 = paramref 0, i32\n  ret i32 %0\n}\n",
        )
        .expect("parses");
        assert!(first_float_use(&ints, Target::Riscv64).is_none());
        for t in Target::ALL {
            assert!(refusal(&m, t).is_none() && !native_refuses(&m, t), "{t:?}");
        }
        let global = parse_module("global @d : 8 align 8 = [f64 1.5]\n").expect("parses");
        let e = first_float_use(&global, Target::Aarch64).expect("refused");
        assert!(
            e.to_string()
                .contains("@d: floating point is not supported"),
            "{e}"
        );
    }
}
