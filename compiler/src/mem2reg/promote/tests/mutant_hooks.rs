//! Each mem2reg mutant changes the output on a small function where the correct pass
//! gives the hand-checked result, and the change shows when the program runs.

use super::build::*;
use super::eval::{run, Stop};
use super::ssa_check::check_ssa;
use super::{assert_ssa, promote, verify};
use crate::ir::{CmpPred, IrFunction};
use crate::mem2reg::promote_allocas;
use crate::mutants::{set_active, Mutant};

/// Switches one mutant on for this thread until dropped (also on panic).
struct MutantOn;

impl MutantOn {
    fn new(m: Mutant) -> MutantOn {
        set_active(&[m]);
        MutantOn
    }
}

impl Drop for MutantOn {
    fn drop(&mut self) {
        set_active(&[]);
    }
}

/// `promote_allocas` with `m` on, without the SSA check.
fn promote_mutated(f: &IrFunction, m: Mutant) -> (usize, IrFunction) {
    let _on = MutantOn::new(m);
    let mut out = f.clone();
    let n = promote_allocas(&mut out);
    (n, out)
}

#[test]
fn gep_base_mutant_promotes_an_address_taken_slot() {
    // The slot is written through a gep and read directly: it must stay in memory.
    let f = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                gep(1, v(0), 0),
                store(I32, c(I32, 7), 1),
                load(2, I32, 0),
            ],
            ret(I32, v(2)),
        )],
    );
    assert_eq!(promote(&f), (0, f.clone()));
    // Mutant: promoted; the alloca stays for the gep, the load reads the zero.
    let (n, out) = promote_mutated(&f, Mutant::M2rPromoteGepBase);
    let expected = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                gep(1, v(0), 0),
                store(I32, c(I32, 7), 1),
                copy(2, I32, c(I32, 0)),
            ],
            ret(I32, v(2)),
        )],
    );
    assert_eq!((n, &out), (1, &expected));
    assert_ssa(&out);
    assert!(verify(&f).is_ok() && verify(&out).is_ok());
    assert_eq!(run(&f, &[], 100), Ok(7));
    assert_eq!(run(&out, &[], 100), Ok(0));
}

#[test]
fn no_stack_pop_mutant_leaks_a_sibling_definition() {
    // Block 1 stores 7; its dominator-tree sibling 2 must still see the entry's 5.
    let f = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(0, I32),
                    paramref(1, 0, I32),
                    store(I32, c(I32, 5), 0),
                ],
                condbr(v(1), 1, 2),
            ),
            block(
                1,
                vec![store(I32, c(I32, 7), 0), load(2, I32, 0)],
                ret(I32, v(2)),
            ),
            block(2, vec![load(3, I32, 0)], ret(I32, v(3))),
        ],
    );
    let expected = |in_2: i64| {
        func(
            &[I32],
            I32,
            vec![
                block(0, vec![paramref(1, 0, I32)], condbr(v(1), 1, 2)),
                block(1, vec![copy(2, I32, c(I32, 7))], ret(I32, v(2))),
                block(2, vec![copy(3, I32, c(I32, in_2))], ret(I32, v(3))),
            ],
        )
    };
    assert_eq!(promote(&f), (1, expected(5)));
    let (n, out) = promote_mutated(&f, Mutant::M2rNoStackPop);
    assert_eq!((n, &out), (1, &expected(7)));
    assert_ssa(&out);
    assert!(verify(&f).is_ok() && verify(&out).is_ok());
    assert_eq!(run(&f, &[0], 100), Ok(5));
    assert_eq!(run(&out, &[0], 100), Ok(7));
}

#[test]
fn frontier_skips_loop_header_mutant_loses_the_loop_phi() {
    // for (i = 0; i < 3; i++); return i;
    let f = func(
        &[],
        I32,
        vec![
            block(0, vec![alloca(0, I32), store(I32, c(I32, 0), 0)], br(1)),
            block(
                1,
                vec![load(1, I32, 0), cmp(2, CmpPred::Slt, I32, v(1), c(I32, 3))],
                condbr(v(2), 2, 3),
            ),
            block(
                2,
                vec![add(3, I32, v(1), c(I32, 1)), store(I32, v(3), 0)],
                br(1),
            ),
            block(3, vec![load(4, I32, 0)], ret(I32, v(4))),
        ],
    );
    let correct = func(
        &[],
        I32,
        vec![
            block(0, vec![], br(1)),
            block(
                1,
                vec![
                    phi(5, I32, &[(c(I32, 0), 0), (v(3), 2)]),
                    copy(1, I32, v(5)),
                    cmp(2, CmpPred::Slt, I32, v(1), c(I32, 3)),
                ],
                condbr(v(2), 2, 3),
            ),
            block(2, vec![add(3, I32, v(1), c(I32, 1))], br(1)),
            block(3, vec![copy(4, I32, v(5))], ret(I32, v(4))),
        ],
    );
    let (n, out) = promote(&f);
    assert_eq!((n, &out), (1, &correct));
    assert_eq!(run(&out, &[], 1000), Ok(3));

    let mutated = func(
        &[],
        I32,
        vec![
            block(0, vec![], br(1)),
            block(
                1,
                vec![
                    copy(1, I32, c(I32, 0)),
                    cmp(2, CmpPred::Slt, I32, v(1), c(I32, 3)),
                ],
                condbr(v(2), 2, 3),
            ),
            block(2, vec![add(3, I32, v(1), c(I32, 1))], br(1)),
            block(3, vec![copy(4, I32, c(I32, 0))], ret(I32, v(4))),
        ],
    );
    let (n, out) = promote_mutated(&f, Mutant::M2rFrontierSkipsLoopHeader);
    assert_eq!((n, &out), (1, &mutated));
    assert_ssa(&out);
    assert!(verify(&f).is_ok() && verify(&out).is_ok());
    assert_eq!(run(&out, &[], 1000), Err(Stop::OutOfFuel));
}

#[test]
fn no_narrowing_mutant_lets_a_wide_literal_into_a_narrow_copy() {
    let f = func(
        &[],
        I8,
        vec![block(
            0,
            vec![alloca(0, I8), store(I8, c(I64, 300), 0), load(1, I8, 0)],
            ret(I8, v(1)),
        )],
    );
    let expected = |src| {
        func(
            &[],
            I8,
            vec![block(0, vec![copy(1, I8, src)], ret(I8, v(1)))],
        )
    };
    assert_eq!(promote(&f), (1, expected(c(I8, 44))));
    let (n, out) = promote_mutated(&f, Mutant::M2rNoNarrowing);
    assert_eq!((n, &out), (1, &expected(c(I64, 300))));
    // The verifier rule "copy operands have exactly the copy's type" catches it.
    let errors = check_ssa(&out).unwrap_err();
    assert!(errors[0].contains("operand i64 in a i8"), "{errors:?}");
    assert!(verify(&f).is_ok());
    let errors = verify(&out).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(run(&f, &[], 100), Ok(44));
    assert_eq!(run(&out, &[], 100), Ok(300));
}

#[test]
fn mutants_are_off_after_each_test_helper() {
    let f = func(
        &[],
        I8,
        vec![block(
            0,
            vec![alloca(0, I8), store(I8, c(I64, 300), 0), load(1, I8, 0)],
            ret(I8, v(1)),
        )],
    );
    let _ = promote_mutated(&f, Mutant::M2rNoNarrowing);
    assert!(crate::mutants::active().is_empty());
    assert_eq!(promote(&f).1.blocks[0].insts[0], copy(1, I8, c(I8, 44)));
}
