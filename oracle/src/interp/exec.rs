//! The execution loop: runs compiled code to an outcome.
//!
//! Why: this is where the oracle spends its time, so the loop is a `match` over small
//! `Copy` instructions on a flat register slice, with calls and returns handled outside the
//! inner loop on an explicit frame stack (no host recursion, whatever the call depth).
//!
//! Invariants:
//! - every real instruction and terminator costs one step, charged before it acts; the
//!   phis of a block cost one step each when an edge enters it; pseudo-instructions
//!   (`Check`, `Mark`, `Convert`) are free. A run that would pass `fuel` steps ends
//!   `OutOfFuel` with exactly `fuel` steps taken;
//! - a frame's registers are `regs[base..base + frame_size]`; its stamps say which were
//!   assigned in *this* activation (`stamps[r] == frame.gen`); generations are unique
//!   among live frames, so a stale stamp of a returned frame never counts;
//! - when a frame returns, every stack slot it allocated dies (later accesses are
//!   `DeadFrame`), and the call site's result register is written (and stamped);
//! - depth beyond `max_call_depth`, or a register stack beyond `MAX_STACK_REGS`, is
//!   `Undefined(StackOverflow)`.

use super::code::{CallSite, CallTarget, CompiledFunc, Edge, FuncRef, Op, NO_INST};
use super::compile::{signature_matches, CompiledProgram};
use super::dyn_stack;
use super::float;
use super::intrinsic;
use super::libc::{self, LibcResult};
use super::libc_files::Files;
use super::libc_signal::Signals;
use super::memory::{AllocKind, Memory};
use super::observe::OperandObserver;
use super::output::Stdout;
use super::va::VaMachine;

/// `setjmp`/`longjmp` (a child module: a `longjmp` pops this module's frames).
#[path = "setjmp.rs"]
pub(crate) mod setjmp;
use super::value::{self, compare, Canon, Fault};

mod callback;

/// The ABI registers `compiler::abi_intrinsics` names: two, then the float result
/// registers of `AbiFloatPart`.
const ABI_REGS: usize = 2 + compiler::abi_intrinsics::AbiFloatPart::REGS as usize;
use super::RunConfig;
use crate::outcome::{Location, Outcome, RunResult, Trap, Ub};
use compiler::ir::IrType;

/// Registers all frames may hold together.
const MAX_STACK_REGS: usize = 1 << 23;
/// `Frame::caller_site` of the entry frame.
const NO_SITE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Frame {
    func: u32,
    base: usize,
    gen: u32,
    /// Next pc (saved while a callee runs).
    pc: u32,
    /// `stack_slots.len()` when the frame started.
    slots_mark: usize,
    /// `dyn_slots.len()` when the frame started.
    dyn_mark: usize,
    /// Arguments the caller passed.
    nargs: u32,
    /// The caller's call site that receives the result.
    caller_site: u32,
}

/// Why the inner loop left the current frame.
enum Transfer {
    Call(u32),
    Return(Option<u64>),
    Stop(Outcome),
}

/// The state of one run.
pub(crate) struct Machine<'p> {
    prog: &'p CompiledProgram,
    cfg: &'p RunConfig,
    regs: Vec<u64>,
    stamps: Vec<u32>,
    frames: Vec<Frame>,
    /// Records of the stack slots of all live frames, oldest first (`Memory::allocate`).
    stack_slots: Vec<u32>,
    /// Records of the live `dynalloca` objects of all live frames, oldest first
    /// (`dyn_stack.rs`).
    dyn_slots: Vec<u32>,
    mem: Memory,
    out: Stdout,
    steps: u64,
    generation: u32,
    /// Phi sources of one parallel copy.
    scratch: Vec<u64>,
    libc_args: Vec<(IrType, u64)>,
    /// The ABI registers of `compiler::abi_intrinsics`: the second result register of a
    /// record returned in two pieces (0), the hidden result pointer's own register (1)
    /// and the float result registers of a record's float parts (2 + k).
    abi_regs: [u64; ABI_REGS],
    /// The unnamed arguments of the live variadic frames and the `va_list` states.
    va: VaMachine,
    /// The resume points `setjmp` recorded (`setjmp.rs`).
    jmp_points: setjmp::JmpPoints,
    /// The code addresses `__builtin_return_address(0)` gives (`return_sites.rs`).
    return_sites: super::return_sites::ReturnSites,
    /// Receives the operands at `Op::Observe` (`observe.rs`); `None` in plain runs.
    observer: Option<&'p mut dyn OperandObserver>,
    /// The run's file system and open files (`libc_files.rs`).
    files: Files,
    /// The run's signal handlers (`libc_signal.rs`).
    signals: Signals,
}

