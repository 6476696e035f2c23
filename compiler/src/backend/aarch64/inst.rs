//! AArch64 machine instructions with concrete operands: what instruction selection
//! produces and [`super::emit`] prints.
//!
//! Why it exists: QBE's split, as for x86. Instruction selection decides *which*
//! instructions run (every operand a real register, an encodable immediate or an
//! addressing mode); printing GNU assembler text is a separate, mechanical step, and a
//! test can look at the selected instructions.
//!
//! Invariants (the selector keeps them, the printer relies on them):
//! - register numbers 0..=30 are x0..x30; [`Reg::SP`] and [`Reg::ZR`] are the two
//!   meanings of encoding 31, told apart here so the printer never guesses;
//! - every immediate fits its instruction's encoding: add/sub 12 bits (optionally
//!   shifted by 12), logical immediates are valid bitmask immediates
//!   (`super::imm::is_logical_imm`), `movz/movn/movk` take a 16-bit chunk and a shift
//!   that is a multiple of 16 below the register width, shift amounts are below the
//!   width;
//! - a [`Mem::Offset`] offset is encodable for its access size either scaled
//!   (`0 <= off < 4096 * size`, a multiple of size) or unscaled (`-256 <= off < 256`);
//!   [`Mem::PostIndex`]/[`Mem::PreIndex`] offsets are in `-256..256` (`stp`/`ldp`: a
//!   multiple of 8 in `-512..512`).

use std::fmt;

/// A general-purpose register (x0..x30), the stack pointer or the zero register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u8);

impl Reg {
    /// The stack pointer (encoding 31 where an instruction reads it as sp).
    pub const SP: Reg = Reg(31);
    /// The zero register (encoding 31 where an instruction reads it as zr).
    pub const ZR: Reg = Reg(32);
    /// The frame pointer x29.
    pub const FP: Reg = Reg(29);
    /// The link register x30.
    pub const LR: Reg = Reg(30);

    /// `x<n>`.
    pub const fn x(n: u8) -> Reg {
        Reg(n)
    }

    /// The register's name at width `w` (`x5`/`w5`, `sp`/`wsp`, `xzr`/`wzr`).
    pub fn name(self, w: Width) -> String {
        match (self, w) {
            (Reg::SP, Width::X) => "sp".into(),
            (Reg::SP, Width::W) => "wsp".into(),
            (Reg::ZR, Width::X) => "xzr".into(),
            (Reg::ZR, Width::W) => "wzr".into(),
            (Reg(n), Width::X) => format!("x{n}"),
            (Reg(n), Width::W) => format!("w{n}"),
        }
    }
}

/// The width an instruction works at: the 32-bit `w` view or the 64-bit `x` view. Every
/// instruction writing a `w` register clears the upper 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    W,
    X,
}

impl Width {
    /// `X` for 8-byte types, `W` for everything narrower.
    pub fn for_bytes(bytes: u32) -> Width {
        if bytes > 4 {
            Width::X
        } else {
            Width::W
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            Width::W => 32,
            Width::X => 64,
        }
    }
}

/// A condition code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    Eq,
    Ne,
    /// Signed less than.
    Lt,
    Le,
    Gt,
    Ge,
    /// Unsigned lower.
    Lo,
    /// Unsigned lower or same.
    Ls,
    /// Unsigned higher.
    Hi,
    /// Unsigned higher or same.
    Hs,
    /// Negative (after `fcmp`: less than).
    Mi,
    /// Positive or zero (after `fcmp`: greater, equal or unordered).
    Pl,
    /// Overflow (after `fcmp`: unordered).
    Vs,
    /// No overflow (after `fcmp`: ordered).
    Vc,
}

