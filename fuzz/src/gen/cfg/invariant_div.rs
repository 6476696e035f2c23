//! A division inside a loop, guarded by a test of its loop-invariant divisor.
//!
//! Why: `if (d != 0) q = x / d;` in a loop where neither `x` nor `d` changes is the classic
//! trap for loop-invariant code motion: after mem2reg both operands are SSA values defined
//! before the loop, so the division looks hoistable, but moving it to the preheader makes
//! it run when `d` is zero and the guard would have skipped it. To show that, a run must
//! reach the loop with `d == 0`, so the divisor is derived from a parameter (or a slot) in
//! ways that are often zero for the harness's argument vectors (which include 0, -1 and
//! small values): `a`, `a & 1`, `a & 3`, `a + 1`, `a - k`.
//!
//! Shape: [`FnGen::prepare_invariant_div`] runs in the block that jumps to the loop header
//! (the loop's preheader), [`FnGen::invariant_div_stmt`] anywhere reachable inside the
//! loop body, as a statement or at the end of the body.
//!
//! Invariants:
//! - the operands are computed in the preheader and either kept as SSA values defined
//!   there — they dominate the whole loop — or stored to fresh `Invariant` slots that no
//!   other statement writes (blocks nothing reaches excepted) and that the prologue zeroes,
//!   so reads of them elsewhere are defined; the divisor is never a constant;
//! - the division runs only in the arm of a `condbr` on a test of the divisor that
//!   excludes zero; for `sdiv`/`srem` `MIN / -1` is excluded too: the test also excludes
//!   -1 (all ones at the width), or requires a positive divisor (signed compare), or the
//!   dividend was made odd in the preheader (`x | 1` is never MIN);
//! - the result is folded into a writable slot, so it reaches the checksum;
//! - never emitted in blocks nothing reaches (values of reachable blocks do not dominate
//!   them).

use super::expr::int_type;
use super::frame::Role;
use super::function::FnGen;
use crate::gen::choice::Pick;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, CmpPred, IrType, Operand, Terminator, Value};

/// Where an operand of the division is kept between the preheader and the loop.
#[derive(Clone, Copy, Debug)]
pub(super) enum Held {
    /// An operand defined in the preheader (or a constant).
    Operand(Operand),
    /// An `Invariant` slot stored in the preheader; the loop loads it.
    Slot(usize),
}

/// How the division is guarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DivGuard {
    /// `d != 0` (or `d == 0` with the arms swapped); a signed op gets an odd dividend.
    NonZero,
    /// `(d != 0) & (d != -1)`.
    NeitherZeroNorMinusOne,
    /// `d > 0`: a signed compare for a signed op, unsigned otherwise.
    Positive,
}

/// A guarded division prepared before a loop.
#[derive(Clone, Copy, Debug)]
pub(super) struct InvariantDiv {
    pub op: BinOp,
    pub ty: IrType,
    pub dividend: Held,
    pub divisor: Held,
    pub guard: DivGuard,
    /// Already emitted in the loop.
    pub used: bool,
}

/// True for the operations that trap on `MIN / -1`.
fn is_signed_division(op: BinOp) -> bool {
    matches!(op, BinOp::SDiv | BinOp::SRem)
}

