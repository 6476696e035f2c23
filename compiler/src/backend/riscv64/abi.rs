//! The RISC-V LP64 integer calling convention as phicc uses it: the frame, the prologue
//! and epilogue, incoming parameters, outgoing calls and returned values.
//!
//! Why it exists: everything that must agree with code phicc did not compile (libc, and
//! gcc's callers and callees in a mixed link) lives here, apart from instruction
//! selection.
//!
//! The ABI's rules for integers (phicc has no floating point): arguments in a0-a7, the
//! ninth and later in 8-byte stack slots at 0(sp), 8(sp), ... of the caller's frame;
//! variadic arguments exactly like named ones (each fits XLEN); results in a0; sp 16-byte
//! aligned at every call; s0-s11 preserved. A value narrower than 64 bits is passed and
//! returned *extended*: by its own signedness for 8 and 16 bits, but a 32-bit value is
//! always **sign**-extended, even a `u32` (the RV64 convention that keeps 32-bit values
//! in the form the `*w` instructions produce). phicc's canonical form zero-extends `u32`,
//! so the two are converted at every boundary, as gcc does: outgoing `u32` arguments and
//! returned `u32` values are sign-extended (`addiw r, r, 0`), incoming `u32` parameters
//! and call results are zero-extended again. Every other narrow type's canonical form
//! already is the ABI's; parameters and results are re-extended anyway on arrival.
//!
//! The frame (addresses grow upwards; s0 is the frame pointer, equal to sp at entry):
//! ```text
//!   8k(s0)          incoming stack argument k (parameter 8+k)
//!   -64..0(s0)      only in a function that calls `va_start`: a0-a7 (`va.rs`); then
//!                   everything below moves down by those 64 bytes
//!   -8(s0)          return address
//!   -16(s0)         caller's s0
//!   -24-8i(s0)      callee-saved register i the allocation used
//!                   [padding to 16, realignment]
//!   off(sp)         slots: allocas, spill slots, parameter homes (`frame::layout`)
//!   0..(sp)         outgoing stack arguments of the largest call
//! ```
//!
//! Invariants:
//! - sp is 16-byte aligned after the prologue and never moves until the epilogue, so
//!   every call happens with an aligned stack and every slot has one fixed address —
//!   except in a function with dynamic stack allocation (`dynamic_stack.rs`), where sp
//!   moves by multiples of 16 and every slot is addressed from s0 ([`Frame::base`]);
//! - when a slot needs more than 16-byte alignment the prologue realigns sp (`andi`),
//!   and the epilogue restores it from s0, which also reaches the incoming stack
//!   arguments;
//! - the prologue stores every register parameter that a `paramref` reads into its home
//!   slot before anything can clobber it; `paramref` loads it with the load of its type's
//!   width and signedness, which re-extends it canonically;
//! - a call's stack arguments are stored first, then the register arguments are set by
//!   one parallel move (`backend::parallel_move`, cycles broken through t0), so no
//!   argument register is overwritten before it is read; the callee's address (indirect
//!   calls) waits in t1;
//! - memory below sp is never used (the kernel may write there for a signal).

use super::constants::materialize;
use super::float_abi::{self, ArgSlot, VariadicCallees};
use super::float_inst::{FInst, FReg};
use super::inst::{fits_imm12, AluImmOp, AluOp, Inst, LoadKind, Reg, StoreKind};
use super::isel::Selector;
use super::RISCV64;
use crate::abi_intrinsics::AbiHi;
use crate::backend::frame::{collect_slots_with, FrameLayout, FrameRules, FrameSlots};
use crate::backend::parallel_move::{self, Move, Source};
use crate::backend::regalloc::{Allocation, Loc, SpillSlot};
use crate::backend::second_result::{float_part_intrinsic, second_result_intrinsic};
use crate::backend::{dynamic_stack, BackendError};
use crate::frame_intrinsics::FrameIntrinsic;
use crate::ir::{Callee, Inst as IrInst, IrFunction, IrType, Operand as IrOperand, Value};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// Integer argument registers, in order.
pub(super) const ARG_REGS: [Reg; 8] = [
    Reg::A0,
    Reg::A1,
    Reg::A2,
    Reg::A3,
    Reg::A4,
    Reg::A5,
    Reg::A6,
    Reg::A7,
];

/// The stack alignment the ABI guarantees at a call.
const STACK_ALIGN: u32 = 16;

/// The largest frame phicc lays out (offsets stay far from overflowing 32 bits).
const MAX_FRAME: u64 = i32::MAX as u64 - (1 << 21);

