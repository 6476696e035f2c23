//! The C reducer's tokens: a program as a flat list of tokens, and back to text.
//!
//! Why: the reducer edits the *source* program (C-Reduce's approach), not phicc's AST, so
//! a reduced file is the user's own code minus pieces, and nothing phicc's printer might
//! get wrong can change what a candidate means. Preprocessor lines are kept whole as one
//! token each (`#include <stdio.h>` is an item the reducer may drop, never split); macros
//! used in the code stay calls like any other. Comments are dropped.
//!
//! Invariants:
//! - [`print`] of [`tokenize`]'s tokens re-tokenizes to the same token texts (the
//!   printer puts a space or a newline between any two tokens that would otherwise glue);
//! - a directive token starts with `#` and runs to the end of its (continued) line;
//! - bad input (an unterminated string or comment, a stray byte) is an error with its
//!   line and column, never a panic.

use std::fmt;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokKind {
    Ident,
    Number,
    Str,
    Char,
    Punct,
    /// A whole preprocessor line.
    Directive,
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    pub kind: TokKind,
    pub text: String,
}

impl Token {
    pub fn new(kind: TokKind, text: &str) -> Token {
        Token {
            kind,
            text: text.to_string(),
        }
    }

    pub fn punct(text: &str) -> Token {
        Token::new(TokKind::Punct, text)
    }

    pub fn number(text: &str) -> Token {
        Token::new(TokKind::Number, text)
    }

    /// True for the punctuator `p`.
    pub fn is(&self, p: &str) -> bool {
        matches!(self.kind, TokKind::Punct | TokKind::Ident) && self.text == p
    }
}

/// A lexical error with its place (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.col, self.message)
    }
}

/// Punctuators, longest first (maximal munch).
const PUNCTS: [&str; 48] = [
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", "&", "*",
    "+", "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#",
];

/// Splits C source into tokens (comments dropped, directives whole).
pub fn tokenize(src: &str) -> Result<Vec<Token>, LexError> {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    // True while only whitespace has been seen on the current line.
    let mut at_line_start = true;
    let err = |i: usize, line: usize, line_start: usize, m: &str| LexError {
        line,
        col: i - line_start + 1,
        message: m.to_string(),
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            i += 1;
            line += 1;
            line_start = i;
            at_line_start = true;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(err(start, line, line_start, "unterminated comment"));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                if b[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
                i += 1;
            }
            continue;
        }
        if c == b'#' && at_line_start {
            let start = i;
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 2;
                    line += 1;
                    line_start = i;
                    continue;
                }
                i += 1;
            }
            toks.push(Token::new(TokKind::Directive, src[start..i].trim_end()));
            continue;
        }
        at_line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            // A prefixed literal: L"..", u8"..", L'x'.
            if i < b.len()
                && (b[i] == b'"' || b[i] == b'\'')
                && matches!(&src[start..i], "L" | "u" | "U" | "u8")
            {
                let end = quoted_end(b, i)
                    .ok_or_else(|| err(i, line, line_start, "unterminated literal"))?;
                let kind = if b[i] == b'"' {
                    TokKind::Str
                } else {
                    TokKind::Char
                };
                toks.push(Token::new(kind, &src[start..end]));
                i = end;
                continue;
            }
            toks.push(Token::new(TokKind::Ident, &src[start..i]));
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let start = i;
            i += 1;
            while i < b.len() {
                let d = b[i];
                let exp = (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exp {
                    i += 1;
                } else {
                    break;
                }
            }
            toks.push(Token::new(TokKind::Number, &src[start..i]));
            continue;
        }
        if c == b'"' || c == b'\'' {
            let end =
                quoted_end(b, i).ok_or_else(|| err(i, line, line_start, "unterminated literal"))?;
            let kind = if c == b'"' {
                TokKind::Str
            } else {
                TokKind::Char
            };
            toks.push(Token::new(kind, &src[i..end]));
            i = end;
            continue;
        }
        match PUNCTS.iter().find(|p| src[i..].starts_with(*p)) {
            Some(p) => {
                toks.push(Token::punct(p));
                i += p.len();
            }
            None => {
                return Err(err(
                    i,
                    line,
                    line_start,
                    &format!(
                        "unexpected character {:?}",
                        src[i..].chars().next().unwrap_or('?')
                    ),
                ))
            }
        }
    }
    Ok(toks)
}

