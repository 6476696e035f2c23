//! One cfg function: the generator's state and the driver that fills a body.
//!
//! Why: every statement generator (`expr`, `stmt`, `control`, `guarded`, `invariant_div`,
//! `irreducible`, `unreachable`) works on the same state — the builder, the frame, the values in scope,
//! the enclosing loops, the budgets — and that state and its rules live here.
//!
//! Invariants kept by every statement generator:
//! - *scope*: `avail` holds exactly values whose definition dominates the current point.
//!   A construct takes a `mark` at its head and truncates back to it when control leaves
//!   a region its head dominates but the rest does not (an arm, a loop body); values of a
//!   head dominate its join because every construct is single-entry at its head;
//! - *open block*: a sequence starts and ends with an open current block; unconditional
//!   jumps happen only as a construct's own terminators;
//! - *termination*: every cycle passes a counter check (`control::counter_step`) on each
//!   trip, and `weight` is the product of the enclosing trip bounds;
//! - *cost*: `b.cost` bounds the instructions one call executes (callees included) and
//!   stays below `max_cost` plus one statement; `prints` bounds printed lines likewise.

use super::frame::{emit_frame, plan_slots, Frame, Role, Slot, SlotSpec};
use super::invariant_div::InvariantDiv;
use super::plan::ModulePlan;
use super::CfgGenConfig;
use crate::gen::builder::{BlockCounter, FuncBuilder};
use crate::gen::checksum::{emit_checksum, narrow_result};
use arbitrary::{Result, Unstructured};
use compiler::ir::{konst, BlockId, Inst, IrFunction, IrType, Operand, Terminator, Value};

/// Where `continue` and `break` go in the innermost loop.
#[derive(Clone, Copy, Debug)]
pub(super) struct LoopTargets {
    pub cont: BlockId,
    pub brk: BlockId,
}

/// A slot written under `cond`: it may be read wherever `cond` is in scope and true.
#[derive(Clone, Copy, Debug)]
pub(super) struct Guard {
    pub slot: usize,
    pub cond: Value,
    pub read: bool,
}

/// The state of one function being generated.
/// A binary expression as `expr` emitted it (operands before the divisor guard).
#[derive(Clone, Copy)]
pub(super) struct RecentBin {
    pub op: compiler::ir::BinOp,
    pub ty: IrType,
    pub lhs: compiler::ir::Operand,
    pub rhs: compiler::ir::Operand,
    pub guard: crate::gen::arith::DivisorGuard,
}

pub(super) struct FnGen<'a, 'u> {
    pub u: &'a mut Unstructured<'u>,
    pub cfg: &'a CfgGenConfig,
    pub plan: &'a mut ModulePlan,
    pub ids: &'a mut BlockCounter,
    /// Index of this function in the plan.
    pub fi: usize,
    pub b: FuncBuilder,
    pub frame: Frame,
    /// Values (and their types) whose definitions dominate the current point.
    pub avail: Vec<(Value, IrType)>,
    /// The last few binary expressions emitted, which `expr` sometimes emits again when
    /// their operands are still in scope (work for GVN, dominated or not).
    pub recent: Vec<RecentBin>,
    pub loops: Vec<LoopTargets>,
    pub loop_depth: u32,
    pub guards: Vec<Guard>,
    /// Guarded divisions prepared before the enclosing loops, innermost last.
    pub invariant_divs: Vec<InvariantDiv>,
    /// Blocks this function may still create.
    pub blocks_left: u32,
    /// Upper bound on lines printed per call, so far.
    pub prints: u64,
    /// Generating a block nothing reaches: straight-line code only, no calls.
    pub in_unreachable: bool,
}

/// Generates function `fi` of the plan and records its cost and print bounds in the plan.
pub(super) fn generate_function(
    u: &mut Unstructured,
    cfg: &CfgGenConfig,
    plan: &mut ModulePlan,
    fi: usize,
    ids: &mut BlockCounter,
) -> Result<IrFunction> {
    let specs = plan_slots(u, cfg, plan, fi)?;
    let sig = plan.sigs[fi].clone();
    let mut b = FuncBuilder::new(ids);
    let frame = emit_frame(&mut b, u, plan, &sig, specs)?;
    let blocks_left =
        crate::gen::choice::Pick::between(u, cfg.min_blocks, cfg.max_blocks)?.saturating_sub(1);
    let mut g = FnGen {
        u,
        cfg,
        plan,
        ids,
        fi,
        b,
        frame,
        avail: Vec::new(),
        recent: Vec::new(),
        loops: Vec::new(),
        loop_depth: 0,
        guards: Vec::new(),
        invariant_divs: Vec::new(),
        blocks_left,
        prints: 0,
        in_unreachable: false,
    };
    g.sequence(0, cfg.max_stmts.saturating_mul(3))?;
    g.maybe_trapping_div()?;
    g.emit_return();
    let cost = g.b.cost;
    let prints = g.prints;
    let open = g.b.unterminated();
    debug_assert_eq!(open, 0, "unterminated blocks in {}", sig.name);
    let f = g.b.finish(
        sig.name.clone(),
        sig.params.iter().map(|p| p.ty()).collect(),
        sig.ret,
        sig.attrs,
    );
    plan.costs[fi] = cost;
    plan.prints[fi] = prints;
    Ok(f)
}

