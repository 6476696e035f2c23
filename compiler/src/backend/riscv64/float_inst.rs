//! RISC-V F/D instructions (the scalar ones phicc selects) and how they print.
//!
//! Why it exists: floats live in general registers and spill slots as their raw bits
//! (an `f32` zero-extended); every float operation moves its operands into scratch FP
//! registers (`fmv.w.x`/`fmv.d.x`), computes there and moves the result's bits back
//! (`super::float`). These are the instructions of that round trip, held by the integer
//! [`super::inst::Inst`] as [`super::inst::Inst::Float`].
//!
//! Invariants: an [`FReg`] is `f0..f31`, printed by number; the integer side of a
//! conversion is always the 64-bit form (`.l`/`.lu`), which holds every canonical integer
//! exactly; a float-to-integer conversion names its rounding mode (`rtz` for C's
//! truncation; without it the dynamic mode, nearest-even, would round).

use super::inst::Reg;
use std::fmt;

/// An FP register `f<n>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FReg(pub u8);

impl fmt::Display for FReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "f{}", self.0)
    }
}

/// The precision of a scalar FP instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prec {
    /// Single (`.s`, `f32`).
    S,
    /// Double (`.d`, `f64`).
    D,
}

impl Prec {
    fn suffix(self) -> &'static str {
        match self {
            Prec::S => "s",
            Prec::D => "d",
        }
    }

    /// The suffix of `fmv` between this precision and an integer register.
    fn move_suffix(self) -> &'static str {
        match self {
            Prec::S => "w",
            Prec::D => "d",
        }
    }
}

/// `fadd fsub fmul fdiv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FArith {
    Add,
    Sub,
    Mul,
    Div,
}

/// The three comparisons (`feq` is quiet; `flt`/`fle` only raise a flag on a NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FCmpOp {
    Feq,
    Flt,
    Fle,
}

/// A scalar floating-point instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FInst {
    /// `fmv.w.x/fmv.d.x fd, rs`: the integer register's low bits into `fd` (an `f32`
    /// NaN-boxed).
    ToFp { p: Prec, fd: FReg, rs: Reg },
    /// `fmv.x.w/fmv.x.d rd, fs` (`fmv.x.w` *sign*-extends bit 31).
    FromFp { p: Prec, rd: Reg, fs: FReg },
    /// `fadd/fsub/fmul/fdiv.{s,d} fd, fs1, fs2` (dynamic rounding: nearest-even).
    Arith {
        op: FArith,
        p: Prec,
        fd: FReg,
        fs1: FReg,
        fs2: FReg,
    },
    /// `fsgnjn fd, fs, fs`: `fs` with its sign bit flipped (`fneg`).
    Neg { p: Prec, fd: FReg, fs: FReg },
    /// `feq/flt/fle rd, fs1, fs2`: 1 or 0 (0 when either is a NaN).
    Cmp {
        op: FCmpOp,
        p: Prec,
        rd: Reg,
        fs1: FReg,
        fs2: FReg,
    },
    /// `fcvt.<to>.<from> fd, fs` between precisions.
    Cvt {
        to: Prec,
        from: Prec,
        fd: FReg,
        fs: FReg,
    },
    /// `fcvt.{s,d}.{l,lu} fd, rs` (rounded to nearest-even).
    FromInt {
        signed: bool,
        p: Prec,
        fd: FReg,
        rs: Reg,
    },
    /// `fcvt.{l,lu}.{s,d} rd, fs[, rtz]`.
    ToInt {
        signed: bool,
        p: Prec,
        rd: Reg,
        fs: FReg,
        rtz: bool,
    },
    /// `fsd fs, offset(base)` (the prologue's float parameter homes).
    StoreD { fs: FReg, base: Reg, offset: i64 },
}

impl fmt::Display for FInst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FInst::ToFp { p, fd, rs } => write!(f, "fmv.{}.x {fd}, {rs}", p.move_suffix()),
            FInst::FromFp { p, rd, fs } => write!(f, "fmv.x.{} {rd}, {fs}", p.move_suffix()),
            FInst::Arith {
                op,
                p,
                fd,
                fs1,
                fs2,
            } => {
                let m = match op {
                    FArith::Add => "fadd",
                    FArith::Sub => "fsub",
                    FArith::Mul => "fmul",
                    FArith::Div => "fdiv",
                };
                write!(f, "{m}.{} {fd}, {fs1}, {fs2}", p.suffix())
            }
            FInst::Neg { p, fd, fs } => write!(f, "fsgnjn.{} {fd}, {fs}, {fs}", p.suffix()),
            FInst::Cmp {
                op,
                p,
                rd,
                fs1,
                fs2,
            } => {
                let m = match op {
                    FCmpOp::Feq => "feq",
                    FCmpOp::Flt => "flt",
                    FCmpOp::Fle => "fle",
                };
                write!(f, "{m}.{} {rd}, {fs1}, {fs2}", p.suffix())
            }
            FInst::Cvt { to, from, fd, fs } => {
                write!(f, "fcvt.{}.{} {fd}, {fs}", to.suffix(), from.suffix())
            }
            FInst::FromInt { signed, p, fd, rs } => {
                let i = if *signed { "l" } else { "lu" };
                write!(f, "fcvt.{}.{i} {fd}, {rs}", p.suffix())
            }
            FInst::ToInt {
                signed,
                p,
                rd,
                fs,
                rtz,
            } => {
                let i = if *signed { "l" } else { "lu" };
                write!(f, "fcvt.{i}.{} {rd}, {fs}", p.suffix())?;
                if *rtz {
                    write!(f, ", rtz")?;
                }
                Ok(())
            }
            FInst::StoreD { fs, base, offset } => write!(f, "fsd {fs}, {offset}({base})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_gnu_forms() {
        let cases = [
            (
                FInst::ToFp {
                    p: Prec::S,
                    fd: FReg(0),
                    rs: Reg::A0,
                },
                "fmv.w.x f0, a0",
            ),
            (
                FInst::ToInt {
                    signed: false,
                    p: Prec::D,
                    rd: Reg::T2,
                    fs: FReg(0),
                    rtz: true,
                },
                "fcvt.lu.d t2, f0, rtz",
            ),
            (
                FInst::Neg {
                    p: Prec::D,
                    fd: FReg(0),
                    fs: FReg(0),
                },
                "fsgnjn.d f0, f0, f0",
            ),
        ];
        for (inst, text) in cases {
            assert_eq!(inst.to_string(), text);
        }
    }
}
