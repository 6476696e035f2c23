//! Tests of statements: structure of the AST, scopes, switch/case bookkeeping, and
//! every statement diagnostic (messages and columns as gcc 12 prints them for the same
//! function body), plus the never-panic property on random token soup.

use super::expr_tests::{body, with_parser, LP64};
use crate::frontend::ast::{ExprKind, Stmt};
use crate::frontend::types::{IntKind, Type};

fn err(src: &str) -> String {
    match body(LP64, src) {
        Ok(s) => panic!("{src}: expected an error, got {s:?}"),
        Err(e) => e,
    }
}

/// The body, without its `Stmt::At` positions (see `statements_are_placed`).
fn ok(src: &str) -> Stmt {
    strip(body(LP64, src).unwrap_or_else(|e| panic!("{src}: {e}")))
}

/// `s` with every `Stmt::At` wrapper removed, at any depth.
fn strip(s: Stmt) -> Stmt {
    let b = |s: Box<Stmt>| Box::new(strip(*s));
    match s {
        Stmt::At(_, s) => strip(*s),
        Stmt::Compound(v) => Stmt::Compound(v.into_iter().map(strip).collect()),
        Stmt::If {
            cond,
            then,
            otherwise,
        } => Stmt::If {
            cond,
            then: b(then),
            otherwise: otherwise.map(b),
        },
        Stmt::While { cond, body } => Stmt::While {
            cond,
            body: b(body),
        },
        Stmt::DoWhile { body, cond } => Stmt::DoWhile {
            body: b(body),
            cond,
        },
        Stmt::For {
            init,
            cond,
            step,
            body,
        } => Stmt::For {
            init: init.map(b),
            cond,
            step,
            body: b(body),
        },
        Stmt::Switch {
            cond,
            body,
            cases,
            ranges,
            default,
        } => Stmt::Switch {
            cond,
            body: b(body),
            cases,
            ranges,
            default,
        },
        Stmt::Case(id, s) => Stmt::Case(id, b(s)),
        Stmt::Label(id, s) => Stmt::Label(id, b(s)),
        s @ (Stmt::Null
        | Stmt::Expr(_)
        | Stmt::Decl(_)
        | Stmt::Goto(_)
        | Stmt::IndirectGoto(_)
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Return(_)) => s,
    }
}

