//! End-to-end tests of the lowering (`compiler::lowering`): typed ASTs (built by hand
//! here, so the lowering is tested independently of the parser) and C sources are
//! lowered, run through every stage of the pipeline, and each stage is run in the oracle;
//! every stage must give the outcome and stdout computed by hand in the test (each
//! expectation's comment shows the arithmetic), or printed by host gcc -O0 for the C
//! sources (gcc and the program it builds run under timeouts).
//!
//! Two ignored tests are tools, not checks: `csmith_sweep` (counts csmith seeds whose
//! every stage prints gcc's checksum) and `print_lowered_c_file` (prints a C file's
//! lowered IR).

use compiler::frontend::ast::*;
use compiler::frontend::types::*;
use compiler::frontend::{FileId, Loc, SourceMap, Target};
use compiler::ir::IrModule;
use compiler::pipeline::{run_pipeline, PipelineOptions};
use oracle::{Outcome, Program, RunConfig};
use std::rc::Rc;

// ---------- running every stage ----------

/// Runs `@main(args)` at every pipeline stage; panics naming the first stage whose
/// outcome or stdout differs from the expectation.
fn check_all_stages(module: &IrModule, args: &[i64], want: &Outcome, want_stdout: &str) {
    let cfg = RunConfig::default();
    let mut stages = 0;
    let mut failures = Vec::new();
    run_pipeline(module.clone(), &PipelineOptions::default(), &mut |ev, m| {
        stages += 1;
        let program = match Program::new(m, &cfg) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("stage {}: cannot run: {e}", ev.name));
                return;
            }
        };
        match program.run("main", args) {
            Ok(r) => {
                if &r.outcome != want || r.stdout != want_stdout.as_bytes() {
                    failures.push(format!(
                        "stage {}: got {} with stdout {:?}, want {want} with stdout {:?}",
                        ev.name,
                        r.outcome,
                        String::from_utf8_lossy(&r.stdout),
                        want_stdout
                    ));
                }
            }
            Err(e) => failures.push(format!("stage {}: cannot run: {e}", ev.name)),
        }
    })
    .unwrap_or_else(|e| panic!("pipeline failed: {e}"));
    assert!(stages >= 4, "the pipeline reported only {stages} stages");
    assert!(
        failures.is_empty(),
        "{}\n--- lowered IR ---\n{}",
        failures.join("\n"),
        compiler::ir::text::print_module(module)
    );
}

fn lower_ok(unit: &TranslationUnit) -> IrModule {
    compiler::lowering::lower(unit, &SourceMap::new())
        .unwrap_or_else(|d| panic!("lowering failed: {d}"))
}

// ---------- a small builder for typed ASTs ----------

fn loc() -> Loc {
    Loc::new(FileId(0), 1, 1)
}

fn int() -> Type {
    Type::Int(IntKind::Int)
}

fn uint() -> Type {
    Type::Int(IntKind::UInt)
}

fn long() -> Type {
    Type::Int(IntKind::Long)
}

fn ptr(t: Type) -> Type {
    Type::Pointer(Rc::new(QualType::new(t)))
}

fn ex(kind: ExprKind, ty: Type) -> Expr {
    Expr::new(kind, ty, loc())
}

