//! Tests of the expansion budgets (`EXPANSION_BUDGET`, `ARGUMENT_COPY_BUDGET`): a
//! runaway expansion is refused with a clear error at an invocation that crossed a
//! budget; an expansion within them is untouched.

use super::{preprocess_str, PreprocessOptions, ARGUMENT_COPY_BUDGET, EXPANSION_BUDGET};
use crate::frontend::token::TokenKind;

/// `D(D(...D(y)...))`, `depth` invocations deep, after `#define D(x) x x`: the
/// invocations' replacement lists (innermost first) have 2, 4, ..., 2^depth tokens.
fn doubling(depth: u32) -> String {
    let mut s = String::from("#define D(x) x x\n");
    for _ in 0..depth {
        s.push_str("D(");
    }
    s.push('y');
    for _ in 0..depth {
        s.push(')');
    }
    s.push('\n');
    s
}

#[test]
fn a_runaway_expansion_is_refused_at_the_invocation() {
    // After j invocations 2 + 4 + ... + 2^j = 2^(j+1) - 2 tokens have been produced;
    // the first j where that exceeds the budget is the invocation refused. With that
    // many levels it is the outermost one: line 2, column 1.
    let depth = (1..64)
        .find(|&j| (1u64 << (j + 1)) - 2 > EXPANSION_BUDGET)
        .expect("a depth");
    let err = match preprocess_str("t.c", &doubling(depth), &PreprocessOptions::default()) {
        Ok(out) => panic!("expected an error, got {} tokens", out.tokens.len()),
        Err(e) => e.headline(),
    };
    assert_eq!(
        err,
        format!(
            "t.c:2:1: error: macro expansion too large: more than {EXPANSION_BUDGET} tokens \
             in all (runaway expansion?)"
        )
    );
}

#[test]
fn deeply_nested_arguments_are_refused_not_copied_quadratically() {
    // `f(f(...f(1)...))` n deep: the invocation at level j (1 = outermost) collects an
    // argument of 3(n - j) + 1 tokens (`f`, `(` and `)` per inner level, and `1`) and
    // copies it again to pre-expand it (all but the innermost, whose argument `1` needs
    // no expansion): 2 * sum(3m + 1, m = 0..n-1) - 1 = 3n^2 - n - 1 tokens in all.
    let nest = |n: usize| format!("#define f(x) x\n{}1{}\n", "f(".repeat(n), ")".repeat(n));
    let copies = |n: u64| 3 * n * n - n - 1;
    // The deepest nest within the budget is accepted, and it is just `1`.
    let n = (1..10_000u64)
        .take_while(|&n| copies(n) <= ARGUMENT_COPY_BUDGET)
        .last()
        .expect("a depth");
    let out = preprocess_str("t.c", &nest(n as usize), &PreprocessOptions::default())
        .unwrap_or_else(|e| panic!("{n} levels: {e}"));
    assert_eq!(out.tokens.len(), 2, "`1` and the end");
    // One level more is refused, at an invocation on line 2.
    let err = match preprocess_str("t.c", &nest(n as usize + 1), &PreprocessOptions::default()) {
        Ok(out) => panic!("expected an error, got {} tokens", out.tokens.len()),
        Err(e) => e.headline(),
    };
    assert!(
        err.starts_with("t.c:2:")
            && err.ends_with(&format!(
                "error: macro invocations nested too deeply in arguments: more than \
                 {ARGUMENT_COPY_BUDGET} argument tokens copied in all"
            )),
        "{err}"
    );
}

#[test]
fn an_expansion_within_the_budget_is_kept() {
    // 10 levels: 2^10 copies of `y`.
    let out = preprocess_str("t.c", &doubling(10), &PreprocessOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let ys = out
        .tokens
        .iter()
        .filter(|t| !matches!(t.kind, TokenKind::Eof))
        .count();
    assert_eq!(ys, 1024);
}
