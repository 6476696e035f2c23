//! Expressions inside the light syntax tree: where each sub-expression and its operands
//! are, so an edit can replace one by a constant or by one of its operands.
//!
//! Why: the statements' token ranges say nothing about the expression inside; C-Reduce's
//! most effective late edits (an operator to one operand, a sub-expression to `0`) need
//! the operator structure. This is a precedence-climbing parser over a token range that
//! records spans only; a range it cannot parse yields no nodes (fewer edits, never a
//! wrong one: every candidate is judged anyway).
//!
//! Grammar (C99 6.5, spans only):
//!   comma   := assign (',' assign)*
//!   assign  := cond [ASSIGN-OP assign]
//!   cond    := binary(1) ['?' comma ':' cond]
//!   binary(p) := unary (BINOP of precedence >= p, binary(prec + 1))*
//!   unary   := ('++'|'--'|'&'|'*'|'+'|'-'|'~'|'!') unary | 'sizeof' unary
//!            | 'sizeof' '(' type ')' | '(' type ')' unary | postfix
//!   postfix := primary ('[' comma ']' | '(' [assign (',' assign)*] ')' | ('.'|'->') IDENT
//!              | '++' | '--')*
//!   primary := IDENT | NUMBER | CHAR | STRING+ | '(' comma ')' | '(' type ')' '{' ... '}'
//!
//! Invariant: a node's span and its kids' spans are token ranges of the parsed list, kids
//! inside their parent and in order.

use super::syntax::matching;
use super::tokens::{TokKind, Token};
use std::collections::HashSet;
use std::ops::Range;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A name or a literal.
    Primary,
    /// `( e )`: kid 0 is `e`.
    Paren,
    /// `(T) e`: kid 0 is `e`.
    Cast,
    /// Prefix `- ~ ! + * &` and `sizeof`: kid 0 is the operand.
    Unary,
    /// `++x`, `--x`, `x++`, `x--`: kid 0 is the operand (an lvalue).
    IncDec,
    /// `a OP b`: kids 0 and 1.
    Binary,
    /// `a ? b : c`: kids 0, 1, 2.
    Ternary,
    /// `a = b` (or a compound assignment): kid 0 the target, kid 1 the value.
    Assign,
    /// `a, b`: kids 0 and 1.
    Comma,
    /// `f(args)`: kid 0 the callee, the rest the arguments.
    Call,
    /// `a[i]`, `s.f`, `p->f`, a compound literal, `sizeof(T)`: not split further.
    Access,
}

/// A sub-expression.
#[derive(Clone, Debug)]
pub struct Node {
    pub span: Range<usize>,
    pub kind: NodeKind,
    pub kids: Vec<Node>,
}

impl Node {
    /// The node and every descendant, in preorder.
    pub fn preorder(&self) -> Vec<&Node> {
        let mut out = vec![self];
        for k in &self.kids {
            out.extend(k.preorder());
        }
        out
    }
}

/// Words that begin a type name (plus the program's typedef names and `*_t`).
const TYPE_WORDS: [&str; 20] = [
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool",
    "struct", "union", "enum", "const", "volatile", "restrict", "static", "register", "extern",
    "inline",
];

/// True when `t` begins a type name.
pub fn starts_type(t: &Token, typedefs: &HashSet<String>) -> bool {
    t.kind == TokKind::Ident
        && (TYPE_WORDS.contains(&t.text.as_str())
            || typedefs.contains(&t.text)
            || t.text.ends_with("_t"))
}

fn binary_precedence(t: &Token) -> Option<u8> {
    if t.kind != TokKind::Punct {
        return None;
    }
    Some(match t.text.as_str() {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | ">" | "<=" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        "||" => 1,
        _ => return None,
    })
}

fn is_assign_op(t: &Token) -> bool {
    t.kind == TokKind::Punct
        && matches!(
            t.text.as_str(),
            "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>="
        )
}

struct Parser<'a> {
    toks: &'a [Token],
    end: usize,
    typedefs: &'a HashSet<String>,
}

type PResult = Result<(Node, usize), ()>;

/// Parses `toks[range]` as one expression (the whole range), or `None`.
pub fn parse_expr(toks: &[Token], range: Range<usize>, typedefs: &HashSet<String>) -> Option<Node> {
    if range.is_empty() {
        return None;
    }
    let p = Parser {
        toks,
        end: range.end,
        typedefs,
    };
    match p.comma(range.start) {
        Ok((n, next)) if next == range.end => Some(n),
        _ => None,
    }
}

