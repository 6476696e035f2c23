//! A light syntax tree over the tokens: top-level items, function bodies, statements.
//!
//! Why: the reducer's edits are structural (drop a statement, keep one branch of an `if`,
//! unroll a loop once), but they must not depend on phicc's parser accepting or printing
//! anything: the tree only records *where* each piece is (token ranges, found by balanced
//! brackets), and every edit is a splice of the flat token list. C-Reduce works the same
//! way; a candidate the tree misjudges is simply a candidate phicc or gcc rejects.
//!
//! Grammar (what is recognised; anything else inside a function is a simple statement
//! running to its `;`):
//!   unit      := item*
//!   item      := DIRECTIVE | declaration-tokens ';' | declarator '(' params ')' block
//!   block     := '{' stmt* '}'
//!   stmt      := block | 'if' '(' e ')' stmt ['else' stmt] | 'while' '(' e ')' stmt
//!              | 'do' stmt 'while' '(' e ')' ';' | 'for' '(' header ')' stmt
//!              | 'switch' '(' e ')' stmt | 'case' e ':' | 'default' ':' | IDENT ':'
//!              | tokens ';'
//!
//! Invariants: every range is a half-open range of token indices into the list the tree
//! was built from; a block's `stmts` are its direct children in order; a parse error is
//! an `Err` naming the token index, never a panic.

use super::tokens::{TokKind, Token};
use std::ops::Range;

/// The whole program.
#[derive(Clone, Debug)]
pub struct Unit {
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug)]
pub struct Item {
    pub span: Range<usize>,
    pub kind: ItemKind,
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    Directive,
    Declaration,
    Function {
        name: String,
        /// The tokens between the parameter list's parentheses.
        params: Range<usize>,
        body: Block,
    },
}

/// `{ stmts }`.
#[derive(Clone, Debug)]
pub struct Block {
    pub open: usize,
    pub close: usize,
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub span: Range<usize>,
    pub kind: StmtKind,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// A declaration, expression, `return`, `goto`, `break`, `continue` or `;`.
    Simple,
    Block(Block),
    If {
        cond: Range<usize>,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Range<usize>,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Range<usize>,
    },
    For {
        /// Between the parentheses: `init; cond; step`.
        header: Range<usize>,
        body: Box<Stmt>,
    },
    Switch {
        cond: Range<usize>,
        body: Box<Stmt>,
    },
    /// `case e:`, `default:` or `name:` (the statement after it is a sibling).
    Label,
}

/// The index of the bracket closing the one at `open` (`(`, `[` or `{`).
pub fn matching(toks: &[Token], open: usize) -> Result<usize, String> {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth
                    .checked_sub(1)
                    .ok_or(format!("token {i}: unbalanced `{}`", t.text))?;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(format!(
        "token {open}: `{}` is never closed",
        toks[open].text
    ))
}

fn is_open(t: &Token) -> bool {
    t.kind == TokKind::Punct && matches!(t.text.as_str(), "(" | "[" | "{")
}

/// Parses the token list.
pub fn parse_unit(toks: &[Token]) -> Result<Unit, String> {
    let mut items = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].kind == TokKind::Directive {
            items.push(Item {
                span: i..i + 1,
                kind: ItemKind::Directive,
            });
            i += 1;
            continue;
        }
        let start = i;
        let mut saw_assign = false;
        loop {
            let t = toks
                .get(i)
                .ok_or(format!("token {start}: a declaration without `;`"))?;
            if t.is("=") {
                saw_assign = true;
            }
            if t.is("{") && !saw_assign && i > start && toks[i - 1].is(")") {
                let close = matching(toks, i)?;
                let params_close = i - 1;
                let params_open = open_of(toks, params_close)?;
                let name = params_open
                    .checked_sub(1)
                    .map(|n| &toks[n])
                    .filter(|t| t.kind == TokKind::Ident)
                    .map(|t| t.text.clone())
                    .unwrap_or_default();
                let body = parse_block(toks, i)?;
                items.push(Item {
                    span: start..close + 1,
                    kind: ItemKind::Function {
                        name,
                        params: params_open + 1..params_close,
                        body,
                    },
                });
                i = close + 1;
                break;
            }
            if is_open(t) {
                i = matching(toks, i)? + 1;
                continue;
            }
            if t.is(";") {
                items.push(Item {
                    span: start..i + 1,
                    kind: ItemKind::Declaration,
                });
                i += 1;
                break;
            }
            i += 1;
        }
    }
    Ok(Unit { items })
}

