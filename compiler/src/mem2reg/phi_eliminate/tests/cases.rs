//! Hand-written cases. Expected outputs were worked out by hand from the protocol:
//! temporaries are numbered from the function's `value_bound` in phi order, saves come
//! before direct copies, trampolines take ids from the module's `next_block_id` and sit
//! right after their predecessor.

use super::build::*;
use crate::ir::verify::VerifyMode;
use crate::ir::{konst, IrFunction, IrType, Terminator};
use crate::mem2reg::phi_eliminate::eliminate_phis;
use crate::mem2reg::phi_eliminate::replay::{check_module, check_phi_elimination};

/// `.LBB0: params; br .LBB1` / `.LBB1: PHIS; condbr %0, .LBB2, .LBB3` / `.LBB2: br .LBB1`
/// / `.LBB3: ret i32 %4`: a loop whose latch .LBB2 is not critical.
pub fn loop_with_phis(phis: Vec<crate::ir::Inst>) -> IrFunction {
    func(
        "f",
        vec![
            block(0, paramrefs(), br(1)),
            block(1, phis, condbr(v(0), 2, 3)),
            block(2, vec![], br(1)),
            block(3, vec![], ret32(v(4))),
        ],
    )
}

/// Instructions `paramrefs()` followed by `extra`.
fn params_then(extra: Vec<crate::ir::Inst>) -> Vec<crate::ir::Inst> {
    let mut insts = paramrefs();
    insts.extend(extra);
    insts
}

pub fn swap() -> IrFunction {
    loop_with_phis(vec![
        phi32(4, &[(v(1), 0), (v(5), 2)]),
        phi32(5, &[(v(0), 0), (v(4), 2)]),
    ])
}

#[test]
fn swap_goes_through_temporaries_on_every_edge() {
    let after = eliminate_checked(&swap());
    let expected = func(
        "f",
        vec![
            block(
                0,
                params_then(vec![copy32(6, v(1)), copy32(7, v(0))]),
                br(1),
            ),
            block(
                1,
                vec![copy32(4, v(6)), copy32(5, v(7))],
                condbr(v(0), 2, 3),
            ),
            block(2, vec![copy32(6, v(5)), copy32(7, v(4))], br(1)),
            block(3, vec![], ret32(v(4))),
        ],
    );
    assert_eq!(after, expected);
}

#[test]
fn three_rotation() {
    let before = loop_with_phis(vec![
        phi32(4, &[(v(1), 0), (v(5), 2)]),
        phi32(5, &[(c32(7), 0), (v(6), 2)]),
        phi32(6, &[(v(0), 0), (v(4), 2)]),
    ]);
    let after = eliminate_checked(&before);
    // All three rotate: three temporaries %7..%9, restored at the top of the header.
    assert_eq!(
        after.blocks[1].insts,
        vec![copy32(4, v(7)), copy32(5, v(8)), copy32(6, v(9))]
    );
    assert_eq!(
        after.blocks[2].insts,
        vec![copy32(7, v(5)), copy32(8, v(6)), copy32(9, v(4))]
    );
}

#[test]
fn chains_in_both_orders() {
    // a = b, b = c: the reader a conflicts, the safety net marks b.
    let a_reads_b = loop_with_phis(vec![
        phi32(4, &[(v(0), 0), (v(5), 2)]),
        phi32(5, &[(v(1), 0), (v(1), 2)]),
    ]);
    let after = eliminate_checked(&a_reads_b);
    assert_eq!(
        after.blocks[1].insts,
        vec![copy32(4, v(6)), copy32(5, v(7))]
    );
    // x = c, y = x: sequential copies in phi order would give y the new x.
    let y_reads_x = loop_with_phis(vec![
        phi32(4, &[(v(0), 0), (v(1), 2)]),
        phi32(5, &[(v(1), 0), (v(4), 2)]),
    ]);
    let after = eliminate_checked(&y_reads_x);
    assert_eq!(
        after.blocks[2].insts,
        vec![copy32(6, v(1)), copy32(7, v(4))]
    );
}

