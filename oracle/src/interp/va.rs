//! The oracle's `va_list`: what the `<stdarg.h>` intrinsics (`compiler::va_intrinsics`)
//! and `vprintf`/`vsprintf` mean, with every misuse C leaves undefined reported.
//!
//! Why: natively a `va_list` is a few cursors into registers spilled to memory and the
//! caller's stack area; reading past the arguments, with the wrong type or after
//! `va_end` gives whatever bytes are there. The oracle instead keeps each variadic frame's
//! unnamed arguments as the values the call passed (with their IR types) and each
//! `va_list` as a *state* with the psABIs' cursors, so a defined program reads exactly
//! what the caller passed and an undefined one is reported (`Ub::VaArgPastEnd`,
//! `VaArgWrongType`, `VaListInvalid`).
//!
//! The model:
//! - `va_start(ap, R, C)` writes a *token* into the first pointer-width bytes of the
//!   `va_list` object at `ap`: the address of a fresh empty allocation that nothing can
//!   read or write, naming the state. A byte copy of the object (a `va_list` passed by
//!   value, i686's and RISC-V's `char *`/`void *`, AArch64's copy for a by-reference
//!   record) carries the token; every other byte is whatever the program has there.
//! - The state has two cursors over the IR argument positions, as x86-64's `gp_offset` and
//!   `overflow_arg_area` (and AArch64's `__gr_offs` and `__stack`): a register cursor over
//!   positions below `R` and a stack cursor from `max(R, named)`. An argument of `n` slots
//!   comes from the register cursor when it fits there, else from the stack cursor (and
//!   with `C`, AArch64, the registers close); an x86-64 MEMORY record always from the stack
//!   cursor. With `R` = 0 (i686, RISC-V) one cursor walks every position. A position past
//!   the call's arguments, or holding a filler (an `i8` unnamed argument, which the front
//!   end passes only for registers left free before a stack argument), is past the end.
//! - `double` arguments (`va_arg.f64`): on i686 and RISC-V an ordinary position of the one
//!   cursor; on x86-64 and AArch64, where floats travel in registers of their own
//!   (`fp_offset`, `__vr_offs`), the state keeps the unnamed `f64` arguments apart with a
//!   cursor of their own, and the integer cursors count integer positions only. Floats
//!   beyond the eight float registers are still read in order from that cursor (natively
//!   they share the stack area with the integers: a program that reads them out of order
//!   is not told apart; docs/c-floats.md).
//! - Which `va_list` object last used a state is its *owner*; once another object (a copy
//!   passed by value) has used it, the earlier owner may only be `va_end`ed — as C says of
//!   a `va_list` passed to a function that called `va_arg` on it. `vprintf` leaves its
//!   state indeterminate. `va_end` and the return of the frame that started the state end
//!   it.
//!
//! Invariants: a state only reads the unnamed arguments of the frame that called
//! `va_start` (copied into the state, so a state outliving its frame is reported, never
//! read); every value a `va_arg` returns is one the call passed, of the intrinsic's class;
//! every write goes through [`Memory`] and its checks.

use super::memory::{AllocKind, Memory};
use super::output::Stdout;
use super::printf::printf;
use crate::outcome::Ub;
use compiler::ir::{IrDecl, IrType};
use compiler::va_intrinsics::VaIntrinsic;
use std::collections::HashMap;

/// What a call to a `va_list`-aware symbol does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VaFn {
    Intrinsic(VaIntrinsic),
    /// `@__phi_va.arg.f64`.
    ArgF64,
    Vprintf,
    Vsprintf,
    /// `vfprintf` on a standard stream (`streams.rs`).
    Vfprintf,
}

impl VaFn {
    pub fn by_name(name: &str) -> Option<VaFn> {
        match name {
            "vprintf" => Some(VaFn::Vprintf),
            "vsprintf" => Some(VaFn::Vsprintf),
            "vfprintf" => Some(VaFn::Vfprintf),
            compiler::va_intrinsics::ARG_F64 => Some(VaFn::ArgF64),
            _ => VaIntrinsic::by_name(name).map(VaFn::Intrinsic),
        }
    }

