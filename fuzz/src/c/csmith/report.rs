//! What `bench csmith` keeps and prints: every mismatch saved as a directory, and the
//! summary (counts, the unsupported programs' first errors and their histogram, times).
//!
//! Invariants: a saved mismatch holds everything needed to reproduce it without csmith
//! (`program.c`, `info.txt` with the seed, csmith options, gcc's outcome and every
//! stage's result); the summary's counts add up to the number of seeds run; times are
//! summed only over programs that both phicc and gcc compiled, so the two totals compare
//! the same programs.

use super::program::{SeedResult, TimeoutProbe, Verdict};
use crate::native::RowVerdict;
use oracle::native::NativeOutcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Writes `out/mismatch-seed-K/{program.c,info.txt}`; returns the directory.
pub fn save_mismatch(
    out: &Path,
    r: &SeedResult,
    csmith_options: &[String],
) -> Result<PathBuf, String> {
    let kind = match r.verdict {
        Verdict::Mismatched { .. } => "mismatch",
        Verdict::Suspect(_) => "suspect",
        Verdict::Undefined { .. } => "undefined",
        _ => "oracle-invalid",
    };
    let dir = out.join(format!("{kind}-seed-{}", r.seed));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(dir.join("program.c"), &r.program)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut info = String::new();
    let _ = writeln!(info, "seed: {}", r.seed);
    let _ = writeln!(info, "csmith options: {}", csmith_options.join(" "));
    let _ = writeln!(
        info,
        "reproduce: csmith --seed {} {} > program.c && phihunt check program.c",
        r.seed,
        csmith_options.join(" ")
    );
    if let Some((stage, detail)) = r.mismatch() {
        let _ = writeln!(info, "first mismatching stage: {stage}: {detail}");
    } else if let Verdict::OracleInvalid(why) = &r.verdict {
        let _ = writeln!(
            info,
            "oracle invalid (no verdict; csmith emits no UB): {why}"
        );
    } else if let Verdict::Undefined { category, detail } = &r.verdict {
        let _ = writeln!(
            info,
            "undefined behaviour {category} (no verdict; csmith emits no UB: check it \
             with gcc's sanitizers): {detail}"
        );
    } else if let Verdict::Suspect(why) = &r.verdict {
        let _ = writeln!(
            info,
            "suspect (gcc's binary never finished, the oracle's lowered stage did): {why}"
        );
    }
    if let Some(reference) = &r.reference {
        let _ = writeln!(info, "reference (gcc -O0): {}", reference.describe());
    }
    if let Some(j) = &r.judgement {
        let _ = writeln!(info, "stages:");
        for (stage, cell) in j.stages.iter().zip(&j.cells) {
            let mark = if cell.ok {
                " "
            } else if cell.discarded {
                "–"
            } else {
                "✗"
            };
            let _ = writeln!(info, "  {mark} {stage:<16} {}", cell.text);
        }
        for n in &j.notes {
            let _ = writeln!(info, "note: {n}");
        }
    }
    if let Some(native) = &r.native {
        let _ = writeln!(info, "native stages:");
        for (target, reference) in &native.references {
            let _ = writeln!(
                info,
                "  reference (gcc -O0 on {}): {reference}",
                target.name()
            );
        }
        for (stage, v, _) in &native.rows {
            let text = match v {
                RowVerdict::Agrees => "  ok".to_string(),
                RowVerdict::Discarded(why) => format!("– {why}"),
                RowVerdict::Failed(f) => format!("✗ {}: {}", f.kind.name(), f.detail),
            };
            let _ = writeln!(info, "  {:<22} {text}", stage.name());
        }
    }
    std::fs::write(dir.join("info.txt"), info).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// The message of a front-end error without its location, with quoted names replaced by
/// `…`, so that errors of the same kind are counted together.
pub fn error_kind(headline: &str) -> String {
    let msg = match headline.find(": error: ") {
        Some(i) => &headline[i + ": error: ".len()..],
        None => headline,
    };
    let mut out = String::new();
    let mut rest = msg;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        // A quoted name (`x` or 'x') becomes `…`; a lone apostrophe stays.
        if let Some(end) = (c == '`' || c == '\'').then(|| after.find(c)).flatten() {
            out.push(c);
            out.push('…');
            out.push(c);
            rest = &after[end + c.len_utf8()..];
        } else {
            out.push(c);
            rest = after;
        }
    }
    out
}

/// Where a kept seed went, for the summary.
fn place(saved: &Option<Result<PathBuf, String>>) -> String {
    match saved {
        Some(Ok(p)) => p.display().to_string(),
        Some(Err(e)) => format!("NOT SAVED: {e}"),
        None => "not saved".into(),
    }
}

