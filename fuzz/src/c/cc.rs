//! Any C compiler as the compiler under test (`phihunt hunt --cc 'CMD' [--cc-target T]`):
//! its runner, its judge, and the files that reproduce what it got wrong.
//!
//! Why: phihunt's C programs come with a reference that is checked, never trusted (the
//! generator's expected output, confirmed by gcc -O0 and -O2 on the target; for csmith,
//! gcc's outputs). That reference judges any compiler, not only phicc: `--cc 'clang -O2'`,
//! `--cc 'gcc -O3'`, `--cc 'riscv64-linux-gnu-gcc -O2 -static' --cc-target riscv64`, or
//! another project's compiler. The compiler under test is one more native stage, named
//! [`STAGE`] (`cc`): signatures `mismatch@cc`, `crash@cc`, `timeout@cc`.
//!
//! The contract with `CMD` (documented in the README):
//! - `CMD` is split into words as a POSIX shell would (quotes and backslashes, no
//!   expansion); its first word is looked up on `PATH` once, at start;
//! - phihunt runs `CMD [-I DIR]... -o a.out program.c` with the working directory a fresh
//!   temporary directory that holds `program.c` (and nothing else), under a time limit,
//!   with phihunt's own environment, stdin `/dev/null`. The `-I` directories are the
//!   program's own (csmith's programs need `-I /usr/include/csmith`), absolute paths;
//! - exit status 0 with `a.out` written is a binary; it runs for `--cc-target` (default
//!   x86_64) as every native binary runs (`oracle::native::run`: directly on the host's
//!   architecture, under the target's qemu-user otherwise, `argv = {"a.out"}`, empty
//!   environment), with qemu-user's `-L /usr/TRIPLE` (Debian's cross glibc) so that a
//!   cross compiler's dynamically linked binaries run too; a smoke test at start (a
//!   hello-world program built and run) makes a broken command or target an error, not
//!   a hunt of discards.
//!
//! Verdicts (never a false positive):
//! - the compiler killed by a signal, exiting with a status 129..=159 (128 + a signal, as
//!   a shell reports a child killed by one) or, when it fails, printing a crash
//!   text ([`CRASH_TEXTS`]: an internal compiler error, a stack dump, a Rust panic) is
//!   `crash@cc`, whatever the program (a compiler must not crash on any input);
//! - the compiler failing otherwise is no verdict: counted as `cc refused: FIRST ERROR
//!   LINE`, never a finding;
//! - the binary's run is held to the reference: exit 0 and the expected stdout for the
//!   target's data model. When it differs (or the binary or the compiler times out, even
//!   after a second try with the long limit), gcc -O0 and -O2 for the target are built
//!   and run: only when both agree with each other and gcc -O0 prints the expected output
//!   is it a finding (`mismatch@cc`, or `timeout@cc` — timeouts are kept apart as their
//!   own, more suspect, class). A reference that gcc cannot confirm (undefined: -O0 and
//!   -O2 disagree; a reference timeout or crash) is a discard counted by reason; gcc -O0
//!   contradicting the generator's expected output is the generator's bug;
//! - a finding is saved with [`finding_files`]: the command line and both runs
//!   (`cc.txt`), the binary's stdout, the compiler's stderr, the reference's stdout, and
//!   `reproduce.sh`, which re-runs the compiler and diffs (exit 0 when the finding still
//!   reproduces, so it also serves as a C-Vise interestingness test).
//!
//! Every child runs under `oracle::native::run_limited`; every file lives in a build
//! directory of `oracle::native::build_dir` (a `tempfile` directory swept when a killed
//! process left it behind).

use super::gen::CProgram;
use crate::diff::FindingKind;
use crate::native::c_program::{gcc_reference, CReference};
use crate::native::{NativeLimits, RowVerdict, StageTally};
use compiler::target::Target;
use oracle::native::targets::tool_path;
use oracle::native::{
    build_dir, first_error_line, judge_against_reference, native_target, run_limited, Build,
    Execution, Exit, NativeVerdict, RunLimits, Termination,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The stage name of the compiler under test (`mismatch@cc`).
pub const STAGE: &str = "cc";

/// Texts in a failing compiler's output that mean it crashed (matched case-blind): gcc's
/// and clang's internal-error reports, clang's and LLVM's stack dumps, a Rust compiler's
/// panic, a driver reporting a crashed subprocess.
pub const CRASH_TEXTS: [&str; 7] = [
    "internal compiler error",
    "please submit a bug report",
    "please submit a full bug report",
    "stack dump:",
    "panicked at",
    "signal terminated program",
    "due to signal",
];

/// Exit statuses a shell gives a child killed by a signal: 128 + the signal's number
/// (a wrapper script whose compiler crashed; `timeout` in `reproduce.sh` reports so too).
const CRASH_STATUSES: std::ops::RangeInclusive<i32> = 129..=159;

/// `--cc` and `--cc-target` (flattened into `check`, and into `hunt` with [`CcArgs`]).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CcCompilerArgs {
    /// A C compiler to test against the same references as phicc, e.g. 'clang -O2'.
    /// phihunt runs `CMD [-I DIR]... -o a.out program.c` in a fresh temporary directory
    /// (README: "Any C compiler under test"); findings are `mismatch@cc`, `crash@cc`,
    /// `timeout@cc`.
    #[arg(long = "cc", value_name = "CMD")]
    pub cc: Option<String>,
    /// The target `--cc`'s binaries are for: run directly on this machine's
    /// architecture, under qemu-user otherwise (x86_64, i686, aarch64, riscv64).
    #[arg(long, default_value = "x86_64", value_name = "T")]
    pub cc_target: String,
}

