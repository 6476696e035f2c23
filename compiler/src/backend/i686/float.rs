//! Floating point on i686: how the shared SSE2 selection (`backend::x86::float`) reaches
//! this backend's values, the conversions between integers and floats, and the i386
//! System V float results in `st(0)`.
//!
//! Why it exists: on i686 an `f32` lives in a 32-bit word (a register or a 4-byte slot)
//! and an `f64` is stack-only like `i64` (an 8-byte slot), so an operand reaches %xmm0
//! by `movd` from a word or `movq` from a slot. What 32-bit x86 lacks is here: `u32` to
//! float converts exactly in `f64` (adding 2^32 to a negative `i32` reading) and rounds
//! once to `f32`; `i64`/`u64` to float go through the x87 `fildll` (exact in the 64-bit
//! mantissa, 2^64 added for a `u64` with its top bit set) and one rounding `fstp`; float
//! to `i64`/`u64` call libgcc's `__fix{,uns}{s,d}fdi` (as gcc does); float to `u32`
//! subtracts 2^31 from the values the signed conversion cannot reach.
//!
//! Invariants: as `isel`'s — operands are read before the destination is written; only
//! eax, ecx, edx, %xmm0-%xmm2, the x87 stack (left empty) and the frame's scratch area
//! ([`FLOAT_SCRATCH_BYTES`] at 0(%esp), which `abi::Frame` reserves in the outgoing
//! area of every function that uses a float; no call's arguments are being built while a
//! float instruction runs) are written besides the destination.

use super::isel::{bytes_of, Selector, EAX, EDX, ESP};
use crate::backend::x86::float::{self, bits_to_xmm, FloatSelect, X0, X1};
use crate::backend::x86::inst::{AluOp, CallTarget, Inst as MInst, Mem, Operand as Opnd, Size};
use crate::backend::x86::sse::{Sse, SseOp, Xmm};
use crate::backend::BackendError;
use crate::ir::{Inst, IrType, Operand, Value};
use crate::mutants::{self, Mutant};
use crate::target::Target;

/// Bytes at 0(%esp) that float code may use as scratch memory (x87 loads and stores,
/// libgcc arguments): the outgoing area of a function with floats is at least this big.
pub const FLOAT_SCRATCH_BYTES: u32 = 16;

/// True when `inst` names a float type or holds a float constant: its selection may use
/// the scratch area, so the frame reserves [`FLOAT_SCRATCH_BYTES`] for it.
pub fn needs_float_scratch(inst: &Inst) -> bool {
    let mut uses = match inst {
        Inst::FBin { .. } | Inst::FNeg { .. } | Inst::FCmp { .. } | Inst::Bitcast { .. } => true,
        Inst::Cast { from, to, .. } => from.is_float() || to.is_float(),
        Inst::Call { ret, .. } => ret.is_float(),
        other => other.result_type().is_float(),
    };
    inst.for_each_operand_typed(|op, ty| {
        uses |= ty.is_float() || matches!(op, Operand::Const(c) if c.ty.is_float());
    });
    uses
}

fn scratch(offset: i64) -> Mem {
    Mem::base_disp(ESP, offset)
}

impl FloatSelect for Selector<'_> {
    fn float_target(&self) -> Target {
        Target::I686
    }

    fn emit_float(&mut self, inst: MInst) {
        self.emit(inst);
    }

    fn float_label(&mut self, purpose: &str) -> String {
        self.label(purpose)
    }

    fn operand_to_xmm(&mut self, op: &Operand, ty: IrType, x: Xmm) -> Result<(), BackendError> {
        if ty == IrType::F64 {
            match op {
                Operand::Value(v) => {
                    let m = self.wide_slot(*v)?;
                    self.emit(MInst::Sse(Sse::ToXmm {
                        size: Size::Q,
                        src: Opnd::Mem(m),
                        dst: x,
                    }));
                }
                Operand::Const(c) => {
                    let bits = c.bits as u64;
                    let bits = if mutants::enabled(Mutant::I686F64ConstHalvesSwapped) {
                        bits.rotate_left(32)
                    } else {
                        bits
                    };
                    bits_to_xmm(self, bits, true, x, Xmm(2))
                }
            }
            return Ok(());
        }
        let src = match self.word(op, ty) {
            Opnd::Imm(k) => {
                self.load(EAX, Opnd::Imm(k));
                Opnd::Reg(EAX)
            }
            other => other,
        };
        self.emit(MInst::Sse(Sse::ToXmm {
            size: Size::L,
            src,
            dst: x,
        }));
        Ok(())
    }

    fn xmm_to_value(&mut self, dest: Value, ty: IrType, x: Xmm) -> Result<(), BackendError> {
        let (size, dst) = if ty == IrType::F64 {
            (Size::Q, Opnd::Mem(self.wide_slot(dest)?))
        } else {
            (Size::L, self.loc(dest))
        };
        self.emit(MInst::Sse(Sse::FromXmm { size, src: x, dst }));
        Ok(())
    }

    fn flag_to_value(&mut self, dest: Value) {
        self.set_word(dest, EAX);
    }
}

