//! i686 instruction selection: one IR instruction at a time, over the allocation.
//!
//! Why it exists: the allocator has put every IR value in a register (ebx, esi, edi) or a
//! stack slot; this file turns each IR instruction into x86 instructions that read the
//! operands from wherever they live, compute in the scratch registers eax, ecx and edx
//! (which the allocator never hands out), and write the destination.
//!
//! Invariants kept here (for ANY allocation, registers or slots):
//! - every operand is read before the destination is written, so the destination may
//!   share a location with an operand whose life ends at the instruction;
//! - a value of a type narrower than 32 bits is kept canonically extended to 32 bits in
//!   its register or slot (signed types sign-extended, unsigned types and `ptr`
//!   zero-extended): every result is re-extended before it is written, and a slot of such
//!   a value always holds the whole canonical 32-bit word;
//! - byte-wide accesses go through eax, ecx, edx or ebx only (esi and edi have no low-byte
//!   name in 32-bit code);
//! - 64-bit values (always in 8-byte slots, low word first) are handled in [`super::wide`];
//!   calls, parameters and returns in [`super::abi`];
//! - narrow divisions use the divide of the operation's own width (`idivb`, `idivw`,
//!   `idivl`, ...), so they fault (SIGFPE) exactly when the IR traps.

use super::abi::Frame;
use crate::backend::regalloc::{Allocation, Loc};
use crate::backend::x86::float;
use crate::backend::x86::inst::{
    AluOp, Base, Inst as MInst, Mem, Operand as Opnd, ShiftAmount, ShiftOp, Size, UnaryOp,
};
use crate::backend::x86::{condition_code, inverse_condition_code, Reg};
use crate::backend::{BackendError, Target};
use crate::ir::{
    BasicBlock, BinOp, BlockId, Inst, IrConst, IrFunction, IrType, Operand, Terminator, UnOp, Value,
};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

pub(super) const EAX: Reg = Reg::Rax;
pub(super) const ECX: Reg = Reg::Rcx;
pub(super) const EDX: Reg = Reg::Rdx;
pub(super) const ESP: Reg = Reg::Rsp;

/// Memcpy sizes up to this many bytes are copied by unrolled moves; larger ones by
/// `rep movs`.
const UNROLLED_MEMCPY_LIMIT: u32 = 64;

/// The state of selecting one function.
pub(super) struct Selector<'a> {
    pub func: &'a IrFunction,
    pub func_index: usize,
    pub alloc: &'a Allocation,
    pub frame: &'a Frame,
    /// The function's body.
    pub out: Vec<MInst>,
    /// Read-only data the body refers to (jump tables).
    pub rodata: Vec<MInst>,
    next_label: u32,
    /// Addresses known without reading a location: values defined exactly once, by an
    /// `alloca` (a frame slot) or a `globaladdr` (a symbol).
    known_addr: FxHashMap<Value, Mem>,
    /// How many times each value is read (by instructions and terminators).
    uses: FxHashMap<Value, u32>,
    /// The last comparison: its destination, the condition code under which it is true,
    /// and `out.len()` right after it (the flags are still its flags while nothing has
    /// been emitted since).
    last_cmp: Option<(Value, &'static str, usize)>,
    /// A comparison left only in the flags (its location never written), until the
    /// branch that reads it is selected.
    unmaterialized: Option<Value>,
    /// The instruction being selected (for error messages).
    current: Option<Inst>,
    /// A hidden result pointer was stored at 0(%esp) for the next call
    /// (`abi_intrinsics::AbiSret`), whose callee pops it.
    pub sret_pending: bool,
}

/// The 32-bit canonical value of constant `c` read in a position of type `ty` (at most 4
/// bytes wide): truncated to `ty`, extended by its signedness; `ptr` is 32 bits.
pub(super) fn const_word(c: IrConst, ty: IrType) -> i64 {
    let n = c.narrowed_to(ty);
    match ty {
        IrType::Ptr => i64::from(n.bits as u32),
        _ => n.bits,
    }
}

/// The two 32-bit halves (low, high) of constant `c` read as the 64-bit type `ty`, each
/// as a signed 32-bit immediate.
pub(super) fn const_pair(c: IrConst, ty: IrType) -> (i64, i64) {
    let bits = c.narrowed_to(ty).bits as u64;
    (
        i64::from(bits as u32 as i32),
        i64::from((bits >> 32) as u32 as i32),
    )
}

/// True when constant `c` is non-zero as a condition (in its own type).
fn const_is_true(c: IrConst) -> bool {
    match c.ty {
        IrType::Ptr => c.bits as u32 != 0,
        _ => c.bits != 0,
    }
}

/// Bytes of `ty` on i686.
pub(super) fn bytes_of(ty: IrType) -> u32 {
    ty.size(4)
}