impl CcCompilerArgs {
    /// The compiler under test, after its smoke test; `None` without `--cc`.
    pub fn compiler(&self) -> Result<Option<CompilerUnderTest>, String> {
        let cc = self.compiler_unchecked()?;
        if let Some(cc) = &cc {
            cc.smoke_test(&NativeLimits::default())?;
        }
        Ok(cc)
    }

    /// The compiler under test without its smoke test: for `reduce-test`, which C-Vise
    /// runs once per candidate after the reducer has smoke-tested the same command.
    pub fn compiler_unchecked(&self) -> Result<Option<CompilerUnderTest>, String> {
        let Some(command) = &self.cc else {
            return Ok(None);
        };
        let target = Target::from_name(&self.cc_target).ok_or_else(|| {
            format!(
                "--cc-target: unknown target `{}` (x86_64, i686, aarch64, riscv64)",
                self.cc_target
            )
        })?;
        CompilerUnderTest::new(command, target).map(Some)
    }
}

/// `hunt`'s `--cc`, `--cc-target` and `--no-phicc`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CcArgs {
    #[command(flatten)]
    pub compiler: CcCompilerArgs,
    /// With --cc: skip phicc's own stages (oracle and native), judge only the compiler
    /// under test (the generator's UB checks still run).
    #[arg(long)]
    pub no_phicc: bool,
}

impl CcArgs {
    /// The hunt's [`CcStage`] for the sources `source_names`: `--no-phicc` needs every
    /// source to be C (an IR program has nothing for a C compiler). `None` without `--cc`.
    pub fn stage(&self, source_names: &[&str]) -> Result<Option<CcStage>, String> {
        if self.no_phicc && self.compiler.cc.is_none() {
            return Err("--no-phicc needs --cc (nothing else would be tested)".into());
        }
        let Some(compiler) = self.compiler.compiler()? else {
            return Ok(None);
        };
        let ir: Vec<&str> = source_names
            .iter()
            .copied()
            .filter(|n| !["c", "csmith"].contains(n))
            .collect();
        if self.no_phicc && !ir.is_empty() {
            return Err(format!(
                "--no-phicc leaves nothing to test in the IR generators {} (use --gen c or --gen c,csmith)",
                ir.join(",")
            ));
        }
        Ok(Some(CcStage {
            compiler,
            phicc: !self.no_phicc,
        }))
    }
}

/// One line for the end of a hunt: what the compiler under test did. `cc` is its row;
/// `discard_reasons` the programs' (with `--no-phicc` a program without a verdict from
/// the compiler under test is discarded, under a reason that starts with `cc `).
pub fn tally_line(
    cc: &StageTally,
    discard_reasons: &std::collections::BTreeMap<String, u64>,
) -> String {
    let mut reasons = cc.discarded.clone();
    for (k, v) in discard_reasons.iter().filter(|(k, _)| k.starts_with("cc ")) {
        *reasons.entry(k.clone()).or_default() += v;
    }
    let discarded: u64 = reasons.values().sum();
    let refused: u64 = reasons
        .iter()
        .filter(|(k, _)| k.starts_with("cc refused"))
        .map(|(_, v)| v)
        .sum();
    format!(
        "cc: {} programs judged, {discarded} without a verdict ({refused} refused by the compiler); \
         {:.1} ms compile, {:.1} ms run per program",
        cc.programs,
        cc.build_us as f64 / 1e3 / (cc.programs + cc.discarded.values().sum::<u64>()).max(1) as f64,
        cc.run_us as f64 / 1e3 / cc.programs.max(1) as f64,
    )
}

/// A C compiler under test: its command line and the target its binaries are for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompilerUnderTest {
    /// The command as given (`clang -O2`).
    pub command: String,
    /// Its words, the first one resolved to an absolute path.
    pub words: Vec<String>,
    pub target: Target,
}

