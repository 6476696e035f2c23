//! Generated C in the campaign engine: the program source `c`, and how its programs are
//! judged against their own expected output.
//!
//! Why: `phihunt hunt --gen c` runs each generated program through every stage in the
//! oracle and natively, against the output the generator computed. gcc is needed only to
//! confirm: when a stage or a native binary differs from the expected output, gcc decides
//! whether the generator or phicc is wrong.
//!
//! Invariants:
//! - a program the generator cannot make, that phicc refuses, that the oracle finds
//!   undefined at `lowered`, or whose expected output gcc contradicts, is a *generator
//!   bug*: saved and counted apart, never a compiler finding;
//! - `lowered` differing from the expected output is a finding against the front end
//!   (signature `mismatch@lowered`), a native stage differing from it one against that
//!   stage (`mismatch@native:riscv64`) — in both cases only after the campaign confirmed
//!   the expected output with gcc -O0 and -O2 on the finding's target
//!   (`reference::confirm`; otherwise the program is set aside by the reason's name); the
//!   reference a native stage compares with is the expected output itself.

use super::gen::{generate, CProgram, GenConfig};
use super::judge::front_end;
use super::reference::Reason;
use crate::campaign::source::{Candidate, ProgramSource, Rejection};
use crate::diff::{DiscardCause, FindingKind, Verdict};
use crate::native::c_program::{phicc_module, run_c_stage};
use crate::native::{NativePlan, StageTally};
use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::native::{Execution, Exit};
use oracle::{Outcome, RunConfig};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Oracle instructions a generated C program's reference run may take (the generator
/// bounds its programs; this is well above what they need).
pub const C_REFERENCE_FUEL: u64 = 100_000_000;

/// The C generator as a campaign source.
#[derive(Default)]
pub struct CGenerator {
    pub cfg: GenConfig,
}

/// The files that reproduce a generated program.
pub fn program_files(p: &CProgram) -> Vec<(String, String)> {
    vec![
        ("program.c".into(), p.text.clone()),
        (
            "expected-x86_64.txt".into(),
            p.expected(Target::X86_64).into(),
        ),
        ("expected-i686.txt".into(), p.expected(Target::I686).into()),
    ]
}

impl ProgramSource for CGenerator {
    fn name(&self) -> &'static str {
        "c"
    }

    fn make(&self, seed: u64) -> Result<Candidate, Rejection> {
        let p = generate(seed, &self.cfg).map_err(|reason| Rejection {
            compiler_panic: false,
            kind: Reason::GeneratorFailed.name(),
            reason,
            files: Vec::new(),
        })?;
        let module = front_end(&p, Target::X86_64).map_err(|(refused, m)| Rejection {
            compiler_panic: !refused,
            kind: Reason::FrontendRefused.name(),
            reason: if refused {
                format!("phicc refuses the generated program: {m}")
            } else {
                m
            },
            files: program_files(&p),
        })?;
        // Checked, never trusted: a generated program the UB judge calls undefined (on
        // either data model the expected outputs are for) is the generator's bug.
        for target in [Target::X86_64, Target::I686] {
            super::judge::ub_judge(&p, target, &RunConfig::default()).map_err(|reason| {
                Rejection {
                    compiler_panic: false,
                    kind: Reason::OracleUb.name(),
                    reason,
                    files: program_files(&p),
                }
            })?;
        }
        Ok(Candidate {
            module,
            entry: "main".into(),
            arg_vectors: vec![Vec::new()],
            features: p
                .features
                .0
                .iter()
                .map(|f| (f.name().to_string(), 1))
                .collect(),
            c_program: Some(Arc::new(p)),
        })
    }
}

/// What the expected output says about the stage differential's verdict.
pub enum ExpectedCheck {
    /// `lowered` printed the expected output (or the verdict has no reference run).
    Holds,
    /// No verdict: the named reason and its detail.
    Rejected(Reason, String),
    /// `lowered` differs from the expected output: the front end's bug once gcc confirms
    /// the expected output (`reference::confirm`, done by the campaign for every C
    /// finding).
    FrontEndFinding(String),
    /// The IR the front end made is broken: it fails the verifier (`verify@lowered`),
    /// panics the pipeline's first stage (`panic@lowered`), or the oracle cannot load it
    /// for a reason that is not a gap in its libc model (`cannot-run@lowered`). Nothing
    /// a front end accepts may do that, so it is a finding, never "unsupported"
    /// ([`lowered_failure`]).
    BrokenLowering(FindingKind, String),
}

/// The finding a discarded stage differential of a C program is, when the discard says the
/// front end's IR itself is broken (see [`ExpectedCheck::BrokenLowering`]); `None` for
/// the honest no-verdicts: out of fuel, undefined behaviour, and the oracle's own limits
/// (an external outside its libc subset or one it deliberately does not model (`sin`), a
/// libc function the *program* declares with another prototype than libc's, an entry the
/// harness cannot call). Decided on the discard's typed cause, never on its text.
pub fn lowered_failure(reason: &str, cause: DiscardCause) -> Option<(FindingKind, String)> {
    match cause {
        DiscardCause::BrokenInput(FindingKind::CannotRun) => Some((
            FindingKind::CannotRun,
            format!(
                "the oracle cannot load the front end's IR: {}",
                reason.strip_prefix("unsupported: ").unwrap_or(reason)
            ),
        )),
        DiscardCause::BrokenInput(kind) => Some((
            kind,
            format!(
                "the front end's IR: {}",
                reason.strip_prefix("invalid input: ").unwrap_or(reason)
            ),
        )),
        DiscardCause::Reference
        | DiscardCause::OutOfFuel
        | DiscardCause::OracleLimit
        | DiscardCause::Later => None,
    }
}

