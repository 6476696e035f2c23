//! The mutation operators over a C program's tokens (GrayC / MetaMut's families, on the
//! reducer's light syntax tree).
//!
//! Why: a mutant of a real program keeps the shapes real code has (loops over arrays,
//! structs passed around, libc calls) and changes one thing a compiler must get right: an
//! operator, a constant at a boundary, a narrower type, a statement run twice. Each family
//! lists every place it could apply in a program; `mutants::mutate` picks one place with
//! the program's seeded generator.
//!
//! Invariants:
//! - a family never panics and never produces a token list that does not re-tokenize to
//!   itself (every replacement is made of whole tokens);
//! - a family does not try to keep the program defined or its meaning: the source's
//!   judges (the UB judge at `lowered`, gcc -O0 against -O2) decide, and drop by reason;
//! - the list a family returns depends only on the program (the choice among them is the
//!   caller's, from its seed).

use crate::c::reduce::edits::{depth_at, expression_ranges, Edit, Program};
use crate::c::reduce::expr::{parse_expr, Node, NodeKind};
use crate::c::reduce::syntax::{Stmt, StmtKind};
use crate::c::reduce::tokens::{TokKind, Token};

/// A mutation family: every edit it could make to the program.
pub type Family = fn(&Program) -> Vec<Edit>;

/// Every family, by name (the name is what a mutant's header lists and the hunt counts).
pub const FAMILIES: [(&str, Family); 9] = [
    ("operator", operator_swaps),
    ("constant", interesting_constants),
    ("compound-assign", compound_assignments),
    ("narrow-type", narrower_types),
    ("negate", negations),
    ("loop-wrap", loop_wraps),
    ("duplicate", duplicates),
    ("inline-call", super::structural::inline_calls),
    ("retype", super::structural::retyped_declarations),
];

/// The operator classes a binary or assignment operator swaps within (the result stays
/// well-formed for the operands' types; division and shifts included on purpose).
const CLASSES: [&[&str]; 6] = [
    &["+", "-", "*", "/", "%"],
    &["&", "|", "^"],
    &["<<", ">>"],
    &["<", ">", "<=", ">=", "==", "!="],
    &["&&", "||"],
    &["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="],
];

/// The values where arithmetic rewrites go wrong: 0, ±1, powers of two and their
/// neighbours, the limits of each width and their neighbours. Spelled so that each has
/// the same value and type on ILP32 and LP64 (a suffix where a plain literal would change
/// type between data models).
pub const INTERESTING: [&str; 30] = [
    "0",
    "1",
    "(-1)",
    "2",
    "(-2)",
    "3",
    "7",
    "8",
    "15",
    "16",
    "31",
    "32",
    "33",
    "63",
    "64",
    "127",
    "128",
    "(-128)",
    "255",
    "256",
    "32767",
    "(-32768)",
    "65535",
    "65536",
    "2147483647",
    "(-2147483647 - 1)",
    "2147483648LL",
    "4294967295U",
    "9223372036854775807LL",
    "(-9223372036854775807LL - 1)",
];

/// Every sub-expression of every expression in the program, with its tokens' range.
pub(super) fn nodes(p: &Program) -> Vec<Node> {
    let mut out = Vec::new();
    for r in expression_ranges(p) {
        if let Some(root) = parse_expr(&p.toks, r, &p.typedefs) {
            out.extend(root.preorder().into_iter().cloned());
        }
    }
    out
}

fn class_of(op: &str) -> Option<&'static [&'static str]> {
    CLASSES.iter().copied().find(|c| c.contains(&op))
}

fn punct(text: &str) -> Token {
    Token::punct(text)
}

/// The tokens of an interesting value.
fn value_tokens(v: &str) -> Vec<Token> {
    crate::c::reduce::tokens::tokenize(v).expect("the interesting values are valid C tokens")
}

/// `a OP b` to `a OP' b` and `x OP= e` to `x OP'= e`, OP' another operator of OP's class.
fn operator_swaps(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for n in nodes(p) {
        if !matches!(n.kind, NodeKind::Binary | NodeKind::Assign) || n.kids.len() != 2 {
            continue;
        }
        let at = n.kids[0].span.end;
        if n.kids[1].span.start != at + 1 {
            continue;
        }
        let Some(class) = class_of(&p.toks[at].text) else {
            continue;
        };
        for other in class.iter().filter(|o| **o != p.toks[at].text) {
            out.push(Edit {
                splices: vec![(at..at + 1, vec![punct(other)])],
            });
        }
    }
    out
}

/// True for an integer literal (not a floating one: `1.5`, `1e3`, `0x1p3`).
fn is_integer_literal(t: &Token) -> bool {
    let hex = t.text.starts_with("0x") || t.text.starts_with("0X");
    let exponent: &[char] = if hex { &['p', 'P'] } else { &['e', 'E'] };
    t.kind == TokKind::Number && !t.text.contains('.') && !t.text.contains(exponent)
}