/// Every statement and declaration but `;` is placed at its first token; `Null` is not.
#[test]
fn statements_are_placed() {
    let b = body(
        LP64,
        "{ int x = 1;\n  if (i)\n    while (p) break;\n  ;\n  l: x++; }",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let pos = |s: &Stmt| match s {
        Stmt::At(loc, _) => (loc.line, loc.col),
        s => panic!("not placed: {s:?}"),
    };
    let Stmt::Compound(items) = b else {
        panic!("{b:?}")
    };
    assert_eq!(items.len(), 4, "{items:?}");
    // `int x = 1;` starts at column 3 of line 1 (after "{ ").
    assert_eq!(pos(&items[0]), (1, 3));
    assert!(matches!(items[0].inner(), Stmt::Decl(_)));
    assert_eq!(pos(&items[1]), (2, 3));
    let Stmt::If { then, .. } = items[1].inner() else {
        panic!("{:?}", items[1])
    };
    assert_eq!(pos(then), (3, 5));
    let Stmt::While { body, .. } = then.inner() else {
        panic!("{then:?}")
    };
    // `break` in "    while (p) break;" is at column 15.
    assert_eq!(pos(body), (3, 15));
    assert_eq!(items[2], Stmt::Null);
    assert_eq!(pos(&items[3]), (5, 3));
    let Stmt::Label(_, inner) = items[3].inner() else {
        panic!("{:?}", items[3])
    };
    assert_eq!(pos(inner), (5, 6));
}

fn items(s: Stmt) -> Vec<Stmt> {
    match s {
        Stmt::Compound(v) => v,
        other => panic!("not a block: {other:?}"),
    }
}

#[test]
fn statement_structure() {
    let b = items(ok(
        "{ if (i) i = 1; else ; while (p) break; do continue; while (0); for (;;) ; }",
    ));
    assert_eq!(b.len(), 4);
    match &b[0] {
        Stmt::If {
            cond, otherwise, ..
        } => {
            assert!(matches!(cond.kind, ExprKind::Local(_)));
            assert!(matches!(otherwise.as_deref(), Some(Stmt::Null)));
        }
        s => panic!("{s:?}"),
    }
    match &b[1] {
        Stmt::While { cond, body } => {
            assert!(
                cond.ty.ty.is_pointer(),
                "conditions are not converted to int"
            );
            assert_eq!(**body, Stmt::Break);
        }
        s => panic!("{s:?}"),
    }
    assert!(matches!(&b[2], Stmt::DoWhile { .. }));
    match &b[3] {
        Stmt::For {
            init, cond, step, ..
        } => assert!(init.is_none() && cond.is_none() && step.is_none()),
        s => panic!("{s:?}"),
    }
}

#[test]
fn switch_cases_are_converted_and_numbered() {
    // The controlling expression is promoted (char -> int); case values are converted to
    // int; ids number case and default labels in order.
    let b = items(ok(
        "{ switch (c) { case 'a': break; default: case -1: { case 3000000000u: ; } } }",
    ));
    let Stmt::Switch {
        cond,
        cases,
        default,
        ..
    } = &b[0]
    else {
        panic!("{b:?}");
    };
    assert_eq!(cond.ty.ty, Type::int());
    // 3000000000u converted to int is 3000000000 - 2^32 = -1294967296, kept as its
    // 32-bit pattern 0xB2D05E00.
    let values: Vec<u64> = cases.iter().map(|(v, _)| *v).collect();
    assert_eq!(values, vec![97, 0xffff_ffff, 0xB2D0_5E00]);
    let ids: Vec<u32> = cases.iter().map(|(_, id)| id.0).collect();
    assert_eq!(ids, vec![0, 2, 3]);
    assert_eq!(default.map(|d| d.0), Some(1));
    // A long switch keeps 64-bit values.
    let b = items(ok("{ switch (ul) { case -1: ; } }"));
    let Stmt::Switch { cond, cases, .. } = &b[0] else {
        panic!();
    };
    assert_eq!(cond.ty.ty, Type::Int(IntKind::ULong));
    assert_eq!(cases[0].0, u64::MAX);
    // Nested switches keep their own cases; duplicates are per switch.
    ok("{ switch (i) { case 1: switch (i) { case 1: ; } } }");
}

#[test]
fn labels_goto_and_return() {
    let b = items(ok("{ goto end; end: return 1; }"));
    assert!(matches!(b[0], Stmt::Goto(_)));
    match &b[1] {
        Stmt::Label(_, inner) => match &**inner {
            Stmt::Return(Some(e)) => assert_eq!(e.ty.ty, Type::int()),
            s => panic!("{s:?}"),
        },
        s => panic!("{s:?}"),
    }
    // return converts to the return type (int here): a double is cast.
    let b = items(ok("{ return d; }"));
    match &b[0] {
        Stmt::Return(Some(e)) => {
            assert_eq!(e.ty.ty, Type::int());
            assert!(matches!(e.kind, ExprKind::Cast(_)));
        }
        s => panic!("{s:?}"),
    }
    // gcc 12 accepts a label before '}' (C2x); so do we.
    ok("{ x: }");
}

#[test]
fn statement_errors_are_gcc_worded_and_located() {
    // Columns from `gcc -std=c99 -fsyntax-only` on the same body.
    let cases: &[(&str, &str)] = &[
        (
            "{ if (st) ; }",
            "t.c:1:7: error: used struct type value where scalar is required",
        ),
        (
            "{ while (st) ; }",
            "t.c:1:10: error: used struct type value where scalar is required",
        ),
        (
            "{ for (;st;) ; }",
            "t.c:1:9: error: used struct type value where scalar is required",
        ),
        (
            "{ do ; while (st); }",
            "t.c:1:15: error: used struct type value where scalar is required",
        ),
        (
            "{ break; }",
            "t.c:1:3: error: break statement not within loop or switch",
        ),
        (
            "{ continue; }",
            "t.c:1:3: error: continue statement not within a loop",
        ),
        (
            "{ switch (i) { continue; } }",
            "t.c:1:16: error: continue statement not within a loop",
        ),
        (
            "{ switch (d) ; }",
            "t.c:1:11: error: switch quantity not an integer",
        ),
        (
            "{ switch (i) { case 1: case 1: ; } }",
            "t.c:1:24: error: duplicate case value",
        ),
        (
            "{ switch (i) { default: default: ; } }",
            "t.c:1:25: error: multiple default labels in one switch",
        ),
        (
            "{ case 1: ; }",
            "t.c:1:3: error: case label not within a switch statement",
        ),
        (
            "{ default: ; }",
            "t.c:1:3: error: 'default' label not within a switch statement",
        ),
        (
            "{ goto nowhere; }",
            "t.c:1:3: error: label 'nowhere' used but not defined",
        ),
        ("{ lab: lab: ; }", "t.c:1:8: error: duplicate label 'lab'"),
        (
            "{ switch (i) { case i: ; } }",
            "t.c:1:21: error: case label does not reduce to an integer constant",
        ),
        (
            "{ switch (i) { case 1.0: ; } }",
            "t.c:1:21: error: case label does not reduce to an integer constant",
        ),
        ("{ i = 1 'a'; }", "t.c:1:9: error: expected ';' before 'a'"),
        (
            "{ i = 1 \"s\"; }",
            "t.c:1:9: error: expected ';' before string constant",
        ),
        (
            "{ i = 1 1.0; }",
            "t.c:1:9: error: expected ';' before numeric constant",
        ),
        (
            "{ i = 1 return; }",
            "t.c:1:9: error: expected ';' before 'return'",
        ),
        ("{ i = 1", "t.c:1:8: error: expected ';' at end of input"),
        (
            "{ ;",
            "t.c:1:4: error: expected declaration or statement at end of input",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(&err(src), want, "{src}");
    }
}

#[test]
fn return_warnings() {
    // In the fixture the function returns int.
    with_parser(LP64, "{ return; }", |p| {
        p.parse_function_body().unwrap();
        let w: Vec<String> = p.warnings.iter().map(|w| w.headline()).collect();
        assert_eq!(
            w,
            vec!["t.c:1:3: warning: 'return' with no value, in function returning non-void"]
        );
    });
    with_parser(LP64, "{ return 1; }", |p| {
        if let Some(f) = &mut p.func {
            f.ret = Some(Type::Void.into());
        }
        let b = strip(p.parse_function_body().unwrap());
        let w: Vec<String> = p.warnings.iter().map(|w| w.headline()).collect();
        assert_eq!(
            w,
            vec!["t.c:1:10: warning: 'return' with a value, in function returning void"]
        );
        // The value is evaluated and discarded, then the function returns nothing.
        let Stmt::Compound(items) = b else { panic!() };
        assert!(
            matches!(&items[0], Stmt::Compound(v) if v.len() == 2 && v[1] == Stmt::Return(None))
        );
    });
}

#[test]
fn deep_statements_are_bounded() {
    let src = format!("{}{}", "{ if (1) ".repeat(3000), "; }".repeat(3000));
    let r = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || body(LP64, &src).map(|_| ()))
        .unwrap()
        .join()
        .unwrap();
    assert!(r.unwrap_err().contains("nested too deeply"));
}

/// A tiny deterministic generator (xorshift), so the test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next() % v.len() as u64) as usize]
    }
}

