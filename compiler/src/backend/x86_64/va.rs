//! `va_start` on x86-64 (SysV AMD64 §3.5.7) and the register save area it reads.
//!
//! Why: only the frame knows where the incoming arguments are. The prologue of a function
//! that calls `va_start` stores %rdi..%r9 at offsets 0..48 of the save area
//! (`backend::va` makes it an alloca of 176 bytes; offsets 48..176 are for %xmm0-7, which
//! gcc's callers announce in %al: stored there once phicc has floating point). `va_start`
//! then fills the `va_list` object (`{u32 gp_offset, u32 fp_offset, ptr
//! overflow_arg_area, ptr reg_save_area}`): `gp_offset` = 8 × the general registers the
//! named parameters use, `fp_offset` = 48 (no named vector parameters yet), the overflow
//! area right after the named stack parameters at 16(%rbp).
//!
//! Invariants: the IR parameter list is the registers in order, then the stack slots
//! (`lowering::abi`; variadic definitions whose named parameters need fillers are refused
//! there), so the counts follow from its length; only scratch registers are written.

use super::abi::ARG_REGS;
use super::isel::Selector;
use crate::backend::x86::inst::{Inst, Mem, Operand, Size};
use crate::backend::x86::Reg;
use crate::backend::BackendError;
use crate::ir::{IrType, Operand as IrOperand};

/// The stores of the prologue that fill the general-register part of the save area at
/// `area`.
pub(super) fn save_registers(area: Mem) -> Vec<Inst> {
    ARG_REGS
        .iter()
        .enumerate()
        .map(|(i, &r)| Inst::Mov {
            size: Size::Q,
            src: r.into(),
            dst: Mem {
                disp: area.disp + 8 * i as i64,
                ..area.clone()
            }
            .into(),
        })
        .collect()
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
        let named = self.func.params.len();
        let gp = 8 * named.min(ARG_REGS.len()) as i64;
        let stack = 16 + 8 * named.saturating_sub(ARG_REGS.len()) as i64;
        self.load_into(ap, IrType::Ptr, Reg::Rax);
        let field = |d: i64| Mem::base_disp(Reg::Rax, d);
        self.push(Inst::Mov {
            size: Size::L,
            src: Operand::Imm(gp),
            dst: field(0).into(),
        });
        self.push(Inst::Mov {
            size: Size::L,
            src: Operand::Imm(48),
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
