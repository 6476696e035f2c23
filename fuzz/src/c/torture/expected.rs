//! The expected-failures list (`corpus/torture/expected-failures.txt`): every c-torture
//! test that does not pass, on which targets, and why — checked both ways.
//!
//! Why: the suite is a regression test only if a change in any test's outcome is seen.
//! A failure that is not listed fails the run (something broke, or a new test appeared);
//! a listed test that passes fails the run too, until its line is removed (progress is
//! recorded, and cannot silently regress later). A listed test whose failure changed
//! kind (refused → wrong code) fails the run: wrong code is never expected under another
//! name.
//!
//! Format: one line per (test, reason), `TEST TARGETS REASON`, e.g.
//! `20000112-1.c x86_64,i686,aarch64,riscv64 refused: 20000112-1.c:4:17: error: ...`;
//! TARGETS is a comma-separated list; REASON is [`Outcome::list_reason`] (the target's
//! name as `TARGET`, so one line covers the targets that fail alike): its first word is
//! the kind (`refused:`, `WRONG CODE`, `timeout`, `ub:`, `oracle-invalid`, `error`).
//! `#` starts a comment line. `--write-expected` writes the list from a run: the lines of
//! (test, target) pairs the run judged are replaced by what it saw, every other line is
//! kept (a run of a sample or of some targets rewrites only its part).
//!
//! Invariant: the reason's *kind* is part of the check, its text is not (messages change
//! as the front end grows): a changed text is reported as a note, never a failure.

use super::outcome::{Kind, Outcome};
use super::suite::TargetKey;
use compiler::target::Target;
use std::collections::BTreeMap;
use std::path::Path;

/// One (test, target) the list expects to fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    pub kind: Kind,
    pub reason: String,
    /// Line number in the file (1-based).
    pub line: usize,
}

/// The parsed list: (test, target) → its expectation.
pub type ExpectedList = BTreeMap<(String, TargetKey), Expectation>;

/// A run's outcomes: (test, target) → outcome.
pub type Judged = BTreeMap<(String, TargetKey), Outcome>;

/// The kind a reason starts with.
pub fn kind_of_reason(reason: &str) -> Option<Kind> {
    if reason.starts_with("WRONG CODE") {
        return Some(Kind::WrongCode);
    }
    let word: String = reason
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    Kind::from_name(&word).filter(|k| *k != Kind::Pass && *k != Kind::WrongCode)
}

/// Parses the list; `Err` names the file, line and problem.
pub fn parse(text: &str, file: &str) -> Result<ExpectedList, String> {
    let mut out = ExpectedList::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, ' ');
        let (Some(test), Some(targets), Some(reason)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("{file}:{n}: expected `TEST TARGETS REASON`"));
        };
        let reason = reason.trim();
        let kind = kind_of_reason(reason).ok_or_else(|| {
            format!("{file}:{n}: the reason must start with refused:, WRONG CODE, timeout, ub, oracle-invalid or error")
        })?;
        for t in targets.split(',') {
            let target =
                Target::from_name(t).ok_or_else(|| format!("{file}:{n}: unknown target `{t}`"))?;
            let e = Expectation {
                kind,
                reason: reason.to_string(),
                line: n,
            };
            if let Some(first) = out.insert((test.to_string(), TargetKey(target)), e) {
                return Err(format!(
                    "{file}:{n}: {test} on {t} is listed twice (first on line {})",
                    first.line
                ));
            }
        }
    }
    Ok(out)
}

/// Reads the list at `path`; a missing file is an empty list.
pub fn read(path: &Path) -> Result<ExpectedList, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ExpectedList::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// What checking a run against the list found.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// Failures of the run: unlisted failures, listed tests that pass, changed kinds.
    pub problems: Vec<String>,
    /// Changed reason texts of the same kind, and listed tests this run did not judge
    /// although it ran them (gcc's binary is not clean here).
    pub notes: Vec<String>,
}

/// Checks the judged (test, target) outcomes of a run against `list`. `ran` is the set
/// of (test, target) the run considered (judged or left out by the selection), so lines
/// for other tests or targets are not reported.
pub fn compare(judged: &Judged, ran: &[(String, TargetKey)], list: &ExpectedList) -> Comparison {
    let mut c = Comparison::default();
    for ((test, TargetKey(target)), o) in judged {
        let key = (test.clone(), TargetKey(*target));
        match (o.kind, list.get(&key)) {
            (Kind::Pass, None) => {}
            (Kind::Pass, Some(e)) => c.problems.push(format!(
                "{test} on {}: passes now, but line {} of the list expects `{}`: remove it (or --write-expected)",
                target.name(),
                e.line,
                e.reason
            )),
            (_, None) => c.problems.push(format!(
                "{test} on {}: {} — not in the expected-failures list",
                target.name(),
                o.reason()
            )),
            (k, Some(e)) if k != e.kind => c.problems.push(format!(
                "{test} on {}: {} — line {} of the list expects `{}`",
                target.name(),
                o.reason(),
                e.line,
                e.reason
            )),
            (_, Some(e)) if e.reason != o.list_reason(*target) => c.notes.push(format!(
                "{test} on {}: the reason changed: now `{}`, line {} says `{}`",
                target.name(),
                o.list_reason(*target),
                e.line,
                e.reason
            )),
            _ => {}
        }
    }
    for ((test, TargetKey(target)), e) in list {
        let key = (test.clone(), TargetKey(*target));
        if !judged.contains_key(&key) && ran.contains(&key) {
            c.notes.push(format!(
                "{test} on {}: listed on line {}, but gcc -O0's binary is not clean here, so it was not judged",
                target.name(),
                e.line
            ));
        }
    }
    c
}