/// The index just past the closing quote of the literal opening at `i`.
fn quoted_end(b: &[u8], i: usize) -> Option<usize> {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return None,
            c if c == q => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// True when `a` directly followed by `b` would lex differently (glue).
fn needs_space(a: &Token, b: &Token) -> bool {
    let word = |t: &Token| matches!(t.kind, TokKind::Ident | TokKind::Number);
    if word(a) && (word(b) || matches!(b.kind, TokKind::Str | TokKind::Char)) {
        return true;
    }
    if a.kind == TokKind::Number && b.text.starts_with('.') {
        return true;
    }
    if a.kind == TokKind::Punct && b.kind == TokKind::Punct {
        let glued = format!("{}{}", a.text, b.text);
        // Any longer punctuator (or a comment opener) formed across the boundary.
        return PUNCTS
            .iter()
            .any(|p| p.len() > a.text.len() && glued.starts_with(p))
            || glued.contains("//")
            || glued.contains("/*");
    }
    false
}

/// The program as text: one statement or declaration per line, blocks indented.
pub fn print(toks: &[Token]) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Brace {
        /// A brace initializer: stays on its line.
        Init,
        /// A function body or a statement block: a `}` ends its line.
        Body,
        /// A struct, union or enum body: `} name;` continues the declaration.
        Record,
    }
    let mut out = String::new();
    let mut depth: usize = 0;
    // Parentheses open: `;` inside `for (...)` does not end a line.
    let mut parens: usize = 0;
    let mut line_start = true;
    let mut braces: Vec<Brace> = Vec::new();
    let newline = |out: &mut String, line_start: &mut bool| {
        if !*line_start {
            out.push('\n');
            *line_start = true;
        }
    };
    for (i, t) in toks.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &toks[p]);
        if t.kind == TokKind::Directive {
            newline(&mut out, &mut line_start);
            out.push_str(&t.text);
            out.push('\n');
            continue;
        }
        let closing = (t.is("}") && parens == 0).then(|| braces.pop().unwrap_or(Brace::Body));
        if matches!(closing, Some(Brace::Body | Brace::Record)) {
            depth = depth.saturating_sub(1);
            newline(&mut out, &mut line_start);
        }
        if line_start {
            for _ in 0..depth {
                out.push_str("    ");
            }
        } else if let Some(prev) = prev {
            if needs_space(prev, t) || spaced(toks, i) {
                out.push(' ');
            }
        }
        out.push_str(&t.text);
        line_start = false;
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" => parens += 1,
            ")" | "]" => parens = parens.saturating_sub(1),
            "{" if parens == 0 => {
                let after = |p: &str| prev.is_some_and(|t| t.is(p));
                let kind = if after("=")
                    || (braces.last() == Some(&Brace::Init) && (after(",") || after("{")))
                {
                    Brace::Init
                } else if prev.is_some_and(|t| {
                    t.kind == TokKind::Ident && !matches!(t.text.as_str(), "else" | "do")
                }) && !after(")")
                {
                    Brace::Record
                } else {
                    Brace::Body
                };
                braces.push(kind);
                if kind != Brace::Init {
                    depth += 1;
                    newline(&mut out, &mut line_start);
                }
            }
            "}" if parens == 0 => {
                let next = toks.get(i + 1);
                let continues = match closing {
                    Some(Brace::Init) => true,
                    Some(Brace::Record) => next.is_some_and(|n| {
                        !(n.is("}") || n.kind == TokKind::Ident && is_statement_start(&n.text))
                    }),
                    _ => next.is_some_and(|n| {
                        n.is(";")
                            || n.is("else")
                            || n.is("while") && toks.get(i + 2).is_some_and(|p| p.is("("))
                    }),
                };
                if !continues {
                    newline(&mut out, &mut line_start);
                }
            }
            ";" if parens == 0 && braces.last() != Some(&Brace::Init) => {
                newline(&mut out, &mut line_start)
            }
            ":" if parens == 0 && label_colon(toks, i) => newline(&mut out, &mut line_start),
            _ => {}
        }
    }
    newline(&mut out, &mut line_start);
    out
}

