//! `phihunt hunt` and `phihunt gen` as the command line runs them.

use super::generators::{sources_for, IrGenerator};
use super::shard::Shard;
use super::source::ProgramSource;
use super::{default_out_dir, hunt_sharded, install_ctrlc, HuntConfig};
use crate::diff::{differential, DiffConfig, Verdict};
use crate::findings::test_file_text;
use compiler::mutants::Mutant;
use compiler::pipeline::PipelineOptions;
use std::path::PathBuf;
use std::time::Duration;

/// `phihunt hunt`'s settings after parsing.
pub struct HuntArgs {
    pub generators: String,
    pub time: Duration,
    pub seed: Option<u64>,
    pub jobs: Option<usize>,
    pub out: Option<PathBuf>,
    pub max_programs: Option<u64>,
    pub reduce_time: Duration,
    pub corpus_found: PathBuf,
    pub mutants: Vec<Mutant>,
    pub pipeline: PipelineOptions,
    /// `--targets` (auto, none, or a list).
    pub targets: String,
    pub native_every: u64,
    /// At most this many stored directories per bug signature.
    pub keep_per_signature: u64,
    /// Continue the hunt in this directory (its settings replace the others but `jobs`).
    pub resume: Option<PathBuf>,
    /// `--cc`, `--cc-target`, `--no-phicc`.
    pub cc: crate::c::cc::CcArgs,
    /// Take the value and situation census of every program (off: `--no-census`).
    pub census: bool,
    /// `--shard I/N` or `auto/N`, and `--shard-base` (see `super::shard`).
    pub shard: Option<String>,
    pub shard_base: u64,
}

impl HuntArgs {
    /// The settings a resume keeps.
    fn stored(&self, seed: u64, shard: Shard) -> super::state::StoredSettings {
        super::state::StoredSettings {
            generators: self.generators.clone(),
            base_seed: seed,
            time_secs: self.time.as_secs_f64(),
            max_programs: self.max_programs,
            reduce_time_secs: self.reduce_time.as_secs_f64(),
            corpus_found: self.corpus_found.clone(),
            targets: self.targets.clone(),
            native_every: self.native_every,
            keep_per_signature: self.keep_per_signature,
            mutants: self.mutants.iter().map(|m| m.name().to_string()).collect(),
            disabled_passes: self.pipeline.disabled.iter().cloned().collect(),
            max_iterations: self.pipeline.max_iterations,
            cc: self.cc.compiler.cc.clone(),
            cc_target: Some(self.cc.compiler.cc_target.clone()),
            no_phicc: self.cc.no_phicc,
            shard: Some(shard).filter(|s| !s.is_whole()),
        }
    }

    /// The arguments of the hunt stored in `state` (`jobs` from `self`).
    fn resumed(self, dir: PathBuf, s: &super::state::StoredSettings) -> Result<HuntArgs, String> {
        let mutants = if s.mutants.is_empty() {
            Vec::new()
        } else {
            compiler::mutants::parse_list(&s.mutants.join(","))?
        };
        Ok(HuntArgs {
            generators: s.generators.clone(),
            time: Duration::from_secs_f64(s.time_secs.max(0.0)),
            seed: Some(s.base_seed),
            jobs: self.jobs,
            out: Some(dir),
            max_programs: s.max_programs,
            reduce_time: Duration::from_secs_f64(s.reduce_time_secs.max(0.0)),
            corpus_found: s.corpus_found.clone(),
            mutants,
            pipeline: PipelineOptions {
                disabled: s.disabled_passes.iter().cloned().collect(),
                max_iterations: s.max_iterations,
            },
            targets: s.targets.clone(),
            native_every: s.native_every,
            keep_per_signature: s.keep_per_signature,
            resume: None,
            cc: crate::c::cc::CcArgs {
                compiler: crate::c::cc::CcCompilerArgs {
                    cc: s.cc.clone(),
                    cc_target: s.cc_target.clone().unwrap_or_else(|| "x86_64".into()),
                },
                no_phicc: s.no_phicc,
            },
            census: self.census,
            shard: self.shard,
            shard_base: self.shard_base,
        })
    }
}

