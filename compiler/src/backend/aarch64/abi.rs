//! The AAPCS64 calling convention as phicc uses it on Linux: the frame, the prologue and
//! epilogue, incoming parameters, outgoing calls and returned values.
//!
//! Why it exists: everything that must agree with code phicc did not compile (libc, and
//! gcc's callers and callees in a mixed link) lives here, apart from instruction selection.
//!
//! The frame (addresses grow upwards):
//! ```text
//!   x29 + 16 + 8k      incoming stack argument k (parameter 8+k), one 8-byte slot each
//!   x29 + 8            saved x30 (link register)
//!   x29 + 0            saved x29 of the caller          <- x29
//!   x29 - 16(j+1)      callee-saved registers the allocation used, in pairs (stp)
//!                      [realignment padding]
//!   sp + off           slots: allocas, spill slots, parameter homes (`frame::layout`)
//!   sp + 0 ..          outgoing stack arguments of the largest call (8-byte slots)
//! ```
//!
//! Invariants:
//! - sp is 16-byte aligned at every instruction (AAPCS64 requires it at every memory
//!   access through sp, not only at calls): the save area and the frame are multiples
//!   of 16, and sp never moves between the prologue and the epilogue, so every slot has
//!   one fixed address — except in a function with dynamic stack allocation
//!   (`dynamic_stack.rs`), where sp moves by multiples of 16 and every slot is addressed
//!   from x29 instead ([`Frame::base`]; offsets then negative);
//! - a slot aligned beyond 16 makes the prologue realign sp downwards (`and sp, x11,
//!   #-A`); saved registers and incoming arguments are addressed from x29, which the
//!   realignment does not move, and the epilogue restores sp from x29;
//! - the prologue stores every register parameter (x0..x7) that a `paramref` reads into
//!   its home slot before any other instruction can clobber it; `paramref` loads it back
//!   extended canonically for its IR type (AAPCS64 leaves the bits above a narrow
//!   argument unspecified, and gcc's callers leave garbage there);
//! - a stack parameter is loaded at its own width from the low bytes of its slot (gcc
//!   stores only those);
//! - a call stores its stack arguments first (that reads registers and writes only
//!   memory and scratch registers), then moves the register arguments as one parallel
//!   move (`backend::parallel_move`), so an argument living in another argument's register
//!   is read before it is overwritten; every argument is passed canonically extended to
//!   64 bits (more than gcc's callees need); a variadic call passes its arguments exactly
//!   like named ones (Linux AAPCS64); the result comes back in x0 and is re-extended
//!   canonically for its IR type;
//! - frame offsets beyond an instruction's immediate range go through the frame scratch
//!   register x11 ([`FRAME_SCRATCH`]), which nothing else uses between the address
//!   computation and the access.

use super::float::prec;
use super::float_abi::{self, ArgSlot};
use super::float_inst::{FInst, VReg};
use super::imm::{add_sub_imm, mov_sequence};
use super::inst::{Inst, Mem, Op3, OpImm, Reg, Width};
use super::isel::{Selector, S0, S1};
use super::AARCH64;
use crate::abi_intrinsics::{AbiHi, AbiSret};
use crate::backend::frame::{collect_slots_with, FrameLayout, FrameRules, FrameSlots};
use crate::backend::parallel_move::{self, Move, Source};
use crate::backend::regalloc::{Allocation, Loc, SpillSlot};
use crate::backend::second_result::{
    float_part_intrinsic, second_result_intrinsic, sret_intrinsic,
};
use crate::backend::{dynamic_stack, BackendError};
use crate::frame_intrinsics::FrameIntrinsic;
use crate::ir::{Callee, Inst as IrInst, IrFunction, IrType, Operand as IrOperand, Value};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// Integer argument registers x0..x7, in order.
pub(super) const ARG_REGS: [Reg; 8] = [
    Reg(0),
    Reg(1),
    Reg(2),
    Reg(3),
    Reg(4),
    Reg(5),
    Reg(6),
    Reg(7),
];

