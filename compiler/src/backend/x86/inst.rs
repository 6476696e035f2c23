//! x86 machine instructions with concrete operands: what instruction selection produces
//! and [`super::emit`] prints, for both x86 backends (x86-64 and i686).
//!
//! Why it exists: QBE's split. Instruction selection decides *which* instructions run
//! (a `Vec<Inst>` per function, every operand a real register, an immediate or a memory
//! reference); the text form is a separate, mechanical step. Keeping the two apart lets a
//! test look at the selected instructions, and lets i686 and x86-64 share one printer of
//! AT&T syntax: they differ in which registers and sizes they use, not in how an
//! instruction is written.
//!
//! Invariants (the selector's to keep, the printer relies on them):
//! - an instruction's [`Size`] names the width of its register operands; the two-size
//!   extensions ([`Inst::MovSx`], [`Inst::MovZx`]) carry both widths;
//! - at most one operand of an instruction is a memory reference (x86 encodes no more);
//! - an immediate fits the instruction's encoding (a 32-bit sign-extended immediate for
//!   64-bit operations; [`Inst::MovAbs`] for anything wider);
//! - condition codes are the suffixes `super::condition_code` returns (`e`, `l`, `b`, ...).

use super::Reg;

/// An operand width: byte, word, long (32 bits), quad (64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    B,
    W,
    L,
    Q,
}

impl Size {
    /// The size of `bytes` bytes (1, 2, 4 or 8; anything else is a bug of the caller and
    /// reads as 8).
    pub fn from_bytes(bytes: u32) -> Size {
        match bytes {
            1 => Size::B,
            2 => Size::W,
            4 => Size::L,
            _ => Size::Q,
        }
    }

    pub fn bytes(self) -> u32 {
        match self {
            Size::B => 1,
            Size::W => 2,
            Size::L => 4,
            Size::Q => 8,
        }
    }

    /// The AT&T suffix (`b`, `w`, `l`, `q`).
    pub fn suffix(self) -> char {
        super::suffix(self.bytes())
    }
}

/// What a memory reference is relative to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// No base register: an absolute address (`sym+disp`, i686's globals).
    None,
    /// A base register: `disp(%reg)`.
    Reg(Reg),
    /// The instruction pointer: `sym+disp(%rip)` (x86-64's globals).
    Rip,
}

/// A memory reference `symbol+disp(base, index, scale)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mem {
    pub base: Base,
    /// An index register and its scale (1, 2, 4 or 8).
    pub index: Option<(Reg, u8)>,
    pub disp: i64,
    /// A symbol the displacement is relative to (a global, a function, a jump table).
    pub symbol: Option<String>,
}

impl Mem {
    /// `disp(%reg)`.
    pub fn base_disp(base: Reg, disp: i64) -> Mem {
        Mem {
            base: Base::Reg(base),
            index: None,
            disp,
            symbol: None,
        }
    }

    /// `symbol+disp(%rip)`.
    pub fn rip(symbol: &str, disp: i64) -> Mem {
        Mem {
            base: Base::Rip,
            index: None,
            disp,
            symbol: Some(symbol.to_string()),
        }
    }

    /// `symbol+disp` (absolute).
    pub fn absolute(symbol: &str, disp: i64) -> Mem {
        Mem {
            base: Base::None,
            index: None,
            disp,
            symbol: Some(symbol.to_string()),
        }
    }

    /// The same reference `delta` bytes further on.
    pub fn offset_by(&self, delta: i64) -> Mem {
        Mem {
            disp: self.disp + delta,
            ..self.clone()
        }
    }
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register, named at the instruction's size.
    Reg(Reg),
    /// An immediate `$n` (it must fit the instruction's encoding).
    Imm(i64),
    /// The address of a symbol as an immediate, `$sym+off` (absolute; i686).
    SymAddr(String, i64),
    Mem(Mem),
}

impl From<Reg> for Operand {
    fn from(r: Reg) -> Operand {
        Operand::Reg(r)
    }
}

impl From<Mem> for Operand {
    fn from(m: Mem) -> Operand {
        Operand::Mem(m)
    }
}

/// Two-operand integer operations `op src, dst` (`dst = dst op src`; `cmp` and `test`
/// only set the flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    Add,
    Adc,
    Sub,
    Sbb,
    And,
    Or,
    Xor,
    Cmp,
    Test,
}

impl AluOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            AluOp::Add => "add",
            AluOp::Adc => "adc",
            AluOp::Sub => "sub",
            AluOp::Sbb => "sbb",
            AluOp::And => "and",
            AluOp::Or => "or",
            AluOp::Xor => "xor",
            AluOp::Cmp => "cmp",
            AluOp::Test => "test",
        }
    }
}

