//! Reference confirmation: nothing is called a miscompile of a C program until gcc -O0 and
//! gcc -O2 on the same target agree with each other and with the program's expected
//! output; otherwise the program is discarded, counted by a named reason.
//!
//! Why: a C program's expected output comes from its generator (generated C) or from gcc
//! -O0 on the data model (csmith). Either can be wrong for a program with undefined
//! behaviour a judge missed, or on a target whose gcc disagrees. Asking both gcc levels on
//! the very target a finding is about, before the finding is saved, keeps false positives
//! out at the cost of two gcc builds per finding (findings are rare; programs that agree
//! everywhere never pay it).
//!
//! Invariants:
//! - every reason a C program is set aside has one of the names of [`Reason`], the key it
//!   is counted under in `summary.json` and `report.md` (the detail goes to the saved
//!   `reason.txt`);
//! - [`confirm`] returns `Ok(None)` only when gcc -O0's binary on `target` exits 0 with
//!   exactly the expected output and gcc -O2's agrees with it; every child runs under the
//!   native limits' timeouts, the program file through `tempfile`.

use super::gen::CProgram;
use crate::native::c_program::{gcc_reference, CReference};
use crate::native::NativeLimits;
use compiler::target::Target;
use oracle::native::Exit;
use std::io::Write;

/// Why a C program has no verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// gcc -O0's binary (or gcc itself) ran past its time limit.
    ReferenceTimeout,
    /// gcc -O0's binary died by a signal.
    ReferenceCrash,
    /// gcc rejected the program.
    ReferenceRejected,
    /// gcc -O0 and -O2 disagree (or -O2 does not build or times out): undefined behaviour.
    O0O2Disagree,
    /// gcc -O0 and -O2 agree, but not with the expected output.
    ExpectedOutputContradicted,
    /// The oracle's UB judge found undefined behaviour.
    OracleUb,
    /// The oracle ran out of fuel or cannot run the program.
    OracleInvalid,
    /// phicc's front end refused the program.
    FrontendRefused,
    /// The generator (or csmith) made no program.
    GeneratorFailed,
    /// gcc's binary never finished, even under the long limit, while the oracle's
    /// `lowered` stage did (`bench csmith`'s timeout probe): likely a front-end bug, so
    /// the program is saved for a human, but no verdict.
    Suspect,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::ReferenceTimeout => "reference-timeout",
            Reason::ReferenceCrash => "reference-crash",
            Reason::ReferenceRejected => "reference-rejected",
            Reason::O0O2Disagree => "o0-o2-disagree",
            Reason::ExpectedOutputContradicted => "expected-output-contradicted",
            Reason::OracleUb => "oracle-ub",
            Reason::OracleInvalid => "oracle-invalid",
            Reason::FrontendRefused => "frontend-refused",
            Reason::GeneratorFailed => "generator-failed",
            Reason::Suspect => "suspect",
        }
    }

    /// The reason of a [`CReference::Discarded`] message of `gcc_reference`.
    pub fn of_reference(why: &str) -> Reason {
        if why.starts_with("ub") {
            Reason::O0O2Disagree
        } else if why.starts_with("reference crashed") {
            Reason::ReferenceCrash
        } else if why.contains("rejects it") {
            Reason::ReferenceRejected
        } else {
            // "reference timeout", "TARGET's gcc -O0 timed out"
            Reason::ReferenceTimeout
        }
    }
}

/// Confirms `p`'s expected output on `target` with gcc -O0 and -O2 (see the module doc):
/// `Ok(None)` when confirmed, else the reason and its detail. `Err` only for a broken
/// setup (gcc missing).
pub fn confirm(
    p: &CProgram,
    target: Target,
    limits: &NativeLimits,
) -> Result<Option<(Reason, String)>, String> {
    let mut file = tempfile::Builder::new()
        .prefix("phihunt-confirm-")
        .suffix(".c")
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    file.write_all(p.text.as_bytes())
        .map_err(|e| format!("cannot write the program: {e}"))?;
    let want = p.expected(target).as_bytes();
    Ok(
        match gcc_reference(target, file.path(), &p.include_dirs, limits)? {
            CReference::Discarded(why) => Some((
                Reason::of_reference(&why),
                format!("{}: {why}", target.name()),
            )),
            CReference::Usable { o0, .. }
                if o0.exit == Exit::Code(0)
                    && oracle::native::c_stdout::same_c_stdout(&o0.stdout, want) =>
            {
                None
            }
            CReference::Usable { o0, .. } => Some((
                Reason::ExpectedOutputContradicted,
                format!(
                    "{}: gcc -O0 and -O2 give {}, the expected output is {}",
                    target.name(),
                    o0.describe(),
                    oracle::native::gcc::quote_stdout(want)
                ),
            )),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcc_reference_messages_map_to_their_reasons() {
        let cases = [
            ("reference timeout", Reason::ReferenceTimeout),
            ("x86_64's gcc -O0 timed out", Reason::ReferenceTimeout),
            (
                "reference crashed (signal 11, SIGSEGV)",
                Reason::ReferenceCrash,
            ),
            (
                "x86_64's gcc -O0 rejects it: s0.c:1: error: x",
                Reason::ReferenceRejected,
            ),
            (
                "ub: gcc -O0 and -O2 disagree (stdout)",
                Reason::O0O2Disagree,
            ),
            ("ub? i686's gcc -O2 timed out", Reason::O0O2Disagree),
        ];
        for (why, reason) in cases {
            assert_eq!(Reason::of_reference(why), reason, "{why}");
        }
    }
}
