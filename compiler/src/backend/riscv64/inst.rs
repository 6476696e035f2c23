//! RISC-V (RV64GC) machine instructions with concrete operands: what instruction
//! selection produces and [`super::emit`] prints.
//!
//! Why it exists: QBE's split, as for x86. Instruction selection decides *which*
//! instructions run (every operand a real register, an immediate or a label); printing
//! them is a separate, mechanical step, and so is the one rewrite that needs the whole
//! function's code: conditional branches whose target may be out of their ±4 KiB range
//! (`super::emit::expand_far_branches`).
//!
//! Only base instructions (and `call`, which the assembler expands to `auipc`+`jalr`)
//! appear: constants are built here from `lui`/`addi(w)`/`slli` (never the `li` pseudo),
//! so every upper/lower split of a number is phicc's own and can be tested.
//!
//! Invariants (the selector's to keep, the printer relies on them):
//! - an [`Inst::AluImm`] immediate fits its encoding: 12 bits signed for `addi`-like
//!   operations, `0..64` for 64-bit shifts and `0..32` for the 32-bit (`*w`) shifts;
//! - an [`Inst::Load`]/[`Inst::Store`] offset fits 12 bits signed;
//! - an [`Inst::Lui`] immediate is a 20-bit field (`0..=0xfffff`);
//! - a [`Inst::PcrelHi`] label is unique in the module and its [`Inst::PcrelLo`] follows
//!   it with no label in between (the `%pcrel_lo` names the `auipc`'s label).

use crate::backend::regalloc::PReg;
use std::fmt;

/// An integer register, by hardware number (`x0`..`x31`); the number is the [`PReg`] the
/// register allocator sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Reg {
    Zero = 0,
    Ra = 1,
    Sp = 2,
    Gp = 3,
    Tp = 4,
    T0 = 5,
    T1 = 6,
    T2 = 7,
    S0 = 8,
    S1 = 9,
    A0 = 10,
    A1 = 11,
    A2 = 12,
    A3 = 13,
    A4 = 14,
    A5 = 15,
    A6 = 16,
    A7 = 17,
    S2 = 18,
    S3 = 19,
    S4 = 20,
    S5 = 21,
    S6 = 22,
    S7 = 23,
    S8 = 24,
    S9 = 25,
    S10 = 26,
    S11 = 27,
    T3 = 28,
    T4 = 29,
    T5 = 30,
    T6 = 31,
}

impl Reg {
    /// Every register, by number.
    pub const ALL: [Reg; 32] = [
        Reg::Zero,
        Reg::Ra,
        Reg::Sp,
        Reg::Gp,
        Reg::Tp,
        Reg::T0,
        Reg::T1,
        Reg::T2,
        Reg::S0,
        Reg::S1,
        Reg::A0,
        Reg::A1,
        Reg::A2,
        Reg::A3,
        Reg::A4,
        Reg::A5,
        Reg::A6,
        Reg::A7,
        Reg::S2,
        Reg::S3,
        Reg::S4,
        Reg::S5,
        Reg::S6,
        Reg::S7,
        Reg::S8,
        Reg::S9,
        Reg::S10,
        Reg::S11,
        Reg::T3,
        Reg::T4,
        Reg::T5,
        Reg::T6,
    ];

