//! The `phihunt` command line.
//!
//! Why: one entry point for compiler engineers: `check` a file, and (as they land) `hunt`,
//! `reduce`, `gen`, `replay`, `bench`. Every subcommand returns an exit code instead of
//! exiting, so tests can drive it.

use crate::check::{check_paths, CheckSettings};
use crate::native::{choose_targets, NativePlan, TargetChoice};
use clap::builder::TypedValueParser;
use clap::{Parser, Subcommand};
use compiler::mutants::{self, Mutant};
use compiler::pipeline::PipelineOptions;
use oracle::RunConfig;
use std::path::PathBuf;
use std::time::Duration;

/// Reads `30s`, `10m`, `2h`, `500ms` or a plain number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (try 30s, 10m, 1h)"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => {
            return Err(format!(
                "unknown unit `{unit}` in `{s}` (use ms, s, m or h)"
            ))
        }
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("`{s}` is not a duration"));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[derive(Parser, Debug)]
#[command(
    name = "phihunt",
    version,
    about = "Differential fuzzing and verification harness for the phicc middle end"
)]
struct Cli {
    /// Switch on seeded bugs in the compiler (comma-separated; also PHIHUNT_MUTANT).
    #[arg(long, global = true, value_name = "NAME[,NAME]")]
    mutant: Option<String>,
    /// Switch optimization passes off (comma-separated pass names or `all`; also
    /// PHIHUNT_DISABLE_PASSES).
    #[arg(long, global = true, value_name = "PASS[,PASS]")]
    disable_passes: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum BenchWhat {
    /// The native stages on csmith programs (or `--corpus DIR`'s .c files): per stage the
    /// time per program in phicc, assemble+link and run, and phicc's code's run time
    /// against gcc -O0's and -O2's binaries. Options after `--` go to csmith.
    Native {
        /// Number of csmith programs.
        #[arg(long, default_value_t = 20)]
        count: u64,
        #[arg(long, default_value_t = 1)]
        seed_start: u64,
        /// The `.c` files of this directory instead of csmith programs.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Programs measured at once (1: runs do not compete for cores).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Native targets, as for `check`.
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
        /// Time limit of csmith itself.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        csmith_timeout: Duration,
        /// Time limit of each binary's run.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        run_timeout: Duration,
        /// Options passed to csmith after `--seed K`.
        #[arg(last = true)]
        csmith_options: Vec<String>,
    },
    /// The UB judge (checked lowering in the oracle) against gcc's
    /// -fsanitize=undefined,address,pointer-compare,pointer-subtract on csmith programs
    /// (or `--corpus DIR`'s .c files): agreement table, UB categories, and the judge's
    /// cost (checked vs plain `lowered` run). Options after `--` go to csmith.
    Ub {
        /// Number of csmith programs.
        #[arg(long, default_value_t = 20)]
        count: u64,
        #[arg(long, default_value_t = 1)]
        seed_start: u64,
        /// The `.c` files of this directory instead of csmith programs.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Where disagreements are saved (default: reports/ub-<UTC timestamp>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Oracle instructions for the judge's run.
        #[arg(long, default_value_t = 10_000_000_000)]
        fuel: u64,
        /// Time limit of csmith itself.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        csmith_timeout: Duration,
        /// Time limit of the sanitized binary.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        run_timeout: Duration,
        /// Build and run gcc's sanitized binary only for programs the judge calls
        /// undefined (the false-positive check alone).
        #[arg(long)]
        gcc_only_on_ub: bool,
        /// Options passed to csmith after `--seed K`.
        #[arg(last = true)]
        csmith_options: Vec<String>,
    },
    /// The C reducer on each middle-end seeded bug the C hunt finds (or the ones named):
    /// reduction time and size, sanitizer-clean and still-the-bug counts, and C-Vise alone
    /// on the first `--cvise N` findings with the same test and budget.
    Creduce {
        /// Mutant names (default: every middle-end mutant).
        names: Vec<String>,
        /// Hunt budget per mutant.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        hunt_budget: Duration,
        /// Reduction budget (ours and C-Vise's).
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        budget: Duration,
        /// How many findings C-Vise alone also reduces.
        #[arg(long, default_value_t = 3)]
        cvise: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads of the hunts (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Where the findings go (default: reports/bench-creduce-<UTC timestamp>/).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Hunt each mutant (all, or the ones named) until the first finding; prints a table
    /// ending in `N found, M missed`.
    Mutants {
        /// Mutant names (default: every mutant).
        names: Vec<String>,
        /// Time budget per mutant.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        budget: Duration,
        /// Generators: cfg, phi, c (generated C), cfg-float and phi-float (with floats),
        /// csmith, mutate (mutants of the C corpus and c-torture), a list of them, or all (cfg, phi, cfg-float, phi-float and c).
        #[arg(long = "gen", default_value = "all")]
        generators: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Where the findings go (default: reports/bench-mutants-<UTC timestamp>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print every mutant's name and exit.
        #[arg(long)]
        list: bool,
        /// Reduce each mutant's first finding with this time budget, print the sizes and
        /// times, and check that the reduced case is 1-minimal for the reducer's edits.
        #[arg(long, value_name = "BUDGET", value_parser = parse_duration)]
        reduce: Option<Duration>,
    },
    /// Programs per hour through every stage and every native target, per generator:
    /// each generator hunts on its own (natives on every program by default, no
    /// reduction), with its CPU time per program and the machine's load.
    Throughput {
        /// Generators, comma-separated; each is hunted on its own.
        #[arg(long = "gen", default_value = "c,csmith")]
        generators: String,
        /// Each hunt's time.
        #[arg(long, default_value = "5m", value_parser = parse_duration)]
        time: Duration,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Native targets, as for `hunt`.
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
        /// Natives for one program in N.
        #[arg(long, default_value_t = 1)]
        native_every: u64,
        /// Where the hunts and throughput.json go (default: reports/throughput-<UTC>/).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// The C generator checked: seeds through the host gcc -O0 (and with `--sanitize`
    /// UBSan+ASan) against `gen c --expected`, and with `--oracle` through phicc and
    /// every stage in the oracle. Ends with `N programs, M failures`.
    Cgen {
        #[arg(long, default_value_t = 100)]
        count: u64,
        #[arg(long, default_value_t = 1)]
        seed_start: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Skip the plain gcc -O0 build.
        #[arg(long)]
        no_gcc: bool,
        /// Also build with -fsanitize=undefined,address -fno-sanitize-recover.
        #[arg(long)]
        sanitize: bool,
        /// Also run phicc and every stage in the oracle against the expected output.
        #[arg(long)]
        oracle: bool,
        /// The gcc build's target (x86_64: the host gcc; others: cross gcc under qemu),
        /// held to that target's expected output.
        #[arg(long, default_value = "x86_64")]
        target: String,
        /// Where failing seeds are saved (default: reports/cgen-<UTC timestamp>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Time limit of each gcc binary's run.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        run_timeout: Duration,
        /// Oracle instructions per stage run.
        #[arg(long, default_value_t = 100_000_000)]
        fuel: u64,
        #[command(flatten)]
        c: CGenArgs,
    },
    /// csmith programs through phicc (front end, every stage in the oracle) against the
    /// host gcc -O0 build; prints counts, front-end errors and compile times. Options after
    /// `--` go to csmith.
    Csmith {
        /// Number of programs (seeds).
        #[arg(long, default_value_t = 10)]
        count: u64,
        /// First seed (seeds S, S+1, ..., S+count-1).
        #[arg(long, default_value_t = 1)]
        seed_start: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Where mismatches are saved (default: reports/csmith-<UTC timestamp>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Oracle instructions per run at each stage (a csmith program that gcc's binary
        /// runs in 0.15 s can take 2e9).
        #[arg(long, default_value_t = 10_000_000_000)]
        fuel: u64,
        /// Time limit of csmith itself.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        csmith_timeout: Duration,
        /// Time limit of the gcc reference binary.
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        ref_timeout: Duration,
        /// Oracle instructions the `lowered` stage gets when gcc's binary timed out; if it
        /// finishes within them, gcc's binary runs again with --long-ref-timeout, and a
        /// binary that still runs on makes the seed a suspect (saved).
        #[arg(long, default_value_t = 1_000_000_000)]
        probe_fuel: u64,
        /// Time limit of that second run of gcc's binary.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        long_ref_timeout: Duration,
        /// Native targets every judged seed also runs on (as for `check`).
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
        /// The unsupported baseline to compare with (default:
        /// corpus/csmith/unsupported-baseline.txt); a program not in it exits 1.
        #[arg(long)]
        baseline: Option<PathBuf>,
        /// Options passed to csmith after `--seed K`.
        #[arg(last = true)]
        csmith_options: Vec<String>,
    },
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run every `; run:` line of each input at every pipeline stage; prints a table per
    /// file and `N passed, M failed`. Exit 0 all agree, 1 a mismatch, 2 invalid input.
    Check {
        /// `.ir` and `.c` files, or directories searched for them. A `.c` file's `main` is
        /// compared with the host `gcc -O0` build (exit status and stdout).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Include directory for `.c` input (phicc and gcc alike; repeatable).
        /// `/usr/include/csmith` is added last when it exists.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Time the gcc reference binary may run (and each native run: gcc's and phicc's
        /// binaries on every target).
        #[arg(long, default_value = "10s", value_parser = parse_duration)]
        ref_timeout: Duration,
        /// Instructions per run before the oracle gives up.
        #[arg(long, default_value_t = 10_000_000)]
        fuel: u64,
        /// Print each stage's change count and time under its table.
        #[arg(long)]
        time_passes: bool,
        /// Pointer width of the interpreted target, in bytes (8 or 4).
        #[arg(long, default_value_t = 8, value_parser = clap::builder::PossibleValuesParser::new(["4", "8"]).map(|s| if s == "4" { 4u32 } else { 8u32 }))]
        ptr_bytes: u32,
        /// Native targets (`auto`: every target with a backend whose toolchain is
        /// installed; `none`; or a list such as `x86_64,i686`). Rows `native:T` and
        /// `native:x86_64/stack`.
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
        #[command(flatten)]
        cc: crate::c::cc::CcCompilerArgs,
    },
    /// The main job: generate programs, run every stage, save, reduce and report
    /// findings. Ends with the line `N findings`.
    Hunt {
        /// Generators: cfg, phi, c (generated C), cfg-float and phi-float (with floats),
        /// csmith, mutate (mutants of the C corpus and c-torture), a list of them, or all (cfg, phi, cfg-float, phi-float and c).
        #[arg(long = "gen", default_value = "all")]
        generators: String,
        /// How long to hunt, e.g. 30s, 10m, 8h.
        #[arg(long, default_value = "30s", value_parser = parse_duration)]
        time: Duration,
        /// Base seed (program i uses seed + i); default: from the clock, printed.
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Output directory (default: reports/<UTC timestamp>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Stop after this many programs.
        #[arg(long)]
        max_programs: Option<u64>,
        /// Time budget to reduce each unique finding (0s: no reduction).
        #[arg(long, default_value = "30s", value_parser = parse_duration)]
        reduce_time: Duration,
        /// Where reduced findings are copied for the regression corpus.
        #[arg(long, default_value = "corpus/found")]
        corpus_found: PathBuf,
        /// Native targets (`auto`: every target with a backend whose toolchain is
        /// installed; `none`; or a list such as `x86_64,i686`).
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
        /// Run the native stages for one program in N (process starts are costly).
        #[arg(long, default_value_t = crate::campaign::DEFAULT_NATIVE_EVERY)]
        native_every: u64,
        /// Store at most K finding directories per bug signature; the rest are counted
        /// and recorded as seed lines in findings/more/SIGNATURE.seeds.
        #[arg(long, value_name = "K", default_value_t = crate::campaign::keep::DEFAULT_KEEP_PER_SIGNATURE)]
        keep_per_signature: u64,
        /// Continue the stopped or killed hunt in DIR (its seed, settings, counts and
        /// findings; only --jobs may change).
        #[arg(long, value_name = "DIR")]
        resume: Option<PathBuf>,
        #[command(flatten)]
        cc: crate::c::cc::CcArgs,
        /// Skip the value and situation census (report.md's census tables), to measure
        /// what it costs.
        #[arg(long)]
        no_census: bool,
        /// Run shard I of N: every N-th block of the hunt's programs, blocks of
        /// generators x --native-every programs (needs --seed), in OUT/shard-I-of-N; the
        /// same command again continues it. `auto/N` reads I from JOB_COMPLETION_INDEX
        /// (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm).
        #[arg(long, value_name = "I/N|auto/N")]
        shard: Option<String>,
        /// With `--shard auto/N`: the scheduler's first index, subtracted from it
        /// (Slurm's `--array=1-N` needs 1; Kubernetes indexes start at 0).
        #[arg(long, value_name = "B", default_value_t = 0)]
        shard_base: u64,
    },
    /// Join the folders of a sharded hunt (`hunt --shard`) into one report: findings
    /// deduplicated by signature (every shard's copies listed), counts summed, plots over
    /// wall-clock time. A DIR holding shard-*/ folders stands for all of them.
    Merge {
        /// Shard folders (or the --out of `hunt --shard`, holding shard-*/).
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Where the merged report.html, report.md, summary.json and findings.jsonl go.
        #[arg(long)]
        out: PathBuf,
        /// Merge even when some of the N shards are missing (the report names them).
        #[arg(long)]
        allow_missing: bool,
    },
    /// Benchmarks: `mutants` hunts each seeded bug until found or out of budget.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
    /// Print the program a generator makes for a seed, with `; run:` lines of the
    /// oracle's reference outcomes.
    Gen {
        /// cfg, phi, c or mutate.
        generator: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// (c) The target whose data model `--expected` is for (i686 is ILP32).
        #[arg(long, default_value = "x86_64")]
        target: String,
        /// (c) Print the exact stdout the program must produce instead of the program.
        #[arg(long)]
        expected: bool,
        #[command(flatten)]
        c: CGenArgs,
    },
    /// Shrink a failing `.ir` file while its bug signature (kind, stage) holds. The entry
    /// and argument vectors come from its `; run:` lines (the first line's function).
    /// A `.c` file is reduced by the C reducer: every candidate stays defined (UB judge,
    /// gcc lint, gcc -O0 = oracle) and keeps the signature.
    Reduce {
        file: PathBuf,
        /// Where to write the reduced file (default: FILE with `.reduced.ir` / `.reduced.c`).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Time budget, e.g. 30s, 5m.
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        time: Duration,
        /// Native targets whose stages may show the bug, as for `check`.
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
        /// (.c) The signature to keep, e.g. mismatch@gvn (default: the hunt's
        /// finding.json beside the file, else the first failing stage).
        #[arg(long)]
        signature: Option<String>,
        /// (.c) Then run C-Vise with the same interestingness test, same time budget.
        #[arg(long)]
        cvise: bool,
        /// (.c) Where a hunt finding's reduced file is copied (not with seeded bugs).
        #[arg(long, default_value = "corpus/found")]
        corpus_found: PathBuf,
        /// (.c) Extra `-I` directories.
        #[arg(short = 'I', long = "include")]
        include: Vec<PathBuf>,
        /// (.c) The compiler under test of a `*@cc` finding, rerun on every candidate.
        #[command(flatten)]
        cc: crate::c::cc::CcCompilerArgs,
    },
    /// The C reducer's interestingness test on FILE (exit 0: defined and shows the
    /// signature), for C-Vise's script.
    #[command(hide = true)]
    ReduceTest {
        file: PathBuf,
        #[arg(long)]
        signature: String,
        #[arg(short = 'I', long = "include")]
        include: Vec<PathBuf>,
        /// Comma-separated gcc lint flags (default: all of the reducer's).
        #[arg(long)]
        lint: Option<String>,
        /// The compiler under test of a `*@cc` signature (its smoke test is the
        /// reducer's, not repeated here).
        #[command(flatten)]
        cc: crate::c::cc::CcCompilerArgs,
    },
    /// gcc's c-torture execute suite (`scripts/c-torture.sh` fetches it): each test that
    /// gcc -O0 runs cleanly on a target, through phicc at every stage in the oracle and
    /// natively, against gcc's run; tables per target, refusal reasons, and the check
    /// against the expected-failures list (docs/c-torture.md).
    Torture(crate::c::torture::cli::TortureCliArgs),
    /// One c-torture test on one target, in a child process of `torture`.
    #[command(hide = true)]
    TortureOne(crate::c::torture::cli::TortureOneCliArgs),
    /// Replay a corpus directory (same as `check DIR`).
    Replay {
        #[arg(default_value = "corpus")]
        dir: PathBuf,
        /// Native targets, as for `check`.
        #[arg(long, default_value = "auto", value_name = "auto|none|T[,T]")]
        targets: String,
    },
}

/// The C generator's options (`gen c`, `bench cgen`, `hunt --gen c`).
#[derive(clap::Args, Debug, Clone)]
pub struct CGenArgs {
    /// (c) Program size, 1 (small) to 10.
    #[arg(long, default_value_t = 3)]
    size: u32,
    /// (c) Features never used, comma-separated (`--no goto,switch`; see c/gen/features.rs).
    #[arg(long, value_name = "FEATURE[,FEATURE]")]
    no: Option<String>,
    /// (c) Every program uses every allowed feature (no swarm subsets).
    #[arg(long)]
    no_swarm: bool,
}

impl CGenArgs {
    fn options(&self) -> crate::c::cli::CGenOptions {
        crate::c::cli::CGenOptions {
            size: self.size,
            no: self.no.clone(),
            with: None,
            no_swarm: self.no_swarm,
        }
    }
}

/// The native plan `--targets SPEC` asks for, and what it left out; the error says why a
/// named target cannot be used.
pub fn native_plan(spec: &str) -> Result<(NativePlan, TargetChoice), String> {
    let choice = choose_targets(Some(spec))?;
    Ok((NativePlan::for_targets(&choice.chosen), choice))
}

pub use crate::c::csmith::CSMITH_INCLUDE;

/// `dirs` plus csmith's header directory (last) when it exists.
pub fn with_csmith_include(mut dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    let csmith = PathBuf::from(CSMITH_INCLUDE);
    if csmith.is_dir() && !dirs.contains(&csmith) {
        dirs.push(csmith);
    }
    dirs
}

/// Runs the CLI on `args` (without the program name); returns the exit code.
pub fn cli_main(args: Vec<String>) -> i32 {
    let cli = match Cli::try_parse_from(std::iter::once("phihunt".to_string()).chain(args)) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let mut active = match mutants::from_env() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: PHIHUNT_MUTANT: {e}");
            return 2;
        }
    };
    if let Some(list) = &cli.mutant {
        match mutants::parse_list(list) {
            Ok(m) => active.extend(m),
            Err(e) => {
                eprintln!("error: --mutant: {e}");
                return 2;
            }
        }
    }
    mutants::set_active(&active);
    if !active.is_empty() {
        let names: Vec<_> = active.iter().map(|m| m.name()).collect();
        eprintln!("note: seeded bugs switched on: {}", names.join(", "));
    }
    let pipeline = match PipelineOptions::from_env() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: PHIHUNT_DISABLE_PASSES: {e}");
            return 2;
        }
    };
    let pipeline = match &cli.disable_passes {
        Some(list) => match pipeline.with_disabled(list) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: --disable-passes: {e}");
                return 2;
            }
        },
        None => pipeline,
    };
    // Every long command's temporary files (its own, gcc's, csmith's, C-Vise's) live
    // below one scratch directory that goes with the process however it ends
    // (`campaign::scratch`); `hunt` installs its own. Before any thread starts.
    let _scratch = match crate::campaign::scratch::for_command(matches!(
        cli.command,
        Command::Bench { .. }
            | Command::Reduce { .. }
            | Command::Check { .. }
            | Command::Replay { .. }
    )) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    match cli.command {
        Command::Check {
            files,
            include,
            ref_timeout,
            fuel,
            ptr_bytes,
            time_passes,
            targets,
            cc,
        } => {
            let cc = match cc.compiler() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: {e}");
                    return 2;
                }
            };
            let native = match native_plan(&targets) {
                Ok((plan, _)) => plan,
                Err(e) => {
                    eprintln!("error: --targets: {e}");
                    return 2;
                }
            };
            let settings = CheckSettings {
                native: native.with_limits(crate::native::NativeLimits {
                    run_timeout: ref_timeout,
                    ..crate::native::NativeLimits::default()
                }),
                jobs: crate::campaign::cli::default_jobs(),
                pipeline,
                run: RunConfig {
                    fuel,
                    ptr_bytes,
                    ..RunConfig::default()
                },
                time_passes,
                c_include_dirs: with_csmith_include(include),
                reference: oracle::native::ReferenceConfig {
                    run_timeout: ref_timeout,
                    ..oracle::native::ReferenceConfig::default()
                },
                cc,
            };
            check_paths(&files, &settings).exit_code()
        }
        Command::Hunt {
            generators,
            time,
            seed,
            jobs,
            out,
            max_programs,
            reduce_time,
            corpus_found,
            targets,
            native_every,
            keep_per_signature,
            resume,
            cc,
            no_census,
            shard,
            shard_base,
        } => crate::campaign::cli::hunt_command(crate::campaign::cli::HuntArgs {
            shard,
            shard_base,
            census: !no_census,
            targets,
            native_every,
            keep_per_signature,
            resume,
            cc,
            generators,
            time,
            seed,
            jobs,
            out,
            max_programs,
            reduce_time,
            corpus_found,
            mutants: active,
            pipeline,
        }),
        Command::Merge {
            dirs,
            out,
            allow_missing,
        } => crate::campaign::merge::merge_command(crate::campaign::merge::MergeArgs {
            dirs,
            out,
            allow_missing,
        }),
        Command::Bench {
            what:
                BenchWhat::Creduce {
                    names,
                    hunt_budget,
                    budget,
                    cvise,
                    seed,
                    jobs,
                    out,
                },
        } => {
            let mutants = if names.is_empty() {
                crate::c::reduce::bench::middle_end_mutants()
            } else {
                match mutants::parse_list(&names.join(",")) {
                    Ok(m) => m,
                    Err(e) => {
                        eprintln!("error: {e}");
                        return 2;
                    }
                }
            };
            let out = out.unwrap_or_else(|| {
                PathBuf::from("reports").join(format!(
                    "bench-creduce-{}",
                    crate::findings::timestamp(crate::findings::unix_now())
                ))
            });
            let settings = crate::c::reduce::bench::CreduceBench {
                mutants,
                hunt_budget,
                budget,
                cvise,
                seed,
                jobs: jobs.unwrap_or_else(crate::campaign::cli::default_jobs),
                out_dir: out,
            };
            match crate::c::reduce::bench::bench_creduce(&settings) {
                Ok(_) => 0,
                Err(e) => {
                    eprintln!("error: {e}");
                    2
                }
            }
        }
        Command::Bench {
            what:
                BenchWhat::Mutants {
                    names,
                    budget,
                    generators,
                    seed,
                    jobs,
                    out,
                    list,
                    reduce,
                },
        } => {
            if list {
                for m in Mutant::ALL {
                    println!("{}", m.name());
                }
                return 0;
            }
            crate::campaign::cli::bench_mutants_command(crate::campaign::cli::BenchArgs {
                names,
                budget,
                generators,
                seed,
                jobs,
                out,
                pipeline,
                reduce,
            })
        }
        Command::Bench {
            what:
                BenchWhat::Csmith {
                    count,
                    seed_start,
                    jobs,
                    out,
                    fuel,
                    csmith_timeout,
                    ref_timeout,
                    probe_fuel,
                    long_ref_timeout,
                    targets,
                    baseline,
                    csmith_options,
                },
        } => {
            let (native, choice) = match native_plan(&targets) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: --targets: {e}");
                    return 2;
                }
            };
            crate::c::csmith::bench_csmith(crate::c::csmith::CsmithArgs {
                baseline,
                native_note: choice.describe(&native),
                native: native.with_limits(crate::native::NativeLimits {
                    run_timeout: ref_timeout,
                    ..crate::native::NativeLimits::default()
                }),
                count,
                seed_start,
                jobs,
                out,
                csmith_options,
                fuel,
                csmith_timeout,
                ref_timeout,
                probe_fuel,
                long_ref_timeout,
                pipeline,
                mutants: active,
            })
        }
        Command::Bench {
            what:
                BenchWhat::Throughput {
                    generators,
                    time,
                    jobs,
                    seed,
                    targets,
                    native_every,
                    out,
                },
        } => crate::campaign::throughput::bench_throughput(
            &crate::campaign::throughput::ThroughputArgs {
                generators: generators
                    .split(',')
                    .map(|g| g.trim().to_string())
                    .filter(|g| !g.is_empty())
                    .collect(),
                time,
                jobs: jobs.unwrap_or_else(crate::campaign::cli::default_jobs),
                seed,
                targets,
                native_every,
                out: out.unwrap_or_else(|| {
                    PathBuf::from("reports").join(format!(
                        "throughput-{}",
                        crate::findings::timestamp(crate::findings::unix_now())
                    ))
                }),
            },
        ),
        Command::Bench {
            what:
                BenchWhat::Cgen {
                    count,
                    seed_start,
                    jobs,
                    no_gcc,
                    sanitize,
                    oracle,
                    target,
                    out,
                    run_timeout,
                    fuel,
                    c,
                },
        } => crate::c::bench::bench_cgen(crate::c::bench::CGenBenchArgs {
            target: match compiler::target::Target::from_name(&target) {
                Some(t) => t,
                None => {
                    eprintln!("error: unknown target `{target}`");
                    return 2;
                }
            },
            count,
            seed_start,
            jobs: jobs.unwrap_or_else(crate::campaign::cli::default_jobs),
            gen: c.options(),
            gcc: !no_gcc,
            sanitize,
            oracle,
            out: out.unwrap_or_else(|| {
                PathBuf::from("reports").join(format!(
                    "cgen-{}",
                    crate::findings::timestamp(crate::findings::unix_now())
                ))
            }),
            run_timeout,
            fuel,
            pipeline,
        }),
        Command::Bench {
            what:
                BenchWhat::Native {
                    count,
                    seed_start,
                    corpus,
                    jobs,
                    targets,
                    csmith_timeout,
                    run_timeout,
                    csmith_options,
                },
        } => {
            let (native, choice) = match native_plan(&targets) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: --targets: {e}");
                    return 2;
                }
            };
            crate::c::csmith::native_bench::bench_native(
                crate::c::csmith::native_bench::NativeBenchArgs {
                    count,
                    seed_start,
                    corpus,
                    jobs,
                    csmith_options,
                    csmith_timeout,
                    pipeline,
                    native_note: choice.describe(&native),
                    native: native.with_limits(crate::native::NativeLimits {
                        run_timeout,
                        ..crate::native::NativeLimits::default()
                    }),
                },
            )
        }
        Command::Bench {
            what:
                BenchWhat::Ub {
                    count,
                    seed_start,
                    corpus,
                    out,
                    fuel,
                    csmith_timeout,
                    run_timeout,
                    gcc_only_on_ub,
                    csmith_options,
                },
        } => crate::c::csmith::ub_bench::bench_ub(crate::c::csmith::ub_bench::UbBenchArgs {
            count,
            seed_start,
            corpus,
            out,
            fuel,
            csmith_timeout,
            run_timeout,
            csmith_options,
            gcc_only_on_ub,
        }),
        Command::Gen {
            generator,
            seed,
            target,
            expected,
            c,
        } => {
            if generator == "c" {
                crate::c::cli::gen_c_command(seed, &target, expected, &c.options())
            } else if generator == "mutate" {
                crate::c::cli::gen_mutate_command(seed)
            } else {
                crate::campaign::cli::gen_command(&generator, seed)
            }
        }
        Command::Reduce {
            file,
            output,
            time,
            targets,
            signature,
            cvise,
            corpus_found,
            include,
            cc,
        } => match (native_plan(&targets), cc.compiler()) {
            (_, Err(e)) => {
                eprintln!("error: {e}");
                2
            }
            (Ok((plan, _)), Ok(cc)) if file.extension().is_some_and(|e| e == "c") => {
                crate::c::reduce::cli::reduce_c_file(&crate::c::reduce::cli::ReduceCArgs {
                    file,
                    output,
                    budget: time,
                    plan,
                    signature,
                    cvise,
                    corpus_found: Some(corpus_found),
                    include_dirs: with_csmith_include(include),
                    pipeline,
                    cc,
                })
            }
            (Ok((plan, _)), Ok(_)) => {
                crate::reduce::cli::reduce_file(&file, output.as_deref(), time, &plan)
            }
            (Err(e), _) => {
                eprintln!("error: --targets: {e}");
                2
            }
        },
        Command::ReduceTest {
            file,
            signature,
            include,
            lint,
            cc,
        } => crate::c::reduce::cli::reduce_test(
            &file,
            &signature,
            &with_csmith_include(include),
            lint.as_deref(),
            &cc,
            pipeline,
        ),
        Command::Torture(args) => {
            crate::c::torture::cli::torture_command(args.into_args(cli.mutant, cli.disable_passes))
        }
        Command::TortureOne(args) => {
            crate::c::torture::child::torture_one_command(args.into_args(), pipeline)
        }
        Command::Replay { dir, targets } => {
            let native = match native_plan(&targets) {
                Ok((plan, _)) => plan,
                Err(e) => {
                    eprintln!("error: --targets: {e}");
                    return 2;
                }
            };
            let settings = CheckSettings {
                pipeline,
                native,
                jobs: crate::campaign::cli::default_jobs(),
                ..CheckSettings::default()
            };
            check_paths(&[dir], &settings).exit_code()
        }
    }
}
