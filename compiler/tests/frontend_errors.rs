//! Every error the lexer and preprocessor report, with its exact `file:line:col`
//! (1-based, columns in characters) and message. Columns were counted by hand.

mod frontend_support;

use frontend_support::{pp_err, pp_warnings};

fn check(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        assert_eq!(pp_err(input), format!("t.c:{expected}"), "input: {input:?}");
    }
}

#[test]
fn lexer_and_literal_errors() {
    check(&[
        ("int x; /* oops\n", "1:8: error: unterminated comment"),
        (
            "char c = 'a;\n",
            "1:10: error: missing terminating ' character",
        ),
        (
            "char *s = \"abc;\n",
            "1:11: error: missing terminating \" character",
        ),
        (
            "int x = 08;",
            "1:9: error: invalid digit \"8\" in octal constant",
        ),
        (
            "double d = 1.2.3;",
            "1:12: error: invalid suffix \".3\" on floating constant",
        ),
        (
            "int x = 12abc;",
            "1:9: error: invalid suffix \"abc\" on integer constant",
        ),
        (
            "int x = 0x;",
            "1:9: error: invalid suffix \"x\" on integer constant",
        ),
        ("double d = 1e+;", "1:12: error: exponent has no digits"),
        (
            "double d = 0x1.8;",
            "1:12: error: hexadecimal floating constants require an exponent",
        ),
        (
            "x = 99999999999999999999;",
            "1:5: error: integer constant is too large for its type",
        ),
        ("char c = '';", "1:10: error: empty character constant"),
        (
            "char *s = \"\\400\";",
            "1:11: error: octal escape sequence out of range",
        ),
        (
            "char *s = \"\\x\";",
            "1:11: error: \\x used with no following hex digits",
        ),
        (
            "int w = U'a';",
            "1:9: error: wide character constants (prefix 'U') are not supported",
        ),
        (
            "int w = u\"a\";",
            "1:9: error: wide string literals (prefix 'u') are not supported",
        ),
        // A splice moves the position to the next physical line.
        (
            "int a = \\\n  08;",
            "2:3: error: invalid digit \"8\" in octal constant",
        ),
        (
            "/* é */ int é = 08;",
            "1:17: error: invalid digit \"8\" in octal constant",
        ),
    ]);
}

#[test]
fn macro_definition_errors() {
    check(&[
        (
            "#define",
            "1:2: error: no macro name given in #define directive",
        ),
        ("#define 3 x", "1:9: error: macro names must be identifiers"),
        (
            "#define defined",
            "1:9: error: \"defined\" cannot be used as a macro name",
        ),
        (
            "#define f(a, a) a",
            "1:14: error: duplicate macro parameter \"a\"",
        ),
        (
            "#define f(a",
            "1:11: error: missing ')' in macro parameter list",
        ),
        (
            "#define f(a b) a",
            "1:13: error: expected ',' or ')', found \"b\"",
        ),
        (
            "#define f(1) a",
            "1:11: error: expected parameter name, found \"1\"",
        ),
        (
            "#define f(..., a) a",
            "1:14: error: missing ')' in macro parameter list",
        ),
        (
            "#define s(x) #y",
            "1:14: error: '#' is not followed by a macro parameter",
        ),
        (
            "#define c(x) x ##",
            "1:16: error: '##' cannot appear at either end of a macro expansion",
        ),
        (
            "#define c ## x",
            "1:11: error: '##' cannot appear at either end of a macro expansion",
        ),
        (
            "#define f(x) __VA_ARGS__",
            "1:14: error: __VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
        ),
        (
            "#undef",
            "1:2: error: no macro name given in #undef directive",
        ),
        (
            "#undef \"x\"",
            "1:8: error: macro names must be identifiers",
        ),
    ]);
}

#[test]
fn macro_invocation_errors() {
    check(&[
        (
            "#define f(a,b) a\nf(1)",
            "2:1: error: macro \"f\" requires 2 arguments, but only 1 given",
        ),
        (
            "#define f(a,b) a\n  f(1,2,3)",
            "2:3: error: macro \"f\" passed 3 arguments, but takes just 2",
        ),
        (
            "#define z() 0\nz(1)",
            "2:1: error: macro \"z\" passed 1 arguments, but takes just 0",
        ),
        (
            "#define f(a) a\nint x;\nf(1, 2",
            "3:1: error: unterminated argument list invoking macro \"f\"",
        ),
        (
            "#define cat(a,b) a##b\nx = cat(+,-);",
            "2:5: error: pasting \"+\" and \"-\" does not give a valid preprocessing token",
        ),
        (
            "#define cat(a,b) a##b\ncat(/,/)",
            "2:1: error: pasting \"/\" and \"/\" does not give a valid preprocessing token",
        ),
        // A bad token from a macro body is reported where the macro is used; one from
        // an argument where it is written.
        (
            "#define BAD 09\nint z = BAD;",
            "2:9: error: invalid digit \"9\" in octal constant",
        ),
        (
            "#define ID(x) x\nint y = ID(  09  );",
            "2:14: error: invalid digit \"9\" in octal constant",
        ),
        (
            "_Pragma(1)",
            "1:1: error: _Pragma takes a parenthesized string literal",
        ),
    ]);
}

