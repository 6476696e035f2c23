//! 64-bit integer operations on i686, computed in register pairs.
//!
//! Why it exists: i686 has 32-bit registers, so `i64`/`u64` values live in 8-byte stack
//! slots (low word first; the allocator's `ValueClass::StackOnly`) and every operation on
//! them is a short sequence over edx:eax (plus ecx and memory operands): add/adc, sub/sbb,
//! three 32-bit multiplies, shld/shrd with the >= 32 case, comparisons of pairs through
//! sub/sbb, and division through libgcc's `__divdi3` family, as gcc does.
//!
//! Invariants: only the scratch registers eax, ecx and edx are written; every operand is
//! read before the destination slot is written; 64-bit division traps (SIGFPE, with a
//! faulting `divl`) exactly when the IR does — a zero divisor, or `MIN / -1` for the signed
//! operations — before libgcc is called (libgcc's routines do not fault on either).
//!
//! Seeded bugs: [`crate::mutants::Mutant::I686AddNoCarry`],
//! [`crate::mutants::Mutant::I686WideShiftNoWordFixup`] (no fix-up for counts 32..63).

use super::isel::{is_imm, Selector, EAX, ECX, EDX, ESP};
use crate::backend::x86::condition_code;
use crate::backend::x86::inst::{
    AluOp, CallTarget, Inst as MInst, Mem, Operand as Opnd, ShiftAmount, ShiftOp, Size, UnaryOp,
};
use crate::backend::BackendError;
use crate::ir::{BinOp, CmpPred, IrType, Operand, UnOp, Value};
use crate::mutants::{self, Mutant};

/// Bytes of outgoing arguments a 64-bit division call needs (two 8-byte operands).
pub(super) const WIDE_DIVISION_ARG_BYTES: u32 = 16;

