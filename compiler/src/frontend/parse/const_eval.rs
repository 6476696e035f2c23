//! Evaluation of constant expressions (C99 6.6) over the typed AST: integer constant
//! expressions, arithmetic constant expressions and address constants.
//!
//! Why it exists: array sizes, case labels, bit-field widths, enum values and static
//! initializers need values at compile time, computed with the exact semantics of the
//! operand types on the TARGET (wrapping at the type's width, signedness of `>>`, `/`
//! and comparisons). Invariants:
//! - An integer result is the mathematical value of the C value: the bits truncated to
//!   the expression type's width, then sign- or zero-extended by its signedness.
//! - Anything C does not make constant (a load, a call, an assignment, a comma, a
//!   division by zero, a shift count out of range) gives `None`, never a panic.
//! - Recursion follows the AST, whose depth the parser bounds.

use super::convert::is_lvalue;
use super::Parser;
use crate::frontend::ast::{BinaryOp, Expr, ExprKind, RelocTarget, UnaryOp};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::{FloatKind, Type};

/// The value of a constant expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    /// An integer (or pointer-typed null/integer) value, mathematically (sign- or
    /// zero-extended from its type).
    Int(i128),
    Float(f64),
    /// An address constant: `target`'s address plus `offset` bytes.
    Addr {
        target: RelocTarget,
        offset: i64,
    },
}

impl ConstValue {
    /// Truth value for `!`, `&&`, `||`, `?:` (an address constant is never null).
    fn truth(&self) -> bool {
        match self {
            ConstValue::Int(v) => *v != 0,
            ConstValue::Float(f) => *f != 0.0,
            ConstValue::Addr { .. } => true,
        }
    }
}

