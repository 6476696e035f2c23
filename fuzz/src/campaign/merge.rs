//! `phihunt merge DIR... --out DIR`: the shards of one hunt (`hunt --shard I/N`, see
//! [`super::shard`]) joined into one report — `report.md`, `report.html`, `summary.json`
//! and `findings.jsonl`, like a hunt's.
//!
//! Why: a sharded hunt ran on N machines, but a team reads one report: one row per bug
//! however many shards found it, counts as if one machine had run every program, and the
//! curves over the wall-clock time the shards actually ran.
//!
//! What it reads from each shard folder: `state.json` (the settings every shard must
//! share, its shard index, whether it finished) and `summary.json` (the report's data,
//! `super::report_data::ReportData`), plus `findings.jsonl` (when each finding was saved,
//! for the distinct-signatures curve) and the finding directories themselves.
//!
//! Invariants:
//! - refused, with a message naming the folder: a folder that is not a finished hunt
//!   (no `state.json`, no `summary.json`, a hunt that was killed and not resumed, a report
//!   older than its state), two folders of the same shard, shards whose settings differ
//!   in anything that decides which programs run or how they are judged (generators, base
//!   seed, shard count, program limit, targets, native frequency, seeded bugs, disabled
//!   passes, `--cc`), a missing shard (unless `--allow-missing`, and then the report names
//!   it), an out dir that is one of the inputs or holds a hunt;
//! - counts are sums over the shards (every program ran in exactly one shard), so they
//!   equal those of one unsharded run over the same programs; findings are deduplicated
//!   by bug signature, the first being the copy with the smallest seed, and every shard's
//!   copies stay listed ([`super::merge_data`]);
//! - paths a shard recorded are re-anchored below the shard's folder as found now (shard
//!   folders are usually copied off the machines that ran them), falling back to the path
//!   as recorded;
//! - the merged time series is the sum of the shards' step functions at every sample time
//!   of any shard, on the wall clock (each shard's `timeline_origin_unix`), thinned to the
//!   timeline's bound; distinct signatures over time come from the shards' journals.

use super::journal::{self, JournalEntry};
use super::merge_data::{Merged, ShardCopy, ShardRow, SignatureCopies};
use super::report_data::{matrix_of, ReportData};
use super::reproduce::reproduce_with;
use super::shard::Shard;
use super::state::{HuntState, StoredSettings, STATE_FILE};
use super::stats::{SignatureTally, Totals};
use super::timeline::{Sample, Timeline, MAX_SAMPLES};
use crate::census::values::value_rows;
use crate::census::{has_census, situation_rows};
use crate::diff::Signature;
use crate::findings::write_atomically;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The report file every finished hunt writes (`super::report`).
pub const SUMMARY_FILE: &str = "summary.json";

/// `phihunt merge`'s settings.
pub struct MergeArgs {
    pub dirs: Vec<PathBuf>,
    pub out: PathBuf,
    /// Merge even when some of the N shards are not among the inputs.
    pub allow_missing: bool,
}

/// One shard as read from its folder.
struct ShardInput {
    dir: PathBuf,
    shard: Shard,
    state: HuntState,
    data: ReportData,
    journal: Vec<JournalEntry>,
}

/// The folders `dir` stands for: itself when it holds a hunt, else its `shard-*`
/// subfolders that do (the layout `hunt --shard I/N --out DIR` makes).
fn expand(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if dir.join(STATE_FILE).is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut shards: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("shard-"))
                && p.join(STATE_FILE).is_file()
        })
        .collect();
    shards.sort();
    if shards.is_empty() {
        return Err(format!(
            "{}: not a hunt folder (no {STATE_FILE}, and no shard-*/{STATE_FILE} below it)",
            dir.display()
        ));
    }
    Ok(shards)
}

