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
//!   of a comparison, the arms of `?:` and the right operand of a compound assignment
//!   (whose result the store reduces) too; the result of `~`, unary `-` and `<<` of
//!   such an operand too.
//!   A *signed* one needs nothing: its values are those of the declared type unless the
//!   arithmetic overflows, which is undefined behaviour;
//! - only the value is gcc's; the expression's type stays the declared one (so `sizeof`
//!   and `_Generic`-like uses see the declared type — a known difference).

use super::Parser;
use crate::frontend::ast::{BinaryOp, Expr, ExprKind};

impl Parser<'_> {
    /// `(width, signed)` when `e` reads a bit-field wider than `int` and narrower than
    /// its declared integer type.
    pub(crate) fn wide_bitfield(&self, e: &Expr) -> Option<(u32, bool)> {
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

    /// The width N when gcc's common type of `a` and `b` (before conversion) is an
    /// unsigned N-bit bit-field type.
    pub(crate) fn unsigned_wide_common(&self, a: &Expr, b: &Expr) -> Option<u32> {
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
        let width = pa.max(pb);
        (from_wide && !signed).then_some(width)
    }

    /// The width N when `e`, promoted, is an unsigned N-bit bit-field type.
    pub(crate) fn unsigned_wide(&self, e: &Expr) -> Option<u32> {
        self.wide_bitfield(e)
            .and_then(|(width, signed)| (!signed).then_some(width))
    }
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
