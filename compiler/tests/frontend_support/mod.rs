//! Helpers shared by the front-end tests: preprocess a string, look at the result as
//! spellings, or at the error as its headline.
#![allow(dead_code)]

use compiler::frontend::{
    preprocess_str, Diagnostic, PpOutput, PreprocessOptions, Target, Token, TokenKind,
};
use std::path::PathBuf;

pub fn inputs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/frontend_inputs")
}

pub fn opts(target: Target) -> PreprocessOptions {
    PreprocessOptions {
        target,
        ..PreprocessOptions::default()
    }
}

pub fn run(text: &str) -> Result<PpOutput, Diagnostic> {
    preprocess_str("t.c", text, &PreprocessOptions::default())
}

/// The spellings of the output tokens, space-separated (Eof left out).
pub fn spellings_of(tokens: &[Token]) -> String {
    tokens
        .iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(|t| t.spelling.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Preprocesses `text` (as `t.c`) and returns the output spellings; panics with the
/// diagnostic on error.
pub fn pp(text: &str) -> String {
    pp_with(text, &PreprocessOptions::default())
}

pub fn pp_with(text: &str, opts: &PreprocessOptions) -> String {
    match preprocess_str("t.c", text, opts) {
        Ok(out) => spellings_of(&out.tokens),
        Err(e) => panic!("unexpected error:\n{e}\nfor input:\n{text}"),
    }
}

/// Preprocesses `text` (as `t.c`) expecting an error; returns its headline.
pub fn pp_err(text: &str) -> String {
    match preprocess_str("t.c", text, &PreprocessOptions::default()) {
        Ok(out) => panic!("expected an error, got: {}", spellings_of(&out.tokens)),
        Err(e) => e.headline(),
    }
}

/// The warnings' headlines for `text`.
pub fn pp_warnings(text: &str) -> Vec<String> {
    match run(text) {
        Ok(out) => out.warnings.iter().map(|w| w.headline()).collect(),
        Err(e) => panic!("unexpected error:\n{e}"),
    }
}

/// A small deterministic PRNG (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Splits C text into pp-tokens (identifiers, pp-numbers, quoted literals, longest
/// punctuators, other characters), dropping whitespace: the test's neutral view of
/// both outputs, independent of the code under test.
pub fn c_tokens(text: &str) -> Vec<String> {
    const PUNCTS: [&str; 54] = [
        "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
        "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:",
        "[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%", "<", ">", "^",
        "|", "?", ":", ";", "=", ",", "#",
    ];
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            i += 1;
            while i < chars.len() {
                let d = chars[i];
                if (d == '+' || d == '-') && matches!(chars[i - 1], 'e' | 'E' | 'p' | 'P')
                    || word(d)
                    || d == '.'
                {
                    i += 1;
                } else {
                    break;
                }
            }
        } else if word(c) {
            while i < chars.len() && word(chars[i]) {
                i += 1;
            }
        } else {
            let rest: String = chars[i..(i + 4).min(chars.len())].iter().collect();
            let len = PUNCTS
                .iter()
                .find(|p| rest.starts_with(**p))
                .map_or(1, |p| p.len());
            i += len;
        }
        out.push(chars[start..i].iter().collect());
    }
    out
}

/// What to run when gcc or csmith is missing.
pub const SETUP_HINT: &str = "run scripts/setup.sh (it installs gcc, csmith and libcsmith-dev)";

/// Panics with the way out unless `gcc` runs (nothing is skipped silently).
pub fn gcc_available() {
    let ok = std::process::Command::new("gcc")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "gcc is missing: {SETUP_HINT}");
}
