//! The C reducer's edits: every way to make a program smaller, as token splices.
//!
//! Why: a reduced C case should keep only what the bug needs, so the edit set covers what
//! C-Reduce does on a C program: delta debugging over top-level items and over each
//! block's statements (halves, quarters, ... then single ones), unwrapping blocks, an `if`
//! to one branch, a loop to its body once, a function parameter removed together with the
//! argument of every call, a struct field removed together with its initializer element,
//! an initializer dropped, a qualifier or type word dropped, and an expression replaced
//! by `0`, `1`, its constant value or one of its operands.
//!
//! Invariants:
//! - an edit never changes the input: it is a list of splices applied to a copy;
//! - the families are deterministic (same program, same edit list in the same order), so
//!   a reduction is reproducible;
//! - no edit is trusted: a candidate the light tree misjudged is rejected by the
//!   interestingness test (phicc, the UB judge, gcc), which is what keeps every kept
//!   program defined.

use super::expr::{parse_expr, starts_type, Node, NodeKind};
use super::syntax::{matching, parse_unit, ItemKind, Stmt, StmtKind, Unit};
use super::tokens::{TokKind, Token};
use std::collections::HashSet;
use std::ops::Range;

/// A program the edits work on: its tokens and their tree.
pub struct Program {
    pub toks: Vec<Token>,
    pub unit: Unit,
    pub typedefs: HashSet<String>,
}

impl Program {
    /// Builds the tree of `toks`; `Err` when the light parser cannot.
    pub fn new(toks: Vec<Token>) -> Result<Program, String> {
        let unit = parse_unit(&toks)?;
        let typedefs = typedef_names(&toks, &unit);
        Ok(Program {
            toks,
            unit,
            typedefs,
        })
    }
}

/// One candidate change: each range replaced by its tokens.
#[derive(Clone, Debug)]
pub struct Edit {
    pub splices: Vec<(Range<usize>, Vec<Token>)>,
}

impl Edit {
    fn remove(r: Range<usize>) -> Edit {
        Edit {
            splices: vec![(r, Vec::new())],
        }
    }

    fn replace(r: Range<usize>, with: Vec<Token>) -> Edit {
        Edit {
            splices: vec![(r, with)],
        }
    }
}

/// The tokens of `toks` with `edit` applied (a splice inside an earlier one is dropped).
pub fn apply(toks: &[Token], edit: &Edit) -> Vec<Token> {
    let mut splices: Vec<&(Range<usize>, Vec<Token>)> = edit.splices.iter().collect();
    splices.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    let mut out = Vec::with_capacity(toks.len());
    let mut at = 0;
    for (r, with) in splices {
        if r.start < at {
            continue;
        }
        out.extend_from_slice(&toks[at..r.start]);
        out.extend(with.iter().cloned());
        at = r.end;
    }
    out.extend_from_slice(&toks[at..]);
    out
}

/// A family of edits, by name.
pub type Family = fn(&Program) -> Vec<Edit>;

/// Every family, in the order the reducer tries them (big cuts first).
pub const FAMILIES: [(&str, Family); 10] = [
    ("top-level items", top_level_chunks),
    ("statements", statement_chunks),
    ("unwrap block", unwrap_blocks),
    ("if to one branch", branches),
    ("loop to its body", loops),
    ("parameter and arguments", parameters),
    ("field and initializers", fields),
    ("expression", expressions),
    ("initializer", initializers),
    ("type word", type_words),
];

/// Chunk removals over `items` (ddmin's granularity: n/2, n/4, ..., 1).
fn chunks(items: &[Range<usize>]) -> Vec<Edit> {
    let n = items.len();
    let mut out = Vec::new();
    let mut size = (n / 2).max(1);
    loop {
        let mut i = 0;
        while i < n {
            let end = (i + size).min(n);
            out.push(Edit {
                splices: items[i..end]
                    .iter()
                    .map(|r| (r.clone(), Vec::new()))
                    .collect(),
            });
            i = end;
        }
        if size == 1 {
            break;
        }
        size /= 2;
    }
    out
}

fn top_level_chunks(p: &Program) -> Vec<Edit> {
    let items: Vec<Range<usize>> = p.unit.items.iter().map(|i| i.span.clone()).collect();
    chunks(&items)
}

