//! csmith as a campaign program source (`--gen csmith`), so that `bench mutants` can
//! compare how fast csmith's programs and the project's own generator find each seeded
//! bug on the same engine and budget.
//!
//! Why here: csmith's programs do not know their output, so this source asks gcc for it
//! in the inner loop — exactly the cost the own generator avoids — and hands the campaign
//! the same kind of program-with-expected-output as `c`.
//!
//! Invariants:
//! - the expected output on each data model is gcc -O0's on x86_64 and on i686 (the
//!   cross gcc under qemu), each confirmed by gcc -O2 (a disagreement means undefined
//!   behaviour: the seed is rejected as a generator bug, never a finding);
//! - csmith runs under a time limit in a temporary directory of its own.

use super::gen::features::FeatureSet;
use super::gen::CProgram;
use super::reference::Reason;
use crate::campaign::source::{Candidate, ProgramSource, Rejection};
use crate::native::c_program::{gcc_reference, CReference};
use crate::native::NativeLimits;
use compiler::target::Target;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// csmith as a program source.
pub struct CsmithSource {
    /// Options passed to csmith after `--seed K`.
    pub options: Vec<String>,
    pub timeout: Duration,
}

impl Default for CsmithSource {
    fn default() -> Self {
        CsmithSource {
            options: Vec::new(),
            timeout: Duration::from_secs(60),
        }
    }
}

/// A broken setup (csmith or gcc missing): the campaign stops loudly.
fn setup_error(reason: String) -> Rejection {
    Rejection {
        compiler_panic: false,
        kind: crate::campaign::source::SETUP_ERROR,
        reason,
        files: Vec::new(),
    }
}

fn reject(kind: Reason, reason: String, files: Vec<(String, String)>) -> Rejection {
    Rejection {
        compiler_panic: false,
        kind: kind.name(),
        reason,
        files,
    }
}

impl CsmithSource {
    fn program(&self, seed: u64) -> Result<CProgram, Rejection> {
        let work = std::env::temp_dir();
        let text = match super::csmith::program::csmith_program(
            seed,
            &self.options,
            &work,
            self.timeout,
        ) {
            Ok(Ok(t)) => t,
            Ok(Err(why)) => {
                return Err(reject(
                    Reason::GeneratorFailed,
                    format!("csmith failed: {why}"),
                    Vec::new(),
                ))
            }
            Err(setup) => return Err(setup_error(format!("csmith cannot run: {setup}"))),
        };
        let files = vec![("program.c".to_string(), text.clone())];
        let include_dirs = vec![PathBuf::from(super::csmith::CSMITH_INCLUDE)];
        let mut file = tempfile::Builder::new()
            .prefix("phihunt-csmith-")
            .suffix(".c")
            .tempfile()
            .map_err(|e| setup_error(format!("cannot create a temporary file: {e}")))?;
        file.write_all(text.as_bytes())
            .map_err(|e| setup_error(format!("cannot write the program: {e}")))?;
        let limits = NativeLimits::default();
        let mut expected = Vec::new();
        for target in [Target::X86_64, Target::I686] {
            match gcc_reference(target, file.path(), &include_dirs, &limits) {
                Ok(CReference::Usable { o0, .. }) if o0.exit == oracle::native::Exit::Code(0) => {
                    expected.push(String::from_utf8_lossy(&o0.stdout).into_owned())
                }
                Ok(CReference::Usable { o0, .. }) => {
                    return Err(reject(
                        Reason::ReferenceCrash,
                        format!("{}: gcc's reference {}", target.name(), o0.describe()),
                        files,
                    ))
                }
                Ok(CReference::Discarded(why)) => {
                    return Err(reject(
                        Reason::of_reference(&why),
                        format!("{}: {why}", target.name()),
                        files,
                    ))
                }
                Err(setup) => return Err(setup_error(format!("gcc cannot run: {setup}"))),
            }
        }
        Ok(CProgram {
            seed,
            text,
            expected_lp64: expected[0].clone(),
            expected_ilp32: expected[1].clone(),
            features: FeatureSet(Default::default()),
            include_dirs,
            rewrites: (0, 0, 0),
        })
    }
}

impl ProgramSource for CsmithSource {
    fn name(&self) -> &'static str {
        "csmith"
    }

    /// csmith promises nothing phicc relies on: a program without a verdict is counted
    /// by reason, not held against csmith.
    fn rejections_are_discards(&self) -> bool {
        true
    }

    fn make(&self, seed: u64) -> Result<Candidate, Rejection> {
        let p = self.program(seed)?;
        let module =
            super::judge::front_end(&p, Target::X86_64).map_err(|(refused, m)| Rejection {
                compiler_panic: !refused,
                kind: Reason::FrontendRefused.name(),
                reason: if refused {
                    format!("phicc refuses the csmith program: {m}")
                } else {
                    m
                },
                files: super::hunt::program_files(&p),
            })?;
        // csmith promises no undefined behaviour; the UB judge checks it on both data
        // models the expected outputs are for (out of fuel: no verdict here, the stages'
        // run decides).
        for target in [Target::X86_64, Target::I686] {
            super::judge::ub_judge(&p, target, &oracle::RunConfig::default()).map_err(
                |reason| reject(Reason::OracleUb, reason, super::hunt::program_files(&p)),
            )?;
        }
        Ok(Candidate {
            module,
            entry: "main".into(),
            // csmith's `main(int argc, char **argv)` reads argv only when argc == 2:
            // called as main(1, NULL), it prints what the native binary prints.
            arg_vectors: vec![vec![1, 0]],
            features: Default::default(),
            c_program: Some(Arc::new(p)),
        })
    }
}
