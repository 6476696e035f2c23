//! The promotability rules, one test (or one table row) each, and parameter allocas.

use super::build::*;
use super::{has_alloca, memory_ops_through, promote, promote_params};
use crate::ir::{BinOp, Callee, CmpPred, Inst, IrFunction, IrType, Terminator, UnOp};

/// `%0` is a slot of `ty` (`size` bytes): stored 5, loaded into `%1`, returned.
fn store_load(slot: Inst, ty: IrType) -> IrFunction {
    func(
        &[],
        ty,
        vec![block(
            0,
            vec![slot, store(ty, c(ty, 5), 0), load(1, ty, 0)],
            ret(ty, v(1)),
        )],
    )
}

/// The same function after a correct promotion: the load reads the stored 5.
fn store_load_promoted(ty: IrType) -> IrFunction {
    func(
        &[],
        ty,
        vec![block(0, vec![copy(1, ty, c(ty, 5))], ret(ty, v(1)))],
    )
}

#[test]
fn rule1_scalar_slots_up_to_eight_bytes_are_promoted() {
    for ty in [I8, I32, I64, U8, IrType::Ptr] {
        let (n, out) = promote(&store_load(alloca(0, ty), ty));
        assert_eq!(n, 1, "{ty}");
        assert_eq!(out, store_load_promoted(ty), "{ty}");
    }
    // An 8-byte allocation of a 4-byte type (padding) still fits a register.
    let (n, out) = promote(&store_load(alloca_sized(0, I32, 8, false), I32));
    assert_eq!(n, 1);
    assert_eq!(out, store_load_promoted(I32));
}

#[test]
fn rule1_allocations_over_eight_bytes_stay_in_memory() {
    for size in [9, 12, 16, 400] {
        let f = store_load(alloca_sized(0, I32, size, false), I32);
        let (n, out) = promote(&f);
        assert_eq!(n, 0, "size {size}");
        assert_eq!(out, f);
    }
}

#[test]
fn rule1_type_must_be_a_register_type() {
    // Every current type but void is at most 8 bytes (the type-size half of rule 1 guards
    // wider types to come, i128); a void slot can hold no value and stays.
    for ty in IrType::ALL {
        assert!(ty.max_size() <= super::super::MAX_PROMOTABLE_ALLOCA_SIZE);
    }
    let f = func(
        &[],
        IrType::Void,
        vec![block(
            0,
            vec![alloca_sized(0, IrType::Void, 0, false)],
            Terminator::Ret(None),
        )],
    );
    let (n, out) = promote(&f);
    assert_eq!(n, 0);
    assert_eq!(out, f);
}

#[test]
fn rule3_volatile_slots_stay_in_memory() {
    let f = store_load(alloca_sized(0, I32, 4, true), I32);
    let (n, out) = promote(&f);
    assert_eq!(n, 0);
    assert_eq!(out, f);
}

#[test]
fn rule4_type_punning_keeps_the_slot_in_memory() {
    // Loaded with a narrower type than the slot's.
    let f = func(
        &[],
        I8,
        vec![block(
            0,
            vec![alloca(0, I32), store(I32, c(I32, 0x105), 0), load(1, I8, 0)],
            ret(I8, v(1)),
        )],
    );
    assert_eq!(promote(&f), (0, f.clone()));
    // Stored with a wider type than the slot's.
    let f = func(
        &[],
        I32,
        vec![block(
            0,
            vec![alloca(0, I32), store(I64, c(I64, 5), 0), load(1, I32, 0)],
            ret(I32, v(1)),
        )],
    );
    assert_eq!(promote(&f), (0, f.clone()));
    // Signedness is part of the type: a u8 load of an i8 slot is punning too.
    let f = func(
        &[],
        U8,
        vec![block(
            0,
            vec![alloca(0, I8), store(I8, c(I8, -1), 0), load(1, U8, 0)],
            ret(U8, v(1)),
        )],
    );
    assert_eq!(promote(&f), (0, f.clone()));
}

