//! Index newtypes: values (virtual registers) and blocks.
//!
//! Why: passes index flat tables by these numbers, and comparing them is comparing
//! integers. Invariants: `Display` is the text form (`%N`, `.LBBN`); `Value` numbers are
//! per function, `BlockId` numbers are unique across the whole module (trampolines take
//! fresh ids from a module-wide counter, see `IrModule::next_block_id`).

use std::fmt;

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
