//! `phihunt bench native`: what the native stages cost, and how fast phicc's code runs.
//!
//! Why: issue 10 asks, per target, for the time per program split into phicc (front end
//! through assembly text), assemble+link and run, and for the run time of phicc's code
//! against gcc -O0's and -O2's binaries of the same programs. The programs are csmith's
//! (seeds S..S+N-1) or, with `--corpus DIR`, the `.c` files of a directory.
//!
//! Method: each program goes through `crate::native::c_program::judge_c_natively` — the
//! same code `check` and `bench csmith` run — on every stage of the plan; the times it
//! reports are summed per stage. Run times are wall times of whole processes (the
//! kernel's exec, libc's start-up and, for i686, qemu's start are in both phicc's and
//! gcc's runs alike). Ratios are taken only over programs where phicc's run agreed with
//! gcc's (a failing run's time means nothing), as sum(phicc)/sum(gcc) and as the
//! geometric mean of per-program ratios. Programs are run one at a time by default
//! (`--jobs 1`) so that runs do not compete for the two cores.
//!
//! Invariant: every program is counted once per stage, as timed (agreed), failed (by
//! kind) or no verdict (by reason); a failure is printed with its program, never hidden in
//! an average.

use super::program::csmith_program;
use super::CSMITH_INCLUDE;
use crate::native::c_program::{judge_c_natively, GccTimes};
use crate::native::{NativePlan, RowVerdict};
use compiler::pipeline::PipelineOptions;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The command line of `bench native`.
#[derive(Clone, Debug)]
pub struct NativeBenchArgs {
    pub count: u64,
    pub seed_start: u64,
    /// `.c` files of this directory instead of csmith programs.
    pub corpus: Option<PathBuf>,
    pub jobs: usize,
    pub csmith_options: Vec<String>,
    pub csmith_timeout: Duration,
    pub pipeline: PipelineOptions,
    pub native: NativePlan,
    /// The header's account of the plan (what `--targets` left out).
    pub native_note: String,
}

/// One stage's sums over the programs.
#[derive(Clone, Debug, Default)]
pub struct StageBench {
    pub timed: usize,
    pub phicc: Duration,
    pub build: Duration,
    pub run: Duration,
    pub gcc_o0_run: Duration,
    pub gcc_o2_run: Duration,
    pub gcc_o0_build: Duration,
    /// Sums of ln(phicc run / gcc run) for the geometric means.
    pub log_ratio_o0: f64,
    pub log_ratio_o2: f64,
    pub failed: BTreeMap<String, usize>,
    pub discarded: BTreeMap<String, usize>,
    /// (program, stage failure) lines.
    pub failures: Vec<String>,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The programs to run: (name, path, C text kept alive in a temp dir when generated).
enum Program {
    File(PathBuf),
    Generated { seed: u64 },
}

/// Runs the bench; returns the exit code (0, 1 when a stage failed, 2 on a setup error).
pub fn bench_native(args: NativeBenchArgs) -> i32 {
    if args.native.is_empty() {
        eprintln!("error: no native stage to measure ({})", args.native_note);
        return 2;
    }
    let work = match tempfile::Builder::new()
        .prefix("phihunt-bench-native-")
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot create a temporary directory: {e}");
            return 2;
        }
    };
    let programs: Vec<Program> = match &args.corpus {
        Some(dir) => match crate::check::expand_inputs(std::slice::from_ref(dir)) {
            Ok(files) => files
                .into_iter()
                .filter(|f| crate::check::is_c_file(f))
                .map(Program::File)
                .collect(),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => (0..args.count)
            .map(|i| Program::Generated {
                seed: args.seed_start + i,
            })
            .collect(),
    };
    println!(
        "phihunt bench native: {} programs ({}), {} jobs; {}",
        programs.len(),
        match &args.corpus {
            Some(d) => format!("the .c files of {}", d.display()),
            None => format!(
                "csmith seeds {}..{} [{}]",
                args.seed_start,
                (args.seed_start + args.count).saturating_sub(1),
                args.csmith_options.join(" ")
            ),
        },
        args.jobs,
        args.native_note
    );
    let includes = if args.corpus.is_some() {
        crate::cli::with_csmith_include(Vec::new())
    } else {
        vec![PathBuf::from(CSMITH_INCLUDE)]
    };
    let next = AtomicUsize::new(0);
    let sums: Mutex<BTreeMap<String, StageBench>> = Mutex::new(BTreeMap::new());
    let setup_error: Mutex<Option<String>> = Mutex::new(None);
    let skipped = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            let worker = std::thread::Builder::new()
                .name("bench-native".into())
                .stack_size(super::WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(program) = programs.get(i) else {
                    break;
                };
                if setup_error.lock().is_ok_and(|e| e.is_some()) {
                    break;
                }
                let (name, path) = match program {
                    Program::File(p) => (p.display().to_string(), p.clone()),
                    Program::Generated { seed } => {
                        let text = match csmith_program(
                            *seed,
                            &args.csmith_options,
                            work.path(),
                            args.csmith_timeout,
                        ) {
                            Ok(Ok(t)) => t,
                            Ok(Err(why)) => {
                                println!("seed {seed}: csmith failed: {why}");
                                skipped.fetch_add(1, Ordering::Relaxed);
                                continue;
                            }
                            Err(e) => {
                                if let Ok(mut s) = setup_error.lock() {
                                    s.get_or_insert(e);
                                }
                                break;
                            }
                        };
                        let path = work.path().join(format!("csmith-{seed}.c"));
                        if let Err(e) = std::fs::write(&path, text) {
                            if let Ok(mut s) = setup_error.lock() {
                                s.get_or_insert(format!("{}: {e}", path.display()));
                            }
                            break;
                        }
                        (format!("seed {seed}"), path)
                    }
                };
                let rows = judge_c_natively(
                    &path,
                    &includes,
                    &args.pipeline,
                    &args.native.stages,
                    &args.native.limits,
                    None,
                );
                if matches!(program, Program::Generated { .. }) {
                    let _ = std::fs::remove_file(&path);
                }
                let rows = match rows {
                    Ok(r) => r,
                    Err(e) => {
                        if let Ok(mut s) = setup_error.lock() {
                            s.get_or_insert(e);
                        }
                        break;
                    }
                };
                let gcc: BTreeMap<&str, GccTimes> =
                    rows.gcc_times.iter().map(|(t, g)| (t.name(), *g)).collect();
                let mut line = Vec::new();
                let mut sums = sums.lock().unwrap_or_else(|p| p.into_inner());
                for (stage, verdict, times) in &rows.rows {
                    let b = sums.entry(stage.name()).or_default();
                    match verdict {
                        RowVerdict::Agrees => {
                            let Some(g) = gcc.get(stage.target.name()) else {
                                continue;
                            };
                            b.timed += 1;
                            b.phicc += times.phicc;
                            b.build += times.build;
                            b.run += times.run;
                            b.gcc_o0_run += g.o0_run;
                            b.gcc_o2_run += g.o2_run;
                            b.gcc_o0_build += g.o0_build;
                            let ratio = |gcc: Duration| {
                                (times.run.as_secs_f64().max(1e-6) / gcc.as_secs_f64().max(1e-6))
                                    .ln()
                            };
                            b.log_ratio_o0 += ratio(g.o0_run);
                            b.log_ratio_o2 += ratio(g.o2_run);
                            line.push(format!(
                                "{} {:.0}+{:.0}+{:.0} ms",
                                stage.name(),
                                ms(times.phicc),
                                ms(times.build),
                                ms(times.run)
                            ));
                        }
                        RowVerdict::Failed(f) => {
                            *b.failed.entry(f.kind.name().into()).or_default() += 1;
                            b.failures.push(format!(
                                "{name}: {}: {}: {}",
                                stage.name(),
                                f.kind.name(),
                                f.detail
                            ));
                            line.push(format!("{} FAILED {}", stage.name(), f.kind.name()));
                        }
                        RowVerdict::Discarded(why) => {
                            let kind = why.split([':', '(']).next().unwrap_or(why).trim();
                            *b.discarded.entry(kind.to_string()).or_default() += 1;
                            line.push(format!("{} no verdict ({kind})", stage.name()));
                        }
                    }
                }
                drop(sums);
                println!("{name}: {}", line.join(", "));
            });
            if let Err(e) = spawned {
                if let Ok(mut s) = setup_error.lock() {
                    s.get_or_insert(format!("cannot start a worker: {e}"));
                }
            }
        }
    });
    if let Some(e) = setup_error.into_inner().ok().flatten() {
        eprintln!("error: {e}");
        return 2;
    }
    let sums = sums.into_inner().unwrap_or_else(|p| p.into_inner());
    print!("{}", render(&sums, skipped.load(Ordering::Relaxed)));
    if sums.values().any(|b| !b.failed.is_empty()) {
        1
    } else {
        0
    }
}

