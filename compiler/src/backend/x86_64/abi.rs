//! The SysV AMD64 calling convention as phicc uses it: the frame, the prologue and
//! epilogue, incoming parameters, outgoing calls and returned values.
//!
//! Why it exists: everything that must agree with code phicc did not compile (libc, and
//! gcc's callers and callees in a mixed link) lives here, apart from instruction selection.
//!
//! The frame (addresses grow upwards):
//! ```text
//!   16+8k(%rbp)      incoming stack argument k
//!    8(%rbp)         return address
//!    0(%rbp)         caller's %rbp
//!   -8n(%rbp)..      the n callee-saved registers the allocation used (pushed)
//!                    [padding / realignment]
//!   off(%rsp)        slots: allocas, spill slots, parameter homes (`frame::layout`)
//!   0..(%rsp)        outgoing stack arguments of the largest call
//! ```
//!
//! Invariants:
//! - %rsp is 16-byte aligned after the prologue and never moves until the epilogue, so
//!   every call happens with an aligned stack and every slot has one fixed address —
//!   except in a function with dynamic stack allocation (`dynamic_stack.rs`), where it
//!   moves by multiples of 16 and the slots are addressed from %rbp instead;
//! - when a slot needs more than 16-byte alignment the prologue realigns %rsp
//!   (`sub; and $-A`), and the epilogue restores it from %rbp, which also reaches the
//!   incoming stack arguments;
//! - the prologue stores every incoming register parameter that a `paramref` reads into
//!   its home slot before anything can clobber it; `paramref` re-extends the value
//!   canonically for its IR type (the ABI leaves the upper bits unspecified);
//! - parameters and arguments are placed by [`arg_places`]: integers in %rdi..%r9 and
//!   floats (`f32`, `f64`) in %xmm0..%xmm7, counted apart, the rest on the stack in
//!   order; a float result is in %xmm0;
//! - a call's stack arguments are stored first, then its float arguments are moved
//!   into their XMM registers (XMM registers are never allocated, so nothing later can
//!   clobber them), then its integer register arguments are moved in parallel (a source
//!   that is itself an argument register is read before it is overwritten); `%al` is the
//!   number of XMM registers used for calls that may be variadic, and the result is
//!   re-extended canonically for its IR type (an `f32` zero-extended);
//! - the prologue stores the XMM parameters' bits (8 bytes) to their homes, as it does
//!   the general registers.

use super::isel::{const_value, Selector};
use super::X86_64;
use crate::abi_intrinsics::AbiHi;
use crate::backend::frame::{
    collect_slots_with_register_params, FrameLayout, FrameRules, FrameSlots,
};
use crate::backend::parallel_move::{self, Move, Source};
use crate::backend::regalloc::{Allocation, Loc, SpillSlot};
use crate::backend::second_result::{float_part_intrinsic, second_result_intrinsic};
use crate::backend::x86::inst::{AluOp, CallTarget, Inst, Mem, Operand, Size};
use crate::backend::x86::sse::{Sse, Xmm};
use crate::backend::x86::Reg;
use crate::backend::{dynamic_stack, BackendError};
use crate::frame_intrinsics::FrameIntrinsic;
use crate::ir::{Callee, IrFunction, IrModule, IrType, Operand as IrOperand, Value};
use crate::mutants::{self, Mutant};
use rustc_hash::FxHashMap;

/// Integer argument registers, in order.
pub(super) const ARG_REGS: [Reg; 6] = [Reg::Rdi, Reg::Rsi, Reg::Rdx, Reg::Rcx, Reg::R8, Reg::R9];

/// Float argument registers: %xmm0..%xmm7.
pub(super) const FLOAT_ARG_REGS: usize = 8;

/// Where one argument or parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArgPlace {
    /// `ARG_REGS[k]`.
    Gpr(usize),
    /// `%xmm<k>`.
    Xmm(usize),
    /// The k-th 8-byte stack slot.
    Stack(usize),
}