/// Reads one shard folder, refusing anything but a finished hunt with a current report.
fn read_shard(dir: &Path) -> Result<ShardInput, String> {
    let state = HuntState::load(dir)?;
    let summary = dir.join(SUMMARY_FILE);
    let text = std::fs::read(&summary).map_err(|e| {
        format!(
            "{}: {e}: the hunt wrote no report yet (still running, or killed): \
             `phihunt hunt --resume {}` finishes it",
            summary.display(),
            dir.display()
        )
    })?;
    let mut data: ReportData = serde_json::from_slice(&text)
        .map_err(|e| format!("{}: not a hunt summary: {e}", summary.display()))?;
    if !state.finished || data.totals.programs != state.totals.programs {
        return Err(format!(
            "{}: the hunt did not finish (killed, or still running: {} programs in its \
             state, {} in its report): `phihunt hunt --resume {}` finishes it and writes \
             its report",
            dir.display(),
            state.totals.programs,
            data.totals.programs,
            dir.display()
        ));
    }
    let shard = state.settings.shard.unwrap_or(Shard::WHOLE);
    if data.shard.unwrap_or(Shard::WHOLE) != shard {
        return Err(format!(
            "{}: {SUMMARY_FILE} says shard {} but {STATE_FILE} says {shard}",
            dir.display(),
            data.shard.unwrap_or(Shard::WHOLE)
        ));
    }
    if data.timeline_origin_unix.is_none() {
        // A report written before the origin was recorded: it ended when it was written.
        let written = std::fs::metadata(&summary)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0.0, |d| d.as_secs_f64());
        data.timeline_origin_unix = Some(written - data.duration_s);
    }
    let journal_path = dir.join(journal::FILE_NAME);
    let journal = if journal_path.is_file() {
        journal::read(&journal_path).map_err(|e| e.to_string())?
    } else {
        Vec::new()
    };
    Ok(ShardInput {
        dir: dir.to_path_buf(),
        shard,
        state,
        data,
        journal,
    })
}

/// The settings that decide which programs a hunt runs and how it judges them, by name:
/// shards of one hunt agree on all of them (time budgets, reduction, where copies go and
/// the number of stored copies may differ).
fn identity(s: &StoredSettings) -> Vec<(&'static str, String)> {
    vec![
        ("generators (--gen)", s.generators.clone()),
        ("base seed (--seed)", s.base_seed.to_string()),
        ("shard count (--shard I/N)", {
            s.shard.unwrap_or(Shard::WHOLE).count.to_string()
        }),
        (
            "shard block",
            s.shard.unwrap_or(Shard::WHOLE).block.to_string(),
        ),
        ("--max-programs", format!("{:?}", s.max_programs)),
        ("--targets", s.targets.clone()),
        ("--native-every", s.native_every.to_string()),
        ("seeded bugs (--mutant)", s.mutants.join(",")),
        ("--disable-passes", s.disabled_passes.join(",")),
        ("optimization iterations", s.max_iterations.to_string()),
        ("--cc", format!("{:?}", s.cc)),
        ("--cc-target", format!("{:?}", s.cc_target)),
        ("--no-phicc", s.no_phicc.to_string()),
    ]
}

/// Checks that the inputs are the distinct shards of one hunt; the missing indexes.
fn check_consistent(inputs: &[ShardInput], allow_missing: bool) -> Result<Vec<u64>, String> {
    let first = &inputs[0];
    let want = identity(&first.state.settings);
    for other in &inputs[1..] {
        for ((name, a), (_, b)) in want.iter().zip(identity(&other.state.settings)) {
            if *a != b {
                return Err(format!(
                    "{} and {} are not shards of one hunt: {name} is `{a}` in the first and \
                     `{b}` in the second",
                    first.dir.display(),
                    other.dir.display()
                ));
            }
        }
    }
    // `--targets auto` resolves to the toolchains of each machine.
    for other in &inputs[1..] {
        if other.data.native_stages != first.data.native_stages {
            return Err(format!(
                "{} and {} ran different native stages ({} and {}): the machines' \
                 toolchains differ; give every shard the same explicit --targets",
                first.dir.display(),
                other.dir.display(),
                describe_stages(&first.data.native_stages),
                describe_stages(&other.data.native_stages)
            ));
        }
    }
    let count = first.shard.count;
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for s in inputs {
        if let Some(dir) = seen.insert(s.shard.index, &s.dir) {
            return Err(format!(
                "{} and {} are both shard {}: each shard once",
                dir.display(),
                s.dir.display(),
                s.shard
            ));
        }
    }
    let missing: Vec<u64> = (0..count).filter(|i| !seen.contains_key(i)).collect();
    if !missing.is_empty() && !allow_missing {
        let list: Vec<String> = missing.iter().map(|i| format!("{i}/{count}")).collect();
        return Err(format!(
            "shards {} are missing (their programs were not run or not given here); \
             --allow-missing merges the others and names the missing ones in the report",
            list.join(", ")
        ));
    }
    Ok(missing)
}