#[test]
fn self_reference_is_elided() {
    let before = loop_with_phis(vec![phi32(4, &[(v(1), 0), (v(4), 2)])]);
    let after = eliminate_checked(&before);
    assert_eq!(after.blocks[0].insts, params_then(vec![copy32(4, v(1))]));
    assert!(after.blocks[1].insts.is_empty());
    assert!(after.blocks[2].insts.is_empty(), "the latch copies nothing");
}

#[test]
fn self_reference_read_by_another_phi_is_saved() {
    // %5 reads %4 on the latch, where %4 keeps itself: both get temporaries, and %4's
    // temporary is saved even though %4 "copies itself" there.
    let before = loop_with_phis(vec![
        phi32(4, &[(v(1), 0), (v(4), 2)]),
        phi32(5, &[(v(0), 0), (v(4), 2)]),
    ]);
    let after = eliminate_checked(&before);
    assert_eq!(
        after.blocks[2].insts,
        vec![copy32(6, v(4)), copy32(7, v(4))]
    );
    assert_eq!(
        after.blocks[1].insts,
        vec![copy32(4, v(6)), copy32(5, v(7))]
    );
}

#[test]
fn one_value_feeding_several_phis_needs_no_temporary() {
    let before = loop_with_phis(vec![
        phi32(4, &[(v(1), 0), (v(0), 2)]),
        phi32(5, &[(v(1), 0), (v(0), 2)]),
    ]);
    let after = eliminate_checked(&before);
    assert_eq!(after.value_bound(), before.value_bound(), "no temporaries");
    assert_eq!(
        after.blocks[0].insts,
        params_then(vec![copy32(4, v(1)), copy32(5, v(1))])
    );
    assert_eq!(
        after.blocks[2].insts,
        vec![copy32(4, v(0)), copy32(5, v(0))]
    );
}

#[test]
fn constants_are_copied_with_the_phi_type() {
    let before = loop_with_phis(vec![
        phi32(4, &[(c32(7), 0), (v(0), 2)]),
        phi(5, IrType::I64, &[(konst(IrType::I64, -1), 0), (v(2), 2)]),
    ]);
    let after = eliminate_checked(&before);
    assert_eq!(
        after.blocks[0].insts,
        params_then(vec![
            copy32(4, c32(7)),
            copy(5, IrType::I64, konst(IrType::I64, -1)),
        ])
    );
}

pub fn critical_edge() -> IrFunction {
    func(
        "f",
        vec![
            block(0, paramrefs(), condbr(v(0), 1, 2)),
            block(1, vec![], br(2)),
            block(2, vec![phi32(4, &[(v(1), 0), (v(0), 1)])], ret32(v(4))),
        ],
    )
}

#[test]
fn critical_edge_gets_a_trampoline_after_its_predecessor() {
    let after = eliminate_checked(&critical_edge());
    let expected = func(
        "f",
        vec![
            block(0, paramrefs(), condbr(v(0), 1, 3)),
            block(3, vec![copy32(4, v(1))], br(2)),
            block(1, vec![copy32(4, v(0))], br(2)),
            block(2, vec![], ret32(v(4))),
        ],
    );
    assert_eq!(after, expected);
}

#[test]
fn repeated_condbr_target_is_not_critical() {
    let before = func(
        "f",
        vec![
            block(0, paramrefs(), condbr(v(0), 1, 1)),
            block(1, vec![phi32(4, &[(v(1), 0)])], ret32(v(4))),
        ],
    );
    let after = eliminate_checked(&before);
    let expected = func(
        "f",
        vec![
            block(0, params_then(vec![copy32(4, v(1))]), condbr(v(0), 1, 1)),
            block(1, vec![], ret32(v(4))),
        ],
    );
    assert_eq!(after, expected);
}

fn switch(default: u32, cases: &[(i64, u32)]) -> Terminator {
    Terminator::Switch {
        ty: IrType::I32,
        val: v(0),
        default: b(default),
        cases: cases.iter().map(|&(c, t)| (c, b(t))).collect(),
    }
}

pub fn switch_with_repeated_targets() -> IrFunction {
    func(
        "f",
        vec![
            block(0, paramrefs(), switch(2, &[(1, 1), (2, 1), (3, 2), (4, 3)])),
            block(1, vec![phi32(4, &[(v(1), 0)])], ret32(v(4))),
            block(2, vec![phi32(5, &[(v(0), 0), (v(1), 3)])], ret32(v(5))),
            block(3, vec![], br(2)),
        ],
    )
}

