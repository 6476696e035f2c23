//! Tests of expression typing, conversions, constant evaluation and expression
//! diagnostics. Expected types and values are derived by hand from C99 (6.3, 6.4.4.1,
//! 6.5) for both data models, and the messages are gcc 12's wording.
//!
//! The fixture declares a fixed set of names in a function scope (see `declare_env`);
//! records are built by hand (layout is another file's job) so bit-fields and anonymous
//! members can be tested here.

use super::const_eval::ConstValue;
use super::{FunctionState, OrdinaryEntity, Parser};
use crate::frontend::ast::{Expr, ExprKind, LocalVar, Stmt};
use crate::frontend::types::{
    BitField, Field, FloatKind, FunctionType, IntKind, QualType, RecordDef, RecordId, RecordKind,
    Type,
};
use crate::frontend::{preprocess_str, PreprocessOptions, Target};
use std::rc::Rc;

pub(super) const LP64: Target = Target::X86_64;
pub(super) const ILP32: Target = Target::I686;

fn q(ty: Type) -> QualType {
    QualType::new(ty)
}

fn int(k: IntKind) -> Type {
    Type::Int(k)
}

fn ptr(ty: Type) -> Type {
    Type::Pointer(Rc::new(q(ty)))
}

/// Declares the fixture's names:
/// `int i; unsigned u; long l; unsigned long ul; char c; unsigned char uc; short sh;
///  long long ll; unsigned long long ull; int *p; void *vp; int a[10]; const int ci;
///  double d; float f; _Bool b; struct S st; struct S *sp; const struct S cst;
///  int fn(int, long); int vf(const char *, ...); int old(); long *lp; struct T *tp;`
/// with `struct S { int x; unsigned bf : 3; int sbf : 5; unsigned w : 32;
/// struct { int y; }; char name[4]; }` (anonymous member) and `struct T` incomplete;
/// enum constant `E1 = 7`; typedef `T_int`.
pub(super) fn declare_env(p: &mut Parser<'_>) {
    let loc = p.loc();
    let inner = RecordId(p.records.records.len() as u32);
    p.records.records.push(RecordDef {
        kind: RecordKind::Struct,
        tag: None,
        complete: true,
        fields: vec![Field {
            name: Some("y".into()),
            ty: q(Type::int()),
            offset: 0,
            bitfield: None,
        }],
        size: 4,
        align: 4,
        pack: None,
        reverse_order: false,
    });
    let s = RecordId(p.records.records.len() as u32);
    let bf = |bit_offset, width| Some(BitField { bit_offset, width });
    p.records.records.push(RecordDef {
        kind: RecordKind::Struct,
        tag: Some("S".into()),
        complete: true,
        fields: vec![
            Field {
                name: Some("x".into()),
                ty: q(Type::int()),
                offset: 0,
                bitfield: None,
            },
            Field {
                name: Some("bf".into()),
                ty: q(int(IntKind::UInt)),
                offset: 4,
                bitfield: bf(32, 3),
            },
            Field {
                name: Some("sbf".into()),
                ty: q(Type::int()),
                offset: 4,
                bitfield: bf(35, 5),
            },
            Field {
                name: Some("w".into()),
                ty: q(int(IntKind::UInt)),
                offset: 8,
                bitfield: bf(64, 32),
            },
            Field {
                name: None,
                ty: q(Type::Record(inner)),
                offset: 12,
                bitfield: None,
            },
            Field {
                name: Some("name".into()),
                ty: q(Type::Array(Rc::new(q(int(IntKind::Char))), Some(4))),
                offset: 16,
                bitfield: None,
            },
        ],
        size: 20,
        align: 4,
        pack: None,
        reverse_order: false,
    });
    let t = RecordId(p.records.records.len() as u32);
    p.records.records.push(RecordDef {
        kind: RecordKind::Struct,
        tag: Some("T".into()),
        complete: false,
        fields: vec![],
        size: 0,
        align: 1,
        pack: None,
        reverse_order: false,
    });
    p.declare_tag("S".into(), super::TagEntity::Record(s));
    p.declare_tag("T".into(), super::TagEntity::Record(t));
    p.func = Some(FunctionState {
        name: "test".into(),
        ret: Some(q(Type::int())),
        ..Default::default()
    });
    p.push_scope();
    let mut cst = q(Type::Record(s));
    cst.is_const = true;
    let mut ci = q(Type::int());
    ci.is_const = true;
    let vars: Vec<(&str, QualType)> = vec![
        ("i", q(Type::int())),
        ("u", q(int(IntKind::UInt))),
        ("l", q(int(IntKind::Long))),
        ("ul", q(int(IntKind::ULong))),
        ("c", q(int(IntKind::Char))),
        ("uc", q(int(IntKind::UChar))),
        ("sh", q(int(IntKind::Short))),
        ("ll", q(int(IntKind::LongLong))),
        ("ull", q(int(IntKind::ULongLong))),
        ("p", q(ptr(Type::int()))),
        ("vp", q(ptr(Type::Void))),
        ("a", q(Type::Array(Rc::new(q(Type::int())), Some(10)))),
        ("ci", ci),
        ("d", q(Type::Float(FloatKind::Double))),
        ("f", q(Type::Float(FloatKind::Float))),
        ("b", q(Type::Bool)),
        ("st", q(Type::Record(s))),
        ("sp", q(ptr(Type::Record(s)))),
        ("cst", cst),
        ("lp", q(ptr(int(IntKind::Long)))),
        ("tp", q(ptr(Type::Record(t)))),
    ];
    for (name, ty) in vars {
        let id = p.add_local(LocalVar {
            name: name.into(),
            ty: ty.clone(),
            loc,
            is_param: false,
            align: None,
        });
        p.declare_ordinary(name.into(), OrdinaryEntity::Local(id, ty));
    }
    let mut const_char = q(int(IntKind::Char));
    const_char.is_const = true;
    let funcs = [
        (
            "fn",
            FunctionType {
                ret: q(Type::int()),
                params: vec![q(Type::int()), q(int(IntKind::Long))],
                variadic: false,
                has_prototype: true,
            },
        ),
        (
            "vf",
            FunctionType {
                ret: q(Type::int()),
                params: vec![q(Type::Pointer(Rc::new(const_char)))],
                variadic: true,
                has_prototype: true,
            },
        ),
        (
            "old",
            FunctionType {
                ret: q(Type::int()),
                params: vec![],
                variadic: false,
                has_prototype: false,
            },
        ),
        (
            "vfn",
            FunctionType {
                ret: q(Type::Void),
                params: vec![],
                variadic: false,
                has_prototype: true,
            },
        ),
    ];
    for (name, ft) in funcs {
        p.declare_ordinary(
            name.into(),
            OrdinaryEntity::Function(name.into(), Rc::new(ft)),
        );
    }
    p.declare_ordinary("E1".into(), OrdinaryEntity::EnumConst(7, Type::int()));
    p.declare_ordinary("T_int".into(), OrdinaryEntity::Typedef(q(Type::int())));
}

