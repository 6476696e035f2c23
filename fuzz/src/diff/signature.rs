//! A finding's signature: what kind of failure, at which stage.
//!
//! Why: findings are deduplicated and counted by signature, and a reducer must keep the
//! signature while it shrinks the input. Invariant: `Display` is `kind@stage` and is a
//! valid file-name component.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The stage's output behaves differently from the reference.
    Mismatch,
    /// The verifier rejected the stage's output.
    Verify,
    /// The stage panicked.
    Panic,
    /// The oracle cannot run the stage's output although it ran the input.
    CannotRun,
    /// The stage changed the module while reporting no change.
    UnreportedChange,
}

impl FindingKind {
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Mismatch => "mismatch",
            FindingKind::Verify => "verify",
            FindingKind::Panic => "panic",
            FindingKind::CannotRun => "cannot_run",
            FindingKind::UnreportedChange => "unreported_change",
        }
    }
}

/// `(kind, stage)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Signature {
    pub kind: FindingKind,
    pub stage: String,
}

impl Signature {
    pub fn new(kind: FindingKind, stage: &str) -> Signature {
        Signature {
            kind,
            stage: stage.to_string(),
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.kind.name(), self.stage)
    }
}
