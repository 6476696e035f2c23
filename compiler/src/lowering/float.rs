//! `float` and `double` in the lowering: literals, arithmetic, comparisons, truth values
//! and conversions with a floating type on either side (docs/c-floats.md).
//!
//! Why: floats have their own IR opcodes (`fadd`, `fneg`, `fcmp`, `cast`), so every
//! integer path of the lowering (`expr`, `convert`, `assign`, `branch`) hands a float
//! operation to this one file instead of growing a second case in each place.
//!
//! Invariants:
//! - a float constant operand always has exactly its position's type (`f32` or `f64`,
//!   never an `:i64` literal: the IR never converts a float constant implicitly);
//! - C's `== < <= > >=` are `oeq olt ole ogt oge` and `!=` is `une` (so `x != x` is true
//!   for a NaN); a float's truth value is `x une 0.0`, `!x` is `x oeq 0.0`;
//! - the only folding done here is what cannot differ from the target: a conversion of a
//!   constant whose result is not a NaN and is in range (`eval_float::eval_float_cast`,
//!   the constant folder's own function), and `fneg` of a constant (a sign flip). An
//!   out-of-range float-to-integer conversion stays a `cast` (undefined at run time, judged
//!   by the oracle). Arithmetic on constants is left to the passes' folder.

use super::builder::const_value;
use super::expr::RVal;
use super::function::{FnLower, Res};
use crate::frontend::ast::{BinaryOp, Expr, ExprKind};
use crate::ir::eval_float::{eval_float_cast, is_nan};
use crate::ir::{FBinOp, FCmpPred, Inst, IrConst, IrType, Operand};

/// The constant `x` in float type `t` (`f32` constants are rounded from `x`, which the
/// front end already holds exactly as a `float` when its type is `float`).
pub fn float_const(t: IrType, x: f64) -> Operand {
    if t == IrType::F32 {
        Operand::Const(IrConst::f32(x as f32))
    } else {
        Operand::Const(IrConst::f64(x))
    }
}

/// The IR predicate of C comparison `op` on floats.
pub fn float_predicate(op: BinaryOp) -> FCmpPred {
    match op {
        BinaryOp::Eq => FCmpPred::Oeq,
        // Mutant `LowerFloatNeOrdered`: the ordered twin, false for a NaN operand.
        BinaryOp::Ne if crate::mutants::enabled(crate::mutants::Mutant::LowerFloatNeOrdered) => {
            FCmpPred::One
        }
        BinaryOp::Ne => FCmpPred::Une,
        BinaryOp::Lt => FCmpPred::Olt,
        BinaryOp::Le => FCmpPred::Ole,
        BinaryOp::Gt => FCmpPred::Ogt,
        _ => FCmpPred::Oge,
    }
}

impl FnLower<'_, '_> {
    /// `__builtin_inf()`, `__builtin_huge_val()` (+infinity) or, with `nan`,
    /// `__builtin_nan("")` (the default quiet NaN, as gcc folds it), in the call's type
    /// (`double`, or `float` for the `f` forms). A NaN with a payload string is refused.
    pub fn float_constant_builtin(
        &mut self,
        nan: bool,
        name: &str,
        args: &[Expr],
        e: &Expr,
    ) -> Res<RVal> {
        let t =
            super::types::scalar_type(self.ctx.target, &e.ty.ty).map_err(|m| self.err(e.loc, m))?;
        let expected = usize::from(nan);
        if args.len() != expected || !t.is_float() {
            return Err(self.err(
                e.loc,
                format!("call to the builtin `{name}` with arguments of the wrong type"),
            ));
        }
        if nan && !self.is_empty_string(&args[0]) {
            return Err(self.err(
                args[0].loc,
                format!("`{name}` with a payload is not supported by phicc (only \"\")"),
            ));
        }
        let raw = if nan {
            crate::ir::eval_float::default_nan(t)
        } else if t == IrType::F32 {
            u64::from(f32::INFINITY.to_bits())
        } else {
            f64::INFINITY.to_bits()
        };
        let k = IrConst::float_bits(t, raw).ok_or_else(|| self.err(e.loc, "not a float type"))?;
        Ok(RVal::Scalar(Operand::Const(k), t))
    }

