//! The receiver rules of `setjmp_intrinsics`, each checked at the pass that keeps it: a
//! receiver's variables stay in memory, it is not inlined, and every allocator gives it
//! the stack allocation with every callee-saved register saved. The same function without
//! the `setjmp` call is the control: there, each pass does what it normally does.

use super::*;
use crate::backend::{regalloc, x86_64, RegallocMode};
use crate::ir::text::parse_module;
use crate::ir::IrModule;

/// `@receiver` keeps `x` (an `i32` slot) across a call of `CALLEE`; `@main` calls it.
fn module(callee: &str) -> IrModule {
    let text = format!(
        "declare @{callee}(ptr) -> i32
global @buf : 40 align 8 = zeroinit
func @receiver(i32) -> i32 {{
.LBB0:
  %0 = alloca i32, 4, 4
  %1 = paramref 0, i32
  store i32 %1, %0
  %2 = globaladdr @buf
  %3 = call i32 @{callee}(ptr %2)
  %4 = load i32 %0
  %5 = add i32 %4, %3
  ret i32 %5
}}
func @main() -> i32 {{
.LBB1:
  %0 = call i32 @receiver(i32 5)
  ret i32 %0
}}
"
    );
    parse_module(&text).expect("the test module parses")
}

/// Loads left in function `func` (a promoted slot has none: a promoted parameter slot's
/// alloca itself stays, the seed's cleanup rule).
fn loads(m: &IrModule, func: usize) -> usize {
    m.functions[func].blocks[0]
        .insts
        .iter()
        .filter(|i| matches!(i, Inst::Load { .. }))
        .count()
}

#[test]
fn every_returns_twice_name_makes_a_receiver_and_others_do_not() {
    for name in RETURNS_TWICE {
        assert!(calls_returns_twice(&module(name).functions[0]), "{name}");
    }
    assert!(!calls_returns_twice(&module("strlen").functions[0]));
    assert!(!calls_returns_twice(&module("setjmp").functions[1]));
}

#[test]
fn mem2reg_promotes_nothing_in_a_receiver() {
    let mut m = module("setjmp");
    assert_eq!(
        crate::mem2reg::promote::promote_allocas_with_params(&mut m.functions[0]),
        0
    );
    assert_eq!(loads(&m, 0), 1);
    let mut control = module("strlen");
    assert_eq!(
        crate::mem2reg::promote::promote_allocas_with_params(&mut control.functions[0]),
        1
    );
    assert_eq!(loads(&control, 0), 0);
}

#[test]
fn a_receiver_is_never_inlined() {
    let mut m = module("_setjmp");
    assert_eq!(crate::passes::inline::inline_calls(&mut m), 0);
    let mut control = module("strlen");
    assert_eq!(crate::passes::inline::inline_calls(&mut control), 1);
}

#[test]
fn a_receiver_gets_one_slot_per_value_and_saves_every_callee_saved_register() {
    let regs = x86_64::register_file();
    for mode in RegallocMode::ALL {
        let m = module(BUILTIN_SETJMP);
        let alloc = regalloc::allocate(&m.functions[0], &regs, mode);
        assert!(alloc
            .locs
            .iter()
            .flatten()
            .all(|l| matches!(l, regalloc::Loc::Spill(_))));
        let slots: Vec<_> = alloc.locs.iter().flatten().collect();
        let mut distinct = slots.clone();
        distinct.sort_by_key(|l| format!("{l}"));
        distinct.dedup();
        assert_eq!(distinct.len(), slots.len(), "{mode:?}: a slot is shared");
        assert_eq!(alloc.used_callee_saved, regs.callee_saved, "{mode:?}");
        regalloc::check(&m.functions[0], &regs, &alloc).expect("the allocation checks");
    }
    let control = module("strlen");
    let alloc = regalloc::allocate(&control.functions[0], &regs, RegallocMode::LinearScan);
    assert!(alloc
        .locs
        .iter()
        .flatten()
        .any(|l| matches!(l, regalloc::Loc::Reg(_))));
}