/// The register that addresses frame slots whose offset no immediate reaches.
pub(super) const FRAME_SCRATCH: Reg = Reg(11);

/// sp's alignment (always, not only at calls).
const STACK_ALIGN: u32 = 16;

/// The largest frame phicc lays out (offsets are materialised when they do not fit an
/// immediate, so the limit is only there to keep the arithmetic far from overflow).
const MAX_FRAME: u64 = 1 << 30;

/// The instructions that put the constant `v` into `rd` (64 bits), exactly: the shorter
/// of the 64-bit `movz/movn + movk` sequence and, for a value that fits 32 bits
/// unsigned, the 32-bit one (a `w` write clears the upper half).
pub(super) fn mov_imm(rd: Reg, v: u64) -> Vec<Inst> {
    let mut seq = (mov_sequence(v, Width::X), Width::X);
    if v <= u64::from(u32::MAX) {
        let narrow = mov_sequence(v, Width::W);
        if narrow.len() < seq.0.len() {
            seq = (narrow, Width::W);
        }
    }
    seq.0
        .into_iter()
        .map(|(op, imm16, shift)| Inst::MovWide {
            op,
            w: seq.1,
            rd,
            imm16,
            shift,
        })
        .collect()
}

/// True when `off` is encodable in a load or store of `bytes` bytes (scaled or unscaled).
fn offset_encodable(off: i64, bytes: u32) -> bool {
    let size = i64::from(bytes);
    (off >= 0 && off % size == 0 && off / size < 4096) || (-256..256).contains(&off)
}

/// The memory operand for `[base + off]` with an access of `bytes` bytes, with the
/// instructions that must run first (the offset in [`FRAME_SCRATCH`] when no immediate
/// form reaches it).
pub(super) fn mem_at(base: Reg, off: i64, bytes: u32) -> (Vec<Inst>, Mem) {
    if offset_encodable(off, bytes) {
        (Vec::new(), Mem::at(base, off))
    } else {
        (
            mov_imm(FRAME_SCRATCH, off as u64),
            Mem::Indexed {
                base,
                index: FRAME_SCRATCH,
            },
        )
    }
}

/// `rd = rn + off` (rn may be sp), through `tmp` when `off` fits no add/sub immediate.
pub(super) fn add_offset(rd: Reg, rn: Reg, off: i64, tmp: Reg) -> Vec<Inst> {
    if off == 0 {
        return if rd == rn {
            Vec::new()
        } else {
            vec![Inst::Mov {
                w: Width::X,
                rd,
                rn,
            }]
        };
    }
    let magnitude = off.unsigned_abs();
    if add_sub_imm(magnitude) {
        let op = if off > 0 { OpImm::Add } else { OpImm::Sub };
        return vec![Inst::OpImm {
            op,
            w: Width::X,
            rd,
            rn,
            imm: magnitude,
        }];
    }
    let mut out = mov_imm(tmp, off as u64);
    out.push(Inst::Op3 {
        op: Op3::Add,
        w: Width::X,
        rd,
        rn,
        rm: tmp,
    });
    out
}

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
    /// Where each parameter arrives (`float_abi`).
    params: Vec<ArgSlot>,
    /// Callee-saved registers the prologue saves, in order.
    saved: Vec<Reg>,
    /// Bytes below x29 for them (a multiple of 16).
    save_area: u32,
    /// The alignment the prologue realigns sp to, when it exceeds 16.
    realign: Option<u32>,
    /// The offset from [`Frame::base`] of the register save area of a function that
    /// calls `va_start` (`va.rs`).
    va_save: Option<i64>,
    /// In a function with dynamic stack allocation, how far below x29 the prologue leaves
    /// sp: its slots are addressed from x29.
    dynamic_below_fp: Option<i64>,
}