/// One-operand read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
    Inc,
    Dec,
}

impl UnaryOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Not => "not",
            UnaryOp::Inc => "inc",
            UnaryOp::Dec => "dec",
        }
    }
}

/// Shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    Shl,
    /// Arithmetic right shift.
    Sar,
    /// Logical right shift.
    Shr,
}

impl ShiftOp {
    pub fn mnemonic(self) -> &'static str {
        match self {
            ShiftOp::Shl => "shl",
            ShiftOp::Sar => "sar",
            ShiftOp::Shr => "shr",
        }
    }
}

/// A shift amount: `%cl` or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftAmount {
    Cl,
    Imm(u8),
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CallTarget {
    /// `call sym`
    Symbol(String),
    /// `call *operand` (a register or a memory reference holding the address).
    Indirect(Operand),
}

/// One x86 instruction (or a label or assembler directive in the instruction stream).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// `name:`
    Label(String),
    /// A raw assembler line (section switches, jump-table entries), printed as is after a
    /// tab.
    Directive(String),
    /// `mov{s} src, dst`
    Mov {
        size: Size,
        src: Operand,
        dst: Operand,
    },
    /// `movabsq $imm, %dst`: a 64-bit immediate (x86-64 only).
    MovAbs {
        imm: i64,
        dst: Reg,
    },
    /// `movs{from}{to} src, %dst`: sign-extend (`movslq` for long to quad).
    MovSx {
        from: Size,
        to: Size,
        src: Operand,
        dst: Reg,
    },
    /// `movz{from}{to} src, %dst`: zero-extend from a byte or word (a long zero-extends
    /// to a quad by a plain `movl`).
    MovZx {
        from: Size,
        to: Size,
        src: Operand,
        dst: Reg,
    },
    /// `lea{s} mem, %dst`
    Lea {
        size: Size,
        src: Mem,
        dst: Reg,
    },
    /// `op{s} src, dst`
    Alu {
        op: AluOp,
        size: Size,
        src: Operand,
        dst: Operand,
    },
    /// `imul{s} src, %dst` (two-operand, truncating multiply).
    Imul {
        size: Size,
        src: Operand,
        dst: Reg,
    },
    /// `mul{s} src` / `imul{s} src`: widening multiply of the accumulator into
    /// `dx:ax` (`edx:eax`, `rdx:rax`).
    MulWide {
        signed: bool,
        size: Size,
        src: Operand,
    },
    /// `op{s} dst`
    Unary {
        op: UnaryOp,
        size: Size,
        dst: Operand,
    },
    /// `op{s} $n|%cl, dst`
    Shift {
        op: ShiftOp,
        size: Size,
        amount: ShiftAmount,
        dst: Operand,
    },
    /// `shld{s}` (left: true) or `shrd{s}` `$n|%cl, %src, dst`: double-precision shifts.
    DoubleShift {
        left: bool,
        size: Size,
        amount: ShiftAmount,
        src: Reg,
        dst: Operand,
    },
    /// `idiv{s} src` (signed) or `div{s} src`: divides `ah:al` / `dx:ax` / `edx:eax` /
    /// `rdx:rax` by src; traps (#DE, SIGFPE) on a zero divisor or a quotient that does
    /// not fit the size.
    Div {
        signed: bool,
        size: Size,
        src: Operand,
    },
    /// Sign-extends the accumulator into its high half: `cbtw` (al -> ax), `cwtd`
    /// (ax -> dx:ax), `cltd` (eax -> edx:eax), `cqto` (rax -> rdx:rax).
    SignExtendAcc {
        size: Size,
    },
    /// `set<cc> dst` (a byte register or byte of memory).
    SetCc {
        cc: &'static str,
        dst: Operand,
    },
    /// `cmov<cc>{s} src, %dst` (16, 32 or 64 bits).
    Cmov {
        cc: &'static str,
        size: Size,
        src: Operand,
        dst: Reg,
    },
    /// `push{s} src`
    Push {
        size: Size,
        src: Operand,
    },
    /// `pop{s} dst`
    Pop {
        size: Size,
        dst: Operand,
    },
    /// `jmp label`
    Jmp(String),
    /// `j<cc> label`
    Jcc {
        cc: &'static str,
        label: String,
    },
    /// `jmp *operand`
    JmpIndirect(Operand),
    Call(CallTarget),
    Ret,
    /// `ret $N`: returns and pops N bytes of arguments (i686's hidden result pointer).
    RetPop(u16),
    Leave,
    /// `ud2`: raises SIGILL (the IR's `unreachable`).
    Ud2,
    /// A floating-point instruction (`super::sse`).
    Sse(super::sse::Sse),
}