impl Selector<'_> {
    /// `%d = cast FROM A to TO` where one side is a float.
    pub(super) fn float_cast(
        &mut self,
        dest: Value,
        from: IrType,
        src: &Operand,
        to: IrType,
    ) -> Result<(), BackendError> {
        match (from.is_float(), to.is_float()) {
            (true, true) => float::select_fconvert(self, dest, from, src, to),
            (false, true) => self.int_to_float(dest, from, src, to),
            _ => self.float_to_int(dest, from, src, to),
        }
    }

    fn int_to_float(
        &mut self,
        dest: Value,
        from: IrType,
        src: &Operand,
        to: IrType,
    ) -> Result<(), BackendError> {
        let double = to == IrType::F64;
        if bytes_of(from) == 8 {
            return self.wide_int_to_float(dest, from, src, to);
        }
        let w = match self.word(src, from) {
            Opnd::Imm(k) => {
                self.load(EAX, Opnd::Imm(k));
                Opnd::Reg(EAX)
            }
            other => other,
        };
        if from != IrType::U32 {
            // Every narrower integer is exact as the canonical signed word.
            self.emit(MInst::Sse(Sse::IntToFloat {
                double,
                size: Size::L,
                src: w,
                dst: X0,
            }));
            return self.xmm_to_value(dest, to, X0);
        }
        // u32: exact in f64 (the signed reading, plus 2^32 when negative), then one
        // rounding to f32.
        self.load(EAX, w);
        self.emit(MInst::Sse(Sse::IntToFloat {
            double: true,
            size: Size::L,
            src: Opnd::Reg(EAX),
            dst: X0,
        }));
        let done = self.label("u32f");
        self.alu(AluOp::Test, 4, Opnd::Reg(EAX), Opnd::Reg(EAX));
        self.emit(MInst::Jcc {
            cc: "ns",
            label: done.clone(),
        });
        bits_to_xmm(self, 0x41f0_0000_0000_0000, true, X1, Xmm(2));
        self.emit(MInst::Sse(Sse::Arith {
            op: SseOp::Add,
            double: true,
            src: X1,
            dst: X0,
        }));
        self.emit(MInst::Label(done));
        if !double {
            self.emit(MInst::Sse(Sse::FloatToFloat {
                to_double: false,
                src: X0,
                dst: X0,
            }));
        }
        self.xmm_to_value(dest, to, X0)
    }

    /// `i64`/`u64` to float: a constant is converted here (Rust's `as` rounds to
    /// nearest-even, once), a value by `fildll` from its slot, plus 2^64 for a `u64`
    /// whose top bit is set (exact in the x87's 64-bit mantissa), then one rounding
    /// `fstp` into the scratch area.
    fn wide_int_to_float(
        &mut self,
        dest: Value,
        from: IrType,
        src: &Operand,
        to: IrType,
    ) -> Result<(), BackendError> {
        let double = to == IrType::F64;
        let slot = match src {
            Operand::Const(c) => {
                let bits = c.narrowed_to(from).bits;
                let converted = match (from == IrType::U64, double) {
                    (true, true) => (bits as u64 as f64).to_bits(),
                    (true, false) => u64::from((bits as u64 as f32).to_bits()),
                    (false, true) => (bits as f64).to_bits(),
                    (false, false) => u64::from((bits as f32).to_bits()),
                };
                bits_to_xmm(self, converted, double, X0, X1);
                return self.xmm_to_value(dest, to, X0);
            }
            Operand::Value(v) => self.wide_slot(*v)?,
        };
        self.emit(MInst::Sse(Sse::X87LoadInt64 { src: slot.clone() }));
        if from == IrType::U64 {
            let done = self.label("u64f");
            self.alu(AluOp::Cmp, 4, Opnd::Imm(0), Opnd::Mem(slot.offset_by(4)));
            self.emit(MInst::Jcc {
                cc: "ge",
                label: done.clone(),
            });
            // 2^64 as an f32.
            self.mov(4, Opnd::Imm(0x5f80_0000), Opnd::Mem(scratch(8)));
            self.emit(MInst::Sse(Sse::X87AddFloat { src: scratch(8) }));
            self.emit(MInst::Label(done));
        }
        self.emit(MInst::Sse(Sse::X87StorePop {
            double,
            dst: scratch(0),
        }));
        self.emit(MInst::Sse(Sse::ToXmm {
            size: if double { Size::Q } else { Size::L },
            src: Opnd::Mem(scratch(0)),
            dst: X0,
        }));
        self.xmm_to_value(dest, to, X0)
    }

    fn float_to_int(
        &mut self,
        dest: Value,
        from: IrType,
        src: &Operand,
        to: IrType,
    ) -> Result<(), BackendError> {
        let double = from == IrType::F64;
        self.operand_to_xmm(src, from, X0)?;
        if bytes_of(to) == 8 {
            // libgcc, as gcc calls it: the float on the stack, the result in edx:eax.
            self.emit(MInst::Sse(Sse::FromXmm {
                size: if double { Size::Q } else { Size::L },
                src: X0,
                dst: Opnd::Mem(scratch(0)),
            }));
            let name = format!(
                "__fix{}{}fdi",
                if to == IrType::U64 { "uns" } else { "" },
                if double { 'd' } else { 's' }
            );
            self.emit(MInst::Call(CallTarget::Symbol(name)));
            return self.set_pair(dest, EAX, EDX);
        }
        if to == IrType::U32 {
            float::truncate_to_unsigned(self, double, Size::L);
        } else {
            self.emit(MInst::Sse(Sse::FloatToInt {
                double,
                size: Size::L,
                src: X0,
                dst: EAX,
            }));
        }
        self.extend_canonical(EAX, to);
        self.set_word(dest, EAX);
        Ok(())
    }

    /// After a call returning a float (in `st(0)`): pops it into `dest`, or discards it.
    pub(super) fn float_call_result(
        &mut self,
        dest: Option<Value>,
        ret: IrType,
    ) -> Result<(), BackendError> {
        let Some(dest) = dest else {
            self.emit(MInst::Sse(Sse::X87Discard));
            return Ok(());
        };
        if ret == IrType::F64 {
            let m = self.wide_slot(dest)?;
            self.emit(MInst::Sse(Sse::X87StorePop {
                double: true,
                dst: m,
            }));
        } else {
            self.emit(MInst::Sse(Sse::X87StorePop {
                double: false,
                dst: scratch(0),
            }));
            self.load(EAX, Opnd::Mem(scratch(0)));
            self.set_word(dest, EAX);
        }
        Ok(())
    }

    /// `ret TYPE V` of a float: its bits loaded onto the x87 stack (`st(0)`), through the
    /// scratch area unless the value already is in memory.
    pub(super) fn float_return_value(
        &mut self,
        ty: IrType,
        op: &Operand,
    ) -> Result<(), BackendError> {
        let double = ty == IrType::F64;
        let src = match (double, op) {
            (true, Operand::Value(v)) => self.wide_slot(*v)?,
            (true, Operand::Const(_)) => {
                let (lo, hi) = self.pair(op, ty)?;
                self.move_word(lo, Opnd::Mem(scratch(0)), EAX);
                self.move_word(hi, Opnd::Mem(scratch(4)), EAX);
                scratch(0)
            }
            (false, _) => match self.word(op, ty) {
                Opnd::Mem(m) => m,
                other => {
                    self.move_word(other, Opnd::Mem(scratch(0)), EAX);
                    scratch(0)
                }
            },
        };
        self.emit(MInst::Sse(Sse::X87Load { double, src }));
        Ok(())
    }
}