fn statement_chunks(p: &Program) -> Vec<Edit> {
    let mut items: Vec<Range<usize>> = p
        .unit
        .blocks()
        .iter()
        .flat_map(|b| b.stmts.iter().map(|s| s.span.clone()))
        .collect();
    items.sort_by_key(|r| r.start);
    chunks(&items)
}

/// Statements that sit directly in a block (so removing or replacing them is local).
fn block_members(p: &Program) -> Vec<&Stmt> {
    let mut v: Vec<&Stmt> = p
        .unit
        .blocks()
        .iter()
        .flat_map(|b| b.stmts.iter())
        .collect();
    v.sort_by_key(|s| s.span.start);
    v
}

fn unwrap_blocks(p: &Program) -> Vec<Edit> {
    block_members(p)
        .into_iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Block(b) => Some(Edit::replace(
                s.span.clone(),
                p.toks[b.open + 1..b.close].to_vec(),
            )),
            _ => None,
        })
        .collect()
}

fn branches(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for s in p.unit.statements() {
        if let StmtKind::If { then, els, .. } = &s.kind {
            out.push(Edit::replace(
                s.span.clone(),
                p.toks[then.span.clone()].to_vec(),
            ));
            if let Some(e) = els {
                out.push(Edit::replace(
                    s.span.clone(),
                    p.toks[e.span.clone()].to_vec(),
                ));
                // Drop the `else` part.
                out.push(Edit::remove(then.span.end..e.span.end));
            }
        }
    }
    out
}

fn loops(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for s in p.unit.statements() {
        match &s.kind {
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                out.push(Edit::replace(
                    s.span.clone(),
                    p.toks[body.span.clone()].to_vec(),
                ));
            }
            StmtKind::For { header, body } => {
                let parts = split_top(&p.toks, header.clone(), ";");
                let mut with = vec![Token::punct("{")];
                if let Some(init) = parts.first().filter(|r| !r.is_empty()) {
                    with.extend_from_slice(&p.toks[init.clone()]);
                    with.push(Token::punct(";"));
                }
                with.extend_from_slice(&p.toks[body.span.clone()]);
                with.push(Token::punct("}"));
                out.push(Edit::replace(s.span.clone(), with));
            }
            _ => {}
        }
    }
    out
}

/// The parts of `r` separated by `sep` at bracket depth 0.
pub fn split_top(toks: &[Token], r: Range<usize>, sep: &str) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let mut start = r.start;
    let mut i = r.start;
    while i < r.end {
        let t = &toks[i];
        if t.kind == TokKind::Punct && matches!(t.text.as_str(), "(" | "[" | "{") {
            i = matching(toks, i).map_or(r.end, |c| c + 1);
            continue;
        }
        if t.is(sep) {
            parts.push(start..i);
            start = i + 1;
        }
        i += 1;
    }
    parts.push(start..r.end);
    parts
}

/// Removes part `k` of the comma list `parts` (its comma with it); the only part becomes
/// `only` (`void` for parameters, nothing for arguments).
fn remove_list_element(
    parts: &[Range<usize>],
    k: usize,
    only: Vec<Token>,
) -> (Range<usize>, Vec<Token>) {
    if parts.len() == 1 {
        return (parts[0].clone(), only);
    }
    if k + 1 < parts.len() {
        (parts[k].start..parts[k + 1].start, Vec::new())
    } else {
        (parts[k - 1].end..parts[k].end, Vec::new())
    }
}

