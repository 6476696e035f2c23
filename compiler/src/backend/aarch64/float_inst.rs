//! AArch64 floating-point instructions (the scalar FP/SIMD ones phicc selects) and how
//! they print.
//!
//! Why it exists: floats live in general registers and spill slots as their raw bits
//! (the IR's value model: an `f32` zero-extended); every float operation moves its
//! operands into scratch FP registers, computes there and moves the result bits back
//! (`super::float`). These are the instructions of that round trip, kept apart from the
//! integer [`super::inst::Inst`]s, which hold them as [`super::inst::Inst::Float`].
//!
//! Invariants: a [`VReg`] is `v0..v31` and is printed at the instruction's precision
//! (`s` for `f32`, `d` for `f64`); integer operands of conversions and moves are printed
//! at the width the variant names (`fmov` between a `w` and an `s` register, an `x` and a
//! `d` register; conversions always use the 64-bit `x` view, which holds every
//! canonical integer exactly).

use super::inst::{Cond, Mem, Reg, Width};
use std::fmt;

/// An FP/SIMD register `v<n>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VReg(pub u8);

/// The precision of a scalar FP instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prec {
    /// Single (`s` registers, `f32`).
    S,
    /// Double (`d` registers, `f64`).
    D,
}

impl Prec {
    /// The integer view that holds this precision's bits (`w` for `s`, `x` for `d`).
    pub fn int_width(self) -> Width {
        match self {
            Prec::S => Width::W,
            Prec::D => Width::X,
        }
    }

