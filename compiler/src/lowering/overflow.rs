//! `__builtin_{add,sub,mul}_overflow(a, b, &r)` and their `_p` forms
//! (`frontend/parse/overflow_builtins.rs` checked and typed the call).
//!
//! Why it exists: the result must be the infinite-precision `a op b`, tested against
//! the result type's range, for operands and results of any integer types, and the IR
//! has no type wider than 64 bits. This file computes it exactly with 64-bit
//! instructions only, so the oracle, every pass and every backend see ordinary IR.
//!
//! The rule, and how it is computed:
//! - Each operand is extended to 64 bits by its own signedness (`A`, `B`) and given a
//!   high word `hA` (`hB`): all ones for a negative signed operand, else 0. `hA:A` is the
//!   operand exactly, as a 128-bit two's complement number.
//! - The 128-bit result `hi:lo` is computed modulo 2^128 with 64-bit operations:
//!   add: `lo = A + B`, `hi = hA + hB + (lo <u A)`; sub: `lo = A - B`,
//!   `hi = hA - hB - (A <u B)`; mul: the unsigned 64×64→128 product of `A` and `B` from
//!   four 32×32→64 partial products, then `hi -= (hA & B) + (hB & A)` (the cross terms
//!   of the sign words; `hA·hB·2^128` vanishes modulo 2^128). Every exact result lies in
//!   (-2^127, 2^128): the only values that wrap are products of two unsigned operands at
//!   or above 2^127, and those wrap to below -2^64, which fits no result type — so the
//!   test below is exact for all of them.
//! - The result fits the result type `T` (width `w` ≤ 64) exactly when `lo` converted to
//!   `T` and back to 64 bits (by `T`'s signedness) is `lo` again, and `hi` is the sign
//!   word `T` implies (`lo >>s 63` for a signed `T`, 0 for an unsigned one). The builtin
//!   yields 1 when it does not fit; `*r` receives `lo` converted to `T` either way.
//! - Arguments are evaluated as gcc -O0 does: `a`, `b`, the pointer; for `_p`, the third
//!   argument first (its value unused), then `a`, `b`.

use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::scalar_type;
use crate::frontend::ast::Expr;
use crate::frontend::parse::overflow_builtins::overflow_builtin;
use crate::frontend::types::Type;
use crate::ir::{BinOp, CmpPred, IrType, Operand};

/// A 128-bit two's complement number as two 64-bit words (`U64` values).
struct Wide {
    hi: Operand,
    lo: Operand,
}

/// Whether a direct call to `name` is one of the checked arithmetic builtins.
pub(crate) fn is_overflow_builtin(name: &str) -> bool {
    overflow_builtin(name).is_some()
}

impl FnLower<'_, '_> {
    pub(crate) fn overflow_builtin(&mut self, name: &str, args: &[Expr], e: &Expr) -> Res<RVal> {
        let (Some((op, only_p)), [a, b, third]) = (overflow_builtin(name), args) else {
            return Err(self.err(e.loc, format!("internal error: malformed call to '{name}'")));
        };
        let result_ty = match (&third.ty.ty, only_p) {
            (t, true) => t.clone(),
            (Type::Pointer(p), false) => p.ty.clone(),
            _ => return Err(self.err(third.loc, "internal error: no result type")),
        };
        let rt = scalar_type(self.ctx.target, &result_ty).map_err(|m| self.err(third.loc, m))?;
        if only_p {
            self.rvalue(third)?;
        }
        let x = self.wide_operand(a)?;
        let y = self.wide_operand(b)?;
        let ptr = if only_p {
            None
        } else {
            Some(self.scalar(third)?.0)
        };
        let r = match op {
            "add" => self.wide_add(&x, &y),
            "sub" => self.wide_sub(&x, &y),
            _ => self.wide_mul(&x, &y),
        };
        let stored = self.cast(IrType::U64, r.lo, rt);
        let back = self.cast(rt, stored, IrType::U64);
        let sign_word = if rt.is_signed() {
            self.sign_word(r.lo)
        } else {
            u64c(0)
        };
        let low_differs = self.cmp(CmpPred::Ne, IrType::U64, back, r.lo);
        let high_differs = self.cmp(CmpPred::Ne, IrType::U64, r.hi, sign_word);
        let overflow = self.bin(BinOp::Or, IrType::I8, low_differs, high_differs);
        if let Some(ptr) = ptr {
            self.store(rt, stored, ptr);
        }
        Ok(RVal::Scalar(
            self.cast(IrType::I8, overflow, IrType::U8),
            IrType::U8,
        ))
    }