impl Parser<'_> {
    /// Evaluates a constant expression (integer constant expression, arithmetic constant
    /// expression, or address constant, C99 6.6); `None` when it is not constant.
    pub(crate) fn eval_const(&self, expr: &Expr) -> Option<ConstValue> {
        self.eval(expr)
    }

    /// The value of an integer constant expression of integer type, or `None`.
    pub(crate) fn eval_int_const(&self, expr: &Expr) -> Option<i128> {
        if !expr.ty.ty.is_integer() {
            return None;
        }
        match self.eval(expr)? {
            ConstValue::Int(v) => Some(v),
            _ => None,
        }
    }

    /// constant-expression: conditional-expression, evaluated as an integer constant
    /// expression. Returns its mathematical value (an `unsigned long long` fits) and
    /// where it started; an error if it is not an integer constant expression.
    pub(crate) fn parse_int_constant_expr(&mut self) -> Result<(i128, Loc), Diagnostic> {
        let loc = self.loc();
        let e = self.parse_cond_expr()?;
        let e = self.rvalue(e);
        if !e.ty.ty.is_integer() {
            return Err(self.error_at(loc, "integer constant expression has non-integer type"));
        }
        match self.eval_int_const(&e) {
            Some(v) => Ok((v, loc)),
            None => Err(self.error_at(loc, "expression is not an integer constant expression")),
        }
    }

    /// Truncates `v` to the width of the integer or pointer type `ty` and extends it back
    /// by the type's signedness.
    pub(crate) fn wrap_to(&self, v: i128, ty: &Type) -> Option<i128> {
        let (bits, signed) = match ty {
            Type::Bool => return Some((v != 0) as i128),
            Type::Int(k) => (k.size(self.target) * 8, k.is_signed(self.target)),
            Type::Pointer(_) => (self.target.sizeof_pointer() as u64 * 8, false),
            _ => return None,
        };
        Some(wrap_bits(v, bits as u32, signed))
    }

    fn eval(&self, e: &Expr) -> Option<ConstValue> {
        use ConstValue::{Addr, Float, Int};
        match &e.kind {
            ExprKind::IntLit(v) => Some(Int(self.wrap_to(*v as i128, &e.ty.ty)?)),
            ExprKind::FloatLit(f) => Some(Float(*f)),
            ExprKind::Cast(inner) => self.eval_cast(self.eval(inner)?, &inner.ty.ty, &e.ty.ty),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => self.eval_addr(inner),
            ExprKind::Unary(op, a) => match (op, self.eval(a)?) {
                (UnaryOp::LogNot, v) => Some(Int(!v.truth() as i128)),
                (UnaryOp::Neg, Int(v)) => Some(Int(self.wrap_to(v.wrapping_neg(), &e.ty.ty)?)),
                (UnaryOp::Neg, Float(f)) => Some(Float(-f)),
                (UnaryOp::BitNot, Int(v)) => Some(Int(self.wrap_to(!v, &e.ty.ty)?)),
                _ => None,
            },
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                match (x, y) {
                    (Int(x), Int(y)) => self.eval_int_binary(*op, x, y, &a.ty.ty, &e.ty.ty),
                    (Float(x), Float(y)) => eval_float_binary(*op, x, y, &e.ty.ty),
                    _ => None,
                }
            }
            ExprKind::LogAnd(a, b) => {
                if !self.eval(a)?.truth() {
                    Some(Int(0))
                } else {
                    Some(Int(self.eval(b)?.truth() as i128))
                }
            }
            ExprKind::LogOr(a, b) => {
                if self.eval(a)?.truth() {
                    Some(Int(1))
                } else {
                    Some(Int(self.eval(b)?.truth() as i128))
                }
            }
            ExprKind::Cond(c, a, b) => {
                if self.eval(c)?.truth() {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            ExprKind::PtrAdd {
                ptr,
                index,
                elem_size,
            } => {
                let Int(i) = self.eval(index)? else {
                    return None;
                };
                let step = i.checked_mul(*elem_size as i128)?;
                match self.eval(ptr)? {
                    Addr { target, offset } => Some(Addr {
                        target,
                        offset: i64::try_from((offset as i128).checked_add(step)?).ok()?,
                    }),
                    Int(p) => Some(Int(self.wrap_to(p.wrapping_add(step), &e.ty.ty)?)),
                    Float(_) => None,
                }
            }
            ExprKind::PtrDiff {
                lhs,
                rhs,
                elem_size,
            } => {
                let size = (*elem_size).max(1) as i128;
                let diff = match (self.eval(lhs)?, self.eval(rhs)?) {
                    (
                        Addr {
                            target: t1,
                            offset: o1,
                        },
                        Addr {
                            target: t2,
                            offset: o2,
                        },
                    ) if t1 == t2 => o1 as i128 - o2 as i128,
                    (Int(x), Int(y)) => x - y,
                    _ => return None,
                };
                Some(Int(self.wrap_to(diff / size, &e.ty.ty)?))
            }
            _ => None,
        }
    }

    /// The address of a constant lvalue (`g`, `g.f`, `*(p + 2)`, `"s"`, a function).
    fn eval_addr(&self, lv: &Expr) -> Option<ConstValue> {
        match &lv.kind {
            ExprKind::Global(id) => Some(ConstValue::Addr {
                target: RelocTarget::Global(*id),
                offset: 0,
            }),
            ExprKind::Str(id) => Some(ConstValue::Addr {
                target: RelocTarget::String(*id),
                offset: 0,
            }),
            ExprKind::Func(name) => Some(ConstValue::Addr {
                target: RelocTarget::Function(name.clone()),
                offset: 0,
            }),
            ExprKind::Deref(p) => match self.eval(p)? {
                v @ (ConstValue::Addr { .. } | ConstValue::Int(_)) => Some(v),
                ConstValue::Float(_) => None,
            },
            ExprKind::Member {
                base,
                record,
                field,
            } => {
                let def = self.records.records.get(record.0 as usize)?;
                let f = def.fields.get(*field)?;
                if f.bitfield.is_some() {
                    return None;
                }
                // The address of a scalar stored in reverse order (gcc refuses it) is not
                // an address constant; an offset (`offsetof`) still is.
                let mut inner = &f.ty.ty;
                while let Type::Array(e, _) = inner {
                    inner = &e.ty;
                }
                let reversed_scalar = def.reverse_order
                    && !inner.is_record()
                    && inner.size(self.target, &self.records) != Some(1);
                let off = f.offset as i64;
                let base_addr = if is_lvalue(base) {
                    self.eval_addr(base)?
                } else {
                    return None;
                };
                match base_addr {
                    ConstValue::Addr { .. } if reversed_scalar => None,
                    ConstValue::Addr { target, offset } => Some(ConstValue::Addr {
                        target,
                        offset: offset.checked_add(off)?,
                    }),
                    ConstValue::Int(v) => Some(ConstValue::Int(v + off as i128)),
                    ConstValue::Float(_) => None,
                }
            }
            _ => None,
        }
    }

    fn eval_cast(&self, v: ConstValue, from: &Type, to: &Type) -> Option<ConstValue> {
        use ConstValue::{Addr, Float, Int};
        match to {
            Type::Bool => Some(Int(v.truth() as i128)),
            Type::Int(k) => match v {
                Int(x) => Some(Int(self.wrap_to(x, to)?)),
                Float(f) => {
                    // C99 6.3.1.4: truncation; out of range is undefined, not constant.
                    if !f.is_finite() {
                        return None;
                    }
                    let t = f.trunc();
                    let bits = k.size(self.target) * 8;
                    let (lo, hi) = if k.is_signed(self.target) {
                        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
                    } else {
                        (0.0, 2f64.powi(bits as i32))
                    };
                    if t < lo || t >= hi {
                        return None;
                    }
                    Some(Int(t as i128))
                }
                Addr { .. } => {
                    // Only a pointer-sized integer can hold an address constant.
                    (k.size(self.target) >= self.target.sizeof_pointer() as u64).then_some(v)
                }
            },
            Type::Pointer(_) => match v {
                Int(x) => Some(Int(self.wrap_to(x, to)?)),
                Addr { .. } => Some(v),
                Float(_) => None,
            },
            Type::Float(k) => {
                let f = match v {
                    // One rounding, straight to float (through double it could round
                    // twice: gcc gives (float)1152921573326323713LL as 0x1.000002p+60).
                    Int(x) if *k == FloatKind::Float => x as f32 as f64,
                    Int(x) => x as f64,
                    Float(f) => f,
                    Addr { .. } => return None,
                };
                let _ = from;
                Some(Float(if *k == FloatKind::Float {
                    f as f32 as f64
                } else {
                    f
                }))
            }
            _ => None,
        }
    }

    fn eval_int_binary(
        &self,
        op: BinaryOp,
        x: i128,
        y: i128,
        operand_ty: &Type,
        ty: &Type,
    ) -> Option<ConstValue> {
        let r = match op {
            BinaryOp::Add => x.wrapping_add(y),
            BinaryOp::Sub => x.wrapping_sub(y),
            BinaryOp::Mul => x.wrapping_mul(y),
            BinaryOp::Div => {
                if y == 0 {
                    return None;
                }
                x.wrapping_div(y)
            }
            BinaryOp::Rem => {
                if y == 0 {
                    return None;
                }
                x.wrapping_rem(y)
            }
            BinaryOp::BitAnd => x & y,
            BinaryOp::BitOr => x | y,
            BinaryOp::BitXor => x ^ y,
            BinaryOp::Shl | BinaryOp::Shr => {
                let bits = match operand_ty {
                    Type::Int(k) => k.size(self.target) * 8,
                    _ => return None,
                };
                if y < 0 || y >= bits as i128 {
                    return None;
                }
                if op == BinaryOp::Shl {
                    ((x as u128) << y) as i128
                } else {
                    x >> y
                }
            }
            BinaryOp::Eq => (x == y) as i128,
            BinaryOp::Ne => (x != y) as i128,
            BinaryOp::Lt => (x < y) as i128,
            BinaryOp::Le => (x <= y) as i128,
            BinaryOp::Gt => (x > y) as i128,
            BinaryOp::Ge => (x >= y) as i128,
        };
        Some(ConstValue::Int(self.wrap_to(r, ty)?))
    }
}

