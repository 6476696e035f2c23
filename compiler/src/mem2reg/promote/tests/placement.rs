//! Phi placement and renaming on hand-checked functions: the seeds' examples, diamonds,
//! loops (several back edges, irreducible), reads before writes, narrowing, repeated
//! targets, unreachable predecessors.

use super::build::*;
use super::eval::run;
use super::{promote, promote_params};
use crate::ir::{BinOp, CmpPred, IrFunction};

#[test]
fn straight_line_textbook_figure_1_2() {
    // mem2reg-textbook.zh.txt, figures 1-2 -> 1-3: `a = 1 + 2; a = a * 4`.
    let f = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                add(1, I32, c(I32, 1), c(I32, 2)),
                store(I32, v(1), 0),
                load(2, I32, 0),
                bin(3, BinOp::Mul, I32, v(2), c(I32, 4)),
                store(I32, v(3), 0),
            ],
            ret(I32, c(I32, 0)),
        )],
    );
    let expected = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                add(1, I32, c(I32, 1), c(I32, 2)),
                copy(2, I32, v(1)),
                bin(3, BinOp::Mul, I32, v(2), c(I32, 4)),
            ],
            ret(I32, c(I32, 0)),
        )],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn diamond_textbook_figure_1_9() {
    // mem2reg-textbook.zh.txt, figure 1-9 (labels as in the book: 5, 6, 8); the book's
    // result, figure 1-20, is `%10 = phi i32 [1, %5], [%9, %8]` in block 6 and `ret %10`.
    let f = func(
        &[],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(1, I32),
                    alloca(2, I32),
                    store(I32, c(I32, 1), 1),
                    load(3, I32, 1),
                    cmp(4, CmpPred::Sgt, I32, v(3), c(I32, 0)),
                ],
                condbr(v(4), 5, 8),
            ),
            block(5, vec![store(I32, c(I32, 1), 2)], br(6)),
            block(6, vec![load(7, I32, 2)], ret(I32, v(7))),
            block(
                8,
                vec![
                    bin(9, BinOp::Sub, I32, c(I32, 0), c(I32, 1)),
                    store(I32, v(9), 2),
                ],
                br(6),
            ),
        ],
    );
    let expected = func(
        &[],
        I32,
        vec![
            block(
                0,
                vec![
                    copy(3, I32, c(I32, 1)),
                    cmp(4, CmpPred::Sgt, I32, v(3), c(I32, 0)),
                ],
                condbr(v(4), 5, 8),
            ),
            block(5, vec![], br(6)),
            block(
                6,
                vec![
                    phi(10, I32, &[(c(I32, 1), 5), (v(9), 8)]),
                    copy(7, I32, v(10)),
                ],
                ret(I32, v(7)),
            ),
            block(
                8,
                vec![bin(9, BinOp::Sub, I32, c(I32, 0), c(I32, 1))],
                br(6),
            ),
        ],
    );
    assert_eq!(promote(&f), (2, expected));
}

/// The `fib` of mem2reg-tinyoptimizer-blog.txt, blocks entry=0, if.then=1, if.end=2,
/// while.cond=3, while.body=4, while.end=5, return=6; slots retval=%0, n.addr=%1 (the
/// parameter's), a=%2, b=%3, i=%4, c=%5.
fn fib() -> IrFunction {
    func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(0, I32),
                    alloca(1, I32),
                    alloca(2, I32),
                    alloca(3, I32),
                    alloca(4, I32),
                    alloca(5, I32),
                    paramref(6, 0, I32),
                    store(I32, v(6), 1),
                    store(I32, c(I32, 0), 2),
                    store(I32, c(I32, 1), 3),
                    store(I32, c(I32, 1), 4),
                    store(I32, c(I32, 0), 5),
                    load(7, I32, 1),
                    cmp(8, CmpPred::Eq, I32, v(7), c(I32, 0)),
                ],
                condbr(v(8), 1, 2),
            ),
            block(1, vec![store(I32, c(I32, 0), 0)], br(6)),
            block(2, vec![], br(3)),
            block(
                3,
                vec![
                    load(9, I32, 4),
                    load(10, I32, 1),
                    cmp(11, CmpPred::Slt, I32, v(9), v(10)),
                ],
                condbr(v(11), 4, 5),
            ),
            block(
                4,
                vec![
                    load(12, I32, 3),
                    store(I32, v(12), 5),
                    load(13, I32, 2),
                    load(14, I32, 3),
                    add(15, I32, v(13), v(14)),
                    store(I32, v(15), 3),
                    load(16, I32, 5),
                    store(I32, v(16), 2),
                    load(17, I32, 4),
                    add(18, I32, v(17), c(I32, 1)),
                    store(I32, v(18), 4),
                ],
                br(3),
            ),
            block(5, vec![load(19, I32, 3), store(I32, v(19), 0)], br(6)),
            block(6, vec![load(20, I32, 0)], ret(I32, v(20))),
        ],
    )
}

