//! The reducer's promise, checked on real findings of seeded bugs: a reduced case is
//! 1-minimal for the reducer's edit set (no single edit at any place keeps the bug), small,
//! and still the same bug; and a hunt names one bug by one signature (its pass), listing
//! the stages (slot, iteration) where its findings broke.
//!
//! The findings come from real hunts with fixed seeds (no hand-made expected sizes: the
//! bounds are the issue's, ≤ 25 instructions for every case).

use compiler::mutants::{self, Mutant};
use phihunt::campaign::generators::sources_for;
use phihunt::campaign::source::ProgramSource;
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::diff::DiffConfig;
use phihunt::native::NativePlan;
use phihunt::reduce::cli::{load_finding, LoadedFinding};
use phihunt::reduce::{one_minimal_violations, reduce, size};
use std::path::Path;
use std::time::Duration;

fn config(out: &Path, mutant: Mutant, programs: u64, stop_at_first: bool) -> HuntConfig {
    HuntConfig {
        duration: Duration::from_secs(120),
        base_seed: 1,
        jobs: 2,
        out_dir: out.to_path_buf(),
        mutants: vec![mutant],
        diff: DiffConfig::default(),
        stop_at_first,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(programs),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
        cc: None,
        native: NativePlan::none(),
        native_every: 1,
    }
}

/// Hunts `mutant` until its first finding and loads that finding's saved input. The IR
/// generators only: the size bound is for their findings (a generated C program's lowered
/// IR is far larger to start from; `all` includes it).
fn first_finding(mutant: Mutant, out: &Path) -> LoadedFinding {
    let sources = sources_for("cfg,phi").unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let r = hunt(&refs, &config(out, mutant, 400, true)).unwrap();
    let first = r
        .signatures
        .first()
        .unwrap_or_else(|| panic!("{mutant} not found in 400 programs"));
    mutants::set_active(&[mutant]);
    let loaded = load_finding(
        &Path::new(&first.first).join("input.ir"),
        &NativePlan::none(),
    )
    .unwrap_or_else(|_| panic!("{mutant}: the saved finding does not load"));
    loaded
}

#[test]
fn reduced_cases_of_seeded_bugs_are_one_minimal_and_small() {
    for mutant in [
        Mutant::ConstFoldUdivSigned,
        Mutant::GvnLoadAcrossStore,
        Mutant::SimplifyAshrAsLshr,
        Mutant::PhiElimNoTemporaries,
    ] {
        let out = tempfile::tempdir().unwrap();
        let loaded = first_finding(mutant, out.path());
        let reduced = reduce(&loaded.module, &loaded.goal, Duration::from_secs(120));
        assert!(reduced.finished, "{mutant}: no fixpoint within the budget");
        assert!(
            loaded.goal.holds(&reduced.module),
            "{mutant}: the bug was lost"
        );
        let violations = one_minimal_violations(&reduced.module, &loaded.goal);
        assert!(
            violations.is_empty(),
            "{mutant}: single edits still keep the bug: {violations:?}"
        );
        assert!(
            size(&reduced.module) <= 25,
            "{mutant}: {} -> {}",
            reduced.size_before,
            reduced.size_after
        );
        mutants::set_active(&[]);
        // Without the seeded bug the reduced case is correct: it shows that bug only.
        assert!(!loaded.goal.holds(&reduced.module), "{mutant}");
    }
}

#[test]
fn one_bug_is_one_signature_with_the_stages_it_broke_at() {
    // The cfg_simplify bug breaks programs in both of the pass's slots and in later
    // iterations (cfg_simplify, cfg_simplify2, cfg_simplify2#2 over these 400 programs);
    // it must be one signature, `verify@cfg_simplify`, with those stages listed under it.
    let out = tempfile::tempdir().unwrap();
    let sources = sources_for("all").unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let r = hunt(
        &refs,
        &config(out.path(), Mutant::CfgSimplifyNoPhiFix, 400, false),
    )
    .unwrap();
    let names: Vec<String> = r
        .signatures
        .iter()
        .map(|s| s.signature.to_string())
        .collect();
    assert_eq!(names, vec!["verify@cfg_simplify".to_string()], "{names:?}");
    let tally = &r.signatures[0];
    assert_eq!(tally.stages_seen.values().sum::<u64>(), tally.count);
    assert!(
        tally.stages_seen.len() >= 2,
        "the bug should show in more than one slot or iteration: {:?}",
        tally.stages_seen
    );
    for stage in tally.stages_seen.keys() {
        assert_eq!(
            compiler::pipeline::pass_of_stage(stage),
            "cfg_simplify",
            "{stage}"
        );
    }
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(report.contains("| `verify@cfg_simplify` |"), "{report}");
    assert!(report.contains("`cfg_simplify2` x"), "{report}");
}
