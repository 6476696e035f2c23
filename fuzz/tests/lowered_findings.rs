//! Nothing hidden as "unsupported" (issue 15): when the stage differential of a C program
//! discards its `lowered` stage, the reason decides whether that is phicc's bug (the front
//! end's IR fails the verifier, or the oracle cannot load it) or an honest no-verdict (an
//! external outside the oracle's libc subset, the program's own prototype of a libc
//! function, out of fuel). The reasons here are the differential's own, from real modules.

use compiler::ir::text::parse_module;
use phihunt::c::hunt::lowered_failure;
use phihunt::diff::{differential, DiffConfig, FindingKind, Verdict};

fn discard_reason(ir: &str) -> String {
    let module = parse_module(ir).expect("the test's IR parses");
    match differential(&module, "main", &[Vec::new()], &DiffConfig::default()) {
        Verdict::Discarded { reason } => reason,
        other => panic!("expected a discard, got {other:?}"),
    }
}

#[test]
fn ir_that_fails_the_verifier_is_a_verify_finding_at_lowered() {
    // %0 is defined twice: the oracle runs it, the verifier rejects it.
    let reason = discard_reason(
        "func @main() -> i32 {\n.LBB0:\n    %0 = add i32 1:i32, 2:i32\n    %0 = add i32 %0, 2:i32\n    ret i32 %0\n}\n",
    );
    let (kind, detail) = lowered_failure(&reason).unwrap_or_else(|| panic!("{reason}"));
    assert_eq!(kind, FindingKind::Verify, "{reason}");
    assert!(detail.starts_with("the front end's IR:"), "{detail}");
}

#[test]
fn an_external_outside_the_libc_subset_stays_a_no_verdict() {
    let reason = discard_reason(
        "declare @getppid() -> i32\n\nfunc @main() -> i32 {\n.LBB0:\n    %0 = call i32 @getppid()\n    ret i32 0\n}\n",
    );
    assert!(reason.contains("libc subset"), "{reason}");
    assert_eq!(lowered_failure(&reason), None);
    // A function the oracle deliberately does not model (not correctly rounded
    // everywhere) is a no-verdict too.
    let reason = discard_reason(
        "declare @sin(f64) -> f64\n\nfunc @main() -> i32 {\n.LBB0:\n    %0 = call f64 @sin(f64 1.0)\n    ret i32 0\n}\n",
    );
    assert!(reason.contains("not modelled"), "{reason}");
    assert_eq!(lowered_failure(&reason), None);
}

#[test]
fn a_programs_own_wrong_libc_prototype_stays_a_no_verdict() {
    let reason = discard_reason(
        "declare @puts(ptr, ptr) -> i32\n\nfunc @main() -> i32 {\n.LBB0:\n    ret i32 0\n}\n",
    );
    assert!(reason.contains("but libc's"), "{reason}");
    assert_eq!(lowered_failure(&reason), None);
}

#[test]
fn other_load_failures_and_fuel_are_told_apart() {
    // An intrinsic the front end declared with the wrong signature: phicc's own IR.
    let (kind, _) = lowered_failure(
        "unsupported: intrinsic @__phi_ub.check is declared with the wrong signature",
    )
    .unwrap();
    assert_eq!(kind, FindingKind::CannotRun);
    assert_eq!(lowered_failure("out_of_fuel"), None);
    // The harness calling `main` with arguments it does not take is no bug of phicc.
    let reason = discard_reason("func @main(i32, ptr, ptr) -> i32 {\n.LBB0:\n    ret i32 0\n}\n");
    assert!(reason.contains("given"), "{reason}");
    assert_eq!(lowered_failure(&reason), None);
    assert_eq!(lowered_failure("ub:SignedOverflow"), None);
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
        "func @main() -> i32 {\n.LBB0:\n    %0 = sdiv i32 1:i32, 0:i32\n    ret i32 %0\n}\n",
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