impl Frame {
    /// Lays out the frame of `func` under allocation `alloc`.
    pub(super) fn build(func: &IrFunction, alloc: &Allocation) -> Result<Frame, BackendError> {
        let FrameSlots {
            layout,
            alloca_slots,
            spill_base,
            homes,
        } = {
            let params = float_abi::assign(func.params.iter().copied());
            let in_register: Vec<bool> = params
                .iter()
                .map(|s| !matches!(s, ArgSlot::Stack(_)))
                .collect();
            let stack_slots = |inst: &IrInst| match inst {
                IrInst::Call { args, .. } => float_abi::stack_slots(args.iter().map(|a| a.0)),
                _ => 0,
            };
            collect_slots_with(
                func,
                alloc,
                &FrameRules {
                    target: AARCH64,
                    arg_regs: ARG_REGS.len(),
                    max_frame: MAX_FRAME,
                    max_align: 1 << 20,
                    stack_align: STACK_ALIGN,
                },
                &in_register,
                &stack_slots,
            )?
        };
        let realign = (layout.max_align > STACK_ALIGN).then_some(layout.max_align);
        let saved: Vec<Reg> = alloc.used_callee_saved.iter().map(|&p| Reg(p.0)).collect();
        let save_area = (8 * saved.len() as u32).div_ceil(16) * 16;
        let dynamic_below_fp = if dynamic_stack::is_dynamic(func) {
            if realign.is_some() {
                return Err(BackendError::new(
                    AARCH64,
                    func,
                    None,
                    dynamic_stack::OVER_ALIGNED_MESSAGE.into(),
                ));
            }
            Some(i64::from(save_area) + i64::from(layout.size))
        } else {
            None
        };
        let mut frame = Frame {
            layout,
            alloca_slots,
            spill_base,
            homes,
            params: float_abi::assign(func.params.iter().copied()),
            saved,
            save_area,
            realign,
            va_save: None,
            dynamic_below_fp,
        };
        frame.va_save = crate::backend::va::save_area(func).and_then(|v| frame.alloca_offset(v));
        Ok(frame)
    }

    /// The offset of frame slot `slot` from [`Frame::base`].
    fn slot_offset(&self, slot: usize) -> i64 {
        i64::from(self.layout.offset(slot)) - self.dynamic_below_fp.unwrap_or(0)
    }

