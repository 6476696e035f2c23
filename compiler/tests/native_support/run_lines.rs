//! The `; run:` lines of an IR file (the grammar of docs/ir-notes.md):
//!
//! ```text
//! run-line := "; run:" "@" name "(" [value {"," value}] ")" expect ["," "stdout" string]
//! expect   := "==" (value | "void") | "exit" int | "trap" trap-kind
//! value    := int | float            (float: `ir::float_text`'s FLOAT, `nan(0x..)` too)
//! ```
//! A float (`compiler::ir::float_text`'s grammar) is read in the parameter's or the
//! result's type, and kept as its bits.
//!
//! A value is kept as written and read in the type of its position (the parameter's or
//! the return type) by [`value_bits`]: an integer position takes an integer, a float
//! position a float literal, read bit for bit.
//!
//! Why: the IR corpus states its expected values in the files; the native tests call
//! each line through a C driver ([`super::ir_driver`]).
//!
//! Invariant: a malformed line is an error naming the file and line, never skipped.

use compiler::ir::{IrModule, IrType};
use std::path::Path;

/// What a `; run:` line expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// The call returns this value (as the run line writes it; read in the return type
    /// and compared canonical, a float bit for bit).
    Returns(String),
    ReturnsVoid,
    /// The process exits with this status inside the call.
    Exits(i32),
    /// The signal the process must die of (the trap kind's signal on Linux).
    Signal(i32),
}

/// One `; run:` line.
#[derive(Clone, Debug)]
pub struct RunLine {
    /// The line as written.
    pub text: String,
    pub func: String,
    /// The arguments as written (read in their parameters' types by [`value_bits`]).
    pub args: Vec<String>,
    pub expect: Expect,
    /// The exact bytes the call must print, when the line says.
    pub stdout: Option<Vec<u8>>,
}

/// string := '"' {char | "\n" | "\t" | "\\" | "\"" | "\x" hex hex | "\" hex hex} '"'
fn parse_string(s: &str) -> Option<Vec<u8>> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let c = *bytes.get(i + 1)?;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'\\' | b'"' => out.push(c),
            b'x' => {
                let hex = std::str::from_utf8(bytes.get(i + 2..i + 4)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            _ => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 1;
            }
        }
        i += 2;
    }
    Some(out)
}

/// The signal a trap kind raises on Linux (every target).
fn trap_signal(kind: &str) -> Option<i32> {
    match kind {
        "div_by_zero" | "div_overflow" => Some(8),
        "abort" => Some(6),
        "unreachable" => Some(4),
        _ => None,
    }
}

/// The bits of the run-line value `text` in a position of type `ty`, canonical for it
/// (pointers at `ptr_bytes`): an integer for an integer or pointer, a float literal's
/// bits for a float.
pub fn value_bits(ty: compiler::ir::IrType, text: &str, ptr_bytes: u32) -> Result<u64, String> {
    if ty.is_float() {
        compiler::ir::float_text::parse_float(ty, text)
    } else {
        let v: i128 = text
            .parse()
            .map_err(|_| format!("`{text}` is not an integer"))?;
        Ok(ty.canonicalize(v as u64, ptr_bytes))
    }
}

/// `s` split after the `)` that closes its first `(` (so a `nan(0x..)` argument stays
/// whole): the text inside, and the rest.
fn split_call(s: &str) -> Option<(&str, &str)> {
    let open = s.find('(')?;
    let mut depth = 0;
    for (i, c) in s.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&s[..i], &s[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// The arguments inside a call's parentheses, split at the commas outside parentheses.
fn split_args(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out.into_iter()
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .collect()
}

/// The `; run:` lines of the IR text `text` of `file`; `Err` names the first malformed
/// one (`file:line`).
pub fn run_lines(text: &str, file: &Path) -> Result<Vec<RunLine>, String> {
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.trim().strip_prefix(';') else {
            continue;
        };
        let Some(rest) = rest.trim().strip_prefix("run:") else {
            continue;
        };
        let bad = || format!("{}:{}: malformed run line `{line}`", file.display(), n + 1);
        let (call, tail) = split_call(rest.trim()).ok_or_else(bad)?;
        let (func, args) = call.split_once('(').ok_or_else(bad)?;
        let func = func.trim().strip_prefix('@').ok_or_else(bad)?.to_string();
        let args = split_args(args);
        let (expect, stdout) = match tail.split_once(", stdout ") {
            Some((e, s)) => (e.trim(), Some(parse_string(s.trim()).ok_or_else(bad)?)),
            None => (tail.trim(), None),
        };
        let expect = if let Some(v) = expect.strip_prefix("==") {
            match v.trim() {
                "void" => Expect::ReturnsVoid,
                v => Expect::Returns(v.to_string()),
            }
        } else if let Some(c) = expect.strip_prefix("exit") {
            Expect::Exits(c.trim().parse().map_err(|_| bad())?)
        } else if let Some(t) = expect.strip_prefix("trap") {
            Expect::Signal(trap_signal(t.trim()).ok_or_else(bad)?)
        } else {
            return Err(bad());
        };
        lines.push(RunLine {
            text: line.trim().to_string(),
            func,
            args,
            expect,
            stdout,
        });
    }
    Ok(lines)
}