/// How one compile ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CcCompile {
    /// Exit 0 and `a.out` written.
    Built,
    /// An ordinary failure: the first error line (no verdict).
    Refused(String),
    /// A crash: what shows it (signal, status, crash text).
    Crashed(String),
    /// Ran past its limit.
    TimedOut,
}

/// One compile of a program: its directory (program.c, a.out) and what happened.
pub struct CcAttempt {
    /// The build (directory, `a.out`, the compiler's wall time).
    pub build: Build,
    pub outcome: CcCompile,
    /// The compiler's stderr (at most 64 KiB).
    pub stderr: Vec<u8>,
}

impl CcAttempt {
    /// The program's file in the attempt's directory.
    pub fn source(&self) -> PathBuf {
        self.build.dir().join("program.c")
    }
}

impl CompilerUnderTest {
    /// Splits `command` into words as a shell would and finds its program on `PATH`.
    pub fn new(command: &str, target: Target) -> Result<CompilerUnderTest, String> {
        let mut words = shlex::split(command)
            .ok_or_else(|| format!("--cc: cannot split `{command}` into words (a quote?)"))?;
        let Some(first) = words.first() else {
            return Err("--cc: the command is empty".into());
        };
        let program = tool_path(first)
            .ok_or_else(|| format!("--cc: `{first}` is not an executable on PATH"))?;
        words[0] = program.display().to_string();
        Ok(CompilerUnderTest {
            command: command.to_string(),
            words,
            target,
        })
    }

    /// The words run for one program: `CMD [-I DIR]... -o a.out program.c`.
    pub fn argv(&self, include_dirs: &[PathBuf]) -> Vec<String> {
        let mut argv = self.words.clone();
        for dir in include_dirs {
            argv.push("-I".into());
            argv.push(dir.display().to_string());
        }
        argv.extend(["-o", "a.out", "program.c"].map(String::from));
        argv
    }

    /// Compiles `text` (as `program.c`, with `include_dirs`) under `timeout`. `Err` only
    /// for a broken setup (no temporary directory, the compiler cannot be started).
    pub fn compile(
        &self,
        text: &str,
        include_dirs: &[PathBuf],
        timeout: Duration,
    ) -> Result<CcAttempt, String> {
        let dir = build_dir()?;
        let source = dir.path().join("program.c");
        std::fs::write(&source, text)
            .map_err(|e| format!("cannot write {}: {e}", source.display()))?;
        let argv = self.argv(include_dirs);
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..]).current_dir(dir.path());
        let done = run_limited(&mut cmd, timeout, 1 << 16)?;
        let outcome = classify(&done.termination, &done.stderr, dir.path());
        let outcome = match outcome {
            CcCompile::Built if !dir.path().join("a.out").is_file() => {
                CcCompile::Refused("exited with status 0 without writing a.out".into())
            }
            o => o,
        };
        Ok(CcAttempt {
            build: Build::adopt(dir, done.elapsed),
            outcome,
            stderr: done.stderr,
        })
    }

    /// Compiles and runs a program that prints one line: the compiler and the runner
    /// must work before a hunt trusts anything they say.
    pub fn smoke_test(&self, limits: &NativeLimits) -> Result<(), String> {
        const HELLO: &str = "int printf(const char *, ...);\n\
            int main(void) { printf(\"phihunt %d\\n\", 6 * 7); return 0; }\n";
        let attempt = self.compile(HELLO, &[], limits.build_timeout)?;
        if attempt.outcome != CcCompile::Built {
            return Err(format!(
                "--cc `{}` cannot compile a hello-world program: {}",
                self.command,
                describe_compile(&attempt.outcome)
            ));
        }
        let exec = run_binary(self.target, &attempt.build, &run_limits(limits, false))?;
        if exec.exit != Exit::Code(0) || exec.stdout != b"phihunt 42\n" {
            return Err(format!(
                "--cc `{}`: its hello-world binary, run for {}, gives {} (stderr {}); {}",
                self.command,
                self.target.name(),
                exec.describe(),
                oracle::native::gcc::quote_stdout(&exec.stderr),
                "is --cc-target right (and the target's glibc installed)?"
            ));
        }
        Ok(())
    }

    /// `cc \`clang -O2\` for x86_64` for header lines.
    pub fn describe(&self) -> String {
        format!("cc `{}` for {}", self.command, self.target.name())
    }

    /// `(target, allocator, pointer width)` for a finding's record.
    pub fn finding_context(&self) -> (Option<String>, Option<String>, u32) {
        (
            Some(self.target.name().to_string()),
            None,
            self.target.sizeof_pointer(),
        )
    }
}

