//! The verifier: the rules every stage's output must keep.
//!
//! Why: the harness bisects a miscompile to the first stage whose output behaves
//! differently; a stage that emits malformed IR must be caught at that stage, with every
//! broken rule listed, not later as a confusing interpreter failure. Rules are stated in a
//! comment above the loop that checks them (regalloc2's `ssa.rs` style).
//!
//! One concept per file:
//! - `symbols`: module items — unique names, block labels, globals, signatures;
//! - `structure`: one function's blocks — branch targets, phi placement and entries;
//! - `instructions`: rules local to one instruction — allocas, paramrefs, calls, casts,
//!   switches, returns, void types;
//! - `values`: definitions, operand types and dominance.
//!
//! Conventions the rules follow (IR.md):
//! - a value operand must have exactly its position's context type
//!   ([`crate::ir::Inst::for_each_operand_typed`]); the one exception is a `condbr` or
//!   `select` condition, which may be a value of any integer type (only an unsuffixed
//!   constant condition defaults to `i8`);
//! - a constant may have another type than its position (an implicit conversion, such as
//!   the lowering's `:i64` literals) except in `phi` and `copy`, whose constants must have
//!   exactly the instruction's type (the seed's narrowing rule);
//! - [`VerifyMode::Ssa`] covers both alloca form and SSA with phis; phi elimination's
//!   output is checked in [`VerifyMode::PostPhiElim`].
//!
//! Invariants: never panics, whatever the module; collects every broken rule up to
//! [`MAX_ERRORS`]; linear in the module's size apart from hash lookups (the dominator
//! tree gives O(1) dominance queries), with no recursion. [`verify_module_cached`] gives
//! exactly the answer of [`verify_module`]: it only reuses a function's CFG analysis when
//! the function's CFG shape (block labels in order, each block's successor labels in
//! order — everything [`CfgAnalysis::build`] reads) is the one it was built from.

mod instructions;
mod structure;
mod symbols;
mod values;

#[cfg(test)]
mod tests;

use crate::ir::analysis::CfgAnalysis;
use crate::ir::{BlockId, IrFunction, IrModule};
use std::fmt;
use symbols::SymbolTable;

/// Errors collected before the verifier stops looking.
pub const MAX_ERRORS: usize = 100;

/// Which rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyMode {
    /// Alloca form and SSA with phis: every use dominated by its definition.
    Ssa,
    /// After phi elimination: no phis; a value may be assigned on several paths.
    PostPhiElim,
}

/// One broken rule, with where it was broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub function: String,
    pub block: Option<BlockId>,
    /// Instruction index in the block; `None` for the terminator or block-level rules.
    pub inst: Option<usize>,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.function)?;
        if let Some(b) = self.block {
            write!(f, " {b}")?;
        }
        match self.inst {
            Some(i) => write!(f, " inst {i}")?,
            None if self.block.is_some() => write!(f, " terminator")?,
            None => {}
        }
        write!(f, ": {}", self.message)
    }
}

/// Checks every rule of `mode`; `Err` lists every broken rule found (at most
/// [`MAX_ERRORS`]).
pub fn verify_module(m: &IrModule, mode: VerifyMode) -> Result<(), Vec<VerifyError>> {
    verify_module_cached(m, mode, &mut VerifyCache::default())
}

/// The CFG analyses of the functions a [`verify_module_cached`] call last saw, each with
/// the CFG shape it was built from, by function index. Successive pipeline stages mostly
/// keep every function's CFG (only CFG simplification and inlining change it), so the
/// pipeline keeps one of these for the whole run.
#[derive(Default)]
pub struct VerifyCache {
    cfgs: Vec<Option<(Vec<u32>, CfgAnalysis)>>,
    /// Scratch for the current function's shape.
    shape: Vec<u32>,
}

