//! `phihunt hunt`: the main job — generate, run every stage, save, reduce, report.
//!
//! Why: this is what a compiler engineer leaves running overnight. Workers (one per
//! core by default) each take the next program index, make the program from its seed
//! (`seeds::program_seed(base_seed, index)`), and run the stage differential; the main thread shows progress,
//! handles Ctrl-C, and at the end reduces one finding per signature and writes the report.
//!
//! Invariants:
//! - a finding is saved to disk by the worker that found it, atomically, before it is
//!   sent anywhere (never a lost finding, even if the process dies right after);
//! - every random choice flows from the printed base seed;
//! - mutants are switched on per worker thread, so nothing leaks into other threads;
//! - with mutants on, findings are never copied into `corpus/found/` (they are not real
//!   bugs, and the corpus is replayed by `cargo test`);
//! - Ctrl-C stops the workers after their current program; the report is still written;
//! - the native stages (`crate::native`) run for one in `native_every` of each source's
//!   programs (source-local indexes that are multiples of it), after the stage
//!   differential agreed; their findings are saved like any other, with the target and
//!   allocator in `finding.json`;
//! - with `--cc`, the compiler under test (`crate::c::cc`) runs on every C program whose
//!   phicc stages agreed (or, with `--no-phicc`, on every C program), as the stage `cc`;
//! - a program whose own source says it is unusable (generated C that phicc refuses, that
//!   the oracle finds undefined at `lowered`, or whose expected output gcc contradicts)
//!   is a generator bug: saved under `OUT/generator-bugs/` and counted apart, never a
//!   finding. A front-end panic on generated C is saved under `OUT/front-end-panics/` and
//!   counted as a finding with signature `panic@frontend` (it has no IR to reduce);
//! - every saved finding gets its line in `OUT/findings.jsonl` ([`journal`]) right after
//!   it is saved; the reports (`report.html`, `report.md`, `summary.json`: [`report`]) are
//!   written at the end from the counters, the time series ([`timeline`]) and the phase
//!   times ([`phases`]) the hunt kept;
//! - at most `keep_per_signature` finding directories per bug signature; further findings
//!   are counted and recorded as seed lines (`keep`), decided before anything is written;
//! - with `persist`, `OUT/state.json` (`state`) is rewritten every few seconds and at the
//!   end: the completed program indexes, counts and tallies; `resume` continues from it
//!   (completed indexes skipped, in-flight ones redone, findings saved after the last
//!   write adopted), so a killed and resumed hunt runs every index exactly once.
//! - a sharded hunt ([`hunt_sharded`], `--shard I/N`) runs every N-th block of the hunt's
//!   programs ([`shard`]): its workers count local indexes (what its state,
//!   counts and `--resume` are about) and run the program of the global one, so program
//!   `g` is the same whichever shard, or the unsharded hunt, runs it.

pub mod bench;
pub mod cli;
pub mod generators;
pub mod journal;
pub mod keep;
pub mod merge;
pub mod merge_data;
pub mod phases;
pub mod progress;
pub mod report;
pub mod report_census;
pub mod report_data;
pub mod report_html;
pub mod report_shards;
pub mod reproduce;
pub mod resume;
pub mod scratch;
pub mod seeds;
pub mod shard;
pub mod source;
pub mod state;
pub mod stats;
pub mod svg;
pub mod throughput;
pub mod timeline;

use crate::diff::{differential_census, DiffConfig, Finding, Signature, Verdict};
use crate::findings::{save_raw, test_file_text, unix_now, write_atomically, FindingRecord};
use crate::native::{native_differential, NativePlan, NativeStage, StageTally};
use crate::reduce::{reduce, ReduceGoal};
use compiler::ir::IrModule;
use compiler::mutants::{self, Mutant};
use source::{ProgramSource, Rejection};
use stats::{SignatureTally, Totals};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Stack of each worker thread (reserved, not committed, until a deep program needs it).
pub const WORKER_STACK: usize = 512 << 20;

/// How often the hunt's state file is rewritten.
const STATE_EVERY: Duration = Duration::from_secs(2);

/// The default of `--native-every`: native stages for one program in this many (see the
/// README for the measured hunt rates behind the choice).
pub const DEFAULT_NATIVE_EVERY: u64 = 64;

/// Settings of a hunt.
#[derive(Clone)]
pub struct HuntConfig {
    /// The native stages (empty: none).
    pub native: NativePlan,
    /// Native stages for one program in this many of each source (1: every program).
    pub native_every: u64,
    pub duration: Duration,
    pub base_seed: u64,
    /// How program indexes become seeds (`seeds.rs`): spread for hunts, consecutive for
    /// benches over a seed range.
    pub seeds: seeds::SeedScheme,
    pub jobs: usize,
    pub out_dir: PathBuf,
    pub mutants: Vec<Mutant>,
    pub diff: DiffConfig,
    /// Stop at the first finding (used by `bench mutants`).
    pub stop_at_first: bool,
    /// Time budget for reducing one signature's first finding (zero: no reduction).
    pub reduce_budget: Duration,
    /// Where reduced findings are copied (`corpus/found`); `None` to skip.
    pub corpus_found: Option<PathBuf>,
    /// Stop after this many programs (`None`: only time stops the hunt).
    pub max_programs: Option<u64>,
    /// Print the progress line.
    pub show_progress: bool,
    /// At most this many stored finding directories per bug signature (the rest are
    /// counted and recorded as seed lines, see `keep`).
    pub keep_per_signature: u64,
    /// When set, `OUT/state.json` is kept up to date with these settings (see `state`),
    /// so that `hunt --resume OUT` can continue the hunt.
    pub persist: Option<state::StoredSettings>,
    /// The state of the hunt this one continues (`--resume`).
    pub resume: Option<state::HuntState>,
    /// `--cc`: a C compiler under test, judged on every C program (`crate::c::cc`).
    pub cc: Option<crate::c::cc::CcStage>,
}