impl Parser<'_> {
    fn at(&self, i: usize) -> Option<&Token> {
        (i < self.end).then(|| &self.toks[i])
    }

    fn is(&self, i: usize, p: &str) -> bool {
        self.at(i)
            .is_some_and(|t| t.kind == TokKind::Punct && t.text == p)
    }

    fn close(&self, open: usize) -> Result<usize, ()> {
        match matching(self.toks, open) {
            Ok(c) if c < self.end => Ok(c),
            _ => Err(()),
        }
    }

    fn comma(&self, i: usize) -> PResult {
        let (mut lhs, mut j) = self.assign(i)?;
        while self.is(j, ",") {
            let (rhs, next) = self.assign(j + 1)?;
            lhs = Node {
                span: lhs.span.start..rhs.span.end,
                kind: NodeKind::Comma,
                kids: vec![lhs, rhs],
            };
            j = next;
        }
        Ok((lhs, j))
    }

    fn assign(&self, i: usize) -> PResult {
        let (lhs, j) = self.cond(i)?;
        if self.at(j).is_some_and(is_assign_op) {
            let (rhs, next) = self.assign(j + 1)?;
            return Ok((
                Node {
                    span: lhs.span.start..rhs.span.end,
                    kind: NodeKind::Assign,
                    kids: vec![lhs, rhs],
                },
                next,
            ));
        }
        Ok((lhs, j))
    }

    fn cond(&self, i: usize) -> PResult {
        let (c, j) = self.binary(i, 1)?;
        if !self.is(j, "?") {
            return Ok((c, j));
        }
        let (a, k) = self.comma(j + 1)?;
        if !self.is(k, ":") {
            return Err(());
        }
        let (b, next) = self.cond(k + 1)?;
        Ok((
            Node {
                span: c.span.start..b.span.end,
                kind: NodeKind::Ternary,
                kids: vec![c, a, b],
            },
            next,
        ))
    }

    fn binary(&self, i: usize, min: u8) -> PResult {
        let (mut lhs, mut j) = self.unary(i)?;
        while let Some(p) = self.at(j).and_then(binary_precedence) {
            if p < min {
                break;
            }
            let (rhs, next) = self.binary(j + 1, p + 1)?;
            lhs = Node {
                span: lhs.span.start..rhs.span.end,
                kind: NodeKind::Binary,
                kids: vec![lhs, rhs],
            };
            j = next;
        }
        Ok((lhs, j))
    }

    fn unary(&self, i: usize) -> PResult {
        let t = self.at(i).ok_or(())?;
        if t.kind == TokKind::Punct && matches!(t.text.as_str(), "++" | "--") {
            let (e, next) = self.unary(i + 1)?;
            return Ok((wrap(i, NodeKind::IncDec, e), next));
        }
        if t.kind == TokKind::Punct && matches!(t.text.as_str(), "&" | "*" | "+" | "-" | "~" | "!")
        {
            let (e, next) = self.unary(i + 1)?;
            return Ok((wrap(i, NodeKind::Unary, e), next));
        }
        if t.is("sizeof") {
            if self.is(i + 1, "(")
                && self
                    .at(i + 2)
                    .is_some_and(|t| starts_type(t, self.typedefs))
            {
                let c = self.close(i + 1)?;
                return Ok((leaf(i..c + 1, NodeKind::Access), c + 1));
            }
            let (e, next) = self.unary(i + 1)?;
            return Ok((wrap(i, NodeKind::Unary, e), next));
        }
        if t.is("(")
            && self
                .at(i + 1)
                .is_some_and(|t| starts_type(t, self.typedefs))
        {
            let c = self.close(i)?;
            if self.is(c + 1, "{") {
                // A compound literal, then its postfix operators.
                let b = self.close(c + 1)?;
                return self.postfix(leaf(i..b + 1, NodeKind::Access), b + 1);
            }
            let (e, next) = self.unary(c + 1)?;
            return Ok((wrap(i, NodeKind::Cast, e), next));
        }
        let (p, j) = self.primary(i)?;
        self.postfix(p, j)
    }

    fn postfix(&self, mut e: Node, mut j: usize) -> PResult {
        loop {
            if self.is(j, "[") {
                let c = self.close(j)?;
                e = Node {
                    span: e.span.start..c + 1,
                    kind: NodeKind::Access,
                    kids: Vec::new(),
                };
                j = c + 1;
            } else if self.is(j, "(") {
                let c = self.close(j)?;
                let mut kids = vec![e];
                let mut k = j + 1;
                while k < c {
                    let sub = Parser {
                        toks: self.toks,
                        end: c,
                        typedefs: self.typedefs,
                    };
                    let (arg, next) = sub.assign(k)?;
                    kids.push(arg);
                    k = if next < c && self.toks[next].is(",") {
                        next + 1
                    } else {
                        next
                    };
                    if next < c && !self.toks[next].is(",") {
                        return Err(());
                    }
                }
                e = Node {
                    span: kids[0].span.start..c + 1,
                    kind: NodeKind::Call,
                    kids,
                };
                j = c + 1;
            } else if (self.is(j, ".") || self.is(j, "->"))
                && self.at(j + 1).is_some_and(|t| t.kind == TokKind::Ident)
            {
                e = Node {
                    span: e.span.start..j + 2,
                    kind: NodeKind::Access,
                    kids: Vec::new(),
                };
                j += 2;
            } else if self.is(j, "++") || self.is(j, "--") {
                e = Node {
                    span: e.span.start..j + 1,
                    kind: NodeKind::IncDec,
                    kids: vec![e],
                };
                j += 1;
            } else {
                return Ok((e, j));
            }
        }
    }

    fn primary(&self, i: usize) -> PResult {
        let t = self.at(i).ok_or(())?;
        match t.kind {
            TokKind::Ident if !TYPE_WORDS.contains(&t.text.as_str()) => {
                Ok((leaf(i..i + 1, NodeKind::Primary), i + 1))
            }
            TokKind::Number | TokKind::Char => Ok((leaf(i..i + 1, NodeKind::Primary), i + 1)),
            TokKind::Str => {
                let mut j = i + 1;
                while self.at(j).is_some_and(|t| t.kind == TokKind::Str) {
                    j += 1;
                }
                Ok((leaf(i..j, NodeKind::Primary), j))
            }
            TokKind::Punct if t.text == "(" => {
                let c = self.close(i)?;
                let inner = Parser {
                    toks: self.toks,
                    end: c,
                    typedefs: self.typedefs,
                };
                let (e, next) = inner.comma(i + 1)?;
                if next != c {
                    return Err(());
                }
                Ok((
                    Node {
                        span: i..c + 1,
                        kind: NodeKind::Paren,
                        kids: vec![e],
                    },
                    c + 1,
                ))
            }
            _ => Err(()),
        }
    }
}

