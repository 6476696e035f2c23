//! `bench csmith`'s per-program records: how the campaign judged each csmith program and
//! what its compile times were, for the classification counts and the compile-time table.
//!
//! Why: `bench csmith` runs on the campaign engine (`crate::campaign::hunt` over
//! [`crate::c::csmith_source::CsmithSource`]); the engine counts programs by verdict, but
//! the bench also prints one line per program, lists the unsupported ones with their
//! first front-end error, and compares phicc's compile time with gcc's program by
//! program. The source measures while it makes a program ([`Measurements::note`]) and
//! hears the engine's verdict afterwards ([`Measurements::observe`]).
//!
//! Invariants:
//! - one small record per program (a class, a one-line detail, four times): nothing of
//!   the program itself (text, modules, stage results) outlives its judgement;
//! - a record's class is set exactly once, when the engine's verdict arrives, after any
//!   directory the engine saved is on disk; `info.txt` (seed, csmith options, how to
//!   reproduce, gcc's reference) is then added to that directory;
//! - a record whose program was never observed (the hunt stopped) is not counted.

use crate::campaign::source::ProgramOutcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// How a program ended, as `bench csmith` counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Every stage (and native stage) agreed with gcc.
    Matched,
    /// A finding at `stage` (a stage or native stage disagrees, fails the verifier,
    /// panics; `frontend` when the front end panicked).
    Mismatched { stage: String, kind: String },
    /// gcc's binary never finished, `lowered` did (saved; see `probe`).
    Suspect,
    /// The front end refused the program.
    Unsupported,
    /// gcc's binary ran past its limit; `runs_on` when `lowered` ran past the probe too.
    ReferenceTimeout { runs_on: bool },
    /// gcc rejected the program, its binary crashed, or -O0 and -O2 disagree.
    ReferenceInvalid,
    /// The oracle could not judge (out of fuel, an unsupported external).
    OracleInvalid,
    /// csmith failed or timed out.
    CsmithFailed,
    /// The UB judge found undefined behaviour of this category.
    Undefined { category: String },
}

/// A program's compile times (each when measured).
#[derive(Clone, Copy, Debug, Default)]
pub struct Times {
    /// phicc's front end, in-process.
    pub front_end: Option<Duration>,
    /// phicc's pipeline (every pass, no snapshots), in-process.
    pub pipeline: Option<Duration>,
    /// gcc -O0's build (compile, assemble, link: one process).
    pub gcc_build: Option<Duration>,
    /// `gcc -O0 -w -S` alone.
    pub gcc_s: Option<Duration>,
}

/// One program's record.
#[derive(Clone, Debug, Default)]
pub struct ProgramRecord {
    /// `None` until the engine's verdict arrives.
    pub class: Option<Class>,
    /// One line: the first front-end error, the discard reason, the finding's detail.
    pub detail: String,
    /// Where the engine saved the program, when it did.
    pub saved: Option<PathBuf>,
    pub times: Times,
    /// gcc -O0's run on x86_64, described (`exit 0, stdout "..."`, `reference timeout`).
    pub reference: Option<String>,
}

/// The records of one bench, shared by the workers.
#[derive(Debug)]
pub struct Measurements {
    /// Options passed to csmith after `--seed K` (for `info.txt`).
    pub csmith_options: Vec<String>,
    /// Print one line per program as its verdict arrives.
    pub print_lines: bool,
    records: Mutex<BTreeMap<u64, ProgramRecord>>,
}