    /// `e` is the string literal `""` (possibly decayed and converted).
    fn is_empty_string(&self, e: &Expr) -> bool {
        let mut e = e;
        loop {
            match &e.kind {
                ExprKind::Decay(inner) | ExprKind::Cast(inner) => e = inner,
                ExprKind::Str(id) => {
                    let bytes = self.ctx.unit.strings.get(id.0 as usize);
                    return bytes.is_some_and(|b| b.iter().all(|&c| c == 0));
                }
                _ => return false,
            }
        }
    }

    /// `fcmp pred t x, y` (an `i8` 0 or 1).
    pub fn fcmp(&mut self, pred: FCmpPred, t: IrType, x: Operand, y: Operand) -> Operand {
        let dest = self.value();
        self.emit(Inst::FCmp {
            dest,
            pred,
            ty: t,
            lhs: x,
            rhs: y,
        });
        Operand::Value(dest)
    }

    /// C's `x op y` in float type `t` for an arithmetic `op` (`+ - * /`; the parser lets
    /// no other operator reach a float).
    pub fn float_arith(&mut self, op: BinaryOp, t: IrType, x: Operand, y: Operand) -> Operand {
        let op = match op {
            BinaryOp::Sub => FBinOp::FSub,
            BinaryOp::Mul => FBinOp::FMul,
            BinaryOp::Div => FBinOp::FDiv,
            _ => FBinOp::FAdd,
        };
        let dest = self.value();
        self.emit(Inst::FBin {
            dest,
            op,
            ty: t,
            lhs: x,
            rhs: y,
        });
        Operand::Value(dest)
    }

    /// C's unary `-` on a float: `fneg` (a constant's sign bit is flipped here).
    pub fn float_neg(&mut self, t: IrType, v: Operand) -> Operand {
        if let Operand::Const(c) = v {
            let sign = if t == IrType::F32 {
                1u64 << 31
            } else {
                1u64 << 63
            };
            if let Some(k) = IrConst::float_bits(t, c.bits as u64 ^ sign) {
                return Operand::Const(k);
            }
        }
        let dest = self.value();
        self.emit(Inst::FNeg {
            dest,
            ty: t,
            src: v,
        });
        Operand::Value(dest)
    }

    /// `v != 0.0` as an `i8` 0 or 1 (`une`: a NaN is true, as in C).
    pub fn float_nonzero(&mut self, t: IrType, v: Operand) -> Operand {
        self.fcmp(FCmpPred::Une, t, v, float_const(t, 0.0))
    }

    /// `v == 0.0` as an `i8` 0 or 1 (C's `!v`).
    pub fn float_is_zero(&mut self, t: IrType, v: Operand) -> Operand {
        self.fcmp(FCmpPred::Oeq, t, v, float_const(t, 0.0))
    }

    /// `cast from v to to` with a float on at least one side; a constant is folded when
    /// the result is certain (in range, not a NaN).
    pub fn float_cast(&mut self, from: IrType, v: Operand, to: IrType) -> Operand {
        if from == to {
            return v;
        }
        if let Operand::Const(c) = v {
            let raw = if from.is_float() {
                c.bits as u64
            } else {
                const_value(c, from, self.ctx.ptr_bytes) as u64
            };
            if let Ok(r) = eval_float_cast(from, to, raw) {
                if !is_nan(to, r) {
                    if let Some(k) = IrConst::float_bits(to, r) {
                        return Operand::Const(k);
                    }
                    return Operand::Const(IrConst::new(to, r as i64));
                }
            }
        }
        let dest = self.value();
        self.emit(Inst::Cast {
            dest,
            from,
            src: v,
            to,
        });
        Operand::Value(dest)
    }
}
