//! AT&T (GNU as) text of [`super::inst::Inst`], shared by both x86 backends.
//!
//! Why it exists: printing an instruction is mechanical and the same for x86-64 and
//! i686; only the width of address registers differs (`(%rsp)` against `(%esp)`), so the
//! printer takes it as a parameter and knows nothing else about the target.
//!
//! Invariants: one instruction per line, a tab before the mnemonic, labels flush left
//! with a colon; every mnemonic carries its size suffix, so no line depends on gas
//! guessing a width from its operands.

use super::inst::{Base, CallTarget, Inst, Mem, Operand, ShiftAmount, Size};
use std::fmt::Write;

/// Prints instructions for a target whose addresses are `addr_bytes` wide (8 on x86-64,
/// 4 on i686).
#[derive(Clone, Copy, Debug)]
pub struct Printer {
    pub addr_bytes: u32,
}

impl Printer {
    /// Appends the text of every instruction of `insts` to `out`.
    pub fn print_all(self, insts: &[Inst], out: &mut String) {
        for inst in insts {
            self.print(inst, out);
        }
    }

    /// Appends the text of `inst` (one line, newline included) to `out`.
    pub fn print(self, inst: &Inst, out: &mut String) {
        let line = self.text(inst);
        match inst {
            Inst::Label(_) => out.push_str(&line),
            _ => {
                out.push('\t');
                out.push_str(&line);
            }
        }
        out.push('\n');
    }

    /// The text of `inst` without the leading tab and the newline.
    pub fn text(self, inst: &Inst) -> String {
        let op = |o: &Operand, size: Size| self.operand(o, size);
        match inst {
            Inst::Label(name) => format!("{name}:"),
            Inst::Directive(text) => text.clone(),
            Inst::Mov { size, src, dst } => {
                format!(
                    "mov{} {}, {}",
                    size.suffix(),
                    op(src, *size),
                    op(dst, *size)
                )
            }
            Inst::MovAbs { imm, dst } => format!("movabsq ${imm}, {}", dst.name(8)),
            Inst::MovSx { from, to, src, dst } => format!(
                "movs{}{} {}, {}",
                from.suffix(),
                to.suffix(),
                op(src, *from),
                dst.name(to.bytes())
            ),
            Inst::MovZx { from, to, src, dst } => {
                if *from == Size::L {
                    // Writing a 32-bit register clears the upper half: movl is the
                    // zero-extension from long to quad.
                    format!("movl {}, {}", op(src, Size::L), dst.name(4))
                } else {
                    format!(
                        "movz{}{} {}, {}",
                        from.suffix(),
                        to.suffix(),
                        op(src, *from),
                        dst.name(to.bytes())
                    )
                }
            }
            Inst::Lea { size, src, dst } => {
                format!(
                    "lea{} {}, {}",
                    size.suffix(),
                    self.mem(src),
                    dst.name(size.bytes())
                )
            }
            Inst::Alu {
                op: alu,
                size,
                src,
                dst,
            } => format!(
                "{}{} {}, {}",
                alu.mnemonic(),
                size.suffix(),
                op(src, *size),
                op(dst, *size)
            ),
            Inst::Imul { size, src, dst } => format!(
                "imul{} {}, {}",
                size.suffix(),
                op(src, *size),
                dst.name(size.bytes())
            ),
            Inst::MulWide { signed, size, src } => format!(
                "{}{} {}",
                if *signed { "imul" } else { "mul" },
                size.suffix(),
                op(src, *size)
            ),
            Inst::Unary { op: un, size, dst } => {
                format!("{}{} {}", un.mnemonic(), size.suffix(), op(dst, *size))
            }
            Inst::Shift {
                op: sh,
                size,
                amount,
                dst,
            } => format!(
                "{}{} {}, {}",
                sh.mnemonic(),
                size.suffix(),
                shift_amount(*amount),
                op(dst, *size)
            ),
            Inst::DoubleShift {
                left,
                size,
                amount,
                src,
                dst,
            } => format!(
                "{}{} {}, {}, {}",
                if *left { "shld" } else { "shrd" },
                size.suffix(),
                shift_amount(*amount),
                src.name(size.bytes()),
                op(dst, *size)
            ),
            Inst::Div { signed, size, src } => format!(
                "{}{} {}",
                if *signed { "idiv" } else { "div" },
                size.suffix(),
                op(src, *size)
            ),
            Inst::SignExtendAcc { size } => match size {
                Size::B => "cbtw".into(),
                Size::W => "cwtd".into(),
                Size::L => "cltd".into(),
                Size::Q => "cqto".into(),
            },
            Inst::SetCc { cc, dst } => format!("set{cc} {}", op(dst, Size::B)),
            Inst::Cmov { cc, size, src, dst } => format!(
                "cmov{cc}{} {}, {}",
                size.suffix(),
                op(src, *size),
                dst.name(size.bytes())
            ),
            Inst::Push { size, src } => format!("push{} {}", size.suffix(), op(src, *size)),
            Inst::Pop { size, dst } => format!("pop{} {}", size.suffix(), op(dst, *size)),
            Inst::Jmp(label) => format!("jmp {label}"),
            Inst::Jcc { cc, label } => format!("j{cc} {label}"),
            Inst::JmpIndirect(target) => format!("jmp *{}", op(target, self.addr_size())),
            Inst::Call(CallTarget::Symbol(sym)) => format!("call {sym}"),
            Inst::Call(CallTarget::Indirect(target)) => {
                format!("call *{}", op(target, self.addr_size()))
            }
            Inst::Ret => "ret".into(),
            Inst::RetPop(n) => format!("ret ${n}"),
            Inst::Leave => "leave".into(),
            Inst::Ud2 => "ud2".into(),
            Inst::Sse(sse) => self.sse_text(sse),
        }
    }

