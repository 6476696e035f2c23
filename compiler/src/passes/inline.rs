//! `inline`: the inliner, with the seed's two-phase mem2reg protocol.
//!
//! Why: a call hides its callee's body from every per-function pass; splicing small
//! callees into their callers lets constant folding, GVN and DCE see through the call,
//! and turns the callee's parameters into the caller's values.
//!
//! What it may assume: the module verifies (SSA mode) and the pipeline's first mem2reg
//! (`promote_allocas`) has run, so each function's entry may still hold parameter slots
//! (`%p = paramref N, T; store T %p, %slot`, loads of `%slot` later) — the seed keeps them
//! exactly so the inliner has somewhere to store the arguments (see `inline/splice.rs`).
//!
//! What it does, in order:
//! 1. builds the direct-call graph and visits functions callees-first
//!    (`inline/call_graph.rs`), so a callee is in its final form when it is copied and
//!    nested calls are inlined at every level;
//! 2. in each caller, inlines every call site that qualifies (the rules below): the call's
//!    block is split at the call, a fresh copy of the callee goes in between
//!    (`inline/splice.rs`), every `ret` branches to the continuation block, and the call's
//!    result becomes a phi of the returned values there (a copy when there is one return,
//!    the zero of its type when the callee never returns). The continuation takes the call
//!    block's terminator, so phis in its successors that named the call block are renamed
//!    to the continuation;
//! 3. runs the second mem2reg (`promote_allocas_with_params`) on every function, which
//!    promotes the parameter slots (the callers' own and the inlined ones).
//!
//! A call site is inlined only when all of these hold:
//! 1. it calls a function defined in the module by name (no declarations, no pointers);
//! 2. the callee is not `noinline`, not variadic and not recursive (no cycle of direct
//!    calls through it), has a body, and allocates nothing on the stack dynamically
//!    (`dynalloca`, `stacksave`, `stackrestore`: its objects, freed at its return, would
//!    live until the caller returns — a loop around the call would pile them up; gcc
//!    does not inline `alloca` users either), and calls no returns-twice function
//!    (`setjmp_intrinsics`: its variables must stay in memory);
//! 3. the call matches the callee's signature (argument count and types, return type);
//! 4. the callee has at most [`MAX_CALLEE_INSTS`] instructions, [`MAX_HINTED_CALLEE_INSTS`]
//!    when it is marked `inline`;
//! 5. the caller stays within [`MAX_CALLER_GROWTH`] instructions of its size before the
//!    pass.
//!
//! Where the callee's frame goes: the callee's entry-block allocas (its parameter slots
//! and address-taken locals) are hoisted to the end of the caller's entry block, not left
//! in the copied entry. The interpreter gives every execution of an `alloca` a fresh
//! object that lives until the function returns, so an alloca left inside a loop of the
//! caller would allocate once per iteration — the callee's frame, freed at each return
//! before, would pile up until the run fails for want of memory. A frame slot in the
//! caller's entry is what the seed's backend builds for any alloca anyway. Every path
//! into the copy stores the parameter slots before reading them, exactly as before.
//!
//! What it must not do: inline a recursive function; change what a call computes (the
//! arguments are evaluated once, by the caller, before the copy runs); leave a value or
//! block number used twice (values are renumbered above the caller's value bound, blocks
//! take fresh ids from the module-wide counter [`IrModule::next_block_id`]); put anything
//! before the caller's entry block.
//!
//! Returns the number of call sites inlined plus the number of allocas the second mem2reg
//! promoted.
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `call_to_defined` when the rules above hold; the callee's
//!   `param_written_after_entry` and `address_taken_slot` slots are hoisted with its frame
//!   and keep being written through memory;
//! - must hold back: recursive, variadic, `noinline` or oversized callees, calls that do
//!   not match the callee's signature.

mod call_graph;
mod splice;

use crate::ir::{
    BasicBlock, BlockId, Callee, Inst, IrConst, IrFunction, IrModule, IrType, Operand, Terminator,
};
use crate::mem2reg::promote_allocas_with_params;
use call_graph::CallGraph;
use rustc_hash::FxHashMap;
use splice::{Instance, Site};