impl Cond {
    /// The condition that holds exactly when `self` does not.
    pub fn invert(self) -> Cond {
        match self {
            Cond::Eq => Cond::Ne,
            Cond::Ne => Cond::Eq,
            Cond::Lt => Cond::Ge,
            Cond::Ge => Cond::Lt,
            Cond::Le => Cond::Gt,
            Cond::Gt => Cond::Le,
            Cond::Lo => Cond::Hs,
            Cond::Hs => Cond::Lo,
            Cond::Ls => Cond::Hi,
            Cond::Hi => Cond::Ls,
            Cond::Mi => Cond::Pl,
            Cond::Pl => Cond::Mi,
            Cond::Vs => Cond::Vc,
            Cond::Vc => Cond::Vs,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cond::Eq => "eq",
            Cond::Ne => "ne",
            Cond::Lt => "lt",
            Cond::Le => "le",
            Cond::Gt => "gt",
            Cond::Ge => "ge",
            Cond::Lo => "lo",
            Cond::Ls => "ls",
            Cond::Hi => "hi",
            Cond::Hs => "hs",
            Cond::Mi => "mi",
            Cond::Pl => "pl",
            Cond::Vs => "vs",
            Cond::Vc => "vc",
        }
    }
}

/// Three-register operations `op rd, rn, rm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op3 {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    And,
    Orr,
    Eor,
    /// Shifts by a register amount (`lslv` and friends; the amount is taken modulo the
    /// width).
    Lsl,
    Lsr,
    Asr,
}

impl Op3 {
    pub fn mnemonic(self) -> &'static str {
        match self {
            Op3::Add => "add",
            Op3::Sub => "sub",
            Op3::Mul => "mul",
            Op3::SDiv => "sdiv",
            Op3::UDiv => "udiv",
            Op3::And => "and",
            Op3::Orr => "orr",
            Op3::Eor => "eor",
            Op3::Lsl => "lsl",
            Op3::Lsr => "lsr",
            Op3::Asr => "asr",
        }
    }
}

/// Operations with an immediate `op rd, rn, #imm`: add/sub take a 12-bit immediate,
/// optionally shifted left by 12; the logical ones a bitmask immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpImm {
    Add,
    Sub,
    And,
    Orr,
    Eor,
}

impl OpImm {
    pub fn mnemonic(self) -> &'static str {
        match self {
            OpImm::Add => "add",
            OpImm::Sub => "sub",
            OpImm::And => "and",
            OpImm::Orr => "orr",
            OpImm::Eor => "eor",
        }
    }
}

/// Shifts by an immediate amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    Lsl,
    Lsr,
    Asr,
}

impl ShiftOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            ShiftOp::Lsl => "lsl",
            ShiftOp::Lsr => "lsr",
            ShiftOp::Asr => "asr",
        }
    }
}

/// Extensions of the low bits of a register. The signed ones write the whole `x`
/// register; the unsigned ones write the `w` register (which clears the upper half), so
/// both leave a 64-bit canonical value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ext {
    Sxtb,
    Sxth,
    Sxtw,
    Uxtb,
    Uxth,
    /// Zero-extension of the low 32 bits: `mov wd, wn`.
    Uxtw,
}

/// `movz` (zeros elsewhere), `movn` (ones elsewhere, the chunk inverted), `movk` (keep
/// the other bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovWideOp {
    Movz,
    Movn,
    Movk,
}

/// A memory operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mem {
    /// `[base, #off]` (the printer picks the scaled or the unscaled form).
    Offset { base: Reg, off: i64 },
    /// `[base, index]`: base plus a 64-bit register offset.
    Indexed { base: Reg, index: Reg },
    /// `[base], #off`: access at base, then base += off.
    PostIndex { base: Reg, off: i64 },
    /// `[base, #off]!`: base += off, then access at base.
    PreIndex { base: Reg, off: i64 },
}

impl Mem {
    pub fn at(base: Reg, off: i64) -> Mem {
        Mem::Offset { base, off }
    }
}

