//! The C reducer end to end: a generated program that a seeded bug breaks is found by the
//! hunt and reduced in it to a small case that still shows the signature and that gcc's
//! sanitizers run cleanly with the recorded output; candidates with undefined behaviour
//! are rejected before their signature counts; reduced `.c` files in `corpus/found/`
//! replay with their expected output.

use compiler::mutants::{self, Mutant};
use phihunt::c::hunt::CGenerator;
use phihunt::c::reduce::bench::{sanitizer_run, tester_for};
use phihunt::c::reduce::corpus::{expected_output, test_file_text};
use phihunt::c::reduce::interesting::Check;
use phihunt::c::reduce::tokens::tokenize;
use phihunt::c::reduce::{one_minimal_violations, reduce_c};
use phihunt::campaign::source::ProgramSource;
use phihunt::campaign::{hunt, HuntConfig};
use phihunt::check::{check_c_file, CheckSettings, CheckSummary};
use phihunt::diff::{DiffConfig, FindingKind, Signature};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The hunt finds the seeded GVN bug in generated C (seed 1) and its C reduction keeps
/// `mismatch@gvn`, is at least 5 times smaller in tokens, and runs cleanly under
/// `-fsanitize=undefined,address` with the output its header records.
#[test]
fn a_seeded_c_finding_reduces_to_a_small_defined_case() {
    let out = tempfile::Builder::new()
        .prefix("phihunt-creduce-test-")
        .tempdir()
        .unwrap();
    let source = CGenerator::default();
    let sources: Vec<&dyn ProgramSource> = vec![&source];
    let m = Mutant::GvnLoadAcrossStore;
    let cfg = HuntConfig {
        native: phihunt::native::NativePlan::none(),
        native_every: 1,
        duration: Duration::from_secs(60),
        base_seed: 1,
        jobs: 1,
        out_dir: out.path().to_path_buf(),
        mutants: vec![m],
        diff: DiffConfig::default(),
        stop_at_first: true,
        reduce_budget: Duration::from_secs(30),
        corpus_found: Some(out.path().join("corpus_found")),
        max_programs: Some(4),
        show_progress: false,
        keep_per_signature: u64::MAX,
        persist: None,
        seeds: phihunt::campaign::seeds::SeedScheme::Spread,
        resume: None,
        cc: None,
    };
    let r = hunt(&sources, &cfg).unwrap();
    let first = r
        .signatures
        .first()
        .expect("the seeded GVN bug is found in 4 programs");
    let sig = Signature::new(FindingKind::Mismatch, "gvn");
    assert_eq!(first.signature, sig);
    let reduced_path = PathBuf::from(first.reduced_c.as_ref().expect("the C reducer ran"));
    let text = std::fs::read_to_string(&reduced_path).unwrap();
    let original = std::fs::read_to_string(reduced_path.with_file_name("program.c")).unwrap();
    let (before, after) = (
        tokenize(&original).unwrap().len(),
        tokenize(&text).unwrap().len(),
    );
    assert!(after * 5 <= before, "{before} -> {after} tokens:\n{text}");
    // Seeded bugs are never copied into the corpus.
    assert!(!out.path().join("corpus_found").exists());
    // The signature holds with the bug on (a fresh test, nothing cached).
    mutants::set_active(&[m]);
    let mut tester = tester_for(&reduced_path, &sig).unwrap();
    let verdict = tester.check(&text).unwrap();
    mutants::set_active(&[]);
    let Check::Interesting { status, stdout } = verdict else {
        panic!("the reduced case lost the bug: {verdict:?}\n{text}");
    };
    // The header records what the program prints; gcc's sanitized build agrees.
    assert_eq!(expected_output(&text), Some((status, stdout.clone())));
    let includes = Vec::new();
    assert_eq!(
        sanitizer_run(&reduced_path, &includes).unwrap(),
        Some((status, stdout)),
        "the sanitizers object to, or print otherwise than, the reduced case:\n{text}"
    );
}

/// The reduced GVN case (as the reducer leaves it) with the seeded bug on.
const GVN_CASE: &str = "#include <stdio.h>\nlong long checksum_state;\nvoid checksum_mix(void) {\n    checksum_state = checksum_state ^ 1;\n}\nint main(void) {\n    checksum_mix();\n    printf(\"checksum = %016llx\\n\", checksum_state);\n    return 0;\n}\n";

