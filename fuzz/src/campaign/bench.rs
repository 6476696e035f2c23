//! `phihunt bench mutants`: how fast do the hunters find each seeded bug?
//!
//! Why: the harness's sensitivity is measured, not assumed. Each mutant is switched on
//! alone and hunted until the first finding or until the budget runs out; the table says
//! which were found, after how long and how many programs.
//!
//! Invariant: a mutant counts as found only through a real finding of the differential
//! (saved to disk under the bench's out dir like any other); the same base seed is used
//! for every mutant, so the runs are comparable and reproducible.

use super::source::ProgramSource;
use super::{hunt, HuntConfig};
use crate::diff::DiffConfig;
use crate::native::NativePlan;
use crate::reduce::cli::{load_finding, LoadError};
use crate::reduce::{one_minimal_violations, reduce};
use compiler::mutants;
use compiler::mutants::Mutant;
use compiler::pipeline::PipelineOptions;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One row of the table.
pub struct MutantRow {
    pub mutant: Mutant,
    /// The first finding reduced, when `--reduce` asked for it.
    pub reduction: Option<ReductionRow>,
    /// False when the bug's targets are not in the native plan (a toolchain missing).
    pub hunted: bool,
    pub found: bool,
    pub seconds: f64,
    pub programs: u64,
    pub signature: String,
}

/// How the first finding of a mutant reduced.
pub struct ReductionRow {
    /// Instructions (and globals, declarations) before and after.
    pub size_before: usize,
    pub size_after: usize,
    pub seconds: f64,
    /// True when the reducer reached its fixpoint within the budget.
    pub finished: bool,
    /// Single edits that still keep the bug (0: the case is 1-minimal for the edit set).
    pub violations: usize,
    /// Why the finding could not be reduced (its file did not load), if so.
    pub error: Option<String>,
}

/// Settings of the benchmark.
pub struct BenchSettings {
    pub mutants: Vec<Mutant>,
    pub budget: Duration,
    pub seed: u64,
    pub jobs: usize,
    pub sources: Vec<Box<dyn ProgramSource>>,
    pub out_dir: PathBuf,
    pub pipeline: PipelineOptions,
    /// The native stages backend mutants are hunted with.
    pub native: NativePlan,
    /// Reduce each mutant's first finding with this budget and check it is 1-minimal
    /// (`None`: no reduction).
    pub reduce: Option<Duration>,
}

/// True for a seeded bug below the IR (see `Mutant::is_backend`): hunted with native stages.
pub fn is_backend_mutant(m: Mutant) -> bool {
    m.is_backend()
}