fn lit(v: i64, ty: Type) -> Expr {
    ex(ExprKind::IntLit(v as u64), ty)
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn cast(e: Expr, ty: Type) -> Expr {
    ex(ExprKind::Cast(b(e)), ty)
}

fn bin(op: BinaryOp, x: Expr, y: Expr, ty: Type) -> Expr {
    ex(ExprKind::Binary(op, b(x), b(y)), ty)
}

fn assign(l: Expr, r: Expr) -> Stmt {
    let ty = l.ty.ty.clone();
    Stmt::Expr(ex(ExprKind::Assign(b(l), b(r)), ty))
}

fn ret(e: Expr) -> Stmt {
    Stmt::Return(Some(e))
}

/// One function under construction.
struct Func {
    name: String,
    ret: Type,
    locals: Vec<LocalVar>,
    params: Vec<LocalId>,
    num_cases: u32,
    num_labels: u32,
    is_static: bool,
}

impl Func {
    fn new(name: &str, ret: Type) -> Func {
        Func {
            name: name.into(),
            ret,
            locals: Vec::new(),
            params: Vec::new(),
            num_cases: 0,
            num_labels: 0,
            is_static: false,
        }
    }

    /// A new local (or parameter) and the expression naming it.
    fn var(&mut self, name: &str, ty: Type, is_param: bool) -> Expr {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(LocalVar {
            name: name.into(),
            ty: QualType::new(ty.clone()),
            loc: loc(),
            is_param,
            align: None,
        });
        if is_param {
            self.params.push(id);
        }
        ex(ExprKind::Local(id), ty)
    }

    fn case(&mut self) -> CaseId {
        self.num_cases += 1;
        CaseId(self.num_cases - 1)
    }

    fn fn_type(&self) -> Rc<FunctionType> {
        Rc::new(FunctionType {
            ret: QualType::new(self.ret.clone()),
            params: self
                .params
                .iter()
                .map(|p| self.locals[p.0 as usize].ty.clone())
                .collect(),
            variadic: false,
            has_prototype: true,
        })
    }

    fn finish(self, body: Vec<Stmt>) -> FunctionDef {
        let ty = self.fn_type();
        FunctionDef {
            name: self.name,
            ty,
            is_static: self.is_static,
            is_inline: false,
            is_noinline: false,
            align: None,
            locals: self.locals,
            params: self.params,
            body: Stmt::Compound(body),
            num_labels: self.num_labels,
            num_cases: self.num_cases,
            vla_objects: Vec::new(),
            label_addresses: Vec::new(),
            nested: None,
            nonlocal_goto: None,
            loc: loc(),
        }
    }
}

fn local_id(e: &Expr) -> LocalId {
    match e.kind {
        ExprKind::Local(id) => id,
        _ => panic!("not a local"),
    }
}

fn decl(v: &Expr, init: Expr) -> Stmt {
    Stmt::Decl(vec![(local_id(v), Some(Initializer::Expr(init)))])
}

fn unit(functions: Vec<FunctionDef>) -> TranslationUnit {
    TranslationUnit {
        target: Target::X86_64,
        records: RecordTable::default(),
        globals: Vec::new(),
        functions,
        externs: Vec::new(),
        strings: Vec::new(),
        string_elem_sizes: Vec::new(),
    }
}

fn call(f: &FunctionDef, args: Vec<Expr>) -> Expr {
    let fn_ty = f.ty.clone();
    let callee = ex(
        ExprKind::Decay(b(ex(
            ExprKind::Func(f.name.clone()),
            Type::Function(fn_ty.clone()),
        ))),
        Type::Pointer(Rc::new(QualType::new(Type::Function(fn_ty.clone())))),
    );
    ex(
        ExprKind::Call {
            callee: b(callee),
            args,
            fn_ty: fn_ty.clone(),
        },
        fn_ty.ret.ty.clone(),
    )
}

// ---------- tests on hand-built ASTs ----------

#[test]
fn arithmetic_and_integer_conversions() {
    // int x = 7; unsigned char c = 300; long l = -1;
    // return x * 6 + (int)c / 5 - x % 4 + (int)((unsigned)l >> 28);
    // c = 300 mod 256 = 44; 42 + 44/5 (8) - 3 + (0xffffffff >> 28 = 15) = 62.
    let mut f = Func::new("main", int());
    let x = f.var("x", int(), false);
    let c = f.var("c", Type::Int(IntKind::UChar), false);
    let l = f.var("l", long(), false);
    let body = vec![
        decl(&x, lit(7, int())),
        decl(&c, cast(lit(300, int()), Type::Int(IntKind::UChar))),
        decl(
            &l,
            cast(
                ex(ExprKind::Unary(UnaryOp::Neg, b(lit(1, int()))), int()),
                long(),
            ),
        ),
        ret(bin(
            BinaryOp::Add,
            bin(
                BinaryOp::Sub,
                bin(
                    BinaryOp::Add,
                    bin(BinaryOp::Mul, x.clone(), lit(6, int()), int()),
                    bin(BinaryOp::Div, cast(c.clone(), int()), lit(5, int()), int()),
                    int(),
                ),
                bin(BinaryOp::Rem, x.clone(), lit(4, int()), int()),
                int(),
            ),
            cast(
                bin(
                    BinaryOp::Shr,
                    cast(l.clone(), uint()),
                    lit(28, int()),
                    uint(),
                ),
                int(),
            ),
            int(),
        )),
    ];
    let m = lower_ok(&unit(vec![f.finish(body)]));
    check_all_stages(&m, &[], &Outcome::Returned(Some(62)), "");
}

#[test]
fn loops_switch_fallthrough_and_short_circuit() {
    // int s = 0;
    // for (int i = 0; i < 10; i++)
    //   switch (i) { case 1: s += 1; case 2: s += 10; break; case 7: continue; default: s += 100; }
    // i=0: default +100; 1: +1 +10; 2: +10; 3..6: +100 each (400); 7: nothing; 8,9: +200.
    // s = 100 + 11 + 10 + 400 + 200 = 721.
    // then: if (s > 700 && !(s == 5) || s / 0) s = s - 700;   (s / 0 never runs) -> 21
    let mut f = Func::new("main", int());
    let s = f.var("s", int(), false);
    let i = f.var("i", int(), false);
    let (c1, c2, c7, cd) = (f.case(), f.case(), f.case(), f.case());
    let add_s = |n: i64| {
        Stmt::Expr(ex(
            ExprKind::CompoundAssign {
                op: BinaryOp::Add,
                lhs: b(s.clone()),
                rhs: b(lit(n, int())),
                compute_ty: int(),
                ptr_elem_size: None,
                lhs_wrap: None,
            },
            int(),
        ))
    };
    let switch = Stmt::Switch {
        cond: i.clone(),
        body: Box::new(Stmt::Compound(vec![
            Stmt::Case(c1, Box::new(add_s(1))),
            Stmt::Case(c2, Box::new(add_s(10))),
            Stmt::Break,
            Stmt::Case(c7, Box::new(Stmt::Continue)),
            Stmt::Case(cd, Box::new(add_s(100))),
        ])),
        cases: vec![(1, c1), (2, c2), (7, c7)],
        ranges: Vec::new(),
        default: Some(cd),
    };
    let inc = ex(
        ExprKind::IncDec {
            op: IncDecOp::PostInc,
            operand: b(i.clone()),
            ptr_elem_size: None,
        },
        int(),
    );
    let cond = ex(
        ExprKind::LogOr(
            b(ex(
                ExprKind::LogAnd(
                    b(bin(BinaryOp::Gt, s.clone(), lit(700, int()), int())),
                    b(ex(
                        ExprKind::Unary(
                            UnaryOp::LogNot,
                            b(bin(BinaryOp::Eq, s.clone(), lit(5, int()), int())),
                        ),
                        int(),
                    )),
                ),
                int(),
            )),
            b(bin(BinaryOp::Div, s.clone(), lit(0, int()), int())),
        ),
        int(),
    );
    let body = vec![
        decl(&s, lit(0, int())),
        Stmt::For {
            init: Some(Box::new(decl(&i, lit(0, int())))),
            cond: Some(bin(BinaryOp::Lt, i.clone(), lit(10, int()), int())),
            step: Some(inc),
            body: Box::new(switch),
        },
        Stmt::If {
            cond,
            then: Box::new(assign(
                s.clone(),
                bin(BinaryOp::Sub, s.clone(), lit(700, int()), int()),
            )),
            otherwise: None,
        },
        ret(s.clone()),
    ];
    let m = lower_ok(&unit(vec![f.finish(body)]));
    check_all_stages(&m, &[], &Outcome::Returned(Some(21)), "");
}

/// `struct B { unsigned a:3; int b:5; unsigned long long c:40; }` (x86-64 layout: a at
/// bits 0..3, b at 3..8, c at bits 8..48 of an 8-byte unit; size 8).
fn bitfield_records() -> (RecordTable, RecordId) {
    let field = |name: &str, ty: Type, bit_offset: u64, width: u32| Field {
        name: Some(name.into()),
        ty: QualType::new(ty),
        offset: bit_offset / 8,
        bitfield: Some(BitField { bit_offset, width }),
    };
    let rec = RecordDef {
        kind: RecordKind::Struct,
        tag: Some("B".into()),
        complete: true,
        fields: vec![
            field("a", uint(), 0, 3),
            field("b", int(), 3, 5),
            field("c", Type::Int(IntKind::ULongLong), 8, 40),
        ],
        size: 8,
        align: 8,
        pack: None,
        reverse_order: false,
    };
    (RecordTable { records: vec![rec] }, RecordId(0))
}

#[test]
fn bitfields_read_modify_write_and_truncated_values() {
    // struct B s;  s.a = 13;  s.b = 21;  s.c = 0x123456789ab;
    // int r1 = (s.a = 13)   -> 13 & 7 = 5
    // int r2 = s.b          -> 21 in 5 signed bits = 21 - 32 = -11
    // s.b++                 -> -10
    // c = 0x123456789ab & (2^40 - 1) = 0x3456789ab; (c >> 8) & 0xff = 0x89 = 137
    // return r1 * 1000 + s.b * 10 + (int)((s.c >> 8) & 0xff)  = 5000 - 100 + 137 = 5037
    let (records, rid) = bitfield_records();
    let st = Type::Record(rid);
    let mut f = Func::new("main", int());
    let s = f.var("s", st.clone(), false);
    let r1 = f.var("r1", int(), false);
    let member = |i: usize, ty: Type| {
        ex(
            ExprKind::Member {
                base: b(s.clone()),
                record: rid,
                field: i,
            },
            ty,
        )
    };
    let ull = Type::Int(IntKind::ULongLong);
    let body = vec![
        Stmt::Decl(vec![(local_id(&s), None)]),
        decl(
            &r1,
            cast(
                ex(
                    ExprKind::Assign(b(member(0, uint())), b(cast(lit(13, int()), uint()))),
                    uint(),
                ),
                int(),
            ),
        ),
        assign(member(1, int()), lit(21, int())),
        Stmt::Expr(ex(
            ExprKind::IncDec {
                op: IncDecOp::PostInc,
                operand: b(member(1, int())),
                ptr_elem_size: None,
            },
            int(),
        )),
        assign(member(2, ull.clone()), lit(0x123456789ab, ull.clone())),
        ret(bin(
            BinaryOp::Add,
            bin(
                BinaryOp::Add,
                bin(BinaryOp::Mul, r1.clone(), lit(1000, int()), int()),
                bin(BinaryOp::Mul, member(1, int()), lit(10, int()), int()),
                int(),
            ),
            cast(
                bin(
                    BinaryOp::BitAnd,
                    bin(
                        BinaryOp::Shr,
                        member(2, ull.clone()),
                        lit(8, int()),
                        ull.clone(),
                    ),
                    lit(0xff, ull.clone()),
                    ull.clone(),
                ),
                int(),
            ),
            int(),
        )),
    ];
    let mut u = unit(vec![f.finish(body)]);
    u.records = records;
    let m = lower_ok(&u);
    check_all_stages(&m, &[], &Outcome::Returned(Some(5037)), "");
}

#[test]
fn records_by_value_through_calls() {
    // struct P { int x; int y; };
    // static struct P swap(struct P p) { int t = p.x; p.x = p.y; p.y = t; return p; }
    // main: struct P a = {3, 4}; struct P b = swap(a); a.x = 100;
    // return b.x * 10 + b.y + a.y * 1000  -> 4*10 + 3 + 4000 = 4043  (a unchanged by the call)
    let rec = RecordDef {
        kind: RecordKind::Struct,
        tag: Some("P".into()),
        complete: true,
        fields: vec![
            Field {
                name: Some("x".into()),
                ty: QualType::new(int()),
                offset: 0,
                bitfield: None,
            },
            Field {
                name: Some("y".into()),
                ty: QualType::new(int()),
                offset: 4,
                bitfield: None,
            },
        ],
        size: 8,
        align: 4,
        pack: None,
        reverse_order: false,
    };
    let rid = RecordId(0);
    let pt = Type::Record(rid);
    let mem = |base: &Expr, i: usize| {
        ex(
            ExprKind::Member {
                base: b(base.clone()),
                record: rid,
                field: i,
            },
            int(),
        )
    };
    let mut g = Func::new("swap", pt.clone());
    g.is_static = true;
    let p = g.var("p", pt.clone(), true);
    let t = g.var("t", int(), false);
    let swap = g.finish(vec![
        decl(&t, mem(&p, 0)),
        assign(mem(&p, 0), mem(&p, 1)),
        assign(mem(&p, 1), t.clone()),
        ret(p.clone()),
    ]);
    let mut f = Func::new("main", int());
    let a = f.var("a", pt.clone(), false);
    let bb = f.var("b", pt.clone(), false);
    let body = vec![
        Stmt::Decl(vec![(
            local_id(&a),
            Some(Initializer::List(vec![
                InitItem {
                    offset: 0,
                    bitfield: None,
                    value: lit(3, int()),
                },
                InitItem {
                    offset: 4,
                    bitfield: None,
                    value: lit(4, int()),
                },
            ])),
        )]),
        decl(&bb, call(&swap, vec![a.clone()])),
        assign(mem(&a, 0), lit(100, int())),
        ret(bin(
            BinaryOp::Add,
            bin(
                BinaryOp::Add,
                bin(BinaryOp::Mul, mem(&bb, 0), lit(10, int()), int()),
                mem(&bb, 1),
                int(),
            ),
            bin(BinaryOp::Mul, mem(&a, 1), lit(1000, int()), int()),
            int(),
        )),
    ];
    let mut u = unit(vec![swap, f.finish(body)]);
    u.records = RecordTable { records: vec![rec] };
    let m = lower_ok(&u);
    check_all_stages(&m, &[], &Outcome::Returned(Some(4043)), "");
}

#[test]
fn globals_pointers_strings_and_printf() {
    // int g[3] = {1, 2, 3};  int *p = &g[1];
    // main: printf("v=%d\n", *p + g[2]);  (2 + 3 = 5)  p++; return (int)(p - g);  (2)
    let ga = Type::Array(Rc::new(QualType::new(int())), Some(3));
    let mut bytes = Vec::new();
    for v in [1i32, 2, 3] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let globals = vec![
        GlobalVar {
            name: "g".into(),
            ty: QualType::new(ga.clone()),
            is_static: false,
            init: Some(StaticInit {
                bytes,
                relocs: vec![],
            }),
            is_extern_only: false,
            loc: loc(),
            align: None,
        },
        GlobalVar {
            name: "p".into(),
            ty: QualType::new(ptr(int())),
            is_static: false,
            init: Some(StaticInit {
                bytes: vec![0; 8],
                relocs: vec![Reloc {
                    offset: 0,
                    target: RelocTarget::Global(GlobalId(0)),
                    addend: 4,
                }],
            }),
            is_extern_only: false,
            loc: loc(),
            align: None,
        },
    ];
    let g = ex(ExprKind::Global(GlobalId(0)), ga.clone());
    let p = ex(ExprKind::Global(GlobalId(1)), ptr(int()));
    let decay_g = ex(ExprKind::Decay(b(g.clone())), ptr(int()));
    let printf_ty = Rc::new(FunctionType {
        ret: QualType::new(int()),
        params: vec![QualType::new(ptr(Type::Int(IntKind::Char)))],
        variadic: true,
        has_prototype: true,
    });
    let fmt = b"v=%d\n\0".to_vec();
    let str_ty = Type::Array(Rc::new(QualType::new(Type::Int(IntKind::Char))), Some(6));
    let printf_call = ex(
        ExprKind::Call {
            callee: b(ex(
                ExprKind::Decay(b(ex(
                    ExprKind::Func("printf".into()),
                    Type::Function(printf_ty.clone()),
                ))),
                ptr(Type::Function(printf_ty.clone())),
            )),
            args: vec![
                ex(
                    ExprKind::Decay(b(ex(ExprKind::Str(StringId(0)), str_ty))),
                    ptr(Type::Int(IntKind::Char)),
                ),
                bin(
                    BinaryOp::Add,
                    ex(ExprKind::Deref(b(p.clone())), int()),
                    ex(
                        ExprKind::Deref(b(ex(
                            ExprKind::PtrAdd {
                                ptr: b(decay_g.clone()),
                                index: b(lit(2, long())),
                                elem_size: 4,
                            },
                            ptr(int()),
                        ))),
                        int(),
                    ),
                    int(),
                ),
            ],
            fn_ty: printf_ty.clone(),
        },
        int(),
    );
    let f = Func::new("main", int());
    let body = vec![
        Stmt::Expr(printf_call),
        Stmt::Expr(ex(
            ExprKind::IncDec {
                op: IncDecOp::PreInc,
                operand: b(p.clone()),
                ptr_elem_size: Some(4),
            },
            ptr(int()),
        )),
        ret(cast(
            ex(
                ExprKind::PtrDiff {
                    lhs: b(p.clone()),
                    rhs: b(decay_g.clone()),
                    elem_size: 4,
                },
                long(),
            ),
            int(),
        )),
    ];
    let u = TranslationUnit {
        target: Target::X86_64,
        records: RecordTable::default(),
        globals,
        functions: vec![f.finish(body)],
        externs: vec![FunctionDecl {
            name: "printf".into(),
            ty: printf_ty,
            loc: loc(),
        }],
        strings: vec![fmt],
        string_elem_sizes: vec![1],
    };
    let m = lower_ok(&u);
    check_all_stages(&m, &[], &Outcome::Returned(Some(2)), "v=5\n");
}

#[test]
fn a_double_converted_to_int_truncates_at_every_stage() {
    let mut f = Func::new("main", int());
    let d = f.var("d", Type::Float(FloatKind::Double), false);
    let body = vec![
        decl(
            &d,
            ex(ExprKind::FloatLit(-2.75), Type::Float(FloatKind::Double)),
        ),
        ret(cast(d.clone(), int())),
    ];
    let m = lower_ok(&unit(vec![f.finish(body)]));
    check_all_stages(&m, &[], &Outcome::Returned(Some(-2)), "");
}

#[test]
fn long_double_is_a_diagnostic_not_a_panic() {
    let mut f = Func::new("main", int());
    let d = f.var("d", Type::Float(FloatKind::LongDouble), false);
    let body = vec![
        decl(
            &d,
            ex(ExprKind::FloatLit(1.5), Type::Float(FloatKind::LongDouble)),
        ),
        ret(cast(d.clone(), int())),
    ];
    let err = compiler::lowering::lower(&unit(vec![f.finish(body)]), &SourceMap::new())
        .expect_err("long double must be refused");
    let text = err.to_string();
    assert!(
        text.contains("error: 'long double' is not supported"),
        "{text}"
    );
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    // -(-(-(...1...))) nested 5000 deep: beyond the lowering's limit.
    let mut e = lit(1, int());
    for _ in 0..5000 {
        e = ex(ExprKind::Unary(UnaryOp::Neg, b(e)), int());
    }
    let f = Func::new("main", int());
    let u = unit(vec![f.finish(vec![ret(e)])]);
    let err = compiler::lowering::lower(&u, &SourceMap::new()).expect_err("too deep");
    assert!(err.to_string().contains("nested too deeply"), "{err}");
}

// ---------- C sources, compared with host gcc -O0 ----------

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `cmd` with a timeout; `None` when it could not start or ran too long. Output
/// goes through anonymous temporary files (a pipe nobody reads would block a chatty
/// child; the files vanish with their handles).
fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Option<std::process::Output> {
    use std::io::{Read, Seek};
    let (mut out, mut err) = (tempfile::tempfile().ok()?, tempfile::tempfile().ok()?);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out.try_clone().ok()?)
        .stderr(err.try_clone().ok()?)
        .spawn()
        .ok()?;
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => return None,
        }
    };
    let read_all = |f: &mut std::fs::File| -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        f.rewind().ok()?;
        f.read_to_end(&mut bytes).ok()?;
        Some(bytes)
    };
    Some(std::process::Output {
        status,
        stdout: read_all(&mut out)?,
        stderr: read_all(&mut err)?,
    })
}