/// What a worker tells the main thread about one program.
enum Event {
    Done {
        generator: &'static str,
        verdict: Summary,
        features: BTreeMap<String, u64>,
    },
}

/// The part of a verdict the main thread needs.
enum Summary {
    Agreed {
        vectors: u64,
        dropped: Vec<String>,
        pass_changes: Vec<(&'static str, usize)>,
        /// Native stage name -> counters, when the native stages ran.
        native: Option<BTreeMap<String, StageTally>>,
    },
    Discarded(String),
    Finding(Box<SavedFinding>),
    /// A finding beyond `keep_per_signature` stored copies of its bug signature: counted,
    /// recorded as a seed line (already on disk).
    CountedFinding(Signature),
    /// The source's program is wrong (saved): counted apart.
    GeneratorBug(String),
    /// The front end panicked on the source's program (saved): a finding without IR.
    FrontEndPanic(String),
    /// Saving the finding failed, or the native setup broke: the hunt must stop loudly.
    SaveFailed(String),
}

/// A finding already on disk.
pub struct SavedFinding {
    pub record: FindingRecord,
    pub dir: PathBuf,
    pub module: IrModule,
    pub finding: Finding,
    pub arg_vectors: Vec<Vec<i64>>,
}

/// The hunt's result.
pub struct HuntResult {
    pub totals: Totals,
    pub per_generator: BTreeMap<String, Totals>,
    pub signatures: Vec<SignatureTally>,
    pub elapsed: Duration,
    pub interrupted: bool,
    /// When the first finding arrived, and after how many programs.
    pub first_finding: Option<(Duration, u64)>,
    /// Programs per second over the hunt.
    pub rate: f64,
    pub report_path: PathBuf,
    /// Counters over time, for the report's plots.
    pub timeline: timeline::Timeline,
    /// Where the workers' (and the reducer's) time went.
    pub phases: phases::PhaseTimes,
    /// The share of the seed space this hunt ran (`--shard`; the whole one by default).
    pub shard: shard::Shard,
    /// Wall-clock time (Unix seconds) of the timeline's zero: this run's start less the
    /// time hunted by earlier runs of a resumed hunt (what `merge` aligns shards by).
    pub timeline_origin_unix: f64,
}

/// Set by Ctrl-C.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler once: the first press stops the hunt cleanly, the second
/// exits at once.
pub fn install_ctrlc() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                eprintln!("\nphihunt: second Ctrl-C, exiting now");
                std::process::exit(130);
            }
            eprintln!("\nphihunt: stopping after the current programs (Ctrl-C again to exit now)");
        });
    });
}

/// The target, allocator and pointer width of a finding with signature `sig` (the hunt's
/// width `default_ptr` for a middle-end finding, 4 for `STAGE@4`).
pub fn finding_context(sig: &Signature, default_ptr: u32) -> (Option<String>, Option<String>, u32) {
    if sig.is_native() {
        if let Some(stage) = NativeStage::from_name(&sig.stage) {
            return (
                Some(stage.target.name().to_string()),
                Some(stage.regalloc.name().to_string()),
                stage.ptr_bytes(),
            );
        }
    }
    match sig.stage.rsplit_once('@') {
        Some((_, w)) => (None, None, w.parse().unwrap_or(default_ptr)),
        None => (None, None, default_ptr),
    }
}

/// Where a worker's findings go: their ids, the journal, and the per-signature policy
/// that decides between a directory and a seed line.
struct FindingSinks<'a> {
    found_ids: &'a AtomicU64,
    journal: &'a journal::Journal,
    keep: &'a keep::KeepPolicy,
}

