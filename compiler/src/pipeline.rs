//! The whole middle end in one function, stage by stage (QBE's `main.c` idea).
//!
//! Why: the harness bisects a miscompile to the first stage whose output behaves
//! differently, so every stage must be observable. [`run_pipeline`] runs
//!
//! ```text
//! lowered -> mem2reg -> inline -> mem2reg#2 -> [ cfg_simplify copy_prop const_fold
//!            simplify gvn licm dce cfg_simplify2 copy_prop2 ] x up to 3 -> dead_static
//!            -> phi_elim
//! ```
//!
//! verifies the module after every stage, and hands each snapshot to an observer with
//! the stage's stable name and the number of changes the stage made.
//!
//! Invariants:
//! - the observer sees `lowered` (the input, once it verifies) first, then every stage
//!   that ran, in order; a stage whose output fails the verifier stops the pipeline with a
//!   [`StageError`] naming it. Stages that report changes, the input and the final stage
//!   are verified; a stage that reports no change is trusted to be the identity (the
//!   harness compares its snapshot with the previous one to hold it to that);
//! - stage names are stable: a loop pass is named by its slot (`gvn`, `cfg_simplify2`)
//!   plus `#N` in iteration N >= 2 (`gvn#2`), so a skipped pass never renames another;
//! - in iteration N >= 2 a pass runs only if some pass changed something since it last
//!   ran (it or an upstream pass); the loop stops early when an iteration changes nothing;
//! - [`current_stage`] names the stage being run on this thread, so a harness that
//!   catches a panic knows which stage panicked.

use crate::ir::analysis::CfgAnalysis;
use crate::ir::verify::{verify_module_cached, VerifyCache, VerifyError, VerifyMode};
use crate::ir::IrModule;
use crate::mem2reg::{eliminate_phis, promote_allocas};
use crate::mutants::{self, Mutant};
use crate::passes;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;
use std::time::{Duration, Instant};

/// Stable stage names outside the optimization loop.
pub const STAGE_LOWERED: &str = "lowered";
pub const STAGE_MEM2REG: &str = "mem2reg";
pub const STAGE_INLINE: &str = "inline";
/// The second mem2reg (parameter slots included), after the inliner.
pub const STAGE_MEM2REG_PARAMS: &str = "mem2reg#2";
pub const STAGE_DEAD_STATIC: &str = "dead_static";
pub const STAGE_PHI_ELIM: &str = "phi_elim";

/// The optimization loop's slots, in order: (stage name, pass name for --disable-passes).
pub const LOOP_SLOTS: [(&str, &str); 9] = [
    ("cfg_simplify", "cfg_simplify"),
    ("copy_prop", "copy_prop"),
    ("const_fold", "const_fold"),
    ("simplify", "simplify"),
    ("gvn", "gvn"),
    ("licm", "licm"),
    ("dce", "dce"),
    ("cfg_simplify2", "cfg_simplify"),
    ("copy_prop2", "copy_prop"),
];

/// The pass a stage belongs to: a loop slot's stage in any iteration is its pass
/// (`gvn#3` → `gvn`, `cfg_simplify2` and `cfg_simplify2#2` → `cfg_simplify`); every other
/// stage name is its pass without the `#N` of a later run (`mem2reg#2` → `mem2reg`,
/// `phi_elim` → `phi_elim`; names this module does not know keep everything before `#`). A bug lives in a pass, not in one of its slots or iterations:
/// the harness deduplicates findings by this name.
pub fn pass_of_stage(stage: &str) -> &str {
    let slot = stage.split_once('#').map_or(stage, |(slot, _)| slot);
    LOOP_SLOTS
        .iter()
        .find(|(name, _)| *name == slot)
        .map_or(slot, |(_, pass)| pass)
}

/// Every pass name `--disable-passes` accepts (`all` disables every one of them).
pub const PASS_NAMES: [&str; 9] = [
    "inline",
    "cfg_simplify",
    "copy_prop",
    "const_fold",
    "simplify",
    "gvn",
    "licm",
    "dce",
    "dead_static",
];

/// Settings of one pipeline run.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    /// Passes switched off (names from [`PASS_NAMES`]).
    pub disabled: BTreeSet<String>,
    /// Iterations of the optimization loop (the seed uses 3).
    pub max_iterations: usize,
}

impl Default for PipelineOptions {
    fn default() -> PipelineOptions {
        PipelineOptions {
            disabled: BTreeSet::new(),
            max_iterations: 3,
        }
    }
}

