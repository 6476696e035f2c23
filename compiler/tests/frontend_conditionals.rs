//! Conditional inclusion: `#if` arithmetic in intmax_t/uintmax_t (signed and unsigned,
//! the usual conversions, shifts, `?:`, short-circuit), `defined`, character
//! constants per target, and the skipping rules of `#ifdef`/`#elif`/`#else`.

mod frontend_support;

use compiler::frontend::Target;
use frontend_support::{opts, pp, pp_err, pp_with};

/// Whether `#if expr` takes its branch.
fn truth(expr: &str) -> bool {
    truth_on(expr, Target::X86_64)
}

fn truth_on(expr: &str, target: Target) -> bool {
    let text = format!("#if {expr}\nT\n#else\nF\n#endif");
    match pp_with(&text, &opts(target)).as_str() {
        "T" => true,
        "F" => false,
        other => panic!("#if {expr}: unexpected output {other}"),
    }
}

#[test]
fn arithmetic_and_precedence() {
    assert!(truth("1 + 2 * 3 == 7"));
    assert!(truth("(1 + 2) * 3 == 9"));
    assert!(truth("1 + 2 << 1 == 6"));
    assert!(
        truth("2 | 1 ^ 3 & 1 == 3"),
        "== binds tighter than &, & than ^, ^ than |"
    );
    assert!(truth(
        "7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1"
    ));
    assert!(truth(
        "!0 == 1 && !5 == 0 && ~0 == -1 && - -3 == 3 && +4 == 4"
    ));
    assert!(truth("(1, 0) == 0 && (0, 2) == 2"));
    assert!(!truth("0"));
    assert!(truth("0x10 == 16 && 010 == 8 && 10L == 10 && 10ull == 10"));
}

#[test]
fn signed_and_unsigned_values() {
    assert!(!truth("-1 > 0"));
    assert!(truth("-1 > 0u"), "-1 converts to UINTMAX_MAX");
    assert!(
        truth("0xffffffffffffffff == -1"),
        "too big for intmax_t: unsigned"
    );
    assert!(truth("18446744073709551615 == -1"));
    assert!(truth("-9223372036854775807 - 1 < 0"));
    assert!(
        truth("9223372036854775807 + 1 < 0"),
        "signed overflow wraps (gcc warns)"
    );
    assert!(truth("(0u - 1) / 2 == 0x7fffffffffffffff"));
    assert!(truth("~0u == 18446744073709551615u"));
    assert!(truth("-1 / 2u == 0x7fffffffffffffff"), "unsigned division");
    assert!(
        truth("(1 ? -1 : 0u) > 0"),
        "?: takes the common type of both arms"
    );
    assert!(!truth("(1 ? -1 : 0) > 0"));
    assert!(truth("(-1 < 0u) == 0"), "comparisons give signed 0 or 1");
}

#[test]
fn shifts() {
    assert!(truth("1 << 63 < 0"));
    assert!(truth("1u << 63 > 0"));
    assert!(
        truth("-16 >> 2 == -4"),
        "arithmetic right shift of signed values"
    );
    assert!(truth("(0u - 16) >> 2 == 0x3ffffffffffffffc"));
    assert!(truth("1 << 64 == 0 && -1 >> 64 == -1 && 1u >> 70 == 0"));
    assert!(
        truth("(1 << 2u) - 5 < 0"),
        "the result has the left operand's type"
    );
    assert!(
        truth("8 << -1 == 4"),
        "a negative count shifts the other way (gcc)"
    );
}

#[test]
fn conditional_operator() {
    assert!(truth("1 ? 2 : 3 ? 4 : 5"));
    assert!(truth("(0 ? 2 : 0 ? 4 : 5) == 5"));
    assert!(truth("(1 ? 0 ? 6 : 7 : 8) == 7"));
    assert!(truth("(0 ? 1 : 2, 3) == 3"));
}