/// Keywords that begin a statement (a `}` before one ends its line).
fn is_statement_start(word: &str) -> bool {
    matches!(
        word,
        "if" | "for"
            | "while"
            | "do"
            | "switch"
            | "return"
            | "break"
            | "continue"
            | "goto"
            | "case"
            | "default"
    )
}

/// True when the `:` at `i` ends a `case`/`default` label or a plain label.
fn label_colon(toks: &[Token], i: usize) -> bool {
    if i >= 1 && toks[i - 1].is("default") {
        return true;
    }
    if i >= 1
        && toks[i - 1].kind == TokKind::Ident
        && (i < 2
            || toks[i - 2].is(";")
            || toks[i - 2].is("{")
            || toks[i - 2].is("}")
            || toks[i - 2].is(":"))
    {
        return true;
    }
    // `case EXPR:` — a `case` since the last statement boundary, with no `?` pending.
    let mut j = i;
    let mut questions = 0;
    while j > 0 {
        j -= 1;
        let t = &toks[j];
        if t.is("?") {
            questions += 1;
        } else if t.is(":") {
            if questions > 0 {
                questions -= 1;
            } else {
                return false;
            }
        }
        if t.is("case") {
            return questions == 0;
        }
        if t.is(";") || t.is("{") || t.is("}") {
            return false;
        }
    }
    false
}

/// Readability spaces: around binary operators, after commas and keywords, around
/// braces that open or follow a statement's head.
fn spaced(toks: &[Token], i: usize) -> bool {
    let (prev, t) = (&toks[i - 1], &toks[i]);
    let operand_end = |k: usize| {
        let p = &toks[k];
        match p.kind {
            TokKind::Number | TokKind::Char | TokKind::Str => true,
            TokKind::Ident => !matches!(p.text.as_str(), "return" | "sizeof" | "case"),
            _ => p.is(")") || p.is("]"),
        }
    };
    let binary_op = |k: usize| {
        let p = &toks[k];
        p.kind == TokKind::Punct
            && match p.text.as_str() {
                "+" | "-" | "*" | "&" => {
                    k > 0
                        && operand_end(k - 1)
                        && !(p.is("*")
                            && k >= 1
                            && toks[k - 1].kind == TokKind::Ident
                            && k + 1 < toks.len()
                            && toks[k + 1].is(")"))
                }
                "/" | "%" | "<<" | ">>" | "<" | ">" | "<=" | ">=" | "==" | "!=" | "^" | "|"
                | "&&" | "||" | "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^="
                | "<<=" | ">>=" | "?" => true,
                ":" => !label_colon(toks, k),
                _ => false,
            }
    };
    prev.is(",")
        || binary_op(i)
        || binary_op(i - 1)
        || (t.is("{") && (prev.is(")") || prev.kind == TokKind::Ident))
        || (prev.is("}") && t.kind == TokKind::Ident)
        || (prev.kind == TokKind::Ident
            && matches!(
                prev.text.as_str(),
                "if" | "while" | "for" | "switch" | "return" | "else" | "do" | "case"
            ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &[Token]) -> Vec<String> {
        t.iter().map(|t| t.text.clone()).collect()
    }

    #[test]
    fn printing_re_tokenizes_to_the_same_tokens() {
        let src = "#include <stdio.h>\n/* c */ static int g = -1; // x\nint main(void) { int a=g- -1; a = a+ +1; a>>=1; if (a) { a--; } else a = 'x'; printf(\"%d\\n\", a); lbl: for (a=0;a<3;a++) {} switch (a) { case 1: case 2 ? 3 : 4: break; default: ; } return a > 0 ? 1 : 0; }\n";
        let toks = tokenize(src).unwrap();
        assert_eq!(toks[0].kind, TokKind::Directive);
        assert_eq!(toks[0].text, "#include <stdio.h>");
        let printed = print(&toks);
        let again = tokenize(&printed).unwrap();
        assert_eq!(texts(&toks), texts(&again), "{printed}");
        assert!(printed.contains("a = a + +1;"), "{printed}");
        assert!(printed.contains("- -1"), "{printed}");
    }

    #[test]
    fn bad_input_is_an_error_with_its_place() {
        let e = tokenize("int a;\n  char *s = \"abc;\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 13));
        assert!(tokenize("int a; /* open").is_err());
        assert!(tokenize("int a = 1 @ 2;").is_err());
    }
}
