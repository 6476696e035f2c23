//! RISC-V selection of `dynalloca`, `stacksave` and `stackrestore`: sp moves by multiples
//! of 16 (the LP64 stack alignment) and the new object starts right above the outgoing
//! area (`backend/dynamic_stack.rs` has the layout; the frame addresses every slot from
//! s0 in such a function, `abi.rs`).

use super::abi::add_offset;
use super::constants::materialize;
use super::inst::{fits_imm12, AluImmOp, AluOp, Inst, Reg};
use super::isel::Selector;
use crate::backend::dynamic_stack::{size_addend, ROUND};
use crate::ir::{IrType, Operand as IrOperand, Value};

impl Selector<'_> {
    /// `%d = dynalloca SIZE, ALIGN`: `t0 = (size + addend) & -16; sp -= t0;
    /// d = sp + outgoing` (rounded up to ALIGN beyond 16).
    pub(super) fn select_dynalloca(&mut self, dest: Value, size: &IrOperand, align: u32) {
        let (addend, round_up) = size_addend(align);
        self.load_into(size, IrType::I64, Reg::T0);
        let mut code = Vec::new();
        add_offset(Reg::T0, Reg::T0, addend, &mut code);
        code.push(Inst::imm(AluImmOp::Andi, Reg::T0, Reg::T0, -(ROUND as i64)));
        code.push(Inst::alu(AluOp::Sub, Reg::Sp, Reg::Sp, Reg::T0));
        let rd = self.dest_reg(dest);
        let outgoing = i64::from(self.frame.outgoing_bytes());
        let object = if round_up {
            outgoing + i64::from(align) - 1
        } else {
            outgoing
        };
        add_offset(rd, Reg::Sp, object, &mut code);
        if round_up {
            let mask = -i64::from(align);
            if fits_imm12(mask) {
                code.push(Inst::imm(AluImmOp::Andi, rd, rd, mask));
            } else {
                code.extend(materialize(mask, Reg::T6));
                code.push(Inst::alu(AluOp::And, rd, rd, Reg::T6));
            }
        }
        for inst in code {
            self.push(inst);
        }
        self.write_dest(dest, rd);
    }

    /// `%d = stacksave`: the value of sp.
    pub(super) fn select_stacksave(&mut self, dest: Value) {
        let rd = self.dest_reg(dest);
        self.push(Inst::mv(rd, Reg::Sp));
        self.write_dest(dest, rd);
    }

    /// `stackrestore PTR`: sp takes the saved value back.
    pub(super) fn select_stackrestore(&mut self, ptr: &IrOperand) {
        self.load_into(ptr, IrType::Ptr, Reg::T0);
        self.push(Inst::mv(Reg::Sp, Reg::T0));
    }
}
