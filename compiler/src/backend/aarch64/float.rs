//! Instruction selection of the IR's float instructions on AArch64: `fadd fsub fmul
//! fdiv`, `fneg`, `fcmp` with its 14 predicates, the casts between integers and floats
//! and between `f32` and `f64`, and `bitcast`.
//!
//! Why it exists: this first float backend keeps the register allocator as it is. A
//! float value lives where an integer of its size lives — its raw bits in a general
//! register or a spill slot, an `f32` zero-extended (the IR's value model) — so loads,
//! stores, copies, selects, phis and calls move floats without knowing them. Each float
//! instruction moves its operands into the scratch FP registers v16 and v17 (`fmov d/s,
//! x/w`), computes there and moves the result's bits back (`fmov x/w, d/s`). FP
//! registers are never allocated; v16-v18 are caller-saved and carry no argument, so
//! nothing else reads or writes them. (The later improvement: a float register class in
//! the allocator, so values stay in v registers.)
//!
//! NaNs (docs/ir-notes.md): a NaN that arithmetic or an `f32`/`f64` conversion produces
//! is the IR's default NaN (positive, quiet, no payload). AArch64 with FPCR.DN = 0 (Linux's
//! default, and qemu's) returns the *input* NaN quietened, payload and sign kept, when an
//! operand is a NaN; only a NaN it creates (`inf - inf`, `0 / 0`) is the default NaN,
//! which is the IR's. So every arithmetic result and every `fcvt` is canonicalised:
//! `fcmp v, v; fcsel v, v, <default NaN>, vc` (Cranelift's NaN canonicalisation).
//! `fneg` flips the sign bit only (never canonicalised), as the IR says.
//!
//! Invariants: the operands are read (through x16, then into v16/v17) before the
//! destination is written; only scratch registers (x16, x9, v16-v18) and the
//! destination are written; every result is canonical for its type (an `f32` result
//! zero-extended by the `w` write, an integer result of a conversion extended for its
//! type). A float-to-integer conversion truncates toward zero (`fcvtz*`) from the 64-bit
//! view; its out-of-range results are the IR's undefined behaviour, so whatever the
//! saturating instruction gives is acceptable.

use super::float_inst::{FArith, FInst, Prec, VReg};
use super::inst::{Cond, Ext, Inst, Width};
use super::isel::{Selector, S0, S2};
use crate::ir::{FBinOp, FCmpPred, IrType, Operand as IrOperand, Value};
use crate::mutants::{self, Mutant};

/// The scratch FP registers: first operand and result, second operand, default NaN.
pub(super) const FA: VReg = VReg(16);
const FB: VReg = VReg(17);
const FNAN: VReg = VReg(18);

/// The precision of float type `ty`.
pub(super) fn prec(ty: IrType) -> Prec {
    if ty == IrType::F32 {
        Prec::S
    } else {
        Prec::D
    }
}

/// The default NaN's bits at precision `p` (zero-extended to 64 bits).
fn default_nan(p: Prec) -> u64 {
    match p {
        Prec::S => 0x7fc0_0000,
        Prec::D => 0x7ff8_0000_0000_0000,
    }
}

/// How `fcmp`'s flags decide `pred`: one condition, or either of two.
fn fcmp_conditions(pred: FCmpPred) -> (Cond, Option<Cond>) {
    match pred {
        FCmpPred::Oeq => (Cond::Eq, None),
        FCmpPred::One => (Cond::Mi, Some(Cond::Gt)),
        FCmpPred::Olt if mutants::enabled(Mutant::Aarch64FcmpOltAsLt) => (Cond::Lt, None),
        FCmpPred::Olt => (Cond::Mi, None),
        FCmpPred::Ole => (Cond::Ls, None),
        FCmpPred::Ogt => (Cond::Gt, None),
        FCmpPred::Oge => (Cond::Ge, None),
        FCmpPred::Ord => (Cond::Vc, None),
        FCmpPred::Ueq => (Cond::Eq, Some(Cond::Vs)),
        FCmpPred::Une => (Cond::Ne, None),
        FCmpPred::Ult => (Cond::Lt, None),
        FCmpPred::Ule => (Cond::Le, None),
        FCmpPred::Ugt => (Cond::Hi, None),
        FCmpPred::Uge => (Cond::Pl, None),
        FCmpPred::Uno => (Cond::Vs, None),
    }
}

