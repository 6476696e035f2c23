//! The i386 System V calling convention as phicc uses it: the frame, the prologue and
//! epilogue, incoming parameters, calls and returns.
//!
//! Why it exists: everything that must agree with gcc-compiled code (libc, libgcc, the
//! test drivers) is here. The convention:
//! - every argument on the stack, in order from 0(%esp) at the call: 4 bytes each (a narrow
//!   integer sign- or zero-extended to a word), 8 for `i64`/`u64` (low word first); the
//!   frame reserves the outgoing area once, so there are no pushes around calls and %esp
//!   is 16-byte aligned at every call (gcc's code assumes it);
//! - results in eax, or edx:eax for 64-bit ones; the caller re-extends a narrow result
//!   (the ABI leaves the upper bits unspecified); float results in `st(0)` (the caller
//!   pops it even when nobody reads it, so the x87 stack stays empty);
//! - `f32` arguments take 4 bytes, `f64` 8 (4-byte aligned, like `i64`);
//! - eax, ecx and edx are the caller's; ebx, esi, edi and ebp the callee's.
//!
//! The frame (from high addresses down):
//! ```text
//!   8(%ebp) ...        incoming arguments (parameter i at 8 + the sizes before it)
//!   4(%ebp)            return address
//!   0(%ebp)            saved ebp
//!   -4(%ebp) ...       saved callee-saved registers (pushed)
//!                      [padding; `andl $-A, %esp` when an alloca wants A > 16]
//!   %esp + outgoing    allocas and spill slots (backend::frame::layout)
//!   %esp               outgoing arguments
//! ```
//! Invariants: %esp never moves between the prologue and an epilogue (except inside a
//! `rep movs` copy, which addresses nothing through %esp, and in a function with dynamic
//! stack allocation, `dynamic_stack.rs`, whose slots are addressed from %ebp); it is a
//! multiple of 16 — and of every slot's alignment — there; the epilogue restores %esp from %ebp, so it is right
//! whatever realignment the prologue did.

use super::float::{needs_float_scratch, FLOAT_SCRATCH_BYTES};
use super::isel::{bytes_of, Selector, EAX, EDX, ESP};
use super::wide::WIDE_DIVISION_ARG_BYTES;
use crate::abi_intrinsics::AbiSret;
use crate::backend::regalloc::{Allocation, SlotShape, SpillSlot};
use crate::backend::second_result::sret_intrinsic;
use crate::backend::x86::inst::{AluOp, CallTarget, Inst as MInst, Mem, Operand as Opnd, Size};
use crate::backend::x86::Reg;
use crate::backend::{dynamic_stack, frame};
use crate::backend::{BackendError, Target};
use crate::frame_intrinsics::FrameIntrinsic;
use crate::ir::{Callee, Inst, IrFunction, IrType, Operand, Value};
use rustc_hash::FxHashMap;

/// The stack alignment at every call (and so at function entry, before the return
/// address is pushed).
const STACK_ALIGN: u32 = 16;

/// Frames larger than this are refused (a BackendError, not an overflow).
const MAX_FRAME_BYTES: u64 = 1 << 30;

/// One function's frame.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Callee-saved registers pushed after ebp, in push order.
    pub saved: Vec<Reg>,
    /// `andl $-A, %esp` after the pushes, when some slot needs more than 16.
    pub realign: Option<u32>,
    /// Bytes subtracted from %esp after the pushes (and the realignment).
    pub sub: u32,
    alloca_offsets: FxHashMap<Value, u32>,
    spill_offsets: Vec<u32>,
    param_offsets: Vec<i64>,
    /// Bytes of arguments the callee pops on return (4 with a hidden result pointer).
    pops: u32,
    /// Offset from %ebp of the first slot after the named parameters (`va_start`).
    unnamed: i64,
    /// In a function with dynamic stack allocation, how far below %ebp the prologue
    /// leaves %esp: slots are then addressed from %ebp.
    dynamic_base: Option<i64>,
    /// The size of the outgoing-argument area (dynamic objects start right above it).
    pub outgoing: u32,
}

/// The bytes an argument of type `ty` takes on the stack.
fn stack_bytes(ty: IrType) -> u32 {
    if bytes_of(ty) == 8 {
        8
    } else {
        4
    }
}

