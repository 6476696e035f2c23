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

use super::assign::CompoundOperands;
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
        if self.ub_checks() {
            self.check_sequenced(e);
        }
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

    // Every arm calls a separate function: the frame of this one stays small, and the
    // recursion through it (bounded by `MAX_DEPTH`) fits a test thread's 2 MiB stack.
    fn rvalue_inner(&mut self, e: &Expr) -> Res<RVal> {
        match &e.kind {
            ExprKind::IntLit(bits) => self.int_lit(*bits, e),
            ExprKind::FloatLit(x) => {
                let t = self.ir_type_of(e)?;
                Ok(RVal::Scalar(super::float::float_const(t, *x), t))
            }
            ExprKind::Str(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Member { .. }
            | ExprKind::CompoundLiteral(..) => self.load_expr(e),
            ExprKind::Func(_) => Err(self.err(e.loc, "a function is used as a value")),
            ExprKind::Cast(inner) => self.lower_cast(inner, &e.ty.ty, e.loc),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => self.addr_value(inner),
            ExprKind::Unary(op, a) => self.unary(*op, a, e),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e),
            ExprKind::PtrAdd {
                ptr,
                index,
                elem_size,
            } => self.ptr_add(ptr, index, *elem_size),
            ExprKind::PtrDiff {
                lhs,
                rhs,
                elem_size,
            } => self.ptr_diff(lhs, rhs, *elem_size, e),
            ExprKind::LogAnd(..) | ExprKind::LogOr(..) => self.logical_value(e),
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, e),
            ExprKind::Comma(a, b) => self.comma(a, b),
            ExprKind::Assign(lhs, rhs) => self.assign(lhs, rhs, e),
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                compute_ty,
                ptr_elem_size,
                lhs_wrap,
            } => {
                let operands = CompoundOperands {
                    lhs,
                    rhs,
                    compute_ty,
                    ptr_elem_size: *ptr_elem_size,
                    lhs_wrap: *lhs_wrap,
                };
                self.compound_assign(*op, operands, e)
            }
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
            ExprKind::StmtExpr { body, value } => self.stmt_expr(body, value.as_deref(), e),
        }
    }

    fn int_lit(&mut self, bits: u64, e: &Expr) -> Res<RVal> {
        let t = self.ir_type_of(e)?;
        Ok(RVal::Scalar(literal(t, t.canonicalize(bits, 8) as i64), t))
    }

    fn addr_value(&mut self, inner: &Expr) -> Res<RVal> {
        // `&a[i]` and a decaying `m[i]` form an address only: one past the end is valid.
        self.address_only = true;
        let a = self.address_of(inner);
        self.address_only = false;
        let a = a?;
        Ok(RVal::Scalar(a, IrType::Ptr))
    }

    fn comma(&mut self, a: &Expr, b: &Expr) -> Res<RVal> {
        self.rvalue(a)?;
        self.rvalue(b)
    }

    fn ptr_add(&mut self, ptr: &Expr, index: &Expr, elem_size: u64) -> Res<RVal> {
        let (p, _) = self.scalar(ptr)?;
        let (i, it) = self.scalar(index)?;
        if let Some(len) = super::trailing_arrays::checked_array_len(&self.ctx.unit.records, ptr) {
            // Arithmetic on an array's own elements stays within it or one past it.
            self.check_index(i, it, len, true);
        }
        let r = self.ptr_offset(p, i, it, elem_size);
        self.check_derived_pointer(ptr, r, false);
        Ok(RVal::Scalar(r, IrType::Ptr))
    }

    fn ptr_diff(&mut self, lhs: &Expr, rhs: &Expr, elem_size: u64, e: &Expr) -> Res<RVal> {
        let t = self.ir_type_of(e)?;
        let (a, _) = self.scalar(lhs)?;
        let (b, _) = self.scalar(rhs)?;
        self.check_pointer_pair(true, a, b);
        let ai = self.cast(IrType::Ptr, a, t);
        let bi = self.cast(IrType::Ptr, b, t);
        let d = self.bin(BinOp::Sub, t, ai, bi);
        let r = if elem_size > 1 {
            // Seeded bug `LowerPtrDiffUnsignedDivide`: the difference divided unsigned.
            let div = if crate::mutants::enabled(crate::mutants::Mutant::LowerPtrDiffUnsignedDivide)
            {
                BinOp::UDiv
            } else {
                BinOp::SDiv
            };
            self.bin(div, t, d, exact(t, elem_size as i64))
        } else {
            d
        };
        Ok(RVal::Scalar(r, t))
    }

    /// `&&` / `||` as a value: through a slot, 1 on the true path, 0 on the false one.
    fn logical_value(&mut self, e: &Expr) -> Res<RVal> {
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
            UnaryOp::Neg => Ok(RVal::Scalar(self.c_neg(t, v), t)),
            UnaryOp::BitNot => {
                let dest = self.value();
                self.emit(crate::ir::Inst::Un {
                    dest,
                    op: UnOp::Not,
                    ty: t,
                    src: v,
                });
                Ok(RVal::Scalar(Operand::Value(dest), t))
            }
            UnaryOp::LogNot => {
                let rt = self.ir_type_of(e)?;
                let c = if t.is_float() {
                    self.float_is_zero(t, v)
                } else {
                    self.cmp(CmpPred::Eq, t, v, exact(t, 0))
                };
                Ok(RVal::Scalar(self.cast(IrType::I8, c, rt), rt))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, e: &Expr) -> Res<RVal> {
        if op.is_comparison() {
            let rt = self.ir_type_of(e)?;
            let c = self.compare(op, a, b)?;
            return Ok(RVal::Scalar(self.cast(IrType::I8, c, rt), rt));
        }
        let ((x, t), (y, yt)) = if is_commutative(op) {
            self.operands_gcc_order(a, b)?
        } else {
            (self.scalar(a)?, self.scalar(b)?)
        };
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

    /// The values of `a` and `b` of a commutative operation or a comparison, evaluated in
    /// the order gcc -O0 uses. C leaves the order unspecified, and csmith programs do
    /// contain operands whose calls change a variable the other operand reads; gcc's
    /// `fold` puts a plain variable operand last (`tree_swap_operands_p`: "put
    /// variables last", after stripping same-width conversions), so `h + f()` reads `h`
    /// after calling `f`, while `h - f()` and `*p + f()` read first.
    fn operands_gcc_order(
        &mut self,
        a: &Expr,
        b: &Expr,
    ) -> Res<((Operand, IrType), (Operand, IrType))> {
        if self.is_plain_variable(a) && !self.is_plain_variable(b) && !is_constant(b) {
            let y = self.scalar(b)?;
            let x = self.scalar(a)?;
            Ok((x, y))
        } else {
            Ok((self.scalar(a)?, self.scalar(b)?))
        }
    }

    /// A variable named directly, under conversions that keep the width (gcc's
    /// `STRIP_NOPS` then `DECL_P`).
    fn is_plain_variable(&self, e: &Expr) -> bool {
        let mut e = e;
        loop {
            match &e.kind {
                ExprKind::Local(_) | ExprKind::Global(_) => return true,
                ExprKind::Cast(inner) => {
                    let (from, to) = (
                        scalar_type(self.ctx.target, &inner.ty.ty),
                        scalar_type(self.ctx.target, &e.ty.ty),
                    );
                    match (from, to) {
                        (Ok(f), Ok(t))
                            if f.size(self.ctx.ptr_bytes) == t.size(self.ctx.ptr_bytes)
                                && f.is_float() == t.is_float()
                                && !matches!(e.ty.ty, Type::Bool) =>
                        {
                            e = inner
                        }
                        _ => return false,
                    }
                }
                _ => return false,
            }
        }
    }

    /// A comparison of `a` and `b` (of one common type) as the `i8` 0/1 of `cmp`.
    pub fn compare(&mut self, op: BinaryOp, a: &Expr, b: &Expr) -> Res<Operand> {
        let ((x, t), (y, yt)) = self.operands_gcc_order(a, b)?;
        if t.is_float() {
            let y = self.cast(yt, y, t);
            return Ok(self.fcmp(super::float::float_predicate(op), t, x, y));
        }
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
        if t == IrType::Ptr && !matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            self.check_pointer_pair(false, x, y);
        }
        Ok(self.cmp(pred, t, x, y))
    }

    /// An arithmetic or bitwise operation in IR type `t` (signedness from `t`).
    pub fn arith(&mut self, op: BinaryOp, t: IrType, x: Operand, y: Operand) -> Operand {
        if t.is_float() {
            return self.float_arith(op, t, x, y);
        }
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
        self.c_bin(bop, t, x, y)
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

/// The operations gcc's `fold` may reorder (commutative ones; comparisons are handled
/// by `compare`).
fn is_commutative(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Add | BinaryOp::Mul | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
    )
}

/// The length of the array `e` decays from (`Decay(array of N)`, N > 0), if it is one.
pub fn decayed_array_len(e: &Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Decay(inner) => match &inner.ty.ty {
            Type::Array(_, Some(n)) if *n > 0 => Some(*n),
            _ => None,
        },
        _ => None,
    }
}

/// An integer constant, possibly converted.
fn is_constant(e: &Expr) -> bool {
    let mut e = e;
    loop {
        match &e.kind {
            ExprKind::IntLit(_) | ExprKind::FloatLit(_) => return true,
            ExprKind::Cast(inner) => e = inner,
            _ => return false,
        }
    }
}
