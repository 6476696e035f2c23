//! i686 machine instructions and their AT&T / GNU assembler text.
//!
//! Why it exists: instruction selection ([`super::isel`], [`super::wide`], [`super::abi`])
//! decides *what* to execute; this file alone decides how it is spelled. Keeping the
//! instructions as data (not strings) lets the selector reason about them (the last
//! comparison's flags, fall-through branches) and keeps the syntax in one place.
//!
//! Invariants: an [`MInst`] is printed as exactly one line (labels and directives
//! included); operand sizes are explicit in every mnemonic (`movl`, `cmpb`, ...), so the
//! assembler never guesses; a register operand is printed at the instruction's width, and
//! only eax, ecx, edx and ebx are ever printed at byte width (the selector guarantees it:
//! 32-bit code has no `%sil`/`%dil`).

use crate::backend::x86::{suffix, Reg};
use std::fmt;

/// A memory operand `sym+disp(base,index,scale)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mem {
    pub base: Option<Reg>,
    pub index: Option<(Reg, u8)>,
    pub disp: i64,
    pub sym: Option<String>,
}

impl Mem {
    /// `disp(base)`.
    pub fn based(base: Reg, disp: i64) -> Mem {
        Mem {
            base: Some(base),
            index: None,
            disp,
            sym: None,
        }
    }

    /// `sym+disp` (an absolute address: the code is not position-independent).
    pub fn symbol(sym: &str, disp: i64) -> Mem {
        Mem {
            base: None,
            index: None,
            disp,
            sym: Some(sym.to_string()),
        }
    }

    /// The same address plus `bytes`.
    pub fn offset(&self, bytes: i64) -> Mem {
        let mut m = self.clone();
        m.disp += bytes;
        m
    }
}

impl fmt::Display for Mem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.sym {
            Some(s) if self.disp > 0 => write!(f, "{s}+{}", self.disp)?,
            Some(s) if self.disp < 0 => write!(f, "{s}{}", self.disp)?,
            Some(s) => write!(f, "{s}")?,
            None if self.disp != 0 || (self.base.is_none() && self.index.is_none()) => {
                write!(f, "{}", self.disp)?
            }
            None => {}
        }
        if self.base.is_some() || self.index.is_some() {
            f.write_str("(")?;
            if let Some(b) = self.base {
                f.write_str(b.name(4))?;
            }
            if let Some((i, scale)) = self.index {
                write!(f, ",{},{scale}", i.name(4))?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opnd {
    Reg(Reg),
    /// `$N`: an immediate (already in the range the instruction's width accepts).
    Imm(i64),
    /// `$sym+off`: a symbol's address as an immediate.
    SymAddr(String, i64),
    Mem(Mem),
}

impl Opnd {
    /// The operand's text when the instruction is `bytes` wide.
    fn text(&self, bytes: u32) -> String {
        match self {
            Opnd::Reg(r) => r.name(bytes).to_string(),
            Opnd::Imm(v) => format!("${v}"),
            Opnd::SymAddr(s, 0) => format!("${s}"),
            Opnd::SymAddr(s, off) if *off > 0 => format!("${s}+{off}"),
            Opnd::SymAddr(s, off) => format!("${s}{off}"),
            Opnd::Mem(m) => m.to_string(),
        }
    }

    pub fn is_mem(&self) -> bool {
        matches!(self, Opnd::Mem(_))
    }

    pub fn is_imm(&self) -> bool {
        matches!(self, Opnd::Imm(_) | Opnd::SymAddr(..))
    }
}

/// Two-operand ALU instructions (`op src, dst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alu {
    Mov,
    Add,
    Adc,
    Sub,
    Sbb,
    And,
    Or,
    Xor,
    Cmp,
    Test,
    /// Two-operand `imul src, reg`.
    Imul,
}

impl Alu {
    fn mnemonic(self) -> &'static str {
        match self {
            Alu::Mov => "mov",
            Alu::Add => "add",
            Alu::Adc => "adc",
            Alu::Sub => "sub",
            Alu::Sbb => "sbb",
            Alu::And => "and",
            Alu::Or => "or",
            Alu::Xor => "xor",
            Alu::Cmp => "cmp",
            Alu::Test => "test",
            Alu::Imul => "imul",
        }
    }
}

