//! `phihunt bench csmith`: csmith programs through phicc (front end, every middle-end
//! stage in the oracle, every native stage) against gcc, on the campaign engine.
//!
//! Why: csmith writes large, UB-free C programs that print a checksum of their globals;
//! they measure how much real C the front end takes, find miscompiles at any stage, and
//! time phicc against `gcc -O0` (issue 5's target: phicc compiles faster). The bench is
//! `crate::campaign::hunt` over [`crate::c::csmith_source::CsmithSource`] for seeds S ..
//! S+N-1 — the same workers, saving, journal, reports and scratch directory as `hunt
//! --gen csmith` — plus what only the bench does: the timeout probe (`probe`) and the
//! per-program records (`measurements`) behind its counts and compile-time table
//! (`report`).
//!
//! One concept per file:
//! - `program`: csmith's program for one seed;
//! - `probe`: a reference timeout, probed in the oracle (a suspect when only the oracle
//!   finishes);
//! - `measurements`: each program's verdict and compile times;
//! - `report`: the summary (counts, errors histogram, native stages, times);
//! - `baseline`: the unsupported programs compared with the stored baseline (a rise is
//!   said, and exits 1);
//! - `native_bench`: `bench native`, the native stages' cost and phicc's code's speed
//!   against gcc -O0 and -O2;
//! - `ub_bench`: `bench ub`, the UB judge against gcc's sanitizers, and its cost.
//!
//! Invariants: every child (csmith, gcc, the binary) has a timeout; a reference that
//! times out is counted as such, never as a mismatch (its probe may make it a suspect);
//! a finding, a suspect and an oracle-invalid or undefined program are saved by the
//! engine (findings/, discards/) before they are counted or printed; exit 1 when there
//! is a finding, a suspect or an unsupported program the baseline does not know, 2 on a
//! broken setup; the summary does not depend on the
//! order the workers finish in; nothing of a program but its small record outlives its
//! judgement.

pub mod baseline;
pub mod measurements;
pub mod native_bench;
pub mod probe;
pub mod program;
pub mod report;
pub mod ub_bench;

use crate::campaign::{hunt, install_ctrlc, HuntConfig};
use crate::diff::DiffConfig;
use compiler::pipeline::PipelineOptions;
use measurements::Measurements;
use report::Summary;
use std::path::PathBuf;
use std::time::Duration;

/// csmith's runtime headers, when installed.
pub const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// Stack of each worker thread: the campaign's.
pub use crate::campaign::WORKER_STACK;

/// The command line of `bench csmith`.
#[derive(Clone, Debug)]
pub struct CsmithArgs {
    pub count: u64,
    pub seed_start: u64,
    pub jobs: Option<usize>,
    pub out: Option<PathBuf>,
    /// Passed to csmith after `--seed K`.
    pub csmith_options: Vec<String>,
    pub fuel: u64,
    pub csmith_timeout: Duration,
    pub ref_timeout: Duration,
    pub probe_fuel: u64,
    pub long_ref_timeout: Duration,
    pub pipeline: PipelineOptions,
    /// Seeded bugs to switch on in every worker (the switch is per thread).
    pub mutants: Vec<compiler::mutants::Mutant>,
    /// Native stages every judged seed also runs.
    pub native: crate::native::NativePlan,
    /// What `--targets` left out, and why (for the header line).
    pub native_note: String,
    /// The unsupported baseline (default: `corpus/csmith/unsupported-baseline.txt`).
    pub baseline: Option<PathBuf>,
}

/// Runs the bench; returns the exit code (0 none, 1 a finding or a suspect, 2 setup error).
pub fn bench_csmith(args: CsmithArgs) -> i32 {
    let out_dir = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "csmith-{}",
            crate::findings::timestamp(crate::findings::unix_now())
        ))
    });
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    println!(
        "phihunt bench csmith: seeds {} to {} ({} programs), {jobs} jobs, csmith options [{}], out {}; {}",
        args.seed_start,
        (args.seed_start + args.count).saturating_sub(1),
        args.count,
        args.csmith_options.join(" "),
        out_dir.display(),
        args.native_note
    );
    let source = crate::c::csmith_source::CsmithSource {
        options: args.csmith_options.clone(),
        timeout: args.csmith_timeout,
        limits: args.native.limits,
        probe: Some(probe::ProbeConfig {
            fuel: args.probe_fuel,
            long_run_timeout: args.long_ref_timeout,
        }),
        measurements: Some((
            Measurements::new(args.csmith_options.clone(), true),
            args.pipeline.clone(),
        )),
    };
    let mut diff = DiffConfig {
        pipeline: args.pipeline.clone(),
        ..DiffConfig::default()
    };
    diff.run.fuel = args.fuel;
    let cfg = HuntConfig {
        native: args.native.clone(),
        native_every: 1,
        // Only the count ends the bench (and Ctrl-C): a century.
        duration: Duration::from_secs(100 * 365 * 86_400),
        base_seed: args.seed_start,
        jobs,
        out_dir,
        mutants: args.mutants.clone(),
        diff,
        stop_at_first: false,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(args.count),
        show_progress: false,
        // Every finding keeps its directory, as the bench always did.
        keep_per_signature: u64::MAX,
        persist: None,
        // The bench names its seeds: `--seed-start S --count N` runs exactly S..S+N.
        seeds: crate::campaign::seeds::SeedScheme::Consecutive,
        resume: None,
        cc: None,
    };
    install_ctrlc();
    let result = match hunt(&[&source], &cfg) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let records = source
        .measurements
        .as_ref()
        .map(|(m, _)| m.take())
        .unwrap_or_default();
    let summary = Summary::new(&records, &result.totals.native, result.elapsed);
    println!("report: {}", result.report_path.display());
    print!("{}", summary.render());
    let mut rose = false;
    if let Some(path) = args.baseline.clone().or_else(baseline::default_path) {
        match baseline::read(&path) {
            Ok((known, note)) => {
                if let Some(n) = note {
                    println!("note: {n}");
                }
                let options = baseline::options_key(&args.csmith_options);
                let c = baseline::compare(
                    &known,
                    &options,
                    args.seed_start..args.seed_start + args.count,
                    &summary.unsupported_list,
                );
                print!("{}", baseline::render(&c, &options));
                rose = !c.new.is_empty();
            }
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    if summary.mismatched > 0 || summary.suspect > 0 || rose {
        1
    } else {
        0
    }
}
