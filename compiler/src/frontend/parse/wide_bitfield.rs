//! gcc's arithmetic on bit-fields wider than `int`.
//!
//! Why: gcc gives a bit-field wider than `int` but narrower than its declared type (say
//! `unsigned long long f : 40`) a type of exactly its width, and the integer promotions
//! leave it there, so `s.f + 1` is computed in 40 bits: with `s.f == 0xFFFFFFFFFF` it is
//! 0 under gcc, while in the declared type it would be 0x10000000000. phicc's types have
//! no N-bit integers; it keeps the declared type and reproduces gcc's *values* instead.
//!
//! Invariants (gcc 12's rules, checked against its output by `corpus/c/bitfield_wide.c`):
//! - gcc's common type of two operands is the one of greater precision, the unsigned one
//!   when they tie; a wide bit-field's precision is its width, any other operand's the
//!   width of its promoted type;
//! - when that common type is an *unsigned* wide bit-field of width N, the converted
//!   operands and the result of `+ - * & | ^ / %` are reduced modulo 2^N; the operands
//!   of a comparison, the arms of `?:` and both operands of a compound assignment
//!   (the right one here, the left one, evaluated once, by the lowering as
//!   `CompoundAssign::lhs_wrap` says; the store reduces the result) too; the result of
//!   `~`, unary `-` and `<<` of such an operand too.
//!   A *signed* one needs no reduction: its values are those of the declared type unless
//!   the arithmetic overflows, which is undefined behaviour. But it must be computed
//!   *signed*: when it wins over a narrower unsigned wide bit-field (`s.b < s.c`, signed
//!   36 and unsigned 33 bits, compares signed in gcc) C's rule on the declared types
//!   (`long long`, `unsigned long long`) would pick the unsigned one, so phicc computes
//!   in the declared type's signed counterpart (`gcc_arith_type`), which holds every
//!   value of both operands;
//! - the *result* of an operation whose common type is a wide bit-field type has that
//!   type too (signed or not): `+ - * / % & | ^` and `?:` when gcc's common type of
//!   their operands (arms) is one, `~`, unary `-` and `+` and both shifts of an operand
//!   of one. So a further operation on it is again reduced modulo 2^N, and its precision N
//!   again decides the next common type (`(s.c + 0) + s.a`, 33 and 40 bits, is computed
//!   in 40 bits; `(s.b * 1) < s.a`, signed 36 and unsigned 40 bits, compares unsigned).
//!   phicc carries it in `Expr::wide_bitfield_type`, set only by the operations above
//!   (`with_wide_type`); a member read is recognised by its shape, a comma by its right
//!   operand, an assignment, compound assignment or `++`/`--` by its bit-field operand;
//!   a cast (which builds a new node) removes it, as in gcc;
//! - only the value is gcc's; the expression's type stays the declared one (so
//!   `_Generic`-like uses see the declared type: a known difference). `sizeof` and
//!   `__alignof__` of a value that is a bit-field's follow gcc's mode size instead
//!   (`Parser::sizeof_operand_type`).

use super::convert::cast_to;
use super::Parser;
use crate::frontend::ast::{BinaryOp, Expr, ExprKind};
use crate::frontend::types::Type;

