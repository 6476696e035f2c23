//! Libc functions that need the machine itself: those that call back into the program
//! (`qsort`, `bsearch`, `raise` running a signal handler) and those that keep per-run
//! state of the operating system (files, mappings, signal dispositions).
//!
//! Why it exists: `libc::call` sees only memory and stdout, so it cannot run interpreted
//! code. A callback here runs the program's function through the machine's normal call
//! path: a frame pushed above the caller's, run by the same execution loop
//! ([`Machine::execute_to`]) until that frame returns. So a callback is checked exactly as
//! a call from C would be (signature, call depth, fuel, every UB inside it), and its
//! outcome (UB, `exit`, `abort`, out of fuel) ends the whole run as it would natively.
//!
//! Invariants: a callback's frame sits above the frame that called libc, so the caller's
//! registers and slots are untouched; the host recursion is one level per libc call that
//! is in progress (a comparator that sorts again nests), never per interpreted call; UB
//! of libc's own (a bad array, a wrongly typed comparator) is located at the libc call,
//! UB inside the callback where it happens.

use super::{undefined, Machine, NO_SITE};
use crate::interp::code::{CompiledFunc, FuncRef};
use crate::interp::compile::signature_matches;
use crate::interp::libc::{self, LibcFn, LibcResult};
use crate::interp::libc_files;
use crate::interp::libc_os;
use crate::interp::libc_signal::{self, SignalFn};
use crate::interp::libc_sort::{self, SortFn, SortHost, Stop};
use crate::interp::memory::Memory;
use crate::interp::value::Canon;
use crate::outcome::{Outcome, Trap, Ub};
use compiler::ir::IrType;