/// Largest callee (instructions, terminators included) inlined without a hint.
pub const MAX_CALLEE_INSTS: usize = 60;
/// Largest callee inlined when it is marked `inline`.
pub const MAX_HINTED_CALLEE_INSTS: usize = 240;
/// Most instructions inlining may add to one caller.
pub const MAX_CALLER_GROWTH: usize = 3_000;

/// Inlines calls (caller arguments stored into the callee's parameter slots), then
/// promotes every function's allocas including parameter slots. Returns changes made.
pub fn run(module: &mut IrModule) -> usize {
    let inlined = inline_calls(module);
    inlined + module.for_each_function(promote_allocas_with_params)
}

/// Step 1 and 2 of the module doc: inlines every qualifying call site, callees first.
/// Returns the number of call sites inlined.
pub fn inline_calls(module: &mut IrModule) -> usize {
    let index = call_graph::function_index(module);
    let graph = call_graph::build(module, &index);
    let mut next_block = module.next_block_id();
    let mut inlined = 0;
    for &caller in &graph.order {
        // The caller's blocks are taken out while its callees (never itself: it would be
        // recursive) are read from the module.
        let mut blocks = std::mem::take(&mut module.functions[caller].blocks);
        let mut inliner = CallerInliner {
            functions: &module.functions,
            index: &index,
            graph: &graph,
            next_block: &mut next_block,
            next_value: value_bound(&blocks),
            size_left: MAX_CALLER_GROWTH,
            inlined: 0,
        };
        blocks = inliner.inline_into(blocks);
        inlined += inliner.inlined;
        module.functions[caller].blocks = blocks;
    }
    inlined
}

/// The caller's first fresh value number (as [`IrFunction::value_bound`] computes it).
fn value_bound(blocks: &[BasicBlock]) -> u32 {
    let mut bound = 0u32;
    let mut see = |v: crate::ir::Value| bound = bound.max(v.0 + 1);
    for b in blocks {
        for i in &b.insts {
            if let Some(d) = i.dest() {
                see(d);
            }
            i.for_each_used_value(&mut see);
        }
        b.term.for_each_used_value(&mut see);
    }
    bound
}

/// Inlining into one caller.
struct CallerInliner<'m> {
    functions: &'m [IrFunction],
    index: &'m FxHashMap<String, usize>,
    graph: &'m CallGraph,
    next_block: &'m mut u32,
    next_value: u32,
    /// Instructions the caller may still grow by.
    size_left: usize,
    inlined: usize,
}

