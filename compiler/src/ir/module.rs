//! Modules, globals and external declarations.
//!
//! Why: a module is what one `.ir` file or one C translation unit becomes. Items are kept
//! in three lists (globals, declarations, functions), each in source order; the printer
//! prints them in that order, so `parse(print(m)) == m`.
//!
//! Invariants: block ids are unique across the module; [`IrModule::next_block_id`] is the
//! module-wide counter that new blocks (trampolines) draw from.

use super::{IrFunction, IrType};

/// One item of a global's initializer, laid out in order from offset 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GlobalItem {
    /// `TYPE INT`: an integer of that type's width (canonical for the type).
    Int(IrType, i64),
    /// `ptr @sym[+OFF]`: the address of a symbol plus a byte offset.
    Ptr(String, i64),
    /// `zero N`: N zero bytes.
    Zero(u32),
    /// `str "..."`: the bytes as written (a NUL is only there if written as `\00`).
    Str(Vec<u8>),
}

impl GlobalItem {
    /// Bytes this item occupies, for a target with `ptr_bytes`-wide pointers.
    pub fn size(&self, ptr_bytes: u32) -> u32 {
        match self {
            GlobalItem::Int(t, _) => t.size(ptr_bytes),
            GlobalItem::Ptr(..) => ptr_bytes,
            GlobalItem::Zero(n) => *n,
            GlobalItem::Str(s) => s.len() as u32,
        }
    }
}

/// A global's initializer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GlobalInit {
    /// `zeroinit`
    Zero,
    /// `[item, item, ...]`; bytes after the last item are zero.
    Items(Vec<GlobalItem>),
}

/// `global @name : SIZE align ALIGN [const] = INIT`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IrGlobal {
    pub name: String,
    pub size: u32,
    pub align: u32,
    pub is_const: bool,
    pub init: GlobalInit,
}

/// `declare @name(TYPE, ..., [...]) -> TYPE`: an external function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IrDecl {
    pub name: String,
    pub params: Vec<IrType>,
    pub variadic: bool,
    pub ret: IrType,
}

/// A translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct IrModule {
    pub globals: Vec<IrGlobal>,
    pub decls: Vec<IrDecl>,
    pub functions: Vec<IrFunction>,
}

impl IrModule {
    /// The module-wide block counter: one past the largest block id of any function.
    pub fn next_block_id(&self) -> u32 {
        self.functions
            .iter()
            .map(|f| f.block_bound())
            .max()
            .unwrap_or(0)
    }

    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&IrFunction> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// Mutable access to the function named `name`.
    pub fn function_mut(&mut self, name: &str) -> Option<&mut IrFunction> {
        self.functions.iter_mut().find(|f| f.name == name)
    }

    /// The global named `name`.
    pub fn global(&self, name: &str) -> Option<&IrGlobal> {
        self.globals.iter().find(|g| g.name == name)
    }

    /// The declaration named `name`.
    pub fn decl(&self, name: &str) -> Option<&IrDecl> {
        self.decls.iter().find(|d| d.name == name)
    }

    /// Runs a per-function pass on every function and sums the changes it reports.
    pub fn for_each_function(&mut self, mut pass: impl FnMut(&mut IrFunction) -> usize) -> usize {
        self.functions.iter_mut().map(&mut pass).sum()
    }

    /// Total instruction count over all functions.
    pub fn inst_count(&self) -> usize {
        self.functions.iter().map(|f| f.inst_count()).sum()
    }
}
