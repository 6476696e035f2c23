//! csmith as a campaign program source (`--gen csmith`), so that `bench mutants` can
//! compare how fast csmith's programs and the project's own generator find each seeded
//! bug on the same engine and budget.
//!
//! Why here: csmith's programs do not know their output, so this source asks gcc for it
//! in the inner loop — exactly the cost the own generator avoids — and hands the campaign
//! the same kind of program-with-expected-output as `c`.
//!
//! `bench csmith` runs on the same engine over this source, with two additions: a gcc
//! reference that times out on x86_64 is probed (`csmith::probe`: a *suspect* when the
//! oracle finishes what gcc's binary never does), and each program's compile times and
//! verdict go to the bench's `csmith::measurements`.
//!
//! Invariants:
//! - the expected output on each data model is gcc -O0's on x86_64 and on i686 (the
//!   cross gcc under qemu), each confirmed by gcc -O2 (a disagreement means undefined
//!   behaviour: the seed is set aside by that reason, never a finding);
//! - csmith runs under a time limit in a temporary directory of its own; every gcc run
//!   under `limits`;
//! - measuring never changes a verdict: the times are taken around the calls the source
//!   makes anyway, plus one pipeline run and one `gcc -S` of their own.

use super::csmith::measurements::Measurements;
use super::csmith::probe::{probe, ProbeConfig, ProbeVerdict};
use super::gen::features::FeatureSet;
use super::gen::CProgram;
use super::reference::Reason;
use crate::campaign::source::{Candidate, ProgramOutcome, ProgramSource, Rejection};
use crate::native::c_program::{gcc_reference, CReference};
use crate::native::NativeLimits;
use compiler::ir::IrModule;
use compiler::pipeline::{run_pipeline, PipelineOptions};
use compiler::target::Target;
use oracle::native::gcc::{compile_only_time, ReferenceConfig};
use oracle::native::Execution;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a refusal's reason starts (the front end's message follows).
pub const REFUSED: &str = "phicc refuses the csmith program: ";

/// csmith as a program source.
pub struct CsmithSource {
    /// Options passed to csmith after `--seed K`.
    pub options: Vec<String>,
    pub timeout: Duration,
    /// gcc's limits for the references (`--ref-timeout` is `run_timeout`).
    pub limits: NativeLimits,
    /// Probe a reference timeout on x86_64 before setting it aside (`bench csmith`).
    pub probe: Option<ProbeConfig>,
    /// Per-program records (`bench csmith`), and the pipeline whose time they take.
    pub measurements: Option<(Measurements, PipelineOptions)>,
}

impl Default for CsmithSource {
    fn default() -> Self {
        CsmithSource {
            options: Vec::new(),
            timeout: Duration::from_secs(60),
            limits: NativeLimits::default(),
            probe: None,
            measurements: None,
        }
    }
}