/// Each parameter of a function whose address is never taken, removed from its
/// definition, every prototype and every call together.
fn parameters(p: &Program) -> Vec<Edit> {
    let mut out = Vec::new();
    for item in &p.unit.items {
        let ItemKind::Function { name, params, .. } = &item.kind else {
            continue;
        };
        if name.is_empty() || name == "main" {
            continue;
        }
        let params_parts = split_top(&p.toks, params.clone(), ",");
        let count = if params.is_empty() || (params.len() == 1 && p.toks[params.start].is("void")) {
            0
        } else {
            params_parts.len()
        };
        if count == 0 || p.toks[params.clone()].iter().any(|t| t.is("...")) {
            continue;
        }
        // Every use: a declarator (parameter list) or a call (argument list).
        let mut lists: Vec<(Range<usize>, bool)> = Vec::new();
        let mut address_taken = false;
        for (i, t) in p.toks.iter().enumerate() {
            if t.kind != TokKind::Ident || &t.text != name {
                continue;
            }
            if !p.toks.get(i + 1).is_some_and(|n| n.is("(")) {
                address_taken = true;
                break;
            }
            let Ok(close) = matching(&p.toks, i + 1) else {
                address_taken = true;
                break;
            };
            lists.push((i + 2..close, is_declarator(p, i)));
        }
        if address_taken {
            continue;
        }
        for k in 0..count {
            let mut splices = Vec::new();
            let mut ok = true;
            for (r, declarator) in &lists {
                let parts = split_top(&p.toks, r.clone(), ",");
                if r.is_empty() || parts.len() != count {
                    ok = false;
                    break;
                }
                let only = if *declarator {
                    vec![Token::new(TokKind::Ident, "void")]
                } else {
                    Vec::new()
                };
                splices.push(remove_list_element(&parts, k, only));
            }
            if ok {
                out.push(Edit { splices });
            }
        }
    }
    out
}

/// True when the name token at `i` declares a function (a definition's or a prototype's
/// declarator) rather than calling it.
fn is_declarator(p: &Program, i: usize) -> bool {
    p.unit.items.iter().any(|item| {
        if !item.span.contains(&i) {
            return false;
        }
        match &item.kind {
            ItemKind::Function { params, .. } => params.start == i + 2,
            ItemKind::Declaration => depth_at(&p.toks, item.span.start, i) == 0,
            ItemKind::Directive => false,
        }
    })
}

/// Bracket depth at `i`, counting from `start`.
pub fn depth_at(toks: &[Token], start: usize, i: usize) -> usize {
    let mut d: usize = 0;
    for t in &toks[start..i] {
        if t.kind == TokKind::Punct {
            match t.text.as_str() {
                "(" | "[" | "{" => d += 1,
                ")" | "]" | "}" => d = d.saturating_sub(1),
                _ => {}
            }
        }
    }
    d
}

/// Each member of a struct or union definition, removed together with the element at its
/// position (or with its designator) in every brace initializer of that type.
fn fields(p: &Program) -> Vec<Edit> {
    let toks = &p.toks;
    let mut out = Vec::new();
    for i in 0..toks.len().saturating_sub(2) {
        if !(toks[i].is("struct") || toks[i].is("union"))
            || toks[i + 1].kind != TokKind::Ident
            || !toks[i + 2].is("{")
        {
            continue;
        }
        let tag = &toks[i + 1].text;
        let Ok(close) = matching(toks, i + 2) else {
            continue;
        };
        let members: Vec<Range<usize>> = split_top(toks, i + 3..close, ";")
            .into_iter()
            .filter(|r| !r.is_empty())
            .map(|r| r.start..r.end + 1)
            .collect();
        if members.len() < 2 {
            continue;
        }
        let inits = initializers_of(p, &toks[i].text, tag, close);
        for (k, m) in members.iter().enumerate() {
            let name = member_name(toks, m.clone());
            let mut splices = vec![(m.clone(), Vec::new())];
            for list in &inits {
                let parts = split_top(toks, list.clone(), ",");
                let parts: Vec<Range<usize>> =
                    parts.into_iter().filter(|r| !r.is_empty()).collect();
                let designated = parts.iter().position(|r| {
                    toks[r.start].is(".") && toks.get(r.start + 1).map(|t| &t.text) == name.as_ref()
                });
                let at = match designated {
                    Some(d) => Some(d),
                    None if parts.iter().all(|r| !toks[r.start].is(".")) && k < parts.len() => {
                        Some(k)
                    }
                    None => None,
                };
                if let Some(at) = at {
                    splices.push(remove_list_element(&parts, at, Vec::new()));
                }
            }
            out.push(Edit { splices });
        }
    }
    out
}