impl<'a> Selector<'a> {
    pub fn new(
        func: &'a IrFunction,
        func_index: usize,
        alloc: &'a Allocation,
        frame: &'a Frame,
    ) -> Selector<'a> {
        let mut defs: FxHashMap<Value, u32> = FxHashMap::default();
        let mut uses: FxHashMap<Value, u32> = FxHashMap::default();
        for block in &func.blocks {
            for inst in &block.insts {
                if let Some(d) = inst.dest() {
                    *defs.entry(d).or_insert(0) += 1;
                }
                inst.for_each_used_value(|v| *uses.entry(v).or_insert(0) += 1);
            }
            block
                .term
                .for_each_used_value(|v| *uses.entry(v).or_insert(0) += 1);
        }
        let mut known_addr = FxHashMap::default();
        for block in &func.blocks {
            for inst in &block.insts {
                let (dest, mem) = match inst {
                    Inst::Alloca { dest, .. } => match frame.alloca_mem(*dest) {
                        Some(m) => (*dest, m),
                        None => continue,
                    },
                    Inst::GlobalAddr { dest, name } => (*dest, Mem::absolute(name, 0)),
                    _ => continue,
                };
                if defs.get(&dest) == Some(&1) {
                    known_addr.insert(dest, mem);
                }
            }
        }
        Selector {
            func,
            func_index,
            alloc,
            frame,
            out: Vec::new(),
            rodata: Vec::new(),
            next_label: 0,
            known_addr,
            uses,
            last_cmp: None,
            unmaterialized: None,
            current: None,
            sret_pending: false,
        }
    }

    // ---- errors, labels, emission ----------------------------------------------------

    pub fn error(&self, message: impl Into<String>) -> BackendError {
        BackendError::new(
            Target::I686,
            self.func,
            self.current.as_ref(),
            message.into(),
        )
    }

    /// A fresh local label `.L<func>_<purpose><n>`.
    pub fn label(&mut self, purpose: &str) -> String {
        self.next_label += 1;
        format!(".L{}_{purpose}{}", self.func_index, self.next_label)
    }

    pub fn emit(&mut self, inst: MInst) {
        self.out.push(inst);
    }

    /// `op{size} src, dst` (`bytes` wide).
    pub fn alu(&mut self, op: AluOp, bytes: u32, src: Opnd, dst: Opnd) {
        self.emit(MInst::Alu {
            op,
            size: Size::from_bytes(bytes),
            src,
            dst,
        });
    }

    /// `mov{size} src, dst` (`bytes` wide).
    pub fn mov(&mut self, bytes: u32, src: Opnd, dst: Opnd) {
        self.emit(MInst::Mov {
            size: Size::from_bytes(bytes),
            src,
            dst,
        });
    }

    /// `imull src, %dst` (an immediate source multiplies dst in place).
    pub fn imul(&mut self, src: Opnd, dst: Reg) {
        self.emit(MInst::Imul {
            size: Size::L,
            src,
            dst,
        });
    }

    /// `movs/movz{b,w}l src, %dst`: extends the low `from` bytes of `src` (a register
    /// with a byte name, or memory) to 32 bits.
    pub fn extend(&mut self, signed: bool, from: u32, src: Opnd, dst: Reg) {
        let from = Size::from_bytes(from);
        self.emit(if signed {
            MInst::MovSx {
                from,
                to: Size::L,
                src,
                dst,
            }
        } else {
            MInst::MovZx {
                from,
                to: Size::L,
                src,
                dst,
            }
        });
    }

    /// `movl src, %r` (nothing when src is r).
    pub fn load(&mut self, r: Reg, src: Opnd) {
        if src != Opnd::Reg(r) {
            self.mov(4, src, Opnd::Reg(r));
        }
    }

    /// A 32-bit move between any two operands (through `via` when both are memory).
    pub fn move_word(&mut self, src: Opnd, dst: Opnd, via: Reg) {
        if src == dst {
            return;
        }
        if is_mem(&src) && is_mem(&dst) {
            self.load(via, src);
            self.mov(4, Opnd::Reg(via), dst);
        } else {
            self.mov(4, src, dst);
        }
    }

    /// Re-extends the low bytes of scratch register `r` to 32 bits as `ty` requires.
    pub fn extend_canonical(&mut self, r: Reg, ty: IrType) {
        let bytes = bytes_of(ty);
        if bytes < 4 {
            self.extend(ty.is_signed(), bytes, Opnd::Reg(r), r);
        }
    }

    /// Extends the low `from` bytes of `src` into `r` (signed or not).
    pub fn extend_into(&mut self, r: Reg, src: Opnd, from: u32, signed: bool) {
        let src = match src {
            Opnd::Imm(k) => {
                // No extending move takes an immediate: extend the constant here.
                let bits = 8 * from;
                let low = (k as u64) & ((1u64 << bits) - 1);
                let value = if signed && low >> (bits - 1) != 0 {
                    low as i64 - (1i64 << bits)
                } else {
                    low as i64
                };
                self.load(r, Opnd::Imm(value));
                return;
            }
            Opnd::Reg(x) if from == 1 && !x.has_byte_name_on_i686() => {
                self.load(r, Opnd::Reg(x));
                Opnd::Reg(r)
            }
            other => other,
        };
        self.extend(signed, from, src, r);
    }

    // ---- where values live -----------------------------------------------------------

    /// The location of `v` as an operand (its low word for a 64-bit value).
    pub fn loc(&self, v: Value) -> Opnd {
        match self.alloc.loc(v) {
            Loc::Reg(r) => Opnd::Reg(Reg::from_preg(r)),
            Loc::Spill(s) => Opnd::Mem(self.frame.spill_mem(s)),
        }
    }

    /// The slot of a 64-bit value (an error if the allocator put it in a register).
    pub fn wide_slot(&self, v: Value) -> Result<Mem, BackendError> {
        match self.alloc.loc(v) {
            Loc::Spill(s) => Ok(self.frame.spill_mem(s)),
            Loc::Reg(_) => Err(self.error(format!(
                "64-bit value {v} was allocated a register (it must live in a stack slot)"
            ))),
        }
    }

    /// A 32-bit (or narrower, canonically extended) operand of type `ty`.
    pub fn word(&self, op: &Operand, ty: IrType) -> Opnd {
        match op {
            Operand::Value(v) => self.loc(*v),
            Operand::Const(c) => Opnd::Imm(const_word(*c, ty)),
        }
    }

    /// The (low, high) words of an operand of a 64-bit type `ty`.
    pub fn pair(&self, op: &Operand, ty: IrType) -> Result<(Opnd, Opnd), BackendError> {
        match op {
            Operand::Value(v) => {
                let m = self.wide_slot(*v)?;
                Ok((Opnd::Mem(m.clone()), Opnd::Mem(m.offset_by(4))))
            }
            Operand::Const(c) => {
                let (lo, hi) = const_pair(*c, ty);
                Ok((Opnd::Imm(lo), Opnd::Imm(hi)))
            }
        }
    }

    /// The low 32 bits of an operand of any integer type (`ty` is its position's type; a
    /// value is read at its own allocated type).
    pub fn low_word(&self, op: &Operand, ty: IrType) -> Result<Opnd, BackendError> {
        let ty = match op {
            Operand::Value(v) => self.alloc.ty(*v),
            Operand::Const(_) => ty,
        };
        if bytes_of(ty) == 8 {
            Ok(self.pair(op, ty)?.0)
        } else {
            Ok(self.word(op, ty))
        }
    }

    /// Writes scratch register `r` (a canonical 32-bit value) to `v`'s location.
    pub fn set_word(&mut self, v: Value, r: Reg) {
        let dst = self.loc(v);
        if dst != Opnd::Reg(r) {
            self.mov(4, Opnd::Reg(r), dst);
        }
    }

    /// Writes `lo`, `hi` to 64-bit value `v`'s slot.
    pub fn set_pair(&mut self, v: Value, lo: Reg, hi: Reg) -> Result<(), BackendError> {
        let m = self.wide_slot(v)?;
        self.mov(4, Opnd::Reg(lo), Opnd::Mem(m.clone()));
        self.mov(4, Opnd::Reg(hi), Opnd::Mem(m.offset_by(4)));
        Ok(())
    }

    /// A memory operand for the address in `ptr`, using `scratch` when the address has to
    /// be loaded from a slot.
    pub fn address(&mut self, ptr: &Operand, scratch: Reg) -> Mem {
        match ptr {
            Operand::Value(v) => {
                if let Some(m) = self.known_addr.get(v) {
                    return m.clone();
                }
                match self.loc(*v) {
                    Opnd::Reg(r) => Mem::base_disp(r, 0),
                    other => {
                        self.load(scratch, other);
                        Mem::base_disp(scratch, 0)
                    }
                }
            }
            Operand::Const(c) => Mem {
                base: Base::None,
                index: None,
                disp: const_word(*c, IrType::Ptr),
                symbol: None,
            },
        }
    }

    /// Puts the address in `ptr` into register `r`.
    pub fn address_into(&mut self, ptr: &Operand, r: Reg) {
        match ptr {
            Operand::Value(v) if self.known_addr.contains_key(v) => {
                let addr = self.known_addr[v].clone();
                self.emit(MInst::Lea {
                    size: Size::L,
                    src: addr,
                    dst: r,
                });
            }
            _ => {
                let op = self.word(ptr, IrType::Ptr);
                self.load(r, op);
            }
        }
    }

    /// Sets ZF to "condition `cond` is false" (the flags of a test against zero), using
    /// `scratch` if needed; `None` when the condition is a constant (its truth given).
    pub fn test_condition(
        &mut self,
        cond: &Operand,
        scratch: Reg,
    ) -> Result<Option<bool>, BackendError> {
        match cond {
            Operand::Const(c) => Ok(Some(const_is_true(*c))),
            Operand::Value(v) => {
                let ty = self.alloc.ty(*v);
                if bytes_of(ty) == 8 {
                    let (lo, hi) = self.pair(cond, ty)?;
                    self.load(scratch, lo);
                    self.alu(AluOp::Or, 4, hi, Opnd::Reg(scratch));
                } else {
                    match self.loc(*v) {
                        Opnd::Reg(r) => self.alu(AluOp::Test, 4, Opnd::Reg(r), Opnd::Reg(r)),
                        other => self.alu(AluOp::Cmp, 4, Opnd::Imm(0), other),
                    }
                }
                Ok(None)
            }
        }
    }

    // ---- instructions ----------------------------------------------------------------

    /// Selects a whole block; `next` is the block laid out after it.
    pub fn select_block(
        &mut self,
        block: &BasicBlock,
        next: Option<BlockId>,
    ) -> Result<(), BackendError> {
        self.emit(MInst::Label(block.label.to_string()));
        let last = block.insts.len().checked_sub(1);
        for (i, inst) in block.insts.iter().enumerate() {
            // A comparison read only by the branch right after it leaves its answer in
            // the flags and is never written to its location.
            let fused = match (inst, &block.term) {
                (
                    Inst::Cmp { dest, .. },
                    Terminator::CondBr {
                        cond: Operand::Value(c),
                        ..
                    },
                ) => Some(i) == last && dest == c && self.uses.get(dest) == Some(&1),
                _ => false,
            };
            self.select_inst(inst, fused)?;
        }
        self.select_term(&block.term, next)
    }

    /// Selects one instruction; `flags_only`: a comparison whose result only the next
    /// branch reads (it only sets the flags, for that branch).
    fn select_inst(&mut self, inst: &Inst, flags_only: bool) -> Result<(), BackendError> {
        self.current = Some(inst.clone());
        let unused = inst.dest().is_some_and(|d| !self.uses.contains_key(&d));
        match inst {
            // Addresses nobody reads (kept parameter allocas) need no code.
            Inst::Alloca { .. } | Inst::GlobalAddr { .. } if unused => {}
            Inst::DynAlloca { dest, size, align } => self.select_dynalloca(*dest, size, *align)?,
            Inst::StackSave { dest } => self.select_stacksave(*dest),
            Inst::StackRestore { ptr } => self.select_stackrestore(ptr),
            Inst::Alloca { dest, .. } => {
                let addr = self
                    .frame
                    .alloca_mem(*dest)
                    .ok_or_else(|| self.error("alloca without a frame slot"))?;
                match self.loc(*dest) {
                    Opnd::Reg(r) => self.emit(MInst::Lea {
                        size: Size::L,
                        src: addr,
                        dst: r,
                    }),
                    _ => {
                        self.emit(MInst::Lea {
                            size: Size::L,
                            src: addr,
                            dst: EAX,
                        });
                        self.set_word(*dest, EAX);
                    }
                }
            }
            Inst::ParamRef { dest, index, ty } => self.param_ref(*dest, *index, *ty)?,
            Inst::Load { dest, ty, ptr } => self.load_inst(*dest, *ty, ptr)?,
            Inst::Store { ty, val, ptr } => self.store_inst(*ty, val, ptr)?,
            Inst::Gep { dest, base, offset } => {
                let off = self.low_word(offset, IrType::I64)?;
                match (base, &off) {
                    (Operand::Value(b), Opnd::Imm(k)) if self.known_addr.contains_key(b) => {
                        let addr = self.known_addr[b].offset_by(*k);
                        self.emit(MInst::Lea {
                            size: Size::L,
                            src: addr,
                            dst: EAX,
                        });
                    }
                    _ => {
                        self.address_into(base, EAX);
                        if off != Opnd::Imm(0) {
                            self.alu(AluOp::Add, 4, off, Opnd::Reg(EAX));
                        }
                    }
                }
                self.set_word(*dest, EAX);
            }
            Inst::GlobalAddr { dest, name } => {
                let dst = self.loc(*dest);
                self.mov(4, Opnd::SymAddr(name.clone(), 0), dst);
            }
            Inst::Memcpy { dst, src, size } => self.memcpy(dst, src, *size),
            Inst::Bin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            } => {
                if bytes_of(*ty) == 8 {
                    self.wide_bin(*dest, *op, *ty, lhs, rhs)?;
                } else {
                    self.narrow_bin(*dest, *op, *ty, lhs, rhs);
                }
            }
            Inst::Un { dest, op, ty, src } => {
                if bytes_of(*ty) == 8 {
                    self.wide_un(*dest, *op, *ty, src)?;
                } else {
                    let s = self.word(src, *ty);
                    self.load(EAX, s);
                    let op = match op {
                        UnOp::Neg => UnaryOp::Neg,
                        UnOp::Not => UnaryOp::Not,
                    };
                    self.emit(MInst::Unary {
                        op,
                        size: Size::L,
                        dst: Opnd::Reg(EAX),
                    });
                    self.extend_canonical(EAX, *ty);
                    self.set_word(*dest, EAX);
                }
            }
            Inst::Cmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => {
                let cc = if bytes_of(*ty) == 8 {
                    self.wide_cmp(*pred, *ty, lhs, rhs)?
                } else {
                    self.narrow_cmp(*pred, *ty, lhs, rhs)
                };
                if !flags_only {
                    self.emit(MInst::SetCc {
                        cc,
                        dst: Opnd::Reg(EAX),
                    });
                    self.extend(false, 1, Opnd::Reg(EAX), EAX);
                    self.set_word(*dest, EAX);
                }
                self.last_cmp = Some((*dest, cc, self.out.len()));
                self.unmaterialized = flags_only.then_some(*dest);
            }
            Inst::Cast {
                dest,
                from,
                src,
                to,
            } if from.is_float() || to.is_float() => self.float_cast(*dest, *from, src, *to)?,
            Inst::Cast {
                dest,
                from,
                src,
                to,
            } => self.cast(*dest, *from, src, *to)?,
            Inst::FBin {
                dest,
                op,
                ty,
                lhs,
                rhs,
            } => float::select_fbin(self, *dest, *op, *ty, lhs, rhs)?,
            Inst::FNeg { dest, ty, src } => float::select_fneg(self, *dest, *ty, src)?,
            Inst::FCmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => float::select_fcmp(self, *dest, *pred, *ty, lhs, rhs)?,
            // The same bits: an integer move of the same width (no float is ever
            // extended beyond its word or pair).
            Inst::Bitcast {
                dest,
                from,
                src,
                to,
            } => self.cast(*dest, *from, src, *to)?,
            Inst::Copy { dest, ty, src } => {
                if bytes_of(*ty) == 8 {
                    let (lo, hi) = self.pair(src, *ty)?;
                    self.load(EAX, lo);
                    self.load(EDX, hi);
                    self.set_pair(*dest, EAX, EDX)?;
                } else {
                    let s = self.word(src, *ty);
                    let d = self.loc(*dest);
                    self.move_word(s, d, EAX);
                }
            }
            Inst::Select {
                dest,
                ty,
                cond,
                on_true,
                on_false,
            } => self.select(*dest, *ty, cond, on_true, on_false)?,
            Inst::Phi { .. } => return Err(self.error("phi in the backend's input")),
            Inst::Call {
                dest,
                ret,
                callee,
                args,
                ..
            } => self.call(*dest, *ret, callee, args)?,
        }
        Ok(())
    }

    fn load_inst(&mut self, dest: Value, ty: IrType, ptr: &Operand) -> Result<(), BackendError> {
        let addr = self.address(ptr, EAX);
        match bytes_of(ty) {
            1 | 2 => {
                let bytes = bytes_of(ty);
                let signed = ty.is_signed()
                    && !(bytes == 1 && mutants::enabled(Mutant::X86I8LoadNoSignExtend));
                self.extend(signed, bytes, Opnd::Mem(addr), EAX);
                self.set_word(dest, EAX);
            }
            4 => {
                self.load(EAX, Opnd::Mem(addr));
                self.set_word(dest, EAX);
            }
            8 => {
                self.load(ECX, Opnd::Mem(addr.clone()));
                self.load(EDX, Opnd::Mem(addr.offset_by(4)));
                self.set_pair(dest, ECX, EDX)?;
            }
            _ => return Err(self.error(format!("load of type {ty}"))),
        }
        Ok(())
    }

    fn store_inst(&mut self, ty: IrType, val: &Operand, ptr: &Operand) -> Result<(), BackendError> {
        let addr = self.address(ptr, EAX);
        let bytes = bytes_of(ty);
        match bytes {
            1 | 2 | 4 => {
                let v = match self.word(val, ty) {
                    Opnd::Reg(r) if bytes == 1 && !r.has_byte_name_on_i686() => {
                        self.load(ECX, Opnd::Reg(r));
                        Opnd::Reg(ECX)
                    }
                    Opnd::Mem(m) => {
                        self.load(ECX, Opnd::Mem(m));
                        Opnd::Reg(ECX)
                    }
                    other => other,
                };
                self.mov(bytes, v, Opnd::Mem(addr));
            }
            8 => {
                let (lo, hi) = self.pair(val, ty)?;
                self.move_word(lo, Opnd::Mem(addr.clone()), ECX);
                self.move_word(hi, Opnd::Mem(addr.offset_by(4)), EDX);
            }
            _ => return Err(self.error(format!("store of type {ty}"))),
        }
        Ok(())
    }

    /// `memcpy dst, src, size`: unrolled through edx for small sizes, `rep movs` (with
    /// esi and edi saved around it) for large ones.
    fn memcpy(&mut self, dst: &Operand, src: &Operand, size: u32) {
        if size == 0 {
            return;
        }
        if size <= UNROLLED_MEMCPY_LIMIT {
            let s = self.address(src, EAX);
            let d = self.address(dst, ECX);
            let mut off = 0u32;
            while off < size {
                let chunk = match size - off {
                    n if n >= 4 => 4,
                    n if n >= 2 => 2,
                    _ => 1,
                };
                let at = i64::from(off);
                self.mov(chunk, Opnd::Mem(s.offset_by(at)), Opnd::Reg(EDX));
                self.mov(chunk, Opnd::Reg(EDX), Opnd::Mem(d.offset_by(at)));
                off += chunk;
            }
            return;
        }
        // Both addresses into scratch registers before esp moves (the pushes).
        self.address_into(src, EAX);
        self.address_into(dst, EDX);
        self.emit(MInst::Push {
            size: Size::L,
            src: Opnd::Reg(Reg::Rsi),
        });
        self.emit(MInst::Push {
            size: Size::L,
            src: Opnd::Reg(Reg::Rdi),
        });
        self.load(Reg::Rsi, Opnd::Reg(EAX));
        self.load(Reg::Rdi, Opnd::Reg(EDX));
        self.load(ECX, Opnd::Imm(i64::from(size / 4)));
        self.emit(MInst::Directive("rep movsl".into()));
        if !size.is_multiple_of(4) {
            self.load(ECX, Opnd::Imm(i64::from(size % 4)));
            self.emit(MInst::Directive("rep movsb".into()));
        }
        self.emit(MInst::Pop {
            size: Size::L,
            dst: Opnd::Reg(Reg::Rdi),
        });
        self.emit(MInst::Pop {
            size: Size::L,
            dst: Opnd::Reg(Reg::Rsi),
        });
    }

    fn narrow_bin(&mut self, dest: Value, op: BinOp, ty: IrType, lhs: &Operand, rhs: &Operand) {
        let bytes = bytes_of(ty);
        let a = self.word(lhs, ty);
        let b = self.word(rhs, ty);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Or | BinOp::Xor => {
                let alu = match op {
                    BinOp::Add => AluOp::Add,
                    BinOp::Sub => AluOp::Sub,
                    BinOp::And => AluOp::And,
                    BinOp::Or => AluOp::Or,
                    _ => AluOp::Xor,
                };
                self.load(EAX, a);
                self.alu(alu, 4, b, Opnd::Reg(EAX));
                // Bitwise operations of canonical values are canonical.
                if matches!(op, BinOp::Add | BinOp::Sub) {
                    self.extend_canonical(EAX, ty);
                }
            }
            BinOp::Mul => {
                self.load(EAX, a);
                self.imul(b, EAX);
                self.extend_canonical(EAX, ty);
            }
            BinOp::Shl | BinOp::AShr | BinOp::LShr => {
                let count = match b {
                    // An amount >= the width is undefined; x86 masks it to 5 bits.
                    Opnd::Imm(k) => ShiftAmount::Imm((k & 31) as u8),
                    other => {
                        self.load(ECX, other);
                        ShiftAmount::Cl
                    }
                };
                let shift = match op {
                    BinOp::Shl => ShiftOp::Shl,
                    BinOp::AShr => ShiftOp::Sar,
                    _ => ShiftOp::Shr,
                };
                // The shifted bits must be the type's own bits extended the way the
                // shift reads them: zeros for lshr, copies of the sign bit for ashr.
                match (op, bytes < 4, ty.is_signed()) {
                    (BinOp::LShr, true, true) => self.extend_into(EAX, a, bytes, false),
                    (BinOp::AShr, true, false) => self.extend_into(EAX, a, bytes, true),
                    _ => self.load(EAX, a),
                }
                self.emit(MInst::Shift {
                    op: shift,
                    size: Size::L,
                    amount: count,
                    dst: Opnd::Reg(EAX),
                });
                self.extend_canonical(EAX, ty);
            }
            BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => {
                let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
                let remainder = matches!(op, BinOp::SRem | BinOp::URem);
                self.load(EAX, a);
                self.load(ECX, b);
                match (bytes, signed) {
                    (1, true) => self.emit(MInst::SignExtendAcc {
                        size: Size::from_bytes(1),
                    }),
                    (1, false) => self.extend(false, 1, Opnd::Reg(EAX), EAX),
                    (_, true) => self.emit(MInst::SignExtendAcc {
                        size: Size::from_bytes(bytes),
                    }),
                    (_, false) => self.load(EDX, Opnd::Imm(0)),
                }
                self.emit(MInst::Div {
                    signed,
                    size: Size::from_bytes(bytes),
                    src: Opnd::Reg(ECX),
                });
                if remainder {
                    if bytes == 1 {
                        // The remainder is in %ah.
                        self.emit(MInst::Shift {
                            op: ShiftOp::Shr,
                            size: Size::L,
                            amount: ShiftAmount::Imm(8),
                            dst: Opnd::Reg(EAX),
                        });
                    } else {
                        self.load(EAX, Opnd::Reg(EDX));
                    }
                }
                self.extend_canonical(EAX, ty);
            }
        }
        self.set_word(dest, EAX);
    }

    /// Compares two operands of a type at most 32 bits wide; returns the condition code
    /// under which `pred` holds. Compares at the type's own width, so the canonical
    /// extension of either operand does not matter.
    fn narrow_cmp(
        &mut self,
        pred: crate::ir::CmpPred,
        ty: IrType,
        lhs: &Operand,
        rhs: &Operand,
    ) -> &'static str {
        let bytes = bytes_of(ty);
        let a = self.word(lhs, ty);
        let b = self.word(rhs, ty);
        self.load(EAX, a);
        let b = match b {
            Opnd::Reg(r) if bytes == 1 && !r.has_byte_name_on_i686() => {
                self.load(ECX, Opnd::Reg(r));
                Opnd::Reg(ECX)
            }
            other => other,
        };
        self.alu(AluOp::Cmp, bytes, b, Opnd::Reg(EAX));
        condition_code(pred)
    }

    fn cast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &Operand,
        to: IrType,
    ) -> Result<(), BackendError> {
        let from_bytes = bytes_of(from);
        let to_bytes = bytes_of(to);
        if to_bytes == 0 || from_bytes == 0 {
            return Err(self.error("cast from or to void"));
        }
        if to_bytes == 8 {
            if from_bytes == 8 {
                let (lo, hi) = self.pair(src, from)?;
                self.load(EAX, lo);
                self.load(EDX, hi);
            } else {
                // The source is canonical in 32 bits; extend by the source's signedness.
                let s = self.word(src, from);
                self.load(EAX, s);
                if from.is_signed() {
                    self.emit(MInst::SignExtendAcc {
                        size: Size::from_bytes(4),
                    });
                } else {
                    self.load(EDX, Opnd::Imm(0));
                }
            }
            return self.set_pair(dest, EAX, EDX);
        }
        let s = self.low_word(src, from)?;
        self.load(EAX, s);
        self.extend_canonical(EAX, to);
        self.set_word(dest, EAX);
        Ok(())
    }

    fn select(
        &mut self,
        dest: Value,
        ty: IrType,
        cond: &Operand,
        on_true: &Operand,
        on_false: &Operand,
    ) -> Result<(), BackendError> {
        if bytes_of(ty) == 8 {
            let (tlo, thi) = self.pair(on_true, ty)?;
            let (flo, fhi) = self.pair(on_false, ty)?;
            match self.test_condition(cond, ECX)? {
                Some(truth) => {
                    let (lo, hi) = if truth { (tlo, thi) } else { (flo, fhi) };
                    self.load(EAX, lo);
                    self.load(EDX, hi);
                }
                None => {
                    let done = self.label("sel");
                    // Moves keep the flags of the test.
                    self.load(EAX, flo);
                    self.load(EDX, fhi);
                    self.emit(MInst::Jcc {
                        cc: "e",
                        label: done.clone(),
                    });
                    self.load(EAX, tlo);
                    self.load(EDX, thi);
                    self.emit(MInst::Label(done));
                }
            }
            return self.set_pair(dest, EAX, EDX);
        }
        let t = self.word(on_true, ty);
        let f = self.word(on_false, ty);
        self.load(EAX, f);
        self.load(ECX, t);
        match self.test_condition(cond, EDX)? {
            Some(true) => self.load(EAX, Opnd::Reg(ECX)),
            Some(false) => {}
            None => self.emit(MInst::Cmov {
                cc: "ne",
                size: Size::L,
                src: Opnd::Reg(ECX),
                dst: EAX,
            }),
        }
        self.set_word(dest, EAX);
        Ok(())
    }

    // ---- terminators -----------------------------------------------------------------

    /// Selects the terminator of a block; `next` is the block laid out after it.
    fn select_term(
        &mut self,
        term: &Terminator,
        next: Option<BlockId>,
    ) -> Result<(), BackendError> {
        self.current = None;
        match term {
            Terminator::Br(b) => self.jump(*b, next),
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                let flags = match (cond, self.last_cmp) {
                    (Operand::Value(v), Some((c, cc, at))) if *v == c && at == self.out.len() => {
                        Some(cc)
                    }
                    _ => None,
                };
                if flags.is_none() && self.unmaterialized.is_some() {
                    return Err(self.error(
                        "internal: a comparison kept in the flags is not read by its branch",
                    ));
                }
                self.unmaterialized = None;
                let cc = match flags {
                    Some(cc) => cc,
                    None => match self.test_condition(cond, EAX)? {
                        Some(truth) => {
                            self.jump(if truth { *if_true } else { *if_false }, next);
                            return Ok(());
                        }
                        None => "ne",
                    },
                };
                if Some(*if_true) == next {
                    self.emit(MInst::Jcc {
                        cc: inverse_condition_code(cc).ok_or_else(|| {
                            self.error(format!("internal: no inverse of condition code {cc}"))
                        })?,
                        label: if_false.to_string(),
                    });
                } else {
                    self.emit(MInst::Jcc {
                        cc,
                        label: if_true.to_string(),
                    });
                    self.jump(*if_false, next);
                }
            }
            Terminator::Switch {
                ty,
                val,
                default,
                cases,
            } => self.switch(*ty, val, *default, cases, next)?,
            Terminator::Ret(v) => self.ret(v.as_ref())?,
            Terminator::Unreachable => self.emit(MInst::Ud2),
        }
        Ok(())
    }

    fn jump(&mut self, target: BlockId, next: Option<BlockId>) {
        if Some(target) != next {
            self.emit(MInst::Jmp(target.to_string()));
        }
    }

    fn switch(
        &mut self,
        ty: IrType,
        val: &Operand,
        default: BlockId,
        cases: &[(i64, BlockId)],
        next: Option<BlockId>,
    ) -> Result<(), BackendError> {
        if bytes_of(ty) == 8 {
            let (lo, hi) = self.pair(val, ty)?;
            self.load(EAX, lo);
            self.load(EDX, hi);
            for (value, target) in cases {
                let (clo, chi) = const_pair(IrConst::new(ty, *value), ty);
                let skip = self.label("case");
                self.alu(AluOp::Cmp, 4, Opnd::Imm(clo), Opnd::Reg(EAX));
                self.emit(MInst::Jcc {
                    cc: "ne",
                    label: skip.clone(),
                });
                self.alu(AluOp::Cmp, 4, Opnd::Imm(chi), Opnd::Reg(EDX));
                self.emit(MInst::Jcc {
                    cc: "e",
                    label: target.to_string(),
                });
                self.emit(MInst::Label(skip));
            }
            self.jump(default, next);
            return Ok(());
        }
        let v = self.word(val, ty);
        self.load(EAX, v);
        let values: Vec<i64> = cases
            .iter()
            .map(|(c, _)| const_word(IrConst::new(ty, *c), ty))
            .collect();
        let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
            self.jump(default, next);
            return Ok(());
        };
        let range = (max - min) as u64 + 1;
        let dense = cases.len() >= 4 && range <= 4096 && range <= 3 * cases.len() as u64;
        if !dense {
            for (value, (_, target)) in values.iter().zip(cases) {
                self.alu(AluOp::Cmp, 4, Opnd::Imm(*value), Opnd::Reg(EAX));
                self.emit(MInst::Jcc {
                    cc: "e",
                    label: target.to_string(),
                });
            }
            self.jump(default, next);
            return Ok(());
        }
        let mut table = vec![default; range as usize];
        let mut filled = vec![false; range as usize];
        for (value, (_, target)) in values.iter().zip(cases) {
            let slot = (value - min) as usize;
            if !filled[slot] {
                table[slot] = *target;
                filled[slot] = true;
            }
        }
        if min != 0 {
            self.alu(AluOp::Sub, 4, Opnd::Imm(min), Opnd::Reg(EAX));
        }
        self.alu(AluOp::Cmp, 4, Opnd::Imm((range - 1) as i64), Opnd::Reg(EAX));
        self.emit(MInst::Jcc {
            cc: "a",
            label: default.to_string(),
        });
        let name = self.label("table");
        self.emit(MInst::JmpIndirect(Opnd::Mem(Mem {
            base: Base::None,
            index: Some((EAX, 4)),
            disp: 0,
            symbol: Some(name.clone()),
        })));
        self.rodata.push(MInst::Directive(".balign 4".into()));
        self.rodata.push(MInst::Label(name));
        for target in table {
            self.rodata
                .push(MInst::Directive(format!(".long {target}")));
        }
        Ok(())
    }
}

/// True for a memory operand.
pub(super) fn is_mem(o: &Opnd) -> bool {
    matches!(o, Opnd::Mem(_))
}

/// True for an immediate (a number or a symbol's address).
pub(super) fn is_imm(o: &Opnd) -> bool {
    matches!(o, Opnd::Imm(_) | Opnd::SymAddr(..))
}