/// Writes `func`'s CFG shape into `out`: per block, its label, its successor count and
/// its successor labels (length-prefixed, so equal encodings mean equal shapes).
fn cfg_shape(func: &IrFunction, out: &mut Vec<u32>) {
    out.clear();
    for b in &func.blocks {
        out.push(b.label.0);
        let count_at = out.len();
        out.push(0);
        b.term.for_each_successor(|t| out.push(t.0));
        out[count_at] = (out.len() - count_at - 1) as u32;
    }
}

impl VerifyCache {
    /// The CFG analysis of function `index`, rebuilt unless its shape is unchanged.
    fn cfg(&mut self, index: usize, func: &IrFunction) -> &CfgAnalysis {
        if self.cfgs.len() <= index {
            self.cfgs.resize_with(index + 1, || None);
        }
        cfg_shape(func, &mut self.shape);
        let slot = &mut self.cfgs[index];
        let fresh = !matches!(slot, Some((shape, _)) if *shape == self.shape);
        if fresh {
            *slot = Some((self.shape.clone(), CfgAnalysis::build(func)));
        }
        match slot {
            Some((_, cfg)) => cfg,
            None => unreachable!("the slot was just filled"),
        }
    }
}

/// [`verify_module`], reusing the CFG analyses in `cache` for functions whose CFG shape is
/// unchanged since the last call with it (and updating it).
pub fn verify_module_cached(
    m: &IrModule,
    mode: VerifyMode,
    cache: &mut VerifyCache,
) -> Result<(), Vec<VerifyError>> {
    let mut sink = Sink::default();
    let symbols = SymbolTable::build(m, &mut sink);
    symbols::check_block_labels(m, &mut sink);
    symbols::check_globals(m, &symbols, &mut sink);
    symbols::check_signatures(m, &mut sink);
    for (index, func) in m.functions.iter().enumerate() {
        if sink.is_full() {
            break;
        }
        let mut at = sink.function(&func.name);
        // Rule: a function has at least one block (the entry).
        if func.blocks.is_empty() {
            at.function_error("has no blocks".into());
            continue;
        }
        let cfg = cache.cfg(index, func);
        structure::check(func, cfg, mode, &mut at);
        instructions::check(func, &symbols, &mut at);
        values::check(func, cfg, mode, &mut at);
        // Rule: the second-result intrinsics sit where a backend can honour them.
        if let Some(message) = crate::abi_intrinsics::pair_placement_error(func) {
            at.function_error(message);
        }
    }
    if sink.errors.is_empty() {
        Ok(())
    } else {
        Err(sink.errors)
    }
}

/// Collects errors up to [`MAX_ERRORS`].
#[derive(Default)]
struct Sink {
    errors: Vec<VerifyError>,
}

impl Sink {
    fn is_full(&self) -> bool {
        self.errors.len() >= MAX_ERRORS
    }

    fn push(&mut self, function: &str, block: Option<BlockId>, inst: Option<usize>, msg: String) {
        if !self.is_full() {
            self.errors.push(VerifyError {
                function: function.to_string(),
                block,
                inst,
                message: msg,
            });
        }
    }

    /// Error reporting for one function (or one module item, named like a function).
    fn function<'a>(&'a mut self, name: &'a str) -> At<'a> {
        At { sink: self, name }
    }
}

/// The sink, bound to the name of the function (or item) being checked.
struct At<'a> {
    sink: &'a mut Sink,
    name: &'a str,
}

impl At<'_> {
    /// An error at instruction `inst` of `block`.
    fn inst_error(&mut self, block: BlockId, inst: usize, msg: String) {
        self.sink.push(self.name, Some(block), Some(inst), msg);
    }

    /// An error at the terminator of `block`.
    fn term_error(&mut self, block: BlockId, msg: String) {
        self.sink.push(self.name, Some(block), None, msg);
    }

    /// An error about the function (or item) as a whole; name any block in `msg`.
    fn function_error(&mut self, msg: String) {
        self.sink.push(self.name, None, None, msg);
    }

    fn is_full(&self) -> bool {
        self.sink.is_full()
    }
}
