//! Step 1 of `cfg_simplify`: terminators whose choice is known become `br`.
//!
//! Rules (each one a `br` to the only target that can be taken):
//! - `condbr C, T, F` with a constant C: T when C is not 0 in its own type (how the
//!   interpreter reads a condition; `256:i32` is true, an unsuffixed `256` is an `i8` 0),
//!   else F;
//! - `condbr %c, T, T`: T;
//! - `switch TYPE V, D [...]` with a constant V: the case equal to V read as TYPE, else D;
//! - a switch whose default and cases are all one block: that block.
//!
//! The edges dropped here leave phi entries behind in the targets no longer reached from
//! this block; `prune` removes them in the same round, before anything reads the phis.

use crate::ir::{IrConst, IrFunction, Operand, Terminator};

/// Folds every foldable terminator; returns how many.
pub(super) fn fold_terminators(func: &mut IrFunction) -> usize {
    let mut folded = 0;
    for block in &mut func.blocks {
        if let Some(target) = known_target(&block.term) {
            block.term = Terminator::Br(target);
            folded += 1;
        }
    }
    folded
}

/// The one target `term` can take, when it is not already a `br`.
fn known_target(term: &Terminator) -> Option<crate::ir::BlockId> {
    match term {
        Terminator::CondBr {
            cond,
            if_true,
            if_false,
        } => match cond {
            Operand::Const(c) => Some(if c.bits != 0 { *if_true } else { *if_false }),
            Operand::Value(_) if if_true == if_false => Some(*if_true),
            Operand::Value(_) => None,
        },
        Terminator::Switch {
            ty,
            val,
            default,
            cases,
        } => {
            if let Operand::Const(c) = val {
                let key = IrConst::new(*ty, c.bits).bits;
                let case = cases.iter().find(|&&(value, _)| value == key);
                return Some(case.map_or(*default, |&(_, target)| target));
            }
            cases
                .iter()
                .all(|&(_, target)| target == *default)
                .then_some(*default)
        }
        Terminator::Br(_) | Terminator::Ret(_) | Terminator::Unreachable => None,
    }
}
