//! Floating-point instruction selection both x86 backends share: `fadd fsub fmul fdiv`,
//! `fneg`, `fcmp` with its 14 predicates, `f32`<->`f64` conversions, the IR's NaN rule,
//! and the truncation of a float to an unsigned integer one bit wider than the target's
//! signed conversion reaches.
//!
//! Why it exists: the first step of floats in the x86 backends keeps the register
//! allocator unchanged. A float value lives where an integer of its size lives — its raw
//! bits in a general register or a stack slot, an `f32` zero-extended, an `f64` on i686 a
//! stack-only pair like `i64` — and every float instruction moves its operands' bits into
//! the scratch registers %xmm0/%xmm1 (XMM registers are never allocated), computes with
//! SSE2, and moves the result's bits back. How a target reaches its values is the
//! [`FloatSelect`] trait; what happens in the XMM registers is here, once. (The later
//! improvement is a float register class in the allocator, so that float values live in
//! XMM registers across instructions.)
//!
//! Invariants:
//! - the IR's NaN rule: a NaN that `fadd fsub fmul fdiv` or an `f32`/`f64` conversion
//!   produces is the *default NaN* (positive, quiet, no payload: `0x7fc00000`,
//!   `0x7ff8000000000000`); SSE produces `0xffc00000`/`0xfff8...` or propagates an
//!   operand's payload, so every such result is canonicalised ([`FloatSelect`] users call
//!   [`select_fbin`] / [`select_fconvert`], which do it); `fneg` flips the sign bit only;
//! - `fcmp` answers as the IR says for every predicate, NaN included (`ucomis` sets
//!   ZF PF CF = 111 for unordered operands, so an ordered predicate must look at PF);
//! - only %xmm0, %xmm1 and the accumulator (%eax/%rax, scratch on both targets) are
//!   written, besides the destination's location.

use super::inst::{AluOp, Inst, Operand, Size};
use super::sse::{Sse, SseOp, Xmm};
use super::Reg;
use crate::backend::BackendError;
use crate::ir::{FBinOp, FCmpPred, IrType, Operand as IrOperand, Value};
use crate::mutants::{self, Mutant};
use crate::target::Target;

pub const X0: Xmm = Xmm(0);
pub const X1: Xmm = Xmm(1);

/// The default NaN's bits for a float type (`f64` when `double`).
pub fn default_nan(double: bool) -> u64 {
    if double {
        0x7ff8_0000_0000_0000
    } else {
        0x7fc0_0000
    }
}

/// The bits a caller receives when a function of `target` returns the float `bits` of
/// type `ty`: the same, except on i686, whose ABI returns floats in the x87's `st(0)`:
/// an x87 load of a signaling NaN delivers it quieted (Intel SDM, FLD with the invalid
/// operation masked), so the quiet bit is set. The harness judges native returns with
/// this (no i686 code, gcc's neither, can return a signaling NaN's bits).
pub fn abi_returned_bits(target: Target, ty: IrType, bits: u64) -> u64 {
    let (exponent, quiet) = match ty {
        IrType::F32 => (0x7f80_0000u64, 1u64 << 22),
        IrType::F64 => (0x7ff0_0000_0000_0000, 1 << 51),
        _ => return bits,
    };
    let payload = quiet * 2 - 1;
    let signaling = bits & exponent == exponent && bits & payload != 0 && bits & quiet == 0;
    if target == Target::I686 && signaling {
        bits | quiet
    } else {
        bits
    }
}

/// How a backend reaches float values: the operations [`select_fbin`] and its neighbours
/// need from it.
pub trait FloatSelect {
    fn float_target(&self) -> Target;
    fn emit_float(&mut self, inst: Inst);
    /// A fresh local label.
    fn float_label(&mut self, purpose: &str) -> String;
    /// Puts the bits of the float operand `op` of type `ty` into the low lane of `x`
    /// (it may use the accumulator and %xmm2, never the other of %xmm0/%xmm1).
    fn operand_to_xmm(&mut self, op: &IrOperand, ty: IrType, x: Xmm) -> Result<(), BackendError>;
    /// Writes the bits in the low lane of `x` to `dest` (a value of float type `ty`).
    fn xmm_to_value(&mut self, dest: Value, ty: IrType, x: Xmm) -> Result<(), BackendError>;
    /// Writes the 0 or 1 in %eax (zero-extended) to `dest` (an `i8`).
    fn flag_to_value(&mut self, dest: Value);
}

