//! Floating point on x86-64: how the shared SSE2 selection (`backend::x86::float`)
//! reaches this backend's values, and the conversions between integers and floats.
//!
//! Why it exists: a float value lives where an integer of its size lives (its raw bits
//! in one of the allocated general registers or an 8-byte spill slot, an `f32`
//! zero-extended), so this file is the bridge: `movd`/`movq` between a value's location
//! and the scratch XMM registers, and the conversions whose code depends on x86-64's
//! 64-bit registers — `u64` to float (gcc's halving with the low bit kept sticky, so the
//! one rounding is still to nearest-even) and float to `u64` (subtract 2^63 first from
//! the values the signed conversion cannot reach).
//!
//! Invariants: as `isel`'s — every operand is read before the destination is written;
//! only %rax, %rcx, %xmm0-%xmm2 are written besides the destination; a float result
//! leaves its bits canonical (an `f32` zero-extended to 64 bits), an integer result its
//! canonical extension.

use super::isel::{const_value, Selector};
use crate::backend::x86::float::{self, FloatSelect, X0};
use crate::backend::x86::inst::{AluOp, Inst, Operand, ShiftAmount, ShiftOp, Size};
use crate::backend::x86::sse::{Sse, SseOp, Xmm};
use crate::backend::x86::Reg;
use crate::backend::BackendError;
use crate::ir::{IrType, Operand as IrOperand, Value};
use crate::target::Target;

fn width(ty: IrType) -> Size {
    if ty == IrType::F64 {
        Size::Q
    } else {
        Size::L
    }
}

impl FloatSelect for Selector<'_> {
    fn float_target(&self) -> Target {
        Target::X86_64
    }

    fn emit_float(&mut self, inst: Inst) {
        self.push(inst);
    }

    fn float_label(&mut self, purpose: &str) -> String {
        self.fresh_label(purpose)
    }

    fn operand_to_xmm(&mut self, op: &IrOperand, ty: IrType, x: Xmm) -> Result<(), BackendError> {
        self.float_to_xmm(op, ty, x);
        Ok(())
    }

    fn xmm_to_value(&mut self, dest: Value, ty: IrType, x: Xmm) -> Result<(), BackendError> {
        let r = self.work_reg(dest, &[]);
        self.push(Inst::Sse(Sse::FromXmm {
            size: width(ty),
            src: x,
            dst: r.into(),
        }));
        self.write_dest(dest, r);
        Ok(())
    }

    fn flag_to_value(&mut self, dest: Value) {
        self.write_dest(dest, Reg::Rax);
    }
}

impl Selector<'_> {
    /// Puts the bits of float operand `op` into `x` (a constant through %rax).
    pub(super) fn float_to_xmm(&mut self, op: &IrOperand, ty: IrType, x: Xmm) {
        let src = match op {
            IrOperand::Value(v) => self.loc_operand(*v),
            IrOperand::Const(c) => {
                self.materialize(const_value(*c, ty), Reg::Rax);
                Operand::Reg(Reg::Rax)
            }
        };
        self.push(Inst::Sse(Sse::ToXmm {
            size: width(ty),
            src,
            dst: x,
        }));
    }

    /// `%d = cast FROM A to TO` where one side is a float.
    pub(super) fn select_float_cast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &IrOperand,
        to: IrType,
    ) -> Result<(), BackendError> {
        match (from.is_float(), to.is_float()) {
            (true, true) => float::select_fconvert(self, dest, from, src, to),
            (false, true) => {
                self.int_to_float(from, src, to == IrType::F64);
                self.xmm_to_value(dest, to, X0)
            }
            _ => {
                self.float_to_int(from, src, to);
                let r = self.work_reg(dest, &[]);
                self.extend_into(to, Reg::Rax, r);
                self.write_dest(dest, r);
                Ok(())
            }
        }
    }

    /// Converts the integer `src` of type `from` to a float in %xmm0, rounded once.
    fn int_to_float(&mut self, from: IrType, src: &IrOperand, double: bool) {
        self.load_into(src, from, Reg::Rax);
        let convert = |r: Reg| {
            Inst::Sse(Sse::IntToFloat {
                double,
                size: Size::Q,
                src: r.into(),
                dst: X0,
            })
        };
        if from != IrType::U64 {
            // Every other integer type is exact in a canonical 64-bit signed register.
            self.push(convert(Reg::Rax));
            return;
        }
        // u64 from 2^63 on: halve with the lost bit or'ed in (sticky), convert, double.
        let big = self.fresh_label("u64big");
        let done = self.fresh_label("u64done");
        self.push(Inst::Alu {
            op: AluOp::Test,
            size: Size::Q,
            src: Reg::Rax.into(),
            dst: Reg::Rax.into(),
        });
        self.push(Inst::Jcc {
            cc: "s",
            label: big.clone(),
        });
        self.push(convert(Reg::Rax));
        self.push(Inst::Jmp(done.clone()));
        self.push(Inst::Label(big));
        self.push(Inst::Mov {
            size: Size::Q,
            src: Reg::Rax.into(),
            dst: Reg::Rcx.into(),
        });
        self.push(Inst::Shift {
            op: ShiftOp::Shr,
            size: Size::Q,
            amount: ShiftAmount::Imm(1),
            dst: Reg::Rcx.into(),
        });
        self.push(Inst::Alu {
            op: AluOp::And,
            size: Size::L,
            src: Operand::Imm(1),
            dst: Reg::Rax.into(),
        });
        self.push(Inst::Alu {
            op: AluOp::Or,
            size: Size::Q,
            src: Reg::Rax.into(),
            dst: Reg::Rcx.into(),
        });
        self.push(convert(Reg::Rcx));
        self.push(Inst::Sse(Sse::Arith {
            op: SseOp::Add,
            double,
            src: X0,
            dst: X0,
        }));
        self.push(Inst::Label(done));
    }

    /// Truncates the float `src` toward zero into %rax (undefined out of range in the
    /// IR, so any bits do there).
    fn float_to_int(&mut self, from: IrType, src: &IrOperand, to: IrType) {
        let double = from == IrType::F64;
        self.float_to_xmm(src, from, X0);
        match to {
            IrType::U64 => float::truncate_to_unsigned(self, double, Size::Q),
            IrType::I64 | IrType::U32 => self.push(Inst::Sse(Sse::FloatToInt {
                double,
                size: Size::Q,
                src: X0,
                dst: Reg::Rax,
            })),
            _ => self.push(Inst::Sse(Sse::FloatToInt {
                double,
                size: Size::L,
                src: X0,
                dst: Reg::Rax,
            })),
        }
    }

    /// `%d = bitcast FROM A to TO`: the same bits, canonical for `TO` (an `i32` from an
    /// `f32` sign-extended, an `f32` from an `i32` zero-extended).
    pub(super) fn select_bitcast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &IrOperand,
        to: IrType,
    ) {
        let r = self.work_reg(dest, &[]);
        self.load_into(src, from, r);
        self.extend(to, r);
        self.write_dest(dest, r);
    }
}
