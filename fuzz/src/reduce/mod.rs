//! `phihunt reduce`: shrink a failing IR program while its bug signature holds.
//!
//! Why: a compiler engineer wants the smallest program that still shows the bug. This is
//! an in-process, greedy delta reducer (C-Reduce's idea, on our IR): it tries every edit
//! in [`edits::EDITS`] at every place, keeps a candidate when it is *interesting*, and
//! repeats until a whole round changes nothing or the time budget runs out.
//!
//! Invariant: a candidate is interesting only when the stage differential on it reports
//! the same bug signature `(kind, pass)` (`Signature::bug`) — which also means its reference run is valid (no
//! undefined behaviour, no fuel exhaustion) and its input verifies. For a native
//! signature (`mismatch@native:i686`, ...) the predicate also re-runs that one native
//! stage (`crate::native::full_verdict`, the hunt's own check), and for `STAGE@4` the
//! width check of a 4-byte-pointer target, so the signature kept is the one found. The
//! reducer never returns something bigger than it was given, and it is deterministic.

mod chunks;
pub mod cli;
pub mod edits;
mod operand_edits;
mod simplify_edits;

use crate::diff::{DiffConfig, Finding, Signature, Verdict};
use crate::native::{full_verdict, NativeLimits, NativePlan, NativeStage};
use compiler::ir::IrModule;
use compiler::target::Target;
use std::time::{Duration, Instant};

/// What to keep while reducing.
#[derive(Clone, Debug)]
pub struct ReduceGoal {
    pub entry: String,
    pub arg_vectors: Vec<Vec<i64>>,
    pub signature: Signature,
    pub diff: DiffConfig,
    /// The native stages the predicate runs ([`ReduceGoal::native_plan_for`]).
    pub native: NativePlan,
}

impl ReduceGoal {
    /// The native stages needed to see `sig` again: its own stage for a native signature,
    /// a 4-byte-pointer target's width check for `STAGE@4`, none otherwise.
    pub fn native_plan_for(sig: &Signature, limits: NativeLimits) -> NativePlan {
        if sig.is_native() {
            if let Some(stage) = NativeStage::from_name(&sig.stage) {
                return NativePlan::only(stage).with_limits(limits);
            }
        }
        if sig.stage.ends_with("@4") {
            let i686 = NativeStage::new(Target::I686, Default::default());
            return NativePlan::only(i686).with_limits(limits);
        }
        NativePlan::none()
    }

    /// The finding `m` shows, if any (a broken native setup counts as none).
    pub fn finding(&self, m: &IrModule) -> Option<Finding> {
        match full_verdict(m, &self.entry, &self.arg_vectors, &self.diff, &self.native) {
            Ok((Verdict::Finding(f), _)) => Some(*f),
            _ => None,
        }
    }

    /// True when `m` still shows the bug: a finding with the same bug signature
    /// ([`Signature::bug`]), so a candidate that breaks at `gvn` where the original broke at
    /// `gvn#2` is the same bug, kept.
    pub fn holds(&self, m: &IrModule) -> bool {
        self.finding(m)
            .is_some_and(|f| f.signature.bug() == self.signature.bug())
    }
}

/// The reducer's result.
#[derive(Clone, Debug)]
pub struct Reduced {
    pub module: IrModule,
    /// Instruction counts (terminators included) before and after.
    pub size_before: usize,
    pub size_after: usize,
    pub candidates_tried: usize,
    pub candidates_kept: usize,
    /// False when the budget ran out before a fixed point.
    pub finished: bool,
}

/// Size measure: instructions + terminators + globals + declarations.
pub fn size(m: &IrModule) -> usize {
    m.inst_count() + m.globals.len() + m.decls.len()
}

/// Reduces `module` while `goal` holds, for at most `budget`.
pub fn reduce(module: &IrModule, goal: &ReduceGoal, budget: Duration) -> Reduced {
    let start = Instant::now();
    let mut current = module.clone();
    let size_before = size(&current);
    let (mut tried, mut kept) = (0usize, 0usize);
    let mut finished = false;
    'rounds: loop {
        let mut progress = false;
        for (_name, edit) in edits::EDITS {
            let mut index = 0;
            while let Some(candidate) = edit(&current, &goal.entry, index) {
                if start.elapsed() > budget {
                    break 'rounds;
                }
                // A no-op candidate (the edit did not apply here) is skipped cheaply.
                if candidate == current {
                    index += 1;
                    continue;
                }
                tried += 1;
                if size(&candidate) <= size(&current) && goal.holds(&candidate) {
                    current = candidate;
                    kept += 1;
                    progress = true;
                    // Same index again: the places after it moved down by one.
                } else {
                    index += 1;
                }
            }
        }
        if !progress {
            finished = true;
            break;
        }
    }
    Reduced {
        size_after: size(&current),
        module: current,
        size_before,
        candidates_tried: tried,
        candidates_kept: kept,
        finished,
    }
}

/// The places where a single edit of [`edits::EDITS`] still keeps the bug: empty when
/// `module` is 1-minimal for the edit set (what a finished [`reduce`] guarantees).
/// Each entry is `(edit name, index)`; costs one differential run per applicable edit.
pub fn one_minimal_violations(module: &IrModule, goal: &ReduceGoal) -> Vec<(&'static str, usize)> {
    let mut violations = Vec::new();
    for (name, edit) in edits::EDITS {
        let mut index = 0;
        while let Some(candidate) = edit(module, &goal.entry, index) {
            if candidate != *module && size(&candidate) <= size(module) && goal.holds(&candidate) {
                violations.push((name, index));
            }
            index += 1;
        }
    }
    violations
}
