//! The assembly text of a riscv64 module: each function's selected instructions between
//! its symbol directives, its jump tables after it, then (in `mod.rs`) the globals.
//!
//! Why it exists: printing [`Inst`]s is mechanical; the one decision made here is about
//! distances. A conditional branch reaches only ±4 KiB. GNU as 2.40 happens to relax an
//! out-of-range `beq` into `bne` over a `jal`, but that is the assembler's choice, not
//! something the ISA or older assemblers promise, so phicc does not rely on it:
//! [`expand_far_branches`] measures every branch with each instruction's largest size
//! (compression only shrinks code, so a distance measured this way is never smaller than
//! the real one) and rewrites any branch that might not reach into an inverted branch
//! around a `j` (±1 MiB), until no branch is too far; a `j` that might not reach (a
//! function of more than a megabyte) becomes `jump label, t6` (`auipc`+`jr`).
//!
//! Invariants: the module starts with `.option norelax` ([`emit_header`]); one
//! instruction per line, a tab before the mnemonic, labels flush left; a
//! function is `.globl` unless `static`, and has `.type` and `.size`; jump tables (which
//! hold absolute addresses) are in `.data.rel.ro`, so the code links as PIE too; the
//! module ends with a `.note.GNU-stack` section.

use super::inst::{fits_imm12, AluImmOp, Inst};
use crate::ir::IrFunction;
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// The farthest a conditional branch is allowed to reach by phicc's measure (the ISA's
/// limit is -4096..=4094 bytes; the margin keeps the measure simple).
const BRANCH_REACH: i64 = 4000;

/// The same for `j` (the ISA's limit is ±1 MiB).
const JUMP_REACH: i64 = (1 << 20) - 64;

/// The text of `inst`, without the leading tab and the newline.
pub fn text(inst: &Inst) -> String {
    debug_assert!(
        match inst {
            Inst::AluImm { op, imm, .. } => op.accepts(*imm),
            Inst::Load { offset, .. } | Inst::Store { offset, .. } => fits_imm12(*offset),
            Inst::Lui { imm20, .. } => *imm20 <= 0xfffff,
            _ => true,
        },
        "immediate out of range: {inst:?}"
    );
    match inst {
        Inst::Label(name) => format!("{name}:"),
        Inst::Directive(d) => d.clone(),
        Inst::Alu { op, rd, rs1, rs2 } => format!("{} {rd}, {rs1}, {rs2}", op.mnemonic()),
        Inst::AluImm {
            op: AluImmOp::Addi,
            rd,
            rs1,
            imm: 0,
        } => format!("mv {rd}, {rs1}"),
        Inst::AluImm { op, rd, rs1, imm } => format!("{} {rd}, {rs1}, {imm}", op.mnemonic()),
        Inst::Lui { rd, imm20 } => format!("lui {rd}, {imm20:#x}"),
        Inst::Load {
            kind,
            rd,
            base,
            offset,
        } => format!("{} {rd}, {offset}({base})", kind.mnemonic()),
        Inst::Store {
            kind,
            src,
            base,
            offset,
        } => format!("{} {src}, {offset}({base})", kind.mnemonic()),
        Inst::Branch {
            cond,
            rs1,
            rs2,
            label,
        } => format!("{} {rs1}, {rs2}, {label}", cond.mnemonic()),
        Inst::Jump(label) => format!("j {label}"),
        Inst::FarJump(label) => format!("jump {label}, t6"),
        Inst::JumpReg(r) => format!("jr {r}"),
        Inst::Call(symbol) => format!("call {symbol}"),
        Inst::CallReg(r) => format!("jalr {r}"),
        Inst::Ret => "ret".into(),
        Inst::PcrelHi { rd, symbol, label } => {
            format!("{label}:\n\tauipc {rd}, %pcrel_hi({symbol})")
        }
        Inst::PcrelLo { rd, rs1, label } => format!("addi {rd}, {rs1}, %pcrel_lo({label})"),
        Inst::Ecall => "ecall".into(),
        Inst::Unimp => "unimp".into(),
        Inst::Float(f) => f.to_string(),
    }
}

/// Appends the text of every instruction of `insts` to `out`.
pub fn print_all(insts: &[Inst], out: &mut String) {
    for inst in insts {
        if !matches!(inst, Inst::Label(_) | Inst::PcrelHi { .. }) {
            out.push('\t');
        }
        out.push_str(&text(inst));
        out.push('\n');
    }
}

/// Rewrites every conditional branch of `code` that might not reach its label into an
/// inverted branch over a `j`; `fresh_label` names the labels it adds. Labels the code
/// does not define (none should exist) are treated as far away.
pub fn expand_far_branches(code: Vec<Inst>, mut fresh_label: impl FnMut() -> String) -> Vec<Inst> {
    let mut code = code;
    loop {
        let mut position = Vec::with_capacity(code.len());
        let mut labels: FxHashMap<&str, u64> = FxHashMap::default();
        let mut at = 0u64;
        for inst in &code {
            position.push(at);
            if let Inst::Label(name) = inst {
                labels.insert(name.as_str(), at);
            }
            at += inst.max_bytes();
        }
        let beyond = |label: &str, from: u64, reach: i64| {
            labels
                .get(label)
                .is_none_or(|&to| (to as i64 - from as i64).abs() > reach)
        };
        let far: Vec<bool> = code
            .iter()
            .zip(&position)
            .map(|(inst, &from)| match inst {
                Inst::Branch { label, .. } => beyond(label, from, BRANCH_REACH),
                Inst::Jump(label) => beyond(label, from, JUMP_REACH),
                _ => false,
            })
            .collect();
        if !far.contains(&true) {
            return code;
        }
        let mut rewritten = Vec::with_capacity(code.len() + 8);
        for (inst, is_far) in code.into_iter().zip(far) {
            match inst {
                Inst::Branch {
                    cond,
                    rs1,
                    rs2,
                    label,
                } if is_far => {
                    let skip = fresh_label();
                    rewritten.push(Inst::Branch {
                        cond: cond.inverse(),
                        rs1,
                        rs2,
                        label: skip.clone(),
                    });
                    rewritten.push(Inst::Jump(label));
                    rewritten.push(Inst::Label(skip));
                }
                Inst::Jump(label) if is_far => rewritten.push(Inst::FarJump(label)),
                other => rewritten.push(other),
            }
        }
        code = rewritten;
    }
}