impl Frame {
    /// Lays out `func`'s frame for `alloc`.
    pub fn new(func: &IrFunction, alloc: &Allocation) -> Result<Frame, BackendError> {
        let error =
            |inst: Option<&Inst>, msg: String| BackendError::new(Target::I686, func, inst, msg);
        let mut slots: Vec<SlotShape> = Vec::new();
        let mut alloca_values = Vec::new();
        let mut outgoing = 0u32;
        let mut total: u64 = 0;
        // A hidden result pointer precedes the arguments of the call it goes with.
        let sret_bytes = if func
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(|i| AbiSret::of(i) == Some(AbiSret::Arg))
        {
            4
        } else {
            0
        };
        // This function receives one: it is the first incoming slot, popped on return.
        let pops = match func.blocks.first() {
            Some(entry)
                if entry
                    .insts
                    .iter()
                    .any(|i| AbiSret::of(i) == Some(AbiSret::Param)) =>
            {
                4
            }
            _ => 0,
        };
        for (b, block) in func.blocks.iter().enumerate() {
            for inst in &block.insts {
                match inst {
                    Inst::Alloca {
                        dest, size, align, ..
                    } => {
                        if b != 0 {
                            return Err(error(Some(inst), "alloca outside the entry block".into()));
                        }
                        let align = (*align).max(1);
                        if !align.is_power_of_two() {
                            return Err(error(
                                Some(inst),
                                format!("alloca alignment {align} is not a power of two"),
                            ));
                        }
                        total += u64::from(*size) + u64::from(align);
                        slots.push(SlotShape {
                            size: (*size).max(1),
                            align,
                        });
                        alloca_values.push(*dest);
                    }
                    Inst::Call { args, .. } => {
                        let bytes: u32 = args.iter().map(|(ty, _)| stack_bytes(*ty)).sum();
                        outgoing = outgoing.max(bytes + sret_bytes);
                    }
                    // Float code uses the bottom of the outgoing area as scratch memory.
                    inst if needs_float_scratch(inst) => {
                        outgoing = outgoing.max(FLOAT_SCRATCH_BYTES);
                    }
                    Inst::Bin { op, ty, .. } if op.can_trap() && bytes_of(*ty) == 8 => {
                        outgoing = outgoing.max(WIDE_DIVISION_ARG_BYTES);
                    }
                    _ => {}
                }
            }
        }
        if func.ret.is_float() {
            // `ret` loads the result onto the x87 stack through the scratch area.
            outgoing = outgoing.max(FLOAT_SCRATCH_BYTES);
        }
        for shape in &alloc.spill_slots {
            total += u64::from(shape.size) + u64::from(shape.align);
            slots.push(*shape);
        }
        if total + u64::from(outgoing) > MAX_FRAME_BYTES {
            return Err(error(
                None,
                format!("frame larger than {MAX_FRAME_BYTES} bytes"),
            ));
        }
        let outgoing = dynamic_stack::outgoing_bytes(func, outgoing);
        let layout = frame::layout(&slots, outgoing, STACK_ALIGN);
        let saved: Vec<Reg> = alloc
            .used_callee_saved
            .iter()
            .map(|p| Reg::from_preg(*p))
            .collect();
        let (realign, sub) = if layout.max_align > STACK_ALIGN {
            let a = layout.max_align;
            (Some(a), layout.size.div_ceil(a) * a)
        } else {
            // At entry %esp = 12 (mod 16); after `push %ebp` and the saves it is
            // 8 - 4 * saves (mod 16).
            let misalign = (8 + 16 - 4 * (saved.len() as u32 % 4)) % 16;
            (None, layout.size + misalign)
        };
        let alloca_offsets = alloca_values
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, layout.offset(i)))
            .collect();
        let spill_offsets = (0..alloc.spill_slots.len())
            .map(|i| layout.offset(alloca_values.len() + i))
            .collect();
        let mut param_offsets = Vec::with_capacity(func.params.len());
        let mut at = 8i64 + i64::from(pops);
        for ty in &func.params {
            param_offsets.push(at);
            at += i64::from(stack_bytes(*ty));
        }
        let dynamic_base = if dynamic_stack::is_dynamic(func) {
            if realign.is_some() {
                return Err(error(None, dynamic_stack::OVER_ALIGNED_MESSAGE.into()));
            }
            Some(4 * saved.len() as i64 + i64::from(sub))
        } else {
            None
        };
        Ok(Frame {
            saved,
            realign,
            sub,
            alloca_offsets,
            spill_offsets,
            param_offsets,
            pops,
            unnamed: at,
            dynamic_base,
            outgoing,
        })
    }

    /// The slot of an alloca's object.
    pub fn alloca_mem(&self, v: Value) -> Option<Mem> {
        self.alloca_offsets.get(&v).map(|off| self.slot_mem(*off))
    }

    /// A spill slot.
    pub fn spill_mem(&self, s: SpillSlot) -> Mem {
        self.slot_mem(self.spill_offsets[s.0 as usize])
    }

    /// The frame slot at `offset` above the prologue's %esp: from %esp, or from %ebp in a
    /// function with dynamic stack allocation.
    fn slot_mem(&self, offset: u32) -> Mem {
        match self.dynamic_base {
            Some(below) => Mem::base_disp(Reg::Rbp, i64::from(offset) - below),
            None => Mem::base_disp(ESP, i64::from(offset)),
        }
    }

    /// The first incoming slot after the named parameters (where `va_start` begins).
    pub fn first_unnamed(&self) -> Mem {
        Mem::base_disp(Reg::Rbp, self.unnamed)
    }

    /// Where the hidden result pointer arrived (the first incoming slot).
    pub fn sret_mem(&self) -> Mem {
        Mem::base_disp(Reg::Rbp, 8)
    }

    /// Where incoming parameter `index` is.
    pub fn param_mem(&self, index: u32) -> Option<Mem> {
        self.param_offsets
            .get(index as usize)
            .map(|off| Mem::base_disp(Reg::Rbp, *off))
    }

    pub fn prologue(&self) -> Vec<MInst> {
        let mut out = vec![
            push(Reg::Rbp),
            MInst::Mov {
                size: Size::L,
                src: Opnd::Reg(ESP),
                dst: Opnd::Reg(Reg::Rbp),
            },
        ];
        out.extend(self.saved.iter().map(|r| push(*r)));
        if let Some(a) = self.realign {
            out.push(MInst::Alu {
                op: AluOp::And,
                size: Size::L,
                src: Opnd::Imm(-i64::from(a)),
                dst: Opnd::Reg(ESP),
            });
        }
        if self.sub > 0 {
            out.push(MInst::Alu {
                op: AluOp::Sub,
                size: Size::L,
                src: Opnd::Imm(i64::from(self.sub)),
                dst: Opnd::Reg(ESP),
            });
        }
        out
    }

    pub fn epilogue(&self) -> Vec<MInst> {
        let saves = self.saved.len() as i64;
        let mut out = vec![MInst::Lea {
            size: Size::L,
            src: Mem::base_disp(Reg::Rbp, -4 * saves),
            dst: ESP,
        }];
        out.extend(self.saved.iter().rev().map(|r| pop(*r)));
        out.push(pop(Reg::Rbp));
        out.push(match self.pops {
            0 => MInst::Ret,
            n => MInst::RetPop(n as u16),
        });
        out
    }
}

