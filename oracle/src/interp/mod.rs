//! The IR interpreter: the oracle that runs every stage of the pipeline (alloca form, SSA
//! with phis, post-phi-elimination copies) with the meaning `shared/IR.md` gives.
//!
//! Why: the harness decides that a stage broke a program by running each stage's IR here
//! and comparing outcomes, so this must be exact (every undefined behaviour the contract
//! names is caught and located, never silently given a value) and fast (a fuzzer runs
//! millions of programs). A module is decoded once ([`Program::new`]) into flat code and
//! run many times ([`Program::run`]), each run from fresh memory.
//!
//! One concept per file:
//! - `value`: canonical values and the integer semantics (wrap, traps, shifts, compares);
//! - `code`: the decoded instruction form and its invariants;
//! - `assigned`: which register reads are proven to follow an assignment;
//! - `compile`: `IrModule` -> decoded program, refusing input that cannot run;
//! - `observe`: the optional observer of the operands that meet integer operations;
//! - `memory`: allocations, provenance-carrying pointer values, bounds, liveness,
//!   initialisation; `alloc_ids`: what each allocation id designates, live or dead;
//! - `exec`: the execution loop, frames, calls and returns;
//! - `libc`, `printf`: the supported externals; `output`: captured stdout and its limit;
//!   `libc_sort`: `qsort`/`bsearch`, run by the machine (`exec/callback.rs`) because they
//!   call the program's comparator; `libc_files` (+ `libc_scanf`): the per-run file
//!   system and the `FILE *` functions; `libc_os`: anonymous `mmap`; `libc_signal`:
//!   `signal`/`raise`;
//! - `intrinsic`: the checked lowering's UB checks (`compiler::ub_intrinsics`);
//! - `va`: the `va_list` model (`<stdarg.h>` intrinsics, `vprintf`, `vsprintf`);
//! - `startup`: the hosted forms of `main` and the `argv` (and `envp`) it is given.
//!
//! Invariants of the API: [`InterpError`] only ever means "this input cannot be run at all"
//! (an unknown entry function, a wrong argument count for it, a `main` of no hosted shape
//! for [`Program::run_main`], an external outside the
//! libc subset named in a reachable block or a global's initializer (a declaration only
//! dead code uses is fine), a call to or address of an undefined symbol, malformed structure such as a
//! branch to a missing block); everything a program *does* is an [`Outcome`].
//!
//! [`Outcome`]: crate::outcome::Outcome

mod alloc_ids;
mod assigned;
mod code;
mod compile;
mod ctype;
mod dyn_stack;
mod exec;
mod float;
mod intrinsic;
mod libc;
mod libc_files;
mod libc_os;
mod libc_scanf;
mod libc_signal;
mod libc_sort;
mod libm;
mod memory;
mod observe;
mod output;
mod printf;
mod printf_float;
mod return_sites;
mod startup;
mod streams;
mod va;
mod value;

pub use observe::{ObservedOp, ObservedSite, OperandObserver};
pub use startup::PROGRAM_NAME;

use crate::outcome::RunResult;
use compiler::ir::IrModule;
use std::fmt;

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Pointer width in bytes: 8 (LP64) or 4 (ILP32).
    pub ptr_bytes: u32,
    /// Instructions (terminators included) before `OutOfFuel`.
    pub fuel: u64,
    /// Call depth before `Undefined(StackOverflow)`. The default, 10,000, is far below
    /// what an 8 MiB native stack holds for ordinary frames (838 bytes each), so a
    /// program the judge calls a stack overflow overflows natively too; it was 1,000,
    /// which called c-torture's nestfunc-4.c (a 1,001-deep call chain) undefined.
    pub max_call_depth: u32,
    /// Bytes of stdout kept; writing more ends the run with `Undefined(OutputLimit)`.
    pub max_stdout: usize,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            ptr_bytes: 8,
            fuel: 10_000_000,
            max_call_depth: 10_000,
            max_stdout: 1 << 20,
        }
    }
}

/// The input cannot be run at all (not a verdict on the program's behaviour), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterpError {
    pub kind: InterpErrorKind,
    pub message: String,
}

/// Whose the reason is that a program cannot run: the oracle's (its model or its harness
/// stops short of the program) or the program's (its IR is unusable). Callers decide on
/// the kind, never on the message's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpErrorKind {
    /// Outside the oracle's model: an external it does not have or does not model exactly
    /// (`sin`), a libc function the program declares with another prototype than libc's,
    /// a pointer width it does not simulate. Nothing is wrong with the IR.
    OutsideModel,
    /// The harness cannot call the entry: no such function, another number of arguments
    /// than its parameters, a `main` whose parameters it does not supply, an `argv` it
    /// cannot lay out. Nothing is wrong with the IR either.
    Entry,
    /// The module itself is unusable: a symbol defined twice, an intrinsic declared with
    /// the wrong signature, malformed structure. IR that a front end or a pass made this
    /// way is that compiler's bug.
    Malformed,
}

impl InterpError {
    pub fn new(kind: InterpErrorKind, message: impl Into<String>) -> InterpError {
        InterpError {
            kind,
            message: message.into(),
        }
    }

    /// [`InterpErrorKind::Malformed`].
    pub fn malformed(message: impl Into<String>) -> InterpError {
        InterpError::new(InterpErrorKind::Malformed, message)
    }

