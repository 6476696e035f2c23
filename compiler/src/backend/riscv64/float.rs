//! Instruction selection of the IR's float instructions on riscv64 (RV64GC's F and D):
//! `fadd fsub fmul fdiv`, `fneg`, `fcmp` with its 14 predicates, the casts between
//! integers and floats and between `f32` and `f64`, and `bitcast`.
//!
//! Why it exists: this first float backend keeps the register allocator as it is. A
//! float value lives where an integer of its size lives — its raw bits in a general
//! register or a spill slot, an `f32` zero-extended (the IR's value model) — so loads,
//! stores, copies, selects, phis and calls move floats without knowing them. Each float
//! instruction moves its operands into the scratch FP registers ft0 and ft1 (`fmv.d.x`,
//! `fmv.w.x`, which NaN-boxes an `f32`), computes there and moves the result's bits back
//! (`fmv.x.d`; `fmv.x.w` sign-extends bit 31, so an `f32` result is zero-extended again).
//! FP registers are never allocated and ft0/ft1 carry no argument. (The later
//! improvement: a float register class in the allocator.)
//!
//! NaNs (docs/ir-notes.md): RISC-V already is the IR. Every arithmetic operation and
//! every `fcvt.s.d`/`fcvt.d.s` whose result is a NaN returns the canonical NaN
//! (`0x7fc00000`/`0x7ff8000000000000`: positive, quiet, no payload — the unprivileged
//! spec, "NaN generation and propagation"), whatever the inputs' payloads, and qemu
//! implements that; so nothing is canonicalised. `fneg` is `fsgnjn`, a sign injection
//! that keeps every other bit of a NaN.
//!
//! Invariants: operands are read (through t0) into ft0/ft1 before the destination is
//! written; only t0, t1, t2 (a spilled result), ft0, ft1 and the destination are written;
//! every result is canonical for its type. A float-to-integer conversion truncates
//! (`rtz`) from the 64-bit form (`fcvt.l`/`fcvt.lu`), then re-extends for a narrow type;
//! its out-of-range results are the IR's undefined behaviour.

use super::float_inst::{FArith, FCmpOp, FInst, FReg, Prec};
use super::inst::{AluImmOp, AluOp, Inst, Reg};
use super::isel::Selector;
use crate::ir::{FBinOp, FCmpPred, IrType, Operand as IrOperand, Value};
use crate::mutants::{self, Mutant};

/// The scratch FP registers ft0 (first operand, result) and ft1 (second operand).
const FA: FReg = FReg(0);
const FB: FReg = FReg(1);

/// The precision of float type `ty`.
pub(super) fn prec(ty: IrType) -> Prec {
    if ty == IrType::F32 {
        Prec::S
    } else {
        Prec::D
    }
}

/// How one `fcmp` predicate is computed: the comparison, whether its operands are
/// swapped, and whether the result is inverted; `ord`/`uno` and `one`/`ueq` combine two
/// comparisons (see [`Selector::select_fcmp`]).
enum FcmpPlan {
    One {
        op: FCmpOp,
        swap: bool,
        invert: bool,
    },
    /// `feq a, a` and `feq b, b`; inverted for `uno`.
    Ordered { invert: bool },
    /// `flt a, b` or `flt b, a`; inverted for `ueq`.
    Unequal { invert: bool },
}

fn fcmp_plan(pred: FCmpPred) -> FcmpPlan {
    use FCmpOp::{Feq, Fle, Flt};
    let fle = if mutants::enabled(Mutant::Riscv64FleAsFlt) {
        Flt
    } else {
        Fle
    };
    let one = |op, swap, invert| FcmpPlan::One { op, swap, invert };
    match pred {
        FCmpPred::Oeq => one(Feq, false, false),
        FCmpPred::Une => one(Feq, false, true),
        FCmpPred::Olt => one(Flt, false, false),
        FCmpPred::Uge => one(Flt, false, true),
        FCmpPred::Ogt => one(Flt, true, false),
        FCmpPred::Ule => one(Flt, true, true),
        FCmpPred::Ole => one(fle, false, false),
        FCmpPred::Ugt => one(fle, false, true),
        FCmpPred::Oge => one(fle, true, false),
        FCmpPred::Ult => one(fle, true, true),
        FCmpPred::Ord => FcmpPlan::Ordered { invert: false },
        FCmpPred::Uno => FcmpPlan::Ordered { invert: true },
        FCmpPred::One => FcmpPlan::Unequal { invert: false },
        FCmpPred::Ueq => FcmpPlan::Unequal { invert: true },
    }
}