/// One-operand instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    Neg,
    Not,
    /// Unsigned widening multiply of the accumulator (`mull`: edx:eax = eax * op).
    Mul,
    /// Unsigned divide of the accumulator pair.
    Div,
    /// Signed divide of the accumulator pair.
    Idiv,
}

impl Unary {
    fn mnemonic(self) -> &'static str {
        match self {
            Unary::Neg => "neg",
            Unary::Not => "not",
            Unary::Mul => "mul",
            Unary::Div => "div",
            Unary::Idiv => "idiv",
        }
    }
}

/// Shift instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    Shl,
    Shr,
    Sar,
}

impl Shift {
    fn mnemonic(self) -> &'static str {
        match self {
            Shift::Shl => "shl",
            Shift::Shr => "shr",
            Shift::Sar => "sar",
        }
    }
}

/// A shift count: `%cl` or an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Cl,
    Imm(u8),
}

impl Count {
    fn text(self) -> String {
        match self {
            Count::Cl => "%cl".into(),
            Count::Imm(n) => format!("${n}"),
        }
    }
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallTarget {
    Symbol(String),
    /// `call *op` (a register or a memory word holding the address).
    Indirect(Opnd),
}

/// One line of i686 assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MInst {
    /// `op{size} src, dst`.
    Alu {
        op: Alu,
        bytes: u32,
        src: Opnd,
        dst: Opnd,
    },
    /// `op{size} operand`.
    Unary {
        op: Unary,
        bytes: u32,
        operand: Opnd,
    },
    /// `shl/shr/sar{size} count, dst`.
    Shift {
        op: Shift,
        bytes: u32,
        count: Count,
        dst: Opnd,
    },
    /// `shldl count, src, dst` (left: dst's high bits take src's) or `shrdl`.
    DoubleShift {
        left: bool,
        count: Count,
        src: Reg,
        dst: Reg,
    },
    /// `imull $imm, src, dst`.
    ImulImm {
        imm: i64,
        src: Opnd,
        dst: Reg,
    },
    /// `movs/movz{b,w}l src, dst`: extends the low `from` bytes of `src`.
    Extend {
        signed: bool,
        from: u32,
        src: Opnd,
        dst: Reg,
    },
    /// `leal addr, dst`.
    Lea {
        addr: Mem,
        dst: Reg,
    },
    /// `cbtw` (bytes 1: al -> ax), `cwtd` (2: ax -> dx:ax), `cltd` (4: eax -> edx:eax).
    SignExtendAcc {
        bytes: u32,
    },
    /// `set<cc> dst` (the low byte of dst, which must have a byte name).
    Set {
        cc: &'static str,
        dst: Reg,
    },
    /// `cmov<cc>l src, dst`.
    Cmov {
        cc: &'static str,
        src: Opnd,
        dst: Reg,
    },
    Jmp(String),
    Jcc {
        cc: &'static str,
        label: String,
    },
    /// `jmp *table(,index,4)`.
    JumpTable {
        table: String,
        index: Reg,
    },
    Label(String),
    Call(CallTarget),
    Push(Reg),
    Pop(Reg),
    Ret,
    Ud2,
    /// `rep movs{b,w,l}` (esi -> edi, ecx units).
    RepMovs {
        bytes: u32,
    },
    /// An assembler directive, printed as is after a tab.
    Directive(String),
}