/// The SysV places of arguments of `types`, in order: integer classes and float classes
/// take registers from their own sequence, and an argument whose sequence is used up
/// goes to the next stack slot.
pub(super) fn arg_places(types: impl IntoIterator<Item = IrType>) -> Vec<ArgPlace> {
    let (mut gpr, mut xmm, mut stack) = (0, 0, 0);
    types
        .into_iter()
        .map(|ty| {
            if ty.is_float() && xmm < FLOAT_ARG_REGS {
                xmm += 1;
                ArgPlace::Xmm(xmm - 1)
            } else if !ty.is_float() && gpr < ARG_REGS.len() {
                gpr += 1;
                ArgPlace::Gpr(gpr - 1)
            } else {
                stack += 1;
                ArgPlace::Stack(stack - 1)
            }
        })
        .collect()
}

/// The stack alignment the ABI guarantees at a call.
const STACK_ALIGN: u32 = 16;

/// The largest frame phicc lays out: every slot offset must fit a 32-bit displacement.
const MAX_FRAME: u32 = i32::MAX as u32 - 4096;

/// Where the parts of one function's frame are.
pub(super) struct Frame {
    layout: FrameLayout,
    /// Slot index of each alloca.
    alloca_slots: FxHashMap<Value, usize>,
    /// Slot index of spill slot 0 (spill slots follow in order).
    spill_base: usize,
    /// Slot index of the home of each register parameter a `paramref` reads (indexed
    /// by parameter).
    homes: Vec<Option<usize>>,
    /// Where each parameter arrives.
    places: Vec<ArgPlace>,
    /// Callee-saved registers the prologue pushes, in push order.
    saved: Vec<Reg>,
    /// The alignment the prologue realigns %rsp to, when it exceeds the ABI's.
    realign: Option<u32>,
    /// The register save area of a function that calls `va_start` (`va.rs`).
    va_save: Option<Mem>,
    /// The function allocates on the stack dynamically: slots are addressed from %rbp.
    dynamic: bool,
}

impl Frame {
    /// Lays out the frame of `func` under allocation `alloc`.
    pub(super) fn build(func: &IrFunction, alloc: &Allocation) -> Result<Frame, BackendError> {
        let places = arg_places(func.params.iter().copied());
        let in_register: Vec<bool> = places
            .iter()
            .map(|p| !matches!(p, ArgPlace::Stack(_)))
            .collect();
        let FrameSlots {
            layout,
            alloca_slots,
            spill_base,
            homes,
        } = collect_slots_with_register_params(
            func,
            alloc,
            &FrameRules {
                target: X86_64,
                arg_regs: ARG_REGS.len(),
                max_frame: u64::from(MAX_FRAME),
                max_align: 1 << 20,
                stack_align: STACK_ALIGN,
            },
            &in_register,
        )?;
        let realign = (layout.max_align > STACK_ALIGN).then_some(layout.max_align);
        let dynamic = dynamic_stack::is_dynamic(func);
        if dynamic && realign.is_some() {
            return Err(BackendError::new(
                X86_64,
                func,
                None,
                dynamic_stack::OVER_ALIGNED_MESSAGE.into(),
            ));
        }
        let mut saved: Vec<Reg> = alloc
            .used_callee_saved
            .iter()
            .map(|&p| Reg::from_preg(p))
            .collect();
        if mutants::enabled(Mutant::X86_64CalleeSavedNotSaved) {
            saved.pop();
        }
        let mut frame = Frame {
            layout,
            alloca_slots,
            spill_base,
            homes,
            places,
            saved,
            realign,
            va_save: None,
            dynamic,
        };
        frame.va_save = crate::backend::va::save_area(func).and_then(|v| frame.alloca_mem(v));
        Ok(frame)
    }

    fn slot_mem(&self, slot: usize) -> Mem {
        let offset = i64::from(self.layout.offset(slot));
        if self.dynamic {
            Mem::base_disp(Reg::Rbp, offset - self.sp_below_fp())
        } else {
            Mem::base_disp(Reg::Rsp, offset)
        }
    }

    /// How far below %rbp the prologue leaves %rsp (without a realignment): the pushed
    /// callee-saved registers, the padding that realigns them, the frame.
    fn sp_below_fp(&self) -> i64 {
        8 * self.saved.len() as i64 + self.save_padding() + i64::from(self.layout.size)
    }

