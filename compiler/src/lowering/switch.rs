//! `switch` and its `case`/`default` labels: one IR `switch` terminator over the
//! promoted controlling value.
//!
//! Why: the IR has a multi-way branch, so a C `switch` maps onto it directly; the case
//! labels may sit anywhere in the body (nested statements, Duff's device), so their
//! blocks are created before the body is lowered and placed where the labels are.
//!
//! Invariants: case values are canonical for the IR type of the promoted controlling
//! expression (the parser already truncated them to its width and made them distinct);
//! GNU case ranges are tested before the terminator (`case_ranges.rs`);
//! without `default` the switch's default edge goes to the exit; control falls from one
//! case into the next as in C; `break` inside the body goes to the exit.
//!
//! Seeded bug: [`crate::mutants::Mutant::LowerSwitchCaseTruncated32`].

use super::function::{FnLower, Res};
use crate::frontend::ast::{CaseId, Expr, Stmt};
use crate::frontend::Loc;
use crate::ir::{BlockId, Operand, Terminator};

impl FnLower<'_, '_> {
    pub fn switch(
        &mut self,
        cond: &Expr,
        body: &Stmt,
        cases: &[(u64, CaseId)],
        ranges: &[(u64, u64, CaseId)],
        default: Option<CaseId>,
    ) -> Res<()> {
        let (v, ty) = self.scalar(cond)?;
        if !ty.is_integer() {
            return Err(self.err(cond.loc, "switch on a non-integer value"));
        }
        let exit = self.new_label();
        let mut ir_cases = Vec::with_capacity(cases.len());
        let mut seen = std::collections::HashSet::new();
        for &(value, id) in cases {
            let label = self.case_label(id, cond.loc)?;
            let value = if ty.bits(8) == 64
                && crate::mutants::enabled(crate::mutants::Mutant::LowerSwitchCaseTruncated32)
            {
                // Seeded bug: the case value kept in 32 bits, then zero-extended.
                ty.canonicalize(value & 0xffff_ffff, 8) as i64
            } else {
                ty.canonicalize(value, 8) as i64
            };
            if seen.insert(value) {
                ir_cases.push((value, label));
            }
        }
        let default_label = match default {
            Some(id) => self.case_label(id, cond.loc)?,
            None => exit,
        };
        // The switch reads a value, never a constant-typed literal of another width.
        let v = match v {
            Operand::Const(c) => {
                super::builder::exact(ty, super::builder::const_value(c, ty, self.ctx.ptr_bytes))
            }
            v => v,
        };
        self.case_ranges(v, ty, ranges, cond.loc)?;
        self.b.terminate(Terminator::Switch {
            ty,
            val: v,
            default: default_label,
            cases: ir_cases,
        });
        self.breaks.push(exit);
        self.vla_jump_target(exit);
        self.break_scopes.push(self.scopes.len());
        let r = self.stmt(body);
        self.breaks.pop();
        self.break_scopes.pop();
        r?;
        self.br(exit);
        self.start(exit);
        Ok(())
    }

    /// The block of case (or default) label `id`.
    pub fn case_label(&mut self, id: CaseId, loc: Loc) -> Res<BlockId> {
        let Some(slot) = self.cases.get(id.0 as usize).copied() else {
            return Err(self.err(loc, "internal error: unknown case label"));
        };
        Ok(match slot {
            Some(l) => l,
            None => {
                let l = self.new_label();
                self.cases[id.0 as usize] = Some(l);
                l
            }
        })
    }
}
