//! Round trips of the IR text form: hand-written files print back verbatim, modules built
//! through the Rust types (by hand and at random) survive print -> parse, and constants
//! get exactly the suffixes and canonical bits the contract asks for.

mod text_support;

use compiler::ir::text::{
    parse_module, print_function, print_inst, print_module, print_terminator,
};
use compiler::ir::{
    konst, BasicBlock, BinOp, BlockId, Callee, FuncAttrs, GlobalInit, GlobalItem, Inst, IrConst,
    IrFunction, IrModule, IrType, Operand, Terminator, Value,
};
use std::time::Instant;
use text_support::{random_module, SAMPLES};

fn round_trip(m: &IrModule) {
    let text = print_module(m);
    match parse_module(&text) {
        Ok(back) => assert_eq!(&back, m, "round trip changed the module:\n{text}"),
        Err(e) => panic!("printed module does not parse: {e}\n{text}"),
    }
}

#[test]
fn samples_print_back_verbatim() {
    for src in SAMPLES {
        let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(print_module(&m), src);
        round_trip(&m);
    }
}

#[test]
fn sample_has_the_expected_shape() {
    let m = parse_module(SAMPLES[0]).unwrap();
    assert_eq!(m.globals.len(), 6);
    assert_eq!(m.decls.len(), 3);
    assert_eq!(m.functions.len(), 5);
    let t = m.global("t").unwrap();
    assert_eq!(
        t.init,
        GlobalInit::Items(vec![
            GlobalItem::Ptr("g".into(), 0),
            GlobalItem::Ptr("g".into(), 4),
            GlobalItem::Ptr("g".into(), -8),
            GlobalItem::Int(IrType::I32, 7),
            GlobalItem::Zero(4),
            GlobalItem::Int(IrType::U8, 255),
            GlobalItem::Int(IrType::I8, -1),
            GlobalItem::Int(IrType::Ptr, 0),
            GlobalItem::Int(IrType::U64, -1),
        ])
    );
    let e = m.global("e").unwrap();
    assert!(e.is_const);
    assert_eq!(
        e.init,
        GlobalInit::Items(vec![
            GlobalItem::Str(b"q\"\\\n\t\x7f\xff;%".to_vec()),
            GlobalItem::Str(vec![]),
        ])
    );
    assert_eq!(m.global("z").unwrap().init, GlobalInit::Zero);
    let printf = m.decl("printf").unwrap();
    assert_eq!(
        (printf.params.clone(), printf.variadic),
        (vec![IrType::Ptr], true)
    );
    let v = m.decl("v").unwrap();
    assert_eq!((v.params.len(), v.variadic, v.ret), (0, true, IrType::I32));
    let g5 = m.function("g5").unwrap();
    assert_eq!(
        g5.attrs,
        FuncAttrs {
            is_static: true,
            is_inline: true,
            is_noinline: true,
            align: 0,
        }
    );
    assert_eq!(
        g5.blocks[0].term,
        Terminator::Ret(Some((IrType::I64, konst(IrType::I64, i64::MIN))))
    );
    let f = m.function("f").unwrap();
    assert_eq!(f.blocks.len(), 6);
    assert_eq!(f.blocks[0].insts.len(), 48);
    assert_eq!(
        f.blocks[0].insts[3],
        Inst::Alloca {
            dest: Value(3),
            ty: IrType::I64,
            size: 8,
            align: 8,
            volatile: true
        }
    );
}

