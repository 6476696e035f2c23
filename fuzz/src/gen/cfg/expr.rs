//! Expressions: values computed from slots, memory, values in scope and constants.
//!
//! Why: mem2reg replaces loads with the values last stored, so the generated code loads
//! slots of every type into arithmetic of every kind — all binary and unary operations,
//! comparisons, casts between all integer types, selects — and mixes in values kept in
//! registers across blocks.
//!
//! Sometimes a binary expression is emitted again, operand for operand, when its operands
//! are still in scope: GVN's work (the first dominates) and its trap (it sat in a sibling
//! branch).
//!
//! Invariants: an expression of type `T` is an operand of type `T` (constants are built
//! with type `T`); division and shifts go through `arith::emit_safe_bin` and get
//! interesting constants as operands more often than other operations; only initialized
//! slots are read (never `Guarded` ones, which `guarded` reads under their condition);
//! memory reads use `memory::pick_access`, so they are in bounds and aligned; recursion is
//! bounded by the `depth` argument (at most 3), not by the input.

use super::frame::Role;
use super::function::{FnGen, RecentBin};
use super::memory::{emit_addr, objects, pick_access};
use crate::gen::arith::{emit_safe_bin, DivisorGuard};
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, CmpPred, IrType, Operand, UnOp};

/// How many recent binary expressions `expr` remembers for repeating.
const RECENT_BINS: usize = 8;

/// A random integer type.
pub(super) fn int_type(u: &mut arbitrary::Unstructured) -> Result<IrType> {
    Ok(IrType::INTEGERS[u.index(IrType::INTEGERS.len())?])
}