#[test]
fn division_by_zero_is_an_error_only_when_evaluated() {
    assert!(truth("1 || 1 / 0"));
    assert!(!truth("0 && 1 % 0"));
    assert!(truth("0 ? 1 / 0 : 2"));
    assert!(truth("1 ? 2 : 1 / 0"));
    assert_eq!(
        pp_err("#if 1 / 0\n#endif"),
        "t.c:1:7: error: division by zero in #if"
    );
    assert_eq!(
        pp_err("#if 0 || 2 % (1 - 1)\n#endif"),
        "t.c:1:12: error: division by zero in #if"
    );
    assert_eq!(
        pp_err("#if 1 ? 1 / 0 : 1\n#endif"),
        "t.c:1:11: error: division by zero in #if"
    );
}

#[test]
fn character_constants_follow_the_target() {
    assert!(truth(
        "'A' == 65 && '\\n' == 10 && '\\0' == 0 && 'ab' == 0x6162"
    ));
    for target in Target::ALL {
        let signed = target.char_is_signed();
        assert_eq!(truth_on("'\\377' < 0", target), signed, "{target:?}");
        assert_eq!(truth_on("'\\xff' == 255", target), !signed, "{target:?}");
    }
}

#[test]
fn defined_and_identifiers() {
    let defs = "#define X 3\n#define E\n";
    let check = |expr: &str| pp(&format!("{defs}#if {expr}\nT\n#else\nF\n#endif")) == "T";
    assert!(check("defined X && defined(E) && defined ( X )"));
    assert!(check("!defined Y && !defined(Y)"));
    assert!(check("defined X && X > 2"));
    assert!(
        check("UNKNOWN == 0 && (UNKNOWN + 1) == 1"),
        "unknown identifiers are 0"
    );
    assert!(check("int == 0"), "keywords too");
    // `defined` produced by a macro is evaluated (as gcc does).
    let d = "#define HAVE_X defined(X)\n#define X\n#if HAVE_X\nT\n#endif";
    assert_eq!(pp(d), "T");
    // Macros, including function-like ones, are expanded.
    assert_eq!(
        pp("#define SQ(x) ((x)*(x))\n#if SQ(3) == 9\nT\n#endif"),
        "T"
    );
}

#[test]
fn ifdef_ifndef_elif_else() {
    assert_eq!(
        pp("#define A\n#ifdef A\na\n#else\nb\n#endif\n#ifndef A\nc\n#else\nd\n#endif"),
        "a d"
    );
    assert_eq!(
        pp("#if 0\na\n#elif 0\nb\n#elif 2\nc\n#elif 1\nd\n#else\ne\n#endif"),
        "c"
    );
    assert_eq!(pp("#if 0\na\n#elif 0\nb\n#else\ne\n#endif"), "e");
    // Nested groups inside skipped groups are skipped whatever their conditions.
    let nested =
        "#if 0\n#if 1\na\n#else\nb\n#endif\n#elif 1\n#ifdef NOPE\nc\n#else\nd\n#endif\n#endif";
    assert_eq!(pp(nested), "d");
}

#[test]
fn skipped_groups_are_not_evaluated_or_checked() {
    // An #elif after a taken branch, and an #if inside a skipped group, are never
    // evaluated.
    assert_eq!(pp("#if 1\na\n#elif 1/0\nb\n#elif garbage (\n#endif"), "a");
    assert_eq!(pp("#if 0\n#if 1/0 +\n#endif\n#endif\nok"), "ok");
    // Unknown directives, stray quotes and bad numbers are fine in skipped text.
    assert_eq!(
        pp("#if 0\n#frobnicate\ndon't 08 1.2.3 \"open\n#error no\n#endif\nok"),
        "ok"
    );
    assert_eq!(pp("#ifdef X\n#include <nonexistent.h>\n#endif\nok"), "ok");
}

#[test]
fn deeply_parenthesized_expression() {
    let depth = 50_000;
    let expr = format!("{}1{} == 1", "(".repeat(depth), ")".repeat(depth));
    assert!(truth(&expr));
    let unary = format!("{}1 == 1", "- - ".repeat(depth));
    assert!(truth(&unary));
}
