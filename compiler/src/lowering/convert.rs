//! Conversions (`Cast` nodes): integer to integer, to `_Bool`, integer to and from
//! pointers, pointer to pointer, to `void`, and with a floating type on either side.
//!
//! Why: the parser made every conversion explicit; this file gives each its IR meaning.
//! An IR `cast` truncates or extends by the *source* type's signedness (the oracle
//! canonicalizes the source's canonical value to the destination type), which is exactly
//! C's rule for integer conversions and gcc's for integer <-> pointer conversions of
//! different widths. Conversion to `_Bool` is `!= 0`, never a truncation.
//!
//! Invariants: constant operands are folded (a literal stays a literal, so
//! `(unsigned char)300` is the literal 44); a conversion with a float on either side is
//! an IR `cast` (`float.rs`: folded only when the result is certain, so an out-of-range
//! float-to-integer conversion stays a `cast` the oracle judges undefined); a float
//! converted to `_Bool` is `!= 0.0` (a NaN is true).
//!
//! Seeded bug: [`crate::mutants::Mutant::LowerU16WidenSignExtends`].

use super::builder::{const_value, literal};
use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::scalar_type;
use crate::frontend::ast::Expr;
use crate::frontend::types::Type;
use crate::frontend::Loc;
use crate::ir::{CmpPred, IrType, Operand};

impl FnLower<'_, '_> {
    /// `Cast(inner)` to `to`.
    pub fn lower_cast(&mut self, inner: &Expr, to: &Type, loc: Loc) -> Res<RVal> {
        if let Type::Void = to {
            self.rvalue(inner)?;
            return Ok(RVal::Void);
        }
        if to.is_record() {
            // A record "converted" to its own type (the parser's assignment conversion).
            return self.rvalue(inner);
        }
        let (v, from) = self.scalar(inner)?;
        let to_ir = scalar_type(self.ctx.target, to).map_err(|m| self.err(loc, m))?;
        Ok(RVal::Scalar(self.convert(v, from, to, to_ir), to_ir))
    }

    /// Converts scalar `v` of IR type `from` to C type `to` (IR type `to_ir`).
    pub fn convert(&mut self, v: Operand, from: IrType, to: &Type, to_ir: IrType) -> Operand {
        if let Type::Bool = to {
            return self.truth_value(v, from);
        }
        if from.is_float() || to_ir.is_float() {
            return self.float_cast(from, v, to_ir);
        }
        if let Operand::Const(c) = v {
            let value = const_value(c, from, self.ctx.ptr_bytes);
            return literal(to_ir, to_ir.canonicalize(value as u64, 8) as i64);
        }
        if from == IrType::U16
            && to_ir.bits(self.ctx.ptr_bytes) > 16
            && crate::mutants::enabled(crate::mutants::Mutant::LowerU16WidenSignExtends)
        {
            // Seeded bug: widened through `i16`, so the extension copies bit 15.
            let narrow = self.cast(from, v, IrType::I16);
            return self.cast(IrType::I16, narrow, to_ir);
        }
        self.cast(from, v, to_ir)
    }

    /// `v != 0` as a `_Bool` (`u8` 0 or 1).
    pub fn truth_value(&mut self, v: Operand, from: IrType) -> Operand {
        if from.is_float() {
            let c = self.float_nonzero(from, v);
            return self.cast(IrType::I8, c, IrType::U8);
        }
        if let Operand::Const(c) = v {
            let value = const_value(c, from, self.ctx.ptr_bytes);
            return literal(IrType::U8, i64::from(value != 0));
        }
        let zero = super::builder::exact(from, 0);
        let c = self.cmp(CmpPred::Ne, from, v, zero);
        self.cast(IrType::I8, c, IrType::U8)
    }
}
