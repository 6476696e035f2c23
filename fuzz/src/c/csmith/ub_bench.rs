//! `phihunt bench ub`: the UB judge against gcc's sanitizers, and its cost.
//!
//! Why: the judge (`check::ub_judge`) must never call a defined program undefined (a
//! discarded program is a lost test; a reducer that trusts it drifts) and should catch
//! what gcc's `-fsanitize=undefined,address,pointer-compare,pointer-subtract` catches.
//! For each program (csmith's for seeds S.., or the `.c` files of `--corpus DIR`) this
//! runs both and tabulates where they agree; it also times the oracle's `lowered` run of
//! the checked lowering against the normal one (the judge's cost, issue 17: within 2x).
//!
//! Verdicts: the judge's is its category (`Ub` kind, `DivByZero`, `DivOverflow`),
//! `defined`, or no verdict (front-end refusal, out of fuel, cannot run). gcc's is `ub`
//! when the sanitized binary (built `-O0` with the flags above and
//! `-fno-sanitize-recover=all`) exits with the sanitizers' status ([`SANITIZER_EXIT`],
//! set through `__asan_default_options`/`__ubsan_default_options` in a helper source, as
//! the binary runs with an empty environment) or dies by a signal; `defined` when it exits
//! otherwise; no verdict when it times out or does not build.
//!
//! Invariants: every child has a timeout (csmith, gcc, the binary); a program where the
//! judge says UB and gcc says defined is listed as a *possible false positive* and saved
//! (`--out`) before it is printed; exit status 1 when there is one, 0 otherwise, 2 on a
//! setup error. gcc misses some UB the judge catches by design (uninitialised reads,
//! `memcpy` overlap at -O0, calls through a wrongly typed function pointer, `a - 1` of an
//! array): such a program is listed for a human too, never silently accepted.

use super::program::csmith_program;
use super::CSMITH_INCLUDE;
use crate::check::c_source::{front_end, run_main, FrontEndFailure, Invalid};
use crate::check::ub_judge::{checked_front_end, judge_defined};
use oracle::native::{reference_run, NativeOutcome, ReferenceConfig};
use oracle::RunConfig;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Exit status of a sanitized binary that reported an error.
pub const SANITIZER_EXIT: i32 = 86;

/// The sanitizer flags gcc's build gets.
pub const SANITIZE_FLAGS: &[&str] = &[
    "-fsanitize=undefined,address,pointer-compare,pointer-subtract",
    "-fno-sanitize-recover=all",
    "-g",
];

/// Runtime options compiled into the sanitized binary (it runs with an empty environment).
const SANITIZER_OPTIONS_SOURCE: &str = r#"
const char *__asan_default_options(void) {
    return "detect_invalid_pointer_pairs=2:detect_leaks=0:detect_stack_use_after_return=1:exitcode=86";
}
const char *__ubsan_default_options(void) {
    return "halt_on_error=1:exitcode=86";
}
"#;

/// The command line of `bench ub`.
#[derive(Clone, Debug)]
pub struct UbBenchArgs {
    pub count: u64,
    pub seed_start: u64,
    /// The `.c` files of this directory instead of csmith programs.
    pub corpus: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub fuel: u64,
    pub csmith_timeout: Duration,
    pub run_timeout: Duration,
    pub csmith_options: Vec<String>,
    /// Build and run gcc's sanitized binary only when the judge says UB (the false
    /// positive check alone, several times faster than the full comparison).
    pub gcc_only_on_ub: bool,
}

/// What one side said.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Side {
    Defined,
    Ub(String),
    NoVerdict(String),
}

/// One program's result.
struct Row {
    name: String,
    judge: Side,
    gcc: Side,
    /// (checked, plain) `lowered` run times and steps, when both ran to an end.
    timing: Option<(Duration, Duration, u64, u64)>,
}

