//! GNU case ranges `case lo ... hi:` (`ast::Stmt::Switch::ranges`): one unsigned
//! comparison per range before the `switch` terminator.
//!
//! Why it exists: the IR `switch` lists single values, and a range may hold billions of
//! them (c-torture `pr34154.c`).
//!
//! Invariants: `v` is in `lo..=hi` (in the controlling type's own signedness, `lo <= hi`
//! as the parser guarantees) exactly when `(v - lo)` wrapped to the type's width is at
//! most `hi - lo` as an unsigned number; the ranges are disjoint from each other and
//! from the single values (the parser checked), so testing them first, in source order,
//! changes no outcome; a value in no range reaches the `switch` unchanged.

use super::builder::exact;
use super::function::{FnLower, Res};
use crate::frontend::ast::CaseId;
use crate::frontend::Loc;
use crate::ir::{BinOp, CmpPred, IrType, Operand, Terminator};

impl FnLower<'_, '_> {
    /// Branches to each range's label when `v` (of IR type `ty`) is in it; the current
    /// block afterwards is the one where no range matched.
    pub fn case_ranges(
        &mut self,
        v: Operand,
        ty: IrType,
        ranges: &[(u64, u64, CaseId)],
        loc: Loc,
    ) -> Res<()> {
        for &(lo, hi, id) in ranges {
            let label = self.case_label(id, loc)?;
            let lo = ty.canonicalize(lo, 8) as i64;
            let span = ty.canonicalize(hi.wrapping_sub(lo as u64), 8) as i64;
            let offset = self.bin(BinOp::Sub, ty, v, exact(ty, lo));
            let inside = self.cmp(CmpPred::Ule, ty, offset, exact(ty, span));
            let next = self.new_label();
            self.b.terminate(Terminator::CondBr {
                cond: inside,
                if_true: label,
                if_false: next,
            });
            self.start(next);
        }
        Ok(())
    }
}