/// Runs function `func` of `prog` with `args` (already counted) to an outcome.
pub(crate) fn run(prog: &CompiledProgram, cfg: &RunConfig, func: u32, args: &[i64]) -> RunResult {
    Machine::new(prog, cfg).run(func, args)
}

/// [`run`] with `observer` receiving the operands at every `Op::Observe`.
pub(crate) fn run_observed<'p>(
    prog: &'p CompiledProgram,
    cfg: &'p RunConfig,
    func: u32,
    args: &[i64],
    observer: &'p mut dyn OperandObserver,
) -> RunResult {
    let mut m = Machine::new(prog, cfg);
    m.observer = Some(observer);
    m.run(func, args)
}

/// [`run`] from `mem` instead of the program's initial image: `mem` is that image with
/// allocations made before the entry frame (`main`'s arguments), which `args` may point to.
pub(crate) fn run_from(
    prog: &CompiledProgram,
    cfg: &RunConfig,
    mem: Memory,
    func: u32,
    args: &[i64],
) -> RunResult {
    Machine::with_memory(prog, cfg, mem).run(func, args)
}

/// Where `code[pc]` of `f` came from.
fn location(f: &CompiledFunc, pc: usize) -> Location {
    let (block, inst) = f.location(pc);
    Location {
        function: f.name.clone(),
        block,
        inst,
    }
}

fn undefined(f: &CompiledFunc, pc: usize, ub: Ub) -> Outcome {
    Outcome::Undefined(ub, location(f, pc))
}

fn phi_undefined(f: &CompiledFunc, e: &Edge, phi: u32, ub: Ub) -> Outcome {
    Outcome::Undefined(
        ub,
        Location {
            function: f.name.clone(),
            block: f.block_labels[e.block as usize],
            inst: (phi != NO_INST).then_some(phi as usize),
        },
    )
}

/// Enters the target of `edge`: charges its phis, checks them and runs them as one
/// parallel copy. Returns the target's first pc.
#[allow(clippy::too_many_arguments)]
fn enter_block(
    f: &CompiledFunc,
    edge: u32,
    regs: &mut [u64],
    stamps: &mut [u32],
    gen: u32,
    scratch: &mut Vec<u64>,
    steps: &mut u64,
    fuel: u64,
) -> Result<usize, Outcome> {
    let e = &f.edges[edge as usize];
    let phis = e.phi_count as u64;
    if fuel - *steps < phis {
        *steps = fuel;
        return Err(Outcome::OutOfFuel);
    }
    *steps += phis;
    if e.missing_phi != NO_INST {
        return Err(phi_undefined(f, e, e.missing_phi, Ub::PhiMissingEdge));
    }
    let first = e.first_move as usize;
    let moves = &f.moves[first..first + e.move_count as usize];
    // All phis read their incoming values at once, on entry, from the edge taken.
    if e.tracked {
        for m in moves {
            if m.check && stamps[m.src as usize] != gen {
                return Err(phi_undefined(f, e, m.phi, Ub::UndefinedValue));
            }
        }
    }
    if e.overlapping {
        scratch.clear();
        scratch.extend(moves.iter().map(|m| m.c.apply(regs[m.src as usize])));
        for (m, &v) in moves.iter().zip(scratch.iter()) {
            regs[m.dst as usize] = v;
        }
    } else {
        for m in moves {
            regs[m.dst as usize] = m.c.apply(regs[m.src as usize]);
        }
    }
    if e.tracked {
        for m in moves.iter().filter(|m| m.mark) {
            stamps[m.dst as usize] = gen;
        }
    }
    Ok(e.target_pc as usize)
}

