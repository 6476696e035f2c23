//! The report of a c-torture run: a table per target (pass, refused, wrong code,
//! timeout, ...) for the standard tests and for all, the refusal reasons grouped, and
//! every test that is not a pass — printed, and written as `report.md` and
//! `summary.json` in the output folder.
//!
//! Why: the front-end, varargs and floats work of issue 14 is steered by this report:
//! the grouped refusals say what to build next, and the lists say exactly which test
//! fails where and why.
//!
//! Refusals are grouped by phicc's message with its place (`file:line:col: error: `)
//! removed and every quoted name replaced by `'…'`; each group shows its most frequent
//! names (`implicit declaration of function '…'`: abort ×120, exit ×80). A group counts
//! tests, not (test, target) pairs: a test refused on any target counts once.
//!
//! Two pass rates per row: of the judged pairs, and of the judged pairs the UB judge
//! calls defined (`pass / (judged - ub)`; a `ub` pair has no meaning to pass). For the UB
//! pairs the report also counts whether phicc's binaries behaved like gcc's
//! (`Outcome::ub_natives`), as information only.
//!
//! Invariant: every number in the tables is a count of (test, target) pairs judged, and
//! the columns of a row add up to its `judged` column.

use super::outcome::Kind;
use super::run::{Cell, SuiteRun, TestRecord};
use super::suite::TargetKey;
use compiler::target::Target;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

/// Counts of one row: judged pairs by kind, and pairs not selected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub listed: usize,
    pub not_selected: usize,
    pub by_kind: BTreeMap<Kind, usize>,
}

impl Row {
    pub fn judged(&self) -> usize {
        self.by_kind.values().sum()
    }

    pub fn count(&self, k: Kind) -> usize {
        self.by_kind.get(&k).copied().unwrap_or(0)
    }

    /// Passes as a percentage of the judged pairs.
    pub fn pass_percent(&self) -> f64 {
        percent(self.count(Kind::Pass), self.judged())
    }

    /// Passes as a percentage of the judged pairs the UB judge calls defined
    /// (`pass / (judged - ub)`): how phicc does on the tests that have one meaning.
    pub fn pass_percent_of_defined(&self) -> f64 {
        percent(self.count(Kind::Pass), self.judged() - self.count(Kind::Ub))
    }
}

/// `100 * part / whole`, 0 for an empty whole.
fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The row of `target` over the records `keep` selects.
pub fn row(run: &SuiteRun, target: Target, keep: impl Fn(&TestRecord) -> bool) -> Row {
    let mut r = Row::default();
    for rec in run.records.iter().filter(|r| keep(r)) {
        match rec.cells.get(&TargetKey(target)) {
            Some(Cell::Judged(o)) => {
                r.listed += 1;
                *r.by_kind.entry(o.kind).or_default() += 1;
            }
            Some(Cell::NotSelected(_)) => {
                r.listed += 1;
                r.not_selected += 1;
            }
            None => {}
        }
    }
    r
}

/// A markdown table: one row per target. The two percentages: passes of the judged
/// pairs, and passes of the judged pairs the UB judge calls defined.
pub fn table(run: &SuiteRun, keep: impl Fn(&TestRecord) -> bool) -> String {
    let mut s = String::from("| target | tests | gcc -O0 clean (judged) |");
    for k in Kind::ALL {
        s.push_str(&format!(" {} |", k.header()));
    }
    s.push_str(" pass % of judged | pass % of defined (judged − ub) |\n|---|---:|---:|");
    for _ in Kind::ALL {
        s.push_str("---:|");
    }
    s.push_str("---:|---:|\n");
    for &t in &run.targets {
        let r = row(run, t, &keep);
        s.push_str(&format!("| {} | {} | {} |", t.name(), r.listed, r.judged()));
        for k in Kind::ALL {
            s.push_str(&format!(" {} |", r.count(k)));
        }
        s.push_str(&format!(
            " {:.1} | {:.1} |\n",
            r.pass_percent(),
            r.pass_percent_of_defined()
        ));
    }
    s
}

/// A refusal message without its place, quoted names as `'…'`; and the names.
pub fn refusal_group(detail: &str) -> (String, Vec<String>) {
    // `FILE:LINE:COL: error: message` → `message`
    let message = match detail.find(": error: ") {
        Some(i) => &detail[i + ": error: ".len()..],
        None => detail,
    };
    let mut group = String::new();
    let mut names = Vec::new();
    let mut rest = message;
    // Quotes open with ' or ` (and gcc's ‘) and close with ' (or ’).
    while let Some(open) = rest.find(['\'', '`', '‘']) {
        let width = rest[open..].chars().next().map_or(1, char::len_utf8);
        let after = &rest[open + width..];
        match after.find(['\'', '’']) {
            Some(close) => {
                group.push_str(&rest[..open]);
                group.push_str("'…'");
                names.push(after[..close].to_string());
                let close_width = after[close..].chars().next().map_or(1, char::len_utf8);
                rest = &after[close + close_width..];
            }
            None => break,
        }
    }
    group.push_str(rest);
    (group, names)
}