#[test]
fn switch_with_repeated_targets_redirects_every_edge_to_one_trampoline() {
    let after = eliminate_checked(&switch_with_repeated_targets());
    let expected = func(
        "f",
        vec![
            block(0, paramrefs(), switch(5, &[(1, 4), (2, 4), (3, 5), (4, 3)])),
            block(4, vec![copy32(4, v(1))], br(1)),
            block(5, vec![copy32(5, v(0))], br(2)),
            block(1, vec![], ret32(v(4))),
            block(2, vec![], ret32(v(5))),
            block(3, vec![copy32(5, v(1))], br(2)),
        ],
    );
    assert_eq!(after, expected);
}

/// A self-loop that exits from its own block, and uses the phi after the loop.
pub fn self_loop() -> IrFunction {
    func(
        "f",
        vec![
            block(0, paramrefs(), br(1)),
            block(
                1,
                vec![
                    phi32(4, &[(v(1), 0), (v(5), 1)]),
                    add32(5, v(4), c32(1)),
                    cmp32(6, v(5), v(0)),
                ],
                condbr(v(6), 1, 2),
            ),
            block(2, vec![], ret32(v(4))),
        ],
    )
}

#[test]
fn loop_back_edge_from_exiting_block_gets_a_trampoline() {
    let after = eliminate_checked(&self_loop());
    let expected = func(
        "f",
        vec![
            block(0, params_then(vec![copy32(4, v(1))]), br(1)),
            block(
                1,
                vec![add32(5, v(4), c32(1)), cmp32(6, v(5), v(0))],
                condbr(v(6), 3, 2),
            ),
            block(3, vec![copy32(4, v(5))], br(1)),
            block(2, vec![], ret32(v(4))),
        ],
    );
    assert_eq!(after, expected);
}

#[test]
fn many_phis_in_one_permutation() {
    const N: u32 = 40;
    // On the latch phi i takes phi (7i + 3) mod 40: a permutation (gcd(7, 40) = 1).
    let phis = (0..N)
        .map(|i| {
            phi32(
                4 + i,
                &[(c32(i64::from(i)), 0), (v(4 + (7 * i + 3) % N), 2)],
            )
        })
        .collect();
    let before = loop_with_phis(phis);
    let after = eliminate_checked(&before);
    assert_eq!(
        after.blocks[1].insts.len(),
        N as usize,
        "one restore per phi"
    );
    assert_eq!(after.blocks[2].insts.len(), N as usize, "one save per phi");
    assert_eq!(after.value_bound(), 4 + 2 * N);
}

#[test]
fn entries_for_non_edges_are_ignored_and_unreachable_predecessors_copy_only_their_own() {
    let before = func(
        "f",
        vec![
            block(0, paramrefs(), condbr(v(0), 1, 2)),
            block(1, vec![], br(2)),
            block(
                2,
                vec![phi32(4, &[(v(1), 0), (v(0), 1), (c32(5), 7), (c32(9), 9)])],
                ret32(v(4)),
            ),
            // Not a predecessor of .LBB2: its entry above is no edge.
            block(7, vec![], ret32(c32(0))),
            // Unreachable predecessor without an entry: no copies.
            block(8, vec![], br(2)),
            // Unreachable predecessor with an entry: it gets its copy.
            block(9, vec![], br(2)),
        ],
    );
    let (after, eliminated) = eliminate(&before);
    assert_eq!(eliminated, 1);
    check_phi_elimination(&before, &after).unwrap();
    let labels: Vec<u32> = after.blocks.iter().map(|b| b.label.0).collect();
    assert_eq!(labels, vec![0, 10, 1, 2, 7, 8, 9]);
    assert_eq!(after.blocks[1].insts, vec![copy32(4, v(1))]);
    assert_eq!(after.blocks[4].insts, vec![]);
    assert_eq!(after.blocks[5].insts, vec![]);
    assert_eq!(after.blocks[6].insts, vec![copy32(4, c32(9))]);
}

