//! `phihunt check FILE...`: run every `; run:` line of every `.ir` input at every stage;
//! run `main` of every `.c` input at every stage against the gcc -O0 reference; then the
//! native rows (`native:x86_64`, `native:x86_64/stack`, `native:i686`, ...: see
//! `native_rows` and `crate::native`).
//!
//! Exit status: 0 when every stage meets every line, 1 on any mismatch, 2 when an input
//! is invalid (the worst one wins). The last line printed is `N passed, M failed`, counting
//! (stage, run line) cells; native cells with no verdict (undefined behaviour, reference
//! timeouts) are neither and are counted on the line before it.

pub mod c_source;
pub mod directives;
pub mod evaluate;
pub mod native_rows;
pub mod table;
pub mod ub_judge;

use compiler::pipeline::PipelineOptions;
use evaluate::{check_ir_source, FileVerdict};
use oracle::native::{reference_run, ReferenceConfig};
use oracle::RunConfig;
use std::path::{Path, PathBuf};

/// True for the inputs `check` judges against gcc rather than `; run:` lines.
pub fn is_c_file(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "c")
}

/// Expands directories into the `.ir` and `.c` files below them, sorted; files are kept
/// as given.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let entries =
                    std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                for e in entries {
                    let path = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|x| x == "ir") || is_c_file(&path) {
                        found.push(path);
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The outcome of checking many files.
#[derive(Debug, Default)]
pub struct CheckSummary {
    pub passed: usize,
    pub failed: usize,
    pub invalid: usize,
    /// Cells with no verdict (discarded native cells).
    pub discarded: usize,
    /// Files with at least one failing cell.
    pub failing_files: Vec<PathBuf>,
}

impl CheckSummary {
    /// 0 all agree, 1 a mismatch, 2 an invalid input.
    pub fn exit_code(&self) -> i32 {
        if self.invalid > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

/// Checks one file and prints its table (or its error) to `out`.
pub fn check_file(
    path: &Path,
    settings: &CheckSettings,
    out: &mut String,
    summary: &mut CheckSummary,
) {
    if is_c_file(path) {
        return check_c_file(path, settings, out, summary);
    }
    let (opts, cfg) = (&settings.pipeline, &settings.run);
    let name = path.display().to_string();
    let src = match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                out.push_str(&format!("{name}:1:1: error: not UTF-8 text ({e})\n"));
                summary.invalid += 1;
                return;
            }
        },
        Err(e) => {
            out.push_str(&format!("{name}: error: {e}\n"));
            summary.invalid += 1;
            return;
        }
    };
    match check_ir_source(&name, &src, opts, cfg, &settings.native) {
        FileVerdict::Invalid(msg) => {
            out.push_str(&format!("== {name}\nerror: {msg}\n\n"));
            summary.invalid += 1;
        }
        v @ FileVerdict::Judged { .. } => {
            let (ok, bad) = v.counts();
            summary.discarded += v.discarded();
            if let FileVerdict::Judged {
                stages,
                directives,
                cells,
                notes,
                timings,
            } = &v
            {
                out.push_str(&format!("== {name}\n"));
                out.push_str(&table::render(stages, directives, cells));
                for n in notes {
                    out.push_str(&format!("note: {n}\n"));
                }
                if settings.time_passes {
                    out.push_str("time-passes: stage, changes, time\n");
                    for (stage, changes, time) in timings {
                        out.push_str(&format!(
                            "  {stage:<16} {changes:>6}  {:>9.3} ms\n",
                            time.as_secs_f64() * 1e3
                        ));
                    }
                }
                out.push('\n');
            }
            summary.passed += ok;
            summary.failed += bad;
            if bad > 0 {
                summary.failing_files.push(path.to_path_buf());
            }
        }
    }
}

