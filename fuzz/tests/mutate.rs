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

/// A hunt of `programs` mutants with natives on x86_64 for every one, seed 1, 2 jobs.
fn small_hunt(out: &std::path::Path, programs: u64) -> HuntConfig {
    HuntConfig {
        native: NativePlan::for_targets(&[compiler::target::Target::X86_64]),
        native_every: 1,
        duration: Duration::from_secs(300),
        base_seed: 1,
        jobs: 2,
        out_dir: out.to_path_buf(),
        mutants: Vec::new(),
        diff: DiffConfig::default(),
        stop_at_first: false,
        reduce_budget: Duration::ZERO,
        corpus_found: None,
        max_programs: Some(programs),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
        cc: None,
    }
}

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
    let cfg = small_hunt(out.path(), 24);
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

/// A `main(argc, argv)` that reads `argv[0]`: its mutants run as hosted programs in every
/// stage (the differential calls `main` with integers only; a wrapper gives it `argv`),
/// so none is dropped as `oracle-invalid`.
#[test]
fn mutants_of_a_main_with_argv_are_judged_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("argv.c"),
        "#include <stdio.h>\n#include <string.h>\nint main(int argc, char **argv) {\n    int n = (int)strlen(argv[0]);\n    int x = n * 3 + argc;\n    unsigned char c = 250;\n    c += x;\n    printf(\"%s %d %d %d\\n\", argv[0], x, argc, c);\n    return 0;\n}\n",
    )
    .unwrap();
    let source = MutateSource {
        pool: Pool::from_dirs(&[dir.path().to_path_buf()]).unwrap(),
    };
    let out = tempfile::tempdir().unwrap();
    let cfg = small_hunt(out.path(), 8);
    let r = hunt(&[&source], &cfg).unwrap();
    let t = &r.totals;
    assert_eq!(t.findings, 0, "{t:?}\n{:?}", r.signatures);
    assert!(!t.discard_reasons.contains_key("oracle-invalid"), "{t:?}");
    assert!(t.agreed >= 3, "too few mutants kept: {t:?}");
}

/// A fake c-torture suite: a test phicc passes whose check fails when mutated, one the
/// expected-failures list names, and one that only mentions `abort` in a string.
fn torture_suite() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("execute");
    std::fs::create_dir(&suite).unwrap();
    std::fs::write(
        suite.join("check-1.c"),
        "extern void abort (void);\nint f (int x) { return x * 3; }\nint main (void) {\n  if (f (2) != 7)\n    abort ();\n  if (f (1) != 3)\n    __builtin_abort ();\n  return 0;\n}\n",
    )
    .unwrap();
    std::fs::write(suite.join("listed-1.c"), "int main (void) { return 0; }\n").unwrap();
    std::fs::write(
        suite.join("string-1.c"),
        "#include <stdio.h>\nint main (void) { printf (\"abort\\n\"); return 0; }\n",
    )
    .unwrap();
    let expected = dir.path().join("expected-failures.txt");
    std::fs::write(
        &expected,
        "# TEST TARGETS REASON\nlisted-1.c x86_64,i686 refused: listed-1.c:1:1: error: x\n",
    )
    .unwrap();
    (dir, expected)
}

#[test]
fn c_torture_tests_join_the_pool_with_abort_made_to_print() {
    let pool_src = pool_dir();
    let (torture, expected) = torture_suite();
    let mut pool = Pool::from_dirs(&[pool_src.path().to_path_buf()]).unwrap();
    pool.add_torture(&torture.path().join("execute"), &expected)
        .unwrap();
    let names: Vec<&str> = pool.programs().iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"c-torture/check-1.c"), "{names:?}");
    assert!(names.contains(&"c-torture/string-1.c"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("listed-1")), "{names:?}");
    assert_eq!(pool.describe(), "4 programs: corpus 2, c-torture 2");
    let text = &pool
        .programs()
        .iter()
        .find(|(n, _)| n == "c-torture/check-1.c")
        .unwrap()
        .1;
    assert!(
        !text.contains("abort ()") && !text.contains("__builtin_abort"),
        "{text}"
    );
    // The string's `abort` is text, not a call: left alone.
    let string_test = &pool
        .programs()
        .iter()
        .find(|(n, _)| n == "c-torture/string-1.c")
        .unwrap()
        .1;
    assert!(string_test.contains("\"abort\\n\""), "{string_test}");
    // gcc builds the rewritten test; its failed check (f(2) is 6, not 7) prints and the
    // run goes on to exit 0.
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("t.c");
    std::fs::write(&src, text).unwrap();
    let exe = work.path().join("t");
    let built = std::process::Command::new("gcc")
        .args(["-O0", "-w", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap();
    assert!(built.success(), "{text}");
    let run = std::process::Command::new(&exe).output().unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&run.stdout), "abort\n");
    // Both halves are picked: over 200 seeds each gives some bases.
    let mut torture_bases = 0;
    for seed in 0..200 {
        let m = mutant(&pool, seed).unwrap();
        torture_bases += usize::from(m.base.starts_with("c-torture/"));
    }
    assert!((50..150).contains(&torture_bases), "{torture_bases} of 200");
}
