//! Verifier tests: one failing case per rule (asserting the message names the problem),
//! passing cases for alloca form, SSA and post-phi-elimination IR, and scale.

use super::*;
use crate::ir::{
    konst, BasicBlock, BinOp, Callee, CmpPred, FuncAttrs, GlobalInit, GlobalItem, Inst, IrDecl,
    IrFunction, IrGlobal, IrType, Operand, Terminator, Value,
};
use IrType::{Ptr, Void, I32, I64, I8, U8};

// ---- builders ---------------------------------------------------------------------------

fn v(n: u32) -> Operand {
    Operand::Value(Value(n))
}

fn c32(n: i64) -> Operand {
    konst(I32, n)
}

fn b(n: u32) -> BlockId {
    BlockId(n)
}

fn block(label: u32, insts: Vec<Inst>, term: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(label),
        insts,
        term,
    }
}

fn func(name: &str, params: Vec<IrType>, ret: IrType, blocks: Vec<BasicBlock>) -> IrFunction {
    IrFunction {
        name: name.into(),
        params,
        ret,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks,
    }
}

fn module(functions: Vec<IrFunction>) -> IrModule {
    IrModule {
        functions,
        ..IrModule::default()
    }
}

fn paramref(dest: u32, index: u32, ty: IrType) -> Inst {
    Inst::ParamRef {
        dest: Value(dest),
        index,
        ty,
    }
}

fn add(dest: u32, ty: IrType, lhs: Operand, rhs: Operand) -> Inst {
    Inst::Bin {
        dest: Value(dest),
        op: BinOp::Add,
        ty,
        lhs,
        rhs,
    }
}

fn cmp(dest: u32, ty: IrType, lhs: Operand, rhs: Operand) -> Inst {
    Inst::Cmp {
        dest: Value(dest),
        pred: CmpPred::Slt,
        ty,
        lhs,
        rhs,
    }
}

fn copy(dest: u32, ty: IrType, src: Operand) -> Inst {
    Inst::Copy {
        dest: Value(dest),
        ty,
        src,
    }
}

fn phi(dest: u32, ty: IrType, incoming: &[(Operand, u32)]) -> Inst {
    Inst::Phi {
        dest: Value(dest),
        ty,
        incoming: incoming.iter().map(|&(op, l)| (op, BlockId(l))).collect(),
    }
}

fn call(dest: Option<u32>, ret: IrType, name: &str, args: Vec<(IrType, Operand)>) -> Inst {
    Inst::Call {
        dest: dest.map(Value),
        ret,
        callee: Callee::Direct(name.into()),
        args,
        named: None,
    }
}

fn ret32(op: Operand) -> Terminator {
    Terminator::Ret(Some((I32, op)))
}

fn condbr(cond: Operand, t: u32, f: u32) -> Terminator {
    Terminator::CondBr {
        cond,
        if_true: BlockId(t),
        if_false: BlockId(f),
    }
}

/// `func @name(i32) -> i32 { .LBB<label>: %0 = paramref 0, i32; INSTS; TERM }`
fn single_block(name: &str, label: u32, insts: Vec<Inst>, term: Terminator) -> IrFunction {
    let mut all = vec![paramref(0, 0, I32)];
    all.extend(insts);
    func(name, vec![I32], I32, vec![block(label, all, term)])
}

/// Module with one single-block function `@f`.
fn one(insts: Vec<Inst>, term: Terminator) -> IrModule {
    module(vec![single_block("f", 0, insts, term)])
}

fn assert_ok(m: &IrModule, mode: VerifyMode) {
    if let Err(errors) = verify_module(m, mode) {
        let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("expected no errors, got:\n{}", list.join("\n"));
    }
}

