//! A function's stack frame: its slots, planned and then emitted as the lowering would.
//!
//! Why: the alloca form is what mem2reg consumes, and what makes a slot promotable or not
//! (size, volatility, whether its address escapes) is decided here, up front, so that a
//! good share of slots stays promotable while others exercise every reason not to be.
//!
//! Invariants:
//! - every `alloca` sits in the entry block (counters and guarded slots created later go to
//!   the prologue, which `FuncBuilder::finish` puts at the entry's head);
//! - every slot except `Guarded` and `FnPtr` ones is fully initialized in the entry block —
//!   each element stored — before any other code runs (late `Counter` and `Invariant`
//!   slots are zeroed in the prologue); `Guarded` slots are written and read only under one
//!   condition (see `guarded`), and a `FnPtr` slot is read only right after it is stored
//!   (see `stmt`), so no run reads uninitialized memory;
//! - a parameter slot is stored `paramref N` of its own type in the entry block;
//! - only `addressable` slots ever have their address used other than by a direct
//!   load/store; `ptr` slots are never addressable; a data or parameter `ptr` slot always
//!   holds a pointer satisfying its contract, a `FnPtr` slot (no contract) a function's
//!   address;
//! - `paramref N` values are recorded in [`Frame::params`]: defined in the entry block,
//!   they dominate every block and may be used anywhere reachable.

use super::memory::{emit_contract_addr, Base, MemObj};
use super::plan::{Contract, ModulePlan, Param, Signature};
use super::CfgGenConfig;
use crate::gen::builder::FuncBuilder;
use crate::gen::choice::Pick;
use crate::gen::consts::{interesting, wide_literal};
use arbitrary::{Result, Unstructured};
use compiler::ir::{konst, Inst, IrConst, IrType, Operand, Value};

/// What a slot is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A local variable: read and written freely.
    Data,
    /// The slot of parameter N (also read and written freely).
    Param(u32),
    /// A loop or cycle counter: written only by its loop's reset and increment.
    Counter,
    /// Written under one condition, read only under the same condition.
    Guarded,
    /// Written only right before one loop (its operands of a guarded division, see
    /// `invariant_div`), read freely.
    Invariant,
    /// A `ptr` slot holding a function's address for an indirect call.
    FnPtr,
}

/// What a slot is, before it exists.
#[derive(Clone, Copy, Debug)]
pub struct SlotSpec {
    pub ty: IrType,
    /// Elements of `ty` (more than one: an array, always addressable).
    pub count: u32,
    /// Bytes allocated (at least `count * size(ty)`; more for a padded scalar).
    pub size: u32,
    pub align: u32,
    pub volatile: bool,
    pub role: Role,
    /// Whether the address may be used as a gep base, call argument or stored value.
    pub addressable: bool,
    /// For `ptr` slots: what the held pointer addresses.
    pub contract: Option<Contract>,
}

impl SlotSpec {
    /// A scalar slot of `ty` with `role`, neither volatile nor addressable.
    pub fn scalar(ty: IrType, role: Role) -> SlotSpec {
        let size = ty.max_size();
        SlotSpec {
            ty,
            count: 1,
            size,
            align: size,
            volatile: false,
            role,
            addressable: false,
            contract: None,
        }
    }
}

/// An emitted slot.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    pub ptr: Value,
    pub spec: SlotSpec,
}

/// The slots of one function.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pub slots: Vec<Slot>,
    /// The `paramref` values of the entry block, with their types, in parameter order.
    pub params: Vec<(Value, IrType)>,
}

/// Decides the slots of function `fi`: one per parameter, data slots, and arrays shaped
/// for the pointer contracts of its callees.
pub fn plan_slots(
    u: &mut Unstructured,
    cfg: &CfgGenConfig,
    plan: &ModulePlan,
    fi: usize,
) -> Result<Vec<SlotSpec>> {
    let sig = &plan.sigs[fi];
    let mut specs = Vec::new();
    for (n, p) in sig.params.iter().enumerate() {
        let role = Role::Param(n as u32);
        let mut s = SlotSpec::scalar(p.ty(), role);
        match p {
            Param::Int(_) => {
                s.addressable = u.chance(cfg.escape_percent / 2)?;
                s.volatile = u.chance(cfg.volatile_percent / 2)?;
            }
            Param::Ptr(c) => s.contract = Some(*c),
        }
        specs.push(s);
    }
    let ndata = u.between(cfg.min_slots, cfg.max_slots)?;
    for _ in 0..ndata {
        let ty = IrType::INTEGERS[u.index(IrType::INTEGERS.len())?];
        let mut s = SlotSpec::scalar(ty, Role::Data);
        match u.weighted(&[10, 2, 2])? {
            1 => s = SlotSpec::scalar(IrType::Ptr, Role::Data),
            2 => {
                s.count = u.between(2, 4)?;
                s.size = ty.max_size() * s.count;
                s.addressable = true;
            }
            _ if u.chance(cfg.float_percent)? => {
                // A float slot: scalar, never escaping (so it is promoted unless volatile).
                s = SlotSpec::scalar(crate::gen::floats::float_type(u)?, Role::Data);
            }
            _ => {
                s.addressable = u.chance(cfg.escape_percent)?;
                if ty.max_size() < 8 && u.chance(10)? {
                    s.size = 8;
                }
            }
        }
        s.volatile = s.ty != IrType::Ptr && u.chance(cfg.volatile_percent)?;
        if s.count > 1 && u.chance(30)? {
            s.align = 8;
        }
        specs.push(s);
    }
    // Local arrays that fit a callee's pointer contract, so addresses escape into calls.
    for callee in &plan.sigs[fi + 1..] {
        for p in &callee.params {
            if let Param::Ptr(c) = p {
                if u.chance(50)? {
                    let count = c.count + u.between(0, 2)?;
                    specs.push(SlotSpec {
                        count,
                        size: c.elem.max_size() * count,
                        addressable: true,
                        ..SlotSpec::scalar(c.elem, Role::Data)
                    });
                }
            }
        }
    }
    // Data ptr slots need a contract some object satisfies; without one they become i64.
    let shapes: Vec<(IrType, u32)> = specs
        .iter()
        .filter(|s| s.addressable && s.ty.is_integer())
        .map(|s| (s.ty, s.count))
        .chain(plan.globals.iter().map(|g| (g.elem, g.count)))
        .collect();
    for s in specs.iter_mut() {
        if s.ty == IrType::Ptr && s.role == Role::Data {
            if shapes.is_empty() {
                *s = SlotSpec::scalar(IrType::I64, Role::Data);
            } else {
                let (elem, count) = shapes[u.index(shapes.len())?];
                s.contract = Some(Contract {
                    elem,
                    count: u.between(1, count)?,
                });
            }
        }
    }
    Ok(specs)
}

