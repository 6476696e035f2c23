//! The mutation families that change a program's structure or its types rather than one
//! operator or constant: a call inlined by hand, and an object's or field's integer type
//! given another signedness or width.
//!
//! Why: inlining by hand puts a callee's expression into its caller, where the caller's
//! constants meet it and the middle end folds, combines and hoists what a call boundary
//! kept apart — the MetaMut "inline a function" mutator. A changed signedness or width of a
//! variable or struct field moves every use of it into other integer promotions,
//! conversions and comparisons (signed against unsigned), where C lowering bugs live.
//!
//! Invariants: as for every family (`mutators.rs`): whole tokens only, no panic, the list
//! depends only on the program; a family does not keep the meaning — an inlined call
//! evaluates an argument once per use of its parameter, in the callee's order — the
//! source's judges decide whether the mutant is defined.

use super::mutators::nodes;
use crate::c::reduce::edits::{split_top, Edit, Program};
use crate::c::reduce::expr::NodeKind;
use crate::c::reduce::syntax::{ItemKind, StmtKind};
use crate::c::reduce::tokens::{TokKind, Token};
use std::ops::Range;

/// A function `RET f(T1 a, T2 b) { return E; }` that a call can be replaced by.
struct Inlinable {
    name: String,
    /// The return type's tokens (storage classes and `inline` left out).
    ret: Vec<Token>,
    /// Each parameter's type tokens and name.
    params: Vec<(Vec<Token>, String)>,
    /// E's tokens.
    expr: Range<usize>,
}

/// Words of a declaration that are not part of its type (left out of a cast).
const NOT_TYPE: [&str; 6] = [
    "static",
    "inline",
    "extern",
    "register",
    "__inline",
    "__inline__",
];

fn type_tokens(toks: &[Token]) -> Option<Vec<Token>> {
    let kept: Vec<Token> = toks
        .iter()
        .filter(|t| !NOT_TYPE.iter().any(|w| t.is(w)))
        .cloned()
        .collect();
    let simple = !kept.is_empty()
        && kept
            .iter()
            .all(|t| t.kind == TokKind::Ident || (t.kind == TokKind::Punct && t.text == "*"))
        && !kept.iter().any(|t| t.text.starts_with("__attribute"));
    simple.then_some(kept)
}

/// The program's functions whose body is a single `return E;` and whose parameters are
/// plain `TYPE name` (no arrays, function pointers or `...`).
fn inlinable_functions(p: &Program) -> Vec<Inlinable> {
    let toks = &p.toks;
    let mut out = Vec::new();
    for item in &p.unit.items {
        let ItemKind::Function { name, params, body } = &item.kind else {
            continue;
        };
        let [stmt] = body.stmts.as_slice() else {
            continue;
        };
        let s = &stmt.span;
        if !matches!(stmt.kind, StmtKind::Simple)
            || s.len() < 3
            || !toks[s.start].is("return")
            || !toks[s.end - 1].is(";")
        {
            continue;
        }
        // `RET name ( params )`: the name is two tokens before the parameters.
        let Some(name_at) = params.start.checked_sub(2) else {
            continue;
        };
        if name_at < item.span.start || toks[name_at].text != *name {
            continue;
        }
        let Some(ret) = type_tokens(&toks[item.span.start..name_at]) else {
            continue;
        };
        if ret.len() == 1 && ret[0].is("void") {
            continue;
        }
        let mut ps = Vec::new();
        let parts = split_top(toks, params.clone(), ",");
        let no_params = parts.len() == 1
            && (parts[0].is_empty() || (parts[0].len() == 1 && toks[parts[0].start].is("void")));
        let mut simple = true;
        if !no_params {
            for part in parts {
                let Some(last) = part.end.checked_sub(1).filter(|l| *l > part.start) else {
                    simple = false;
                    break;
                };
                let (ty, pname) = (&toks[part.start..last], &toks[last]);
                match type_tokens(ty) {
                    Some(ty) if pname.kind == TokKind::Ident => ps.push((ty, pname.text.clone())),
                    _ => {
                        simple = false;
                        break;
                    }
                }
            }
        }
        if simple {
            out.push(Inlinable {
                name: name.clone(),
                ret,
                params: ps,
                expr: s.start + 1..s.end - 1,
            });
        }
    }
    out
}

