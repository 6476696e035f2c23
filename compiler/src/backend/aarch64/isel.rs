//! Instruction selection for AArch64: each IR instruction of a phi-eliminated function,
//! read over its register allocation, becomes A64 instructions with concrete operands.
//!
//! Why it exists: this is where the IR's meaning (wrapping arithmetic at the type's
//! width, signedness in the type, traps) meets the machine's. Every value lives in its
//! [`Loc`] as a 64-bit *canonical* quantity (sign-extended for signed types,
//! zero-extended for unsigned types and `ptr`); operations on types of 4 bytes or less
//! run on the 32-bit `w` view and re-extend their result (`sxtb/sxth/sxtw`,
//! `uxtb/uxth`, `mov w, w`), 8-byte ones on the `x` view.
//!
//! Invariants:
//! - the selector computes in the scratch registers [`S0`] (x16), [`S1`] (x17),
//!   [`S2`] (x9), [`S3`] (x10) and the frame scratch x11, which the allocator never hands
//!   out, or directly in the destination's register: every operand is read into a
//!   register before the instruction that writes the destination, and instruction
//!   sequences after that write read only scratch registers and the destination, so a
//!   destination may share a register with an operand that dies there;
//! - every definition leaves its value canonical for its type (a spill slot always holds
//!   all 8 bytes of the canonical value);
//! - operations whose result depends on how the operands are read (division, remainder,
//!   right shifts, ordered comparisons) first extend 8- and 16-bit operands the way the
//!   operation reads them (`sdiv` and `ashr` read signed, `udiv` and `lshr` unsigned,
//!   whatever the type's own signedness); 32- and 64-bit ones run at their width;
//! - `sdiv`/`udiv` do not trap on AArch64, so every division tests its divisor for zero
//!   and (signed) the dividend for the width's minimum when the divisor is -1, and
//!   branches to the function's trap stub, which raises SIGFPE with `tgkill` — the IR's
//!   traps happen exactly where it says;
//! - immediates are used only where they fit their encoding (`super::imm`); every other
//!   constant is built with `movz/movn/movk`.

use super::abi::{add_offset, mem_at, mov_imm, Frame};
use super::imm::{add_sub_imm, is_logical_imm};
use super::inst::{Cond, Ext, Inst, Mem, Op3, OpImm, Reg, ShiftOp, Width};
use super::AARCH64;
use crate::backend::regalloc::{Allocation, Loc};
use crate::backend::BackendError;
use crate::ir::{
    BinOp, BlockId, CmpPred, Inst as IrInst, IrConst, IrFunction, IrType, Operand as IrOperand,
    Terminator, UnOp, Value,
};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// Scratch registers (never allocatable): the first operand / result.
pub(super) const S0: Reg = Reg(16);
/// The second operand; an indirect call's target.
pub(super) const S1: Reg = Reg(17);
/// A third register (the quotient, a constant to compare with, memcpy's data).
pub(super) const S2: Reg = Reg(9);
/// A fourth register (memcpy's loop counter, a switch's table address).
pub(super) const S3: Reg = Reg(10);

/// A memcpy of fewer bytes is unrolled; a longer one is a loop of 8-byte moves.
const MEMCPY_UNROLL_LIMIT: u32 = 128;

/// Linux AArch64 system call numbers the trap stub uses.
const SYS_GETTID: u64 = 178;
const SYS_GETPID: u64 = 172;
const SYS_TGKILL: u64 = 131;
const SIGFPE: u64 = 8;

/// Where a value is: a register or a spill slot at an offset from sp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VLoc {
    Reg(Reg),
    Slot(i64),
}

/// The state of selecting one function.
pub(super) struct Selector<'a> {
    pub(super) func: &'a IrFunction,
    /// The function's position in the module (for invented labels `.L<index>_...`).
    func_index: usize,
    pub(super) alloc: &'a Allocation,
    pub(super) frame: &'a Frame,
    text: Vec<Inst>,
    next_label: u32,
    /// The value the flags were last computed for by a comparison, and the condition
    /// under which it is 1: a `condbr` or `select` right after its `cmp` uses the flags.
    pub(super) flags: Option<(Value, Cond)>,
    /// Values defined only by an entry-block alloca: their stack object's offset from
    /// sp, which loads and stores through them address directly.
    stable_allocas: FxHashMap<Value, i64>,
    /// True once some division branches to the trap stub.
    uses_trap_stub: bool,
}

/// The canonical 64-bit value of constant `c` read in a position of type `ty`.
fn const_value(c: IrConst, ty: IrType) -> u64 {
    ty.canonicalize(c.bits as u64, 8)
}

fn width_of(ty: IrType) -> Width {
    Width::for_bytes(ty.size(8))
}

/// The type of `ty`'s width with the other signedness.
fn flip_signedness(ty: IrType) -> IrType {
    match ty {
        IrType::I8 => IrType::U8,
        IrType::U8 => IrType::I8,
        IrType::I16 => IrType::U16,
        IrType::U16 => IrType::I16,
        IrType::I32 => IrType::U32,
        IrType::U32 => IrType::I32,
        IrType::I64 => IrType::U64,
        IrType::U64 => IrType::I64,
        other => other,
    }
}