impl Parser<'_> {
    /// `(width, signed)` when the value of `e` has gcc's type of a bit-field wider than
    /// `int` and narrower than its declared integer type: it reads one, or it is the
    /// result of an operation computed in one (see the module doc).
    pub(crate) fn wide_bitfield(&self, e: &Expr) -> Option<(u32, bool)> {
        if e.wide_bitfield_type.is_some() {
            return e.wide_bitfield_type;
        }
        if let ExprKind::Comma(_, value) = &e.kind {
            return self.wide_bitfield(value);
        }
        let width = self.value_bitfield_width(e)?;
        let ty = &e.ty.ty;
        if !ty.is_integer() {
            return None;
        }
        let int_bits = 8 * self.target.sizeof_int();
        let declared_bits = 8 * ty.size(self.target, &self.records)? as u32;
        (width > int_bits && width < declared_bits).then(|| (width, ty.is_signed(self.target)))
    }

    /// gcc's precision and signedness of operand `e` after the integer promotions.
    fn gcc_precision(&self, e: &Expr) -> Option<(u32, bool)> {
        if let Some(wide) = self.wide_bitfield(e) {
            return Some(wide);
        }
        let ty = self.promoted_type(e);
        let bits = 8 * ty.size(self.target, &self.records)? as u32;
        Some((bits, ty.is_signed(self.target)))
    }

    /// `(width, signed)` when gcc's common type of `a` and `b` (before conversion) is a
    /// wide bit-field type.
    pub(crate) fn wide_common(&self, a: &Expr, b: &Expr) -> Option<(u32, bool)> {
        let wa = self.wide_bitfield(a);
        let wb = self.wide_bitfield(b);
        if wa.is_none() && wb.is_none() {
            return None;
        }
        let (pa, sa) = self.gcc_precision(a)?;
        let (pb, sb) = self.gcc_precision(b)?;
        let (from_wide, signed) = if pa > pb {
            (wa.is_some(), sa)
        } else if pb > pa {
            (wb.is_some(), sb)
        } else {
            (wa.is_some() || wb.is_some(), sa && sb)
        };
        from_wide.then_some((pa.max(pb), signed))
    }

    /// The type phicc computes `a op b` in: the usual arithmetic conversions' one, made
    /// signed when gcc's common type is a signed wide bit-field type (see the module doc).
    pub(crate) fn gcc_arith_type(&self, a: &Expr, b: &Expr) -> Type {
        let ty = self.common_arith_type(&self.promoted_type(a), &self.promoted_type(b));
        match (self.wide_common(a, b), ty) {
            (Some((_, true)), Type::Int(kind)) => Type::Int(kind.to_signed()),
            (_, ty) => ty,
        }
    }

    /// The usual arithmetic conversions as gcc applies them when a wide bit-field is
    /// involved: both operands converted to `gcc_arith_type` and reduced modulo 2^N when
    /// the common type is an unsigned N-bit one; with that type and gcc's wide type of
    /// the result, if any.
    pub(crate) fn gcc_usual_arith(&self, a: Expr, b: Expr) -> GccOperands {
        let wide = self.wide_common(&a, &b);
        let ty = self.gcc_arith_type(&a, &b);
        let wrap = unsigned_width(wide);
        GccOperands {
            lhs: reduce_if(cast_to(a, &ty), wrap),
            rhs: reduce_if(cast_to(b, &ty), wrap),
            ty,
            wide,
        }
    }

    /// The width N when gcc's common type of `a` and `b` (before conversion) is an
    /// unsigned N-bit bit-field type.
    pub(crate) fn unsigned_wide_common(&self, a: &Expr, b: &Expr) -> Option<u32> {
        unsigned_width(self.wide_common(a, b))
    }
}

/// Two operands after `gcc_usual_arith`.
pub(crate) struct GccOperands {
    pub(crate) lhs: Expr,
    pub(crate) rhs: Expr,
    /// The type both are converted to.
    pub(crate) ty: Type,
    /// gcc's wide bit-field type of their common type, if it is one.
    pub(crate) wide: Option<(u32, bool)>,
}

/// The width of a wide bit-field type when it is unsigned (only those need reducing).
pub(crate) fn unsigned_width(wide: Option<(u32, bool)>) -> Option<u32> {
    wide.and_then(|(width, signed)| (!signed).then_some(width))
}

/// `e` marked as having gcc's wide bit-field type `wide` (when given): the result of an
/// operation computed in that type.
pub(crate) fn with_wide_type(mut e: Expr, wide: Option<(u32, bool)>) -> Expr {
    if wide.is_some() {
        e.wide_bitfield_type = wide;
    }
    e
}

/// `e & (2^width - 1)` in `e`'s type (a 64-bit integer type: wide bit-fields are narrower
/// than their declared type, which is wider than `int`).
pub(crate) fn reduce_modulo(e: Expr, width: u32) -> Expr {
    let ty = e.ty.ty.clone();
    let loc = e.loc;
    let mask = Expr::new(ExprKind::IntLit((1u64 << width) - 1), ty.clone(), loc);
    Expr::new(
        ExprKind::Binary(BinaryOp::BitAnd, Box::new(e), Box::new(mask)),
        ty,
        loc,
    )
}

/// `reduce_modulo` when `width` is given.
pub(crate) fn reduce_if(e: Expr, width: Option<u32>) -> Expr {
    match width {
        Some(w) => reduce_modulo(e, w),
        None => e,
    }
}