fn eval_float_binary(op: BinaryOp, x: f64, y: f64, ty: &Type) -> Option<ConstValue> {
    let b = |c: bool| Some(ConstValue::Int(c as i128));
    let r = match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div => x / y,
        BinaryOp::Eq => return b(x == y),
        BinaryOp::Ne => return b(x != y),
        BinaryOp::Lt => return b(x < y),
        BinaryOp::Le => return b(x <= y),
        BinaryOp::Gt => return b(x > y),
        BinaryOp::Ge => return b(x >= y),
        _ => return None,
    };
    // Each operation in its own type (an f32 operation computed in f64 and rounded once
    // to f32 is the correctly rounded f32 result: 53 >= 2*24+2); a NaN is the IR's
    // default NaN (positive), whatever sign the host's division produced.
    // Mutant `ConstEvalFloatKeptInDouble`: the `float` result keeps double precision.
    let keep = crate::mutants::enabled(crate::mutants::Mutant::ConstEvalFloatKeptInDouble);
    let r = if *ty == Type::Float(FloatKind::Float) && !keep {
        r as f32 as f64
    } else {
        r
    };
    Some(ConstValue::Float(if r.is_nan() { f64::NAN } else { r }))
}

/// Truncates `v` to `bits` (1..=64) and sign- or zero-extends it back.
pub(crate) fn wrap_bits(v: i128, bits: u32, signed: bool) -> i128 {
    let bits = bits.clamp(1, 64);
    let mask: u128 = if bits == 64 {
        u64::MAX as u128
    } else {
        (1u128 << bits) - 1
    };
    let u = (v as u128) & mask;
    if signed && (u >> (bits - 1)) & 1 == 1 {
        (u | !mask) as i128
    } else {
        u as i128
    }
}
