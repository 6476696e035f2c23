//! Counting how `static` functions are referenced, and indirect calls.
//!
//! Why: dead static function elimination must keep a static function that is reached
//! only through its address — `globaladdr @f` in code, or `ptr @f` in a global's
//! initializer — and may delete one nothing names. Programs that exercise it need all
//! three kinds; these counts say whether they have them.
//!
//! Definitions: a function is *called directly* when some `call @f` in the module names
//! it; its *address is taken* when some `globaladdr @f` names it; it is *in an
//! initializer* when some global's item is `ptr @f[+off]`. Each static function counts in
//! at most one of `called_statics`, `address_only_statics` (not called directly, address
//! taken), `initializer_only_statics` (only in initializers) and `unreferenced_statics`
//! (none of the three). References are counted wherever they are, live code or not.

use super::super::features::FeatureCounts;
use compiler::ir::{Callee, GlobalInit, GlobalItem, Inst, IrModule};
use rustc_hash::FxHashSet;

/// Static functions by kind of reference, and indirect calls.
pub(super) fn count_static_references(m: &IrModule, fc: &mut FeatureCounts) {
    let mut called: FxHashSet<&str> = FxHashSet::default();
    let mut address_taken: FxHashSet<&str> = FxHashSet::default();
    let mut in_initializer: FxHashSet<&str> = FxHashSet::default();
    for inst in m
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.insts)
    {
        match inst {
            Inst::Call {
                callee: Callee::Direct(name),
                ..
            } => {
                called.insert(name);
            }
            Inst::Call {
                callee: Callee::Indirect(_),
                ..
            } => fc.indirect_calls += 1,
            Inst::GlobalAddr { name, .. } => {
                address_taken.insert(name);
            }
            _ => {}
        }
    }
    for g in &m.globals {
        if let GlobalInit::Items(items) = &g.init {
            for item in items {
                if let GlobalItem::Ptr(name, _) = item {
                    in_initializer.insert(name);
                }
            }
        }
    }
    for f in m.functions.iter().filter(|f| f.attrs.is_static) {
        let name = f.name.as_str();
        fc.static_functions += 1;
        if called.contains(name) {
            fc.called_statics += 1;
        } else if address_taken.contains(name) {
            fc.address_only_statics += 1;
        } else if in_initializer.contains(name) {
            fc.initializer_only_statics += 1;
        } else {
            fc.unreferenced_statics += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::text::parse_module;

    #[test]
    fn each_static_function_counts_by_its_strongest_reference() {
        // @a called directly (and its address taken: still "called"); @b only through
        // globaladdr; @c only in @tab's initializer; @d never named; @e not static.
        let src = "global @tab : 8 align 8 = [ptr @c]\n\
                   func @main() -> i32 {\n.LBB0:\n    %0 = call i32 @a()\n    \
                   %1 = globaladdr @a\n    %2 = globaladdr @b\n    %3 = call i32 %2()\n    \
                   %4 = globaladdr @tab\n    %5 = load ptr %4\n    %6 = call i32 %5()\n    \
                   %7 = call i32 @e()\n    ret i32 %0\n}\n\
                   func static @a() -> i32 {\n.LBB1:\n    ret i32 1\n}\n\
                   func static @b() -> i32 {\n.LBB2:\n    ret i32 2\n}\n\
                   func static @c() -> i32 {\n.LBB3:\n    ret i32 3\n}\n\
                   func static @d() -> i32 {\n.LBB4:\n    ret i32 4\n}\n\
                   func @e() -> i32 {\n.LBB5:\n    ret i32 5\n}\n";
        let m = parse_module(src).expect("test input parses");
        let mut fc = FeatureCounts::default();
        count_static_references(&m, &mut fc);
        assert_eq!(fc.static_functions, 4);
        assert_eq!(fc.called_statics, 1);
        assert_eq!(fc.address_only_statics, 1);
        assert_eq!(fc.initializer_only_statics, 1);
        assert_eq!(fc.unreferenced_statics, 1);
        assert_eq!(fc.indirect_calls, 2);
    }
}
