//! Float expressions of the cfg generator (on when `CfgGenConfig::float_percent` > 0).
//!
//! Why: float slots go through mem2reg (their loads become phis of floats) and float
//! values through every pass; integer expressions dip into float computations and come
//! back through the safe conversions of `gen::floats`, so a wrong float bit changes the
//! checksum.
//!
//! Invariants: an expression of float type `T` is an operand of type `T`; only
//! initialized float slots are read (every data slot is initialized in the entry block);
//! a float reaches an integer only through `floats::emit_float_to_int`; recursion is
//! bounded by `depth`. With `float_percent` 0 nothing here runs and no input byte is
//! drawn for it, so programs without floats are exactly what they were.

use super::frame::Role;
use super::function::FnGen;
use crate::gen::choice::Pick;
use crate::gen::floats::{
    emit_fbin, emit_fcmp, emit_float_to_int, emit_fneg, float_op, float_pred, float_type,
    interesting_float,
};
use arbitrary::Result;
use compiler::ir::{FBinOp, IrType, Operand};

impl FnGen<'_, '_> {
    /// True when this program may contain floats.
    pub fn floats_on(&self) -> bool {
        self.cfg.float_percent > 0
    }

    /// Indexes of float data and parameter slots (all initialized at entry).
    pub fn float_slots(&self) -> Vec<usize> {
        self.frame
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.spec.ty.is_float() && matches!(s.spec.role, Role::Data | Role::Param(_))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// An operand of float type `ty`.
    pub fn fexpr(&mut self, ty: IrType, depth: u32) -> Result<Operand> {
        if depth == 0 || self.u.chance(30)? {
            return self.fleaf(ty);
        }
        let d = depth - 1;
        let v = match self.u.weighted(&[10, 2, 2, 2, 2])? {
            0 => {
                let op = float_op(self.u)?;
                let lhs = self.fexpr(ty, d)?;
                let rhs = if self.u.chance(40)? {
                    Operand::Const(interesting_float(self.u, ty)?)
                } else {
                    self.fexpr(ty, d)?
                };
                emit_fbin(&mut self.b, op, ty, lhs, rhs)
            }
            1 => {
                let src = self.fexpr(ty, d)?;
                emit_fneg(&mut self.b, ty, src)
            }
            2 => {
                let c = if self.u.chance(50)? {
                    let fty = float_type(self.u)?;
                    let a = self.fexpr(fty, d)?;
                    let b = self.fleaf(fty)?;
                    let pred = float_pred(self.u)?;
                    let c = emit_fcmp(&mut self.b, pred, fty, a, b);
                    self.define(c, IrType::I8);
                    c.into()
                } else {
                    self.cond(d)?
                };
                let a = self.fexpr(ty, d)?;
                let b = self.fexpr(ty, d)?;
                self.b.select(ty, c, a, b)
            }
            3 => {
                // The other float type, converted (fpext or fptrunc).
                let from = if ty == IrType::F32 {
                    IrType::F64
                } else {
                    IrType::F32
                };
                let src = self.fexpr(from, d)?;
                self.b.cast(from, src, ty)
            }
            _ => {
                // An integer converted to a float (never undefined).
                let from = super::expr::int_type(self.u)?;
                let src = self.expr(from, d)?;
                self.b.cast(from, src, ty)
            }
        };
        self.define(v, ty);
        Ok(v.into())
    }

    /// A float leaf of type `ty`: a float slot load, a float value in scope or a constant.
    pub fn fleaf(&mut self, ty: IrType) -> Result<Operand> {
        let same: Vec<usize> = self
            .float_slots()
            .into_iter()
            .filter(|&i| self.frame.slots[i].spec.ty == ty)
            .collect();
        let in_scope: Vec<usize> = (0..self.avail.len())
            .filter(|&i| self.avail[i].1 == ty)
            .collect();
        let w = [
            if same.is_empty() { 0 } else { 7 },
            if in_scope.is_empty() { 0 } else { 3 },
            4,
        ];
        match self.u.weighted(&w)? {
            0 => {
                let slot = self.frame.slots[same[self.u.index(same.len())?]];
                let v = self.b.load(ty, slot.ptr.into());
                self.define(v, ty);
                Ok(v.into())
            }
            1 => Ok(self.avail[in_scope[self.u.index(in_scope.len())?]].0.into()),
            _ => Ok(Operand::Const(interesting_float(self.u, ty)?)),
        }
    }

    /// An integer of type `ty` computed through floats.
    pub fn float_excursion(&mut self, ty: IrType, depth: u32) -> Result<Operand> {
        let fty = float_type(self.u)?;
        let f = self.fexpr(fty, depth)?;
        emit_float_to_int(&mut self.b, self.u, fty, f, ty)
    }

    /// `slot = float expression` for a float slot (or an accumulation into it).
    pub fn float_assign(&mut self) -> Result<bool> {
        let slots = self.float_slots();
        if slots.is_empty() {
            return Ok(false);
        }
        let slot = self.frame.slots[slots[self.u.index(slots.len())?]];
        let ty = slot.spec.ty;
        let val = if self.u.chance(50)? {
            let old = self.b.load(ty, slot.ptr.into());
            self.define(old, ty);
            let e = self.fexpr(ty, 2)?;
            let op = [FBinOp::FAdd, FBinOp::FSub, FBinOp::FMul][self.u.index(3)?];
            let v = emit_fbin(&mut self.b, op, ty, old.into(), e);
            self.define(v, ty);
            v.into()
        } else {
            self.fexpr(ty, 2)?
        };
        self.b.store(ty, val, slot.ptr.into());
        Ok(true)
    }
}
