//! Printing a token stream as C text (`phicc -E`).
//!
//! Why it exists: preprocessed output must be readable and, above all, re-lex into the
//! same tokens.
//!
//! Format: no line markers (like `gcc -E -P`). A token that started a logical line in
//! the source starts a new output line; otherwise one space separates tokens that had
//! whitespace between them. A space is also inserted wherever gluing two spellings
//! could lex differently (`+` `+`, `x` `1`, `1` `.`, `L` `"s"`, ...), so the
//! invariant is: lexing the output gives back exactly the input tokens. A pragma token
//! is printed as a `#pragma` line of its own.

use super::token::{Token, TokenKind};

/// Whether printing `b` right after `a` could merge them or change how `b` lexes.
fn needs_separator(a: &str, b: &str) -> bool {
    let (Some(last), Some(first)) = (a.chars().last(), b.chars().next()) else {
        return false;
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$' || !c.is_ascii();
    let punct = |c: char| "+-*/%<>=!&|^#.:".contains(c);
    let a_is_number =
        a.starts_with(|c: char| c.is_ascii_digit()) || (a.starts_with('.') && a.len() > 1);
    (word(last) && word(first))
        || (punct(last) && punct(first))
        || (word(last) && (first == '\'' || first == '"'))
        || (a_is_number && (first == '.' || first == '+' || first == '-'))
        || (last == '.' && first.is_ascii_digit())
        || (last == '/' && first == '*')
}

/// The tokens as text (`Eof` ends the text; a trailing newline is added).
pub fn tokens_to_text(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut previous: Option<&str> = None;
    for tok in tokens {
        match &tok.kind {
            TokenKind::Eof => break,
            TokenKind::Pragma(inner) => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("#pragma ");
                out.push_str(tokens_to_text(inner).trim_end());
                out.push('\n');
                previous = None;
                continue;
            }
            _ => {}
        }
        if let Some(prev) = previous {
            if tok.line_start {
                out.push('\n');
            } else if tok.leading_space || needs_separator(prev, &tok.spelling) {
                out.push(' ');
            }
        }
        out.push_str(&tok.spelling);
        previous = Some(&tok.spelling);
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
