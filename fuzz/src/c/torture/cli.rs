//! `phihunt torture DIR`: the c-torture suite end to end — list, classify, select, judge,
//! report, and check against the expected-failures list.
//!
//! Why: keeps the subcommand's flow out of the shared `cli.rs`, which only parses the
//! options and calls [`torture_command`].
//!
//! Exit status: 0 when every judged (test, target) matches the expected-failures list (or
//! `--write-expected` rewrote it), 1 when it does not, 2 for a usage or setup error. The
//! last line printed is `N judged: ...; M problem(s) against LIST`.

use super::child::ChildSettings;
use super::expected;
use super::outcome::Kind;
use super::report;
use super::run::{run_suite, RunSettings};
use super::suite::{list_tests, select_named};
use crate::native::NativeLimits;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default expected-failures list (relative to the workspace root).
pub const DEFAULT_EXPECTED: &str = "corpus/torture/expected-failures.txt";

/// What `phihunt torture` was asked.
#[derive(Clone, Debug)]
pub struct TortureArgs {
    /// gcc's `gcc.c-torture/execute` directory.
    pub dir: PathBuf,
    pub jobs: usize,
    /// `--targets`, as for `check`.
    pub targets: String,
    /// Output folder (default `reports/torture-<UTC timestamp>`).
    pub out: Option<PathBuf>,
    /// Where the selection and classification are cached (default: `DIR/../phihunt-cache`).
    pub cache: Option<PathBuf>,
    pub expected: PathBuf,
    pub write_expected: bool,
    /// Only these tests (names), plus the names listed in `only_file`.
    pub only: Vec<String>,
    pub only_file: Option<PathBuf>,
    pub fuel: u64,
    pub run_timeout: Duration,
    pub build_timeout: Duration,
    pub test_timeout: Duration,
    /// Refusal groups shown.
    pub top: usize,
    /// Global options passed to the children (`--mutant`, `--disable-passes`).
    pub forward: Vec<String>,
    /// Judge nothing: report from OUT's journal (a run in progress, or a killed one).
    pub no_judge: bool,
}

/// The default cache directory of a suite directory: beside it, `phihunt-cache`.
pub fn default_cache(dir: &Path) -> PathBuf {
    let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    real.parent()
        .unwrap_or(Path::new("."))
        .join("phihunt-cache")
}

/// The names of a `--only-file` (one per line, `#` comments).
pub fn read_names(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// Runs the subcommand; returns the exit status.
pub fn torture_command(args: TortureArgs) -> i32 {
    match torture(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn torture(args: TortureArgs) -> Result<i32, String> {
    let all = list_tests(&args.dir)?;
    let mut names = args.only.clone();
    if let Some(f) = &args.only_file {
        names.extend(read_names(f)?);
    }
    let tests = if names.is_empty() {
        all
    } else {
        select_named(&all, &names)?
    };
    let (plan, choice) =
        crate::cli::native_plan(&args.targets).map_err(|e| format!("--targets: {e}"))?;
    if plan.is_empty() {
        return Err("--targets: the suite needs at least one native target".into());
    }
    let targets = choice.chosen.clone();
    let cache = args
        .cache
        .clone()
        .unwrap_or_else(|| default_cache(&args.dir));
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "torture-{}",
            crate::findings::timestamp(crate::findings::unix_now())
        ))
    });
    let jobs = args.jobs.max(1);
    let expected_list = expected::read(&args.expected)?;
    eprintln!(
        "torture: {} test(s) from {}; targets {}; {jobs} job(s); output {}",
        tests.len(),
        args.dir.display(),
        targets
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(","),
        out.display()
    );
    let classes = super::classify::classify(&tests, &cache, jobs)?;
    let limits = NativeLimits {
        run_timeout: args.run_timeout,
        build_timeout: args.build_timeout,
        ..NativeLimits::default()
    };
    let selections = super::selection::select(&tests, &targets, &cache, jobs, &limits)?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let settings = RunSettings {
        jobs,
        child: ChildSettings {
            exe: std::env::current_exe().map_err(|e| format!("cannot find phihunt itself: {e}"))?,
            forward: args.forward.clone(),
            fuel: args.fuel,
            limits,
            test_timeout: args.test_timeout,
        },
        out: out.clone(),
        no_judge: args.no_judge,
    };
    let run = run_suite(&tests, &selections, &classes, &settings)?;
    report::write(&run, &out, args.top)?;
    let md = report::markdown(&run, args.top);
    // The tables and the refusal groups on stdout; the long lists are in report.md.
    let shown = md
        .split("\n## phicc errors (")
        .next()
        .unwrap_or(&md)
        .to_string();
    println!("{shown}");
    println!("full report: {}", out.join("report.md").display());

    let judged = run.judged();
    let comparison = expected::compare(&judged, &run.considered(), &expected_list);
    let list_name = args.expected.display().to_string();
    let mut code = 0;
    if args.write_expected {
        let text = expected::render(&expected_list, &judged);
        if let Some(dir) = args.expected.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&args.expected, text).map_err(|e| format!("{list_name}: {e}"))?;
        println!(
            "wrote {list_name} ({} problem(s) against the old list; review the diff)",
            comparison.problems.len()
        );
    } else if args.no_judge {
        println!("(--no-judge: the expected-failures list is not checked)");
    } else {
        for n in &comparison.notes {
            println!("note: {n}");
        }
        for p in &comparison.problems {
            println!("✗ {p}");
        }
        if !comparison.problems.is_empty() {
            code = 1;
        }
    }
    let mut counts = std::collections::BTreeMap::new();
    for o in judged.values() {
        *counts.entry(o.kind).or_insert(0usize) += 1;
    }
    let parts: Vec<String> = Kind::ALL
        .iter()
        .map(|k| format!("{} {}", counts.get(k).copied().unwrap_or(0), k.header()))
        .collect();
    println!(
        "{} judged: {}; {} problem(s) against {list_name}",
        judged.len(),
        parts.join(", "),
        if args.write_expected || args.no_judge {
            0
        } else {
            comparison.problems.len()
        }
    );
    Ok(code)
}

