//! The C reducer's interestingness test: the candidate is defined, and still shows the bug.
//!
//! Why: C-Reduce and C-Vise users' classic failure is a "reduced" program that shows the
//! difference only because it has drifted into undefined behaviour. Here a candidate is
//! kept only when it is *defined* first — the UB judge (the checked lowering in the
//! oracle, `check/ub_judge.rs`) finds no UB within fuel, gcc accepts it without the
//! warnings that flag UB the judge does not see (unsequenced side effects, a missing
//! `return` value, incompatible pointer or integer conversions, implicit declarations),
//! and the host gcc -O0 build prints exactly what the oracle printed — and then shows the
//! finding's signature (`Signature::bug`), judged as the C judge judges it:
//! - a middle-end signature (`mismatch@gvn`, `verify@licm`): `check::c_source::judge_stages`
//!   against the oracle's own run, first failing stage;
//! - `mismatch@lowered` (a front-end bug): `lowered` differs from gcc -O0, and gcc -O0 and
//!   -O2 agree;
//! - a native signature (`mismatch@native:i686`): every middle-end stage agrees, the UB
//!   judge finds no UB on the target's data model either, phicc's binary fails the same
//!   way against the oracle's run there, and the target's gcc -O0 and -O2 agree with
//!   each other and with the oracle (`native::c_program::gcc_reference`).
//! - `panic@frontend`: phicc's front end panics (any message: the signature names the
//!   stage, not the panic), on a program gcc accepts with the lint flags;
//! - `mismatch@cc`, `crash@cc`, `timeout@cc` (`hunt --cc`): the compiler under test
//!   fails that way again (`cc_goal`).
//!
//! Invariants: cheap checks first (our parse, phicc, the oracle), gcc last; every child
//! process under a timeout; candidate files only in the tester's `tempfile` directory;
//! results cached by the text's hash, so no text is judged twice.

use crate::check::c_source::{front_end_for, judge_stages, FrontEndFailure, Invalid};
use crate::check::ub_judge::{checked_front_end_for, judge_defined};
use crate::diff::{FindingKind, Signature};
use crate::findings::content_hash;
use crate::native::c_program::{gcc_reference, phicc_module, run_c_stage, CReference};
use crate::native::{NativeLimits, NativeStage, RowVerdict};
use compiler::pipeline::{PipelineOptions, STAGE_LOWERED};
use compiler::target::Target;
use oracle::native::gcc::{reference_on, reference_run, NativeOutcome, ReferenceConfig};
use oracle::native::{run_limited, Execution, Exit, Termination};
use oracle::{Outcome, RunConfig, RunResult};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The stage name of a front-end panic's signature (`panic@frontend`).
pub const STAGE_FRONTEND: &str = "frontend";

/// gcc warnings that flag undefined behaviour the UB judge does not check, made errors.
pub const LINT_FLAGS: [&str; 12] = [
    "-Werror=sequence-point",
    "-Werror=format",
    "-Werror=return-type",
    "-Werror=int-conversion",
    "-Werror=incompatible-pointer-types",
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
    "-Werror=overflow",
    "-Werror=div-by-zero",
    "-Werror=shift-count-overflow",
    "-Werror=shift-count-negative",
    "-Werror=builtin-declaration-mismatch",
];

/// Oracle instructions the candidate's reference run may take.
pub const REDUCE_FUEL: u64 = 100_000_000;

/// What must hold of a candidate.
#[derive(Clone, Debug)]
pub struct CGoal {
    /// The finding's signature; compared as [`Signature::bug`].
    pub signature: Signature,
    pub include_dirs: Vec<PathBuf>,
    pub pipeline: PipelineOptions,
    /// Fuel of the UB judge's run (the stages get 8 times its steps).
    pub fuel: u64,
    pub limits: NativeLimits,
    /// The lint flags in force (those the original passes).
    pub lint: Vec<String>,
    /// The compiler under test a `*@cc` signature is about (`hunt --cc`), rerun on
    /// every candidate (`cc_goal`).
    pub cc: Option<crate::c::cc::CompilerUnderTest>,
}