/// The summary table.
pub fn render(sums: &BTreeMap<String, StageBench>, skipped: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "\n== native bench summary (per stage; times per program, over the programs whose run agreed with gcc -O0's)");
    let _ = writeln!(
        o,
        "{:<22} {:>6} {:>10} {:>10} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "stage",
        "timed",
        "phicc ms",
        "as+ld ms",
        "run ms",
        "gcc-O0",
        "gcc-O2",
        "run/O0",
        "geo/O0",
        "run/O2",
        "geo/O2"
    );
    for (stage, b) in sums {
        let n = b.timed.max(1) as f64;
        let ratio = |a: Duration, g: Duration| a.as_secs_f64() / g.as_secs_f64().max(1e-9);
        let _ = writeln!(
            o,
            "{:<22} {:>6} {:>10.2} {:>10.1} {:>9.2} {:>9.2} {:>9.2} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            stage,
            b.timed,
            ms(b.phicc) / n,
            ms(b.build) / n,
            ms(b.run) / n,
            ms(b.gcc_o0_run) / n,
            ms(b.gcc_o2_run) / n,
            ratio(b.run, b.gcc_o0_run),
            (b.log_ratio_o0 / n).exp(),
            ratio(b.run, b.gcc_o2_run),
            (b.log_ratio_o2 / n).exp(),
        );
    }
    let _ = writeln!(o, "(phicc: front end, pipeline and backend to assembly text, in-process; as+ld: the target's gcc driver on phicc's assembly; run, gcc-O0, gcc-O2: one run of each binary; run/O0 = sum of phicc's run times / sum of gcc -O0's, geo/O0 = geometric mean of the per-program ratios)");
    for (stage, b) in sums {
        if !b.failed.is_empty() || !b.discarded.is_empty() {
            let f: Vec<String> = b.failed.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let d: Vec<String> = b
                .discarded
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            let _ = writeln!(
                o,
                "{stage}: FAILED [{}], no verdict [{}]",
                f.join(", "),
                d.join(", ")
            );
        }
        for line in &b.failures {
            let _ = writeln!(o, "  {line}");
        }
    }
    if skipped > 0 {
        let _ = writeln!(o, "{skipped} seed(s) skipped: csmith failed");
    }
    let failed: usize = sums
        .values()
        .map(|b| b.failed.values().sum::<usize>())
        .sum();
    let timed: usize = sums.values().map(|b| b.timed).sum();
    let _ = writeln!(o, "{timed} timed, {failed} failed");
    o
}
