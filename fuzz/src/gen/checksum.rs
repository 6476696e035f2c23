//! The checksum a generated function returns.
//!
//! Why: a miscompile is only seen if it changes what the program returns or prints. The
//! generated functions fold every live value they own into one `i64` (an FNV-style
//! multiply-xor), so a single wrong bit anywhere changes the result.
//!
//! Invariants: only integer operations on `i64`; narrower values are cast (by their own
//! signedness) to `i64` first; a float is folded by its bits (`gen::floats::
//! emit_float_bits`, a NaN as +0.0); `ptr` values are never folded (their numbers are not
//! comparable between runs); the empty fold is a fixed constant.

use super::builder::FuncBuilder;
use compiler::ir::{konst, BinOp, IrType, Operand};

/// FNV-1a 64-bit offset basis and prime.
const BASIS: i64 = 0xcbf2_9ce4_8422_2325_u64 as i64;
const PRIME: i64 = 0x0000_0100_0000_01b3;

/// Emits the fold of `items` and returns the `i64` operand holding it.
pub fn emit_checksum(b: &mut FuncBuilder, items: &[(Operand, IrType)]) -> Operand {
    let mut h: Operand = konst(IrType::I64, BASIS);
    for &(v, ty) in items {
        // A float enters by its bits (a NaN as +0.0: `gen::floats` says why).
        let (v, ty) = if ty.is_float() {
            (super::floats::emit_float_bits(b, ty, v), IrType::I64)
        } else {
            (v, ty)
        };
        if !ty.is_integer() {
            continue;
        }
        let wide: Operand = if ty == IrType::I64 {
            v
        } else {
            b.cast(ty, v, IrType::I64).into()
        };
        let x = b.bin(BinOp::Xor, IrType::I64, h, wide);
        h = b
            .bin(BinOp::Mul, IrType::I64, x.into(), konst(IrType::I64, PRIME))
            .into();
    }
    h
}

/// `h` (an `i64`) brought to `ty` for returning; `None` for `void`.
pub fn narrow_result(b: &mut FuncBuilder, h: Operand, ty: IrType) -> Option<(IrType, Operand)> {
    match ty {
        IrType::Void => None,
        IrType::I64 => Some((ty, h)),
        t if t.is_integer() => Some((t, b.cast(IrType::I64, h, t).into())),
        // Functions never return pointers; a null is the safe answer.
        t => Some((t, konst(t, 0))),
    }
}
