//! The text form of the IR (`shared/IR.md`): printer and parser.
//!
//! Invariants: `parse_module(&print_module(&m)) == Ok(m)` for every module `m` whose
//! constants are canonical (see `IrConst`) and whose symbol names are made of
//! `[A-Za-z0-9_.$]`. The parser never panics, on any input, and runs in linear time.
//!
//! Files: `lex` (tokens), `parse` (token cursor, module items, function bodies),
//! `parse_inst` (instructions and operands), `print` (the printer).
//!
//! The grammar, as IR.md gives it, with the details IR.md leaves open made explicit
//! (`{x}` is zero or more, `[x]` optional; every item, label and instruction fills one
//! line; `;` starts a comment that runs to the end of the line; blank lines are free):
//! ```text
//! module   := { global | declare | func }
//! global   := "global" SYM ":" U32 "align" U32 ["const"] "=" ("zeroinit" | "[" [item {"," item}] "]")
//! item     := TYPE (INT | FLOAT) | "ptr" SYM [("+" | "-") OFF] | "zero" U32 | "str" STRING
//! declare  := "declare" SYM params "->" TYPE
//! func     := "func" {"static" | "inline" | "noinline"} SYM params "->" TYPE "{"
//!             { LABEL ":" { inst } term } "}"
//! params   := "(" [TYPE {"," TYPE}] ["," "..."] ")" | "(" "..." ")"
//! operand  := VALUE | (INT | FLOAT) [":" TYPE]
//! callee   := SYM | operand
//! args     := "(" [arg {"," arg}] ")"       (the call's argument list)
//! arg      := TYPE operand | "..."          (`...` at most once: see below)
//! ```
//! Instructions and terminators are IR.md's list. Lexical forms: `SYM` is `@` followed by
//! `[A-Za-z0-9_.$]+`; `VALUE` is `%` and a u32; `LABEL` is `.LBB` and a u32; `INT` is
//! decimal or `0x` hex, optionally negative, and must fit its type read as signed or as
//! unsigned; `FLOAT` is a decimal with a point or an exponent, `inf`, `-inf`, `nan` or
//! `nan(0xBITS)`, read in its float type (`ir::float_text`, `docs/ir-notes.md`);
//! `STRING` escapes are `\n \t \\ \"` and `\HH`. The float instructions (`fadd fsub
//! fmul fdiv fneg fcmp bitcast`) are in `docs/ir-notes.md`.
//!
//! Forms IR.md does not show but the Rust types can hold, so the printer writes them and
//! the parser reads them back: `TYPE INT` items of type `ptr` (`ptr 0`); a phi with no
//! incoming values (`%1 = phi i32`); a call with a result of type void
//! (`%1 = call void @f()`); a constant callee (`call i32 4096()`); an empty switch case
//! list (`[]`); a function with no blocks. An indirect call of a variadic function
//! may write `...` among its arguments (`call void %0(ptr %1, ..., f64 %2)`): the
//! arguments before it are the named ones (`Inst::Call::named`, `docs/ir-notes.md`). Function attributes are read in any order
//! (each at most once) and printed as `static inline noinline`.

mod lex;
pub mod parse;
mod parse_inst;
pub mod print;

pub use parse::{parse_module, ParseError};
pub use print::{print_function, print_inst, print_module, print_terminator};