/// What a finished compile means.
fn classify(termination: &Termination, stderr: &[u8], dir: &Path) -> CcCompile {
    let crash_line = || {
        let text = String::from_utf8_lossy(stderr);
        text.lines()
            .find(|l| {
                let l = l.to_ascii_lowercase();
                CRASH_TEXTS.iter().any(|t| l.contains(t))
            })
            .map(|l| l.replace(&format!("{}/", dir.display()), ""))
    };
    match *termination {
        Termination::TimedOut => CcCompile::TimedOut,
        Termination::Signaled(s) => CcCompile::Crashed(format!(
            "killed by signal {s} ({}){}",
            oracle::native::run::signal_name(s),
            crash_line().map(|l| format!(": {l}")).unwrap_or_default()
        )),
        Termination::Exited(0) => CcCompile::Built,
        Termination::Exited(code) => match crash_line() {
            Some(line) => CcCompile::Crashed(format!("exit {code}: {line}")),
            None if CRASH_STATUSES.contains(&code) => CcCompile::Crashed(format!(
                "exit {code} (a crashed child: signal {})",
                code - 128
            )),
            None => CcCompile::Refused(first_error_line(
                stderr,
                dir,
                &format!("exit {code} without a message"),
            )),
        },
    }
}

/// An error line without its `program.c:LINE:COL: ` (`program.c:LINE: `, `program.c: `) prefix, so
/// that refusals are counted by what the compiler said, not where.
fn without_location(line: &str) -> &str {
    let Some(rest) = line.strip_prefix("program.c:") else {
        return line;
    };
    let mut rest = rest;
    for _ in 0..2 {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            break;
        }
        rest = &rest[digits..];
        match rest.strip_prefix(':') {
            Some(r) => rest = r,
            None => return line,
        }
    }
    rest.trim_start()
}

fn describe_compile(c: &CcCompile) -> String {
    match c {
        CcCompile::Built => "built".into(),
        CcCompile::Refused(m) => format!("refused: {m}"),
        CcCompile::Crashed(m) => format!("crashed: {m}"),
        CcCompile::TimedOut => "timed out".into(),
    }
}

/// The cross glibc of `target` in Debian's layout (`/usr/aarch64-linux-gnu`), given to
/// qemu-user as `-L` so that a cross compiler's dynamically linked binaries run too (a
/// static binary ignores it). `None` when it is not installed.
fn qemu_sysroot(target: Target) -> Option<PathBuf> {
    let triple = native_target(target).gcc.strip_suffix("-gcc")?;
    let dir = PathBuf::from("/usr").join(triple);
    dir.join("lib").is_dir().then_some(dir)
}

/// The words that start a binary of `target`: nothing on the host's architecture, else
/// its qemu-user with `-L SYSROOT` (when installed) and `-0 a.out`.
fn runner_words(target: Target) -> Result<Vec<String>, String> {
    let Some(qemu) = native_target(target).qemu else {
        return Ok(Vec::new());
    };
    let path = tool_path(qemu).ok_or_else(|| {
        format!(
            "{qemu} (runs {} binaries) is not on PATH: run scripts/setup.sh",
            target.name()
        )
    })?;
    let mut words = vec![path.display().to_string()];
    if let Some(root) = qemu_sysroot(target) {
        words.extend(["-L".to_string(), root.display().to_string()]);
    }
    words.extend(["-0".to_string(), oracle::interp::PROGRAM_NAME.to_string()]);
    Ok(words)
}

/// Runs the compiler under test's binary as `oracle::native::run` runs every native
/// binary (`argv = {"a.out"}`, empty environment, a fresh working directory of its own
/// inside the build's directory, under the limits), with qemu-user's `-L` for dynamically linked cross
/// binaries. `Err` only for a broken setup.
fn run_binary(target: Target, build: &Build, limits: &RunLimits) -> Result<Execution, String> {
    use std::os::unix::process::CommandExt;
    let runner = runner_words(target)?;
    let mut cmd = match runner.split_first() {
        Some((qemu, rest)) => {
            let mut c = Command::new(qemu);
            c.args(rest).arg(&build.binary);
            c
        }
        None => {
            let mut c = Command::new(&build.binary);
            c.arg0(oracle::interp::PROGRAM_NAME);
            c
        }
    };
    let cwd = oracle::native::run::fresh_run_dir(build)?;
    cmd.env_clear().current_dir(cwd.path());
    run_limited(&mut cmd, limits.timeout, limits.max_output).map(Execution::from)
}

fn run_limits(l: &NativeLimits, long: bool) -> RunLimits {
    RunLimits {
        timeout: if long {
            l.long_run_timeout
        } else {
            l.run_timeout
        },
        max_output: l.max_output,
    }
}

