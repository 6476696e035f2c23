//! The backends: a phi-eliminated [`IrModule`] and a [`Target`] in, GNU assembly text out.
//!
//! Why it exists: everything below the IR — instruction selection, register allocation,
//! calling conventions, the way phi elimination's copies become register moves — must run
//! on a real CPU to be tested; the harness links this assembly with the target's gcc
//! driver and runs it (natively or under qemu-user).
//!
//! The shape (QBE's, one folder per target):
//! ```text
//! IrModule (after phi_elim)
//!   └─ per function: regalloc::allocate (linear scan, or every value in a stack slot)
//!        └─ regalloc::check (regalloc2-style symbolic checker; always on in the harness)
//!        └─ <target>/isel: IR instruction -> target instructions over the allocation
//!        └─ <target>/abi:  prologue/epilogue, parameters, calls, returns
//!        └─ <target>/emit: target instructions -> AT&T / GNU text
//!   └─ data: globals (.data / .rodata / .bss), shared by all targets
//! ```
//! Shared pieces: [`liveness`] (live values per block, linear positions, intervals over
//! the non-SSA post-phi-elimination IR), [`regalloc`] (the allocator, the stack allocator
//! and the checker), [`frame`] (stack slots for allocas, spills and saves),
//! [`parallel_move`] (sequentialising argument moves; a cycle never loses a value),
//! [`data`] (global data directives).
//!
//! Invariants every target keeps (the checker and the native runs hold them to it):
//! - a value of a narrow integer type lives in its register *canonically*: sign-extended
//!   (signed types) or zero-extended (unsigned types, `ptr`) to the register's full width;
//!   every definition re-establishes it, including incoming parameters and call results
//!   (the ABIs leave upper bits unspecified);
//! - an instruction reads all its operands before it writes its destination, so a value
//!   whose interval ends at an instruction may share a location with the value that
//!   instruction defines; scratch registers are never allocated;
//! - the IR's traps happen where the IR says: division by zero and `MIN / -1` raise
//!   `SIGFPE` (x86's `div` does; targets without a trapping divide test and trap),
//!   `unreachable` raises `SIGILL`, `abort()` is libc's;
//! - an IR construct a backend cannot handle is a [`BackendError`] naming the target,
//!   the function and the instruction, never a panic and never silently wrong code.

pub mod aarch64;
pub mod builtin_setjmp;
pub mod data;
pub mod dynamic_stack;
pub mod frame;
pub mod i686;
pub mod liveness;
pub mod parallel_move;
pub mod regalloc;
pub mod riscv64;
pub mod second_result;
pub mod va;
pub mod x86;
pub mod x86_64;

use crate::ir::{Inst, IrFunction, IrModule};
pub use crate::target::Target;
use std::fmt;

/// Which register allocator a backend uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RegallocMode {
    /// Linear scan over live intervals, with spilling (the real allocator).
    #[default]
    LinearScan,
    /// Every value in its own stack slot: a second, much simpler code generator that the
    /// harness runs as a differential reference for the allocator.
    Stack,
}

impl RegallocMode {
    pub const ALL: [RegallocMode; 2] = [RegallocMode::LinearScan, RegallocMode::Stack];

    /// The name `--regalloc=` takes and stage names carry (`native:x86_64/stack`).
    pub fn name(self) -> &'static str {
        match self {
            RegallocMode::LinearScan => "linear",
            RegallocMode::Stack => "stack",
        }
    }

    pub fn from_name(s: &str) -> Option<RegallocMode> {
        RegallocMode::ALL.iter().copied().find(|m| m.name() == s)
    }
}

/// What the backend is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackendOptions {
    pub regalloc: RegallocMode,
    /// Run [`regalloc::check`] on every function (an allocation the checker rejects is a
    /// `BackendError` whose message starts `regalloc checker:`).
    pub check_allocation: bool,
}

impl Default for BackendOptions {
    fn default() -> BackendOptions {
        BackendOptions {
            regalloc: RegallocMode::LinearScan,
            check_allocation: true,
        }
    }
}

/// Why a module could not be compiled to assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError {
    pub target: Target,
    /// The function being compiled (empty for module-level problems, such as a global).
    pub function: String,
    /// The instruction, as the IR printer writes it, when one is to blame.
    pub inst: Option<String>,
    pub message: String,
}

impl BackendError {
    /// An error about `func` (and `inst`, when given).
    pub fn new(target: Target, func: &IrFunction, inst: Option<&Inst>, message: String) -> Self {
        BackendError {
            target,
            function: func.name.clone(),
            inst: inst.map(crate::ir::text::print_inst),
            message,
        }
    }

    /// True when the allocation checker rejected the allocation (a bug of phicc, not of
    /// the input).
    pub fn is_checker_failure(&self) -> bool {
        self.message.starts_with("regalloc checker:")
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.target.name())?;
        if !self.function.is_empty() {
            write!(f, ": in function @{}", self.function)?;
        }
        if let Some(inst) = &self.inst {
            write!(f, ": `{inst}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for BackendError {}

/// Compiles a module that has been through phi elimination to GNU assembly for `target`.
pub fn compile_module(
    module: &IrModule,
    target: Target,
    opts: &BackendOptions,
) -> Result<String, BackendError> {
    for func in &module.functions {
        for block in &func.blocks {
            if let Some(phi) = block.insts.iter().find(|i| i.is_phi()) {
                return Err(BackendError::new(
                    target,
                    func,
                    Some(phi),
                    "phi in the backend's input (run phi elimination first)".into(),
                ));
            }
        }
    }
    // The record-piece loads of `lowering::abi` are plain loads to a backend.
    let module = &*crate::abi_intrinsics::lower_for_backend(module);
    // `va_arg`, `va_copy` and `va_end` are plain IR over the target's `va_list`.
    let module = &*va::lower_for_target(module, target);
    match target {
        Target::X86_64 => x86_64::emit_module(module, opts),
        Target::I686 => i686::emit_module(module, opts),
        Target::Aarch64 => aarch64::emit_module(module, opts),
        Target::Riscv64 => riscv64::emit_module(module, opts),
    }
}

/// The targets [`compile_module`] has a backend for.
pub fn supported_targets() -> &'static [Target] {
    &Target::ALL
}

/// The `.p2align` exponent a function's code starts at: the target's own (`default_log2`)
/// or the function's declared alignment (`align N`, C's `aligned(N)`), the larger.
pub(crate) fn function_p2align(func: &crate::ir::IrFunction, default_log2: u32) -> u32 {
    match func.attrs.align {
        0 => default_log2,
        n => default_log2.max(n.trailing_zeros()),
    }
}
