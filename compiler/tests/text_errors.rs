//! Parse errors: each names the line and column of the offending token and says what was
//! wrong. Positions below were counted by hand (columns are 1-based characters).

use compiler::ir::text::{parse_module, ParseError};

fn error(src: &str) -> ParseError {
    match parse_module(src) {
        Ok(m) => panic!("parsed, but should not have:\n{src}\n{m:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn check(src: &str, line: u32, col: u32, message: &str) {
    let e = error(src);
    assert_eq!(
        (e.line, e.col, e.message.as_str()),
        (line, col, message),
        "source:\n{src}"
    );
}

/// `body` as the lines of a function `@f` whose first line is line 2.
fn func(body: &str) -> String {
    format!("func @f() -> void {{\n{body}\n}}\n")
}

#[test]
fn instruction_syntax_errors() {
    check(
        &func(".LBB0:\n    store i32 %0 %1\n    ret"),
        3,
        18,
        "expected `,` after store value, found `%1`",
    );
    check(
        &func(".LBB0:\n    %1 = ad i32 1, 2\n    ret"),
        3,
        10,
        "unknown instruction `ad`",
    );
    check(
        &func(".LBB0:\n    %1 = store i32 1, %0\n    ret"),
        3,
        10,
        "`store` does not define a value",
    );
    check(
        &func(".LBB0:\n    add i32 1, 2\n    ret"),
        3,
        5,
        "`add` defines a value: write `%N = add ...`",
    );
    check(
        &func(".LBB0:\n    %1 = cmp lt i32 1, 2\n    ret"),
        3,
        14,
        "unknown comparison predicate `lt`",
    );
    check(
        &func(".LBB0:\n    %1 = cast i32 %0 i64\n    ret"),
        3,
        22,
        "expected `to` after the cast operand, found `i64`",
    );
    check(
        &func(".LBB0:\n    %1 = phi i32 [%0 .LBB0]\n    ret"),
        3,
        22,
        "expected `,` after the phi's incoming value, found `.LBB0`",
    );
    check(
        &func(".LBB0:\n    %1 = alloca i32, -1, 4\n    ret"),
        3,
        22,
        "the alloca's size must be between 0 and 4294967295, found -1",
    );
    check(
        &func(".LBB0:\n    ret void"),
        3,
        9,
        "a void `ret` takes no type: write `ret` alone",
    );
    check(
        &func(".LBB0:\n    br"),
        3,
        7,
        "expected a target block `.LBBN` after `br`, found end of line",
    );
    check(
        &func(".LBB0:\n    %1 = load i32 ,"),
        3,
        19,
        "expected the load address (`%N` or a literal), found `,`",
    );
}

#[test]
fn literal_errors() {
    check(
        &func(".LBB0:\n    store i8 300, %0\n    ret"),
        3,
        14,
        "literal 300 does not fit i8",
    );
    check(
        &func(".LBB0:\n    %1 = add i32 1, 70000:i16\n    ret"),
        3,
        21,
        "literal 70000 does not fit i16",
    );
    check(
        &func(".LBB0:\n    switch u8 %0, .LBB0 [256: .LBB0]"),
        3,
        26,
        "literal 256 does not fit u8",
    );
    check(
        "global @g : 1 align 1 = [i8 -129]",
        1,
        29,
        "literal -129 does not fit i8",
    );
    check(
        &func(".LBB0:\n    store void 0, %0\n    ret"),
        3,
        16,
        "literal 0 does not fit void",
    );
    check(
        &func(".LBB0:\n    %99999999999999 = copy i32 1\n    ret"),
        3,
        5,
        "value number `%99999999999999` is too large (at most 16777215)",
    );
    check(
        &func(".LBB0:\n    %16777216 = copy i32 1\n    ret"),
        3,
        5,
        "value number `%16777216` is too large (at most 16777215)",
    );
    check(
        &func(".LBB0:\n    %1 = copy u64 18446744073709551616\n    ret"),
        3,
        19,
        "literal `18446744073709551616` is too large",
    );
    check(
        &func(".LBB0:\n    %1 = copy i32 12ab\n    ret"),
        3,
        21,
        "unexpected 'a' in literal",
    );
    check(
        "global @g : 8 align 8 = [ptr @h+-4]",
        1,
        33,
        "expected an unsigned offset after `+`",
    );
}

#[test]
fn string_errors() {
    check(
        "global @s : 3 align 1 = [str \"abc]",
        1,
        30,
        "unterminated string",
    );
    check(
        "global @s : 3 align 1 = [str \"abc\n\"]",
        1,
        30,
        "unterminated string",
    );
    check(
        "global @s : 3 align 1 = [str \"a\\qc\"]",
        1,
        32,
        "invalid escape in string: expected `\\n`, `\\t`, `\\\\`, `\\\"` or two hex digits",
    );
    check(
        "global @s : 3 align 1 = [str \"a\\0\"]",
        1,
        32,
        "invalid escape in string: expected `\\n`, `\\t`, `\\\\`, `\\\"` or two hex digits",
    );
}

#[test]
fn block_structure_errors() {
    check(
        &func(".LBB0:\n    %0 = copy i32 1\n.LBB1:\n    ret"),
        4,
        1,
        "block .LBB0 has no terminator",
    );
    check(
        &func(".LBB0:\n    %0 = copy i32 1"),
        4,
        1,
        "block .LBB0 has no terminator",
    );
    check(
        &func(".LBB0:\n    ret\n    ret"),
        4,
        5,
        "instruction after the terminator of .LBB0",
    );
    check(
        &func("    ret"),
        2,
        5,
        "instruction before the first block label",
    );
    check(
        &func(".LBB0:\n    br .LBB0\n.LBB0:\n    ret"),
        4,
        1,
        "block .LBB0 is defined twice in `@f`",
    );
    check(
        &func(".LBB0: ret"),
        2,
        8,
        "expected end of line after the block label, found `ret`",
    );
    check(
        "func @f() -> void {\n.LBB0:\n    ret\n",
        4,
        1,
        "missing `}` at the end of function `@f` (line 1)",
    );
    check(
        "func @f() -> void {\n.LBB0:\n    ret\nfunc @g() -> void {\n}",
        4,
        1,
        "expected `}` to close function `@f` before `func`",
    );
    check(
        "func @f() -> void { .LBB0:\n}",
        1,
        21,
        "expected end of line after `{`, found `.LBB0`",
    );
    check(
        "func @f() -> void {\n} x",
        2,
        3,
        "expected end of line after `}`, found `x`",
    );
    // The same label in two functions is the verifier's business, not the parser's.
    assert!(parse_module(&format!(
        "{}{}",
        func(".LBB0:\n    ret"),
        func(".LBB0:\n    ret")
    ))
    .is_ok());
}

#[test]
fn item_errors() {
    check("declare @f(i33) -> void", 1, 12, "unknown type `i33`");
    check(
        "\n\nhello",
        3,
        1,
        "expected `global`, `declare` or `func`, found `hello`",
    );
    check(
        "declare @f(i32) -> void junk",
        1,
        25,
        "expected end of line after the declaration, found `junk`",
    );
    check(
        "declare @f(..., i32) -> void",
        1,
        15,
        "expected `)` after `...`, found `,`",
    );
    check(
        "func static static @f() -> void {\n}",
        1,
        13,
        "attribute `static` written twice",
    );
    check(
        "func extern @f() -> void {\n}",
        1,
        6,
        "unknown function attribute `extern`",
    );
    check(
        "func align 16 align 16 @f() -> void {\n}",
        1,
        15,
        "attribute `align` written twice",
    );
    check(
        "func align 24 @f() -> void {\n}",
        1,
        12,
        "the function's alignment must be a power of two, found 24",
    );
    check(
        "func align @f() -> void {\n}",
        1,
        12,
        "expected the function's alignment, found `@f`",
    );
    check(
        "global @g : 4 align 4 = [i32 1 i32 2]",
        1,
        32,
        "expected `,` or `]` after an initializer item, found `i32`",
    );
    check(
        "global @g : 4 = zeroinit",
        1,
        15,
        "expected `align` after the global's size, found `=`",
    );
}

#[test]
fn lexical_errors_and_odd_input() {
    let lossy = String::from_utf8_lossy(b"func @f\xff() -> void {\n}");
    check(&lossy, 1, 8, "unexpected character '\u{fffd}'");
    check("global @", 1, 8, "expected a name after `@`");
    check("\u{1F600} x", 1, 1, "unexpected character '\u{1F600}'");
    check(
        "global @g : 4 align 4 = [i32 1] #",
        1,
        33,
        "unexpected character '#'",
    );
}

#[test]
fn with_file_prefixes_the_position() {
    let e = error(&func(".LBB0:\n    store i32 %0 %1\n    ret"));
    assert_eq!(
        e.with_file("t.ir"),
        "t.ir:3:18: expected `,` after store value, found `%1`"
    );
    assert_eq!(
        e.to_string(),
        "3:18: expected `,` after store value, found `%1`"
    );
}