    fn addr_size(self) -> Size {
        Size::from_bytes(self.addr_bytes)
    }

    /// An operand at `size` (the size only matters for registers).
    pub fn operand(self, o: &Operand, size: Size) -> String {
        match o {
            Operand::Reg(r) => r.name(size.bytes()).to_string(),
            Operand::Imm(n) => format!("${n}"),
            Operand::SymAddr(sym, off) => format!("${}", symbol_plus(sym, *off)),
            Operand::Mem(m) => self.mem(m),
        }
    }

    /// `symbol+disp(base, index, scale)`.
    pub fn mem(self, m: &Mem) -> String {
        let mut s = match &m.symbol {
            Some(sym) => symbol_plus(sym, m.disp),
            None if m.disp != 0 || (m.base == Base::None && m.index.is_none()) => {
                m.disp.to_string()
            }
            None => String::new(),
        };
        let base = match m.base {
            Base::None => None,
            Base::Reg(r) => Some(r.name(self.addr_bytes).to_string()),
            Base::Rip => Some("%rip".to_string()),
        };
        if base.is_some() || m.index.is_some() {
            s.push('(');
            if let Some(b) = base {
                s.push_str(&b);
            }
            if let Some((index, scale)) = m.index {
                let _ = write!(s, ",{},{scale}", index.name(self.addr_bytes));
            }
            s.push(')');
        }
        s
    }
}

fn symbol_plus(sym: &str, off: i64) -> String {
    match off.cmp(&0) {
        std::cmp::Ordering::Equal => sym.to_string(),
        std::cmp::Ordering::Greater => format!("{sym}+{off}"),
        std::cmp::Ordering::Less => format!("{sym}{off}"),
    }
}

fn shift_amount(a: ShiftAmount) -> String {
    match a {
        ShiftAmount::Cl => "%cl".into(),
        ShiftAmount::Imm(n) => format!("${n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::inst::{AluOp, ShiftOp};
    use super::super::Reg;
    use super::*;

    const X64: Printer = Printer { addr_bytes: 8 };
    const X32: Printer = Printer { addr_bytes: 4 };

    #[test]
    fn operands_and_sizes() {
        let mov = Inst::Mov {
            size: Size::L,
            src: Operand::Imm(-1),
            dst: Operand::Mem(Mem::base_disp(Reg::Rsp, 16)),
        };
        assert_eq!(X64.text(&mov), "movl $-1, 16(%rsp)");
        assert_eq!(X32.text(&mov), "movl $-1, 16(%esp)");
        let lea = Inst::Lea {
            size: Size::Q,
            src: Mem::rip(".str.0", 0),
            dst: Reg::Rax,
        };
        assert_eq!(X64.text(&lea), "leaq .str.0(%rip), %rax");
        let sx = Inst::MovSx {
            from: Size::B,
            to: Size::Q,
            src: Operand::Mem(Mem::base_disp(Reg::R11, 0)),
            dst: Reg::Rax,
        };
        assert_eq!(X64.text(&sx), "movsbq (%r11), %rax");
        let zx = Inst::MovZx {
            from: Size::L,
            to: Size::Q,
            src: Operand::Reg(Reg::Rbx),
            dst: Reg::Rbx,
        };
        assert_eq!(X64.text(&zx), "movl %ebx, %ebx");
        let table = Mem {
            base: Base::Reg(Reg::Rcx),
            index: Some((Reg::Rax, 4)),
            disp: 0,
            symbol: None,
        };
        assert_eq!(X64.mem(&table), "(%rcx,%rax,4)");
        assert_eq!(X32.mem(&Mem::absolute("g", -4)), "g-4");
        let shift = Inst::Shift {
            op: ShiftOp::Sar,
            size: Size::W,
            amount: ShiftAmount::Cl,
            dst: Operand::Reg(Reg::Rax),
        };
        assert_eq!(X64.text(&shift), "sarw %cl, %ax");
        let cmp = Inst::Alu {
            op: AluOp::Cmp,
            size: Size::B,
            src: Operand::Imm(-128),
            dst: Operand::Reg(Reg::Rsi),
        };
        assert_eq!(X64.text(&cmp), "cmpb $-128, %sil");
    }
}
