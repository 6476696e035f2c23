//! Shared body of the differential fuzz targets: generate a program from fuzzer bytes,
//! run the stage differential, and turn a finding into a crash libFuzzer records.
//!
//! Throughput: most inputs compare only the final stage with the reference (a mismatch
//! there is bisected over every stage, so the finding still names the first stage that
//! differs); one input in [`EVERY_STAGE_ONE_IN`], chosen by its hash, runs every stage,
//! which also catches miscompiles that a later pass masks. `phihunt hunt` always runs
//! every stage.
//!
//! Native stages: like `phihunt hunt --targets ... --native-every N`, read from the
//! environment since libFuzzer owns the command line: `PHIHUNT_TARGETS` (`auto`, the
//! default: every target with a backend whose toolchain is installed; `none`; or a list)
//! and `PHIHUNT_NATIVE_EVERY` (default [`crate::campaign::DEFAULT_NATIVE_EVERY`]): one
//! input in N, chosen by its hash, runs the native stages after the stage differential
//! agreed. The choice is printed once on stderr.
//!
//! Invariant: a finding panics with its signature and detail AND is first written to
//! `fuzz/findings/SIG/` (or `$PHIHUNT_FUZZ_FINDINGS`), one folder per bug signature with a
//! replayable `input.ir` ([`super::findings`]; libFuzzer also saves the crashing input
//! bytes as an artifact); discarded programs are counted by reason, never reported.
//! `cargo fuzz tmin` crashes on every candidate it keeps: point `PHIHUNT_FUZZ_FINDINGS` at
//! a scratch directory while it runs (docs/cargo-fuzz.md).

use super::findings::{findings_dir, save, FuzzFinding, Saved};
use super::stats::FuzzStats;
use crate::diff::{differential, DiffConfig, Verdict};
use crate::gen::{generate_test, GenKind};
use crate::native::{native_differential, NativePlan};
use arbitrary::Unstructured;
use std::sync::OnceLock;

/// One input in this many has every stage's snapshot run; the others compare only the
/// final stage with the reference (and bisect over every stage when that disagrees).
/// Chosen by a hash of the input, so a crash reproduces from its artifact.
pub const EVERY_STAGE_ONE_IN: u64 = 4;

/// The differential settings the fuzz targets use: the default pipeline, with
/// `PHIHUNT_DISABLE_PASSES` respected, and mutants from `PHIHUNT_MUTANT` (switched on
/// per thread on first use, so `PHIHUNT_MUTANT=... cargo fuzz run ...` measures them).
fn settings(every_stage: bool) -> &'static DiffConfig {
    static CONFIGS: OnceLock<[DiffConfig; 2]> = OnceLock::new();
    let configs = CONFIGS.get_or_init(|| {
        let pipeline = compiler::pipeline::PipelineOptions::from_env()
            .unwrap_or_else(|e| panic!("PHIHUNT_DISABLE_PASSES: {e}"));
        let final_only = DiffConfig {
            pipeline,
            every_stage: false,
            ..DiffConfig::default()
        };
        let every = DiffConfig {
            every_stage: true,
            ..final_only.clone()
        };
        [final_only, every]
    });
    &configs[usize::from(every_stage)]
}

/// The native stages and `N` of "one input in N", from the environment (see the module
/// doc); a bad value panics at the first input, naming the variable.
fn native_settings() -> &'static (NativePlan, u64) {
    static NATIVE: OnceLock<(NativePlan, u64)> = OnceLock::new();
    NATIVE.get_or_init(|| {
        let spec = std::env::var("PHIHUNT_TARGETS").unwrap_or_else(|_| "auto".into());
        let (plan, choice) =
            crate::cli::native_plan(&spec).unwrap_or_else(|e| panic!("PHIHUNT_TARGETS: {e}"));
        let every = match std::env::var("PHIHUNT_NATIVE_EVERY") {
            Ok(v) => v
                .trim()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("PHIHUNT_NATIVE_EVERY: `{v}` is not a number")),
            Err(_) => crate::campaign::DEFAULT_NATIVE_EVERY,
        }
        .max(1);
        eprintln!(
            "phihunt fuzz: {}, for one input in {every} (PHIHUNT_TARGETS, PHIHUNT_NATIVE_EVERY)",
            choice.describe(&plan)
        );
        (
            plan.with_limits(crate::campaign::cli::hunt_native_limits()),
            every,
        )
    })
}

fn switch_on_env_mutants() {
    thread_local! {
        static DONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if !DONE.with(|d| d.replace(true)) {
        let m = compiler::mutants::from_env().unwrap_or_else(|e| panic!("PHIHUNT_MUTANT: {e}"));
        compiler::mutants::set_active(&m);
    }
}

/// Runs one input through generator `kind` and the differential.
pub fn check_generated(kind: GenKind, data: &[u8], stats: &FuzzStats) {
    let (plan, every) = native_settings();
    check_generated_with(kind, data, stats, plan, *every)
}

/// [`check_generated`] with the native stages and `N` given (tests; the fuzz targets take
/// them from the environment).
pub fn check_generated_with(
    kind: GenKind,
    data: &[u8],
    stats: &FuzzStats,
    plan: &NativePlan,
    native_every: u64,
) {
    stats.exec();
    switch_on_env_mutants();
    let mut u = Unstructured::new(data);
    let program = match generate_test(kind, &mut u) {
        Ok(p) => p,
        Err(_) => {
            stats.discarded("generator_ran_out");
            stats.maybe_print();
            return;
        }
    };
    let hash = crate::findings::content_hash(data);
    let every_stage = hash.is_multiple_of(EVERY_STAGE_ONE_IN);
    let cfg = settings(every_stage);
    let mut verdict = differential(&program.module, &program.entry, &program.arg_vectors, cfg);
    // A different slice of the hash than the every-stage choice, so the two are independent.
    let native_due = !plan.is_empty() && (hash >> 32).is_multiple_of(native_every.max(1));
    if let (true, Verdict::Agree { expectations, .. }) = (native_due, &verdict) {
        match native_differential(
            &program.module,
            &program.entry,
            &program.arg_vectors,
            expectations,
            cfg,
            plan,
        ) {
            Ok(mut report) => {
                if let Some(f) = report.finding.take() {
                    verdict = Verdict::Finding(f);
                } else {
                    stats.native_ran();
                }
            }
            Err(setup) => stats.discarded(&format!("native setup: {setup}")),
        }
    }
    match verdict {
        Verdict::Agree { .. } => stats.valid(),
        Verdict::Discarded { reason, .. } => stats.discarded(&reason),
        Verdict::Finding(f) => {
            stats.finding();
            let root = findings_dir();
            let finding = FuzzFinding {
                target: stats.name(),
                generator: kind,
                data,
                entry: &program.entry,
                module: &program.module,
                finding: &f,
            };
            let where_ = match save(&root, &finding) {
                Ok(Saved { dir, first: true }) => {
                    format!("saved {}", dir.join("input.ir").display())
                }
                Ok(Saved { dir, first: false }) => format!(
                    "a known signature: input appended to {}",
                    dir.join("inputs.txt").display()
                ),
                Err(e) => format!(
                    "could not save to {} ({e}); the libFuzzer artifact has the input",
                    root.display()
                ),
            };
            panic!("phihunt finding {}: {}\n{where_}", f.signature, f.detail);
        }
    }
    stats.maybe_print();
}
