//! Where the RISC-V LP64D calling convention (riscv64-linux-gnu-gcc's default ABI) puts
//! each scalar argument: integers and pointers in a0-a7; a *named* `f32`/`f64` in fa0-fa7,
//! then, those used up, in the next free integer register, then on the stack; a
//! *variadic* float like an integer (a0-a7, then the stack); everything else that finds
//! no register in the next 8-byte stack slot, in argument order. A float result comes
//! back in fa0.
//!
//! Why it exists: the incoming parameters (`super::abi::Frame`), the outgoing calls, the
//! frame's outgoing area and `va_start` must agree on one assignment, and unlike AArch64
//! it depends on which arguments are variadic: the callee's declaration says how many
//! are named ([`VariadicCallees`]); an indirect call of a variadic function says it
//! itself (the IR call's `named`, `call T %fp(A, ..., B)`), any other indirect call
//! reaches a function that is not variadic.
//!
//! Invariants: a float in an integer register or a stack slot is its bits in the low
//! bytes (an `f32` zero-extended, the upper half being the callee's to ignore); stack
//! slots are consecutive from 0; a named argument's slot never depends on the unnamed
//! ones.

use super::float_inst::FReg;
use super::inst::Reg;
use crate::ir::{Callee, IrModule, IrType};
use rustc_hash::FxHashMap;

/// The integer argument registers.
const GPRS: [Reg; 8] = [
    Reg::A0,
    Reg::A1,
    Reg::A2,
    Reg::A3,
    Reg::A4,
    Reg::A5,
    Reg::A6,
    Reg::A7,
];

/// fa0..fa7 are f10..f17.
const FIRST_FA: u8 = 10;

/// Where one argument travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArgSlot {
    Gpr(Reg),
    Fpr(FReg),
    /// The `k`-th 8-byte stack slot (at `8k` from sp at the call).
    Stack(usize),
}

/// The variadic functions a module declares or defines, with their named parameter
/// counts.
#[derive(Clone, Debug, Default)]
pub(super) struct VariadicCallees(FxHashMap<String, usize>);

impl VariadicCallees {
    pub(super) fn of(module: &IrModule) -> VariadicCallees {
        let decls = module
            .decls
            .iter()
            .filter(|d| d.variadic)
            .map(|d| (d.name.clone(), d.params.len()));
        let funcs = module
            .functions
            .iter()
            .filter(|f| f.variadic)
            .map(|f| (f.name.clone(), f.params.len()));
        VariadicCallees(decls.chain(funcs).collect())
    }

    /// How many of a call's `args` arguments are named (all, for a non-variadic callee):
    /// the call's own count (`named`) when it has one, else its callee declaration's.
    pub(super) fn named(&self, callee: &Callee, named: Option<u32>, args: usize) -> usize {
        if let Some(n) = named {
            return (n as usize).min(args);
        }
        match callee {
            Callee::Direct(name) => self.0.get(name).copied().unwrap_or(args).min(args),
            Callee::Indirect(_) => args,
        }
    }
}

/// The slot of each argument of types `types`, the first `named` of them named.
pub(super) fn assign(types: &[IrType], named: usize) -> Vec<ArgSlot> {
    let (mut ngr, mut nfr, mut stack) = (0usize, 0u8, 0usize);
    let mut out = Vec::with_capacity(types.len());
    for (i, ty) in types.iter().enumerate() {
        let slot = if ty.is_float() && i < named && nfr < 8 {
            nfr += 1;
            ArgSlot::Fpr(FReg(FIRST_FA + nfr - 1))
        } else if ngr < GPRS.len() {
            ngr += 1;
            ArgSlot::Gpr(GPRS[ngr - 1])
        } else {
            stack += 1;
            ArgSlot::Stack(stack - 1)
        };
        out.push(slot);
    }
    out
}

/// How many stack slots a call's arguments take.
pub(super) fn stack_slots(types: &[IrType], named: usize) -> usize {
    assign(types, named)
        .iter()
        .filter(|s| matches!(s, ArgSlot::Stack(_)))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use IrType::{F64, I32};

    #[test]
    fn named_floats_spill_into_integer_registers_and_variadic_ones_start_there() {
        // Hand-assigned from the RISC-V psABI (hardware floating-point calling
        // convention): ten named doubles — fa0-fa7, then a0, a1.
        let slots = assign(&[F64; 10], 10);
        assert_eq!(slots[7], ArgSlot::Fpr(FReg(17)));
        assert_eq!(slots[8], ArgSlot::Gpr(Reg::A0));
        assert_eq!(slots[9], ArgSlot::Gpr(Reg::A1));
        // printf("%f %d", 1.0, 2): the format is named, the rest variadic.
        let slots = assign(&[IrType::Ptr, F64, I32], 1);
        assert_eq!(
            slots,
            vec![
                ArgSlot::Gpr(Reg::A0),
                ArgSlot::Gpr(Reg::A1),
                ArgSlot::Gpr(Reg::A2)
            ]
        );
        // Nine ints and a named double: the double still finds fa0.
        let mut types = vec![I32; 9];
        types.push(F64);
        let slots = assign(&types, 10);
        assert_eq!(slots[8], ArgSlot::Stack(0));
        assert_eq!(slots[9], ArgSlot::Fpr(FReg(10)));
    }
}