    /// An operand as `hA:A` (module doc).
    fn wide_operand(&mut self, e: &Expr) -> Res<Wide> {
        let (v, t) = self.scalar(e)?;
        let lo = self.cast(t, v, IrType::U64);
        let hi = if t.is_signed() {
            self.sign_word(lo)
        } else {
            u64c(0)
        };
        Ok(Wide { hi, lo })
    }

    /// All ones when bit 63 of `v` (a `U64`) is set, else 0.
    fn sign_word(&mut self, v: Operand) -> Operand {
        let s = self.cast(IrType::U64, v, IrType::I64);
        let w = self.bin(BinOp::AShr, IrType::I64, s, u64c(63));
        self.cast(IrType::I64, w, IrType::U64)
    }

    /// A comparison result (`i8` 0/1) as a `U64` 0/1.
    fn flag_word(&mut self, flag: Operand) -> Operand {
        self.cast(IrType::I8, flag, IrType::U64)
    }

    fn wide_add(&mut self, x: &Wide, y: &Wide) -> Wide {
        let lo = self.bin(BinOp::Add, IrType::U64, x.lo, y.lo);
        let carry = self.cmp(CmpPred::Ult, IrType::U64, lo, x.lo);
        let carry = self.flag_word(carry);
        let hi = self.bin(BinOp::Add, IrType::U64, x.hi, y.hi);
        let hi = self.bin(BinOp::Add, IrType::U64, hi, carry);
        Wide { hi, lo }
    }

    fn wide_sub(&mut self, x: &Wide, y: &Wide) -> Wide {
        let lo = self.bin(BinOp::Sub, IrType::U64, x.lo, y.lo);
        let borrow = self.cmp(CmpPred::Ult, IrType::U64, x.lo, y.lo);
        let borrow = self.flag_word(borrow);
        let hi = self.bin(BinOp::Sub, IrType::U64, x.hi, y.hi);
        let hi = self.bin(BinOp::Sub, IrType::U64, hi, borrow);
        Wide { hi, lo }
    }

    fn wide_mul(&mut self, x: &Wide, y: &Wide) -> Wide {
        let u = IrType::U64;
        let mask = u64c(0xffff_ffff);
        let a0 = self.bin(BinOp::And, u, x.lo, mask);
        let a1 = self.bin(BinOp::LShr, u, x.lo, u64c(32));
        let b0 = self.bin(BinOp::And, u, y.lo, mask);
        let b1 = self.bin(BinOp::LShr, u, y.lo, u64c(32));
        let p00 = self.bin(BinOp::Mul, u, a0, b0);
        let p01 = self.bin(BinOp::Mul, u, a0, b1);
        let p10 = self.bin(BinOp::Mul, u, a1, b0);
        let p11 = self.bin(BinOp::Mul, u, a1, b1);
        // mid < 3 * 2^32: no wrap.
        let p00_hi = self.bin(BinOp::LShr, u, p00, u64c(32));
        let p01_lo = self.bin(BinOp::And, u, p01, mask);
        let p10_lo = self.bin(BinOp::And, u, p10, mask);
        let mid = self.bin(BinOp::Add, u, p00_hi, p01_lo);
        let mid = self.bin(BinOp::Add, u, mid, p10_lo);
        let mid_lo = self.bin(BinOp::Shl, u, mid, u64c(32));
        let p00_lo = self.bin(BinOp::And, u, p00, mask);
        let lo = self.bin(BinOp::Or, u, mid_lo, p00_lo);
        let p01_hi = self.bin(BinOp::LShr, u, p01, u64c(32));
        let p10_hi = self.bin(BinOp::LShr, u, p10, u64c(32));
        let mid_hi = self.bin(BinOp::LShr, u, mid, u64c(32));
        let hi = self.bin(BinOp::Add, u, p11, p01_hi);
        let hi = self.bin(BinOp::Add, u, hi, p10_hi);
        let hi = self.bin(BinOp::Add, u, hi, mid_hi);
        // The sign words' cross terms.
        let xs = self.bin(BinOp::And, u, x.hi, y.lo);
        let ys = self.bin(BinOp::And, u, y.hi, x.lo);
        let hi = self.bin(BinOp::Sub, u, hi, xs);
        let hi = self.bin(BinOp::Sub, u, hi, ys);
        Wide { hi, lo }
    }
}

/// A `U64` constant.
fn u64c(v: u64) -> Operand {
    super::builder::exact(IrType::U64, v as i64)
}