impl CGoal {
    pub fn new(signature: Signature) -> CGoal {
        CGoal {
            signature,
            include_dirs: Vec::new(),
            pipeline: PipelineOptions::default(),
            fuel: REDUCE_FUEL,
            limits: NativeLimits {
                run_timeout: Duration::from_secs(5),
                ..NativeLimits::default()
            },
            lint: LINT_FLAGS.iter().map(|s| s.to_string()).collect(),
            cc: None,
        }
    }
}

/// Where a candidate was turned down (for the statistics), or that it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Defined, and shows the signature: the program's (exit status, stdout) per gcc -O0.
    Interesting {
        status: i32,
        stdout: Vec<u8>,
    },
    Rejected {
        step: &'static str,
        why: String,
    },
}

pub(super) fn rejected(step: &'static str, why: impl Into<String>) -> Check {
    Check::Rejected {
        step,
        why: why.into(),
    }
}

/// A candidate's exit status as a real machine ends it.
pub(super) fn exit_status(r: &RunResult) -> Option<i32> {
    match r.outcome {
        Outcome::Returned(Some(v)) => Some((v & 0xff) as i32),
        Outcome::Exited(c) => Some(c & 0xff),
        _ => None,
    }
}

/// The failure kind a `judge_stages` cell stands for (its texts are set in
/// `check/c_source.rs`: the failure row's label, `cannot run`, or an outcome).
fn cell_kind(text: &str) -> FindingKind {
    match text {
        "verifier failed" => FindingKind::Verify,
        "panicked" => FindingKind::Panic,
        "unreported change" => FindingKind::UnreportedChange,
        "cannot run" => FindingKind::CannotRun,
        _ => FindingKind::Mismatch,
    }
}

/// Judges C programs against one goal, with a cache; owns the scratch directory.
pub struct Tester {
    pub goal: CGoal,
    dir: tempfile::TempDir,
    cache: HashMap<u64, Check>,
    /// Rejections by step, and the number of texts judged (cache misses).
    pub rejections: BTreeMap<&'static str, usize>,
    pub judged: usize,
    pub cache_hits: usize,
}

impl Tester {
    pub fn new(goal: CGoal) -> Result<Tester, String> {
        let dir = tempfile::Builder::new()
            .prefix("phihunt-creduce-")
            .tempdir()
            .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        Ok(Tester {
            goal,
            dir,
            cache: HashMap::new(),
            rejections: BTreeMap::new(),
            judged: 0,
            cache_hits: 0,
        })
    }

    /// The verdict on `text` (cached). `Err` only for a broken setup.
    pub fn check(&mut self, text: &str) -> Result<Check, String> {
        let key = content_hash(text.as_bytes());
        if let Some(c) = self.cache.get(&key) {
            self.cache_hits += 1;
            return Ok(c.clone());
        }
        self.judged += 1;
        let path = self.dir.path().join("candidate.c");
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let verdict = judge(&self.goal, &path)?;
        if let Check::Rejected { step, .. } = &verdict {
            *self.rejections.entry(step).or_default() += 1;
        }
        self.cache.insert(key, verdict.clone());
        Ok(verdict)
    }

    /// True when `text` is defined and shows the signature.
    pub fn holds(&mut self, text: &str) -> Result<bool, String> {
        Ok(matches!(self.check(text)?, Check::Interesting { .. }))
    }

    /// The scratch directory (for the C-Vise script).
    pub fn scratch(&self) -> &Path {
        self.dir.path()
    }
}

/// Runs gcc with the lint flags on `path` (compiling to assembly, thrown away):
/// `Err(first error line)` when it refuses.
pub fn lint(
    path: &Path,
    include_dirs: &[PathBuf],
    flags: &[String],
) -> Result<Result<(), String>, String> {
    let mut cmd = Command::new("gcc");
    // `-S`, not `-fsyntax-only`: some of the warnings (a missing `return`) come from
    // gcc's middle end.
    cmd.args(["-S", "-o", "/dev/null"]);
    for d in include_dirs {
        cmd.arg("-I").arg(d);
    }
    cmd.args(flags).arg(path);
    let r = run_limited(&mut cmd, Duration::from_secs(30), 1 << 16)?;
    Ok(match r.termination {
        Termination::Exited(0) => Ok(()),
        Termination::TimedOut => Err("gcc -S timed out".into()),
        _ => Err(String::from_utf8_lossy(&r.stderr)
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or("gcc refuses it")
            .to_string()),
    })
}