/// The function of the brief, built through the Rust types; the expected text is the
/// brief's, checked by hand.
fn brief_function() -> IrFunction {
    let v = Value;
    let b = BlockId;
    let i32c = |n| konst(IrType::I32, n);
    IrFunction {
        name: "f".into(),
        params: vec![IrType::I32, IrType::Ptr],
        ret: IrType::I32,
        variadic: false,
        attrs: FuncAttrs {
            is_static: true,
            is_inline: false,
            is_noinline: true,
            align: 0,
        },
        blocks: vec![
            BasicBlock {
                label: b(0),
                insts: vec![
                    Inst::ParamRef {
                        dest: v(0),
                        index: 0,
                        ty: IrType::I32,
                    },
                    Inst::Alloca {
                        dest: v(1),
                        ty: IrType::I32,
                        size: 4,
                        align: 4,
                        volatile: false,
                    },
                    Inst::Store {
                        ty: IrType::I32,
                        val: v(0).into(),
                        ptr: v(1).into(),
                    },
                    Inst::Load {
                        dest: v(2),
                        ty: IrType::I32,
                        ptr: v(1).into(),
                    },
                    Inst::Bin {
                        dest: v(3),
                        op: BinOp::Add,
                        ty: IrType::I32,
                        lhs: v(2).into(),
                        rhs: i32c(1),
                    },
                ],
                term: Terminator::CondBr {
                    cond: v(3).into(),
                    if_true: b(1),
                    if_false: b(2),
                },
            },
            BasicBlock::new(b(1), Terminator::Ret(Some((IrType::I32, v(3).into())))),
            BasicBlock {
                label: b(2),
                insts: vec![Inst::Phi {
                    dest: v(4),
                    ty: IrType::I32,
                    incoming: vec![(v(3).into(), b(0)), (konst(IrType::I64, 5), b(1))],
                }],
                term: Terminator::Switch {
                    ty: IrType::I32,
                    val: v(4).into(),
                    default: b(1),
                    cases: vec![(1, b(1)), (-4, b(2))],
                },
            },
        ],
    }
}

const BRIEF_TEXT: &str = "func static noinline @f(i32, ptr) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 %0, %1
    %2 = load i32 %1
    %3 = add i32 %2, 1
    condbr %3, .LBB1, .LBB2
.LBB1:
    ret i32 %3
.LBB2:
    %4 = phi i32 [%3, .LBB0], [5:i64, .LBB1]
    switch i32 %4, .LBB1 [1: .LBB1, -4: .LBB2]
}
";

#[test]
fn brief_function_prints_as_in_the_brief() {
    let f = brief_function();
    assert_eq!(print_function(&f), BRIEF_TEXT);
    assert_eq!(f.to_string(), BRIEF_TEXT);
    let m = IrModule {
        functions: vec![f],
        ..IrModule::default()
    };
    assert_eq!(print_module(&m), BRIEF_TEXT);
    assert_eq!(BRIEF_TEXT.parse::<IrModule>(), Ok(m.clone()));
    round_trip(&m);
}

#[test]
fn items_are_separated_by_one_blank_line() {
    let m = parse_module(
        "func @b() -> void {\n.LBB1:\n ret\n}\ndeclare @d() -> i8\n\n\n\nglobal @a : 1 align 1 = zeroinit",
    )
    .unwrap();
    assert_eq!(
        print_module(&m),
        "global @a : 1 align 1 = zeroinit\n\ndeclare @d() -> i8\n\nfunc @b() -> void {\n.LBB1:\n    ret\n}\n"
    );
    assert_eq!(print_module(&IrModule::default()), "");
}