/// Cores available to this process.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A seed from the clock, for hunts that were not given one (printed, so reproducible).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// Runs `phihunt hunt`; the last line printed is `N findings`.
pub fn hunt_command(args: HuntArgs) -> i32 {
    // Every temporary file of the hunt below one directory that goes when the hunt does,
    // however it ends (`scratch`); installed before any thread starts.
    let _scratch = match super::scratch::Scratch::install() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let (args, resume) = match args.resume.clone() {
        None => (args, None),
        Some(dir) => {
            let state = match super::state::HuntState::load(&dir) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: --resume: {e}");
                    return 2;
                }
            };
            match args.resumed(dir, &state.settings) {
                Ok(a) => (a, Some(state)),
                Err(e) => {
                    eprintln!("error: --resume: {e}");
                    return 2;
                }
            }
        }
    };
    let sources = match sources_for(&args.generators) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --gen: {e}");
            return 2;
        }
    };
    // `--shard`: its share of the seed space, in a folder of its own.
    let block = super::shard::block_size(sources.len(), args.native_every);
    let (args, resume, shard) = match sharded(args, resume, block) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let seed = args.seed.unwrap_or_else(clock_seed);
    let stored = args.stored(seed, shard);
    let jobs = args.jobs.unwrap_or_else(default_jobs).max(1);
    let out_dir = args
        .out
        .unwrap_or_else(|| default_out_dir(std::path::Path::new(".")));
    let names: Vec<&str> = refs.iter().map(|s| s.name()).collect();
    let cc = match args.cc.stage(&names) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // `--no-phicc`: no native stage of phicc's either.
    let targets = if args.cc.no_phicc {
        "none"
    } else {
        &args.targets
    };
    let (native, choice) = match crate::cli::native_plan(targets) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --targets: {e}");
            return 2;
        }
    };
    let names: Vec<&str> = refs.iter().map(|s| s.name()).collect();
    if let Some(state) = &resume {
        println!(
            "phihunt hunt: resuming {} ({} programs done, {:.0} s of {:.0} s hunted, run {})",
            out_dir.display(),
            state.completed.len(),
            state.elapsed_secs,
            args.time.as_secs_f64(),
            state.runs + 1
        );
    }
    println!(
        "phihunt hunt: generators {}, seed {seed}, {jobs} jobs, {:.0?}, out {}; {}{}{}",
        names.join(","),
        args.time,
        out_dir.display(),
        choice.describe(&native),
        if native.is_empty() {
            String::new()
        } else {
            format!(", for one program in {}", args.native_every.max(1))
        },
        cc.as_ref()
            .map_or(String::new(), |c| format!("; {}", c.describe()))
    );
    if !shard.is_whole() {
        println!(
            "phihunt hunt: shard {shard}: blocks of {} programs, the hunt's programs {}..{}, \
             then {}..{}, ... (seed {seed} + program)",
            shard.block,
            shard.global(0),
            shard.global(shard.block - 1),
            shard.global(shard.block),
            shard.global(2 * shard.block - 1)
        );
    }
    install_ctrlc();
    let cfg = HuntConfig {
        native: native.with_limits(hunt_native_limits()),
        native_every: args.native_every.max(1),
        duration: args.time,
        base_seed: seed,
        seeds: super::seeds::SeedScheme::Spread,
        jobs,
        out_dir,
        mutants: args.mutants,
        diff: DiffConfig {
            pipeline: args.pipeline,
            census: args.census,
            ..DiffConfig::default()
        },
        stop_at_first: false,
        reduce_budget: args.reduce_time,
        corpus_found: Some(args.corpus_found),
        max_programs: args.max_programs,
        show_progress: true,
        keep_per_signature: args.keep_per_signature,
        persist: Some(stored),
        resume,
        cc,
    };
    let cfg_out = cfg.out_dir.clone();
    match hunt_sharded(&refs, &cfg, shard) {
        Ok(r) => {
            println!(
                "{} programs in {:.1}s ({:.0}/s), {:.1}% valid; report {}",
                r.totals.programs,
                r.elapsed.as_secs_f64(),
                r.rate,
                r.totals.valid_ratio() * 100.0,
                r.report_path.display()
            );
            for s in &r.signatures {
                let stages: Vec<String> = s
                    .stages_seen
                    .iter()
                    .map(|(stage, n)| format!("{stage} x{n}"))
                    .collect();
                println!(
                    "  {} x{} (at {}): {}",
                    s.signature,
                    s.count,
                    stages.join(", "),
                    s.reduced.as_deref().unwrap_or(&s.first)
                );
            }
            if let Some(t) = r.totals.native.get(crate::c::cc::STAGE) {
                println!("{}", crate::c::cc::tally_line(t, &r.totals.discard_reasons));
            }
            for dir in &r.totals.front_end_panics {
                println!("  front-end panic: {dir}");
            }
            if r.totals.generator_bugs > 0 {
                println!(
                    "{} generator bugs (not findings), saved under {}",
                    r.totals.generator_bugs,
                    cfg_out.join("generator-bugs").display()
                );
            }
            // Front-end panics are among the signatures (`panic@frontend`).
            let found = r.signatures.len();
            println!("{found} findings");
            if found == 0 {
                0
            } else {
                1
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            println!("hunt failed");
            2
        }
    }
}