impl Machine<'_> {
    /// Runs `l` (one whose [`LibcFn::needs_machine`] holds) on `args`, called from `pc`
    /// of `caller`; its result bits.
    pub(super) fn call_with_machine(
        &mut self,
        l: LibcFn,
        args: &[(IrType, u64)],
        caller: &CompiledFunc,
        pc: usize,
    ) -> Result<u64, Outcome> {
        let (named, variadic) = l.prototype();
        if args.len() < named || (!variadic && args.len() != named) {
            return Err(undefined(caller, pc, Ub::BadCall));
        }
        let arg = |i: usize| args[i].1;
        let result = match l {
            LibcFn::Sort(SortFn::Qsort) => {
                let mut host = Comparing {
                    machine: self,
                    comparator: arg(3),
                };
                libc_sort::qsort(&mut host, arg(0), arg(1), arg(2)).map(|()| 0)
            }
            LibcFn::Sort(SortFn::Bsearch) => {
                let mut host = Comparing {
                    machine: self,
                    comparator: arg(4),
                };
                libc_sort::bsearch(&mut host, arg(0), arg(1), arg(2), arg(3))
            }
            LibcFn::File(f) => libc_files::call(
                f,
                args,
                &mut self.mem,
                &mut self.files,
                &mut self.out,
                self.prog.ptr_bytes,
            )
            .map_err(Stop::Ub),
            LibcFn::Os(f) => {
                libc_os::call(f, args, &mut self.mem, &mut self.files, self.prog.ptr_bytes)
                    .map_err(Stop::Ub)
            }
            LibcFn::Signal(SignalFn::Signal) => match self.signals.set(arg(0), arg(1)) {
                Some(old) => Ok(old),
                None => self
                    .files
                    .set_errno(&mut self.mem, libc_signal::EINVAL)
                    .map(|()| u64::MAX)
                    .map_err(Stop::Ub),
            },
            LibcFn::Signal(SignalFn::Raise) => self.raise(arg(0)),
            _ => Err(Stop::Ub(Ub::BadLibcCall)),
        };
        result.map_err(|stop| match stop {
            Stop::Ub(u) => undefined(caller, pc, u),
            Stop::Ended(o) => o,
        })
    }

    /// `raise(sig)`: runs the handler (`libc_signal.rs`).
    fn raise(&mut self, sig: u64) -> Result<u64, Stop> {
        let Some(handler) = self.signals.get(sig) else {
            self.files
                .set_errno(&mut self.mem, libc_signal::EINVAL)
                .map_err(Stop::Ub)?;
            return Ok(u64::MAX);
        };
        match handler {
            0 if sig as u32 as u64 == libc_signal::SIGABRT => {
                Err(Stop::Ended(Outcome::Trapped(Trap::Abort)))
            }
            // The default action kills the process by the signal: no outcome for it.
            0 => Err(Stop::Ub(Ub::BadLibcCall)),
            libc_signal::SIG_IGN => Ok(0),
            h => {
                let args = [(IrType::I32, sig as u32 as i32 as i64 as u64)];
                self.call_back(h, &args, IrType::Void)?;
                Ok(0)
            }
        }
    }

    /// Calls the function `fp` designates with `args` and the result type `ret`, as C
    /// code inside libc would, and runs it to its return; its result bits (0 for `void`).
    pub(super) fn call_back(
        &mut self,
        fp: u64,
        args: &[(IrType, u64)],
        ret: IrType,
    ) -> Result<u64, Stop> {
        match self.mem.function_at(fp)? {
            FuncRef::Module(i) => {
                let prog = self.prog;
                let callee = &prog.funcs[i as usize];
                if !signature_matches(
                    args.iter().map(|a| a.0),
                    ret,
                    &callee.params,
                    callee.variadic,
                    callee.ret,
                ) {
                    return Err(Stop::Ub(Ub::BadCall));
                }
                if self.frames.len() >= self.cfg.max_call_depth as usize {
                    return Err(Stop::Ub(Ub::StackOverflow));
                }
                let top = *self.frames.last().ok_or(Ub::BadCall)?;
                let base = top.base + prog.funcs[top.func as usize].frame_size as usize;
                self.grow(base + callee.frame_size as usize, callee, 0)
                    .map_err(Stop::Ended)?;
                let args_at = base + callee.args_base as usize;
                for (k, &(_, v)) in args.iter().take(callee.arg_slots as usize).enumerate() {
                    self.regs[args_at + k] = v;
                }
                if callee.variadic {
                    self.va
                        .enter(self.frames.len() + 1, callee.params.len(), args.to_vec());
                }
                self.push_frame(i, base, args.len() as u32, NO_SITE)
                    .map_err(Stop::Ended)?;
                let floor = self.frames.len();
                let value = self.execute_to(floor).map_err(Stop::Ended)?;
                match (ret, value) {
                    (IrType::Void, _) => Ok(0),
                    (_, Some(v)) => Ok(Canon::of(ret, self.prog.ptr_bytes).apply(v)),
                    (_, None) => Err(Stop::Ub(Ub::BadCall)),
                }
            }
            FuncRef::Libc(l) if l.needs_machine() => Err(Stop::Ub(Ub::BadLibcCall)),
            FuncRef::Libc(l) => {
                let result =
                    libc::call(l, args, &mut self.mem, &mut self.out, self.prog.ptr_bytes)?;
                match result {
                    LibcResult::Value(v) => Ok(Canon::of(ret, self.prog.ptr_bytes).apply(v)),
                    LibcResult::Exit(code) => Err(Stop::Ended(Outcome::Exited(code))),
                    LibcResult::Abort => Err(Stop::Ended(Outcome::Trapped(Trap::Abort))),
                }
            }
        }
    }
}

/// `qsort`'s and `bsearch`'s view of the machine: its memory and their comparator.
struct Comparing<'m, 'p> {
    machine: &'m mut Machine<'p>,
    comparator: u64,
}

impl SortHost for Comparing<'_, '_> {
    fn mem(&mut self) -> &mut Memory {
        &mut self.machine.mem
    }

    fn compare(&mut self, a: u64, b: u64) -> Result<i32, Stop> {
        let args = [(IrType::Ptr, a), (IrType::Ptr, b)];
        let v = self
            .machine
            .call_back(self.comparator, &args, IrType::I32)?;
        Ok(v as i32)
    }
}