fn punct(text: &str) -> Token {
    Token::punct(text)
}

/// `( (T) ( tokens ) )`.
fn cast_to(ty: &[Token], inner: Vec<Token>) -> Vec<Token> {
    let mut out = vec![punct("("), punct("(")];
    out.extend(ty.iter().cloned());
    out.extend([punct(")"), punct("(")]);
    out.extend(inner);
    out.extend([punct(")"), punct(")")]);
    out
}

/// A call `f(a1, ..., an)` of a function whose body is `return E;` to
/// `((RET)(E'))`, E' being E with each use of parameter i replaced by `((Ti)(ai))`.
pub fn inline_calls(p: &Program) -> Vec<Edit> {
    let functions = inlinable_functions(p);
    if functions.is_empty() {
        return Vec::new();
    }
    let toks = &p.toks;
    let mut out = Vec::new();
    for n in nodes(p) {
        if n.kind != NodeKind::Call || n.kids.is_empty() {
            continue;
        }
        let callee = &n.kids[0];
        if callee.kind != NodeKind::Primary || callee.span.len() != 1 {
            continue;
        }
        let Some(f) = functions
            .iter()
            .find(|f| f.name == toks[callee.span.start].text)
        else {
            continue;
        };
        let args = &n.kids[1..];
        if args.len() != f.params.len() {
            continue;
        }
        let mut body = Vec::new();
        for i in f.expr.clone() {
            let t = &toks[i];
            let member = i > f.expr.start && (toks[i - 1].is(".") || toks[i - 1].is("->"));
            let param = (t.kind == TokKind::Ident && !member)
                .then(|| f.params.iter().position(|(_, name)| *name == t.text))
                .flatten();
            match param {
                Some(k) => {
                    let arg = toks[args[k].span.clone()].to_vec();
                    body.extend(cast_to(&f.params[k].0, arg));
                }
                None => body.push(t.clone()),
            }
        }
        out.push(Edit {
            splices: vec![(n.span.clone(), cast_to(&f.ret, body))],
        });
    }
    out
}

/// Integer type words a declaration's type may be made of.
const INTEGER_WORDS: [&str; 6] = ["unsigned", "signed", "char", "short", "int", "long"];

fn is_integer_word(t: &Token) -> bool {
    t.kind == TokKind::Ident && INTEGER_WORDS.contains(&t.text.as_str())
}

/// The other types a declaration's integer type becomes: the other signedness, and for a
/// type narrower than `long long`, `long long` of the same signedness.
fn retypings(words: &[&str]) -> Vec<Vec<&'static str>> {
    let unsigned = words.contains(&"unsigned");
    let base: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| *w != "unsigned" && *w != "signed")
        .collect();
    let base_static: Vec<&'static str> = base
        .iter()
        .filter_map(|w| INTEGER_WORDS.iter().copied().find(|s| s == w))
        .collect();
    let mut out = Vec::new();
    // The other signedness (plain `char` becomes `unsigned char`, `unsigned char` becomes
    // `signed char`: plain `char`'s signedness is the target's).
    let flipped: Vec<&'static str> = if unsigned {
        let mut v = if base_static == ["char"] {
            vec!["signed"]
        } else {
            Vec::new()
        };
        v.extend(base_static.iter().copied());
        if v.is_empty() {
            v.push("int");
        }
        v
    } else {
        let mut v = vec!["unsigned"];
        v.extend(base_static.iter().copied());
        v
    };
    out.push(flipped);
    if base_static.iter().filter(|w| **w == "long").count() < 2 {
        let mut wide = if unsigned {
            vec!["unsigned"]
        } else {
            Vec::new()
        };
        wide.extend(["long", "long"]);
        out.push(wide);
    }
    out
}

