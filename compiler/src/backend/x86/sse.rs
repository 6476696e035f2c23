//! The SSE2 (and the few x87) instructions both x86 backends use for floating point, and
//! their AT&T text.
//!
//! Why it exists: floats live where integers of their size live (their raw bits in a
//! general register or a stack slot; see `backend::x86::float`), so a float instruction
//! only *computes* in the XMM registers: it moves its operands' bits into scratch XMM
//! registers, computes, and moves the result's bits back. This file is the vocabulary for
//! that: moves between general registers (or memory) and XMM registers, the scalar SSE
//! arithmetic, comparison and conversions, and the x87 loads and stores that the i386
//! System V ABI needs for float results (`st(0)`) and that i686 uses for 64-bit integer
//! to float conversions (`fildll`).
//!
//! Invariants: an XMM register here is never allocated to a value (the register
//! allocator only knows general registers); every mnemonic names its width (`ss`/`sd`,
//! `l`/`q`, `s`/`l` for x87), so no line depends on gas guessing a width; a memory operand
//! is at most one of an instruction's operands.

use super::emit::Printer;
use super::inst::{Mem, Operand, Size};
use super::Reg;

/// An XMM register (`%xmm0`..`%xmm15`; i686 sees the first eight).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xmm(pub u8);

impl Xmm {
    pub fn name(self) -> String {
        format!("%xmm{}", self.0)
    }
}

/// Scalar SSE arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SseOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// One SSE2 or x87 instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sse {
    /// `movd` (`Size::L`) or `movq` (`Size::Q`) from a general register or memory into
    /// the low lane of an XMM register (the rest of the register is zeroed).
    ToXmm { size: Size, src: Operand, dst: Xmm },
    /// `movd` / `movq` from the low lane of an XMM register to a general register or
    /// memory (`movd` into a 32-bit register clears its upper half on x86-64).
    FromXmm { size: Size, src: Xmm, dst: Operand },
    /// `{add,sub,mul,div}s{s,d} src, dst`: `dst = dst op src`.
    Arith {
        op: SseOp,
        double: bool,
        src: Xmm,
        dst: Xmm,
    },
    /// `ucomis{s,d} src, dst`: compares `dst` with `src` (ZF PF CF = 111 unordered,
    /// 000 greater, 001 less, 100 equal).
    Ucomi { double: bool, src: Xmm, dst: Xmm },
    /// `cvtsi2s{s,d}{l,q} src, dst`: a signed integer of `size` to a float.
    IntToFloat {
        double: bool,
        size: Size,
        src: Operand,
        dst: Xmm,
    },
    /// `cvtts{s,d}2si src, dst`: a float to a signed integer of the register's width
    /// (`size`), truncating.
    FloatToInt {
        double: bool,
        size: Size,
        src: Xmm,
        dst: Reg,
    },
    /// `cvtss2sd` (`to_double`) or `cvtsd2ss`.
    FloatToFloat { to_double: bool, src: Xmm, dst: Xmm },
    /// `xorps src, dst`.
    Xor { src: Xmm, dst: Xmm },
    /// `psllq $n, dst`.
    ShiftLeftQuad { amount: u8, dst: Xmm },
    /// `punpckldq src, dst`: the low 32 bits of `src` become bits 32..64 of `dst`.
    UnpackLowDwords { src: Xmm, dst: Xmm },
    /// `flds` / `fldl mem`: push a float or double onto the x87 stack.
    X87Load { double: bool, src: Mem },
    /// `fildll mem`: push a signed 64-bit integer (exactly) onto the x87 stack.
    X87LoadInt64 { src: Mem },
    /// `fadds mem`: `st(0) += ` the float at `mem`.
    X87AddFloat { src: Mem },
    /// `fstps` / `fstpl mem`: pop `st(0)`, rounded once to the format, into memory.
    X87StorePop { double: bool, dst: Mem },
    /// `fstp %st(0)`: pop and discard (a float result nobody reads).
    X87Discard,
}

fn ps(double: bool) -> &'static str {
    if double {
        "sd"
    } else {
        "ss"
    }
}

