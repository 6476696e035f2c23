//! The `; run:` lines of an IR file (the grammar of docs/ir-notes.md):
//!
//! ```text
//! run-line := "; run:" "@" name "(" [arg {"," arg}] ")" expect ["," "stdout" string]
//! arg      := int | float            (a float where the parameter is f32/f64)
//! expect   := "==" (int | float | "void") | "exit" int | "trap" trap-kind
//! ```
//! A float (`compiler::ir::float_text`'s grammar) is read in the parameter's or the
//! result's type, and kept as its bits.
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
    /// The call returns this value (as the run line writes it, a float as its bits;
    /// canonical in the return type when compared).
    Returns(i128),
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
    /// The arguments (a float as its bits).
    pub args: Vec<i128>,
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

/// `@f(ARGS) TAIL` split after the `)` that closes the argument list (an argument like
/// `nan(0x7fc00001)` has parentheses of its own): (`@f(ARGS`, `TAIL`).
fn split_call(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0u32;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 1 => return Some((&s[..i], &s[i + 1..])),
            ')' => depth = depth.checked_sub(1)?,
            _ => {}
        }
    }
    None
}

/// A number of type `ty`: a float literal's bits for a float type, else an integer.
fn parse_number(text: &str, ty: IrType) -> Option<i128> {
    if ty.is_float() {
        compiler::ir::float_text::parse_float(ty, text)
            .ok()
            .map(i128::from)
    } else {
        text.parse().ok()
    }
}

/// The `; run:` lines of the IR text `text` of `file`, whose functions are in `module`
/// (for the types of float arguments and results); `Err` names the first malformed one
/// (`file:line`).
pub fn run_lines(text: &str, file: &Path, module: &IrModule) -> Result<Vec<RunLine>, String> {
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
        let (params, ret) = module
            .function(&func)
            .map_or((Vec::new(), IrType::Void), |f| (f.params.clone(), f.ret));
        let args = args
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .enumerate()
            .map(|(i, a)| {
                let ty = params.get(i).copied().unwrap_or(IrType::I64);
                parse_number(a, ty).ok_or_else(bad)
            })
            .collect::<Result<Vec<i128>, String>>()?;
        let (expect, stdout) = match tail.split_once(", stdout ") {
            Some((e, s)) => (e.trim(), Some(parse_string(s.trim()).ok_or_else(bad)?)),
            None => (tail.trim(), None),
        };
        let expect = if let Some(v) = expect.strip_prefix("==") {
            match v.trim() {
                "void" => Expect::ReturnsVoid,
                v => Expect::Returns(parse_number(v, ret).ok_or_else(bad)?),
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
