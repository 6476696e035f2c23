//! `phihunt bench creduce`: the C reducer measured on the seeded bugs the C hunt finds,
//! and C-Vise alone on the same findings for comparison.
//!
//! Why: "reduced to a few lines that are still the real bug" is a number, not a claim.
//! For each middle-end seeded bug (or the ones named) the C hunt runs until its first
//! finding; that program is reduced with the budget, and the result is checked by judges
//! the reducer does not use for its own decisions: gcc -O0 with
//! `-fsanitize=undefined,address` must run it cleanly and print the recorded output, the
//! signature must hold with the seeded bug on, and every stage must agree with it off (the
//! bug shown is the seeded one). On the first `--cvise N` findings C-Vise alone reduces the
//! original with the same interestingness script and budget, checked the same way.
//!
//! Invariants: every hunt, reduction and C-Vise run is under its time limit; the seeded
//! bug is active only while its own row runs; findings are saved under the bench's out
//! dir like any hunt's.

use super::corpus::test_file_text;
use super::cvise::{run_cvise, ScriptTest};
use super::interesting::{judge, CGoal, Check, Tester};
use super::{goal_for, line_count, reduce_c_finding};
use crate::c::hunt::CGenerator;
use crate::c::judge::SANITIZER_FLAGS;
use crate::campaign::source::ProgramSource;
use crate::campaign::{hunt, HuntConfig};
use crate::diff::{DiffConfig, Signature};
use crate::findings::write_atomically;
use crate::native::NativePlan;
use compiler::mutants::{self, Mutant};
use compiler::pipeline::PipelineOptions;
use oracle::native::gcc::{reference_run, NativeOutcome, ReferenceConfig};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Settings of the benchmark.
pub struct CreduceBench {
    pub mutants: Vec<Mutant>,
    /// Hunt budget per seeded bug.
    pub hunt_budget: Duration,
    /// Reduction budget (ours, and C-Vise's).
    pub budget: Duration,
    /// How many findings C-Vise alone also reduces.
    pub cvise: usize,
    pub seed: u64,
    pub jobs: usize,
    pub out_dir: PathBuf,
}

/// How a reduced program fares with judges the reducer does not decide by.
#[derive(Clone, Copy, Debug, Default)]
pub struct Verification {
    /// gcc -O0 -fsanitize=undefined,address runs it cleanly and prints the output the
    /// reduction recorded.
    pub sanitizer_clean: bool,
    /// Defined and the signature holds with the seeded bug on.
    pub holds: bool,
    /// With the seeded bug off, every stage agrees (it is the seeded bug that shows).
    pub gone_without_bug: bool,
}

impl Verification {
    pub fn real_bug(&self) -> bool {
        self.sanitizer_clean && self.holds && self.gone_without_bug
    }
}

/// One reduction's numbers.
#[derive(Clone, Debug)]
pub struct Shrink {
    pub seconds: f64,
    pub lines: usize,
    pub tokens: usize,
    pub finished: bool,
    pub check: Verification,
}

/// One row of the table.
pub struct CreduceRow {
    pub mutant: Mutant,
    pub signature: Option<Signature>,
    pub lines_before: usize,
    pub tokens_before: usize,
    pub ours: Result<Shrink, String>,
    pub cvise: Option<Result<Shrink, String>>,
}