fn describe_stages(stages: &[String]) -> String {
    if stages.is_empty() {
        "none".into()
    } else {
        stages.join(", ")
    }
}

/// Adds `o` into `t` (every field: the destructuring fails to compile when a field is
/// added to [`Totals`] and not here).
pub fn add_totals(t: &mut Totals, o: &Totals) {
    let Totals {
        programs,
        agreed,
        discarded,
        findings,
        generator_bugs,
        generator_bug_reasons,
        front_end_panics,
        vectors_valid,
        vectors_dropped,
        discard_reasons,
        features,
        pass_changes,
        pass_programs,
        native_programs,
        native,
        findings_by_signature,
    } = o;
    let add_map = |into: &mut BTreeMap<String, u64>, from: &BTreeMap<String, u64>| {
        for (k, v) in from {
            *into.entry(k.clone()).or_default() += v;
        }
    };
    t.programs += programs;
    t.agreed += agreed;
    t.discarded += discarded;
    t.findings += findings;
    t.generator_bugs += generator_bugs;
    add_map(&mut t.generator_bug_reasons, generator_bug_reasons);
    t.front_end_panics.extend(front_end_panics.iter().cloned());
    t.vectors_valid += vectors_valid;
    t.vectors_dropped += vectors_dropped;
    add_map(&mut t.discard_reasons, discard_reasons);
    add_map(&mut t.features, features);
    add_map(&mut t.pass_changes, pass_changes);
    add_map(&mut t.pass_programs, pass_programs);
    t.native_programs += native_programs;
    for (stage, tally) in native {
        t.native.entry(stage.clone()).or_default().merge(tally);
    }
    add_map(&mut t.findings_by_signature, findings_by_signature);
}

/// Folders below a hunt's out dir where it saves things with paths it records.
const ANCHORS: [&str; 5] = [
    "findings",
    "front-end-panics",
    "generator-bugs",
    "harness-panics",
    "discards",
];

/// `recorded` (a path the shard wrote, relative to wherever it ran) re-anchored below the
/// shard's folder `dir` as it is now, when the file is there; else `recorded` unchanged.
pub fn rebase(recorded: &str, dir: &Path) -> String {
    let path = Path::new(recorded);
    let parts: Vec<_> = path.components().collect();
    if let Some(at) = parts
        .iter()
        .rposition(|c| ANCHORS.iter().any(|a| c.as_os_str() == *a))
    {
        let mut here = dir.to_path_buf();
        here.extend(parts[at..].iter());
        if here.exists() {
            return here.display().to_string();
        }
    }
    recorded.to_string()
}

/// A shard's counter at wall-clock time `t`: its last sample at or before `t` (zero
/// before its first).
fn sample_at(samples: &[Sample], origin: f64, t: f64) -> Sample {
    let n = samples.partition_point(|s| origin + s.t <= t + 1e-9);
    if n == 0 {
        Sample::default()
    } else {
        samples[n - 1]
    }
}

/// `samples` thinned to at most `max` (first and last kept, the rest evenly spread).
fn thin(samples: Vec<Sample>, max: usize) -> Vec<Sample> {
    if samples.len() <= max || max < 2 {
        return samples;
    }
    let last = samples.len() - 1;
    let mut picked: Vec<usize> = (0..max).map(|k| k * last / (max - 1)).collect();
    picked.dedup();
    picked.into_iter().map(|i| samples[i]).collect()
}

