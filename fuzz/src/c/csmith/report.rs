//! `bench csmith`'s summary: the classification counts, the programs behind them, the
//! front-end errors by kind, the native stages' counts and the compile-time comparison
//! with gcc, from the bench's per-program records (`measurements`) and the engine's
//! native tallies.
//!
//! Invariants: the counts add up to the number of programs judged; times are summed only
//! over programs that both phicc and gcc compiled, so the two totals compare the same
//! programs; findings and suspects name the directory the engine saved them in.

use super::measurements::{Class, ProgramRecord};
use crate::native::StageTally;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

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

/// Where a kept program went, for the summary.
fn place(saved: &Option<PathBuf>) -> String {
    match saved {
        Some(p) => p.display().to_string(),
        None => "not saved (past --keep-per-signature: a seed line)".into(),
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
    /// Native stage -> its counts over the programs that ran it.
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
    /// Sums `records` (by seed) and the engine's native tallies (`native`: the programs
    /// every stage agreed on).
    pub fn new(
        records: &BTreeMap<u64, ProgramRecord>,
        native: &BTreeMap<String, StageTally>,
        wall: Duration,
    ) -> Summary {
        let mut s = Summary {
            programs: records.len(),
            wall,
            ..Summary::default()
        };
        for (stage, tally) in native {
            let c = s.native.entry(stage.clone()).or_default();
            c.agreed += tally.programs as usize;
            for (why, n) in &tally.discarded {
                *c.discarded.entry(reason_kind(why)).or_default() += *n as usize;
            }
        }
        for (&seed, r) in records {
            if r.times.front_end.is_some() {
                s.compiled += 1;
            }
            let detail = r.detail.clone();
            match r.class.as_ref() {
                None => {}
                Some(Class::Matched) => s.matched += 1,
                Some(Class::Mismatched { stage, kind }) => {
                    s.mismatched += 1;
                    if stage.starts_with("native:") {
                        let c = s.native.entry(stage.clone()).or_default();
                        *c.failed.entry(kind.clone()).or_default() += 1;
                    }
                    s.mismatches
                        .push((seed, stage.clone(), detail, place(&r.saved)));
                }
                Some(Class::Suspect) => {
                    s.suspect += 1;
                    s.suspects.push((seed, detail, place(&r.saved)));
                }
                Some(Class::Unsupported) => {
                    s.unsupported += 1;
                    *s.histogram.entry(error_kind(&detail)).or_default() += 1;
                    s.unsupported_list.push((seed, detail));
                }
                Some(Class::ReferenceTimeout { runs_on }) => {
                    s.reference_timeouts += 1;
                    if *runs_on {
                        s.timeouts_running_on += 1;
                    } else {
                        s.other_invalid
                            .push((seed, format!("reference timeout; {detail}")));
                    }
                }
                Some(Class::ReferenceInvalid) => {
                    s.reference_invalid += 1;
                    s.other_invalid.push((seed, detail));
                }
                Some(Class::OracleInvalid) => {
                    s.oracle_invalid += 1;
                    s.other_invalid.push((seed, detail));
                }
                Some(Class::CsmithFailed) => {
                    s.generator_failed += 1;
                    s.other_invalid.push((seed, detail));
                }
                Some(Class::Undefined { category }) => {
                    *s.undefined.entry(category.clone()).or_default() += 1;
                    s.other_invalid
                        .push((seed, format!("undefined ({category}): {detail}")));
                }
            }
            let t = &r.times;
            if let (Some(fe), Some(p), Some(g)) = (t.front_end, t.pipeline, t.gcc_build) {
                s.timed += 1;
                s.front_end_time += fe;
                s.pipeline_time += p;
                s.gcc_time += g;
                if let Some(gs) = t.gcc_s {
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
    use super::super::measurements::Times;
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

    fn record(class: Class, fe: Option<u64>, gcc: Option<u64>) -> ProgramRecord {
        let ms = |v: u64| Duration::from_millis(v);
        ProgramRecord {
            class: Some(class),
            detail: "d".into(),
            saved: None,
            times: Times {
                front_end: fe.map(ms),
                pipeline: fe.map(|v| ms(v / 2)),
                gcc_build: gcc.map(ms),
                gcc_s: gcc.map(|v| ms(v / 2)),
            },
            reference: None,
        }
    }

    #[test]
    fn counts_and_times_add_up() {
        let mut records = BTreeMap::new();
        records.insert(1, record(Class::Matched, Some(4), Some(10)));
        let mismatch = Class::Mismatched {
            stage: "native:i686".into(),
            kind: "mismatch".into(),
        };
        records.insert(2, record(mismatch, Some(2), Some(20)));
        let mut unsupported = record(Class::Unsupported, None, Some(6));
        unsupported.detail = "csmith-3.c:1:2: error: no `x`".into();
        records.insert(3, unsupported);
        records.insert(
            4,
            record(Class::ReferenceTimeout { runs_on: true }, Some(2), None),
        );
        records.insert(5, record(Class::Suspect, Some(2), None));
        let mut native = BTreeMap::new();
        native.insert(
            "native:i686".to_string(),
            StageTally {
                programs: 1,
                ..StageTally::default()
            },
        );
        let s = Summary::new(&records, &native, Duration::from_secs(1));
        assert_eq!(
            (s.matched, s.mismatched, s.unsupported, s.reference_timeouts),
            (1, 1, 1, 1)
        );
        assert_eq!(
            (s.timeouts_running_on, s.suspect, s.programs, s.compiled),
            (1, 1, 5, 4)
        );
        // Seeds 1 and 2 only: phicc (4+2) + (2+1) = 9 ms, gcc 10+20 = 30 ms, -S 5+10.
        assert_eq!(s.timed, 2);
        assert_eq!(s.front_end_time + s.pipeline_time, Duration::from_millis(9));
        assert_eq!(s.gcc_time, Duration::from_millis(30));
        assert_eq!(s.gcc_s_time, Duration::from_millis(15));
        assert_eq!(s.histogram.get("no `…`"), Some(&1));
        let i686 = &s.native["native:i686"];
        assert_eq!((i686.agreed, i686.failed.get("mismatch")), (1, Some(&1)));
        let text = s.render();
        assert!(text.contains("seed 2: native:i686: d  ["), "{text}");
        assert!(text.contains("seed 5: d  ["), "{text}");
        assert!(text.ends_with("1 matched, 1 mismatched, 1 unsupported, 1 reference timeouts\n"));
    }
}