/// Runs the bench; returns the exit status.
pub fn bench_ub(args: UbBenchArgs) -> i32 {
    let out_dir = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "ub-{}",
            crate::findings::timestamp(crate::findings::unix_now())
        ))
    });
    let work = match tempfile::Builder::new().prefix("phihunt-ub-").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("error: cannot create a temporary directory: {e}");
            return 2;
        }
    };
    let helper = work.path().join("sanitizer_options.c");
    if let Err(e) = std::fs::write(&helper, SANITIZER_OPTIONS_SOURCE) {
        eprintln!("error: cannot write {}: {e}", helper.display());
        return 2;
    }
    let mut flags: Vec<String> = SANITIZE_FLAGS.iter().map(|s| s.to_string()).collect();
    flags.push(helper.display().to_string());
    let inputs: Vec<(String, Option<u64>)> = match &args.corpus {
        Some(dir) => match c_files(dir) {
            Ok(files) => files.into_iter().map(|f| (f, None)).collect(),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => (0..args.count)
            .map(|i| {
                let seed = args.seed_start + i;
                (format!("seed {seed}"), Some(seed))
            })
            .collect(),
    };
    println!(
        "phihunt bench ub: {} programs; the UB judge (checked lowering, fuel {}) against gcc {}",
        inputs.len(),
        args.fuel,
        SANITIZE_FLAGS.join(" ")
    );
    let mut rows = Vec::new();
    let mut suspects = 0;
    for (name, seed) in inputs {
        let path = match seed {
            None => PathBuf::from(&name),
            Some(seed) => {
                match csmith_program(seed, &args.csmith_options, work.path(), args.csmith_timeout) {
                    Ok(Ok(text)) => {
                        let p = work.path().join(format!("csmith-{seed}.c"));
                        if let Err(e) = std::fs::write(&p, text) {
                            eprintln!("error: cannot write {}: {e}", p.display());
                            return 2;
                        }
                        p
                    }
                    Ok(Err(why)) => {
                        println!("{name}: csmith failed: {why}");
                        continue;
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        return 2;
                    }
                }
            }
        };
        let row = match judge_one(&name, &path, &args, &flags) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
        let disagree = matches!((&row.judge, &row.gcc), (Side::Ub(_), Side::Defined))
            || matches!((&row.judge, &row.gcc), (Side::Defined, Side::Ub(_)));
        let mut line = format!("{name}: judge {:?}, gcc {:?}", row.judge, row.gcc);
        if disagree {
            if matches!(row.judge, Side::Ub(_)) {
                suspects += 1;
            }
            match save(&out_dir, &row, &path) {
                Ok(p) => line.push_str(&format!(" (DISAGREE, saved to {})", p.display())),
                Err(e) => line.push_str(&format!(" (DISAGREE, NOT SAVED: {e})")),
            }
        }
        println!("{line}");
        rows.push(row);
    }
    print!("{}", summary(&rows));
    i32::from(suspects > 0)
}

/// The `.c` files of `dir`, sorted.
fn c_files(dir: &Path) -> Result<Vec<String>, String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    Ok(files)
}

/// Judges one program both ways. `Err` only for a broken setup.
fn judge_one(name: &str, path: &Path, args: &UbBenchArgs, flags: &[String]) -> Result<Row, String> {
    let mut includes = Vec::new();
    if Path::new(CSMITH_INCLUDE).is_dir() {
        includes.push(PathBuf::from(CSMITH_INCLUDE));
    }
    let cfg = RunConfig {
        fuel: args.fuel,
        ..RunConfig::default()
    };
    let mut timing = None;
    let judge = match checked_front_end(path, &includes) {
        Err(FrontEndFailure::Refused(why)) => {
            Side::NoVerdict(format!("front end: {}", why.message()))
        }
        Err(FrontEndFailure::Panic(m)) => Side::NoVerdict(format!("front end panicked: {m}")),
        Ok(checked) => {
            let start = Instant::now();
            let verdict = judge_defined(&checked, &cfg);
            let checked_time = start.elapsed();
            match verdict {
                Ok(run) => {
                    if let Ok(plain) = front_end(path, &includes).result {
                        let start = Instant::now();
                        if let Ok(p) = run_main(&plain, &cfg) {
                            timing = Some((checked_time, start.elapsed(), run.steps, p.steps));
                        }
                    }
                    Side::Defined
                }
                Err(Invalid::Undefined { category, .. }) => Side::Ub(category),
                Err(other) => Side::NoVerdict(other.message()),
            }
        }
    };
    if args.gcc_only_on_ub && !matches!(judge, Side::Ub(_)) {
        return Ok(Row {
            name: name.to_string(),
            judge,
            gcc: Side::NoVerdict("not run (--gcc-only-on-ub)".into()),
            timing,
        });
    }
    let reference = ReferenceConfig {
        include_dirs: includes,
        extra_flags: flags.to_vec(),
        run_timeout: args.run_timeout,
        compile_timeout: Duration::from_secs(120),
        ..ReferenceConfig::default()
    };
    let gcc = match reference_run(path, &reference)?.outcome {
        NativeOutcome::Exited { code, .. } if code == SANITIZER_EXIT => {
            Side::Ub("sanitizer".into())
        }
        NativeOutcome::Exited { .. } => Side::Defined,
        NativeOutcome::Signaled(s) => Side::Ub(format!("signal {s}")),
        NativeOutcome::TimedOut => Side::NoVerdict("timeout".into()),
        NativeOutcome::CompileFailed(m) => Side::NoVerdict(format!("gcc rejects it: {m}")),
    };
    Ok(Row {
        name: name.to_string(),
        judge,
        gcc,
        timing,
    })
}

