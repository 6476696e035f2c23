//! `va_start` on x86-64 (SysV AMD64 §3.5.7) and the register save area it reads.
//!
//! Why: only the frame knows where the incoming arguments are. The prologue of a function
//! that calls `va_start` stores %rdi..%r9 at offsets 0..48 of the save area
//! (`backend::va` makes it an alloca of 176 bytes) and the low 8 bytes of %xmm0-7 at
//! offsets 48 + 16 i (a caller announces in %al how many it used; storing all eight
//! unconditionally is as correct, only a little slower). `va_start` then fills the
//! `va_list` object (`{u32 gp_offset, u32 fp_offset, ptr overflow_arg_area, ptr
//! reg_save_area}`): `gp_offset` = 8 × the general registers the named parameters use,
//! `fp_offset` = 48 + 16 × the XMM registers they use, the overflow area right after the
//! named stack parameters at 16(%rbp).
//!
//! Invariants: the places of the named parameters are the ABI's (`abi::arg_places`), so
//! the counts follow from their types; only scratch registers are written.

use super::abi::{ARG_REGS, FLOAT_ARG_REGS};
use super::isel::Selector;
use crate::backend::x86::inst::{Inst, Mem, Operand, Size};
use crate::backend::x86::sse::{Sse, Xmm};
use crate::backend::x86::Reg;
use crate::backend::BackendError;
use crate::ir::{IrType, Operand as IrOperand};

/// The stores of the prologue that fill the save area at `area`: the general registers,
/// then the XMM registers' low 8 bytes.
pub(super) fn save_registers(area: Mem) -> Vec<Inst> {
    let mut out: Vec<Inst> = ARG_REGS
        .iter()
        .enumerate()
        .map(|(i, &r)| Inst::Mov {
            size: Size::Q,
            src: r.into(),
            dst: area.offset_by(8 * i as i64).into(),
        })
        .collect();
    for k in 0..FLOAT_ARG_REGS {
        out.push(Inst::Sse(Sse::FromXmm {
            size: Size::Q,
            src: Xmm(k as u8),
            dst: area.offset_by(48 + 16 * k as i64).into(),
        }));
    }
    out
}

impl Selector<'_> {
    /// `call void @__phi_va.start(ptr %ap, i32, i8, ptr %save_area)`.
    pub(super) fn select_va_start(
        &mut self,
        args: &[(IrType, IrOperand)],
    ) -> Result<(), BackendError> {
        let (Some((_, ap)), Some((_, IrOperand::Value(area)))) = (args.first(), args.get(3)) else {
            return Err(BackendError::new(
                super::X86_64,
                self.func,
                None,
                "va_start without its va_list or save area".into(),
            ));
        };
        let Some(area) = self.frame.alloca_mem(*area) else {
            return Err(BackendError::new(
                super::X86_64,
                self.func,
                None,
                "va_start's save area is not an alloca".into(),
            ));
        };
        let (gprs, xmms, stacked) = self.frame.param_counts();
        let gp = 8 * gprs as i64;
        let fp = 48 + 16 * xmms as i64;
        let stack = 16 + 8 * stacked as i64;
        self.load_into(ap, IrType::Ptr, Reg::Rax);
        let field = |d: i64| Mem::base_disp(Reg::Rax, d);
        self.push(Inst::Mov {
            size: Size::L,
            src: Operand::Imm(gp),
            dst: field(0).into(),
        });
        self.push(Inst::Mov {
            size: Size::L,
            src: Operand::Imm(fp),
            dst: field(4).into(),
        });
        self.push(Inst::Lea {
            size: Size::Q,
            src: Mem::base_disp(Reg::Rbp, stack),
            dst: Reg::Rcx,
        });
        self.push(Inst::Mov {
            size: Size::Q,
            src: Reg::Rcx.into(),
            dst: field(8).into(),
        });
        self.push(Inst::Lea {
            size: Size::Q,
            src: area,
            dst: Reg::Rcx,
        });
        self.push(Inst::Mov {
            size: Size::Q,
            src: Reg::Rcx.into(),
            dst: field(16).into(),
        });
        Ok(())
    }
}
