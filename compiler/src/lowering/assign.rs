//! Assignment, compound assignment and `++`/`--`.
//!
//! Why: the three share "evaluate the lvalue once, read, compute, write, yield the
//! stored value", including through bit-fields and for pointers.
//!
//! Invariants: the lvalue is evaluated exactly once; the right operand of `=` is
//! evaluated before the lvalue (as gcc -O0 does for the common cases; C leaves the order
//! unspecified); the value of the expression is the value the object holds afterwards
//! (truncated for a bit-field); record assignment is one `memcpy` (exact self-overlap,
//! `s = s`, is allowed by the oracle's `memcpy`).
//!
//! Seeded bug: [`crate::mutants::Mutant::LowerCompoundNarrowInLhsType`].

use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::scalar_type;
use crate::frontend::ast::{BinaryOp, Expr, IncDecOp};
use crate::frontend::types::{IntKind, Type};
use crate::ir::{BinOp, IrType};

/// The operands of `lhs op= rhs` as `ExprKind::CompoundAssign` holds them.
pub struct CompoundOperands<'a> {
    pub lhs: &'a Expr,
    pub rhs: &'a Expr,
    pub compute_ty: &'a Type,
    pub ptr_elem_size: Option<u64>,
    pub lhs_wrap: Option<u32>,
}

impl FnLower<'_, '_> {
    /// `lhs = rhs`.
    pub fn assign(&mut self, lhs: &Expr, rhs: &Expr, e: &Expr) -> Res<RVal> {
        if lhs.ty.ty.is_record() {
            let size = self.size_of(lhs)?;
            let src = self.record_value(rhs)?;
            let dst = self.address_of(lhs)?;
            self.memcpy(dst, src, size)?;
            return Ok(RVal::Record(dst));
        }
        if let Some(v) = self.assign_derived_pointer(lhs, rhs)? {
            return Ok(RVal::Scalar(v, IrType::Ptr));
        }
        let (v, vt) = self.scalar(rhs)?;
        let t = scalar_type(self.ctx.target, &lhs.ty.ty).map_err(|m| self.err(e.loc, m))?;
        let v = self.cast(vt, v, t);
        let lv = self.lvalue(lhs)?;
        let stored = self.store_lvalue(lv, t, &lhs.ty.ty, v);
        self.note_store_type(&lv, lhs, t);
        self.keep_derived_bounds(lhs, Some(rhs), stored);
        Ok(RVal::Scalar(stored, t))
    }

    /// `lhs op= rhs`.
    pub fn compound_assign(
        &mut self,
        op: BinaryOp,
        operands: CompoundOperands<'_>,
        e: &Expr,
    ) -> Res<RVal> {
        let CompoundOperands {
            lhs,
            rhs,
            compute_ty,
            ptr_elem_size,
            lhs_wrap,
        } = operands;
        let target = self.ctx.target;
        let lt = scalar_type(target, &lhs.ty.ty).map_err(|m| self.err(e.loc, m))?;
        let ct = scalar_type(target, compute_ty).map_err(|m| self.err(e.loc, m))?;
        let lv = self.lvalue(lhs)?;
        let (y, yt) = self.scalar(rhs)?;
        self.check_load_type(&lv, lhs, lt);
        let old = self.load_lvalue(lv, lt, &lhs.ty.ty);
        let new = if let Some(size) = ptr_elem_size {
            // Pointer += / -= index.
            let y = if op == BinaryOp::Sub {
                self.c_neg(yt, y)
            } else {
                y
            };
            self.ptr_offset(old, y, yt, size)
        } else if lt.bits(self.ctx.ptr_bytes) < 32
            && lhs_wrap.is_none()
            && crate::mutants::enabled(crate::mutants::Mutant::LowerCompoundNarrowInLhsType)
        {
            // Seeded bug: the narrow left operand is never promoted; the right one is
            // truncated to it and the operation runs at the narrow width.
            let y = self.cast(yt, y, lt);
            self.arith(op, lt, old, y)
        } else {
            let x = self.convert(old, lt, compute_ty, ct);
            let x = match lhs_wrap {
                Some(width) => {
                    let mask = exact(ct, ((1u64 << width) - 1) as i64);
                    self.arith(BinaryOp::BitAnd, ct, x, mask)
                }
                None => x,
            };
            let y = self.cast(yt, y, ct);
            let r = self.arith(op, ct, x, y);
            self.convert(r, ct, &lhs.ty.ty, lt)
        };
        let stored = self.store_lvalue(lv, lt, &lhs.ty.ty, new);
        self.note_store_type(&lv, lhs, lt);
        if ptr_elem_size.is_some() {
            self.keep_derived_bounds(lhs, None, stored);
        }
        Ok(RVal::Scalar(stored, lt))
    }

    /// `++x`, `x--`, ...
    pub fn inc_dec(
        &mut self,
        op: IncDecOp,
        operand: &Expr,
        ptr_elem_size: Option<u64>,
        e: &Expr,
    ) -> Res<RVal> {
        let ty = &operand.ty.ty;
        let t = scalar_type(self.ctx.target, ty).map_err(|m| self.err(e.loc, m))?;
        let lv = self.lvalue(operand)?;
        self.check_load_type(&lv, operand, t);
        let old = self.load_lvalue(lv, t, ty);
        let up = matches!(op, IncDecOp::PreInc | IncDecOp::PostInc);
        let new = if let Some(size) = ptr_elem_size {
            let step = if up {
                size as i64
            } else {
                (size as i64).wrapping_neg()
            };
            self.gep(old, step)
        } else {
            // In the promoted type, then converted back (`_Bool` becomes `!= 0`).
            let promoted = match ty {
                Type::Bool => Type::Int(IntKind::Int),
                Type::Int(k) if k.rank() < IntKind::Int.rank() => Type::Int(IntKind::Int),
                other => other.clone(),
            };
            let pt = scalar_type(self.ctx.target, &promoted).map_err(|m| self.err(e.loc, m))?;
            let x = self.convert(old, t, &promoted, pt);
            let op = if up { BinOp::Add } else { BinOp::Sub };
            let one = if pt.is_float() {
                super::float::float_const(pt, 1.0)
            } else {
                exact(pt, 1)
            };
            let r = self.c_bin(op, pt, x, one);
            self.convert(r, pt, ty, t)
        };
        let stored = self.store_lvalue(lv, t, ty, new);
        self.note_store_type(&lv, operand, t);
        if ptr_elem_size.is_some() {
            self.keep_derived_bounds(operand, None, stored);
        }
        let result = match op {
            IncDecOp::PreInc | IncDecOp::PreDec => stored,
            IncDecOp::PostInc | IncDecOp::PostDec => old,
        };
        Ok(RVal::Scalar(result, t))
    }
}