/// An AArch64 instruction, a label or an assembler directive.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    Label(String),
    Directive(String),
    /// `op rd, rn, rm` at width `w`.
    Op3 {
        op: Op3,
        w: Width,
        rd: Reg,
        rn: Reg,
        rm: Reg,
    },
    /// `op rd, rn, #imm` at width `w` (the immediate fits its encoding).
    OpImm {
        op: OpImm,
        w: Width,
        rd: Reg,
        rn: Reg,
        imm: u64,
    },
    /// `op rd, rn, #amount` (amount below the width).
    ShiftImm {
        op: ShiftOp,
        w: Width,
        rd: Reg,
        rn: Reg,
        amount: u32,
    },
    /// `msub rd, rn, rm, ra`: rd = ra - rn * rm.
    Msub {
        w: Width,
        rd: Reg,
        rn: Reg,
        rm: Reg,
        ra: Reg,
    },
    /// `neg rd, rm`.
    Neg {
        w: Width,
        rd: Reg,
        rm: Reg,
    },
    /// `mvn rd, rm` (bitwise not).
    Mvn {
        w: Width,
        rd: Reg,
        rm: Reg,
    },
    /// An extension of `rn`'s low bits into `rd`.
    Ext {
        ext: Ext,
        rd: Reg,
        rn: Reg,
    },
    /// `mov rd, rn` (a register copy; either may be sp).
    Mov {
        w: Width,
        rd: Reg,
        rn: Reg,
    },
    /// `movz/movn/movk rd, #imm16, lsl #shift`.
    MovWide {
        op: MovWideOp,
        w: Width,
        rd: Reg,
        imm16: u16,
        shift: u32,
    },
    /// `cmp rn, rm`.
    Cmp {
        w: Width,
        rn: Reg,
        rm: Reg,
    },
    /// `cmp rn, #imm` or, `negated`, `cmn rn, #imm` (compares with -imm).
    CmpImm {
        w: Width,
        rn: Reg,
        imm: u64,
        negated: bool,
    },
    /// `cset wd, cond`.
    Cset {
        rd: Reg,
        cond: Cond,
    },
    /// `csel rd, rn, rm, cond`: rd = cond ? rn : rm.
    Csel {
        w: Width,
        rd: Reg,
        rn: Reg,
        rm: Reg,
        cond: Cond,
    },
    /// A load of `bytes` (1, 2, 4, 8) bytes into `rt`: sign-extended to 64 bits when
    /// `signed` (`ldrsb/ldrsh/ldrsw xt`), else zero-extended (`ldrb/ldrh/ldr wt`, `ldr xt`).
    Load {
        bytes: u32,
        signed: bool,
        rt: Reg,
        mem: Mem,
    },
    /// A store of the low `bytes` bytes of `rt`.
    Store {
        bytes: u32,
        rt: Reg,
        mem: Mem,
    },
    /// `stp x1, x2, mem` (x1 at the lower address).
    Stp {
        rt1: Reg,
        rt2: Reg,
        mem: Mem,
    },
    /// `ldp x1, x2, mem`.
    Ldp {
        rt1: Reg,
        rt2: Reg,
        mem: Mem,
    },
    /// `adrp rd, sym` (the 4 KiB page of `sym`).
    Adrp {
        rd: Reg,
        sym: String,
    },
    /// `add rd, rn, :lo12:sym`.
    AddLo12 {
        rd: Reg,
        rn: Reg,
        sym: String,
    },
    /// `adr rd, label` (within ±1 MiB).
    Adr {
        rd: Reg,
        label: String,
    },
    /// `b label`.
    B(String),
    /// `b.cond label`.
    BCond {
        cond: Cond,
        label: String,
    },
    /// `cbz rt, label`, or `cbnz` when `nonzero`.
    Cbz {
        w: Width,
        rt: Reg,
        nonzero: bool,
        label: String,
    },
    /// `bl sym`.
    Bl(String),
    /// `blr rn`.
    Blr(Reg),
    /// `br rn`.
    Br(Reg),
    Ret,
    /// `udf #0`: SIGILL.
    Udf,
    /// `svc #0`: a Linux system call (number in x8).
    Svc,
    /// A floating-point instruction (`super::float_inst`).
    Float(super::float_inst::FInst),
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