/// The shards' time series summed on the wall clock (see the module doc), from the
/// earliest shard's origin; the distinct signatures from the journals' save times.
fn merged_timeline(inputs: &[ShardInput], unique_total: usize) -> (Timeline, f64) {
    let origin = |s: &ShardInput| s.data.timeline_origin_unix.unwrap_or(0.0);
    let t0 = inputs.iter().map(origin).fold(f64::INFINITY, f64::min);
    let mut times: Vec<f64> = inputs
        .iter()
        .flat_map(|s| s.data.timeline.samples.iter().map(move |x| origin(s) + x.t))
        .collect();
    times.push(t0);
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    // When each bug was first saved, by any shard (journal times are whole seconds).
    let mut first_seen: BTreeMap<String, u64> = BTreeMap::new();
    for s in inputs {
        for e in &s.journal {
            let bug = e.bug.clone().unwrap_or_else(|| "panic@frontend".into());
            let t = first_seen.entry(bug).or_insert(e.unix_time);
            *t = (*t).min(e.unix_time);
        }
    }
    let mut seen_times: Vec<u64> = first_seen.into_values().collect();
    seen_times.sort_unstable();
    let mut samples: Vec<Sample> = times
        .iter()
        .map(|&t| {
            let mut sum = Sample {
                t: t - t0,
                ..Sample::default()
            };
            for s in inputs {
                let x = sample_at(&s.data.timeline.samples, origin(s), t);
                sum.programs += x.programs;
                sum.agreed += x.agreed;
                sum.discarded += x.discarded;
                sum.generator_bugs += x.generator_bugs;
                sum.findings += x.findings;
            }
            // Journal times are whole seconds: a bug saved within the second of `t` may
            // count a little early, never more than the findings so far.
            let seen = seen_times.partition_point(|&u| u as f64 <= t) as u64;
            sum.unique = seen.min(sum.findings).min(unique_total as u64);
            sum
        })
        .collect();
    // The end shows every signature of the report.
    if let Some(last) = samples.last_mut() {
        last.unique = unique_total as u64;
    }
    let interval = inputs
        .iter()
        .map(|s| s.data.timeline.interval_s)
        .fold(0.0, f64::max);
    (
        Timeline::from_samples(thin(samples, MAX_SAMPLES + 1), interval),
        t0,
    )
}

/// One bug's stored finding directories in a shard, and its seed-line file.
type StoredCopies = (Vec<String>, Option<String>);