/// The list's text after a run: `old`'s lines for (test, target) pairs not in
/// `judged`, and a line per (test, reason) for every failure of `judged`, targets in
/// [`Target::ALL`] order, tests sorted by name.
pub fn render(old: &ExpectedList, judged: &Judged) -> String {
    // test → reason → targets
    let mut lines: BTreeMap<String, BTreeMap<String, Vec<Target>>> = BTreeMap::new();
    for ((test, TargetKey(target)), e) in old {
        if !judged.contains_key(&(test.clone(), TargetKey(*target))) {
            lines
                .entry(test.clone())
                .or_default()
                .entry(e.reason.clone())
                .or_default()
                .push(*target);
        }
    }
    for ((test, TargetKey(target)), o) in judged {
        if o.kind != Kind::Pass {
            lines
                .entry(test.clone())
                .or_default()
                .entry(o.list_reason(*target))
                .or_default()
                .push(*target);
        }
    }
    let mut out = String::from(
        "# gcc c-torture tests (gcc.c-torture/execute) that phicc does not pass, per target.\n\
         # Checked both ways by `phihunt torture` (scripts/c-torture.sh, fuzz/tests/torture.rs):\n\
         # a failure not listed here fails the run, and so does a listed test that passes.\n\
         # Regenerate with `phihunt torture DIR --write-expected` and review the diff;\n\
         # WRONG CODE lines are miscompiles: each one is a bug to fix, never to keep.\n\
         # TEST TARGETS REASON\n",
    );
    for (test, reasons) in lines {
        for (reason, mut targets) in reasons {
            targets.sort_by_key(|t| Target::ALL.iter().position(|a| a == t));
            targets.dedup();
            let names: Vec<&str> = targets.iter().map(|t| t.name()).collect();
            out.push_str(&format!("{test} {} {reason}\n", names.join(",")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(rows: &[(&str, Target, Outcome)]) -> Judged {
        rows.iter()
            .map(|(t, tg, o)| ((t.to_string(), TargetKey(*tg)), o.clone()))
            .collect()
    }

    #[test]
    fn the_list_is_checked_both_ways_and_by_kind() {
        let list = parse(
            "# c\na.c x86_64,i686 refused: a.c:1:1: error: x\nb.c x86_64 WRONG CODE at gvn: exit 1\nc.c x86_64 refused: c.c:2:2: error: y\n",
            "list",
        )
        .unwrap();
        assert_eq!(list.len(), 4);
        let refused = |m: &str| Outcome::new(Kind::Refused, "", m);
        let run = judged(&[
            ("a.c", Target::X86_64, refused("a.c:1:1: error: x")),
            ("a.c", Target::I686, refused("a.c:1:1: error: changed")),
            ("b.c", Target::X86_64, Outcome::pass()),
            (
                "c.c",
                Target::X86_64,
                Outcome::new(Kind::WrongCode, "native:x86_64", "exit 1"),
            ),
            (
                "d.c",
                Target::X86_64,
                Outcome::new(Kind::Timeout, "", "slow"),
            ),
        ]);
        let ran: Vec<_> = run.keys().cloned().collect();
        let c = compare(&run, &ran, &list);
        assert_eq!(c.problems.len(), 3, "{:?}", c.problems);
        assert!(c.problems[0].starts_with("b.c on x86_64: passes now"));
        assert!(c.problems[1].contains("WRONG CODE at native:x86_64"));
        assert!(c.problems[2].starts_with("d.c on x86_64: timeout: slow — not in"));
        assert_eq!(c.notes.len(), 1, "{:?}", c.notes);
        let text = render(&list, &run);
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(
            body,
            [
                "a.c i686 refused: a.c:1:1: error: changed",
                "a.c x86_64 refused: a.c:1:1: error: x",
                // The target is in the TARGETS column: the reason says native:TARGET.
                "c.c x86_64 WRONG CODE at native:TARGET: exit 1",
                "d.c x86_64 timeout: slow",
            ]
        );
        assert_eq!(parse(&text, "again").unwrap().len(), 4);
    }

    #[test]
    fn bad_lines_are_errors_with_their_place() {
        assert!(parse("a.c x86_64\n", "f").unwrap_err().starts_with("f:1:"));
        assert!(parse("a.c sparc refused: x\n", "f")
            .unwrap_err()
            .contains("sparc"));
        assert!(parse("a.c x86_64 fine\n", "f").is_err());
        assert!(parse("a.c x86_64 pass\n", "f").is_err());
        let twice = "a.c x86_64 refused: x\na.c x86_64 error: y\n";
        assert!(parse(twice, "f").unwrap_err().contains("listed twice"));
    }
}
