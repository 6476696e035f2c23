//! Module-level rules: symbol names, block labels, globals and signatures; and the symbol
//! table the per-function rules look calls and addresses up in.
//!
//! Why: functions, declarations and globals share one `@name` namespace (a call, a
//! `globaladdr` and a `ptr @sym` initializer all name symbols the same way), and block
//! labels are unique across the module because trampolines draw from a module-wide
//! counter.
//!
//! Invariants: the table maps each name to its first definition, so later rules still
//! work on a module with duplicates (which are reported here).

use super::Sink;
use crate::ir::{BlockId, GlobalInit, GlobalItem, IrModule, IrType};
use rustc_hash::FxHashMap;

/// What a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SymbolKind {
    Function,
    Declaration,
    Global,
}

impl SymbolKind {
    fn describe(self) -> &'static str {
        match self {
            SymbolKind::Function => "a function",
            SymbolKind::Declaration => "a declaration",
            SymbolKind::Global => "a global",
        }
    }
}

/// A callable symbol's signature.
#[derive(Clone, Copy, Debug)]
pub(super) struct Signature<'m> {
    pub params: &'m [IrType],
    pub variadic: bool,
    pub ret: IrType,
}

/// One symbol: its kind and, for functions and declarations, its signature.
#[derive(Clone, Copy, Debug)]
pub(super) struct Symbol<'m> {
    pub kind: SymbolKind,
    pub signature: Option<Signature<'m>>,
}

/// Every symbol of the module by name (first definition wins).
pub(super) struct SymbolTable<'m> {
    by_name: FxHashMap<&'m str, Symbol<'m>>,
}

impl<'m> SymbolTable<'m> {
    /// Builds the table, reporting duplicate names.
    pub fn build(m: &'m IrModule, sink: &mut Sink) -> SymbolTable<'m> {
        let functions = m.functions.iter().map(|f| {
            let sig = Signature {
                params: &f.params,
                variadic: f.variadic,
                ret: f.ret,
            };
            (f.name.as_str(), SymbolKind::Function, Some(sig))
        });
        let decls = m.decls.iter().map(|d| {
            let sig = Signature {
                params: &d.params,
                variadic: d.variadic,
                ret: d.ret,
            };
            (d.name.as_str(), SymbolKind::Declaration, Some(sig))
        });
        let globals = m
            .globals
            .iter()
            .map(|g| (g.name.as_str(), SymbolKind::Global, None));
        let mut by_name: FxHashMap<&str, Symbol> = FxHashMap::default();
        // Rule: function, declaration and global names are unique, across all three kinds
        // (they share the `@name` namespace; a name is never both a function and a
        // declaration).
        for (name, kind, signature) in globals.chain(decls).chain(functions) {
            match by_name.get(name) {
                Some(first) => sink.push(
                    name,
                    None,
                    None,
                    format!(
                        "@{name} is defined twice: as {} and as {}",
                        first.kind.describe(),
                        kind.describe()
                    ),
                ),
                None => {
                    by_name.insert(name, Symbol { kind, signature });
                }
            }
        }
        SymbolTable { by_name }
    }

    /// The symbol called `name`.
    pub fn get(&self, name: &str) -> Option<Symbol<'m>> {
        self.by_name.get(name).copied()
    }
}

/// Reports block labels used twice in the module.
pub(super) fn check_block_labels(m: &IrModule, sink: &mut Sink) {
    let mut owner: FxHashMap<BlockId, &str> = FxHashMap::default();
    // Rule: block labels are unique across the whole module.
    for func in &m.functions {
        for block in &func.blocks {
            if let Some(first) = owner.insert(block.label, &func.name) {
                owner.insert(block.label, first);
                sink.push(
                    &func.name,
                    None,
                    None,
                    format!(
                        "block label {} is used twice (first in @{first})",
                        block.label
                    ),
                );
            }
        }
    }
}

/// Checks every global's alignment and initializer.
pub(super) fn check_globals(m: &IrModule, symbols: &SymbolTable, sink: &mut Sink) {
    // The module does not record its target: a pointer item is 4 bytes on i686 and 8
    // elsewhere. Sizes are checked with the narrowest width (so ILP32 modules verify);
    // the oracle checks the exact fit for the pointer width it runs with. Integer items
    // of type `ptr` are checked for canonicity at the widest width.
    const NARROWEST_PTR_BYTES: u32 = 4;
    const PTR_BYTES: u32 = 8;
    for g in &m.globals {
        let mut at = sink.function(&g.name);
        // Rule: a global's alignment is a power of two.
        if !g.align.is_power_of_two() {
            at.function_error(format!("global align {} is not a power of two", g.align));
        }
        let GlobalInit::Items(items) = &g.init else {
            continue;
        };
        // Rule: the items fit in SIZE (pointers counted at 4 bytes); integer items have an
        // integer or pointer type and a value canonical for it; `ptr @sym` items name
        // existing symbols.
        let mut used: u64 = 0;
        for item in items {
            used += u64::from(item.size(NARROWEST_PTR_BYTES));
            match item {
                GlobalItem::Int(ty, value) => {
                    if *ty == IrType::Void {
                        at.function_error("global item of type void".into());
                    } else if ty.canonicalize(*value as u64, PTR_BYTES) as i64 != *value {
                        at.function_error(format!(
                            "global item {ty} {value} is not canonical for {ty}"
                        ));
                    }
                }
                GlobalItem::Ptr(name, _) => {
                    if symbols.get(name).is_none() {
                        at.function_error(format!("global item names unknown symbol @{name}"));
                    }
                }
                GlobalItem::Zero(_) | GlobalItem::Str(_) => {}
            }
        }
        if used > u64::from(g.size) {
            at.function_error(format!(
                "global items take {used} bytes, more than its size {}",
                g.size
            ));
        }
    }
}

/// Checks the parameter types of every function and declaration.
pub(super) fn check_signatures(m: &IrModule, sink: &mut Sink) {
    let functions = m.functions.iter().map(|f| (&f.name, &f.params));
    let decls = m.decls.iter().map(|d| (&d.name, &d.params));
    // Rule: no parameter has type void.
    for (name, params) in functions.chain(decls) {
        for (i, ty) in params.iter().enumerate() {
            if *ty == IrType::Void {
                sink.push(name, None, None, format!("parameter {i} has type void"));
            }
        }
    }
}