    /// The declaration the module must carry.
    pub fn decl(self, name: &str) -> IrDecl {
        match self {
            VaFn::Intrinsic(k) => k.decl(),
            VaFn::ArgF64 => compiler::va_intrinsics::arg_f64_decl(),
            VaFn::Vprintf | VaFn::Vsprintf | VaFn::Vfprintf => IrDecl {
                name: name.to_string(),
                params: vec![IrType::Ptr; if self == VaFn::Vprintf { 2 } else { 3 }],
                variadic: false,
                ret: IrType::I32,
            },
        }
    }
}

/// The unnamed arguments of one live variadic frame.
struct VaFrame {
    /// `frames.len()` of the machine while the frame runs.
    depth: usize,
    named: usize,
    /// How many of the named parameters are floats.
    named_floats: usize,
    args: Vec<(IrType, u64)>,
}

/// One `va_list` state.
#[derive(Clone)]
struct VaState {
    depth: usize,
    named: usize,
    args: Vec<(IrType, u64)>,
    regs: usize,
    closes: bool,
    reg_cursor: usize,
    stack_cursor: usize,
    /// The position in the call's unnamed arguments of each of `args`.
    index: Vec<usize>,
    /// With registers of their own (`regs` > 0: x86-64, AArch64), the unnamed `f64`
    /// arguments (position, bits), left out of `args`; `float_cursor` is the next one.
    floats: Vec<(usize, u64)>,
    float_cursor: usize,
    /// The `va_list` object that used the state last (its address).
    owner: Option<u64>,
    /// Objects that used it before a copy did: they may only be `va_end`ed.
    retired: Vec<u64>,
    /// `vprintf` consumed it: only `va_end` is left.
    indeterminate: bool,
}

/// Every `va_list` state and variadic frame of one run.
#[derive(Default)]
pub(crate) struct VaMachine {
    frames: Vec<VaFrame>,
    states: HashMap<u64, VaState>,
}

/// How a `va_arg` reads its slots.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    I32,
    I64,
    Ptr,
    /// Record pieces (the target's piece type).
    Piece,
    F64,
}

impl Class {
    fn accepts(self, ty: IrType, ptr_bytes: u32) -> bool {
        match self {
            Class::I32 => matches!(ty, IrType::I32 | IrType::U32),
            Class::I64 => matches!(ty, IrType::I64 | IrType::U64),
            Class::Ptr => ty == IrType::Ptr,
            Class::F64 => ty == IrType::F64,
            Class::Piece if ptr_bytes == 4 => matches!(ty, IrType::I32 | IrType::U32),
            Class::Piece => matches!(ty, IrType::I64 | IrType::U64),
        }
    }
}

impl VaState {
    /// Moves the cursor an argument of `n` slots is read with; returns its first position.
    fn advance(&mut self, n: usize, memory: bool) -> usize {
        if !memory && self.reg_cursor + n <= self.regs {
            self.reg_cursor += n;
            self.reg_cursor - n
        } else {
            if !memory && self.closes {
                self.reg_cursor = self.regs;
            }
            self.stack_cursor += n;
            self.stack_cursor - n
        }
    }

    /// The argument the call passed at IR position `pos`, unless it is past the end or a
    /// filler.
    fn passed(&self, pos: usize) -> Option<(IrType, u64)> {
        let &(ty, v) = pos.checked_sub(self.named).and_then(|i| self.args.get(i))?;
        (ty != IrType::I8).then_some((ty, v))
    }

    /// Where the call passed the argument at IR position `pos` among its unnamed ones.
    fn position(&self, pos: usize) -> Option<usize> {
        pos.checked_sub(self.named)
            .and_then(|i| self.index.get(i))
            .copied()
    }