impl FnGen<'_, '_> {
    /// Sometimes (`invariant_div_percent` of loops, when the block budget allows the two
    /// blocks it needs) prepares a guarded division in the current block, which must be
    /// the one about to jump to a loop header; returns whether one was pushed on
    /// `invariant_divs`.
    pub fn maybe_prepare_invariant_div(&mut self) -> Result<bool> {
        if self.in_unreachable
            || self.blocks_left < 5
            || !self.u.chance(self.cfg.invariant_div_percent)?
        {
            return Ok(false);
        }
        match self.prepare_invariant_div()? {
            Some(d) => {
                self.invariant_divs.push(d);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Computes the divisor and dividend in the current block; `None` when the function
    /// has nothing non-constant to derive a divisor from.
    pub fn prepare_invariant_div(&mut self) -> Result<Option<InvariantDiv>> {
        let ty = int_type(self.u)?;
        let Some(base) = self.divisor_source(ty)? else {
            return Ok(None);
        };
        let shaped = match self.u.weighted(&[3, 2, 2, 2, 1])? {
            0 => base,
            1 => self.b.bin(BinOp::And, ty, base.into(), konst(ty, 1)),
            2 => self.b.bin(BinOp::And, ty, base.into(), konst(ty, 3)),
            3 => self.b.bin(BinOp::Add, ty, base.into(), konst(ty, 1)),
            _ => {
                let k = self.u.between(1, 3)? as i64;
                self.b.bin(BinOp::Sub, ty, base.into(), konst(ty, k))
            }
        };
        self.define(shaped, ty);
        let op = [BinOp::SDiv, BinOp::UDiv, BinOp::SRem, BinOp::URem][self.u.index(4)?];
        let guard = if is_signed_division(op) {
            [
                DivGuard::NonZero,
                DivGuard::NeitherZeroNorMinusOne,
                DivGuard::Positive,
            ][self.u.weighted(&[2, 2, 1])?]
        } else {
            [DivGuard::NonZero, DivGuard::Positive][self.u.weighted(&[3, 1])?]
        };
        let mut x = self.expr(ty, 1)?;
        if guard == DivGuard::NonZero && is_signed_division(op) {
            // Only the divisor is tested: an odd dividend is never MIN.
            let odd = self.b.bin(BinOp::Or, ty, x, konst(ty, 1));
            self.define(odd, ty);
            x = odd.into();
        }
        let divisor = self.hold(ty, shaped.into())?;
        let dividend = self.hold(ty, x)?;
        Ok(Some(InvariantDiv {
            op,
            ty,
            dividend,
            divisor,
            guard,
            used: false,
        }))
    }

    /// A non-constant value of type `ty`: a parameter's incoming value, a parameter slot
    /// or another readable slot, converted.
    fn divisor_source(&mut self, ty: IrType) -> Result<Option<Value>> {
        let params: Vec<(Value, IrType)> = self
            .frame
            .params
            .iter()
            .copied()
            .filter(|(_, t)| t.is_integer())
            .collect();
        let param_slots: Vec<usize> = self
            .readable_slots()
            .into_iter()
            .filter(|&i| matches!(self.frame.slots[i].spec.role, Role::Param(_)))
            .collect();
        let readable = self.readable_slots();
        let w = [
            if params.is_empty() { 0 } else { 5 },
            if param_slots.is_empty() { 0 } else { 3 },
            if readable.is_empty() { 0 } else { 2 },
        ];
        if w.iter().all(|&x| x == 0) {
            return Ok(None);
        }
        let (v, from) = match self.u.weighted(&w)? {
            0 => params[self.u.index(params.len())?],
            k => {
                let pool = if k == 1 { &param_slots } else { &readable };
                let slot = self.frame.slots[pool[self.u.index(pool.len())?]];
                let v = self.b.load(slot.spec.ty, slot.ptr.into());
                self.define(v, slot.spec.ty);
                (v, slot.spec.ty)
            }
        };
        if from == ty {
            return Ok(Some(v));
        }
        let c = self.b.cast(from, v.into(), ty);
        self.define(c, ty);
        Ok(Some(c))
    }

    /// Keeps `v` for the loop: as it is, or stored to a fresh `Invariant` slot.
    fn hold(&mut self, ty: IrType, v: Operand) -> Result<Held> {
        if self.u.chance(40)? {
            return Ok(Held::Operand(v));
        }
        let slot = self.new_late_slot(ty, Role::Invariant);
        let ptr = self.frame.slots[slot].ptr;
        self.b.store(ty, v, ptr.into());
        Ok(Held::Slot(slot))
    }

    /// The held operand at the current point (a load for a slot).
    fn read_held(&mut self, ty: IrType, h: Held) -> Operand {
        match h {
            Held::Operand(o) => o,
            Held::Slot(s) => {
                let v = self.b.load(ty, self.frame.slots[s].ptr.into());
                self.define(v, ty);
                v.into()
            }
        }
    }

    /// The index of the innermost prepared division not yet emitted, if any.
    pub fn pending_invariant_div(&self) -> Option<usize> {
        if self.in_unreachable {
            return None;
        }
        self.invariant_divs.iter().rposition(|d| !d.used)
    }

    /// `if (guard(d)) acc ^= x / d;` for prepared division `k`.
    pub fn invariant_div_stmt(&mut self, k: usize) -> Result<()> {
        self.invariant_divs[k].used = true;
        let inv = self.invariant_divs[k];
        let ty = inv.ty;
        let d = self.read_held(ty, inv.divisor);
        let (cond, div_on_true) = match inv.guard {
            DivGuard::NonZero => {
                if self.u.chance(50)? {
                    (self.b.cmp(CmpPred::Ne, ty, d, konst(ty, 0)), true)
                } else {
                    (self.b.cmp(CmpPred::Eq, ty, d, konst(ty, 0)), false)
                }
            }
            DivGuard::NeitherZeroNorMinusOne => {
                let nz = self.b.cmp(CmpPred::Ne, ty, d, konst(ty, 0));
                let nm = self.b.cmp(CmpPred::Ne, ty, d, konst(ty, -1));
                self.define(nz, IrType::I8);
                self.define(nm, IrType::I8);
                let (a, b) = if self.u.chance(50)? {
                    (nz, nm)
                } else {
                    (nm, nz)
                };
                (self.b.bin(BinOp::And, IrType::I8, a.into(), b.into()), true)
            }
            DivGuard::Positive => {
                let pred = if is_signed_division(inv.op) {
                    CmpPred::Sgt
                } else {
                    CmpPred::Ugt
                };
                (self.b.cmp(pred, ty, d, konst(ty, 0)), true)
            }
        };
        self.define(cond, IrType::I8);
        let mark = self.mark();
        let div = self.block();
        let join = self.block();
        let (if_true, if_false) = if div_on_true {
            (div, join)
        } else {
            (join, div)
        };
        self.b.terminate(Terminator::CondBr {
            cond: cond.into(),
            if_true,
            if_false,
        });
        self.b.switch_to(div);
        let x = self.read_held(ty, inv.dividend);
        // A C front end loads `d` again; sometimes reuse the tested value instead.
        let d = match inv.divisor {
            Held::Slot(_) if self.u.chance(50)? => self.read_held(ty, inv.divisor),
            _ => d,
        };
        let q = self.b.bin(inv.op, ty, x, d);
        self.define(q, ty);
        let writable = self.writable_slots();
        if !writable.is_empty() {
            let t = self.frame.slots[writable[self.u.index(writable.len())?]];
            let val = self.convert(q.into(), ty, t.spec.ty);
            let old = self.b.load(t.spec.ty, t.ptr.into());
            let mixed = self.b.bin(BinOp::Xor, t.spec.ty, old.into(), val);
            self.b.store(t.spec.ty, mixed.into(), t.ptr.into());
        }
        self.close_to(join)?;
        self.reset(mark);
        self.b.switch_to(join);
        Ok(())
    }
}
