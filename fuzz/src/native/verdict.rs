//! What a native stage says about one program (or one call of it).
//!
//! Why: the C side and the IR side of the native stage, and every caller (check's table,
//! the hunt's counters, csmith's classification), speak one vocabulary: it agreed; it is
//! no test for this stage (and why, for counting); or it failed, with the kind that goes
//! into the finding's signature.
//!
//! Invariant: `Discarded` is never a failure and never a pass — undefined behaviour (gcc
//! -O0 and -O2 disagree, the oracle's reference at the target's width is undefined or out
//! of fuel), a reference that times out or crashes, a build that times out; `Failed` is a
//! bug of phicc (or, for a panic, of phicc's backend), never of the input.

use crate::diff::FindingKind;
use std::time::Duration;

/// A failure of a native stage: the kind (`mismatch`, `timeout`, `regalloc_check`,
/// `backend_error`, `asm_rejected`, `panic`, or the middle end's `verify`/`panic` when a
/// target's own compile of a C program breaks there) and one line of detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeFailure {
    pub kind: FindingKind,
    pub detail: String,
}

impl NativeFailure {
    pub fn new(kind: FindingKind, detail: impl Into<String>) -> NativeFailure {
        NativeFailure {
            kind,
            detail: detail.into(),
        }
    }
}

/// The verdict of a native stage on one program (C) or one call (IR).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowVerdict {
    Agrees,
    /// No verdict; the reason is counted (`ub: gcc -O0 and -O2 disagree`, ...).
    Discarded(String),
    Failed(NativeFailure),
}

impl RowVerdict {
    pub fn failure(&self) -> Option<&NativeFailure> {
        match self {
            RowVerdict::Failed(f) => Some(f),
            _ => None,
        }
    }
}

/// Where a native stage spent its time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NativeTimes {
    /// phicc: front end (C side), pipeline and backend, through assembly text.
    pub phicc: Duration,
    /// The gcc driver: assemble and link phicc's assembly (with the IR driver).
    pub build: Duration,
    /// Running phicc's binary (every call, on the IR side).
    pub run: Duration,
}

impl std::ops::AddAssign for NativeTimes {
    fn add_assign(&mut self, o: NativeTimes) {
        self.phicc += o.phicc;
        self.build += o.build;
        self.run += o.run;
    }
}