fn run_one(
    source: &dyn ProgramSource,
    sources_len: usize,
    index: u64,
    seed: u64,
    cfg: &HuntConfig,
    sinks: &FindingSinks,
) -> Event {
    use phases::{timed, Phase};
    let mut cand = match timed(Phase::Generation, || source.make(seed)) {
        Ok(c) => c,
        Err(r) => return rejected(source, seed, cfg, r),
    };
    // Generated C carries its expected output; its reference run gets more fuel.
    let c_diff;
    let diff = match &cand.c_program {
        Some(_) => {
            c_diff = DiffConfig {
                run: oracle::RunConfig {
                    fuel: cfg.diff.run.fuel.max(crate::c::hunt::C_REFERENCE_FUEL),
                    ..cfg.diff.run.clone()
                },
                ..cfg.diff.clone()
            };
            &c_diff
        }
        None => &cfg.diff,
    };
    let mut verdict = if cfg.cc.as_ref().is_some_and(|cc| !cc.phicc) {
        // `--no-phicc`: phicc's stages are off, only the compiler under test is judged.
        Verdict::Agree {
            expectations: Vec::new(),
            dropped: Vec::new(),
            pass_changes: Vec::new(),
        }
    } else {
        let mut census = diff.census.then(crate::census::Census::default);
        let verdict = timed(Phase::Oracle, || {
            let (m, e, v) = (&cand.module, &cand.entry, &cand.arg_vectors);
            differential_census(m, e, v, diff, census.as_mut())
        });
        if let Some(c) = &census {
            c.features(&mut cand.features);
        }
        verdict
    };
    if let Some(p) = &cand.c_program {
        use crate::c::hunt::{check_expected, program_files, ExpectedCheck};
        match check_expected(p, &verdict) {
            ExpectedCheck::Holds => {}
            ExpectedCheck::Rejected(kind, reason) => {
                return rejected(
                    source,
                    seed,
                    cfg,
                    Rejection {
                        compiler_panic: false,
                        kind: kind.name(),
                        reason,
                        files: program_files(p),
                    },
                )
            }
            ExpectedCheck::BrokenLowering(kind, detail) => {
                verdict = Verdict::Finding(Box::new(Finding {
                    signature: Signature::at_width(
                        kind,
                        compiler::pipeline::STAGE_LOWERED,
                        cfg.diff.run.ptr_bytes,
                    ),
                    args: Vec::new(),
                    reference: None,
                    got: None,
                    detail,
                    expectations: Vec::new(),
                }))
            }
            ExpectedCheck::FrontEndFinding(detail) => {
                verdict = Verdict::Finding(Box::new(Finding {
                    signature: Signature::at_width(
                        crate::diff::FindingKind::Mismatch,
                        compiler::pipeline::STAGE_LOWERED,
                        cfg.diff.run.ptr_bytes,
                    ),
                    args: Vec::new(),
                    reference: None,
                    got: None,
                    detail,
                    expectations: Vec::new(),
                }))
            }
        }
    }
    let mut native = None;
    // Program i comes from source i % len: count one in N of each source's own programs.
    let per_source = index / sources_len.max(1) as u64;
    let native_due = !cfg.native.is_empty() && per_source.is_multiple_of(cfg.native_every.max(1));
    if let (true, Verdict::Agree { .. }, Some(p)) = (native_due, &verdict, &cand.c_program) {
        match crate::c::hunt::native_c(p, &cfg.native, &cfg.diff.pipeline) {
            Ok(report) => {
                phases::add_native(&report.stages);
                if let Some((kind, reason)) = report.rejected {
                    return rejected(
                        source,
                        seed,
                        cfg,
                        Rejection {
                            compiler_panic: false,
                            kind: kind.name(),
                            reason,
                            files: crate::c::hunt::program_files(p),
                        },
                    );
                }
                if let Some((kind, stage, detail)) = report.finding {
                    verdict = Verdict::Finding(Box::new(Finding {
                        signature: Signature::new(kind, &stage),
                        args: Vec::new(),
                        reference: None,
                        got: None,
                        detail: format!("{stage}: {detail}"),
                        expectations: Vec::new(),
                    }));
                }
                native = Some(report.stages);
            }
            Err(setup) => {
                return Event::Done {
                    generator: source.name(),
                    verdict: Summary::SaveFailed(format!("native stages: {setup}")),
                    features: cand.features,
                }
            }
        }
    } else if let (true, Verdict::Agree { expectations, .. }) = (native_due, &verdict) {
        match native_differential(
            &cand.module,
            &cand.entry,
            &cand.arg_vectors,
            expectations,
            &cfg.diff,
            &cfg.native,
        ) {
            Ok(mut report) => {
                phases::add_native(&report.stages);
                if let Some(f) = report.finding.take() {
                    verdict = Verdict::Finding(f);
                }
                native = Some(report.stages);
            }
            Err(setup) => {
                return Event::Done {
                    generator: source.name(),
                    verdict: Summary::SaveFailed(format!("native stages: {setup}")),
                    features: cand.features,
                }
            }
        }
    }
    // A C program's miscompile only once gcc -O0 and -O2 on the finding's target agree
    // with each other and with the expected output (`c::reference`).
    if let (Verdict::Finding(f), Some(p)) = (&verdict, &cand.c_program) {
        use crate::diff::FindingKind;
        if matches!(
            f.signature.kind,
            FindingKind::Mismatch | FindingKind::Timeout
        ) {
            let target = finding_context(&f.signature, cfg.diff.run.ptr_bytes)
                .0
                .and_then(|t| compiler::target::Target::from_name(&t))
                .unwrap_or(compiler::target::Target::X86_64);
            match crate::c::reference::confirm(p, target, &cfg.native.limits) {
                Ok(None) => {}
                Ok(Some((kind, reason))) => {
                    return rejected(
                        source,
                        seed,
                        cfg,
                        Rejection {
                            compiler_panic: false,
                            kind: kind.name(),
                            reason: format!("{} unconfirmed: {reason}", f.signature),
                            files: crate::c::hunt::program_files(p),
                        },
                    )
                }
                Err(setup) => {
                    return Event::Done {
                        generator: source.name(),
                        verdict: Summary::SaveFailed(format!("gcc: {setup}")),
                        features: cand.features,
                    }
                }
            }
        }
    }
    // `--cc`: the compiler under test on every C program phicc's stages agreed on.
    let mut cc_files = Vec::new();
    if let (Some(cc), Verdict::Agree { .. }, Some(p)) = (&cfg.cc, &verdict, &cand.c_program) {
        use crate::c::cc::HuntStep;
        match cc.hunt_step(p, &cfg.native.limits, &mut native) {
            Ok(HuntStep::Continue) => {}
            Ok(HuntStep::Discarded(reason)) => {
                verdict = Verdict::Discarded {
                    reason,
                    cause: crate::diff::DiscardCause::Later,
                }
            }
            Ok(HuntStep::GeneratorBug(reason)) => {
                let files = crate::c::hunt::program_files(p);
                let r = Rejection {
                    compiler_panic: false,
                    kind: crate::c::reference::Reason::ExpectedOutputContradicted.name(),
                    reason,
                    files,
                };
                return rejected(source, seed, cfg, r);
            }
            Ok(HuntStep::Finding(f, files)) => {
                verdict = Verdict::Finding(f);
                cc_files = files;
            }
            Err(setup) => {
                return Event::Done {
                    generator: source.name(),
                    verdict: Summary::SaveFailed(format!("--cc: {setup}")),
                    features: cand.features,
                }
            }
        }
    }
    let summary = save_verdict(source, seed, cfg, sinks, &cand, verdict, native, cc_files);
    Event::Done {
        generator: source.name(),
        verdict: summary,
        features: cand.features,
    }
}

