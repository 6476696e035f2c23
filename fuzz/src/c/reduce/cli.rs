//! `phihunt reduce FILE.c` and `phihunt reduce-test`: the C reducer as a user runs it.
//!
//! The signature to keep comes from `--signature`, else from the `finding.json` beside a
//! hunt's `program.c`, else from judging the file (`interesting::find_signature`). The
//! reduced file, with its expected output in the header (`corpus.rs`), is written beside
//! the original as `FILE.reduced.c` (or `-o`); a hunt finding made without seeded bugs is
//! also copied to `corpus/found/`. `--cvise` then runs C-Vise with the same test.
//!
//! Exit codes: 0 reduced, 1 nothing to reduce, 2 bad input or setup.

use super::corpus::{copy_to_found, test_file_text};
use super::cvise::{run_cvise, ScriptTest};
use super::interesting::{
    find_signature, parse_signature, CGoal, Check, Tester, NOTHING_TO_REDUCE,
};
use super::{goal_for, line_count, reduce_c};
use crate::diff::Signature;
use crate::findings::{write_atomically, FindingRecord};
use crate::native::NativePlan;
use compiler::mutants::{self, Mutant};
use compiler::pipeline::PipelineOptions;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `phihunt reduce FILE.c`'s settings.
pub struct ReduceCArgs {
    pub file: PathBuf,
    pub output: Option<PathBuf>,
    pub budget: Duration,
    /// Native stages whose failure may be the finding (when the signature is searched).
    pub plan: NativePlan,
    pub signature: Option<String>,
    pub cvise: bool,
    /// Where a real (no seeded bug) hunt finding's reduced file is copied.
    pub corpus_found: Option<PathBuf>,
    pub include_dirs: Vec<PathBuf>,
    pub pipeline: PipelineOptions,
    /// `--cc`: the compiler under test a `*@cc` signature is about (rerun on every
    /// candidate).
    pub cc: Option<crate::c::cc::CompilerUnderTest>,
}

/// The hunt's record beside `file` (`finding.json` in the same directory), if any.
fn finding_record(file: &Path) -> Option<FindingRecord> {
    let json = file.parent()?.join("finding.json");
    serde_json::from_str(&std::fs::read_to_string(json).ok()?).ok()
}

/// Runs `phihunt reduce FILE.c`; the exit code.
pub fn reduce_c_file(args: &ReduceCArgs) -> i32 {
    let name = args.file.display().to_string();
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{name}: error: {e}");
            return 2;
        }
    };
    let record = finding_record(&args.file);
    if let Some(r) = &record {
        if mutants::active().is_empty() && !r.mutants.is_empty() {
            let ms: Vec<Mutant> = r
                .mutants
                .iter()
                .filter_map(|m| Mutant::from_name(m))
                .collect();
            mutants::set_active(&ms);
            eprintln!(
                "note: the finding was made with seeded bugs {}: switched on",
                r.mutants.join(",")
            );
        }
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let code = run(args, &name, &text, record.as_ref());
    std::panic::set_hook(hook);
    code
}

/// The `*@cc` signature the file shows with `--cc` (crash, then mismatch, then timeout),
/// judged as the reducer's test judges it; `None` when it shows none.
fn cc_signature(args: &ReduceCArgs) -> Result<Option<Signature>, String> {
    use crate::diff::FindingKind;
    for kind in [
        FindingKind::Crash,
        FindingKind::Mismatch,
        FindingKind::Timeout,
    ] {
        let signature = Signature::new(kind, crate::c::cc::STAGE);
        let (mut goal, _) = goal_for(&args.file, &signature, &args.include_dirs)?;
        goal.cc = args.cc.clone();
        if let Check::Interesting { .. } = super::interesting::judge(&goal, &args.file)? {
            return Ok(Some(signature));
        }
    }
    Ok(None)
}