/// The compiler under test's verdict on one program, before confirmation.
enum Raw {
    Agrees,
    /// No verdict (counted by reason).
    NoVerdict(String),
    /// Needs no confirmation: the compiler crashed.
    Crash(String),
    /// A difference gcc must confirm: (kind, detail, the binary's run if it ran).
    Suspect(FindingKind, String, Option<Execution>),
}

/// The compiler under test's verdict on `text` against `reference` (an exit status and
/// stdout; `elapsed` unused), and the times (compile, run).
fn run_against(
    cc: &CompilerUnderTest,
    text: &str,
    include_dirs: &[PathBuf],
    reference: &Execution,
    limits: &NativeLimits,
) -> Result<(Raw, CcAttempt, Duration), String> {
    let mut attempt = cc.compile(text, include_dirs, limits.build_timeout)?;
    if attempt.outcome == CcCompile::TimedOut {
        attempt = cc.compile(text, include_dirs, limits.long_run_timeout)?;
    }
    let raw = match &attempt.outcome {
        CcCompile::Refused(line) => {
            Raw::NoVerdict(format!("cc refused: {}", without_location(line)))
        }
        CcCompile::Crashed(why) => Raw::Crash(format!("the compiler crashed: {why}")),
        CcCompile::TimedOut => Raw::Suspect(
            FindingKind::Timeout,
            format!(
                "the compiler ran past {:.0} s",
                limits.long_run_timeout.as_secs_f64()
            ),
            None,
        ),
        CcCompile::Built => {
            let mut exec = run_binary(cc.target, &attempt.build, &run_limits(limits, false))?;
            if exec.exit == Exit::TimedOut {
                exec = run_binary(cc.target, &attempt.build, &run_limits(limits, true))?;
            }
            let ran = exec.elapsed;
            let raw = if exec.exit == Exit::TimedOut {
                Raw::Suspect(
                    FindingKind::Timeout,
                    format!(
                        "its binary ran past {:.0} s",
                        limits.long_run_timeout.as_secs_f64()
                    ),
                    Some(exec),
                )
            } else {
                match judge_against_reference(reference, &exec) {
                    NativeVerdict::Agrees => Raw::Agrees,
                    NativeVerdict::Differs(d) => Raw::Suspect(
                        FindingKind::Mismatch,
                        d.replacen("expected", "reference", 1)
                            .replacen("got", "cc", 1),
                        Some(exec),
                    ),
                }
            };
            return Ok((raw, attempt, ran));
        }
    };
    Ok((raw, attempt, Duration::ZERO))
}

/// The failure the compiler under test shows on `text` against the run `(status,
/// stdout)` it must reproduce: `Ok(kind)` (`crash`, `mismatch`, `timeout`), or `Err` why
/// there is none (it agrees, or refuses the program). The C reducer's test for `*@cc`
/// findings (`c::reduce::cc_goal`). The outer `Err` only for a broken setup.
pub fn failure_on(
    cc: &CompilerUnderTest,
    text: &str,
    include_dirs: &[PathBuf],
    (status, stdout): (i32, &[u8]),
    limits: &NativeLimits,
) -> Result<Result<FindingKind, String>, String> {
    let reference = Execution {
        exit: Exit::Code(status),
        stdout: stdout.to_vec(),
        stderr: Vec::new(),
        truncated: false,
        elapsed: Duration::ZERO,
    };
    let (raw, _, _) = run_against(cc, text, include_dirs, &reference, limits)?;
    Ok(match raw {
        Raw::Agrees => Err("the compiler under test agrees".into()),
        Raw::NoVerdict(why) => Err(why),
        Raw::Crash(_) => Ok(FindingKind::Crash),
        Raw::Suspect(kind, _, _) => Ok(kind),
    })
}

/// The compiler under test's verdict on one program of a hunt.
pub enum CcOutcome {
    Agrees,
    /// No verdict, with the reason it is counted by.
    Discarded(String),
    /// gcc -O0 on the target contradicts the generator's expected output.
    GeneratorBug(String),
    /// A finding: kind, one line of detail, and the files that go with it.
    Failed {
        kind: FindingKind,
        detail: String,
        files: Vec<(String, String)>,
    },
}

/// [`CcOutcome`] with the stage's counters for this program (stage `cc`).
pub struct CcJudgement {
    pub outcome: CcOutcome,
    pub tally: StageTally,
}

