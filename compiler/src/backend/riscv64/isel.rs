//! Instruction selection for riscv64: each IR instruction of a phi-eliminated function,
//! read over its register allocation, becomes RV64 instructions with concrete operands.
//!
//! Why it exists: this is where the IR's meaning (wrapping arithmetic at the type's
//! width, signedness in the type, traps) meets the machine's. Every value lives in its
//! [`Loc`] as a 64-bit *canonical* quantity (sign-extended for signed types,
//! zero-extended for unsigned types and `ptr`), so most operations work on whole
//! registers and only re-extend their result:
//! - 32-bit `add sub mul shl` and the 32-bit shifts and divisions use the `*w` forms,
//!   whose result is the 32-bit result sign-extended — canonical for `i32`, zero-extended
//!   again (`slli`+`srli` 32) for `u32`;
//! - 8- and 16-bit results are computed at 64 bits and re-extended (`slli`+`srai`,
//!   `andi 255`, `slli`+`srli`);
//! - bitwise operations and comparisons of canonical values need no extension;
//! - an operation whose signedness differs from its type's (`lshr i8`, `ashr u16`,
//!   `sdiv u32`, `udiv i8`) first brings its operands into the form it needs (`view`).
//!
//! Division never traps on RISC-V (`x / 0 = -1`, `MIN / -1 = MIN`), but the IR's does:
//! every division tests its divisor for zero and, when signed, for `MIN / -1` at the
//! operation's own width (on the operands as the operation sees them), and branches to
//! the function's trap stub, which raises SIGFPE with `kill(getpid(), SIGFPE)`.
//!
//! Scratch registers (never allocated): t0 and t1 hold operands read from spill slots
//! or constants, t2 a result whose value lives in a spill slot, t3-t5 division checks
//! and memcpy, t6 addresses of frame slots beyond ±2 KiB (only inside one access) and
//! the target of a jump beyond ±1 MiB.
//!
//! Invariants:
//! - every operand is read before the destination is written (or, for multi-instruction
//!   sequences, the destination is written only when no operand is read again), so a
//!   destination may share a location with an operand that dies there;
//! - every definition leaves its value canonical for its type (a spill slot always holds
//!   all 8 bytes of the canonical value);
//! - the only memory written besides IR stores, memcpys and call arguments is a value's
//!   own spill slot.

use super::abi::{canonical_load, frame_address, Frame};
use super::constants;
use super::emit::expand_far_branches;
use super::float_abi::VariadicCallees;
use super::inst::{fits_imm12, AluImmOp, AluOp, BranchCond, Inst, LoadKind, Reg, StoreKind};
use super::RISCV64;
use crate::backend::regalloc::{Allocation, Loc};
use crate::backend::BackendError;
use crate::ir::{
    BinOp, BlockId, CmpPred, Inst as IrInst, IrConst, IrFunction, IrType, Operand as IrOperand,
    Terminator, UnOp, Value,
};
use crate::mutants::{self, Mutant};

/// A memcpy of at most this many bytes is unrolled; a longer one is a loop.
const MEMCPY_UNROLL_LIMIT: u32 = 128;

/// Linux's system call numbers on riscv64 (asm-generic).
const SYS_GETPID: i64 = 172;
const SYS_KILL: i64 = 129;
const SIGFPE: i64 = 8;

/// The selected code of one function.
pub(super) struct FunctionCode {
    /// The body, from the prologue to the trap stub.
    pub text: Vec<Inst>,
    /// Jump tables, without a section directive.
    pub rodata: Vec<Inst>,
}

/// The state of selecting one function.
pub(super) struct Selector<'a> {
    pub(super) func: &'a IrFunction,
    /// The function's position in the module (for invented labels `.L<index>_...`).
    func_index: usize,
    pub(super) alloc: &'a Allocation,
    pub(super) frame: &'a Frame,
    /// The module's variadic callees (which call arguments are named: `float_abi`).
    pub(super) variadic: &'a VariadicCallees,
    text: Vec<Inst>,
    rodata: Vec<Inst>,
    next_label: u32,
    /// The label of the function's SIGFPE stub, once some division needs it.
    trap_label: Option<String>,
}

/// The canonical 64-bit value of constant `c` read in a position of type `ty`.
pub(super) fn const_value(c: IrConst, ty: IrType) -> i64 {
    ty.canonicalize(c.bits as u64, 8) as i64
}