/// An integer literal in an expression to an interesting value. Literals outside
/// expressions (array sizes, bit-field widths, case labels) are left alone: changing them
/// mostly makes programs the judges drop.
fn interesting_constants(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for n in nodes(p) {
        if n.kind != NodeKind::Primary || n.span.len() != 1 {
            continue;
        }
        let t = &p.toks[n.span.start];
        if !is_integer_literal(t) {
            continue;
        }
        for v in INTERESTING {
            if v != t.text {
                out.push(Edit {
                    splices: vec![(n.span.clone(), value_tokens(v))],
                });
            }
        }
    }
    out
}

/// `x = e` to `x OP= e` (the compound assignments that narrow types get wrong most:
/// the promotion to int and the conversion back).
fn compound_assignments(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for n in nodes(p) {
        if n.kind != NodeKind::Assign || n.kids.len() != 2 {
            continue;
        }
        let at = n.kids[0].span.end;
        if !p.toks[at].is("=") {
            continue;
        }
        for op in ["+=", "-=", "*=", "&=", "|=", "^=", ">>="] {
            out.push(Edit {
                splices: vec![(at..at + 1, vec![punct(op)])],
            });
        }
    }
    out
}

/// `int` in a declaration of a variable or field (not a function's return type, not in a
/// cast) to a narrower or differently signed type.
fn narrower_types(p: &Program) -> Vec<Edit> {
    const TO: [&[&str]; 5] = [
        &["short"],
        &["char"],
        &["unsigned", "char"],
        &["unsigned", "short"],
        &["unsigned"],
    ];
    let toks = &p.toks;
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !(toks[i].kind == TokKind::Ident && toks[i].text == "int") {
            continue;
        }
        let before = i.checked_sub(1).map(|j| &toks[j]);
        let after = toks.get(i + 1);
        // Only a lone `int` (no `unsigned int`, `long int`, `short int`).
        if before.is_some_and(|t| {
            matches!(
                t.text.as_str(),
                "unsigned" | "signed" | "long" | "short" | "char"
            )
        }) {
            continue;
        }
        // A declarator follows: a name that is not a function's (no `(` after it), or `*`.
        let declares_object = match after {
            Some(t) if t.kind == TokKind::Ident => !toks.get(i + 2).is_some_and(|n| n.is("(")),
            _ => false,
        };
        if !declares_object {
            continue;
        }
        for to in TO {
            out.push(Edit {
                splices: vec![(
                    i..i + 1,
                    to.iter().map(|w| Token::new(TokKind::Ident, w)).collect(),
                )],
            });
        }
    }
    out
}

/// A sub-expression `e` that is not an lvalue's target to `(-(e))` or `(~(e))`.
fn negations(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    let mut targets = Vec::new();
    for n in nodes(p) {
        if matches!(n.kind, NodeKind::Assign | NodeKind::IncDec) {
            if let Some(k) = n.kids.first() {
                targets.push(k.span.clone());
            }
        }
    }
    for n in nodes(p) {
        if !matches!(
            n.kind,
            NodeKind::Primary | NodeKind::Paren | NodeKind::Binary
        ) {
            continue;
        }
        // Not the target of an assignment, not a string or a name of a function or array
        // (negating those does not type-check; the front end would drop them anyway).
        if targets
            .iter()
            .any(|t| t.start <= n.span.start && n.span.end <= t.end)
        {
            continue;
        }
        let first = &p.toks[n.span.start];
        if n.kind == NodeKind::Primary && !matches!(first.kind, TokKind::Number | TokKind::Ident) {
            continue;
        }
        if p.toks
            .get(n.span.end)
            .is_some_and(|t| t.is("(") || t.is("["))
        {
            continue;
        }
        for op in ["-", "~"] {
            let mut with = vec![punct("("), punct(op), punct("(")];
            with.extend(p.toks[n.span.clone()].iter().cloned());
            with.extend([punct(")"), punct(")")]);
            out.push(Edit {
                splices: vec![(n.span.clone(), with)],
            });
        }
    }
    out
}

/// The expression statements inside function bodies (not declarations, jumps, returns
/// or labels): the statements that can run twice or in a loop and stay well-formed.
fn expression_statements(p: &Program) -> Vec<&Stmt> {
    let toks = &p.toks;
    p.unit
        .statements()
        .into_iter()
        .filter(|s| {
            if !matches!(s.kind, StmtKind::Simple) || s.span.len() < 2 {
                return false;
            }
            let first = &toks[s.span.start];
            let jumps = ["return", "goto", "break", "continue", "case", "default"];
            !jumps.iter().any(|j| first.is(j))
                && !crate::c::reduce::expr::starts_type(first, &p.typedefs)
                && !first.is("typedef")
                && toks[s.span.end - 1].is(";")
                && depth_at(toks, s.span.start, s.span.end) == 0
        })
        .collect()
}

