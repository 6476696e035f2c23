//! `phihunt bench csmith`: csmith programs through phicc (front end, every middle-end
//! stage in the oracle) against the host `gcc -O0` build.
//!
//! Why: csmith writes large, UB-free C programs that print a checksum of their globals;
//! they measure how much real C the front end takes, find miscompiles at any stage, and
//! time phicc against `gcc -O0` (issue 5's target: phicc compiles faster).
//!
//! One concept per file:
//! - `program`: one seed end to end (csmith, gcc reference, front end, stages) and its
//!   classification;
//! - `report`: saving mismatches and printing the summary (counts, errors histogram,
//!   times, native stages);
//! - `native_bench`: `bench native`, the native stages' cost and phicc's code's speed
//!   against gcc -O0 and -O2;
//! - `ub_bench`: `bench ub`, the UB judge against gcc's sanitizers, and its cost.
//!
//! Invariants: every child (csmith, gcc, the binary) has a timeout; a reference that times
//! out is counted as such, never as a mismatch (its probe may make it a suspect, see
//! `program`); a mismatch, a suspect and an oracle-invalid seed are written to disk
//! (`--out`) before they are counted or printed; exit 1 when there is a mismatch or a
//! suspect; seeds are spread over `--jobs` threads and the
//! summary does not depend on the order they finish in.

pub mod native_bench;
pub mod program;
pub mod report;
pub mod ub_bench;

use compiler::pipeline::PipelineOptions;
use program::{run_seed, SeedConfig};
use report::{save_mismatch, Summary};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// csmith's runtime headers, when installed.
pub const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// Stack of each worker thread.
pub const WORKER_STACK: usize = 512 << 20;

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
}

/// Runs the bench; returns the exit code (0 none, 1 a mismatch or a suspect, 2 setup error).
pub fn bench_csmith(args: CsmithArgs) -> i32 {
    let out_dir = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "csmith-{}",
            crate::findings::timestamp(crate::findings::unix_now())
        ))
    });
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        eprintln!("error: cannot create {}: {e}", out_dir.display());
        return 2;
    }
    let work = match tempfile::Builder::new().prefix("phihunt-csmith-").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("error: cannot create a temporary directory: {e}");
            return 2;
        }
    };
    let work_dir = work.path().to_path_buf();
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
    let cfg = SeedConfig {
        csmith_options: args.csmith_options.clone(),
        work_dir: work_dir.clone(),
        fuel: args.fuel,
        csmith_timeout: args.csmith_timeout,
        ref_timeout: args.ref_timeout,
        probe_fuel: args.probe_fuel,
        long_ref_timeout: args.long_ref_timeout,
        pipeline: args.pipeline.clone(),
        native: args.native.clone(),
    };
    let next = AtomicU64::new(0);
    let results = Mutex::new(Vec::new());
    let setup_error = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            // csmith programs nest deeply; the front end, the passes and the oracle recurse
            // (within their limits) further than a default 2 MiB thread stack allows.
            let worker = std::thread::Builder::new()
                .name("csmith-worker".into())
                .stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(s, || {
                compiler::mutants::set_active(&args.mutants);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.count || setup_error.lock().is_ok_and(|e| e.is_some()) {
                        break;
                    }
                    let seed = args.seed_start + i;
                    let result = match run_seed(seed, &cfg) {
                        Ok(r) => r,
                        Err(e) => {
                            if let Ok(mut slot) = setup_error.lock() {
                                slot.get_or_insert(e);
                            }
                            break;
                        }
                    };
                    // Saved before anything else: a crash of the harness loses nothing. A
                    // program gcc ran cleanly but the oracle judged undefined or out of fuel
                    // at `lowered` is no verdict, yet may be a front-end bug (csmith emits no
                    // UB): it is kept too, for a human to look at.
                    let keep = result.mismatch().is_some()
                        || matches!(
                            result.verdict,
                            program::Verdict::OracleInvalid(_)
                                | program::Verdict::Undefined { .. }
                                | program::Verdict::Suspect(_)
                        );
                    let saved =
                        keep.then(|| save_mismatch(&out_dir, &result, &args.csmith_options));
                    println!("{}", result.line(saved.as_ref()));
                    if let Ok(mut all) = results.lock() {
                        all.push((result, saved));
                    }
                }
            });
            if let Err(e) = spawned {
                if let Ok(mut slot) = setup_error.lock() {
                    slot.get_or_insert(format!("cannot start a worker thread: {e}"));
                }
            }
        }
    });
    drop(work);
    if let Some(e) = setup_error.into_inner().ok().flatten() {
        eprintln!("error: {e}");
        return 2;
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(r, _)| r.seed);
    let summary = Summary::new(&results, start.elapsed());
    print!("{}", summary.render());
    if summary.mismatched > 0 || summary.suspect > 0 {
        1
    } else {
        0
    }
}
