//! Mutants of real C as a campaign program source (`--gen mutate`).
//!
//! Why: a mutant is only worth compiling when it is defined; this source is where that is
//! decided, cheapest judge first, so the campaign gets a program with a trusted expected
//! output (like csmith's, from gcc) and every dropped mutant is counted by its reason.
//!
//! The judges, in order (each drop is a discard of that kind, never a finding):
//! 1. `mutant-unreadable`: the light parser cannot read the base program or no family
//!    applies;
//! 2. `frontend-refused`: phicc's front end refuses the mutant (a front-end *panic* is a
//!    finding, saved under `front-end-panics/`);
//! 3. `mutant-ub`, `mutant-no-verdict`: the UB judge (the checked lowering in the oracle)
//!    finds undefined behaviour on the LP64 or the ILP32 data model, or the run does not
//!    end normally within the fuel (out of fuel, a trap, no `main` it can call);
//! 4. `reference-*`, `o0-o2-disagree`, `reference-exit-nonzero`: gcc -O0 and -O2 on
//!    x86_64 and on i686 must build it, agree, and exit 0; gcc -O0's stdout on each data
//!    model is the expected output every stage and target is held to.
//!
//! A `main(argc, argv)` (or with `envp`) is wrapped by [`with_hosted_main`] before any
//! judge sees it, so gcc, the UB judge and every stage run the same hosted call.
//!
//! Invariant: `make(seed)` depends only on the pool and the seed; the pool is loaded once.

use super::pool::Pool;
use crate::c::gen::features::FeatureSet;
use crate::c::gen::CProgram;
use crate::c::judge::{checked_front_end, front_end};
use crate::c::reference::Reason;
use crate::campaign::source::{Candidate, ProgramSource, Rejection, SETUP_ERROR};
use crate::check::c_source::Invalid;
use crate::check::ub_judge::judge_defined;
use crate::native::c_program::{gcc_reference, CReference};
use crate::native::NativeLimits;
use compiler::target::Target;
use oracle::native::Exit;
use oracle::{Outcome, RunConfig};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// Oracle instructions the UB judge gives a mutant (a mutant that needs more is dropped).
pub const MUTANT_FUEL: u64 = 20_000_000;

/// The mutation source over a loaded pool.
pub struct MutateSource {
    pub pool: Pool,
}

impl MutateSource {
    /// The source over the default corpus pool (see `pool.rs`).
    /// Says on stderr which files it leaves out of the pool, and why.
    pub fn from_corpus() -> Result<MutateSource, String> {
        let pool = Pool::default_corpus()?;
        eprintln!("mutate: pool of {}", pool.describe());
        let left_out = pool.left_out();
        for (name, why) in left_out.iter().take(5) {
            eprintln!("mutate: {name} is not in the pool ({why})");
        }
        if left_out.len() > 5 {
            eprintln!(
                "mutate: ... and {} more files not in the pool",
                left_out.len() - 5
            );
        }
        Ok(MutateSource { pool })
    }
}

fn discard(kind: &'static str, reason: String, files: Vec<(String, String)>) -> Rejection {
    Rejection {
        compiler_panic: false,
        kind,
        reason,
        files,
    }
}

fn files(p: &CProgram) -> Vec<(String, String)> {
    vec![("program.c".into(), p.text.clone())]
}

/// The mutant's text as saved and as `gen mutate` prints it: a comment naming its base.
pub fn with_header(text: &str, base: &str) -> String {
    format!("/* phihunt mutant of {base} */\n{text}")
}

/// `text` with its `main` renamed (by the preprocessor, so every use follows) and called
/// by a new `main(void)` as a hosted program's is: `argc = 1`, `argv = {PROGRAM_NAME,
/// NULL}` in writable memory, and for a third parameter an empty environment. The
/// campaign's differential calls functions with integer arguments only, so without this
/// a program that reads `argv[0]` would read through `NULL` in every stage.
pub fn with_hosted_main(text: &str, params: usize) -> String {
    let envp = if params == 3 {
        "    static char *phihunt_envp[] = {0};\n    return phihunt_hosted_main(1, phihunt_argv, phihunt_envp);\n"
    } else {
        "    return phihunt_hosted_main(1, phihunt_argv);\n"
    };
    format!(
        "#define main phihunt_hosted_main\n{text}\n#undef main\nint main(void)\n{{\n    \
         static char phihunt_argv0[] = \"{name}\";\n    \
         static char *phihunt_argv[] = {{phihunt_argv0, 0}};\n{envp}}}\n",
        name = oracle::interp::PROGRAM_NAME,
    )
}

