//! Instruction selection for x86-64: each IR instruction of a phi-eliminated function,
//! read over its register allocation, becomes x86 instructions with concrete operands.
//!
//! Why it exists: this is where the IR's meaning (wrapping arithmetic at the type's
//! width, signedness in the type, traps) meets the machine's. Every value lives in its
//! [`Loc`] as a 64-bit *canonical* quantity (sign-extended for signed types, zero-extended
//! for unsigned types and `ptr`), so most operations can work on whole registers and only
//! re-extend their result.
//!
//! Invariants:
//! - the selector computes in the scratch registers %rax, %rcx, %rdx and %r11, which the
//!   allocator never hands out, or directly in the destination's register when no
//!   operand still to be read lives there; every operand is read before the destination
//!   is written, so a destination may share a location with an operand that dies there;
//! - every definition leaves its value canonical for its type (a spill slot always holds
//!   all 8 bytes of the canonical value);
//! - operations whose result depends on the width (division, remainder, right shifts,
//!   comparisons) run at the IR type's own width (`idivb`/`divw`/`sarl`/`cmpq` ...), so
//!   `sdiv i8 -128, -1` traps exactly as the IR says;
//! - memory operands are the frame's slots, addressed from %rsp, which never moves inside
//!   the body (from %rbp in a function with dynamic stack allocation); the only memory written besides IR stores is a value's own slot.

use super::abi::Frame;
use super::X86_64;
use crate::backend::regalloc::{Allocation, Loc};
use crate::backend::x86::condition_code;
use crate::backend::x86::float;
use crate::backend::x86::inst::{
    AluOp, Base, Inst, Mem, Operand, ShiftAmount, ShiftOp, Size, UnaryOp,
};
use crate::backend::x86::Reg;
use crate::backend::BackendError;
use crate::ir::{
    BinOp, BlockId, Inst as IrInst, IrConst, IrFunction, IrModule, IrType, Operand as IrOperand,
    Terminator, UnOp, Value,
};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// A memcpy of at most this many bytes is unrolled; a longer one is a loop.
const MEMCPY_UNROLL_LIMIT: u32 = 128;

/// The selected code of one function.
pub(super) struct FunctionCode {
    /// The body, from the prologue to the last block.
    pub text: Vec<Inst>,
    /// Read-only data the body refers to (jump tables), without a section directive.
    pub rodata: Vec<Inst>,
}

/// The state of selecting one function.
pub(super) struct Selector<'a> {
    pub(super) module: &'a IrModule,
    pub(super) func: &'a IrFunction,
    /// The function's position in the module (for invented labels `.L<index>_...`).
    func_index: usize,
    pub(super) alloc: &'a Allocation,
    pub(super) frame: &'a Frame,
    text: Vec<Inst>,
    rodata: Vec<Inst>,
    next_label: u32,
    /// The value the flags were last computed for by a comparison, and the condition
    /// under which it is 1: a `condbr` right after its `cmp` branches on the flags.
    flags: Option<(Value, &'static str)>,
    /// Values defined only by an entry-block alloca: their stack object, which memory
    /// accesses through them address directly (`off(%rsp)`) instead of through the
    /// pointer's location.
    stable_allocas: FxHashMap<Value, Mem>,
}

/// The canonical 64-bit value of constant `c` read in a position of type `ty`.
pub(super) fn const_value(c: IrConst, ty: IrType) -> i64 {
    ty.canonicalize(c.bits as u64, 8) as i64
}

fn fits_i32(v: i64) -> bool {
    i32::try_from(v).is_ok()
}

/// `v` as an immediate of an instruction of size `size` (for `Size::Q` only when it
/// fits a sign-extended 32-bit immediate).
fn immediate(v: i64, size: Size) -> Option<i64> {
    match size {
        Size::B => Some(i64::from(v as i8)),
        Size::W => Some(i64::from(v as i16)),
        Size::L => Some(i64::from(v as i32)),
        Size::Q => fits_i32(v).then_some(v),
    }
}

fn size_of(ty: IrType) -> Size {
    Size::from_bytes(ty.size(8))
}

