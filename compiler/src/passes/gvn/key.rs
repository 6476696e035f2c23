//! Expression keys: what makes two instructions compute the same value.
//!
//! Why: GVN gives two instructions one number when they apply the same operation, at the
//! same types, to the same operands. A key captures exactly that, in a normal form so that
//! equal computations spelled differently meet: constants read at their position's type
//! (`5:i64` and `5` in an `i32` add are one constant), commutative operands sorted,
//! `a > b` written as `b < a`.
//!
//! Invariants: two instructions with equal keys compute equal values whenever both run
//! with the same operand values (same operation, types, and operands as the interpreter
//! reads them); instructions whose value depends on more than their operands (loads,
//! calls, allocas, copies — left to copy propagation) have no [`ExprKey`]; a load's
//! [`LoadKey`] says only "same type, same address", and the caller decides when memory is
//! known not to have changed in between.

use crate::ir::eval::{is_commutative, swapped_pred};
use crate::ir::{BinOp, BlockId, CmpPred, FBinOp, FCmpPred, Inst, IrConst, IrType, Operand, UnOp};

/// An operand in a key: a value number, or a constant already read at its position's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum KeyOperand {
    Value(u32),
    Const(i64),
}

/// The operation and operands of a pure instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ExprKey {
    Bin(BinOp, IrType, KeyOperand, KeyOperand),
    Un(UnOp, IrType, KeyOperand),
    Cmp(CmpPred, IrType, KeyOperand, KeyOperand),
    Cast(IrType, IrType, KeyOperand),
    FBin(FBinOp, IrType, KeyOperand, KeyOperand),
    FNeg(IrType, KeyOperand),
    FCmp(FCmpPred, IrType, KeyOperand, KeyOperand),
    Bitcast(IrType, IrType, KeyOperand),
    Select(IrType, KeyOperand, KeyOperand, KeyOperand),
    Gep(KeyOperand, KeyOperand),
    GlobalAddr(String),
    ParamRef(u32, IrType),
    /// A phi is the same value as another only in the same block, with the same entries.
    Phi(BlockId, IrType, Vec<(BlockId, KeyOperand)>),
}

/// A load: its type and address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct LoadKey {
    pub ty: IrType,
    pub ptr: KeyOperand,
}

/// `op` as it is read in a position of type `ty`.
fn operand(op: &Operand, ty: IrType) -> KeyOperand {
    match op {
        Operand::Value(v) => KeyOperand::Value(v.0),
        Operand::Const(k) => KeyOperand::Const(IrConst::new(ty, k.bits).bits),
    }
}

/// The two operands of a commutative operation in a fixed order.
fn sorted(a: KeyOperand, b: KeyOperand) -> (KeyOperand, KeyOperand) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The key of a pure instruction in block `block`; `None` for loads, stores, calls,
/// allocas, memcpys and copies.
pub(super) fn expr_key(inst: &Inst, block: BlockId) -> Option<ExprKey> {
    Some(match inst {
        Inst::Bin {
            op, ty, lhs, rhs, ..
        } => {
            let (a, b) = (operand(lhs, *ty), operand(rhs, *ty));
            let (a, b) = if is_commutative(*op) {
                sorted(a, b)
            } else {
                (a, b)
            };
            ExprKey::Bin(*op, *ty, a, b)
        }
        Inst::Un { op, ty, src, .. } => ExprKey::Un(*op, *ty, operand(src, *ty)),
        Inst::Cmp {
            pred, ty, lhs, rhs, ..
        } => {
            let (a, b) = (operand(lhs, *ty), operand(rhs, *ty));
            match pred {
                // a > b is b < a: one spelling per comparison.
                CmpPred::Sgt | CmpPred::Sge | CmpPred::Ugt | CmpPred::Uge => {
                    ExprKey::Cmp(swapped_pred(*pred), *ty, b, a)
                }
                CmpPred::Eq | CmpPred::Ne => {
                    let (a, b) = sorted(a, b);
                    ExprKey::Cmp(*pred, *ty, a, b)
                }
                _ => ExprKey::Cmp(*pred, *ty, a, b),
            }
        }
        Inst::Cast { from, src, to, .. } => ExprKey::Cast(*from, *to, operand(src, *from)),
        // Float operations keep their operands in the order written: `fadd a, b` and
        // `fadd b, a` are equal in the IR's meaning, but not spelling them alike costs
        // little and leaves the NaN a target propagates untouched. Constants are compared
        // bit for bit (`-0.0` is not `0.0`).
        Inst::FBin {
            op, ty, lhs, rhs, ..
        } => ExprKey::FBin(*op, *ty, operand(lhs, *ty), operand(rhs, *ty)),
        Inst::FNeg { ty, src, .. } => ExprKey::FNeg(*ty, operand(src, *ty)),
        Inst::FCmp {
            pred, ty, lhs, rhs, ..
        } => ExprKey::FCmp(*pred, *ty, operand(lhs, *ty), operand(rhs, *ty)),
        Inst::Bitcast { from, src, to, .. } => ExprKey::Bitcast(*from, *to, operand(src, *from)),
        Inst::Select {
            ty,
            cond,
            on_true,
            on_false,
            ..
        } => ExprKey::Select(
            *ty,
            operand(cond, IrType::I8),
            operand(on_true, *ty),
            operand(on_false, *ty),
        ),
        Inst::Gep { base, offset, .. } => {
            ExprKey::Gep(operand(base, IrType::Ptr), operand(offset, IrType::I64))
        }
        Inst::GlobalAddr { name, .. } => ExprKey::GlobalAddr(name.clone()),
        Inst::ParamRef { index, ty, .. } => ExprKey::ParamRef(*index, *ty),
        Inst::Phi { ty, incoming, .. } => {
            let mut entries: Vec<(BlockId, KeyOperand)> = incoming
                .iter()
                .map(|(op, b)| (*b, operand(op, *ty)))
                .collect();
            entries.sort_unstable();
            ExprKey::Phi(block, *ty, entries)
        }
        Inst::Load { .. }
        | Inst::DynAlloca { .. }
        | Inst::StackSave { .. }
        | Inst::StackRestore { .. }
        | Inst::Store { .. }
        | Inst::Memcpy { .. }
        | Inst::Call { .. }
        | Inst::Alloca { .. }
        | Inst::Copy { .. } => return None,
    })
}