/// Rule 2: each way the address of `%0` can escape keeps `%0` in memory. The escaping
/// use sits in block 1 (so a phi can name block 0), or is block 1's terminator.
#[test]
fn rule2_every_escaping_use_keeps_the_slot_in_memory() {
    let p = IrType::Ptr;
    let escaping_insts: Vec<(&str, Inst)> = vec![
        ("stored value", store(p, v(0), 11)),
        ("gep base", gep(10, v(0), 4)),
        (
            "gep offset",
            Inst::Gep {
                dest: crate::ir::Value(10),
                base: v(12),
                offset: v(0),
            },
        ),
        (
            "call argument",
            Inst::Call {
                dest: None,
                ret: IrType::Void,
                callee: Callee::Direct("g".into()),
                args: vec![(p, v(0))],
                named: None,
            },
        ),
        (
            "indirect callee",
            Inst::Call {
                dest: None,
                ret: IrType::Void,
                callee: Callee::Indirect(v(0)),
                args: vec![],
                named: None,
            },
        ),
        (
            "memcpy destination",
            Inst::Memcpy {
                dst: v(0),
                src: v(12),
                size: 4,
            },
        ),
        (
            "memcpy source",
            Inst::Memcpy {
                dst: v(12),
                src: v(0),
                size: 4,
            },
        ),
        (
            "select operand",
            Inst::Select {
                dest: crate::ir::Value(10),
                ty: p,
                cond: c(I8, 1),
                on_true: v(0),
                on_false: v(12),
            },
        ),
        ("phi operand", phi(10, p, &[(v(0), 0)])),
        ("copy operand", copy(10, p, v(0))),
        (
            "cast operand",
            Inst::Cast {
                dest: crate::ir::Value(10),
                from: p,
                src: v(0),
                to: I64,
            },
        ),
        ("cmp operand", cmp(10, CmpPred::Eq, p, v(0), v(12))),
        ("binary operand", bin(10, BinOp::Add, p, v(0), c(p, 8))),
        (
            "unary operand",
            Inst::Un {
                dest: crate::ir::Value(10),
                op: UnOp::Not,
                ty: p,
                src: v(0),
            },
        ),
    ];
    let ok_term = ret(I32, v(1));
    let mut cases: Vec<(&str, Vec<Inst>, Terminator)> = escaping_insts
        .into_iter()
        .map(|(what, inst)| (what, vec![inst], ok_term.clone()))
        .collect();
    cases.push(("condbr condition", vec![], condbr(v(0), 2, 2)));
    cases.push(("switch value", vec![], switch(p, v(0), 2, &[(0, 2)])));
    cases.push(("returned", vec![], ret(p, v(0))));

    for (what, uses, term) in cases {
        let mut b1 = uses;
        b1.push(load(1, I32, 0));
        let f = func(
            &[],
            I32,
            vec![
                block(
                    0,
                    vec![
                        alloca(0, I32),
                        alloca(11, p),
                        Inst::GlobalAddr {
                            dest: crate::ir::Value(12),
                            name: "g".into(),
                        },
                        store(I32, c(I32, 5), 0),
                    ],
                    br(1),
                ),
                block(1, b1, term),
                block(2, vec![], ret(I32, c(I32, 0))),
            ],
        );
        let (_, out) = promote(&f);
        assert!(has_alloca(&out, 0), "{what}: alloca removed");
        assert_eq!(
            memory_ops_through(&out, 0),
            2,
            "{what}: load/store rewritten"
        );
    }
}

#[test]
fn slot_stored_into_another_slot_escapes_but_the_other_is_promoted() {
    // %1 holds the address of %0: %0 escapes, %1 is an ordinary pointer slot.
    let p = IrType::Ptr;
    let f = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                alloca(1, p),
                store(p, v(0), 1),
                load(2, p, 1),
                store(I32, c(I32, 3), 2),
                load(3, I32, 0),
            ],
            ret(I32, v(3)),
        )],
    );
    let expected = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                copy(2, p, v(0)),
                store(I32, c(I32, 3), 2),
                load(3, I32, 0),
            ],
            ret(I32, v(3)),
        )],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn allocas_in_non_entry_blocks_are_promoted() {
    // An inlined body: the alloca sits in block 1, a diamond below it.
    let f = func(
        &[I32],
        I32,
        vec![
            block(0, vec![paramref(0, 0, I32)], br(1)),
            block(
                1,
                vec![alloca(1, I32), store(I32, c(I64, 10), 1)],
                condbr(v(0), 2, 3),
            ),
            block(2, vec![store(I32, v(0), 1)], br(3)),
            block(3, vec![load(2, I32, 1)], ret(I32, v(2))),
        ],
    );
    let expected = func(
        &[I32],
        I32,
        vec![
            block(0, vec![paramref(0, 0, I32)], br(1)),
            block(1, vec![], condbr(v(0), 2, 3)),
            block(2, vec![], br(3)),
            block(
                3,
                vec![
                    phi(3, I32, &[(c(I32, 10), 1), (v(0), 2)]),
                    copy(2, I32, v(3)),
                ],
                ret(I32, v(2)),
            ),
        ],
    );
    assert_eq!(promote(&f), (1, expected));
}