/// The instruction that puts the canonical form of the `ty` value whose low bytes are at
/// `src` into `dst`: a sign extension for signed types, a zero extension (`movz`, or
/// `movl`, which clears the upper half) for unsigned ones, a plain move at 64 bits.
fn extending_move(ty: IrType, src: Operand, dst: Reg) -> Inst {
    match (size_of(ty), ty.is_signed()) {
        (Size::Q, _) => Inst::Mov {
            size: Size::Q,
            src,
            dst: dst.into(),
        },
        (from, true) => Inst::MovSx {
            from,
            to: Size::Q,
            src,
            dst,
        },
        (Size::L, false) => Inst::MovZx {
            from: Size::L,
            to: Size::Q,
            src,
            dst,
        },
        (from, false) => Inst::MovZx {
            from,
            to: Size::L,
            src,
            dst,
        },
    }
}

/// The values whose only definition is an alloca of the entry block, with their stack
/// objects. Such a value always holds its object's address (the entry block runs first;
/// phi elimination's copies never assign an alloca's value), so an access through it may
/// use the object's frame address.
fn stable_allocas(func: &IrFunction, frame: &Frame) -> FxHashMap<Value, Mem> {
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
                if let (Some(1), Some(mem)) = (definitions.get(dest), frame.alloca_mem(*dest)) {
                    stable.insert(*dest, mem);
                }
            }
        }
    }
    stable
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

