//! Arithmetic that cannot go wrong at run time.
//!
//! Why: a generated program whose reference run is undefined is thrown away, and one that
//! traps stops early; both waste a generation. Division and shifts are the operations
//! that can do either, so their right operands are sanitized here, in the generated code,
//! the way a careful C programmer would (`d & 0x7f | 1`, `s & (width - 1)`).
//!
//! Divisors are where rewrites go wrong (a power of two turned into a shift, MIN divided,
//! a divisor of MAX), so a guard must not throw those values away: [`DivisorGuard`] says
//! how each division keeps its divisor safe, and only `Masked` narrows it to 1..=127.
//!
//! Invariants of [`emit_safe_bin`]:
//! - a divisor (`sdiv udiv srem urem`) is never 0, and for signed ops never -1, so neither
//!   division by zero nor MIN / -1 can happen: `Masked` gives 1..=127, `Odd` (unsigned
//!   ops) `d | 1`, `Replace` keeps `d` and puts 1 in place of 0 (and -1 for signed ops);
//!   constant divisors keep their value unless it is one of those (then 1, or -2 for a
//!   signed -1);
//! - a shift amount is in `0..width`;
//! - constant right operands are sanitized at generation time (no extra instructions);
//! - every operand keeps the instruction's type.

use super::builder::FuncBuilder;
use compiler::ir::{BinOp, CmpPred, IrConst, IrType, Operand, Value};

/// How a division keeps a value divisor away from 0 (and from -1 when signed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivisorGuard {
    /// `(d & 0x7f) | 1`: small and odd (the only form before interesting values).
    Masked,
    /// `d | 1` for unsigned ops (every high bit survives); `Masked` for signed ops.
    Odd,
    /// `select (d == 0 | d == -1), 1, d` (signed) or `select d == 0, 1, d`: every other
    /// value reaches the division unchanged, powers of two and MIN included.
    Replace,
}

impl DivisorGuard {
    /// The guard for `op`, drawn from fuzzer bytes (the value-keeping `Replace` most
    /// often) only when `op` divides: other operations consume no byte for it.
    pub fn pick(u: &mut arbitrary::Unstructured, op: BinOp) -> arbitrary::Result<DivisorGuard> {
        use super::choice::Pick;
        if !op.can_trap() {
            return Ok(DivisorGuard::Masked);
        }
        Ok(match u.weighted(&[2, 3, 5])? {
            0 => DivisorGuard::Masked,
            1 => DivisorGuard::Odd,
            _ => DivisorGuard::Replace,
        })
    }
}

/// Emits `op ty lhs, rhs` with the right operand made safe for `op`.
pub fn emit_safe_bin(
    b: &mut FuncBuilder,
    op: BinOp,
    ty: IrType,
    lhs: Operand,
    rhs: Operand,
    guard: DivisorGuard,
) -> Value {
    let rhs = if op.can_trap() {
        safe_divisor(b, op, ty, rhs, guard)
    } else if op.is_shift() {
        safe_shift_amount(b, ty, rhs)
    } else {
        rhs
    };
    b.bin(op, ty, lhs, rhs)
}

/// A divisor that is never 0, and never -1 for a signed op, at type `ty`, kept as close to
/// `d` as `guard` allows.
fn safe_divisor(
    b: &mut FuncBuilder,
    op: BinOp,
    ty: IrType,
    d: Operand,
    guard: DivisorGuard,
) -> Operand {
    let signed_op = matches!(op, BinOp::SDiv | BinOp::SRem);
    let minus_one = IrConst::new(ty, -1).bits;
    match d {
        Operand::Const(c) => {
            let v = if c.bits == 0 {
                1
            } else if signed_op && c.bits == minus_one {
                -2
            } else {
                c.bits
            };
            Operand::Const(IrConst::new(ty, v))
        }
        Operand::Value(_) => match guard {
            DivisorGuard::Replace => {
                let k = |v: i64| Operand::Const(IrConst::new(ty, v));
                let zero = b.cmp(CmpPred::Eq, ty, d, k(0));
                let bad = if signed_op {
                    let m1 = b.cmp(CmpPred::Eq, ty, d, k(-1));
                    b.bin(BinOp::Or, IrType::I8, zero.into(), m1.into())
                } else {
                    zero
                };
                b.select(ty, bad.into(), k(1), d).into()
            }
            DivisorGuard::Odd if !signed_op => b
                .bin(BinOp::Or, ty, d, Operand::Const(IrConst::new(ty, 1)))
                .into(),
            _ => {
                let masked = b.bin(BinOp::And, ty, d, Operand::Const(IrConst::new(ty, 0x7f)));
                b.bin(
                    BinOp::Or,
                    ty,
                    masked.into(),
                    Operand::Const(IrConst::new(ty, 1)),
                )
                .into()
            }
        },
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
            DivisorGuard::Masked,
        );
        emit_safe_bin(
            &mut b,
            BinOp::SRem,
            IrType::I32,
            konst(IrType::I32, 5),
            konst(IrType::I32, 0),
            DivisorGuard::Masked,
        );
        emit_safe_bin(
            &mut b,
            BinOp::Shl,
            IrType::U16,
            konst(IrType::U16, 5),
            konst(IrType::U16, 17),
            DivisorGuard::Masked,
        );
        let insts = last_rhs(b);
        // signed -1 -> -2 (never MIN / -1); 0 -> 1; 17 & 15 = 1 — worked by hand.
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
        assert_eq!(rhs, vec![-2, 1, 1]);
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
            DivisorGuard::Odd,
        );
        emit_safe_bin(
            &mut b,
            BinOp::SDiv,
            IrType::I64,
            konst(IrType::I64, 9),
            d.into(),
            DivisorGuard::Odd,
        );
        let insts = last_rhs(b);
        let ops: Vec<BinOp> = insts
            .iter()
            .map(|i| match i {
                Inst::Bin { op, .. } => *op,
                _ => panic!(),
            })
            .collect();
        // udiv with the odd guard: or, udiv. sdiv never takes it: and, or, sdiv.
        assert_eq!(
            ops,
            vec![BinOp::Or, BinOp::UDiv, BinOp::And, BinOp::Or, BinOp::SDiv]
        );
    }

    #[test]
    fn replace_guard_keeps_the_value_and_tests_zero_and_minus_one() {
        let mut ids = BlockCounter::default();
        let mut b = FuncBuilder::new(&mut ids);
        let d = b.fresh();
        for op in [BinOp::SRem, BinOp::UDiv] {
            emit_safe_bin(
                &mut b,
                op,
                IrType::I32,
                konst(IrType::I32, 9),
                d.into(),
                DivisorGuard::Replace,
            );
        }
        let insts = last_rhs(b);
        let shape: Vec<String> = insts
            .iter()
            .map(|i| match i {
                Inst::Bin { op, .. } => format!("{op:?}"),
                Inst::Cmp { rhs, .. } => format!("cmp {rhs:?}"),
                Inst::Select { .. } => "select".into(),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        let zero = format!("cmp {:?}", konst(IrType::I32, 0));
        let minus_one = format!("cmp {:?}", konst(IrType::I32, -1));
        assert_eq!(
            shape,
            vec![
                zero.clone(),
                minus_one,
                "Or".into(),
                "select".into(),
                "SRem".into(),
                zero,
                "select".into(),
                "UDiv".into()
            ]
        );
    }
}