/// One group of refusals.
#[derive(Clone, Debug, Default)]
pub struct RefusalGroup {
    pub message: String,
    /// Tests refused with this message (on any target).
    pub tests: Vec<String>,
    pub standard_tests: usize,
    /// Quoted names and how many tests each.
    pub names: BTreeMap<String, usize>,
}

/// An internal error's message as a group: the target's name as `TARGET`, the section
/// offset of a link error (`(.text+0x1c)`) dropped, then as [`refusal_group`].
pub fn error_group(detail: &str) -> (String, Vec<String>) {
    let mut d = detail.to_string();
    for t in Target::ALL {
        d = super::outcome::generic_reason(&d, t);
    }
    // The apostrophes of `TARGET's gcc rejects phicc's assembly` are not quotes.
    let d = d.replace(
        "TARGET's gcc rejects phicc's assembly",
        "the target gcc rejects phicc assembly",
    );
    refusal_group(d.trim())
}

/// The oracle's reason without its parenthesised list, `@name` as `@…` (and the names).
pub fn oracle_group(detail: &str) -> (String, Vec<String>) {
    let short = detail.split(" (").next().unwrap_or(detail);
    let mut names = Vec::new();
    let words: Vec<String> = short
        .split(' ')
        .map(|w| match w.strip_prefix('@') {
            Some(name) => {
                names.push(name.to_string());
                "@…".to_string()
            }
            None => w.to_string(),
        })
        .collect();
    (words.join(" "), names)
}

/// The refusal groups, most tests first (ties by message).
pub fn refusal_groups(run: &SuiteRun) -> Vec<RefusalGroup> {
    groups_of(run, Kind::Refused)
}

/// The groups of the outcomes of `kind` (refusals by [`refusal_group`], others by
/// [`error_group`]), most tests first (ties by message).
pub fn groups_of(run: &SuiteRun, kind: Kind) -> Vec<RefusalGroup> {
    let mut groups: BTreeMap<String, RefusalGroup> = BTreeMap::new();
    for rec in &run.records {
        // A test's message per group, once.
        let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for cell in rec.cells.values() {
            if let Cell::Judged(o) = cell {
                if o.kind == kind {
                    let (g, names) = match kind {
                        Kind::Refused => refusal_group(&o.detail),
                        // `SignedOverflow: UB SignedOverflow at ...`: by category.
                        Kind::Ub => (
                            o.detail.split(':').next().unwrap_or("").to_string(),
                            Vec::new(),
                        ),
                        Kind::OracleInvalid => oracle_group(&o.detail),
                        _ => error_group(&format!("{}: {}", o.stage, o.detail)),
                    };
                    seen.entry(g).or_insert(names);
                }
            }
        }
        for (g, names) in seen {
            let e = groups.entry(g.clone()).or_default();
            e.message = g;
            e.tests.push(rec.name.clone());
            if rec.standard() {
                e.standard_tests += 1;
            }
            let mut names = names;
            names.sort();
            names.dedup();
            for n in names {
                *e.names.entry(n).or_default() += 1;
            }
        }
    }
    let mut v: Vec<RefusalGroup> = groups.into_values().collect();
    v.sort_by(|a, b| {
        b.tests
            .len()
            .cmp(&a.tests.len())
            .then(a.message.cmp(&b.message))
    });
    v
}

