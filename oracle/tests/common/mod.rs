//! Shared helpers for the interpreter's integration tests: parse IR text, run a function,
//! and name outcomes briefly.

#![allow(dead_code)]

use compiler::ir::text::parse_module;
use compiler::ir::{BlockId, IrModule};
use oracle::{run, InterpError, Location, Outcome, RunConfig, RunResult, Ub};

/// Parses `src` or fails the test with the parse error.
pub fn module(src: &str) -> IrModule {
    parse_module(src).unwrap_or_else(|e| panic!("test IR does not parse: {e}\n{src}"))
}

/// The default configuration with `ptr_bytes` pointers.
pub fn cfg(ptr_bytes: u32) -> RunConfig {
    RunConfig {
        ptr_bytes,
        ..RunConfig::default()
    }
}

/// Runs `@func(args)` on `src` with the default configuration (8-byte pointers).
pub fn run_src(src: &str, func: &str, args: &[i64]) -> RunResult {
    run_cfg(src, func, args, &RunConfig::default())
}

/// Runs `@func(args)` on `src` with `cfg`.
pub fn run_cfg(src: &str, func: &str, args: &[i64], cfg: &RunConfig) -> RunResult {
    try_run(src, func, args, cfg).unwrap_or_else(|e| panic!("cannot run @{func}: {e}"))
}

/// Runs, keeping an `InterpError`.
pub fn try_run(
    src: &str,
    func: &str,
    args: &[i64],
    cfg: &RunConfig,
) -> Result<RunResult, InterpError> {
    run(&module(src), func, args, cfg)
}

/// The outcome of `@func(args)` with the default configuration.
pub fn outcome(src: &str, func: &str, args: &[i64]) -> Outcome {
    run_src(src, func, args).outcome
}

/// `Returned(Some(v))`.
pub fn ret(v: i64) -> Outcome {
    Outcome::Returned(Some(v))
}

/// The kind of undefined behaviour, or a panic naming the actual outcome.
pub fn ub_of(o: &Outcome) -> Ub {
    match o {
        Outcome::Undefined(ub, _) => *ub,
        other => panic!("expected undefined behaviour, got {other}"),
    }
}

/// `Undefined(ub)` at `@function .LBBblock` instruction `inst` (`None`: terminator).
pub fn undefined_at(ub: Ub, function: &str, block: u32, inst: Option<usize>) -> Outcome {
    Outcome::Undefined(
        ub,
        Location {
            function: function.into(),
            block: BlockId(block),
            inst,
        },
    )
}
