//! The hunt and the reducer end to end, on the real compiler with and without seeded bugs:
//! findings are saved with everything needed to replay them, reduced files keep their
//! signature and replay with `phihunt check`, and a clean compiler yields no finding.

use compiler::ir::text::parse_module;
use compiler::mutants::{self, Mutant};
use compiler::target::Target;
use phihunt::campaign::generators::sources_for;
use phihunt::campaign::source::ProgramSource;
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::diff::{differential, DiffConfig, DiscardCause, FindingKind, Verdict};
use phihunt::reduce::{reduce, size, ReduceGoal};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A fresh directory, removed when the returned guard is dropped.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("phihunt-{name}-"))
        .tempdir()
        .unwrap()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn config(out: PathBuf, mutants: Vec<Mutant>, programs: u64) -> HuntConfig {
    HuntConfig {
        duration: Duration::from_secs(120),
        base_seed: 11,
        jobs: 2,
        out_dir: out.clone(),
        mutants,
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::from_secs(20),
        corpus_found: Some(out.join("corpus_found")),
        max_programs: Some(programs),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
        cc: None,
        native: phihunt::native::NativePlan::none(),
        native_every: 1,
    }
}

#[test]
fn reducer_keeps_the_signature_and_shrinks() {
    mutants::set_active(&[Mutant::PhiElimNoTemporaries]);
    let src = std::fs::read_to_string(root().join("corpus/ir/rotation.ir")).unwrap();
    let module = parse_module(&src).unwrap();
    let vectors = vec![vec![1i64], vec![2], vec![4]];
    let diff = DiffConfig::default();
    let Verdict::Finding(f) = differential(&module, "rot", &vectors, &diff) else {
        panic!("the mutant should break rotation.ir");
    };
    let goal = ReduceGoal {
        entry: "rot".into(),
        arg_vectors: vec![f.args.clone()],
        signature: f.signature.clone(),
        diff,
        native: phihunt::native::NativePlan::none(),
    };
    let r = reduce(&module, &goal, Duration::from_secs(30));
    assert!(
        r.finished,
        "the reducer should reach a fixed point on a small file"
    );
    assert!(
        r.size_after < r.size_before,
        "{} -> {}",
        r.size_before,
        r.size_after
    );
    assert_eq!(r.size_after, size(&r.module));
    assert!(goal.holds(&r.module), "the reduced module lost the bug");
    mutants::set_active(&[]);
    // Without the mutant the reduced program is correct again: the bug was the mutant's.
    assert!(!goal.holds(&r.module));
}

#[test]
fn clean_compiler_hunt_finds_nothing_and_reports() {
    let out_tmp = temp_dir("hunt-clean");
    let out = out_tmp.path().to_path_buf();
    let sources = sources_for("all").unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let r = hunt(&refs, &config(out.clone(), vec![], 120)).unwrap();
    assert_eq!(r.totals.programs, 120);
    assert_eq!(
        r.totals.programs,
        r.totals.agreed + r.totals.discarded + r.totals.findings + r.totals.generator_bugs
    );
    assert_eq!(r.totals.findings, 0, "false positives: {:?}", r.signatures);
    // `all` includes generated C, whose programs must all be right.
    assert_eq!(
        r.totals.generator_bugs, 0,
        "{:?}",
        r.totals.generator_bug_reasons
    );
    assert!(r.per_generator["c"].agreed > 0);
    assert!(r.totals.valid_ratio() > 0.9);
    assert!(out.join("report.md").is_file() && out.join("summary.json").is_file());
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["unique_findings"], 0);
    assert_eq!(summary["totals"]["programs"], 120);
}

