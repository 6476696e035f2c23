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