/// The member's declared name: the last identifier before `:`, `[` or the end.
fn member_name(toks: &[Token], m: Range<usize>) -> Option<String> {
    let mut name = None;
    for t in &toks[m] {
        if t.is(":") || t.is("[") {
            break;
        }
        if t.kind == TokKind::Ident {
            name = Some(t.text.clone());
        }
    }
    name
}

/// The insides of the brace initializers of objects of type `KEYWORD tag` (each element
/// of an array of them), outside the definition ending at `def_close`.
fn initializers_of(p: &Program, keyword: &str, tag: &str, def_close: usize) -> Vec<Range<usize>> {
    let toks = &p.toks;
    let mut out = Vec::new();
    let mut decls: Vec<Range<usize>> = p
        .unit
        .items
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Declaration))
        .map(|i| i.span.clone())
        .collect();
    decls.extend(
        p.unit
            .statements()
            .iter()
            .filter(|s| matches!(s.kind, StmtKind::Simple))
            .map(|s| s.span.clone()),
    );
    for d in decls {
        let has_type = (d.start..d.end.saturating_sub(1))
            .any(|j| toks[j].is(keyword) && toks[j + 1].text == tag);
        if !has_type {
            continue;
        }
        for decl in split_top(toks, d.start..d.end - 1, ",") {
            let Some(eq) = (decl.start..decl.end)
                .find(|&j| toks[j].is("=") && depth_at(toks, decl.start, j) == 0)
            else {
                continue;
            };
            if eq < def_close {
                continue;
            }
            let pointer = toks[decl.start..eq].iter().any(|t| t.is("*"));
            if pointer || !toks.get(eq + 1).is_some_and(|t| t.is("{")) {
                continue;
            }
            let Ok(close) = matching(toks, eq + 1) else {
                continue;
            };
            let array = toks[decl.start..eq].iter().any(|t| t.is("["));
            if array {
                for e in split_top(toks, eq + 2..close, ",") {
                    if toks.get(e.start).is_some_and(|t| t.is("{")) {
                        if let Ok(c) = matching(toks, e.start) {
                            out.push(e.start + 1..c);
                        }
                    }
                }
            } else {
                out.push(eq + 2..close);
            }
        }
    }
    out
}