#[test]
fn mutant_hunt_saves_reduces_and_replays_findings() {
    let out_tmp = temp_dir("hunt-mutant");
    let out = out_tmp.path().to_path_buf();
    let sources = sources_for("cfg").unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let r = hunt(
        &refs,
        &config(out.clone(), vec![Mutant::M2rFrontierSkipsLoopHeader], 40),
    )
    .unwrap();
    assert!(
        r.totals.findings > 0,
        "the mutant should be found in 40 cfg programs"
    );
    let first = &r.signatures[0];
    let dir = Path::new(&first.first);
    assert!(dir.join("input.ir").is_file() && dir.join("finding.json").is_file());
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("finding.json")).unwrap()).unwrap();
    assert_eq!(record["mutants"][0], "m2r_frontier_skips_loop_header");
    assert!(record["seed"].as_u64().is_some());
    // Mutant findings never go to the corpus.
    assert!(first.corpus_copy.is_none());
    assert!(!out.join("corpus_found").exists());
    // The reduced file replays: it fails with the mutant and passes without it.
    let reduced = first.reduced.as_ref().expect("reduced");
    assert!(first.size_after.unwrap() <= first.size_before.unwrap());
    let bin = env!("CARGO_BIN_EXE_phihunt");
    let with = Command::new(bin)
        .args([
            "--mutant",
            "m2r_frontier_skips_loop_header",
            "check",
            "--targets",
            "none",
            reduced,
        ])
        .output()
        .unwrap();
    assert_eq!(
        with.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&with.stdout)
    );
    let without = Command::new(bin)
        .args(["check", "--targets", "none", reduced])
        .env_remove("PHIHUNT_MUTANT")
        .output()
        .unwrap();
    assert_eq!(
        without.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&without.stdout)
    );
    // The raw input replays too, with the reference's expectations.
    let raw = Command::new(bin)
        .args([
            "--mutant",
            "m2r_frontier_skips_loop_header",
            "check",
            "--targets",
            "none",
        ])
        .arg(dir.join("input.ir"))
        .output()
        .unwrap();
    assert_eq!(raw.status.code(), Some(1));
}