/// Counts and times of a finished bench.
#[derive(Debug, Default)]
pub struct Summary {
    pub programs: usize,
    pub generator_failed: usize,
    pub reference_timeouts: usize,
    /// Reference timeouts whose `lowered` stage also ran past the probe's fuel.
    pub timeouts_running_on: usize,
    pub suspect: usize,
    /// (seed, detail, saved dir)
    pub suspects: Vec<(u64, String, String)>,
    pub reference_invalid: usize,
    pub unsupported: usize,
    pub oracle_invalid: usize,
    /// UB judge discards by category (`check::ub_judge`).
    pub undefined: BTreeMap<String, usize>,
    pub matched: usize,
    pub mismatched: usize,
    /// Front end accepted the program.
    pub compiled: usize,
    /// (seed, stage, detail, saved dir)
    pub mismatches: Vec<(u64, String, String, String)>,
    /// (seed, first front-end error)
    pub unsupported_list: Vec<(u64, String)>,
    /// error kind -> count
    pub histogram: BTreeMap<String, usize>,
    /// (seed, reason)
    pub other_invalid: Vec<(u64, String)>,
    /// Programs both phicc and gcc compiled, and the times over them.
    pub timed: usize,
    pub front_end_time: Duration,
    pub pipeline_time: Duration,
    pub gcc_time: Duration,
    /// `gcc -O0 -S` over the programs where it was measured too.
    pub gcc_s_timed: usize,
    pub gcc_s_time: Duration,
    /// phicc over those same programs.
    pub phicc_time_vs_s: Duration,
    pub wall: Duration,
    /// Native stage -> its counts over the seeds that ran it.
    pub native: BTreeMap<String, NativeCounts>,
}

/// One native stage's counts over a bench.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NativeCounts {
    pub agreed: usize,
    /// Failures by kind (`mismatch`, `timeout`, `regalloc_check`, ...).
    pub failed: BTreeMap<String, usize>,
    /// No verdict, by reason kind (`ub`, `reference timeout`, `front end (i686)`, ...).
    pub discarded: BTreeMap<String, usize>,
}

/// The kind of a discard reason: its text before the first `:` or ` (`.
fn reason_kind(why: &str) -> String {
    let end = why
        .find(": ")
        .into_iter()
        .chain(why.find(" ("))
        .min()
        .unwrap_or(why.len());
    why[..end].to_string()
}

impl Summary {
    /// Sums `results` (sorted by seed).
    pub fn new(
        results: &[(SeedResult, Option<Result<PathBuf, String>>)],
        wall: Duration,
    ) -> Summary {
        let mut s = Summary {
            programs: results.len(),
            wall,
            ..Summary::default()
        };
        for (r, saved) in results {
            if r.front_end_time.is_some() {
                s.compiled += 1;
            }
            for (stage, verdict, _) in r.native.iter().flat_map(|n| &n.rows) {
                let c = s.native.entry(stage.name()).or_default();
                match verdict {
                    RowVerdict::Agrees => c.agreed += 1,
                    RowVerdict::Failed(f) => {
                        *c.failed.entry(f.kind.name().into()).or_default() += 1
                    }
                    RowVerdict::Discarded(why) => {
                        *c.discarded.entry(reason_kind(why)).or_default() += 1
                    }
                }
            }
            match &r.verdict {
                Verdict::GeneratorFailed(m) => {
                    s.generator_failed += 1;
                    s.other_invalid.push((r.seed, format!("csmith: {m}")));
                }
                Verdict::ReferenceTimeout(probe) => {
                    s.reference_timeouts += 1;
                    match probe {
                        TimeoutProbe::RunsOn { .. } => s.timeouts_running_on += 1,
                        TimeoutProbe::OracleCannotRun(m) => s
                            .other_invalid
                            .push((r.seed, format!("reference timeout; the oracle: {m}"))),
                    }
                }
                Verdict::Suspect(m) => {
                    s.suspect += 1;
                    s.suspects.push((r.seed, m.clone(), place(saved)));
                }
                Verdict::ReferenceInvalid(m) => {
                    s.reference_invalid += 1;
                    s.other_invalid.push((r.seed, m.clone()));
                }
                Verdict::Unsupported(m) => {
                    s.unsupported += 1;
                    s.unsupported_list.push((r.seed, m.clone()));
                    *s.histogram.entry(error_kind(m)).or_default() += 1;
                }
                Verdict::OracleInvalid(m) => {
                    s.oracle_invalid += 1;
                    s.other_invalid.push((r.seed, m.clone()));
                }
                Verdict::Undefined { category, detail } => {
                    *s.undefined.entry(category.clone()).or_default() += 1;
                    s.other_invalid
                        .push((r.seed, format!("undefined ({category}): {detail}")));
                }
                Verdict::Matched => s.matched += 1,
                Verdict::Mismatched { stage, detail } => {
                    s.mismatched += 1;
                    s.mismatches
                        .push((r.seed, stage.clone(), detail.clone(), place(saved)));
                }
            }
            let gcc_built = matches!(
                r.reference,
                Some(
                    NativeOutcome::Exited { .. }
                        | NativeOutcome::Signaled(_)
                        | NativeOutcome::TimedOut
                )
            );
            if let (Some(fe), Some(p), Some(g), true) =
                (r.front_end_time, r.pipeline_time, r.gcc_time, gcc_built)
            {
                s.timed += 1;
                s.front_end_time += fe;
                s.pipeline_time += p;
                s.gcc_time += g;
                if let Some(gs) = r.gcc_s_time {
                    s.gcc_s_timed += 1;
                    s.gcc_s_time += gs;
                    s.phicc_time_vs_s += fe + p;
                }
            }
        }
        s
    }