/// An expression statement `S` to `for (int phihunt_k = 0; phihunt_k < N; phihunt_k++) { S }`
/// with N from 0 to 3: the same code in a loop (or not at all), where loop passes see it.
fn loop_wraps(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for s in expression_statements(p) {
        for n in ["0", "2", "3"] {
            let head =
                format!("{{ int phihunt_k; for (phihunt_k = 0; phihunt_k < {n}; phihunt_k++) {{");
            let mut with = crate::c::reduce::tokens::tokenize(&head).expect("valid tokens");
            with.extend(p.toks[s.span.clone()].iter().cloned());
            with.extend([punct("}"), punct("}")]);
            out.push(Edit {
                splices: vec![(s.span.clone(), with)],
            });
        }
    }
    out
}

/// An expression statement `S` to `S S`.
fn duplicates(p: &Program) -> Vec<Edit> {
    expression_statements(p)
        .into_iter()
        .map(|s| {
            let mut with: Vec<Token> = p.toks[s.span.clone()].to_vec();
            with.extend(p.toks[s.span.clone()].iter().cloned());
            Edit {
                splices: vec![(s.span.clone(), with)],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::reduce::edits::apply;
    use crate::c::reduce::tokens::{print, tokenize};

    const PROGRAM: &str = "int g = 5;\nint f(int x) { int y = x + 3; y = y * 2; return y; }\n\
                           int h(int z) { return z - 1; }\n\
                           int main(void) { int a = f(g); a = a << 1; if (a < 10) a++; a = h(a); return 0; }\n";

    fn program() -> Program {
        Program::new(tokenize(PROGRAM).unwrap()).unwrap()
    }

    fn texts(family: Family) -> Vec<String> {
        let p = program();
        family(&p)
            .iter()
            .map(|e| {
                let toks = apply(&p.toks, e);
                toks.iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn each_family_applies_to_a_small_program_and_keeps_tokens_whole() {
        let p = program();
        for (name, family) in FAMILIES {
            let edits = family(&p);
            assert!(!edits.is_empty(), "{name} finds no place");
            for e in edits {
                let text = print(&apply(&p.toks, &e));
                let again = tokenize(&text).unwrap();
                assert_eq!(print(&again), text, "{name}: {text}");
                assert_ne!(text, print(&p.toks), "{name} changed nothing");
            }
        }
    }

    #[test]
    fn operators_swap_within_their_class() {
        let t = texts(operator_swaps);
        assert!(t.iter().any(|s| s.contains("y = x - 3")), "{t:?}");
        assert!(t.iter().any(|s| s.contains("a = a >> 1")), "{t:?}");
        assert!(t.iter().any(|s| s.contains("if ( a >= 10 )")), "{t:?}");
        // `+` never becomes a comparison, `<<` never `+`.
        assert!(
            !t.iter().any(|s| s.contains("x < 3") || s.contains("a + 1")),
            "{t:?}"
        );
    }

    #[test]
    fn constants_become_boundary_values() {
        let t = texts(interesting_constants);
        assert!(t.iter().any(|s| s.contains("x + 2147483647")), "{t:?}");
        assert!(t.iter().any(|s| s.contains("a << 31")), "{t:?}");
        assert!(t.iter().any(|s| s.contains("y * ( - 1 )")), "{t:?}");
    }

    #[test]
    fn only_object_declarations_narrow() {
        let t = texts(narrower_types);
        assert!(
            t.iter().any(|s| s.contains("unsigned char y = x + 3")),
            "{t:?}"
        );
        assert!(t.iter().any(|s| s.contains("short g = 5")), "{t:?}");
        // Function return types and `main` stay.
        assert!(
            !t.iter()
                .any(|s| s.contains("short f (") || s.contains("char main")),
            "{t:?}"
        );
    }

    #[test]
    fn statements_are_looped_and_duplicated_but_declarations_and_returns_are_not() {
        let looped = texts(loop_wraps);
        assert!(
            looped
                .iter()
                .any(|s| s.contains("phihunt_k < 2 ; phihunt_k ++ ) { y = y * 2 ; } }")),
            "{looped:?}"
        );
        let dup = texts(duplicates);
        assert!(
            dup.iter().any(|s| s.contains("a = a << 1 ; a = a << 1 ;")),
            "{dup:?}"
        );
        assert!(!dup.iter().any(|s| s.contains("return y ; return y ;") || s.contains("int y = x + 3 ; int y")), "{dup:?}");
    }
}