fn leaf(span: Range<usize>, kind: NodeKind) -> Node {
    Node {
        span,
        kind,
        kids: Vec::new(),
    }
}

/// A prefix node starting at `i` around `e`.
fn wrap(i: usize, kind: NodeKind, e: Node) -> Node {
    Node {
        span: i..e.span.end,
        kind,
        kids: vec![e],
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn text(toks: &[Token], r: &Range<usize>) -> String {
        toks[r.clone()]
            .iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn operators_bind_as_in_c() {
        let toks =
            tokenize("a = b + c * (unsigned char)-d[2] , f(x, y ? 1 : 2) < 3 && !p->q").unwrap();
        let n = parse_expr(&toks, 0..toks.len(), &HashSet::new()).unwrap();
        assert_eq!(n.kind, NodeKind::Comma);
        let assign = &n.kids[0];
        assert_eq!(assign.kind, NodeKind::Assign);
        let sum = &assign.kids[1];
        assert_eq!(text(&toks, &sum.kids[0].span), "b");
        assert_eq!(
            text(&toks, &sum.kids[1].span),
            "c * ( unsigned char ) - d [ 2 ]"
        );
        assert_eq!(sum.kids[1].kids[1].kind, NodeKind::Cast);
        let and = &n.kids[1];
        assert_eq!(text(&toks, &and.kids[0].span), "f ( x , y ? 1 : 2 ) < 3");
        let call = &and.kids[0].kids[0];
        assert_eq!(call.kind, NodeKind::Call);
        assert_eq!(call.kids.len(), 3);
        assert_eq!(call.kids[2].kind, NodeKind::Ternary);
    }

    #[test]
    fn a_range_that_is_not_one_expression_gives_none() {
        let toks = tokenize("int x = 1").unwrap();
        assert!(parse_expr(&toks, 0..toks.len(), &HashSet::new()).is_none());
        assert!(parse_expr(&toks, 3..4, &HashSet::new()).is_some());
    }
}