/// What host gcc -O0 makes of `src`: (exit status, stdout), or an explanation.
fn gcc_reference(name: &str, src: &str, include: &[&Path]) -> Result<(i32, Vec<u8>), String> {
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = scratch.path();
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, src).map_err(|e| e.to_string())?;
    let mut cc = Command::new("gcc");
    cc.args(["-O0", "-w", "-o"]).arg(&exe).arg(&c);
    for dir in include {
        cc.arg("-I").arg(dir);
    }
    let out = run_with_timeout(&mut cc, Duration::from_secs(60)).ok_or("gcc did not finish")?;
    if !out.status.success() {
        return Err(format!(
            "gcc failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let run = run_with_timeout(&mut Command::new(&exe), Duration::from_secs(10))
        .ok_or("the gcc-built program timed out")?;
    let code = run
        .status
        .code()
        .ok_or("the gcc-built program died from a signal")?;
    Ok((code, run.stdout))
}

/// Compiles C source with phicc's front end and lowering.
fn compile_c(name: &str, src: &str, include: &[&Path]) -> Result<IrModule, String> {
    let mut opts = compiler::compile_c::default_options();
    opts.include_dirs = include.iter().map(|p| p.to_path_buf()).collect();
    compiler::compile_c::compile_c_source(&format!("{name}.c"), src, &opts)
        .map(|c| c.module)
        .map_err(|d| d.to_string())
}

/// `main`'s outcome as the process exit status gcc's program gives (`exit(c)` and a
/// return from main both end the process with the low 8 bits).
fn exit_status(o: &Outcome) -> Option<i32> {
    match o {
        Outcome::Returned(Some(v)) => Some((*v as i32) & 0xff),
        Outcome::Exited(c) => Some(c & 0xff),
        _ => None,
    }
}

/// Compiles `src` with phicc and with gcc -O0; every pipeline stage must print what
/// gcc's program prints and end with its exit status. `main` is called as `main(1, 0)`
/// when it takes `(argc, argv)`.
fn check_against_gcc(name: &str, src: &str) {
    let (code, stdout) = gcc_reference(name, src, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let module = compile_c(name, src, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let args: Vec<i64> = match module.function("main") {
        Some(f) if f.params.len() == 2 => vec![1, 0],
        _ => vec![],
    };
    let cfg = RunConfig::default();
    let mut failures = Vec::new();
    run_pipeline(module.clone(), &PipelineOptions::default(), &mut |ev, m| {
        let r = Program::new(m, &cfg).and_then(|p| p.run("main", &args));
        match r {
            Ok(r) if exit_status(&r.outcome) == Some(code) && r.stdout == stdout => {}
            Ok(r) => failures.push(format!(
                "stage {}: {} with stdout {:?}; gcc: exit {code} with stdout {:?}",
                ev.name,
                r.outcome,
                String::from_utf8_lossy(&r.stdout),
                String::from_utf8_lossy(&stdout)
            )),
            Err(e) => failures.push(format!("stage {}: cannot run: {e}", ev.name)),
        }
    })
    .unwrap_or_else(|e| panic!("{name}: pipeline failed: {e}"));
    failures.truncate(3);
    assert!(
        failures.is_empty(),
        "{name}:\n{}\n--- lowered IR ---\n{}",
        failures.join("\n"),
        compiler::ir::text::print_module(&module)
    );
}

#[test]
fn c_globals_structs_printf() {
    check_against_gcc(
        "globals_structs",
        r#"
#include <stdio.h>
struct S { int a; unsigned b : 3; signed c : 5; char d; };
int g[3] = {1, 2, 3};
int *gp = &g[2];
static const char *msg = "hi";
static int add(int x, int y) { return x + y; }
int main(void) {
    struct S s = {5, 9, -3, 'x'};
    int i, t = 0;
    for (i = 0; i < 3; i++)
        t += g[i];
    s.c += 20;
    printf("t=%d b=%u c=%d d=%c %s %d\n", add(t, s.a), s.b, s.c, s.d, msg, *gp);
    return 3;
}
"#,
    );
}

/// A measurement tool, not a check: compiles csmith programs (seeds from
/// `PHICC_CSMITH_SEEDS`, e.g. `1-50`; extra csmith options from `PHICC_CSMITH_OPTS`,
/// default `--no-bitfields --no-packed-struct`) with phicc and with gcc -O0 and counts
/// the seeds whose every pipeline stage prints gcc's checksum line. Run with
/// `PHICC_CSMITH_SEEDS=1-50 cargo test --release -p oracle --test c_lowering csmith_sweep
/// -- --ignored --nocapture`.
#[test]
#[ignore = "measurement tool: needs csmith and gcc, takes minutes"]
fn csmith_sweep() {
    let seeds = std::env::var("PHICC_CSMITH_SEEDS").unwrap_or_else(|_| "1-10".into());
    let (lo, hi) = seeds
        .split_once('-')
        .map(|(a, b)| (a.parse::<u64>().unwrap(), b.parse::<u64>().unwrap()))
        .unwrap_or_else(|| {
            let n = seeds.parse::<u64>().unwrap();
            (n, n)
        });
    let opts = std::env::var("PHICC_CSMITH_OPTS")
        .unwrap_or_else(|_| "--no-bitfields --no-packed-struct".into());
    let inc = Path::new("/usr/include/csmith");
    let cfg = RunConfig {
        fuel: 2_000_000_000,
        ..RunConfig::default()
    };
    let (mut pass, mut compile_err, mut mismatch, mut skipped) = (0, 0, 0, 0);
    for seed in lo..=hi {
        let mut cmd = Command::new("csmith");
        cmd.arg("--seed").arg(seed.to_string());
        cmd.args(opts.split_whitespace());
        let Some(out) = run_with_timeout(&mut cmd, Duration::from_secs(120)) else {
            println!("seed {seed}: csmith failed");
            skipped += 1;
            continue;
        };
        let src = String::from_utf8_lossy(&out.stdout).into_owned();
        let name = format!("csmith{seed}");
        let (code, want) = match gcc_reference(&name, &src, &[inc]) {
            Ok(r) => r,
            Err(e) => {
                println!("seed {seed}: no reference ({e})");
                skipped += 1;
                continue;
            }
        };
        let module = match compile_c(&name, &src, &[inc]) {
            Ok(m) => m,
            Err(e) => {
                println!(
                    "seed {seed}: COMPILE ERROR {}",
                    e.lines().last().unwrap_or("")
                );
                compile_err += 1;
                continue;
            }
        };
        let mut bad = Vec::new();
        let mut n = 0;
        let result = run_pipeline(module, &PipelineOptions::default(), &mut |ev, m| {
            n += 1;
            let r = Program::new(m, &cfg).and_then(|p| p.run("main", &[1, 0]));
            match r {
                Ok(r) if exit_status(&r.outcome) == Some(code) && r.stdout == want => {}
                Ok(r) => bad.push(format!(
                    "{}: {} {:?}",
                    ev.name,
                    r.outcome,
                    String::from_utf8_lossy(&r.stdout)
                        .lines()
                        .last()
                        .unwrap_or("")
                )),
                Err(e) => bad.push(format!("{}: cannot run: {e}", ev.name)),
            }
        });
        if let Err(e) = result {
            bad.push(format!("pipeline: {e}"));
        }
        if bad.is_empty() {
            pass += 1;
            println!("seed {seed}: ok ({n} stages)");
        } else {
            mismatch += 1;
            println!(
                "seed {seed}: MISMATCH (gcc: {:?}) first: {}",
                String::from_utf8_lossy(&want).trim_end(),
                bad[0]
            );
        }
    }
    println!(
        "csmith {lo}-{hi} ({opts}): {pass} match, {compile_err} compile errors, \
         {mismatch} mismatches, {skipped} without reference"
    );
}

#[test]
fn c_bitfields_and_packed_records() {
    check_against_gcc(
        "bitfields",
        r#"
#include <stdio.h>
struct B { unsigned a : 3; int b : 5; unsigned long long c : 40; signed char d : 2; };
#pragma pack(push, 1)
struct P { char x; int y : 17; unsigned z : 23; long long w : 33; };
#pragma pack(pop)
struct Q { short s; unsigned v : 9; } __attribute__((packed));
struct B gb = {5, -7, 0x123456789aULL, 1};
struct P gp[2] = {{1, -65536, 8388607, -4294967296LL}, {2, 3, 4, 5}};
int main(void) {
    struct B b;
    struct P p = {7, 65535, 1, 1};
    struct Q q = {-2, 300};
    int r = (b.a = 13);
    b.b = 21; b.c = 0xfedcba9876ULL; b.d = 3;
    b.b++; b.a += 6; b.c <<= 4; p.y -= 70000; p.z *= 3; p.w = -p.w - 5;
    q.v ^= 511;
    printf("%d %u %d %llx %d\n", r, b.a, b.b, (unsigned long long)b.c, b.d);
    printf("%d %d %u %lld %d %u\n", p.x, p.y, p.z, (long long)p.w, q.s, q.v);
    printf("%u %d %llx %d | %d %u %lld\n", gb.a, gb.b, (unsigned long long)gb.c, gb.d,
           gp[0].y, gp[0].z, (long long)gp[0].w);
    printf("%d %d\n", (int)sizeof(struct P), (int)sizeof(struct Q));
    return 0;
}
"#,
    );
}

#[test]
fn c_control_flow() {
    check_against_gcc(
        "control",
        r#"
#include <stdio.h>
static int classify(int x) {
    int r = 0;
    switch (x % 8) {
    case 0: r += 1;
    case 1: r += 10; break;
    default: r += 100;
    case 5: r += 1000; break;
    case -3: return -1;
    case 7: { int k; for (k = 0; k < 3; k++) { if (k == 1) continue; r += k; } }
    }
    return r;
}
int main(void) {
    int i = 0, s = 0, n = 0;
    unsigned long long h = 0;
again:
    s += classify(i);
    if (++i < 20) goto again;
    do { n++; if (n == 3) continue; if (n > 6) break; s += n; } while (n < 10);
    for (i = -10; i < 10; i += 3) { int j = 0; while (j < i) { j++; if (j & 4) break; } h = h * 31 + j; }
    printf("%d %d %llu %d\n", s, n, h, classify(-11));
}
"#,
    );
}

#[test]
fn c_records_and_function_pointers() {
    check_against_gcc(
        "records",
        r#"
#include <stdio.h>
struct V { long x; int y[3]; char c; };
union U { int i; unsigned char b[4]; };
static struct V make(long x, int k) { struct V v = {x, {k, k + 1, k + 2}, 'q'}; return v; }
static struct V twice(struct V v) { v.x *= 2; v.y[1] *= 2; return v; }
static int sum(struct V v) { return (int)v.x + v.y[0] + v.y[1] + v.y[2] + v.c; }
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int (*ops[2])(int, int) = {add, sub};
struct V gv;
int main(void) {
    struct V a = make(10, 3), b;
    union U u;
    int (*f)(int, int) = &sub;
    int k = 1;
    b = twice(a);
    gv = k ? b : a;
    u.i = 0x01020304;
    printf("%d %d %ld %d %d\n", sum(a), sum(b), twice(make(7, 1)).x, make(1, 9).y[2], gv.y[1]);
    printf("%d %d %d %d\n", ops[0](3, 4), ops[1](3, 4), f(10, 3), (*f)(1, 2));
    printf("%d %d\n", u.b[0], u.b[3]);
    return sum(gv) & 0x7f;
}
"#,
    );
}

#[test]
fn c_expressions_and_conversions() {
    check_against_gcc(
        "exprs",
        r#"
#include <stdio.h>
#include <stdint.h>
static int calls;
static int side(int v) { calls++; return v; }
int main(void) {
    char c = -1; unsigned char uc = 250; signed char sc = -128; short sh = -30000;
    _Bool t = 5, f = 0;
    int a[5] = {1, 2, 3}, *p = a + 4, *q = &a[1];
    uint32_t u = 0xffffffffu; int64_t big = -5; uint64_t ub = 1;
    volatile int vol = 7;
    static int st = 3;
    int x = (side(0) && side(1)) + (side(2) || side(3)) + (side(0) ? side(4) : side(5));
    t++; f--; uc += 10; sc--; sh *= 3;
    printf("%d %d %d %d %d %d %d\n", c, uc, sc, sh, t, f, x);
    printf("%d %d %ld %d %d\n", calls, (int)(p - q), (long)(q - p), p > q, a[3]);
    printf("%u %lld %llu %d %d\n", u + 2, big / 2, (unsigned long long)(ub << 63), -7 / 2, -7 % 2);
    printf("%d %d %u %d\n", (int)(u >> 1), (int)(big >> 1), (unsigned)(sc << 2), !p);
    st = vol * st;
    printf("%d %d\n", st, (c == 255u) + (uc < -1) + (sizeof(long) == 8));
    st = (vol, 9);
    return st + (int)(intptr_t)(p - p);
}
"#,
    );
}

/// A debugging aid: prints the lowered IR of the C file named by `PHICC_C_FILE`.
#[test]
#[ignore = "debugging aid"]
fn print_lowered_c_file() {
    let path = std::env::var("PHICC_C_FILE").expect("PHICC_C_FILE");
    let src = std::fs::read_to_string(&path).expect("readable");
    match compile_c("input", &src, &[Path::new("/usr/include/csmith")]) {
        Ok(m) => println!("{}", compiler::ir::text::print_module(&m)),
        Err(e) => println!("{e}"),
    }
}

#[test]
fn c_on_i686_with_4_byte_pointers() {
    // By hand for i686 (ILP32): sizeof(long) = 4, struct S is 12 bytes (long long aligns
    // to 4 in structs), sizeof(p) = 8: 4 * 10 + 4 + 12 + 8 = 64. (No pointer-initialized
    // global here: the verifier counts `ptr` global items as 8 bytes on every target and
    // rejects them in 4-byte slots; see the lowering's report.)
    let src = r#"
int g[2] = {3, 4};
struct S { char c; long long x; } s = {1, 2};
int main(void) {
    int *p[2];
    p[0] = &g[0]; p[1] = p[0] + 1;
    return *p[1] * 10 + (int)sizeof(long) + (int)sizeof(s) + (int)sizeof(p);
}
"#;
    let mut opts = compiler::compile_c::default_options();
    opts.target = Target::I686;
    let module = compiler::compile_c::compile_c_source("i686.c", src, &opts)
        .unwrap_or_else(|d| panic!("{d}"))
        .module;
    let cfg = RunConfig {
        ptr_bytes: 4,
        ..RunConfig::default()
    };
    let mut failures = Vec::new();
    run_pipeline(
        module,
        &PipelineOptions::default(),
        &mut |ev, m| match Program::new(m, &cfg).and_then(|p| p.run("main", &[])) {
            Ok(r) if r.outcome == Outcome::Returned(Some(64)) => {}
            Ok(r) => failures.push(format!("{}: {}", ev.name, r.outcome)),
            Err(e) => failures.push(format!("{}: {e}", ev.name)),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn c_dead_code_and_falling_off_the_end() {
    check_against_gcc(
        "deadcode",
        r#"
#include <stdio.h>
static int g(int a, int b) { return a + b; }
static int noret(int a) { if (a > 100) return 1; }
int f(int a, int b, int c) {
    if (a) return a * 3;
    a = g(a, b && c) + (c ? a : b);
    switch (b) { a = g(b || c, a); case 1: return 2; default: break; }
    for (;;) { break; a++; }
    goto end; a = a && b;
end:
    return a + 7;
}
int main(void) {
    noret(5);
    printf("%d %d %d\n", f(2, 0, 0), f(0, 1, 0), f(0, 5, 1));
}
"#,
    );
}

#[test]
fn c_plain_char_is_unsigned_on_aarch64() {
    // aarch64: plain char is unsigned, so (char)-1 is 255 and 255 > 0; 255 + 1 = 256.
    let src = "int main(void) { char c = -1; return c + (c > 0); }";
    let mut opts = compiler::compile_c::default_options();
    opts.target = Target::Aarch64;
    let module = compiler::compile_c::compile_c_source("arm.c", src, &opts)
        .unwrap_or_else(|d| panic!("{d}"))
        .module;
    check_all_stages(&module, &[], &Outcome::Returned(Some(256)), "");
}

/// A debugging aid: runs the C file named by `PHICC_C_FILE` (csmith include path) at the
/// `lowered` stage and prints the first line where its stdout differs from gcc -O0's.
#[test]
#[ignore = "debugging aid"]
fn compare_c_file_with_gcc() {
    let path = std::env::var("PHICC_C_FILE").expect("PHICC_C_FILE");
    let src = std::fs::read_to_string(&path).expect("readable");
    let inc = Path::new("/usr/include/csmith");
    let (code, want) = gcc_reference("compare", &src, &[inc]).expect("gcc reference");
    let module = compile_c("compare", &src, &[inc]).expect("compiles");
    let cfg = RunConfig {
        fuel: 2_000_000_000,
        ..RunConfig::default()
    };
    let args: Vec<i64> = match module.function("main") {
        Some(f) if f.params.len() == 2 => vec![1, 0],
        _ => vec![],
    };
    let r = Program::new(&module, &cfg)
        .and_then(|p| p.run("main", &args))
        .expect("runs");
    println!("gcc: exit {code}; phicc lowered: {}", r.outcome);
    let (got, want) = (
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&want),
    );
    match got.lines().zip(want.lines()).position(|(a, b)| a != b) {
        Some(i) => println!(
            "line {}: phicc {:?} gcc {:?}",
            i + 1,
            got.lines().nth(i),
            want.lines().nth(i)
        ),
        None => println!(
            "same lines ({} vs {})",
            got.lines().count(),
            want.lines().count()
        ),
    }
}

#[test]
fn c_evaluation_order_follows_gcc() {
    // C leaves these orders unspecified; csmith programs observe them, so phicc follows
    // gcc -O0: arguments right to left, a plain variable operand of a commutative
    // operator or comparison read after the other operand.
    check_against_gcc(
        "order",
        r#"
#include <stdio.h>
int h = 1; int a[2] = {1, 1}; int *p = &h;
static int f(void) { h = 50; a[1] = 50; return 2; }
static int g(int x) { h = 70; return x; }
static int k(int x, int y) { return x * 1000 + y; }
static int k3(int x, int y, int z) { return x * 1000000 + y * 1000 + z; }
int main(void) {
  signed char c = 1;
  h = 1; printf("%d\n", h + f());
  h = 1; printf("%d\n", *p + f());
  a[1] = 1; printf("%d\n", a[1] * f());
  h = 1; printf("%d\n", (h * 3) + f());
  h = 1; printf("%d\n", (h < 10) + f());
  h = 1; printf("%d\n", (unsigned)h + f());
  h = 1; printf("%d\n", g(h) + h);
  h = 1; printf("%d\n", h + g(5) + h);
  h = 1; printf("%d\n", h - f());
  h = 1; printf("%d\n", h < f());
  h = 1; printf("%d\n", h == f());
  h = 1; printf("%d\n", k(h, f()));
  h = 1; printf("%d\n", k(f(), h));
  h = 1; printf("%d\n", k(*p, f()));
  h = 1; printf("%d\n", k3(h + 0, f(), h));
  c |= f();
  printf("%d\n", c);
  return 0;
}
"#,
    );
}

#[test]
fn c_conditions_on_wide_values() {
    // 256, 65536 and 1 << 40 have no bit in their low byte, yet are true.
    check_against_gcc(
        "wide_conditions",
        r#"
#include <stdio.h>
int main(void) {
    int m = 256; long long w = 1LL << 40; unsigned short u = 65280; int *p = &m;
    int a = (m && 1UL), b = !w, c = u ? 3 : 4, d = 0;
    if (m) d += 1;
    while (w) { d += 10; w = 0; }
    if (p && u) d += 100;
    printf("%d %d %d %d\n", a, b, c, d);
    return 0;
}
"#,
    );
}