/// Saves a judged program's finding (a directory, or a seed line past the signature's
/// quota) and tells its source how it was judged; the summary the main thread counts.
#[allow(clippy::too_many_arguments)]
fn save_verdict(
    source: &dyn ProgramSource,
    seed: u64,
    cfg: &HuntConfig,
    sinks: &FindingSinks,
    cand: &source::Candidate,
    verdict: Verdict,
    native: Option<BTreeMap<String, StageTally>>,
    cc_files: Vec<(String, String)>,
) -> Summary {
    use source::ProgramOutcome;
    let FindingSinks {
        found_ids,
        journal,
        keep,
    } = *sinks;
    match verdict {
        Verdict::Agree {
            expectations,
            dropped,
            pass_changes,
        } => {
            source.observe(seed, &ProgramOutcome::Agreed);
            Summary::Agreed {
                vectors: expectations.len() as u64,
                dropped,
                pass_changes,
                native,
            }
        }
        Verdict::Discarded { reason, .. } => {
            source.observe(seed, &ProgramOutcome::Discarded(&reason));
            Summary::Discarded(reason)
        }
        Verdict::Finding(f) if keep.place(&f.signature.bug()) == keep::Placement::Line => {
            let bug = f.signature.bug();
            let recorded =
                keep::append_seed_line(&cfg.out_dir, &bug, seed, source.name(), &f.signature)
                    .and_then(|seeds| {
                        journal.append(journal::JournalEntry::seed_line(
                            &f.signature,
                            source.name(),
                            seed,
                            &seeds,
                        ))
                    });
            match recorded {
                Ok(()) => {
                    source.observe(
                        seed,
                        &ProgramOutcome::Finding {
                            signature: &f.signature,
                            detail: &f.detail,
                            saved: None,
                        },
                    );
                    Summary::CountedFinding(f.signature.clone())
                }
                Err(e) => Summary::SaveFailed(format!(
                    "cannot record finding of seed {seed} ({}): {e}",
                    f.signature
                )),
            }
        }
        Verdict::Finding(f) => {
            let (target, regalloc, ptr_bytes) = match &cfg.cc {
                Some(cc) if f.signature.stage == crate::c::cc::STAGE => {
                    cc.compiler.finding_context()
                }
                _ => finding_context(&f.signature, cfg.diff.run.ptr_bytes),
            };
            let record = FindingRecord {
                id: found_ids.fetch_add(1, Ordering::SeqCst),
                signature: f.signature.clone(),
                generator: source.name().to_string(),
                seed: Some(seed),
                entry: cand.entry.clone(),
                args: f.args.clone(),
                reference: f.reference.as_ref().map(|r| r.to_string()),
                got: f.got.as_ref().map(|r| r.to_string()),
                detail: f.detail.clone(),
                mutants: cfg.mutants.iter().map(|m| m.name().to_string()).collect(),
                target,
                regalloc,
                ptr_bytes,
                found_at: unix_now(),
            };
            let saved = save_raw(&cfg.out_dir, &record, &f, &cand.module).and_then(|dir| {
                // Generated C: the program and its expected output go with the finding.
                if let Some(p) = &cand.c_program {
                    for (name, text) in crate::c::hunt::program_files(p) {
                        write_atomically(&dir.join(name), text.as_bytes())?;
                    }
                }
                crate::c::cc::write_finding_files(&dir, &cc_files)?;
                // Saved: now the journal names it (a killed hunt still lists it).
                journal.append(journal::JournalEntry::finding(
                    record.id,
                    &record.signature,
                    &record.generator,
                    record.seed,
                    &dir,
                ))?;
                Ok(dir)
            });
            match saved {
                Ok(dir) => {
                    source.observe(
                        seed,
                        &ProgramOutcome::Finding {
                            signature: &f.signature,
                            detail: &f.detail,
                            saved: Some(&dir),
                        },
                    );
                    Summary::Finding(Box::new(SavedFinding {
                        record,
                        dir,
                        module: cand.module.clone(),
                        finding: *f,
                        arg_vectors: cand.arg_vectors.clone(),
                    }))
                }
                Err(e) => Summary::SaveFailed(format!("cannot save finding {}: {e}", record.id)),
            }
        }
    }
}

