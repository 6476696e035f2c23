//! Macro replacement: object-like and function-like macros, `#`, `##`, variadic
//! macros, rescanning and blue paint, the standard's examples (C99 6.10.3.5 EXAMPLE 3,
//! 4, 5, 6, 7 and the examples of 6.10.3.3 and 6.10.3.4) with their documented
//! results, builtins, `#line`, pragmas and `-D`.

mod frontend_support;

use compiler::frontend::{preprocess_str, PreprocessOptions, TokenKind};
use frontend_support::{pp, pp_warnings, pp_with, run};

/// The standard's expected texts contain no macros, so preprocessing them gives their
/// tokens: comparing spellings ignores whitespace differences.
fn same_tokens(input: &str, expected: &str) {
    assert_eq!(pp(input), pp(expected), "input:\n{input}");
}

#[test]
fn c99_example_3() {
    let input = r#"
#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let expected = r#"
f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };
"#;
    same_tokens(input, expected);
}

#[test]
fn c99_example_4() {
    let input = r#"
#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let expected = r#"
printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
"vers2.h"
"hello";
"hello" ", world"
"#;
    same_tokens(input, expected);
}

#[test]
fn c99_example_5_placemarkers() {
    let input = "#define t(x,y,z) x ## y ## z\n\
                 int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n t(10,,), t(,11,), t(,,12), t(,,) };";
    same_tokens(input, "int j[] = { 123, 45, 67, 89, 10, 11, 12, };");
}

#[test]
fn c99_example_6_redefinitions() {
    let valid = "#define OBJ_LIKE (1-1)\n\
                 #define OBJ_LIKE /* white space */ (1-1) /* other */\n\
                 #define FUNC_LIKE(a) ( a )\n\
                 #define FUNC_LIKE( a )( /* note the white space */ \\\n\
                 a /* other stuff on this line\n */ )\n";
    assert_eq!(pp_warnings(valid), Vec::<String>::new());
    for (i, invalid) in [
        "#define OBJ_LIKE (0) // different token sequence",
        "#define OBJ_LIKE (1 - 1) // different white space",
        "#define FUNC_LIKE(b) ( a ) // different parameter usage",
        "#define FUNC_LIKE(b) ( b ) // different parameter spelling",
    ]
    .iter()
    .enumerate()
    {
        let name = if i < 2 { "OBJ_LIKE" } else { "FUNC_LIKE" };
        let text = format!("{valid}{invalid}\n{name}");
        // Redefinition is a warning (as in gcc) and the new definition wins.
        assert_eq!(
            pp_warnings(&text),
            [format!("t.c:7:9: warning: \"{name}\" redefined")],
            "{invalid}"
        );
    }
    let out = run(&format!("{valid}#define OBJ_LIKE (0)\nOBJ_LIKE")).unwrap();
    assert_eq!(frontend_support::spellings_of(&out.tokens), "( 0 )");
    let warning = out.warnings[0].to_string();
    // The note points at the latest (identical) definition.
    assert!(
        warning.ends_with("t.c:2:9: note: this is the location of the previous definition"),
        "{warning}"
    );
}

#[test]
fn c99_example_7_variadic() {
    let input = r#"
#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let expected = r#"
fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));
"#;
    same_tokens(input, expected);
}