    /// The ABI name (`a0`, `s1`, `t6`, ...), as GNU as accepts it.
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 32] = [
            "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3",
            "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
            "t3", "t4", "t5", "t6",
        ];
        NAMES[self as usize]
    }

    pub fn preg(self) -> PReg {
        PReg(self as u8)
    }

    /// The register the allocator's `p` names. Panics on a number above 31 (a register
    /// file of another target: a bug of the backend, never of the input).
    pub fn from_preg(p: PReg) -> Reg {
        Reg::ALL[p.0 as usize]
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Register-register operations (`op rd, rs1, rs2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Sll,
    Srl,
    Sra,
    Slt,
    Sltu,
    Mul,
    Div,
    Divu,
    Rem,
    Remu,
    Addw,
    Subw,
    Mulw,
    Divw,
    Divuw,
    Remw,
    Remuw,
    Sllw,
    Srlw,
    Sraw,
}

impl AluOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            AluOp::Add => "add",
            AluOp::Sub => "sub",
            AluOp::And => "and",
            AluOp::Or => "or",
            AluOp::Xor => "xor",
            AluOp::Sll => "sll",
            AluOp::Srl => "srl",
            AluOp::Sra => "sra",
            AluOp::Slt => "slt",
            AluOp::Sltu => "sltu",
            AluOp::Mul => "mul",
            AluOp::Div => "div",
            AluOp::Divu => "divu",
            AluOp::Rem => "rem",
            AluOp::Remu => "remu",
            AluOp::Addw => "addw",
            AluOp::Subw => "subw",
            AluOp::Mulw => "mulw",
            AluOp::Divw => "divw",
            AluOp::Divuw => "divuw",
            AluOp::Remw => "remw",
            AluOp::Remuw => "remuw",
            AluOp::Sllw => "sllw",
            AluOp::Srlw => "srlw",
            AluOp::Sraw => "sraw",
        }
    }
}

/// Register-immediate operations (`op rd, rs1, imm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluImmOp {
    Addi,
    Addiw,
    Andi,
    Ori,
    Xori,
    Slti,
    Sltiu,
    Slli,
    Srli,
    Srai,
    Slliw,
    Srliw,
    Sraiw,
}

impl AluImmOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            AluImmOp::Addi => "addi",
            AluImmOp::Addiw => "addiw",
            AluImmOp::Andi => "andi",
            AluImmOp::Ori => "ori",
            AluImmOp::Xori => "xori",
            AluImmOp::Slti => "slti",
            AluImmOp::Sltiu => "sltiu",
            AluImmOp::Slli => "slli",
            AluImmOp::Srli => "srli",
            AluImmOp::Srai => "srai",
            AluImmOp::Slliw => "slliw",
            AluImmOp::Srliw => "srliw",
            AluImmOp::Sraiw => "sraiw",
        }
    }

    /// True when `imm` fits this operation's immediate field.
    pub fn accepts(self, imm: i64) -> bool {
        match self {
            AluImmOp::Slli | AluImmOp::Srli | AluImmOp::Srai => (0..64).contains(&imm),
            AluImmOp::Slliw | AluImmOp::Srliw | AluImmOp::Sraiw => (0..32).contains(&imm),
            _ => fits_imm12(imm),
        }
    }
}

/// True when `v` fits a 12-bit signed immediate (`addi`, loads and stores).
pub fn fits_imm12(v: i64) -> bool {
    (-2048..2048).contains(&v)
}

/// Load widths: `lb lbu lh lhu lw lwu ld` (the `u` forms zero-extend, the others
/// sign-extend to 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadKind {
    B,
    Bu,
    H,
    Hu,
    W,
    Wu,
    D,
}

impl LoadKind {
    pub fn mnemonic(self) -> &'static str {
        match self {
            LoadKind::B => "lb",
            LoadKind::Bu => "lbu",
            LoadKind::H => "lh",
            LoadKind::Hu => "lhu",
            LoadKind::W => "lw",
            LoadKind::Wu => "lwu",
            LoadKind::D => "ld",
        }
    }
}

/// Store widths: `sb sh sw sd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreKind {
    B,
    H,
    W,
    D,
}

impl StoreKind {
    pub fn mnemonic(self) -> &'static str {
        match self {
            StoreKind::B => "sb",
            StoreKind::H => "sh",
            StoreKind::W => "sw",
            StoreKind::D => "sd",
        }
    }

    /// The store of `bytes` bytes (1, 2, 4; anything else stores 8).
    pub fn of_bytes(bytes: u32) -> StoreKind {
        match bytes {
            1 => StoreKind::B,
            2 => StoreKind::H,
            4 => StoreKind::W,
            _ => StoreKind::D,
        }
    }
}

/// Branch conditions of `b<cond> rs1, rs2, label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchCond {
    Eq,
    Ne,
    Lt,
    Ge,
    Ltu,
    Geu,
}