/// The UB judge on `target`'s data model: `Ok` when `main` ends normally, defined.
fn defined_on(p: &CProgram, target: Target) -> Result<(), (&'static str, String)> {
    let checked = checked_front_end(p, target).map_err(|(_, m)| ("frontend-refused", m))?;
    let run = RunConfig {
        ptr_bytes: target.sizeof_pointer(),
        fuel: MUTANT_FUEL,
        ..RunConfig::default()
    };
    match judge_defined(&checked, &run) {
        Err(Invalid::Undefined { category, detail }) => Err((
            "mutant-ub",
            format!("{} ({category}): {detail}", target.name()),
        )),
        Err(other) => Err(("mutant-no-verdict", other.message())),
        Ok(r) => match r.outcome {
            Outcome::Returned(_) | Outcome::Exited(_) => Ok(()),
            other => Err((
                "mutant-no-verdict",
                format!("{}: the UB judge's run ends {other}", target.name()),
            )),
        },
    }
}

impl ProgramSource for MutateSource {
    fn name(&self) -> &'static str {
        "mutate"
    }

    /// Most mutants are dropped by design; a dropped one is no bug of anything.
    fn rejections_are_discards(&self) -> bool {
        true
    }

    fn make(&self, seed: u64) -> Result<Candidate, Rejection> {
        let m = super::mutant(&self.pool, seed)
            .map_err(|e| discard("mutant-unreadable", e, Vec::new()))?;
        let mut p = CProgram {
            seed,
            text: with_header(&m.text, &m.base),
            expected_lp64: String::new(),
            expected_ilp32: String::new(),
            features: FeatureSet(Default::default()),
            include_dirs: Vec::new(),
            rewrites: (0, 0, 0),
        };
        let compile = |p: &CProgram| {
            front_end(p, Target::X86_64).map_err(|(refused, msg)| Rejection {
                compiler_panic: !refused,
                kind: Reason::FrontendRefused.name(),
                reason: msg,
                files: files(p),
            })
        };
        let mut module = compile(&p)?;
        let main_params = module
            .functions
            .iter()
            .find(|f| f.name == "main")
            .filter(|f| f.ret != compiler::ir::IrType::Void)
            .map_or(0, |f| f.params.len());
        if main_params == 2 || main_params == 3 {
            // The differential calls `main` with integers only: give a hosted `main` its
            // `argv` through a wrapper, the same for gcc, the UB judge and every stage.
            p.text = with_hosted_main(&p.text, main_params);
            module = compile(&p)?;
        }
        for target in [Target::X86_64, Target::I686] {
            defined_on(&p, target).map_err(|(kind, why)| discard(kind, why, Vec::new()))?;
        }
        let mut file = tempfile::Builder::new()
            .prefix("phihunt-mutant-")
            .suffix(".c")
            .tempfile()
            .map_err(|e| {
                discard(
                    SETUP_ERROR,
                    format!("cannot create a temporary file: {e}"),
                    Vec::new(),
                )
            })?;
        file.write_all(p.text.as_bytes()).map_err(|e| {
            discard(
                SETUP_ERROR,
                format!("cannot write the mutant: {e}"),
                Vec::new(),
            )
        })?;
        let limits = NativeLimits::default();
        let mut expected = Vec::new();
        for target in [Target::X86_64, Target::I686] {
            match gcc_reference(target, file.path(), &[], &limits) {
                Ok(CReference::Usable { o0, .. }) if o0.exit == Exit::Code(0) => {
                    expected.push(String::from_utf8_lossy(&o0.stdout).into_owned())
                }
                Ok(CReference::Usable { o0, .. }) => {
                    return Err(discard(
                        "reference-exit-nonzero",
                        format!("{}: gcc's binary {}", target.name(), o0.describe()),
                        Vec::new(),
                    ))
                }
                Ok(CReference::Discarded(why)) => {
                    return Err(discard(
                        Reason::of_reference(&why).name(),
                        format!("{}: {why}", target.name()),
                        Vec::new(),
                    ))
                }
                Err(setup) => {
                    return Err(discard(
                        SETUP_ERROR,
                        format!("gcc cannot run: {setup}"),
                        Vec::new(),
                    ))
                }
            }
        }
        p.expected_lp64 = expected[0].clone();
        p.expected_ilp32 = expected[1].clone();
        let mut features = BTreeMap::new();
        for family in &m.applied {
            *features.entry(format!("mutate:{family}")).or_insert(0) += 1;
        }
        Ok(Candidate {
            module,
            entry: "main".into(),
            // A `main(argc, argv)` was wrapped by `with_hosted_main`: `main` takes nothing.
            arg_vectors: vec![Vec::new()],
            features,
            c_program: Some(Arc::new(p)),
        })
    }
}