impl FnGen<'_, '_> {
    /// Indexes of integer slots that hold initialized values and may be read.
    pub fn readable_slots(&self) -> Vec<usize> {
        self.frame
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.spec.ty.is_integer() && s.spec.role != Role::Guarded)
            .map(|(i, _)| i)
            .collect()
    }

    /// An operand of type `ty`.
    pub fn expr(&mut self, ty: IrType, depth: u32) -> Result<Operand> {
        if ty.is_float() {
            return self.fexpr(ty, depth);
        }
        if depth == 0 || self.u.chance(30)? {
            return self.leaf(ty);
        }
        let d = depth - 1;
        let cmp_weight = if ty == IrType::I8 { 2 } else { 0 };
        let float_weight = if self.floats_on() { 3 } else { 0 };
        let v = match self.u.weighted(&[9, 1, 2, 3, cmp_weight, float_weight])? {
            0 if self.u.chance(10)? && self.repeatable(ty).is_some() => {
                // The same computation again: redundant where the first one dominates,
                // merely equal where it sat in a sibling branch.
                let r = self.repeatable(ty).expect("checked just above");
                emit_safe_bin(&mut self.b, r.op, r.ty, r.lhs, r.rhs, r.guard)
            }
            0 => {
                let op = BinOp::ALL[self.u.index(BinOp::ALL.len())?];
                // Divisions and shifts meet interesting values on purpose: a constant
                // right operand more often, and sometimes a constant left one.
                let edgy = op.can_trap() || op.is_shift();
                let rhs_const = self.u.chance(if edgy { 60 } else { 40 })?;
                let lhs = if edgy && !rhs_const && self.u.chance(25)? {
                    konst(ty, interesting(self.u, ty)?)
                } else {
                    self.expr(ty, d)?
                };
                let rhs = if rhs_const {
                    konst(ty, interesting(self.u, ty)?)
                } else {
                    self.expr(ty, d)?
                };
                let guard = DivisorGuard::pick(self.u, op)?;
                if self.recent.len() >= RECENT_BINS {
                    self.recent.remove(0);
                }
                self.recent.push(RecentBin {
                    op,
                    ty,
                    lhs,
                    rhs,
                    guard,
                });
                emit_safe_bin(&mut self.b, op, ty, lhs, rhs, guard)
            }
            1 => {
                let op = UnOp::ALL[self.u.index(UnOp::ALL.len())?];
                let src = self.expr(ty, d)?;
                self.b.un(op, ty, src)
            }
            2 => {
                let c = self.cond(d)?;
                let a = self.expr(ty, d)?;
                let b = self.expr(ty, d)?;
                self.b.select(ty, c, a, b)
            }
            3 => {
                let mut from = int_type(self.u)?;
                if from == ty {
                    from = if ty == IrType::I64 {
                        IrType::U8
                    } else {
                        IrType::I64
                    };
                }
                let src = self.expr(from, d)?;
                self.b.cast(from, src, ty)
            }
            4 => return self.compare(d),
            _ => return self.float_excursion(ty, d),
        };
        self.define(v, ty);
        Ok(v.into())
    }

    /// The latest recent binary expression of type `ty` whose operands are all constants
    /// or values in scope.
    fn repeatable(&self, ty: IrType) -> Option<RecentBin> {
        let usable = |o: &Operand| o.as_value().is_none_or(|v| self.in_scope(v));
        self.recent
            .iter()
            .rev()
            .find(|r| r.ty == ty && usable(&r.lhs) && usable(&r.rhs))
            .copied()
    }

    /// A leaf of type `ty`: a slot load, a memory load, a value in scope or a constant.
    pub fn leaf(&mut self, ty: IrType) -> Result<Operand> {
        let readable = self.readable_slots();
        let same: Vec<usize> = readable
            .iter()
            .copied()
            .filter(|&i| self.frame.slots[i].spec.ty == ty)
            .collect();
        let in_scope: Vec<usize> = (0..self.avail.len())
            .filter(|&i| self.avail[i].1 == ty)
            .collect();
        let objs = objects(&self.frame, self.plan);
        let w = [
            if same.is_empty() { 0 } else { 7 },
            if in_scope.is_empty() { 0 } else { 3 },
            3,
            if objs.is_empty() { 0 } else { 2 },
            if readable.is_empty() { 0 } else { 3 },
        ];
        match self.u.weighted(&w)? {
            0 => {
                let slot = self.frame.slots[same[self.u.index(same.len())?]];
                let v = self.b.load(ty, slot.ptr.into());
                self.define(v, ty);
                Ok(v.into())
            }
            1 => Ok(self.avail[in_scope[self.u.index(in_scope.len())?]].0.into()),
            3 => {
                let obj = objs[self.u.index(objs.len())?];
                let (aty, off) = pick_access(self.u, &obj)?;
                let addr = emit_addr(&mut self.b, self.u, &self.frame, self.plan, &obj, off)?;
                let v = self.b.load(aty, addr);
                self.define(v, aty);
                Ok(self.convert(v.into(), aty, ty))
            }
            4 => {
                let slot = self.frame.slots[readable[self.u.index(readable.len())?]];
                let sty = slot.spec.ty;
                let v = self.b.load(sty, slot.ptr.into());
                self.define(v, sty);
                Ok(self.convert(v.into(), sty, ty))
            }
            _ => Ok(konst(ty, interesting(self.u, ty)?)),
        }
    }

    /// `v` of type `from` as type `to` (a cast when they differ; a float becomes an
    /// integer through its NaN-free bits, never by an unchecked conversion).
    pub fn convert(&mut self, v: Operand, from: IrType, to: IrType) -> Operand {
        if from == to {
            return v;
        }
        if from.is_float() && !to.is_float() {
            let bits = crate::gen::floats::emit_float_bits(&mut self.b, from, v);
            return self.convert(bits, IrType::I64, to);
        }
        let c = self.b.cast(from, v, to);
        self.define(c, to);
        c.into()
    }

    /// A comparison of two expressions of one random type (an `i8` 0 or 1).
    pub fn compare(&mut self, depth: u32) -> Result<Operand> {
        let ty = int_type(self.u)?;
        if self.u.chance(8)? {
            // A value against a function of itself: the identities rewrites rely on.
            return self.self_relation(ty, depth);
        }
        let pred = CmpPred::ALL[self.u.index(CmpPred::ALL.len())?];
        let lhs = self.expr(ty, depth)?;
        let mut rhs = if self.u.chance(50)? {
            konst(ty, interesting(self.u, ty)?)
        } else {
            self.expr(ty, depth)?
        };
        if rhs == lhs {
            // `x op x` is constant: compare with a constant instead.
            rhs = konst(ty, interesting(self.u, ty)?);
        }
        let v = self.b.cmp(pred, ty, lhs, rhs);
        self.define(v, IrType::I8);
        Ok(v.into())
    }

    /// A branch or select condition (`i8`; any non-zero value is true): usually a
    /// comparison, sometimes a raw `i8` value.
    pub fn cond(&mut self, depth: u32) -> Result<Operand> {
        if self.u.chance(12)? {
            let v = self.expr(IrType::I8, depth)?;
            if v.as_value().is_some() {
                return Ok(v);
            }
        }
        self.compare(depth)
    }
}