/// The host gcc -O0 build's (status, stdout), or why it has none.
fn gcc_o0(path: &Path, goal: &CGoal, opt: &str) -> Result<Result<(i32, Vec<u8>), String>, String> {
    let cfg = ReferenceConfig {
        include_dirs: goal.include_dirs.clone(),
        run_timeout: goal.limits.run_timeout,
        ..ReferenceConfig::default()
    };
    let run = if opt == "-O0" {
        reference_run(path, &cfg)?
    } else {
        reference_on(Target::X86_64, path, &cfg, opt)?
    };
    Ok(match run.outcome {
        NativeOutcome::Exited { code, stdout } => Ok((code, stdout)),
        other => Err(other.describe()),
    })
}

/// The whole test on the file at `path`.
pub fn judge(goal: &CGoal, path: &Path) -> Result<Check, String> {
    let includes = &goal.include_dirs;
    let want = goal.signature.bug();
    let frontend_panic = want.stage == STAGE_FRONTEND;
    let module = match front_end_for(path, includes, Target::X86_64).result {
        Ok(m) => m,
        Err(FrontEndFailure::Panic(_)) if frontend_panic => {
            // A front-end panic (any message), on a program gcc accepts.
            if let Err(why) = lint(path, includes, &goal.lint)? {
                return Ok(rejected("gcc lint", why));
            }
            return Ok(Check::Interesting {
                status: 0,
                stdout: Vec::new(),
            });
        }
        Err(FrontEndFailure::Panic(msg)) => {
            return Ok(rejected("front end", format!("panic: {msg}")))
        }
        Err(FrontEndFailure::Refused(why)) => return Ok(rejected("front end", why.message())),
    };
    if frontend_panic {
        return Ok(rejected("signature", "the front end no longer panics"));
    }
    if want.stage == crate::c::cc::STAGE {
        return super::cc_goal::judge_cc(goal, path, &want);
    }
    let checked = match checked_front_end_for(path, includes, Target::X86_64) {
        Ok(m) => m,
        Err(_) => return Ok(rejected("front end", "the checked lowering fails")),
    };
    let run_cfg = RunConfig {
        fuel: goal.fuel,
        ..RunConfig::default()
    };
    let oracle_run = match judge_defined(&checked, &run_cfg) {
        Ok(r) => r,
        Err(Invalid::Undefined { category, .. }) => return Ok(rejected("ub judge", category)),
        Err(other) => return Ok(rejected("ub judge", other.message())),
    };
    let Some(status) = exit_status(&oracle_run) else {
        return Ok(rejected("ub judge", oracle_run.outcome.to_string()));
    };
    let oracle_ref = (status, oracle_run.stdout.clone());
    let stage_cfg = RunConfig {
        fuel: oracle_run.steps.saturating_mul(8).saturating_add(10_000),
        ..RunConfig::default()
    };
    let lowered_bug = want.stage == STAGE_LOWERED;
    // The reference the stages are held to: the oracle's run (a middle-end or native
    // bug), gcc's (a front-end bug: the oracle's `lowered` is the thing under test).
    let reference = if lowered_bug {
        let o0 = match gcc_o0(path, goal, "-O0")? {
            Ok(r) => r,
            Err(why) => return Ok(rejected("gcc", why)),
        };
        match gcc_o0(path, goal, "-O2")? {
            Ok(o2) if o2 == o0 => {}
            Ok(_) => return Ok(rejected("gcc", "gcc -O0 and -O2 disagree")),
            Err(why) => return Ok(rejected("gcc", why)),
        }
        o0
    } else {
        oracle_ref.clone()
    };
    let judgement = match judge_stages(
        &module,
        &checked,
        reference.clone(),
        &goal.pipeline,
        &stage_cfg,
    ) {
        Ok(j) => j,
        Err(why) => return Ok(rejected("ub judge", why.message())),
    };
    let first = judgement
        .first_mismatch()
        .map(|(stage, text)| Signature::new(cell_kind(text), stage).bug());
    if want.is_native() {
        if let Some(sig) = first {
            return Ok(rejected(
                "signature",
                format!("a middle-end stage fails first ({sig})"),
            ));
        }
    } else if first.as_ref() != Some(&want) {
        return Ok(rejected(
            "signature",
            first.map_or("every stage agrees".into(), |s| s.to_string()),
        ));
    }
    if let Err(why) = lint(path, includes, &goal.lint)? {
        return Ok(rejected("gcc lint", why));
    }
    if !lowered_bug {
        // Defined means gcc -O0 agrees with the oracle.
        match gcc_o0(path, goal, "-O0")? {
            Ok(o0) if o0 == oracle_ref => {}
            Ok((code, _)) => {
                return Ok(rejected(
                    "gcc",
                    format!("gcc -O0 differs from the oracle (exit {code})"),
                ));
            }
            Err(why) => return Ok(rejected("gcc", why)),
        }
    }
    if want.is_native() {
        return native_check(goal, path, &want, reference);
    }
    Ok(Check::Interesting {
        status: reference.0,
        stdout: reference.1,
    })
}