fn run(args: &ReduceCArgs, name: &str, text: &str, record: Option<&FindingRecord>) -> i32 {
    let signature = match (&args.signature, record) {
        (Some(s), _) => match parse_signature(s) {
            Some(sig) => sig,
            None => {
                eprintln!("error: --signature: `{s}` is not KIND@STAGE (e.g. mismatch@gvn)");
                return 2;
            }
        },
        (None, Some(r)) => r.signature.clone(),
        (None, None) if args.cc.is_some() => match cc_signature(args) {
            Ok(Some(sig)) => sig,
            Ok(None) => {
                println!("{name}: {NOTHING_TO_REDUCE}: the compiler under test agrees, or the program is not defined");
                return 1;
            }
            Err(setup) => {
                eprintln!("error: {setup}");
                return 2;
            }
        },
        (None, None) => match find_signature(
            &args.file,
            &args.include_dirs,
            &args.pipeline,
            &args.plan.stages,
            args.plan.limits,
        ) {
            Ok(sig) => sig,
            Err(why) if why.starts_with(NOTHING_TO_REDUCE) => {
                println!("{name}: {why}");
                return 1;
            }
            Err(why) => {
                eprintln!("{name}: error: {why}");
                return 2;
            }
        },
    };
    let (mut goal, notes) = match goal_for(&args.file, &signature, &args.include_dirs) {
        Ok(g) => g,
        Err(setup) => {
            eprintln!("error: {setup}");
            return 2;
        }
    };
    for n in notes {
        eprintln!("note: {n}");
    }
    goal.pipeline = args.pipeline.clone();
    goal.limits = CGoal::new(signature.clone()).limits;
    goal.cc = args.cc.clone();
    println!(
        "signature {signature}: reducing {name} for at most {:.0?}",
        args.budget
    );
    let mut tester = match Tester::new(goal) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let reduced = match reduce_c(text, &mut tester, args.budget) {
        Ok(r) => r,
        Err(why) => {
            println!("{name}: {why}");
            return 1;
        }
    };
    let origin = match record {
        Some(r) => format!(
            "from {} seed {}",
            r.generator,
            r.seed.map_or("-".into(), |s| s.to_string())
        ),
        None => format!(
            "from {}",
            args.file
                .file_name()
                .map_or(name.into(), |f| f.to_string_lossy().into_owned())
        ),
    };
    let mut best = reduced.text.clone();
    let (mut status, mut stdout) = (reduced.status, reduced.stdout.clone());
    println!(
        "{} -> {} lines, {} -> {} tokens in {:.1} s ({} candidates judged, {} cached, {} kept{})",
        reduced.lines_before,
        reduced.lines_after,
        reduced.tokens_before,
        reduced.tokens_after,
        reduced.elapsed.as_secs_f64(),
        reduced.judged,
        reduced.cache_hits,
        reduced.kept,
        if reduced.finished {
            ", 1-minimal"
        } else {
            ", budget ran out"
        }
    );
    let rejected: Vec<String> = reduced
        .rejections
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!("rejected candidates by step: {}", rejected.join(", "));
    if args.cvise {
        let lint = tester.goal.lint.clone();
        let test = ScriptTest {
            signature: &signature,
            include_dirs: &args.include_dirs,
            lint: &lint,
            pipeline: &args.pipeline,
            cc: args.cc.as_ref(),
        };
        match run_cvise(&best, &test, args.budget) {
            Err(e) => eprintln!("warning: C-Vise: {e}"),
            Ok(cv) => {
                // Checked again in-process: only a defined program with the signature wins.
                match tester.check(&cv.text) {
                    Ok(Check::Interesting {
                        status: s,
                        stdout: o,
                    }) if cv.text.len() < best.len() => {
                        println!(
                            "C-Vise: {} -> {} lines in {:.1} s{}",
                            line_count(&best),
                            line_count(&cv.text),
                            cv.elapsed.as_secs_f64(),
                            if cv.finished { "" } else { " (time limit)" }
                        );
                        best = cv.text;
                        (status, stdout) = (s, o);
                    }
                    Ok(Check::Interesting { .. }) => println!("C-Vise: no smaller program"),
                    Ok(Check::Rejected { step, why }) => {
                        println!("C-Vise's result fails the test ({step}: {why}): kept ours")
                    }
                    Err(e) => eprintln!("warning: {e}"),
                }
            }
        }
    }
    let file_text = test_file_text(&signature, &origin, status, &stdout, &best);
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.file.with_extension("reduced.c"));
    if let Err(e) = write_atomically(&out, file_text.as_bytes()) {
        eprintln!("{}: error: {e}", out.display());
        return 2;
    }
    println!("wrote {}", out.display());
    // Another compiler's bug (`*@cc`) is no test for phicc's corpus.
    let phicc_bug = signature.stage != crate::c::cc::STAGE;
    if let (Some(dir), Some(_), true) = (
        &args.corpus_found,
        record,
        mutants::active().is_empty() && phicc_bug,
    ) {
        match copy_to_found(dir, &signature.bug(), &file_text) {
            Ok(p) => println!("copied to {}", p.display()),
            Err(e) => {
                eprintln!("{}: error: {e}", dir.display());
                return 2;
            }
        }
    }
    0
}

/// `phihunt reduce-test FILE --signature SIG`: exit 0 when the file is defined and shows
/// the signature, 1 when not, 2 on bad arguments or a broken setup.
pub fn reduce_test(
    file: &Path,
    signature: &str,
    include_dirs: &[PathBuf],
    lint: Option<&str>,
    cc: &crate::c::cc::CcCompilerArgs,
    pipeline: PipelineOptions,
) -> i32 {
    let Some(sig) = parse_signature(signature) else {
        eprintln!("error: --signature: `{signature}` is not KIND@STAGE");
        return 2;
    };
    let mut goal = CGoal::new(sig);
    goal.include_dirs = include_dirs.to_vec();
    goal.pipeline = pipeline;
    goal.cc = match cc.compiler_unchecked() {
        Ok(cc) => cc,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if let Some(l) = lint {
        goal.lint = l
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
    }
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: error: {e}", file.display());
            return 2;
        }
    };
    std::panic::set_hook(Box::new(|_| {}));
    let verdict = Tester::new(goal).and_then(|mut t| t.check(&text));
    match verdict {
        Ok(Check::Interesting { .. }) => 0,
        Ok(Check::Rejected { step, why }) => {
            println!("not interesting ({step}): {why}");
            1
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
