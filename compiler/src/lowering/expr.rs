//! Rvalues: what an expression computes.
//!
//! Why: the central dispatch over `ExprKind`; each kind with more than a few lines of
//! meaning lives in its own file (`convert`, `lvalue`, `assign`, `calls`, `branch`).
//!
//! Invariants: a scalar rvalue is an operand with its IR type (the C type's, from
//! `types::scalar_type`); a record rvalue is the address of bytes holding the record,
//! valid until the next side effect of the enclosing full expression (users copy it at
//! once); `&&`, `||` and `?:` go through a temporary slot, so no value crosses a block
//! boundary except through memory or a dominating definition.

use super::builder::{exact, literal};
use super::function::{FnLower, Res};
use super::types::{repr, scalar_type, Repr};
use crate::frontend::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::frontend::types::Type;
use crate::ir::{BinOp, CmpPred, IrType, Operand, UnOp};

/// The value of an expression.
#[derive(Clone, Copy, Debug)]
pub enum RVal {
    Scalar(Operand, IrType),
    /// The address of a record's bytes.
    Record(Operand),
    Void,
}

impl FnLower<'_, '_> {
    /// The value of `e`.
    pub fn rvalue(&mut self, e: &Expr) -> Res<RVal> {
        self.enter(e.loc)?;
        let r = self.rvalue_inner(e);
        self.leave();
        r
    }

    /// The value of a scalar expression.
    pub fn scalar(&mut self, e: &Expr) -> Res<(Operand, IrType)> {
        match self.rvalue(e)? {
            RVal::Scalar(v, t) => Ok((v, t)),
            RVal::Record(_) => Err(self.err(e.loc, "a struct or union is used as a scalar")),
            RVal::Void => Err(self.err(e.loc, "a void value is used")),
        }
    }

    /// The address of the bytes of a record-typed expression.
    pub fn record_value(&mut self, e: &Expr) -> Res<Operand> {
        match self.rvalue(e)? {
            RVal::Record(a) => Ok(a),
            _ => Err(self.err(e.loc, "expected a struct or union value")),
        }
    }

    fn ir_type_of(&self, e: &Expr) -> Res<IrType> {
        scalar_type(self.ctx.target, &e.ty.ty).map_err(|m| self.err(e.loc, m))
    }

