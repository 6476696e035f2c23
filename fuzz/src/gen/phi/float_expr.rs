//! Float variables of the phi generator (on when `PhiGenConfig::float_percent` > 0).
//!
//! Why: float variables are merged by phis at joins and permuted on loop back edges like
//! the integer ones, so phi elimination's copies and temporaries carry floats; their
//! expressions exercise every float operation.
//!
//! Invariants: a float expression of type `T` is an operand of type `T` over `env`, its
//! own new values and constants; a float becomes an integer only through
//! `gen::floats` (NaN-free bits, range-checked truncation); with `float_percent` 0
//! nothing here runs and no input byte is drawn for it.

use super::function::PhiGen;
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use crate::gen::floats::{
    emit_fbin, emit_fcmp, emit_fneg, float_op, float_pred, interesting_float,
};
use arbitrary::Result;
use compiler::ir::{konst, FBinOp, IrType, Operand};

impl PhiGen<'_, '_> {
    /// An interesting constant of `ty` (integer or float); an `f32` one is sometimes an
    /// `f64` constant cast to `f32` (what C's `(float)0.1` lowers to), which constant
    /// folding must round, not truncate.
    pub fn constant(&mut self, ty: IrType) -> Result<Operand> {
        if ty == IrType::F32 && self.u.chance(15)? {
            let wide = Operand::Const(interesting_float(self.u, IrType::F64)?);
            return Ok(self.b.cast(IrType::F64, wide, IrType::F32).into());
        }
        Ok(if ty.is_float() {
            Operand::Const(interesting_float(self.u, ty)?)
        } else {
            konst(ty, interesting(self.u, ty)?)
        })
    }

    /// A float expression of type `ty` over the variables; `depth` at most 2.
    pub fn fexpr(&mut self, ty: IrType, depth: u32) -> Result<Operand> {
        if depth == 0 || self.u.chance(25)? {
            return self.operand(ty);
        }
        Ok(match self.u.weighted(&[8, 1, 2])? {
            0 => {
                let op = float_op(self.u)?;
                let l = self.fexpr(ty, depth - 1)?;
                let r = if self.u.chance(40)? {
                    self.constant(ty)?
                } else {
                    self.fexpr(ty, depth - 1)?
                };
                emit_fbin(&mut self.b, op, ty, l, r).into()
            }
            1 => {
                let s = self.fexpr(ty, depth - 1)?;
                emit_fneg(&mut self.b, ty, s).into()
            }
            _ => {
                let c = self.cond()?;
                let a = self.operand(ty)?;
                let mut b = self.operand(ty)?;
                if b == a {
                    b = self.constant(ty)?;
                }
                self.b.select(ty, c, a, b).into()
            }
        })
    }

    /// `fcmp` of two float operands of `ty` (an `i8`).
    pub fn float_cond(&mut self, ty: IrType) -> Result<Operand> {
        let pred = float_pred(self.u)?;
        let l = self.operand(ty)?;
        let mut r = self.operand(ty)?;
        if r == l && self.u.chance(50)? {
            r = self.constant(ty)?;
        }
        Ok(emit_fcmp(&mut self.b, pred, ty, l, r).into())
    }

    /// `old OP e` for a float variable's accumulation.
    pub fn float_accumulate(&mut self, ty: IrType, old: Operand, e: Operand) -> Result<Operand> {
        let op = [FBinOp::FAdd, FBinOp::FSub, FBinOp::FMul][self.u.index(3)?];
        Ok(emit_fbin(&mut self.b, op, ty, old, e).into())
    }
}

/// The float twin of `interesting` for shuffles: the bits of an interesting constant of
/// `ty` (float) or an interesting integer.
pub(super) fn interesting_bits(u: &mut arbitrary::Unstructured, ty: IrType) -> Result<i64> {
    if ty.is_float() {
        Ok(interesting_float(u, ty)?.bits)
    } else {
        interesting(u, ty)
    }
}