/// Judges the compiler under test on a generated (or csmith) program against its
/// expected output for `cc.target`, confirmed by gcc when they differ. `Err` only for a
/// broken setup.
pub fn judge_program(
    cc: &CompilerUnderTest,
    p: &CProgram,
    limits: &NativeLimits,
) -> Result<CcJudgement, String> {
    let expected = Execution {
        exit: Exit::Code(0),
        stdout: p.expected(cc.target).as_bytes().to_vec(),
        stderr: Vec::new(),
        truncated: false,
        elapsed: Duration::ZERO,
    };
    let (raw, attempt, ran) = run_against(cc, &p.text, &p.include_dirs, &expected, limits)?;
    let mut tally = StageTally {
        build_us: attempt.build.elapsed.as_micros() as u64,
        run_us: ran.as_micros() as u64,
        ..StageTally::default()
    };
    let files = |kind, detail: &str, exec: Option<&Execution>| {
        finding_files(cc, p, kind, detail, &attempt.stderr, exec)
    };
    let outcome = match raw {
        Raw::Agrees => CcOutcome::Agrees,
        Raw::NoVerdict(why) => CcOutcome::Discarded(why),
        Raw::Crash(detail) => CcOutcome::Failed {
            kind: FindingKind::Crash,
            files: files(FindingKind::Crash, &detail, None),
            detail,
        },
        Raw::Suspect(kind, detail, exec) => {
            match gcc_reference(cc.target, &attempt.source(), &p.include_dirs, limits)? {
                CReference::Discarded(why) => CcOutcome::Discarded(format!("cc reference: {why}")),
                CReference::Usable { o0, .. }
                    if o0.exit == expected.exit
                        && oracle::native::c_stdout::same_c_stdout(
                            &o0.stdout,
                            &expected.stdout,
                        ) =>
                {
                    CcOutcome::Failed {
                        kind,
                        files: files(kind, &detail, exec.as_ref()),
                        detail: format!(
                            "{detail} (gcc -O0 and -O2 for {} print the expected output)",
                            cc.target.name()
                        ),
                    }
                }
                CReference::Usable { o0, .. } => CcOutcome::GeneratorBug(format!(
                    "cc: gcc -O0 for {} gives {}, not the expected output",
                    cc.target.name(),
                    o0.describe()
                )),
            }
        }
    };
    match &outcome {
        CcOutcome::Agrees | CcOutcome::Failed { .. } => tally.programs = 1,
        CcOutcome::Discarded(why) => {
            tally.discarded.insert(why.clone(), 1);
        }
        CcOutcome::GeneratorBug(_) => {}
    }
    tally.vectors_run = tally.programs;
    Ok(CcJudgement { outcome, tally })
}

/// The compiler under test on a C file against gcc's reference for `cc.target` (gcc -O0,
/// confirmed by -O2): `check FILE.c --cc CMD`'s row, and a reducer's test. The file's
/// own directory is searched for includes first. `Err` only for a broken setup.
pub fn judge_file(
    cc: &CompilerUnderTest,
    path: &Path,
    include_dirs: &[PathBuf],
    limits: &NativeLimits,
) -> Result<RowVerdict, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut includes = Vec::new();
    if let Some(parent) = path.parent().and_then(|p| std::fs::canonicalize(p).ok()) {
        includes.push(parent);
    }
    includes.extend(include_dirs.iter().cloned());
    let reference = match gcc_reference(cc.target, path, &includes, limits)? {
        CReference::Discarded(why) => return Ok(RowVerdict::Discarded(why)),
        CReference::Usable { o0, .. } => o0,
    };
    let (raw, _attempt, _) = run_against(cc, &text, &includes, &reference, limits)?;
    Ok(match raw {
        Raw::Agrees => RowVerdict::Agrees,
        Raw::NoVerdict(why) => RowVerdict::Discarded(why),
        Raw::Crash(detail) => RowVerdict::Failed(crate::native::NativeFailure::new(
            FindingKind::Crash,
            detail,
        )),
        Raw::Suspect(kind, detail, _) => {
            RowVerdict::Failed(crate::native::NativeFailure::new(kind, detail))
        }
    })
}

/// The compiler under test in a hunt (`HuntConfig::cc`).
#[derive(Clone, Debug)]
pub struct CcStage {
    pub compiler: CompilerUnderTest,
    /// phicc's own stages run too (default); `--no-phicc` switches them off.
    pub phicc: bool,
}

/// What the campaign does with a program after the compiler under test saw it.
pub enum HuntStep {
    /// Agreed, or no verdict while phicc's stages gave one (the reason is in the `cc`
    /// tally): the program keeps phicc's verdict.
    Continue,
    /// No verdict and phicc's stages are off: the program is discarded for this reason.
    Discarded(String),
    /// Saved as the generator's bug, not a finding.
    GeneratorBug(String),
    /// A finding, with its extra files ([`finding_files`]).
    Finding(Box<crate::diff::Finding>, Vec<(String, String)>),
}

impl CcStage {
    /// The header line's part: the compiler, its target, and whether phicc runs too.
    pub fn describe(&self) -> String {
        format!(
            "{}{}",
            self.compiler.describe(),
            if self.phicc { "" } else { " only (--no-phicc)" }
        )
    }

