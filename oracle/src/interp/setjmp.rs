//! `setjmp`/`longjmp` in the oracle: libc's `setjmp`, `_setjmp`, `__sigsetjmp`, `longjmp`,
//! `_longjmp`, `siglongjmp`, and gcc's `__builtin_setjmp`/`__builtin_longjmp` (phicc's
//! intrinsics `@__phi_sj.builtin_setjmp`/`@__phi_sj.builtin_longjmp`,
//! `compiler::setjmp_intrinsics`).
//!
//! Why it exists: a `longjmp` leaves every frame above the one that called `setjmp` and
//! makes that call return a second time. The machine's frames are an explicit stack
//! (`exec.rs`), so this is a pop of frames and a jump, no host unwinding. It is a child
//! module of `exec` because it moves the machine's frames; `exec` calls it from one place
//! (`Machine::call`, for `CallTarget::Jmp`).
//!
//! The model:
//! - `setjmp(buf)` records a *resume point* — the frame (its depth and generation, which
//!   is unique among all frames that ever ran until the counter wraps), the pc after the
//!   call, the call site (whose result register gets the second return's value) and how
//!   many `dynalloca` objects were live — under a fresh token, stores the token into the
//!   buffer's first pointer-sized bytes, and returns 0. The token is an address of an
//!   empty allocation, so a program that copies the buffer (c-torture `pr64242.c` copies
//!   gcc's five words and jumps through the copy) copies the point with it.
//! - `longjmp(buf, v)` reads the token from the buffer. No token there (never set, or
//!   overwritten) is `Undefined(LongjmpInvalidBuffer)`; a point whose frame has returned
//!   is `Undefined(LongjmpDeadFrame)` (C 7.13.2.1p2). Otherwise every frame above the
//!   point's dies as at a return (its slots `DeadFrame`, its `va_list`s invalid), the
//!   `dynalloca` objects made in the receiving frame since the `setjmp` end (the stack
//!   pointer comes back natively: later access `UseAfterScope`), and the receiving frame
//!   continues after its `setjmp` call with result `v`, or 1 when `v` is 0 (7.13.2.1p4).
//!   `__builtin_longjmp` always gives 1 (gcc requires its second argument to be 1).
//! - Registers and memory of the receiving frame are what they are at the `longjmp`: the
//!   compiler keeps a receiver's variables in memory on every stage, so that is also what
//!   the natives see (`compiler::setjmp_intrinsics`).
//!
//! Limits: block-scope objects whose block was left between the `setjmp` and the
//! `longjmp` stay ended when the jump re-enters the block (a later access is
//! `UseAfterScope`); the generation counter's renumbering after 2^32 calls would make a
//! live point look dead (a run that long is out of fuel first).

use super::{undefined, Machine};
use crate::interp::code::CompiledFunc;
use crate::interp::memory::{AllocKind, Memory};
use crate::outcome::{Outcome, Ub};
use compiler::ir::{IrDecl, IrType};
use compiler::setjmp_intrinsics::{
    builtin_longjmp_decl, builtin_setjmp_decl, BUILTIN_LONGJMP, BUILTIN_SETJMP,
};
use std::collections::HashMap;

/// The functions this file runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JmpFn {
    /// `setjmp`, `_setjmp`: `int (jmp_buf)`.
    Save,
    /// `__sigsetjmp`: `int (sigjmp_buf, int savemask)`.
    SaveWithMask,
    /// `longjmp`, `_longjmp`, `siglongjmp`: `void (jmp_buf, int)`.
    Jump,
    /// `@__phi_sj.builtin_setjmp`.
    BuiltinSave,
    /// `@__phi_sj.builtin_longjmp`.
    BuiltinJump,
}

impl JmpFn {
    pub(crate) fn by_name(name: &str) -> Option<JmpFn> {
        Some(match name {
            "setjmp" | "_setjmp" => JmpFn::Save,
            "__sigsetjmp" => JmpFn::SaveWithMask,
            "longjmp" | "_longjmp" | "siglongjmp" => JmpFn::Jump,
            BUILTIN_SETJMP => JmpFn::BuiltinSave,
            BUILTIN_LONGJMP => JmpFn::BuiltinJump,
            _ => return None,
        })
    }

    /// The declaration the module must carry for `name`.
    pub(crate) fn decl(self, name: &str) -> IrDecl {
        let libc = |params: Vec<IrType>, ret| IrDecl {
            name: name.to_string(),
            params,
            variadic: false,
            ret,
        };
        match self {
            JmpFn::Save => libc(vec![IrType::Ptr], IrType::I32),
            JmpFn::SaveWithMask => libc(vec![IrType::Ptr, IrType::I32], IrType::I32),
            JmpFn::Jump => libc(vec![IrType::Ptr, IrType::I32], IrType::Void),
            JmpFn::BuiltinSave => builtin_setjmp_decl(),
            JmpFn::BuiltinJump => builtin_longjmp_decl(),
        }
    }
}