#[test]
fn cli_hunt_ends_with_the_findings_line_and_gen_is_deterministic() {
    let out_tmp = temp_dir("hunt-cli");
    let out = out_tmp.path().to_path_buf();
    let bin = env!("CARGO_BIN_EXE_phihunt");
    let o = Command::new(bin)
        .args([
            "hunt",
            "--time",
            "20s",
            "--max-programs",
            "30",
            "--seed",
            "3",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(&out)
        .env_remove("PHIHUNT_MUTANT")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        stdout.trim_end().lines().last(),
        Some("0 findings"),
        "{stdout}"
    );
    assert_eq!(o.status.code(), Some(0));
    let gen = |seed: &str| {
        Command::new(bin)
            .args(["gen", "cfg", "--seed", seed])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(gen("5"), gen("5"));
    assert_ne!(gen("5"), gen("6"));
    let text = String::from_utf8(gen("5")).unwrap();
    assert!(text.contains("; run: @"), "{text}");
    assert!(parse_module(&text).is_ok());
}

#[test]
fn final_stage_only_mode_names_the_same_first_stage() {
    // The fuzz targets compare only the final stage on most inputs and bisect on a
    // mismatch: the signature must be the one the every-stage differential gives.
    let cases = [
        ("corpus/ir/swap.ir", "swap", Mutant::PhiElimNoTemporaries),
        (
            "corpus/ir/critical_edge.ir",
            "f",
            Mutant::PhiElimNoTrampoline,
        ),
        (
            "corpus/ir/fib.ir",
            "fib",
            Mutant::M2rFrontierSkipsLoopHeader,
        ),
        (
            "corpus/ir/address_taken_gep.ir",
            "gep",
            Mutant::M2rPromoteGepBase,
        ),
    ];
    for (file, entry, mutant) in cases {
        let module = parse_module(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
        let vectors = vec![vec![1i64], vec![3], vec![6], vec![12]];
        mutants::set_active(&[mutant]);
        let every = DiffConfig::default();
        let final_only = DiffConfig {
            every_stage: false,
            ..DiffConfig::default()
        };
        let sig = |cfg: &DiffConfig| match differential(&module, entry, &vectors, cfg) {
            Verdict::Finding(f) => f.signature.to_string(),
            other => panic!("{file} with {mutant}: expected a finding, got {other:?}"),
        };
        assert_eq!(sig(&final_only), sig(&every), "{file} with {mutant}");
        mutants::set_active(&[]);
        assert!(matches!(
            differential(&module, entry, &vectors, &final_only),
            Verdict::Agree { .. }
        ));
    }
}

#[test]
fn an_input_that_does_not_verify_is_discarded_not_a_finding() {
    // A copy whose constant keeps another type: the oracle runs it, the verifier rejects
    // it, so there is no `lowered` stage and it can only be discarded (reducer candidates
    // can end up like this).
    let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = copy i32 5:i64\n    ret i32 %0\n}\n";
    let module = parse_module(src).unwrap();
    match differential(&module, "f", &[vec![1]], &DiffConfig::default()) {
        Verdict::Discarded { reason, cause } => {
            assert!(reason.contains("invalid input"), "{reason}");
            assert_eq!(cause, DiscardCause::BrokenInput(FindingKind::Verify));
        }
        other => panic!("expected a discard, got {other:?}"),
    }
}

fn native_config(out: PathBuf, mutants: Vec<Mutant>, programs: u64) -> HuntConfig {
    let targets = [Target::X86_64, Target::I686];
    for t in targets {
        assert!(
            phihunt::native::plan::unusable_because(t).is_none(),
            "{}: {:?} (run scripts/setup.sh)",
            t.name(),
            phihunt::native::plan::unusable_because(t)
        );
    }
    HuntConfig {
        native: phihunt::native::NativePlan::for_targets(&targets),
        native_every: 1,
        ..config(out, mutants, programs)
    }
}

/// Native stages on every program of a short hunt of the correct compiler: every stage
/// runs, no finding (no false positive), the counters reach the report.
#[test]
fn native_hunt_runs_every_stage_and_finds_nothing() {
    let out_tmp = temp_dir("hunt-native");
    let out = out_tmp.path().to_path_buf();
    let sources = sources_for("all").unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let r = hunt(&refs, &native_config(out.clone(), vec![], 8)).unwrap();
    assert_eq!(r.totals.findings, 0, "false positives: {:?}", r.signatures);
    for stage in ["native:x86_64", "native:x86_64/stack", "native:i686"] {
        let t = &r.totals.native[stage];
        assert!(
            t.programs >= 4 && t.vectors_run >= t.programs,
            "{stage}: {t:?}"
        );
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("| native:i686 |"), "{report}");
}

/// A seeded backend bug (x86's unsigned compares done as signed ones) is found natively,
/// saved with its target and allocator, and reduced with its signature kept.
#[test]
fn a_backend_mutant_is_a_native_finding_kept_by_the_reducer() {
    let out_tmp = temp_dir("hunt-native-mutant");
    let out = out_tmp.path().to_path_buf();
    let sources = sources_for("cfg").unwrap();
    let refs: Vec<&dyn ProgramSource> = sources.iter().map(|s| s.as_ref()).collect();
    let mut cfg = native_config(out.clone(), vec![Mutant::X86UnsignedCmpAsSigned], 40);
    cfg.stop_at_first = true;
    // Every candidate is built and run natively: a short budget still shrinks it.
    cfg.reduce_budget = Duration::from_secs(8);
    let r = hunt(&refs, &cfg).unwrap();
    let first = r
        .signatures
        .first()
        .unwrap_or_else(|| panic!("not found in 40 programs: {:?}", r.totals));
    assert!(first.signature.is_native(), "{}", first.signature);
    let record: serde_json::Value = serde_json::from_slice(
        &std::fs::read(Path::new(&first.first).join("finding.json")).unwrap(),
    )
    .unwrap();
    let stage = phihunt::native::NativeStage::from_name(&first.signature.stage).unwrap();
    assert_eq!(record["target"], stage.target.name());
    assert_eq!(record["regalloc"], stage.regalloc.name());
    assert_eq!(record["ptr_bytes"], stage.target.sizeof_pointer());
    let reduced = first.reduced.as_ref().expect("reduced");
    assert!(first.size_after.unwrap() <= first.size_before.unwrap());
    // The reduced file shows the bug natively with the mutant, and passes without it.
    let bin = env!("CARGO_BIN_EXE_phihunt");
    let check = |mutant: Option<&str>| {
        let mut c = Command::new(bin);
        c.env_remove("PHIHUNT_MUTANT");
        if let Some(m) = mutant {
            c.args(["--mutant", m]);
        }
        let o = c
            .args(["check", "--targets", "x86_64,i686", reduced])
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, text) = check(Some("x86_unsigned_cmp_as_signed"));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("{} ", first.signature.stage)) && l.contains('✗')),
        "{text}"
    );
    let (code, text) = check(None);
    assert_eq!(code, Some(0), "{text}");
}
