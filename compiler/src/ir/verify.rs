//! The verifier. (Stub: being written.)

use crate::ir::{BlockId, IrModule};
use std::fmt;

/// Which rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyMode {
    /// Alloca form and SSA with phis: every use dominated by its definition.
    Ssa,
    /// After phi elimination: no phis; a value may be assigned on several paths.
    PostPhiElim,
}

/// One broken rule, with where it was broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub function: String,
    pub block: Option<BlockId>,
    /// Instruction index in the block; `None` for the terminator or block-level rules.
    pub inst: Option<usize>,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.function)?;
        if let Some(b) = self.block {
            write!(f, " {b}")?;
        }
        match self.inst {
            Some(i) => write!(f, " inst {i}")?,
            None if self.block.is_some() => write!(f, " terminator")?,
            None => {}
        }
        write!(f, ": {}", self.message)
    }
}

/// Checks every rule of `mode`; `Err` lists every broken rule found.
pub fn verify_module(m: &IrModule, mode: VerifyMode) -> Result<(), Vec<VerifyError>> {
    let _ = (m, mode);
    Ok(())
}