/// The blog's phi placement (its "phi-node placement" listing): a, b, i, c get phis in
/// while.cond; retval, a, b, i, c in return; n.addr (stored only in entry) none. Phi
/// results are numbered from 21 in block order, then slot order.
fn fib_promoted(n_addr_promoted: bool) -> IrFunction {
    let n = |load_dest: u32| {
        if n_addr_promoted {
            copy(load_dest, I32, v(6))
        } else {
            load(load_dest, I32, 1)
        }
    };
    let mut entry = vec![alloca(1, I32), paramref(6, 0, I32)];
    if !n_addr_promoted {
        entry.push(store(I32, v(6), 1));
    }
    entry.push(n(7));
    entry.push(cmp(8, CmpPred::Eq, I32, v(7), c(I32, 0)));
    let (z, one) = (c(I32, 0), c(I32, 1));
    func(
        &[I32],
        I32,
        vec![
            block(0, entry, condbr(v(8), 1, 2)),
            block(1, vec![], br(6)),
            block(2, vec![], br(3)),
            block(
                3,
                vec![
                    phi(21, I32, &[(z, 2), (v(16), 4)]),   // a
                    phi(22, I32, &[(one, 2), (v(15), 4)]), // b
                    phi(23, I32, &[(one, 2), (v(18), 4)]), // i
                    phi(24, I32, &[(z, 2), (v(12), 4)]),   // c
                    copy(9, I32, v(23)),
                    n(10),
                    cmp(11, CmpPred::Slt, I32, v(9), v(10)),
                ],
                condbr(v(11), 4, 5),
            ),
            block(
                4,
                vec![
                    copy(12, I32, v(22)),
                    copy(13, I32, v(21)),
                    copy(14, I32, v(22)),
                    add(15, I32, v(13), v(14)),
                    copy(16, I32, v(12)),
                    copy(17, I32, v(23)),
                    add(18, I32, v(17), c(I32, 1)),
                ],
                br(3),
            ),
            block(5, vec![copy(19, I32, v(22))], br(6)),
            block(
                6,
                vec![
                    phi(25, I32, &[(z, 1), (v(19), 5)]),   // retval
                    phi(26, I32, &[(z, 1), (v(21), 5)]),   // a
                    phi(27, I32, &[(one, 1), (v(22), 5)]), // b
                    phi(28, I32, &[(one, 1), (v(23), 5)]), // i
                    phi(29, I32, &[(z, 1), (v(24), 5)]),   // c
                    copy(20, I32, v(25)),
                ],
                ret(I32, v(20)),
            ),
        ],
    )
}

#[test]
fn fib_loop_of_the_tinyoptimizer_blog() {
    let f = fib();
    let (n, out) = promote(&f);
    assert_eq!(n, 5);
    assert_eq!(out, fib_promoted(false));
    let (n, out) = promote_params(&f);
    assert_eq!(n, 6);
    assert_eq!(out, fib_promoted(true));
    // fib(0) = 0 (if.then); otherwise b after n - 1 rounds of (a, b) = (b, a + b) from
    // (0, 1): the Fibonacci numbers 1, 1, 2, 3, 5, ... 55 for n = 10.
    for (arg, expected) in [(0, 0), (1, 1), (2, 1), (5, 5), (10, 55)] {
        assert_eq!(run(&f, &[arg], 10_000), Ok(expected));
        assert_eq!(run(&out, &[arg], 10_000), Ok(expected));
    }
}

