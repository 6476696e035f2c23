//! Nothing hidden as "unsupported" (issue 15): when the stage differential of a C program
//! discards its `lowered` stage, the reason decides whether that is phicc's bug (the front
//! end's IR fails the verifier, or the oracle cannot load it) or an honest no-verdict (an
//! external outside the oracle's libc subset, the program's own prototype of a libc
//! function, out of fuel). The discards here are the differential's own, from real modules;
//! the decision is made on their typed cause, never on the reason's text.

use compiler::ir::text::parse_module;
use phihunt::c::hunt::lowered_failure;
use phihunt::diff::{differential, DiffConfig, DiscardCause, FindingKind, Verdict};

/// The differential's discard of `ir` (run as `main()`): its reason and typed cause.
fn discard(ir: &str) -> (String, DiscardCause) {
    let module = parse_module(ir).expect("the test's IR parses");
    match differential(&module, "main", &[Vec::new()], &DiffConfig::default()) {
        Verdict::Discarded { reason, cause } => (reason, cause),
        other => panic!("expected a discard, got {other:?}"),
    }
}

/// `lowered_failure` of `ir`'s discard.
fn failure_of(ir: &str) -> (String, Option<(FindingKind, String)>) {
    let (reason, cause) = discard(ir);
    let failure = lowered_failure(&reason, cause);
    (reason, failure)
}

#[test]
fn ir_that_fails_the_verifier_is_a_verify_finding_at_lowered() {
    // %0 is defined twice: the oracle runs it, the verifier rejects it.
    let (reason, failure) = failure_of(
        "func @main() -> i32 {\n.LBB0:\n    %0 = add i32 1:i32, 2:i32\n    %0 = add i32 %0, 2:i32\n    ret i32 %0\n}\n",
    );
    let (kind, detail) = failure.unwrap_or_else(|| panic!("{reason}"));
    assert_eq!(kind, FindingKind::Verify, "{reason}");
    assert!(detail.starts_with("the front end's IR:"), "{detail}");
}

#[test]
fn an_external_outside_the_libc_subset_stays_a_no_verdict() {
    let (reason, failure) = failure_of(
        "declare @getppid() -> i32\n\nfunc @main() -> i32 {\n.LBB0:\n    %0 = call i32 @getppid()\n    ret i32 0\n}\n",
    );
    assert!(reason.contains("libc subset"), "{reason}");
    assert_eq!(failure, None);
    // A function the oracle deliberately does not model (not correctly rounded
    // everywhere) is a no-verdict too.
    let (reason, failure) = failure_of(
        "declare @sin(f64) -> f64\n\nfunc @main() -> i32 {\n.LBB0:\n    %0 = call f64 @sin(f64 1.0)\n    ret i32 0\n}\n",
    );
    assert!(reason.contains("not modelled"), "{reason}");
    assert_eq!(failure, None);
}

#[test]
fn a_programs_own_wrong_libc_prototype_stays_a_no_verdict() {
    let (reason, failure) = failure_of(
        "declare @puts(ptr, ptr) -> i32\n\nfunc @main() -> i32 {\n.LBB0:\n    ret i32 0\n}\n",
    );
    assert!(reason.contains("but libc's"), "{reason}");
    assert_eq!(failure, None);
}

#[test]
fn other_load_failures_and_fuel_are_told_apart() {
    // An intrinsic declared with the wrong signature: the IR itself is unusable, which
    // from a front end is phicc's bug.
    let (reason, failure) = failure_of(
        "declare @__phi_ub.add.i32(i64, i64, i64) -> i64\n\nfunc @main() -> i32 {\n.LBB0:\n    %0 = call i64 @__phi_ub.add.i32(i64 1:i64, i64 2:i64, i64 3:i64)\n    ret i32 0\n}\n",
    );
    let (kind, detail) = failure.unwrap_or_else(|| panic!("{reason}"));
    assert_eq!(kind, FindingKind::CannotRun, "{reason}");
    assert!(
        detail.contains("cannot load the front end's IR"),
        "{detail}"
    );
    // Out of fuel: no verdict.
    let (reason, cause) = discard("func @main() -> i32 {\n.LBB0:\n    br .LBB0\n}\n");
    assert_eq!(cause, DiscardCause::OutOfFuel, "{reason}");
    assert_eq!(lowered_failure(&reason, cause), None);
    // The harness calling `main` with arguments it does not take is no bug of phicc.
    let (reason, failure) =
        failure_of("func @main(i32, ptr, ptr) -> i32 {\n.LBB0:\n    ret i32 0\n}\n");
    assert!(reason.contains("given"), "{reason}");
    assert_eq!(failure, None);
    // Undefined behaviour in the reference: no verdict.
    let (reason, cause) = discard(
        "func @main() -> i32 {\n.LBB0:\n    %0 = shl i32 1:i32, 40:i32\n    ret i32 %0\n}\n",
    );
    assert_eq!(cause, DiscardCause::Reference, "{reason}");
    assert!(reason.starts_with("ub:"), "{reason}");
    assert_eq!(lowered_failure(&reason, cause), None);
}

/// `phihunt check FILE.c`'s judge: IR of the front end that fails the verifier is a
/// failing `lowered` row, not an input it cannot judge — even when the UB judge would
/// have discarded the program (here its checked lowering divides by zero).
#[test]
fn check_reports_a_broken_lowering_as_a_failure_not_as_invalid_input() {
    use compiler::pipeline::PipelineOptions;
    use phihunt::check::c_source::judge_stages;
    let broken = parse_module(
        "func @main() -> i32 {\n.LBB0:\n    %0 = add i32 1:i32, 2:i32\n    %0 = add i32 %0, 2:i32\n    ret i32 %0\n}\n",
    )
    .expect("the test's IR parses");
    let undefined = parse_module(
        "func @main() -> i32 {\n.LBB0:\n    %0 = shl i32 1:i32, 40:i32\n    ret i32 %0\n}\n",
    )
    .expect("the test's IR parses");
    let judged = judge_stages(
        &broken,
        &undefined,
        (5, Vec::new()),
        &PipelineOptions::default(),
        &oracle::RunConfig::default(),
    )
    .unwrap_or_else(|invalid| panic!("judged as invalid input: {}", invalid.message()));
    assert_eq!(judged.stages, ["lowered"]);
    assert!(!judged.cells[0].ok && !judged.cells[0].discarded);
    assert_eq!(judged.cells[0].text, "verifier failed");
    assert!(
        judged.notes[0].starts_with("the front end's output:"),
        "{:?}",
        judged.notes
    );
}