    /// [`InterpErrorKind::OutsideModel`].
    pub fn outside_model(message: impl Into<String>) -> InterpError {
        InterpError::new(InterpErrorKind::OutsideModel, message)
    }

    /// [`InterpErrorKind::Entry`].
    pub fn entry(message: impl Into<String>) -> InterpError {
        InterpError::new(InterpErrorKind::Entry, message)
    }

    /// True when the reason lies with the oracle or its harness, not with the IR.
    pub fn is_oracle_limit(&self) -> bool {
        self.kind != InterpErrorKind::Malformed
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InterpError {}

/// A module prepared for fast repeated runs.
pub struct Program {
    compiled: compile::CompiledProgram,
    cfg: RunConfig,
}

impl Program {
    /// Prepares `module` (resolves names, flattens operands, lays out globals). Errors for
    /// input that cannot run: an unsupported external, a call to a missing function, a
    /// pointer width other than 4 or 8, malformed structure.
    pub fn new(module: &IrModule, cfg: &RunConfig) -> Result<Program, InterpError> {
        Ok(Program {
            compiled: compile::compile(module, cfg.ptr_bytes)?,
            cfg: cfg.clone(),
        })
    }

    /// [`Program::new`] prepared for [`Program::run_observed`]: every integer binary
    /// operation and comparison hands its operands to the run's observer (`observe.rs`).
    pub fn new_observed(module: &IrModule, cfg: &RunConfig) -> Result<Program, InterpError> {
        Ok(Program {
            compiled: compile::compile_observed(module, cfg.ptr_bytes)?,
            cfg: cfg.clone(),
        })
    }

    /// [`Program::new`] for `module`, reusing what `earlier` (prepared from
    /// `earlier_module`) decoded for every function that is unchanged at the same index,
    /// when the two modules have the same globals, declarations and function signatures.
    /// Gives the same program as `Program::new(module, cfg)`, faster when a module differs
    /// from the last one in a few functions (consecutive pipeline stages).
    pub fn new_reusing(
        module: &IrModule,
        cfg: &RunConfig,
        earlier: &Program,
        earlier_module: &IrModule,
    ) -> Result<Program, InterpError> {
        Ok(Program {
            compiled: compile::compile_reusing(
                module,
                cfg.ptr_bytes,
                Some((earlier_module, &earlier.compiled)),
            )?,
            cfg: cfg.clone(),
        })
    }

    /// Calls `func` with `args` (read in the parameter types) and runs to an outcome. Each
    /// run starts from fresh memory (globals re-initialised).
    pub fn run(&self, func: &str, args: &[i64]) -> Result<RunResult, InterpError> {
        let index = self.entry_index(func, args)?;
        Ok(exec::run(&self.compiled, &self.cfg, index, args))
    }

    /// The index of `func`, checked to take `args`.
    fn entry_index(&self, func: &str, args: &[i64]) -> Result<u32, InterpError> {
        let &index = self
            .compiled
            .func_by_name
            .get(func)
            .ok_or_else(|| InterpError::entry(format!("no function @{func} in the module")))?;
        let f = &self.compiled.funcs[index as usize];
        let count_ok = if f.variadic {
            args.len() >= f.params.len()
        } else {
            args.len() == f.params.len()
        };
        if !count_ok {
            return Err(InterpError::entry(format!(
                "@{func} takes {} argument(s), {} given",
                f.params.len(),
                args.len()
            )));
        }
        Ok(index)
    }

    /// [`Program::run`] with `observer` seeing the operands of every integer operation
    /// (only in a program from [`Program::new_observed`]; the result is the same as
    /// `run`'s).
    pub fn run_observed(
        &self,
        func: &str,
        args: &[i64],
        observer: &mut dyn OperandObserver,
    ) -> Result<RunResult, InterpError> {
        let index = self.entry_index(func, args)?;
        Ok(exec::run_observed(
            &self.compiled,
            &self.cfg,
            index,
            args,
            observer,
        ))
    }

    /// Runs `@main` as a hosted C program is started, with the argument strings `argv`
    /// (each without its NUL; [`PROGRAM_NAME`] alone is what the harness passes). By
    /// `main`'s parameters: `()` gets nothing; `(INT, ptr)` gets `argc = argv.len()` and a
    /// pointer to `argc + 1` pointers, the last null, to writable NUL-terminated copies of
    /// the strings; `(INT, ptr, ptr)` also gets `envp`, an array holding only null. These
    /// objects live in the run's memory for the whole run. Errors: no `@main`, another
    /// parameter list, `argc` not fitting its type, an argument containing a NUL.
    pub fn run_main(&self, argv: &[&[u8]]) -> Result<RunResult, InterpError> {
        let &index = self
            .compiled
            .func_by_name
            .get("main")
            .ok_or_else(|| InterpError::entry("no function @main in the module"))?;
        let f = &self.compiled.funcs[index as usize];
        let shape = startup::main_shape(f)?;
        let mut mem = self.compiled.image.clone();
        let args = startup::lay_out(&mut mem, self.compiled.ptr_bytes, shape, argv)?;
        Ok(exec::run_from(&self.compiled, &self.cfg, mem, index, &args))
    }
}

/// One-shot convenience: prepare and run.
pub fn run(
    module: &IrModule,
    func: &str,
    args: &[i64],
    cfg: &RunConfig,
) -> Result<RunResult, InterpError> {
    Program::new(module, cfg)?.run(func, args)
}