    /// The register the frame's slots are addressed from: sp, or x29 in a function with
    /// dynamic stack allocation (where sp moves).
    pub(super) fn base(&self) -> Reg {
        if self.dynamic_below_fp.is_some() {
            Reg::FP
        } else {
            Reg::SP
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

    /// Where parameter `index`'s incoming value is: its home slot (register parameters,
    /// from sp) or the caller's outgoing area (stack parameters, from x29).
    pub(super) fn param_location(&self, index: u32) -> Option<(Reg, i64)> {
        let index = index as usize;
        match self.params.get(index)? {
            ArgSlot::Stack(k) => Some((Reg::FP, 16 + 8 * *k as i64)),
            _ => self.homes[index].map(|s| (self.base(), self.slot_offset(s))),
        }
    }

    /// How many x registers, v registers and stack slots the named parameters take
    /// (`va_start`).
    pub(super) fn named_slots(&self) -> (usize, usize, usize) {
        let count = |f: fn(&ArgSlot) -> bool| self.params.iter().filter(|s| f(s)).count();
        (
            count(|s| matches!(s, ArgSlot::Gpr(_))),
            count(|s| matches!(s, ArgSlot::Fpr(_))),
            count(|s| matches!(s, ArgSlot::Stack(_))),
        )
    }

    /// The instructions that set up the frame and store the register parameters.
    pub(super) fn prologue(&self) -> Vec<Inst> {
        let mut out = vec![
            Inst::Stp {
                rt1: Reg::FP,
                rt2: Reg::LR,
                mem: Mem::PreIndex {
                    base: Reg::SP,
                    off: -16,
                },
            },
            Inst::Mov {
                w: Width::X,
                rd: Reg::FP,
                rn: Reg::SP,
            },
        ];
        let adjust = u64::from(self.save_area) + u64::from(self.layout.size);
        if adjust > 0 {
            if add_sub_imm(adjust) {
                out.push(Inst::OpImm {
                    op: OpImm::Sub,
                    w: Width::X,
                    rd: Reg::SP,
                    rn: Reg::SP,
                    imm: adjust,
                });
            } else {
                out.extend(mov_imm(FRAME_SCRATCH, adjust));
                out.push(Inst::Op3 {
                    op: Op3::Sub,
                    w: Width::X,
                    rd: Reg::SP,
                    rn: Reg::SP,
                    rm: FRAME_SCRATCH,
                });
            }
        }
        if let Some(align) = self.realign {
            out.push(Inst::Mov {
                w: Width::X,
                rd: FRAME_SCRATCH,
                rn: Reg::SP,
            });
            out.push(Inst::OpImm {
                op: OpImm::And,
                w: Width::X,
                rd: Reg::SP,
                rn: FRAME_SCRATCH,
                imm: (-i64::from(align)) as u64,
            });
        }
        for (j, pair) in self.saved.chunks(2).enumerate() {
            let mem = Mem::at(Reg::FP, -16 * (j as i64 + 1));
            out.push(match pair {
                [a, b] => Inst::Stp {
                    rt1: *a,
                    rt2: *b,
                    mem,
                },
                [a] => Inst::Store {
                    bytes: 8,
                    rt: *a,
                    mem,
                },
                _ => continue,
            });
        }
        // Float parameters first (FP registers are never allocated, so the order does
        // not matter for correctness; it is the design's rule), then the integer ones.
        for floats in [true, false] {
            for (i, home) in self.homes.iter().enumerate() {
                let Some(slot) = home else { continue };
                let (setup, mem) = mem_at(self.base(), self.slot_offset(*slot), 8);
                match (self.params[i], floats) {
                    (ArgSlot::Fpr(vt), true) => {
                        out.extend(setup);
                        out.push(Inst::Float(FInst::StoreD { vt, mem }));
                    }
                    (ArgSlot::Gpr(rt), false) => {
                        out.extend(setup);
                        out.push(Inst::Store { bytes: 8, rt, mem });
                    }
                    _ => {}
                }
            }
        }
        if let Some(off) = self.va_save {
            out.extend(super::va::save_registers(self.base(), off));
        }
        out
    }

    /// The instructions that tear the frame down and return (the value, if any, is
    /// already in x0).
    pub(super) fn epilogue(&self) -> Vec<Inst> {
        let mut out = Vec::new();
        for (j, pair) in self.saved.chunks(2).enumerate() {
            let mem = Mem::at(Reg::FP, -16 * (j as i64 + 1));
            out.push(match pair {
                [a, b] => Inst::Ldp {
                    rt1: *a,
                    rt2: *b,
                    mem,
                },
                [a] => Inst::Load {
                    bytes: 8,
                    signed: false,
                    rt: *a,
                    mem,
                },
                _ => continue,
            });
        }
        out.push(Inst::Mov {
            w: Width::X,
            rd: Reg::SP,
            rn: Reg::FP,
        });
        out.push(Inst::Ldp {
            rt1: Reg::FP,
            rt2: Reg::LR,
            mem: Mem::PostIndex {
                base: Reg::SP,
                off: 16,
            },
        });
        out.push(Inst::Ret);
        out
    }
}

/// A location a call's argument moves read or write: a register or a frame slot (an
/// offset from sp).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum MoveLoc {
    Reg(Reg),
    Slot(i64),
}

impl Selector<'_> {
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
            // Every frame keeps its frame record at x29: the saved x30 at [x29, #8].
            match k {
                FrameIntrinsic::ReturnAddress => {
                    let rd = self.dest_reg(d);
                    self.load_mem(8, false, rd, Reg::FP, 8);
                    self.write_dest(d, rd);
                }
                FrameIntrinsic::FrameAddress => self.write_dest(d, Reg::FP),
            }
            return Ok(());
        }
        if let Some(k) = sret_intrinsic(callee) {
            // The hidden result pointer in x8, right where the verifier and
            // `backend::second_result::check` keep the intrinsic.
            match k {
                AbiSret::Arg => {
                    if let Some((ty, op)) = args.first() {
                        self.load_into(op, *ty, Reg(8));
                    }
                }
                AbiSret::Param => {
                    if let Some(d) = dest {
                        self.write_dest(d, Reg(8));
                    }
                }
            }
            return Ok(());
        }
        if let Some(k) = second_result_intrinsic(callee) {
            // The second register of a two-register record result, right where the
            // verifier and `backend::second_result::check` keep the intrinsic.
            match k {
                AbiHi::RetHi => {
                    if let Some((ty, op)) = args.first() {
                        self.load_into(op, *ty, ARG_REGS[1]);
                    }
                }
                AbiHi::ResultHi => {
                    if let Some(d) = dest {
                        self.write_dest(d, ARG_REGS[1]);
                    }
                }
            }
            return Ok(());
        }
        if let Some(k) = float_part_intrinsic(callee) {
            // A float part of a record result (an HFA's member): v<reg>, never allocated.
            if k.set {
                if let Some((ty, op)) = args.first() {
                    self.fp_operand(op, *ty, VReg(k.reg));
                }
            } else if let Some(d) = dest {
                self.fp_result(d, prec(k.ty), VReg(k.reg));
            }
            return Ok(());
        }
        // The callee's address first, into x17: no argument move reads or writes it.
        if let Callee::Indirect(fp) = callee {
            self.load_into(fp, IrType::Ptr, S1);
        }
        let slots = float_abi::assign(args.iter().map(|a| a.0));
        // Stack arguments, each in an 8-byte slot of the outgoing area.
        for ((ty, op), slot) in args.iter().zip(&slots) {
            if let ArgSlot::Stack(k) = slot {
                let r = self.read_or_zero(op, *ty, S0);
                self.store_mem(8, r, Reg::SP, 8 * *k as i64);
            }
        }
        // Float register arguments, through x16 into v0..v7: FP registers are never
        // allocated, so the integer moves below cannot disturb them.
        for ((ty, op), slot) in args.iter().zip(&slots) {
            if let ArgSlot::Fpr(v) = slot {
                self.fp_operand(op, *ty, *v);
            }
        }
        // Integer register arguments: one parallel move.
        let mut moves: Vec<Move<MoveLoc, u64>> = Vec::new();
        for ((ty, op), slot) in args.iter().zip(&slots) {
            let ArgSlot::Gpr(reg) = slot else { continue };
            let dst = MoveLoc::Reg(*reg);
            moves.push(match op {
                IrOperand::Value(v) => Move::from_loc(dst, self.move_loc(*v)),
                IrOperand::Const(c) => Move::from_const(dst, self.const_value(*c, *ty)),
            });
        }
        let sequence = parallel_move::resolve(&moves, MoveLoc::Reg(S0)).map_err(|e| {
            BackendError::new(
                AARCH64,
                self.func,
                Some(inst),
                format!("argument moves: {e}"),
            )
        })?;
        for m in sequence {
            let MoveLoc::Reg(dst) = m.dst else {
                return Err(BackendError::new(
                    AARCH64,
                    self.func,
                    Some(inst),
                    "argument move into a frame slot".into(),
                ));
            };
            match m.src {
                Source::Loc(MoveLoc::Reg(src)) => self.push(Inst::Mov {
                    w: Width::X,
                    rd: dst,
                    rn: src,
                }),
                Source::Loc(MoveLoc::Slot(off)) => {
                    self.load_mem(8, false, dst, self.frame.base(), off)
                }
                Source::Const(k) => self.mov_constant(dst, k),
            }
        }
        match callee {
            Callee::Direct(name) => self.push(Inst::Bl(name.clone())),
            Callee::Indirect(_) => self.push(Inst::Blr(S1)),
        }
        if let Some(d) = dest {
            if ret.is_float() {
                // In s0/d0: the `fmov` to a w register zero-extends an f32.
                self.fp_result(d, prec(ret), VReg(0));
                return Ok(());
            }
            // AAPCS64 leaves the bits above a narrow result unspecified.
            let r = self.dest_reg(d);
            self.extend_into(ret, ARG_REGS[0], r);
            self.write_dest(d, r);
        }
        Ok(())
    }

    fn move_loc(&self, v: Value) -> MoveLoc {
        match self.alloc.loc(v) {
            Loc::Reg(r) => MoveLoc::Reg(Reg(r.0)),
            Loc::Spill(s) => MoveLoc::Slot(self.frame.spill_offset(s)),
        }
    }

    /// `ret [TYPE V]`: the value in x0 (canonical already) or, a float, in s0/d0; then
    /// the epilogue.
    pub(super) fn select_ret(&mut self, value: Option<&(IrType, IrOperand)>) {
        if let Some((ty, op)) = value {
            if ty.is_float() {
                self.fp_operand(op, *ty, VReg(0));
            } else {
                self.load_into(op, *ty, ARG_REGS[0]);
            }
        }
        for inst in self.frame.epilogue() {
            self.push(inst);
        }
    }

    /// `%d = paramref N, TYPE`: the incoming value, extended canonically for its type.
    pub(super) fn select_paramref(
        &mut self,
        inst: &IrInst,
        dest: Value,
        index: u32,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let (base, off) = self.frame.param_location(index).ok_or_else(|| {
            BackendError::new(
                AARCH64,
                self.func,
                Some(inst),
                format!("parameter {index} has no home"),
            )
        })?;
        let r = self.dest_reg(dest);
        if mutants::enabled(Mutant::Aarch64NarrowParamNotExtended) {
            // The whole incoming register (or 8-byte stack slot), upper bits and all.
            self.load_mem(8, false, r, base, off);
        } else {
            self.load_extended(ty, r, base, off);
        }
        self.write_dest(dest, r);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::aarch64::inst::MovWideOp;

    #[test]
    fn offsets_out_of_reach_go_through_the_frame_scratch() {
        assert_eq!(mem_at(Reg::SP, 32760, 8).1, Mem::at(Reg::SP, 32760));
        assert_eq!(mem_at(Reg::SP, -256, 1).1, Mem::at(Reg::SP, -256));
        let (setup, mem) = mem_at(Reg::SP, 32768, 8);
        assert_eq!(
            mem,
            Mem::Indexed {
                base: Reg::SP,
                index: FRAME_SCRATCH
            }
        );
        assert_eq!(
            setup,
            vec![Inst::MovWide {
                op: MovWideOp::Movz,
                w: Width::X,
                rd: FRAME_SCRATCH,
                imm16: 0x8000,
                shift: 0
            }]
        );
        // A 4-byte access at an offset that is not a multiple of 4 and beyond 255.
        assert!(!mem_at(Reg::SP, 1026, 4).0.is_empty());
        assert!(mem_at(Reg::SP, 1026, 2).0.is_empty());
    }

    /// The frame of the only function of `text` under linear scan.
    fn frame_of(text: &str) -> Frame {
        let module = crate::ir::text::parse_module(text).expect("test IR parses");
        let func = &module.functions[0];
        let alloc = crate::backend::regalloc::allocate(
            func,
            &super::super::register_file(),
            crate::backend::RegallocMode::LinearScan,
        );
        Frame::build(func, &alloc).expect("frame")
    }

    #[test]
    fn a_leaf_function_saves_nothing_and_keeps_sp_aligned() {
        let frame = frame_of(
            "func @leaf(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
             %1 = paramref 1, i32\n    %2 = add i32 %0, %1\n    ret i32 %2\n}\n",
        );
        assert!(frame.saved.is_empty());
        assert_eq!(frame.save_area, 0);
        assert_eq!(frame.layout.size % 16, 0);
        assert!(frame.realign.is_none());
        let prologue = frame.prologue();
        // stp x29, x30; mov x29, sp; sub sp; the two parameter homes.
        assert_eq!(prologue.len(), 5, "{prologue:?}");
        assert!(matches!(
            prologue[4],
            Inst::Store {
                bytes: 8,
                rt: Reg(1),
                ..
            }
        ));
    }

    #[test]
    fn values_across_calls_are_saved_in_pairs_below_x29() {
        // Three values live across the call: three callee-saved registers, a 32-byte
        // save area (two slots of 16), stored with one stp and one str.
        let frame = frame_of(
            "declare @g() -> i64\n\
             func @f(i64, i64, i64) -> i64 {\n.LBB0:\n    %0 = paramref 0, i64\n    \
             %1 = paramref 1, i64\n    %2 = paramref 2, i64\n    %3 = call i64 @g()\n    \
             %4 = add i64 %0, %1\n    %5 = add i64 %4, %2\n    %6 = add i64 %5, %3\n    \
             ret i64 %6\n}\n",
        );
        assert_eq!(frame.saved, vec![Reg(19), Reg(20), Reg(21)]);
        assert_eq!(frame.save_area, 32);
        let prologue = frame.prologue();
        assert!(prologue.contains(&Inst::Stp {
            rt1: Reg(19),
            rt2: Reg(20),
            mem: Mem::at(Reg::FP, -16)
        }));
        assert!(prologue.contains(&Inst::Store {
            bytes: 8,
            rt: Reg(21),
            mem: Mem::at(Reg::FP, -32)
        }));
        let epilogue = frame.epilogue();
        assert!(epilogue.contains(&Inst::Ldp {
            rt1: Reg(19),
            rt2: Reg(20),
            mem: Mem::at(Reg::FP, -16)
        }));
        assert_eq!(epilogue.last(), Some(&Inst::Ret));
    }

    #[test]
    fn an_over_aligned_alloca_realigns_sp_and_stack_parameters_stay_on_x29() {
        let frame = frame_of(
            "func @f(i64, i64, i64, i64, i64, i64, i64, i64, i16) -> i64 {\n.LBB0:\n    \
             %8 = paramref 8, i16\n    %1 = alloca i8, 100, 128\n    \
             %2 = cast i16 %8 to i64\n    ret i64 %2\n}\n",
        );
        assert_eq!(frame.realign, Some(128));
        assert_eq!(frame.param_location(8), Some((Reg::FP, 16)));
        assert_eq!(
            frame.param_location(0),
            None,
            "an unread register parameter has no home"
        );
        let prologue = frame.prologue();
        assert!(prologue.contains(&Inst::OpImm {
            op: OpImm::And,
            w: Width::X,
            rd: Reg::SP,
            rn: FRAME_SCRATCH,
            imm: (-128i64) as u64
        }));
        assert_eq!(
            frame.alloca_offset(crate::ir::Value(1)).map(|o| o % 128),
            Some(0)
        );
    }

    #[test]
    fn add_offset_uses_immediates_when_they_fit() {
        let tmp = Reg(9);
        assert_eq!(add_offset(Reg(1), Reg::SP, 4095, tmp).len(), 1);
        assert_eq!(add_offset(Reg(1), Reg::SP, 4096 * 7, tmp).len(), 1);
        assert_eq!(add_offset(Reg(1), Reg(2), -8, tmp).len(), 1);
        assert_eq!(add_offset(Reg(1), Reg(1), 0, tmp).len(), 0);
        let long = add_offset(Reg(1), Reg::SP, 4097, tmp);
        assert_eq!(long.len(), 2);
        assert!(matches!(long[1], Inst::Op3 { rm, .. } if rm == tmp));
    }
}