/// Checks one C file against gcc and prints its table (or why it cannot be judged).
pub fn check_c_file(
    path: &Path,
    settings: &CheckSettings,
    out: &mut String,
    summary: &mut CheckSummary,
) {
    use c_source::{front_end, judge_stages_at, reference_result, FrontEndFailure, Invalid};
    let name = path.display().to_string();
    out.push_str(&format!("== {name}\n"));
    let invalid = |out: &mut String, summary: &mut CheckSummary, why: Invalid| {
        let msg = why.message();
        // A front-end diagnostic already reads `file:line:col: error: message`.
        if msg.contains(": error: ") {
            out.push_str(&format!("{msg}\n\n"));
        } else {
            out.push_str(&format!("error: {msg}\n\n"));
        }
        summary.invalid += 1;
    };
    if settings.run.ptr_bytes != 8 {
        let why = "the gcc reference is x86_64 only: use --ptr-bytes 8 for C input";
        return invalid(out, summary, Invalid::OracleCannotRun(why.into()));
    }
    let fe = front_end(path, &settings.c_include_dirs);
    let front_end_time = fe.elapsed;
    let panicked = |out: &mut String, summary: &mut CheckSummary, msg: String| {
        out.push_str(&format!("✗ the front end panicked: {msg}\n\n"));
        summary.failed += 1;
        summary.failing_files.push(path.to_path_buf());
    };
    let module = match fe.result {
        Ok(m) => m,
        Err(FrontEndFailure::Refused(why)) => return invalid(out, summary, why),
        Err(FrontEndFailure::Panic(msg)) => return panicked(out, summary, msg),
    };
    let target = compiler::target::Target::X86_64;
    let checked = ub_judge::checked_front_end_positions(path, &settings.c_include_dirs, target);
    let (checked, positions) = match checked {
        Ok(m) => m,
        Err(FrontEndFailure::Refused(why)) => return invalid(out, summary, why),
        Err(FrontEndFailure::Panic(msg)) => return panicked(out, summary, msg),
    };
    // A `// ub: CATEGORY [@LINE]` line (corpus/ub) is an expectation: the judge must
    // report exactly that category (on that line); the program is never run natively.
    let source = std::fs::read_to_string(path).unwrap_or_default();
    if let Some(want) = ub_judge::expected_ub(&source) {
        match ub_judge::judge_defined_at(&checked, Some(&positions), &settings.run) {
            Err(Invalid::Undefined { category, detail })
                if category == want
                    && ub_judge::expected_ub_line(&source).is_none_or(|line| {
                        detail.contains(&format!("{}:{line}:", path.display()))
                    }) =>
            {
                out.push_str(&format!(
                    "ub {want} as expected: {detail}\n1 passed, 0 failed\n\n"
                ));
                summary.passed += 1;
            }
            other => {
                let got = match other {
                    Ok(run) => format!("defined ({run})"),
                    Err(why) => why.message(),
                };
                let at = ub_judge::expected_ub_line(&source)
                    .map(|l| format!(" on line {l}"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "✗ expected ub {want}{at}, the judge says: {got}\n\n"
                ));
                summary.failed += 1;
                summary.failing_files.push(path.to_path_buf());
            }
        }
        return;
    }
    let mut reference_cfg = settings.reference.clone();
    reference_cfg
        .include_dirs
        .extend(settings.c_include_dirs.iter().cloned());
    let reference = match reference_run(path, &reference_cfg) {
        Ok(r) => r.outcome,
        Err(e) => {
            return invalid(out, summary, Invalid::ReferenceRejects(e));
        }
    };
    let reference = match reference_result(&reference) {
        Ok(r) => r,
        Err(why) => {
            // A crash or timeout of gcc's binary is often the program's UB: name it.
            let why = match ub_judge::judge_defined_at(&checked, Some(&positions), &settings.run) {
                Err(ub @ Invalid::Undefined { .. }) => ub,
                _ => why,
            };
            return invalid(out, summary, why);
        }
    };
    match judge_stages_at(
        &module,
        (&checked, Some(&positions)),
        reference,
        &settings.pipeline,
        &settings.run,
    ) {
        Err(why) => invalid(out, summary, why),
        Ok(mut j) => {
            let include_dirs = reference_cfg.include_dirs.clone();
            match c_native_rows(path, &include_dirs, settings, &mut j) {
                Ok(()) => {}
                Err(setup) => {
                    out.push_str(&format!("error: cannot run natively: {setup}\n\n"));
                    summary.invalid += 1;
                    return;
                }
            }
            let (code, stdout) = &j.reference;
            let mut reference = format!("exit {code}");
            if !stdout.is_empty() {
                reference.push_str(&format!(
                    ", stdout {}",
                    oracle::native::gcc::quote_stdout(stdout)
                ));
            }
            out.push_str(&format!("reference (gcc -O0): {reference}\n"));
            let cells: Vec<Vec<_>> = j.cells.iter().map(|c| vec![c.clone()]).collect();
            out.push_str(&table::render_columns(
                &["main() vs gcc".to_string()],
                &j.stages,
                &cells,
            ));
            for n in &j.notes {
                out.push_str(&format!("note: {n}\n"));
            }
            if settings.time_passes {
                out.push_str("time-passes: stage, changes, time\n");
                out.push_str(&format!(
                    "  {:<16} {:>6}  {:>9.3} ms\n",
                    "front end",
                    "",
                    front_end_time.as_secs_f64() * 1e3
                ));
                for (stage, changes, time) in &j.timings {
                    out.push_str(&format!(
                        "  {stage:<16} {changes:>6}  {:>9.3} ms\n",
                        time.as_secs_f64() * 1e3
                    ));
                }
            }
            out.push('\n');
            let ok = j.cells.iter().filter(|c| c.ok).count();
            let bad = j.cells.iter().filter(|c| c.failed()).count();
            summary.discarded += j.cells.iter().filter(|c| c.discarded).count();
            summary.passed += ok;
            summary.failed += bad;
            if bad > 0 {
                summary.failing_files.push(path.to_path_buf());
            }
        }
    }
}