/// The ranges that hold expressions: statement expressions, conditions, `for` headers,
/// `return` values and initializers (a brace list's elements).
pub fn expression_ranges(p: &Program) -> Vec<Range<usize>> {
    let toks = &p.toks;
    let mut out = Vec::new();
    for item in &p.unit.items {
        if matches!(item.kind, ItemKind::Declaration) {
            declaration_initializers(p, item.span.start..item.span.end - 1, &mut out);
        }
    }
    for s in p.unit.statements() {
        match &s.kind {
            StmtKind::Simple => {
                let r = s.span.start..s.span.end - 1;
                if r.is_empty() {
                    continue;
                }
                let first = &toks[r.start];
                if first.is("return") {
                    out.push(r.start + 1..r.end);
                } else if first.is("goto") || first.is("break") || first.is("continue") {
                } else if starts_type(first, &p.typedefs) || first.is("typedef") {
                    declaration_initializers(p, r, &mut out);
                } else {
                    out.push(r);
                }
            }
            StmtKind::If { cond, .. }
            | StmtKind::While { cond, .. }
            | StmtKind::DoWhile { cond, .. }
            | StmtKind::Switch { cond, .. } => out.push(cond.clone()),
            StmtKind::For { header, .. } => {
                let parts = split_top(toks, header.clone(), ";");
                for (k, part) in parts.into_iter().enumerate() {
                    if k == 0
                        && toks
                            .get(part.start)
                            .is_some_and(|t| starts_type(t, &p.typedefs))
                    {
                        declaration_initializers(p, part, &mut out);
                    } else if !part.is_empty() {
                        out.push(part);
                    }
                }
            }
            _ => {}
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// The initializer expressions of the declaration `r` (without its `;`).
fn declaration_initializers(p: &Program, r: Range<usize>, out: &mut Vec<Range<usize>>) {
    let toks = &p.toks;
    for decl in split_top(toks, r, ",") {
        let eq =
            (decl.start..decl.end).find(|&j| toks[j].is("=") && depth_at(toks, decl.start, j) == 0);
        if let Some(eq) = eq {
            initializer_elements(toks, eq + 1..decl.end, out);
        }
    }
}

fn initializer_elements(toks: &[Token], r: Range<usize>, out: &mut Vec<Range<usize>>) {
    if r.is_empty() {
        return;
    }
    if toks[r.start].is("{") {
        if let Ok(c) = matching(toks, r.start) {
            for e in split_top(toks, r.start + 1..c, ",") {
                // A designator `.f =` or `[i] =` is not part of the value.
                let value = (e.start..e.end)
                    .find(|&j| toks[j].is("=") && depth_at(toks, e.start, j) == 0)
                    .map_or(e.clone(), |eq| eq + 1..e.end);
                initializer_elements(toks, value, out);
            }
        }
    } else {
        out.push(r);
    }
}

/// Every sub-expression to `0` and `1` (unless it already is one), to its value when it
/// is a constant, and to each of its operands.
fn expressions(p: &Program) -> Vec<Edit> {
    let toks = &p.toks;
    let mut out = Vec::new();
    for r in expression_ranges(p) {
        let Some(root) = parse_expr(toks, r, &p.typedefs) else {
            continue;
        };
        let lvalues: HashSet<Range<usize>> = root
            .preorder()
            .into_iter()
            .flat_map(|n| match n.kind {
                NodeKind::Assign | NodeKind::IncDec => vec![n.kids[0].span.clone()],
                NodeKind::Unary if toks[n.span.start].is("&") => vec![n.kids[0].span.clone()],
                _ => Vec::new(),
            })
            .collect();
        for n in root.preorder() {
            let text: Vec<&str> = toks[n.span.clone()]
                .iter()
                .map(|t| t.text.as_str())
                .collect();
            if !lvalues.contains(&n.span) {
                if let Some(v) = constant_value(toks, n) {
                    let lit = literal(v);
                    if text != lit.iter().map(|t| t.text.as_str()).collect::<Vec<_>>() {
                        out.push(Edit::replace(n.span.clone(), lit));
                    }
                }
                for c in ["0", "1"] {
                    if text != [c] {
                        out.push(Edit::replace(n.span.clone(), vec![Token::number(c)]));
                    }
                }
            }
            let operands: Vec<&Node> = match n.kind {
                NodeKind::Paren | NodeKind::Cast | NodeKind::Unary | NodeKind::IncDec => {
                    vec![&n.kids[0]]
                }
                NodeKind::Binary | NodeKind::Comma => vec![&n.kids[0], &n.kids[1]],
                NodeKind::Ternary => vec![&n.kids[1], &n.kids[2]],
                NodeKind::Assign => vec![&n.kids[1]],
                NodeKind::Call => n.kids.iter().skip(1).collect(),
                NodeKind::Primary | NodeKind::Access => Vec::new(),
            };
            for k in operands {
                let mut with = toks[k.span.clone()].to_vec();
                if matches!(
                    k.kind,
                    NodeKind::Assign | NodeKind::Comma | NodeKind::Ternary
                ) {
                    with.insert(0, Token::punct("("));
                    with.push(Token::punct(")"));
                }
                out.push(Edit::replace(n.span.clone(), with));
            }
        }
    }
    out
}

/// The value of an integer expression made of literals only, computed as C's `int` or
/// `long long` arithmetic would give it when nothing overflows (`None` otherwise, or when
/// anything but literals, parentheses and integer operators is involved).
fn constant_value(toks: &[Token], n: &Node) -> Option<i64> {
    let value = |k: &Node| constant_value(toks, k);
    match n.kind {
        NodeKind::Primary => {
            let t = &toks[n.span.start];
            if t.kind != TokKind::Number || n.span.len() != 1 {
                return None;
            }
            let digits = t.text.trim_end_matches(['u', 'U', 'l', 'L']);
            if digits != t.text || digits.starts_with('0') && digits.len() > 1 {
                return None;
            }
            digits.parse::<i64>().ok().filter(|v| *v <= i32::MAX as i64)
        }
        NodeKind::Paren => value(&n.kids[0]),
        NodeKind::Unary => {
            let v = value(&n.kids[0])?;
            match toks[n.span.start].text.as_str() {
                "-" => v.checked_neg(),
                "+" => Some(v),
                "!" => Some((v == 0) as i64),
                "~" => Some(!v),
                _ => None,
            }
        }
        NodeKind::Binary => {
            let (a, b) = (value(&n.kids[0])?, value(&n.kids[1])?);
            let op = &toks[n.kids[0].span.end].text;
            let v = match op.as_str() {
                "+" => a.checked_add(b)?,
                "-" => a.checked_sub(b)?,
                "*" => a.checked_mul(b)?,
                "/" if b != 0 => a.checked_div(b)?,
                "%" if b != 0 => a.checked_rem(b)?,
                "<" => (a < b) as i64,
                ">" => (a > b) as i64,
                "<=" => (a <= b) as i64,
                ">=" => (a >= b) as i64,
                "==" => (a == b) as i64,
                "!=" => (a != b) as i64,
                "&&" => (a != 0 && b != 0) as i64,
                "||" => (a != 0 || b != 0) as i64,
                "&" => a & b,
                "|" => a | b,
                "^" => a ^ b,
                _ => return None,
            };
            // Stay within `int` so the literal's type is what the expression's was.
            (i32::MIN as i64..=i32::MAX as i64)
                .contains(&v)
                .then_some(v)
        }
        _ => None,
    }
}

/// `v` as tokens (`-5` is `( - 5 )` so it binds as one operand).
fn literal(v: i64) -> Vec<Token> {
    if v < 0 {
        vec![
            Token::punct("("),
            Token::punct("-"),
            Token::number(&v.unsigned_abs().to_string()),
            Token::punct(")"),
        ]
    } else {
        vec![Token::number(&v.to_string())]
    }
}

/// Drops `= init` from declarations (top level and in blocks).
fn initializers(p: &Program) -> Vec<Edit> {
    let toks = &p.toks;
    let mut decls: Vec<Range<usize>> = p
        .unit
        .items
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Declaration))
        .map(|i| i.span.start..i.span.end - 1)
        .collect();
    decls.extend(
        p.unit
            .statements()
            .into_iter()
            .filter(|s| {
                matches!(s.kind, StmtKind::Simple)
                    && toks
                        .get(s.span.start)
                        .is_some_and(|t| starts_type(t, &p.typedefs))
            })
            .map(|s| s.span.start..s.span.end - 1),
    );
    let mut out = Vec::new();
    for d in decls {
        for decl in split_top(toks, d, ",") {
            if let Some(eq) = (decl.start..decl.end)
                .find(|&j| toks[j].is("=") && depth_at(toks, decl.start, j) == 0)
            {
                out.push(Edit::remove(eq..decl.end));
            }
        }
    }
    out
}

/// Words a reduced program rarely needs: every occurrence of one at once, then each alone;
/// and `char`/`short`/`long` to `int`.
fn type_words(p: &Program) -> Vec<Edit> {
    const DROP: [&str; 10] = [
        "static", "volatile", "const", "register", "inline", "extern", "signed", "unsigned",
        "short", "long",
    ];
    let toks = &p.toks;
    let mut out = Vec::new();
    for w in DROP {
        let at: Vec<usize> = (0..toks.len())
            .filter(|&i| toks[i].kind == TokKind::Ident && toks[i].text == w)
            .collect();
        if at.len() > 1 {
            out.push(Edit {
                splices: at.iter().map(|&i| (i..i + 1, Vec::new())).collect(),
            });
        }
        out.extend(at.into_iter().map(|i| Edit::remove(i..i + 1)));
    }
    for (i, t) in toks.iter().enumerate() {
        if t.kind == TokKind::Ident && matches!(t.text.as_str(), "char" | "short") {
            out.push(Edit::replace(
                i..i + 1,
                vec![Token::new(TokKind::Ident, "int")],
            ));
        }
    }
    out
}

/// The program's typedef names (so `(T) x` reads as a cast).
fn typedef_names(toks: &[Token], unit: &Unit) -> HashSet<String> {
    let mut names = HashSet::new();
    for item in &unit.items {
        if !matches!(item.kind, ItemKind::Declaration) || !toks[item.span.start].is("typedef") {
            continue;
        }
        let mut depth: usize = 0;
        let mut last = None;
        let mut first_in_parens = None;
        for t in &toks[item.span.clone()] {
            match t.text.as_str() {
                "(" | "[" | "{" if t.kind == TokKind::Punct => depth += 1,
                ")" | "]" | "}" if t.kind == TokKind::Punct => depth = depth.saturating_sub(1),
                _ if t.kind == TokKind::Ident && depth == 0 => last = Some(t.text.clone()),
                _ if t.kind == TokKind::Ident && depth == 1 && first_in_parens.is_none() => {
                    first_in_parens = Some(t.text.clone())
                }
                _ => {}
            }
        }
        if let Some(n) = last
            .filter(|n| !starts_type(&Token::new(TokKind::Ident, n), &HashSet::new()))
            .or(first_in_parens)
        {
            names.insert(n);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn program(src: &str) -> Program {
        Program::new(tokenize(src).unwrap()).unwrap()
    }

    fn results(p: &Program, family: Family) -> Vec<String> {
        family(p)
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
    fn a_parameter_goes_with_every_argument() {
        let p = program("static int f(int a, int b);\nstatic int f(int a, int b) { return b; }\nint main(void) { return f(1, 2) + f(3, 4); }\n");
        let r = results(&p, parameters);
        assert_eq!(r.len(), 2);
        assert!(r[0].contains("f ( int b ) ;"), "{}", r[0]);
        assert!(r[0].contains("f ( 2 ) + f ( 4 )"), "{}", r[0]);
        assert!(r[1].contains("f ( int a ) {"), "{}", r[1]);
    }

    #[test]
    fn an_address_taken_function_keeps_its_parameters() {
        let p = program("static int f(int a) { return a; }\nint (*fp)(int) = f;\nint main(void) { return f(1); }\n");
        assert!(parameters(&p).is_empty());
    }

    #[test]
    fn a_field_goes_with_its_initializer_elements() {
        let p = program("struct S { int a; char b; int c; };\nstruct S s = { 1, 2, 3 };\nstruct S t[2] = { { 4, 5, 6 }, { 7, 8, 9 } };\nint main(void) { return s.c; }\n");
        let r = results(&p, fields);
        assert_eq!(r.len(), 3);
        assert!(r[1].contains("struct S { int a ; int c ; }"), "{}", r[1]);
        assert!(r[1].contains("{ 1 , 3 }"), "{}", r[1]);
        assert!(r[1].contains("{ { 4 , 6 } , { 7 , 9 } }"), "{}", r[1]);
    }

    #[test]
    fn expressions_go_to_constants_values_and_operands() {
        let p = program("int main(void) { int x = (2 + 3) * 4; return x - 1; }\n");
        let r = results(&p, expressions);
        assert!(r.iter().any(|c| c.contains("int x = 20 ;")), "{r:?}");
        assert!(r.iter().any(|c| c.contains("int x = 4 ;")), "{r:?}");
        assert!(r.iter().any(|c| c.contains("return x ;")), "{r:?}");
        assert!(r.iter().any(|c| c.contains("return 0 ;")), "{r:?}");
    }

    #[test]
    fn loops_unroll_once_and_ifs_keep_one_branch() {
        let p = program("int main(void) { int i; for (i = 0; i < 3; i++) { i += 2; } if (i) { i = 1; } else { i = 2; } return i; }\n");
        let l = results(&p, loops);
        assert_eq!(l.len(), 1);
        assert!(l[0].contains("{ i = 0 ; { i += 2 ; } }"), "{}", l[0]);
        let b = results(&p, branches);
        assert_eq!(b.len(), 3);
        assert!(b[2].contains("if ( i ) { i = 1 ; } return"), "{}", b[2]);
    }

    #[test]
    fn chunks_go_from_halves_to_single_items() {
        let ranges: Vec<Range<usize>> = (0..8).map(|i| i..i + 1).collect();
        let c = chunks(&ranges);
        // 2 halves, 4 quarters, 8 eighths... of size 4, 2, 1.
        assert_eq!(c.len(), 2 + 4 + 8);
        assert_eq!(c[0].splices.len(), 4);
        assert_eq!(c[13].splices.len(), 1);
    }
}