    /// The next `double` argument: from the floats' own cursor where floats have registers
    /// of their own, else the next position of the one cursor.
    fn take_f64(&mut self, ptr_bytes: u32) -> Result<u64, Ub> {
        if self.indeterminate {
            return Err(Ub::VaListInvalid);
        }
        if self.regs == 0 {
            return Ok(self.take(1, Class::F64, false, ptr_bytes)?[0]);
        }
        let &(_, v) = self.floats.get(self.float_cursor).ok_or(Ub::VaArgPastEnd)?;
        self.float_cursor += 1;
        Ok(v)
    }

    /// The values of the next argument of `n` slots of `class`.
    fn take(
        &mut self,
        n: usize,
        class: Class,
        memory: bool,
        ptr_bytes: u32,
    ) -> Result<Vec<u64>, Ub> {
        if self.indeterminate {
            return Err(Ub::VaListInvalid);
        }
        let first = self.advance(n, memory);
        let mut out = Vec::with_capacity(n);
        for pos in first..first + n {
            let (ty, v) = self.passed(pos).ok_or(Ub::VaArgPastEnd)?;
            if !class.accepts(ty, ptr_bytes) {
                return Err(Ub::VaArgWrongType);
            }
            out.push(v);
        }
        Ok(out)
    }
}

impl VaMachine {
    /// A frame at `depth` starts with `args` (all of the call's, typed) for a function of
    /// `named` parameters.
    pub fn enter(&mut self, depth: usize, named: usize, args: Vec<(IrType, u64)>) {
        let named_floats = args.iter().take(named).filter(|a| a.0.is_float()).count();
        let args = args.into_iter().skip(named).collect();
        self.frames.push(VaFrame {
            depth,
            named,
            named_floats,
            args,
        });
    }

    /// The frame at `depth` returns: its unnamed arguments and every state it started go.
    pub fn leave(&mut self, depth: usize) {
        if self.frames.last().is_some_and(|f| f.depth == depth) {
            self.frames.pop();
            self.states.retain(|_, s| s.depth != depth);
        }
    }