/// The parameter protocol: `%2 = paramref 0` stored into `%0`; `%1` is an ordinary local.
fn with_param_slot() -> IrFunction {
    func(
        &[I32],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                alloca(1, I32),
                paramref(2, 0, I32),
                store(I32, v(2), 0),
                store(I32, c(I64, 5), 1),
                load(3, I32, 0),
                load(4, I32, 1),
                add(5, I32, v(3), v(4)),
            ],
            ret(I32, v(5)),
        )],
    )
}

#[test]
fn promote_allocas_skips_parameter_allocas() {
    let f = with_param_slot();
    assert_eq!(f.param_allocas(), vec![Some(crate::ir::Value(0))]);
    let expected = func(
        &[I32],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                paramref(2, 0, I32),
                store(I32, v(2), 0),
                load(3, I32, 0),
                copy(4, I32, c(I32, 5)),
                add(5, I32, v(3), v(4)),
            ],
            ret(I32, v(5)),
        )],
    );
    assert_eq!(promote(&f), (1, expected));
}

#[test]
fn promote_allocas_with_params_promotes_and_retains_parameter_allocas() {
    let f = with_param_slot();
    // The parameter slot's alloca stays, first in the entry (positional lookup); its
    // store and load are gone.
    let expected = func(
        &[I32],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                paramref(2, 0, I32),
                copy(3, I32, v(2)),
                copy(4, I32, c(I32, 5)),
                add(5, I32, v(3), v(4)),
            ],
            ret(I32, v(5)),
        )],
    );
    assert_eq!(promote_params(&f), (2, expected.clone()));
    // Its paramref store is gone, so a later run sees an ordinary unused alloca (parameter
    // slots are derived, never stored) and removes it.
    let (n, out) = promote(&expected);
    assert_eq!(n, 1);
    assert!(!has_alloca(&out, 0));
}

#[test]
fn a_stored_paramref_of_another_type_is_no_parameter_slot() {
    // `paramref 0, i64` stored into an i32 slot is type punning, and not the protocol.
    let f = func(
        &[I64],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                paramref(1, 0, I64),
                store(I64, v(1), 0),
                load(2, I32, 0),
            ],
            ret(I32, v(2)),
        )],
    );
    assert_eq!(f.param_allocas(), vec![None]);
    assert_eq!(promote_params(&f), (0, f.clone()));
}

#[test]
fn unused_and_load_only_slots_are_promoted() {
    let f = func(
        &[],
        I64,
        vec![block(
            0,
            vec![alloca(0, I32), alloca(1, I64), load(2, I64, 1)],
            ret(I64, v(2)),
        )],
    );
    let expected = func(
        &[],
        I64,
        vec![block(0, vec![copy(2, I64, c(I64, 0))], ret(I64, v(2)))],
    );
    assert_eq!(promote(&f), (2, expected));
}

#[test]
fn a_value_defined_twice_is_left_alone() {
    // Not SSA input; the pass must not crash and must not promote the ambiguous slot.
    let f = func(
        &[],
        I32,
        vec![block(
            0,
            vec![
                alloca(0, I32),
                alloca(0, I32),
                store(I32, c(I32, 1), 0),
                load(1, I32, 0),
            ],
            ret(I32, v(1)),
        )],
    );
    let mut out = f.clone();
    assert_eq!(super::super::promote_allocas(&mut out), 0);
    assert_eq!(out, f);
    let g = func(
        &[],
        I32,
        vec![block(
            0,
            vec![alloca(0, I32), copy(0, I32, c(I32, 1)), load(1, I32, 0)],
            ret(I32, v(1)),
        )],
    );
    let mut out = g.clone();
    assert_eq!(super::super::promote_allocas(&mut out), 0);
    assert_eq!(out, g);
}