impl Selector<'_> {
    pub(super) fn wide_bin(
        &mut self,
        dest: Value,
        op: BinOp,
        ty: IrType,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<(), BackendError> {
        let (alo, ahi) = self.pair(lhs, ty)?;
        let (blo, bhi) = self.pair(rhs, ty)?;
        match op {
            BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Or | BinOp::Xor => {
                let (low, high) = match op {
                    BinOp::Add if mutants::enabled(Mutant::I686AddNoCarry) => {
                        (AluOp::Add, AluOp::Add)
                    }
                    BinOp::Add => (AluOp::Add, AluOp::Adc),
                    BinOp::Sub => (AluOp::Sub, AluOp::Sbb),
                    BinOp::And => (AluOp::And, AluOp::And),
                    BinOp::Or => (AluOp::Or, AluOp::Or),
                    _ => (AluOp::Xor, AluOp::Xor),
                };
                self.load(EAX, alo);
                self.load(EDX, ahi);
                self.alu(low, 4, blo, Opnd::Reg(EAX));
                self.alu(high, 4, bhi, Opnd::Reg(EDX));
            }
            BinOp::Mul => {
                // lo(a*b) = alo*blo (64-bit) + ((ahi*blo + alo*bhi) << 32).
                self.load(EAX, alo.clone());
                self.load(EDX, blo.clone());
                self.emit(MInst::MulWide {
                    signed: false,
                    size: Size::L,
                    src: Opnd::Reg(EDX),
                });
                self.cross_product(ahi, blo);
                self.cross_product(alo, bhi);
            }
            BinOp::Shl | BinOp::AShr | BinOp::LShr => {
                self.load(EAX, alo);
                self.load(EDX, ahi);
                self.wide_shift(op, blo);
            }
            BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => {
                self.wide_division(op, (alo, ahi), (blo, bhi));
            }
        }
        self.set_pair(dest, EAX, EDX)
    }

    /// `edx += x * y` (32-bit), through ecx.
    fn cross_product(&mut self, x: Opnd, y: Opnd) {
        let (x, y) = if is_imm(&x) { (y, x) } else { (x, y) };
        self.load(ECX, x);
        self.imul(y, ECX);
        self.alu(AluOp::Add, 4, Opnd::Reg(ECX), Opnd::Reg(EDX));
    }

    /// Shifts edx:eax by the low word `count` (an amount >= 64 is undefined).
    fn wide_shift(&mut self, op: BinOp, count: Opnd) {
        if let Opnd::Imm(k) = count {
            let n = (k & 63) as u8;
            if n == 0 {
                return;
            }
            if n < 32 {
                self.emit(MInst::DoubleShift {
                    left: op == BinOp::Shl,
                    size: Size::L,
                    amount: ShiftAmount::Imm(n),
                    src: if op == BinOp::Shl { EAX } else { EDX },
                    dst: Opnd::Reg(if op == BinOp::Shl { EDX } else { EAX }),
                });
                let (shift, dst) = match op {
                    BinOp::Shl => (ShiftOp::Shl, EAX),
                    BinOp::AShr => (ShiftOp::Sar, EDX),
                    _ => (ShiftOp::Shr, EDX),
                };
                self.emit(MInst::Shift {
                    op: shift,
                    size: Size::L,
                    amount: ShiftAmount::Imm(n),
                    dst: Opnd::Reg(dst),
                });
            } else {
                self.shift_by_word(op, n - 32);
            }
            return;
        }
        self.load(ECX, count);
        let (shift, left) = match op {
            BinOp::Shl => (ShiftOp::Shl, true),
            BinOp::AShr => (ShiftOp::Sar, false),
            _ => (ShiftOp::Shr, false),
        };
        self.emit(MInst::DoubleShift {
            left,
            size: Size::L,
            amount: ShiftAmount::Cl,
            src: if left { EAX } else { EDX },
            dst: Opnd::Reg(if left { EDX } else { EAX }),
        });
        self.emit(MInst::Shift {
            op: shift,
            size: Size::L,
            amount: ShiftAmount::Cl,
            dst: Opnd::Reg(if left { EAX } else { EDX }),
        });
        // x86 masks the count to 5 bits: for 32..63 the words must move over.
        if crate::mutants::enabled(crate::mutants::Mutant::I686WideShiftNoWordFixup) {
            return; // seeded bug: counts 32..63 shift by count - 32, words left in place
        }
        let done = self.label("shift");
        self.alu(AluOp::Test, 1, Opnd::Imm(32), Opnd::Reg(ECX));
        self.emit(MInst::Jcc {
            cc: "e",
            label: done.clone(),
        });
        self.fix_up_after_masked_shift(op);
        self.emit(MInst::Label(done));
    }

    /// Shifts edx:eax by 32 + `extra` (extra < 32).
    fn shift_by_word(&mut self, op: BinOp, extra: u8) {
        let (shift, from, to) = match op {
            BinOp::Shl => (ShiftOp::Shl, EAX, EDX),
            BinOp::AShr => (ShiftOp::Sar, EDX, EAX),
            _ => (ShiftOp::Shr, EDX, EAX),
        };
        self.load(to, Opnd::Reg(from));
        if extra > 0 {
            self.emit(MInst::Shift {
                op: shift,
                size: Size::L,
                amount: ShiftAmount::Imm(extra),
                dst: Opnd::Reg(to),
            });
        }
        self.fill_vacated_word(op);
    }

    /// After a shift by (count mod 32) of both words, for a count of 32..63: the word
    /// that was shifted in place is the result's other word, and the vacated word fills.
    fn fix_up_after_masked_shift(&mut self, op: BinOp) {
        match op {
            BinOp::Shl => self.load(EDX, Opnd::Reg(EAX)),
            _ => self.load(EAX, Opnd::Reg(EDX)),
        }
        self.fill_vacated_word(op);
    }

    /// The word a shift by >= 32 empties: zero, or the sign for `ashr` (edx holds the
    /// shifted high word then).
    fn fill_vacated_word(&mut self, op: BinOp) {
        match op {
            BinOp::Shl => self.load(EAX, Opnd::Imm(0)),
            BinOp::AShr => self.emit(MInst::Shift {
                op: ShiftOp::Sar,
                size: Size::L,
                amount: ShiftAmount::Imm(31),
                dst: Opnd::Reg(EDX),
            }),
            _ => self.load(EDX, Opnd::Imm(0)),
        }
    }

    /// Division and remainder through libgcc, after the IR's trap checks. The result is
    /// left in edx:eax.
    fn wide_division(&mut self, op: BinOp, (alo, ahi): (Opnd, Opnd), (blo, bhi): (Opnd, Opnd)) {
        let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
        let divisor_known_nonzero = match (&blo, &bhi) {
            (Opnd::Imm(l), Opnd::Imm(h)) => *l != 0 || *h != 0,
            _ => false,
        };
        if !divisor_known_nonzero {
            let ok = self.label("divok");
            self.load(EAX, blo.clone());
            self.alu(AluOp::Or, 4, bhi.clone(), Opnd::Reg(EAX));
            self.emit(MInst::Jcc {
                cc: "ne",
                label: ok.clone(),
            });
            self.trap_divide();
            self.emit(MInst::Label(ok));
        }
        if signed {
            let divisor_may_be_minus_one = match (&blo, &bhi) {
                (Opnd::Imm(l), Opnd::Imm(h)) => *l == -1 && *h == -1,
                _ => true,
            };
            let dividend_may_be_min = match (&alo, &ahi) {
                (Opnd::Imm(l), Opnd::Imm(h)) => *l == 0 && *h == i64::from(i32::MIN),
                _ => true,
            };
            if divisor_may_be_minus_one && dividend_may_be_min {
                let ok = self.label("divok");
                self.load(EAX, blo.clone());
                self.alu(AluOp::And, 4, bhi.clone(), Opnd::Reg(EAX));
                self.alu(AluOp::Cmp, 4, Opnd::Imm(-1), Opnd::Reg(EAX));
                self.emit(MInst::Jcc {
                    cc: "ne",
                    label: ok.clone(),
                });
                self.load(EAX, ahi.clone());
                self.alu(
                    AluOp::Xor,
                    4,
                    Opnd::Imm(i64::from(i32::MIN)),
                    Opnd::Reg(EAX),
                );
                self.alu(AluOp::Or, 4, alo.clone(), Opnd::Reg(EAX));
                self.emit(MInst::Jcc {
                    cc: "ne",
                    label: ok.clone(),
                });
                self.trap_divide();
                self.emit(MInst::Label(ok));
            }
        }
        let args = [alo, ahi, blo, bhi];
        for (i, word) in args.into_iter().enumerate() {
            let slot = Opnd::Mem(Mem::base_disp(ESP, 4 * i as i64));
            self.move_word(word, slot, EAX);
        }
        let routine = match op {
            BinOp::SDiv => "__divdi3",
            BinOp::UDiv => "__udivdi3",
            BinOp::SRem => "__moddi3",
            _ => "__umoddi3",
        };
        self.emit(MInst::Call(CallTarget::Symbol(routine.into())));
    }

    /// A divide that always faults (#DE, SIGFPE): `divl` by a zeroed ecx.
    fn trap_divide(&mut self) {
        self.load(ECX, Opnd::Imm(0));
        self.emit(MInst::Div {
            signed: false,
            size: Size::L,
            src: Opnd::Reg(ECX),
        });
    }

    pub(super) fn wide_un(
        &mut self,
        dest: Value,
        op: UnOp,
        ty: IrType,
        src: &Operand,
    ) -> Result<(), BackendError> {
        let (lo, hi) = self.pair(src, ty)?;
        self.load(EAX, lo);
        self.load(EDX, hi);
        match op {
            UnOp::Neg => {
                // -(hi:lo) = (~hi + (lo == 0)) : -lo.
                self.emit(MInst::Unary {
                    op: UnaryOp::Neg,
                    size: Size::L,
                    dst: Opnd::Reg(EAX),
                });
                self.alu(AluOp::Adc, 4, Opnd::Imm(0), Opnd::Reg(EDX));
                self.emit(MInst::Unary {
                    op: UnaryOp::Neg,
                    size: Size::L,
                    dst: Opnd::Reg(EDX),
                });
            }
            UnOp::Not => {
                for r in [EAX, EDX] {
                    self.emit(MInst::Unary {
                        op: UnaryOp::Not,
                        size: Size::L,
                        dst: Opnd::Reg(r),
                    });
                }
            }
        }
        self.set_pair(dest, EAX, EDX)
    }

    /// Compares two 64-bit operands; returns the condition code under which `pred`
    /// holds, for the flags the emitted code leaves.
    pub(super) fn wide_cmp(
        &mut self,
        pred: CmpPred,
        ty: IrType,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<&'static str, BackendError> {
        let a = self.pair(lhs, ty)?;
        let b = self.pair(rhs, ty)?;
        if matches!(pred, CmpPred::Eq | CmpPred::Ne) {
            self.load(EAX, a.0);
            self.load(EDX, a.1);
            self.alu(AluOp::Xor, 4, b.0, Opnd::Reg(EAX));
            self.alu(AluOp::Xor, 4, b.1, Opnd::Reg(EDX));
            self.alu(AluOp::Or, 4, Opnd::Reg(EDX), Opnd::Reg(EAX));
            return Ok(condition_code(pred));
        }
        // x - y over the pair (cmp low, sbb high) leaves SF/OF/CF of the 64-bit
        // subtraction, which answer "x < y" and "x >= y"; the other two predicates swap
        // the operands.
        let (x, y, pred) = match pred {
            CmpPred::Sgt => (b, a, CmpPred::Slt),
            CmpPred::Sle => (b, a, CmpPred::Sge),
            CmpPred::Ugt => (b, a, CmpPred::Ult),
            CmpPred::Ule => (b, a, CmpPred::Uge),
            p => (a, b, p),
        };
        self.load(EAX, x.0);
        self.load(EDX, x.1);
        self.alu(AluOp::Cmp, 4, y.0, Opnd::Reg(EAX));
        self.alu(AluOp::Sbb, 4, y.1, Opnd::Reg(EDX));
        Ok(condition_code(pred))
    }
}
