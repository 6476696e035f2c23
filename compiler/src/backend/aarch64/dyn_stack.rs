//! AArch64 selection of `dynalloca`, `stacksave` and `stackrestore`: sp moves by
//! multiples of 16 (it stays 16-aligned at every instruction, as AAPCS64 requires) and the
//! new object starts right above the outgoing area (`backend/dynamic_stack.rs` has the
//! layout; the frame addresses every slot from x29 in such a function, `abi.rs`).

use super::abi::add_offset;
use super::inst::{Inst, Op3, OpImm, Reg, Width};
use super::isel::{Selector, S0, S1};
use crate::backend::dynamic_stack::{size_addend, ROUND};
use crate::ir::{IrType, Operand as IrOperand, Value};

impl Selector<'_> {
    /// `%d = dynalloca SIZE, ALIGN`: `x16 = (size + addend) & -16; sp -= x16;
    /// d = sp + outgoing` (rounded up to ALIGN beyond 16).
    pub(super) fn select_dynalloca(&mut self, dest: Value, size: &IrOperand, align: u32) {
        let (addend, round_up) = size_addend(align);
        self.load_into(size, IrType::I64, S0);
        self.push(Inst::OpImm {
            op: OpImm::Add,
            w: Width::X,
            rd: S0,
            rn: S0,
            imm: addend as u64,
        });
        self.push(Inst::OpImm {
            op: OpImm::And,
            w: Width::X,
            rd: S0,
            rn: S0,
            imm: (-(ROUND as i64)) as u64,
        });
        self.push(Inst::Op3 {
            op: Op3::Sub,
            w: Width::X,
            rd: Reg::SP,
            rn: Reg::SP,
            rm: S0,
        });
        let r = self.dest_reg(dest);
        let outgoing = i64::from(self.frame.outgoing_bytes());
        let object = if round_up {
            outgoing + i64::from(align) - 1
        } else {
            outgoing
        };
        for inst in add_offset(r, Reg::SP, object, S1) {
            self.push(inst);
        }
        if round_up {
            self.push(Inst::OpImm {
                op: OpImm::And,
                w: Width::X,
                rd: r,
                rn: r,
                imm: (-i64::from(align)) as u64,
            });
        }
        self.write_dest(dest, r);
    }

    /// `%d = stacksave`: the value of sp.
    pub(super) fn select_stacksave(&mut self, dest: Value) {
        let r = self.dest_reg(dest);
        self.push(Inst::Mov {
            w: Width::X,
            rd: r,
            rn: Reg::SP,
        });
        self.write_dest(dest, r);
    }

    /// `stackrestore PTR`: sp takes the saved value back.
    pub(super) fn select_stackrestore(&mut self, ptr: &IrOperand) {
        self.load_into(ptr, IrType::Ptr, S0);
        self.push(Inst::Mov {
            w: Width::X,
            rd: Reg::SP,
            rn: S0,
        });
    }
}