/// Hunts each mutant; prints each row as it completes and returns them all.
pub fn bench_mutants(s: &BenchSettings) -> std::io::Result<Vec<MutantRow>> {
    let refs: Vec<&dyn ProgramSource> = s.sources.iter().map(|g| g.as_ref()).collect();
    println!(
        "{:<36} {:>5} {:>8} {:>9}  signature by generator",
        "mutant", "found", "seconds", "programs"
    );
    let mut rows = Vec::new();
    for &m in &s.mutants {
        // A backend's seeded bug can only show natively: every program runs the native
        // stages of the targets whose code the bug changes (a bug in one backend is not
        // hunted on the other three, whose process starts would only slow the hunt down);
        // a middle-end one is hunted as before, without native stages.
        let (native, native_every) = if is_backend_mutant(m) {
            (s.native.restricted_to(m.targets()), 1)
        } else {
            (NativePlan::none(), 1)
        };
        if is_backend_mutant(m) && native.is_empty() {
            // Not a miss: the bug's targets were left out of `--targets`; said, not hidden.
            let needs: Vec<&str> = m.targets().iter().map(|t| t.name()).collect();
            println!(
                "{:<36} {:>5} {:>8} {:>9}  not hunted: needs --targets {}",
                m.name(),
                "-",
                "-",
                0,
                needs.join(",")
            );
            rows.push(MutantRow {
                mutant: m,
                reduction: None,
                hunted: false,
                found: false,
                seconds: 0.0,
                programs: 0,
                signature: "-".into(),
            });
            continue;
        }
        let cfg = HuntConfig {
            native: native.clone(),
            native_every,
            duration: s.budget,
            base_seed: s.seed,
            jobs: s.jobs,
            out_dir: s.out_dir.join(m.name()),
            mutants: vec![m],
            diff: DiffConfig {
                pipeline: s.pipeline.clone(),
                ..DiffConfig::default()
            },
            stop_at_first: true,
            reduce_budget: Duration::ZERO,
            corpus_found: None,
            max_programs: None,
            show_progress: false,
            keep_per_signature: super::keep::DEFAULT_KEEP_PER_SIGNATURE,
            persist: None,
            seeds: crate::campaign::seeds::SeedScheme::Spread,
            resume: None,
            cc: None,
        };
        let r = hunt(&refs, &cfg)?;
        let row = match r.first_finding {
            Some((at, programs)) => MutantRow {
                mutant: m,
                reduction: match (s.reduce, r.signatures.first()) {
                    (Some(budget), Some(first)) => Some(reduce_first_finding(
                        &PathBuf::from(&first.first).join("input.ir"),
                        m,
                        &native,
                        budget,
                    )),
                    _ => None,
                },
                hunted: true,
                found: true,
                seconds: at.as_secs_f64(),
                programs: programs + 1,
                // Each signature with the generator of its first finding.
                signature: r
                    .signatures
                    .iter()
                    .map(|t| format!("{} by {}", t.signature, t.first_generator))
                    .collect::<Vec<_>>()
                    .join(" "),
            },
            None => MutantRow {
                mutant: m,
                reduction: None,
                hunted: true,
                found: false,
                seconds: r.elapsed.as_secs_f64(),
                programs: r.totals.programs,
                signature: "-".into(),
            },
        };
        let reduced = match &row.reduction {
            None => String::new(),
            Some(ReductionRow { error: Some(e), .. }) => format!("  reduction failed: {e}"),
            Some(red) => format!(
                "  reduced {} -> {} in {:.2}s{}, {}",
                red.size_before,
                red.size_after,
                red.seconds,
                if red.finished {
                    ""
                } else {
                    " (budget ran out)"
                },
                if red.violations == 0 {
                    "1-minimal".to_string()
                } else {
                    format!(
                        "NOT 1-minimal ({} single edits keep the bug)",
                        red.violations
                    )
                }
            ),
        };
        println!(
            "{:<36} {:>5} {:>8.2} {:>9}  {}{reduced}",
            m.name(),
            if row.found { "yes" } else { "NO" },
            row.seconds,
            row.programs,
            row.signature
        );
        rows.push(row);
        if r.interrupted {
            break;
        }
    }
    Ok(rows)
}

/// Reduces the finding saved at `input` (its `; run:` lines and the differential give the
/// goal) with mutant `m` on, then checks the result is 1-minimal for the edit set.
fn reduce_first_finding(
    input: &Path,
    m: Mutant,
    native: &NativePlan,
    budget: Duration,
) -> ReductionRow {
    let failed = |error: String| ReductionRow {
        size_before: 0,
        size_after: 0,
        seconds: 0.0,
        finished: false,
        violations: 0,
        error: Some(error),
    };
    mutants::set_active(&[m]);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let row = match load_finding(input, native) {
        Err(LoadError::Invalid(e)) | Err(LoadError::NothingToReduce(e)) => failed(e),
        Ok(loaded) => {
            let start = Instant::now();
            let reduced = reduce(&loaded.module, &loaded.goal, budget);
            let seconds = start.elapsed().as_secs_f64();
            ReductionRow {
                size_before: reduced.size_before,
                size_after: reduced.size_after,
                seconds,
                finished: reduced.finished,
                violations: one_minimal_violations(&reduced.module, &loaded.goal).len(),
                error: None,
            }
        }
    };
    std::panic::set_hook(hook);
    mutants::set_active(&[]);
    row
}