/// Asserts that verifying `m` fails with an error whose message contains `needle`.
#[track_caller]
fn assert_fails(m: &IrModule, mode: VerifyMode, needle: &str) {
    let errors = verify_module(m, mode).expect_err("expected the verifier to fail");
    assert!(
        errors.iter().any(|e| e.message.contains(needle)),
        "no error mentions {needle:?}; got:\n{}",
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---- valid IR ---------------------------------------------------------------------------

/// Alloca form: a stack slot written on one path, read after the join.
fn alloca_form() -> IrModule {
    module(vec![func(
        "f",
        vec![I32],
        I32,
        vec![
            block(
                0,
                vec![
                    Inst::Alloca {
                        dest: Value(0),
                        ty: I32,
                        size: 4,
                        align: 4,
                        volatile: false,
                    },
                    paramref(1, 0, I32),
                    Inst::Store {
                        ty: I32,
                        val: v(1),
                        ptr: v(0),
                    },
                    Inst::Load {
                        dest: Value(2),
                        ty: I32,
                        ptr: v(0),
                    },
                    // A `:i64` literal in an i32 position: an implicit conversion, allowed.
                    cmp(3, I32, v(2), konst(I64, 10)),
                ],
                condbr(v(3), 1, 2),
            ),
            block(
                1,
                vec![Inst::Store {
                    ty: I32,
                    val: konst(I64, 5),
                    ptr: v(0),
                }],
                Terminator::Br(b(2)),
            ),
            block(
                2,
                vec![Inst::Load {
                    dest: Value(4),
                    ty: I32,
                    ptr: v(0),
                }],
                ret32(v(4)),
            ),
        ],
    )])
}

/// SSA: a counting loop with a phi at the header and a value used after the loop.
fn ssa_loop() -> IrModule {
    module(vec![func(
        "f",
        vec![I32],
        I32,
        vec![
            block(0, vec![paramref(1, 0, I32)], Terminator::Br(b(1))),
            block(
                1,
                vec![
                    phi(2, I32, &[(c32(0), 0), (v(3), 1)]),
                    add(3, I32, v(2), c32(1)),
                    cmp(4, I32, v(3), v(1)),
                ],
                condbr(v(4), 1, 2),
            ),
            block(2, vec![], ret32(v(3))),
        ],
    )])
}

/// The same loop after phi elimination, with a trampoline on the back edge.
fn post_phi_loop() -> IrModule {
    module(vec![func(
        "f",
        vec![I32],
        I32,
        vec![
            block(
                0,
                vec![paramref(1, 0, I32), copy(2, I32, c32(0))],
                Terminator::Br(b(1)),
            ),
            block(
                1,
                vec![add(3, I32, v(2), c32(1)), cmp(4, I32, v(3), v(1))],
                condbr(v(4), 3, 2),
            ),
            block(3, vec![copy(2, I32, v(3))], Terminator::Br(b(1))),
            block(2, vec![], ret32(v(3))),
        ],
    )])
}

#[test]
fn valid_alloca_form_passes() {
    assert_ok(&alloca_form(), VerifyMode::Ssa);
}

#[test]
fn valid_ssa_passes() {
    assert_ok(&ssa_loop(), VerifyMode::Ssa);
}

#[test]
fn valid_post_phi_elim_passes() {
    let m = post_phi_loop();
    assert_ok(&m, VerifyMode::PostPhiElim);
    // %2 is assigned twice: that is not SSA.
    assert_fails(&m, VerifyMode::Ssa, "defined more than once");
}

#[test]
fn ssa_with_phis_fails_post_phi_mode() {
    assert_fails(
        &ssa_loop(),
        VerifyMode::PostPhiElim,
        "phi after phi elimination",
    );
}

#[test]
fn unreachable_blocks_are_exempt_from_dominance() {
    // .LBB9 is unreachable: it uses %8 before defining it, and jumps into the join, whose
    // phi may or may not have an entry for it.
    let mut m = ssa_loop();
    let f = &mut m.functions[0];
    f.blocks.push(block(
        9,
        vec![add(7, I32, v(8), c32(1)), add(8, I32, v(1), c32(2))],
        Terminator::Br(b(1)),
    ));
    assert_ok(&m, VerifyMode::Ssa);
    if let Inst::Phi { incoming, .. } = &mut m.functions[0].blocks[1].insts[0] {
        incoming.push((v(7), b(9)));
    }
    assert_ok(&m, VerifyMode::Ssa);
    // But a reachable use of a value defined only in the unreachable block is not.
    m.functions[0].blocks[2].term = ret32(v(7));
    assert_fails(&m, VerifyMode::Ssa, "not dominated");
}

#[test]
fn conditions_may_be_any_integer_type() {
    let m = one(
        vec![
            Inst::Cast {
                dest: Value(1),
                from: I32,
                src: v(0),
                to: I64,
            },
            Inst::Select {
                dest: Value(2),
                ty: I32,
                cond: v(1),
                on_true: v(0),
                on_false: c32(3),
            },
        ],
        ret32(v(2)),
    );
    assert_ok(&m, VerifyMode::Ssa);
    let m = module(vec![func(
        "f",
        vec![U8],
        Void,
        vec![
            block(0, vec![paramref(0, 0, U8)], condbr(v(0), 1, 1)),
            block(1, vec![], Terminator::Ret(None)),
        ],
    )]);
    assert_ok(&m, VerifyMode::Ssa);
}

#[test]
fn calls_and_globals_that_match_pass() {
    let mut m = one(
        vec![
            Inst::GlobalAddr {
                dest: Value(1),
                name: "fmt".into(),
            },
            call(
                Some(2),
                I32,
                "printf",
                vec![(Ptr, v(1)), (I32, v(0)), (I64, konst(I64, 7))],
            ),
            call(None, Void, "g", vec![(I32, v(2))]),
        ],
        ret32(v(2)),
    );
    m.functions.push(func(
        "g",
        vec![I32],
        Void,
        vec![block(1, vec![], Terminator::Ret(None))],
    ));
    m.decls.push(IrDecl {
        name: "printf".into(),
        params: vec![Ptr],
        variadic: true,
        ret: I32,
    });
    m.globals.push(IrGlobal {
        name: "fmt".into(),
        size: 16,
        align: 8,
        is_const: true,
        init: GlobalInit::Items(vec![
            GlobalItem::Str(b"%d\n\0".to_vec()),
            GlobalItem::Zero(4),
            GlobalItem::Ptr("g".into(), 0),
        ]),
    });
    assert_ok(&m, VerifyMode::Ssa);
}

// ---- module rules -----------------------------------------------------------------------

fn global(name: &str, size: u32, align: u32, items: Vec<GlobalItem>) -> IrGlobal {
    IrGlobal {
        name: name.into(),
        size,
        align,
        is_const: false,
        init: GlobalInit::Items(items),
    }
}

#[test]
fn duplicate_symbols_fail() {
    let mut m = one(vec![], ret32(v(0)));
    m.functions.push(single_block("f", 1, vec![], ret32(v(0))));
    assert_fails(&m, VerifyMode::Ssa, "@f is defined twice");

    let mut m = one(vec![], ret32(v(0)));
    m.decls.push(IrDecl {
        name: "f".into(),
        params: vec![I32],
        variadic: false,
        ret: I32,
    });
    assert_fails(&m, VerifyMode::Ssa, "as a declaration and as a function");

    let mut m = one(vec![], ret32(v(0)));
    m.globals.push(global("g", 4, 4, vec![]));
    m.globals.push(global("g", 4, 4, vec![]));
    assert_fails(&m, VerifyMode::Ssa, "@g is defined twice");
}

#[test]
fn block_labels_unique_across_module() {
    let m = module(vec![
        single_block("f", 3, vec![], ret32(v(0))),
        single_block("g", 3, vec![], ret32(v(0))),
    ]);
    assert_fails(&m, VerifyMode::Ssa, "block label .LBB3 is used twice");
}

fn with_callee(insts: Vec<Inst>, term: Terminator) -> IrModule {
    let mut m = one(insts, term);
    m.decls.push(IrDecl {
        name: "h".into(),
        params: vec![I32, I32],
        variadic: false,
        ret: I32,
    });
    m.decls.push(IrDecl {
        name: "vh".into(),
        params: vec![Ptr],
        variadic: true,
        ret: Void,
    });
    m.globals.push(global("gv", 4, 4, vec![]));
    m
}

#[test]
fn call_rules_fail() {
    let m = with_callee(vec![call(Some(1), I32, "nope", vec![])], ret32(v(1)));
    assert_fails(&m, VerifyMode::Ssa, "unknown function @nope");

    let m = with_callee(
        vec![call(Some(1), I32, "h", vec![(I32, v(0))])],
        ret32(v(1)),
    );
    assert_fails(&m, VerifyMode::Ssa, "passes 1 arguments, it takes 2");

    let m = with_callee(vec![call(None, Void, "vh", vec![])], ret32(v(0)));
    assert_fails(&m, VerifyMode::Ssa, "takes 1 or more");

    let m = with_callee(
        vec![call(
            Some(1),
            I32,
            "h",
            vec![(I64, konst(I64, 1)), (I32, v(0))],
        )],
        ret32(v(1)),
    );
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "argument 0 is i64, the parameter is i32",
    );

    let m = with_callee(
        vec![call(Some(1), I64, "h", vec![(I32, v(0)), (I32, v(0))])],
        ret32(v(0)),
    );
    assert_fails(&m, VerifyMode::Ssa, "returns i64, the callee returns i32");

    let m = with_callee(
        vec![call(Some(1), Void, "vh", vec![(Ptr, konst(Ptr, 0))])],
        ret32(v(0)),
    );
    assert_fails(&m, VerifyMode::Ssa, "`call void` defines a value");

    let m = with_callee(vec![call(Some(1), I32, "gv", vec![])], ret32(v(1)));
    assert_fails(&m, VerifyMode::Ssa, "which is a global");
}

#[test]
fn named_count_rules_fail() {
    // `...` after more arguments than the call has.
    let indirect = |named: u32| Inst::Call {
        dest: None,
        ret: Void,
        callee: Callee::Indirect(konst(Ptr, 4096)),
        args: vec![(Ptr, konst(Ptr, 0)), (I64, konst(I64, 0))],
        named: Some(named),
    };
    assert_ok(
        &with_callee(vec![indirect(1)], ret32(v(0))),
        VerifyMode::Ssa,
    );
    assert_ok(
        &with_callee(vec![indirect(2)], ret32(v(0))),
        VerifyMode::Ssa,
    );
    let m = with_callee(vec![indirect(3)], ret32(v(0)));
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "`...` after 3 named arguments of a call with 2",
    );
    // A direct call's declaration says where `...` starts.
    let mut direct = call(None, Void, "vh", vec![(Ptr, konst(Ptr, 0))]);
    if let Inst::Call { named, .. } = &mut direct {
        *named = Some(1);
    }
    let m = with_callee(vec![direct], ret32(v(0)));
    assert_fails(&m, VerifyMode::Ssa, "`...` in a direct call");
}