#[test]
fn loop_with_several_back_edges() {
    // Header 1 has three predecessors: the entry and two latches (2 -> 1, 3 -> 1).
    let f = func(
        &[],
        I32,
        vec![
            block(0, vec![alloca(0, I32), store(I32, c(I32, 0), 0)], br(1)),
            block(
                1,
                vec![load(1, I32, 0), cmp(2, CmpPred::Slt, I32, v(1), c(I32, 10))],
                condbr(v(2), 2, 4),
            ),
            block(
                2,
                vec![
                    add(3, I32, v(1), c(I32, 1)),
                    store(I32, v(3), 0),
                    cmp(4, CmpPred::Eq, I32, v(3), c(I32, 4)),
                ],
                condbr(v(4), 1, 3),
            ),
            block(
                3,
                vec![add(5, I32, v(3), c(I32, 2)), store(I32, v(5), 0)],
                br(1),
            ),
            block(4, vec![load(6, I32, 0)], ret(I32, v(6))),
        ],
    );
    let expected = func(
        &[],
        I32,
        vec![
            block(0, vec![], br(1)),
            block(
                1,
                vec![
                    phi(7, I32, &[(c(I32, 0), 0), (v(3), 2), (v(5), 3)]),
                    copy(1, I32, v(7)),
                    cmp(2, CmpPred::Slt, I32, v(1), c(I32, 10)),
                ],
                condbr(v(2), 2, 4),
            ),
            block(
                2,
                vec![
                    add(3, I32, v(1), c(I32, 1)),
                    cmp(4, CmpPred::Eq, I32, v(3), c(I32, 4)),
                ],
                condbr(v(4), 1, 3),
            ),
            block(3, vec![add(5, I32, v(3), c(I32, 2))], br(1)),
            block(4, vec![copy(6, I32, v(7))], ret(I32, v(6))),
        ],
    );
    let (n, out) = promote(&f);
    assert_eq!((n, &out), (1, &expected));
    // 0 -> 1, 3 (latch 3) -> 4 (latch 2) -> 5, 7 -> 8, 10: the header exits with 10.
    assert_eq!(run(&f, &[], 1000), Ok(10));
    assert_eq!(run(&out, &[], 1000), Ok(10));
}

#[test]
fn irreducible_loop() {
    // Two entries into the cycle 1 <-> 2; neither dominates the other. DF(1) = {2, 3},
    // DF(2) = {1, 3}, so the slot (stored in 0, 1, 2) gets phis in 1, 2 and 3.
    let f = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(0, I32),
                    paramref(1, 0, I32),
                    store(I32, c(I32, 1), 0),
                    cmp(2, CmpPred::Sgt, I32, v(1), c(I32, 0)),
                ],
                condbr(v(2), 1, 2),
            ),
            block(
                1,
                vec![
                    load(3, I32, 0),
                    add(4, I32, v(3), c(I32, 1)),
                    store(I32, v(4), 0),
                    cmp(5, CmpPred::Slt, I32, v(4), c(I32, 20)),
                ],
                condbr(v(5), 2, 3),
            ),
            block(
                2,
                vec![
                    load(6, I32, 0),
                    bin(7, BinOp::Mul, I32, v(6), c(I32, 2)),
                    store(I32, v(7), 0),
                    cmp(8, CmpPred::Slt, I32, v(7), c(I32, 20)),
                ],
                condbr(v(8), 1, 3),
            ),
            block(3, vec![load(9, I32, 0)], ret(I32, v(9))),
        ],
    );
    let expected = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    paramref(1, 0, I32),
                    cmp(2, CmpPred::Sgt, I32, v(1), c(I32, 0)),
                ],
                condbr(v(2), 1, 2),
            ),
            block(
                1,
                vec![
                    phi(10, I32, &[(c(I32, 1), 0), (v(7), 2)]),
                    copy(3, I32, v(10)),
                    add(4, I32, v(3), c(I32, 1)),
                    cmp(5, CmpPred::Slt, I32, v(4), c(I32, 20)),
                ],
                condbr(v(5), 2, 3),
            ),
            block(
                2,
                vec![
                    phi(11, I32, &[(c(I32, 1), 0), (v(4), 1)]),
                    copy(6, I32, v(11)),
                    bin(7, BinOp::Mul, I32, v(6), c(I32, 2)),
                    cmp(8, CmpPred::Slt, I32, v(7), c(I32, 20)),
                ],
                condbr(v(8), 1, 3),
            ),
            block(
                3,
                vec![phi(12, I32, &[(v(4), 1), (v(7), 2)]), copy(9, I32, v(12))],
                ret(I32, v(9)),
            ),
        ],
    );
    let (n, out) = promote(&f);
    assert_eq!((n, &out), (1, &expected));
    // p > 0: 1 -> 2 -> 4 -> 5 -> 10 -> 11 -> 22 (stop in 2). p <= 0: 2 -> 3 -> 6 -> 7 ->
    // 14 -> 15 -> 30 (stop in 2).
    for (p, r) in [(1, 22), (0, 30)] {
        assert_eq!(run(&f, &[p], 1000), Ok(r));
        assert_eq!(run(&out, &[p], 1000), Ok(r));
    }
}

