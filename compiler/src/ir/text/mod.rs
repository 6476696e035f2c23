//! The text form of the IR (`shared/IR.md`): printer and parser.
//!
//! Invariant: `parse_module(&print_module(&m)) == Ok(m)` for every module `m` whose
//! constants are canonical (see `IrConst`). The parser never panics, on any input.
//!
//! Files: `lex` (tokens), `parse` (token cursor, module items, function bodies),
//! `parse_inst` (instructions and operands), `print` (the printer).

mod lex;
pub mod parse;
mod parse_inst;
pub mod print;

pub use parse::{parse_module, ParseError};
pub use print::{print_function, print_inst, print_module, print_terminator};