#[test]
fn globaladdr_of_unknown_symbol_fails() {
    let m = one(
        vec![Inst::GlobalAddr {
            dest: Value(1),
            name: "missing".into(),
        }],
        ret32(v(0)),
    );
    assert_fails(&m, VerifyMode::Ssa, "unknown symbol @missing");
}

#[test]
fn global_rules_fail() {
    let mut m = one(vec![], ret32(v(0)));
    m.globals.push(global(
        "g",
        8,
        8,
        vec![
            GlobalItem::Int(I32, 1),
            GlobalItem::Int(I32, 2),
            GlobalItem::Ptr("f".into(), 0),
        ],
    ));
    // Pointers count at the narrowest target's 4 bytes: 4 + 4 + 4 > 8.
    assert_fails(&m, VerifyMode::Ssa, "take 12 bytes, more than its size 8");

    // A 4-byte global holding one pointer is an i686 module's global: it verifies (the
    // oracle checks the fit for the pointer width it runs with).
    let mut m = one(vec![], ret32(v(0)));
    m.globals
        .push(global("g", 4, 4, vec![GlobalItem::Ptr("f".into(), 0)]));
    assert!(verify_module(&m, VerifyMode::Ssa).is_ok());

    let mut m = one(vec![], ret32(v(0)));
    m.globals.push(global("g", 8, 6, vec![]));
    assert_fails(&m, VerifyMode::Ssa, "global align 6 is not a power of two");

    let mut m = one(vec![], ret32(v(0)));
    m.globals
        .push(global("g", 8, 8, vec![GlobalItem::Ptr("nope".into(), 4)]));
    assert_fails(&m, VerifyMode::Ssa, "unknown symbol @nope");

    let mut m = one(vec![], ret32(v(0)));
    m.globals
        .push(global("g", 8, 8, vec![GlobalItem::Int(U8, 300)]));
    assert_fails(&m, VerifyMode::Ssa, "not canonical for u8");
}