impl fmt::Display for MInst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MInst::Alu {
                op,
                bytes,
                src,
                dst,
            } => write!(
                f,
                "\t{}{} {}, {}",
                op.mnemonic(),
                suffix(*bytes),
                src.text(*bytes),
                dst.text(*bytes)
            ),
            MInst::Unary { op, bytes, operand } => write!(
                f,
                "\t{}{} {}",
                op.mnemonic(),
                suffix(*bytes),
                operand.text(*bytes)
            ),
            MInst::Shift {
                op,
                bytes,
                count,
                dst,
            } => write!(
                f,
                "\t{}{} {}, {}",
                op.mnemonic(),
                suffix(*bytes),
                count.text(),
                dst.text(*bytes)
            ),
            MInst::DoubleShift {
                left,
                count,
                src,
                dst,
            } => write!(
                f,
                "\t{} {}, {}, {}",
                if *left { "shldl" } else { "shrdl" },
                count.text(),
                src.name(4),
                dst.name(4)
            ),
            MInst::ImulImm { imm, src, dst } => {
                write!(f, "\timull ${imm}, {}, {}", src.text(4), dst.name(4))
            }
            MInst::Extend {
                signed,
                from,
                src,
                dst,
            } => write!(
                f,
                "\tmov{}{}l {}, {}",
                if *signed { 's' } else { 'z' },
                suffix(*from),
                src.text(*from),
                dst.name(4)
            ),
            MInst::Lea { addr, dst } => write!(f, "\tleal {addr}, {}", dst.name(4)),
            MInst::SignExtendAcc { bytes } => f.write_str(match bytes {
                1 => "\tcbtw",
                2 => "\tcwtd",
                _ => "\tcltd",
            }),
            MInst::Set { cc, dst } => write!(f, "\tset{cc} {}", dst.name(1)),
            MInst::Cmov { cc, src, dst } => {
                write!(f, "\tcmov{cc}l {}, {}", src.text(4), dst.name(4))
            }
            MInst::Jmp(l) => write!(f, "\tjmp {l}"),
            MInst::Jcc { cc, label } => write!(f, "\tj{cc} {label}"),
            MInst::JumpTable { table, index } => {
                write!(f, "\tjmp *{table}(,{},4)", index.name(4))
            }
            MInst::Label(l) => write!(f, "{l}:"),
            MInst::Call(CallTarget::Symbol(s)) => write!(f, "\tcall {s}"),
            MInst::Call(CallTarget::Indirect(op)) => write!(f, "\tcall *{}", op.text(4)),
            MInst::Push(r) => write!(f, "\tpushl {}", r.name(4)),
            MInst::Pop(r) => write!(f, "\tpopl {}", r.name(4)),
            MInst::Ret => f.write_str("\tret"),
            MInst::Ud2 => f.write_str("\tud2"),
            MInst::RepMovs { bytes } => write!(f, "\trep movs{}", suffix(*bytes)),
            MInst::Directive(d) => write!(f, "\t{d}"),
        }
    }
}

/// The condition code that is true exactly when `cc` is false.
pub fn invert_cc(cc: &'static str) -> &'static str {
    match cc {
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
        "s" => "ns",
        "ns" => "s",
        other => panic!("invert_cc: unknown condition code {other}"),
    }
}

/// Appends the text of `insts`, one per line, to `out`.
pub fn write_insts(insts: &[MInst], out: &mut String) {
    use std::fmt::Write;
    for inst in insts {
        let _ = writeln!(out, "{inst}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_print_in_att_syntax() {
        let m = Mem {
            base: Some(Reg::Rax),
            index: Some((Reg::Rcx, 4)),
            disp: -8,
            sym: None,
        };
        assert_eq!(m.to_string(), "-8(%eax,%ecx,4)");
        assert_eq!(Mem::based(Reg::Rsp, 0).to_string(), "(%esp)");
        assert_eq!(Mem::symbol("g", 4).to_string(), "g+4");
        assert_eq!(Mem::symbol("g", 0).offset(-2).to_string(), "g-2");
        let store_byte = MInst::Alu {
            op: Alu::Mov,
            bytes: 1,
            src: Opnd::Reg(Reg::Rcx),
            dst: Opnd::Mem(Mem::based(Reg::Rsp, 12)),
        };
        assert_eq!(store_byte.to_string(), "\tmovb %cl, 12(%esp)");
        let ext = MInst::Extend {
            signed: true,
            from: 2,
            src: Opnd::Mem(Mem::based(Reg::Rbp, 8)),
            dst: Reg::Rax,
        };
        assert_eq!(ext.to_string(), "\tmovswl 8(%ebp), %eax");
        assert_eq!(
            MInst::JumpTable {
                table: ".L0_table1".into(),
                index: Reg::Rax
            }
            .to_string(),
            "\tjmp *.L0_table1(,%eax,4)"
        );
    }

    #[test]
    fn inverted_condition_codes_are_involutions() {
        for cc in ["e", "ne", "l", "ge", "le", "g", "b", "ae", "be", "a"] {
            assert_eq!(invert_cc(invert_cc(cc)), cc);
            assert_ne!(invert_cc(cc), cc);
        }
    }
}
