//! Register allocation over the phi-eliminated IR, shared by every target.
//!
//! Why it exists: phi elimination leaves a non-SSA function whose values are virtual
//! registers (a value may be assigned on several paths by `copy`); every value must get a
//! [`Loc`] — a machine register or a stack slot — such that no two values that are live at
//! the same time share one, and no value lives in a register a call clobbers while it is
//! live across that call. The target describes its registers in a [`RegisterFile`]; the
//! allocator knows no target.
//!
//! Two allocators:
//! - [`RegallocMode::LinearScan`] (`linear_scan`): live intervals over a linear order of
//!   the blocks, registers in the target's preference order, a value live across a call
//!   only in a callee-saved register, spilling the interval that ends furthest away;
//! - [`RegallocMode::Stack`] (`stack`): every value in its own stack slot — trivially
//!   right, the differential reference for the first.
//!
//! [`check`] (`checker`) verifies any allocation symbolically, the regalloc2 way: it
//! replays the function over abstract locations and proves that every use reads the
//! location that holds its value. The harness runs it on every program.
//!
//! Invariants of an [`Allocation`]:
//! - every value the function defines or uses has a location;
//! - a value of [`ValueClass::StackOnly`] (i64 on i686) is never in a register;
//! - a spill slot index is below `spill_slots.len()`, and each slot is big and aligned
//!   enough for every value placed in it;
//! - `used_callee_saved` lists every callee-saved register any value was given (the
//!   prologue saves exactly those), in the register file's order.

mod checker;
mod linear_scan;
mod stack;
#[cfg(test)]
pub(crate) mod test_ir;

pub use checker::{check, CheckError};

use super::RegallocMode;
use crate::ir::{Inst, IrFunction, IrType, Value};
use std::fmt;

/// A machine register, numbered by the target (`x86::Reg as u8`, ...). Its name is the
/// target's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PReg(pub u8);

/// A stack slot for spilled values, numbered per function; the frame layout gives it an
/// address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpillSlot(pub u32);

/// Where a value lives for its whole lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    Reg(PReg),
    Spill(SpillSlot),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Reg(r) => write!(f, "r{}", r.0),
            Loc::Spill(s) => write!(f, "slot{}", s.0),
        }
    }
}

/// Which kind of location a value may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueClass {
    /// A general-purpose register or a stack slot.
    Gpr,
    /// Only a stack slot (a value wider than a register: i64 on i686).
    StackOnly,
}

/// Size and alignment of a spill slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SlotShape {
    pub size: u32,
    pub align: u32,
}

/// A target's registers as the allocator sees them.
#[derive(Clone, Debug)]
pub struct RegisterFile {
    /// Registers values may live in, in order of preference. Scratch registers that the
    /// instruction selector uses between reading operands and writing the result are
    /// never in this list.
    pub allocatable: Vec<PReg>,
    /// Registers a call may overwrite (allocatable or not).
    pub call_clobbers: Vec<PReg>,
    /// Registers an IR `memcpy` may overwrite (empty when the target copies through
    /// scratch registers only).
    pub memcpy_clobbers: Vec<PReg>,
    /// Registers a function must preserve for its caller; those it allocates are saved
    /// by the prologue.
    pub callee_saved: Vec<PReg>,
    /// Bytes in a pointer (8, or 4 on i686): the size of `ptr` values and spill slots.
    pub ptr_bytes: u32,
    /// Bytes in a general-purpose register; a wider integer type is
    /// [`ValueClass::StackOnly`].
    pub reg_bytes: u32,
}

impl RegisterFile {
    /// The class of a value of type `ty`.
    pub fn class_of(&self, ty: IrType) -> ValueClass {
        if ty.size(self.ptr_bytes) > self.reg_bytes {
            ValueClass::StackOnly
        } else {
            ValueClass::Gpr
        }
    }

    /// The spill slot a value of type `ty` needs (at least a register's width, so a
    /// target may always store a whole register).
    pub fn slot_shape(&self, ty: IrType) -> SlotShape {
        let size = ty.size(self.ptr_bytes).max(self.reg_bytes);
        SlotShape {
            size,
            align: size.min(self.reg_bytes.max(4)),
        }
    }

    /// The registers `inst` overwrites besides its destination.
    pub fn clobbers(&self, inst: &Inst) -> &[PReg] {
        match inst {
            Inst::Call { .. } => &self.call_clobbers,
            Inst::Memcpy { .. } => &self.memcpy_clobbers,
            _ => &[],
        }
    }
}

/// Where every value of one function lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// Indexed by `Value.0`; `None` for numbers the function never mentions.
    pub locs: Vec<Option<Loc>>,
    /// The type each value was allocated for (indexed like `locs`).
    pub types: Vec<Option<IrType>>,
    /// Shape of each spill slot, indexed by `SpillSlot.0`.
    pub spill_slots: Vec<SlotShape>,
    /// Callee-saved registers given to some value, in the register file's order.
    pub used_callee_saved: Vec<PReg>,
}

impl Allocation {
    /// The location of `v`. Panics when `v` is not a value of the allocated function (a
    /// bug of the backend, never of the input).
    pub fn loc(&self, v: Value) -> Loc {
        self.locs
            .get(v.index())
            .copied()
            .flatten()
            .unwrap_or_else(|| panic!("regalloc: {v} has no location"))
    }

    /// The register of `v`, if it has one.
    pub fn reg(&self, v: Value) -> Option<PReg> {
        match self.loc(v) {
            Loc::Reg(r) => Some(r),
            Loc::Spill(_) => None,
        }
    }

    /// The type `v` was allocated for.
    pub fn ty(&self, v: Value) -> IrType {
        self.types
            .get(v.index())
            .copied()
            .flatten()
            .unwrap_or_else(|| panic!("regalloc: {v} has no type"))
    }
}

/// Allocates every value of `func` with the chosen allocator.
///
/// A function that calls `setjmp` (`setjmp_intrinsics::calls_returns_twice`) always gets
/// the stack allocation and saves every callee-saved register: a second return from the
/// call must find every value where it was, and the registers its caller expects
/// preserved must come back from its own save area (`__builtin_longjmp` restores none).
pub fn allocate(func: &IrFunction, regs: &RegisterFile, mode: RegallocMode) -> Allocation {
    if crate::setjmp_intrinsics::calls_returns_twice(func) {
        let mut alloc = stack::allocate(func, regs);
        alloc.used_callee_saved = regs.callee_saved.clone();
        return alloc;
    }
    match mode {
        RegallocMode::LinearScan => linear_scan::allocate(func, regs),
        RegallocMode::Stack => stack::allocate(func, regs),
    }
}

/// The type of every value `func` mentions, indexed by value number: the type of its
/// definitions (parameters through `paramref`; a value defined twice after phi
/// elimination has one type, the verifier guarantees it), or for a value that is only
/// used (never assigned: a read the oracle calls `UndefinedValue`) the context type of
/// its first use, so that it still gets a location.
pub fn all_value_types(func: &IrFunction) -> Vec<Option<IrType>> {
    let mut types = vec![None; func.value_bound() as usize];
    for block in &func.blocks {
        for inst in &block.insts {
            if let Some(d) = inst.dest() {
                types[d.index()] = Some(inst.result_type());
            }
        }
    }
    let mut note_use = |op: &crate::ir::Operand, ty: IrType| {
        if let crate::ir::Operand::Value(v) = op {
            types[v.index()].get_or_insert(ty);
        }
    };
    for block in &func.blocks {
        for inst in &block.insts {
            inst.for_each_operand_typed(&mut note_use);
        }
        block.term.for_each_operand_typed(&mut note_use);
    }
    types
}