#[test]
fn void_parameter_fails() {
    let mut m = one(vec![], ret32(v(0)));
    m.decls.push(IrDecl {
        name: "d".into(),
        params: vec![Void],
        variadic: false,
        ret: I32,
    });
    assert_fails(&m, VerifyMode::Ssa, "parameter 0 has type void");
}

// ---- function structure -----------------------------------------------------------------

#[test]
fn function_without_blocks_fails() {
    let m = module(vec![func("f", vec![], Void, vec![])]);
    assert_fails(&m, VerifyMode::Ssa, "has no blocks");
}

#[test]
fn branch_to_missing_or_foreign_block_fails() {
    let m = one(vec![], Terminator::Br(b(42)));
    assert_fails(&m, VerifyMode::Ssa, "branch target .LBB42 is not a block");

    let m = module(vec![
        single_block("f", 0, vec![], Terminator::Br(b(1))),
        single_block("g", 1, vec![], ret32(v(0))),
    ]);
    assert_fails(&m, VerifyMode::Ssa, "branch target .LBB1 is not a block");
}

#[test]
fn phi_in_entry_block_fails() {
    let m = one(vec![phi(1, I32, &[])], ret32(v(0)));
    assert_fails(&m, VerifyMode::Ssa, "phi in the entry block");
}