    /// The summary text.
    pub fn render(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "\n== csmith summary ({} programs, {:.1} s)",
            self.programs,
            self.wall.as_secs_f64()
        );
        let rows = [
            ("compiled (front end accepted)", self.compiled),
            ("matched gcc at every stage", self.matched),
            ("MISMATCHED", self.mismatched),
            ("SUSPECT (gcc never ends, lowered does)", self.suspect),
            ("unsupported (front-end error)", self.unsupported),
            ("reference timeouts", self.reference_timeouts),
            (
                "  of which lowered ran on past the probe",
                self.timeouts_running_on,
            ),
            (
                "reference invalid (gcc rejects / crash)",
                self.reference_invalid,
            ),
            ("oracle invalid (fuel / external)", self.oracle_invalid),
            ("csmith failed", self.generator_failed),
            ("undefined (UB judge)", self.undefined.values().sum()),
        ];
        for (label, n) in rows {
            let _ = writeln!(o, "  {label:<42} {n:>6}");
        }
        for (category, n) in &self.undefined {
            let label = format!("  ub:{category}");
            let _ = writeln!(o, "  {label:<42} {n:>6}");
        }
        if !self.native.is_empty() {
            let _ = writeln!(
                o,
                "native stages (seeds judged at every stage also run natively):"
            );
            for (stage, c) in &self.native {
                let list = |m: &BTreeMap<String, usize>| {
                    if m.is_empty() {
                        "0".to_string()
                    } else {
                        let parts: Vec<String> =
                            m.iter().map(|(k, n)| format!("{k} {n}")).collect();
                        format!("{} ({})", m.values().sum::<usize>(), parts.join(", "))
                    }
                };
                let _ = writeln!(
                    o,
                    "  {stage:<22} matched {:>5}  FAILED {}  no verdict {}",
                    c.agreed,
                    list(&c.failed),
                    list(&c.discarded)
                );
            }
        }
        if !self.mismatches.is_empty() {
            let _ = writeln!(o, "mismatches (first mismatching stage):");
            for (seed, stage, detail, place) in &self.mismatches {
                let _ = writeln!(o, "  seed {seed}: {stage}: {detail}  [{place}]");
            }
        }
        if !self.suspects.is_empty() {
            let _ = writeln!(o, "suspects:");
            for (seed, detail, place) in &self.suspects {
                let _ = writeln!(o, "  seed {seed}: {detail}  [{place}]");
            }
        }
        if !self.unsupported_list.is_empty() {
            let _ = writeln!(o, "unsupported (first front-end error):");
            for (seed, m) in &self.unsupported_list {
                let _ = writeln!(o, "  seed {seed}: {m}");
            }
            let _ = writeln!(o, "front-end errors by kind:");
            let mut kinds: Vec<_> = self.histogram.iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (kind, n) in kinds {
                let _ = writeln!(o, "  {n:>6}  {kind}");
            }
        }
        if !self.other_invalid.is_empty() {
            let _ = writeln!(o, "other invalid inputs:");
            for (seed, m) in &self.other_invalid {
                let _ = writeln!(o, "  seed {seed}: {m}");
            }
        }
        if self.timed > 0 {
            let n = self.timed as f64;
            let phicc = self.front_end_time + self.pipeline_time;
            let _ = writeln!(
                o,
                "compile time over the {} programs both compiled (sum; mean per program):",
                self.timed
            );
            let _ = writeln!(
                o,
                "  phicc front end + pipeline (in-process)  {:>10.1} ms  {:>8.2} ms  (front end {:.1} ms, pipeline {:.1} ms)",
                ms(phicc),
                ms(phicc) / n,
                ms(self.front_end_time),
                ms(self.pipeline_time)
            );
            let _ = writeln!(
                o,
                "  gcc -O0 -w (process: compile+as+ld)      {:>10.1} ms  {:>8.2} ms",
                ms(self.gcc_time),
                ms(self.gcc_time) / n
            );
            if self.gcc_s_timed > 0 {
                let _ = writeln!(
                    o,
                    "  gcc -O0 -w -S (to assembly, {} programs) {:>10.1} ms  {:>8.2} ms  (phicc on them: {:.1} ms)",
                    self.gcc_s_timed,
                    ms(self.gcc_s_time),
                    ms(self.gcc_s_time) / self.gcc_s_timed as f64,
                    ms(self.phicc_time_vs_s)
                );
            }
            if phicc > Duration::ZERO {
                let _ = writeln!(
                    o,
                    "  gcc build / phicc = {:.2}",
                    self.gcc_time.as_secs_f64() / phicc.as_secs_f64()
                );
            }
            if self.phicc_time_vs_s > Duration::ZERO {
                let _ = writeln!(
                    o,
                    "  gcc -S / phicc = {:.2}",
                    self.gcc_s_time.as_secs_f64() / self.phicc_time_vs_s.as_secs_f64()
                );
            }
        }
        let _ = writeln!(
            o,
            "{} matched, {} mismatched, {} unsupported, {} reference timeouts",
            self.matched, self.mismatched, self.unsupported, self.reference_timeouts
        );
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_kinds_drop_locations_and_names() {
        assert_eq!(
            error_kind("a.c:3:4: error: use of undeclared identifier `foo`"),
            "use of undeclared identifier `…`"
        );
        assert_eq!(
            error_kind("b.c:9:1: error: use of undeclared identifier `bar`"),
            "use of undeclared identifier `…`"
        );
        assert_eq!(error_kind("phicc: error: x"), "x");
        assert_eq!(
            error_kind("c.c:1:2: error: '_Complex' types can't be used"),
            "'…' types can't be used"
        );
    }