/// The native part of the test. phicc's binary is first held to the oracle's own run on
/// the target's data model (cheap: no gcc build), and only a binary that fails the same
/// way costs the target's gcc -O0 and -O2 builds, which must agree with each other and
/// with the oracle. `reference` is the x86_64 run (what the test file's header records).
fn native_check(
    goal: &CGoal,
    path: &Path,
    want: &Signature,
    reference: (i32, Vec<u8>),
) -> Result<Check, String> {
    let Some(stage) = NativeStage::from_name(&want.stage) else {
        return Ok(rejected(
            "signature",
            format!("unknown native stage {}", want.stage),
        ));
    };
    // The oracle's run for the target's data model (i686 is ILP32).
    let (status, stdout) = if stage.target.sizeof_pointer() == 8 {
        reference.clone()
    } else {
        let Ok(checked) = checked_front_end_for(path, &goal.include_dirs, stage.target) else {
            return Ok(rejected(
                "front end",
                format!("the checked lowering for {}", stage.target.name()),
            ));
        };
        let cfg = RunConfig {
            fuel: goal.fuel,
            ptr_bytes: stage.target.sizeof_pointer(),
            ..RunConfig::default()
        };
        match judge_defined(&checked, &cfg) {
            Ok(run) => match exit_status(&run) {
                Some(code) => (code, run.stdout),
                None => return Ok(rejected("ub judge", run.outcome.to_string())),
            },
            Err(why) => {
                return Ok(rejected(
                    "ub judge",
                    format!("on {}: {}", stage.target.name(), why.message()),
                ))
            }
        }
    };
    let module = match phicc_module(stage.target, path, &goal.include_dirs, &goal.pipeline) {
        Ok((m, _)) => m,
        Err(RowVerdict::Discarded(why)) => return Ok(rejected("ub judge", why)),
        Err(RowVerdict::Failed(f)) => {
            return Ok(rejected(
                "signature",
                format!("{}: {}", f.kind.name(), f.detail),
            ))
        }
        Err(RowVerdict::Agrees) => return Ok(rejected("signature", "no module")),
    };
    // As the hunt does with a generated program's expected output: the reference's
    // `elapsed` is the run limit, so a slow binary gets the long limit before it counts.
    let oracle_execution = Execution {
        exit: Exit::Code(status),
        stdout: stdout.clone(),
        stderr: Vec::new(),
        truncated: false,
        elapsed: goal.limits.run_timeout,
    };
    let (verdict, _) = run_c_stage(&module, stage, &oracle_execution, &goal.limits)?;
    match verdict {
        RowVerdict::Failed(f) if f.kind == want.kind => {}
        RowVerdict::Failed(f) => {
            return Ok(rejected("signature", format!("{} natively", f.kind.name())))
        }
        RowVerdict::Discarded(why) => return Ok(rejected("gcc", why)),
        RowVerdict::Agrees => return Ok(rejected("signature", "the native stage agrees")),
    }
    // Confirmed by the target's gcc: -O0 and -O2 agree, and print what the oracle did.
    let o0 = match gcc_reference(stage.target, path, &goal.include_dirs, &goal.limits)? {
        CReference::Usable { o0, .. } => o0,
        CReference::Discarded(why) => return Ok(rejected("gcc", why)),
    };
    if o0.exit != Exit::Code(status)
        || !oracle::native::c_stdout::same_c_stdout(&o0.stdout, &stdout)
    {
        return Ok(rejected(
            "gcc",
            format!("{}'s gcc -O0 differs from the oracle", stage.target.name()),
        ));
    }
    Ok(Check::Interesting {
        status: reference.0,
        stdout: reference.1,
    })
}

