//! The UB judge's cost: the oracle running `main` of a C program's checked lowering
//! (`LowerOptions::ub_checks`, `docs/ub-judge.md`) against its normal lowering, both at
//! the `lowered` stage. Programs: `benches/ub_judge_program.c` (a csmith-like workload)
//! and every `.c` file of the directory in `PHIHUNT_UB_BENCH_DIR` if set (e.g. csmith
//! programs, which need `/usr/include/csmith`, added when it exists). Each program runs
//! in both data models the judge uses: LP64 (x86_64, 8-byte pointers) and ILP32 (i686,
//! 4-byte pointers, where revived block-scope objects take new ids). Prints per program
//! and model the best-of-5 wall time of each run, the steps, and the ratio, and a total
//! per model; the goal (issue 17) is a ratio within 2. Run with `cargo bench -p oracle
//! --bench ub_judge`.

use compiler::compile_c::{compile_c_file_with, default_options};
use compiler::lowering::LowerOptions;
use compiler::target::Target;
use oracle::{Outcome, Program, RunConfig};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// The best wall time of `RUNS` runs of `main` (decoding included, as the judge pays
/// it), with the steps and the outcome.
fn time_main(module: &compiler::ir::IrModule, cfg: &RunConfig) -> (Duration, u64, Outcome) {
    let mut best = Duration::MAX;
    let mut last = (0, Outcome::OutOfFuel);
    for _ in 0..RUNS {
        let start = Instant::now();
        let program = Program::new(module, cfg).expect("the oracle runs the program");
        let r = program
            .run_main(&[b"a.out"])
            .expect("main has a hosted shape");
        best = best.min(start.elapsed());
        last = (r.steps, r.outcome);
    }
    (best, last.0, last.1)
}

fn bench(path: &Path, target: Target, totals: &mut (Duration, Duration)) {
    let mut opts = default_options();
    opts.target = target;
    let csmith = Path::new("/usr/include/csmith");
    if csmith.is_dir() {
        opts.include_dirs.push(csmith.to_path_buf());
    }
    let compile = |ub_checks| compile_c_file_with(path, &opts, LowerOptions { ub_checks });
    let (plain, checked) = match (compile(false), compile(true)) {
        (Ok(p), Ok(c)) => (p.module, c.module),
        (Err(e), _) | (_, Err(e)) => {
            println!(
                "{} ({}): skipped: {}",
                path.display(),
                target.name(),
                e.headline()
            );
            return;
        }
    };
    let cfg = RunConfig {
        fuel: 2_000_000_000,
        ptr_bytes: target.sizeof_pointer(),
        ..RunConfig::default()
    };
    let (tp, sp, op) = time_main(&plain, &cfg);
    let (tc, sc, oc) = time_main(&checked, &cfg);
    if op != oc || matches!(oc, Outcome::OutOfFuel | Outcome::Undefined(..)) {
        println!(
            "{} ({}): skipped: plain ends {op}, checked ends {oc}",
            path.display(),
            target.name()
        );
        return;
    }
    totals.0 += tp;
    totals.1 += tc;
    println!(
        "{} ({}): plain {:.1} ms ({sp} steps), checked {:.1} ms ({sc} steps): time x{:.2}, steps x{:.2}",
        path.display(),
        target.name(),
        tp.as_secs_f64() * 1e3,
        tc.as_secs_f64() * 1e3,
        tc.as_secs_f64() / tp.as_secs_f64(),
        sc as f64 / sp as f64
    );
}

fn main() {
    let mut files = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/ub_judge_program.c")];
    if let Ok(dir) = std::env::var("PHIHUNT_UB_BENCH_DIR") {
        let mut extra: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("PHIHUNT_UB_BENCH_DIR is a directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        extra.sort();
        files.extend(extra);
    }
    for target in [Target::X86_64, Target::I686] {
        let mut totals = (Duration::ZERO, Duration::ZERO);
        for f in &files {
            bench(f, target, &mut totals);
        }
        println!(
            "total ({}): plain {:.1} ms, checked {:.1} ms: checked/plain = {:.2}",
            target.name(),
            totals.0.as_secs_f64() * 1e3,
            totals.1.as_secs_f64() * 1e3,
            totals.1.as_secs_f64() / totals.0.as_secs_f64().max(1e-9)
        );
    }
}
