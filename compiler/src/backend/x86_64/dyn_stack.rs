//! x86-64 selection of `dynalloca`, `stacksave` and `stackrestore`: %rsp moves by
//! multiples of 16 and the new object starts right above the outgoing area
//! (`backend/dynamic_stack.rs` has the layout and its invariants; the frame addresses
//! every slot from %rbp in such a function, `abi.rs`).

use super::isel::Selector;
use crate::backend::dynamic_stack::{size_addend, ROUND};
use crate::backend::x86::inst::Size;
use crate::backend::x86::inst::{AluOp, Inst, Mem, Operand};
use crate::backend::x86::Reg;
use crate::ir::{IrType, Operand as IrOperand, Value};

impl Selector<'_> {
    /// `%d = dynalloca SIZE, ALIGN`: `rax = (size + addend) & -16; rsp -= rax;
    /// d = rsp + outgoing` (rounded up to ALIGN beyond 16).
    pub(super) fn select_dynalloca(&mut self, dest: Value, size: &IrOperand, align: u32) {
        let (addend, round_up) = size_addend(align);
        self.load_into(size, IrType::I64, Reg::Rax);
        for (op, imm) in [(AluOp::Add, addend), (AluOp::And, -(ROUND as i64))] {
            self.push(Inst::Alu {
                op,
                size: Size::Q,
                src: Operand::Imm(imm),
                dst: Reg::Rax.into(),
            });
        }
        self.push(Inst::Alu {
            op: AluOp::Sub,
            size: Size::Q,
            src: Reg::Rax.into(),
            dst: Reg::Rsp.into(),
        });
        let r = self.work_reg(dest, &[]);
        let outgoing = i64::from(self.frame.outgoing_bytes());
        let object = if round_up {
            outgoing + i64::from(align) - 1
        } else {
            outgoing
        };
        self.push(Inst::Lea {
            size: Size::Q,
            src: Mem::base_disp(Reg::Rsp, object),
            dst: r,
        });
        if round_up {
            self.push(Inst::Alu {
                op: AluOp::And,
                size: Size::Q,
                src: Operand::Imm(-i64::from(align)),
                dst: r.into(),
            });
        }
        self.write_dest(dest, r);
    }

    /// `%d = stacksave`: the value of %rsp.
    pub(super) fn select_stacksave(&mut self, dest: Value) {
        let r = self.work_reg(dest, &[]);
        self.push(Inst::Mov {
            size: Size::Q,
            src: Reg::Rsp.into(),
            dst: r.into(),
        });
        self.write_dest(dest, r);
    }

    /// `stackrestore PTR`: %rsp takes the saved value back.
    pub(super) fn select_stackrestore(&mut self, ptr: &IrOperand) {
        self.load_into(ptr, IrType::Ptr, Reg::Rax);
        self.push(Inst::Mov {
            size: Size::Q,
            src: Reg::Rax.into(),
            dst: Reg::Rsp.into(),
        });
    }
}