/// `abort ×12, exit ×3` for a group's most frequent names (at most `n`).
fn top_names(g: &RefusalGroup, n: usize) -> String {
    let mut v: Vec<(&String, &usize)> = g.names.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = v.iter().take(n).map(|(k, c)| format!("{k} ×{c}")).collect();
    let more = v.len().saturating_sub(n);
    if more > 0 {
        format!("{} (+{more} more)", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The tests of `kind` on any target: `TEST (standard): TARGETS: reason` lines (for UB,
/// with what phicc's binaries did: `; phicc's natives: like gcc`).
fn listing(run: &SuiteRun, kind: Kind) -> Vec<String> {
    let mut out = Vec::new();
    for rec in &run.records {
        let mut by_reason: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for (t, cell) in &rec.cells {
            if let Cell::Judged(o) = cell {
                if o.kind == kind {
                    let line = if o.ub_natives.is_empty() {
                        o.reason()
                    } else {
                        format!("{}; phicc's natives: {}", o.reason(), o.ub_natives)
                    };
                    by_reason.entry(line).or_default().push(t.0.name());
                }
            }
        }
        for (reason, targets) in by_reason {
            let std = if rec.standard() { " (standard)" } else { "" };
            out.push(format!(
                "{}{std} on {}: {reason}",
                rec.name,
                targets.join(",")
            ));
        }
    }
    out
}

/// A markdown table of the top `top` groups of `kind` (see [`groups_of`]).
fn group_table(run: &SuiteRun, kind: Kind, title: &str, top: usize) -> String {
    let groups = groups_of(run, kind);
    let mut s = format!(
        "\n## {title} ({} groups; tests with it on any target)\n\n| # | tests | standard | phicc's message | most frequent names | examples |\n|---:|---:|---:|---|---|---|\n",
        groups.len()
    );
    for (i, g) in groups.iter().take(top).enumerate() {
        let examples: Vec<&str> = g.tests.iter().take(3).map(String::as_str).collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            i + 1,
            g.tests.len(),
            g.standard_tests,
            g.message.replace('|', "\\|"),
            top_names(g, 5).replace('|', "\\|"),
            examples.join(", ")
        ));
    }
    s
}

/// The whole markdown report. `top` is how many refusal groups are shown.
pub fn markdown(run: &SuiteRun, top: usize) -> String {
    let standard = run.records.iter().filter(|r| r.standard()).count();
    let mut s = String::from("# gcc c-torture (gcc.c-torture/execute) through phicc\n\n");
    s.push_str(&format!(
        "{} tests, {standard} standard (ISO C89 or C11 under gcc -pedantic-errors, no floats, no varargs); judged in {:.0} s.\n\n",
        run.records.len(),
        run.elapsed.as_secs_f64()
    ));
    for (t, v) in &run.gcc_versions {
        s.push_str(&format!("- {}: {v}\n", t.name()));
    }
    s.push_str("\nA test is judged on a target when gcc -O0's binary of it exits 0 there (\"gcc -O0 clean\"); it passes when every stage in the oracle and phicc's binaries on the target exit 0 with gcc's stdout.\n\n");
    s.push_str("## Standard tests\n\n");
    s.push_str(&table(run, |r| r.standard()));
    s.push_str("\n## All tests\n\n");
    s.push_str(&table(run, |_| true));
    s.push_str("\n## Not judged: gcc -O0's build or run is not clean\n\n| target | reason | tests |\n|---|---|---:|\n");
    for &t in &run.targets {
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for rec in &run.records {
            if let Some(Cell::NotSelected(v)) = rec.cells.get(&TargetKey(t)) {
                let r = super::selection::Reference {
                    source_hash: String::new(),
                    verdict: v.clone(),
                    stdout: Vec::new(),
                    run_ms: 0,
                };
                *reasons.entry(r.reason_class()).or_default() += 1;
            }
        }
        for (r, n) in reasons {
            s.push_str(&format!("| {} | {r} | {n} |\n", t.name()));
        }
    }
    for (kind, title) in [
        (Kind::Refused, "Top refusal reasons"),
        (Kind::Error, "Top phicc error reasons"),
        (Kind::Ub, "Top UB judge reasons"),
        (
            Kind::OracleInvalid,
            "Top reasons the oracle gives no verdict",
        ),
    ] {
        s.push_str(&group_table(run, kind, title, top));
    }
    for (kind, title) in [
        (Kind::WrongCode, "Wrong code"),
        (
            Kind::Error,
            "phicc errors (panics, verifier, backend, assembler, crashes)",
        ),
        (Kind::Timeout, "Timeouts"),
        (Kind::Ub, "Undefined behaviour found by the UB judge"),
        (Kind::OracleInvalid, "No oracle verdict"),
    ] {
        let lines = listing(run, kind);
        s.push_str(&format!("\n## {title} ({} lines)\n\n", lines.len()));
        if kind == Kind::Ub {
            s.push_str(&ub_natives_summary(run));
        }
        for l in lines {
            s.push_str(&format!("- {}\n", l.replace('\n', " ")));
        }
    }
    s
}

/// How phicc's binaries compare with gcc's on the pairs the UB judge calls undefined, per
/// target (information only: those pairs stay `ub`).
fn ub_natives_summary(run: &SuiteRun) -> String {
    let mut s = String::from("phicc's binaries against gcc -O0's on these pairs (information, not a verdict: the tests stay `ub`):\n\n| target | ub | natives like gcc | natives differ | not run |\n|---|---:|---:|---:|---:|\n");
    for &t in &run.targets {
        let (mut ub, mut like, mut differ) = (0, 0, 0);
        for rec in &run.records {
            if let Some(Cell::Judged(o)) = rec.cells.get(&TargetKey(t)) {
                if o.kind == Kind::Ub {
                    ub += 1;
                    if o.ub_natives == super::outcome::UB_NATIVES_LIKE_GCC {
                        like += 1;
                    } else if !o.ub_natives.is_empty() {
                        differ += 1;
                    }
                }
            }
        }
        s.push_str(&format!(
            "| {} | {ub} | {like} | {differ} | {} |\n",
            t.name(),
            ub - like - differ
        ));
    }
    s.push('\n');
    s
}

/// `summary.json`: the tables, the refusal groups and every test's cells.
pub fn summary_json(run: &SuiteRun) -> serde_json::Value {
    let rows = |keep: &dyn Fn(&TestRecord) -> bool| -> serde_json::Value {
        run.targets
            .iter()
            .map(|&t| {
                let r = row(run, t, keep);
                let kinds: serde_json::Map<String, serde_json::Value> = Kind::ALL
                    .iter()
                    .map(|k| (k.name().to_string(), json!(r.count(*k))))
                    .collect();
                (
                    t.name().to_string(),
                    json!({"tests": r.listed, "judged": r.judged(), "not_selected": r.not_selected, "outcomes": kinds, "pass_percent": r.pass_percent(), "pass_percent_of_defined": r.pass_percent_of_defined()}),
                )
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let tests: Vec<serde_json::Value> = run
        .records
        .iter()
        .map(|rec| {
            let cells: serde_json::Map<String, serde_json::Value> = rec
                .cells
                .iter()
                .map(|(t, c)| {
                    let v = match c {
                        Cell::Judged(o) => json!(o),
                        Cell::NotSelected(why) => json!({"kind": "not-selected", "detail": why}),
                    };
                    (t.0.name().to_string(), v)
                })
                .collect();
            json!({
                "test": rec.name,
                "standard": rec.standard(),
                "class": rec.class,
                "targets": cells,
            })
        })
        .collect();
    let groups: Vec<serde_json::Value> = refusal_groups(run)
        .iter()
        .map(|g| json!({"message": g.message, "tests": g.tests.len(), "standard_tests": g.standard_tests, "names": g.names, "examples": g.tests.iter().take(5).collect::<Vec<_>>()}))
        .collect();
    json!({
        "tests": run.records.len(),
        "standard": run.records.iter().filter(|r| r.standard()).count(),
        "elapsed_s": run.elapsed.as_secs_f64(),
        "gcc": run.gcc_versions.iter().map(|(t, v)| (t.name().to_string(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "table_standard": rows(&|r: &TestRecord| r.standard()),
        "table_all": rows(&|_: &TestRecord| true),
        "refusal_groups": groups,
        "results": tests,
    })
}

/// Writes `report.md` and `summary.json` into `out`.
pub fn write(run: &SuiteRun, out: &Path, top: usize) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::write(out.join("report.md"), markdown(run, top))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let json = serde_json::to_string_pretty(&summary_json(run)).map_err(|e| e.to_string())?;
    std::fs::write(out.join("summary.json"), json).map_err(|e| format!("{}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_percent_of_judged_and_of_defined() {
        let mut r = Row::default();
        r.by_kind.insert(Kind::Pass, 3);
        r.by_kind.insert(Kind::Ub, 1);
        r.by_kind.insert(Kind::Refused, 1);
        // 3 of 5 judged; 3 of the 4 the judge calls defined (by hand).
        assert_eq!(r.pass_percent(), 60.0);
        assert_eq!(r.pass_percent_of_defined(), 75.0);
        let only_ub = Row {
            by_kind: [(Kind::Ub, 2)].into_iter().collect(),
            ..Row::default()
        };
        assert_eq!(only_ub.pass_percent_of_defined(), 0.0);
    }

    #[test]
    fn refusals_group_without_place_and_names() {
        let (g, names) = refusal_group(
            "20000113-1.c:7:1: error: implicit declaration of function 'abort' ('x')",
        );
        assert_eq!(g, "implicit declaration of function '…' ('…')");
        assert_eq!(names, ["abort", "x"]);
        let (g, names) =
            refusal_group("a.c:4:17: error: old-style (K&R) parameter lists are not supported");
        assert_eq!(g, "old-style (K&R) parameter lists are not supported");
        assert!(names.is_empty());
    }

    #[test]
    fn link_errors_and_oracle_reasons_group_across_targets() {
        let a = error_group("native:i686: asm_rejected: i686's gcc rejects phicc's assembly: (.text+0x1c): undefined reference to `__builtin_abort'");
        let b = error_group("native:riscv64: asm_rejected: riscv64's gcc rejects phicc's assembly: (.text+0x8): undefined reference to `__builtin_abort'");
        assert_eq!(a, b);
        assert_eq!(a.1, ["__builtin_abort"]);
        let (g, names) = oracle_group("the oracle cannot run this input: external @sprintf is not in the oracle's libc subset (printf putchar)");
        assert_eq!(
            g,
            "the oracle cannot run this input: external @… is not in the oracle's libc subset"
        );
        assert_eq!(names, ["sprintf"]);
    }
}