impl CallerInliner<'_> {
    /// Rewrites the caller's blocks, splitting each at every call that is inlined. The
    /// entry block stays first.
    fn inline_into(&mut self, blocks: Vec<BasicBlock>) -> Vec<BasicBlock> {
        let mut out: Vec<BasicBlock> = Vec::with_capacity(blocks.len());
        let mut hoisted: Vec<Inst> = Vec::new();
        // Original label -> label of the block that ends up with its terminator.
        let mut moved_terminators: FxHashMap<BlockId, BlockId> = FxHashMap::default();
        for block in blocks {
            let original = block.label;
            let mut rest = block;
            let mut scan_from = 0;
            while let Some((k, callee)) = self.next_inlinable_call(&rest.insts, scan_from) {
                let cont = BlockId(*self.next_block);
                *self.next_block += 1;
                let suffix = rest.insts.split_off(k + 1);
                let Some(call) = rest.insts.pop() else {
                    break; // not reached: `k` indexes a call
                };
                let Some((instance, result)) = self.instantiate(callee, &call, cont) else {
                    // Not inlinable after all (a paramref the call does not pass).
                    rest.insts.push(call);
                    rest.insts.extend(suffix);
                    scan_from = k + 1;
                    continue;
                };
                let Some(entry) = instance.blocks.first().map(|b| b.label) else {
                    rest.insts.push(call);
                    rest.insts.extend(suffix);
                    scan_from = k + 1;
                    continue;
                };
                hoisted.extend(instance.allocas);
                let term = std::mem::replace(&mut rest.term, Terminator::Br(entry));
                out.push(rest);
                out.extend(instance.blocks);
                let mut insts: Vec<Inst> = result.into_iter().collect();
                scan_from = insts.len();
                insts.extend(suffix);
                rest = BasicBlock {
                    label: cont,
                    insts,
                    term,
                };
                moved_terminators.insert(original, cont);
            }
            out.push(rest);
        }
        rename_phi_predecessors(&mut out, &moved_terminators);
        if let Some(entry) = out.first_mut() {
            entry.insts.extend(hoisted);
        }
        out
    }

    /// The first call at or after `from` that qualifies (rules 1-5 of the module doc),
    /// with its callee's index.
    fn next_inlinable_call(&self, insts: &[Inst], from: usize) -> Option<(usize, usize)> {
        insts
            .iter()
            .enumerate()
            .skip(from)
            .find_map(|(k, inst)| self.inlinable(inst).map(|callee| (k, callee)))
    }

    /// The callee's index when `inst` is a call that may be inlined here.
    fn inlinable(&self, inst: &Inst) -> Option<usize> {
        let Inst::Call {
            dest,
            ret,
            callee: Callee::Direct(name),
            args,
            ..
        } = inst
        else {
            return None;
        };
        // Rule 1: a function defined in the module.
        let &callee = self.index.get(name)?;
        let f = &self.functions[callee];
        // Rule 2: not noinline, variadic or recursive; has a body.
        if f.attrs.is_noinline || f.variadic || self.graph.recursive[callee] || f.blocks.is_empty()
        {
            return None;
        }
        if f.blocks
            .iter()
            .any(|b| b.insts.iter().any(Inst::is_dynamic_stack))
            || crate::setjmp_intrinsics::calls_returns_twice(f)
        {
            return None;
        }
        // Rule 3: the call matches the signature.
        let signature_matches = args.len() == f.params.len()
            && args.iter().zip(&f.params).all(|((ty, _), p)| ty == p)
            && *ret == f.ret
            && !(dest.is_some() && f.ret == IrType::Void);
        if !signature_matches {
            return None;
        }
        // Rules 4 and 5: the size budgets.
        let size = f.inst_count();
        let limit = if f.attrs.is_inline {
            MAX_HINTED_CALLEE_INSTS
        } else {
            MAX_CALLEE_INSTS
        };
        (size <= limit && size <= self.size_left).then_some(callee)
    }

    /// The callee's copy for `call`, and the instruction that defines the call's result
    /// at the start of `cont` (if the call has one).
    fn instantiate(
        &mut self,
        callee: usize,
        call: &Inst,
        cont: BlockId,
    ) -> Option<(Instance, Option<Inst>)> {
        let Inst::Call {
            dest, ret, args, ..
        } = call
        else {
            return None;
        };
        let f = &self.functions[callee];
        let site = Site {
            args,
            ret: *ret,
            cont,
            first_value: self.next_value,
        };
        let instance = splice::instantiate(f, &site, self.next_block)?;
        self.next_value += value_bound(&f.blocks);
        self.size_left = self.size_left.saturating_sub(f.inst_count());
        self.inlined += 1;
        let result = dest.map(|dest| {
            let returned: Vec<(Operand, BlockId)> = instance
                .returns
                .iter()
                .map(|&(block, op)| (op.unwrap_or(Operand::Const(IrConst::zero(*ret))), block))
                .collect();
            match returned.as_slice() {
                // The callee never returns: the continuation is unreachable, but the
                // result still needs a definition.
                [] => Inst::Copy {
                    dest,
                    ty: *ret,
                    src: Operand::Const(IrConst::zero(*ret)),
                },
                [(src, _)] => Inst::Copy {
                    dest,
                    ty: *ret,
                    src: *src,
                },
                _ => Inst::Phi {
                    dest,
                    ty: *ret,
                    incoming: returned,
                },
            }
        });
        Some((instance, result))
    }
}

/// A block that was split has its terminator in its last piece: phi entries that named
/// the original label now name that piece.
fn rename_phi_predecessors(blocks: &mut [BasicBlock], moved: &FxHashMap<BlockId, BlockId>) {
    if moved.is_empty() {
        return;
    }
    for block in blocks.iter_mut() {
        for inst in block.insts.iter_mut() {
            let Inst::Phi { incoming, .. } = inst else {
                break; // phis lead the block
            };
            for (_, pred) in incoming.iter_mut() {
                if let Some(&piece) = moved.get(pred) {
                    *pred = piece;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "inline/tests.rs"]
mod tests;
