//! `phihunt reduce FILE.c`: shrink a C finding while it stays defined and keeps its
//! signature.
//!
//! Why: a compiler engineer wants a few lines that still show the real bug. This is an
//! in-process C reducer in C-Reduce's manner (source-level edits over a light syntax tree,
//! `syntax.rs`, `expr.rs`, `edits.rs`) whose interestingness test (`interesting.rs`)
//! first proves every candidate defined — the UB judge in the oracle, gcc's UB warnings
//! as errors, gcc -O0 printing what the oracle printed — and only then asks for the
//! finding's signature. So a reduction can never drift into undefined behaviour.
//!
//! The loop: every edit family in order, each edit at each place; a candidate is kept
//! when it is smaller (fewer tokens, or as many and fewer characters) and interesting;
//! after a kept candidate the family's list is rebuilt and the same index is tried again.
//! Rounds repeat until one changes nothing (the result is then 1-minimal for the edit
//! set) or the time budget runs out.
//!
//! Invariants: the result is never bigger than the input and always passes the test (the
//! printed input is tested first; if it fails, nothing is reduced and the reason is an
//! error); deterministic for a given input, goal and budget (up to where the budget cuts).

pub mod bench;
pub mod cc_goal;
pub mod cli;
pub mod corpus;
pub mod cvise;
pub mod edits;
pub mod expr;
pub mod finding;
pub mod interesting;
pub mod syntax;
pub mod tokens;

use crate::diff::Signature;
use compiler::pipeline::PipelineOptions;
use edits::{apply, Program, FAMILIES};
use interesting::{lint, CGoal, Check, Tester, LINT_FLAGS};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokens::{print, tokenize};

/// What a C reduction produced.
#[derive(Clone, Debug)]
pub struct CReduced {
    /// The reduced program (printed by [`tokens::print`]).
    pub text: String,
    pub lines_before: usize,
    pub lines_after: usize,
    pub tokens_before: usize,
    pub tokens_after: usize,
    /// Candidates judged (cache misses), answered from the cache, and kept.
    pub judged: usize,
    pub cache_hits: usize,
    pub kept: usize,
    /// True when a whole round kept nothing (1-minimal for the edit set).
    pub finished: bool,
    pub elapsed: Duration,
    /// The reduced program's exit status and stdout (gcc -O0, x86_64).
    pub status: i32,
    pub stdout: Vec<u8>,
    /// Rejected candidates by the step that rejected them.
    pub rejections: Vec<(String, usize)>,
}

/// Non-empty lines of `text`.
pub fn line_count(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Reduces the C program `text` while `tester`'s goal holds, for at most `budget`.
/// `Err` when the program does not pass the test to begin with (or the setup breaks).
pub fn reduce_c(text: &str, tester: &mut Tester, budget: Duration) -> Result<CReduced, String> {
    let start = Instant::now();
    let toks = tokenize(text).map_err(|e| e.to_string())?;
    let mut current =
        Program::new(toks).map_err(|e| format!("the reducer cannot parse the program: {e}"))?;
    let mut current_text = print(&current.toks);
    let (mut status, mut stdout) = match tester.check(&current_text)? {
        Check::Interesting { status, stdout } => (status, stdout),
        Check::Rejected { step, why } => {
            return Err(format!(
                "the program itself does not pass the test ({step}): {why}"
            ));
        }
    };
    let tokens_before = current.toks.len();
    let mut kept = 0;
    let mut finished = false;
    'rounds: loop {
        let mut progress = false;
        for (_name, family) in FAMILIES {
            let mut index = 0;
            let mut list = family(&current);
            while let Some(edit) = list.get(index) {
                if start.elapsed() > budget {
                    break 'rounds;
                }
                index += 1;
                let toks = apply(&current.toks, edit);
                let smaller = toks.len() < current.toks.len();
                if toks.len() > current.toks.len() {
                    continue;
                }
                let Ok(candidate) = Program::new(toks) else {
                    continue;
                };
                let text = print(&candidate.toks);
                if !smaller && text.len() >= current_text.len() {
                    continue;
                }
                if let Check::Interesting {
                    status: s,
                    stdout: o,
                } = tester.check(&text)?
                {
                    current = candidate;
                    current_text = text;
                    (status, stdout) = (s, o);
                    kept += 1;
                    progress = true;
                    // The list changed: the same index names the next place.
                    index -= 1;
                    list = family(&current);
                }
            }
        }
        if !progress {
            finished = true;
            break;
        }
    }
    Ok(CReduced {
        lines_before: line_count(text),
        lines_after: line_count(&current_text),
        tokens_before,
        tokens_after: current.toks.len(),
        text: current_text,
        judged: tester.judged,
        cache_hits: tester.cache_hits,
        kept,
        finished,
        elapsed: start.elapsed(),
        status,
        stdout,
        rejections: tester
            .rejections
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect(),
    })
}