impl Measurements {
    pub fn new(csmith_options: Vec<String>, print_lines: bool) -> Measurements {
        Measurements {
            csmith_options,
            print_lines,
            records: Mutex::new(BTreeMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, ProgramRecord>> {
        self.records.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Updates the record of `seed` while its program is being made.
    pub fn note(&self, seed: u64, update: impl FnOnce(&mut ProgramRecord)) {
        update(self.lock().entry(seed).or_default());
    }

    /// The engine's verdict on `seed`: classifies the record, adds `info.txt` to the
    /// directory the engine saved, prints the program's line.
    pub fn observe(&self, seed: u64, outcome: &ProgramOutcome) {
        let (class, detail, saved) = classify(outcome);
        let record = {
            let mut records = self.lock();
            let r = records.entry(seed).or_default();
            r.class = Some(class);
            r.detail = detail;
            r.saved = saved.map(Path::to_path_buf);
            r.clone()
        };
        let mut place = String::new();
        if let Some(dir) = record.saved.as_deref().filter(|d| d.is_dir()) {
            match std::fs::write(dir.join("info.txt"), self.info(seed, &record)) {
                Ok(()) => place = format!(" (saved to {})", dir.display()),
                Err(e) => {
                    place = format!(" (saved to {}; info.txt NOT written: {e})", dir.display())
                }
            }
        } else if let Some(file) = &record.saved {
            place = format!(" (saved to {})", file.display());
        }
        if self.print_lines {
            println!("{}", line(seed, &record, &place));
        }
    }

    /// The records of every observed program, by seed.
    pub fn take(&self) -> BTreeMap<u64, ProgramRecord> {
        std::mem::take(&mut *self.lock())
            .into_iter()
            .filter(|(_, r)| r.class.is_some())
            .collect()
    }

    /// `info.txt`: everything needed to reproduce the program without the bench.
    fn info(&self, seed: u64, r: &ProgramRecord) -> String {
        let options = self.csmith_options.join(" ");
        let mut info = String::new();
        let _ = writeln!(info, "seed: {seed}");
        let _ = writeln!(info, "csmith options: {options}");
        let _ = writeln!(
            info,
            "reproduce: csmith --seed {seed} {options} > program.c && phihunt check program.c"
        );
        let _ = writeln!(info, "{}", verdict_text(r));
        if let Some(reference) = &r.reference {
            let _ = writeln!(info, "reference (gcc -O0): {reference}");
        }
        info
    }
}

/// The class, one-line detail and saved place of an engine verdict.
fn classify<'a>(outcome: &ProgramOutcome<'a>) -> (Class, String, Option<&'a Path>) {
    match *outcome {
        ProgramOutcome::Agreed => (Class::Matched, String::new(), None),
        ProgramOutcome::Discarded(reason) => (Class::OracleInvalid, reason.to_string(), None),
        ProgramOutcome::Finding {
            signature,
            detail,
            saved,
        } => (
            Class::Mismatched {
                stage: signature.stage.clone(),
                kind: signature.kind.name().to_string(),
            },
            detail.to_string(),
            saved,
        ),
        ProgramOutcome::Rejected {
            kind,
            reason,
            saved,
        } => {
            let class = match kind {
                "generator-failed" => Class::CsmithFailed,
                "frontend-refused" => Class::Unsupported,
                "reference-timeout" => Class::ReferenceTimeout {
                    runs_on: reason.contains("ran on past"),
                },
                "suspect" => Class::Suspect,
                "oracle-ub" => Class::Undefined {
                    category: ub_category(reason),
                },
                "oracle-invalid" | "harness_panic" => Class::OracleInvalid,
                _ => Class::ReferenceInvalid,
            };
            let detail = reason
                .strip_prefix(crate::c::csmith_source::REFUSED)
                .unwrap_or(reason);
            (class, detail.to_string(), saved)
        }
    }
}

/// The category in the UB judge's reason (`... undefined behaviour (Misaligned) on ...`).
fn ub_category(reason: &str) -> String {
    reason
        .split_once("behaviour (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map_or_else(|| "unknown".to_string(), |(c, _)| c.to_string())
}

/// What a record's verdict says, in words.
fn verdict_text(r: &ProgramRecord) -> String {
    let d = &r.detail;
    match &r.class {
        None => "not judged".into(),
        Some(Class::Matched) => "matched".into(),
        Some(Class::Mismatched { stage, .. }) => format!("MISMATCH at {stage}: {d}"),
        Some(Class::Suspect) => {
            format!("SUSPECT (gcc's binary never finished, the oracle's lowered stage did): {d}")
        }
        Some(Class::Unsupported) => format!("unsupported: {d}"),
        Some(Class::ReferenceTimeout { .. }) => format!("reference timeout ({d})"),
        Some(Class::ReferenceInvalid) => format!("reference invalid: {d}"),
        Some(Class::OracleInvalid) => format!("oracle invalid: {d}"),
        Some(Class::CsmithFailed) => format!("csmith failed: {d}"),
        Some(Class::Undefined { category }) => format!(
            "undefined ({category}; no verdict, csmith emits no UB: check it with gcc's \
             sanitizers): {d}"
        ),
    }
}

/// The program's progress line: verdict, where it was saved, compile times.
fn line(seed: u64, r: &ProgramRecord, place: &str) -> String {
    let mut times = Vec::new();
    if let (Some(fe), Some(p)) = (r.times.front_end, r.times.pipeline) {
        times.push(format!("phicc {:.1} ms", (fe + p).as_secs_f64() * 1e3));
    }
    if let Some(g) = r.times.gcc_build {
        times.push(format!("gcc {:.1} ms", g.as_secs_f64() * 1e3));
    }
    let times = if times.is_empty() {
        String::new()
    } else {
        format!(" ({})", times.join(", "))
    };
    format!("seed {seed}: {}{place}{times}", verdict_text(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{FindingKind, Signature};

    #[test]
    fn engine_verdicts_map_to_bench_classes() {
        let m = Measurements::new(vec!["--x".into()], false);
        let sig = Signature::new(FindingKind::Mismatch, "gvn");
        let refused = format!(
            "{}csmith-4.c:1:9: error: no",
            crate::c::csmith_source::REFUSED
        );
        let cases: Vec<(u64, ProgramOutcome)> = vec![
            (1, ProgramOutcome::Agreed),
            (
                2,
                ProgramOutcome::Finding {
                    signature: &sig,
                    detail: "exit 3",
                    saved: None,
                },
            ),
            (
                3,
                ProgramOutcome::Rejected {
                    kind: "reference-timeout",
                    reason: "lowered also ran on past 9 steps",
                    saved: None,
                },
            ),
            (
                4,
                ProgramOutcome::Rejected {
                    kind: "frontend-refused",
                    reason: &refused,
                    saved: None,
                },
            ),
            (
                5,
                ProgramOutcome::Rejected {
                    kind: "oracle-ub",
                    reason: "the UB judge finds undefined behaviour (Misaligned) on x86_64: at",
                    saved: None,
                },
            ),
            (
                6,
                ProgramOutcome::Rejected {
                    kind: "o0-o2-disagree",
                    reason: "ub",
                    saved: None,
                },
            ),
            (7, ProgramOutcome::Discarded("reference out of fuel")),
        ];
        for (seed, o) in &cases {
            m.observe(*seed, o);
        }
        let r = m.take();
        let class = |s: u64| r[&s].class.clone().unwrap();
        assert_eq!(class(1), Class::Matched);
        assert_eq!(
            class(2),
            Class::Mismatched {
                stage: "gvn".into(),
                kind: "mismatch".into()
            }
        );
        assert_eq!(class(3), Class::ReferenceTimeout { runs_on: true });
        assert_eq!(class(4), Class::Unsupported);
        assert_eq!(r[&4].detail, "csmith-4.c:1:9: error: no");
        assert_eq!(
            class(5),
            Class::Undefined {
                category: "Misaligned".into()
            }
        );
        assert_eq!(class(6), Class::ReferenceInvalid);
        assert_eq!(class(7), Class::OracleInvalid);
    }
}