/// Emits the frame into the current (entry) block: allocas, parameter stores, then the
/// initialization of every element of every slot.
pub fn emit_frame(
    b: &mut FuncBuilder,
    u: &mut Unstructured,
    plan: &ModulePlan,
    sig: &Signature,
    specs: Vec<SlotSpec>,
) -> Result<Frame> {
    let mut frame = Frame::default();
    for spec in specs {
        let ptr = b.fresh();
        b.push(Inst::Alloca {
            dest: ptr,
            ty: spec.ty,
            size: spec.size,
            align: spec.align,
            volatile: spec.volatile,
        });
        frame.slots.push(Slot { ptr, spec });
    }
    // The parameter protocol: paramref N, then a store into the parameter's slot.
    let mut params = Vec::new();
    for slot in &frame.slots {
        if let Role::Param(n) = slot.spec.role {
            let ty = sig.params[n as usize].ty();
            let dest = b.fresh();
            b.push(Inst::ParamRef { dest, index: n, ty });
            b.store(ty, dest.into(), slot.ptr.into());
            params.push((n, dest, ty));
        }
    }
    params.sort_by_key(|p| p.0);
    frame.params = params.into_iter().map(|(_, v, ty)| (v, ty)).collect();
    // Objects a data ptr slot may point to at entry: locals and globals, never through
    // another ptr slot (which may not be initialized yet).
    let entry_objects: Vec<MemObj> = super::memory::objects(&frame, plan)
        .into_iter()
        .filter(|o| !matches!(o.base, Base::Through(_)))
        .collect();
    for i in 0..frame.slots.len() {
        let slot = frame.slots[i];
        if slot.spec.role != Role::Data {
            continue;
        }
        if slot.spec.ty == IrType::Ptr {
            let Some(c) = slot.spec.contract else {
                continue;
            };
            match emit_contract_addr(b, u, &frame, plan, &entry_objects, c)? {
                Some(addr) => b.store(IrType::Ptr, addr, slot.ptr.into()),
                None => debug_assert!(false, "planned contract with no object"),
            }
            continue;
        }
        let esize = slot.spec.ty.max_size();
        for k in 0..slot.spec.count {
            // Some locals start from a parameter (`int x = a;`), so arguments matter.
            let from_param = if u.chance(30)? {
                pick_int_param(u, &frame)?
            } else {
                None
            };
            let val = match from_param {
                Some(p) => {
                    let pty = p.spec.ty;
                    let v = b.load(pty, p.ptr.into());
                    if pty == slot.spec.ty {
                        v.into()
                    } else {
                        b.cast(pty, v.into(), slot.spec.ty).into()
                    }
                }
                None => initial_value(u, slot.spec.ty)?,
            };
            let addr: Operand = if k == 0 {
                slot.ptr.into()
            } else {
                b.gep(slot.ptr.into(), konst(IrType::I64, (k * esize) as i64))
                    .into()
            };
            b.store(slot.spec.ty, val, addr);
        }
    }
    Ok(frame)
}

/// A random integer parameter slot of `frame`, if it has one.
fn pick_int_param(u: &mut Unstructured, frame: &Frame) -> Result<Option<Slot>> {
    let params: Vec<Slot> = frame
        .slots
        .iter()
        .copied()
        .filter(|s| matches!(s.spec.role, Role::Param(_)) && s.spec.ty.is_integer())
        .collect();
    if params.is_empty() {
        return Ok(None);
    }
    Ok(Some(params[u.index(params.len())?]))
}

/// A literal for initializing a slot of `ty`: often an `:i64` literal as the lowering
/// writes it (narrowed by the store), otherwise a constant of the slot's own type.
pub fn initial_value(u: &mut Unstructured, ty: IrType) -> Result<Operand> {
    if ty.is_float() {
        return Ok(Operand::Const(crate::gen::floats::interesting_float(
            u, ty,
        )?));
    }
    Ok(if u.chance(50)? {
        Operand::Const(IrConst::new(IrType::I64, wide_literal(u, ty)?))
    } else {
        konst(ty, interesting(u, ty)?)
    })
}