impl FnGen<'_, '_> {
    /// A new block, counted against the budget.
    pub fn block(&mut self) -> BlockId {
        self.blocks_left = self.blocks_left.saturating_sub(1);
        self.b.new_block(self.ids)
    }

    /// The current scope depth, to return to with [`FnGen::reset`].
    pub fn mark(&self) -> usize {
        self.avail.len()
    }

    /// Forgets values defined since `mark`.
    pub fn reset(&mut self, mark: usize) {
        self.avail.truncate(mark);
    }

    /// Records a value defined at the current point.
    pub fn define(&mut self, v: Value, ty: IrType) {
        self.avail.push((v, ty));
    }

    /// True when `v` is in scope.
    pub fn in_scope(&self, v: Value) -> bool {
        self.avail.iter().any(|&(x, _)| x == v)
    }

    /// Adds a slot after the entry block was emitted (its alloca goes to the prologue);
    /// counters and invariant slots are also zeroed there so every path may read them.
    pub fn new_late_slot(&mut self, ty: IrType, role: Role) -> usize {
        let spec = SlotSpec::scalar(ty, role);
        let ptr = self.b.fresh();
        self.b.push_prologue(Inst::Alloca {
            dest: ptr,
            ty,
            size: spec.size,
            align: spec.align,
            volatile: false,
        });
        if matches!(role, Role::Counter | Role::Invariant) {
            self.b.push_prologue(Inst::Store {
                ty,
                val: konst(ty, 0),
                ptr: ptr.into(),
            });
        }
        self.frame.slots.push(Slot { ptr, spec });
        self.frame.slots.len() - 1
    }

    /// Every value the function owns, loaded: each element of each slot (guarded slots
    /// excepted: they may be unwritten), what each `ptr` slot points to, and in the entry
    /// function every global.
    fn checksum_items(&mut self) -> Vec<(Operand, IrType)> {
        let mut items = Vec::new();
        // Position-sensitive callees: the incoming values themselves, in parameter order
        // (the FNV fold is order-dependent), whatever the body did to their slots.
        if self.plan.sigs[self.fi].mixes_params {
            items.extend(
                self.frame
                    .params
                    .iter()
                    .map(|&(v, ty)| (Operand::from(v), ty)),
            );
        }
        for i in 0..self.frame.slots.len() {
            let slot = self.frame.slots[i];
            if slot.spec.role == Role::Guarded {
                continue;
            }
            let (base, elem, count): (Operand, IrType, u32) =
                match (slot.spec.ty, slot.spec.contract) {
                    (IrType::Ptr, Some(c)) => (
                        self.b.load(IrType::Ptr, slot.ptr.into()).into(),
                        c.elem,
                        c.count,
                    ),
                    (IrType::Ptr, None) => continue,
                    (ty, _) => (slot.ptr.into(), ty, slot.spec.count),
                };
            for k in 0..count {
                let addr: Operand = if k == 0 {
                    base
                } else {
                    self.b
                        .gep(base, konst(IrType::I64, (k * elem.max_size()) as i64))
                        .into()
                };
                items.push((self.b.load(elem, addr).into(), elem));
            }
        }
        if self.fi == 0 {
            for g in 0..self.plan.globals.len() {
                let (name, elem, count) = {
                    let gv = &self.plan.globals[g];
                    (gv.name.clone(), gv.elem, gv.count)
                };
                let base: Operand = self.b.global_addr(&name).into();
                for k in 0..count {
                    let addr: Operand = if k == 0 {
                        base
                    } else {
                        self.b
                            .gep(base, konst(IrType::I64, (k * elem.max_size()) as i64))
                            .into()
                    };
                    items.push((self.b.load(elem, addr).into(), elem));
                }
            }
        }
        items
    }

    /// Closes the current block with `ret` of the function's checksum.
    pub fn emit_return(&mut self) {
        if !self.b.is_open() {
            return;
        }
        let items = self.checksum_items();
        let h = emit_checksum(&mut self.b, &items);
        let ret = self.plan.sigs[self.fi].ret;
        let r = narrow_result(&mut self.b, h, ret);
        self.b.terminate(Terminator::Ret(r));
    }
}