#[test]
fn conditional_errors() {
    check(&[
        ("#else", "1:2: error: #else without #if"),
        ("#elif 1", "1:2: error: #elif without #if"),
        ("\n  #endif", "2:4: error: #endif without #if"),
        (
            "#if 1\n#else\n#else\n#endif",
            "3:2: error: #else after #else",
        ),
        (
            "#if 0\n#else\n#elif 1\n#endif",
            "3:2: error: #elif after #else",
        ),
        ("#ifdef X\nint", "1:2: error: unterminated #ifdef"),
        ("#if 1\n#ifndef X\n#endif", "1:2: error: unterminated #if"),
        (
            "#ifdef\n#endif",
            "1:2: error: no macro name given in #ifdef directive",
        ),
        (
            "#ifndef 1\n#endif",
            "1:9: error: macro names must be identifiers",
        ),
        ("#if\n#endif", "1:2: error: #if with no expression"),
        (
            "#if 0\n#elif\n#endif",
            "2:2: error: #elif with no expression",
        ),
        (
            "#if 1 +\n#endif",
            "1:7: error: operator '+' has no right operand",
        ),
        (
            "#if * 2\n#endif",
            "1:5: error: operator '*' has no left operand",
        ),
        ("#if (1\n#endif", "1:5: error: missing ')' in expression"),
        ("#if 1)\n#endif", "1:6: error: missing '(' in expression"),
        (
            "#if ()\n#endif",
            "1:6: error: missing expression between '(' and ')'",
        ),
        (
            "#if 1 2\n#endif",
            "1:7: error: missing binary operator before token \"2\"",
        ),
        (
            "#if 1 (2)\n#endif",
            "1:7: error: missing binary operator before token \"(\"",
        ),
        (
            "#if 1.0\n#endif",
            "1:5: error: floating constant in preprocessor expression",
        ),
        (
            "#if \"s\"\n#endif",
            "1:5: error: token \"\"s\"\" is not valid in preprocessor expressions",
        ),
        (
            "#if 1 = 1\n#endif",
            "1:7: error: token \"=\" is not valid in preprocessor expressions",
        ),
        ("#if 1 : 2\n#endif", "1:7: error: ':' without preceding '?'"),
        ("#if 1 ? 2\n#endif", "1:7: error: '?' without following ':'"),
        (
            "#if defined\n#endif",
            "1:5: error: operator \"defined\" requires an identifier",
        ),
        (
            "#if defined(X\n#endif",
            "1:13: error: missing ')' after \"defined\"",
        ),
        (
            "#if 'ab\n#endif",
            "1:5: error: missing terminating ' character",
        ),
        (
            "#if 08\n#endif",
            "1:5: error: invalid digit \"8\" in octal constant",
        ),
    ]);
}

#[test]
fn other_directive_errors() {
    check(&[
        ("#foo", "1:2: error: invalid preprocessing directive #foo"),
        (
            "# 12x",
            "1:3: error: \"12x\" after #line is not a positive integer",
        ),
        (
            "#include",
            "1:2: error: #include expects \"FILENAME\" or <FILENAME>",
        ),
        (
            "#include foo",
            "1:10: error: #include expects \"FILENAME\" or <FILENAME>",
        ),
        ("#include \"\"", "1:10: error: empty filename in #include"),
        (
            "#line x",
            "1:7: error: \"x\" after #line is not a positive integer",
        ),
        ("#line 5 x", "1:9: error: invalid filename \"x\""),
        ("#error", "1:2: error: #error"),
        (
            "int x;\n  # error  hello,   world  /* c */ !",
            "2:5: error: #error hello, world !",
        ),
    ]);
}

#[test]
fn warnings() {
    assert_eq!(
        pp_warnings("#warning careful now"),
        ["t.c:1:2: warning: #warning careful now"]
    );
    assert_eq!(
        pp_warnings("#define A 1\n#define A 2"),
        ["t.c:2:9: warning: \"A\" redefined"]
    );
    assert_eq!(
        pp_warnings("#define A 1\n#define A 1"),
        Vec::<String>::new()
    );
    assert_eq!(
        pp_warnings("#define __FILE__ x"),
        ["t.c:1:9: warning: \"__FILE__\" redefined"]
    );
    assert_eq!(
        pp_warnings("#undef __LINE__"),
        ["t.c:1:8: warning: undefining \"__LINE__\""]
    );
    assert_eq!(
        pp_warnings("#ifdef A B\n#endif"),
        ["t.c:1:10: warning: extra tokens at end of #ifdef directive"]
    );
    assert_eq!(
        pp_warnings("#if 1\n#else x\n#endif y"),
        [
            "t.c:2:7: warning: extra tokens at end of #else directive",
            "t.c:3:8: warning: extra tokens at end of #endif directive"
        ]
    );
    assert_eq!(
        pp_warnings("int c = 'ab';"),
        ["t.c:1:9: warning: multi-character character constant"]
    );
    assert_eq!(
        pp_warnings("char *s = \"\\q\";"),
        ["t.c:1:11: warning: unknown escape sequence: '\\q'"]
    );
}
