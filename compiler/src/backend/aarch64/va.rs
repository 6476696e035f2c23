//! `va_start` on AArch64 (AAPCS64 §B.4, Linux): the `va_list` is `{__stack, __gr_top,
//! __vr_top, __gr_offs, __vr_offs}`, with the argument registers saved in the frame.
//!
//! Why: only the frame knows where the incoming arguments are. The prologue of a function
//! that calls `va_start` stores x0..x7 at offsets 0..64 of the save area (`backend::va`
//! makes it an alloca of 192 bytes: 64 for x0-x7, 128 for q0-q7); `va_start` sets
//! `__stack` to the first incoming stack slot after the named ones (x29 + 16 + 8k),
//! `__gr_top` to the end of the x registers' part, `__gr_offs` to -8 × the x registers the
//! unnamed arguments may use, `__vr_top` to the end of the q registers' part and
//! `__vr_offs` to -16 × the v registers the unnamed arguments may use: the prologue also
//! stores q0..q7 at offsets 64..192, so a floating `va_arg` of a gcc-compiled callee given
//! phicc's `va_list` (`vprintf("%f", ap)`) reads the double the caller passed in a v
//! register.
//!
//! Invariants: the named parameters' x registers, v registers and stack slots are
//! counted by `float_abi`'s assignment (`lowering::abi`'s NGRN = 8 fillers included); only
//! scratch registers (x9, x10, x11) are written.

use super::abi::{add_offset, mov_imm, ARG_REGS, FRAME_SCRATCH};
use super::float_inst::{FInst, VReg};
use super::inst::{Inst, Mem, Reg};
use super::isel::Selector;
use crate::backend::BackendError;
use crate::ir::{IrType, Operand as IrOperand};

/// Bytes of the x registers' part of the save area.
const GR_BYTES: i64 = 64;
/// Bytes of the whole save area (the q registers' part follows).
const AREA_BYTES: i64 = 192;

/// Bytes of one saved q register.
const VR_BYTES: i64 = 16;

/// The prologue's stores of x0..x7 and q0..q7 into the save area at `base + off` (the
/// frame's base register, `Frame::base`).
pub(super) fn save_registers(base: Reg, off: i64) -> Vec<Inst> {
    let mut out = add_offset(FRAME_SCRATCH, base, off, FRAME_SCRATCH);
    for (j, pair) in ARG_REGS.chunks(2).enumerate() {
        out.push(Inst::Stp {
            rt1: pair[0],
            rt2: pair[1],
            mem: Mem::at(FRAME_SCRATCH, 16 * j as i64),
        });
    }
    for j in 0..4u8 {
        out.push(Inst::Float(FInst::StpQ {
            vt1: VReg(2 * j),
            vt2: VReg(2 * j + 1),
            mem: Mem::at(FRAME_SCRATCH, GR_BYTES + 2 * VR_BYTES * i64::from(j)),
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
            return Err(self.va_error("va_start without its va_list or save area"));
        };
        let Some(area) = self.frame.alloca_offset(*area) else {
            return Err(self.va_error("va_start's save area is not an alloca"));
        };
        let (named, named_fprs, named_stack) = self.frame.named_slots();
        let ap_reg = Reg(9);
        let tmp = Reg(10);
        self.load_into(ap, IrType::Ptr, ap_reg);
        let stack = 16 + 8 * named_stack as i64;
        let fields: [(i64, Reg, i64); 3] = [
            (0, Reg::FP, stack),
            (8, self.frame.base(), area + GR_BYTES),
            (16, self.frame.base(), area + AREA_BYTES),
        ];
        for (field, base, off) in fields {
            for inst in add_offset(tmp, base, off, FRAME_SCRATCH) {
                self.push(inst);
            }
            self.push(Inst::Store {
                bytes: 8,
                rt: tmp,
                mem: Mem::at(ap_reg, field),
            });
        }
        let gr_offs = -8 * (ARG_REGS.len() - named.min(ARG_REGS.len())) as i64;
        let vr_offs = -VR_BYTES * (8 - named_fprs.min(8)) as i64;
        for (field, value) in [(24, gr_offs), (28, vr_offs)] {
            for inst in mov_imm(tmp, u64::from(value as i32 as u32)) {
                self.push(inst);
            }
            self.push(Inst::Store {
                bytes: 4,
                rt: tmp,
                mem: Mem::at(ap_reg, field),
            });
        }
        Ok(())
    }

    fn va_error(&self, message: &str) -> BackendError {
        BackendError::new(super::AARCH64, self.func, None, message.into())
    }
}