/// Holds `verdict`'s reference run (`lowered`) to the expected output.
pub fn check_expected(p: &CProgram, verdict: &Verdict) -> ExpectedCheck {
    let reference = match verdict {
        Verdict::Agree { expectations, .. } => expectations.first().map(|(_, r)| r.clone()),
        Verdict::Finding(f) => f.expectations.first().map(|(_, r)| r.clone()),
        Verdict::Discarded {
            cause: DiscardCause::OutOfFuel,
            ..
        } => return ExpectedCheck::Holds,
        Verdict::Discarded { reason, cause } => {
            if let Some((kind, detail)) = lowered_failure(reason, *cause) {
                return ExpectedCheck::BrokenLowering(kind, detail);
            }
            return ExpectedCheck::Rejected(
                Reason::OracleInvalid,
                format!("the oracle rejects `lowered`: {reason}"),
            );
        }
    };
    let Some(r) = reference else {
        return ExpectedCheck::Holds;
    };
    let want = p.expected(Target::X86_64).as_bytes();
    // Natively the status is the low 8 bits of main's value or exit's argument: a mutant's
    // `return -32768;` ends with status 0 like `return 0;`.
    let status_0 = match r.outcome {
        Outcome::Returned(Some(v)) => v & 0xff == 0,
        Outcome::Exited(c) => c & 0xff == 0,
        _ => false,
    };
    if status_0 && oracle::native::c_stdout::same_c_stdout(&r.stdout, want) {
        return ExpectedCheck::Holds;
    }
    ExpectedCheck::FrontEndFinding(format!(
        "`lowered` gives {} with stdout {}; the expected output is {}",
        r.outcome,
        oracle::native::gcc::quote_stdout(&r.stdout),
        oracle::native::gcc::quote_stdout(want)
    ))
}

/// The native stages' verdict on a generated program.
#[derive(Default)]
pub struct CNativeReport {
    pub stages: BTreeMap<String, StageTally>,
    /// The first failure: (kind, stage name, detail); the campaign confirms the reference
    /// before it is a finding.
    pub finding: Option<(FindingKind, String, String)>,
    /// No verdict: phicc's module for a target is unusable (the UB judge on that data
    /// model, the front end refusing it there).
    pub rejected: Option<(Reason, String)>,
}

/// The expected output as the reference run a native stage is judged against. Its
/// `elapsed` is the run limit, so a phicc binary that times out always gets the long
/// limit before it is a finding.
fn expected_execution(p: &CProgram, target: Target, limit: Duration) -> Execution {
    Execution {
        exit: Exit::Code(0),
        stdout: p.expected(target).as_bytes().to_vec(),
        stderr: Vec::new(),
        truncated: false,
        elapsed: limit,
    }
}

/// Runs every native stage of `plan` on `p` (phicc's module for each target's data
/// model) against the expected output. `Err` only for a broken setup.
pub fn native_c(
    p: &CProgram,
    plan: &NativePlan,
    pipeline: &PipelineOptions,
) -> Result<CNativeReport, String> {
    let mut report = CNativeReport::default();
    if plan.is_empty() {
        return Ok(report);
    }
    let mut file = tempfile::Builder::new()
        .prefix("phihunt-cgen-")
        .suffix(".c")
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    file.write_all(p.text.as_bytes())
        .map_err(|e| format!("cannot write the program: {e}"))?;
    let path = file.path();
    let mut modules = BTreeMap::new();
    for &stage in &plan.stages {
        let target = stage.target;
        let name = stage.name();
        if !modules.contains_key(target.name()) {
            modules.insert(
                target.name(),
                phicc_module(target, path, &p.include_dirs, pipeline),
            );
        }
        let tally = report.stages.entry(name.clone()).or_default();
        let (module, front) = match &modules[target.name()] {
            Ok(m) => m,
            Err(crate::native::RowVerdict::Failed(f)) => {
                report.finding = Some((f.kind, name, f.detail.clone()));
                return Ok(report);
            }
            Err(v) => {
                let why = match v {
                    crate::native::RowVerdict::Discarded(w) => w.clone(),
                    _ => "no module".into(),
                };
                let reason = if why.starts_with("ub") {
                    Reason::OracleUb
                } else {
                    Reason::FrontendRefused
                };
                report.rejected = Some((reason, format!("{name}: {why}")));
                return Ok(report);
            }
        };
        let reference = expected_execution(p, target, plan.limits.run_timeout);
        let (verdict, times) = run_c_stage(module, stage, &reference, &plan.limits)?;
        tally.phicc_us += (times.phicc + *front).as_micros() as u64;
        tally.build_us += times.build.as_micros() as u64;
        tally.run_us += times.run.as_micros() as u64;
        match verdict {
            crate::native::RowVerdict::Agrees => {
                tally.programs += 1;
                tally.vectors_run += 1;
            }
            crate::native::RowVerdict::Discarded(why) => {
                *tally.discarded.entry(why).or_default() += 1;
            }
            crate::native::RowVerdict::Failed(f) => {
                tally.programs += 1;
                tally.vectors_run += 1;
                report.finding = Some((f.kind, name, f.detail));
                return Ok(report);
            }
        }
    }
    Ok(report)
}
