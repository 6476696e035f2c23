//! Generated programs against the rest of the workspace: they pass the verifier, survive
//! a print/parse round trip, run to a valid outcome in the oracle (the harness discards
//! undefined or out-of-fuel references, so at least 99% must be valid), agree at every
//! stage of the real pipeline, and expose seeded bugs (mutants).

use compiler::ir::text::{parse_module, print_module};
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::mutants::{set_active, Mutant};
use oracle::{Outcome, Program, RunConfig, Trap};
use phihunt::diff::{differential, DiffConfig, Verdict};
use phihunt::gen::{generate_from_seed, GenKind};
use std::collections::BTreeMap;

const SEEDS: u64 = 300;

#[test]
fn generated_modules_pass_the_ssa_verifier() {
    for kind in GenKind::ALL {
        for seed in 0..SEEDS {
            let p = generate_from_seed(kind, seed);
            if let Err(errs) = verify_module(&p.module, VerifyMode::Ssa) {
                panic!(
                    "{kind} seed {seed}: {} verifier error(s), first: {}\n{}",
                    errs.len(),
                    errs[0],
                    print_module(&p.module)
                );
            }
        }
    }
}

#[test]
fn generated_modules_round_trip_through_text() {
    for kind in GenKind::ALL {
        for seed in 0..SEEDS {
            let p = generate_from_seed(kind, seed);
            let text = print_module(&p.module);
            match parse_module(&text) {
                Ok(m) => assert!(m == p.module, "{kind} seed {seed}: parse(print(m)) != m"),
                Err(e) => panic!("{kind} seed {seed}: {e}\n{text}"),
            }
        }
    }
}

/// Runs every (program, argument vector) pair of `kind` in the oracle; returns the count
/// of valid outcomes, the total, and the discard reasons.
fn validity(kind: GenKind) -> (u64, u64, BTreeMap<String, u64>, u64) {
    let (mut valid, mut total, mut max_steps) = (0u64, 0u64, 0u64);
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for seed in 0..SEEDS {
        let p = generate_from_seed(kind, seed);
        let prog = match Program::new(&p.module, &RunConfig::default()) {
            Ok(prog) => prog,
            Err(e) => panic!("{kind} seed {seed}: the oracle cannot run it: {e}"),
        };
        for args in &p.arg_vectors {
            total += 1;
            match prog.run(&p.entry, args) {
                Ok(r) => {
                    max_steps = max_steps.max(r.steps);
                    match r.outcome.discard_reason() {
                        None => valid += 1,
                        Some(reason) => *reasons.entry(reason).or_default() += 1,
                    }
                }
                Err(e) => panic!("{kind} seed {seed} {args:?}: {e}"),
            }
        }
    }
    (valid, total, reasons, max_steps)
}

#[test]
fn at_least_ninety_nine_percent_of_runs_are_valid_references() {
    for kind in GenKind::ALL {
        let (valid, total, reasons, max_steps) = validity(kind);
        let ratio = valid as f64 / total as f64;
        eprintln!(
            "{kind}: {valid}/{total} valid ({:.1}%), discarded {reasons:?}, most steps {max_steps}",
            ratio * 100.0
        );
        assert!(
            ratio >= 0.99,
            "{kind}: only {:.1}% valid; discards {reasons:?}",
            ratio * 100.0
        );
        // Far from the oracle's fuel: termination is by construction, not by luck.
        assert!(
            max_steps < 1_000_000,
            "{kind}: a run took {max_steps} steps"
        );
    }
}