/// The largest alignment an alloca may ask for.
const MAX_ALIGN: u32 = 1 << 20;

/// Where the parts of one function's frame are.
pub(super) struct Frame {
    layout: FrameLayout,
    /// Slot index of each alloca.
    alloca_slots: FxHashMap<Value, usize>,
    /// Slot index of spill slot 0 (spill slots follow in order).
    spill_base: usize,
    /// Slot index of the home of each register parameter a `paramref` reads (by
    /// parameter index).
    homes: Vec<Option<usize>>,
    /// Where each parameter arrives (`float_abi`; all named).
    params: Vec<ArgSlot>,
    /// Callee-saved registers the prologue saves, in order (at -24, -32, ... from s0).
    saved: Vec<Reg>,
    /// Bytes between s0 and the top of the slot area: ra, s0, the saved registers,
    /// rounded up to 16.
    header: i64,
    /// The alignment the prologue realigns sp to, when it exceeds the ABI's.
    realign: Option<u32>,
    /// Bytes right below s0 where the prologue spills a0-a7 for `va_start` (`va.rs`):
    /// 64 in a function that calls it, else 0; ra, s0 and the saved registers go below.
    va_area: i64,
    /// In a function with dynamic stack allocation, how far below s0 the prologue leaves
    /// sp: its slots are addressed from s0.
    dynamic_below_fp: Option<i64>,
}

/// Appends the instructions that access `offset(base)` to `out`, computing the address
/// in t6 first when the offset does not fit 12 bits: the register and offset to use.
pub(super) fn frame_address(base: Reg, offset: i64, out: &mut Vec<Inst>) -> (Reg, i64) {
    if fits_imm12(offset) {
        return (base, offset);
    }
    out.extend(materialize(offset, Reg::T6));
    out.push(Inst::alu(AluOp::Add, Reg::T6, base, Reg::T6));
    (Reg::T6, 0)
}

/// Appends `dst = base + offset` (any offset; `dst` may be t6) to `out`.
pub(super) fn add_offset(dst: Reg, base: Reg, offset: i64, out: &mut Vec<Inst>) {
    if fits_imm12(offset) {
        out.push(Inst::imm(AluImmOp::Addi, dst, base, offset));
    } else {
        out.extend(materialize(offset, Reg::T6));
        out.push(Inst::alu(AluOp::Add, dst, base, Reg::T6));
    }
}

impl Frame {
    /// Lays out the frame of `func` under allocation `alloc`.
    pub(super) fn build(
        func: &IrFunction,
        alloc: &Allocation,
        variadic: &VariadicCallees,
    ) -> Result<Frame, BackendError> {
        let params = float_abi::assign(&func.params, func.params.len());
        let in_register: Vec<bool> = params
            .iter()
            .map(|s| !matches!(s, ArgSlot::Stack(_)))
            .collect();
        let stack_slots = |inst: &IrInst| match inst {
            IrInst::Call {
                callee,
                args,
                named,
                ..
            } => {
                let types: Vec<IrType> = args.iter().map(|a| a.0).collect();
                float_abi::stack_slots(&types, variadic.named(callee, *named, types.len()))
            }
            _ => 0,
        };
        let FrameSlots {
            layout,
            alloca_slots,
            spill_base,
            homes,
        } = collect_slots_with(
            func,
            alloc,
            &FrameRules {
                target: RISCV64,
                arg_regs: ARG_REGS.len(),
                max_frame: MAX_FRAME,
                max_align: MAX_ALIGN,
                stack_align: STACK_ALIGN,
            },
            &in_register,
            &stack_slots,
        )?;
        let realign = (layout.max_align > STACK_ALIGN).then_some(layout.max_align);
        let saved: Vec<Reg> = alloc
            .used_callee_saved
            .iter()
            .map(|&p| Reg::from_preg(p))
            .collect();
        let header = (16 + 8 * saved.len() as i64 + 15) / 16 * 16;
        let va_area = if crate::backend::va::starts_va(func) {
            super::va::SAVE_AREA
        } else {
            0
        };
        let dynamic_below_fp = if dynamic_stack::is_dynamic(func) {
            if realign.is_some() {
                return Err(BackendError::new(
                    RISCV64,
                    func,
                    None,
                    dynamic_stack::OVER_ALIGNED_MESSAGE.into(),
                ));
            }
            Some(header + va_area + i64::from(layout.size))
        } else {
            None
        };
        Ok(Frame {
            layout,
            alloca_slots,
            spill_base,
            homes,
            params,
            saved,
            header,
            realign,
            va_area,
            dynamic_below_fp,
        })
    }

