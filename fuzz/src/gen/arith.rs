//! Arithmetic that cannot go wrong at run time.
//!
//! Why: a generated program whose reference run is undefined is thrown away, and one that
//! traps stops early; both waste a generation. Division and shifts are the operations
//! that can do either, so their right operands are sanitized here, in the generated code,
//! the way a careful C programmer would (`d & 0x7f | 1`, `s & (width - 1)`).
//!
//! Invariants of [`emit_safe_bin`]:
//! - a divisor (`sdiv udiv srem urem`) is in 1..=127 (or, for unsigned ops, odd): never 0,
//!   never -1, so neither division by zero nor MIN / -1 can happen;
//! - a shift amount is in `0..width`;
//! - constant right operands are sanitized at generation time (no extra instructions);
//! - every operand keeps the instruction's type.

use super::builder::FuncBuilder;
use compiler::ir::{BinOp, IrConst, IrType, Operand, Value};

/// Emits `op ty lhs, rhs` with the right operand made safe for `op`.
pub fn emit_safe_bin(
    b: &mut FuncBuilder,
    op: BinOp,
    ty: IrType,
    lhs: Operand,
    rhs: Operand,
    unsigned_odd_divisor: bool,
) -> Value {
    let rhs = if op.can_trap() {
        safe_divisor(b, op, ty, rhs, unsigned_odd_divisor)
    } else if op.is_shift() {
        safe_shift_amount(b, ty, rhs)
    } else {
        rhs
    };
    b.bin(op, ty, lhs, rhs)
}

/// A divisor that is never 0 and never -1 at type `ty`. Signed ops get `(d & 0x7f) | 1`;
/// unsigned ops may get just `d | 1` when `unsigned_odd_divisor` (odd, hence non-zero, and
/// an unsigned division cannot overflow).
fn safe_divisor(
    b: &mut FuncBuilder,
    op: BinOp,
    ty: IrType,
    d: Operand,
    unsigned_odd_divisor: bool,
) -> Operand {
    let unsigned_op = matches!(op, BinOp::UDiv | BinOp::URem);
    let only_odd = unsigned_op && unsigned_odd_divisor;
    match d {
        Operand::Const(c) => {
            let v = if only_odd {
                c.bits | 1
            } else {
                (c.bits & 0x7f) | 1
            };
            Operand::Const(IrConst::new(ty, v))
        }
        Operand::Value(_) => {
            let masked = if only_odd {
                d
            } else {
                b.bin(BinOp::And, ty, d, Operand::Const(IrConst::new(ty, 0x7f)))
                    .into()
            };
            b.bin(BinOp::Or, ty, masked, Operand::Const(IrConst::new(ty, 1)))
                .into()
        }
    }
}

/// A shift amount in `0..width(ty)`.
fn safe_shift_amount(b: &mut FuncBuilder, ty: IrType, s: Operand) -> Operand {
    let mask = ty.bits(8) as i64 - 1;
    match s {
        Operand::Const(c) => Operand::Const(IrConst::new(ty, c.bits & mask)),
        Operand::Value(_) => b
            .bin(BinOp::And, ty, s, Operand::Const(IrConst::new(ty, mask)))
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::builder::BlockCounter;
    use compiler::ir::{konst, Inst};

    fn last_rhs(b: FuncBuilder) -> Vec<Inst> {
        let f = b.finish("f".into(), vec![], IrType::Void, Default::default());
        f.blocks[0].insts.clone()
    }

    #[test]
    fn constant_divisors_are_folded_safe() {
        let mut ids = BlockCounter::default();
        let mut b = FuncBuilder::new(&mut ids);
        emit_safe_bin(
            &mut b,
            BinOp::SDiv,
            IrType::I8,
            konst(IrType::I8, 5),
            konst(IrType::I8, -1),
            false,
        );
        emit_safe_bin(
            &mut b,
            BinOp::SRem,
            IrType::I32,
            konst(IrType::I32, 5),
            konst(IrType::I32, 0),
            false,
        );
        emit_safe_bin(
            &mut b,
            BinOp::Shl,
            IrType::U16,
            konst(IrType::U16, 5),
            konst(IrType::U16, 17),
            false,
        );
        let insts = last_rhs(b);
        // -1 & 0x7f | 1 = 127; 0 & 0x7f | 1 = 1; 17 & 15 = 1 — worked by hand.
        let rhs: Vec<i64> = insts
            .iter()
            .map(|i| match i {
                Inst::Bin {
                    rhs: Operand::Const(c),
                    ..
                } => c.bits,
                _ => panic!("expected a constant rhs"),
            })
            .collect();
        assert_eq!(rhs, vec![127, 1, 1]);
        assert_eq!(insts.len(), 3);
    }

    #[test]
    fn value_divisors_get_mask_and_or() {
        let mut ids = BlockCounter::default();
        let mut b = FuncBuilder::new(&mut ids);
        let d = b.fresh();
        emit_safe_bin(
            &mut b,
            BinOp::UDiv,
            IrType::U32,
            konst(IrType::U32, 9),
            d.into(),
            true,
        );
        emit_safe_bin(
            &mut b,
            BinOp::SDiv,
            IrType::I64,
            konst(IrType::I64, 9),
            d.into(),
            true,
        );
        let insts = last_rhs(b);
        let ops: Vec<BinOp> = insts
            .iter()
            .map(|i| match i {
                Inst::Bin { op, .. } => *op,
                _ => panic!(),
            })
            .collect();
        // udiv with the odd option: or, udiv. sdiv always: and, or, sdiv.
        assert_eq!(
            ops,
            vec![BinOp::Or, BinOp::UDiv, BinOp::And, BinOp::Or, BinOp::SDiv]
        );
    }
}
