//! `phihunt bench cgen`: is the C generator right? Seeds a..b through the host gcc -O0
//! (optionally under UBSan and ASan) against `--expected`, and through phicc and the
//! oracle at every stage.
//!
//! Why: the generator's expected output is a reference for hunts, so it is measured
//! before it is used: gcc agreeing on 10,000 seeds, the sanitizers staying quiet on
//! 1,000, phicc accepting every program, and no stage differing on the correct compiler.
//!
//! Invariants: every failing seed is saved (program, expected output, reason) under the
//! output directory before it is counted; the last line is `N programs, M failures`;
//! the exit code is 0 only when there is no failure at all.

use super::cli::CGenOptions;
use super::gen::{generate, CProgram};
use super::judge::{gcc_verdict_on, oracle_verdict, GccVerdict, OracleVerdict};
use crate::findings::write_atomically;
use compiler::pipeline::PipelineOptions;
use compiler::target::Target;
use oracle::RunConfig;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `phihunt bench cgen`'s settings.
pub struct CGenBenchArgs {
    pub count: u64,
    pub seed_start: u64,
    pub jobs: usize,
    pub gen: CGenOptions,
    /// Build with gcc -O0 and compare (the default).
    pub gcc: bool,
    /// Build with UBSan and ASan as well.
    pub sanitize: bool,
    /// Run phicc and every stage in the oracle.
    pub oracle: bool,
    pub out: PathBuf,
    /// The target whose gcc builds the program (x86_64: the host gcc) and whose expected
    /// output it must print.
    pub target: Target,
    pub run_timeout: Duration,
    pub fuel: u64,
    pub pipeline: PipelineOptions,
}

/// The tallies of a bench run.
#[derive(Default, Debug)]
pub struct CGenBenchTally {
    pub programs: u64,
    pub gen_errors: u64,
    pub gen_time: Duration,
    pub gcc_agree: u64,
    pub gcc_bugs: u64,
    pub sanitizer_clean: u64,
    pub sanitizer_bugs: u64,
    pub phicc_accepts: u64,
    pub phicc_refuses: u64,
    pub oracle_agree: u64,
    pub lowered_differs: u64,
    pub stage_differs: u64,
    /// Reasons (first words) -> count, for the summary.
    pub reasons: BTreeMap<String, u64>,
    /// Stage -> programs it changed.
    pub pass_programs: BTreeMap<String, u64>,
    pub rewrites: (u64, u64, u64),
}

impl CGenBenchTally {
    pub fn failures(&self) -> u64 {
        self.gen_errors
            + self.gcc_bugs
            + self.sanitizer_bugs
            + self.phicc_refuses
            + self.lowered_differs
            + self.stage_differs
    }
}

