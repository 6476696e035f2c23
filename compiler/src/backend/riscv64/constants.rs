//! Building any 64-bit constant in a register from `lui`, `addi(w)` and `slli`.
//!
//! Why it exists: RISC-V immediates are 12 bits (sign-extended) and `lui` gives 20 more;
//! every larger number — a constant operand, a frame size, a stack offset beyond ±2 KiB —
//! is split into an upper part and a lower part here, in one place. The split is the
//! classic trap: `addi` sign-extends its 12 bits, so when bit 11 of the lower part is set
//! the upper part must be rounded up by one (`hi = (v + 0x800) >> 12`). phicc does the
//! split itself instead of leaving it to the `li` pseudo-instruction so that this
//! decision is phicc's, tested here and by the native runs, and so that the seeded bug
//! [`Mutant::Riscv64LuiNoRounding`] (the upper part not rounded) has a place to live.
//!
//! The algorithm (LLVM's `RISCVMatInt`, without its extension-specific tricks):
//! - a 12-bit value: `addi rd, zero, v`;
//! - a 32-bit value: `lui rd, hi20` then `addiw rd, rd, lo12` (the `w` form, so that
//!   `0x7ffff800..=0x7fffffff`, whose rounded upper part is `0x80000`, still come out
//!   right: `addiw` wraps at 32 bits and sign-extends);
//! - otherwise: `lo12` = the low 12 bits sign-extended, the rest `(v - lo12) >> 12` with
//!   its trailing zeros shifted out, built recursively, then `slli` by `12 + zeros` and
//!   `addi lo12`.
//!
//! Invariants: only `rd` is written (no other register, not even a scratch one); every
//! immediate fits its field; the result is exactly `v` as a 64-bit pattern.

use super::inst::{fits_imm12, AluImmOp, Inst, Reg};
use crate::mutants::{self, Mutant};

/// The low 12 bits of `v`, sign-extended (what `addi` adds).
fn low12(v: i64) -> i64 {
    (v << 52) >> 52
}

/// The upper part of a split whose lower part is [`low12`]`(v)`: `(v - lo12) >> 12`,
/// which rounds up when bit 11 is set. The seeded bug forgets the rounding.
fn upper(v: i64) -> i64 {
    if mutants::enabled(Mutant::Riscv64LuiNoRounding) {
        v >> 12
    } else {
        ((i128::from(v) - i128::from(low12(v))) >> 12) as i64
    }
}

/// The instructions that put `v` into `rd`.
pub fn materialize(v: i64, rd: Reg) -> Vec<Inst> {
    let mut out = Vec::new();
    build(v, rd, &mut out);
    out
}

fn build(v: i64, rd: Reg, out: &mut Vec<Inst>) {
    if fits_imm12(v) {
        out.push(Inst::imm(AluImmOp::Addi, rd, Reg::Zero, v));
        return;
    }
    let lo = low12(v);
    if i32::try_from(v).is_ok() {
        let hi20 = (upper(v) as u64 & 0xfffff) as u32;
        out.push(Inst::Lui { rd, imm20: hi20 });
        if lo != 0 {
            out.push(Inst::imm(AluImmOp::Addiw, rd, rd, lo));
        }
        return;
    }
    let hi = upper(v);
    // hi != 0: v does not fit 32 bits, so it is not lo12 alone.
    let zeros = hi.trailing_zeros().min(63 - 12) as i64;
    build(hi >> zeros, rd, out);
    out.push(Inst::imm(AluImmOp::Slli, rd, rd, 12 + zeros));
    if lo != 0 {
        out.push(Inst::imm(AluImmOp::Addi, rd, rd, lo));
    }
}

/// What `code` leaves in its destination register, computed the way the hardware does
/// (for tests: a check of the sequences independent of how they were built).
#[cfg(test)]
pub(super) fn simulate(code: &[Inst]) -> i64 {
    let mut r: i64 = 0;
    for inst in code {
        match inst {
            Inst::AluImm { op, rs1, imm, .. } => {
                assert!(op.accepts(*imm), "{inst:?}: immediate out of range");
                let src = if *rs1 == Reg::Zero { 0 } else { r };
                r = match op {
                    AluImmOp::Addi => src.wrapping_add(*imm),
                    AluImmOp::Addiw => i64::from((src as i32).wrapping_add(*imm as i32)),
                    AluImmOp::Slli => ((src as u64) << imm) as i64,
                    other => panic!("unexpected {other:?}"),
                };
            }
            Inst::Lui { imm20, .. } => {
                assert!(*imm20 <= 0xfffff);
                r = i64::from((imm20 << 12) as i32);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interesting() -> Vec<i64> {
        let mut v = vec![
            0,
            1,
            -1,
            2047,
            2048,
            -2048,
            -2049,
            0x800,
            0xfff,
            0x1000,
            0x12345,
            0x12345fff,
            0x12345800,
            0x123457ff,
            0x7ffff7ff,
            0x7ffff800,
            0x7fffffff,
            -0x80000000,
            -0x7ffff801,
            0x80000000,
            0xffffffff,
            0x1_0000_0000,
            0x1234_5678_9abc_def0,
            i64::MAX,
            i64::MIN,
            i64::MIN + 0x800,
            i64::MAX - 0x7ff,
            0x7fff_ffff_ffff_f800,
            -0x1234_5678_9abc_def0,
            0x0000_0800_0000_0800,
            0xffff_ffff_7fff_ffffu64 as i64,
        ];
        // Every single bit and every single bit cleared, and a deterministic spread.
        for b in 0..64 {
            v.push(1i64 << b);
            v.push(!(1i64 << b));
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(x as i64);
            v.push((x >> (x % 64)) as i64);
        }
        v
    }

    #[test]
    fn every_constant_is_built_exactly() {
        for v in interesting() {
            let code = materialize(v, Reg::T0);
            assert!(code.len() <= 8, "{v:#x}: {} instructions", code.len());
            assert_eq!(simulate(&code), v, "{v:#x}: {code:?}");
        }
    }

    #[test]
    fn the_lui_split_rounds_and_the_mutant_does_not() {
        // 0x12345fff: the lower part is -1, so the upper part must be 0x12346.
        let code = materialize(0x12345fff, Reg::A0);
        assert_eq!(
            code[0],
            Inst::Lui {
                rd: Reg::A0,
                imm20: 0x12346
            }
        );
        mutants::set_active(&[Mutant::Riscv64LuiNoRounding]);
        let wrong = simulate(&materialize(0x12345fff, Reg::A0));
        let still_right = simulate(&materialize(0x12345123, Reg::A0));
        mutants::set_active(&[]);
        assert_eq!(wrong, 0x12344fff);
        assert_eq!(still_right, 0x12345123);
    }
}