/// Runs `f` on a parser over `src` (as file `t.c`) with the fixture declared.
pub(super) fn with_parser<R>(target: Target, src: &str, f: impl FnOnce(&mut Parser<'_>) -> R) -> R {
    let opts = PreprocessOptions {
        target,
        ..Default::default()
    };
    let pp = preprocess_str("t.c", src, &opts).expect("test source preprocesses");
    let mut p = Parser::new(pp.tokens, &pp.sources, target);
    declare_env(&mut p);
    f(&mut p)
}

/// Parses a whole expression; the error's headline (`t.c:1:3: error: ...`) on failure.
pub(super) fn expr(target: Target, src: &str) -> Result<Expr, String> {
    with_parser(target, src, |p| {
        let e = p.parse_expr().map_err(|d| d.headline())?;
        if !p.at_eof() {
            return Err(format!("trailing tokens at {:?}", p.peek().spelling));
        }
        Ok(p.rvalue(e))
    })
}

/// The warnings an expression produces.
fn warnings(target: Target, src: &str) -> Vec<String> {
    with_parser(target, src, |p| {
        let _ = p.parse_expr();
        p.warnings.iter().map(|w| w.headline()).collect()
    })
}

fn ty_of(target: Target, src: &str) -> Type {
    expr(target, src)
        .unwrap_or_else(|e| panic!("{src}: {e}"))
        .ty
        .ty
}

fn err(target: Target, src: &str) -> String {
    match expr(target, src) {
        Ok(e) => panic!("{src}: expected an error, got {e:?}"),
        Err(e) => e,
    }
}

/// The constant value of an expression.
fn value(target: Target, src: &str) -> Option<ConstValue> {
    with_parser(target, src, |p| {
        let e = p.parse_expr().ok()?;
        let e = p.rvalue(e);
        p.eval_const(&e)
    })
}

fn ival(target: Target, src: &str) -> i128 {
    match value(target, src) {
        Some(ConstValue::Int(v)) => v,
        other => panic!("{src}: not an integer constant: {other:?}"),
    }
}

#[test]
fn integer_constant_types_per_data_model() {
    use IntKind::*;
    for t in [LP64, ILP32] {
        assert_eq!(ty_of(t, "2147483647"), int(Int));
        assert_eq!(ty_of(t, "0x7fffffff"), int(Int));
        assert_eq!(ty_of(t, "0x80000000"), int(UInt), "hex fits unsigned int");
        assert_eq!(ty_of(t, "4294967295u"), int(UInt));
        assert_eq!(ty_of(t, "1ll"), int(LongLong));
        assert_eq!(ty_of(t, "1ull"), int(ULongLong));
        assert_eq!(ty_of(t, "1lu"), int(ULong));
        assert_eq!(ty_of(t, "0xffffffffffffffff"), int(ULongLong.min_for(t)));
        assert_eq!(ty_of(t, "'a'"), int(Int));
        assert_eq!(ty_of(t, "1.0"), Type::Float(FloatKind::Double));
        assert_eq!(ty_of(t, "1.0f"), Type::Float(FloatKind::Float));
        assert_eq!(ty_of(t, "1.0L"), Type::Float(FloatKind::LongDouble));
    }
    // Decimal 2^31: long on LP64, long long on ILP32 (decimal never goes unsigned).
    assert_eq!(ty_of(LP64, "2147483648"), int(Long));
    assert_eq!(ty_of(ILP32, "2147483648"), int(LongLong));
    // Hex 2^32: long on LP64 (fits), long long on ILP32.
    assert_eq!(ty_of(LP64, "0x100000000"), int(Long));
    assert_eq!(ty_of(ILP32, "0x100000000"), int(LongLong));
    // 4294967296u: unsigned long on LP64, unsigned long long on ILP32.
    assert_eq!(ty_of(LP64, "4294967296u"), int(ULong));
    assert_eq!(ty_of(ILP32, "4294967296u"), int(ULongLong));
    // 0x80000000L: long on LP64; on ILP32 long is 32 bits, so unsigned long.
    assert_eq!(ty_of(LP64, "0x80000000L"), int(Long));
    assert_eq!(ty_of(ILP32, "0x80000000L"), int(ULong));
    // gcc's "so large that it is unsigned": gcc 12 gives such a constant its widest
    // signed type, long long on ILP32 and __int128 (which phicc lacks) on LP64.
    assert_eq!(ty_of(ILP32, "18446744073709551615"), int(LongLong));
    assert_eq!(ival(ILP32, "9223372036854775808"), -(1i128 << 63));
    assert!(err(LP64, "18446744073709551615").contains("'__int128'"));
    let w = warnings(ILP32, "18446744073709551615");
    assert_eq!(
        w,
        vec!["t.c:1:1: warning: integer constant is so large that it is unsigned"]
    );
}

trait MinFor {
    fn min_for(self, t: Target) -> IntKind;
}

impl MinFor for IntKind {
    /// `0xffffffffffffffff`: unsigned long on LP64 (64-bit), unsigned long long on ILP32.
    fn min_for(self, t: Target) -> IntKind {
        if t.is_lp64() {
            IntKind::ULong
        } else {
            IntKind::ULongLong
        }
    }
}

#[test]
fn usual_arithmetic_conversions_per_data_model() {
    use IntKind::*;
    for t in [LP64, ILP32] {
        assert_eq!(ty_of(t, "c + c"), int(Int), "char promotes to int");
        assert_eq!(ty_of(t, "uc + uc"), int(Int));
        assert_eq!(ty_of(t, "sh * b"), int(Int));
        assert_eq!(ty_of(t, "i + u"), int(UInt));
        assert_eq!(ty_of(t, "ll + u"), int(LongLong));
        assert_eq!(
            ty_of(t, "ll + ul"),
            int(if t.is_lp64() { ULongLong } else { LongLong })
        );
        assert_eq!(ty_of(t, "ull + i"), int(ULongLong));
        assert_eq!(ty_of(t, "i + d"), Type::Float(FloatKind::Double));
        assert_eq!(ty_of(t, "f * i"), Type::Float(FloatKind::Float));
        assert_eq!(ty_of(t, "f * d"), Type::Float(FloatKind::Double));
        assert_eq!(
            ty_of(t, "uc << l"),
            int(Int),
            "shift: left operand's promoted type"
        );
        assert_eq!(ty_of(t, "l >> c"), int(Long));
        assert_eq!(ty_of(t, "i < u"), int(Int), "comparisons are int");
        assert_eq!(ty_of(t, "!d"), int(Int));
        assert_eq!(ty_of(t, "~uc"), int(Int));
        assert_eq!(ty_of(t, "-u"), int(UInt));
        assert_eq!(ty_of(t, "i && p"), int(Int));
        assert_eq!(
            ty_of(t, "sizeof(i)"),
            int(if t.is_lp64() { ULong } else { UInt })
        );
    }
    // long + unsigned int: LP64 long holds every unsigned int -> long; ILP32 same size,
    // so unsigned long.
    assert_eq!(ty_of(LP64, "l + u"), int(Long));
    assert_eq!(ty_of(ILP32, "l + u"), int(ULong));
}

#[test]
fn comparison_values_follow_the_converted_types() {
    for t in [LP64, ILP32] {
        assert_eq!(ival(t, "-1 < 0u"), 0, "-1 becomes UINT_MAX");
        assert_eq!(ival(t, "-1 < 0"), 1);
        assert_eq!(
            ival(t, "-1LL < 0u"),
            1,
            "long long holds every unsigned int"
        );
        assert_eq!(ival(t, "0u - 1 > 0"), 1);
        assert_eq!(ival(t, "-1 / 2"), 0, "division truncates toward zero");
        assert_eq!(ival(t, "-7 % 3"), -1);
        assert_eq!(ival(t, "-8 >> 1"), -4, "arithmetic shift of a signed value");
        assert_eq!(
            ival(t, "0x80000000 >> 31"),
            1,
            "unsigned int: logical shift"
        );
        assert_eq!(
            ival(t, "2147483647 + 1"),
            -2147483648,
            "int wraps at 32 bits"
        );
        assert_eq!(ival(t, "4294967295u + 1"), 0);
        assert_eq!(ival(t, "'\\377'"), -1, "plain char is signed on x86");
        assert_eq!(ival(t, "sizeof(1LL)"), 8);
        assert_eq!(ival(t, "sizeof 'a'"), 4);
        assert_eq!(
            ival(t, "sizeof \"ab\" \"cd\""),
            5,
            "adjacent strings concatenate"
        );
        assert_eq!(ival(t, "sizeof a"), 40, "no decay under sizeof");
        assert_eq!(ival(t, "sizeof st"), 20);
        assert_eq!(ival(t, "sizeof(i = 5)"), 4);
        assert_eq!(ival(t, "E1 * 2"), 14);
        assert_eq!(ival(t, "1 ? 2 : 3"), 2);
        assert_eq!(ival(t, "0 || 0 && 1"), 0);
        assert_eq!(ival(t, "1 << 31"), -2147483648);
        assert_eq!(ival(t, "-1ll >> 63"), -1);
    }
    // -1L < 0u: LP64 compares as long (1), ILP32 as unsigned long (0).
    assert_eq!(ival(LP64, "-1L < 0u"), 1);
    assert_eq!(ival(ILP32, "-1L < 0u"), 0);
    assert_eq!(ival(LP64, "sizeof(1L)"), 8);
    assert_eq!(ival(ILP32, "sizeof(1L)"), 4);
    assert_eq!(ival(LP64, "sizeof p"), 8);
    assert_eq!(ival(ILP32, "sizeof p"), 4);
    // Not constant: loads, division by zero, shift count out of range, comma.
    for src in ["i + 1", "1 / 0", "1 % 0", "1 << 32", "1 << -1", "(1, 2)"] {
        assert_eq!(value(LP64, src), None, "{src}");
    }
}

#[test]
fn casts_wrap_and_promote() {
    // No type names without the declarations part, so casts are built directly.
    with_parser(LP64, "255", |p| {
        let loc = p.loc();
        let e = p.parse_expr().unwrap();
        let uc = p.build_cast(e, &q(int(IntKind::UChar)), loc).unwrap();
        let one = Expr::int_lit(1, Type::int(), loc);
        let sum = p
            .build_binary(crate::frontend::token::Punct::Plus, uc, one, loc)
            .unwrap();
        assert_eq!(sum.ty.ty, Type::int(), "(unsigned char)255 + 1 is an int");
        assert_eq!(p.eval_const(&sum), Some(ConstValue::Int(256)));
    });
    with_parser(LP64, "-1", |p| {
        let loc = p.loc();
        let e = p.parse_expr().unwrap();
        let e = p.build_cast(e, &q(int(IntKind::UShort)), loc).unwrap();
        assert_eq!(p.eval_const(&e), Some(ConstValue::Int(65535)));
        let e = p.build_cast(e, &q(int(IntKind::SChar)), loc).unwrap();
        assert_eq!(p.eval_const(&e), Some(ConstValue::Int(-1)));
        let e = p.build_cast(e, &q(Type::Bool), loc).unwrap();
        assert_eq!(p.eval_const(&e), Some(ConstValue::Int(1)));
    });
    with_parser(LP64, "3.9", |p| {
        let loc = p.loc();
        let e = p.parse_expr().unwrap();
        let e = p.build_cast(e, &q(Type::int()), loc).unwrap();
        assert_eq!(p.eval_const(&e), Some(ConstValue::Int(3)), "truncation");
    });
}

#[test]
fn bitfield_promotion_follows_gcc() {
    for t in [LP64, ILP32] {
        // unsigned : 3 promotes to int (all values fit), so bf - 5 can be negative.
        assert_eq!(ty_of(t, "st.bf - 5"), Type::int());
        assert_eq!(ty_of(t, "st.sbf + 0"), Type::int());
        // unsigned : 32 is as wide as int: stays unsigned int.
        assert_eq!(ty_of(t, "st.w - 5"), int(IntKind::UInt));
        // A plain unsigned int (not a bit-field) of course stays unsigned.
        assert_eq!(ty_of(t, "u - 5"), int(IntKind::UInt));
    }
}

#[test]
fn members_pointers_and_decay() {
    for t in [LP64, ILP32] {
        assert_eq!(ty_of(t, "st.y"), Type::int(), "anonymous member");
        let e = expr(t, "st.y").unwrap();
        match &e.kind {
            ExprKind::Member { base, field, .. } => {
                assert_eq!(*field, 0);
                assert!(matches!(base.kind, ExprKind::Member { field: 4, .. }));
            }
            k => panic!("{k:?}"),
        }
        assert_eq!(ty_of(t, "sp->x"), Type::int());
        assert_eq!(ty_of(t, "a"), ptr(Type::int()), "array decays");
        assert!(matches!(expr(t, "a").unwrap().kind, ExprKind::Decay(_)));
        assert_eq!(
            ty_of(t, "&a"),
            ptr(Type::Array(Rc::new(q(Type::int())), Some(10)))
        );
        assert_eq!(ty_of(t, "a[3]"), Type::int());
        assert_eq!(ty_of(t, "3[a]"), Type::int());
        assert_eq!(ty_of(t, "st.name"), ptr(int(IntKind::Char)));
        assert_eq!(
            ty_of(t, "p - p"),
            int(if t.is_lp64() {
                IntKind::Long
            } else {
                IntKind::Int
            })
        );
        assert_eq!(ty_of(t, "1 ? p : 0"), ptr(Type::int()));
        assert_eq!(ty_of(t, "1 ? p : vp"), ptr(Type::Void));
        assert_eq!(ty_of(t, "1 ? i : d"), Type::Float(FloatKind::Double));
        assert_eq!(ty_of(t, "1 ? st : st"), st_type());
        assert_eq!(ty_of(t, "fn"), ptr(fn_type()));
        assert_eq!(ty_of(t, "*fn"), ptr(fn_type()), "*f is f");
        assert_eq!(ty_of(t, "i = d"), Type::int());
        assert_eq!(ty_of(t, "uc += 300"), int(IntKind::UChar));
        assert_eq!(ty_of(t, "p += 2"), ptr(Type::int()));
        assert_eq!(ty_of(t, "c++"), int(IntKind::Char));
        assert_eq!(ty_of(t, "i, d"), Type::Float(FloatKind::Double));
    }
    // PtrAdd scales by the element size and uses ptrdiff_t.
    let e = expr(ILP32, "lp + u").unwrap();
    match e.kind {
        ExprKind::PtrAdd {
            elem_size, index, ..
        } => {
            assert_eq!(elem_size, 4);
            assert_eq!(index.ty.ty, Type::int());
        }
        k => panic!("{k:?}"),
    }
    let e = expr(LP64, "lp - 1").unwrap();
    match e.kind {
        ExprKind::PtrAdd {
            elem_size, index, ..
        } => {
            assert_eq!(elem_size, 8);
            assert_eq!(index.ty.ty, int(IntKind::Long));
            assert!(matches!(index.kind, ExprKind::Unary(..)));
        }
        k => panic!("{k:?}"),
    }
    let e = expr(LP64, "vp + 1").unwrap();
    assert!(
        matches!(e.kind, ExprKind::PtrAdd { elem_size: 1, .. }),
        "void * steps by 1"
    );
}

fn st_type() -> Type {
    Type::Record(RecordId(1))
}

fn fn_type() -> Type {
    Type::Function(Rc::new(FunctionType {
        ret: q(Type::int()),
        params: vec![q(Type::int()), q(int(IntKind::Long))],
        variadic: false,
        has_prototype: true,
    }))
}

#[test]
fn calls_convert_arguments() {
    let e = expr(LP64, "fn(c, i)").unwrap();
    let ExprKind::Call { args, .. } = &e.kind else {
        panic!("{e:?}");
    };
    assert_eq!(args[0].ty.ty, Type::int());
    assert_eq!(args[1].ty.ty, int(IntKind::Long));
    assert!(matches!(args[1].kind, ExprKind::Cast(_)));
    // Variadic and unprototyped arguments get the default promotions.
    let e = expr(LP64, "vf(\"x\", f, c, st.bf)").unwrap();
    let ExprKind::Call { args, .. } = &e.kind else {
        panic!("{e:?}");
    };
    assert_eq!(args[1].ty.ty, Type::Float(FloatKind::Double));
    assert_eq!(args[2].ty.ty, Type::int());
    assert_eq!(args[3].ty.ty, Type::int());
    let e = expr(LP64, "old(uc, f)").unwrap();
    let ExprKind::Call { args, .. } = &e.kind else {
        panic!("{e:?}");
    };
    assert_eq!(args[0].ty.ty, Type::int());
    assert_eq!(args[1].ty.ty, Type::Float(FloatKind::Double));
    // Implicit declaration: int f() with gcc 12's warning.
    let w = warnings(LP64, "undeclared_fn(1)");
    assert_eq!(
        w,
        vec!["t.c:1:1: warning: implicit declaration of function 'undeclared_fn' [-Wimplicit-function-declaration]"]
    );
    assert_eq!(ty_of(LP64, "undeclared_fn(1) + 1"), Type::int());
}

#[test]
fn address_constants() {
    with_parser(LP64, "&g.y + 2", |p| {
        let loc = p.loc();
        let s = RecordId(1);
        p.globals.push(crate::frontend::ast::GlobalVar {
            name: "g".into(),
            ty: q(Type::Record(s)),
            is_static: false,
            init: None,
            is_extern_only: false,
            align: None,
            loc,
        });
        p.declare_ordinary(
            "g".into(),
            OrdinaryEntity::Global(crate::frontend::ast::GlobalId(0), q(Type::Record(s))),
        );
        let e = p.parse_expr().unwrap();
        // &g.y is g + 12 (anonymous member at 12), + 2 ints = g + 20.
        assert_eq!(
            p.eval_const(&e),
            Some(ConstValue::Addr {
                target: crate::frontend::ast::RelocTarget::Global(crate::frontend::ast::GlobalId(
                    0
                )),
                offset: 20
            })
        );
    });
    with_parser(LP64, "\"abc\" + 1", |p| {
        let e = p.parse_expr().unwrap();
        let e = p.rvalue(e);
        assert!(matches!(
            p.eval_const(&e),
            Some(ConstValue::Addr {
                target: crate::frontend::ast::RelocTarget::String(_),
                offset: 1
            })
        ));
    });
    with_parser(LP64, "fn", |p| {
        let e = p.parse_expr().unwrap();
        let e = p.rvalue(e);
        assert_eq!(
            p.eval_const(&e),
            Some(ConstValue::Addr {
                target: crate::frontend::ast::RelocTarget::Function("fn".into()),
                offset: 0
            })
        );
    });
    // A local's address is not constant.
    assert_eq!(value(LP64, "&i"), None);
    // offsetof idiom: &((struct S *)0)->name is 16 (built without a cast: sp is a local,
    // so it is not constant; the null pointer form is tested via the builtin elsewhere).
    assert_eq!(value(LP64, "&sp->name"), None);
}

#[test]
fn expression_errors_are_gcc_worded_and_located() {
    // Expected messages and columns: gcc 12 (`gcc -std=c99 -fsyntax-only`) on the same
    // declarations.
    let cases: &[(&str, &str)] = &[
        ("zz + 1", "t.c:1:1: error: 'zz' undeclared (first use in this function)"),
        ("1 = i", "t.c:1:3: error: lvalue required as left operand of assignment"),
        ("ci = 1", "t.c:1:4: error: assignment of read-only variable 'ci'"),
        ("cst.x = 1", "t.c:1:7: error: assignment of member 'x' in read-only object"),
        ("cst = st", "t.c:1:5: error: assignment of read-only variable 'cst'"),
        ("a = p", "t.c:1:3: error: assignment to expression with array type"),
        ("st.name = 0", "t.c:1:9: error: assignment to expression with array type"),
        ("fn = 0", "t.c:1:4: error: lvalue required as left operand of assignment"),
        ("i++ ++", "t.c:1:5: error: lvalue required as increment operand"),
        ("--ci", "t.c:1:1: error: decrement of read-only variable 'ci'"),
        ("ci++", "t.c:1:3: error: increment of read-only variable 'ci'"),
        ("&1", "t.c:1:1: error: lvalue required as unary '&' operand"),
        ("&st.bf", "t.c:1:1: error: cannot take address of bit-field 'bf'"),
        ("*i", "t.c:1:1: error: invalid type argument of unary '*' (have 'int')"),
        ("i->x", "t.c:1:2: error: invalid type argument of '->' (have 'int')"),
        ("i.x", "t.c:1:2: error: request for member 'x' in something not a structure or union"),
        ("st.nope", "t.c:1:3: error: 'struct S' has no member named 'nope'"),
        ("tp->x", "t.c:1:3: error: invalid use of undefined type 'struct T'"),
        ("st + 1", "t.c:1:4: error: invalid operands to binary + (have 'struct S' and 'int')"),
        ("p + p", "t.c:1:3: error: invalid operands to binary + (have 'int *' and 'int *')"),
        ("p * 2", "t.c:1:3: error: invalid operands to binary * (have 'int *' and 'int')"),
        ("p - lp", "t.c:1:3: error: invalid operands to binary - (have 'int *' and 'long int *')"),
        ("d % 2", "t.c:1:3: error: invalid operands to binary % (have 'double' and 'int')"),
        ("i << d", "t.c:1:3: error: invalid operands to binary << (have 'int' and 'double')"),
        ("i = st", "t.c:1:5: error: incompatible types when assigning to type 'int' from type 'struct S'"),
        ("b = st", "t.c:1:5: error: incompatible types when assigning to type '_Bool' from type 'struct S'"),
        ("fn(1)", "t.c:1:1: error: too few arguments to function 'fn'"),
        ("fn(1, 2, 3)", "t.c:1:1: error: too many arguments to function 'fn'"),
        ("fn(st, 1)", "t.c:1:4: error: incompatible type for argument 1 of 'fn'"),
        ("i(1)", "t.c:1:1: error: called object 'i' is not a function or function pointer"),
        ("!st", "t.c:1:1: error: wrong type argument to unary exclamation mark"),
        ("-p", "t.c:1:1: error: wrong type argument to unary minus"),
        ("+st", "t.c:1:1: error: wrong type argument to unary plus"),
        ("~d", "t.c:1:1: error: wrong type argument to bit-complement"),
        ("st ? 1 : 2", "t.c:1:4: error: used struct type value where scalar is required"),
        ("st && 1", "t.c:1:1: error: used struct type value where scalar is required"),
        ("1 ? st : i", "t.c:1:8: error: type mismatch in conditional expression"),
        ("p[p]", "t.c:1:2: error: array subscript is not an integer"),
        ("i[i]", "t.c:1:2: error: subscripted value is neither array nor pointer nor vector"),
        ("sizeof st.bf", "t.c:1:8: error: 'sizeof' applied to a bit-field"),
        ("sizeof *tp", "t.c:1:8: error: invalid application of 'sizeof' to incomplete type 'struct T'"),
        ("1 + T_int", "t.c:1:5: error: expected expression before 'T_int'"),
        ("(1;", "t.c:1:3: error: expected ')' before ';' token"),
        ("1 +;", "t.c:1:4: error: expected expression before ';' token"),
        ("vfn() + 1", "t.c:1:1: error: void value not ignored as it ought to be"),
        ("vfn() ? 1 : 2", "t.c:1:1: error: void value not ignored as it ought to be"),
        ("-vfn()", "t.c:1:1: error: invalid use of void expression"),
        ("fn(vfn(), 1)", "t.c:1:4: error: invalid use of void expression"),
    ];
    for (src, want) in cases {
        assert_eq!(&err(LP64, src), want, "{src}");
    }
}

#[test]
fn assignment_warnings_are_gcc_worded() {
    let cases: &[(&str, &str)] = &[
        ("p = i", "t.c:1:3: warning: assignment to 'int *' from 'int' makes pointer from integer without a cast [-Wint-conversion]"),
        ("i = p", "t.c:1:3: warning: assignment to 'int' from 'int *' makes integer from pointer without a cast [-Wint-conversion]"),
        ("p = lp", "t.c:1:3: warning: assignment to 'int *' from incompatible pointer type 'long int *' [-Wincompatible-pointer-types]"),
        ("p == lp", "t.c:1:3: warning: comparison of distinct pointer types lacks a cast"),
        ("p == 1", "t.c:1:3: warning: comparison between pointer and integer"),
        ("p < 1", "t.c:1:3: warning: comparison between pointer and integer"),
        ("1 ? p : lp", "t.c:1:7: warning: pointer type mismatch in conditional expression"),
        ("1 ? p : 1", "t.c:1:7: warning: pointer/integer type mismatch in conditional expression"),
        ("vf(1)", "t.c:1:4: warning: passing argument 1 of 'vf' makes pointer from integer without a cast [-Wint-conversion]"),
        ("fn(1, p)", "t.c:1:7: warning: passing argument 2 of 'fn' makes integer from pointer without a cast [-Wint-conversion]"),
        ("*vp", "t.c:1:1: warning: dereferencing 'void *' pointer"),
    ];
    for (src, want) in cases {
        assert_eq!(warnings(LP64, src), vec![want.to_string()], "{src}");
    }
    // Null pointer constants and void * convert silently.
    for src in [
        "p = 0",
        "p = vp",
        "vp = p",
        "p == 0",
        "p < 0",
        "b = p",
        "p = (0)",
        "sizeof(vfn)",
    ] {
        assert_eq!(warnings(LP64, src), Vec::<String>::new(), "{src}");
    }
}

/// Deep nesting is an error, never a stack overflow, and the limit is generous enough
/// for what people write.
#[test]
fn deep_nesting_is_bounded() {
    let run = |src: String| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || expr(LP64, &src).map(|_| ()))
            .unwrap()
            .join()
            .unwrap()
    };
    let deep = |open: &str, mid: &str, close: &str, n: usize| {
        format!("{}{mid}{}", open.repeat(n), close.repeat(n))
    };
    // Within the limits: 100 levels of each construct (the stack budget allows about
    // 190 bracket levels in an unoptimized build, many more in release).
    assert!(run(deep("(", "1", ")", 100)).is_ok());
    assert!(run(deep("- ", "1", "", 100)).is_ok());
    assert!(run(deep("a[", "0", "]", 100)).is_ok());
    assert!(run(deep("", "1", " + 1", 900)).is_ok());
    for src in [
        deep("(", "1", ")", 5000),
        deep("- ", "1", "", 5000),
        deep("i = ", "1", "", 5000),
        deep("1 ? ", "1", " : 1", 5000),
        deep("", "1", " + 1", 5000),
        deep("a[", "0", "]", 5000),
        deep("fn(", "1", ", 1)", 5000),
    ] {
        let e = run(src.clone()).unwrap_err();
        assert!(e.contains("nested too deeply"), "{e}");
    }
}