/// The goal for reducing the C file at `path` with signature `signature`: the lint flags
/// the original passes (a flag the original itself trips is dropped, with a note).
pub fn goal_for(
    path: &Path,
    signature: &Signature,
    include_dirs: &[PathBuf],
) -> Result<(CGoal, Vec<String>), String> {
    let mut goal = CGoal::new(signature.clone());
    goal.include_dirs = include_dirs.to_vec();
    let mut notes = Vec::new();
    if lint(path, include_dirs, &goal.lint)?.is_err() {
        goal.lint.clear();
        for flag in LINT_FLAGS {
            match lint(path, include_dirs, &[flag.to_string()])? {
                Ok(()) => goal.lint.push(flag.to_string()),
                Err(why) => notes.push(format!(
                    "the original trips {flag}, dropped from the lint: {why}"
                )),
            }
        }
    }
    Ok((goal, notes))
}

/// The hook for the campaign: reduces the program at `program` (a finding's `program.c`)
/// keeping `signature`, for at most `budget`, with the seeded bugs already active on this
/// thread, through `pipeline` (the hunt's: passes it disabled stay off), rerunning `cc`
/// for a `*@cc` signature. `Err` when it cannot be reduced (the reason).
pub fn reduce_c_finding(
    program: &Path,
    signature: &Signature,
    budget: Duration,
    pipeline: &PipelineOptions,
    cc: Option<&crate::c::cc::CompilerUnderTest>,
) -> Result<CReduced, String> {
    let text =
        std::fs::read_to_string(program).map_err(|e| format!("{}: {e}", program.display()))?;
    let includes = crate::cli::with_csmith_include(Vec::new());
    let (mut goal, _) = goal_for(program, signature, &includes)?;
    goal.pipeline = pipeline.clone();
    goal.cc = cc.cloned();
    let mut tester = Tester::new(goal)?;
    reduce_c(&text, &mut tester, budget)
}

/// The single edits (family name, index) that still keep `tester`'s goal on `text`:
/// empty when `text` is 1-minimal for the edit set (what a finished [`reduce_c`]
/// promises). Costs one test per applicable edit (cached ones are free).
pub fn one_minimal_violations(
    text: &str,
    tester: &mut Tester,
) -> Result<Vec<(&'static str, usize)>, String> {
    let toks = tokenize(text).map_err(|e| e.to_string())?;
    let program = Program::new(toks)?;
    let printed = print(&program.toks);
    let mut violations = Vec::new();
    for (name, family) in FAMILIES {
        for (index, edit) in family(&program).iter().enumerate() {
            let toks = apply(&program.toks, edit);
            if toks.len() > program.toks.len() {
                continue;
            }
            let Ok(candidate) = Program::new(toks) else {
                continue;
            };
            let text = print(&candidate.toks);
            let smaller = candidate.toks.len() < program.toks.len() || text.len() < printed.len();
            if smaller && tester.holds(&text)? {
                violations.push((name, index));
            }
        }
    }
    Ok(violations)
}