/// `pushl %r`.
fn push(r: Reg) -> MInst {
    MInst::Push {
        size: Size::L,
        src: Opnd::Reg(r),
    }
}

/// `popl %r`.
fn pop(r: Reg) -> MInst {
    MInst::Pop {
        size: Size::L,
        dst: Opnd::Reg(r),
    }
}

impl Selector<'_> {
    /// `paramref N, TYPE`: reads the incoming argument, re-extending a narrow one.
    pub(super) fn param_ref(
        &mut self,
        dest: Value,
        index: u32,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let mem = self
            .frame
            .param_mem(index)
            .ok_or_else(|| self.error(format!("paramref {index}: no such parameter")))?;
        match bytes_of(ty) {
            8 => {
                self.load(EAX, Opnd::Mem(mem.clone()));
                self.load(EDX, Opnd::Mem(mem.offset_by(4)));
                self.set_pair(dest, EAX, EDX)?;
            }
            4 => {
                self.load(EAX, Opnd::Mem(mem));
                self.set_word(dest, EAX);
            }
            bytes @ (1 | 2) => {
                self.extend_into(EAX, Opnd::Mem(mem), bytes, ty.is_signed());
                self.set_word(dest, EAX);
            }
            _ => return Err(self.error(format!("parameter of type {ty}"))),
        }
        Ok(())
    }

    /// A call: arguments into the outgoing area, the call, the result re-extended.
    pub(super) fn call(
        &mut self,
        dest: Option<Value>,
        ret: IrType,
        callee: &Callee,
        args: &[(IrType, Operand)],
    ) -> Result<(), BackendError> {
        if crate::backend::va::is_va_start(callee) {
            return self.select_va_start(args);
        }
        if let (Some(k), Some(d)) = (FrameIntrinsic::of_callee(callee), dest) {
            // Every frame keeps %ebp: the caller's return address at 4(%ebp).
            match k {
                FrameIntrinsic::ReturnAddress => {
                    self.load(EAX, Opnd::Mem(Mem::base_disp(Reg::Rbp, 4)));
                    self.set_word(d, EAX);
                }
                FrameIntrinsic::FrameAddress => self.set_word(d, Reg::Rbp),
            }
            return Ok(());
        }
        if let Some(k) = sret_intrinsic(callee) {
            // The hidden result pointer: stored first, for the call that directly follows
            // (the verifier keeps it there), or read where it arrived.
            match (k, args.first(), dest) {
                (AbiSret::Arg, Some((ty, op)), _) => {
                    let w = self.word(op, *ty);
                    self.move_word(w, Opnd::Mem(Mem::base_disp(ESP, 0)), EAX);
                    self.sret_pending = true;
                }
                (AbiSret::Param, _, Some(d)) => {
                    let mem = self.frame.sret_mem();
                    self.load(EAX, Opnd::Mem(mem));
                    self.set_word(d, EAX);
                }
                _ => {}
            }
            return Ok(());
        }
        let pops = std::mem::take(&mut self.sret_pending);
        let mut at = if pops { 4i64 } else { 0 };
        for (ty, op) in args {
            if bytes_of(*ty) == 8 {
                let (lo, hi) = self.pair(op, *ty)?;
                self.move_word(lo, Opnd::Mem(Mem::base_disp(ESP, at)), EAX);
                self.move_word(hi, Opnd::Mem(Mem::base_disp(ESP, at + 4)), EAX);
            } else {
                // Values are canonical 32-bit words: a narrow argument goes out extended.
                let w = self.word(op, *ty);
                self.move_word(w, Opnd::Mem(Mem::base_disp(ESP, at)), EAX);
            }
            at += i64::from(stack_bytes(*ty));
        }
        let target = match callee {
            Callee::Direct(name) => CallTarget::Symbol(name.clone()),
            Callee::Indirect(fp) => match self.word(fp, IrType::Ptr) {
                Opnd::Imm(k) => {
                    self.load(EAX, Opnd::Imm(k));
                    CallTarget::Indirect(Opnd::Reg(EAX))
                }
                other => CallTarget::Indirect(other),
            },
        };
        self.emit(MInst::Call(target));
        if pops {
            // The callee popped the hidden pointer: %esp is fixed between prologue and
            // epilogue.
            self.emit(MInst::Alu {
                op: AluOp::Sub,
                size: Size::L,
                src: Opnd::Imm(4),
                dst: Opnd::Reg(ESP),
            });
        }
        if ret.is_float() {
            return self.float_call_result(dest, ret);
        }
        let Some(dest) = dest else {
            return Ok(());
        };
        match bytes_of(ret) {
            8 => self.set_pair(dest, EAX, EDX)?,
            1 | 2 | 4 => {
                self.extend_canonical(EAX, ret);
                self.set_word(dest, EAX);
            }
            _ => return Err(self.error(format!("call result of type {ret}"))),
        }
        Ok(())
    }

    /// `ret [TYPE V]`: the value into eax (edx:eax), then the epilogue.
    pub(super) fn ret(&mut self, value: Option<&(IrType, Operand)>) -> Result<(), BackendError> {
        if let Some((ty, op)) = value {
            if ty.is_float() {
                self.float_return_value(*ty, op)?;
            } else if bytes_of(*ty) == 8 {
                let (lo, hi) = self.pair(op, *ty)?;
                self.load(EAX, lo);
                self.load(EDX, hi);
            } else if bytes_of(*ty) > 0 {
                let w = self.word(op, *ty);
                self.load(EAX, w);
            }
        }
        for inst in self.frame.epilogue() {
            self.emit(inst);
        }
        Ok(())
    }
}
