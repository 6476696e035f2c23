//! Index newtypes: values (virtual registers) and blocks.
//!
//! Why: passes index flat tables by these numbers, and comparing them is comparing
//! integers. Invariants: `Display` is the text form (`%N`, `.LBBN`); `Value` numbers are
//! per function, `BlockId` numbers are unique across the whole module (trampolines take
//! fresh ids from a module-wide counter, see `IrModule::next_block_id`).

use std::fmt;

/// The largest value or block number the text form accepts. Passes and the interpreter
/// size flat tables by the largest number in a function, so an absurd `%4000000000`
/// must be an input error, not a 32 GB allocation.
pub const MAX_ENTITY_NUMBER: u32 = (1 << 24) - 1;

/// A virtual register, `%N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A basic block label, `.LBBN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl Value {
    /// The number as a table index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl BlockId {
    /// The number as a table index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".LBB{}", self.0)
    }
}