/// Appends the text of one function (`text`: its code from the entry label on; `rodata`:
/// its jump tables) to `out`.
pub(super) fn emit_function(func: &IrFunction, text: &[Inst], rodata: &[Inst], out: &mut String) {
    let name = &func.name;
    let _ = writeln!(out, "\t.text");
    if !func.attrs.is_static {
        let _ = writeln!(out, "\t.globl {name}");
    }
    let _ = writeln!(out, "\t.type {name}, @function");
    let _ = writeln!(
        out,
        "\t.p2align {}",
        crate::backend::function_p2align(func, 2)
    );
    let _ = writeln!(out, "{name}:");
    print_all(text, out);
    let _ = writeln!(out, "\t.size {name}, .-{name}");
    if !rodata.is_empty() {
        let _ = writeln!(out, "\t.section .data.rel.ro,\"aw\"");
        print_all(rodata, out);
    }
}

/// The first lines of every module: `.option norelax`. The linker's relaxation pass
/// (shortening `auipc` pairs and calls after layout) is quadratic in the number of
/// relaxable relocations in binutils 2.40: linking one 600,000-line test module took
/// 27.8 s with it and 0.18 s without. phicc's code does not need it (every pair and call
/// is correct at full length), so none of its relocations are marked relaxable.
pub(super) fn emit_header(out: &mut String) {
    let _ = writeln!(out, "\t.option norelax");
}

/// The last lines of every module.
pub(super) fn emit_trailer(out: &mut String) {
    let _ = writeln!(out, "\t.section .note.GNU-stack,\"\",@progbits");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::riscv64::inst::{BranchCond, Reg};

    fn branch(label: &str) -> Inst {
        Inst::Branch {
            cond: BranchCond::Lt,
            rs1: Reg::A0,
            rs2: Reg::A1,
            label: label.into(),
        }
    }

    #[test]
    fn near_branches_stay_and_far_ones_jump() {
        let mut code = vec![
            branch(".Lnear"),
            branch(".Lfar"),
            Inst::Label(".Lnear".into()),
        ];
        code.extend(std::iter::repeat_n(Inst::Ecall, 1000));
        code.push(Inst::Label(".Lfar".into()));
        let mut n = 0;
        let out = expand_far_branches(code, || {
            n += 1;
            format!(".Lskip{n}")
        });
        assert_eq!(out[0], branch(".Lnear"));
        assert_eq!(
            out[1],
            Inst::Branch {
                cond: BranchCond::Ge,
                rs1: Reg::A0,
                rs2: Reg::A1,
                label: ".Lskip1".into()
            }
        );
        assert_eq!(out[2], Inst::Jump(".Lfar".into()));
        assert_eq!(out[3], Inst::Label(".Lskip1".into()));
        // 1000 instructions are exactly 4000 bytes from the second branch's position:
        // a backward branch over the same distance stays, one more instruction does not.
        let mut back = vec![Inst::Label(".Ltop".into())];
        back.extend(std::iter::repeat_n(Inst::Ecall, 1000));
        back.push(branch(".Ltop"));
        let kept = expand_far_branches(back.clone(), || unreachable!());
        assert_eq!(kept, back);
        back.insert(1, Inst::Ecall);
        let moved = expand_far_branches(back, || ".Ls".into());
        assert_eq!(moved.len(), 1 + 1001 + 3);
    }

    #[test]
    fn jumps_beyond_a_megabyte_go_through_t6() {
        let mut code = vec![branch(".Lend"), Inst::Jump(".Lend".into())];
        code.extend(std::iter::repeat_n(Inst::Ecall, 1 << 18));
        code.push(Inst::Label(".Lend".into()));
        let out = expand_far_branches(code, || ".Ls".into());
        // The branch became an inverted branch over a jump, and both jumps are far.
        assert_eq!(out[1], Inst::FarJump(".Lend".into()));
        assert_eq!(out[2], Inst::Label(".Ls".into()));
        assert_eq!(out[3], Inst::FarJump(".Lend".into()));
        assert_eq!(text(&out[3]), "jump .Lend, t6");
    }

    #[test]
    fn printed_forms() {
        assert_eq!(text(&Inst::mv(Reg::A0, Reg::S1)), "mv a0, s1");
        assert_eq!(
            text(&Inst::Load {
                kind: crate::backend::riscv64::inst::LoadKind::Wu,
                rd: Reg::T0,
                base: Reg::Sp,
                offset: -8
            }),
            "lwu t0, -8(sp)"
        );
        assert_eq!(
            text(&Inst::PcrelHi {
                rd: Reg::T1,
                symbol: "g".into(),
                label: ".L0_pc1".into()
            }),
            ".L0_pc1:\n\tauipc t1, %pcrel_hi(g)"
        );
    }
}