#[test]
fn repeated_entry_for_one_predecessor_keeps_the_first() {
    let before = func(
        "f",
        vec![
            block(0, paramrefs(), br(1)),
            block(1, vec![phi32(4, &[(v(1), 0), (v(0), 0)])], ret32(v(4))),
        ],
    );
    let (after, _) = eliminate(&before);
    assert_eq!(after.blocks[0].insts, params_then(vec![copy32(4, v(1))]));
}

#[test]
fn trampoline_ids_come_from_the_module_wide_counter() {
    let f = critical_edge();
    let mut g = critical_edge();
    g.name = "g".into();
    for (i, block) in g.blocks.iter_mut().enumerate() {
        block.label = b(10 + i as u32);
    }
    g.blocks[0].term = condbr(v(0), 11, 12);
    g.blocks[1].term = br(12);
    g.blocks[2].insts = vec![phi32(4, &[(v(1), 10), (v(0), 11)])];
    let before = module(vec![f, g]);
    assert_verifies(&before, VerifyMode::Ssa);
    let mut after = before.clone();
    assert_eq!(eliminate_phis(&mut after), 2);
    assert_verifies(&after, VerifyMode::PostPhiElim);
    check_module(&before, &after).unwrap();
    assert_eq!(after.functions[0].blocks[1].label, b(13));
    assert_eq!(after.functions[1].blocks[1].label, b(14));
}

#[test]
fn functions_without_phis_are_untouched() {
    let before = func("f", vec![block(0, paramrefs(), ret32(v(0)))]);
    let (after, eliminated) = eliminate(&before);
    assert_eq!(eliminated, 0);
    assert_eq!(after, before);
}

/// A valid SSA ladder of `n` blocks: block i (i >= 3) is reached from i-1 and i-2, so
/// nearly every edge is critical and every block merges two values with a phi.
fn ladder(n: u32) -> IrFunction {
    let x = |i: u32| 4 + 3 * i; // computed in block i
    let p = |i: u32| 5 + 3 * i; // phi of block i
    let c = |i: u32| 6 + 3 * i; // condition of block i
    let mut blocks = Vec::with_capacity(n as usize);
    blocks.push(block(
        0,
        params_then(vec![add32(x(0), v(0), c32(1))]),
        br(1),
    ));
    for i in 1..n {
        let incoming: Vec<_> = if i <= 2 {
            vec![(v(x(i - 1)), i - 1)]
        } else {
            vec![(v(x(i - 1)), i - 1), (v(x(i - 2)), i - 2)]
        };
        let insts = vec![
            phi32(p(i), &incoming),
            add32(x(i), v(p(i)), c32(1)),
            cmp32(c(i), v(x(i)), v(0)),
        ];
        let term = if i + 2 < n {
            condbr(v(c(i)), i + 1, i + 2)
        } else if i + 1 < n {
            br(i + 1)
        } else {
            ret32(v(x(i)))
        };
        blocks.push(block(i, insts, term));
    }
    func("ladder", blocks)
}

#[test]
fn large_function_is_eliminated_and_checked() {
    let before = ladder(20_000);
    let after = eliminate_checked(&before);
    // Blocks 1 .. n-3 end in a condbr with two distinct targets that have phis:
    // two trampolines each.
    assert_eq!(after.blocks.len(), 20_000 + 2 * (20_000 - 3));
}

#[test]
fn malformed_input_does_not_panic() {
    // A phi in the entry block, a branch to a missing label, entries for missing labels,
    // a phi after a non-phi, a block with no predecessors and phis.
    let before = func(
        "f",
        vec![
            block(
                0,
                vec![phi32(4, &[(v(5), 3)]), copy32(9, c32(1))],
                condbr(v(0), 1, 99),
            ),
            block(
                1,
                vec![
                    phi32(5, &[(v(4), 0), (v(4), 42)]),
                    copy32(8, c32(2)),
                    phi32(6, &[]),
                ],
                br(1),
            ),
            block(3, vec![phi32(7, &[(v(7), 3)])], br(0)),
        ],
    );
    let mut m = module(vec![before]);
    assert_eq!(eliminate_phis(&mut m), 3, "the leading phis of each block");
}