    /// Runs `k` for the frame at `depth` on `args`; returns the result register's bits.
    pub fn call(
        &mut self,
        k: VaFn,
        depth: usize,
        args: &[(IrType, u64)],
        mem: &mut Memory,
        out: &mut Stdout,
        ptr_bytes: u32,
    ) -> Result<u64, Ub> {
        let arg = |i: usize| args.get(i).map(|a| a.1).ok_or(Ub::BadCall);
        let pb = ptr_bytes as usize;
        match k {
            VaFn::Intrinsic(VaIntrinsic::Start) => {
                let frame = self
                    .frames
                    .last()
                    .filter(|f| f.depth == depth)
                    .ok_or(Ub::VaListInvalid)?;
                let ap = arg(0)?;
                let regs = arg(1)? as u32 as usize;
                let mut named = frame.named;
                let mut args = Vec::new();
                let mut index = Vec::new();
                let mut floats = Vec::new();
                for (i, &(ty, v)) in frame.args.iter().enumerate() {
                    if regs > 0 && ty.is_float() {
                        floats.push((i, v));
                    } else {
                        args.push((ty, v));
                        index.push(i);
                    }
                }
                if regs > 0 {
                    // The integer cursors count integer positions only.
                    named -= frame.named_floats;
                }
                let state = VaState {
                    depth,
                    named,
                    args,
                    regs,
                    closes: arg(2)? & 0xff != 0,
                    reg_cursor: named.min(regs),
                    stack_cursor: named.max(regs),
                    index,
                    floats,
                    float_cursor: 0,
                    owner: Some(ap),
                    retired: Vec::new(),
                    indeterminate: false,
                };
                self.install(state, ap, mem, pb)?;
                Ok(0)
            }
            VaFn::Intrinsic(VaIntrinsic::End) => {
                let (token, _) = self.state_at(arg(0)?, mem, pb, true)?;
                self.states.remove(&token);
                Ok(0)
            }
            VaFn::Intrinsic(VaIntrinsic::Copy) => {
                let dst = arg(0)?;
                let (_, src) = self.state_at(arg(1)?, mem, pb, false)?;
                if src.indeterminate {
                    return Err(Ub::VaListInvalid);
                }
                let mut copy = src.clone();
                copy.owner = Some(dst);
                copy.retired.clear();
                self.install(copy, dst, mem, pb)?;
                Ok(0)
            }
            VaFn::Intrinsic(
                k @ (VaIntrinsic::ArgI32 | VaIntrinsic::ArgI64 | VaIntrinsic::ArgPtr),
            ) => {
                let class = match k {
                    VaIntrinsic::ArgI32 => Class::I32,
                    VaIntrinsic::ArgI64 => Class::I64,
                    _ => Class::Ptr,
                };
                let ap = arg(0)?;
                let (token, _) = self.state_at(ap, mem, pb, false)?;
                let state = self.use_state(token, ap)?;
                let v = state.take(1, class, false, ptr_bytes)?;
                Ok(v[0])
            }
            VaFn::ArgF64 => {
                let ap = arg(0)?;
                let (token, _) = self.state_at(ap, mem, pb, false)?;
                let state = self.use_state(token, ap)?;
                state.take_f64(ptr_bytes)
            }
            VaFn::Intrinsic(k @ (VaIntrinsic::ArgPieces | VaIntrinsic::ArgMemory)) => {
                let (ap, dst, n) = (arg(0)?, arg(1)?, arg(2)? as u32 as usize);
                let (token, _) = self.state_at(ap, mem, pb, false)?;
                let state = self.use_state(token, ap)?;
                let pieces = state.take(n, Class::Piece, k == VaIntrinsic::ArgMemory, ptr_bytes)?;
                for (i, v) in pieces.into_iter().enumerate() {
                    mem.store(dst.wrapping_add((i * pb) as u64), pb, v)?;
                }
                Ok(0)
            }
            VaFn::Vprintf => {
                let list = self.consume_for_printf(arg(1)?, mem, pb)?;
                printf(mem, out, arg(0)?, &list, ptr_bytes)
            }
            VaFn::Vfprintf => {
                let stream = super::streams::Stream::at(mem, arg(0)?)?;
                let list = self.consume_for_printf(arg(2)?, mem, pb)?;
                let fmt = arg(1)?;
                stream.formatted(out, |o| printf(mem, o, fmt, &list, ptr_bytes))
            }
            VaFn::Vsprintf => {
                let list = self.consume_for_printf(arg(2)?, mem, pb)?;
                let mut text = Stdout::new(1 << 20);
                let n = printf(mem, &mut text, arg(1)?, &list, ptr_bytes)?;
                let dst = arg(0)?;
                let mut bytes = text.into_bytes();
                bytes.push(0);
                for (i, b) in bytes.into_iter().enumerate() {
                    mem.store(dst.wrapping_add(i as u64), 1, u64::from(b))?;
                }
                Ok(n)
            }
        }
    }

    /// Stores a fresh token for `state` into the `va_list` object at `ap`.
    fn install(&mut self, state: VaState, ap: u64, mem: &mut Memory, pb: usize) -> Result<(), Ub> {
        let (_, token) = mem
            .allocate(0, 1, AllocKind::ConstGlobal)
            .ok_or(Ub::StackOverflow)?;
        mem.store(ap, pb, token)?;
        self.states.insert(token, state);
        Ok(())
    }

    /// The state the `va_list` object at `ap` names (or `ap` itself is a token, as a
    /// `va_list` passed by value to `vprintf` on i686 and RISC-V is). With `ending`
    /// (`va_end`) a retired or indeterminate state is fine.
    fn state_at(
        &self,
        ap: u64,
        mem: &Memory,
        pb: usize,
        ending: bool,
    ) -> Result<(u64, &VaState), Ub> {
        let token = if self.states.contains_key(&ap) {
            ap
        } else {
            mem.load(ap, pb).map_err(|_| Ub::VaListInvalid)?
        };
        let state = self.states.get(&token).ok_or(Ub::VaListInvalid)?;
        if !ending && state.retired.contains(&ap) {
            return Err(Ub::VaListInvalid);
        }
        Ok((token, state))
    }