/// How an operation that reads its operands `signed` (or unsigned) must see a `ty`
/// value in a 32-bit or 64-bit register: 8- and 16-bit values of the other signedness
/// are re-extended; at 32 and 64 bits the instruction's own width reads them right.
fn view(ty: IrType, signed: bool) -> IrType {
    if ty.size(8) <= 2 && ty.is_signed() != signed {
        flip_signedness(ty)
    } else {
        ty
    }
}

/// The extension that makes the low bits of a register canonical for `ty` (none for
/// 8-byte types).
fn extension(ty: IrType) -> Option<Ext> {
    match ty {
        IrType::I8 => Some(Ext::Sxtb),
        IrType::I16 => Some(Ext::Sxth),
        IrType::I32 => Some(Ext::Sxtw),
        IrType::U8 => Some(Ext::Uxtb),
        IrType::U16 => Some(Ext::Uxth),
        IrType::U32 => Some(Ext::Uxtw),
        _ => None,
    }
}

/// True when re-extending for `to` is needed after a cast from `from` (a canonical
/// `from` value is not already canonical for `to`).
fn cast_needs_extension(from: IrType, to: IrType) -> bool {
    let (fs, ts) = (from.size(8), to.size(8));
    if ts == 8 {
        return false;
    }
    if ts > fs {
        return from.is_signed() && !to.is_signed();
    }
    !(ts == fs && from.is_signed() == to.is_signed())
}

/// The condition under which `cmp a, b` makes `pred(a, b)` true.
fn condition(pred: CmpPred) -> Cond {
    match pred {
        CmpPred::Eq => Cond::Eq,
        CmpPred::Ne => Cond::Ne,
        CmpPred::Slt => Cond::Lt,
        CmpPred::Sle => Cond::Le,
        CmpPred::Sgt => Cond::Gt,
        CmpPred::Sge => Cond::Ge,
        CmpPred::Ult => Cond::Lo,
        CmpPred::Ule => Cond::Ls,
        CmpPred::Ugt => Cond::Hi,
        CmpPred::Uge => Cond::Hs,
    }
}

fn is_signed_pred(pred: CmpPred) -> bool {
    matches!(
        pred,
        CmpPred::Slt | CmpPred::Sle | CmpPred::Sgt | CmpPred::Sge
    )
}

/// `v` (a canonical 64-bit pattern) as the signed number an instruction of width `w`
/// sees.
fn signed_at(v: u64, w: Width) -> i64 {
    match w {
        Width::W => i64::from(v as u32 as i32),
        Width::X => v as i64,
    }
}

/// The immediate form of `cmp r, #v` at width `w`: `cmp #v` or `cmn #-v`.
fn cmp_immediate(v: u64, w: Width) -> Option<(u64, bool)> {
    let s = signed_at(v, w);
    if s >= 0 && add_sub_imm(s as u64) {
        Some((s as u64, false))
    } else if s < 0 && add_sub_imm(s.unsigned_abs()) {
        Some((s.unsigned_abs(), true))
    } else {
        None
    }
}

/// The values whose only definition is an alloca of the entry block, with their stack
/// objects' offsets. Such a value always holds its object's address (the entry block
/// runs first; phi elimination's copies never assign an alloca's value), so an access
/// through it may use the object's frame address.
fn stable_allocas(func: &IrFunction, frame: &Frame) -> FxHashMap<Value, i64> {
    let mut definitions: FxHashMap<Value, u32> = FxHashMap::default();
    for block in &func.blocks {
        for inst in &block.insts {
            if let Some(d) = inst.dest() {
                *definitions.entry(d).or_default() += 1;
            }
        }
    }
    let mut stable = FxHashMap::default();
    if let Some(entry) = func.blocks.first() {
        for inst in &entry.insts {
            if let IrInst::Alloca { dest, .. } = inst {
                if let (Some(1), Some(off)) = (definitions.get(dest), frame.alloca_offset(*dest)) {
                    stable.insert(*dest, off);
                }
            }
        }
    }
    stable
}

