//! Comparisons of a value with a function of itself: `-x == x`, `~x != x`, `x + c < x`,
//! `(x >> k) << k == x`, `x * c == x`, `x / c * c == x`.
//!
//! Why: algebraic rewrites reason about exactly these identities, and each one is right for
//! most values and wrong for a few — `-x == x` also holds for the width's minimum, `x + c <
//! x` whenever the sum wraps, `x / c * c == x` only for multiples. When comparison operands
//! are drawn independently, an operand compared with a function of *itself* almost never
//! happens (issue 15: a seeded `-x == x` → `x == 0` went unfound for 300 s).
//!
//! Invariants: `x` is an integer expression of the comparison's type that is not a
//! constant (a constant would be folded before a pass could misjudge it), so at run time
//! it is a slot load, a memory load or a value in scope — the places interesting values
//! reach; the function of `x` goes through `emit_safe_bin`, so divisions and shifts stay
//! defined; the result is an `i8` 0 or 1 defined at the current point.

use super::function::FnGen;
use crate::gen::arith::{emit_safe_bin, DivisorGuard};
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, CmpPred, IrType, Operand, UnOp};

/// The functions of `x` a self-relation compares `x` with.
#[derive(Clone, Copy)]
enum Relative {
    Neg,
    Not,
    /// `x op c` for an arithmetic `op` and an interesting constant `c`.
    WithConst(BinOp),
    /// `(x >> k) << k` (arithmetic or logical right shift).
    ShiftRoundTrip(BinOp),
    /// `x / c * c` (signed or unsigned division).
    DivRoundTrip(BinOp),
}

impl FnGen<'_, '_> {
    /// `x PRED f(x)` or `f(x) PRED x`, mostly with `eq`/`ne` (the identities) and
    /// sometimes an ordering (the overflow rewrites).
    pub(super) fn self_relation(&mut self, ty: IrType, depth: u32) -> Result<Operand> {
        let mut x = self.expr(ty, depth)?;
        if x.as_value().is_none() {
            x = self.runtime_leaf(ty)?;
        }
        let relative = match self.u.weighted(&[4, 1, 3, 1, 1])? {
            0 => Relative::Neg,
            1 => Relative::Not,
            2 => {
                let ops = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Xor, BinOp::Or];
                Relative::WithConst(ops[self.u.index(ops.len())?])
            }
            3 => Relative::ShiftRoundTrip(if self.u.chance(50)? {
                BinOp::AShr
            } else {
                BinOp::LShr
            }),
            _ => Relative::DivRoundTrip(if self.u.chance(50)? {
                BinOp::SDiv
            } else {
                BinOp::UDiv
            }),
        };
        let fx = self.relative_of(relative, ty, x)?;
        let pred = if self.u.chance(70)? {
            if self.u.chance(50)? {
                CmpPred::Eq
            } else {
                CmpPred::Ne
            }
        } else {
            CmpPred::ALL[self.u.index(CmpPred::ALL.len())?]
        };
        let (lhs, rhs) = if self.u.chance(50)? { (x, fx) } else { (fx, x) };
        let v = self.b.cmp(pred, ty, lhs, rhs);
        self.define(v, IrType::I8);
        Ok(v.into())
    }

    /// A value of type `ty` known only at run time: a value in scope or a slot load,
    /// falling back to an expression (which may still fold) when the function has neither.
    fn runtime_leaf(&mut self, ty: IrType) -> Result<Operand> {
        for _ in 0..4 {
            let leaf = self.leaf(ty)?;
            if leaf.as_value().is_some() {
                return Ok(leaf);
            }
        }
        self.expr(ty, 1)
    }

    /// Emits `f(x)` for the chosen relative.
    fn relative_of(&mut self, relative: Relative, ty: IrType, x: Operand) -> Result<Operand> {
        let v = match relative {
            Relative::Neg => self.b.un(UnOp::Neg, ty, x),
            Relative::Not => self.b.un(UnOp::Not, ty, x),
            Relative::WithConst(op) => {
                let c = konst(ty, interesting(self.u, ty)?);
                emit_safe_bin(&mut self.b, op, ty, x, c, DivisorGuard::Masked)
            }
            Relative::ShiftRoundTrip(right) => {
                let k = konst(ty, i64::from(self.u.between(1, ty.max_size() * 8 - 1)?));
                let down = emit_safe_bin(&mut self.b, right, ty, x, k, DivisorGuard::Masked);
                self.define(down, ty);
                emit_safe_bin(
                    &mut self.b,
                    BinOp::Shl,
                    ty,
                    down.into(),
                    k,
                    DivisorGuard::Masked,
                )
            }
            Relative::DivRoundTrip(div) => {
                let c = konst(ty, interesting(self.u, ty)?);
                let guard = DivisorGuard::pick(self.u, div)?;
                let q = emit_safe_bin(&mut self.b, div, ty, x, c, guard);
                self.define(q, ty);
                // The multiplier is the divisor as the guard left it only when the guard
                // kept it; any constant keeps the comparison defined, and the interesting
                // ones are those where `q * c` can differ from `x`.
                emit_safe_bin(
                    &mut self.b,
                    BinOp::Mul,
                    ty,
                    q.into(),
                    c,
                    DivisorGuard::Masked,
                )
            }
        };
        self.define(v, ty);
        Ok(v.into())
    }
}