impl<'p> Machine<'p> {
    fn new(prog: &'p CompiledProgram, cfg: &'p RunConfig) -> Machine<'p> {
        Machine::with_memory(prog, cfg, prog.image.clone())
    }

    fn with_memory(prog: &'p CompiledProgram, cfg: &'p RunConfig, mem: Memory) -> Machine<'p> {
        Machine {
            prog,
            cfg,
            regs: Vec::new(),
            stamps: Vec::new(),
            frames: Vec::new(),
            stack_slots: Vec::new(),
            dyn_slots: Vec::new(),
            mem,
            out: Stdout::new(cfg.max_stdout),
            steps: 0,
            generation: 0,
            scratch: Vec::new(),
            libc_args: Vec::new(),
            abi_regs: [0; ABI_REGS],
            va: VaMachine::default(),
            jmp_points: setjmp::JmpPoints::default(),
            return_sites: Default::default(),
            observer: None,
            files: Files::default(),
            signals: Signals::default(),
        }
    }

    fn run(mut self, func: u32, args: &[i64]) -> RunResult {
        let outcome = match self.start(func, args) {
            Ok(()) => self.execute(),
            Err(o) => o,
        };
        RunResult {
            outcome,
            stdout: self.out.into_bytes(),
            steps: self.steps,
        }
    }

    /// Pushes the entry frame with `args` read in the parameter types.
    fn start(&mut self, func: u32, args: &[i64]) -> Result<(), Outcome> {
        let f = &self.prog.funcs[func as usize];
        let base = 0;
        self.grow(base + f.frame_size as usize, f, 0)?;
        // Named arguments in their parameter types; extra (variadic) ones as given,
        // converted by the paramref that reads them.
        for (i, &a) in args.iter().enumerate().take(f.arg_slots as usize) {
            let v = match f.params.get(i) {
                Some(&ty) => Canon::of(ty, self.prog.ptr_bytes).apply(a as u64),
                None => a as u64,
            };
            self.regs[base + f.args_base as usize + i] = v;
        }
        if f.variadic {
            // The entry's unnamed arguments have no types: 8-byte integers.
            let typed = args.iter().map(|&a| (IrType::I64, a as u64)).collect();
            self.va.enter(self.frames.len() + 1, f.params.len(), typed);
        }
        self.push_frame(func, base, args.len() as u32, NO_SITE)
    }

    /// Makes room for registers up to `end`, or stack overflow (reported at `pc` of `f`).
    fn grow(&mut self, end: usize, f: &CompiledFunc, pc: usize) -> Result<(), Outcome> {
        if end > MAX_STACK_REGS {
            return Err(undefined(f, pc, Ub::StackOverflow));
        }
        if self.regs.len() < end {
            self.regs.resize(end, 0);
            self.stamps.resize(end, 0);
        }
        Ok(())
    }

    /// A generation no live frame has.
    fn next_generation(&mut self) -> u32 {
        if self.generation == u32::MAX {
            // Renumber the live frames 1..=n, keeping exactly their own stamps.
            for (k, fr) in self.frames.iter_mut().enumerate() {
                let new_gen = k as u32 + 1;
                let size = self.prog.funcs[fr.func as usize].frame_size as usize;
                for s in &mut self.stamps[fr.base..fr.base + size] {
                    *s = if *s == fr.gen { new_gen } else { 0 };
                }
                fr.gen = new_gen;
            }
            let live = self.frames.len() as u32;
            for s in self.stamps.iter_mut() {
                if *s > live {
                    *s = 0;
                }
            }
            self.generation = live;
        }
        self.generation += 1;
        self.generation
    }

    /// Pushes a frame whose registers (arguments included) are in place, copies in its
    /// constants and enters its entry block.
    fn push_frame(
        &mut self,
        func: u32,
        base: usize,
        nargs: u32,
        caller_site: u32,
    ) -> Result<(), Outcome> {
        let f = &self.prog.funcs[func as usize];
        let cb = base + f.const_base as usize;
        self.regs[cb..cb + f.consts.len()].copy_from_slice(&f.consts);
        let gen = self.next_generation();
        self.frames.push(Frame {
            func,
            base,
            gen,
            pc: 0,
            slots_mark: self.stack_slots.len(),
            dyn_mark: self.dyn_slots.len(),
            nargs,
            caller_site,
        });
        let end = base + f.frame_size as usize;
        let pc = enter_block(
            f,
            f.entry_edge,
            &mut self.regs[base..end],
            &mut self.stamps[base..end],
            gen,
            &mut self.scratch,
            &mut self.steps,
            self.cfg.fuel,
        )?;
        self.frames.last_mut().expect("just pushed").pc = pc as u32;
        Ok(())
    }

    /// Runs until the outcome.
    fn execute(&mut self) -> Outcome {
        match self.execute_to(0) {
            Err(outcome) => outcome,
            // Never: with floor 0 only the entry frame's return (an outcome) empties the
            // stack.
            Ok(_) => Outcome::Returned(None),
        }
    }

    /// Runs until the outcome, or (with `floor > 0`) until the frame at depth `floor`
    /// returns: a callback from libc (`exec/callback.rs`), whose value is returned.
    fn execute_to(&mut self, floor: usize) -> Result<Option<u64>, Outcome> {
        let prog = self.prog;
        let fuel = self.cfg.fuel;
        loop {
            let fi = self.frames.len() - 1;
            let frame = self.frames[fi];
            let f = &prog.funcs[frame.func as usize];
            let code = &f.code[..];
            let end = frame.base + f.frame_size as usize;
            let regs = &mut self.regs[frame.base..end];
            let stamps = &mut self.stamps[frame.base..end];
            let mem = &mut self.mem;
            let abi_regs = &mut self.abi_regs;
            let gen = frame.gen;
            let mut pc = frame.pc as usize;
            let mut steps = self.steps;

            let transfer = 'frame: loop {
                let op = code[pc];
                pc += 1;
                // Charges one step, or ends the run out of fuel.
                macro_rules! charge {
                    () => {
                        if steps >= fuel {
                            break 'frame Transfer::Stop(Outcome::OutOfFuel);
                        }
                        steps += 1;
                    };
                }
                macro_rules! ub {
                    ($kind:expr) => {
                        break 'frame Transfer::Stop(undefined(f, pc - 1, $kind))
                    };
                }
                macro_rules! fault {
                    ($fault:expr) => {
                        match $fault {
                            Fault::Trap(t) => break 'frame Transfer::Stop(Outcome::Trapped(t)),
                            Fault::Ub(u) => ub!(u),
                        }
                    };
                }
                macro_rules! r {
                    ($reg:expr) => {
                        regs[$reg as usize]
                    };
                }
                macro_rules! jump {
                    ($edge:expr) => {{
                        let e = &f.edges[$edge as usize];
                        if e.phi_count == 0 {
                            pc = e.target_pc as usize;
                        } else {
                            match enter_block(
                                f,
                                $edge,
                                regs,
                                stamps,
                                gen,
                                &mut self.scratch,
                                &mut steps,
                                fuel,
                            ) {
                                Ok(target) => pc = target,
                                Err(o) => break 'frame Transfer::Stop(o),
                            }
                        }
                    }};
                }
                match op {
                    Op::Check { r } => {
                        if stamps[r as usize] != gen {
                            ub!(Ub::UndefinedValue);
                        }
                    }
                    Op::Mark { r } => stamps[r as usize] = gen,
                    Op::Observe { site, a, b } => {
                        if let Some(o) = self.observer.as_deref_mut() {
                            o.operands(&f.observed[site as usize], r!(a), r!(b));
                        }
                    }
                    Op::Convert { d, s, c } => r!(d) = c.apply(r!(s)),

                    Op::Add { d, a, b, c } => {
                        charge!();
                        r!(d) = c.apply(r!(a).wrapping_add(r!(b)));
                    }
                    Op::Sub { d, a, b, c } => {
                        charge!();
                        r!(d) = c.apply(r!(a).wrapping_sub(r!(b)));
                    }
                    Op::Mul { d, a, b, c } => {
                        charge!();
                        r!(d) = c.apply(r!(a).wrapping_mul(r!(b)));
                    }
                    Op::And { d, a, b } => {
                        charge!();
                        r!(d) = r!(a) & r!(b);
                    }
                    Op::Or { d, a, b } => {
                        charge!();
                        r!(d) = r!(a) | r!(b);
                    }
                    Op::Xor { d, a, b } => {
                        charge!();
                        r!(d) = r!(a) ^ r!(b);
                    }
                    Op::SDiv { d, a, b, c } => {
                        charge!();
                        match value::sdiv(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(t) => fault!(Fault::Trap(t)),
                        }
                    }
                    Op::UDiv { d, a, b, c } => {
                        charge!();
                        match value::udiv(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(t) => fault!(Fault::Trap(t)),
                        }
                    }
                    Op::SRem { d, a, b, c } => {
                        charge!();
                        match value::srem(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(t) => fault!(Fault::Trap(t)),
                        }
                    }
                    Op::URem { d, a, b, c } => {
                        charge!();
                        match value::urem(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(t) => fault!(Fault::Trap(t)),
                        }
                    }
                    Op::Shl { d, a, b, c } => {
                        charge!();
                        match value::shl(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::AShr { d, a, b, c } => {
                        charge!();
                        match value::ashr(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::LShr { d, a, b, c } => {
                        charge!();
                        match value::lshr(c, r!(a), r!(b)) {
                            Ok(v) => r!(d) = v,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::Neg { d, s, c } => {
                        charge!();
                        r!(d) = c.apply(r!(s).wrapping_neg());
                    }
                    Op::Not { d, s, c } => {
                        charge!();
                        r!(d) = c.apply(!r!(s));
                    }
                    Op::Cmp { d, a, b, p, c } => {
                        charge!();
                        r!(d) = compare(p, c, r!(a), r!(b));
                    }
                    Op::Cast { d, s, c } => {
                        charge!();
                        r!(d) = c.apply(r!(s));
                    }
                    Op::FArith { d, a, b, f } => {
                        charge!();
                        r!(d) = float::arith(f, r!(a), r!(b));
                    }
                    Op::FNeg { d, s, wide } => {
                        charge!();
                        r!(d) = float::neg(wide, r!(s));
                    }
                    Op::FCmp {
                        d,
                        a,
                        b,
                        pred,
                        wide,
                    } => {
                        charge!();
                        r!(d) = float::compare(pred, wide, r!(a), r!(b));
                    }
                    Op::FConvert { d, s, k } => {
                        charge!();
                        match float::convert(k, r!(s)) {
                            Ok(v) => r!(d) = v,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::Move { d, s } => {
                        charge!();
                        r!(d) = r!(s);
                    }
                    Op::Select { d, cond, pair } => {
                        charge!();
                        let (a, b) = f.selects[pair as usize];
                        r!(d) = if r!(cond) != 0 { r!(a) } else { r!(b) };
                    }
                    Op::ParamRef { d, n, c } => {
                        charge!();
                        if n >= frame.nargs {
                            ub!(Ub::BadCall);
                        }
                        r!(d) = c.apply(r!(f.args_base + n));
                    }
                    Op::Alloca { d, size, align } => {
                        charge!();
                        match mem.allocate(size as u64, align, AllocKind::Stack) {
                            Some((id, addr)) => {
                                self.stack_slots.push(id);
                                r!(d) = addr;
                            }
                            None => ub!(Ub::StackOverflow),
                        }
                    }
                    Op::DynAlloca { d, size, align } => {
                        charge!();
                        match dyn_stack::allocate(mem, &mut self.dyn_slots, r!(size), align) {
                            Ok(addr) => r!(d) = addr,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::ReturnAddress { d } => {
                        charge!();
                        let site = fi
                            .checked_sub(1)
                            .map(|c| (self.frames[c].func, self.frames[c].pc));
                        match self.return_sites.address(site, prog.ptr_bytes) {
                            Some(a) => r!(d) = a,
                            // Out of distinct addresses: no honest value is left.
                            None => break 'frame Transfer::Stop(Outcome::OutOfFuel),
                        }
                    }
                    Op::StackSave { d } => {
                        charge!();
                        match dyn_stack::save(&self.dyn_slots, frame.dyn_mark) {
                            Ok(token) => r!(d) = token,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::StackRestore { p } => {
                        charge!();
                        if let Err(u) =
                            dyn_stack::restore(mem, &mut self.dyn_slots, frame.dyn_mark, r!(p))
                        {
                            ub!(u);
                        }
                    }
                    Op::Load { d, p, size, c } => {
                        charge!();
                        match mem.load(r!(p), size as usize) {
                            Ok(v) => r!(d) = c.apply(v),
                            Err(u) => ub!(u),
                        }
                    }
                    Op::LoadPiece { d, p, size, c } => {
                        charge!();
                        match mem.load_piece(r!(p), size as usize) {
                            Ok(v) => r!(d) = c.apply(v),
                            Err(u) => ub!(u),
                        }
                    }
                    Op::SetAbiReg { v, which } => {
                        charge!();
                        abi_regs[usize::from(which).min(ABI_REGS - 1)] = r!(v);
                    }
                    Op::GetAbiReg { d, which } => {
                        charge!();
                        r!(d) = abi_regs[usize::from(which).min(ABI_REGS - 1)];
                    }
                    Op::Store { v, p, size } => {
                        charge!();
                        if let Err(u) = mem.store(r!(p), size as usize, r!(v)) {
                            ub!(u);
                        }
                    }
                    Op::Gep { d, p, off, c } => {
                        charge!();
                        r!(d) = c.apply(r!(p).wrapping_add(r!(off)));
                    }
                    Op::Memcpy { dst, src, size } => {
                        charge!();
                        if let Err(u) = mem.copy(r!(dst), r!(src), size as u64, false) {
                            ub!(u);
                        }
                    }
                    Op::Call { site } => {
                        charge!();
                        break 'frame Transfer::Call(site);
                    }
                    Op::IntrinsicValue { d, a, b, k } => {
                        charge!();
                        match intrinsic::execute(k, r!(a), r!(b), mem) {
                            Ok(v) => r!(d) = v,
                            Err(u) => ub!(u),
                        }
                    }
                    Op::IntrinsicCheck { a, b, k } => {
                        charge!();
                        if let Err(u) = intrinsic::execute(k, r!(a), r!(b), mem) {
                            ub!(u);
                        }
                    }
                    Op::Br { edge } => {
                        charge!();
                        jump!(edge);
                    }
                    Op::CondBr { cond, t, f: e } => {
                        charge!();
                        let edge = if r!(cond) != 0 { t } else { e };
                        jump!(edge);
                    }
                    Op::Switch { v, table } => {
                        charge!();
                        let table = &f.switches[table as usize];
                        let key = r!(v);
                        let edge = match table.cases.binary_search_by_key(&key, |&(k, _)| k) {
                            Ok(i) => table.cases[i].1,
                            Err(_) => table.default,
                        };
                        jump!(edge);
                    }
                    Op::Ret { v, c } => {
                        charge!();
                        break 'frame Transfer::Return(Some(c.apply(r!(v))));
                    }
                    Op::RetVoid => {
                        charge!();
                        break 'frame Transfer::Return(None);
                    }
                    Op::Unreachable => {
                        charge!();
                        break 'frame Transfer::Stop(Outcome::Trapped(Trap::Unreachable));
                    }
                }
            };
            self.steps = steps;
            self.frames[fi].pc = pc as u32;
            let result = match transfer {
                Transfer::Call(site) => self.call(f, site, pc - 1),
                Transfer::Return(v) if floor > 0 && self.frames.len() == floor => {
                    self.pop_frame();
                    return Ok(v);
                }
                Transfer::Return(v) => self.ret(f, v, pc - 1),
                Transfer::Stop(o) => Err(o),
            };
            result?;
        }
    }

    /// Performs call `site` of `caller` (the instruction at `pc`).
    fn call(&mut self, caller: &CompiledFunc, site: u32, pc: usize) -> Result<(), Outcome> {
        let cs = &caller.calls[site as usize];
        let frame = *self.frames.last().expect("a caller frame");
        let target = match cs.target {
            CallTarget::Func(i) => FuncRef::Module(i),
            CallTarget::Libc(l) => FuncRef::Libc(l),
            CallTarget::Mismatch => return Err(undefined(caller, pc, Ub::BadCall)),
            CallTarget::Jmp(k) => return self.jmp_call(k, caller, site, pc),
            CallTarget::Va(k) => {
                self.gather_libc_args(cs, frame);
                // After `freopen` or `fclose` of stdout, what the call writes to stdout
                // goes to the file system (`libc_files.rs`).
                let mut diverted = self.diverted_stdout();
                let v = self
                    .va
                    .call(
                        k,
                        self.frames.len(),
                        &self.libc_args,
                        &mut self.mem,
                        diverted.as_mut().unwrap_or(&mut self.out),
                        self.prog.ptr_bytes,
                    )
                    .map_err(|u| undefined(caller, pc, u))?;
                self.flush_diverted(diverted)
                    .map_err(|u| undefined(caller, pc, u))?;
                self.set_call_result(cs, frame, v);
                return Ok(());
            }
            CallTarget::Indirect(r) => {
                let fp = self.regs[frame.base + r as usize];
                let target = self
                    .mem
                    .function_at(fp)
                    .map_err(|u| undefined(caller, pc, u))?;
                if let FuncRef::Module(i) = target {
                    let callee = &self.prog.funcs[i as usize];
                    let arg_types = cs.args.iter().map(|a| a.1);
                    if !signature_matches(
                        arg_types,
                        cs.ret,
                        &callee.params,
                        callee.variadic,
                        callee.ret,
                    ) {
                        return Err(undefined(caller, pc, Ub::BadCall));
                    }
                }
                target
            }
        };
        match target {
            FuncRef::Module(i) => {
                if self.frames.len() >= self.cfg.max_call_depth as usize {
                    return Err(undefined(caller, pc, Ub::StackOverflow));
                }
                let callee = &self.prog.funcs[i as usize];
                let base = frame.base + caller.frame_size as usize;
                self.grow(base + callee.frame_size as usize, caller, pc)?;
                let args_at = base + callee.args_base as usize;
                for (k, &(r, _)) in cs.args.iter().take(callee.arg_slots as usize).enumerate() {
                    self.regs[args_at + k] = self.regs[frame.base + r as usize];
                }
                if callee.variadic {
                    let typed = cs
                        .args
                        .iter()
                        .map(|&(r, ty)| (ty, self.regs[frame.base + r as usize]))
                        .collect();
                    self.va
                        .enter(self.frames.len() + 1, callee.params.len(), typed);
                }
                self.push_frame(i, base, cs.args.len() as u32, site)
            }
            FuncRef::Libc(l) if l.needs_machine() => {
                self.gather_libc_args(cs, frame);
                let args = std::mem::take(&mut self.libc_args);
                let result = self.call_with_machine(l, &args, caller, pc);
                self.libc_args = args;
                let v = result?;
                self.set_call_result(cs, frame, v);
                Ok(())
            }
            FuncRef::Libc(l) => {
                self.gather_libc_args(cs, frame);
                // After `freopen` or `fclose` of stdout, what the call writes to stdout
                // goes to the file system (`libc_files.rs`).
                let mut diverted = self.diverted_stdout();
                let result = libc::call(
                    l,
                    &self.libc_args,
                    &mut self.mem,
                    diverted.as_mut().unwrap_or(&mut self.out),
                    self.prog.ptr_bytes,
                )
                .map_err(|u| undefined(caller, pc, u))?;
                self.flush_diverted(diverted)
                    .map_err(|u| undefined(caller, pc, u))?;
                match result {
                    LibcResult::Value(v) => {
                        self.set_call_result(cs, frame, v);
                        Ok(())
                    }
                    LibcResult::Exit(code) => Err(Outcome::Exited(code)),
                    LibcResult::Abort => Err(Outcome::Trapped(Trap::Abort)),
                }
            }
        }
    }

    /// Copies call site `cs`'s arguments (in `frame`), with their types, into `libc_args`.
    fn gather_libc_args(&mut self, cs: &CallSite, frame: Frame) {
        self.libc_args.clear();
        for &(r, ty) in &cs.args {
            self.libc_args
                .push((ty, self.regs[frame.base + r as usize]));
        }
    }

    /// Writes the value `v` a libc or `va_*` call returned into call site `cs`'s result
    /// register (in `frame`), if it has one.
    fn set_call_result(&mut self, cs: &CallSite, frame: Frame, v: u64) {
        if let Some(d) = cs.dst {
            let at = frame.base + d as usize;
            self.regs[at] = Canon::of(cs.ret, self.prog.ptr_bytes).apply(v);
            if cs.mark_dst {
                self.stamps[at] = frame.gen;
            }
        }
    }

    /// A buffer for what a libc call writes to stdout while stdout is diverted to the file
    /// system (`Files::stdout_diverted`); `None` when it goes to the run's stdout.
    fn diverted_stdout(&self) -> Option<Stdout> {
        self.files
            .stdout_diverted()
            .then(|| Stdout::new(self.cfg.max_stdout))
    }

    /// Hands what a call wrote to a [`Machine::diverted_stdout`] buffer to the file system.
    fn flush_diverted(&mut self, diverted: Option<Stdout>) -> Result<(), Ub> {
        match diverted {
            Some(text) => self.files.write_stdout(&text.into_bytes()),
            None => Ok(()),
        }
    }

    /// Ends the current frame: its `va_list` states, stack slots and `dynalloca` objects
    /// die. Returns it.
    fn pop_frame(&mut self) -> Frame {
        self.va.leave(self.frames.len());
        let frame = self.frames.pop().expect("a returning frame");
        for id in self.stack_slots.drain(frame.slots_mark..) {
            self.mem.kill_stack_slot(id);
        }
        for id in self.dyn_slots.drain(frame.dyn_mark..) {
            self.mem.kill_stack_slot(id);
        }
        frame
    }

    /// Returns `value` from the current frame (of function `f`, at `pc`).
    fn ret(&mut self, f: &CompiledFunc, value: Option<u64>, pc: usize) -> Result<(), Outcome> {
        let frame = self.pop_frame();
        let Some(caller_frame) = self.frames.last().copied() else {
            // The entry function returned: the run's outcome.
            return Err(match (f.ret, value) {
                (IrType::Void, _) => Outcome::Returned(None),
                (_, Some(v)) => Outcome::Returned(Some(v as i64)),
                (_, None) => undefined(f, pc, Ub::BadCall),
            });
        };
        let caller = &self.prog.funcs[caller_frame.func as usize];
        let cs = &caller.calls[frame.caller_site as usize];
        if let Some(d) = cs.dst {
            let Some(v) = value else {
                // The caller expects a value the callee did not return.
                return Err(undefined(f, pc, Ub::BadCall));
            };
            let at = caller_frame.base + d as usize;
            self.regs[at] = Canon::of(cs.ret, self.prog.ptr_bytes).apply(v);
            if cs.mark_dst {
                self.stamps[at] = caller_frame.gen;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::compile::compile;
    use compiler::ir::text::parse_module;

    #[test]
    fn stamps_survive_generation_wraparound() {
        // %1 is assigned on one path only (so it is stamp-checked), then two calls push
        // frames across the wrap of the generation counter.
        let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    condbr %0, .LBB1, .LBB2
.LBB1:
    %1 = copy i32 5
    br .LBB2
.LBB2:
    %2 = call i32 @g()
    %3 = call i32 @g()
    %4 = add i32 %1, %2
    ret i32 %4
}

func @g() -> i32 {
.LBB3:
    ret i32 1
}";
        let prog = compile(&parse_module(src).unwrap(), 8).unwrap();
        let cfg = RunConfig::default();
        for start in [u32::MAX - 2, u32::MAX - 1, u32::MAX] {
            let mut m = Machine::new(&prog, &cfg);
            m.generation = start;
            assert_eq!(m.run(0, &[1]).outcome, Outcome::Returned(Some(6)));
            let mut m = Machine::new(&prog, &cfg);
            m.generation = start;
            let o = m.run(0, &[0]).outcome;
            assert!(
                matches!(o, Outcome::Undefined(Ub::UndefinedValue, _)),
                "{o}"
            );
        }
    }

    /// Issue 13: a run's bookkeeping must not grow with the calls it makes. Each call of
    /// `@f` allocates two stack slots that die when it returns; the live records stay
    /// those of the deepest moment, and each dead slot costs only its id's few bytes.
    #[test]
    fn memory_does_not_grow_per_call() {
        let src = "
func @f(i32) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    %2 = alloca i64, 8, 8
    store i32 %0, %1
    store ptr %1, %2
    %3 = load i32 %1
    ret i32 %3
}

func @main(i32) -> i32 {
.LBB10:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 0, %1
    br .LBB11
.LBB11:
    %2 = load i32 %1
    %3 = cmp slt i32 %2, %0
    condbr %3, .LBB12, .LBB13
.LBB12:
    %4 = call i32 @f(i32 %2)
    %5 = add i32 %4, 1
    store i32 %5, %1
    br .LBB11
.LBB13:
    ret i32 %2
}";
        let module = parse_module(src).unwrap();
        for ptr_bytes in [4, 8] {
            let prog = compile(&module, ptr_bytes).unwrap();
            let cfg = RunConfig::default();
            let main = *prog.func_by_name.get("main").unwrap();
            let after = |calls: i64| {
                let mut m = Machine::new(&prog, &cfg);
                m.start(main, &[calls]).unwrap();
                let outcome = m.execute();
                assert_eq!(outcome, Outcome::Returned(Some(calls)));
                m.mem.bookkeeping()
            };
            let (few, many) = (after(10), after(20_000));
            assert_eq!(
                few.records, many.records,
                "{ptr_bytes}-byte pointers: records grew with the calls"
            );
            assert!(many.records <= few.ids, "records are not per id");
            assert_eq!(many.ids - few.ids, 2 * (20_000 - 10), "an id per slot");
            // The pages of returned frames' ids shrink to runs; with 4-byte pointers
            // each id keeps its 4-byte claim.
            let claims = if ptr_bytes == 4 { 4 * many.ids } else { 0 };
            assert!(
                many.id_bytes <= few.id_bytes + 16_384 + 1024 + 2 * claims,
                "{ptr_bytes}-byte pointers: {} bytes for {} ids",
                many.id_bytes,
                many.ids
            );
        }
    }
}