/// Random token soup and mutations of valid bodies never panic: `parse_function_body`
/// returns (Ok or a Diagnostic) on every one of them.
#[test]
fn random_token_sequences_never_panic() {
    let vocab = [
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ",",
        ":",
        "?",
        "=",
        "+=",
        "<<=",
        "+",
        "-",
        "*",
        "/",
        "%",
        "&",
        "&&",
        "|",
        "||",
        "!",
        "~",
        "^",
        "<",
        ">>",
        "==",
        "!=",
        "++",
        "--",
        ".",
        "->",
        "i",
        "u",
        "p",
        "vp",
        "a",
        "st",
        "sp",
        "fn",
        "vf",
        "old",
        "vfn",
        "d",
        "c",
        "b",
        "ci",
        "cst",
        "tp",
        "E1",
        "T_int",
        "zz",
        "x",
        "0",
        "1",
        "-1",
        "0u",
        "4294967296",
        "0x80000000",
        "1.5",
        "'a'",
        "\"s\"",
        "if",
        "else",
        "while",
        "do",
        "for",
        "switch",
        "case",
        "default",
        "break",
        "continue",
        "return",
        "goto",
        "sizeof",
        "__alignof__",
        "__extension__",
        "int",
        "struct",
        "__builtin_offsetof",
    ];
    let seeds = [
        "{ i = a[3] + *p; if (i < u) return st.x; }",
        "{ switch (i) { case 1: i++; break; default: ; } }",
        "{ for (i = 0; i < 10; i++) { p = &a[i]; *p += sp->y; } }",
        "{ l: i = fn(i, l) ? vf(\"%d\", c) : old(d); goto l; }",
    ];
    let src = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            let mut ran = 0;
            for n in 0..3000 {
                let text = if n % 2 == 0 {
                    let len = 1 + (rng.next() % 60) as usize;
                    let mut t = String::from("{ ");
                    for _ in 0..len {
                        t.push_str(rng.pick(&vocab));
                        t.push(' ');
                    }
                    t
                } else {
                    // Mutate a valid body: replace, insert or delete one token.
                    let seed = seeds[(rng.next() % seeds.len() as u64) as usize];
                    let mut toks: Vec<&str> = seed.split(' ').collect();
                    for _ in 0..1 + rng.next() % 3 {
                        let at = (rng.next() % toks.len() as u64) as usize;
                        match rng.next() % 3 {
                            0 => toks[at] = rng.pick(&vocab),
                            1 => toks.insert(at, rng.pick(&vocab)),
                            _ => {
                                if toks.len() > 1 {
                                    toks.remove(at);
                                }
                            }
                        }
                    }
                    toks.join(" ")
                };
                let _ = body(LP64, &text);
                ran += 1;
            }
            ran
        })
        .unwrap()
        .join()
        .expect("the parser panicked on a random input");
    assert_eq!(src, 3000);
}

