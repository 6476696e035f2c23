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
use compiler::mutants::Mutant;
use compiler::pipeline::PipelineOptions;
use std::path::PathBuf;
use std::time::Duration;

/// One row of the table.
pub struct MutantRow {
    pub mutant: Mutant,
    pub found: bool,
    pub seconds: f64,
    pub programs: u64,
    pub signature: String,
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
}

/// True for a seeded bug below the IR (see `Mutant::is_backend`): hunted with native stages.
pub fn is_backend_mutant(m: Mutant) -> bool {
    m.is_backend()
}

/// Hunts each mutant; prints each row as it completes and returns them all.
pub fn bench_mutants(s: &BenchSettings) -> std::io::Result<Vec<MutantRow>> {
    let refs: Vec<&dyn ProgramSource> = s.sources.iter().map(|g| g.as_ref()).collect();
    println!(
        "{:<36} {:>5} {:>8} {:>9}  signature",
        "mutant", "found", "seconds", "programs"
    );
    let mut rows = Vec::new();
    for &m in &s.mutants {
        // A backend's seeded bug can only show natively: every program runs the native
        // stages then; a middle-end one is hunted as before, without them.
        let (native, native_every) = if is_backend_mutant(m) {
            (s.native.clone(), 1)
        } else {
            (NativePlan::none(), 1)
        };
        let cfg = HuntConfig {
            native,
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
        };
        let r = hunt(&refs, &cfg)?;
        let row = match r.first_finding {
            Some((at, programs)) => MutantRow {
                mutant: m,
                found: true,
                seconds: at.as_secs_f64(),
                programs: programs + 1,
                signature: r
                    .signatures
                    .iter()
                    .map(|t| t.signature.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            },
            None => MutantRow {
                mutant: m,
                found: false,
                seconds: r.elapsed.as_secs_f64(),
                programs: r.totals.programs,
                signature: "-".into(),
            },
        };
        println!(
            "{:<36} {:>5} {:>8.2} {:>9}  {}",
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