/// Runs the statement fixture and returns the body or the error.
pub(super) fn body(target: Target, src: &str) -> Result<Stmt, String> {
    with_parser(target, src, |p| {
        let r = p.parse_function_body().map_err(|d| d.headline())?;
        if !p.at_eof() {
            return Err(format!("trailing tokens at {:?}", p.peek().spelling));
        }
        Ok(r)
    })
}

/// Integer constant expressions typed and folded by gcc 12 for x86_64 and i686
/// (`testdata/gen_gcc_constants.py`): our type and value must match on both data models.
#[test]
fn constant_expressions_match_gcc_on_both_data_models() {
    let kinds = [
        Type::Bool,
        int(IntKind::Char),
        int(IntKind::SChar),
        int(IntKind::UChar),
        int(IntKind::Short),
        int(IntKind::UShort),
        int(IntKind::Int),
        int(IntKind::UInt),
        int(IntKind::Long),
        int(IntKind::ULong),
        int(IntKind::LongLong),
        int(IntKind::ULongLong),
    ];
    let table = include_str!("testdata/gcc_constants.tsv");
    let mut checked = 0;
    for line in table.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "{line}");
        for (target, t, v) in [(LP64, cols[1], cols[2]), (ILP32, cols[3], cols[4])] {
            let want_ty = &kinds[t.parse::<usize>().unwrap()];
            let want_bits: u64 = v.parse().unwrap();
            let e = expr(target, cols[0]).unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
            assert_eq!(&e.ty.ty, want_ty, "type of {} on {target:?}", cols[0]);
            let got = with_parser(target, cols[0], |p| {
                let e = p.parse_expr().unwrap();
                let e = p.rvalue(e);
                p.eval_const(&e)
            });
            match got {
                Some(ConstValue::Int(x)) => {
                    assert_eq!(x as u64, want_bits, "value of {} on {target:?}", cols[0])
                }
                other => panic!("{} on {target:?}: {other:?}", cols[0]),
            }
            checked += 1;
        }
    }
    assert!(checked >= 800, "{checked}");
}