#[test]
fn phi_after_non_phi_fails() {
    let mut m = ssa_loop();
    m.functions[0].blocks[1].insts.swap(0, 1);
    assert_fails(&m, VerifyMode::Ssa, "phis only at the start of a block");
}

#[test]
fn phi_entry_rules_fail() {
    let set_incoming = |incoming: &[(Operand, u32)]| {
        let mut m = ssa_loop();
        m.functions[0].blocks[1].insts[0] = phi(2, I32, incoming);
        m
    };
    let m = set_incoming(&[(c32(0), 0)]);
    assert_fails(&m, VerifyMode::Ssa, "no entry for predecessor .LBB1");

    let m = set_incoming(&[(c32(0), 0), (v(3), 1), (c32(1), 2)]);
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "entry for .LBB2, which is not a predecessor",
    );

    let m = set_incoming(&[(c32(0), 0), (v(3), 1), (c32(1), 0)]);
    assert_fails(&m, VerifyMode::Ssa, "two entries for .LBB0");

    // Two edges from one predecessor still take one entry.
    let m = module(vec![func(
        "f",
        vec![I32],
        I32,
        vec![
            block(0, vec![paramref(0, 0, I32)], condbr(v(0), 1, 1)),
            block(1, vec![phi(1, I32, &[(v(0), 0)])], ret32(v(1))),
        ],
    )]);
    assert_ok(&m, VerifyMode::Ssa);
}

// ---- instruction rules ------------------------------------------------------------------

#[test]
fn alloca_rules_fail() {
    let alloca = |size, align| {
        one(
            vec![Inst::Alloca {
                dest: Value(1),
                ty: I32,
                size,
                align,
                volatile: false,
            }],
            ret32(v(0)),
        )
    };
    assert_fails(&alloca(0, 4), VerifyMode::Ssa, "alloca of size 0");
    assert_fails(
        &alloca(4, 3),
        VerifyMode::Ssa,
        "alloca align 3 is not a power",
    );
    assert_fails(
        &alloca(4, 0),
        VerifyMode::Ssa,
        "alloca align 0 is not a power",
    );
}

#[test]
fn paramref_rules_fail() {
    let m = one(vec![paramref(1, 1, I32)], ret32(v(0)));
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "paramref 1, but the function has 1 parameters",
    );
    let m = one(vec![paramref(1, 0, I64)], ret32(v(0)));
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "paramref 0 is i64, but parameter 0 is i32",
    );
}

#[test]
fn ret_rules_fail() {
    let m = one(vec![], Terminator::Ret(None));
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "ret without a value in a function returning i32",
    );
    let m = one(vec![], Terminator::Ret(Some((I64, konst(I64, 1)))));
    assert_fails(&m, VerifyMode::Ssa, "ret i64 in a function returning i32");
    let mut m = one(vec![], Terminator::Ret(Some((I32, v(0)))));
    m.functions[0].ret = Void;
    assert_fails(&m, VerifyMode::Ssa, "ret with a value in a void function");
}

#[test]
fn switch_rules_fail() {
    let switch = |ty: IrType, cases: Vec<i64>| {
        let val = konst(ty, 0);
        let mut m = one(
            vec![],
            Terminator::Switch {
                ty,
                val,
                default: b(1),
                cases: cases.into_iter().map(|c| (c, b(1))).collect(),
            },
        );
        m.functions[0].blocks.push(block(1, vec![], ret32(c32(0))));
        m
    };
    assert_ok(&switch(U8, vec![0, 255]), VerifyMode::Ssa);
    assert_fails(
        &switch(I32, vec![1, 2, 1]),
        VerifyMode::Ssa,
        "case 1 appears twice",
    );
    assert_fails(
        &switch(U8, vec![-1]),
        VerifyMode::Ssa,
        "case -1 is not canonical for u8",
    );
    assert_fails(
        &switch(I8, vec![128]),
        VerifyMode::Ssa,
        "case 128 is not canonical for i8",
    );
    assert_fails(&switch(Ptr, vec![]), VerifyMode::Ssa, "switch over ptr");
}

#[test]
fn cast_to_void_fails() {
    let m = one(
        vec![Inst::Cast {
            dest: Value(1),
            from: I32,
            src: v(0),
            to: Void,
        }],
        ret32(v(0)),
    );
    assert_fails(&m, VerifyMode::Ssa, "cast types must be scalar");
}

