//! The IR: an alloca-based form produced by lowering, promoted to SSA by mem2reg,
//! optimized, and taken out of SSA by phi elimination. `../shared/IR.md` is the contract;
//! this module is its code. One concept per file:
//! - `types`: scalar types; `entities`: `Value`/`BlockId`; `constant`: constants, operands;
//! - `instruction`: instructions and terminators with the canonical operand visitors;
//! - `function`, `module`: containers;
//! - `text`: printer and parser; `verify`: the verifier; `analysis`: CFG and dominators.

pub mod analysis;
pub mod constant;
pub mod entities;
pub mod function;
pub mod instruction;
pub mod module;
pub mod text;
pub mod types;
pub mod verify;

pub use constant::{IrConst, Operand};
pub use entities::{BlockId, Value};
pub use function::{BasicBlock, FuncAttrs, IrFunction};
pub use instruction::{konst, BinOp, Callee, CmpPred, Inst, Terminator, UnOp};
pub use module::{GlobalInit, GlobalItem, IrDecl, IrGlobal, IrModule};
pub use types::IrType;