/// Parses every C file named in `PHICC_PARSE_FILES` (whitespace-separated) with phicc's
/// headers and `-I /usr/include/csmith`, on each target in `PHICC_PARSE_TARGETS`
/// (default x86_64), and prints one line per file: `ok` or the first error. A
/// measuring tool for the csmith runs (`cargo test ... parse_files_from_env --
/// --ignored --nocapture`), not a check.
#[test]
#[ignore]
fn parse_files_from_env() {
    use crate::frontend::{preprocess, Target};
    let files = std::env::var("PHICC_PARSE_FILES").unwrap_or_default();
    let targets = std::env::var("PHICC_PARSE_TARGETS").unwrap_or_else(|_| "x86_64".into());
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            for t in targets.split_whitespace() {
                let target = Target::from_name(t).expect("target name");
                for f in files.split_whitespace() {
                    let mut opts = crate::compile_c::default_options();
                    opts.target = target;
                    opts.include_dirs.push("/usr/include/csmith".into());
                    let line = match preprocess(std::path::Path::new(f), &opts) {
                        Err(e) => format!("pp-error {e}"),
                        Ok(pp) => {
                            match super::parse_translation_unit(pp.tokens, &pp.sources, target) {
                                Ok(out) => {
                                    for w in &out.warnings {
                                        println!("WARN {t} {f}: {}", w.headline());
                                    }
                                    format!("ok ({} functions)", out.unit.functions.len())
                                }
                                Err(e) => format!("error {}", e.headline()),
                            }
                        }
                    };
                    println!("PARSE {t} {f}: {line}");
                }
            }
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn pragma_pack_inside_a_function_takes_effect() {
    with_parser(LP64, "{\n#pragma pack(1)\ni = 1;\n}", |p| {
        let b = p.parse_function_body().unwrap();
        assert_eq!(p.pack, Some(1));
        let Stmt::Compound(items) = b else { panic!() };
        assert_eq!(items.len(), 1, "the pragma is no statement");
    });
}