    /// The offset of frame slot `slot` from [`Frame::base`].
    fn slot_offset(&self, slot: usize) -> i64 {
        i64::from(self.layout.offset(slot)) - self.dynamic_below_fp.unwrap_or(0)
    }

    /// The register the frame's slots are addressed from: sp, or s0 in a function with
    /// dynamic stack allocation (where sp moves).
    pub(super) fn base(&self) -> Reg {
        if self.dynamic_below_fp.is_some() {
            Reg::S0
        } else {
            Reg::Sp
        }
    }

    /// The size of the outgoing-argument area (dynamic objects start right above it).
    pub(super) fn outgoing_bytes(&self) -> u32 {
        self.layout.outgoing
    }

    /// The offset from [`Frame::base`] of alloca `v`'s stack object.
    pub(super) fn alloca_offset(&self, v: Value) -> Option<i64> {
        self.alloca_slots.get(&v).map(|&s| self.slot_offset(s))
    }

    /// The offset from [`Frame::base`] of spill slot `s`.
    pub(super) fn spill_offset(&self, s: SpillSlot) -> i64 {
        self.slot_offset(self.spill_base + s.0 as usize)
    }

    /// Where parameter `index`'s incoming value is (base register and offset): its home
    /// slot (register parameters) or the caller's outgoing area (stack parameters).
    pub(super) fn param_location(&self, index: u32) -> Option<(Reg, i64)> {
        let index = index as usize;
        match self.params.get(index)? {
            ArgSlot::Stack(k) => Some((Reg::S0, 8 * *k as i64)),
            _ => self.homes[index].map(|s| (self.base(), self.slot_offset(s))),
        }
    }

    /// How many of the 8-byte argument slots (a0-a7, then the stack) the named
    /// parameters take: where `va_start` finds the first unnamed argument.
    pub(super) fn named_integer_slots(&self) -> usize {
        self.params
            .iter()
            .filter(|s| !matches!(s, ArgSlot::Fpr(_)))
            .count()
    }

