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
//! - `lowered` differing from the expected output while gcc agrees with it is a finding
//!   against the front end (signature `mismatch lowered`);
//! - a native stage differing from the expected output is a finding only when gcc -O0's
//!   build for that target prints the expected output (otherwise a generator bug); the
//!   reference the native stage compares with is the expected output itself.

use super::gen::{generate, CProgram, GenConfig};
use super::judge::{front_end, gcc_verdict, GccVerdict};
use crate::campaign::source::{Candidate, ProgramSource, Rejection};
use crate::diff::{FindingKind, Verdict};
use crate::native::c_program::{gcc_reference, phicc_module, run_c_stage, CReference};
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
            reason,
            files: Vec::new(),
        })?;
        let module = front_end(&p, Target::X86_64).map_err(|(refused, m)| Rejection {
            compiler_panic: !refused,
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
    /// A generator bug, with the reason.
    GeneratorBug(String),
    /// `lowered` differs from the expected output and gcc agrees with the generator: the
    /// front end's bug.
    FrontEndFinding(String),
}

/// Holds `verdict`'s reference run (`lowered`) to the expected output. `Err` only for a
/// broken setup (gcc missing).
pub fn check_expected(p: &CProgram, verdict: &Verdict) -> Result<ExpectedCheck, String> {
    let reference = match verdict {
        Verdict::Agree { expectations, .. } => expectations.first().map(|(_, r)| r.clone()),
        Verdict::Finding(f) => f.expectations.first().map(|(_, r)| r.clone()),
        Verdict::Discarded { reason } if reason.contains("fuel") => {
            return Ok(ExpectedCheck::Holds)
        }
        Verdict::Discarded { reason } => {
            return Ok(ExpectedCheck::GeneratorBug(format!(
                "the oracle rejects `lowered`: {reason}"
            )))
        }
    };
    let Some(r) = reference else {
        return Ok(ExpectedCheck::Holds);
    };
    let want = p.expected(Target::X86_64).as_bytes();
    if r.outcome == Outcome::Returned(Some(0)) && r.stdout == want {
        return Ok(ExpectedCheck::Holds);
    }
    let got = format!(
        "`lowered` gives {} with stdout {}",
        r.outcome,
        oracle::native::gcc::quote_stdout(&r.stdout)
    );
    Ok(match gcc_verdict(p, false, Duration::from_secs(10))? {
        GccVerdict::Agrees => ExpectedCheck::FrontEndFinding(format!(
            "{got}; gcc -O0 prints the expected {}",
            oracle::native::gcc::quote_stdout(want)
        )),
        GccVerdict::GeneratorBug(m) => ExpectedCheck::GeneratorBug(format!("{got}; {m}")),
    })
}

/// The native stages' verdict on a generated program.
#[derive(Default)]
pub struct CNativeReport {
    pub stages: BTreeMap<String, StageTally>,
    /// The first confirmed failure: (kind, stage name, detail).
    pub finding: Option<(FindingKind, String, String)>,
    /// A native stage differed and gcc contradicted the expected output.
    pub generator_bug: Option<String>,
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
                report.generator_bug = Some(format!("{name}: {why}"));
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
                let behaviour = matches!(f.kind, FindingKind::Mismatch | FindingKind::Timeout);
                if behaviour {
                    // gcc decides whether the expected output is right on this target.
                    match gcc_reference(target, path, &p.include_dirs, &plan.limits)? {
                        CReference::Usable { o0, .. }
                            if o0.exit == Exit::Code(0) && o0.stdout == reference.stdout => {}
                        CReference::Usable { o0, .. } => {
                            report.generator_bug = Some(format!(
                                "{name}: gcc -O0 for {} gives {}, not the expected output",
                                target.name(),
                                o0.describe()
                            ));
                            return Ok(report);
                        }
                        CReference::Discarded(why) => {
                            report.generator_bug =
                                Some(format!("{name}: gcc's reference is unusable: {why}"));
                            return Ok(report);
                        }
                    }
                }
                report.finding = Some((f.kind, name, f.detail));
                return Ok(report);
            }
        }
    }
    Ok(report)
}
