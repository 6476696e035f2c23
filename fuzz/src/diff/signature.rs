//! A finding's signature: what kind of failure, at which stage.
//!
//! Why: findings are deduplicated and counted by signature, and a reducer must keep the
//! signature while it shrinks the input.
//!
//! Stage names: the pipeline's (`lowered`, `gvn#2`, `phi_elim`); a native stage
//! `native:TARGET` (linear-scan allocator) or `native:TARGET/stack` (`--regalloc=stack`);
//! and a middle-end stage seen through a narrower pointer, `STAGE@4`: the first stage
//! whose oracle run differs from `lowered`'s when both run with 4-byte pointers (i686's
//! width), a bug only a 4-byte-pointer target shows, found by a native stage's width
//! check and never blamed on the backend.
//!
//! A signature records the stage that broke the program exactly as it ran (`gvn#3`,
//! `cfg_simplify2`); [`Signature::bug`] is the signature of the *bug*, the key findings
//! are deduplicated by: the stage becomes its pass (`gvn`, `cfg_simplify`, see
//! `compiler::pipeline::pass_of_stage`), because one wrong decision in a pass shows in
//! whichever slot or iteration first meets a program that triggers it. Native stages and
//! the `@4` width mark stay as they are (a target or a pointer width is a different place).
//!
//! Invariants: `Display` is `kind@stage` (`mismatch@native:i686`,
//! `regalloc_check@native:x86_64`, `mismatch@gvn@4`); [`Signature::file_component`] is
//! the same text made a valid file-name component (`/` becomes `+`).

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
    /// Native: the register allocation checker rejected the allocation.
    RegallocCheck,
    /// Native: the backend refused an IR construct (every construct the IR has must be
    /// supported, so a refusal is a bug of phicc).
    BackendError,
    /// Native: the target's assembler or linker rejected phicc's assembly.
    AsmRejected,
    /// Native: phicc's binary ran past its time limit where the reference finished (with
    /// `--cc`: the compiler under test, or its binary, did).
    Timeout,
    /// `--cc`: the compiler under test crashed (killed by a signal, or an internal
    /// compiler error in its output) — see `c::cc`.
    Crash,
}

impl FindingKind {
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Mismatch => "mismatch",
            FindingKind::Verify => "verify",
            FindingKind::Panic => "panic",
            FindingKind::CannotRun => "cannot_run",
            FindingKind::UnreportedChange => "unreported_change",
            FindingKind::RegallocCheck => "regalloc_check",
            FindingKind::BackendError => "backend_error",
            FindingKind::AsmRejected => "asm_rejected",
            FindingKind::Timeout => "timeout",
            FindingKind::Crash => "crash",
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

    /// The signature of a middle-end finding made with `ptr_bytes`-byte pointers: the
    /// stage gets `@4` when the width is not the default 8.
    pub fn at_width(kind: FindingKind, stage: &str, ptr_bytes: u32) -> Signature {
        if ptr_bytes == 8 {
            Signature::new(kind, stage)
        } else {
            Signature::new(kind, &format!("{stage}@{ptr_bytes}"))
        }
    }

    /// The bug's signature: the same kind at the stage's pass, the width mark kept
    /// (`mismatch@gvn#3@4` → `mismatch@gvn@4`). Idempotent.
    pub fn bug(&self) -> Signature {
        let (stage, width) = match self.stage.split_once('@') {
            Some((stage, width)) => (stage, Some(width)),
            None => (self.stage.as_str(), None),
        };
        let pass = compiler::pipeline::pass_of_stage(stage);
        Signature {
            kind: self.kind,
            stage: match width {
                Some(w) => format!("{pass}@{w}"),
                None => pass.to_string(),
            },
        }
    }

    /// True when the finding is a native stage's (`native:...`).
    pub fn is_native(&self) -> bool {
        self.stage.starts_with("native:")
    }

    /// `Display` as a valid file-name component (`/` becomes `+`).
    pub fn file_component(&self) -> String {
        self.to_string().replace('/', "+")
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.kind.name(), self.stage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_and_width_signatures_read_as_documented() {
        let s = Signature::new(FindingKind::Mismatch, "native:x86_64/stack");
        assert_eq!(s.to_string(), "mismatch@native:x86_64/stack");
        assert_eq!(s.file_component(), "mismatch@native:x86_64+stack");
        assert!(s.is_native());
        let w = Signature::at_width(FindingKind::Mismatch, "gvn", 4);
        assert_eq!(w.to_string(), "mismatch@gvn@4");
        assert!(!w.is_native());
        assert_eq!(
            Signature::at_width(FindingKind::Verify, "gvn", 8).to_string(),
            "verify@gvn"
        );
        assert_eq!(
            Signature::new(FindingKind::RegallocCheck, "native:i686").to_string(),
            "regalloc_check@native:i686"
        );
    }

    #[test]
    fn a_bug_is_named_by_its_pass_not_its_slot_or_iteration() {
        let bug = |kind, stage: &str| Signature::new(kind, stage).bug().to_string();
        assert_eq!(bug(FindingKind::Mismatch, "gvn#3"), "mismatch@gvn");
        assert_eq!(
            bug(FindingKind::Verify, "cfg_simplify2"),
            "verify@cfg_simplify"
        );
        assert_eq!(
            bug(FindingKind::Verify, "cfg_simplify2#2"),
            "verify@cfg_simplify"
        );
        assert_eq!(bug(FindingKind::Mismatch, "gvn#2@4"), "mismatch@gvn@4");
        assert_eq!(
            bug(FindingKind::Mismatch, "native:x86_64/stack"),
            "mismatch@native:x86_64/stack"
        );
        assert_eq!(bug(FindingKind::Panic, "licm"), "panic@licm");
        let s = Signature::new(FindingKind::Mismatch, "copy_prop2#3");
        assert_eq!(s.bug().bug(), s.bug());
        assert_ne!(
            Signature::new(FindingKind::Mismatch, "gvn").bug(),
            Signature::new(FindingKind::Verify, "gvn").bug()
        );
    }
}