impl Printer {
    /// The text of an SSE or x87 instruction.
    pub fn sse_text(self, inst: &Sse) -> String {
        let width_op = |o: &Operand, size: Size| self.operand(o, size);
        match inst {
            Sse::ToXmm { size, src, dst } => format!(
                "mov{} {}, {}",
                if *size == Size::Q { 'q' } else { 'd' },
                width_op(src, *size),
                dst.name()
            ),
            Sse::FromXmm { size, src, dst } => format!(
                "mov{} {}, {}",
                if *size == Size::Q { 'q' } else { 'd' },
                src.name(),
                width_op(dst, *size)
            ),
            Sse::Arith {
                op,
                double,
                src,
                dst,
            } => {
                let m = match op {
                    SseOp::Add => "add",
                    SseOp::Sub => "sub",
                    SseOp::Mul => "mul",
                    SseOp::Div => "div",
                };
                format!("{m}{} {}, {}", ps(*double), src.name(), dst.name())
            }
            Sse::Ucomi { double, src, dst } => {
                format!("ucomi{} {}, {}", ps(*double), src.name(), dst.name())
            }
            Sse::IntToFloat {
                double,
                size,
                src,
                dst,
            } => format!(
                "cvtsi2{}{} {}, {}",
                ps(*double),
                size.suffix(),
                width_op(src, *size),
                dst.name()
            ),
            Sse::FloatToInt {
                double,
                size,
                src,
                dst,
            } => format!(
                "cvtt{}2si {}, {}",
                ps(*double),
                src.name(),
                dst.name(size.bytes())
            ),
            Sse::FloatToFloat {
                to_double,
                src,
                dst,
            } => format!(
                "{} {}, {}",
                if *to_double { "cvtss2sd" } else { "cvtsd2ss" },
                src.name(),
                dst.name()
            ),
            Sse::Xor { src, dst } => format!("xorps {}, {}", src.name(), dst.name()),
            Sse::ShiftLeftQuad { amount, dst } => format!("psllq ${amount}, {}", dst.name()),
            Sse::UnpackLowDwords { src, dst } => {
                format!("punpckldq {}, {}", src.name(), dst.name())
            }
            Sse::X87Load { double, src } => {
                format!("fld{} {}", if *double { 'l' } else { 's' }, self.mem(src))
            }
            Sse::X87LoadInt64 { src } => format!("fildll {}", self.mem(src)),
            Sse::X87AddFloat { src } => format!("fadds {}", self.mem(src)),
            Sse::X87StorePop { double, dst } => {
                format!("fstp{} {}", if *double { 'l' } else { 's' }, self.mem(dst))
            }
            Sse::X87Discard => "fstp %st(0)".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_text_is_gnu_as_syntax() {
        let x64 = Printer { addr_bytes: 8 };
        let i686 = Printer { addr_bytes: 4 };
        let to = Sse::ToXmm {
            size: Size::Q,
            src: Operand::Reg(Reg::Rbx),
            dst: Xmm(1),
        };
        assert_eq!(x64.sse_text(&to), "movq %rbx, %xmm1");
        let from = Sse::FromXmm {
            size: Size::L,
            src: Xmm(0),
            dst: Operand::Mem(Mem::base_disp(Reg::Rsp, 8)),
        };
        assert_eq!(i686.sse_text(&from), "movd %xmm0, 8(%esp)");
        let cvt = Sse::IntToFloat {
            double: true,
            size: Size::Q,
            src: Operand::Reg(Reg::Rax),
            dst: Xmm(0),
        };
        assert_eq!(x64.sse_text(&cvt), "cvtsi2sdq %rax, %xmm0");
        let trunc = Sse::FloatToInt {
            double: false,
            size: Size::L,
            src: Xmm(0),
            dst: Reg::Rax,
        };
        assert_eq!(x64.sse_text(&trunc), "cvttss2si %xmm0, %eax");
        let st = Sse::X87StorePop {
            double: true,
            dst: Mem::base_disp(Reg::Rsp, 0),
        };
        assert_eq!(i686.sse_text(&st), "fstpl (%esp)");
    }
}