impl<'a> Selector<'a> {
    pub(super) fn new(
        module: &'a IrModule,
        func: &'a IrFunction,
        func_index: usize,
        alloc: &'a Allocation,
        frame: &'a Frame,
    ) -> Selector<'a> {
        Selector {
            module,
            func,
            func_index,
            alloc,
            frame,
            text: Vec::new(),
            rodata: Vec::new(),
            next_label: 0,
            flags: None,
            stable_allocas: stable_allocas(func, frame),
        }
    }

    pub(super) fn push(&mut self, inst: Inst) {
        self.text.push(inst);
    }

    fn error(&self, inst: Option<&IrInst>, message: String) -> BackendError {
        BackendError::new(X86_64, self.func, inst, message)
    }

    /// A fresh label `.L<func-index>_<purpose><n>`.
    pub(super) fn fresh_label(&mut self, purpose: &str) -> String {
        self.next_label += 1;
        format!(".L{}_{purpose}{}", self.func_index, self.next_label)
    }

    // ---- Locations and operands -------------------------------------------------------

    /// The location of `v` as an operand (its register or its spill slot).
    pub(super) fn loc_operand(&self, v: Value) -> Operand {
        match self.alloc.loc(v) {
            Loc::Reg(r) => Operand::Reg(Reg::from_preg(r)),
            Loc::Spill(s) => Operand::Mem(self.frame.spill_mem(s)),
        }
    }

    /// The register `v` lives in, if it lives in one.
    fn reg_of(&self, v: Value) -> Option<Reg> {
        self.alloc.reg(v).map(Reg::from_preg)
    }

    /// True when `op` is a value living in register `r`.
    fn lives_in(&self, op: &IrOperand, r: Reg) -> bool {
        op.as_value().and_then(|v| self.reg_of(v)) == Some(r)
    }

    /// The register to compute `dest` in: its own, when no operand in `still_read` lives
    /// there, else %rax.
    pub(super) fn work_reg(&self, dest: Value, still_read: &[&IrOperand]) -> Reg {
        match self.reg_of(dest) {
            Some(r) if !still_read.iter().any(|op| self.lives_in(op, r)) => r,
            _ => Reg::Rax,
        }
    }

    /// Loads the constant `v` into `dst` with the shortest exact instruction.
    pub(super) fn materialize(&mut self, v: i64, dst: Reg) {
        if fits_i32(v) {
            self.push(Inst::Mov {
                size: Size::Q,
                src: Operand::Imm(v),
                dst: dst.into(),
            });
        } else if (v as u64) <= u64::from(u32::MAX) {
            self.push(Inst::Mov {
                size: Size::L,
                src: Operand::Imm(i64::from(v as u32 as i32)),
                dst: dst.into(),
            });
        } else {
            self.push(Inst::MovAbs { imm: v, dst });
        }
    }

    /// Puts the canonical value of `op` (read as type `ty`) into `dst`.
    pub(super) fn load_into(&mut self, op: &IrOperand, ty: IrType, dst: Reg) {
        match op {
            IrOperand::Value(v) => {
                let src = self.loc_operand(*v);
                if src != Operand::Reg(dst) {
                    self.push(Inst::Mov {
                        size: Size::Q,
                        src,
                        dst: dst.into(),
                    });
                }
            }
            IrOperand::Const(c) => self.materialize(const_value(*c, ty), dst),
        }
    }

    /// A register holding the canonical value of `op`: its own, or `scratch` after a load.
    fn in_reg(&mut self, op: &IrOperand, ty: IrType, scratch: Reg) -> Reg {
        if let Some(r) = op.as_value().and_then(|v| self.reg_of(v)) {
            return r;
        }
        self.load_into(op, ty, scratch);
        scratch
    }

    /// The memory `ptr` points to: a stable alloca's stack object, or `(reg)` with the
    /// pointer in its own register or loaded into `scratch`.
    fn address(&mut self, ptr: &IrOperand, scratch: Reg) -> Mem {
        if let Some(mem) = ptr.as_value().and_then(|v| self.stable_allocas.get(&v)) {
            return mem.clone();
        }
        Mem::base_disp(self.in_reg(ptr, IrType::Ptr, scratch), 0)
    }

    /// `op` as a source operand of an instruction of size `size`: its register, its
    /// slot, an immediate, or (a constant too wide for an immediate) `scratch` loaded
    /// with it.
    pub(super) fn source(
        &mut self,
        op: &IrOperand,
        ty: IrType,
        size: Size,
        scratch: Reg,
    ) -> Operand {
        match op {
            IrOperand::Value(v) => self.loc_operand(*v),
            IrOperand::Const(c) => {
                let v = const_value(*c, ty);
                match immediate(v, size) {
                    Some(imm) => Operand::Imm(imm),
                    None => {
                        self.materialize(v, scratch);
                        Operand::Reg(scratch)
                    }
                }
            }
        }
    }

    /// Like [`Selector::source`], but never an immediate.
    fn source_no_imm(&mut self, op: &IrOperand, ty: IrType, size: Size, scratch: Reg) -> Operand {
        match self.source(op, ty, size, scratch) {
            Operand::Imm(_) => {
                self.load_into(op, ty, scratch);
                Operand::Reg(scratch)
            }
            other => other,
        }
    }

    /// Re-establishes the canonical form of a `ty` value whose low bytes are in `r`.
    pub(super) fn extend(&mut self, ty: IrType, r: Reg) {
        self.extend_into(ty, r, r);
    }

    /// Puts the canonical form of the `ty` value whose low bytes are in `src` into `dst`.
    pub(super) fn extend_into(&mut self, ty: IrType, src: Reg, dst: Reg) {
        if size_of(ty) == Size::Q && src == dst {
            return;
        }
        self.push(extending_move(ty, src.into(), dst));
    }

    /// Loads a `ty` from `mem` into `dst`, extended canonically.
    fn load_extended(&mut self, ty: IrType, mem: Mem, dst: Reg) {
        let ty = if ty == IrType::I8 && mutants::enabled(Mutant::X86I8LoadNoSignExtend) {
            IrType::U8
        } else {
            ty
        };
        self.push(extending_move(ty, mem.into(), dst));
    }

    /// Writes the canonical value in `r` to `dest`'s location.
    pub(super) fn write_dest(&mut self, dest: Value, r: Reg) {
        let dst = self.loc_operand(dest);
        if dst != Operand::Reg(r) {
            self.push(Inst::Mov {
                size: Size::Q,
                src: r.into(),
                dst,
            });
        }
    }

    /// Sets the flags so that `ne` means "`cond` is non-zero" (a value: in its own type,
    /// which its canonical form preserves).
    fn test_nonzero(&mut self, cond: Value) {
        match self.loc_operand(cond) {
            Operand::Reg(r) => self.push(Inst::Alu {
                op: AluOp::Test,
                size: Size::Q,
                src: r.into(),
                dst: r.into(),
            }),
            other => self.push(Inst::Alu {
                op: AluOp::Cmp,
                size: Size::Q,
                src: Operand::Imm(0),
                dst: other,
            }),
        }
    }

    // ---- Functions and blocks ---------------------------------------------------------

    /// Selects the whole function: prologue, then every block in order.
    pub(super) fn select_function(mut self) -> Result<FunctionCode, BackendError> {
        for inst in self.frame.prologue() {
            self.push(inst);
        }
        let func = self.func;
        for (i, block) in func.blocks.iter().enumerate() {
            self.push(Inst::Label(block.label.to_string()));
            self.flags = None;
            for inst in &block.insts {
                // Only a comparison leaves flags a later branch may use.
                self.flags = None;
                self.select_inst(inst)?;
            }
            let next = func.blocks.get(i + 1).map(|b| b.label);
            self.select_terminator(&block.term, next);
        }
        Ok(FunctionCode {
            text: self.text,
            rodata: self.rodata,
        })
    }

    fn select_inst(&mut self, inst: &IrInst) -> Result<(), BackendError> {
        match inst {
            IrInst::Alloca { dest, .. } => {
                let mem = self
                    .frame
                    .alloca_mem(*dest)
                    .ok_or_else(|| self.error(Some(inst), "alloca without a slot".into()))?;
                let r = self.work_reg(*dest, &[]);
                self.push(Inst::Lea {
                    size: Size::Q,
                    src: mem,
                    dst: r,
                });
                self.write_dest(*dest, r);
            }
            IrInst::DynAlloca { dest, size, align } => self.select_dynalloca(*dest, size, *align),
            IrInst::StackSave { dest } => self.select_stacksave(*dest),
            IrInst::StackRestore { ptr } => self.select_stackrestore(ptr),
            IrInst::ParamRef { dest, index, ty } => {
                let mem = self.frame.param_mem(*index).ok_or_else(|| {
                    self.error(Some(inst), format!("parameter {index} has no home"))
                })?;
                let r = self.work_reg(*dest, &[]);
                self.load_extended(*ty, mem, r);
                self.write_dest(*dest, r);
            }
            IrInst::Load { dest, ty, ptr } => {
                let mem = self.address(ptr, Reg::R11);
                let r = self.work_reg(*dest, &[]);
                self.load_extended(*ty, mem, r);
                self.write_dest(*dest, r);
            }
            IrInst::Store { ty, val, ptr } => {
                let mem = self.address(ptr, Reg::R11);
                let size = size_of(*ty);
                let src = match self.source(val, *ty, size, Reg::Rax) {
                    Operand::Mem(m) => {
                        self.push(Inst::Mov {
                            size: Size::Q,
                            src: m.into(),
                            dst: Reg::Rax.into(),
                        });
                        Operand::Reg(Reg::Rax)
                    }
                    other => other,
                };
                self.push(Inst::Mov {
                    size,
                    src,
                    dst: mem.into(),
                });
            }
            IrInst::Gep { dest, base, offset } => {
                let b = self.address(base, Reg::R11);
                let mem = match offset {
                    IrOperand::Const(c)
                        if fits_i32(b.disp.saturating_add(const_value(*c, IrType::I64))) =>
                    {
                        b.offset_by(const_value(*c, IrType::I64))
                    }
                    _ => {
                        let o = self.in_reg(offset, IrType::I64, Reg::Rcx);
                        Mem {
                            index: Some((o, 1)),
                            ..b
                        }
                    }
                };
                let r = self.work_reg(*dest, &[]);
                self.push(Inst::Lea {
                    size: Size::Q,
                    src: mem,
                    dst: r,
                });
                self.write_dest(*dest, r);
            }
            IrInst::GlobalAddr { dest, name } => {
                let r = self.work_reg(*dest, &[]);
                self.push(Inst::Lea {
                    size: Size::Q,
                    src: Mem::rip(name, 0),
                    dst: r,
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
                let r = self.work_reg(*dest, &[]);
                self.load_into(src, *ty, r);
                let op = match op {
                    UnOp::Neg => UnaryOp::Neg,
                    UnOp::Not => UnaryOp::Not,
                };
                self.push(Inst::Unary {
                    op,
                    size: size_of(*ty),
                    dst: r.into(),
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
                let size = size_of(*ty);
                let l = self.in_reg(lhs, *ty, Reg::Rax);
                let r = self.source(rhs, *ty, size, Reg::Rcx);
                self.push(Inst::Alu {
                    op: AluOp::Cmp,
                    size,
                    src: r,
                    dst: l.into(),
                });
                let cc = condition_code(*pred);
                let d = self.work_reg(*dest, &[]);
                self.push(Inst::SetCc { cc, dst: d.into() });
                self.push(Inst::MovZx {
                    from: Size::B,
                    to: Size::L,
                    src: d.into(),
                    dst: d,
                });
                self.write_dest(*dest, d);
                self.flags = Some((*dest, cc));
            }
            IrInst::Cast {
                dest,
                from,
                src,
                to,
            } => {
                if from.is_float() || to.is_float() {
                    self.select_float_cast(*dest, *from, src, *to)?;
                    return Ok(());
                }
                let r = self.work_reg(*dest, &[]);
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
            } => float::select_fbin(self, *dest, *op, *ty, lhs, rhs)?,
            IrInst::FNeg { dest, ty, src } => float::select_fneg(self, *dest, *ty, src)?,
            IrInst::FCmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => float::select_fcmp(self, *dest, *pred, *ty, lhs, rhs)?,
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
            } => self.select_select(*dest, *ty, cond, on_true, on_false),
            IrInst::Call {
                dest,
                ret,
                callee,
                args,
                ..
            } => self.select_call(*dest, *ret, callee, args)?,
            IrInst::Phi { .. } => {
                return Err(self.error(
                    Some(inst),
                    "phi in the backend's input (run phi elimination first)".into(),
                ))
            }
        }
        Ok(())
    }

    fn select_copy(&mut self, dest: Value, ty: IrType, src: &IrOperand) {
        match self.loc_operand(dest) {
            Operand::Reg(r) => self.load_into(src, ty, r),
            dst => {
                let s = match self.source(src, ty, Size::Q, Reg::Rax) {
                    Operand::Mem(m) => {
                        self.push(Inst::Mov {
                            size: Size::Q,
                            src: m.into(),
                            dst: Reg::Rax.into(),
                        });
                        Operand::Reg(Reg::Rax)
                    }
                    other => other,
                };
                if s != dst {
                    self.push(Inst::Mov {
                        size: Size::Q,
                        src: s,
                        dst,
                    });
                }
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
        let cond_op = IrOperand::Value(cond);
        let w = self.work_reg(dest, &[&cond_op, on_true]);
        self.load_into(on_false, ty, w);
        let t = self.source_no_imm(on_true, ty, Size::Q, Reg::Rcx);
        self.test_nonzero(cond);
        self.push(Inst::Cmov {
            cc: "ne",
            size: Size::Q,
            src: t,
            dst: w,
        });
        self.write_dest(dest, w);
    }

    fn select_bin(&mut self, dest: Value, op: BinOp, ty: IrType, lhs: &IrOperand, rhs: &IrOperand) {
        let size = size_of(ty);
        // A commutative operation whose right operand lives where the result goes is
        // computed the other way round, in the destination itself.
        let commutative = matches!(
            op,
            BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
        );
        let (lhs, rhs) = match self.reg_of(dest) {
            Some(d) if commutative && self.lives_in(rhs, d) && !self.lives_in(lhs, d) => (rhs, lhs),
            _ => (lhs, rhs),
        };
        match op {
            BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Or | BinOp::Xor => {
                let alu = match op {
                    BinOp::Add => AluOp::Add,
                    BinOp::Sub => AluOp::Sub,
                    BinOp::And => AluOp::And,
                    BinOp::Or => AluOp::Or,
                    _ => AluOp::Xor,
                };
                let w = self.work_reg(dest, &[rhs]);
                self.load_into(lhs, ty, w);
                let src = self.source(rhs, ty, size, Reg::Rcx);
                self.push(Inst::Alu {
                    op: alu,
                    size,
                    src,
                    dst: w.into(),
                });
                self.extend(ty, w);
                self.write_dest(dest, w);
            }
            BinOp::Mul => {
                // There is no two-operand byte multiply; the low byte of a 32-bit
                // product is the byte product.
                let mul_size = if size == Size::Q { Size::Q } else { Size::L };
                let w = self.work_reg(dest, &[rhs]);
                self.load_into(lhs, ty, w);
                let src = self.source_no_imm(rhs, ty, mul_size, Reg::Rcx);
                self.push(Inst::Imul {
                    size: mul_size,
                    src,
                    dst: w,
                });
                self.extend(ty, w);
                self.write_dest(dest, w);
            }
            BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => {
                let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
                let remainder = matches!(op, BinOp::SRem | BinOp::URem);
                self.load_into(rhs, ty, Reg::Rcx);
                self.load_into(lhs, ty, Reg::Rax);
                // The dividend's high half: the sign of the low part (signed) or zero.
                match (signed, size) {
                    (true, _) => self.push(Inst::SignExtendAcc { size }),
                    (false, Size::B) => self.push(Inst::MovZx {
                        from: Size::B,
                        to: Size::L,
                        src: Reg::Rax.into(),
                        dst: Reg::Rax,
                    }),
                    (false, _) => self.push(Inst::Alu {
                        op: AluOp::Xor,
                        size: Size::L,
                        src: Reg::Rdx.into(),
                        dst: Reg::Rdx.into(),
                    }),
                }
                self.push(Inst::Div {
                    signed,
                    size,
                    src: Reg::Rcx.into(),
                });
                let result = if !remainder {
                    Reg::Rax
                } else if size == Size::B {
                    // The byte remainder is in %ah: shift it down to %al.
                    self.push(Inst::Shift {
                        op: ShiftOp::Shr,
                        size: Size::W,
                        amount: ShiftAmount::Imm(8),
                        dst: Reg::Rax.into(),
                    });
                    Reg::Rax
                } else {
                    Reg::Rdx
                };
                self.extend(ty, result);
                self.write_dest(dest, result);
            }
            BinOp::Shl | BinOp::AShr | BinOp::LShr => {
                let shift = match op {
                    BinOp::Shl => ShiftOp::Shl,
                    BinOp::AShr => ShiftOp::Sar,
                    _ => ShiftOp::Shr,
                };
                let amount = match rhs {
                    IrOperand::Const(c) => ShiftAmount::Imm(const_value(*c, ty) as u8),
                    IrOperand::Value(_) => {
                        self.load_into(rhs, ty, Reg::Rcx);
                        ShiftAmount::Cl
                    }
                };
                let w = self.work_reg(dest, &[]);
                self.load_into(lhs, ty, w);
                self.push(Inst::Shift {
                    op: shift,
                    size,
                    amount,
                    dst: w.into(),
                });
                self.extend(ty, w);
                self.write_dest(dest, w);
            }
        }
    }

    /// `memcpy DST, SRC, SIZE` through scratch registers only: unrolled for small sizes,
    /// an 8-byte loop (counter in %rdx) for large ones.
    fn select_memcpy(&mut self, dst: &IrOperand, src: &IrOperand, size: u32) {
        if size == 0 {
            return;
        }
        let (d, s, mut done) = if size <= MEMCPY_UNROLL_LIMIT {
            let d = self.address(dst, Reg::R11);
            let s = self.address(src, Reg::Rcx);
            (d, s, 0)
        } else {
            self.load_into(dst, IrType::Ptr, Reg::R11);
            self.load_into(src, IrType::Ptr, Reg::Rcx);
            self.materialize(i64::from(size / 8), Reg::Rdx);
            let top = self.fresh_label("copy");
            self.push(Inst::Label(top.clone()));
            self.push(Inst::Mov {
                size: Size::Q,
                src: Mem::base_disp(Reg::Rcx, 0).into(),
                dst: Reg::Rax.into(),
            });
            self.push(Inst::Mov {
                size: Size::Q,
                src: Reg::Rax.into(),
                dst: Mem::base_disp(Reg::R11, 0).into(),
            });
            for r in [Reg::Rcx, Reg::R11] {
                self.push(Inst::Alu {
                    op: AluOp::Add,
                    size: Size::Q,
                    src: Operand::Imm(8),
                    dst: r.into(),
                });
            }
            self.push(Inst::Unary {
                op: UnaryOp::Dec,
                size: Size::Q,
                dst: Reg::Rdx.into(),
            });
            self.push(Inst::Jcc {
                cc: "ne",
                label: top,
            });
            (
                Mem::base_disp(Reg::R11, 0),
                Mem::base_disp(Reg::Rcx, 0),
                size / 8 * 8,
            )
        };
        // The tail (or the whole copy), widest pieces first, at offsets from the pointers.
        let base_offset = done;
        while done < size {
            let piece = [8u32, 4, 2, 1]
                .into_iter()
                .find(|p| *p <= size - done)
                .unwrap_or(1);
            let off = i64::from(done - base_offset);
            let piece_size = Size::from_bytes(piece);
            self.push(Inst::Mov {
                size: piece_size,
                src: s.offset_by(off).into(),
                dst: Reg::Rax.into(),
            });
            self.push(Inst::Mov {
                size: piece_size,
                src: Reg::Rax.into(),
                dst: d.offset_by(off).into(),
            });
            done += piece;
        }
    }

    // ---- Terminators ------------------------------------------------------------------

    fn jump_unless_next(&mut self, target: BlockId, next: Option<BlockId>) {
        if next != Some(target) {
            self.push(Inst::Jmp(target.to_string()));
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
                // Right after the comparison that computed it, the flags still say it.
                let cc = match self.flags {
                    Some((fv, cc)) if fv == v => cc,
                    _ => {
                        self.test_nonzero(v);
                        "ne"
                    }
                };
                let inverse = negate(cc);
                if let (true, Some(inverse)) = (next == Some(*if_true), inverse) {
                    self.push(Inst::Jcc {
                        cc: inverse,
                        label: if_false.to_string(),
                    });
                } else {
                    self.push(Inst::Jcc {
                        cc,
                        label: if_true.to_string(),
                    });
                    self.jump_unless_next(*if_false, next);
                }
            }
            Terminator::Switch {
                ty,
                val,
                default,
                cases,
            } => self.select_switch(*ty, val, *default, cases, next),
            Terminator::Ret(value) => self.select_ret(value.as_ref()),
            Terminator::Unreachable => self.push(Inst::Ud2),
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
            let v = const_value(*c, ty);
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
            let r = self.in_reg(val, ty, Reg::Rax);
            for (c, target) in cases {
                let src = match immediate(canon(*c), Size::Q) {
                    Some(imm) => Operand::Imm(imm),
                    None => {
                        self.materialize(canon(*c), Reg::Rcx);
                        Operand::Reg(Reg::Rcx)
                    }
                };
                self.push(Inst::Alu {
                    op: AluOp::Cmp,
                    size: Size::Q,
                    src,
                    dst: r.into(),
                });
                self.push(Inst::Jcc {
                    cc: "e",
                    label: target.to_string(),
                });
            }
            self.jump_unless_next(default, next);
            return;
        }
        // A jump table: index = value - min, checked unsigned against the range.
        self.load_into(val, ty, Reg::Rax);
        let min64 = min as i64;
        if min64 != 0 {
            let src = match immediate(min64, Size::Q) {
                Some(imm) => Operand::Imm(imm),
                None => {
                    self.materialize(min64, Reg::Rcx);
                    Operand::Reg(Reg::Rcx)
                }
            };
            self.push(Inst::Alu {
                op: AluOp::Sub,
                size: Size::Q,
                src,
                dst: Reg::Rax.into(),
            });
        }
        self.push(Inst::Alu {
            op: AluOp::Cmp,
            size: Size::Q,
            src: Operand::Imm((range - 1) as i64),
            dst: Reg::Rax.into(),
        });
        self.push(Inst::Jcc {
            cc: "a",
            label: default.to_string(),
        });
        let table = self.fresh_label("jt");
        self.push(Inst::Lea {
            size: Size::Q,
            src: Mem::rip(&table, 0),
            dst: Reg::Rcx,
        });
        self.push(Inst::MovSx {
            from: Size::L,
            to: Size::Q,
            src: Mem {
                base: Base::Reg(Reg::Rcx),
                index: Some((Reg::Rax, 4)),
                disp: 0,
                symbol: None,
            }
            .into(),
            dst: Reg::Rax,
        });
        self.push(Inst::Alu {
            op: AluOp::Add,
            size: Size::Q,
            src: Reg::Rcx.into(),
            dst: Reg::Rax.into(),
        });
        self.push(Inst::JmpIndirect(Reg::Rax.into()));
        let mut entries = vec![default; range as usize];
        for (i, (_, target)) in cases.iter().enumerate().rev() {
            entries[(values[i] - min) as usize] = *target;
        }
        self.rodata.push(Inst::Directive(".balign 4".into()));
        self.rodata.push(Inst::Label(table.clone()));
        for target in entries {
            self.rodata
                .push(Inst::Directive(format!(".long {target}-{table}")));
        }
    }
}

/// The condition code that is true exactly when `cc` is false.
fn negate(cc: &'static str) -> Option<&'static str> {
    Some(match cc {
        "e" => "ne",
        "ne" => "e",
        "l" => "ge",
        "ge" => "l",
        "le" => "g",
        "g" => "le",
        "b" => "ae",
        "ae" => "b",
        "be" => "a",
        "a" => "be",
        _ => return None,
    })
}
