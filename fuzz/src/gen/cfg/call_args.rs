//! Permuted call arguments: many values computed right before a call, in an order that
//! differs from the parameter order, passed to the call as their last use.
//!
//! Why: a backend moves call arguments from wherever the allocator put them into the
//! argument registers and stack slots of the calling convention, a parallel move. With
//! more live values than callee-saved registers, some sit in caller-saved registers that
//! are themselves argument registers; passing them to *other* positions (a rotation, a
//! reversal, swaps, the same value twice, constants in between) is what breaks a backend
//! that emits those moves in order without breaking cycles, and passing more than six to
//! eight of them is what exercises stack-passed arguments. Callees that fold their
//! incoming parameters in order (`plan::Signature::mixes_params`) turn any swapped or
//! clobbered argument into a different result, which the caller always keeps in a slot.
//!
//! Invariants: every value is computed from initialized slots (never `Guarded` ones) or
//! is a constant, so this adds no undefined behaviour; the argument list has exactly the
//! callee's parameter types, in parameter order; a repeated value is only reused at a
//! position of the same type; `ptr` parameters get an address satisfying their contract
//! (computed in the same permuted order) or the call is not made (`None`).

use super::function::FnGen;
use super::memory::{emit_contract_addr, objects, Base};
use super::plan::Param;
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, IrType, Operand};

/// The order in which a call's argument values are computed.
fn definition_order(g: &mut FnGen, n: usize) -> Result<Vec<usize>> {
    let mut order: Vec<usize> = (0..n).collect();
    match g.u.weighted(&[3, 3, 2, 3])? {
        // A rotation by 1..n-1.
        0 => {
            let r = g.u.between(1, (n as u32).saturating_sub(1))? as usize;
            order.rotate_left(r % n.max(1));
        }
        // A reversal.
        1 => order.reverse(),
        // Swaps of neighbouring pairs.
        2 => {
            for pair in order.chunks_mut(2) {
                pair.reverse();
            }
        }
        // Any permutation (Fisher-Yates).
        _ => {
            for i in (1..n).rev() {
                let j = g.u.index(i + 1)?;
                order.swap(i, j);
            }
        }
    }
    Ok(order)
}

impl FnGen<'_, '_> {
    /// A fresh, non-constant value of type `ty`: a slot loaded, converted, and sometimes
    /// combined with a constant; a constant when no slot is readable.
    fn fresh_arg_value(&mut self, ty: IrType) -> Result<Operand> {
        let readable = self.readable_slots();
        if readable.is_empty() {
            return Ok(konst(ty, interesting(self.u, ty)?));
        }
        let slot = self.frame.slots[readable[self.u.index(readable.len())?]];
        let sty = slot.spec.ty;
        let loaded = self.b.load(sty, slot.ptr.into());
        self.define(loaded, sty);
        let v = self.convert(loaded.into(), sty, ty);
        if self.u.chance(40)? {
            let op = [BinOp::Add, BinOp::Xor, BinOp::Sub][self.u.index(3)?];
            let c = konst(ty, interesting(self.u, ty)?);
            let w = self.b.bin(op, ty, v, c);
            self.define(w, ty);
            return Ok(w.into());
        }
        Ok(v)
    }

    /// The arguments of a call to `params`, computed in a permuted order (see the module
    /// doc); `None` when a `ptr` parameter's contract cannot be met here.
    pub(super) fn permuted_call_args(
        &mut self,
        params: &[Param],
    ) -> Result<Option<Vec<(IrType, Operand)>>> {
        let n = params.len();
        let order = definition_order(self, n)?;
        let mut args: Vec<Option<(IrType, Operand)>> = vec![None; n];
        // Values computed for this call so far, with their types (fan-out candidates).
        let mut computed: Vec<(Operand, IrType)> = Vec::new();
        for &k in &order {
            let arg = match params[k] {
                Param::Int(ty) => {
                    let same: Vec<Operand> = computed
                        .iter()
                        .filter(|(_, t)| *t == ty)
                        .map(|(v, _)| *v)
                        .collect();
                    match self
                        .u
                        .weighted(&[12, 2, if same.is_empty() { 0 } else { 3 }])?
                    {
                        0 => {
                            let v = self.fresh_arg_value(ty)?;
                            computed.push((v, ty));
                            (ty, v)
                        }
                        1 => (ty, konst(ty, interesting(self.u, ty)?)),
                        _ => (ty, same[self.u.index(same.len())?]),
                    }
                }
                Param::Ptr(c) => {
                    let objs = objects(&self.frame, self.plan);
                    let own: Vec<_> = objs
                        .iter()
                        .copied()
                        .filter(|o| matches!(o.base, Base::Slot(_)))
                        .collect();
                    let pool = if self.u.chance(75)? { &own } else { &objs };
                    let found =
                        emit_contract_addr(&mut self.b, self.u, &self.frame, self.plan, pool, c)?;
                    let found = match found {
                        Some(a) => Some(a),
                        None => emit_contract_addr(
                            &mut self.b,
                            self.u,
                            &self.frame,
                            self.plan,
                            &objs,
                            c,
                        )?,
                    };
                    match found {
                        Some(a) => (IrType::Ptr, a),
                        None => return Ok(None),
                    }
                }
            };
            args[k] = Some(arg);
        }
        Ok(args.into_iter().collect())
    }
}