/// Bytes of `ty` on riscv64.
fn width(ty: IrType) -> u32 {
    ty.size(8)
}

/// The type of `bytes` bytes and the given signedness (what an operation of that
/// signedness sees its operands as).
fn view_type(bytes: u32, signed: bool) -> IrType {
    match (bytes, signed) {
        (1, true) => IrType::I8,
        (1, false) => IrType::U8,
        (2, true) => IrType::I16,
        (2, false) => IrType::U16,
        (4, true) => IrType::I32,
        (4, false) => IrType::U32,
        (_, true) => IrType::I64,
        (_, false) => IrType::U64,
    }
}

/// The constant `k` (canonical for `ty`) as an operation of the given signedness sees
/// it (what `Selector::view` does to a register).
fn view_const(ty: IrType, signed: bool, k: i64) -> i64 {
    view_type(width(ty), signed).canonicalize(k as u64, 8) as i64
}

/// True when re-extending for `to` is needed after a cast from `from` (a canonical
/// `from` value is not already canonical for `to`).
fn cast_needs_extension(from: IrType, to: IrType) -> bool {
    let (fs, ts) = (width(from), width(to));
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
        func: &'a IrFunction,
        func_index: usize,
        alloc: &'a Allocation,
        frame: &'a Frame,
        variadic: &'a VariadicCallees,
    ) -> Selector<'a> {
        Selector {
            func,
            func_index,
            alloc,
            frame,
            variadic,
            text: Vec::new(),
            rodata: Vec::new(),
            next_label: 0,
            trap_label: None,
        }
    }

    pub(super) fn push(&mut self, inst: Inst) {
        self.text.push(inst);
    }

    pub(super) fn error(&self, inst: Option<&IrInst>, message: String) -> BackendError {
        BackendError::new(RISCV64, self.func, inst, message)
    }

    /// A fresh label `.L<func-index>_<purpose><n>`.
    fn fresh_label(&mut self, purpose: &str) -> String {
        self.next_label += 1;
        format!(".L{}_{purpose}{}", self.func_index, self.next_label)
    }

    // ---- Registers, constants and memory -------------------------------------------------

    /// Puts the 64-bit pattern `v` into `rd` (writes no other register).
    pub(super) fn materialize(&mut self, v: i64, rd: Reg) {
        self.text.extend(constants::materialize(v, rd));
    }

    /// `rd = load kind offset(base)`, through t6 for an offset beyond 12 bits.
    pub(super) fn load_mem(&mut self, kind: LoadKind, rd: Reg, base: Reg, offset: i64) {
        let (base, offset) = frame_address(base, offset, &mut self.text);
        self.push(Inst::Load {
            kind,
            rd,
            base,
            offset,
        });
    }

    /// `store kind src, offset(base)`, through t6 for an offset beyond 12 bits (`src` is
    /// never t6).
    pub(super) fn store_mem(&mut self, kind: StoreKind, src: Reg, base: Reg, offset: i64) {
        let (base, offset) = frame_address(base, offset, &mut self.text);
        self.push(Inst::Store {
            kind,
            src,
            base,
            offset,
        });
    }

    /// The register `v` lives in, if it lives in one.
    fn reg_of(&self, v: Value) -> Option<Reg> {
        self.alloc.reg(v).map(Reg::from_preg)
    }

    /// True when `op` is a value living in register `r`.
    fn lives_in(&self, op: &IrOperand, r: Reg) -> bool {
        op.as_value().and_then(|v| self.reg_of(v)) == Some(r)
    }

    /// A register holding the canonical value of `op` (read as type `ty`): its own
    /// register, `zero` for the constant 0, or `scratch` loaded with it.
    pub(super) fn read(&mut self, op: &IrOperand, ty: IrType, scratch: Reg) -> Reg {
        match op {
            IrOperand::Value(v) => match self.alloc.loc(*v) {
                Loc::Reg(r) => Reg::from_preg(r),
                Loc::Spill(s) => {
                    let offset = self.frame.spill_offset(s);
                    self.load_mem(LoadKind::D, scratch, self.frame.base(), offset);
                    scratch
                }
            },
            IrOperand::Const(c) => match const_value(*c, ty) {
                0 => Reg::Zero,
                v => {
                    self.materialize(v, scratch);
                    scratch
                }
            },
        }
    }

    /// Puts the canonical value of `op` (read as type `ty`) into `dst`.
    pub(super) fn load_into(&mut self, op: &IrOperand, ty: IrType, dst: Reg) {
        let r = self.read(op, ty, dst);
        if r != dst {
            self.push(Inst::mv(dst, r));
        }
    }

    /// The register to compute `dest` in: its own, or t2 when it lives in a spill slot.
    pub(super) fn dest_reg(&self, dest: Value) -> Reg {
        self.reg_of(dest).unwrap_or(Reg::T2)
    }

    /// Writes the canonical value in `r` to `dest`'s location.
    pub(super) fn write_dest(&mut self, dest: Value, r: Reg) {
        match self.alloc.loc(dest) {
            Loc::Reg(p) => {
                let d = Reg::from_preg(p);
                if d != r {
                    self.push(Inst::mv(d, r));
                }
            }
            Loc::Spill(s) => {
                let offset = self.frame.spill_offset(s);
                self.store_mem(StoreKind::D, r, self.frame.base(), offset);
            }
        }
    }

    /// Puts the canonical form of the `ty` value whose low bytes are in `src` into `dst`.
    pub(super) fn extend_into(&mut self, ty: IrType, src: Reg, dst: Reg) {
        let shift = |op, amount| Inst::imm(op, dst, dst, amount);
        match (width(ty), ty.is_signed()) {
            (8, _) => {
                if src != dst {
                    self.push(Inst::mv(dst, src));
                }
            }
            (4, true) => self.push(Inst::imm(AluImmOp::Addiw, dst, src, 0)),
            (1, false) => self.push(Inst::imm(AluImmOp::Andi, dst, src, 255)),
            (bytes, signed) => {
                let amount = i64::from(64 - 8 * bytes);
                self.push(Inst::imm(AluImmOp::Slli, dst, src, amount));
                let right = if signed {
                    AluImmOp::Srai
                } else {
                    AluImmOp::Srli
                };
                self.push(shift(right, amount));
            }
        }
    }

    /// Re-establishes the canonical form of a `ty` value whose low bytes are in `r`.
    fn extend(&mut self, ty: IrType, r: Reg) {
        self.extend_into(ty, r, r);
    }

    /// Canonicalises the result in `r` of an operation on `ty`: nothing at 64 bits, nor
    /// for an `i32` produced by a `*w` instruction (already sign-extended from bit 31).
    fn finish_result(&mut self, ty: IrType, r: Reg, word_form: bool) {
        let bytes = width(ty);
        if bytes == 8 || (bytes == 4 && word_form && ty.is_signed()) {
            return;
        }
        self.extend(ty, r);
    }

    /// The operand in `r` (canonical for `ty`) as an operation of the given signedness
    /// sees it at `ty`'s width: `r` itself when the forms agree, else `scratch` holding
    /// it re-extended.
    fn view(&mut self, ty: IrType, signed: bool, r: Reg, scratch: Reg) -> Reg {
        let bytes = width(ty);
        if bytes == 8 || ty.is_signed() == signed || r == Reg::Zero {
            return r;
        }
        self.extend_into(view_type(bytes, signed), r, scratch);
        scratch
    }

    /// The label of the SIGFPE stub (emitted after the last block).
    fn trap_label(&mut self) -> String {
        if let Some(l) = &self.trap_label {
            return l.clone();
        }
        let l = self.fresh_label("sigfpe");
        self.trap_label = Some(l.clone());
        l
    }

    // ---- Functions and blocks ---------------------------------------------------------

    /// Selects the whole function: prologue, every block in order, the trap stub; then
    /// rewrites the branches that might not reach.
    pub(super) fn select_function(mut self) -> Result<FunctionCode, BackendError> {
        for inst in self.frame.prologue() {
            self.push(inst);
        }
        let func = self.func;
        for (i, block) in func.blocks.iter().enumerate() {
            self.push(Inst::Label(block.label.to_string()));
            for inst in &block.insts {
                self.select_inst(inst)?;
            }
            let next = func.blocks.get(i + 1).map(|b| b.label);
            self.select_terminator(&block.term, next);
        }
        if let Some(label) = self.trap_label.clone() {
            // kill(getpid(), SIGFPE); if that ever returns, SIGILL.
            self.push(Inst::Label(label));
            self.materialize(SYS_GETPID, Reg::A7);
            self.push(Inst::Ecall);
            self.materialize(SIGFPE, Reg::A1);
            self.materialize(SYS_KILL, Reg::A7);
            self.push(Inst::Ecall);
            self.push(Inst::Unimp);
        }
        let func_index = self.func_index;
        let mut far = 0u32;
        let text = expand_far_branches(self.text, || {
            far += 1;
            format!(".L{func_index}_far{far}")
        });
        Ok(FunctionCode {
            text,
            rodata: self.rodata,
        })
    }

    fn select_inst(&mut self, inst: &IrInst) -> Result<(), BackendError> {
        match inst {
            IrInst::Alloca { dest, .. } => {
                let offset = self
                    .frame
                    .alloca_offset(*dest)
                    .ok_or_else(|| self.error(Some(inst), "alloca without a slot".into()))?;
                let rd = self.dest_reg(*dest);
                super::abi::add_offset(rd, self.frame.base(), offset, &mut self.text);
                self.write_dest(*dest, rd);
            }
            IrInst::DynAlloca { dest, size, align } => self.select_dynalloca(*dest, size, *align),
            IrInst::StackSave { dest } => self.select_stacksave(*dest),
            IrInst::StackRestore { ptr } => self.select_stackrestore(ptr),
            IrInst::ParamRef { dest, index, ty } => {
                self.select_paramref(inst, *dest, *index, *ty)?
            }
            IrInst::Load { dest, ty, ptr } => {
                let p = self.read(ptr, IrType::Ptr, Reg::T0);
                let rd = self.dest_reg(*dest);
                self.push(Inst::Load {
                    kind: canonical_load(*ty),
                    rd,
                    base: p,
                    offset: 0,
                });
                self.write_dest(*dest, rd);
            }
            IrInst::Store { ty, val, ptr } => {
                let p = self.read(ptr, IrType::Ptr, Reg::T0);
                let v = self.read(val, *ty, Reg::T1);
                self.push(Inst::Store {
                    kind: StoreKind::of_bytes(width(*ty)),
                    src: v,
                    base: p,
                    offset: 0,
                });
            }
            IrInst::Gep { dest, base, offset } => {
                let b = self.read(base, IrType::Ptr, Reg::T0);
                let rd = self.dest_reg(*dest);
                match offset {
                    IrOperand::Const(c) if fits_imm12(const_value(*c, IrType::I64)) => {
                        let k = const_value(*c, IrType::I64);
                        self.push(Inst::imm(AluImmOp::Addi, rd, b, k));
                    }
                    _ => {
                        let o = self.read(offset, IrType::I64, Reg::T1);
                        self.push(Inst::alu(AluOp::Add, rd, b, o));
                    }
                }
                self.write_dest(*dest, rd);
            }
            IrInst::GlobalAddr { dest, name } => {
                let rd = self.dest_reg(*dest);
                let label = self.fresh_label("pcrel");
                self.push(Inst::PcrelHi {
                    rd,
                    symbol: name.clone(),
                    label: label.clone(),
                });
                self.push(Inst::PcrelLo { rd, rs1: rd, label });
                self.write_dest(*dest, rd);
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
                let a = self.read(src, *ty, Reg::T0);
                let rd = self.dest_reg(*dest);
                match op {
                    UnOp::Neg => {
                        let word = width(*ty) == 4;
                        let sub = if word { AluOp::Subw } else { AluOp::Sub };
                        self.push(Inst::alu(sub, rd, Reg::Zero, a));
                        self.finish_result(*ty, rd, word);
                    }
                    UnOp::Not => {
                        self.push(Inst::imm(AluImmOp::Xori, rd, a, -1));
                        // The complement of a sign-extended value is sign-extended; of a
                        // zero-extended one it is not.
                        if !ty.is_signed() {
                            self.finish_result(*ty, rd, false);
                        }
                    }
                }
                self.write_dest(*dest, rd);
            }
            IrInst::Cmp {
                dest,
                pred,
                ty,
                lhs,
                rhs,
            } => self.select_cmp(*dest, *pred, *ty, lhs, rhs),
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
                let r = self.read(src, *from, Reg::T0);
                let rd = self.dest_reg(*dest);
                if cast_needs_extension(*from, *to) {
                    self.extend_into(*to, r, rd);
                } else if r != rd {
                    self.push(Inst::mv(rd, r));
                }
                self.write_dest(*dest, rd);
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
            IrInst::Copy { dest, ty, src } => {
                let r = self.read(src, *ty, self.dest_reg(*dest));
                self.write_dest(*dest, r);
            }
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

    fn select_select(
        &mut self,
        dest: Value,
        ty: IrType,
        cond: &IrOperand,
        on_true: &IrOperand,
        on_false: &IrOperand,
    ) {
        if let IrOperand::Const(c) = cond {
            // A constant condition is true when non-zero in its own type.
            let chosen = if c.bits != 0 { on_true } else { on_false };
            let r = self.read(chosen, ty, self.dest_reg(dest));
            self.write_dest(dest, r);
            return;
        }
        // The condition first (its own register, or t0); then the result is built in a
        // register that neither the condition nor the true value lives in.
        let c = self.read(cond, IrType::I64, Reg::T0);
        let w = match self.reg_of(dest) {
            Some(d) if !self.lives_in(cond, d) && !self.lives_in(on_true, d) => d,
            _ => Reg::T2,
        };
        self.load_into(on_false, ty, w);
        let skip = self.fresh_label("sel");
        self.push(Inst::Branch {
            cond: BranchCond::Eq,
            rs1: c,
            rs2: Reg::Zero,
            label: skip.clone(),
        });
        self.load_into(on_true, ty, w);
        self.push(Inst::Label(skip));
        self.write_dest(dest, w);
    }

    /// `cmp`: canonical values compare at 64 bits as they do at their width, with one
    /// exception: a signed predicate on a narrow unsigned type sees its operands
    /// sign-extended from the width. (Sign extension preserves the unsigned order of
    /// narrow values, so unsigned predicates need nothing.)
    fn select_cmp(
        &mut self,
        dest: Value,
        pred: CmpPred,
        ty: IrType,
        lhs: &IrOperand,
        rhs: &IrOperand,
    ) {
        let signed = matches!(
            pred,
            CmpPred::Slt | CmpPred::Sle | CmpPred::Sgt | CmpPred::Sge
        );
        let a = self.read(lhs, ty, Reg::T0);
        let a = if signed {
            self.view(ty, true, a, Reg::T0)
        } else {
            a
        };
        let rd = self.dest_reg(dest);
        // `lhs < constant` (and its negation) with the constant as an immediate.
        if let IrOperand::Const(c) = rhs {
            let k = const_value(*c, ty);
            let k = if signed { view_const(ty, true, k) } else { k };
            let slt = match pred {
                CmpPred::Slt | CmpPred::Sge => Some(AluImmOp::Slti),
                CmpPred::Ult | CmpPred::Uge => Some(AluImmOp::Sltiu),
                _ => None,
            };
            if let (Some(op), true) = (slt, fits_imm12(k)) {
                self.push(Inst::imm(op, rd, a, k));
                if matches!(pred, CmpPred::Sge | CmpPred::Uge) {
                    self.push(Inst::imm(AluImmOp::Xori, rd, rd, 1));
                }
                self.write_dest(dest, rd);
                return;
            }
        }
        let b = self.read(rhs, ty, Reg::T1);
        let b = if signed {
            self.view(ty, true, b, Reg::T1)
        } else {
            b
        };
        let (slt, sltu) = (AluOp::Slt, AluOp::Sltu);
        // (operation, swapped operands, negated result)
        let (op, swap, negate) = match pred {
            CmpPred::Eq | CmpPred::Ne => (AluOp::Xor, false, false),
            CmpPred::Slt => (slt, false, false),
            CmpPred::Sgt => (slt, true, false),
            CmpPred::Sle => (slt, true, true),
            CmpPred::Sge => (slt, false, true),
            CmpPred::Ult => (sltu, false, false),
            CmpPred::Ugt => (sltu, true, false),
            CmpPred::Ule => (sltu, true, true),
            CmpPred::Uge => (sltu, false, true),
        };
        let (x, y) = if swap { (b, a) } else { (a, b) };
        self.push(Inst::alu(op, rd, x, y));
        match pred {
            CmpPred::Eq => self.push(Inst::imm(AluImmOp::Sltiu, rd, rd, 1)),
            CmpPred::Ne => self.push(Inst::alu(AluOp::Sltu, rd, Reg::Zero, rd)),
            _ if negate => self.push(Inst::imm(AluImmOp::Xori, rd, rd, 1)),
            _ => {}
        }
        self.write_dest(dest, rd);
    }

    fn select_bin(&mut self, dest: Value, op: BinOp, ty: IrType, lhs: &IrOperand, rhs: &IrOperand) {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => {
                self.select_arith(dest, op, ty, lhs, rhs)
            }
            BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => {
                self.select_div(dest, op, ty, lhs, rhs)
            }
            BinOp::Shl | BinOp::AShr | BinOp::LShr => self.select_shift(dest, op, ty, lhs, rhs),
        }
    }

    /// `add sub mul and or xor`.
    fn select_arith(
        &mut self,
        dest: Value,
        op: BinOp,
        ty: IrType,
        lhs: &IrOperand,
        rhs: &IrOperand,
    ) {
        let bytes = width(ty);
        let word = bytes == 4;
        // The seeded bug: a 32-bit signed add at 64 bits, not re-extended.
        let add_not_word =
            ty == IrType::I32 && op == BinOp::Add && mutants::enabled(Mutant::Riscv64I32AddNotWord);
        let a = self.read(lhs, ty, Reg::T0);
        let rd = self.dest_reg(dest);
        // An immediate right operand where the instruction has a form for it.
        if let IrOperand::Const(c) = rhs {
            let k = const_value(*c, ty);
            let imm = match op {
                BinOp::Add if word && !add_not_word => Some((AluImmOp::Addiw, k)),
                BinOp::Add => Some((AluImmOp::Addi, k)),
                BinOp::Sub if word => Some((AluImmOp::Addiw, k.wrapping_neg())),
                BinOp::Sub => Some((AluImmOp::Addi, k.wrapping_neg())),
                BinOp::And => Some((AluImmOp::Andi, k)),
                BinOp::Or => Some((AluImmOp::Ori, k)),
                BinOp::Xor => Some((AluImmOp::Xori, k)),
                _ => None,
            };
            if let Some((imm_op, k)) = imm.filter(|(_, k)| fits_imm12(*k)) {
                self.push(Inst::imm(imm_op, rd, a, k));
                if !matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) && !add_not_word {
                    self.finish_result(ty, rd, word);
                }
                self.write_dest(dest, rd);
                return;
            }
        }
        let b = self.read(rhs, ty, Reg::T1);
        let alu = match (op, word && !add_not_word) {
            (BinOp::Add, true) => AluOp::Addw,
            (BinOp::Add, false) => AluOp::Add,
            (BinOp::Sub, true) => AluOp::Subw,
            (BinOp::Sub, false) => AluOp::Sub,
            (BinOp::Mul, true) => AluOp::Mulw,
            (BinOp::Mul, false) => AluOp::Mul,
            (BinOp::And, _) => AluOp::And,
            (BinOp::Or, _) => AluOp::Or,
            _ => AluOp::Xor,
        };
        self.push(Inst::alu(alu, rd, a, b));
        // Bitwise operations of canonical values are canonical.
        if !matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) && !add_not_word {
            self.finish_result(ty, rd, word);
        }
        self.write_dest(dest, rd);
    }

    /// `shl ashr lshr`: the left operand in the form the shift needs (zero-extended at
    /// its width for a logical right shift, sign-extended for an arithmetic one), the
    /// `*w` forms at 32 bits; amounts at or beyond the width are undefined in the IR
    /// (the immediate is masked to keep the encoding valid).
    fn select_shift(
        &mut self,
        dest: Value,
        op: BinOp,
        ty: IrType,
        lhs: &IrOperand,
        rhs: &IrOperand,
    ) {
        let bytes = width(ty);
        let word = bytes == 4;
        let a = self.read(lhs, ty, Reg::T0);
        let a = match op {
            // At 32 bits the `*w` forms read only the low word.
            BinOp::LShr if !word => self.view(ty, false, a, Reg::T0),
            BinOp::AShr if !word => self.view(ty, true, a, Reg::T0),
            _ => a,
        };
        let rd = self.dest_reg(dest);
        match rhs {
            IrOperand::Const(c) => {
                let amount = const_value(*c, ty) & if word { 31 } else { 63 };
                let imm_op = match (op, word) {
                    (BinOp::Shl, false) => AluImmOp::Slli,
                    (BinOp::Shl, true) => AluImmOp::Slliw,
                    (BinOp::LShr, false) => AluImmOp::Srli,
                    (BinOp::LShr, true) => AluImmOp::Srliw,
                    (_, false) => AluImmOp::Srai,
                    (_, true) => AluImmOp::Sraiw,
                };
                self.push(Inst::imm(imm_op, rd, a, amount));
            }
            IrOperand::Value(_) => {
                let b = self.read(rhs, ty, Reg::T1);
                let alu = match (op, word) {
                    (BinOp::Shl, false) => AluOp::Sll,
                    (BinOp::Shl, true) => AluOp::Sllw,
                    (BinOp::LShr, false) => AluOp::Srl,
                    (BinOp::LShr, true) => AluOp::Srlw,
                    (_, false) => AluOp::Sra,
                    (_, true) => AluOp::Sraw,
                };
                self.push(Inst::alu(alu, rd, a, b));
            }
        }
        self.finish_result(ty, rd, word);
        self.write_dest(dest, rd);
    }

    /// `sdiv udiv srem urem`: the operands as the operation sees them, the IR's traps
    /// tested explicitly, then the divide of the operation's width.
    fn select_div(&mut self, dest: Value, op: BinOp, ty: IrType, lhs: &IrOperand, rhs: &IrOperand) {
        let bytes = width(ty);
        let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
        let a = self.read(lhs, ty, Reg::T0);
        let a = self.view(ty, signed, a, Reg::T0);
        let b = self.read(rhs, ty, Reg::T1);
        let b = self.view(ty, signed, b, Reg::T1);
        // A constant divisor decides the tests at compile time (a zero one still
        // branches, unconditionally, to the trap).
        let divisor = match rhs {
            IrOperand::Const(c) => Some(view_const(ty, signed, const_value(*c, ty))),
            IrOperand::Value(_) => None,
        };
        let zero_test =
            divisor.is_none_or(|k| k == 0) && !mutants::enabled(Mutant::Riscv64DivZeroNoTrap);
        if zero_test {
            let trap = self.trap_label();
            self.push(Inst::Branch {
                cond: BranchCond::Eq,
                rs1: b,
                rs2: Reg::Zero,
                label: trap,
            });
        }
        if signed && divisor.is_none_or(|k| k == -1) {
            // MIN / -1 at the operation's width (operands sign-extended from it).
            let trap = self.trap_label();
            let skip = self.fresh_label("nooverflow");
            self.materialize(-1, Reg::T3);
            self.push(Inst::Branch {
                cond: BranchCond::Ne,
                rs1: b,
                rs2: Reg::T3,
                label: skip.clone(),
            });
            let min = i64::MIN >> (64 - 8 * bytes);
            self.materialize(min, Reg::T3);
            self.push(Inst::Branch {
                cond: BranchCond::Eq,
                rs1: a,
                rs2: Reg::T3,
                label: trap,
            });
            self.push(Inst::Label(skip));
        }
        let word = bytes == 4;
        let alu = match (op, word) {
            (BinOp::SDiv, false) => AluOp::Div,
            (BinOp::SDiv, true) => AluOp::Divw,
            (BinOp::UDiv, false) => AluOp::Divu,
            (BinOp::UDiv, true) => AluOp::Divuw,
            (BinOp::SRem, false) => AluOp::Rem,
            (BinOp::SRem, true) => AluOp::Remw,
            (_, false) => AluOp::Remu,
            (_, true) => AluOp::Remuw,
        };
        let rd = self.dest_reg(dest);
        self.push(Inst::alu(alu, rd, a, b));
        self.finish_result(ty, rd, word);
        self.write_dest(dest, rd);
    }

    /// `memcpy DST, SRC, SIZE` through scratch registers only (pointers in t3 and t4,
    /// data in t0, the loop counter in t5): unrolled for small sizes, an 8-byte loop for
    /// large ones, then the tail, widest pieces first.
    fn select_memcpy(&mut self, dst: &IrOperand, src: &IrOperand, size: u32) {
        if size == 0 {
            return;
        }
        let (d, s) = (Reg::T3, Reg::T4);
        self.load_into(dst, IrType::Ptr, d);
        self.load_into(src, IrType::Ptr, s);
        let mut done = 0;
        if size > MEMCPY_UNROLL_LIMIT {
            self.materialize(i64::from(size / 8), Reg::T5);
            let top = self.fresh_label("copy");
            self.push(Inst::Label(top.clone()));
            self.push(Inst::Load {
                kind: LoadKind::D,
                rd: Reg::T0,
                base: s,
                offset: 0,
            });
            self.push(Inst::Store {
                kind: StoreKind::D,
                src: Reg::T0,
                base: d,
                offset: 0,
            });
            for r in [s, d] {
                self.push(Inst::imm(AluImmOp::Addi, r, r, 8));
            }
            self.push(Inst::imm(AluImmOp::Addi, Reg::T5, Reg::T5, -1));
            self.push(Inst::Branch {
                cond: BranchCond::Ne,
                rs1: Reg::T5,
                rs2: Reg::Zero,
                label: top,
            });
            done = size / 8 * 8;
        }
        let base = done;
        while done < size {
            let piece = [8u32, 4, 2, 1]
                .into_iter()
                .find(|p| *p <= size - done)
                .unwrap_or(1);
            let offset = i64::from(done - base);
            let (load, store) = match piece {
                8 => (LoadKind::D, StoreKind::D),
                4 => (LoadKind::Wu, StoreKind::W),
                2 => (LoadKind::Hu, StoreKind::H),
                _ => (LoadKind::Bu, StoreKind::B),
            };
            self.push(Inst::Load {
                kind: load,
                rd: Reg::T0,
                base: s,
                offset,
            });
            self.push(Inst::Store {
                kind: store,
                src: Reg::T0,
                base: d,
                offset,
            });
            done += piece;
        }
    }

    // ---- Terminators ------------------------------------------------------------------

    fn jump_unless_next(&mut self, target: BlockId, next: Option<BlockId>) {
        if next != Some(target) {
            self.push(Inst::Jump(target.to_string()));
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
                if let IrOperand::Const(c) = cond {
                    let target = if c.bits != 0 { if_true } else { if_false };
                    self.jump_unless_next(*target, next);
                    return;
                }
                let c = self.read(cond, IrType::I64, Reg::T0);
                if next == Some(*if_true) {
                    self.push(Inst::Branch {
                        cond: BranchCond::Eq,
                        rs1: c,
                        rs2: Reg::Zero,
                        label: if_false.to_string(),
                    });
                } else {
                    self.push(Inst::Branch {
                        cond: BranchCond::Ne,
                        rs1: c,
                        rs2: Reg::Zero,
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
            Terminator::Unreachable => self.push(Inst::Unimp),
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
        let r = self.read(val, ty, Reg::T0);
        if !dense {
            for (c, target) in cases {
                let rhs = match canon(*c) {
                    0 => Reg::Zero,
                    v => {
                        self.materialize(v, Reg::T1);
                        Reg::T1
                    }
                };
                self.push(Inst::Branch {
                    cond: BranchCond::Eq,
                    rs1: r,
                    rs2: rhs,
                    label: target.to_string(),
                });
            }
            self.jump_unless_next(default, next);
            return;
        }
        // A jump table: index = value - min, checked unsigned against the range.
        let min64 = min as i64;
        let index = if min64 == 0 {
            r
        } else if fits_imm12(min64.wrapping_neg()) {
            self.push(Inst::imm(AluImmOp::Addi, Reg::T0, r, min64.wrapping_neg()));
            Reg::T0
        } else {
            self.materialize(min64, Reg::T1);
            self.push(Inst::alu(AluOp::Sub, Reg::T0, r, Reg::T1));
            Reg::T0
        };
        self.materialize((range - 1) as i64, Reg::T1);
        self.push(Inst::Branch {
            cond: BranchCond::Ltu,
            rs1: Reg::T1,
            rs2: index,
            label: default.to_string(),
        });
        let table = self.fresh_label("jt");
        let pc = self.fresh_label("pcrel");
        self.push(Inst::PcrelHi {
            rd: Reg::T1,
            symbol: table.clone(),
            label: pc.clone(),
        });
        self.push(Inst::PcrelLo {
            rd: Reg::T1,
            rs1: Reg::T1,
            label: pc,
        });
        self.push(Inst::imm(AluImmOp::Slli, Reg::T2, index, 3));
        self.push(Inst::alu(AluOp::Add, Reg::T1, Reg::T1, Reg::T2));
        self.push(Inst::Load {
            kind: LoadKind::D,
            rd: Reg::T1,
            base: Reg::T1,
            offset: 0,
        });
        self.push(Inst::JumpReg(Reg::T1));
        let mut entries = vec![default; range as usize];
        for (i, (_, target)) in cases.iter().enumerate().rev() {
            entries[(values[i] - min) as usize] = *target;
        }
        self.rodata.push(Inst::Directive(".balign 8".into()));
        self.rodata.push(Inst::Label(table));
        for target in entries {
            self.rodata
                .push(Inst::Directive(format!(".8byte {target}")));
        }
    }
}