#[test]
fn void_types_fail() {
    let m = one(
        vec![Inst::Load {
            dest: Value(1),
            ty: Void,
            ptr: konst(Ptr, 0),
        }],
        ret32(v(0)),
    );
    assert_fails(&m, VerifyMode::Ssa, "load of type void");

    // A void call's result (itself an error) cannot be used either.
    let mut m = one(
        vec![call(Some(1), Void, "g", vec![]), add(2, I32, v(1), c32(1))],
        ret32(v(2)),
    );
    m.functions.push(func(
        "g",
        vec![],
        Void,
        vec![block(1, vec![], Terminator::Ret(None))],
    ));
    assert_fails(&m, VerifyMode::Ssa, "%1 has type void and cannot be used");

    let m = one(
        vec![add(
            1,
            I32,
            v(0),
            Operand::Const(crate::ir::IrConst::zero(Void)),
        )],
        ret32(v(1)),
    );
    assert_fails(&m, VerifyMode::Ssa, "constant 0 has type void");
}

// ---- type rules -------------------------------------------------------------------------

#[test]
fn operand_type_mismatch_fails() {
    let m = one(
        vec![
            Inst::Cast {
                dest: Value(1),
                from: I32,
                src: v(0),
                to: I64,
            },
            add(2, I32, v(0), v(1)),
        ],
        ret32(v(2)),
    );
    assert_fails(&m, VerifyMode::Ssa, "%1 is i64 but the operand must be i32");
}

#[test]
fn cast_source_must_have_from_type() {
    let m = one(
        vec![Inst::Cast {
            dest: Value(1),
            from: I64,
            src: v(0),
            to: I8,
        }],
        ret32(v(0)),
    );
    assert_fails(&m, VerifyMode::Ssa, "%0 is i32 but the operand must be i64");
}

#[test]
fn pointer_condition_fails() {
    let m = one(
        vec![Inst::GlobalAddr {
            dest: Value(1),
            name: "f".into(),
        }],
        condbr(v(1), 0, 0),
    );
    assert_fails(&m, VerifyMode::Ssa, "condition %1 is ptr, not an integer");
}

#[test]
fn wide_constant_in_phi_or_copy_fails() {
    let mut m = ssa_loop();
    m.functions[0].blocks[1].insts[0] = phi(2, I32, &[(konst(I64, 0), 0), (v(3), 1)]);
    assert_fails(&m, VerifyMode::Ssa, "never implicitly converted");

    let mut m = post_phi_loop();
    m.functions[0].blocks[0].insts[1] = copy(2, I32, konst(I64, 0));
    assert_fails(
        &m,
        VerifyMode::PostPhiElim,
        "constant 0:i64 where exactly i32",
    );
}

#[test]
fn undefined_value_fails_in_both_modes() {
    let m = one(vec![add(1, I32, v(0), v(77))], ret32(v(1)));
    assert_fails(&m, VerifyMode::Ssa, "%77 is used but never defined");
    assert_fails(&m, VerifyMode::PostPhiElim, "%77 is used but never defined");
}

#[test]
fn sparse_value_numbers_get_the_same_value_rules() {
    // Numbers far above the function's size take the verifier's hashed definition table;
    // the rules must not change with it.
    let big = 3_000_000_000;
    let m = one(
        vec![
            paramref(big, 0, I32),
            add(big + 5, I32, v(big), v(big + 77)),
        ],
        ret32(v(big + 5)),
    );
    assert_fails(&m, VerifyMode::Ssa, "%3000000077 is used but never defined");
    let m = one(
        vec![
            paramref(big, 0, I32),
            add(big + 5, I32, v(big), c32(1)),
            add(big + 5, I32, v(big), c32(2)),
        ],
        ret32(v(big + 5)),
    );
    assert_fails(&m, VerifyMode::Ssa, "%3000000005 is defined more than once");
    let m = one(
        vec![paramref(big, 0, I32), add(big + 5, I64, v(big), c32(1))],
        ret32(v(big + 5)),
    );
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "%3000000000 is i32 but the operand must be i64",
    );
    let m = one(
        vec![paramref(big, 0, I32), add(big + 5, I32, v(big), c32(1))],
        ret32(v(big + 5)),
    );
    assert_ok(&m, VerifyMode::Ssa);
}

