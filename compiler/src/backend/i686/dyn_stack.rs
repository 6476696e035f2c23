//! i686 selection of `dynalloca`, `stacksave` and `stackrestore`: %esp moves by
//! multiples of 16 (gcc keeps the i386 stack 16-aligned at calls, and so does phicc) and
//! the new object starts right above the outgoing area (`backend/dynamic_stack.rs` has
//! the layout; the frame addresses every slot from %ebp in such a function, `abi.rs`).
//! A size is an `i64`; only its low word can be a real size on a 32-bit target.

use super::isel::{Selector, EAX, ESP};
use crate::backend::dynamic_stack::{size_addend, ROUND};
use crate::backend::x86::inst::{AluOp, Inst as MInst, Mem, Operand as Opnd, Size};
use crate::backend::BackendError;
use crate::ir::{IrType, Operand, Value};

impl Selector<'_> {
    /// `%d = dynalloca SIZE, ALIGN`: `eax = (size + addend) & -16; esp -= eax;
    /// d = esp + outgoing` (rounded up to ALIGN beyond 16).
    pub(super) fn select_dynalloca(
        &mut self,
        dest: Value,
        size: &Operand,
        align: u32,
    ) -> Result<(), BackendError> {
        let (addend, round_up) = size_addend(align);
        let low = self.low_word(size, IrType::I64)?;
        self.load(EAX, low);
        self.alu(AluOp::Add, 4, Opnd::Imm(addend), Opnd::Reg(EAX));
        self.alu(AluOp::And, 4, Opnd::Imm(-(ROUND as i64)), Opnd::Reg(EAX));
        self.alu(AluOp::Sub, 4, Opnd::Reg(EAX), Opnd::Reg(ESP));
        let outgoing = i64::from(self.frame.outgoing);
        let object = if round_up {
            outgoing + i64::from(align) - 1
        } else {
            outgoing
        };
        self.emit(MInst::Lea {
            size: Size::L,
            src: Mem::base_disp(ESP, object),
            dst: EAX,
        });
        if round_up {
            self.alu(AluOp::And, 4, Opnd::Imm(-i64::from(align)), Opnd::Reg(EAX));
        }
        self.set_word(dest, EAX);
        Ok(())
    }

    /// `%d = stacksave`: the value of %esp.
    pub(super) fn select_stacksave(&mut self, dest: Value) {
        self.set_word(dest, ESP);
    }

    /// `stackrestore PTR`: %esp takes the saved value back.
    pub(super) fn select_stackrestore(&mut self, ptr: &Operand) {
        let saved = self.word(ptr, IrType::Ptr);
        self.load(EAX, saved);
        self.load(ESP, Opnd::Reg(EAX));
    }
}
