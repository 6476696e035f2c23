//! Running the selected tests: every (test, target) whose gcc -O0 run is clean is judged
//! in a child process (`child.rs`), `--jobs` at a time.
//!
//! Why: the suite is long (1,500 tests on four targets, each with several builds and runs
//! under qemu), so the pairs run in parallel, progress is printed, and a miscompile is
//! saved the moment it is seen — before anything else is done with it — so that a run
//! killed later loses none.
//!
//! Invariants:
//! - a wrong-code outcome is written to `OUT/wrong-code/TEST@TARGET/` (the test and
//!   `outcome.json`) by the worker that received it, before it is counted or printed;
//! - every outcome is appended to the journal `OUT/results.jsonl` (one JSON line per
//!   pair, flushed) as it arrives; a run given an OUT whose journal exists continues it:
//!   the pairs already there are not judged again (a killed or stopped run resumes, and
//!   `--no-judge` reports from the journal alone);
//! - a (test, target) gcc's binary does not run cleanly on is never judged: it is
//!   [`Cell::NotSelected`] with gcc's verdict;
//! - a broken setup in any child stops the run with that error (no partial table that
//!   looks complete).

use super::child::{judge_in_child, ChildSettings};
use super::classify::Classification;
use super::outcome::{Kind, Outcome};
use super::selection::TargetSelection;
use super::suite::{TargetKey, TortureTest};
use compiler::target::Target;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A test on one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// gcc -O0's build or run is not clean there (its verdict): not a test on the target.
    NotSelected(String),
    Judged(Outcome),
}

/// One test's results.
#[derive(Clone, Debug)]
pub struct TestRecord {
    pub name: String,
    /// `None` when the classification has no entry (it always has, after `classify`).
    pub class: Option<Classification>,
    pub cells: BTreeMap<TargetKey, Cell>,
}

impl TestRecord {
    pub fn standard(&self) -> bool {
        self.class.as_ref().is_some_and(Classification::standard)
    }
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct SuiteRun {
    pub records: Vec<TestRecord>,
    pub targets: Vec<Target>,
    /// Each target's gcc (`--version`'s first line).
    pub gcc_versions: Vec<(Target, String)>,
    /// Wall time of the judging (selection and classification not included).
    pub elapsed: Duration,
}

impl SuiteRun {
    /// Every judged (test, target) and its outcome.
    pub fn judged(&self) -> super::expected::Judged {
        let mut out = super::expected::Judged::new();
        for r in &self.records {
            for (t, c) in &r.cells {
                if let Cell::Judged(o) = c {
                    out.insert((r.name.clone(), *t), o.clone());
                }
            }
        }
        out
    }

    /// Every (test, target) the run considered, judged or not selected.
    pub fn considered(&self) -> Vec<(String, TargetKey)> {
        self.records
            .iter()
            .flat_map(|r| r.cells.keys().map(|t| (r.name.clone(), *t)))
            .collect()
    }
}

/// How a run is made.
#[derive(Clone, Debug)]
pub struct RunSettings {
    pub jobs: usize,
    pub child: ChildSettings,
    /// The output folder (wrong-code tests are saved under it, the journal is in it).
    pub out: PathBuf,
    /// Judge nothing: report what the journal has.
    pub no_judge: bool,
}

/// The journal's name in the output folder.
pub const JOURNAL: &str = "results.jsonl";

/// One journal line.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct JournalLine {
    test: String,
    target: String,
    outcome: Outcome,
}

/// The journal's outcomes: (test, target) → outcome. A line that does not parse (the
/// last one of a killed run) is skipped: that pair is judged again.
fn read_journal(path: &Path) -> BTreeMap<(String, TargetKey), Outcome> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<JournalLine>(l).ok())
        .filter_map(|j| Target::from_name(&j.target).map(|t| ((j.test, TargetKey(t)), j.outcome)))
        .collect()
}

