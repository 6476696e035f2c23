//! Where AAPCS64 (Linux) puts each argument once floats exist: integers and pointers in
//! x0..x7, `f32`/`f64` in v0..v7 (`s`/`d`), each class counting its own registers, and
//! every argument that finds its class's registers used up in the next 8-byte stack
//! slot, in argument order.
//!
//! Why it exists: the incoming parameters (`super::abi::Frame`), the outgoing calls and
//! the frame's outgoing area must agree on one assignment. On Linux a variadic call
//! passes its unnamed arguments exactly like named ones (floats in v registers too), so
//! the assignment depends on the argument types alone.
//!
//! Invariants: register numbers grow with the argument's position within its class;
//! stack slots are consecutive from 0 in argument order, one per stack argument (a
//! float's bits in the low bytes of its slot, as gcc stores them). Records never reach
//! here as aggregates (the front end lowers them to integer pieces and fillers, which
//! count as integers).

use super::float_inst::VReg;
use super::inst::Reg;
use crate::ir::IrType;

/// Argument registers of each class.
const REGS_PER_CLASS: usize = 8;

/// Where one argument travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArgSlot {
    /// A general register x0..x7.
    Gpr(Reg),
    /// An FP register v0..v7.
    Fpr(VReg),
    /// The `k`-th 8-byte stack slot (at `8k` from sp at the call).
    Stack(usize),
}

/// The slot of each argument of types `types`, in order.
pub(super) fn assign(types: impl IntoIterator<Item = IrType>) -> Vec<ArgSlot> {
    let (mut ngrn, mut nsrn, mut stack) = (0usize, 0usize, 0usize);
    let mut out = Vec::new();
    for ty in types {
        let slot = if ty.is_float() && nsrn < REGS_PER_CLASS {
            nsrn += 1;
            ArgSlot::Fpr(VReg((nsrn - 1) as u8))
        } else if !ty.is_float() && ngrn < REGS_PER_CLASS {
            ngrn += 1;
            ArgSlot::Gpr(Reg((ngrn - 1) as u8))
        } else {
            stack += 1;
            ArgSlot::Stack(stack - 1)
        };
        out.push(slot);
    }
    out
}

/// How many stack slots the arguments of types `types` take.
pub(super) fn stack_slots(types: impl IntoIterator<Item = IrType>) -> usize {
    assign(types)
        .iter()
        .filter(|s| matches!(s, ArgSlot::Stack(_)))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use IrType::{F32, F64, I32, I64};

    #[test]
    fn classes_count_their_own_registers_and_share_the_stack() {
        // Hand-assigned from AAPCS64 §6.8.2 (C.1, C.4, C.9, C.13): nine doubles and nine
        // ints interleaved — the ninth of each goes to the stack, in argument order.
        let mut types = Vec::new();
        for _ in 0..9 {
            types.push(F64);
            types.push(I32);
        }
        let slots = assign(types);
        assert_eq!(slots[0], ArgSlot::Fpr(VReg(0)));
        assert_eq!(slots[1], ArgSlot::Gpr(Reg(0)));
        assert_eq!(slots[14], ArgSlot::Fpr(VReg(7)));
        assert_eq!(slots[15], ArgSlot::Gpr(Reg(7)));
        assert_eq!(slots[16], ArgSlot::Stack(0));
        assert_eq!(slots[17], ArgSlot::Stack(1));
        assert_eq!(
            assign([F32, I64, F32]),
            vec![
                ArgSlot::Fpr(VReg(0)),
                ArgSlot::Gpr(Reg(0)),
                ArgSlot::Fpr(VReg(1))
            ]
        );
    }
}
