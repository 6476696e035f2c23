//! Lowering of the typed AST (`frontend::ast`) to the alloca-form IR: the `lowered`
//! stage every later stage of the pipeline starts from.
//!
//! Why it exists: the parser has made every C rule explicit (conversions, decays, layout),
//! so this layer only translates, following the seed design's conventions that mem2reg
//! and the inliner rely on:
//! - every local object is one `alloca` in the entry block (volatile-qualified locals are
//!   `alloca ... volatile`); a scalar's slot has the scalar's IR type, an aggregate's slot
//!   is `i8` with the aggregate's size and alignment;
//! - each scalar parameter is `paramref N` stored into its slot in the entry block
//!   (the protocol `IrFunction::param_allocas` recognises);
//! - integer literals of the source are `:i64` constants (mem2reg narrows them when it
//!   stores them into a narrower slot); constants the lowering makes up itself (masks,
//!   steps) have the exact type of their position;
//! - values that cross blocks (`&&`, `||`, `?:`) go through a temporary slot, never phis.
//!
//! Conventions of this compiler that C leaves to the ABI (internal: both sides are
//! always compiled by phicc, and the oracle only runs whole modules):
//! - a record passed by value: the caller copies the argument into a fresh temporary
//!   slot and passes a `ptr` to it; the callee owns that copy and uses it as the
//!   parameter object (no `paramref` + store protocol for it);
//! - a record returned by value: the function gets a hidden first `ptr` parameter to a
//!   slot the caller provides, copies the returned record there, and returns `void`;
//! - where C leaves the order of evaluation unspecified, phicc follows gcc -O0 on
//!   x86-64 (csmith programs can observe it): call arguments right to left, and a plain
//!   variable operand of a commutative operator or comparison read after the other
//!   operand (gcc's `fold` puts variables last);
//! - a `condbr` condition is an integer value tested in full (a pointer is compared with null);
//! - falling off the end of `main` returns 0 (C99 5.1.2.2.3); falling off the end of any
//!   other non-void function returns 0 (a null pointer), which is what a caller that does
//!   not use the value observes under gcc -O0 too (it ignores the register).
//!
//! One concept per file: `types` (C types to IR types), `builder` (blocks, values, the
//! entry-block allocas), `function` (a function definition), `expr` (rvalues),
//! `convert` (casts), `lvalue` (addresses, loads and stores of objects), `bitfield`
//! (bit-field reads and writes), `assign` (assignments, `++`/`--`), `branch`
//! (conditions as control flow), `calls` (calls and the record convention), `stmt`
//! (statements), `switch` (`switch`/`case`), `init` (local initializers), `globals`
//! (global variables, string literals, external declarations).
//!
//! Invariants: never panics on any AST the parser can produce (input-dependent failures
//! are `Diagnostic`s at the construct's location); recursion over expressions and
//! statements is bounded by [`MAX_DEPTH`]; the returned module passes the verifier (it
//! is checked before it is returned; a failure there is reported as an internal error).

mod abi;
mod assign;
mod bitfield;
mod branch;
mod builder;
mod builtins;
mod calls;
mod case_ranges;
mod checks;
mod convert;
mod derived_bounds;
mod dyn_stack;
mod effective_types;
mod expr;
mod float;
mod float_abi;
mod fn_types;
mod function;
mod globals;
mod goto_scopes;
mod indirect_goto;
mod init;
mod libc_objects;
mod lvalue;
mod nested_fn;
#[cfg(test)]
mod nested_fn_tests;
mod overflow;
mod pieces;
mod positions;
mod reverse_order;
mod stmt;
mod stmt_expr;
mod switch;
mod trailing_arrays;
mod types;
mod unprototyped;
mod unsequenced;
mod varargs;
mod vla;

#[cfg(test)]
mod storage_order_tests;
#[cfg(test)]
mod tests;

use crate::frontend::ast::{FunctionDecl, FunctionDef, TranslationUnit};
use crate::frontend::{Diagnostic, Loc, SourceMap, Target};
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{IrDecl, IrFunction, IrModule};
pub use positions::SourcePositions;
use std::collections::{BTreeMap, HashMap};

/// Deepest nesting of expressions and statements the lowering follows; deeper input is a
/// diagnostic. Chosen so that the recursion fits a 2 MiB thread stack (the test
/// harness's) in a debug build with a wide margin: about 3.5 KiB of stack per level there.
pub const MAX_DEPTH: u32 = 450;

/// Symbol of the constant all-zero global used to clear large objects.
const ZERO_GLOBAL: &str = ".zero";

/// How to lower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// The checked lowering of the UB judge (`checks.rs`, `docs/ub-judge.md`): C's
    /// undefined behaviour the IR cannot see becomes calls to `ub_intrinsics`. Only
    /// the oracle runs such a module; it never enters the optimizer.
    pub ub_checks: bool,
}

/// Lowers a translation unit to an IR module in alloca form (the `lowered` stage).
pub fn lower(unit: &TranslationUnit, sources: &SourceMap) -> Result<IrModule, Diagnostic> {
    lower_with(unit, sources, LowerOptions::default())
}

/// [`lower`] with options (the checked lowering).
pub fn lower_with(
    unit: &TranslationUnit,
    sources: &SourceMap,
    options: LowerOptions,
) -> Result<IrModule, Diagnostic> {
    lower_with_positions(unit, sources, options).map(|(module, _)| module)
}