    fn result(seed: u64, verdict: Verdict, fe: Option<u64>, gcc: Option<u64>) -> SeedResult {
        SeedResult {
            seed,
            verdict,
            program: String::new(),
            reference: gcc.map(|_| NativeOutcome::Exited {
                code: 0,
                stdout: Vec::new(),
            }),
            judgement: None,
            front_end_time: fe.map(Duration::from_millis),
            pipeline_time: fe.map(Duration::from_millis),
            gcc_time: gcc.map(Duration::from_millis),
            gcc_s_time: gcc.map(|g| Duration::from_millis(g / 2)),
            native: None,
        }
    }

    #[test]
    fn counts_add_up_and_times_cover_programs_both_compiled() {
        let results = vec![
            (result(1, Verdict::Matched, Some(2), Some(10)), None),
            (
                result(
                    2,
                    Verdict::Mismatched {
                        stage: "gvn".into(),
                        detail: "exit 3".into(),
                    },
                    Some(3),
                    Some(20),
                ),
                Some(Ok(PathBuf::from("x"))),
            ),
            (
                result(
                    3,
                    Verdict::Unsupported("a.c:1:1: error: no `x`".into()),
                    None,
                    Some(5),
                ),
                None,
            ),
            (
                result(
                    4,
                    Verdict::ReferenceTimeout(TimeoutProbe::RunsOn { steps: 9 }),
                    Some(1),
                    Some(7),
                ),
                None,
            ),
            (
                result(5, Verdict::Suspect("exit 0".into()), None, None),
                Some(Ok(PathBuf::from("y"))),
            ),
        ];
        let s = Summary::new(&results, Duration::from_secs(1));
        assert_eq!(
            (s.matched, s.mismatched, s.unsupported, s.reference_timeouts),
            (1, 1, 1, 1)
        );
        assert_eq!((s.timeouts_running_on, s.suspect), (1, 1));
        assert_eq!(s.programs, 5);
        assert_eq!(s.compiled, 3);
        // Seeds 1, 2 and 4: phicc 2*(2+3+1) = 12 ms, gcc 10+20+7 = 37 ms.
        assert_eq!(s.timed, 3);
        assert_eq!(
            s.front_end_time + s.pipeline_time,
            Duration::from_millis(12)
        );
        assert_eq!(s.gcc_time, Duration::from_millis(37));
        // -S: 5 + 10 + 3 = 18 ms over the same three programs.
        assert_eq!(s.gcc_s_timed, 3);
        assert_eq!(s.gcc_s_time, Duration::from_millis(18));
        assert_eq!(s.phicc_time_vs_s, Duration::from_millis(12));
        assert_eq!(s.histogram.get("no `…`"), Some(&1));
        let text = s.render();
        assert!(text.contains("seed 2: gvn: exit 3"), "{text}");
        assert!(text.contains("seed 5: exit 0  [y]"), "{text}");
        assert!(text.ends_with("1 matched, 1 mismatched, 1 unsupported, 1 reference timeouts\n"));
    }
}
