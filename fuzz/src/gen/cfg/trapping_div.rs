//! A division at the end of a function whose divisor is zero (or, signed, whose operands
//! are MIN and -1) for some of the harness's argument vectors: a run that traps.
//!
//! Why: the rest of the generator keeps divisors away from 0 and -1 (`gen::arith`,
//! `invariant_div`), so no run ever traps, and a backend that forgets to raise SIGFPE
//! where the hardware divide does not trap (AArch64, RISC-V) is never caught. A trap is a
//! defined IR outcome (`Trapped(DivByZero | DivOverflow)` in the oracle), so such a run is
//! a valid reference. The divisor is derived from an incoming parameter (`p`, `p & 1`,
//! `p & 3`, `p + 1`, `p - k`), which the argument vectors (small values, all 0 or all -1,
//! the extremes) make zero on some runs and not on others; a signed division sometimes
//! divides the constant MIN, which traps when the divisor is -1 (for instance `p | -2`,
//! which is -1 for odd `p` and -2 for even).
//!
//! Invariants:
//! - emitted only in `trapping_div_percent` of functions with an integer parameter, in
//!   the block that returns (after every statement, just before the checksum), so a trap
//!   is the last thing the function does and everything printed before it still counts;
//! - never in a block nothing reaches; the divisor is never a constant and is not
//!   sanitized or guarded, so the census counts it as a `trapping_divs`;
//! - the quotient is folded into a data slot, so it reaches the checksum (no pass may
//!   delete it as dead).

use super::expr::int_type;
use super::frame::Role;
use super::function::FnGen;
use crate::gen::choice::Pick;
use arbitrary::Result;
use compiler::ir::{konst, BinOp, IrType, Operand, Value};

impl FnGen<'_, '_> {
    /// Sometimes emits the unguarded division in the current (returning) block.
    pub fn maybe_trapping_div(&mut self) -> Result<()> {
        if self.in_unreachable || !self.b.is_open() {
            return Ok(());
        }
        let params: Vec<(Value, IrType)> = self
            .frame
            .params
            .iter()
            .copied()
            .filter(|(_, t)| t.is_integer())
            .collect();
        if params.is_empty() || !self.u.chance(self.cfg.trapping_div_percent)? {
            return Ok(());
        }
        let ty = int_type(self.u)?;
        let (p, from) = params[self.u.index(params.len())?];
        let base = self.convert(p.into(), from, ty);
        let op = [BinOp::SDiv, BinOp::UDiv, BinOp::SRem, BinOp::URem][self.u.index(4)?];
        let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
        let min_dividend = signed && self.u.chance(50)?;
        let divisor: Operand =
            match self
                .u
                .weighted(&[3, 2, 2, 2, 2, if min_dividend { 6 } else { 0 }])?
            {
                0 => base,
                1 => self.b.bin(BinOp::And, ty, base, konst(ty, 1)).into(),
                2 => self.b.bin(BinOp::And, ty, base, konst(ty, 3)).into(),
                3 => self.b.bin(BinOp::Add, ty, base, konst(ty, 1)).into(),
                4 => {
                    let k = self.u.between(1, 3)? as i64;
                    self.b.bin(BinOp::Sub, ty, base, konst(ty, k)).into()
                }
                // -1 for odd `p`, -2 for even: MIN / -1 on some vectors, never a zero divisor.
                _ => self.b.bin(BinOp::Or, ty, base, konst(ty, -2)).into(),
            };
        if divisor.as_value().is_none() {
            return Ok(());
        }
        let dividend = if min_dividend {
            // The sign bit alone: MIN at the width, whatever the type's signedness.
            konst(ty, (-(1i128 << (ty.bits(8) - 1))) as i64)
        } else {
            self.expr(ty, 1)?
        };
        let q = self.b.bin(op, ty, dividend, divisor);
        self.define(q, ty);
        let targets: Vec<usize> = self
            .frame
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.spec.ty.is_integer() && s.spec.role == Role::Data)
            .map(|(i, _)| i)
            .collect();
        if targets.is_empty() {
            return Ok(());
        }
        let t = self.frame.slots[targets[self.u.index(targets.len())?]];
        let val = self.convert(q.into(), ty, t.spec.ty);
        let old = self.b.load(t.spec.ty, t.ptr.into());
        let mixed = self.b.bin(BinOp::Xor, t.spec.ty, old.into(), val);
        self.b.store(t.spec.ty, mixed.into(), t.ptr.into());
        Ok(())
    }
}
