//! The IR: an alloca-based form produced by lowering, promoted to SSA by mem2reg,
//! optimized, and taken out of SSA by phi elimination. `../shared/IR.md` is the contract;
//! this module is its code. One concept per file:
//! - `types`: scalar types; `entities`: `Value`/`BlockId`; `constant`: constants, operands;
//! - `instruction`: instructions and terminators with the canonical operand visitors;
//! - `function`, `module`: containers;
//! - `text`: printer and parser; `verify`: the verifier; `analysis`: CFG and dominators;
//! - `eval`: constant evaluation with the oracle's semantics (`eval_float` for floats;
//!   `float_text` is the text form of float constants); `substitute`: replacing a
//!   value's uses, and the dominance-order walk local rewriting passes use.

pub mod analysis;
pub mod constant;
pub mod entities;
pub mod eval;
pub mod eval_float;
pub mod float_text;
pub mod function;
pub mod instruction;
pub mod module;
pub mod substitute;
pub mod text;
pub mod types;
pub mod verify;

pub use constant::{IrConst, Operand};
pub use entities::{BlockId, Value};
pub use function::{BasicBlock, FuncAttrs, IrFunction};
pub use instruction::{konst, BinOp, Callee, CmpPred, FBinOp, FCmpPred, Inst, Terminator, UnOp};
pub use module::{GlobalInit, GlobalItem, IrDecl, IrGlobal, IrModule};
pub use types::IrType;