    /// Judges `p` ([`judge_program`]) and adds the `cc` row to the program's native
    /// tallies. `Err` only for a broken setup.
    pub fn hunt_step(
        &self,
        p: &CProgram,
        limits: &NativeLimits,
        tallies: &mut Option<std::collections::BTreeMap<String, StageTally>>,
    ) -> Result<HuntStep, String> {
        let j = judge_program(&self.compiler, p, limits)?;
        tallies
            .get_or_insert_with(Default::default)
            .entry(STAGE.to_string())
            .or_default()
            .merge(&j.tally);
        Ok(match j.outcome {
            CcOutcome::Agrees => HuntStep::Continue,
            CcOutcome::Discarded(_) if self.phicc => HuntStep::Continue,
            CcOutcome::Discarded(why) => HuntStep::Discarded(why),
            CcOutcome::GeneratorBug(why) => HuntStep::GeneratorBug(why),
            CcOutcome::Failed {
                kind,
                detail,
                files,
            } => HuntStep::Finding(
                Box::new(crate::diff::Finding {
                    signature: crate::diff::Signature::new(kind, STAGE),
                    args: Vec::new(),
                    reference: None,
                    got: None,
                    detail: format!("{STAGE} (`{}`): {detail}", self.compiler.command),
                    expectations: Vec::new(),
                }),
                files,
            ),
        })
    }
}

/// The files saved with a finding of the compiler under test (besides the program and
/// its expected outputs, which the campaign saves for every C finding).
pub fn finding_files(
    cc: &CompilerUnderTest,
    p: &CProgram,
    kind: FindingKind,
    detail: &str,
    cc_stderr: &[u8],
    exec: Option<&Execution>,
) -> Vec<(String, String)> {
    let reference = p.expected(cc.target);
    let mut summary = format!(
        "compiler under test: {}\ntarget: {}\ncommand run in a fresh directory: {}\n\
         {}@{STAGE}: {detail}\nreference: exit 0, stdout {}\n",
        cc.command,
        cc.target.name(),
        shell_join(&cc.argv(&p.include_dirs)),
        kind.name(),
        oracle::native::gcc::quote_stdout(reference.as_bytes()),
    );
    let mut files = vec![
        ("reference.txt".to_string(), reference.to_string()),
        (
            "cc-stderr.txt".to_string(),
            String::from_utf8_lossy(cc_stderr).into_owned(),
        ),
    ];
    if let Some(e) = exec {
        summary.push_str(&format!("cc's binary: {}\n", e.describe()));
        files.push((
            "cc-stdout.txt".to_string(),
            String::from_utf8_lossy(&e.stdout).into_owned(),
        ));
    }
    summary.push_str("reproduce: ./reproduce.sh (exit 0 while the finding reproduces)\n");
    files.push(("cc.txt".to_string(), summary));
    files.push((
        "reproduce.sh".to_string(),
        reproduce_script(cc, &p.include_dirs, kind),
    ));
    files
}