    /// %rsp is 16-aligned after `push %rbp`; each saved register moves it by 8.
    fn save_padding(&self) -> i64 {
        if self.saved.len() % 2 == 1 {
            8
        } else {
            0
        }
    }

    /// The size of the outgoing-argument area (dynamic objects start right above it).
    pub(super) fn outgoing_bytes(&self) -> u32 {
        self.layout.outgoing
    }

    /// The stack object of alloca `v`.
    pub(super) fn alloca_mem(&self, v: Value) -> Option<Mem> {
        self.alloca_slots.get(&v).map(|&s| self.slot_mem(s))
    }

    /// The address of spill slot `s`.
    pub(super) fn spill_mem(&self, s: SpillSlot) -> Mem {
        self.slot_mem(self.spill_base + s.0 as usize)
    }

    /// Where parameter `index`'s incoming value is: its home slot (register parameters)
    /// or the caller's outgoing area.
    pub(super) fn param_mem(&self, index: u32) -> Option<Mem> {
        let index = index as usize;
        match self.places.get(index)? {
            ArgPlace::Stack(k) => Some(Mem::base_disp(Reg::Rbp, 16 + 8 * *k as i64)),
            _ => self.homes[index].map(|s| self.slot_mem(s)),
        }
    }

    /// How many parameters arrive in general registers, in XMM registers, on the stack.
    pub(super) fn param_counts(&self) -> (usize, usize, usize) {
        let count = |f: fn(&ArgPlace) -> bool| self.places.iter().filter(|p| f(p)).count();
        (
            count(|p| matches!(p, ArgPlace::Gpr(_))),
            count(|p| matches!(p, ArgPlace::Xmm(_))),
            count(|p| matches!(p, ArgPlace::Stack(_))),
        )
    }

    /// The instructions that set up the frame and store the register parameters.
    pub(super) fn prologue(&self) -> Vec<Inst> {
        let mut out = vec![
            Inst::Push {
                size: Size::Q,
                src: Reg::Rbp.into(),
            },
            Inst::Mov {
                size: Size::Q,
                src: Reg::Rsp.into(),
                dst: Reg::Rbp.into(),
            },
        ];
        for &r in &self.saved {
            out.push(Inst::Push {
                size: Size::Q,
                src: r.into(),
            });
        }
        let adjust = i64::from(self.layout.size) + self.save_padding();
        if adjust != 0 {
            out.push(Inst::Alu {
                op: AluOp::Sub,
                size: Size::Q,
                src: Operand::Imm(adjust),
                dst: Reg::Rsp.into(),
            });
        }
        if let Some(align) = self.realign {
            out.push(Inst::Alu {
                op: AluOp::And,
                size: Size::Q,
                src: Operand::Imm(-i64::from(align)),
                dst: Reg::Rsp.into(),
            });
        }
        for (home, place) in self.homes.iter().zip(&self.places) {
            match (home, place) {
                (Some(slot), ArgPlace::Gpr(k)) => out.push(Inst::Mov {
                    size: Size::Q,
                    src: ARG_REGS[*k].into(),
                    dst: self.slot_mem(*slot).into(),
                }),
                (Some(slot), ArgPlace::Xmm(k)) => out.push(Inst::Sse(Sse::FromXmm {
                    size: Size::Q,
                    src: Xmm(*k as u8),
                    dst: self.slot_mem(*slot).into(),
                })),
                _ => {}
            }
        }
        if let Some(area) = &self.va_save {
            out.extend(super::va::save_registers(area.clone()));
        }
        out
    }

    /// The instructions that tear the frame down and return (the value, if any, is
    /// already in %rax).
    pub(super) fn epilogue(&self) -> Vec<Inst> {
        let mut out = Vec::new();
        if self.saved.is_empty() {
            out.push(Inst::Leave);
        } else {
            out.push(Inst::Lea {
                size: Size::Q,
                src: Mem::base_disp(Reg::Rbp, -8 * self.saved.len() as i64),
                dst: Reg::Rsp,
            });
            for &r in self.saved.iter().rev() {
                out.push(Inst::Pop {
                    size: Size::Q,
                    dst: r.into(),
                });
            }
            out.push(Inst::Pop {
                size: Size::Q,
                dst: Reg::Rbp.into(),
            });
        }
        out.push(Inst::Ret);
        out
    }
}