/// The signature the C file at `path` shows, judged as [`judge`] would keep it: a
/// front-end panic, the first failing middle-end stage against the oracle's run (checked
/// by gcc -O0), `mismatch@lowered` when the oracle's `lowered` differs from agreeing gcc
/// -O0 and -O2 builds, else the first failing stage of `native` (in order). `Err` is why
/// the file cannot be reduced (undefined, nothing fails, or a broken setup).
pub fn find_signature(
    path: &Path,
    includes: &[PathBuf],
    pipeline: &PipelineOptions,
    native: &[NativeStage],
    limits: NativeLimits,
) -> Result<Signature, String> {
    let base = |sig: Signature| CGoal {
        include_dirs: includes.to_vec(),
        pipeline: pipeline.clone(),
        limits,
        ..CGoal::new(sig)
    };
    if let Err(FrontEndFailure::Panic(_)) = front_end_for(path, includes, Target::X86_64).result {
        return Ok(Signature::new(FindingKind::Panic, STAGE_FRONTEND));
    }
    // Try the middle-end reading first: the judge with a goal no stage can have tells
    // which stage fails (its rejection names it).
    let probe = base(Signature::new(FindingKind::Mismatch, "?"));
    match judge(&probe, path)? {
        Check::Rejected {
            step: "signature",
            why,
        } if why != "every stage agrees" => {
            let sig = parse_signature(&why).ok_or(format!("cannot read the signature `{why}`"))?;
            if sig.stage == STAGE_LOWERED {
                let lowered = base(sig.clone());
                return match judge(&lowered, path)? {
                    Check::Interesting { .. } => Ok(sig),
                    Check::Rejected { step, why } => Err(format!("`lowered` differs from the oracle's run, but not as a front-end bug ({step}: {why})")),
                };
            }
            match judge(&base(sig.clone()), path)? {
                Check::Interesting { .. } => Ok(sig),
                Check::Rejected { step, why } => {
                    Err(format!("{sig} is not kept by the test ({step}: {why})"))
                }
            }
        }
        Check::Rejected {
            step: "signature", ..
        } => {
            // `lowered` may still differ from gcc (a front-end bug) ...
            let lowered = Signature::new(FindingKind::Mismatch, STAGE_LOWERED);
            if let Check::Interesting { .. } = judge(&base(lowered.clone()), path)? {
                return Ok(lowered);
            }
            // ... or a native stage.
            for stage in native {
                for kind in [
                    FindingKind::Mismatch,
                    FindingKind::Timeout,
                    FindingKind::RegallocCheck,
                    FindingKind::BackendError,
                    FindingKind::AsmRejected,
                ] {
                    let sig = Signature::new(kind, &stage.name());
                    if let Check::Interesting { .. } = judge(&base(sig.clone()), path)? {
                        return Ok(sig);
                    }
                }
            }
            Err(format!(
                "{NOTHING_TO_REDUCE}: every stage agrees with the reference"
            ))
        }
        Check::Rejected { step, why } => {
            Err(format!("the program cannot be judged ({step}): {why}"))
        }
        Check::Interesting { .. } => Err("no stage named `?` exists".into()),
    }
}

/// How [`find_signature`]'s error starts when the program is fine but shows no bug (any
/// other error is an input that cannot be judged, or a broken setup).
pub const NOTHING_TO_REDUCE: &str = "nothing to reduce";

/// Reads `kind@stage` (as `Display` prints it) back.
pub fn parse_signature(s: &str) -> Option<Signature> {
    let (kind, stage) = s.split_once('@')?;
    let kinds = [
        FindingKind::Mismatch,
        FindingKind::Verify,
        FindingKind::Panic,
        FindingKind::CannotRun,
        FindingKind::UnreportedChange,
        FindingKind::RegallocCheck,
        FindingKind::BackendError,
        FindingKind::AsmRejected,
        FindingKind::Timeout,
    ];
    let kind = kinds.into_iter().find(|k| k.name() == kind)?;
    Some(Signature::new(kind, stage))
}