    /// The instructions that set up the frame and store the register parameters.
    pub(super) fn prologue(&self) -> Vec<Inst> {
        let h = self.header + self.va_area;
        let v = self.va_area;
        let mut out = vec![
            Inst::imm(AluImmOp::Addi, Reg::Sp, Reg::Sp, -h),
            Inst::Store {
                kind: StoreKind::D,
                src: Reg::Ra,
                base: Reg::Sp,
                offset: h - v - 8,
            },
            Inst::Store {
                kind: StoreKind::D,
                src: Reg::S0,
                base: Reg::Sp,
                offset: h - v - 16,
            },
            Inst::imm(AluImmOp::Addi, Reg::S0, Reg::Sp, h),
        ];
        out.extend(super::va::save_registers(self.va_area));
        for (i, &r) in self.saved.iter().enumerate() {
            out.push(Inst::Store {
                kind: StoreKind::D,
                src: r,
                base: Reg::S0,
                offset: -v - 24 - 8 * i as i64,
            });
        }
        let size = i64::from(self.layout.size);
        if size != 0 {
            add_offset(Reg::Sp, Reg::Sp, -size, &mut out);
        }
        if let Some(align) = self.realign {
            let mask = -i64::from(align);
            if fits_imm12(mask) {
                out.push(Inst::imm(AluImmOp::Andi, Reg::Sp, Reg::Sp, mask));
            } else {
                out.extend(materialize(mask, Reg::T6));
                out.push(Inst::alu(AluOp::And, Reg::Sp, Reg::Sp, Reg::T6));
            }
        }
        // Float parameters first (the design's order; FP registers are never allocated),
        // then the integer ones.
        for floats in [true, false] {
            for (i, home) in self.homes.iter().enumerate() {
                let Some(slot) = home else { continue };
                match (self.params[i], floats) {
                    (ArgSlot::Fpr(fs), true) => {
                        let (base, offset) =
                            frame_address(self.base(), self.slot_offset(*slot), &mut out);
                        out.push(Inst::Float(FInst::StoreD { fs, base, offset }));
                    }
                    (ArgSlot::Gpr(src), false) => {
                        let (base, offset) =
                            frame_address(self.base(), self.slot_offset(*slot), &mut out);
                        out.push(Inst::Store {
                            kind: StoreKind::D,
                            src,
                            base,
                            offset,
                        });
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The instructions that tear the frame down and return (the value, if any, is
    /// already in a0).
    pub(super) fn epilogue(&self) -> Vec<Inst> {
        let mut out = Vec::new();
        let v = self.va_area;
        for (i, &r) in self.saved.iter().enumerate() {
            out.push(Inst::Load {
                kind: LoadKind::D,
                rd: r,
                base: Reg::S0,
                offset: -v - 24 - 8 * i as i64,
            });
        }
        out.push(Inst::Load {
            kind: LoadKind::D,
            rd: Reg::Ra,
            base: Reg::S0,
            offset: -v - 8,
        });
        // sp back to where ra and s0 are, then s0 from there: nothing is read below sp.
        out.push(Inst::imm(AluImmOp::Addi, Reg::Sp, Reg::S0, -v - 16));
        out.push(Inst::Load {
            kind: LoadKind::D,
            rd: Reg::S0,
            base: Reg::Sp,
            offset: 0,
        });
        out.push(Inst::imm(AluImmOp::Addi, Reg::Sp, Reg::Sp, v + 16));
        out.push(Inst::Ret);
        out
    }
}

/// The load that reads a `ty` value from memory and extends it canonically.
pub(super) fn canonical_load(ty: IrType) -> LoadKind {
    match (ty.size(8), ty.is_signed()) {
        (1, true) => LoadKind::B,
        (1, false) => LoadKind::Bu,
        (2, true) => LoadKind::H,
        (2, false) => LoadKind::Hu,
        (4, true) => LoadKind::W,
        (4, false) => LoadKind::Wu,
        _ => LoadKind::D,
    }
}

/// What a register argument is moved from when it is not in a register: a constant, or
/// a spill slot (at this offset from sp). Neither reads a register the parallel move
/// writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArgConst {
    Imm(i64),
    Slot(i64),
}

impl Selector<'_> {
    /// `paramref N, TYPE`: the incoming value, loaded at its type's width so that it is
    /// canonical whatever the caller left in the upper bits (and a `u32`, which the ABI
    /// sign-extends, comes back zero-extended).
    pub(super) fn select_paramref(
        &mut self,
        inst: &IrInst,
        dest: Value,
        index: u32,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let (base, offset) = self
            .frame
            .param_location(index)
            .ok_or_else(|| self.error(Some(inst), format!("parameter {index} has no home")))?;
        let kind = if mutants::enabled(Mutant::Riscv64NarrowParamNotExtended) {
            LoadKind::D
        } else {
            canonical_load(ty)
        };
        let rd = self.dest_reg(dest);
        self.load_mem(kind, rd, base, offset);
        self.write_dest(dest, rd);
        Ok(())
    }

    /// `[%d =] call TYPE callee(args)`.
    pub(super) fn select_call(
        &mut self,
        inst: &IrInst,
        dest: Option<Value>,
        ret: IrType,
        callee: &Callee,
        args: &[(IrType, IrOperand)],
    ) -> Result<(), BackendError> {
        if crate::backend::va::is_va_start(callee) {
            return self.select_va_start(args);
        }
        if let (Some(k), Some(d)) = (FrameIntrinsic::of_callee(callee), dest) {
            // s0 is the frame pointer (sp at entry); ra is saved right below the va_start
            // area (the frame layout above).
            match k {
                FrameIntrinsic::ReturnAddress => {
                    let rd = self.dest_reg(d);
                    self.load_mem(LoadKind::D, rd, Reg::S0, -self.frame.va_area - 8);
                    self.write_dest(d, rd);
                }
                FrameIntrinsic::FrameAddress => self.write_dest(d, Reg::S0),
            }
            return Ok(());
        }
        if let Some(k) = second_result_intrinsic(callee) {
            // The second register of a two-register record result, right where the
            // verifier and `backend::second_result::check` keep the intrinsic.
            match k {
                AbiHi::RetHi => {
                    if let Some((ty, op)) = args.first() {
                        self.load_into(op, *ty, Reg::A1);
                    }
                }
                AbiHi::ResultHi => {
                    if let Some(d) = dest {
                        self.write_dest(d, Reg::A1);
                    }
                }
            }
            return Ok(());
        }
        if let Some(k) = float_part_intrinsic(callee) {
            // A float part of a record result: fa<reg>, which nothing allocates.
            if k.set {
                if let Some((ty, op)) = args.first() {
                    self.fp_operand(op, *ty, FReg(10 + k.reg));
                }
            } else if let Some(d) = dest {
                self.fp_result(d, k.ty, FReg(10 + k.reg));
            }
            return Ok(());
        }
        // The callee's address first, into t1, which no argument move touches.
        if let Callee::Indirect(fp) = callee {
            self.load_into(fp, IrType::Ptr, Reg::T1);
        }
        let types: Vec<IrType> = args.iter().map(|a| a.0).collect();
        let named = match inst {
            IrInst::Call { named, .. } => *named,
            _ => None,
        };
        let slots = float_abi::assign(&types, self.variadic.named(callee, named, types.len()));
        // Stack arguments: they read their sources before any argument register changes.
        for ((ty, op), slot) in args.iter().zip(&slots) {
            let ArgSlot::Stack(k) = slot else { continue };
            let r = self.read(op, *ty, Reg::T0);
            let r = self.abi_extend(*ty, r, Reg::T0);
            self.store_mem(StoreKind::D, r, Reg::Sp, 8 * *k as i64);
        }
        // Float register arguments, through t0 into fa0-fa7: FP registers are never
        // allocated, so the integer moves below cannot disturb them.
        for ((ty, op), slot) in args.iter().zip(&slots) {
            if let ArgSlot::Fpr(fd) = slot {
                self.fp_operand(op, *ty, *fd);
            }
        }
        // Integer register arguments: one parallel move (t0 breaks cycles).
        let mut moves: Vec<Move<Reg, ArgConst>> = Vec::new();
        for ((ty, op), slot) in args.iter().zip(&slots) {
            let ArgSlot::Gpr(dst) = *slot else { continue };
            let m = match op {
                IrOperand::Value(v) => match self.alloc.loc(*v) {
                    Loc::Reg(r) => Move::from_loc(dst, Reg::from_preg(r)),
                    Loc::Spill(s) => {
                        Move::from_const(dst, ArgConst::Slot(self.frame.spill_offset(s)))
                    }
                },
                IrOperand::Const(c) => {
                    Move::from_const(dst, ArgConst::Imm(super::isel::const_value(*c, *ty)))
                }
            };
            moves.push(m);
        }
        let sequence = parallel_move::resolve(&moves, Reg::T0)
            .map_err(|e| self.error(Some(inst), format!("call arguments: {e}")))?;
        for m in sequence {
            match m.src {
                Source::Loc(s) => self.push(Inst::mv(m.dst, s)),
                Source::Const(ArgConst::Imm(v)) => self.materialize(v, m.dst),
                Source::Const(ArgConst::Slot(offset)) => {
                    self.load_mem(LoadKind::D, m.dst, self.frame.base(), offset)
                }
            }
        }
        for ((ty, _), slot) in args.iter().zip(&slots) {
            if let ArgSlot::Gpr(r) = *slot {
                self.abi_extend(*ty, r, r);
            }
        }
        match callee {
            Callee::Direct(name) => self.push(Inst::Call(name.clone())),
            Callee::Indirect(_) => self.push(Inst::CallReg(Reg::T1)),
        }
        if let Some(d) = dest {
            if ret.is_float() {
                self.fp_result(d, ret, FReg(10));
                return Ok(());
            }
            // The ABI's form of a narrow result is not always phicc's (u32), and the
            // result is re-extended whatever the callee did.
            let rd = self.dest_reg(d);
            self.extend_into(ret, Reg::A0, rd);
            self.write_dest(d, rd);
        }
        Ok(())
    }

    /// The ABI's form of the canonical `ty` value in `r`: a `u32` sign-extended into
    /// `dst`; anything else is already in it (then `r` is returned unchanged).
    fn abi_extend(&mut self, ty: IrType, r: Reg, dst: Reg) -> Reg {
        if ty == IrType::U32 {
            self.push(Inst::imm(AluImmOp::Addiw, dst, r, 0));
            dst
        } else {
            r
        }
    }

    /// `ret [TYPE V]`: the value in a0 in the ABI's form, then the epilogue.
    pub(super) fn select_ret(&mut self, value: Option<&(IrType, IrOperand)>) {
        if let Some((ty, op)) = value {
            if ty.is_float() {
                self.fp_operand(op, *ty, FReg(10));
            } else {
                self.load_into(op, *ty, Reg::A0);
                self.abi_extend(*ty, Reg::A0, Reg::A0);
            }
        }
        let epilogue = self.frame.epilogue();
        for inst in epilogue {
            self.push(inst);
        }
    }
}