/// Writes a finding's extra files into `dir` (atomically; `reproduce.sh` executable).
pub fn write_finding_files(dir: &Path, files: &[(String, String)]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for (name, text) in files {
        let path = dir.join(name);
        crate::findings::write_atomically(&path, text.as_bytes())?;
        if name.ends_with(".sh") {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    Ok(())
}

/// Words quoted for a POSIX shell (a word that cannot be quoted, with a NUL, is dropped
/// to its lossy form: command lines never hold one).
fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shlex::try_quote(w).map_or_else(|_| w.replace('\0', ""), |q| q.into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `reproduce.sh [FILE.c]`: compiles FILE.c (default: `program.c` beside the script) with
/// the compiler under test exactly as the hunt did, runs the binary as the hunt did, and
/// compares with `reference.txt` (exit 0 expected). Exit 0 when the finding of `kind`
/// still shows, 1 when it does not.
pub fn reproduce_script(
    cc: &CompilerUnderTest,
    include_dirs: &[PathBuf],
    kind: FindingKind,
) -> String {
    // The runner's words (qemu-user and its options); a missing qemu is named as is.
    let runner = match runner_words(cc.target) {
        Ok(w) if w.is_empty() => String::new(),
        Ok(w) => format!("{} ", shell_join(&w)),
        Err(_) => format!(
            "{} -0 a.out ",
            native_target(cc.target).qemu.unwrap_or("qemu")
        ),
    };
    let crash = CRASH_TEXTS.join("|");
    format!(
        r#"#!/usr/bin/env bash
# phihunt: {kind}@{STAGE} with the compiler under test `{command}` (target {target}).
# Usage: ./reproduce.sh [FILE.c]   (default: program.c beside this script)
# Compiles FILE.c as the hunt did, runs the binary as the hunt did (empty environment,
# argv[0] a.out), and compares with reference.txt (exit status 0 expected).
# Exit 0 while the finding reproduces, 1 when it does not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(realpath "${{1:-$here/program.c}}")
ref="$here/reference.txt"
kind={kind}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src" "$work/program.c"
cd "$work" || exit 2
timeout 120 {compile} 2>cc-stderr.txt
cc_status=$?
crashed=no
if [ $cc_status -ne 0 ] && [ $cc_status -ne 124 ]; then
  [ $cc_status -ge {lo} ] && [ $cc_status -le {hi} ] && crashed=yes
  grep -qiE '{crash}' cc-stderr.txt && crashed=yes
fi
if [ "$kind" = crash ]; then
  if [ $crashed = yes ]; then echo "reproduces: the compiler crashed (status $cc_status)"; head -5 cc-stderr.txt; exit 0; fi
  echo "does not reproduce: the compiler exited with status $cc_status"; exit 1
fi
if [ $cc_status -eq 124 ]; then
  echo "the compiler timed out"; [ "$kind" = timeout ] && exit 0; exit 1
fi
if [ $cc_status -ne 0 ]; then
  echo "the compiler failed (status $cc_status, crashed: $crashed):"; head -5 cc-stderr.txt; exit 1
fi
timeout 60 env -i {runner}./a.out > stdout.txt
status=$?
echo "cc's binary: exit $status"
if [ $status -eq 124 ]; then
  echo "its binary timed out"; [ "$kind" = timeout ] && exit 0; exit 1
fi
if [ $status -eq 0 ] && cmp -s stdout.txt "$ref"; then
  echo "does not reproduce: the binary agrees with the reference"; exit 1
fi
[ "$kind" = mismatch ] || exit 1
diff "$ref" stdout.txt | head -20
echo "reproduces: the binary differs from the reference"
exit 0
"#,
        kind = kind.name(),
        command = cc.command.replace('\n', " "),
        target = cc.target.name(),
        compile = shell_join(&cc.argv(include_dirs)),
        lo = CRASH_STATUSES.start(),
        hi = CRASH_STATUSES.end(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crashes_are_told_from_refusals() {
        let dir = Path::new("/tmp/phihunt-native-x");
        let refused = classify(
            &Termination::Exited(1),
            b"/tmp/phihunt-native-x/program.c:3:1: error: expected ';'\n",
            dir,
        );
        assert_eq!(
            refused,
            CcCompile::Refused("program.c:3:1: error: expected ';'".into())
        );
        let ice = classify(
            &Termination::Exited(4),
            b"program.c:9:1: internal compiler error: in expand_expr, at expr.c:1\n",
            dir,
        );
        assert!(matches!(ice, CcCompile::Crashed(ref m) if m.contains("internal compiler error")));
        assert!(matches!(
            classify(&Termination::Signaled(11), b"", dir),
            CcCompile::Crashed(ref m) if m.contains("SIGSEGV")
        ));
        assert!(matches!(
            classify(&Termination::Exited(139), b"", dir),
            CcCompile::Crashed(_)
        ));
        assert_eq!(
            classify(&Termination::Exited(0), b"", dir),
            CcCompile::Built
        );
        assert_eq!(
            classify(&Termination::TimedOut, b"", dir),
            CcCompile::TimedOut
        );
    }

    #[test]
    fn refusals_are_counted_without_their_location() {
        assert_eq!(
            without_location("program.c:56:12: error: label at end of compound statement"),
            "error: label at end of compound statement"
        );
        assert_eq!(without_location("program.c:3: error: x"), "error: x");
        assert_eq!(
            without_location("ld: cannot find -lfoo"),
            "ld: cannot find -lfoo"
        );
        assert_eq!(without_location("program.c: error: y"), "error: y");
        assert_eq!(without_location("program.c:7x: z"), "program.c:7x: z");
    }

    #[test]
    fn the_command_is_split_as_a_shell_would_and_completed_by_the_contract() {
        let cc = CompilerUnderTest::new("sh -c 'exit 0' \"a b\"", Target::X86_64).unwrap();
        assert!(cc.words[0].starts_with('/') && cc.words[0].ends_with("/sh"));
        assert_eq!(&cc.words[1..], ["-c", "exit 0", "a b"]);
        assert_eq!(
            &cc.argv(&[PathBuf::from("/usr/include/csmith")])[4..],
            ["-I", "/usr/include/csmith", "-o", "a.out", "program.c"]
        );
        assert!(CompilerUnderTest::new("no-such-compiler-phihunt -O2", Target::X86_64).is_err());
        assert!(CompilerUnderTest::new("gcc 'unterminated", Target::X86_64).is_err());
        assert!(CompilerUnderTest::new("  ", Target::X86_64).is_err());
    }
}