/// True when a call to `callee` may reach a variadic function (so `%al` must hold the
/// number of vector registers used: 0). Indirect calls are treated as variadic: the IR
/// does not say, and setting `%al` costs nothing.
fn may_be_variadic(module: &IrModule, callee: &Callee) -> bool {
    match callee {
        Callee::Direct(name) => {
            module.decl(name).is_some_and(|d| d.variadic)
                || module.function(name).is_some_and(|f| f.variadic)
        }
        Callee::Indirect(_) => true,
    }
}

/// Where an argument move reads or writes: a register, or a spill slot (read only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum MoveLoc {
    Reg(Reg),
    Slot(SpillSlot),
}

impl Selector<'_> {
    /// `[%d =] call TYPE callee(args)`.
    pub(super) fn select_call(
        &mut self,
        dest: Option<Value>,
        ret: IrType,
        callee: &Callee,
        args: &[(IrType, IrOperand)],
    ) -> Result<(), BackendError> {
        if crate::backend::va::is_va_start(callee) {
            return self.select_va_start(args);
        }
        if let Some(k) = FrameIntrinsic::of_callee(callee) {
            // Every frame keeps %rbp: the caller's return address at 8(%rbp).
            if let Some(d) = dest {
                match k {
                    FrameIntrinsic::ReturnAddress => {
                        let r = self.work_reg(d, &[]);
                        self.push(Inst::Mov {
                            size: Size::Q,
                            src: Mem::base_disp(Reg::Rbp, 8).into(),
                            dst: r.into(),
                        });
                        self.write_dest(d, r);
                    }
                    FrameIntrinsic::FrameAddress => self.write_dest(d, Reg::Rbp),
                }
            }
            return Ok(());
        }
        if let Some(k) = second_result_intrinsic(callee) {
            // The second register of a two-register record result, right where the
            // verifier and `backend::second_result::check` keep the intrinsic.
            match k {
                AbiHi::RetHi => {
                    if let Some((ty, op)) = args.first() {
                        self.load_into(op, *ty, Reg::Rdx);
                    }
                }
                AbiHi::ResultHi => {
                    if let Some(d) = dest {
                        self.write_dest(d, Reg::Rdx);
                    }
                }
            }
            return Ok(());
        }
        if let Some(k) = float_part_intrinsic(callee) {
            // A float part of a record result: %xmm<reg>, which nothing allocates.
            if k.set {
                if let Some((ty, op)) = args.first() {
                    self.float_to_xmm(op, *ty, Xmm(k.reg));
                }
            } else if let Some(d) = dest {
                let r = self.work_reg(d, &[]);
                self.push(Inst::Sse(Sse::FromXmm {
                    size: if k.ty == IrType::F64 {
                        Size::Q
                    } else {
                        Size::L
                    },
                    src: Xmm(k.reg),
                    dst: r.into(),
                }));
                self.write_dest(d, r);
            }
            return Ok(());
        }
        // The callee's address first, into a scratch register no argument uses.
        let target = match callee {
            Callee::Direct(name) => CallTarget::Symbol(name.clone()),
            Callee::Indirect(fp) => {
                self.load_into(fp, IrType::Ptr, Reg::R11);
                CallTarget::Indirect(Reg::R11.into())
            }
        };
        // Stack arguments: they read their sources before any argument register changes.
        let off_by = if mutants::enabled(Mutant::X86_64StackArgOffBy8) {
            8
        } else {
            0
        };
        let places = arg_places(args.iter().map(|(ty, _)| *ty));
        for ((ty, op), place) in args.iter().zip(&places) {
            let ArgPlace::Stack(k) = place else {
                continue;
            };
            let slot = Mem::base_disp(Reg::Rsp, 8 * *k as i64 + off_by);
            let src = self.source(op, *ty, Size::Q, Reg::Rax);
            let src = match src {
                Operand::Mem(_) => {
                    self.push(Inst::Mov {
                        size: Size::Q,
                        src,
                        dst: Reg::Rax.into(),
                    });
                    Operand::Reg(Reg::Rax)
                }
                other => other,
            };
            self.push(Inst::Mov {
                size: Size::Q,
                src,
                dst: slot.into(),
            });
        }
        // Float arguments: into their XMM registers, which nothing allocates, so the
        // integer moves below cannot disturb them.
        let mut xmm_used: i64 = 0;
        for ((ty, op), place) in args.iter().zip(&places) {
            if let ArgPlace::Xmm(k) = place {
                self.float_to_xmm(op, *ty, Xmm(*k as u8));
                xmm_used += 1;
            }
        }
        // Integer register arguments: one parallel move (an argument may sit in the
        // register another one goes to), sequentialised by the shared resolver with %rax
        // to break cycles.
        let moves: Vec<Move<MoveLoc, i64>> = args
            .iter()
            .zip(&places)
            .filter_map(|(arg, place)| match place {
                ArgPlace::Gpr(k) => Some((arg, ARG_REGS[*k])),
                _ => None,
            })
            .map(|((ty, op), dst)| {
                let dst = MoveLoc::Reg(dst);
                match op {
                    IrOperand::Value(v) => match self.alloc.loc(*v) {
                        Loc::Reg(r) => Move::from_loc(dst, MoveLoc::Reg(Reg::from_preg(r))),
                        Loc::Spill(s) => Move::from_loc(dst, MoveLoc::Slot(s)),
                    },
                    IrOperand::Const(c) => Move::from_const(dst, const_value(*c, *ty)),
                }
            })
            .collect();
        let sequence = parallel_move::resolve(&moves, MoveLoc::Reg(Reg::Rax)).map_err(|e| {
            BackendError::new(X86_64, self.func, None, format!("argument moves: {e}"))
        })?;
        for m in sequence {
            let MoveLoc::Reg(dst) = m.dst else {
                return Err(BackendError::new(
                    X86_64,
                    self.func,
                    None,
                    "argument move into a stack slot".into(),
                ));
            };
            match m.src {
                Source::Loc(MoveLoc::Reg(src)) => self.push(Inst::Mov {
                    size: Size::Q,
                    src: src.into(),
                    dst: dst.into(),
                }),
                Source::Loc(MoveLoc::Slot(slot)) => self.push(Inst::Mov {
                    size: Size::Q,
                    src: self.frame.spill_mem(slot).into(),
                    dst: dst.into(),
                }),
                Source::Const(v) => self.materialize(v, dst),
            }
        }
        if may_be_variadic(self.module, callee) {
            // %al: the number of vector registers the arguments use.
            self.push(if xmm_used == 0 {
                Inst::Alu {
                    op: AluOp::Xor,
                    size: Size::L,
                    src: Reg::Rax.into(),
                    dst: Reg::Rax.into(),
                }
            } else {
                Inst::Mov {
                    size: Size::L,
                    src: Operand::Imm(xmm_used),
                    dst: Reg::Rax.into(),
                }
            });
        }
        self.push(Inst::Call(target));
        if let Some(d) = dest {
            let r = self.work_reg(d, &[]);
            if ret.is_float() {
                // %xmm0's bits; `movd` into a 32-bit register zero-extends an `f32`.
                self.push(Inst::Sse(Sse::FromXmm {
                    size: if ret == IrType::F64 { Size::Q } else { Size::L },
                    src: Xmm(0),
                    dst: r.into(),
                }));
            } else {
                // The ABI leaves the bits above a narrow result unspecified.
                self.extend_into(ret, Reg::Rax, r);
            }
            self.write_dest(d, r);
        }
        Ok(())
    }

    /// `ret [TYPE V]`: the value in %rax (canonical already) or a float's bits in
    /// %xmm0, then the epilogue.
    pub(super) fn select_ret(&mut self, value: Option<&(IrType, IrOperand)>) {
        if let Some((ty, op)) = value {
            if ty.is_float() {
                self.float_to_xmm(op, *ty, Xmm(0));
            } else {
                self.load_into(op, *ty, Reg::Rax);
            }
        }
        let epilogue = self.frame.epilogue();
        for inst in epilogue {
            self.push(inst);
        }
    }
}
