//! The text form of the IR (`../shared/IR.md`): printer and parser.
//!
//! Invariant: `parse_module(&print_module(&m)) == Ok(m)` for every module `m` whose
//! constants are canonical (see `IrConst`). The parser never panics, on any input.

pub mod parse;
pub mod print;

pub use parse::{parse_module, ParseError};
pub use print::{print_function, print_module};