impl<'a> Selector<'a> {
    pub(super) fn new(
        func: &'a IrFunction,
        func_index: usize,
        alloc: &'a Allocation,
        frame: &'a Frame,
    ) -> Selector<'a> {
        Selector {
            func,
            func_index,
            alloc,
            frame,
            text: Vec::new(),
            next_label: 0,
            flags: None,
            stable_allocas: stable_allocas(func, frame),
            uses_trap_stub: false,
        }
    }

    pub(super) fn push(&mut self, inst: Inst) {
        self.text.push(inst);
    }

    fn extend_text(&mut self, insts: Vec<Inst>) {
        self.text.extend(insts);
    }

    fn error(&self, inst: Option<&IrInst>, message: String) -> BackendError {
        BackendError::new(AARCH64, self.func, inst, message)
    }

    /// A fresh label `.L<func-index>_<purpose><n>`.
    fn fresh_label(&mut self, purpose: &str) -> String {
        self.next_label += 1;
        format!(".L{}_{purpose}{}", self.func_index, self.next_label)
    }

    /// The label of this function's SIGFPE stub.
    fn trap_label(&mut self) -> String {
        self.uses_trap_stub = true;
        format!(".L{}_fpe", self.func_index)
    }

    pub(super) fn const_value(&self, c: IrConst, ty: IrType) -> u64 {
        const_value(c, ty)
    }

    // ---- Locations and operands -------------------------------------------------------

    fn vloc(&self, v: Value) -> VLoc {
        match self.alloc.loc(v) {
            Loc::Reg(r) => VLoc::Reg(Reg(r.0)),
            Loc::Spill(s) => VLoc::Slot(self.frame.spill_offset(s)),
        }
    }

    /// The register to compute `dest` in: its own, or [`S0`] when it is spilled.
    pub(super) fn dest_reg(&self, dest: Value) -> Reg {
        match self.vloc(dest) {
            VLoc::Reg(r) => r,
            VLoc::Slot(_) => S0,
        }
    }

    /// A load of `bytes` bytes at `base + off` into `rt` (extended as `signed` says).
    pub(super) fn load_mem(&mut self, bytes: u32, signed: bool, rt: Reg, base: Reg, off: i64) {
        let (setup, mem) = mem_at(base, off, bytes);
        self.extend_text(setup);
        self.push(Inst::Load {
            bytes,
            signed,
            rt,
            mem,
        });
    }

    /// A store of the low `bytes` bytes of `rt` at `base + off`.
    pub(super) fn store_mem(&mut self, bytes: u32, rt: Reg, base: Reg, off: i64) {
        let (setup, mem) = mem_at(base, off, bytes);
        self.extend_text(setup);
        self.push(Inst::Store { bytes, rt, mem });
    }

    /// Loads a `ty` from `base + off` into `rt`, extended canonically.
    pub(super) fn load_extended(&mut self, ty: IrType, rt: Reg, base: Reg, off: i64) {
        let bytes = ty.size(8).max(1);
        self.load_mem(bytes, ty.is_signed() && bytes < 8, rt, base, off);
    }

    /// Puts the IR constant `v` (a canonical 64-bit pattern) into `rd`.
    pub(super) fn mov_constant(&mut self, rd: Reg, v: u64) {
        let mut seq = mov_imm(rd, v);
        if mutants::enabled(Mutant::Aarch64WideImmediateTruncated) {
            seq.truncate(1);
        }
        self.extend_text(seq);
    }

    /// Puts the canonical value of `op` (read as type `ty`) into `rd`.
    pub(super) fn load_into(&mut self, op: &IrOperand, ty: IrType, rd: Reg) {
        match op {
            IrOperand::Value(v) => match self.vloc(*v) {
                VLoc::Reg(r) => {
                    if r != rd {
                        self.push(Inst::Mov {
                            w: Width::X,
                            rd,
                            rn: r,
                        });
                    }
                }
                VLoc::Slot(off) => self.load_mem(8, false, rd, self.frame.base(), off),
            },
            IrOperand::Const(c) => self.mov_constant(rd, const_value(*c, ty)),
        }
    }

    /// A register holding the canonical value of `op`: its own, or `scratch` after a
    /// load.
    fn read(&mut self, op: &IrOperand, ty: IrType, scratch: Reg) -> Reg {
        if let IrOperand::Value(v) = op {
            if let VLoc::Reg(r) = self.vloc(*v) {
                return r;
            }
        }
        self.load_into(op, ty, scratch);
        scratch
    }

    /// Like [`Selector::read`], but the zero register for a zero constant (for stores).
    pub(super) fn read_or_zero(&mut self, op: &IrOperand, ty: IrType, scratch: Reg) -> Reg {
        match op {
            IrOperand::Const(c) if const_value(*c, ty) == 0 => Reg::ZR,
            _ => self.read(op, ty, scratch),
        }
    }

    /// A register holding `op` (a `ty` value) canonical for the type `as_ty` of the same
    /// width (see [`view`]).
    fn read_as(&mut self, op: &IrOperand, ty: IrType, as_ty: IrType, scratch: Reg) -> Reg {
        if as_ty == ty {
            return self.read(op, ty, scratch);
        }
        match op {
            IrOperand::Const(c) => {
                let v = as_ty.canonicalize(const_value(*c, ty), 8);
                self.mov_constant(scratch, v);
                scratch
            }
            IrOperand::Value(_) => {
                let r = self.read(op, ty, scratch);
                self.extend_into(as_ty, r, scratch);
                scratch
            }
        }
    }

    /// Re-establishes the canonical form of a `ty` value whose low bytes are in `r`.
    fn extend(&mut self, ty: IrType, r: Reg) {
        self.extend_into(ty, r, r);
    }

    /// Puts the canonical form of the `ty` value whose low bytes are in `src` into `dst`.
    pub(super) fn extend_into(&mut self, ty: IrType, src: Reg, dst: Reg) {
        match extension(ty) {
            Some(ext) => self.push(Inst::Ext {
                ext,
                rd: dst,
                rn: src,
            }),
            None if src != dst => self.push(Inst::Mov {
                w: Width::X,
                rd: dst,
                rn: src,
            }),
            None => {}
        }
    }

    /// Writes the canonical value in `r` to `dest`'s location.
    pub(super) fn write_dest(&mut self, dest: Value, r: Reg) {
        match self.vloc(dest) {
            VLoc::Reg(d) => {
                if d != r {
                    self.push(Inst::Mov {
                        w: Width::X,
                        rd: d,
                        rn: r,
                    });
                }
            }
            VLoc::Slot(off) => self.store_mem(8, r, self.frame.base(), off),
        }
    }

    /// The memory `ptr` points to, as a base register and an offset: a stable alloca's
    /// stack object (sp + its offset), or the pointer in its own register or loaded into
    /// `scratch`.
    fn address(&mut self, ptr: &IrOperand, scratch: Reg) -> (Reg, i64) {
        if let Some(&off) = ptr.as_value().and_then(|v| self.stable_allocas.get(&v)) {
            return (self.frame.base(), off);
        }
        (self.read(ptr, IrType::Ptr, scratch), 0)
    }

    // ---- Functions and blocks ---------------------------------------------------------

    /// Selects the whole function: prologue, every block in order, the trap stub.
    pub(super) fn select_function(mut self) -> Result<Vec<Inst>, BackendError> {
        for inst in self.frame.prologue() {
            self.push(inst);
        }
        let func = self.func;
        for (i, block) in func.blocks.iter().enumerate() {
            self.push(Inst::Label(block.label.to_string()));
            self.flags = None;
            for inst in &block.insts {
                let flags_before = self.flags.take();
                self.select_inst(inst, flags_before)?;
            }
            let next = func.blocks.get(i + 1).map(|b| b.label);
            self.select_terminator(&block.term, next);
        }
        if self.uses_trap_stub {
            self.trap_stub();
        }
        Ok(self.text)
    }

    /// The SIGFPE stub: `tgkill(getpid(), gettid(), SIGFPE)`; the process dies there
    /// (and should SIGFPE be ignored, `udf` ends it with SIGILL rather than going on).
    fn trap_stub(&mut self) {
        let label = self.trap_label();
        self.push(Inst::Label(label));
        let x = Reg::x;
        self.extend_text(mov_imm(x(8), SYS_GETTID));
        self.push(Inst::Svc);
        self.push(Inst::Mov {
            w: Width::X,
            rd: x(1),
            rn: x(0),
        });
        self.extend_text(mov_imm(x(8), SYS_GETPID));
        self.push(Inst::Svc);
        self.extend_text(mov_imm(x(2), SIGFPE));
        self.extend_text(mov_imm(x(8), SYS_TGKILL));
        self.push(Inst::Svc);
        self.push(Inst::Udf);
    }

    fn select_inst(
        &mut self,
        inst: &IrInst,
        flags_before: Option<(Value, Cond)>,
    ) -> Result<(), BackendError> {
        match inst {
            IrInst::Alloca { dest, .. } => {
                let off = self
                    .frame
                    .alloca_offset(*dest)
                    .ok_or_else(|| self.error(Some(inst), "alloca without a slot".into()))?;
                let r = self.dest_reg(*dest);
                let code = add_offset(r, self.frame.base(), off, r);
                self.extend_text(code);
                self.write_dest(*dest, r);
            }
            IrInst::DynAlloca { dest, size, align } => self.select_dynalloca(*dest, size, *align),
            IrInst::StackSave { dest } => self.select_stacksave(*dest),
            IrInst::StackRestore { ptr } => self.select_stackrestore(ptr),
            IrInst::ParamRef { dest, index, ty } => {
                self.select_paramref(inst, *dest, *index, *ty)?;
            }
            IrInst::Load { dest, ty, ptr } => {
                let (base, off) = self.address(ptr, S1);
                let r = self.dest_reg(*dest);
                self.load_extended(*ty, r, base, off);
                self.write_dest(*dest, r);
            }
            IrInst::Store { ty, val, ptr } => {
                let (base, off) = self.address(ptr, S1);
                let r = self.read_or_zero(val, *ty, S0);
                self.store_mem(ty.size(8).max(1), r, base, off);
            }
            IrInst::Gep { dest, base, offset } => {
                let (b, off) = self.address(base, S1);
                let r = self.dest_reg(*dest);
                match offset {
                    IrOperand::Const(c) => {
                        let total = off.wrapping_add(const_value(*c, IrType::I64) as i64);
                        let code = add_offset(r, b, total, S2);
                        self.extend_text(code);
                    }
                    IrOperand::Value(_) => {
                        let o = self.read(offset, IrType::I64, S2);
                        let b = if off != 0 || b == Reg::SP {
                            let code = add_offset(S1, b, off, S0);
                            self.extend_text(code);
                            S1
                        } else {
                            b
                        };
                        self.push(Inst::Op3 {
                            op: Op3::Add,
                            w: Width::X,
                            rd: r,
                            rn: b,
                            rm: o,
                        });
                    }
                }
                self.write_dest(*dest, r);
            }
            IrInst::GlobalAddr { dest, name } => {
                let r = self.dest_reg(*dest);
                self.push(Inst::Adrp {
                    rd: r,
                    sym: name.clone(),
                });
                self.push(Inst::AddLo12 {
                    rd: r,
                    rn: r,
                    sym: name.clone(),
                });
                self.write_dest(*dest, r);
            }
            IrInst::Memcpy { dst, src, size } => self.select_memcpy(dst, src, *size),
            IrInst::Bin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            } => self.select_bin(*dest, *op, *ty, lhs, rhs),
            IrInst::Un { dest, op, ty, src } => {
                let a = self.read(src, *ty, S0);
                let r = self.dest_reg(*dest);
                let w = width_of(*ty);
                self.push(match op {
                    UnOp::Neg => Inst::Neg { w, rd: r, rm: a },
                    UnOp::Not => Inst::Mvn { w, rd: r, rm: a },
                });
                self.extend(*ty, r);
                self.write_dest(*dest, r);
            }
            IrInst::Cmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => {
                let cond = self.compare(*pred, *ty, lhs, rhs);
                let r = self.dest_reg(*dest);
                self.push(Inst::Cset { rd: r, cond });
                self.write_dest(*dest, r);
                self.flags = Some((*dest, cond));
            }
            IrInst::Cast {
                dest,
                from,
                src,
                to,
            } if from.is_float() || to.is_float() => self.select_float_cast(*dest, *from, src, *to),
            IrInst::Cast {
                dest,
                from,
                src,
                to,
            } => {
                let r = self.dest_reg(*dest);
                self.load_into(src, *from, r);
                if cast_needs_extension(*from, *to) {
                    self.extend(*to, r);
                }
                self.write_dest(*dest, r);
            }
            IrInst::FBin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            } => self.select_fbin(*dest, *op, *ty, lhs, rhs),
            IrInst::FNeg { dest, ty, src } => self.select_fneg(*dest, *ty, src),
            IrInst::FCmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => self.select_fcmp(*dest, *pred, *ty, lhs, rhs),
            IrInst::Bitcast {
                dest,
                from,
                src,
                to,
            } => self.select_bitcast(*dest, *from, src, *to),
            IrInst::Copy { dest, ty, src } => self.select_copy(*dest, *ty, src),
            IrInst::Select {
                dest,
                ty,
                cond,
                on_true,
                on_false,
            } => self.select_select(*dest, *ty, cond, on_true, on_false, flags_before),
            IrInst::Call {
                dest,
                ret,
                callee,
                args,
                ..
            } => self.select_call(inst, *dest, *ret, callee, args)?,
            IrInst::Phi { .. } => {
                return Err(self.error(
                    Some(inst),
                    "phi in the backend's input (run phi elimination first)".into(),
                ))
            }
        }
        Ok(())
    }

    /// Compares `lhs` with `rhs` as `pred` reads them at `ty`; the condition under which
    /// `pred` holds.
    fn compare(&mut self, pred: CmpPred, ty: IrType, lhs: &IrOperand, rhs: &IrOperand) -> Cond {
        let w = width_of(ty);
        // Only a signed order of 8/16-bit unsigned values needs re-extending: unsigned
        // orders and equality read sign-extended narrow values right.
        let as_ty = if is_signed_pred(pred) {
            view(ty, true)
        } else {
            ty
        };
        let a = self.read_as(lhs, ty, as_ty, S0);
        let imm = match rhs {
            IrOperand::Const(c) => cmp_immediate(as_ty.canonicalize(const_value(*c, ty), 8), w),
            IrOperand::Value(_) => None,
        };
        match imm {
            Some((imm, negated)) => self.push(Inst::CmpImm {
                w,
                rn: a,
                imm,
                negated,
            }),
            None => {
                let b = self.read_as(rhs, ty, as_ty, S1);
                self.push(Inst::Cmp { w, rn: a, rm: b });
            }
        }
        condition(pred)
    }

    fn select_copy(&mut self, dest: Value, ty: IrType, src: &IrOperand) {
        match self.vloc(dest) {
            VLoc::Reg(r) => self.load_into(src, ty, r),
            VLoc::Slot(off) => {
                if src.as_value() == Some(dest) {
                    return;
                }
                let r = self.read_or_zero(src, ty, S0);
                self.store_mem(8, r, self.frame.base(), off);
            }
        }
    }

    fn select_select(
        &mut self,
        dest: Value,
        ty: IrType,
        cond: &IrOperand,
        on_true: &IrOperand,
        on_false: &IrOperand,
        flags_before: Option<(Value, Cond)>,
    ) {
        let cond = match cond {
            IrOperand::Const(c) => {
                // A constant condition is true when non-zero in its own type.
                let chosen = if c.bits != 0 { on_true } else { on_false };
                self.select_copy(dest, ty, chosen);
                return;
            }
            IrOperand::Value(v) => *v,
        };
        let t = self.read(on_true, ty, S0);
        let f = self.read(on_false, ty, S1);
        let cc = match flags_before {
            Some((v, cc)) if v == cond => cc,
            _ => {
                let c = self.read(&IrOperand::Value(cond), IrType::I64, S2);
                self.push(Inst::CmpImm {
                    w: Width::X,
                    rn: c,
                    imm: 0,
                    negated: false,
                });
                Cond::Ne
            }
        };
        let r = self.dest_reg(dest);
        self.push(Inst::Csel {
            w: Width::X,
            rd: r,
            rn: t,
            rm: f,
            cond: cc,
        });
        self.write_dest(dest, r);
    }

    fn select_bin(&mut self, dest: Value, op: BinOp, ty: IrType, lhs: &IrOperand, rhs: &IrOperand) {
        let w = width_of(ty);
        match op {
            BinOp::Add | BinOp::Sub => {
                let a = self.read(lhs, ty, S0);
                let imm = match rhs {
                    IrOperand::Const(c) => {
                        let s = signed_at(const_value(*c, ty), w);
                        let (op3, magnitude) = match (op, s < 0) {
                            (BinOp::Add, false) | (BinOp::Sub, true) => (OpImm::Add, s),
                            _ => (OpImm::Sub, s),
                        };
                        let magnitude = magnitude.unsigned_abs();
                        add_sub_imm(magnitude).then_some((op3, magnitude))
                    }
                    IrOperand::Value(_) => None,
                };
                let r = self.dest_reg(dest);
                match imm {
                    Some((op, imm)) => self.push(Inst::OpImm {
                        op,
                        w,
                        rd: r,
                        rn: a,
                        imm,
                    }),
                    None => {
                        let b = self.read(rhs, ty, S1);
                        let op = if op == BinOp::Add { Op3::Add } else { Op3::Sub };
                        self.push(Inst::Op3 {
                            op,
                            w,
                            rd: r,
                            rn: a,
                            rm: b,
                        });
                    }
                }
                self.extend(ty, r);
                self.write_dest(dest, r);
            }
            BinOp::Mul => {
                let a = self.read(lhs, ty, S0);
                let b = self.read(rhs, ty, S1);
                let r = self.dest_reg(dest);
                self.push(Inst::Op3 {
                    op: Op3::Mul,
                    w,
                    rd: r,
                    rn: a,
                    rm: b,
                });
                self.extend(ty, r);
                self.write_dest(dest, r);
            }
            BinOp::And | BinOp::Or | BinOp::Xor => {
                // Bitwise operations of canonical values are canonical: run them on the
                // whole register, no re-extension.
                let a = self.read(lhs, ty, S0);
                let r = self.dest_reg(dest);
                let imm = match rhs {
                    IrOperand::Const(c) => {
                        let v = const_value(*c, ty);
                        is_logical_imm(v, Width::X).then_some(v)
                    }
                    IrOperand::Value(_) => None,
                };
                match imm {
                    Some(imm) => {
                        let op = match op {
                            BinOp::And => OpImm::And,
                            BinOp::Or => OpImm::Orr,
                            _ => OpImm::Eor,
                        };
                        self.push(Inst::OpImm {
                            op,
                            w: Width::X,
                            rd: r,
                            rn: a,
                            imm,
                        });
                    }
                    None => {
                        let b = self.read(rhs, ty, S1);
                        let op = match op {
                            BinOp::And => Op3::And,
                            BinOp::Or => Op3::Orr,
                            _ => Op3::Eor,
                        };
                        self.push(Inst::Op3 {
                            op,
                            w: Width::X,
                            rd: r,
                            rn: a,
                            rm: b,
                        });
                    }
                }
                self.write_dest(dest, r);
            }
            BinOp::Shl | BinOp::AShr | BinOp::LShr => {
                let (as_ty, shift, op3) = match op {
                    BinOp::Shl => (ty, ShiftOp::Lsl, Op3::Lsl),
                    BinOp::AShr => (view(ty, true), ShiftOp::Asr, Op3::Asr),
                    _ => (view(ty, false), ShiftOp::Lsr, Op3::Lsr),
                };
                let a = self.read_as(lhs, ty, as_ty, S0);
                let r = self.dest_reg(dest);
                match rhs {
                    IrOperand::Const(c) => {
                        // An amount of the width or more is undefined in the IR; masking
                        // keeps the encoding valid.
                        let amount = (const_value(*c, ty) & u64::from(w.bits() - 1)) as u32;
                        self.push(Inst::ShiftImm {
                            op: shift,
                            w,
                            rd: r,
                            rn: a,
                            amount,
                        });
                    }
                    IrOperand::Value(_) => {
                        let b = self.read(rhs, ty, S1);
                        self.push(Inst::Op3 {
                            op: op3,
                            w,
                            rd: r,
                            rn: a,
                            rm: b,
                        });
                    }
                }
                self.extend(ty, r);
                self.write_dest(dest, r);
            }
            BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => {
                self.select_division(dest, op, ty, lhs, rhs)
            }
        }
    }

    /// Division and remainder, with the IR's traps: the divisor tested for zero, and for
    /// signed operations `MIN / -1` at the operation's width; remainder = a - (a/b)*b.
    fn select_division(
        &mut self,
        dest: Value,
        op: BinOp,
        ty: IrType,
        lhs: &IrOperand,
        rhs: &IrOperand,
    ) {
        let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
        let remainder = matches!(op, BinOp::SRem | BinOp::URem);
        let w = width_of(ty);
        let as_ty = view(ty, signed);
        let a = self.read_as(lhs, ty, as_ty, S0);
        let b = self.read_as(rhs, ty, as_ty, S1);
        // What a constant divisor is, at the operation's width.
        let divisor = match rhs {
            IrOperand::Const(c) => Some(signed_at(as_ty.canonicalize(const_value(*c, ty), 8), w)),
            IrOperand::Value(_) => None,
        };
        let test_zero = !mutants::enabled(Mutant::Aarch64DivZeroNoTrap);
        if test_zero && divisor.is_none_or(|d| d == 0) {
            let label = self.trap_label();
            self.push(Inst::Cbz {
                w,
                rt: b,
                nonzero: false,
                label,
            });
        }
        if signed && divisor.is_none_or(|d| d == -1) {
            // MIN of the width, as the width's register view holds it (sign-extended
            // into the w register for 8 and 16 bits).
            let bits = as_ty.size(8) * 8;
            let min = (i64::MIN >> (64 - bits)) as u64;
            let min = match w {
                Width::W => min & 0xffff_ffff,
                Width::X => min,
            };
            let ok = self.fresh_label("div");
            self.push(Inst::CmpImm {
                w,
                rn: b,
                imm: 1,
                negated: true,
            });
            self.push(Inst::BCond {
                cond: Cond::Ne,
                label: ok.clone(),
            });
            self.extend_text(mov_imm(S2, min));
            self.push(Inst::Cmp { w, rn: a, rm: S2 });
            let label = self.trap_label();
            self.push(Inst::BCond {
                cond: Cond::Eq,
                label,
            });
            self.push(Inst::Label(ok));
        }
        let div = if signed { Op3::SDiv } else { Op3::UDiv };
        let r = self.dest_reg(dest);
        if remainder {
            self.push(Inst::Op3 {
                op: div,
                w,
                rd: S2,
                rn: a,
                rm: b,
            });
            self.push(Inst::Msub {
                w,
                rd: r,
                rn: S2,
                rm: b,
                ra: a,
            });
        } else {
            self.push(Inst::Op3 {
                op: div,
                w,
                rd: r,
                rn: a,
                rm: b,
            });
        }
        self.extend(ty, r);
        self.write_dest(dest, r);
    }

    /// `memcpy DST, SRC, SIZE` through scratch registers only (x16 destination, x17
    /// source, x9 data, x10 counter): post-indexed moves, an 8-byte loop for large sizes,
    /// then the tail widest piece first.
    fn select_memcpy(&mut self, dst: &IrOperand, src: &IrOperand, size: u32) {
        if size == 0 {
            return;
        }
        self.load_into(dst, IrType::Ptr, S0);
        self.load_into(src, IrType::Ptr, S1);
        let copy = |bytes: u32| {
            [
                Inst::Load {
                    bytes,
                    signed: false,
                    rt: S2,
                    mem: Mem::PostIndex {
                        base: S1,
                        off: i64::from(bytes),
                    },
                },
                Inst::Store {
                    bytes,
                    rt: S2,
                    mem: Mem::PostIndex {
                        base: S0,
                        off: i64::from(bytes),
                    },
                },
            ]
        };
        let mut left = size;
        if size >= MEMCPY_UNROLL_LIMIT {
            self.extend_text(mov_imm(S3, u64::from(size / 8)));
            let top = self.fresh_label("copy");
            self.push(Inst::Label(top.clone()));
            self.extend_text(copy(8).to_vec());
            self.push(Inst::OpImm {
                op: OpImm::Sub,
                w: Width::X,
                rd: S3,
                rn: S3,
                imm: 1,
            });
            self.push(Inst::Cbz {
                w: Width::X,
                rt: S3,
                nonzero: true,
                label: top,
            });
            left = size % 8;
        }
        for piece in [8u32, 4, 2, 1] {
            while left >= piece {
                self.extend_text(copy(piece).to_vec());
                left -= piece;
            }
        }
    }

    // ---- Terminators ------------------------------------------------------------------

    fn jump_unless_next(&mut self, target: BlockId, next: Option<BlockId>) {
        if next != Some(target) {
            self.push(Inst::B(target.to_string()));
        }
    }

    fn select_terminator(&mut self, term: &Terminator, next: Option<BlockId>) {
        match term {
            Terminator::Br(b) => self.jump_unless_next(*b, next),
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                let v = match cond {
                    IrOperand::Const(c) => {
                        let target = if c.bits != 0 { if_true } else { if_false };
                        self.jump_unless_next(*target, next);
                        return;
                    }
                    IrOperand::Value(v) => *v,
                };
                match self.flags {
                    // Right after the comparison that computed it, the flags still say it.
                    Some((fv, cc)) if fv == v => {
                        if next == Some(*if_true) {
                            self.push(Inst::BCond {
                                cond: cc.invert(),
                                label: if_false.to_string(),
                            });
                        } else {
                            self.push(Inst::BCond {
                                cond: cc,
                                label: if_true.to_string(),
                            });
                            self.jump_unless_next(*if_false, next);
                        }
                    }
                    _ => {
                        let r = self.read(cond, IrType::I64, S0);
                        let (nonzero, target, other) = if next == Some(*if_true) {
                            (false, if_false, if_true)
                        } else {
                            (true, if_true, if_false)
                        };
                        self.push(Inst::Cbz {
                            w: Width::X,
                            rt: r,
                            nonzero,
                            label: target.to_string(),
                        });
                        self.jump_unless_next(*other, next);
                    }
                }
            }
            Terminator::Switch {
                ty,
                val,
                default,
                cases,
            } => self.select_switch(*ty, val, *default, cases, next),
            Terminator::Ret(value) => self.select_ret(value.as_ref()),
            Terminator::Unreachable => self.push(Inst::Udf),
        }
    }

    /// `cmp r, #v` for a canonical 64-bit `v`, through [`S1`] when no immediate fits.
    fn compare_with(&mut self, r: Reg, v: u64) {
        match cmp_immediate(v, Width::X) {
            Some((imm, negated)) => self.push(Inst::CmpImm {
                w: Width::X,
                rn: r,
                imm,
                negated,
            }),
            None => {
                self.extend_text(mov_imm(S1, v));
                self.push(Inst::Cmp {
                    w: Width::X,
                    rn: r,
                    rm: S1,
                });
            }
        }
    }

    fn select_switch(
        &mut self,
        ty: IrType,
        val: &IrOperand,
        default: BlockId,
        cases: &[(i64, BlockId)],
        next: Option<BlockId>,
    ) {
        // Case values as canonical 64-bit patterns of the switch's type; the first of two
        // equal cases wins, as in the IR.
        let canon = |c: i64| ty.canonicalize(c as u64, 8) as i64;
        if let IrOperand::Const(c) = val {
            let v = const_value(*c, ty) as i64;
            let target = cases
                .iter()
                .find(|(cv, _)| canon(*cv) == v)
                .map_or(default, |(_, b)| *b);
            self.jump_unless_next(target, next);
            return;
        }
        let values: Vec<i128> = cases.iter().map(|(c, _)| i128::from(canon(*c))).collect();
        let (min, max) = (
            values.iter().copied().min().unwrap_or(0),
            values.iter().copied().max().unwrap_or(0),
        );
        let range = max - min + 1;
        let dense = cases.len() >= 4 && range <= 3 * cases.len() as i128 && range < 1 << 30;
        if !dense {
            let r = self.read(val, ty, S0);
            for (c, target) in cases {
                self.compare_with(r, canon(*c) as u64);
                self.push(Inst::BCond {
                    cond: Cond::Eq,
                    label: target.to_string(),
                });
            }
            self.jump_unless_next(default, next);
            return;
        }
        // A jump table: index = value - min, checked unsigned against the range; entries
        // are 32-bit offsets from the table, which sits right after the `br` (in reach of
        // `adr` whatever the function's size).
        self.load_into(val, ty, S0);
        let code = add_offset(S0, S0, -(min as i64), S1);
        self.extend_text(code);
        self.compare_with(S0, (range - 1) as u64);
        self.push(Inst::BCond {
            cond: Cond::Hi,
            label: default.to_string(),
        });
        let table = self.fresh_label("jt");
        self.push(Inst::Adr {
            rd: S1,
            label: table.clone(),
        });
        self.push(Inst::ShiftImm {
            op: ShiftOp::Lsl,
            w: Width::X,
            rd: S0,
            rn: S0,
            amount: 2,
        });
        self.push(Inst::Load {
            bytes: 4,
            signed: true,
            rt: S0,
            mem: Mem::Indexed {
                base: S1,
                index: S0,
            },
        });
        self.push(Inst::Op3 {
            op: Op3::Add,
            w: Width::X,
            rd: S1,
            rn: S1,
            rm: S0,
        });
        self.push(Inst::Br(S1));
        let mut entries = vec![default; range as usize];
        for (i, (_, target)) in cases.iter().enumerate().rev() {
            entries[(values[i] - min) as usize] = *target;
        }
        self.push(Inst::Directive(".p2align 2".into()));
        self.push(Inst::Label(table.clone()));
        for target in entries {
            self.push(Inst::Directive(format!(".word {target}-{table}")));
        }
    }
}