/// Stored finding directories per bug signature in shard folder `dir`, and its seed-line
/// files.
fn shard_copies(dir: &Path) -> Result<BTreeMap<String, StoredCopies>, String> {
    let mut by_bug: BTreeMap<String, StoredCopies> = BTreeMap::new();
    let found = super::keep::scan(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for f in found {
        let bug = f.signature.bug();
        let entry = by_bug.entry(bug.to_string()).or_default();
        match f.dir {
            Some(d) => entry.0.push(d.display().to_string()),
            None => entry.1 = Some(super::keep::seeds_file(dir, &bug).display().to_string()),
        }
    }
    Ok(by_bug)
}

/// Rebases every path of a shard's signature tally below its folder.
fn rebased_tally(t: &SignatureTally, dir: &Path) -> SignatureTally {
    let opt = |p: &Option<String>| p.as_ref().map(|p| rebase(p, dir));
    SignatureTally {
        first: rebase(&t.first, dir),
        reduced: opt(&t.reduced),
        reduced_c: opt(&t.reduced_c),
        ..t.clone()
    }
}

/// The merged report's data.
fn merge_data(inputs: &[ShardInput], missing: Vec<u64>) -> Result<ReportData, String> {
    let first = &inputs[0].data;
    let mut totals = Totals::default();
    let mut per_generator: BTreeMap<String, Totals> = BTreeMap::new();
    let mut phases = super::phases::PhaseTimes::default();
    // Bug signature -> (the merged tally, each shard's copy).
    let mut by_sig: BTreeMap<Signature, (SignatureTally, Vec<ShardCopy>)> = BTreeMap::new();
    for s in inputs {
        let d = &s.data;
        let mut t = d.totals.clone();
        t.front_end_panics = t
            .front_end_panics
            .iter()
            .map(|p| rebase(p, &s.dir))
            .collect();
        add_totals(&mut totals, &t);
        for (g, t) in &d.per_generator {
            let mut t = t.clone();
            t.front_end_panics = t
                .front_end_panics
                .iter()
                .map(|p| rebase(p, &s.dir))
                .collect();
            add_totals(per_generator.entry(g.clone()).or_default(), &t);
        }
        for p in super::phases::Phase::ALL {
            phases.add(p, d.phase_seconds.get(p));
        }
        let mut copies = shard_copies(&s.dir)?;
        for tally in &d.findings {
            let tally = rebased_tally(tally, &s.dir);
            let (dirs, seeds_file) = copies
                .remove(&tally.signature.to_string())
                .unwrap_or_default();
            let copy = ShardCopy {
                shard: s.shard.index,
                count: tally.count,
                first: tally.first.clone(),
                first_seed: tally.first_seed,
                reduced: tally.reduced.clone(),
                reduced_c: tally.reduced_c.clone(),
                directories: dirs,
                seeds_file,
            };
            match by_sig.get_mut(&tally.signature) {
                None => {
                    by_sig.insert(tally.signature.clone(), (tally, vec![copy]));
                }
                Some((merged, shards)) => {
                    merged.count += tally.count;
                    for (stage, n) in &tally.stages_seen {
                        *merged.stages_seen.entry(stage.clone()).or_default() += n;
                    }
                    // The first copy is the one with the smallest seed (seedless last).
                    let key = |t: &SignatureTally| (t.first_seed.is_none(), t.first_seed);
                    if key(&tally) < key(merged) {
                        *merged = SignatureTally {
                            count: merged.count,
                            stages_seen: merged.stages_seen.clone(),
                            ..tally
                        };
                    }
                    shards.push(copy);
                }
            }
        }
    }
    let mut findings = Vec::new();
    let mut copies = Vec::new();
    for (sig, (tally, mut shards)) in by_sig {
        shards.sort_by_key(|c| c.shard);
        copies.push(SignatureCopies {
            signature: sig.to_string(),
            shards,
        });
        findings.push(tally);
    }
    let (timeline, t0) = merged_timeline(inputs, findings.len());
    let end = inputs
        .iter()
        .map(|s| s.data.timeline_origin_unix.unwrap_or(0.0) + s.data.duration_s)
        .fold(t0, f64::max);
    let span = (end - t0).max(0.0);
    // The first finding of any shard, on the wall clock, with every shard's programs then.
    let first_finding = inputs
        .iter()
        .filter_map(|s| {
            let (secs, _) = s.data.first_finding?;
            Some(s.data.timeline_origin_unix.unwrap_or(0.0) + secs)
        })
        .min_by(f64::total_cmp)
        .map(|at| {
            let programs = inputs
                .iter()
                .map(|s| {
                    let o = s.data.timeline_origin_unix.unwrap_or(0.0);
                    let at_sample = sample_at(&s.data.timeline.samples, o, at).programs;
                    // A shard's own first finding counts its programs up to it.
                    let own = s
                        .data
                        .first_finding
                        .filter(|(secs, _)| (o + secs - at).abs() < 1e-9)
                        .map_or(0, |(_, n)| n);
                    at_sample.max(own)
                })
                .sum();
            (at - t0, programs)
        });
    let shards = inputs
        .iter()
        .map(|s| ShardRow {
            index: s.shard.index,
            dir: s.dir.display().to_string(),
            programs: s.data.totals.programs,
            findings: s.data.totals.findings,
            unique_findings: s.data.unique_findings,
            duration_s: s.data.duration_s,
            programs_per_s: s.data.programs_per_s,
            jobs: s.data.jobs,
            origin_unix: s.data.timeline_origin_unix.unwrap_or(0.0),
            runs: s.state.runs,
        })
        .collect();
    let finding_details = findings
        .iter()
        .map(|t| reproduce_with(&first.mutants, &first.disabled_passes, t))
        .collect();
    let census = has_census(&totals.features);
    Ok(ReportData {
        generators: first.generators.clone(),
        base_seed: first.base_seed,
        duration_s: span,
        budget_s: inputs.iter().map(|s| s.data.budget_s).fold(0.0, f64::max),
        interrupted: inputs.iter().any(|s| s.data.interrupted),
        jobs: inputs.iter().map(|s| s.data.jobs).sum(),
        programs_per_s: totals.programs as f64 / span.max(1e-9),
        mutants: first.mutants.clone(),
        native_stages: first.native_stages.clone(),
        native_every: first.native_every,
        disabled_passes: first.disabled_passes.clone(),
        matrix: matrix_of(
            &first.native_stages,
            &first.disabled_passes,
            &first.generators,
            &per_generator,
        ),
        value_census: if census {
            value_rows(&totals.features)
        } else {
            Vec::new()
        },
        situation_census: if census {
            situation_rows(&totals.features)
        } else {
            Vec::new()
        },
        unique_findings: findings.len(),
        finding_details,
        findings,
        totals,
        per_generator,
        first_finding,
        phase_seconds: phases,
        timeline,
        shard: None,
        timeline_origin_unix: Some(t0),
        merged: Some(Merged {
            shard_count: inputs[0].shard.count,
            shards,
            missing,
            copies,
        }),
    })
}

/// What a merge made.
pub struct MergeOutcome {
    pub data: ReportData,
    pub out: PathBuf,
}

/// Merges the shard folders of `args` into `args.out` (see the module doc).
pub fn merge(args: &MergeArgs) -> Result<MergeOutcome, String> {
    if args.dirs.is_empty() {
        return Err("merge: no shard folders given".into());
    }
    let mut dirs = Vec::new();
    for d in &args.dirs {
        for e in expand(d)? {
            let canon = e
                .canonicalize()
                .map_err(|err| format!("{}: {err}", e.display()))?;
            if !dirs.contains(&canon) {
                dirs.push(canon);
            }
        }
    }
    if args.out.join(STATE_FILE).exists() {
        return Err(format!(
            "--out {}: holds a hunt ({STATE_FILE}); merge into a folder of its own",
            args.out.display()
        ));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let out = args
        .out
        .canonicalize()
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    if let Some(d) = dirs
        .iter()
        .find(|d| out.starts_with(d) || d.starts_with(&out))
    {
        return Err(format!(
            "--out {}: overlaps the shard folder {}",
            out.display(),
            d.display()
        ));
    }
    let mut inputs = dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<Vec<_>, _>>()?;
    inputs.sort_by_key(|s| s.shard.index);
    let missing = check_consistent(&inputs, args.allow_missing)?;
    let data = merge_data(&inputs, missing)?;
    write_merged(&out, &data, &inputs)?;
    Ok(MergeOutcome { data, out })
}

/// Writes the merged reports and journal into `out`.
fn write_merged(out: &Path, data: &ReportData, inputs: &[ShardInput]) -> Result<(), String> {
    let io = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    let write = |name: &str, bytes: &[u8]| {
        let path = out.join(name);
        write_atomically(&path, bytes).map_err(|e| io(&path, e))
    };
    write("report.md", super::report::markdown(data).as_bytes())?;
    write("report.html", super::report_html::render(data).as_bytes())?;
    let json = serde_json::to_vec_pretty(data).map_err(|e| e.to_string())?;
    write(SUMMARY_FILE, &json)?;
    // Every shard's journal, in shard order, each line with its shard and a path that
    // resolves here.
    let mut lines = Vec::new();
    for s in inputs {
        for e in &s.journal {
            let mut e = e.clone();
            e.path = rebase(&e.path, &s.dir);
            let mut v = serde_json::to_value(&e).map_err(|e| e.to_string())?;
            v["shard"] = s.shard.index.into();
            lines.extend(serde_json::to_vec(&v).map_err(|e| e.to_string())?);
            lines.push(b'\n');
        }
    }
    write(journal::FILE_NAME, &lines)
}

/// Runs `phihunt merge`: prints the merged totals; exit 0 without findings, 1 with, 2 on
/// bad input.
pub fn merge_command(args: MergeArgs) -> i32 {
    match merge(&args) {
        Ok(m) => {
            let d = &m.data;
            let merged = d.merged.as_ref();
            let shards: BTreeSet<u64> = merged
                .map(|m| m.shards.iter().map(|s| s.index).collect())
                .unwrap_or_default();
            println!(
                "phihunt merge: {} of {} shards, {} programs in {:.1} s of wall clock \
                 ({:.1}/s), {:.1}% valid; report {}",
                shards.len(),
                merged.map_or(1, |m| m.shard_count),
                d.totals.programs,
                d.duration_s,
                d.programs_per_s,
                d.totals.valid_ratio() * 100.0,
                m.out.join("report.html").display()
            );
            if let Some(m) = merged.filter(|m| !m.missing.is_empty()) {
                println!("missing shards: {:?}", m.missing);
            }
            for s in &d.findings {
                println!("  {} x{}: {}", s.signature, s.count, s.first);
            }
            println!("{} findings", d.unique_findings);
            i32::from(d.unique_findings > 0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_reanchored_below_the_shard_folder_when_the_file_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let finding = dir.path().join("findings").join("0001-mismatch@gvn");
        std::fs::create_dir_all(&finding).unwrap();
        std::fs::write(finding.join("reduced.ir"), "").unwrap();
        // Recorded on another machine, below an out dir that itself says `findings`.
        let recorded = "/data/findings/run/shard-1-of-4/findings/0001-mismatch@gvn/reduced.ir";
        assert_eq!(
            rebase(recorded, dir.path()),
            finding.join("reduced.ir").display().to_string()
        );
        assert_eq!(rebase("corpus/found/x.ir", dir.path()), "corpus/found/x.ir");
        assert_eq!(rebase("r/findings/0002/x", dir.path()), "r/findings/0002/x");
    }

    fn sample(t: f64, programs: u64) -> Sample {
        Sample {
            t,
            programs,
            agreed: programs,
            ..Sample::default()
        }
    }

    #[test]
    fn step_functions_sum_on_the_wall_clock() {
        let a = [sample(0.0, 0), sample(2.0, 10), sample(4.0, 30)];
        // Starts 1 s later.
        assert_eq!(sample_at(&a, 100.0, 99.0).programs, 0);
        assert_eq!(sample_at(&a, 100.0, 101.9).programs, 0);
        assert_eq!(sample_at(&a, 100.0, 102.0).programs, 10);
        assert_eq!(sample_at(&a, 100.0, 1000.0).programs, 30);
        let many: Vec<Sample> = (0..1000).map(|i| sample(i as f64, i)).collect();
        let thinned = thin(many, 10);
        assert_eq!(thinned.len(), 10);
        assert_eq!(thinned[0].programs, 0);
        assert_eq!(thinned[9].programs, 999);
        assert!(thinned.windows(2).all(|w| w[0].t < w[1].t));
    }

    #[test]
    fn totals_add_field_by_field() {
        let mut a = Totals {
            programs: 3,
            agreed: 2,
            findings: 1,
            discard_reasons: [("fuel".to_string(), 1)].into(),
            front_end_panics: vec!["x".into()],
            ..Totals::default()
        };
        let b = Totals {
            programs: 4,
            agreed: 1,
            discarded: 3,
            discard_reasons: [("fuel".to_string(), 2), ("ub".to_string(), 1)].into(),
            front_end_panics: vec!["y".into()],
            ..Totals::default()
        };
        add_totals(&mut a, &b);
        assert_eq!(
            (a.programs, a.agreed, a.discarded, a.findings),
            (7, 3, 3, 1)
        );
        assert_eq!(a.discard_reasons["fuel"], 3);
        assert_eq!(a.discard_reasons["ub"], 1);
        assert_eq!(a.front_end_panics, ["x", "y"]);
    }
}