/// The shard a hunt runs, with the arguments and resume state that go with it: the
/// resumed hunt's own shard (`--shard`, if given too, must agree); else `--shard`'s, in
/// `OUT/shard-I-of-N`, continuing the hunt already there when it is this very shard (a
/// pod or array task restarted with the same command line); else the whole hunt.
fn sharded(
    mut args: HuntArgs,
    resume: Option<super::state::HuntState>,
    block: u64,
) -> Result<(HuntArgs, Option<super::state::HuntState>, Shard), String> {
    let given = match &args.shard {
        Some(spec) => {
            Some(super::shard::parse_from_process(spec, args.shard_base)?.with_block(block))
        }
        None => None,
    };
    if let Some(state) = resume {
        let stored = state.settings.shard.unwrap_or(Shard::WHOLE);
        if given.is_some_and(|g| g != stored) {
            return Err(format!(
                "--resume: that hunt is shard {stored}, not {}",
                given.unwrap_or(Shard::WHOLE)
            ));
        }
        return Ok((args, Some(state), stored));
    }
    let Some(shard) = given else {
        return Ok((args, None, Shard::WHOLE));
    };
    let Some(seed) = args.seed else {
        return Err("--shard needs --seed: every shard must make the programs of one hunt".into());
    };
    let parent = args
        .out
        .clone()
        .unwrap_or_else(|| default_out_dir(std::path::Path::new(".")));
    let dir = parent.join(shard.folder_name());
    args.out = Some(dir.clone());
    if !dir.join(super::state::STATE_FILE).is_file() {
        return Ok((args, None, shard));
    }
    let state = super::state::HuntState::load(&dir)?;
    if state.settings != args.stored(seed, shard) {
        return Err(format!(
            "{} holds another hunt (its settings differ from these): choose another --out, \
             or continue it with --resume {}",
            dir.display(),
            dir.display()
        ));
    }
    println!(
        "phihunt hunt: {} already holds shard {shard} of this hunt: continuing it",
        dir.display()
    );
    Ok((args, Some(state), shard))
}

/// Native limits in a hunt: generated programs finish within the oracle's fuel, which
/// natively takes milliseconds, so a run past 5 s is a loop phicc made.
pub fn hunt_native_limits() -> crate::native::NativeLimits {
    crate::native::NativeLimits {
        run_timeout: Duration::from_secs(5),
        ..crate::native::NativeLimits::default()
    }
}

/// Runs `phihunt gen KIND --seed S`: the program, with its reference outcomes.
pub fn gen_command(generator: &str, seed: u64) -> i32 {
    let kind = match generator.parse() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let cand = match IrGenerator(kind).make(seed) {
        Ok(c) => c,
        Err(r) => {
            eprintln!("error: {}", r.reason);
            return 1;
        }
    };
    let diff = DiffConfig::default();
    let (expectations, note) =
        match differential(&cand.module, &cand.entry, &cand.arg_vectors, &diff) {
            Verdict::Agree {
                expectations,
                dropped,
                ..
            } => (
                expectations,
                if dropped.is_empty() {
                    String::new()
                } else {
                    format!("\ndropped argument vectors: {}", dropped.join(", "))
                },
            ),
            Verdict::Discarded { reason, .. } => (Vec::new(), format!("\ndiscarded: {reason}")),
            Verdict::Finding(f) => (
                f.expectations.clone(),
                format!("\nFINDING {}: {}", f.signature, f.detail),
            ),
        };
    let header = format!("phihunt gen {generator} --seed {seed}{note}");
    print!(
        "{}",
        test_file_text(&header, &cand.entry, &expectations, &cand.module)
    );
    0
}

/// `phihunt bench mutants`'s settings after parsing.
pub struct BenchArgs {
    pub names: Vec<String>,
    pub budget: Duration,
    pub generators: String,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub out: Option<PathBuf>,
    pub pipeline: PipelineOptions,
    /// Reduce each first finding with this budget (and check it is 1-minimal).
    pub reduce: Option<Duration>,
}

/// Runs `phihunt bench mutants`; the last line is `N found, M missed`.
pub fn bench_mutants_command(args: BenchArgs) -> i32 {
    let mutants = if args.names.is_empty() {
        Mutant::ALL.to_vec()
    } else {
        match compiler::mutants::parse_list(&args.names.join(",")) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    };
    let sources = match sources_for(&args.generators) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --gen: {e}");
            return 2;
        }
    };
    let out_dir = args.out.unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "bench-mutants-{}",
            crate::findings::timestamp(crate::findings::unix_now())
        ))
    });
    let jobs = args.jobs.unwrap_or_else(default_jobs).max(1);
    let native = match crate::native::choose_targets(None) {
        Ok(c) => crate::native::NativePlan::for_targets(&c.chosen),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    println!(
        "phihunt bench mutants: {} mutants, budget {:.0?} each, seed {}, {jobs} jobs, generators {}, out {}",
        mutants.len(),
        args.budget,
        args.seed,
        args.generators,
        out_dir.display()
    );
    install_ctrlc();
    let settings = super::bench::BenchSettings {
        mutants,
        budget: args.budget,
        seed: args.seed,
        jobs,
        sources,
        out_dir,
        pipeline: args.pipeline,
        native: native.with_limits(hunt_native_limits()),
        reduce: args.reduce,
    };
    match super::bench::bench_mutants(&settings) {
        Ok(rows) => {
            let found = rows.iter().filter(|r| r.found).count();
            let not_hunted = rows.iter().filter(|r| !r.hunted).count();
            let missed = rows.len() - found - not_hunted;
            if not_hunted > 0 {
                println!(
                    "{found} found, {missed} missed, {not_hunted} not hunted (toolchain missing)"
                );
            } else {
                println!("{found} found, {missed} missed");
            }
            if found == rows.len() {
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
