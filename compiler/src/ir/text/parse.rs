//! Parser: text -> module. (Stub: being written.)

use crate::ir::IrModule;
use std::fmt;

/// A parse error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl ParseError {
    /// `file:line:col: message`
    pub fn with_file(&self, file: &str) -> String {
        format!("{file}:{}:{}: {}", self.line, self.col, self.message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a whole module.
pub fn parse_module(src: &str) -> Result<IrModule, ParseError> {
    let _ = src;
    Err(ParseError {
        line: 1,
        col: 1,
        message: "parser not written yet".into(),
    })
}