/// `phihunt torture`'s options, as clap parses them.
#[derive(clap::Args, Debug, Clone)]
pub struct TortureCliArgs {
    /// gcc's gcc.c-torture/execute directory (`bash scripts/c-torture.sh fetch` prints it).
    pub dir: PathBuf,
    /// (test, target) pairs judged at once (each in a child process).
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Native targets, as for `check`.
    #[arg(long, default_value = "auto", value_name = "auto|T[,T]")]
    pub targets: String,
    /// Output folder: report.md, summary.json, wrong-code/ (default reports/torture-<UTC timestamp>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where gcc's selection and the classification are cached (default: DIR/../phihunt-cache).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// The expected-failures list checked against the run.
    #[arg(long, default_value = DEFAULT_EXPECTED)]
    pub expected: PathBuf,
    /// Rewrite the expected-failures list from this run (the lines of the pairs it
    /// judged; the others are kept) instead of checking it.
    #[arg(long)]
    pub write_expected: bool,
    /// Only these tests (file names, comma-separated or repeated).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Only the tests named in this file (one per line, `#` comments).
    #[arg(long, value_name = "FILE")]
    pub only_file: Option<PathBuf>,
    /// Oracle instructions per stage run.
    #[arg(long, default_value_t = 200_000_000)]
    pub fuel: u64,
    /// Time limit of each native run (gcc's in the selection, phicc's).
    #[arg(long, default_value = "10s", value_parser = crate::cli::parse_duration)]
    pub run_timeout: Duration,
    /// Time limit of each gcc driver (compile, or assemble and link).
    #[arg(long, default_value = "60s", value_parser = crate::cli::parse_duration)]
    pub build_timeout: Duration,
    /// Wall-time limit of one (test, target) judgement, its child process.
    #[arg(long, default_value = "300s", value_parser = crate::cli::parse_duration)]
    pub test_timeout: Duration,
    /// Refusal groups shown.
    #[arg(long, default_value_t = 15)]
    pub top: usize,
    /// Judge nothing: print the report of what OUT's journal (results.jsonl) holds — a
    /// run in progress or a killed one. (A run given an OUT with a journal continues it.)
    #[arg(long, requires = "out")]
    pub no_judge: bool,
}

impl TortureCliArgs {
    /// The arguments, with the global options the children must get too.
    pub fn into_args(self, mutant: Option<String>, disable_passes: Option<String>) -> TortureArgs {
        let mut forward = Vec::new();
        if let Some(m) = mutant {
            forward.extend(["--mutant".to_string(), m]);
        }
        if let Some(d) = disable_passes {
            forward.extend(["--disable-passes".to_string(), d]);
        }
        TortureArgs {
            dir: self.dir,
            jobs: self.jobs,
            targets: self.targets,
            out: self.out,
            cache: self.cache,
            expected: self.expected,
            write_expected: self.write_expected,
            only: self.only,
            only_file: self.only_file,
            fuel: self.fuel,
            run_timeout: self.run_timeout,
            build_timeout: self.build_timeout,
            test_timeout: self.test_timeout,
            top: self.top,
            forward,
            no_judge: self.no_judge,
        }
    }
}

/// `phihunt torture-one`'s options (the child of `torture`; see `child.rs`).
#[derive(clap::Args, Debug, Clone)]
pub struct TortureOneCliArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub target: String,
    /// gcc's stdout as `=HEX`.
    #[arg(long, allow_hyphen_values = true)]
    pub ref_stdout: String,
    #[arg(long, default_value_t = 0)]
    pub ref_ms: u64,
    #[arg(long)]
    pub fuel: u64,
    #[arg(long, value_parser = crate::cli::parse_duration)]
    pub run_timeout: Duration,
    #[arg(long, value_parser = crate::cli::parse_duration)]
    pub build_timeout: Duration,
}

impl TortureOneCliArgs {
    pub fn into_args(self) -> super::child::OneArgs {
        super::child::OneArgs {
            file: self.file,
            target: self.target,
            ref_stdout: self.ref_stdout,
            ref_ms: self.ref_ms,
            fuel: self.fuel,
            run_timeout: self.run_timeout,
            build_timeout: self.build_timeout,
        }
    }
}
