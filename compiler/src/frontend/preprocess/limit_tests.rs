//! Tests of the expansion budget (`EXPANSION_BUDGET`): a runaway (exponential) expansion
//! is refused with a clear error at the invocation that crossed the budget; an
//! expansion within the budget is untouched.

use super::{preprocess_str, PreprocessOptions, EXPANSION_BUDGET};
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
    // many levels it is the outermost one: line 2, column 1. (The arguments' copies add
    // about 3 * depth^2 tokens, ~1200: far less than the 2^j produced by the last but
    // one invocation, so they do not move the crossing.)
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
    // `f(f(...f(1)...))` 3000 deep: each invocation copies the rest of the nest (about
    // 2 * 3000 tokens near the top) twice (collected, then for pre-expansion), so the
    // copies reach the budget within a few hundred levels, at an `f` on line 2.
    let n = 3000;
    let src = format!("#define f(x) x\n{}1{}\n", "f(".repeat(n), ")".repeat(n));
    let err = match preprocess_str("t.c", &src, &PreprocessOptions::default()) {
        Ok(out) => panic!("expected an error, got {} tokens", out.tokens.len()),
        Err(e) => e.headline(),
    };
    assert!(
        err.starts_with("t.c:2:") && err.contains("macro expansion too large"),
        "{err}"
    );
    // 300 deep copies about 2 * 300^2 = 180 000 tokens: accepted, and it is just `1`.
    let n = 300;
    let src = format!("#define f(x) x\n{}1{}\n", "f(".repeat(n), ")".repeat(n));
    let out = preprocess_str("t.c", &src, &PreprocessOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.tokens.len(), 2, "`1` and the end");
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
