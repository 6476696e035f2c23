//! `--gen mutate` on the campaign engine: mutants of a small pool are judged defined (UB
//! judge, gcc -O0 against -O2 on both data models) before they run, every dropped one is
//! counted by reason, and the correct compiler gives no finding.

use phihunt::c::mutate::pool::Pool;
use phihunt::c::mutate::source::MutateSource;
use phihunt::c::mutate::{mutant, MAX_MUTATIONS};
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::diff::DiffConfig;
use phihunt::native::NativePlan;
use std::time::Duration;

/// Two programs: one whose `main` returns -32768 (status 0 natively: the low 8 bits), one
/// with a loop, a narrow type and a division the mutators can break.
fn pool_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a_status.c"),
        "#include <stdio.h>\nint g = 7;\nint main(void) {\n    int x = g * 3;\n    x = x + 1;\n    printf(\"%d\\n\", x);\n    return -32768;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b_loop.c"),
        "#include <stdio.h>\nunsigned char c = 200;\nint main(void) {\n    int s = 0;\n    for (int i = 1; i < 10; i++) {\n        s = s + 100 / i;\n        c += 7;\n    }\n    printf(\"%d %d\\n\", s, c);\n    return 0;\n}\n",
    )
    .unwrap();
    // A UB example of corpus/ub is never mutated.
    std::fs::write(
        dir.path().join("c_ub.c"),
        "// ub: SignedOverflow @3\nint main(void) {\n    int x = 2147483647; x = x + 1; return 0;\n}\n",
    )
    .unwrap();
    // Raw bytes (as corpus/c/literal_raw_bytes.c has): left out of the pool, with a reason.
    std::fs::write(
        dir.path().join("d_raw.c"),
        b"int main(void) { return \"\xff\"[0] == 0; }\n",
    )
    .unwrap();
    dir
}

#[test]
fn the_pool_skips_ub_examples_and_a_mutant_is_a_function_of_its_seed() {
    let dir = pool_dir();
    let pool = Pool::from_dirs(&[dir.path().to_path_buf()]).unwrap();
    let names: Vec<&str> = pool.programs().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| !n.ends_with("c_ub.c")), "{names:?}");
    let left_out: Vec<&str> = pool.left_out().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert!(left_out[0].ends_with("d_raw.c"), "{left_out:?}");
    for seed in 0..50 {
        let a = mutant(&pool, seed).unwrap();
        let b = mutant(&pool, seed).unwrap();
        assert_eq!(a.text, b.text);
        assert!((1..=MAX_MUTATIONS).contains(&a.applied.len()));
        let base = &pool
            .programs()
            .iter()
            .find(|(n, _)| *n == a.base)
            .unwrap()
            .1;
        assert_ne!(&a.text, base, "seed {seed} changed nothing");
    }
}

#[test]
fn a_mutation_hunt_on_the_correct_compiler_finds_nothing_and_counts_every_drop() {
    let dir = pool_dir();
    let source = MutateSource {
        pool: Pool::from_dirs(&[dir.path().to_path_buf()]).unwrap(),
    };
    let out = tempfile::tempdir().unwrap();
    let cfg = HuntConfig {
        native: NativePlan::for_targets(&[compiler::target::Target::X86_64]),
        native_every: 1,
        duration: Duration::from_secs(300),
        base_seed: 1,
        jobs: 2,
        out_dir: out.path().to_path_buf(),
        mutants: Vec::new(),
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(24),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        resume: None,
        cc: None,
    };
    let r = hunt(&[&source], &cfg).unwrap();
    let t = &r.totals;
    assert_eq!(t.programs, 24, "{t:?}");
    assert_eq!(t.findings, 0, "{t:?}\n{:?}", r.signatures);
    assert_eq!(t.generator_bugs, 0, "{t:?}");
    let discarded: u64 = t.discard_reasons.values().sum();
    assert!(t.agreed >= 6, "too few mutants kept: {t:?}");
    assert_eq!(t.agreed + discarded, 24, "{t:?}");
    let known = [
        "mutant-unreadable",
        "frontend-refused",
        "mutant-ub",
        "mutant-no-verdict",
        "reference-exit-nonzero",
        "reference-timeout",
        "reference-crash",
        "reference-rejected",
        "o0-o2-disagree",
    ];
    for reason in t.discard_reasons.keys() {
        assert!(
            known.contains(&reason.as_str()),
            "unknown reason {reason}: {t:?}"
        );
    }
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(report.contains("| mutate | 24 |"), "{report}");
}