#[test]
fn a_read_before_any_write_reads_zero() {
    let f = func(
        &[I32],
        I64,
        vec![
            block(
                0,
                vec![alloca(0, I64), load(1, I64, 0), paramref(2, 0, I32)],
                condbr(v(2), 1, 2),
            ),
            block(1, vec![store(I64, c(I64, 7), 0)], br(2)),
            block(
                2,
                vec![load(3, I64, 0), add(4, I64, v(1), v(3))],
                ret(I64, v(4)),
            ),
        ],
    );
    let expected = func(
        &[I32],
        I64,
        vec![
            block(
                0,
                vec![copy(1, I64, c(I64, 0)), paramref(2, 0, I32)],
                condbr(v(2), 1, 2),
            ),
            block(1, vec![], br(2)),
            block(
                2,
                vec![
                    phi(5, I64, &[(c(I64, 0), 0), (c(I64, 7), 1)]),
                    copy(3, I64, v(5)),
                    add(4, I64, v(1), v(3)),
                ],
                ret(I64, v(4)),
            ),
        ],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn wide_constants_are_narrowed_to_the_slot_type() {
    // The lowering's `:i64` literals: 300 -> i8 44, -129 -> i8 127, -1 -> u16 65535.
    let f = func(
        &[I32],
        I8,
        vec![
            block(
                0,
                vec![
                    alloca(0, I8),
                    alloca(1, U16),
                    paramref(2, 0, I32),
                    store(I8, c(I64, 300), 0),
                ],
                condbr(v(2), 1, 2),
            ),
            block(
                1,
                vec![store(I8, c(I64, -129), 0), store(U16, c(I64, -1), 1)],
                br(2),
            ),
            block(2, vec![load(3, I8, 0), load(4, U16, 1)], ret(I8, v(3))),
        ],
    );
    let expected = func(
        &[I32],
        I8,
        vec![
            block(0, vec![paramref(2, 0, I32)], condbr(v(2), 1, 2)),
            block(1, vec![], br(2)),
            block(
                2,
                vec![
                    phi(5, I8, &[(c(I8, 44), 0), (c(I8, 127), 1)]),
                    phi(6, U16, &[(c(U16, 0), 0), (c(U16, 65535), 1)]),
                    copy(3, I8, v(5)),
                    copy(4, U16, v(6)),
                ],
                ret(I8, v(3)),
            ),
        ],
    );
    assert_eq!(promote(&f), (2, expected));
}

#[test]
fn repeated_targets_give_one_phi_entry_per_predecessor() {
    let f = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(0, I32),
                    paramref(1, 0, I32),
                    store(I32, c(I32, 1), 0),
                ],
                condbr(v(1), 1, 2),
            ),
            block(1, vec![store(I32, c(I32, 2), 0)], condbr(v(1), 3, 3)),
            block(
                2,
                vec![store(I32, c(I32, 3), 0)],
                switch(I32, v(1), 3, &[(1, 3), (2, 3)]),
            ),
            block(3, vec![load(2, I32, 0)], ret(I32, v(2))),
        ],
    );
    let expected = func(
        &[I32],
        I32,
        vec![
            block(0, vec![paramref(1, 0, I32)], condbr(v(1), 1, 2)),
            block(1, vec![], condbr(v(1), 3, 3)),
            block(2, vec![], switch(I32, v(1), 3, &[(1, 3), (2, 3)])),
            block(
                3,
                vec![
                    phi(3, I32, &[(c(I32, 2), 1), (c(I32, 3), 2)]),
                    copy(2, I32, v(3)),
                ],
                ret(I32, v(2)),
            ),
        ],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn unreachable_blocks_give_no_entries_and_lose_their_slot_accesses() {
    // Block 4 is unreachable and jumps into the join 3: it gets no phi entry; its load
    // reads zero and its store vanishes.
    let f = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(0, I32),
                    paramref(1, 0, I32),
                    store(I32, c(I32, 1), 0),
                ],
                condbr(v(1), 1, 2),
            ),
            block(1, vec![store(I32, c(I32, 2), 0)], br(3)),
            block(2, vec![], br(3)),
            block(3, vec![load(2, I32, 0)], ret(I32, v(2))),
            block(
                4,
                vec![load(3, I32, 0), store(I32, c(I32, 9), 0)],
                ret(I32, v(3)),
            ),
            block(5, vec![store(I32, c(I32, 8), 0)], br(3)),
        ],
    );
    let expected = func(
        &[I32],
        I32,
        vec![
            block(0, vec![paramref(1, 0, I32)], condbr(v(1), 1, 2)),
            block(1, vec![], br(3)),
            block(2, vec![], br(3)),
            block(
                3,
                vec![
                    phi(4, I32, &[(c(I32, 2), 1), (c(I32, 1), 2)]),
                    copy(2, I32, v(4)),
                ],
                ret(I32, v(2)),
            ),
            block(4, vec![copy(3, I32, c(I32, 0))], ret(I32, v(3))),
            block(5, vec![], br(3)),
        ],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn new_phis_go_before_the_phis_a_block_already_has() {
    let f = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![alloca(0, I32), paramref(1, 0, I32)],
                condbr(v(1), 1, 2),
            ),
            block(1, vec![store(I32, c(I32, 2), 0)], br(3)),
            block(2, vec![store(I32, c(I32, 3), 0)], br(3)),
            block(
                3,
                vec![
                    phi(2, I32, &[(c(I32, 20), 1), (c(I32, 30), 2)]),
                    load(3, I32, 0),
                    add(4, I32, v(2), v(3)),
                ],
                ret(I32, v(4)),
            ),
        ],
    );
    let expected = func(
        &[I32],
        I32,
        vec![
            block(0, vec![paramref(1, 0, I32)], condbr(v(1), 1, 2)),
            block(1, vec![], br(3)),
            block(2, vec![], br(3)),
            block(
                3,
                vec![
                    phi(5, I32, &[(c(I32, 2), 1), (c(I32, 3), 2)]),
                    phi(2, I32, &[(c(I32, 20), 1), (c(I32, 30), 2)]),
                    copy(3, I32, v(5)),
                    add(4, I32, v(2), v(3)),
                ],
                ret(I32, v(4)),
            ),
        ],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn a_back_edge_into_the_entry_puts_no_phi_there() {
    // The entry is in DF(1) (1 -> 0 is a back edge) but a phi there could not name the
    // caller; none is needed, since re-entering re-executes the alloca (a fresh slot).
    let f = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![
                    alloca(0, I32),
                    paramref(1, 0, I32),
                    store(I32, c(I32, 1), 0),
                    load(2, I32, 0),
                ],
                condbr(v(1), 1, 2),
            ),
            block(1, vec![store(I32, v(2), 0)], br(0)),
            block(2, vec![load(3, I32, 0)], ret(I32, v(3))),
        ],
    );
    let expected = func(
        &[I32],
        I32,
        vec![
            block(
                0,
                vec![paramref(1, 0, I32), copy(2, I32, c(I32, 1))],
                condbr(v(1), 1, 2),
            ),
            block(1, vec![], br(0)),
            block(2, vec![copy(3, I32, c(I32, 1))], ret(I32, v(3))),
        ],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn many_slots_in_one_block_keep_slot_order() {
    // Three slots merged in one join: phis in slot order, results numbered in that order.
    let mut entry = vec![paramref(0, 0, I32)];
    let mut then = vec![];
    let mut join = vec![];
    for s in 0..3u32 {
        entry.push(alloca(1 + s, I32));
        entry.push(store(I32, c(I32, s as i64), 1 + s));
        then.push(store(I32, c(I32, 10 + s as i64), 1 + s));
        join.push(load(4 + s, I32, 1 + s));
    }
    join.push(add(7, I32, v(4), v(5)));
    join.push(add(8, I32, v(7), v(6)));
    let f = func(
        &[I32],
        I32,
        vec![
            block(0, entry, condbr(v(0), 1, 2)),
            block(1, then, br(2)),
            block(2, join, ret(I32, v(8))),
        ],
    );
    let (n, out) = promote(&f);
    assert_eq!(n, 3);
    let phis: Vec<_> = out.blocks[2].insts[..3].to_vec();
    assert_eq!(
        phis,
        vec![
            phi(9, I32, &[(c(I32, 0), 0), (c(I32, 10), 1)]),
            phi(10, I32, &[(c(I32, 1), 0), (c(I32, 11), 1)]),
            phi(11, I32, &[(c(I32, 2), 0), (c(I32, 12), 1)]),
        ]
    );
    assert_eq!(out.blocks[2].insts[3], copy(4, I32, v(9)));
    assert_eq!(out.blocks[2].insts[5], copy(6, I32, v(11)));
}
