//! `va_start` on i686 (SysV i386): every argument is in the caller's stack area, so a
//! `va_list` (`char *`) starts right after the named parameters' slots.
//!
//! Why: the frame (`abi::Frame`) knows where the incoming parameters are (from 8(%ebp), or
//! 12(%ebp) after a hidden result pointer the callee pops); `va_arg` is plain IR
//! (`backend::va`) that walks 4-byte slots from there.
//!
//! Invariant: only scratch registers (%eax, %ecx) are written.

use super::isel::{Selector, EAX, ECX};
use crate::backend::x86::inst::{Inst as MInst, Mem, Operand as Opnd, Size};
use crate::backend::BackendError;
use crate::ir::{IrType, Operand};

impl Selector<'_> {
    /// `call void @__phi_va.start(ptr %ap, i32, i8)`: `*ap = first unnamed slot`.
    pub(super) fn select_va_start(
        &mut self,
        args: &[(IrType, Operand)],
    ) -> Result<(), BackendError> {
        let Some((ty, ap)) = args.first() else {
            return Err(self.error("va_start without its va_list"));
        };
        let w = self.word(ap, *ty);
        self.load(EAX, w);
        self.emit(MInst::Lea {
            size: Size::L,
            src: self.frame.first_unnamed(),
            dst: ECX,
        });
        self.emit(MInst::Mov {
            size: Size::L,
            src: Opnd::Reg(ECX),
            dst: Opnd::Mem(Mem::base_disp(EAX, 0)),
        });
        Ok(())
    }
}
