//! `phihunt bench throughput`: programs per hour through every stage and every native
//! target, per generator, with the CPU time each program cost.
//!
//! Why: the C hunting issue sets a goal in programs per hour on a 2-core machine (at least
//! 10,000 generated C programs through every oracle stage *and* every native target), and
//! "how many programs a night" is the first question a team asks of a hunt. A hunt's own
//! rate depends on `--native-every` (natives are most of the cost); this benchmark runs
//! each generator's hunt with natives on every program (by default), so the number is the
//! full pipeline's, and measures the CPU it took, so that a rate taken on a busy machine
//! can still be read as CPU seconds per program.
//!
//! How: each generator's hunt runs as a child `phihunt hunt` process (its own scratch
//! directory, reaper and Ctrl-C handling, exactly what a user runs) under a time limit of
//! the hunt's time plus a margin, with reduction off (`--reduce-time 0s`: reduction is
//! not throughput, and a finding is still saved). The child's `summary.json` gives the
//! programs and the time; `getrusage(RUSAGE_CHILDREN)` around the child gives the CPU
//! seconds of the hunt and of everything it ran (gcc, as, ld, qemu, csmith), all of
//! which it waits for.
//!
//! Invariants: the machine's load average is printed and stored with every row (a rate
//! taken beside other work is labelled so, never passed off as an idle measurement);
//! a hunt that fails, is killed, or leaves no summary is an error row, not a zero.

use oracle::native::{run_limited, Termination};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The benchmark's settings.
#[derive(Clone, Debug)]
pub struct ThroughputArgs {
    /// Generators, each hunted on its own (`c`, `csmith`, `cfg`, ...).
    pub generators: Vec<String>,
    /// Each hunt's time.
    pub time: Duration,
    pub jobs: usize,
    pub seed: u64,
    /// `--targets` for the hunts.
    pub targets: String,
    /// `--native-every` for the hunts (1: every program natively).
    pub native_every: u64,
    pub out: PathBuf,
}

/// One generator's measurement.
#[derive(Clone, Debug, Serialize)]
pub struct ThroughputRow {
    pub generator: String,
    pub programs: u64,
    /// Programs that ran the native stages.
    pub native_programs: u64,
    pub findings: u64,
    pub discarded: u64,
    pub wall_s: f64,
    /// The hunt's and its children's CPU time (user + system).
    pub cpu_s: f64,
    pub programs_per_hour: f64,
    pub cpu_s_per_program: f64,
    /// What the same CPU per program would give on `jobs` otherwise idle cores.
    pub idle_estimate_per_hour: f64,
    /// 1-minute load average before and after the hunt.
    pub load_before: f64,
    pub load_after: f64,
    /// The hunt's phase times per program, seconds.
    pub phase_s_per_program: std::collections::BTreeMap<String, f64>,
}

/// The whole benchmark's record (`OUT/throughput.json`).
#[derive(Clone, Debug, Serialize)]
pub struct ThroughputReport {
    pub jobs: usize,
    pub native_every: u64,
    pub targets: String,
    pub time_s: f64,
    pub seed: u64,
    pub rows: Vec<ThroughputRow>,
    pub errors: Vec<String>,
}

/// The goal of the C hunting issue for generated C programs, per hour on 2 cores.
pub const GENERATED_C_GOAL_PER_HOUR: f64 = 10_000.0;

/// The 1-minute load average (`/proc/loadavg`); 0 where it cannot be read.
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