#[test]
fn the_cached_verifier_sees_a_changed_cfg() {
    // Same labels and instructions; only the entry's terminator differs. In `straight`
    // .LBB1 dominates .LBB2; in `diamond` it does not, so %1's use in .LBB2 is broken.
    let version = |entry_term: Terminator| {
        module(vec![func(
            "f",
            vec![I32],
            I32,
            vec![
                block(0, vec![paramref(0, 0, I32)], entry_term),
                block(1, vec![add(1, I32, v(0), c32(1))], Terminator::Br(b(2))),
                block(2, vec![], ret32(v(1))),
            ],
        )])
    };
    let straight = version(Terminator::Br(b(1)));
    let diamond = version(condbr(v(0), 1, 2));
    let mut cache = VerifyCache::default();
    for _ in 0..2 {
        assert!(verify_module_cached(&straight, VerifyMode::Ssa, &mut cache).is_ok());
        let errors = verify_module_cached(&diamond, VerifyMode::Ssa, &mut cache)
            .expect_err("a stale CFG analysis would accept this");
        assert_eq!(Err(errors), verify_module(&diamond, VerifyMode::Ssa));
    }
}

// ---- SSA rules --------------------------------------------------------------------------

#[test]
fn double_definition_fails_in_ssa() {
    let m = one(
        vec![add(1, I32, v(0), c32(1)), add(1, I32, v(0), c32(2))],
        ret32(v(1)),
    );
    assert_fails(&m, VerifyMode::Ssa, "%1 is defined more than once");
    assert_ok(&m, VerifyMode::PostPhiElim);
}

#[test]
fn use_before_definition_in_block_fails() {
    let m = one(
        vec![add(1, I32, v(2), c32(1)), add(2, I32, v(0), c32(2))],
        ret32(v(1)),
    );
    assert_fails(&m, VerifyMode::Ssa, "use of %2 is not dominated");
    // A non-phi instruction may not read its own result either.
    let m = one(vec![add(1, I32, v(1), c32(1))], ret32(v(1)));
    assert_fails(&m, VerifyMode::Ssa, "use of %1 is not dominated");
    // After phi elimination, dominance is not checked.
    let m = one(
        vec![add(1, I32, v(2), c32(1)), add(2, I32, v(0), c32(2))],
        ret32(v(1)),
    );
    assert_ok(&m, VerifyMode::PostPhiElim);
}

#[test]
fn use_in_non_dominated_block_fails() {
    // %5 is defined in .LBB1, one arm of the diamond, and used in the join .LBB3.
    let m = module(vec![func(
        "f",
        vec![I32],
        I32,
        vec![
            block(0, vec![paramref(0, 0, I32)], condbr(v(0), 1, 2)),
            block(1, vec![add(5, I32, v(0), c32(1))], Terminator::Br(b(3))),
            block(2, vec![], Terminator::Br(b(3))),
            block(3, vec![], ret32(v(5))),
        ],
    )]);
    assert_fails(&m, VerifyMode::Ssa, "use of %5 is not dominated");
}

#[test]
fn phi_entry_not_available_at_predecessor_end_fails() {
    // Diamond: the join's phi takes %5 (defined in .LBB1) on the edge from .LBB2.
    let m = module(vec![func(
        "f",
        vec![I32],
        I32,
        vec![
            block(0, vec![paramref(0, 0, I32)], condbr(v(0), 1, 2)),
            block(1, vec![add(5, I32, v(0), c32(1))], Terminator::Br(b(3))),
            block(2, vec![], Terminator::Br(b(3))),
            block(3, vec![phi(6, I32, &[(v(5), 1), (v(5), 2)])], ret32(v(6))),
        ],
    )]);
    assert_fails(
        &m,
        VerifyMode::Ssa,
        "phi entry %5 for .LBB2 is not available",
    );
}

// ---- post-phi-elimination rules ---------------------------------------------------------

#[test]
fn redefinition_with_another_type_fails_post_phi() {
    let mut m = post_phi_loop();
    m.functions[0].blocks[2].insts[0] = copy(2, I64, konst(I64, 3));
    assert_fails(
        &m,
        VerifyMode::PostPhiElim,
        "%2 is defined as i64 here but as i32",
    );
}

// ---- collection -------------------------------------------------------------------------