/// Checks `text` (a reduced program) for `signature` and seeded bug `m`.
pub fn verify(text: &str, signature: &Signature, m: Mutant) -> Result<Verification, String> {
    let dir = tempfile::Builder::new()
        .prefix("phihunt-creduce-verify-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let path = dir.path().join("reduced.c");
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let includes = crate::cli::with_csmith_include(Vec::new());
    mutants::set_active(&[m]);
    let on = goal_for(&path, signature, &includes).and_then(|(goal, _)| judge(&goal, &path));
    mutants::set_active(&[]);
    let off = goal_for(&path, signature, &includes).and_then(|(goal, _)| judge(&goal, &path));
    let (on, off) = (on?, off?);
    let recorded = match &on {
        Check::Interesting { status, stdout } => Some((*status, stdout.clone())),
        Check::Rejected { .. } => None,
    };
    let sanitized = sanitizer_run(&path, &includes)?;
    Ok(Verification {
        sanitizer_clean: recorded.is_some() && sanitized == recorded,
        holds: recorded.is_some(),
        gone_without_bug: matches!(off, Check::Rejected { step: "signature", ref why } if why == "every stage agrees"),
    })
}

/// gcc -O0 with the sanitizers: (status, stdout) when it exits normally.
pub fn sanitizer_run(path: &Path, includes: &[PathBuf]) -> Result<Option<(i32, Vec<u8>)>, String> {
    let cfg = ReferenceConfig {
        include_dirs: includes.to_vec(),
        extra_flags: SANITIZER_FLAGS.iter().map(|s| s.to_string()).collect(),
        run_timeout: Duration::from_secs(20),
        ..ReferenceConfig::default()
    };
    Ok(match reference_run(path, &cfg)?.outcome {
        NativeOutcome::Exited { code, stdout } => Some((code, stdout)),
        _ => None,
    })
}

/// Tokens of a program (0 when it does not tokenize).
fn token_count(text: &str) -> usize {
    super::tokens::tokenize(text).map_or(0, |t| t.len())
}

/// Runs the benchmark; prints each row as it completes and the summary.
pub fn bench_creduce(s: &CreduceBench) -> std::io::Result<Vec<CreduceRow>> {
    let source = CGenerator::default();
    let sources: Vec<&dyn ProgramSource> = vec![&source];
    println!(
        "{:<34} {:<22} {:>11} {:>13} {:>7} {:>6} {:>5}  C-Vise alone",
        "seeded bug", "signature", "lines", "tokens", "seconds", "clean", "bug"
    );
    let mut rows = Vec::new();
    let mut cvise_left = s.cvise;
    for &m in &s.mutants {
        let cfg = HuntConfig {
            native: NativePlan::none(),
            native_every: 1,
            duration: s.hunt_budget,
            base_seed: s.seed,
            jobs: s.jobs,
            out_dir: s.out_dir.join(m.name()),
            mutants: vec![m],
            diff: DiffConfig::default(),
            stop_at_first: true,
            reduce_budget: Duration::ZERO,
            corpus_found: None,
            max_programs: None,
            show_progress: false,
            keep_per_signature: crate::campaign::keep::DEFAULT_KEEP_PER_SIGNATURE,
            persist: None,
            seeds: crate::campaign::seeds::SeedScheme::Spread,
            resume: None,
            cc: None,
        };
        let r = hunt(&sources, &cfg)?;
        let Some(first) = r.signatures.first() else {
            println!("{:<34} not found in {:.0?}", m.name(), s.hunt_budget);
            continue;
        };
        let dir = PathBuf::from(&first.first);
        let program = dir.join("program.c");
        let original = std::fs::read_to_string(&program)?;
        let sig = first.signature.clone();
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        mutants::set_active(&[m]);
        let start = Instant::now();
        let reduced = reduce_c_finding(&program, &sig, s.budget, &PipelineOptions::default(), None);
        let seconds = start.elapsed().as_secs_f64();
        mutants::set_active(&[]);
        let ours = match reduced {
            Err(e) => Err(e),
            Ok(red) => {
                let text = test_file_text(
                    &sig,
                    &format!("seeded bug {}", m.name()),
                    red.status,
                    &red.stdout,
                    &red.text,
                );
                write_atomically(&dir.join("reduced.c"), text.as_bytes())?;
                verify(&red.text, &sig, m).map(|check| Shrink {
                    seconds,
                    lines: red.lines_after,
                    tokens: red.tokens_after,
                    finished: red.finished,
                    check,
                })
            }
        };
        let cvise = if cvise_left > 0 {
            cvise_left -= 1;
            mutants::set_active(&[m]);
            let includes = crate::cli::with_csmith_include(Vec::new());
            let lint = goal_for(&program, &sig, &includes).map(|(g, _)| g.lint);
            let pipeline = compiler::pipeline::PipelineOptions::default();
            let run = lint.and_then(|lint| {
                let test = ScriptTest {
                    signature: &sig,
                    include_dirs: &includes,
                    lint: &lint,
                    pipeline: &pipeline,
                    cc: None,
                };
                run_cvise(&original, &test, s.budget)
            });
            mutants::set_active(&[]);
            Some(run.and_then(|cv| {
                let _ = write_atomically(&dir.join("cvise.c"), cv.text.as_bytes());
                verify(&cv.text, &sig, m).map(|check| Shrink {
                    seconds: cv.elapsed.as_secs_f64(),
                    lines: line_count(&cv.text),
                    tokens: token_count(&cv.text),
                    finished: cv.finished,
                    check,
                })
            }))
        } else {
            None
        };
        std::panic::set_hook(hook);
        let row = CreduceRow {
            mutant: m,
            signature: Some(sig),
            lines_before: line_count(&original),
            tokens_before: token_count(&original),
            ours,
            cvise,
        };
        print_row(&row);
        rows.push(row);
    }
    print_summary(&rows);
    Ok(rows)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}

fn print_row(r: &CreduceRow) {
    let sig = r.signature.as_ref().map_or("-".into(), |s| s.to_string());
    let ours = match &r.ours {
        Err(e) => format!("reduction failed: {e}"),
        Ok(o) => format!(
            "{:>4} -> {:<4} {:>5} -> {:<5} {:>7.1}{} {:>6} {:>5}",
            r.lines_before,
            o.lines,
            r.tokens_before,
            o.tokens,
            o.seconds,
            if o.finished { " " } else { "*" },
            yes(o.check.sanitizer_clean),
            yes(o.check.holds && o.check.gone_without_bug),
        ),
    };
    let cvise = match &r.cvise {
        None => String::new(),
        Some(Err(e)) => format!("  C-Vise failed: {e}"),
        Some(Ok(c)) => format!(
            "  {:.1}s{} {} lines {} tokens, clean {}, bug {}",
            c.seconds,
            if c.finished { "" } else { "*" },
            c.lines,
            c.tokens,
            yes(c.check.sanitizer_clean),
            yes(c.check.holds && c.check.gone_without_bug)
        ),
    };
    println!("{:<34} {:<22} {ours}{cvise}", r.mutant.name(), sig);
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn print_summary(rows: &[CreduceRow]) {
    let ours: Vec<&Shrink> = rows.iter().filter_map(|r| r.ours.as_ref().ok()).collect();
    let real = ours.iter().filter(|o| o.check.real_bug()).count();
    let clean = ours.iter().filter(|o| o.check.sanitizer_clean).count();
    let max = |f: fn(&Shrink) -> usize| ours.iter().map(|o| f(o)).max().unwrap_or(0);
    println!(
        "ours: {} reduced of {} found; median {:.1} s, median {} lines (max {}), median {} tokens (max {}); {} sanitizer-clean, {} still the seeded bug (on: holds, off: gone); {} 1-minimal (* = budget ran out)",
        ours.len(),
        rows.len(),
        median(ours.iter().map(|o| o.seconds).collect()),
        median(ours.iter().map(|o| o.lines as f64).collect()),
        max(|o| o.lines),
        median(ours.iter().map(|o| o.tokens as f64).collect()),
        max(|o| o.tokens),
        clean,
        real,
        ours.iter().filter(|o| o.finished).count()
    );
    let cv: Vec<&Shrink> = rows
        .iter()
        .filter_map(|r| r.cvise.as_ref().and_then(|c| c.as_ref().ok()))
        .collect();
    if !cv.is_empty() {
        println!(
            "C-Vise alone: {} runs; median {:.1} s, median {} lines, median {} tokens; {} sanitizer-clean, {} still the seeded bug",
            cv.len(),
            median(cv.iter().map(|o| o.seconds).collect()),
            median(cv.iter().map(|o| o.lines as f64).collect()),
            median(cv.iter().map(|o| o.tokens as f64).collect()),
            cv.iter().filter(|o| o.check.sanitizer_clean).count(),
            cv.iter().filter(|o| o.check.real_bug()).count()
        );
    }
}

/// The default seeded bugs: every middle-end one.
pub fn middle_end_mutants() -> Vec<Mutant> {
    Mutant::ALL
        .iter()
        .copied()
        .filter(|m| !m.is_backend())
        .collect()
}

/// A fresh tester for `signature` (used by tests).
pub fn tester_for(path: &Path, signature: &Signature) -> Result<Tester, String> {
    let includes = crate::cli::with_csmith_include(Vec::new());
    let (goal, _): (CGoal, _) = goal_for(path, signature, &includes)?;
    Tester::new(goal)
}
