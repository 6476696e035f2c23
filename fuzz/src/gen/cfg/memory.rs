//! Memory objects and addresses into them.
//!
//! Why: escaping slots, globals and pointer parameters are all "some initialized bytes at
//! an address"; loads and stores through `gep`, pointers passed to callees and pointers
//! kept in `ptr` slots all need an in-bounds address of the right shape. One description
//! ([`MemObj`]) and one address emitter keep all of them in bounds.
//!
//! Invariants:
//! - an access of type `T` at byte offset `off` into an object satisfies
//!   `off % size(T) == 0` and `off + size(T) <= init bytes`, so it never leaves the object
//!   nor reads padding that was never written;
//! - reinterpreting bytes as another type (`punnable`) is done only on objects this
//!   function owns or globals, never through a pointer whose target is unknown;
//! - a pointer produced for a contract `(elem, count)` addresses `count` whole elements of
//!   an object of element type `elem`.

use super::frame::{Frame, Role};
use super::plan::{Contract, ModulePlan};
use crate::gen::builder::FuncBuilder;
use crate::gen::choice::Pick;
use arbitrary::{Result, Unstructured};
use compiler::ir::{konst, IrType, Operand};

/// Where an object's address comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// An addressable slot of this frame (its alloca value).
    Slot(usize),
    /// A global (through `globaladdr`).
    Global(usize),
    /// Whatever the `ptr` slot with this index points to (load the pointer first).
    Through(usize),
}

/// Initialized memory the function may access.
#[derive(Clone, Copy, Debug)]
pub struct MemObj {
    pub base: Base,
    pub elem: IrType,
    pub count: u32,
    /// May be read and written as other integer types at aligned offsets.
    pub punnable: bool,
}

impl MemObj {
    /// Initialized bytes.
    pub fn bytes(&self) -> u32 {
        self.elem.max_size() * self.count
    }
}

/// Every object of the frame: addressable integer slots, globals, and the targets of
/// `ptr` slots (data and parameter slots with a contract).
pub fn objects(frame: &Frame, plan: &ModulePlan) -> Vec<MemObj> {
    let mut out = Vec::new();
    for (i, s) in frame.slots.iter().enumerate() {
        if s.spec.addressable && s.spec.ty.is_integer() && s.spec.role != Role::Guarded {
            out.push(MemObj {
                base: Base::Slot(i),
                elem: s.spec.ty,
                count: s.spec.count,
                punnable: true,
            });
        }
    }
    for (i, g) in plan.globals.iter().enumerate() {
        out.push(MemObj {
            base: Base::Global(i),
            elem: g.elem,
            count: g.count,
            punnable: true,
        });
    }
    for (i, s) in frame.slots.iter().enumerate() {
        if let (IrType::Ptr, Some(c)) = (s.spec.ty, s.spec.contract) {
            out.push(MemObj {
                base: Base::Through(i),
                elem: c.elem,
                count: c.count,
                punnable: false,
            });
        }
    }
    out
}

/// Emits the object's base address.
pub fn emit_base(b: &mut FuncBuilder, frame: &Frame, plan: &ModulePlan, base: Base) -> Operand {
    match base {
        Base::Slot(i) => frame.slots[i].ptr.into(),
        Base::Global(g) => b.global_addr(&plan.globals[g].name).into(),
        Base::Through(p) => b.load(IrType::Ptr, frame.slots[p].ptr.into()).into(),
    }
}

/// Emits the address `byte_off` bytes into `obj` (a `gep`, or the base itself for 0).
pub fn emit_addr(
    b: &mut FuncBuilder,
    u: &mut Unstructured,
    frame: &Frame,
    plan: &ModulePlan,
    obj: &MemObj,
    byte_off: u32,
) -> Result<Operand> {
    let base = emit_base(b, frame, plan, obj.base);
    if byte_off == 0 && u.chance(50)? {
        return Ok(base);
    }
    Ok(b.gep(base, konst(IrType::I64, byte_off as i64)).into())
}

/// An in-bounds, aligned access into `obj`: its type and byte offset. Usually an element;
/// for punnable objects sometimes another integer type that fits.
pub fn pick_access(u: &mut Unstructured, obj: &MemObj) -> Result<(IrType, u32)> {
    if obj.punnable && u.chance(20)? {
        let fitting: Vec<IrType> = IrType::INTEGERS
            .iter()
            .copied()
            .filter(|t| t.max_size() <= obj.bytes())
            .collect();
        if !fitting.is_empty() {
            let ty = fitting[u.index(fitting.len())?];
            let slots = obj.bytes() / ty.max_size();
            let off = u.index(slots as usize)? as u32 * ty.max_size();
            return Ok((ty, off));
        }
    }
    let k = u.index(obj.count as usize)? as u32;
    Ok((obj.elem, k * obj.elem.max_size()))
}

/// Emits a pointer satisfying contract `c`, chosen among `candidates`; `None` when no
/// candidate fits.
pub fn emit_contract_addr(
    b: &mut FuncBuilder,
    u: &mut Unstructured,
    frame: &Frame,
    plan: &ModulePlan,
    candidates: &[MemObj],
    c: Contract,
) -> Result<Option<Operand>> {
    let fitting: Vec<&MemObj> = candidates
        .iter()
        .filter(|o| o.elem == c.elem && o.count >= c.count)
        .collect();
    if fitting.is_empty() {
        return Ok(None);
    }
    let obj = *fitting[u.index(fitting.len())?];
    let start = if u.chance(50)? {
        0
    } else {
        u.between(0, obj.count - c.count)?
    };
    Ok(Some(emit_addr(
        b,
        u,
        frame,
        plan,
        &obj,
        start * c.elem.max_size(),
    )?))
}