fn stdout_of(run: Execution) -> String {
    String::from_utf8_lossy(&run.stdout).into_owned()
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
    /// Records `update` into the bench's record of `seed`, when measuring.
    fn note(
        &self,
        seed: u64,
        update: impl FnOnce(&mut super::csmith::measurements::ProgramRecord),
    ) {
        if let Some((m, _)) = &self.measurements {
            m.note(seed, update);
        }
    }

    /// phicc's front end on `p` for x86_64; a refusal or panic as its rejection. The
    /// message names the program `csmith-K.c`.
    fn front_end(&self, p: &CProgram) -> Result<IrModule, Rejection> {
        let start = Instant::now();
        let lowered = super::judge::front_end(p, Target::X86_64);
        let elapsed = start.elapsed();
        let module = lowered.map_err(|(refused, m)| Rejection {
            compiler_panic: !refused,
            kind: Reason::FrontendRefused.name(),
            reason: {
                let m = m.replace(
                    &format!("cgen-{}.c", p.seed),
                    &format!("csmith-{}.c", p.seed),
                );
                if refused {
                    format!("{REFUSED}{m}")
                } else {
                    m
                }
            },
            files: super::hunt::program_files(p),
        })?;
        self.note(p.seed, |r| r.times.front_end = Some(elapsed));
        Ok(module)
    }

    /// gcc's reference on `target` under `limits`: its -O0 run, or the rejection. On
    /// x86_64 a timeout is probed first when `probe` is set (`p` is the program without
    /// expected outputs yet: the probe needs only its text).
    fn reference(
        &self,
        p: &CProgram,
        path: &Path,
        target: Target,
        limits: &NativeLimits,
        files: &[(String, String)],
    ) -> Result<Execution, Rejection> {
        let reference = gcc_reference(target, path, &p.include_dirs, limits)
            .map_err(|setup| setup_error(format!("gcc cannot run: {setup}")))?;
        let o0 = match reference {
            CReference::Usable { o0, o0_build, .. } => {
                if target == Target::X86_64 {
                    self.note(p.seed, |r| r.times.gcc_build = Some(o0_build));
                }
                o0
            }
            CReference::Discarded(why) => {
                let reason = Reason::of_reference(&why);
                if target == Target::X86_64 {
                    self.note(p.seed, |r| r.reference = Some(why.clone()));
                }
                match (&self.probe, target, reason) {
                    (Some(cfg), Target::X86_64, Reason::ReferenceTimeout) => {
                        self.probed(p, path, cfg, files)?
                    }
                    _ => {
                        return Err(reject(
                            reason,
                            format!("{}: {why}", target.name()),
                            files.to_vec(),
                        ))
                    }
                }
            }
        };
        if target == Target::X86_64 {
            self.note(p.seed, |r| r.reference = Some(o0.describe()));
        }
        if o0.exit != oracle::native::Exit::Code(0) {
            return Err(reject(
                Reason::ReferenceCrash,
                format!("{}: gcc's reference {}", target.name(), o0.describe()),
                files.to_vec(),
            ));
        }
        Ok(o0)
    }

    /// A reference timeout on x86_64 through the probe: the long rerun's run, or why
    /// there is none.
    fn probed(
        &self,
        p: &CProgram,
        path: &Path,
        cfg: &ProbeConfig,
        files: &[(String, String)],
    ) -> Result<Execution, Rejection> {
        let module = self.front_end(p)?;
        let verdict = probe(
            &module,
            path,
            &p.include_dirs,
            Target::X86_64,
            &self.limits,
            cfg,
        )
        .map_err(|setup| setup_error(format!("gcc cannot run: {setup}")))?;
        let files = files.to_vec();
        Err(match verdict {
            ProbeVerdict::Finished(o0) => return Ok(o0),
            ProbeVerdict::RunsOn { steps } => reject(
                Reason::ReferenceTimeout,
                format!("lowered also ran on past {steps} steps"),
                files,
            ),
            ProbeVerdict::OracleCannotRun(why) => reject(
                Reason::ReferenceTimeout,
                format!("the oracle cannot run lowered: {why}"),
                files,
            ),
            ProbeVerdict::Undefined(why) => reject(Reason::OracleInvalid, why, files),
            ProbeVerdict::Suspect(why) => reject(Reason::Suspect, why, files),
            ProbeVerdict::ReferenceInvalid(why) => reject(Reason::O0O2Disagree, why, files),
        })
    }

    /// csmith's program for `seed` with gcc's expected output on both data models.
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
        let mut file = tempfile::Builder::new()
            .prefix("phihunt-csmith-")
            .suffix(".c")
            .tempfile()
            .map_err(|e| setup_error(format!("cannot create a temporary file: {e}")))?;
        file.write_all(text.as_bytes())
            .map_err(|e| setup_error(format!("cannot write the program: {e}")))?;
        let mut p = CProgram {
            seed,
            text,
            expected_lp64: String::new(),
            expected_ilp32: String::new(),
            features: FeatureSet(Default::default()),
            include_dirs: vec![PathBuf::from(super::csmith::CSMITH_INCLUDE)],
            rewrites: (0, 0, 0),
        };
        let lp64 = self.reference(&p, file.path(), Target::X86_64, &self.limits, &files)?;
        // A program whose x86_64 binary needed the probe's long limit gets it on i686 too.
        let limits = match &self.probe {
            Some(cfg) if lp64.elapsed > self.limits.run_timeout => NativeLimits {
                run_timeout: cfg.long_run_timeout,
                ..self.limits
            },
            _ => self.limits,
        };
        let ilp32 = self.reference(&p, file.path(), Target::I686, &limits, &files)?;
        p.expected_lp64 = stdout_of(lp64);
        p.expected_ilp32 = stdout_of(ilp32);
        if self.measurements.is_some() {
            let cfg = ReferenceConfig {
                include_dirs: p.include_dirs.clone(),
                ..ReferenceConfig::default()
            };
            let s_time = compile_only_time(file.path(), &cfg).ok().flatten();
            self.note(seed, |r| r.times.gcc_s = s_time);
        }
        Ok(p)
    }

    /// `bench csmith`: phicc's pipeline time on `module`, as a compile would run it.
    fn time_pipeline(&self, seed: u64, module: &IrModule) {
        let Some((_, pipeline)) = &self.measurements else {
            return;
        };
        let start = Instant::now();
        let ran = catch_unwind(AssertUnwindSafe(|| {
            run_pipeline(module.clone(), pipeline, &mut |_, _| {})
        }));
        if matches!(ran, Ok(Ok(_))) {
            let elapsed = start.elapsed();
            self.note(seed, |r| r.times.pipeline = Some(elapsed));
        }
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
        let module = self.front_end(&p)?;
        self.time_pipeline(seed, &module);
        // csmith promises no undefined behaviour; the UB judge checks it on both data
        // models the expected outputs are for (out of fuel: no verdict here, the stages'
        // run decides).
        for target in [Target::X86_64, Target::I686] {
            super::judge::ub_judge(&p, target, &oracle::RunConfig::default()).map_err(
                |reason| reject(Reason::OracleUb, reason, super::hunt::program_files(&p)),
            )?;
        }
        // csmith's `main(int argc, char **argv)` reads argv only when argc == 2: called
        // as main(1, NULL), it prints what the native binary prints. A `main(void)` gets
        // no arguments.
        let takes_args = module.function("main").is_some_and(|f| f.params.len() == 2);
        let args = if takes_args { vec![1, 0] } else { Vec::new() };
        Ok(Candidate {
            module,
            entry: "main".into(),
            arg_vectors: vec![args],
            features: Default::default(),
            c_program: Some(Arc::new(p)),
        })
    }

    fn observe(&self, seed: u64, outcome: &ProgramOutcome) {
        if let Some((m, _)) = &self.measurements {
            m.observe(seed, outcome);
        }
    }
}
