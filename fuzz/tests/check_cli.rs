//! `phihunt check` as a user runs it: the corpus replays clean, and the exit codes and
//! closing line mean what the README says (0 agree, 1 mismatch, 2 invalid input).

use std::path::PathBuf;
mod common;
use common::{counts, last_line, phihunt};

/// Writes `text` to `name` in the test's scratch directory (removed when it drops).
fn temp_file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The whole corpus (`corpus/ir`, `corpus/c`, `corpus/found`) at every stage and natively
/// on both x86 targets (with the stack allocator on x86_64): every `; run:` line of an
/// `.ir` file on phicc's binaries, every `.c` file's `main` against gcc on the target.
#[test]
fn corpus_replays_with_every_stage_agreeing() {
    let (code, out, err) = phihunt(&["check", "--targets", "x86_64,i686", "corpus"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let (passed, failed) = counts(last_line(&out));
    assert_eq!(failed, 0);
    for stage in ["native:x86_64", "native:x86_64/stack", "native:i686"] {
        let rows = out
            .lines()
            .filter(|l| l.starts_with(&format!("{stage} ")))
            .count();
        // One row per file: 18 in corpus/ir, 29 in corpus/c when this was written.
        assert!(rows >= 40, "{stage}: {rows} rows\n{out}");
    }
    // No corpus program is undefined on either target: no native cell lacks a verdict.
    assert!(!out.contains("with no verdict"), "{out}");
    // Every corpus file has run lines, each checked at lowered, mem2reg and phi_elim.
    assert!(passed >= 3 * 40, "too few cells checked: {passed}\n{out}");
    for stage in ["lowered", "mem2reg", "phi_elim"] {
        assert!(
            out.contains(&format!("\n{stage} ")),
            "stage {stage} missing from:\n{out}"
        );
    }
}

const GOOD: &str = "; run: @f(2) == 3\nfunc @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    %1 = add i32 %0, 1\n    ret i32 %1\n}\n";

#[test]
fn a_wrong_expectation_is_a_mismatch_exit_1() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let p = temp_file(&scratch, "wrong.ir", &GOOD.replace("== 3", "== 4"));
    let (code, out, _) = phihunt(&["check", "--targets", "none", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    // Every stage row fails, the reference included: one cell per stage.
    let rows = out.lines().filter(|l| l.contains("✗ ret 3")).count();
    assert!(rows >= 3, "{out}");
    assert_eq!(counts(last_line(&out)), (0, rows), "{out}");
}

#[test]
fn a_right_expectation_passes_exit_0() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let p = temp_file(&scratch, "good.ir", GOOD);
    let (code, out, _) = phihunt(&["check", "--targets", "none", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let rows = out.lines().filter(|l| l.ends_with(" ok")).count();
    assert!(rows >= 3, "{out}");
    assert_eq!(counts(last_line(&out)), (rows, 0));
}

#[test]
fn invalid_inputs_exit_2_with_a_location() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let cases = [
        ("parse.ir", GOOD.replace("add i32", "ad i32"), ":5:"),
        ("directive.ir", GOOD.replace("== 3", "=! 3"), ":1:"),
        ("missing_fn.ir", GOOD.replace("@f(2)", "@g(2)"), ":1:"),
        ("arity.ir", GOOD.replace("@f(2)", "@f(2, 3)"), ":1:"),
        (
            "no_runs.ir",
            GOOD.replace("; run: @f(2) == 3\n", ""),
            ":1:1:",
        ),
        (
            "unverified.ir",
            GOOD.replace("ret i32 %1", "ret i32 %9"),
            ":1:1:",
        ),
    ];
    for (name, text, loc) in cases {
        let p = temp_file(&scratch, name, &text);
        let (code, out, _) = phihunt(&["check", "--targets", "none", p.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {out}");
        assert!(
            out.contains(&format!("{name}{loc}")),
            "{name}: no location `{loc}` in:\n{out}"
        );
    }
}

#[test]
fn unknown_mutant_is_rejected() {
    let (code, _, err) = phihunt(&[
        "--mutant",
        "nope",
        "check",
        "--targets",
        "none",
        "corpus/ir",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown mutant"), "{err}");
}