fn save(
    out: &Path,
    seed: u64,
    p: Option<&CProgram>,
    what: &str,
    detail: &str,
) -> Result<(), String> {
    let dir = out.join(format!("seed-{seed}-{what}"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let w = |name: &str, text: &str| {
        write_atomically(&dir.join(name), text.as_bytes())
            .map_err(|e| format!("cannot save seed {seed}: {e}"))
    };
    w("reason.txt", &format!("seed {seed}: {what}: {detail}\n"))?;
    if let Some(p) = p {
        w("program.c", &p.text)?;
        w("expected-x86_64.txt", p.expected(Target::X86_64))?;
        w("expected-i686.txt", p.expected(Target::I686))?;
    }
    Ok(())
}

/// One seed through the judges asked for; adds to `t`.
fn bench_seed(seed: u64, a: &CGenBenchArgs, t: &Mutex<CGenBenchTally>) -> Result<(), String> {
    let cfg = a.gen.config()?;
    let start = Instant::now();
    let made = generate(seed, &cfg);
    let gen_time = start.elapsed();
    let mut failures: Vec<(&str, String)> = Vec::new();
    let p = match made {
        Ok(p) => p,
        Err(e) => {
            save(&a.out, seed, None, "generator-error", &e)?;
            let mut t = t.lock().map_err(|_| "tally poisoned")?;
            t.programs += 1;
            t.gen_errors += 1;
            t.gen_time += gen_time;
            return Ok(());
        }
    };
    let gcc = if a.gcc {
        Some(gcc_verdict_on(&p, a.target, false, a.run_timeout)?)
    } else {
        None
    };
    let san = if a.sanitize {
        Some(gcc_verdict_on(&p, Target::X86_64, true, a.run_timeout * 3)?)
    } else {
        None
    };
    let run = RunConfig {
        fuel: a.fuel,
        ..RunConfig::default()
    };
    let oracle = if a.oracle {
        Some(oracle_verdict(&p, &a.pipeline, &run))
    } else {
        None
    };
    if let Some(GccVerdict::GeneratorBug(m)) = &gcc {
        failures.push(("gcc-differs", m.clone()));
    }
    if let Some(GccVerdict::GeneratorBug(m)) = &san {
        failures.push(("sanitizer", m.clone()));
    }
    match &oracle {
        Some(OracleVerdict::Refused(m)) => failures.push(("phicc-refuses", m.clone())),
        Some(OracleVerdict::LoweredDiffers(m)) => failures.push(("lowered-differs", m.clone())),
        Some(OracleVerdict::StageDiffers { stage, detail }) => {
            failures.push(("stage-differs", format!("{stage}: {detail}")))
        }
        _ => {}
    }
    for (what, detail) in &failures {
        save(&a.out, seed, Some(&p), what, detail)?;
    }
    let mut t = t.lock().map_err(|_| "tally poisoned")?;
    t.programs += 1;
    t.gen_time += gen_time;
    t.rewrites.0 += p.rewrites.0;
    t.rewrites.1 += p.rewrites.1;
    t.rewrites.2 += p.rewrites.2;
    match gcc {
        Some(GccVerdict::Agrees) => t.gcc_agree += 1,
        Some(_) => t.gcc_bugs += 1,
        None => {}
    }
    match san {
        Some(GccVerdict::Agrees) => t.sanitizer_clean += 1,
        Some(_) => t.sanitizer_bugs += 1,
        None => {}
    }
    match oracle {
        Some(OracleVerdict::Agrees { pass_changes }) => {
            t.phicc_accepts += 1;
            t.oracle_agree += 1;
            for (stage, n) in pass_changes {
                if n > 0 {
                    *t.pass_programs.entry(stage).or_default() += 1;
                }
            }
        }
        Some(OracleVerdict::Refused(_)) => t.phicc_refuses += 1,
        Some(OracleVerdict::LoweredDiffers(_)) => {
            t.phicc_accepts += 1;
            t.lowered_differs += 1;
        }
        Some(OracleVerdict::StageDiffers { .. }) => {
            t.phicc_accepts += 1;
            t.stage_differs += 1;
        }
        None => {}
    }
    for (what, detail) in failures {
        let key = format!("{what}: {}", detail.chars().take(70).collect::<String>());
        *t.reasons.entry(key).or_default() += 1;
    }
    Ok(())
}

/// Runs the bench; returns the tally (and the setup error that stopped it, if any).
pub fn run_bench(a: &CGenBenchArgs) -> Result<CGenBenchTally, String> {
    let tally = Mutex::new(CGenBenchTally::default());
    let next = AtomicU64::new(0);
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..a.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= a.count || error.lock().map(|e| e.is_some()).unwrap_or(true) {
                    break;
                }
                if let Err(e) = bench_seed(a.seed_start + i, a, &tally) {
                    if let Ok(mut slot) = error.lock() {
                        slot.get_or_insert(e);
                    }
                    break;
                }
            });
        }
    });
    if let Some(e) = error.into_inner().map_err(|_| "error slot poisoned")? {
        return Err(e);
    }
    tally.into_inner().map_err(|_| "tally poisoned".to_string())
}

/// The summary lines.
pub fn render(a: &CGenBenchArgs, t: &CGenBenchTally, elapsed: Duration) -> String {
    let mut s = String::new();
    let n = t.programs;
    s.push_str(&format!(
        "seeds {}..{} ({} programs, size {}), {:.1} s\n",
        a.seed_start,
        a.seed_start + a.count.saturating_sub(1),
        n,
        a.gen.size,
        elapsed.as_secs_f64()
    ));
    s.push_str(&format!(
        "generator: {} errors, {:.1} programs/s (generation and evaluation only); rewrites: {} operators swapped, {} made defined for all values, {} indices guarded\n",
        t.gen_errors,
        n as f64 / t.gen_time.as_secs_f64().max(1e-9),
        t.rewrites.0,
        t.rewrites.1,
        t.rewrites.2
    ));
    if a.gcc {
        s.push_str(&format!(
            "gcc -O0 ({}): {} agree with --expected, {} differ\n",
            if a.target == Target::X86_64 {
                "host".to_string()
            } else {
                format!("{}, under qemu", a.target.name())
            },
            t.gcc_agree,
            t.gcc_bugs
        ));
    }
    if a.sanitize {
        s.push_str(&format!(
            "gcc -O0 -fsanitize=undefined,address: {} clean, {} not\n",
            t.sanitizer_clean, t.sanitizer_bugs
        ));
    }
    if a.oracle {
        s.push_str(&format!(
            "phicc accepts {}/{}; oracle: {} agree at every stage, {} differ at lowered (generator or front end), {} differ at a later stage\n",
            t.phicc_accepts, n, t.oracle_agree, t.lowered_differs, t.stage_differs
        ));
        let changed: Vec<String> = t
            .pass_programs
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!(
            "programs each stage changed: {}\n",
            changed.join(", ")
        ));
    }
    for (r, c) in &t.reasons {
        s.push_str(&format!("  {c:>6}  {r}\n"));
    }
    if t.failures() > 0 {
        s.push_str(&format!("failing seeds saved under {}\n", a.out.display()));
    }
    s.push_str(&format!("{} programs, {} failures\n", n, t.failures()));
    s
}

/// Runs `phihunt bench cgen`; prints the summary; exit 0 when nothing failed.
pub fn bench_cgen(a: CGenBenchArgs) -> i32 {
    if let Err(e) = a.gen.config() {
        eprintln!("error: {e}");
        return 2;
    }
    let start = Instant::now();
    match run_bench(&a) {
        Ok(t) => {
            print!("{}", render(&a, &t, start.elapsed()));
            if t.failures() == 0 {
                0
            } else {
                1
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