impl Selector<'_> {
    fn fpush(&mut self, f: FInst) {
        self.push(Inst::Float(f));
    }

    /// Puts the bits of `op` (a float of precision `p`) into `v`, through x16.
    pub(super) fn fp_operand(&mut self, op: &IrOperand, ty: IrType, v: VReg) {
        self.load_into(op, ty, S0);
        self.fpush(FInst::ToFp {
            p: prec(ty),
            vd: v,
            rn: S0,
        });
    }

    /// Moves the bits in `v` (precision `p`) to `dest`'s location.
    pub(super) fn fp_result(&mut self, dest: Value, p: Prec, v: VReg) {
        let r = self.dest_reg(dest);
        self.fpush(FInst::FromFp { p, rd: r, vn: v });
        self.write_dest(dest, r);
    }

    /// Replaces a NaN in `v` by the default NaN.
    fn canonicalize_nan(&mut self, p: Prec, v: VReg) {
        self.mov_constant(S2, default_nan(p));
        self.fpush(FInst::ToFp {
            p,
            vd: FNAN,
            rn: S2,
        });
        self.fpush(FInst::Cmp { p, vn: v, vm: v });
        self.fpush(FInst::Csel {
            p,
            vd: v,
            vn: v,
            vm: FNAN,
            cond: Cond::Vc,
        });
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
        let p = prec(ty);
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
            p,
            vd: FA,
            vn: FA,
            vm: FB,
        });
        self.canonicalize_nan(p, FA);
        self.fp_result(dest, p, FA);
    }

    /// `%d = fneg TYPE A`: the sign bit flipped (`fneg` never touches a NaN's payload).
    pub(super) fn select_fneg(&mut self, dest: Value, ty: IrType, src: &IrOperand) {
        let p = prec(ty);
        self.fp_operand(src, ty, FA);
        self.fpush(FInst::Neg { p, vd: FA, vn: FA });
        self.fp_result(dest, p, FA);
    }

    /// `%d = fcmp PRED TYPE A, B`: 0 or 1 in an `i8`; the flags stay valid for a
    /// `condbr` right after when one condition decides the predicate.
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
        self.fpush(FInst::Cmp { p, vn: FA, vm: FB });
        let (first, second) = fcmp_conditions(pred);
        let r = self.dest_reg(dest);
        self.push(Inst::Cset { rd: r, cond: first });
        match second {
            Some(cond) => self.fpush(FInst::OrCond { rd: r, cond }),
            None => self.flags = Some((dest, first)),
        }
        self.write_dest(dest, r);
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
                let (pf, pt) = (prec(from), prec(to));
                self.fp_operand(src, from, FA);
                if pf != pt {
                    self.fpush(FInst::Cvt {
                        to: pt,
                        from: pf,
                        vd: FA,
                        vn: FA,
                    });
                    self.canonicalize_nan(pt, FA);
                }
                self.fp_result(dest, pt, FA);
            }
            (false, true) => {
                // A canonical integer is exact in the 64-bit view: sign-extended for
                // signed types, zero-extended for unsigned ones.
                let p = prec(to);
                self.load_into(src, from, S0);
                self.fpush(FInst::FromInt {
                    signed: from.is_signed()
                        || mutants::enabled(Mutant::Aarch64UnsignedToFloatSigned),
                    p,
                    vd: FA,
                    rn: S0,
                });
                self.fp_result(dest, p, FA);
            }
            _ => {
                let p = prec(from);
                self.fp_operand(src, from, FA);
                let r = self.dest_reg(dest);
                self.fpush(FInst::ToInt {
                    signed: to.is_signed(),
                    w: Width::X,
                    p,
                    rd: r,
                    vn: FA,
                });
                self.extend_into(to, r, r);
                self.write_dest(dest, r);
            }
        }
    }

    /// `%d = bitcast FROM A to TO`: the bits unchanged, made canonical for `to` (an
    /// `i32` sign-extended, an `f32` or `u32` zero-extended).
    pub(super) fn select_bitcast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &IrOperand,
        to: IrType,
    ) {
        let r = self.dest_reg(dest);
        self.load_into(src, from, r);
        if to == IrType::F32 {
            self.push(Inst::Ext {
                ext: Ext::Uxtw,
                rd: r,
                rn: r,
            });
        } else {
            self.extend_into(to, r, r);
        }
        self.write_dest(dest, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_predicate_reads_the_flags_as_the_ir_defines_it() {
        // fcmp's NZCV for the four relations (Arm ARM, FPCompare), and each predicate's
        // truth table from docs/ir-notes.md: (less, equal, greater, unordered).
        let flags = [
            (true, false, false, false), // less: N
            (false, true, true, false),  // equal: Z C
            (false, false, true, false), // greater: C
            (false, false, true, true),  // unordered: C V
        ];
        let holds = |c: Cond, (n, z, cf, v): (bool, bool, bool, bool)| match c {
            Cond::Eq => z,
            Cond::Ne => !z,
            Cond::Mi => n,
            Cond::Pl => !n,
            Cond::Vs => v,
            Cond::Vc => !v,
            Cond::Hi => cf && !z,
            Cond::Ls => !cf || z,
            Cond::Ge => n == v,
            Cond::Lt => n != v,
            Cond::Gt => !z && n == v,
            Cond::Le => z || n != v,
            Cond::Hs => cf,
            Cond::Lo => !cf,
        };
        let table = [
            (FCmpPred::Oeq, [false, true, false, false]),
            (FCmpPred::One, [true, false, true, false]),
            (FCmpPred::Olt, [true, false, false, false]),
            (FCmpPred::Ole, [true, true, false, false]),
            (FCmpPred::Ogt, [false, false, true, false]),
            (FCmpPred::Oge, [false, true, true, false]),
            (FCmpPred::Ord, [true, true, true, false]),
            (FCmpPred::Ueq, [false, true, false, true]),
            (FCmpPred::Une, [true, false, true, true]),
            (FCmpPred::Ult, [true, false, false, true]),
            (FCmpPred::Ule, [true, true, false, true]),
            (FCmpPred::Ugt, [false, false, true, true]),
            (FCmpPred::Uge, [false, true, true, true]),
            (FCmpPred::Uno, [false, false, false, true]),
        ];
        for (pred, expected) in table {
            let (a, b) = fcmp_conditions(pred);
            for (i, f) in flags.iter().enumerate() {
                let got = holds(a, *f) || b.is_some_and(|b| holds(b, *f));
                assert_eq!(got, expected[i], "{pred:?} relation {i}");
            }
        }
    }
}