impl Selector<'_> {
    fn fpush(&mut self, f: FInst) {
        self.push(Inst::Float(f));
    }

    /// Puts the bits of `op` (a float of type `ty`) into `fd`, through t0.
    pub(super) fn fp_operand(&mut self, op: &IrOperand, ty: IrType, fd: FReg) {
        let r = self.read(op, ty, Reg::T0);
        self.fpush(FInst::ToFp {
            p: prec(ty),
            fd,
            rs: r,
        });
    }

    /// Moves the bits in `fs` (a `ty` float) to `dest`'s location, canonical.
    pub(super) fn fp_result(&mut self, dest: Value, ty: IrType, fs: FReg) {
        let rd = self.dest_reg(dest);
        self.fpush(FInst::FromFp {
            p: prec(ty),
            rd,
            fs,
        });
        if ty == IrType::F32 {
            self.extend_into(IrType::U32, rd, rd);
        }
        self.write_dest(dest, rd);
    }

    /// `%d = fadd/fsub/fmul/fdiv TYPE A, B`.
    pub(super) fn select_fbin(
        &mut self,
        dest: Value,
        op: FBinOp,
        ty: IrType,
        lhs: &IrOperand,
        rhs: &IrOperand,
    ) {
        self.fp_operand(lhs, ty, FA);
        self.fp_operand(rhs, ty, FB);
        let op = match op {
            FBinOp::FAdd => FArith::Add,
            FBinOp::FSub => FArith::Sub,
            FBinOp::FMul => FArith::Mul,
            FBinOp::FDiv => FArith::Div,
        };
        self.fpush(FInst::Arith {
            op,
            p: prec(ty),
            fd: FA,
            fs1: FA,
            fs2: FB,
        });
        self.fp_result(dest, ty, FA);
    }

    /// `%d = fneg TYPE A`.
    pub(super) fn select_fneg(&mut self, dest: Value, ty: IrType, src: &IrOperand) {
        self.fp_operand(src, ty, FA);
        self.fpush(FInst::Neg {
            p: prec(ty),
            fd: FA,
            fs: FA,
        });
        self.fp_result(dest, ty, FA);
    }

    /// `%d = fcmp PRED TYPE A, B`: 0 or 1.
    pub(super) fn select_fcmp(
        &mut self,
        dest: Value,
        pred: FCmpPred,
        ty: IrType,
        lhs: &IrOperand,
        rhs: &IrOperand,
    ) {
        let p = prec(ty);
        self.fp_operand(lhs, ty, FA);
        self.fp_operand(rhs, ty, FB);
        let rd = self.dest_reg(dest);
        let cmp = |op, rd, swap: bool| {
            let (fs1, fs2) = if swap { (FB, FA) } else { (FA, FB) };
            FInst::Cmp {
                op,
                p,
                rd,
                fs1,
                fs2,
            }
        };
        let invert = match fcmp_plan(pred) {
            FcmpPlan::One { op, swap, invert } => {
                self.fpush(cmp(op, rd, swap));
                invert
            }
            FcmpPlan::Ordered { invert } => {
                self.fpush(FInst::Cmp {
                    op: FCmpOp::Feq,
                    p,
                    rd,
                    fs1: FA,
                    fs2: FA,
                });
                self.fpush(FInst::Cmp {
                    op: FCmpOp::Feq,
                    p,
                    rd: Reg::T1,
                    fs1: FB,
                    fs2: FB,
                });
                self.push(Inst::alu(AluOp::And, rd, rd, Reg::T1));
                invert
            }
            FcmpPlan::Unequal { invert } => {
                self.fpush(cmp(FCmpOp::Flt, rd, false));
                self.fpush(cmp(FCmpOp::Flt, Reg::T1, true));
                self.push(Inst::alu(AluOp::Or, rd, rd, Reg::T1));
                invert
            }
        };
        if invert {
            self.push(Inst::imm(AluImmOp::Xori, rd, rd, 1));
        }
        self.write_dest(dest, rd);
    }

    /// `%d = cast FROM A to TO` where either side is a float.
    pub(super) fn select_float_cast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &IrOperand,
        to: IrType,
    ) {
        match (from.is_float(), to.is_float()) {
            (true, true) => {
                self.fp_operand(src, from, FA);
                if from != to {
                    self.fpush(FInst::Cvt {
                        to: prec(to),
                        from: prec(from),
                        fd: FA,
                        fs: FA,
                    });
                }
                self.fp_result(dest, to, FA);
            }
            (false, true) => {
                // A canonical integer is exact in the 64-bit form (sign-extended for
                // signed types, zero-extended for unsigned ones).
                let r = self.read(src, from, Reg::T0);
                self.fpush(FInst::FromInt {
                    signed: from.is_signed()
                        || mutants::enabled(Mutant::Riscv64UnsignedToFloatSigned),
                    p: prec(to),
                    fd: FA,
                    rs: r,
                });
                self.fp_result(dest, to, FA);
            }
            _ => {
                self.fp_operand(src, from, FA);
                let rd = self.dest_reg(dest);
                self.fpush(FInst::ToInt {
                    signed: to.is_signed(),
                    p: prec(from),
                    rd,
                    fs: FA,
                    rtz: true,
                });
                self.extend_into(to, rd, rd);
                self.write_dest(dest, rd);
            }
        }
    }

    /// `%d = bitcast FROM A to TO`: the bits unchanged, canonical for `to` (an `i32`
    /// sign-extended, an `f32` or `u32` zero-extended).
    pub(super) fn select_bitcast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &IrOperand,
        to: IrType,
    ) {
        let r = self.read(src, from, Reg::T0);
        let rd = self.dest_reg(dest);
        self.extend_into(to, r, rd);
        self.write_dest(dest, rd);
    }
}