/// Casts, type names, `sizeof`/`__alignof__` of types and `__builtin_offsetof` (values
/// by hand from the fixture's layout; the i686 `__alignof__` values are gcc 12's).
#[test]
fn type_name_operands() {
    for t in [LP64, ILP32] {
        assert_eq!(ival(t, "(unsigned char)255 + 1"), 256);
        assert_eq!(ty_of(t, "(unsigned char)255 + 1"), Type::int());
        assert_eq!(ival(t, "(unsigned char)256"), 0);
        assert_eq!(ival(t, "(signed char)200"), -56);
        assert_eq!(ival(t, "(_Bool)256"), 1);
        assert_eq!(
            ival(t, "(short)-1 == (unsigned short)-1"),
            0,
            "both promote to int"
        );
        assert_eq!(ival(t, "sizeof(int[3])"), 12);
        assert_eq!(ival(t, "sizeof(struct S)"), 20);
        assert_eq!(ival(t, "sizeof(char)"), 1);
        assert_eq!(
            ival(t, "__builtin_offsetof(struct S, y)"),
            12,
            "anonymous member"
        );
        assert_eq!(ival(t, "__builtin_offsetof(struct S, name[2])"), 18);
        assert_eq!(ival(t, "__alignof__(int)"), 4);
        assert_eq!(ival(t, "__alignof__(struct S)"), 4);
        assert_eq!(ival(t, "(int)(char *)0"), 0);
        assert_eq!(
            ty_of(t, "(const int)i"),
            Type::int(),
            "a cast's value is unqualified"
        );
        assert_eq!(ival(t, "(int)3.99"), 3);
    }
    assert_eq!(ival(LP64, "__alignof__(long long)"), 8);
    assert_eq!(ival(ILP32, "__alignof__(long long)"), 8);
    assert_eq!(ival(ILP32, "__alignof__(double)"), 8);
    assert_eq!(ival(LP64, "sizeof(long double)"), 16);
    assert_eq!(ival(ILP32, "sizeof(long double)"), 12);
    assert_eq!(ival(ILP32, "(long)4294967295u"), -1, "i686 long is 32 bits");
    assert_eq!(ival(LP64, "(long)4294967295u"), 4294967295);
    // Null pointer constants: (void *)0 converts silently to any object pointer.
    assert_eq!(warnings(LP64, "p = (void *)0"), Vec::<String>::new());
    // Errors with type names (gcc 12's wording and columns).
    let cases: &[(&str, &str)] = &[
        (
            "(void)1 + 1",
            "t.c:1:1: error: void value not ignored as it ought to be",
        ),
        (
            "(int)st",
            "t.c:1:1: error: aggregate value used where an integer was expected",
        ),
        (
            "(int *)d",
            "t.c:1:1: error: cannot convert to a pointer type",
        ),
        (
            "(double)p",
            "t.c:1:1: error: pointer value used where a floating-point was expected",
        ),
        (
            "(int)i = 1",
            "t.c:1:8: error: lvalue required as left operand of assignment",
        ),
        (
            "sizeof(struct T)",
            "t.c:1:8: error: invalid application of 'sizeof' to incomplete type 'struct T'",
        ),
        (
            "__builtin_offsetof(struct S, zz)",
            "t.c:1:1: error: 'struct S' has no member named 'zz'",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(&err(LP64, src), want, "{src}");
    }
}

/// Address constants over a global array `int ga[10]` and a global `struct S gs`.
#[test]
fn address_constants_of_arrays_and_casts() {
    use crate::frontend::ast::{GlobalId, GlobalVar, RelocTarget};
    let run = |target: Target, src: &str| {
        with_parser(target, src, |p| {
            let loc = p.loc();
            for (name, ty) in [
                ("ga", Type::Array(Rc::new(q(Type::int())), Some(10))),
                ("gs", Type::Record(RecordId(1))),
            ] {
                let id = GlobalId(p.globals.len() as u32);
                p.globals.push(GlobalVar {
                    name: name.into(),
                    ty: q(ty.clone()),
                    is_static: false,
                    init: None,
                    is_extern_only: false,
                    align: None,
                    loc,
                });
                p.declare_ordinary(name.into(), OrdinaryEntity::Global(id, q(ty)));
            }
            let e = p.parse_expr().unwrap();
            let e = p.rvalue(e);
            p.eval_const(&e)
        })
    };
    let ga = |offset| {
        Some(ConstValue::Addr {
            target: RelocTarget::Global(GlobalId(0)),
            offset,
        })
    };
    for t in [LP64, ILP32] {
        assert_eq!(run(t, "&ga[3]"), ga(12));
        assert_eq!(run(t, "ga"), ga(0), "a decayed array");
        assert_eq!(run(t, "ga + 9"), ga(36));
        assert_eq!(run(t, "&ga[4] - 1"), ga(12));
        assert_eq!(run(t, "(char *)ga + 1"), ga(1));
        assert_eq!(run(t, "(long)&ga[1]"), ga(4), "a pointer-sized integer");
        assert_eq!(
            run(t, "&gs.name[2]"),
            Some(ConstValue::Addr {
                target: RelocTarget::Global(GlobalId(1)),
                offset: 18,
            })
        );
        assert_eq!(run(t, "(int *)0"), Some(ConstValue::Int(0)));
        assert_eq!(run(t, "&ga[2] - &ga[0]"), Some(ConstValue::Int(2)));
        assert_eq!(run(t, "(char)&ga[1]"), None, "too narrow for an address");
        assert_eq!(run(t, "ga[1]"), None, "a load is not constant");
    }
    // `int` holds a pointer only on ILP32.
    assert_eq!(run(ILP32, "(int)ga"), ga(0));
    assert_eq!(run(LP64, "(int)ga"), None);
}