/// Saves a disagreement: the program and what each side said.
fn save(out_dir: &Path, row: &Row, path: &Path) -> Result<PathBuf, String> {
    let slug: String = row
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = out_dir.join(format!("disagree-{slug}"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::findings::write_atomically(&dir.join("program.c"), &text)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let info = format!(
        "program: {}\njudge: {:?}\ngcc ({}): {:?}\nreproduce: phihunt check program.c; \
         scripts/ub-corpus-gcc.sh on a directory holding it\n",
        row.name,
        row.judge,
        SANITIZE_FLAGS.join(" "),
        row.gcc
    );
    crate::findings::write_atomically(&dir.join("info.txt"), info.as_bytes())
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// The agreement table, the categories and the judge's cost.
fn summary(rows: &[Row]) -> String {
    let mut table: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut categories: BTreeMap<String, usize> = BTreeMap::new();
    let class = |s: &Side| match s {
        Side::Defined => "defined".to_string(),
        Side::Ub(_) => "ub".to_string(),
        Side::NoVerdict(_) => "no verdict".to_string(),
    };
    for r in rows {
        *table.entry((class(&r.judge), class(&r.gcc))).or_default() += 1;
        if let Side::Ub(c) = &r.judge {
            *categories.entry(c.clone()).or_default() += 1;
        }
    }
    let mut o = String::new();
    let _ = writeln!(
        o,
        "summary ({} programs): judge vs gcc sanitizers",
        rows.len()
    );
    for ((j, g), n) in &table {
        let mark = match (j.as_str(), g.as_str()) {
            ("ub", "defined") => "  <- possible false positives (saved)",
            ("defined", "ub") => "  <- UB the judge misses (saved)",
            _ => "",
        };
        let _ = writeln!(o, "  judge {j:<10} gcc {g:<10} {n:>6}{mark}");
    }
    for (c, n) in &categories {
        let _ = writeln!(o, "  judge ub:{c:<28} {n:>6}");
    }
    let timed: Vec<_> = rows.iter().filter_map(|r| r.timing).collect();
    if !timed.is_empty() {
        let (mut tc, mut tp, mut sc, mut sp) = (Duration::ZERO, Duration::ZERO, 0u64, 0u64);
        let mut log_sum = 0.0;
        for &(c, p, s1, s2) in &timed {
            tc += c;
            tp += p;
            sc += s1;
            sp += s2;
            log_sum += (c.as_secs_f64() / p.as_secs_f64().max(1e-9)).ln();
        }
        let _ = writeln!(
            o,
            "judge cost over {} defined programs: checked lowered {:.3} s, plain lowered {:.3} s \
             (ratio of sums {:.2}, geomean {:.2}); steps {} vs {} ({:.2}x)",
            timed.len(),
            tc.as_secs_f64(),
            tp.as_secs_f64(),
            tc.as_secs_f64() / tp.as_secs_f64().max(1e-9),
            (log_sum / timed.len() as f64).exp(),
            sc,
            sp,
            sc as f64 / sp.max(1) as f64
        );
    }
    o
}