/// The integer type of a variable or field declaration (`unsigned short x`, `long y;`,
/// a bit-field's too) to its other signedness or to `long long`; not a function's return
/// type, not a cast, not a parameter of a prototype.
pub fn retyped_declarations(p: &Program) -> Vec<Edit> {
    let toks = &p.toks;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !is_integer_word(&toks[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < toks.len() && is_integer_word(&toks[i]) {
            i += 1;
        }
        let run = start..i;
        // Declares an object: a name follows that is not a function's, and the run does not
        // sit in parentheses (a cast or a parameter).
        let declares_object = toks.get(i).is_some_and(|t| t.kind == TokKind::Ident)
            && !toks.get(i + 1).is_some_and(|t| t.is("("));
        let after_paren = start > 0 && (toks[start - 1].is("(") || toks[start - 1].is(","));
        if !declares_object || after_paren {
            continue;
        }
        let words: Vec<&str> = toks[run.clone()].iter().map(|t| t.text.as_str()).collect();
        for to in retypings(&words) {
            if to == words {
                continue;
            }
            out.push(Edit {
                splices: vec![(
                    run.clone(),
                    to.iter().map(|w| Token::new(TokKind::Ident, w)).collect(),
                )],
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::reduce::edits::apply;
    use crate::c::reduce::tokens::tokenize;

    fn texts(src: &str, family: fn(&Program) -> Vec<Edit>) -> Vec<String> {
        let p = Program::new(tokenize(src).unwrap()).unwrap();
        family(&p)
            .iter()
            .map(|e| {
                apply(&p.toks, e)
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn a_single_return_function_is_inlined_with_its_conversions() {
        let src = "struct s { int x; };\nstatic int add(short a, unsigned b) { return a + b * 2; }\n\
                   int get(struct s *p) { return p->x; }\n\
                   int many(int a) { a++; return a; }\n\
                   int main(void) { struct s v; v.x = 1; return add(v.x, 3) + get(&v) + many(1); }\n";
        let t = texts(src, inline_calls);
        assert_eq!(t.len(), 2, "{t:?}");
        assert!(
            t.iter().any(|s| s.contains(
                "return ( ( int ) ( ( ( short ) ( v . x ) ) + ( ( unsigned ) ( 3 ) ) * 2 ) ) + get"
            )),
            "{t:?}"
        );
        // A member named like a parameter is not replaced; `many` has two statements.
        assert!(
            t.iter()
                .any(|s| s.contains("( ( int ) ( ( ( struct s * ) ( & v ) ) -> x ) )")),
            "{t:?}"
        );
        assert!(!t.iter().any(|s| s.contains("( ( int ) ( a ) )")), "{t:?}");
    }

    #[test]
    fn integer_declarations_change_signedness_or_widen() {
        let src = "struct t { unsigned char c; short s : 5; };\nlong f(int x);\n\
                   int main(void) { unsigned u = 1; long long w = 2; return (int) u + f(3); }\n";
        let t = texts(src, retyped_declarations);
        for want in [
            "struct t { signed char c ;",
            "struct t { unsigned long long c ;",
            "unsigned short s : 5",
            "long long s : 5",
            "int u = 1",
            "unsigned long long u = 1",
            "unsigned long long w = 2",
        ] {
            assert!(t.iter().any(|s| s.contains(want)), "{want}: {t:?}");
        }
        // Not the function's return type, its parameter, `main`'s, or a cast.
        assert!(
            !t.iter().any(|s| s.contains("unsigned long f")
                || s.contains("( unsigned int x )")
                || s.contains("unsigned int main")
                || s.contains("( unsigned int ) u")),
            "{t:?}"
        );
    }
}