fn sse(s: &mut impl FloatSelect, inst: Sse) {
    s.emit_float(Inst::Sse(inst));
}

fn is_double(ty: IrType) -> bool {
    ty == IrType::F64
}

/// `movl $bits, %eax` (the 32-bit pattern as a sign-extended immediate).
fn eax_imm(s: &mut impl FloatSelect, bits: u32) {
    s.emit_float(Inst::Mov {
        size: Size::L,
        src: Operand::Imm(i64::from(bits as i32)),
        dst: Reg::Rax.into(),
    });
}

/// Loads the 64-bit (`double`) or 32-bit pattern `bits` into `x` through %eax and, for a
/// 64-bit pattern with a non-zero low half, `spare` (both targets: no 64-bit immediate
/// is needed).
pub fn bits_to_xmm(s: &mut impl FloatSelect, bits: u64, double: bool, x: Xmm, spare: Xmm) {
    let (lo, hi) = (bits as u32, (bits >> 32) as u32);
    if !double {
        eax_imm(s, lo);
        sse(
            s,
            Sse::ToXmm {
                size: Size::L,
                src: Reg::Rax.into(),
                dst: x,
            },
        );
        return;
    }
    eax_imm(s, hi);
    sse(
        s,
        Sse::ToXmm {
            size: Size::L,
            src: Reg::Rax.into(),
            dst: x,
        },
    );
    sse(s, Sse::ShiftLeftQuad { amount: 32, dst: x });
    if lo != 0 {
        eax_imm(s, lo);
        sse(
            s,
            Sse::ToXmm {
                size: Size::L,
                src: Reg::Rax.into(),
                dst: spare,
            },
        );
        // x = hi:0, spare = 0:lo; x | spare through xor (the halves do not overlap).
        sse(s, Sse::Xor { src: spare, dst: x });
    }
}

/// Replaces a NaN in `x` by the default NaN of its type.
pub fn canonicalize_nan(s: &mut impl FloatSelect, double: bool, x: Xmm) {
    let done = s.float_label("nan");
    sse(
        s,
        Sse::Ucomi {
            double,
            src: x,
            dst: x,
        },
    );
    s.emit_float(Inst::Jcc {
        cc: "np",
        label: done.clone(),
    });
    bits_to_xmm(s, default_nan(double), double, x, X1);
    s.emit_float(Inst::Label(done));
}

/// `%d = fadd|fsub|fmul|fdiv TYPE A, B`.
pub fn select_fbin(
    s: &mut impl FloatSelect,
    dest: Value,
    op: FBinOp,
    ty: IrType,
    lhs: &IrOperand,
    rhs: &IrOperand,
) -> Result<(), BackendError> {
    let double = is_double(ty);
    s.operand_to_xmm(lhs, ty, X0)?;
    s.operand_to_xmm(rhs, ty, X1)?;
    let op = match op {
        FBinOp::FAdd => SseOp::Add,
        FBinOp::FSub => SseOp::Sub,
        FBinOp::FMul => SseOp::Mul,
        FBinOp::FDiv => SseOp::Div,
    };
    sse(
        s,
        Sse::Arith {
            op,
            double,
            src: X1,
            dst: X0,
        },
    );
    canonicalize_nan(s, double, X0);
    s.xmm_to_value(dest, ty, X0)
}

/// `%d = fneg TYPE A`: the sign bit flipped, nothing else (a NaN keeps its payload).
pub fn select_fneg(
    s: &mut impl FloatSelect,
    dest: Value,
    ty: IrType,
    src: &IrOperand,
) -> Result<(), BackendError> {
    let double = is_double(ty);
    s.operand_to_xmm(src, ty, X0)?;
    let sign = if double { 1u64 << 63 } else { 1 << 31 };
    bits_to_xmm(s, sign, double, X1, Xmm(2));
    sse(s, Sse::Xor { src: X1, dst: X0 });
    s.xmm_to_value(dest, ty, X0)
}

