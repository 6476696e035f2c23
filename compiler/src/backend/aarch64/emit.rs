//! GNU assembler text for AArch64: each function's selected instructions between its
//! symbol directives, and the module's trailer.
//!
//! Why it exists: instruction selection produces [`Inst`]s with concrete operands; this
//! file only writes them down (mnemonics, register names at the instruction's width,
//! addressing modes) and decides where they go.
//!
//! Invariants:
//! - a function is `.globl` unless `static`, and has `.type` and `.size`;
//! - a memory offset is printed in the form that encodes it (`ldr` scaled, `ldur`
//!   unscaled — the selector only builds offsets one of them takes);
//! - conditional branches (`b.cond`, `cbz`, `cbnz`) reach ±1 MiB; in a function too long
//!   for that to be certain ([`LONG_BRANCH_WORDS`]), each is printed as the inverted
//!   branch over an unconditional `b` (±128 MiB), so a huge function still assembles
//!   and branches where it should;
//! - the module ends with a `.note.GNU-stack` section (the stack is not executable).

use super::inst::{Ext, Inst, Mem, MovWideOp, OpImm, Reg, Width};
use crate::ir::IrFunction;
use std::fmt::Write;

/// Functions of more instruction words than this get long conditional branches (the
/// short ones reach 2^18 words either way; the margin covers the trap stub and tables).
const LONG_BRANCH_WORDS: usize = 200_000;

/// Appends the text of one function to `out`.
pub(super) fn emit_function(func: &IrFunction, code: &[Inst], out: &mut String) {
    let name = &func.name;
    let _ = writeln!(out, "\t.text");
    if !func.attrs.is_static {
        let _ = writeln!(out, "\t.globl {name}");
    }
    let _ = writeln!(out, "\t.type {name}, %function");
    let _ = writeln!(
        out,
        "\t.p2align {}",
        crate::backend::function_p2align(func, 2)
    );
    let _ = writeln!(out, "{name}:");
    let words = code.iter().filter(|i| !matches!(i, Inst::Label(_))).count();
    let printer = Printer {
        long_branches: words > LONG_BRANCH_WORDS,
    };
    for inst in code {
        printer.print(inst, out);
    }
    let _ = writeln!(out, "\t.size {name}, .-{name}");
}

/// The last lines of every module.
pub(super) fn emit_trailer(out: &mut String) {
    let _ = writeln!(out, "\t.section .note.GNU-stack,\"\",%progbits");
}

/// Prints instructions; `long_branches` as the module doc says.
pub(super) struct Printer {
    pub long_branches: bool,
}

fn x(r: Reg) -> String {
    r.name(Width::X)
}

fn w(r: Reg) -> String {
    r.name(Width::W)
}

/// `[base, #off]`-style text of a memory operand.
fn mem_text(mem: &Mem) -> String {
    match *mem {
        Mem::Offset { base, off: 0 } => format!("[{}]", x(base)),
        Mem::Offset { base, off } => format!("[{}, #{off}]", x(base)),
        Mem::Indexed { base, index } => format!("[{}, {}]", x(base), x(index)),
        Mem::PostIndex { base, off } => format!("[{}], #{off}", x(base)),
        Mem::PreIndex { base, off } => format!("[{}, #{off}]!", x(base)),
    }
}

/// True when `mem` needs the unscaled (`ldur`/`stur`) form for an access of `bytes`.
fn unscaled(mem: &Mem, bytes: u32) -> bool {
    match *mem {
        Mem::Offset { off, .. } => {
            let size = i64::from(bytes);
            !(off >= 0 && off % size == 0 && off / size < 4096)
        }
        _ => false,
    }
}