/// The key of a load.
pub(super) fn load_key(ty: IrType, ptr: &Operand) -> LoadKey {
    LoadKey {
        ty,
        ptr: operand(ptr, IrType::Ptr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{konst, Value};

    fn v(n: u32) -> Operand {
        Operand::Value(Value(n))
    }

    fn bin(op: BinOp, lhs: Operand, rhs: Operand) -> Inst {
        Inst::Bin {
            dest: Value(9),
            op,
            ty: IrType::I32,
            lhs,
            rhs,
        }
    }

    fn cmp(pred: CmpPred, lhs: Operand, rhs: Operand) -> Inst {
        Inst::Cmp {
            dest: Value(9),
            pred,
            ty: IrType::I32,
            lhs,
            rhs,
        }
    }

    fn key(inst: &Inst) -> ExprKey {
        expr_key(inst, BlockId(0)).expect("a pure instruction")
    }

    #[test]
    fn commutative_operands_meet_in_either_order() {
        assert_eq!(
            key(&bin(BinOp::Add, v(1), v(2))),
            key(&bin(BinOp::Add, v(2), v(1)))
        );
        assert_eq!(
            key(&bin(BinOp::Mul, konst(IrType::I32, 3), v(2))),
            key(&bin(BinOp::Mul, v(2), konst(IrType::I32, 3)))
        );
        assert_ne!(
            key(&bin(BinOp::Sub, v(1), v(2))),
            key(&bin(BinOp::Sub, v(2), v(1)))
        );
        assert_ne!(
            key(&bin(BinOp::SDiv, v(1), v(2))),
            key(&bin(BinOp::SDiv, v(2), v(1)))
        );
    }

    #[test]
    fn constants_are_read_at_the_position_type() {
        // 5:i64 and 5 are the same i32; 4294967301:i64 is also 5 as an i32.
        let a = key(&bin(BinOp::Add, v(1), konst(IrType::I64, 5)));
        let b = key(&bin(BinOp::Add, v(1), konst(IrType::I32, 5)));
        let c = key(&bin(BinOp::Add, v(1), konst(IrType::I64, 4_294_967_301)));
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_ne!(a, key(&bin(BinOp::Add, v(1), konst(IrType::I32, 6))));
    }

    #[test]
    fn comparisons_meet_mirrored() {
        assert_eq!(
            key(&cmp(CmpPred::Sgt, v(1), v(2))),
            key(&cmp(CmpPred::Slt, v(2), v(1)))
        );
        assert_eq!(
            key(&cmp(CmpPred::Uge, v(1), v(2))),
            key(&cmp(CmpPred::Ule, v(2), v(1)))
        );
        assert_eq!(
            key(&cmp(CmpPred::Ne, v(1), v(2))),
            key(&cmp(CmpPred::Ne, v(2), v(1)))
        );
        assert_ne!(
            key(&cmp(CmpPred::Slt, v(1), v(2))),
            key(&cmp(CmpPred::Slt, v(2), v(1)))
        );
        assert_ne!(
            key(&cmp(CmpPred::Slt, v(1), v(2))),
            key(&cmp(CmpPred::Ult, v(1), v(2)))
        );
    }

    #[test]
    fn types_and_blocks_are_part_of_the_key() {
        let add64 = Inst::Bin {
            dest: Value(9),
            op: BinOp::Add,
            ty: IrType::I64,
            lhs: v(1),
            rhs: v(2),
        };
        assert_ne!(key(&bin(BinOp::Add, v(1), v(2))), key(&add64));
        let phi = Inst::Phi {
            dest: Value(9),
            ty: IrType::I32,
            incoming: vec![(v(1), BlockId(1)), (v(2), BlockId(2))],
        };
        let reordered = Inst::Phi {
            dest: Value(8),
            ty: IrType::I32,
            incoming: vec![(v(2), BlockId(2)), (v(1), BlockId(1))],
        };
        assert_eq!(key(&phi), key(&reordered));
        assert_ne!(expr_key(&phi, BlockId(0)), expr_key(&phi, BlockId(3)));
    }

    #[test]
    fn effects_have_no_expression_key() {
        let load = Inst::Load {
            dest: Value(9),
            ty: IrType::I32,
            ptr: v(1),
        };
        assert_eq!(expr_key(&load, BlockId(0)), None);
        let copy = Inst::Copy {
            dest: Value(9),
            ty: IrType::I32,
            src: v(1),
        };
        assert_eq!(expr_key(&copy, BlockId(0)), None);
    }
}
