//! Each seeded bug must produce IR the verifier accepts and the replay checker rejects,
//! on a case the correct pass gets right.

use super::build::*;
use super::cases::{loop_with_phis, self_loop, swap, switch_with_repeated_targets};
use crate::ir::IrFunction;
use crate::mem2reg::phi_eliminate::replay::check_phi_elimination;
use crate::mutants::Mutant;

/// Asserts the correct pass is accepted on `before` and the `mutant` pass (whose output
/// still verifies, see `eliminate`) is rejected with a message containing `needle`.
#[track_caller]
fn assert_mutant_caught(mutant: Mutant, before: &IrFunction, needle: &str) {
    eliminate_checked(before);
    let (after, _) = with_mutant(mutant, || eliminate(before));
    let err = check_phi_elimination(before, &after)
        .expect_err("the replay checker must reject the mutant's output");
    assert!(err.contains(needle), "unexpected message: {err}");
}

#[test]
fn no_temporaries_loses_the_swap() {
    assert_mutant_caught(Mutant::PhiElimNoTemporaries, &swap(), "holds");
}

#[test]
fn no_temporaries_breaks_a_chain_read_after_write() {
    // y = x after x = c: in phi order, y would read the new x.
    let y_reads_x = loop_with_phis(vec![
        phi32(4, &[(v(0), 0), (v(1), 2)]),
        phi32(5, &[(v(1), 0), (v(4), 2)]),
    ]);
    assert_mutant_caught(
        Mutant::PhiElimNoTemporaries,
        &y_reads_x,
        "%5 holds %1, expected %4",
    );
}

#[test]
fn no_trampoline_clobbers_the_loop_exit() {
    // The copy %4 = %5 at the end of the exiting block also runs on the exit edge,
    // where %4 is returned.
    assert_mutant_caught(
        Mutant::PhiElimNoTrampoline,
        &self_loop(),
        "edge .LBB1 -> .LBB2 (successor 1): clobbers %4",
    );
}

#[test]
fn repeated_target_once_misses_the_second_case() {
    // Case 2 of the switch still goes straight to .LBB1, without the copy.
    assert_mutant_caught(
        Mutant::PhiElimRepeatedTargetOnce,
        &switch_with_repeated_targets(),
        "edge .LBB0 -> .LBB1 (successor 2): %4 holds %4, expected %1",
    );
}