/// A candidate that still shows the signature but has undefined behaviour the oracle
/// sees (signed overflow, a read of an uninitialised variable, unsequenced side effects)
/// or that gcc flags (the value of a function that falls off its end) is rejected at
/// that step, never kept.
#[test]
fn a_candidate_with_undefined_behaviour_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "case.c", GVN_CASE);
    let sig = Signature::new(FindingKind::Mismatch, "gvn");
    mutants::set_active(&[Mutant::GvnLoadAcrossStore]);
    let mut tester = tester_for(&path, &sig).unwrap();
    let base = tester.check(GVN_CASE).unwrap();
    assert!(
        matches!(base, Check::Interesting { .. }),
        "the case itself must hold: {base:?}"
    );
    let overflow = GVN_CASE.replace(
        "    checksum_mix();\n",
        "    int big = 2147483647;\n    big = big + 1;\n    checksum_mix();\n",
    );
    let uninit = GVN_CASE.replace(
        "checksum_state ^ 1;",
        "checksum_state ^ 1;\n    int u;\n    checksum_state = checksum_state + u;",
    );
    let unsequenced = GVN_CASE.replace(
        "    checksum_mix();\n",
        "    int i = 0;\n    i = i++ + 1;\n    checksum_mix();\n",
    );
    // Undefined only through a value of a function that falls off its end (C99
    // 6.9.1p12): the judge does not see it, gcc's -Werror=return-type does.
    let no_return = format!(
        "static int no_return(int x) {{ if (x) return 1; }}\n{}",
        GVN_CASE.replace(
            "checksum_state ^ 1;",
            "checksum_state ^ 1;\n    checksum_state = checksum_state + no_return(0);",
        )
    );
    let verdicts: Vec<Check> = [&overflow, &uninit, &unsequenced, &no_return]
        .iter()
        .map(|t| tester.check(t).unwrap())
        .collect();
    mutants::set_active(&[]);
    let steps: Vec<&str> = verdicts
        .iter()
        .map(|v| match v {
            Check::Rejected { step, .. } => *step,
            Check::Interesting { .. } => "kept",
        })
        .collect();
    assert_eq!(
        steps,
        ["ub judge", "ub judge", "ub judge", "gcc lint"],
        "{verdicts:?}"
    );
    // Independent of the reducer: gcc's sanitizers call the overflow undefined too (the
    // report ends the run before the program prints).
    let Check::Interesting { status, stdout } = base else {
        unreachable!()
    };
    let p = write(dir.path(), "overflow.c", &overflow);
    let sanitized = sanitizer_run(&p, &[]).unwrap();
    assert_ne!(sanitized, Some((status, stdout)));
}

/// A reduction that reaches its fixpoint is 1-minimal: a fresh test (nothing cached)
/// finds no single edit that is smaller and still keeps the signature.
#[test]
fn a_finished_reduction_is_one_minimal() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "case.c", GVN_CASE);
    let sig = Signature::new(FindingKind::Mismatch, "gvn");
    mutants::set_active(&[Mutant::GvnLoadAcrossStore]);
    let mut tester = tester_for(&path, &sig).unwrap();
    let reduced = reduce_c(GVN_CASE, &mut tester, Duration::from_secs(40)).unwrap();
    assert!(reduced.finished, "no fixpoint in 40 s:\n{}", reduced.text);
    assert!(reduced.tokens_after < reduced.tokens_before);
    let mut fresh = tester_for(&path, &sig).unwrap();
    let violations = one_minimal_violations(&reduced.text, &mut fresh).unwrap();
    mutants::set_active(&[]);
    assert!(violations.is_empty(), "{violations:?}\n{}", reduced.text);
}

/// Replays one reduced `.c` test: every stage agrees with gcc -O0 (`phihunt check`), and
/// gcc -O0 prints the expected output of its header. The failure, if any.
fn replay(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let Some(want) = expected_output(&text) else {
        return Some("no `// expected exit:` header".into());
    };
    let mut out = String::new();
    let mut summary = CheckSummary::default();
    check_c_file(path, &CheckSettings::default(), &mut out, &mut summary);
    if summary.failed > 0 || summary.invalid > 0 || summary.passed == 0 {
        return Some(out);
    }
    let got = phihunt::c::reduce::bench::sanitizer_run(path, &[]).unwrap();
    (got.as_ref() != Some(&want))
        .then(|| format!("gcc prints {got:?}, the header expects {want:?}"))
}

/// Every `.c` file in `corpus/found/` replays (a real bug's reduced case fails here until
/// it is fixed); and the replay itself catches a wrong expected output.
#[test]
fn corpus_found_c_files_replay_with_their_expected_output() {
    let found = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/found");
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&found).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "c") {
            if let Some(why) = replay(&p) {
                failures.push(format!("{}: {why}", p.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let dir = tempfile::tempdir().unwrap();
    let sig = Signature::new(FindingKind::Mismatch, "gvn");
    let program =
        "#include <stdio.h>\nint main(void) {\n    printf(\"%d\\n\", 6 * 7);\n    return 3;\n}\n";
    let right = write(
        dir.path(),
        "right.c",
        &test_file_text(&sig, "test", 3, b"42\n", program),
    );
    assert_eq!(replay(&right), None);
    let wrong = write(
        dir.path(),
        "wrong.c",
        &test_file_text(&sig, "test", 3, b"41\n", program),
    );
    assert!(replay(&wrong).is_some());
}
