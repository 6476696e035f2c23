//! The IR interpreter. (Stub: being written.)

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
    /// Call depth before `Undefined(StackOverflow)`.
    pub max_call_depth: u32,
    /// Bytes of stdout kept; more is an error outcome of its own (`BadLibcCall`).
    pub max_stdout: usize,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            ptr_bytes: 8,
            fuel: 10_000_000,
            max_call_depth: 1_000,
            max_stdout: 1 << 20,
        }
    }
}

/// The input cannot be run at all (not a verdict on the program's behaviour).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterpError(pub String);

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InterpError {}

/// A module prepared for fast repeated runs.
pub struct Program {
    _private: (),
}

impl Program {
    /// Prepares `module` (resolves names, flattens operands). Errors for unsupported input:
    /// an unknown external, a call to a missing function.
    pub fn new(module: &IrModule, cfg: &RunConfig) -> Result<Program, InterpError> {
        let _ = (module, cfg);
        Err(InterpError("interpreter not written yet".into()))
    }

    /// Calls `func` with `args` (read in the parameter types) and runs to an outcome.
    pub fn run(&self, func: &str, args: &[i64]) -> Result<RunResult, InterpError> {
        let _ = (func, args);
        Err(InterpError("interpreter not written yet".into()))
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
