//! `va_start` on RISC-V LP64: the prologue of a function that calls it spills a0-a7 to
//! the 64 bytes right below the incoming stack arguments (`abi::Frame` moves the rest of
//! the frame down for them), so every argument, register or stack, sits in one array of
//! 8-byte slots starting at s0 - 64, and a `va_list` (`void *`) is one pointer into it.
//!
//! Why: that is the psABI's (and gcc's) layout, so a `va_list` of phicc's walks the same
//! slots a gcc-compiled `vprintf` walks; `va_arg` is plain IR (`backend::va`). A value of
//! 2×XLEN *alignment* would start at an even register (an aligned slot); phicc has none
//! (records aligned beyond 8 bytes are refused by `lowering::abi`).
//!
//! Invariants: the named parameters take the first slots in IR order, except named
//! floats that found an fa register, so `va_start` points at the slot after the named
//! parameters' integer-register and stack slots; only scratch registers are written.

use super::abi::ARG_REGS;
use super::inst::{AluImmOp, Inst, Reg, StoreKind};
use super::isel::Selector;
use crate::backend::BackendError;
use crate::ir::{IrType, Operand as IrOperand};

/// Bytes of the save area right below s0.
pub(super) const SAVE_AREA: i64 = 64;

/// The prologue's stores of a0-a7 into the save area (`area` bytes, 0 for a function
/// without `va_start`).
pub(super) fn save_registers(area: i64) -> Vec<Inst> {
    if area == 0 {
        return Vec::new();
    }
    ARG_REGS
        .iter()
        .enumerate()
        .map(|(i, &r)| Inst::Store {
            kind: StoreKind::D,
            src: r,
            base: Reg::S0,
            offset: -SAVE_AREA + 8 * i as i64,
        })
        .collect()
}

impl Selector<'_> {
    /// `call void @__phi_va.start(ptr %ap, i32, i8)`: `*ap = s0 - 64 + 8 × named`.
    pub(super) fn select_va_start(
        &mut self,
        args: &[(IrType, IrOperand)],
    ) -> Result<(), BackendError> {
        let Some((_, ap)) = args.first() else {
            return Err(self.error(None, "va_start without its va_list".into()));
        };
        let named = self.frame.named_integer_slots() as i64;
        let ap = self.read(ap, IrType::Ptr, Reg::T0);
        let first = -SAVE_AREA + 8 * named;
        if (-2048..2048).contains(&first) {
            self.push(Inst::imm(AluImmOp::Addi, Reg::T1, Reg::S0, first));
        } else {
            self.materialize(first, Reg::T1);
            self.push(Inst::alu(
                super::inst::AluOp::Add,
                Reg::T1,
                Reg::S0,
                Reg::T1,
            ));
        }
        self.store_mem(StoreKind::D, Reg::T1, ap, 0);
        Ok(())
    }
}