impl Printer {
    pub(super) fn print(&self, inst: &Inst, out: &mut String) {
        let _ = match inst {
            Inst::Label(l) => writeln!(out, "{l}:"),
            Inst::Directive(d) => writeln!(out, "\t{d}"),
            Inst::Op3 { op, w, rd, rn, rm } => writeln!(
                out,
                "\t{} {}, {}, {}",
                op.mnemonic(),
                rd.name(*w),
                rn.name(*w),
                rm.name(*w)
            ),
            Inst::OpImm { op, w, rd, rn, imm } => {
                let imm = match (op, w) {
                    (OpImm::Add | OpImm::Sub, _) => format!("{imm}"),
                    (_, Width::W) => format!("{:#x}", imm & 0xffff_ffff),
                    (_, Width::X) => format!("{imm:#x}"),
                };
                writeln!(
                    out,
                    "\t{} {}, {}, #{imm}",
                    op.mnemonic(),
                    rd.name(*w),
                    rn.name(*w)
                )
            }
            Inst::ShiftImm {
                op,
                w,
                rd,
                rn,
                amount,
            } => writeln!(
                out,
                "\t{} {}, {}, #{amount}",
                op.mnemonic(),
                rd.name(*w),
                rn.name(*w)
            ),
            Inst::Msub { w, rd, rn, rm, ra } => writeln!(
                out,
                "\tmsub {}, {}, {}, {}",
                rd.name(*w),
                rn.name(*w),
                rm.name(*w),
                ra.name(*w)
            ),
            Inst::Neg { w, rd, rm } => writeln!(out, "\tneg {}, {}", rd.name(*w), rm.name(*w)),
            Inst::Mvn { w, rd, rm } => writeln!(out, "\tmvn {}, {}", rd.name(*w), rm.name(*w)),
            Inst::Ext { ext, rd, rn } => match ext {
                Ext::Sxtb => writeln!(out, "\tsxtb {}, {}", x(*rd), w(*rn)),
                Ext::Sxth => writeln!(out, "\tsxth {}, {}", x(*rd), w(*rn)),
                Ext::Sxtw => writeln!(out, "\tsxtw {}, {}", x(*rd), w(*rn)),
                Ext::Uxtb => writeln!(out, "\tuxtb {}, {}", w(*rd), w(*rn)),
                Ext::Uxth => writeln!(out, "\tuxth {}, {}", w(*rd), w(*rn)),
                Ext::Uxtw => writeln!(out, "\tmov {}, {}", w(*rd), w(*rn)),
            },
            Inst::Mov { w, rd, rn } => writeln!(out, "\tmov {}, {}", rd.name(*w), rn.name(*w)),
            Inst::MovWide {
                op,
                w,
                rd,
                imm16,
                shift,
            } => {
                let mnemonic = match op {
                    MovWideOp::Movz => "movz",
                    MovWideOp::Movn => "movn",
                    MovWideOp::Movk => "movk",
                };
                writeln!(out, "\t{mnemonic} {}, #{imm16}, lsl #{shift}", rd.name(*w))
            }
            Inst::Cmp { w, rn, rm } => writeln!(out, "\tcmp {}, {}", rn.name(*w), rm.name(*w)),
            Inst::CmpImm {
                w,
                rn,
                imm,
                negated,
            } => writeln!(
                out,
                "\t{} {}, #{imm}",
                if *negated { "cmn" } else { "cmp" },
                rn.name(*w)
            ),
            Inst::Cset { rd, cond } => writeln!(out, "\tcset {}, {cond}", w(*rd)),
            Inst::Csel {
                w,
                rd,
                rn,
                rm,
                cond,
            } => writeln!(
                out,
                "\tcsel {}, {}, {}, {cond}",
                rd.name(*w),
                rn.name(*w),
                rm.name(*w)
            ),
            Inst::Load {
                bytes,
                signed,
                rt,
                mem,
            } => {
                let (base, reg) = match (bytes, signed) {
                    (1, true) => ("ldrsb", x(*rt)),
                    (1, false) => ("ldrb", w(*rt)),
                    (2, true) => ("ldrsh", x(*rt)),
                    (2, false) => ("ldrh", w(*rt)),
                    (4, true) => ("ldrsw", x(*rt)),
                    (4, false) => ("ldr", w(*rt)),
                    _ => ("ldr", x(*rt)),
                };
                let mnemonic = if unscaled(mem, *bytes) {
                    base.replacen("ldr", "ldur", 1)
                } else {
                    base.to_string()
                };
                writeln!(out, "\t{mnemonic} {reg}, {}", mem_text(mem))
            }
            Inst::Store { bytes, rt, mem } => {
                let (base, reg) = match bytes {
                    1 => ("strb", w(*rt)),
                    2 => ("strh", w(*rt)),
                    4 => ("str", w(*rt)),
                    _ => ("str", x(*rt)),
                };
                let mnemonic = if unscaled(mem, *bytes) {
                    base.replacen("str", "stur", 1)
                } else {
                    base.to_string()
                };
                writeln!(out, "\t{mnemonic} {reg}, {}", mem_text(mem))
            }
            Inst::Stp { rt1, rt2, mem } => {
                writeln!(out, "\tstp {}, {}, {}", x(*rt1), x(*rt2), mem_text(mem))
            }
            Inst::Ldp { rt1, rt2, mem } => {
                writeln!(out, "\tldp {}, {}, {}", x(*rt1), x(*rt2), mem_text(mem))
            }
            Inst::Adrp { rd, sym } => writeln!(out, "\tadrp {}, {sym}", x(*rd)),
            Inst::AddLo12 { rd, rn, sym } => {
                writeln!(out, "\tadd {}, {}, :lo12:{sym}", x(*rd), x(*rn))
            }
            Inst::Adr { rd, label } => writeln!(out, "\tadr {}, {label}", x(*rd)),
            Inst::B(label) => writeln!(out, "\tb {label}"),
            Inst::BCond { cond, label } => {
                if self.long_branches {
                    writeln!(out, "\tb.{} 1f\n\tb {label}\n1:", cond.invert())
                } else {
                    writeln!(out, "\tb.{cond} {label}")
                }
            }
            Inst::Cbz {
                w,
                rt,
                nonzero,
                label,
            } => {
                let (short, inverse) = if *nonzero {
                    ("cbnz", "cbz")
                } else {
                    ("cbz", "cbnz")
                };
                if self.long_branches {
                    writeln!(out, "\t{inverse} {}, 1f\n\tb {label}\n1:", rt.name(*w))
                } else {
                    writeln!(out, "\t{short} {}, {label}", rt.name(*w))
                }
            }
            Inst::Bl(sym) => writeln!(out, "\tbl {sym}"),
            Inst::Blr(r) => writeln!(out, "\tblr {}", x(*r)),
            Inst::Br(r) => writeln!(out, "\tbr {}", x(*r)),
            Inst::Ret => writeln!(out, "\tret"),
            Inst::Udf => writeln!(out, "\tudf #0"),
            Inst::Svc => writeln!(out, "\tsvc #0"),
            Inst::Float(f) => writeln!(out, "\t{f}"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::aarch64::inst::Cond;

    fn text(inst: Inst, long_branches: bool) -> String {
        let mut out = String::new();
        Printer { long_branches }.print(&inst, &mut out);
        out
    }

    #[test]
    fn loads_pick_the_scaled_or_unscaled_form() {
        let load = |bytes, signed, off| Inst::Load {
            bytes,
            signed,
            rt: Reg(3),
            mem: Mem::at(Reg::SP, off),
        };
        assert_eq!(
            text(load(8, false, 32760), false),
            "\tldr x3, [sp, #32760]\n"
        );
        assert_eq!(text(load(8, false, 4), false), "\tldur x3, [sp, #4]\n");
        assert_eq!(text(load(1, true, -3), false), "\tldursb x3, [sp, #-3]\n");
        assert_eq!(
            text(load(2, false, 8190), false),
            "\tldrh w3, [sp, #8190]\n"
        );
        assert_eq!(text(load(4, true, 0), false), "\tldrsw x3, [sp]\n");
        let store = Inst::Store {
            bytes: 2,
            rt: Reg(1),
            mem: Mem::at(Reg(2), 1),
        };
        assert_eq!(text(store, false), "\tsturh w1, [x2, #1]\n");
    }

    #[test]
    fn long_functions_branch_around_an_unconditional_jump() {
        let bc = Inst::BCond {
            cond: Cond::Lo,
            label: ".LBB3".into(),
        };
        assert_eq!(text(bc.clone(), false), "\tb.lo .LBB3\n");
        assert_eq!(text(bc, true), "\tb.hs 1f\n\tb .LBB3\n1:\n");
        let cbz = Inst::Cbz {
            w: Width::W,
            rt: Reg(16),
            nonzero: false,
            label: ".L1_fpe".into(),
        };
        assert_eq!(text(cbz, true), "\tcbnz w16, 1f\n\tb .L1_fpe\n1:\n");
    }
}