impl PipelineOptions {
    /// Reads a comma-separated disable list (`gvn,licm` or `all`); unknown names are an
    /// error that lists the known ones.
    pub fn with_disabled(mut self, list: &str) -> Result<PipelineOptions, String> {
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "all" {
                self.disabled
                    .extend(PASS_NAMES.iter().map(|s| s.to_string()));
            } else if PASS_NAMES.contains(&name) {
                self.disabled.insert(name.to_string());
            } else {
                return Err(format!(
                    "unknown pass `{name}` (known: all, {})",
                    PASS_NAMES.join(", ")
                ));
            }
        }
        Ok(self)
    }

    /// The disable list from `PHIHUNT_DISABLE_PASSES`, if set.
    pub fn from_env() -> Result<PipelineOptions, String> {
        match std::env::var("PHIHUNT_DISABLE_PASSES") {
            Ok(list) => PipelineOptions::default().with_disabled(&list),
            Err(_) => Ok(PipelineOptions::default()),
        }
    }

    fn enabled(&self, pass: &str) -> bool {
        !self.disabled.contains(pass)
    }
}

/// What the observer is told about a stage that just ran.
#[derive(Clone, Debug)]
pub struct StageEvent {
    /// Stable stage name (`gvn#2`).
    pub name: String,
    /// The pass behind it (`gvn`), for per-pass statistics.
    pub pass: &'static str,
    /// Changes the stage reported.
    pub changes: usize,
    /// Time the stage took (verification excluded).
    pub elapsed: Duration,
}

/// The verifier rejected the module a stage produced (or the input, for `lowered`).
#[derive(Clone, Debug)]
pub struct StageError {
    pub stage: String,
    pub errors: Vec<VerifyError>,
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "verifier failed after stage `{}`", self.stage)?;
        for e in self.errors.iter().take(10) {
            write!(f, "\n  {e}")?;
        }
        if self.errors.len() > 10 {
            write!(f, "\n  ... and {} more", self.errors.len() - 10)?;
        }
        Ok(())
    }
}

impl std::error::Error for StageError {}

thread_local! {
    static CURRENT_STAGE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The stage this thread is running (or last ran).
pub fn current_stage() -> String {
    CURRENT_STAGE.with(|s| s.borrow().clone())
}

fn set_current_stage(name: &str) {
    CURRENT_STAGE.with(|s| {
        let mut s = s.borrow_mut();
        s.clear();
        s.push_str(name);
    });
}

/// Runs one stage: marks it current, times it, verifies the result, tells the observer.
struct StageRunner<'a> {
    observer: &'a mut dyn FnMut(&StageEvent, &IrModule),
    /// CFG analyses the verifier reuses between stages that keep a function's CFG.
    verify_cache: VerifyCache,
}

impl StageRunner<'_> {
    fn stage(
        &mut self,
        module: &mut IrModule,
        name: &str,
        pass: &'static str,
        mode: VerifyMode,
        body: impl FnOnce(&mut IrModule) -> usize,
    ) -> Result<usize, StageError> {
        set_current_stage(name);
        let start = Instant::now();
        let changes = body(module);
        let elapsed = start.elapsed();
        // A stage that reports no change is trusted to have left the module as it was
        // (the harness checks that claim by comparing snapshots); the input and the final
        // stage are always verified.
        if changes > 0 || name == STAGE_LOWERED || name == STAGE_PHI_ELIM {
            verify_module_cached(module, mode, &mut self.verify_cache).map_err(|errors| {
                StageError {
                    stage: name.to_string(),
                    errors,
                }
            })?;
        }
        let event = StageEvent {
            name: name.to_string(),
            pass,
            changes,
            elapsed,
        };
        (self.observer)(&event, module);
        Ok(changes)
    }
}

/// Runs one slot of the optimization loop on every function.
fn run_slot(slot: &str, module: &mut IrModule, shared_cfg: &mut Vec<Option<CfgAnalysis>>) -> usize {
    match slot {
        "cfg_simplify" | "cfg_simplify2" => {
            shared_cfg.clear();
            module.for_each_function(passes::cfg_simplify::run)
        }
        "copy_prop" | "copy_prop2" => module.for_each_function(passes::copy_prop::run),
        "const_fold" => module.for_each_function(passes::const_fold::run),
        "simplify" => module.for_each_function(passes::simplify::run),
        "gvn" | "licm" => {
            // GVN and LICM do not change the CFG: one analysis per function serves both.
            shared_cfg.resize_with(module.functions.len(), || None);
            let mut changes = 0;
            for (f, cached) in module.functions.iter_mut().zip(shared_cfg.iter_mut()) {
                let cfg = cached.get_or_insert_with(|| CfgAnalysis::build(f));
                changes += if slot == "gvn" {
                    passes::gvn::run(f, cfg)
                } else {
                    passes::licm::run(f, cfg)
                };
            }
            changes
        }
        "dce" => module.for_each_function(passes::dce::run),
        _ => unreachable!("unknown loop slot {slot}"),
    }
}