    fn name(self, v: VReg) -> String {
        match self {
            Prec::S => format!("s{}", v.0),
            Prec::D => format!("d{}", v.0),
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

/// A scalar floating-point instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FInst {
    /// `fmov sd/dd, wn/xn`: the integer register's low bits into `vd`.
    ToFp { p: Prec, vd: VReg, rn: Reg },
    /// `fmov wd/xd, sn/dn` (a `w` write clears the upper half: an `f32` stays
    /// zero-extended).
    FromFp { p: Prec, rd: Reg, vn: VReg },
    /// `fadd/fsub/fmul/fdiv vd, vn, vm`.
    Arith {
        op: FArith,
        p: Prec,
        vd: VReg,
        vn: VReg,
        vm: VReg,
    },
    /// `fneg vd, vn`: the sign bit flipped, of a NaN too.
    Neg { p: Prec, vd: VReg, vn: VReg },
    /// `fcmp vn, vm` (a quiet compare: NZCV = 0110 equal, 1000 less, 0010 greater,
    /// 0011 unordered).
    Cmp { p: Prec, vn: VReg, vm: VReg },
    /// `fcsel vd, vn, vm, cond`.
    Csel {
        p: Prec,
        vd: VReg,
        vn: VReg,
        vm: VReg,
        cond: Cond,
    },
    /// `fcvt` from precision `from` to `to`.
    Cvt {
        to: Prec,
        from: Prec,
        vd: VReg,
        vn: VReg,
    },
    /// `scvtf/ucvtf vd, xn` (rounded to nearest-even from the 64-bit integer).
    FromInt {
        signed: bool,
        p: Prec,
        vd: VReg,
        rn: Reg,
    },
    /// `fcvtzs/fcvtzu rd, vn` at integer width `w` (truncation toward zero).
    ToInt {
        signed: bool,
        w: Width,
        p: Prec,
        rd: Reg,
        vn: VReg,
    },
    /// `str dt, mem` (8 bytes).
    StoreD { vt: VReg, mem: Mem },
    /// `stp qt1, qt2, mem` (32 bytes: the save area of a variadic function).
    StpQ { vt1: VReg, vt2: VReg, mem: Mem },
    /// `csinc wd, wd, wzr, !cond`: `rd |= cond` for an `rd` that holds 0 or 1.
    OrCond { rd: Reg, cond: Cond },
}

fn mem_text(mem: &Mem) -> String {
    let x = |r: Reg| r.name(Width::X);
    match *mem {
        Mem::Offset { base, off: 0 } => format!("[{}]", x(base)),
        Mem::Offset { base, off } => format!("[{}, #{off}]", x(base)),
        Mem::Indexed { base, index } => format!("[{}, {}]", x(base), x(index)),
        Mem::PostIndex { base, off } => format!("[{}], #{off}", x(base)),
        Mem::PreIndex { base, off } => format!("[{}, #{off}]!", x(base)),
    }
}

/// True when an 8-byte access at `mem` must use the unscaled form (`stur`/`ldur`).
fn unscaled(mem: &Mem) -> bool {
    matches!(*mem, Mem::Offset { off, .. } if !(off >= 0 && off % 8 == 0 && off / 8 < 4096))
}

impl fmt::Display for FInst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FInst::ToFp { p, vd, rn } => {
                write!(f, "fmov {}, {}", p.name(*vd), rn.name(p.int_width()))
            }
            FInst::FromFp { p, rd, vn } => {
                write!(f, "fmov {}, {}", rd.name(p.int_width()), p.name(*vn))
            }
            FInst::Arith { op, p, vd, vn, vm } => {
                let m = match op {
                    FArith::Add => "fadd",
                    FArith::Sub => "fsub",
                    FArith::Mul => "fmul",
                    FArith::Div => "fdiv",
                };
                write!(f, "{m} {}, {}, {}", p.name(*vd), p.name(*vn), p.name(*vm))
            }
            FInst::Neg { p, vd, vn } => write!(f, "fneg {}, {}", p.name(*vd), p.name(*vn)),
            FInst::Cmp { p, vn, vm } => write!(f, "fcmp {}, {}", p.name(*vn), p.name(*vm)),
            FInst::Csel {
                p,
                vd,
                vn,
                vm,
                cond,
            } => write!(
                f,
                "fcsel {}, {}, {}, {cond}",
                p.name(*vd),
                p.name(*vn),
                p.name(*vm)
            ),
            FInst::Cvt { to, from, vd, vn } => {
                write!(f, "fcvt {}, {}", to.name(*vd), from.name(*vn))
            }
            FInst::FromInt { signed, p, vd, rn } => {
                let m = if *signed { "scvtf" } else { "ucvtf" };
                write!(f, "{m} {}, {}", p.name(*vd), rn.name(Width::X))
            }
            FInst::ToInt {
                signed,
                w,
                p,
                rd,
                vn,
            } => {
                let m = if *signed { "fcvtzs" } else { "fcvtzu" };
                write!(f, "{m} {}, {}", rd.name(*w), p.name(*vn))
            }
            FInst::StoreD { vt, mem } => {
                let m = if unscaled(mem) { "stur" } else { "str" };
                write!(f, "{m} d{}, {}", vt.0, mem_text(mem))
            }
            FInst::StpQ { vt1, vt2, mem } => {
                write!(f, "stp q{}, q{}, {}", vt1.0, vt2.0, mem_text(mem))
            }
            FInst::OrCond { rd, cond } => write!(
                f,
                "csinc {}, {}, wzr, {}",
                rd.name(Width::W),
                rd.name(Width::W),
                cond.invert()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_gnu_forms() {
        let v = VReg;
        let cases = [
            (
                FInst::ToFp {
                    p: Prec::S,
                    vd: v(16),
                    rn: Reg(16),
                },
                "fmov s16, w16",
            ),
            (
                FInst::FromFp {
                    p: Prec::D,
                    rd: Reg(3),
                    vn: v(0),
                },
                "fmov x3, d0",
            ),
            (
                FInst::ToInt {
                    signed: false,
                    w: Width::W,
                    p: Prec::D,
                    rd: Reg(5),
                    vn: v(16),
                },
                "fcvtzu w5, d16",
            ),
            (
                FInst::OrCond {
                    rd: Reg(2),
                    cond: Cond::Mi,
                },
                "csinc w2, w2, wzr, pl",
            ),
            (
                FInst::StoreD {
                    vt: v(1),
                    mem: Mem::at(Reg::SP, 12),
                },
                "stur d1, [sp, #12]",
            ),
        ];
        for (inst, text) in cases {
            assert_eq!(inst.to_string(), text);
        }
    }
}