    fn rvalue_inner(&mut self, e: &Expr) -> Res<RVal> {
        if matches!(e.ty.ty, Type::Float(_)) {
            return Err(self.err(e.loc, "floating-point arithmetic is not supported yet"));
        }
        match &e.kind {
            ExprKind::IntLit(bits) => {
                let t = self.ir_type_of(e)?;
                Ok(RVal::Scalar(literal(t, t.canonicalize(*bits, 8) as i64), t))
            }
            ExprKind::FloatLit(_) => {
                Err(self.err(e.loc, "floating-point arithmetic is not supported yet"))
            }
            ExprKind::Str(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Member { .. } => self.load_expr(e),
            ExprKind::Func(_) => Err(self.err(e.loc, "a function is used as a value")),
            ExprKind::Cast(inner) => self.lower_cast(inner, &e.ty.ty, e.loc),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => {
                let a = self.address_of(inner)?;
                Ok(RVal::Scalar(a, IrType::Ptr))
            }
            ExprKind::Unary(op, a) => self.unary(*op, a, e),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e),
            ExprKind::PtrAdd {
                ptr,
                index,
                elem_size,
            } => {
                let (p, _) = self.scalar(ptr)?;
                let (i, it) = self.scalar(index)?;
                let r = self.ptr_offset(p, i, it, *elem_size);
                Ok(RVal::Scalar(r, IrType::Ptr))
            }
            ExprKind::PtrDiff {
                lhs,
                rhs,
                elem_size,
            } => {
                let t = self.ir_type_of(e)?;
                let (a, _) = self.scalar(lhs)?;
                let (b, _) = self.scalar(rhs)?;
                let ai = self.cast(IrType::Ptr, a, t);
                let bi = self.cast(IrType::Ptr, b, t);
                let d = self.bin(BinOp::Sub, t, ai, bi);
                let r = if *elem_size > 1 {
                    self.bin(BinOp::SDiv, t, d, exact(t, *elem_size as i64))
                } else {
                    d
                };
                Ok(RVal::Scalar(r, t))
            }
            ExprKind::LogAnd(..) | ExprKind::LogOr(..) => {
                // Through a slot: 1 on the true path, 0 on the false one.
                let slot = self.temp(IrType::I32, 4, 4);
                let (t, f, join) = (self.new_label(), self.new_label(), self.new_label());
                self.cond_branch(e, t, f)?;
                self.start(t);
                self.store(IrType::I32, exact(IrType::I32, 1), slot);
                self.br(join);
                self.start(f);
                self.store(IrType::I32, exact(IrType::I32, 0), slot);
                self.br(join);
                self.start(join);
                let v = self.load(IrType::I32, slot);
                Ok(RVal::Scalar(v, IrType::I32))
            }
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, e),
            ExprKind::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            ExprKind::Assign(lhs, rhs) => self.assign(lhs, rhs, e),
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                compute_ty,
                ptr_elem_size,
            } => self.compound_assign(*op, lhs, rhs, compute_ty, *ptr_elem_size, e),
            ExprKind::IncDec {
                op,
                operand,
                ptr_elem_size,
            } => self.inc_dec(*op, operand, *ptr_elem_size, e),
            ExprKind::Call {
                callee,
                args,
                fn_ty,
            } => self.call(callee, args, fn_ty, e),
        }
    }

    /// `p + i * elem_size` for an index `i` of IR type `it`.
    pub fn ptr_offset(&mut self, p: Operand, i: Operand, it: IrType, elem_size: u64) -> Operand {
        let size = elem_size as i64;
        if let Operand::Const(c) = i {
            let idx = super::builder::const_value(c, it, self.ctx.ptr_bytes);
            return self.gep(p, idx.wrapping_mul(size));
        }
        let wide = self.cast(it, i, IrType::I64);
        let off = if size == 1 {
            wide
        } else {
            self.bin(BinOp::Mul, IrType::I64, wide, exact(IrType::I64, size))
        };
        let dest = self.value();
        self.emit(crate::ir::Inst::Gep {
            dest,
            base: p,
            offset: off,
        });
        Operand::Value(dest)
    }

    fn unary(&mut self, op: UnaryOp, a: &Expr, e: &Expr) -> Res<RVal> {
        let (v, t) = self.scalar(a)?;
        match op {
            UnaryOp::Neg | UnaryOp::BitNot => {
                let un = if op == UnaryOp::Neg {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                let dest = self.value();
                self.emit(crate::ir::Inst::Un {
                    dest,
                    op: un,
                    ty: t,
                    src: v,
                });
                Ok(RVal::Scalar(Operand::Value(dest), t))
            }
            UnaryOp::LogNot => {
                let rt = self.ir_type_of(e)?;
                let c = self.cmp(CmpPred::Eq, t, v, exact(t, 0));
                Ok(RVal::Scalar(self.cast(IrType::I8, c, rt), rt))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> Res<RVal> {
        let (x, t) = self.scalar(a)?;
        let (y, yt) = self.scalar(b)?;
        if op.is_comparison() {
            let signed = t.is_signed();
            let pred = match op {
                BinaryOp::Eq => CmpPred::Eq,
                BinaryOp::Ne => CmpPred::Ne,
                BinaryOp::Lt if signed => CmpPred::Slt,
                BinaryOp::Lt => CmpPred::Ult,
                BinaryOp::Le if signed => CmpPred::Sle,
                BinaryOp::Le => CmpPred::Ule,
                BinaryOp::Gt if signed => CmpPred::Sgt,
                BinaryOp::Gt => CmpPred::Ugt,
                BinaryOp::Ge if signed => CmpPred::Sge,
                _ => CmpPred::Uge,
            };
            let y = self.cast(yt, y, t);
            let rt = self.ir_type_of(e)?;
            let c = self.cmp(pred, t, x, y);
            return Ok(RVal::Scalar(self.cast(IrType::I8, c, rt), rt));
        }
        let rt = self.ir_type_of(e)?;
        let x = self.cast(t, x, rt);
        // Shifts: the amount is converted to the left operand's type.
        let y = if let (Operand::Const(c), true) = (y, op.is_shift()) {
            let n = super::builder::const_value(c, yt, self.ctx.ptr_bytes);
            literal(rt, rt.canonicalize(n as u64, 8) as i64)
        } else {
            self.cast(yt, y, rt)
        };
        let r = self.arith(op, rt, x, y);
        Ok(RVal::Scalar(r, rt))
    }

    /// An arithmetic or bitwise operation in IR type `t` (signedness from `t`).
    pub fn arith(&mut self, op: BinaryOp, t: IrType, x: Operand, y: Operand) -> Operand {
        let signed = t.is_signed();
        let bop = match op {
            BinaryOp::Add => BinOp::Add,
            BinaryOp::Sub => BinOp::Sub,
            BinaryOp::Mul => BinOp::Mul,
            BinaryOp::Div if signed => BinOp::SDiv,
            BinaryOp::Div => BinOp::UDiv,
            BinaryOp::Rem if signed => BinOp::SRem,
            BinaryOp::Rem => BinOp::URem,
            BinaryOp::BitAnd => BinOp::And,
            BinaryOp::BitOr => BinOp::Or,
            BinaryOp::BitXor => BinOp::Xor,
            BinaryOp::Shl => BinOp::Shl,
            BinaryOp::Shr if signed => BinOp::AShr,
            _ => BinOp::LShr,
        };
        self.bin(bop, t, x, y)
    }

    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, e: &Expr) -> Res<RVal> {
        let (t, f, join) = (self.new_label(), self.new_label(), self.new_label());
        let rep = repr(self.ctx, &e.ty.ty).map_err(|m| self.err(e.loc, m))?;
        let slot = match rep {
            Repr::Scalar(ty) => {
                let size = u64::from(ty.size(self.ctx.ptr_bytes));
                Some((self.temp(ty, size, size as u32), ty))
            }
            Repr::Record(_) => {
                let pb = self.ctx.ptr_bytes;
                Some((self.temp(IrType::Ptr, u64::from(pb), pb), IrType::Ptr))
            }
            Repr::Void => None,
        };
        self.cond_branch(c, t, f)?;
        for (label, arm) in [(t, a), (f, b)] {
            self.start(label);
            let v = self.rvalue(arm)?;
            if let Some((slot, ty)) = slot {
                let v = match v {
                    RVal::Scalar(v, _) => v,
                    RVal::Record(addr) => addr,
                    RVal::Void => return Err(self.err(arm.loc, "a void value is used")),
                };
                self.store(ty, v, slot);
            }
            self.br(join);
        }
        self.start(join);
        Ok(match (slot, rep) {
            (Some((slot, ty)), Repr::Scalar(_)) => RVal::Scalar(self.load(ty, slot), ty),
            (Some((slot, _)), _) => RVal::Record(self.load(IrType::Ptr, slot)),
            (None, _) => RVal::Void,
        })
    }
}