/// [`lower_with`], and the C position of every instruction of the result.
pub fn lower_with_positions(
    unit: &TranslationUnit,
    sources: &SourceMap,
    options: LowerOptions,
) -> Result<(IrModule, SourcePositions), Diagnostic> {
    let mut ctx = ModuleCtx::new(unit, sources);
    ctx.ub_checks = options.ub_checks;
    // Non-static functions are always emitted; static ones only once something that is
    // emitted refers to them (csmith's unused static helpers may use floating point).
    for (i, f) in unit.functions.iter().enumerate() {
        if !f.is_static || f.name == "main" {
            ctx.want_function(i);
        }
    }
    let globals = globals::lower_globals(&mut ctx)?;
    let mut functions: Vec<(usize, IrFunction)> = Vec::new();
    let mut positions = SourcePositions::new(sources);
    while let Some(i) = ctx.worklist.pop() {
        let (f, at) = function::lower_function(&mut ctx, &unit.functions[i])?;
        positions.add_function(&f.name, at);
        functions.push((i, f));
    }
    // Source order, so the output does not depend on the worklist's order.
    functions.sort_by_key(|(i, _)| *i);
    let mut module = IrModule {
        globals,
        decls: ctx.decls.values().cloned().collect(),
        functions: functions.into_iter().map(|(_, f)| f).collect(),
    };
    globals::add_strings_and_zero(&ctx, &mut module);
    crate::frame_intrinsics::keep_frames_and_call_sites(&mut module);
    if options.ub_checks {
        if let Some((index, count, at)) = fn_types::register_function_types(unit, &mut module) {
            positions.insert_in_entry("main", index, count, at);
        }
        if let Some((index, count, at)) = effective_types::mark_untyped_globals(unit, &mut module) {
            positions.insert_in_entry("main", index, count, at);
        }
    }
    if let Err(errors) = verify_module(&module, VerifyMode::Ssa) {
        let first = errors.first().map(|e| e.to_string()).unwrap_or_default();
        return Err(Diagnostic::global_error(format!(
            "internal error: the lowering produced invalid IR ({} problem(s)); first: {first}",
            errors.len()
        )));
    }
    Ok((module, positions))
}

/// State shared by the lowering of every function of one translation unit.
pub(crate) struct ModuleCtx<'a> {
    pub unit: &'a TranslationUnit,
    pub sources: &'a SourceMap,
    pub target: Target,
    /// Pointer width in bytes.
    pub ptr_bytes: u32,
    /// Module-wide block counter (block labels are unique across the module).
    pub next_block: u32,
    defined: HashMap<&'a str, usize>,
    externs: HashMap<&'a str, &'a FunctionDecl>,
    wanted: Vec<bool>,
    worklist: Vec<usize>,
    /// External declarations referenced so far, by name.
    pub decls: BTreeMap<String, IrDecl>,
    /// String literals referenced so far.
    pub strings_used: Vec<bool>,
    /// Size of the all-zero constant global, 0 when none is needed.
    pub zero_size: u32,
    /// The checked lowering (`LowerOptions::ub_checks`).
    pub ub_checks: bool,
}

impl<'a> ModuleCtx<'a> {
    fn new(unit: &'a TranslationUnit, sources: &'a SourceMap) -> ModuleCtx<'a> {
        let mut defined = HashMap::new();
        for (i, f) in unit.functions.iter().enumerate() {
            defined.entry(f.name.as_str()).or_insert(i);
        }
        let mut externs = HashMap::new();
        for d in &unit.externs {
            externs.entry(d.name.as_str()).or_insert(d);
        }
        ModuleCtx {
            unit,
            sources,
            target: unit.target,
            ptr_bytes: unit.target.sizeof_pointer(),
            next_block: 0,
            defined,
            externs,
            wanted: vec![false; unit.functions.len()],
            worklist: Vec::new(),
            decls: BTreeMap::new(),
            strings_used: vec![false; unit.strings.len()],
            zero_size: 0,
            ub_checks: false,
        }
    }

    /// An error at `loc`.
    pub fn error(&self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.sources, loc, message)
    }

    fn want_function(&mut self, i: usize) {
        if !self.wanted[i] {
            self.wanted[i] = true;
            self.worklist.push(i);
        }
    }

    /// The definition of function `name`, if this unit has one.
    pub fn definition(&self, name: &str) -> Option<&'a FunctionDef> {
        self.defined.get(name).map(|&i| &self.unit.functions[i])
    }

    /// Notes that function `name` is referenced (called or its address taken): a
    /// definition gets lowered, an external gets its `declare` (with `decl` as its
    /// signature when it has none of its own, e.g. an unprototyped declaration).
    pub fn reference_function(
        &mut self,
        name: &str,
        loc: Loc,
        fallback: Option<IrDecl>,
    ) -> Result<(), Diagnostic> {
        if let Some(&i) = self.defined.get(name) {
            self.want_function(i);
            return Ok(());
        }
        if self.decls.contains_key(name) {
            return Ok(());
        }
        let Some(d) = self.externs.get(name).copied() else {
            return Err(self.error(loc, format!("function `{name}` is not declared")));
        };
        let decl = match (d.ty.has_prototype, fallback) {
            (false, Some(fb)) => fb,
            _ => types::ir_decl(self, d).map_err(|m| self.error(loc, m))?,
        };
        self.decls.insert(name.to_string(), decl);
        Ok(())
    }

    /// A fresh block label.
    pub fn fresh_block(&mut self) -> crate::ir::BlockId {
        let id = crate::ir::BlockId(self.next_block);
        self.next_block += 1;
        id
    }
}
