//! One call site's copy of a callee: fresh values, fresh blocks, parameters bound to the
//! call's arguments, returns turned into branches to the continuation.
//!
//! Why: this is the seed's argument-passing protocol. After the first mem2reg a callee's
//! entry still holds its parameter slots (`%p = paramref N, T; store T %p, %slot`, then
//! loads of `%slot`). The copy drops every `paramref` and puts the call's argument where
//! its value was read, so the slot store becomes `store T ARG, %slot` — the caller's
//! argument stored into the callee's parameter slot — and a paramref read anywhere else
//! reads the argument directly. The second mem2reg then promotes the slot away.
//!
//! Invariants of an [`Instance`]:
//! - callee value `%v` becomes `%(first_value + v)`, so the copy's values never meet the
//!   caller's (the caller passes its value bound) and one callee value maps to one caller
//!   value everywhere (phis included);
//! - every block gets a fresh label from the module-wide counter, in callee order, the
//!   callee's entry first; phi incoming labels are renamed the same way;
//! - an argument constant is converted to its parameter's type (the type the call reads it
//!   in), a returned constant to the call's return type, so a constant substituted into a
//!   phi or copy has exactly that instruction's type;
//! - the callee's entry-block allocas (its frame: parameter slots and address-taken
//!   locals) are taken out of the copy and handed back for the caller's entry block;
//!   allocas elsewhere in the callee stay where they are;
//! - every `ret` becomes `br CONT` and is listed in `returns` with its copied operand.
//!
//! Seeded bug: `InlineSkipParamStore` drops the store of the last argument into its
//! parameter slot (the slot is then read before any store: zero after promotion).

use crate::ir::{
    BasicBlock, BlockId, Inst, IrConst, IrFunction, IrType, Operand, Terminator, Value,
};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// What the call site gives the copy.
pub(super) struct Site<'a> {
    /// The call's arguments, each with its (parameter) type.
    pub args: &'a [(IrType, Operand)],
    /// The call's return type.
    pub ret: IrType,
    /// The block the copy's returns branch to.
    pub cont: BlockId,
    /// The first caller value number the copy may define.
    pub first_value: u32,
}

/// The copy of a callee, ready to be spliced in.
pub(super) struct Instance {
    /// The copied blocks, the callee's entry first.
    pub blocks: Vec<BasicBlock>,
    /// The callee's entry-block allocas (renumbered), to be hoisted into the caller's
    /// entry block.
    pub allocas: Vec<Inst>,
    /// Each copied block that returned, with the value it returned.
    pub returns: Vec<(BlockId, Option<Operand>)>,
}

/// The callee value `v` as an operand of the copy.
struct ValueMap {
    first_value: u32,
    /// Argument bound to each paramref's value.
    params: FxHashMap<Value, Operand>,
}

impl ValueMap {
    fn operand(&self, v: Value) -> Operand {
        match self.params.get(&v) {
            Some(arg) => *arg,
            None => Operand::Value(Value(self.first_value + v.0)),
        }
    }

    fn rewrite(&self, op: &mut Operand) {
        if let Operand::Value(v) = *op {
            *op = self.operand(v);
        }
    }
}

/// Copies `callee` for `site`, drawing block labels from `next_block`. `None` when a
/// paramref names a parameter the call does not pass (input the verifier rejects).
pub(super) fn instantiate(
    callee: &IrFunction,
    site: &Site,
    next_block: &mut u32,
) -> Option<Instance> {
    let labels: FxHashMap<BlockId, BlockId> = callee
        .blocks
        .iter()
        .map(|b| {
            let fresh = BlockId(*next_block);
            *next_block += 1;
            (b.label, fresh)
        })
        .collect();
    let values = bind_parameters(callee, site)?;
    let skipped_store = if mutants::enabled(Mutant::InlineSkipParamStore) {
        // Mutant: the last argument never reaches its parameter slot.
        last_param_store(callee)
    } else {
        None
    };

    let mut instance = Instance {
        blocks: Vec::with_capacity(callee.blocks.len()),
        allocas: Vec::new(),
        returns: Vec::new(),
    };
    for (b, block) in callee.blocks.iter().enumerate() {
        let label = labels[&block.label];
        let mut insts = Vec::with_capacity(block.insts.len());
        for (k, inst) in block.insts.iter().enumerate() {
            // A paramref's value is the argument itself: the paramref goes.
            if matches!(inst, Inst::ParamRef { .. }) || skipped_store == Some((b, k)) {
                continue;
            }
            let mut copy = inst.clone();
            if let Some(dest) = copy.dest_mut() {
                *dest = Value(site.first_value + dest.0);
            }
            copy.for_each_operand_mut(|op| values.rewrite(op));
            if let Inst::Phi { incoming, .. } = &mut copy {
                for (_, pred) in incoming.iter_mut() {
                    *pred = labels.get(pred).copied().unwrap_or(*pred);
                }
            }
            if b == 0 && matches!(copy, Inst::Alloca { .. }) {
                instance.allocas.push(copy);
            } else {
                insts.push(copy);
            }
        }
        let term = match &block.term {
            Terminator::Ret(value) => {
                let returned = value.as_ref().map(|(_, op)| {
                    let mut op = *op;
                    values.rewrite(&mut op);
                    convert_constant(op, site.ret)
                });
                instance.returns.push((label, returned));
                Terminator::Br(site.cont)
            }
            other => {
                let mut term = other.clone();
                term.for_each_successor_mut(|t| *t = labels.get(t).copied().unwrap_or(*t));
                term.for_each_operand_mut(|op| values.rewrite(op));
                term
            }
        };
        instance.blocks.push(BasicBlock { label, insts, term });
    }
    Some(instance)
}

/// Binds every paramref's value to the call's argument (converted to the parameter type).
fn bind_parameters(callee: &IrFunction, site: &Site) -> Option<ValueMap> {
    let mut params = FxHashMap::default();
    for inst in callee.blocks.iter().flat_map(|b| &b.insts) {
        if let Inst::ParamRef { dest, index, .. } = inst {
            let &(ty, arg) = site.args.get(*index as usize)?;
            params.insert(*dest, convert_constant(arg, ty));
        }
    }
    Some(ValueMap {
        first_value: site.first_value,
        params,
    })
}

/// A constant operand converted to `ty` (how a position of type `ty` reads it); a value
/// is returned unchanged.
fn convert_constant(op: Operand, ty: IrType) -> Operand {
    match op {
        Operand::Const(c) => Operand::Const(IrConst::new(ty, c.bits)),
        value => value,
    }
}

/// (block, instruction) of the entry-block store of the last parameter's paramref into
/// its parameter slot, if the callee has one.
fn last_param_store(callee: &IrFunction) -> Option<(usize, usize)> {
    let last = callee.params.len().checked_sub(1)?;
    let slot = (*callee.param_allocas().get(last)?)?;
    let entry = callee.blocks.first()?;
    let mut last_paramrefs: Vec<Value> = Vec::new();
    for (k, inst) in entry.insts.iter().enumerate() {
        match inst {
            Inst::ParamRef { dest, index, .. } if *index as usize == last => {
                last_paramrefs.push(*dest)
            }
            Inst::Store {
                val: Operand::Value(v),
                ptr: Operand::Value(p),
                ..
            } if *p == slot && last_paramrefs.contains(v) => return Some((0, k)),
            _ => {}
        }
    }
    None
}