/// Each operand position's context type, seen through the suffix the printer writes.
#[test]
fn suffix_exactly_when_type_differs_from_context() {
    let p = |v: u32| Operand::Value(Value(v));
    let cases: Vec<(Inst, &str)> = vec![
        (
            Inst::Store {
                ty: IrType::I8,
                val: konst(IrType::I8, -1),
                ptr: konst(IrType::Ptr, 0),
            },
            "store i8 -1, 0",
        ),
        (
            Inst::Store {
                ty: IrType::I8,
                val: konst(IrType::I64, 300),
                ptr: konst(IrType::I64, 16),
            },
            "store i8 300:i64, 16:i64",
        ),
        (
            Inst::Gep {
                dest: Value(1),
                base: p(0),
                offset: konst(IrType::I64, -8),
            },
            "%1 = gep %0, -8",
        ),
        (
            Inst::Gep {
                dest: Value(1),
                base: p(0),
                offset: konst(IrType::I32, -8),
            },
            "%1 = gep %0, -8:i32",
        ),
        (
            Inst::Select {
                dest: Value(2),
                ty: IrType::U16,
                cond: konst(IrType::I8, 1),
                on_true: konst(IrType::U16, 65535),
                on_false: konst(IrType::I16, -1),
            },
            "%2 = select u16 1, 65535, -1:i16",
        ),
        (
            Inst::Select {
                dest: Value(2),
                ty: IrType::I8,
                cond: konst(IrType::I32, 0),
                on_true: p(0),
                on_false: p(1),
            },
            "%2 = select i8 0:i32, %0, %1",
        ),
        (
            Inst::Cast {
                dest: Value(3),
                from: IrType::U8,
                src: konst(IrType::U8, 200),
                to: IrType::I64,
            },
            "%3 = cast u8 200 to i64",
        ),
        (
            Inst::Cast {
                dest: Value(3),
                from: IrType::U8,
                src: konst(IrType::I8, -56),
                to: IrType::I64,
            },
            "%3 = cast u8 -56:i8 to i64",
        ),
        (
            Inst::Call {
                dest: None,
                ret: IrType::Void,
                callee: Callee::Direct("h".into()),
                args: vec![
                    (IrType::I32, konst(IrType::I32, 1)),
                    (IrType::I32, konst(IrType::I64, 2)),
                    (IrType::U64, konst(IrType::U64, -1)),
                ],
                named: None,
            },
            "call void @h(i32 1, i32 2:i64, u64 18446744073709551615)",
        ),
        (
            Inst::Call {
                dest: Some(Value(4)),
                ret: IrType::I32,
                callee: Callee::Indirect(konst(IrType::Ptr, 4096)),
                args: vec![],
                named: None,
            },
            "%4 = call i32 4096()",
        ),
        (
            Inst::Call {
                dest: Some(Value(4)),
                ret: IrType::I32,
                callee: Callee::Indirect(konst(IrType::I64, 4096)),
                args: vec![],
                named: None,
            },
            "%4 = call i32 4096:i64()",
        ),
        // An indirect call of a variadic function: `...` after its named arguments.
        (
            Inst::Call {
                dest: None,
                ret: IrType::Void,
                callee: Callee::Indirect(p(0)),
                args: vec![
                    (IrType::Ptr, p(1)),
                    (IrType::I64, konst(IrType::I64, 7)),
                    (IrType::I32, konst(IrType::I32, 2)),
                ],
                named: Some(1),
            },
            "call void %0(ptr %1, ..., i64 7, i32 2)",
        ),
        (
            Inst::Call {
                dest: Some(Value(4)),
                ret: IrType::I32,
                callee: Callee::Indirect(p(0)),
                args: vec![(IrType::I64, konst(IrType::I64, 7))],
                named: Some(0),
            },
            "%4 = call i32 %0(..., i64 7)",
        ),
        (
            Inst::Call {
                dest: Some(Value(4)),
                ret: IrType::I32,
                callee: Callee::Indirect(p(0)),
                args: vec![(IrType::I64, konst(IrType::I64, 7))],
                named: Some(1),
            },
            "%4 = call i32 %0(i64 7, ...)",
        ),
        (
            Inst::Call {
                dest: None,
                ret: IrType::Void,
                callee: Callee::Indirect(p(0)),
                args: vec![],
                named: Some(0),
            },
            "call void %0(...)",
        ),
        (
            Inst::Bin {
                dest: Value(5),
                op: BinOp::Shl,
                ty: IrType::U32,
                lhs: konst(IrType::U32, -1),
                rhs: konst(IrType::U8, 3),
            },
            "%5 = shl u32 4294967295, 3:u8",
        ),
        (
            Inst::Load {
                dest: Value(6),
                ty: IrType::I32,
                ptr: konst(IrType::I32, 8),
            },
            "%6 = load i32 8:i32",
        ),
        (
            Inst::Phi {
                dest: Value(7),
                ty: IrType::I16,
                incoming: vec![],
            },
            "%7 = phi i16",
        ),
        (
            Inst::Memcpy {
                dst: p(1),
                src: konst(IrType::Ptr, 0),
                size: 12,
            },
            "memcpy %1, 0, 12",
        ),
    ];
    for (inst, text) in cases {
        assert_eq!(print_inst(&inst), text);
        let m = module_with(vec![inst]);
        round_trip(&m);
    }
    let terms: Vec<(Terminator, &str)> = vec![
        (
            Terminator::CondBr {
                cond: konst(IrType::I8, -1),
                if_true: BlockId(1),
                if_false: BlockId(1),
            },
            "condbr -1, .LBB1, .LBB1",
        ),
        (
            Terminator::CondBr {
                cond: konst(IrType::U8, 255),
                if_true: BlockId(1),
                if_false: BlockId(2),
            },
            "condbr 255:u8, .LBB1, .LBB2",
        ),
        (
            Terminator::Switch {
                ty: IrType::U8,
                val: konst(IrType::I64, 7),
                default: BlockId(0),
                cases: vec![(255, BlockId(1)), (0, BlockId(2))],
            },
            "switch u8 7:i64, .LBB0 [255: .LBB1, 0: .LBB2]",
        ),
        (
            Terminator::Switch {
                ty: IrType::I16,
                val: Operand::Value(Value(0)),
                default: BlockId(0),
                cases: vec![],
            },
            "switch i16 %0, .LBB0 []",
        ),
        (
            Terminator::Ret(Some((IrType::I32, konst(IrType::I64, 1)))),
            "ret i32 1:i64",
        ),
        (Terminator::Ret(None), "ret"),
        (Terminator::Unreachable, "unreachable"),
        (Terminator::Br(BlockId(7)), "br .LBB7"),
    ];
    for (term, text) in terms {
        assert_eq!(print_terminator(&term), text);
        let mut m = module_with(vec![]);
        m.functions[0].blocks[0].term = term;
        round_trip(&m);
    }
}