/// CPU seconds (user + system) of this process's waited-for descendants so far.
fn children_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } == 0;
    if !ok {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// What one hunt's `summary.json` says.
fn read_summary(dir: &Path) -> Result<serde_json::Value, String> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e} (the hunt left no summary)", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs one generator's hunt and measures it.
fn measure(args: &ThroughputArgs, generator: &str) -> Result<ThroughputRow, String> {
    let dir = args.out.join(generator.replace([',', '/'], "_"));
    let phihunt = std::env::current_exe().map_err(|e| format!("cannot find phihunt: {e}"))?;
    let mut cmd = Command::new(phihunt);
    cmd.arg("hunt")
        .args(["--gen", generator])
        .arg("--time")
        .arg(format!("{}s", args.time.as_secs_f64().ceil() as u64))
        .arg("--jobs")
        .arg(args.jobs.to_string())
        .arg("--seed")
        .arg(args.seed.to_string())
        .args(["--targets", &args.targets])
        .arg("--native-every")
        .arg(args.native_every.max(1).to_string())
        .args(["--reduce-time", "0s"])
        .arg("--corpus-found")
        .arg(dir.join("corpus-found"))
        .arg("--out")
        .arg(&dir);
    let load_before = load_average();
    let cpu_before = children_cpu_seconds();
    // The hunt stops at its time and then finishes the programs in flight (csmith's may
    // take a minute); anything past that is a hung hunt.
    let limit = args.time + Duration::from_secs(300);
    let run = run_limited(&mut cmd, limit, 1 << 20).map_err(|e| format!("{generator}: {e}"))?;
    let cpu_s = children_cpu_seconds() - cpu_before;
    let load_after = load_average();
    match run.termination {
        Termination::Exited(0) | Termination::Exited(1) => {}
        other => {
            let err = String::from_utf8_lossy(&run.stderr);
            return Err(format!(
                "{generator}: the hunt ended {other:?}: {}",
                err.lines().last().unwrap_or("")
            ));
        }
    }
    let summary = read_summary(&dir)?;
    let totals = &summary["totals"];
    let num = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    let programs = num(&totals["programs"]);
    let wall_s = summary["duration_s"].as_f64().unwrap_or(0.0);
    if programs == 0 || wall_s <= 0.0 {
        return Err(format!("{generator}: the hunt made no program"));
    }
    let phase_s_per_program = summary["phase_seconds"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_f64().unwrap_or(0.0) / programs as f64))
                .collect()
        })
        .unwrap_or_default();
    let cpu_s_per_program = cpu_s / programs as f64;
    Ok(ThroughputRow {
        generator: generator.to_string(),
        programs,
        native_programs: num(&totals["native_programs"]),
        findings: num(&totals["findings"]),
        discarded: num(&totals["discarded"]),
        wall_s,
        cpu_s,
        programs_per_hour: programs as f64 * 3600.0 / wall_s,
        cpu_s_per_program,
        idle_estimate_per_hour: if cpu_s_per_program > 0.0 {
            args.jobs as f64 * 3600.0 / cpu_s_per_program
        } else {
            0.0
        },
        load_before,
        load_after,
        phase_s_per_program,
    })
}

/// Prints one row of the table.
fn print_row(r: &ThroughputRow, jobs: usize) {
    println!(
        "{:<10} {:>8} {:>8} {:>8.0} {:>12.0} {:>10.3} {:>14.0} {:>6.1}/{:<5.1} {:>4}",
        r.generator,
        r.programs,
        r.native_programs,
        r.wall_s,
        r.programs_per_hour,
        r.cpu_s_per_program,
        r.idle_estimate_per_hour,
        r.load_before,
        r.load_after,
        r.findings
    );
    let phases: Vec<String> = r
        .phase_s_per_program
        .iter()
        .filter(|(_, s)| **s > 0.0)
        .map(|(k, s)| format!("{k} {:.0} ms", s * 1000.0))
        .collect();
    println!("{:<10} per program: {}", "", phases.join(", "));
    if r.load_before > jobs as f64 + 0.5 || r.load_after > jobs as f64 + 0.5 {
        println!(
            "{:<10} note: the load average was above {jobs}: the rate is pessimistic; CPU s/program holds",
            ""
        );
    }
}

/// Runs the benchmark; the exit code (0 when every hunt was measured).
pub fn bench_throughput(args: &ThroughputArgs) -> i32 {
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("{}: error: {e}", args.out.display());
        return 2;
    }
    println!(
        "phihunt bench throughput: {} for {:.0?} each, {} jobs, seed {}, targets {}, natives on one program in {}; out {}",
        args.generators.join(", "),
        args.time,
        args.jobs,
        args.seed,
        args.targets,
        args.native_every.max(1),
        args.out.display()
    );
    let mut report = ThroughputReport {
        jobs: args.jobs,
        native_every: args.native_every.max(1),
        targets: args.targets.clone(),
        time_s: args.time.as_secs_f64(),
        seed: args.seed,
        rows: Vec::new(),
        errors: Vec::new(),
    };
    println!(
        "{:<10} {:>8} {:>8} {:>8} {:>12} {:>10} {:>14} {:>12} {:>4}",
        "generator",
        "programs",
        "native",
        "wall s",
        "programs/h",
        "CPU s/prog",
        "idle est. /h",
        "load",
        "find"
    );
    for generator in &args.generators {
        match measure(args, generator) {
            Ok(row) => {
                print_row(&row, args.jobs);
                report.rows.push(row);
            }
            Err(e) => {
                println!("{generator:<10} error: {e}");
                report.errors.push(e);
            }
        }
    }
    if let Some(c) = report.rows.iter().find(|r| r.generator == "c") {
        println!(
            "generated C through every stage: {:.0} programs/h measured, {:.0}/h from CPU time on {} idle cores (goal {:.0}/h on 2 cores)",
            c.programs_per_hour, c.idle_estimate_per_hour, args.jobs, GENERATED_C_GOAL_PER_HOUR
        );
    }
    let json = serde_json::to_string_pretty(&report).unwrap_or_default();
    if let Err(e) =
        crate::findings::write_atomically(&args.out.join("throughput.json"), json.as_bytes())
    {
        eprintln!("error: {e}");
        return 2;
    }
    if report.errors.is_empty() {
        0
    } else {
        1
    }
}