/// A program its source rejected: saved (under `generator-bugs/`, or `front-end-panics/`
/// for a compiler panic) before it is counted.
fn rejected(source: &dyn ProgramSource, seed: u64, cfg: &HuntConfig, r: Rejection) -> Event {
    if r.kind == source::SETUP_ERROR {
        return Event::Done {
            generator: source.name(),
            verdict: Summary::SaveFailed(r.reason),
            features: BTreeMap::new(),
        };
    }
    // A source that promises nothing (csmith): no verdict, counted by reason; the
    // programs the oracle finds undefined or cannot judge are kept for a human (csmith
    // promises no UB: the UB judge or the front end may be wrong).
    let discard = source.rejections_are_discards() && !r.compiler_panic;
    let folder = if r.compiler_panic {
        "front-end-panics"
    } else if discard {
        "discards"
    } else {
        "generator-bugs"
    };
    let keep_discard = matches!(r.kind, "oracle-ub" | "oracle-invalid" | "suspect");
    if discard && !keep_discard {
        source.observe(
            seed,
            &source::ProgramOutcome::Rejected {
                kind: r.kind,
                reason: &r.reason,
                saved: None,
            },
        );
        return Event::Done {
            generator: source.name(),
            verdict: Summary::Discarded(r.kind.to_string()),
            features: BTreeMap::new(),
        };
    }
    let dir = cfg
        .out_dir
        .join(folder)
        .join(format!("{}-{seed}", source.name()));
    let text = format!(
        "generator {} seed {seed}\nmutants {:?}\n{}: {}\n",
        source.name(),
        cfg.mutants,
        r.kind,
        r.reason
    );
    let saved = std::fs::create_dir_all(&dir).and_then(|_| {
        write_atomically(&dir.join("reason.txt"), text.as_bytes())?;
        for (name, contents) in &r.files {
            write_atomically(&dir.join(name), contents.as_bytes())?;
        }
        Ok(())
    });
    if saved.is_ok() {
        let panic_signature = Signature::new(crate::diff::FindingKind::Panic, "frontend");
        source.observe(
            seed,
            &if r.compiler_panic {
                source::ProgramOutcome::Finding {
                    signature: &panic_signature,
                    detail: &r.reason,
                    saved: Some(&dir),
                }
            } else {
                source::ProgramOutcome::Rejected {
                    kind: r.kind,
                    reason: &r.reason,
                    saved: Some(&dir),
                }
            },
        );
    }
    Event::Done {
        generator: source.name(),
        verdict: match saved {
            Err(e) => {
                Summary::SaveFailed(format!("cannot save {} of seed {seed}: {e}", dir.display()))
            }
            Ok(()) if r.compiler_panic => Summary::FrontEndPanic(dir.display().to_string()),
            Ok(()) if discard => Summary::Discarded(r.kind.to_string()),
            Ok(()) => Summary::GeneratorBug(r.kind.to_string()),
        },
        features: BTreeMap::new(),
    }
}

/// A panic outside the compiler's stages is a bug of the harness itself: saved under
/// `OUT/harness-panics/` with the seed that reproduces it, and counted as a discard.
fn harness_panic(
    source: &dyn ProgramSource,
    seed: u64,
    cfg: &HuntConfig,
    payload: Box<dyn std::any::Any + Send>,
) -> Event {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".into());
    let dir = cfg.out_dir.join("harness-panics");
    let text = format!(
        "generator {} seed {seed}\nmutants {:?}\npanic: {message}\n",
        source.name(),
        cfg.mutants
    );
    let file = dir.join(format!("{}-{seed}.txt", source.name()));
    let saved =
        std::fs::create_dir_all(&dir).and_then(|_| write_atomically(&file, text.as_bytes()));
    if saved.is_ok() {
        source.observe(
            seed,
            &source::ProgramOutcome::Rejected {
                kind: "harness_panic",
                reason: &message,
                saved: Some(&file),
            },
        );
    }
    Event::Done {
        generator: source.name(),
        verdict: match saved {
            Ok(()) => Summary::Discarded("harness_panic".into()),
            Err(e) => Summary::SaveFailed(format!("cannot save harness panic of seed {seed}: {e}")),
        },
        features: BTreeMap::new(),
    }
}

/// Runs a hunt over `sources` (program i comes from `sources[i % len]`, seed `seeds::program_seed(base, i)`).
pub fn hunt(sources: &[&dyn ProgramSource], cfg: &HuntConfig) -> std::io::Result<HuntResult> {
    hunt_sharded(sources, cfg, shard::Shard::WHOLE)
}