/// Runs the middle end on `module`, calling `observer` after each stage.
/// Returns the final (post-phi-elimination) module.
pub fn run_pipeline(
    mut module: IrModule,
    opts: &PipelineOptions,
    observer: &mut dyn FnMut(&StageEvent, &IrModule),
) -> Result<IrModule, StageError> {
    let mut run = StageRunner {
        observer,
        verify_cache: VerifyCache::default(),
    };
    run.stage(
        &mut module,
        STAGE_LOWERED,
        "lowered",
        VerifyMode::Ssa,
        |_| 0,
    )?;
    run.stage(
        &mut module,
        STAGE_MEM2REG,
        "mem2reg",
        VerifyMode::Ssa,
        |m| m.for_each_function(promote_allocas),
    )?;
    if opts.enabled("inline") {
        run.stage(
            &mut module,
            STAGE_INLINE,
            "inline",
            VerifyMode::Ssa,
            passes::inline::inline_calls,
        )?;
    }
    // The seed's second mem2reg, its own stage so that a promotion bug is blamed on
    // mem2reg, not on the inliner: it promotes the parameter slots (the functions' own
    // and the inlined copies'). It runs without the inliner too, so the passes see the
    // same SSA form either way.
    run.stage(
        &mut module,
        STAGE_MEM2REG_PARAMS,
        "mem2reg",
        VerifyMode::Ssa,
        |m| m.for_each_function(crate::mem2reg::promote_allocas_with_params),
    )?;

    // The fixed-point loop. `epoch` counts changing pass runs; a slot runs when a change
    // happened after its own last run.
    let mut epoch = 1u64;
    let mut last_run = [0u64; LOOP_SLOTS.len()];
    let mut shared_cfg: Vec<Option<CfgAnalysis>> = Vec::new();
    for iteration in 1..=opts.max_iterations.max(1) {
        let mut changed_this_iteration = false;
        for (i, (slot, pass)) in LOOP_SLOTS.iter().enumerate() {
            if !opts.enabled(pass) || last_run[i] >= epoch {
                continue;
            }
            let name = if iteration == 1 {
                slot.to_string()
            } else {
                format!("{slot}#{iteration}")
            };
            last_run[i] = epoch;
            let changes = run.stage(&mut module, &name, pass, VerifyMode::Ssa, |m| {
                run_slot(slot, m, &mut shared_cfg)
            })?;
            if changes > 0 {
                epoch += 1;
                last_run[i] = epoch;
                changed_this_iteration = true;
            }
        }
        if !changed_this_iteration {
            break;
        }
    }

    if opts.enabled("dead_static") {
        run.stage(
            &mut module,
            STAGE_DEAD_STATIC,
            "dead_static",
            VerifyMode::Ssa,
            passes::dead_static::run,
        )?;
    }
    run.stage(
        &mut module,
        STAGE_PHI_ELIM,
        "phi_elim",
        VerifyMode::PostPhiElim,
        |m| {
            let mut changes = eliminate_phis(m);
            if mutants::enabled(Mutant::CopyPropAfterPhiElim) {
                changes += m.for_each_function(passes::copy_prop::run);
            }
            changes
        },
    )?;
    Ok(module)
}

#[cfg(test)]
mod stage_name_tests {
    use super::*;

    #[test]
    fn every_slot_and_iteration_names_its_pass() {
        // By hand from the loop's slots: the second slots of cfg_simplify and copy_prop.
        assert_eq!(pass_of_stage("gvn"), "gvn");
        assert_eq!(pass_of_stage("gvn#3"), "gvn");
        assert_eq!(pass_of_stage("cfg_simplify2"), "cfg_simplify");
        assert_eq!(pass_of_stage("cfg_simplify2#2"), "cfg_simplify");
        assert_eq!(pass_of_stage("copy_prop2#3"), "copy_prop");
        assert_eq!(pass_of_stage("mem2reg"), "mem2reg");
        assert_eq!(pass_of_stage(STAGE_MEM2REG_PARAMS), "mem2reg");
        assert_eq!(pass_of_stage("phi_elim"), "phi_elim");
        assert_eq!(pass_of_stage("native:i686"), "native:i686");
        // Every slot maps to a pass --disable-passes knows.
        for (slot, _) in LOOP_SLOTS {
            assert!(PASS_NAMES.contains(&pass_of_stage(slot)), "{slot}");
            assert!(
                PASS_NAMES.contains(&pass_of_stage(&format!("{slot}#2"))),
                "{slot}"
            );
        }
    }
}