    /// The state `token` used through the object at `ap`, which becomes its owner.
    fn use_state(&mut self, token: u64, ap: u64) -> Result<&mut VaState, Ub> {
        let state = self.states.get_mut(&token).ok_or(Ub::VaListInvalid)?;
        if state.owner != Some(ap) {
            if let Some(old) = state.owner {
                state.retired.push(old);
            }
            state.owner = Some(ap);
        }
        Ok(state)
    }

    /// The arguments a `vprintf` of the `va_list` at `ap` can read, in the order its
    /// `va_arg`s of one slot each would read them; the state is indeterminate afterwards.
    fn consume_for_printf(
        &mut self,
        ap: u64,
        mem: &Memory,
        pb: usize,
    ) -> Result<Vec<(IrType, u64)>, Ub> {
        let (token, _) = self.state_at(ap, mem, pb, false)?;
        let state = self.use_state(token, ap)?;
        if state.indeterminate {
            return Err(Ub::VaListInvalid);
        }
        let mut list = Vec::new();
        let mut probe = state.clone();
        while let Some(a) = {
            let first = probe.advance(1, false);
            probe
                .passed(first)
                .map(|a| (probe.position(first).unwrap_or(usize::MAX), a))
        } {
            list.push(a);
        }
        // The floats a `va_arg` would still read, each where the call passed it.
        let floats = state.floats.iter().skip(state.float_cursor);
        list.extend(floats.map(|&(i, v)| (i, (IrType::F64, v))));
        list.sort_by_key(|a| a.0);
        state.indeterminate = true;
        Ok(list.into_iter().map(|a| a.1).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(named: usize, regs: usize, closes: bool, args: Vec<(IrType, u64)>) -> VaState {
        VaState {
            depth: 1,
            named,
            args,
            regs,
            closes,
            reg_cursor: named.min(regs),
            stack_cursor: named.max(regs),
            index: Vec::new(),
            floats: Vec::new(),
            float_cursor: 0,
            owner: None,
            retired: Vec::new(),
            indeterminate: false,
        }
    }

    #[test]
    fn two_cursors_follow_the_psabis() {
        use IrType::*;
        // x86-64: f(int n, ...) called with (long 1, MEMORY record of 3, long 2): the long
        // 2 took the second register, fillers the rest, the record the stack area.
        let args = vec![
            (I64, 1),
            (I64, 2),
            (I8, 0),
            (I8, 0),
            (I8, 0),
            (I64, 10),
            (I64, 11),
            (I64, 12),
        ];
        let mut s = state(1, 6, false, args.clone());
        assert_eq!(s.take(1, Class::I64, false, 8), Ok(vec![1]));
        assert_eq!(s.take(3, Class::Piece, true, 8), Ok(vec![10, 11, 12]));
        assert_eq!(s.take(1, Class::I64, false, 8), Ok(vec![2]));
        // The next register is a filler: past the end.
        assert_eq!(s.take(1, Class::I64, false, 8), Err(Ub::VaArgPastEnd));
        let mut s = state(1, 6, false, args);
        assert_eq!(s.take(1, Class::I32, false, 8), Err(Ub::VaArgWrongType));
        // AArch64: a pair that does not fit closes the registers.
        let mut s = state(7, 8, true, vec![(I64, 1), (I64, 2), (I64, 3), (I64, 4)]);
        // Positions: 7 is a register, 8.. the stack.
        assert_eq!(s.take(2, Class::Piece, false, 8), Ok(vec![2, 3]));
        assert_eq!(s.take(1, Class::I64, false, 8), Ok(vec![4]));
        // One cursor (i686, RISC-V).
        let mut s = state(1, 0, false, vec![(I32, 5), (Ptr, 6)]);
        assert_eq!(s.take(1, Class::I32, false, 4), Ok(vec![5]));
        assert_eq!(s.take(1, Class::Ptr, false, 4), Ok(vec![6]));
        assert_eq!(s.take(1, Class::Ptr, false, 4), Err(Ub::VaArgPastEnd));
    }
}