/// `%d = cast f32 A to f64` or `cast f64 A to f32` (rounded to nearest-even; a NaN
/// becomes the default NaN).
pub fn select_fconvert(
    s: &mut impl FloatSelect,
    dest: Value,
    from: IrType,
    src: &IrOperand,
    to: IrType,
) -> Result<(), BackendError> {
    s.operand_to_xmm(src, from, X0)?;
    if from != to {
        sse(
            s,
            Sse::FloatToFloat {
                to_double: is_double(to),
                src: X0,
                dst: X0,
            },
        );
        canonicalize_nan(s, is_double(to), X0);
    }
    s.xmm_to_value(dest, to, X0)
}

/// How `ucomis` answers a predicate: compare `a` with `b` (or `b` with `a` when
/// `swap`), then the predicate is `cc`, and also `and_cc` (both must hold) or `or_cc`
/// (either may).
struct FcmpPlan {
    swap: bool,
    cc: &'static str,
    also: Option<(bool, &'static str)>,
}

/// The flags plan of `pred` (ZF PF CF after `ucomis b, a`: 111 unordered, 000 `a > b`,
/// 001 `a < b`, 100 equal).
fn fcmp_plan(pred: FCmpPred, ignore_parity: bool) -> FcmpPlan {
    let plan = |swap, cc| FcmpPlan {
        swap,
        cc,
        also: None,
    };
    match pred {
        // Equal needs ZF without PF; not-equal is ZF clear or PF set.
        FCmpPred::Oeq if ignore_parity => plan(false, "e"),
        FCmpPred::Oeq => FcmpPlan {
            swap: false,
            cc: "e",
            also: Some((true, "np")),
        },
        FCmpPred::Une if ignore_parity => plan(false, "ne"),
        FCmpPred::Une => FcmpPlan {
            swap: false,
            cc: "ne",
            also: Some((false, "p")),
        },
        FCmpPred::One => plan(false, "ne"),
        FCmpPred::Ueq => plan(false, "e"),
        FCmpPred::Ogt => plan(false, "a"),
        FCmpPred::Oge => plan(false, "ae"),
        FCmpPred::Olt => plan(true, "a"),
        FCmpPred::Ole => plan(true, "ae"),
        FCmpPred::Ult => plan(false, "b"),
        FCmpPred::Ule => plan(false, "be"),
        FCmpPred::Ugt => plan(true, "b"),
        FCmpPred::Uge => plan(true, "be"),
        FCmpPred::Ord => plan(false, "np"),
        FCmpPred::Uno => plan(false, "p"),
    }
}

/// `%d = fcmp PRED TYPE A, B` (an `i8` 0 or 1).
pub fn select_fcmp(
    s: &mut impl FloatSelect,
    dest: Value,
    pred: FCmpPred,
    ty: IrType,
    lhs: &IrOperand,
    rhs: &IrOperand,
) -> Result<(), BackendError> {
    let ignore_parity =
        s.float_target() == Target::X86_64 && mutants::enabled(Mutant::X86_64FcmpIgnoresParity);
    let plan = fcmp_plan(pred, ignore_parity);
    let (a, b) = if plan.swap { (rhs, lhs) } else { (lhs, rhs) };
    s.operand_to_xmm(a, ty, X0)?;
    s.operand_to_xmm(b, ty, X1)?;
    sse(
        s,
        Sse::Ucomi {
            double: is_double(ty),
            src: X1,
            dst: X0,
        },
    );
    s.emit_float(Inst::SetCc {
        cc: plan.cc,
        dst: Reg::Rax.into(),
    });
    if let Some((and, cc)) = plan.also {
        s.emit_float(Inst::SetCc {
            cc,
            dst: Reg::Rcx.into(),
        });
        s.emit_float(Inst::Alu {
            op: if and { AluOp::And } else { AluOp::Or },
            size: Size::B,
            src: Reg::Rcx.into(),
            dst: Reg::Rax.into(),
        });
    }
    s.emit_float(Inst::MovZx {
        from: Size::B,
        to: Size::L,
        src: Reg::Rax.into(),
        dst: Reg::Rax,
    });
    s.flag_to_value(dest);
    Ok(())
}

/// Truncates the float in %xmm0 to an unsigned integer of `size` (`Q` on x86-64, `L` on
/// i686) into the accumulator, where the target's signed conversion reaches only half
/// the range: values from 2^(bits-1) on are converted after subtracting 2^(bits-1), and
/// the top bit is set again (gcc's code). Values outside the unsigned range are
/// undefined in the IR; whatever this gives for them is fine.
pub fn truncate_to_unsigned(s: &mut impl FloatSelect, double: bool, size: Size) {
    let bits = size.bytes() * 8;
    // 2^(bits-1) as the float type: exponent bias + bits - 1.
    let limit = if double {
        u64::from(1023 + bits - 1) << 52
    } else {
        u64::from(127 + bits - 1) << 23
    };
    bits_to_xmm(s, limit, double, X1, Xmm(2));
    let big = s.float_label("fbig");
    let done = s.float_label("fdone");
    sse(
        s,
        Sse::Ucomi {
            double,
            src: X1,
            dst: X0,
        },
    );
    s.emit_float(Inst::Jcc {
        cc: "ae",
        label: big.clone(),
    });
    sse(
        s,
        Sse::FloatToInt {
            double,
            size,
            src: X0,
            dst: Reg::Rax,
        },
    );
    s.emit_float(Inst::Jmp(done.clone()));
    s.emit_float(Inst::Label(big));
    sse(
        s,
        Sse::Arith {
            op: SseOp::Sub,
            double,
            src: X1,
            dst: X0,
        },
    );
    sse(
        s,
        Sse::FloatToInt {
            double,
            size,
            src: X0,
            dst: Reg::Rax,
        },
    );
    // Set the top bit: a 1 shifted into place in %ecx/%rcx, or'ed in.
    s.emit_float(Inst::Mov {
        size: Size::L,
        src: Operand::Imm(1),
        dst: Reg::Rcx.into(),
    });
    s.emit_float(Inst::Shift {
        op: super::inst::ShiftOp::Shl,
        size,
        amount: super::inst::ShiftAmount::Imm((bits - 1) as u8),
        dst: Reg::Rcx.into(),
    });
    s.emit_float(Inst::Alu {
        op: AluOp::Or,
        size,
        src: Reg::Rcx.into(),
        dst: Reg::Rax.into(),
    });
    s.emit_float(Inst::Label(done));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags `ucomis b, a` leaves (ZF, PF, CF), by hand from the Intel manual.
    fn flags(a: f64, b: f64) -> (bool, bool, bool) {
        if a.is_nan() || b.is_nan() {
            (true, true, true)
        } else if a > b {
            (false, false, false)
        } else if a < b {
            (false, false, true)
        } else {
            (true, false, false)
        }
    }

    fn holds(cc: &str, (zf, pf, cf): (bool, bool, bool)) -> bool {
        match cc {
            "e" => zf,
            "ne" => !zf,
            "a" => !cf && !zf,
            "ae" => !cf,
            "b" => cf,
            "be" => cf || zf,
            "p" => pf,
            "np" => !pf,
            other => panic!("condition {other}"),
        }
    }

    /// The IR's meaning of each predicate, written independently of the plan.
    fn meaning(pred: FCmpPred, a: f64, b: f64) -> bool {
        let uno = a.is_nan() || b.is_nan();
        match pred {
            FCmpPred::Oeq => !uno && a == b,
            FCmpPred::One => !uno && a != b,
            FCmpPred::Olt => !uno && a < b,
            FCmpPred::Ole => !uno && a <= b,
            FCmpPred::Ogt => !uno && a > b,
            FCmpPred::Oge => !uno && a >= b,
            FCmpPred::Ord => !uno,
            FCmpPred::Ueq => uno || a == b,
            FCmpPred::Une => uno || a != b,
            FCmpPred::Ult => uno || a < b,
            FCmpPred::Ule => uno || a <= b,
            FCmpPred::Ugt => uno || a > b,
            FCmpPred::Uge => uno || a >= b,
            FCmpPred::Uno => uno,
        }
    }

    #[test]
    fn every_predicate_plan_matches_the_ir_on_every_ordering() {
        let values = [f64::NAN, -1.0, -0.0, 0.0, 2.5, f64::INFINITY];
        for pred in FCmpPred::ALL {
            let plan = fcmp_plan(pred, false);
            for a in values {
                for b in values {
                    let f = if plan.swap { flags(b, a) } else { flags(a, b) };
                    let mut got = holds(plan.cc, f);
                    if let Some((and, cc)) = plan.also {
                        got = if and {
                            got && holds(cc, f)
                        } else {
                            got || holds(cc, f)
                        };
                    }
                    assert_eq!(got, meaning(pred, a, b), "{} {a} {b}", pred.name());
                }
            }
        }
    }
}