#[test]
fn hash_hash_example_of_6_10_3_3() {
    let input = "#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n\
                 #define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);";
    assert_eq!(pp(input), r#"char p [ ] = "x ## y" ;"#);
}

#[test]
fn rescanning_example_of_6_10_3_4() {
    // Unspecified by the standard; gcc (and phicc) give 2*9*g.
    assert_eq!(
        pp("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)"),
        "2 * 9 * g"
    );
}

#[test]
fn object_like_macros() {
    assert_eq!(pp("#define N 10\nint a[N];"), "int a [ 10 ] ;");
    assert_eq!(pp("#define E\n[E]"), "[ ]");
    assert_eq!(pp("#define A B\n#define B C\n#define C 3\nA"), "3");
    assert_eq!(pp("#define N 1\n#undef N\nN"), "N");
    assert_eq!(
        pp("#define X(a) a\n#define N X\nN(4)"),
        "4",
        "an expansion may name a function-like macro"
    );
}

#[test]
fn blue_paint_stops_self_reference() {
    assert_eq!(pp("#define foo foo + 1\nfoo"), "foo + 1");
    assert_eq!(pp("#define a b\n#define b a\na b"), "a b");
    assert_eq!(pp("#define f(x) x f\nf(1)(2)"), "1 f ( 2 )");
    // `g` is painted while it is being expanded, and stays painted in f's argument.
    assert_eq!(pp("#define f(x) x\n#define g f(g)\ng"), "g");
    // A painted identifier stays unexpandable after its macro's expansion ends.
    assert_eq!(pp("#define id(x) x\n#define q id(q)\nid(q)"), "q");
}

#[test]
fn function_like_macro_invocations() {
    assert_eq!(
        pp("#define f(x) <x>\nf + f(1)"),
        "f + < 1 >",
        "no ( : not an invocation"
    );
    assert_eq!(
        pp("#define f(x) <x>\nf\n\n  (1)"),
        "< 1 >",
        "newlines are whitespace"
    );
    assert_eq!(pp("#define f(x) <x>\n#define E\nf E (1)"), "f ( 1 )");
    assert_eq!(pp("#define first(a, b) a\nfirst((1,2), 3)"), "( 1 , 2 )");
    assert_eq!(pp("#define e(x) [x]\ne() e( )"), "[ ] [ ]");
    assert_eq!(pp("#define z() 0\nz() z( )"), "0 0");
    assert_eq!(pp("#define two(a,b) a|b\ntwo(,) two(1,)"), "| 1 |");
    // Arguments are fully expanded before substitution, unless `#`/`##` operands.
    assert_eq!(
        pp("#define N 5\n#define id(x) x\n#define s(x) #x\n#define xs(x) s(x)\nid(N) s(N) xs(N)"),
        r#"5 "N" "5""#
    );
    // A directive inside the arguments is carried out (as gcc does).
    assert_eq!(pp("#define f(x) x\nf(1\n#define Y 2\nY)"), "1 2");
}

#[test]
fn deeply_nested_invocations_do_not_overflow() {
    let depth = 3_000;
    let text = format!(
        "#define id(x) x\n{}1{}",
        "id(".repeat(depth),
        ")".repeat(depth)
    );
    assert_eq!(pp(&text), "1");
    let text = format!(
        "#define f(x) (x)\n{}1{}",
        "f(".repeat(2000),
        ")".repeat(2000)
    );
    let expected = format!("{}1{}", "( ".repeat(2000), " )".repeat(2000));
    assert_eq!(pp(&text), expected);
}

#[test]
fn variadic_macros() {
    let defs = "#define v(a, ...) a:__VA_ARGS__\n";
    assert_eq!(
        pp(&format!("{defs}v(1) v(1,) v(1,2,3) v((a,b),(c,d))")),
        "1 : 1 : 1 : 2 , 3 ( a , b ) : ( c , d )"
    );
    // GNU: `, ## __VA_ARGS__` drops the comma when there are no variable arguments.
    let gnu = "#define e(fmt, ...) p(fmt, ## __VA_ARGS__)\n";
    assert_eq!(
        pp(&format!("{gnu}e(\"a\") e(\"a\", 1, 2)")),
        r#"p ( "a" ) p ( "a" , 1 , 2 )"#
    );
    // GNU named variable arguments.
    assert_eq!(
        pp("#define n(first, rest...) first+rest\nn(1, 2, 3)"),
        "1 + 2 , 3"
    );
}

#[test]
fn stringizing() {
    let s = "#define s(x) #x\n";
    assert_eq!(
        pp(&format!("{s}s(  a   +\n   b  ) s(a+b)")),
        r#""a + b" "a+b""#
    );
    assert_eq!(
        pp(&format!("{s}s(\"a\\n\" '\\0' \"\\\\\")")),
        r#""\"a\\n\" '\\0' \"\\\\\"""#
    );
    assert_eq!(pp(&format!("{s}s(/* c */ x /* c */ y /**/)")), r#""x y""#);
    let out = run(&format!("{s}s(\"q\")")).unwrap();
    assert_eq!(out.tokens[0].kind, TokenKind::Str(b"\"q\"".to_vec().into()));
}

#[test]
fn token_pasting() {
    let cat = "#define cat(a, b) a ## b\n";
    assert_eq!(
        pp(&format!(
            "{cat}cat(x, 1) cat(+, =) cat(<<, =) cat(1, e5) cat(., 5) cat(u, 8)"
        )),
        "x1 += <<= 1e5 .5 u8"
    );
    assert_eq!(
        pp(&format!("{cat}cat(a b, c d)")),
        "a bc d",
        "only the adjacent tokens are pasted"
    );
    // The pasted identifier is rescanned.
    assert_eq!(pp(&format!("{cat}#define xy 42\ncat(x, y)")), "42");
    // `##` in an object-like macro.
    assert_eq!(pp("#define P a ## b\nP"), "ab");
    // The operands of ## are not expanded first.
    assert_eq!(pp(&format!("{cat}#define one 1\ncat(one, 2)")), "one2");
}

#[test]
fn builtin_macros() {
    assert_eq!(pp("a\n__LINE__\n\n__LINE__"), "a 2 4");
    assert_eq!(pp("__FILE__"), r#""t.c""#);
    assert_eq!(
        pp("__STDC__ __STDC_VERSION__ __STDC_HOSTED__"),
        "1 199901L 1"
    );
    assert_eq!(pp("__DATE__ __TIME__"), r#""Jan  1 1970" "00:00:00""#);
    // __LINE__ inside a macro is the line of the invocation.
    assert_eq!(pp("#define L __LINE__\n\n\nL"), "4");
    assert_eq!(
        pp("#line 100 \"foo.c\"\n__LINE__ __FILE__\n__LINE__"),
        r#"100 "foo.c" 101"#
    );
    assert_eq!(pp("#define N 7\n#line N\n__LINE__"), "7");
    assert_eq!(pp("# 50 \"x.c\" 2\n__LINE__"), "50");
}

#[test]
fn command_line_defines() {
    let opts = PreprocessOptions {
        defines: vec![
            ("A".to_string(), None),
            ("B".to_string(), Some("2+3".to_string())),
            ("F(x)".to_string(), Some("[x]".to_string())),
        ],
        ..PreprocessOptions::default()
    };
    assert_eq!(pp_with("A B F(9)", &opts), "1 2 + 3 [ 9 ]");
    let bad = PreprocessOptions {
        defines: vec![("1X".to_string(), None)],
        ..PreprocessOptions::default()
    };
    let err = preprocess_str("t.c", "", &bad).unwrap_err();
    assert_eq!(
        err.headline(),
        "<command-line>:1:9: error: macro names must be identifiers"
    );
}

#[test]
fn pragma_pack_is_handed_to_the_parser() {
    let out = run("#define N 4\n#pragma pack(push, N)\nint x;\n_Pragma(\"pack(pop)\") int y;\n#pragma weird stuff\n#pragma once").unwrap();
    let kinds: Vec<String> = out
        .tokens
        .iter()
        .map(|t| match &t.kind {
            TokenKind::Pragma(inner) => {
                format!("#pragma[{}]", frontend_support::spellings_of(inner))
            }
            _ => t.spelling.to_string(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "#pragma[pack ( push , 4 )]",
            "int",
            "x",
            ";",
            "#pragma[pack ( pop )]",
            "int",
            "y",
            ";",
            ""
        ]
    );
}

#[test]
fn expanded_tokens_report_the_invocation_site() {
    let out = run("#define X 1 + \\\n  2\n#define ID(a) a\nint v =\n   X; ID(  q)").unwrap();
    let one = &out.tokens[3];
    assert_eq!(one.spelling.as_ref(), "1");
    assert_eq!((one.loc.line, one.loc.col), (5, 4));
    assert!(one.from_macro);
    let q = &out.tokens[7];
    assert_eq!(q.spelling.as_ref(), "q");
    assert_eq!(
        (q.loc.line, q.loc.col),
        (5, 12),
        "argument tokens keep their own position"
    );
    assert!(!out.tokens[2].from_macro);
}

#[test]
fn defined_is_an_ordinary_identifier_outside_if() {
    assert_eq!(pp("defined(X)"), "defined ( X )");
}
