//! An optional observer of the operand values that meet integer operations at run time.
//!
//! Why: a generator that means to feed boundary values (0, -1, MIN, powers of two) to
//! divisions and shifts can only be judged by what actually reached them when the
//! program ran; counting the constants it printed says nothing about values computed,
//! loaded or masked on the way. The harness's value census
//! (`phihunt`'s `campaign::census`) is such an observer.
//!
//! Invariants (zero cost when off):
//! - a program prepared without observation (`Program::new`, `Program::new_reusing` of an
//!   unobserved program) holds no observation op at all, so the execution loop runs
//!   exactly the code it ran before this file existed (`new_reusing` of an observed
//!   program may share its decoded functions, whose observation ops are then inert);
//! - a program prepared by `Program::new_observed` holds one `Op::Observe` before each
//!   integer binary operation and comparison, which hands the two operands (canonical
//!   bits for the site's type, in the IR's operand order) to the observer given to the
//!   run, and does nothing when the run has none;
//! - observation ops charge no fuel and write no register: steps, outcomes and output of
//!   an observed run are those of the unobserved one.

use compiler::ir::{BinOp, CmpPred, IrType};

/// The operation at an observed site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObservedOp {
    Bin(BinOp),
    Cmp(CmpPred),
}

/// One observed instruction: its operation and operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObservedSite {
    pub op: ObservedOp,
    pub ty: IrType,
}

/// Receives the operands of every observed operation as it executes.
pub trait OperandObserver {
    /// `a` and `b` are the operands' bits, canonical for `site.ty`.
    fn operands(&mut self, site: &ObservedSite, a: u64, b: u64);
}