impl BranchCond {
    pub fn mnemonic(self) -> &'static str {
        match self {
            BranchCond::Eq => "beq",
            BranchCond::Ne => "bne",
            BranchCond::Lt => "blt",
            BranchCond::Ge => "bge",
            BranchCond::Ltu => "bltu",
            BranchCond::Geu => "bgeu",
        }
    }

    /// The condition that holds exactly when this one does not.
    pub fn inverse(self) -> BranchCond {
        match self {
            BranchCond::Eq => BranchCond::Ne,
            BranchCond::Ne => BranchCond::Eq,
            BranchCond::Lt => BranchCond::Ge,
            BranchCond::Ge => BranchCond::Lt,
            BranchCond::Ltu => BranchCond::Geu,
            BranchCond::Geu => BranchCond::Ltu,
        }
    }
}

/// One line of a function's code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// `name:`
    Label(String),
    /// An assembler directive, printed as is (jump table entries, alignment).
    Directive(String),
    /// `op rd, rs1, rs2`
    Alu {
        op: AluOp,
        rd: Reg,
        rs1: Reg,
        rs2: Reg,
    },
    /// `op rd, rs1, imm` (`addi rd, rs, 0` prints as `mv rd, rs`).
    AluImm {
        op: AluImmOp,
        rd: Reg,
        rs1: Reg,
        imm: i64,
    },
    /// `lui rd, imm20`: `rd = sign_extend(imm20 << 12)`.
    Lui { rd: Reg, imm20: u32 },
    /// `l{b,bu,h,hu,w,wu,d} rd, offset(base)`
    Load {
        kind: LoadKind,
        rd: Reg,
        base: Reg,
        offset: i64,
    },
    /// `s{b,h,w,d} src, offset(base)`
    Store {
        kind: StoreKind,
        src: Reg,
        base: Reg,
        offset: i64,
    },
    /// `b<cond> rs1, rs2, label` (±4 KiB; see `emit::expand_far_branches`).
    Branch {
        cond: BranchCond,
        rs1: Reg,
        rs2: Reg,
        label: String,
    },
    /// `j label` (`jal zero`, ±1 MiB; see `emit::expand_far_branches`).
    Jump(String),
    /// `jump label, t6` (`auipc t6` + `jr t6`: any distance, clobbers t6).
    FarJump(String),
    /// `jr rs`
    JumpReg(Reg),
    /// `call symbol` (`auipc ra` + `jalr ra`, any distance).
    Call(String),
    /// `jalr rs` (return address in `ra`).
    CallReg(Reg),
    /// `ret`
    Ret,
    /// `label: auipc rd, %pcrel_hi(symbol)`
    PcrelHi {
        rd: Reg,
        symbol: String,
        label: String,
    },
    /// `addi rd, rs1, %pcrel_lo(label)` (the label of the matching `auipc`).
    PcrelLo { rd: Reg, rs1: Reg, label: String },
    /// `ecall`
    Ecall,
    /// `unimp` (an illegal instruction: SIGILL).
    Unimp,
    /// A floating-point instruction (`super::float_inst`).
    Float(super::float_inst::FInst),
}

impl Inst {
    /// `mv rd, rs`
    pub fn mv(rd: Reg, rs: Reg) -> Inst {
        Inst::AluImm {
            op: AluImmOp::Addi,
            rd,
            rs1: rs,
            imm: 0,
        }
    }

    /// `op rd, rs1, rs2`
    pub fn alu(op: AluOp, rd: Reg, rs1: Reg, rs2: Reg) -> Inst {
        Inst::Alu { op, rd, rs1, rs2 }
    }

    /// `op rd, rs1, imm`
    pub fn imm(op: AluImmOp, rd: Reg, rs1: Reg, imm: i64) -> Inst {
        Inst::AluImm { op, rd, rs1, imm }
    }

    /// The most bytes this line can take in the object file (compressed forms only
    /// shrink it): what the far-branch rewrite measures distances with.
    pub fn max_bytes(&self) -> u64 {
        match self {
            Inst::Label(_) => 0,
            // Only jump-table entries and alignment are directives inside a function's
            // text, and a table lives in another section.
            Inst::Directive(_) => 0,
            Inst::Call(_) | Inst::FarJump(_) => 8,
            _ => 4,
        }
    }
}