/// Saves a wrong-code test: `OUT/wrong-code/TEST@TARGET/{TEST, outcome.json}`.
fn save_wrong_code(
    out: &Path,
    test: &TortureTest,
    target: Target,
    o: &Outcome,
) -> Result<PathBuf, String> {
    let dir = out
        .join("wrong-code")
        .join(format!("{}@{}", test.name, target.name()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::copy(&test.path, dir.join(&test.name))
        .map_err(|e| format!("cannot save {}: {e}", test.path.display()))?;
    let json = serde_json::json!({
        "test": test.name,
        "target": target.name(),
        "source": test.path.display().to_string(),
        "outcome": o,
    });
    std::fs::write(
        dir.join("outcome.json"),
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    )
    .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// Judges every selected (test, target) of `tests`; see the module doc. `Err` for a
/// broken setup.
pub fn run_suite(
    tests: &[TortureTest],
    selections: &[(Target, TargetSelection)],
    classes: &BTreeMap<String, Classification>,
    settings: &RunSettings,
) -> Result<SuiteRun, String> {
    let start = Instant::now();
    let mut records: Vec<TestRecord> = tests
        .iter()
        .map(|t| TestRecord {
            name: t.name.clone(),
            class: classes.get(&t.name).cloned(),
            cells: BTreeMap::new(),
        })
        .collect();
    std::fs::create_dir_all(&settings.out)
        .map_err(|e| format!("{}: {e}", settings.out.display()))?;
    let journal_path = settings.out.join(JOURNAL);
    let journaled = read_journal(&journal_path);
    if !journaled.is_empty() {
        eprintln!(
            "torture: {} outcome(s) already in {}: not judged again",
            journaled.len(),
            journal_path.display()
        );
    }
    let journal = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal_path)
            .map_err(|e| format!("{}: {e}", journal_path.display()))?,
    );
    // (test index, target, gcc's stdout, gcc's run time)
    let mut work: Vec<(usize, Target, Vec<u8>, u64)> = Vec::new();
    for (i, t) in tests.iter().enumerate() {
        for (target, sel) in selections {
            let done = journaled.get(&(t.name.clone(), TargetKey(*target)));
            match sel.tests.get(&t.name) {
                Some(r) if r.is_clean() => match done {
                    Some(o) => {
                        records[i]
                            .cells
                            .insert(TargetKey(*target), Cell::Judged(o.clone()));
                    }
                    None if settings.no_judge => {}
                    None => work.push((i, *target, r.stdout.clone(), r.run_ms)),
                },
                Some(r) => {
                    records[i]
                        .cells
                        .insert(TargetKey(*target), Cell::NotSelected(r.verdict.clone()));
                }
                None => {
                    records[i].cells.insert(
                        TargetKey(*target),
                        Cell::NotSelected("not in the selection".into()),
                    );
                }
            }
        }
    }
    let total = work.len();
    eprintln!(
        "torture: judging {total} (test, target) pairs on {} job(s)",
        settings.jobs.max(1)
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Target, Outcome)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let counts: Mutex<BTreeMap<Kind, usize>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1).min(total.max(1)) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some((i, target, stdout, ms)) = work.get(k) else {
                    break;
                };
                let test = &tests[*i];
                let outcome = judge_in_child(&test.path, *target, stdout, *ms, &settings.child)
                    .and_then(|o| {
                        if o.kind == Kind::WrongCode {
                            let dir = save_wrong_code(&settings.out, test, *target, &o)?;
                            eprintln!(
                                "torture: WRONG CODE: {} on {}: {} (saved in {})",
                                test.name,
                                target.name(),
                                o.reason(),
                                dir.display()
                            );
                        }
                        let line = JournalLine {
                            test: test.name.clone(),
                            target: target.name().to_string(),
                            outcome: o.clone(),
                        };
                        let text = serde_json::to_string(&line).map_err(|e| e.to_string())?;
                        let mut j = journal.lock().unwrap_or_else(|p| p.into_inner());
                        writeln!(j, "{text}")
                            .and_then(|_| j.flush())
                            .map_err(|e| format!("{}: {e}", journal_path.display()))?;
                        Ok(o)
                    });
                match outcome {
                    Ok(o) => {
                        let done = {
                            let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
                            *c.entry(o.kind).or_default() += 1;
                            let done: usize = c.values().sum();
                            if done.is_multiple_of(100) || done == total {
                                let parts: Vec<String> =
                                    c.iter().map(|(k, n)| format!("{} {n}", k.name())).collect();
                                Some(format!(
                                    "torture: {done}/{total} judged in {:.0} s: {}",
                                    start.elapsed().as_secs_f64(),
                                    parts.join(", ")
                                ))
                            } else {
                                None
                            }
                        };
                        if let Some(line) = done {
                            eprintln!("{line}");
                        }
                        results
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((*i, *target, o));
                    }
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        next.store(total, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    for (i, target, o) in results.into_inner().unwrap_or_else(|p| p.into_inner()) {
        records[i].cells.insert(TargetKey(target), Cell::Judged(o));
    }
    Ok(SuiteRun {
        records,
        targets: selections.iter().map(|(t, _)| *t).collect(),
        gcc_versions: selections
            .iter()
            .map(|(t, s)| (*t, s.gcc_version.clone()))
            .collect(),
        elapsed: start.elapsed(),
    })
}