/// Appends the native rows of a C program to its judgement (one per stage of the plan),
/// with a note per target saying what gcc's reference did.
fn c_native_rows(
    path: &Path,
    include_dirs: &[PathBuf],
    settings: &CheckSettings,
    j: &mut c_source::CJudgement,
) -> Result<(), String> {
    // `--cc`: the compiler under test's row (`crate::c::cc`), against gcc's reference.
    if let Some(cc) = &settings.cc {
        let limits = &settings.native.limits;
        let verdict = crate::c::cc::judge_file(cc, path, include_dirs, limits)?;
        j.stages
            .push(format!("{} ({})", crate::c::cc::STAGE, cc.describe()));
        j.cells.push(native_rows::cell_of(&verdict));
    }
    if settings.native.is_empty() {
        return Ok(());
    }
    let rows = crate::native::c_program::judge_c_natively(
        path,
        include_dirs,
        &settings.pipeline,
        &settings.native.stages,
        &settings.native.limits,
        None,
    )?;
    for (target, reference) in &rows.references {
        j.notes.push(format!(
            "native reference (gcc -O0 on {}): {reference}",
            target.name()
        ));
    }
    for (stage, verdict, _) in &rows.rows {
        j.stages.push(stage.name());
        j.cells.push(native_rows::cell_of(verdict));
    }
    Ok(())
}

/// How `check` runs its inputs.
#[derive(Clone, Debug, Default)]
pub struct CheckSettings {
    pub pipeline: PipelineOptions,
    pub run: RunConfig,
    /// Print each stage's change count and time under its table.
    pub time_passes: bool,
    /// `-I` directories for C input (phicc's front end and gcc alike).
    pub c_include_dirs: Vec<PathBuf>,
    /// How the gcc reference of C input is built and run.
    pub reference: ReferenceConfig,
    /// The native rows (default: none; the CLI's default is every usable target).
    pub native: crate::native::NativePlan,
    /// Files checked in parallel (0 or 1: one at a time).
    pub jobs: usize,
    /// `--cc`: a C compiler under test, one more row for `.c` files.
    pub cc: Option<crate::c::cc::CompilerUnderTest>,
}

/// Checks every input, printing as it goes (in input order); returns the summary. Files
/// are checked on `settings.jobs` threads (native builds and runs wait on processes).
pub fn check_paths(paths: &[PathBuf], settings: &CheckSettings) -> CheckSummary {
    let mut summary = CheckSummary::default();
    let files = match expand_inputs(paths) {
        Ok(f) => f,
        Err(e) => {
            println!("error: {e}");
            summary.invalid += 1;
            return summary;
        }
    };
    let jobs = settings.jobs.max(1).min(files.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Results by index; the printer prints the finished prefix in order.
    type Printed = (usize, Vec<Option<(String, CheckSummary)>>);
    let done: std::sync::Mutex<Printed> =
        std::sync::Mutex::new((0, (0..files.len()).map(|_| None).collect()));
    // Seeded bugs are switched on per thread: the workers take the caller's.
    let mutants = compiler::mutants::active();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            // The front end, the passes and the oracle recurse deeply on big programs
            // (csmith's): the workers get the stack `bench csmith`'s do.
            let worker = std::thread::Builder::new()
                .name("check-worker".into())
                .stack_size(crate::c::csmith::WORKER_STACK);
            let spawned = worker.spawn_scoped(scope, || {
                compiler::mutants::set_active(&mutants);
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    let mut out = String::new();
                    let mut one = CheckSummary::default();
                    check_file(f, settings, &mut out, &mut one);
                    let mut guard = done.lock().unwrap_or_else(|p| p.into_inner());
                    let (printed, results) = &mut *guard;
                    results[i] = Some((out, one));
                    while let Some(Some((text, _))) = results.get(*printed) {
                        print!("{text}");
                        *printed += 1;
                    }
                }
            });
            if let Err(e) = spawned {
                println!("error: cannot start a worker thread: {e}");
                summary.invalid += 1;
                break;
            }
        }
    });
    let (_, results) = done.into_inner().unwrap_or_else(|p| p.into_inner());
    for (_, one) in results.into_iter().flatten() {
        summary.passed += one.passed;
        summary.failed += one.failed;
        summary.invalid += one.invalid;
        summary.discarded += one.discarded;
        summary.failing_files.extend(one.failing_files);
    }
    if !summary.failing_files.is_empty() {
        println!("failing files:");
        for f in &summary.failing_files {
            println!("  {}", f.display());
        }
    }
    if summary.invalid > 0 {
        println!("{} invalid input(s)", summary.invalid);
    }
    if summary.discarded > 0 {
        println!(
            "{} native cell(s) with no verdict (undefined behaviour or reference timeouts: see `–` cells)",
            summary.discarded
        );
    }
    println!("{} passed, {} failed", summary.passed, summary.failed);
    summary
}