/// The index of the bracket opening the one that closes at `close`.
pub fn open_of(toks: &[Token], close: usize) -> Result<usize, String> {
    let mut depth = 0usize;
    let mut i = close + 1;
    while i > 0 {
        i -= 1;
        let t = &toks[i];
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text.as_str() {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" => {
                depth = depth
                    .checked_sub(1)
                    .ok_or(format!("token {i}: unbalanced `{}`", t.text))?;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(format!(
        "token {close}: `{}` is never opened",
        toks[close].text
    ))
}

/// `block := '{' stmt* '}'` at `open`.
pub fn parse_block(toks: &[Token], open: usize) -> Result<Block, String> {
    let close = matching(toks, open)?;
    let mut stmts = Vec::new();
    let mut i = open + 1;
    while i < close {
        let s = parse_stmt(toks, i, close)?;
        i = s.span.end;
        stmts.push(s);
    }
    Ok(Block { open, close, stmts })
}

/// `'(' ... ')'` at `i`: the inside range and the index after it.
fn parens(toks: &[Token], i: usize) -> Result<(Range<usize>, usize), String> {
    if !toks.get(i).is_some_and(|t| t.is("(")) {
        return Err(format!("token {i}: `(` expected"));
    }
    let close = matching(toks, i)?;
    Ok((i + 1..close, close + 1))
}

/// One statement starting at `i`, inside a block ending at `end`.
fn parse_stmt(toks: &[Token], i: usize, end: usize) -> Result<Stmt, String> {
    let t = toks
        .get(i)
        .filter(|_| i < end)
        .ok_or(format!("token {i}: a statement expected"))?;
    let boxed = |j: usize| parse_stmt(toks, j, end).map(Box::new);
    if t.is("{") {
        let b = parse_block(toks, i)?;
        return Ok(Stmt {
            span: i..b.close + 1,
            kind: StmtKind::Block(b),
        });
    }
    if t.kind == TokKind::Ident {
        match t.text.as_str() {
            "if" => {
                let (cond, next) = parens(toks, i + 1)?;
                let then = boxed(next)?;
                let mut stop = then.span.end;
                let els = if stop < end && toks[stop].is("else") {
                    let e = boxed(stop + 1)?;
                    stop = e.span.end;
                    Some(e)
                } else {
                    None
                };
                return Ok(Stmt {
                    span: i..stop,
                    kind: StmtKind::If { cond, then, els },
                });
            }
            "while" | "switch" => {
                let (cond, next) = parens(toks, i + 1)?;
                let body = boxed(next)?;
                let span = i..body.span.end;
                let kind = if t.text == "while" {
                    StmtKind::While { cond, body }
                } else {
                    StmtKind::Switch { cond, body }
                };
                return Ok(Stmt { span, kind });
            }
            "for" => {
                let (header, next) = parens(toks, i + 1)?;
                let body = boxed(next)?;
                return Ok(Stmt {
                    span: i..body.span.end,
                    kind: StmtKind::For { header, body },
                });
            }
            "do" => {
                let body = boxed(i + 1)?;
                let w = body.span.end;
                if !toks.get(w).is_some_and(|t| t.is("while")) {
                    return Err(format!("token {w}: `while` expected after `do`"));
                }
                let (cond, next) = parens(toks, w + 1)?;
                if !toks.get(next).is_some_and(|t| t.is(";")) {
                    return Err(format!("token {next}: `;` expected"));
                }
                return Ok(Stmt {
                    span: i..next + 1,
                    kind: StmtKind::DoWhile { body, cond },
                });
            }
            "case" => {
                let colon = case_colon(toks, i + 1, end)?;
                return Ok(Stmt {
                    span: i..colon + 1,
                    kind: StmtKind::Label,
                });
            }
            "default" if toks.get(i + 1).is_some_and(|t| t.is(":")) => {
                return Ok(Stmt {
                    span: i..i + 2,
                    kind: StmtKind::Label,
                });
            }
            _ if toks.get(i + 1).is_some_and(|t| t.is(":")) => {
                return Ok(Stmt {
                    span: i..i + 2,
                    kind: StmtKind::Label,
                });
            }
            _ => {}
        }
    }
    // A simple statement: up to its `;` at bracket depth 0.
    let mut j = i;
    while j < end {
        if toks[j].is(";") {
            return Ok(Stmt {
                span: i..j + 1,
                kind: StmtKind::Simple,
            });
        }
        j = if is_open(&toks[j]) {
            matching(toks, j)? + 1
        } else {
            j + 1
        };
    }
    Err(format!("token {i}: a statement without `;`"))
}

/// The `:` ending `case EXPR:` (a `?`'s `:` skipped).
fn case_colon(toks: &[Token], mut j: usize, end: usize) -> Result<usize, String> {
    let mut questions = 0;
    while j < end {
        let t = &toks[j];
        if t.is("?") {
            questions += 1;
        } else if t.is(":") {
            if questions == 0 {
                return Ok(j);
            }
            questions -= 1;
        }
        j = if is_open(t) {
            matching(toks, j)? + 1
        } else {
            j + 1
        };
    }
    Err(format!("token {j}: `case` without `:`"))
}

impl Unit {
    /// Every block (function bodies and nested blocks), in preorder.
    pub fn blocks(&self) -> Vec<&Block> {
        let mut out = Vec::new();
        for item in &self.items {
            if let ItemKind::Function { body, .. } = &item.kind {
                out.push(body);
                let mut all = Vec::new();
                for s in &body.stmts {
                    walk(s, &mut all);
                }
                for s in all {
                    if let StmtKind::Block(b) = &s.kind {
                        out.push(b);
                    }
                }
            }
        }
        out
    }

    /// Every statement, in preorder.
    pub fn statements(&self) -> Vec<&Stmt> {
        let mut all = Vec::new();
        for item in &self.items {
            if let ItemKind::Function { body, .. } = &item.kind {
                for s in &body.stmts {
                    walk(s, &mut all);
                }
            }
        }
        all
    }
}

/// The sub-statements of `s` (not a block's list: a block is its own statement).
pub fn children(s: &Stmt) -> Vec<&Stmt> {
    match &s.kind {
        StmtKind::If { then, els, .. } => {
            let mut v = vec![then.as_ref()];
            if let Some(e) = els {
                v.push(e.as_ref());
            }
            v
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Switch { body, .. } => vec![body.as_ref()],
        _ => Vec::new(),
    }
}

fn walk<'a>(s: &'a Stmt, out: &mut Vec<&'a Stmt>) {
    out.push(s);
    if let StmtKind::Block(b) = &s.kind {
        for inner in &b.stmts {
            walk(inner, out);
        }
    }
    for c in children(s) {
        walk(c, out);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    #[test]
    fn items_and_statements_are_found_by_their_brackets() {
        let src = "#include <stdio.h>\nstruct S { int a; int b : 3; } s = { 1, 2 };\nstatic int f(int x);\nint f(int x) { if (x) { return 1; } else return 2; }\nint main(void) { int i; for (i = 0; i < 2; i++) { do { i++; } while (i < 1); } switch (i) { case 1 ? 2 : 3: break; default: ; } lbl: while (i) i--; return f(i); }\n";
        let toks = tokenize(src).unwrap();
        let u = parse_unit(&toks).unwrap();
        let kinds: Vec<&str> = u
            .items
            .iter()
            .map(|i| match &i.kind {
                ItemKind::Directive => "dir",
                ItemKind::Declaration => "decl",
                ItemKind::Function { .. } => "fn",
            })
            .collect();
        assert_eq!(kinds, ["dir", "decl", "decl", "fn", "fn"]);
        let ItemKind::Function { name, body, .. } = &u.items[4].kind else {
            panic!()
        };
        assert_eq!(name, "main");
        // int i; for; switch; case; break; default; ;  -- no: case/default are inside switch's block
        assert_eq!(
            body.stmts.len(),
            6,
            "int i; for; switch; lbl:; while; return"
        );
        assert!(matches!(body.stmts[3].kind, StmtKind::Label));
        let all = u.statements();
        assert!(all.len() > 12, "{}", all.len());
    }

    #[test]
    fn a_broken_program_is_an_error() {
        let toks = tokenize("int main(void) { if (1 { } }").unwrap();
        assert!(parse_unit(&toks).is_err());
        let toks = tokenize("int x = 1").unwrap();
        assert!(parse_unit(&toks).is_err());
    }
}
