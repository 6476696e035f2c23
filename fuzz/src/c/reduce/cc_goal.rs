//! The reducer's test for a finding of the compiler under test (`mismatch@cc`,
//! `crash@cc`, `timeout@cc` from `hunt --cc CMD`): the candidate is defined, and the
//! compiler under test still fails on it the same way.
//!
//! Why: a `--cc` finding is saved with the whole generated (or csmith) program; what a
//! compiler's developer wants is the few lines that show their bug, still defined C so
//! that the report is not dismissed as undefined behaviour.
//!
//! The test, cheap steps first:
//! 1. phicc's front end takes the candidate (the caller checked it) and its checked
//!    lowering for the compiler's target's data model runs in the oracle without undefined
//!    behaviour, within fuel, and exits normally: that run is the reference;
//! 2. the compiler under test, rerun under its time limits (`c::cc::failure_on`), fails
//!    with the finding's kind against that run (a crash, a different output, a binary or
//!    compile that runs past the long limit);
//! 3. gcc accepts the candidate with the lint flags (UB the judge does not see);
//! 4. gcc -O0 and -O2 for the target agree with each other and with the oracle's run
//!    (`native::c_program::gcc_reference`).
//!
//! Invariants: every child under a timeout (the compiler under test through `c::cc`'s
//! runner, gcc through `gcc_reference` and the lint); the candidate file is the tester's.

use super::interesting::{exit_status, lint, rejected, CGoal, Check};
use crate::check::ub_judge::{checked_front_end_for, judge_defined};
use crate::diff::Signature;
use crate::native::c_program::{gcc_reference, CReference};
use oracle::native::Exit;
use oracle::RunConfig;
use std::path::Path;

/// The test on the candidate at `path` for `want`, a `*@cc` signature.
pub fn judge_cc(goal: &CGoal, path: &Path, want: &Signature) -> Result<Check, String> {
    let Some(cc) = &goal.cc else {
        return Ok(rejected(
            "signature",
            "no compiler under test (--cc) to rerun",
        ));
    };
    let target = cc.target;
    let includes = &goal.include_dirs;
    let Ok(checked) = checked_front_end_for(path, includes, target) else {
        return Ok(rejected(
            "front end",
            format!("the checked lowering for {}", target.name()),
        ));
    };
    let run_cfg = RunConfig {
        fuel: goal.fuel,
        ptr_bytes: target.sizeof_pointer(),
        ..RunConfig::default()
    };
    let run = match judge_defined(&checked, &run_cfg) {
        Ok(r) => r,
        Err(why) => return Ok(rejected("ub judge", why.message())),
    };
    let Some(status) = exit_status(&run) else {
        return Ok(rejected("ub judge", run.outcome.to_string()));
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match crate::c::cc::failure_on(cc, &text, includes, (status, &run.stdout), &goal.limits)? {
        Ok(kind) if kind == want.kind => {}
        Ok(kind) => {
            return Ok(rejected(
                "signature",
                format!("{}@{}", kind.name(), crate::c::cc::STAGE),
            ))
        }
        Err(why) => return Ok(rejected("signature", why)),
    }
    if let Err(why) = lint(path, includes, &goal.lint)? {
        return Ok(rejected("gcc lint", why));
    }
    match gcc_reference(target, path, includes, &goal.limits)? {
        CReference::Usable { o0, .. }
            if o0.exit == Exit::Code(status)
                && oracle::native::c_stdout::same_c_stdout(&o0.stdout, &run.stdout) =>
        {
            Ok(Check::Interesting {
                status,
                stdout: run.stdout,
            })
        }
        CReference::Usable { o0, .. } => Ok(rejected(
            "gcc",
            format!(
                "{}'s gcc -O0 gives {}, not the oracle's run",
                target.name(),
                o0.describe()
            ),
        )),
        CReference::Discarded(why) => Ok(rejected("gcc", why)),
    }
}