#[test]
fn collects_every_error_up_to_the_cap() {
    // Two unrelated problems are both reported.
    let m = one(vec![add(1, I32, v(9), c32(1))], Terminator::Ret(None));
    let errors = verify_module(&m, VerifyMode::Ssa).unwrap_err();
    assert!(errors.iter().any(|e| e.message.contains("never defined")));
    assert!(errors
        .iter()
        .any(|e| e.message.contains("ret without a value")));
    assert_eq!(errors.len(), 2);
    // Instruction rules run before value rules: the ret first, at the terminator.
    assert_eq!(errors[0].block, Some(b(0)));
    assert_eq!(errors[0].inst, None);
    assert_eq!(errors[1].inst, Some(1));

    // 500 broken uses give exactly MAX_ERRORS errors.
    let insts: Vec<Inst> = (1..=500).map(|i| add(i, I32, v(1000), c32(1))).collect();
    let m = one(insts, ret32(v(0)));
    assert_eq!(
        verify_module(&m, VerifyMode::Ssa).unwrap_err().len(),
        MAX_ERRORS
    );
}

// ---- scale ------------------------------------------------------------------------------

/// A valid SSA function of `n` blocks: block i (i >= 2) is reached from i-1 and i-2 and
/// merges their values with a phi, so every block but the last two ends in a condbr.
fn ladder(n: u32) -> IrFunction {
    let x = |i: u32| 3 * i + 1; // value computed in block i
    let p = |i: u32| 3 * i + 2; // phi of block i
    let c = |i: u32| 3 * i + 3; // condition of block i
    let mut blocks = Vec::with_capacity(n as usize);
    blocks.push(block(
        0,
        vec![
            paramref(0, 0, I32),
            add(x(0), I32, v(0), c32(1)),
            cmp(c(0), I32, v(x(0)), v(0)),
        ],
        Terminator::Br(b(1)),
    ));
    for i in 1..n {
        let mut insts = Vec::new();
        let incoming: Vec<(Operand, u32)> = if i == 1 {
            vec![(v(x(0)), 0)]
        } else {
            vec![(v(x(i - 1)), i - 1), (v(x(i - 2)), i - 2)]
        };
        insts.push(phi(p(i), I32, &incoming));
        insts.push(add(x(i), I32, v(p(i)), c32(1)));
        insts.push(cmp(c(i), I32, v(x(i)), v(0)));
        let term = if i + 2 < n {
            condbr(v(c(i)), i + 1, i + 2)
        } else if i + 1 < n {
            Terminator::Br(b(i + 1))
        } else {
            ret32(v(x(i)))
        };
        blocks.push(block(i, insts, term));
    }
    // Block 0 ends in `br .LBB1`, so block 2 has the single predecessor 1.
    if n > 2 {
        blocks[2].insts[0] = phi(p(2), I32, &[(v(x(1)), 1)]);
    }
    func("ladder", vec![I32], I32, blocks)
}

#[test]
fn hundred_thousand_blocks_verify_without_overflow() {
    let m = module(vec![ladder(100_000)]);
    let start = std::time::Instant::now();
    assert_ok(&m, VerifyMode::Ssa);
    eprintln!("verified 100k blocks in {:?}", start.elapsed());
    // Generous even for a debug build on a loaded machine; release is far below a second.
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

#[test]
fn malformed_modules_give_errors_not_panics() {
    let mut m = module(vec![
        func(
            "f",
            vec![Void],
            Void,
            vec![
                block(
                    5,
                    vec![
                        phi(4_000_000_000, Void, &[(v(u32::MAX - 1), 77)]),
                        Inst::Gep {
                            dest: Value(1),
                            base: v(9),
                            offset: c32(1),
                        },
                        Inst::Cast {
                            dest: Value(2),
                            from: Void,
                            src: v(1),
                            to: Void,
                        },
                        call(Some(3), Void, "f", vec![(Void, v(2))]),
                        Inst::Select {
                            dest: Value(4),
                            ty: I32,
                            cond: v(1),
                            on_true: v(3),
                            on_false: v(3),
                        },
                    ],
                    Terminator::Switch {
                        ty: Void,
                        val: v(4),
                        default: b(5),
                        cases: vec![(0, b(6)), (0, b(5))],
                    },
                ),
                block(
                    5,
                    vec![phi(6, I32, &[(v(1), 5), (v(1), 5)])],
                    Terminator::Unreachable,
                ),
                block(6, vec![], Terminator::Ret(Some((Void, v(6))))),
            ],
        ),
        func("f", vec![], I32, vec![]),
    ]);
    m.globals.push(global(
        "f",
        0,
        0,
        vec![GlobalItem::Int(Void, 1), GlobalItem::Ptr("zz".into(), -1)],
    ));
    for mode in [VerifyMode::Ssa, VerifyMode::PostPhiElim] {
        let errors = verify_module(&m, mode).expect_err("malformed");
        assert!(errors.len() > 10, "{errors:?}");
        assert!(errors.len() <= MAX_ERRORS);
    }
}