/// Runs the share `shard` of a hunt over `sources`: its local program k is the hunt's
/// program `shard.global(k)` (see [`shard`]); counts and state are the shard's own.
pub fn hunt_sharded(
    sources: &[&dyn ProgramSource],
    cfg: &HuntConfig,
    shard: shard::Shard,
) -> std::io::Result<HuntResult> {
    assert!(
        !sources.is_empty(),
        "hunt needs at least one program source"
    );
    std::fs::create_dir_all(&cfg.out_dir)?;
    // A resumed hunt starts from its state and the findings saved after it (`resume`).
    let restored = resume::restore(&cfg.out_dir, sources, cfg.resume.as_ref(), shard)?;
    let before = restored.elapsed;
    let start = Instant::now();
    let timeline_origin_unix = unix_now_f64() - before.as_secs_f64();
    let deadline = start + cfg.duration.saturating_sub(before);
    // Indexes complete before this run: skipped by the workers (read-only).
    let skip = restored.completed.clone();
    let mut completed = restored.completed;
    let next = AtomicU64::new(skip.below);
    let found_ids = AtomicU64::new(restored.next_id);
    let keep = keep::KeepPolicy::new(cfg.keep_per_signature, restored.stored);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Event)>();
    let mut totals = restored.totals;
    let mut per_generator: BTreeMap<String, Totals> = restored.per_generator;
    // Keyed by the bug's signature (the pass, not the slot or iteration): every finding's
    // count and the stages actually seen under it, over every run of the hunt; and the
    // first finding of this run, kept in memory for the reducer.
    let mut tallies: BTreeMap<Signature, state::StoredTally> = restored.tallies;
    let mut first_by_sig: BTreeMap<Signature, SavedFinding> = BTreeMap::new();
    let mut fatal: Option<String> = None;
    let mut first_finding: Option<(Duration, u64)> = restored.first_finding;
    let mut progress = progress::Progress::new(cfg.show_progress, cfg.duration);
    let journal = journal::Journal::open(&cfg.out_dir, start)?;
    let phase_totals = phases::PhaseTotals::default();
    let mut timeline = timeline::Timeline::default();
    let runs = restored.runs + 1;
    if restored.adopted > 0 && cfg.show_progress {
        eprintln!(
            "resume: {} findings saved after the last state write adopted",
            restored.adopted
        );
    }
    let mut last_persist = Instant::now();
    let persist = |completed: &state::Completed,
                   totals: &Totals,
                   per_generator: &BTreeMap<String, Totals>,
                   tallies: &BTreeMap<Signature, state::StoredTally>,
                   first_finding: Option<(Duration, u64)>,
                   finished: bool|
     -> std::io::Result<()> {
        let Some(settings) = &cfg.persist else {
            return Ok(());
        };
        state::HuntState {
            version: state::STATE_VERSION,
            settings: settings.clone(),
            completed: completed.clone(),
            elapsed_secs: (before + start.elapsed()).as_secs_f64(),
            totals: totals.clone(),
            per_generator: per_generator.clone(),
            signatures: tallies
                .iter()
                .map(|(sig, t)| (state::signature_key(sig), t.clone()))
                .collect(),
            first_finding: first_finding.map(|(d, n)| (d.as_secs_f64(), n)),
            runs,
            finished,
        }
        .save(&cfg.out_dir)
    };
    persist(
        &completed,
        &totals,
        &per_generator,
        &tallies,
        first_finding,
        false,
    )?;

    // Panics inside stages are caught and reported as findings; keep them off the screen.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));

    std::thread::scope(|scope| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop, found_ids, keep, skip) = (&next, &stop, &found_ids, &keep, &skip);
            let (journal, phase_totals) = (&journal, &phase_totals);
            // C programs (csmith's above all) nest deeply; the front end, the passes and
            // the oracle recurse (within their limits) further than a default 2 MiB
            // thread stack allows.
            let worker = std::thread::Builder::new()
                .name("hunt-worker".into())
                .stack_size(WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, move || {
                mutants::set_active(&cfg.mutants);
                loop {
                    if stop.load(Ordering::SeqCst)
                        || INTERRUPTED.load(Ordering::SeqCst)
                        || Instant::now() >= deadline
                    {
                        break;
                    }
                    // `local`: the shard's own count; `i`: the hunt's program index.
                    let local = next.fetch_add(1, Ordering::SeqCst);
                    let i = shard.global(local);
                    if cfg.max_programs.is_some_and(|m| i >= m) {
                        break;
                    }
                    if skip.contains(local) {
                        continue;
                    }
                    let source = sources[(i % sources.len() as u64) as usize];
                    let seed = cfg.seeds.seed(cfg.base_seed, i);
                    // A panic outside the stages (generator, oracle, harness) must not take
                    // the campaign down: it is saved with its seed and counted.
                    let ev = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        phases::timed(phases::Phase::Other, || {
                            let sinks = FindingSinks {
                                found_ids,
                                journal,
                                keep,
                            };
                            run_one(source, sources.len(), i, seed, cfg, &sinks)
                        })
                    }))
                    .unwrap_or_else(|payload| harness_panic(source, seed, cfg, payload));
                    phase_totals.absorb(phases::take());
                    if tx.send((local, ev)).is_err() {
                        break;
                    }
                }
            });
            if let Err(e) = spawned {
                fatal.get_or_insert(format!("cannot start a worker thread: {e}"));
                stop.store(true, Ordering::SeqCst);
            }
        }
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok((
                    index,
                    Event::Done {
                        generator,
                        verdict,
                        features,
                    },
                )) => {
                    completed.mark(index);
                    let g = per_generator.entry(generator.to_string()).or_default();
                    for t in [&mut totals, g] {
                        t.programs += 1;
                        for (k, v) in &features {
                            *t.features.entry(k.clone()).or_default() += v;
                        }
                        match &verdict {
                            Summary::Agreed {
                                vectors,
                                dropped,
                                pass_changes,
                                native,
                            } => {
                                t.agreed += 1;
                                if let Some(stages) = native {
                                    // The `cc` row alone (`--cc`) is no run of phicc's.
                                    if stages.keys().any(|k| k != crate::c::cc::STAGE) {
                                        t.native_programs += 1;
                                    }
                                    for (stage, tally) in stages {
                                        t.native.entry(stage.clone()).or_default().merge(tally);
                                    }
                                }
                                let mut changed = std::collections::BTreeSet::new();
                                for (pass, n) in pass_changes {
                                    *t.pass_changes.entry(pass.to_string()).or_default() +=
                                        *n as u64;
                                    if *n > 0 {
                                        changed.insert(*pass);
                                    }
                                }
                                for pass in changed {
                                    *t.pass_programs.entry(pass.to_string()).or_default() += 1;
                                }
                                t.vectors_valid += vectors;
                                t.vectors_dropped += dropped.len() as u64;
                                for d in dropped {
                                    *t.discard_reasons.entry(format!("vector {d}")).or_default() +=
                                        1;
                                }
                            }
                            Summary::Discarded(r) => {
                                t.discarded += 1;
                                *t.discard_reasons.entry(r.clone()).or_default() += 1;
                            }
                            Summary::Finding(f) => {
                                t.findings += 1;
                                let bug = f.record.signature.bug().to_string();
                                *t.findings_by_signature.entry(bug).or_default() += 1;
                            }
                            Summary::CountedFinding(sig) => {
                                t.findings += 1;
                                let bug = sig.bug().to_string();
                                *t.findings_by_signature.entry(bug).or_default() += 1;
                            }
                            Summary::SaveFailed(_) => t.findings += 1,
                            Summary::GeneratorBug(r) => {
                                t.generator_bugs += 1;
                                *t.generator_bug_reasons.entry(r.clone()).or_default() += 1;
                            }
                            Summary::FrontEndPanic(dir) => {
                                t.findings += 1;
                                t.front_end_panics.push(dir.clone());
                            }
                        }
                    }
                    match verdict {
                        Summary::Finding(f) => {
                            first_finding
                                .get_or_insert((before + start.elapsed(), totals.programs));
                            progress.finding(&f.record.signature, &f.dir);
                            if cfg.stop_at_first {
                                stop.store(true, Ordering::SeqCst);
                            }
                            resume::count_finding(
                                &mut tallies,
                                &f.record.signature,
                                Some(&f.dir),
                                f.record.seed,
                                generator,
                            );
                            first_by_sig.entry(f.record.signature.bug()).or_insert(*f);
                        }
                        Summary::CountedFinding(sig) => {
                            first_finding
                                .get_or_insert((before + start.elapsed(), totals.programs));
                            if cfg.stop_at_first {
                                stop.store(true, Ordering::SeqCst);
                            }
                            resume::count_finding(&mut tallies, &sig, None, None, generator);
                        }
                        Summary::FrontEndPanic(dir) => {
                            first_finding
                                .get_or_insert((before + start.elapsed(), totals.programs));
                            if let Err(e) = journal
                                .append(journal::JournalEntry::front_end_panic(generator, &dir))
                            {
                                fatal = Some(format!("cannot append to findings.jsonl: {e}"));
                                stop.store(true, Ordering::SeqCst);
                            }
                            eprintln!("\nfront-end panic on a generated program, saved in {dir}");
                            // Signature `panic@frontend`: counted with the others (no IR,
                            // so nothing for the IR reducer).
                            resume::count_finding(
                                &mut tallies,
                                &Signature::new(crate::diff::FindingKind::Panic, "frontend"),
                                Some(Path::new(&dir)),
                                Some(cfg.seeds.seed(cfg.base_seed, shard.global(index))),
                                generator,
                            );
                            if cfg.stop_at_first {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                        Summary::SaveFailed(msg) => {
                            fatal = Some(msg);
                            stop.store(true, Ordering::SeqCst);
                        }
                        _ => {}
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            progress.tick(before + start.elapsed(), &totals, tallies.len());
            timeline.tick(before + start.elapsed(), &totals, tallies.len());
            if last_persist.elapsed() >= STATE_EVERY {
                last_persist = Instant::now();
                if let Err(e) = persist(
                    &completed,
                    &totals,
                    &per_generator,
                    &tallies,
                    first_finding,
                    false,
                ) {
                    fatal.get_or_insert(format!("cannot write the hunt's state: {e}"));
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    std::panic::set_hook(previous_hook);
    let elapsed = before + start.elapsed();
    progress.finish(elapsed, &totals, tallies.len());
    timeline.finish(elapsed, &totals, tallies.len());
    persist(
        &completed,
        &totals,
        &per_generator,
        &tallies,
        first_finding,
        fatal.is_none(),
    )?;
    if let Some(msg) = fatal {
        return Err(std::io::Error::other(msg));
    }

    // Reduce the first finding of each signature, then copy it to the corpus.
    let mut signatures = Vec::new();
    for (sig, stored) in tallies {
        let mut tally = SignatureTally {
            signature: sig.clone(),
            count: stored.count,
            stages_seen: stored.stages_seen,
            first: stored.first,
            first_seed: stored.first_seed,
            first_generator: stored.first_generator,
            reduced: None,
            size_before: None,
            size_after: None,
            corpus_copy: None,
            reduced_c: None,
        };
        // Reduction needs the program in memory: the first finding of this run (a
        // signature whose findings all came before a resume keeps its stored copies).
        let Some(saved) = first_by_sig.remove(&sig) else {
            signatures.push(tally);
            continue;
        };
        // A finding with no reference run (generated C held to its expected output at
        // `lowered` or natively) has nothing the IR reducer could hold: its program.c is
        // the test case.
        let reducible = !(saved.finding.args.is_empty() && saved.finding.expectations.is_empty());
        if !cfg.reduce_budget.is_zero() && reducible {
            mutants::set_active(&cfg.mutants);
            let vectors = if saved.finding.args.is_empty() {
                saved
                    .finding
                    .expectations
                    .iter()
                    .map(|(a, _)| a.clone())
                    .collect()
            } else {
                vec![saved.finding.args.clone()]
            };
            let goal = ReduceGoal {
                entry: saved.record.entry.clone(),
                arg_vectors: vectors.clone(),
                native: ReduceGoal::native_plan_for(&sig, cfg.native.limits),
                signature: sig.clone(),
                diff: cfg.diff.clone(),
            };
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(|_| {}));
            let reduced = phases::timed(phases::Phase::Reduction, || {
                reduce(&saved.module, &goal, cfg.reduce_budget)
            });
            // Expectations of the reduced program, from its own reference run (at the
            // width of the finding's stage).
            let expectations = goal
                .finding(&reduced.module)
                .map_or_else(Vec::new, |f| f.expectations);
            std::panic::set_hook(hook);
            mutants::set_active(&[]);
            let header = format!(
                "phihunt reduced finding {} ({sig}), from {} seed {}\nsize {} -> {}{}\n{}",
                saved.record.id,
                saved.record.generator,
                saved.record.seed.map_or("-".into(), |s| s.to_string()),
                reduced.size_before,
                reduced.size_after,
                if reduced.finished {
                    ""
                } else {
                    " (budget ran out)"
                },
                if cfg.mutants.is_empty() {
                    String::new()
                } else {
                    format!("seeded bugs: {}", saved.record.mutants.join(","))
                },
            );
            let text = test_file_text(
                header.trim_end(),
                &goal.entry,
                &expectations,
                &reduced.module,
            );
            let path = saved.dir.join("reduced.ir");
            write_atomically(&path, text.as_bytes())?;
            tally.reduced = Some(path.display().to_string());
            tally.size_before = Some(reduced.size_before);
            tally.size_after = Some(reduced.size_after);
            if let (Some(found_dir), true) = (&cfg.corpus_found, cfg.mutants.is_empty()) {
                std::fs::create_dir_all(found_dir)?;
                let name = format!(
                    "{}-{}-{:016x}.ir",
                    sig.kind.name(),
                    sig.stage.replace([':', '#', '/', '@'], "_"),
                    crate::findings::content_hash(text.as_bytes())
                );
                let dest = found_dir.join(name);
                write_atomically(&dest, text.as_bytes())?;
                tally.corpus_copy = Some(dest.display().to_string());
            }
        }
        // Generated C: the C reducer shrinks the program itself, keeping the signature.
        if !cfg.reduce_budget.is_zero() && saved.dir.join("program.c").is_file() {
            mutants::set_active(&cfg.mutants);
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(|_| {}));
            // A finding of the compiler under test is reduced by rerunning it, and is
            // another compiler's bug: no test for phicc's corpus.
            let cc = cfg
                .cc
                .as_ref()
                .filter(|_| sig.stage == crate::c::cc::STAGE)
                .map(|c| &c.compiler);
            let found = cfg.corpus_found.as_deref().filter(|_| cc.is_none());
            let c = crate::c::reduce::finding::reduce_saved_finding(
                &saved.dir,
                &sig,
                &saved.record,
                cfg.reduce_budget,
                &cfg.diff.pipeline,
                found,
                cc,
            );
            std::panic::set_hook(hook);
            mutants::set_active(&[]);
            if let Ok(stored) = c {
                tally.reduced_c = Some(stored.path.display().to_string());
                if let Some(copy) = stored.corpus_copy {
                    tally.corpus_copy = Some(copy.display().to_string());
                }
            }
        }
        signatures.push(tally);
    }

    let rate = totals.programs as f64 / elapsed.as_secs_f64().max(1e-9);
    let result = HuntResult {
        totals,
        per_generator,
        signatures,
        elapsed,
        interrupted: INTERRUPTED.load(Ordering::SeqCst),
        first_finding,
        rate,
        report_path: cfg.out_dir.join("report.md"),
        timeline,
        phases: {
            phase_totals.absorb(phases::take());
            phase_totals.snapshot()
        },
        shard,
        timeline_origin_unix,
    };
    report::write_reports(cfg, sources, &result)?;
    Ok(result)
}

/// Seconds since the Unix epoch, with the fraction.
fn unix_now_f64() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The default out dir: `reports/<UTC timestamp>/`.
pub fn default_out_dir(root: &Path) -> PathBuf {
    root.join("reports")
        .join(crate::findings::timestamp(unix_now()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::FindingKind;

    #[test]
    fn findings_name_their_target_allocator_and_width() {
        let ctx = |k, s: &str| finding_context(&Signature::new(k, s), 8);
        assert_eq!(
            ctx(FindingKind::Mismatch, "native:x86_64/stack"),
            (Some("x86_64".into()), Some("stack".into()), 8)
        );
        assert_eq!(
            ctx(FindingKind::RegallocCheck, "native:i686"),
            (Some("i686".into()), Some("linear".into()), 4)
        );
        assert_eq!(ctx(FindingKind::Mismatch, "gvn@4"), (None, None, 4));
        assert_eq!(ctx(FindingKind::Verify, "gvn#2"), (None, None, 8));
    }
}