/// The cfg generator's trapping divisions (`trapping_div`): some runs trap on division
/// by zero and some on MIN / -1 (the backends must raise SIGFPE where the hardware does
/// not), some programs trap on one argument vector and not on another, and few runs trap
/// at all, so the rest of the hunt still sees programs run to completion.
#[test]
fn some_cfg_runs_trap_on_division_and_most_do_not() {
    let (mut total, mut by_zero, mut overflow, mut mixed) = (0u64, 0u64, 0u64, 0u64);
    for seed in 0..SEEDS {
        let p = generate_from_seed(GenKind::Cfg, seed);
        let prog = Program::new(&p.module, &RunConfig::default())
            .unwrap_or_else(|e| panic!("cfg seed {seed}: the oracle cannot run it: {e}"));
        let (mut trapped, mut completed) = (false, false);
        for args in &p.arg_vectors {
            total += 1;
            let r = prog
                .run(&p.entry, args)
                .unwrap_or_else(|e| panic!("cfg seed {seed} {args:?}: {e}"));
            match r.outcome {
                Outcome::Trapped(Trap::DivByZero) => {
                    by_zero += 1;
                    trapped = true;
                }
                Outcome::Trapped(Trap::DivOverflow) => {
                    overflow += 1;
                    trapped = true;
                }
                _ => completed = true,
            }
        }
        mixed += u64::from(trapped && completed);
    }
    eprintln!(
        "cfg: {by_zero} div-by-zero and {overflow} MIN/-1 traps in {total} runs; \
         {mixed} of {SEEDS} programs trap on some vectors only"
    );
    assert!(by_zero >= 3, "only {by_zero} division-by-zero traps");
    assert!(overflow >= 1, "no MIN / -1 trap");
    assert!(
        mixed >= 3,
        "only {mixed} programs trap on some vectors only"
    );
    let trapping = (by_zero + overflow) as f64 / total as f64;
    assert!(trapping <= 0.05, "{:.1}% of runs trap", trapping * 100.0);
}

#[test]
fn every_stage_agrees_on_generated_programs() {
    for kind in GenKind::ALL {
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for seed in 0..100u64 {
            let p = generate_from_seed(kind, seed);
            let key =
                match differential(&p.module, &p.entry, &p.arg_vectors, &DiffConfig::default()) {
                    Verdict::Agree { .. } => "agree".to_string(),
                    Verdict::Discarded { reason, .. } => format!("discarded: {reason}"),
                    Verdict::Finding(f) => panic!(
                        "{kind} seed {seed}: {:?}: {}\n{}",
                        f.signature,
                        f.detail,
                        print_module(&p.module)
                    ),
                };
            *counts.entry(key).or_default() += 1;
        }
        eprintln!("{kind}: {counts:?}");
    }
}

/// The first seed below `limit` whose program exposes mutant `m`, if any.
fn first_catch(kind: GenKind, m: Mutant, limit: u64) -> Option<u64> {
    let mut found = None;
    for seed in 0..limit {
        let p = generate_from_seed(kind, seed);
        set_active(&[m]);
        let verdict = differential(&p.module, &p.entry, &p.arg_vectors, &DiffConfig::default());
        set_active(&[]);
        if matches!(verdict, Verdict::Finding(_)) {
            found = Some(seed);
            break;
        }
    }
    found
}

#[test]
fn cfg_programs_expose_seeded_mem2reg_bugs() {
    for m in [
        Mutant::M2rNoNarrowing,
        Mutant::M2rNoStackPop,
        Mutant::M2rFrontierSkipsLoopHeader,
        Mutant::M2rPromoteGepBase,
    ] {
        let seed = first_catch(GenKind::Cfg, m, 100);
        eprintln!("cfg catches {m} first at seed {seed:?}");
        assert!(seed.is_some(), "cfg: no program of 100 exposes {m}");
    }
}

#[test]
fn cfg_programs_expose_seeded_licm_and_dead_static_bugs() {
    // Guarded divisions by loop-invariant divisors (licm must not hoist them) and static
    // functions reached only through their address (dead_static must keep them).
    for m in [
        Mutant::LicmHoistGuardedDiv,
        Mutant::DeadStaticIgnoresAddressTaken,
    ] {
        let seed = first_catch(GenKind::Cfg, m, 100);
        eprintln!("cfg catches {m} first at seed {seed:?}");
        assert!(seed.is_some(), "cfg: no program of 100 exposes {m}");
    }
}

#[test]
fn phi_programs_expose_seeded_phi_elimination_bugs() {
    for m in [
        Mutant::PhiElimNoTemporaries,
        Mutant::PhiElimRepeatedTargetOnce,
    ] {
        let seed = first_catch(GenKind::Phi, m, 100);
        eprintln!("phi catches {m} first at seed {seed:?}");
        assert!(seed.is_some(), "phi: no program of 100 exposes {m}");
    }
}