fn module_with(insts: Vec<Inst>) -> IrModule {
    IrModule {
        functions: vec![IrFunction {
            name: "t".into(),
            params: vec![],
            ret: IrType::Void,
            variadic: false,
            attrs: FuncAttrs::default(),
            blocks: vec![BasicBlock {
                label: BlockId(0),
                insts,
                term: Terminator::Ret(None),
            }],
        }],
        ..IrModule::default()
    }
}

/// Parses `body` as the only block of a function and returns its instructions.
fn parse_insts(body: &str) -> Vec<Inst> {
    let src = format!("func @t() -> void {{\n.LBB0:\n{body}\n    ret\n}}\n");
    let mut m = parse_module(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    std::mem::take(&mut m.functions[0].blocks[0].insts)
}

fn stored_const(inst: &Inst) -> IrConst {
    match inst {
        Inst::Store {
            val: Operand::Const(c),
            ..
        } => *c,
        other => panic!("not a store of a constant: {other:?}"),
    }
}

#[test]
fn literals_take_context_type_and_canonical_bits() {
    let insts = parse_insts(
        "store i8 -1, %0
store u8 -1, %0
store i8 0xff, %0
store u8 0xff, %0
store u64 18446744073709551615, %0
store i64 0xffffffffffffffff, %0
store i32 -0x80000000, %0
store u32 -2147483648, %0
store i32 5:i64, %0
store ptr -1, %0
store i16 65535:u16, %0",
    );
    let got: Vec<IrConst> = insts.iter().map(stored_const).collect();
    let want = [
        (IrType::I8, -1),
        (IrType::U8, 255),
        (IrType::I8, -1),
        (IrType::U8, 255),
        (IrType::U64, -1),
        (IrType::I64, -1),
        (IrType::I32, -2147483648),
        (IrType::U32, 2147483648),
        (IrType::I64, 5),
        (IrType::Ptr, -1),
        (IrType::U16, 65535),
    ];
    let want: Vec<IrConst> = want
        .iter()
        .map(|&(ty, bits)| IrConst { ty, bits })
        .collect();
    assert_eq!(got, want);

    // Context types of the other positions.
    let insts = parse_insts(
        "%1 = gep 0, 7
%2 = select i16 1, 2, 3
%3 = cast u8 9 to i32
%4 = call void 0(u16 65535, i8 -2)",
    );
    let mut types = Vec::new();
    for inst in &insts {
        inst.for_each_operand(|op| types.push(op.as_const().unwrap().ty));
    }
    use IrType::*;
    assert_eq!(types, vec![Ptr, I64, I8, I16, I16, U8, Ptr, U16, I8]);

    // Switch cases are read in the switch type and stored canonical.
    let m = parse_module(
        "func @t() -> void {\n.LBB0:\n switch u8 %0, .LBB0 [-1: .LBB0, 0x7f: .LBB0]\n}",
    )
    .unwrap();
    assert_eq!(
        m.functions[0].blocks[0].term,
        Terminator::Switch {
            ty: U8,
            val: Operand::Value(Value(0)),
            default: BlockId(0),
            cases: vec![(255, BlockId(0)), (127, BlockId(0))],
        }
    );
    // Global integers too.
    let m = parse_module("global @g : 3 align 1 = [i8 255, u16 -1]").unwrap();
    assert_eq!(
        m.globals[0].init,
        GlobalInit::Items(vec![GlobalItem::Int(I8, -1), GlobalItem::Int(U16, 65535)])
    );
}

#[test]
fn comments_blank_lines_crlf_and_attribute_order_are_accepted() {
    let noisy = "; run: @f(3, 4) == 7\r\n\r\n; a comment\r\nfunc noinline static @f(i32, i32) -> i32 { ; body\r\n\r\n.LBB0: ; entry\r\n\t%0 = paramref 0 , i32 ; first\r\n    ret i32 %0\r\n\r\n}   ; done\r\n; trailing";
    let plain = "func static noinline @f(i32, i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    ret i32 %0\n}\n";
    let m = parse_module(noisy).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(print_module(&m), plain);
    assert_eq!(parse_module(plain), Ok(m));
    assert_eq!(parse_module(""), Ok(IrModule::default()));
    assert_eq!(parse_module("; only a comment"), Ok(IrModule::default()));
}

#[test]
fn random_modules_round_trip() {
    let mut instructions = 0;
    for seed in 0..3000 {
        let m = random_module(seed);
        instructions += m.inst_count();
        round_trip(&m);
    }
    assert!(
        instructions > 10_000,
        "the generator makes too little: {instructions}"
    );
}

/// A 100k-block function round-trips (no recursion, no quadratic blow-up that would make
/// this test crawl). The time is printed, not asserted: speed is a benchmark's business.
#[test]
fn large_function_round_trips_quickly() {
    let blocks = 100_000u32;
    let mut text =
        String::from("func @big(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    br .LBB1\n");
    for b in 1..blocks {
        let v = b * 2;
        text.push_str(&format!(
            ".LBB{b}:\n    %{v} = phi i32 [%{}, .LBB{}], [7:i64, .LBB{b}]\n    %{} = add i32 %{v}, 1\n    condbr %{}, .LBB{}, .LBB{b}\n",
            v - 1,
            b - 1,
            v + 1,
            v + 1,
            (b + 1).min(blocks - 1),
        ));
    }
    text.push_str("}\n");
    let start = Instant::now();
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    let parse_time = start.elapsed();
    assert_eq!(m.functions[0].blocks.len(), blocks as usize);
    let start = Instant::now();
    let printed = print_module(&m);
    let print_time = start.elapsed();
    assert_eq!(printed, text);
    eprintln!("100k blocks: parse {parse_time:?}, print {print_time:?}");
}