/// Where a `setjmp` call returns again.
#[derive(Clone, Copy, Debug)]
struct ResumePoint {
    /// `frames.len()` while the receiving frame runs.
    depth: usize,
    /// The receiving frame's generation.
    gen: u32,
    /// The pc after the `setjmp` call.
    pc: u32,
    /// The call site of the `setjmp` call in the receiving function.
    site: u32,
    /// `dyn_slots.len()` at the `setjmp`.
    dyn_mark: usize,
}

/// Every resume point a `setjmp` recorded in this run, by token.
#[derive(Default)]
pub(crate) struct JmpPoints {
    points: HashMap<u64, ResumePoint>,
}

impl JmpPoints {
    /// Records `point` under a fresh token stored at `buf`.
    fn install(
        &mut self,
        point: ResumePoint,
        buf: u64,
        mem: &mut Memory,
        pb: usize,
    ) -> Result<(), Ub> {
        let (_, token) = mem
            .allocate(0, 1, AllocKind::ConstGlobal)
            .ok_or(Ub::StackOverflow)?;
        mem.store(buf, pb, token)?;
        self.points.insert(token, point);
        Ok(())
    }

    /// The point whose token the buffer at `buf` holds.
    fn point_at(&self, buf: u64, mem: &Memory, pb: usize) -> Result<ResumePoint, Ub> {
        let token = mem.load(buf, pb).map_err(|u| match u {
            Ub::UninitRead => Ub::LongjmpInvalidBuffer,
            other => other,
        })?;
        self.points
            .get(&token)
            .copied()
            .ok_or(Ub::LongjmpInvalidBuffer)
    }
}

impl Machine<'_> {
    /// Performs call `site` of `caller` (at `pc`) to `k`.
    pub(super) fn jmp_call(
        &mut self,
        k: JmpFn,
        caller: &CompiledFunc,
        site: u32,
        pc: usize,
    ) -> Result<(), Outcome> {
        let cs = &caller.calls[site as usize];
        let frame = *self.frames.last().expect("a caller frame");
        let pb = self.prog.ptr_bytes as usize;
        let buf = self.regs[frame.base + cs.args[0].0 as usize];
        match k {
            JmpFn::Save | JmpFn::SaveWithMask | JmpFn::BuiltinSave => {
                let point = ResumePoint {
                    depth: self.frames.len(),
                    gen: frame.gen,
                    pc: frame.pc,
                    site,
                    dyn_mark: self.dyn_slots.len(),
                };
                self.jmp_points
                    .install(point, buf, &mut self.mem, pb)
                    .map_err(|u| undefined(caller, pc, u))?;
                self.set_site_result(self.frames.len() - 1, site, 0);
                Ok(())
            }
            JmpFn::Jump | JmpFn::BuiltinJump => {
                let value = match k {
                    JmpFn::Jump => match self.regs[frame.base + cs.args[1].0 as usize] as u32 {
                        0 => 1,
                        v => v,
                    },
                    _ => 1,
                };
                let point = self
                    .jmp_points
                    .point_at(buf, &self.mem, pb)
                    .map_err(|u| undefined(caller, pc, u))?;
                let alive = point.depth <= self.frames.len()
                    && self.frames[point.depth - 1].gen == point.gen;
                if !alive {
                    return Err(undefined(caller, pc, Ub::LongjmpDeadFrame));
                }
                while self.frames.len() > point.depth {
                    self.va.leave(self.frames.len());
                    let gone = self.frames.pop().expect("a frame above the receiver");
                    for id in self.stack_slots.drain(gone.slots_mark..) {
                        self.mem.kill_stack_slot(id);
                    }
                    for id in self.dyn_slots.drain(gone.dyn_mark..) {
                        self.mem.kill_stack_slot(id);
                    }
                }
                let from = point.dyn_mark.min(self.dyn_slots.len());
                for id in self.dyn_slots.drain(from..) {
                    self.mem.end_dynamic_slot(id);
                }
                let receiver = self.frames.last_mut().expect("the receiving frame");
                receiver.pc = point.pc;
                self.set_site_result(point.depth - 1, point.site, u64::from(value));
                Ok(())
            }
        }
    }

    /// Writes `value` as the result of call `site` of the frame at `index`.
    fn set_site_result(&mut self, index: usize, site: u32, value: u64) {
        let frame = self.frames[index];
        let prog = self.prog;
        let cs = &prog.funcs[frame.func as usize].calls[site as usize];
        self.set_call_result(cs, frame, value);
    }
}
