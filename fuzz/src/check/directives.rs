//! `; run:` directives: what a test file says its functions must do.
//!
//! Why: the text IR is the test format (Cranelift's filetests idea). A `.ir` file carries
//! its own expectations in comments, and `phihunt check` holds every stage to them.
//!
//! Grammar (one directive per comment line; anything else in comments is ignored):
//! ```text
//! run-line  := ';' 'run:' call expect [',' 'stdout' string]
//! call      := '@' NAME '(' [LIT (',' LIT)*] ')'
//! expect    := '==' LIT | '==' 'void' | 'exit' INT | 'trap' TRAP
//! LIT       := INT | FLOAT      (FLOAT as in the IR text: `1.5`, `-0.0`, `inf`, `nan(0x...)`)
//! string    := '"' (char | '\n' | '\t' | '\\' | '\"' | '\' HEX HEX)* '"'
//! ```
//! Invariants: arguments and the expected value are kept as written ([`Literal`]); they
//! are read in the function's parameter and return types when the run happens, so `== 255`
//! and `== -1` mean the same for an `i8` function, and `0.1` is rounded once, to the `f32`
//! or `f64` the function takes. An integer is never read as a float or the reverse. A float
//! result is compared bit for bit (`-0.0` is not `0.0`; `nan` is the default NaN only). A malformed directive is an error with its
//! line and column, never silently skipped: a line starting `; run` that does not parse is
//! an error.

use compiler::ir::float_text::{format_float, parse_float};
use compiler::ir::{IrConst, IrType};
use oracle::Trap;
use std::fmt;

/// A number in a directive, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Int(i128),
    /// A float literal's text, read once its type is known.
    Float(String),
}

impl Literal {
    /// The canonical bits of this literal read in `ty`, or why it cannot be.
    pub fn bits_in(&self, ty: IrType) -> Result<i64, String> {
        match self {
            Literal::Int(v) if ty.is_float() => Err(format!(
                "integer {v} where a {ty} is expected (write a float, `{v}.0`)"
            )),
            Literal::Int(v) if IrConst::fits(ty, *v) => Ok(IrConst::new(ty, *v as i64).bits),
            Literal::Int(v) => Err(format!("{v} does not fit {ty}")),
            Literal::Float(text) => parse_float(ty, text).map(|bits| bits as i64),
        }
    }

    /// The literal that reads back as `bits` of type `ty`.
    pub fn of_bits(ty: IrType, bits: i64) -> Literal {
        if ty.is_float() {
            Literal::Float(format_float(ty, bits as u64))
        } else {
            Literal::Int(bits as i128)
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Int(v) => write!(f, "{v}"),
            Literal::Float(t) => f.write_str(t),
        }
    }
}

/// What a run must end in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `== LIT`
    Returns(Literal),
    /// `== void`
    ReturnsVoid,
    /// `exit INT`
    Exits(i32),
    /// `trap NAME`
    Traps(Trap),
}

/// One `; run:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunDirective {
    /// 1-based line of the directive in its file.
    pub line: u32,
    pub func: String,
    pub args: Vec<Literal>,
    pub expect: Expect,
    /// Expected stdout bytes; `None` means stdout is not checked.
    pub stdout: Option<Vec<u8>>,
}

impl RunDirective {
    /// A short label for table headers: `@f(3, 4)`.
    pub fn label(&self) -> String {
        let args: Vec<String> = self.args.iter().map(|a| a.to_string()).collect();
        format!("@{}({})", self.func, args.join(", "))
    }
}

/// A malformed directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl DirectiveError {
    /// `file:line:col: message`
    pub fn with_file(&self, file: &str) -> String {
        format!("{file}:{}:{}: {}", self.line, self.col, self.message)
    }
}

const TRAPS: [(&str, Trap); 4] = [
    ("div_by_zero", Trap::DivByZero),
    ("div_overflow", Trap::DivOverflow),
    ("abort", Trap::Abort),
    ("unreachable", Trap::Unreachable),
];

/// The directive name of a trap (`div_by_zero`, ...), as `trap NAME` reads it.
pub fn trap_name(t: Trap) -> &'static str {
    TRAPS
        .iter()
        .find(|(_, k)| *k == t)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}

/// Finds every `; run:` directive in `src`.
pub fn parse_directives(src: &str) -> Result<Vec<RunDirective>, DirectiveError> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let line_no = i as u32 + 1;
        let Some(semi) = line.find(';') else { continue };
        let comment = &line[semi + 1..];
        let trimmed = comment.trim_start();
        // `run:` or `run` followed by a blank is meant as a directive (so a missing colon is
        // an error, not a silently skipped line); `running ...` is prose.
        let is_directive = trimmed
            .strip_prefix("run")
            .is_some_and(|r| r.starts_with(':') || r.starts_with(char::is_whitespace));
        if !is_directive {
            continue;
        }
        let start = semi + 1 + (comment.len() - trimmed.len());
        let mut cur = Cursor {
            text: line,
            pos: start,
            line: line_no,
        };
        out.push(cur.run_line()?);
    }
    Ok(out)
}

/// A position in one line.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
}

impl Cursor<'_> {
    fn err(&self, message: impl Into<String>) -> DirectiveError {
        DirectiveError {
            line: self.line,
            col: self.text[..self.pos].chars().count() as u32 + 1,
            message: message.into(),
        }
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn skip_ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }

    /// Consumes `tok` (after white space) or fails with `what`.
    fn expect(&mut self, tok: &str, what: &str) -> Result<(), DirectiveError> {
        self.skip_ws();
        if self.rest().starts_with(tok) {
            self.pos += tok.len();
            Ok(())
        } else {
            Err(self.err(format!("expected {what}, found `{}`", self.peek_word())))
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(tok) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn peek_word(&self) -> String {
        let w: String = self
            .rest()
            .trim_start()
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        if w.is_empty() {
            "end of line".into()
        } else {
            w
        }
    }

    /// NAME := [A-Za-z0-9_.$]+
    fn name(&mut self) -> Result<String, DirectiveError> {
        self.skip_ws();
        let n: String = self
            .rest()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
            .collect();
        if n.is_empty() {
            return Err(self.err("expected a name"));
        }
        self.pos += n.len();
        Ok(n)
    }

    /// LIT := INT | FLOAT. A word with a `.` or an exponent (not in hex), `inf`, `-inf`,
    /// `nan` or `nan(...)` is a float; its syntax is checked here, its rounding later.
    fn literal(&mut self) -> Result<Literal, DirectiveError> {
        self.skip_ws();
        let rest = self.rest();
        let word: &str = if rest.starts_with("nan(") {
            rest.find(')').map_or(rest, |i| &rest[..=i])
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == ',' || c == ')')
                .unwrap_or(rest.len());
            &rest[..end]
        };
        let unsigned = word.strip_prefix('-').unwrap_or(word);
        let is_hex = unsigned.starts_with("0x") || unsigned.starts_with("0X");
        let is_float = unsigned.starts_with("inf")
            || unsigned.starts_with("nan")
            || (!is_hex && unsigned.contains(['.', 'e', 'E']));
        if !is_float {
            return self.int().map(Literal::Int);
        }
        // Syntax only: the literal must read in one of the float types (a NaN's bits
        // decide which); the function's type is checked when the run is prepared.
        if let Err(message) = parse_float(IrType::F64, word) {
            if parse_float(IrType::F32, word).is_err() {
                return Err(self.err(message));
            }
        }
        let word = word.to_string();
        self.pos += word.len();
        Ok(Literal::Float(word))
    }

    /// INT := '-'? (DIGITS | '0x' HEX)
    fn int(&mut self) -> Result<i128, DirectiveError> {
        self.skip_ws();
        let start = self.pos;
        let neg = self.rest().starts_with('-');
        if neg {
            self.pos += 1;
        }
        let hex = self.rest().starts_with("0x") || self.rest().starts_with("0X");
        if hex {
            self.pos += 2;
        }
        let digits: String = self
            .rest()
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect();
        let parsed = if digits.is_empty() {
            None
        } else if hex {
            i128::from_str_radix(&digits, 16).ok()
        } else {
            digits.parse::<i128>().ok()
        };
        self.pos += digits.len();
        match parsed {
            Some(v) if v <= u64::MAX as i128 => Ok(if neg { -v } else { v }),
            _ => {
                self.pos = start;
                Err(self.err(format!(
                    "expected an integer of at most 64 bits, found `{}`",
                    self.peek_word()
                )))
            }
        }
    }

    /// string := '"' ... '"'
    fn string(&mut self) -> Result<Vec<u8>, DirectiveError> {
        self.expect("\"", "`\"`")?;
        let mut out = Vec::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Err(self.err("unterminated string"));
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let r = self.rest();
                    let esc = match r.as_bytes().first() {
                        Some(b'n') => Some((b'\n', 1)),
                        Some(b't') => Some((b'\t', 1)),
                        Some(b'\\') => Some((b'\\', 1)),
                        Some(b'"') => Some((b'"', 1)),
                        _ if r.len() >= 2 && r.is_char_boundary(2) => {
                            u8::from_str_radix(&r[..2], 16).ok().map(|b| (b, 2))
                        }
                        _ => None,
                    };
                    let Some((b, len)) = esc else {
                        return Err(
                            self.err("bad escape: use \\n \\t \\\\ \\\" or \\HH (two hex digits)")
                        );
                    };
                    out.push(b);
                    self.pos += len;
                }
                c => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }

    /// run-line := 'run:' call expect [',' 'stdout' string]
    fn run_line(&mut self) -> Result<RunDirective, DirectiveError> {
        self.expect("run:", "`run:`")?;
        self.expect("@", "`@function`")?;
        let func = self.name()?;
        self.expect("(", "`(`")?;
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                args.push(self.literal()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",", "`,` or `)`")?;
            }
        }
        let expect = self.expectation()?;
        let mut stdout = None;
        if self.eat(",") {
            self.expect("stdout", "`stdout`")?;
            stdout = Some(self.string()?);
        }
        self.skip_ws();
        if !self.rest().is_empty() {
            return Err(self.err(format!(
                "unexpected `{}` after the directive",
                self.peek_word()
            )));
        }
        Ok(RunDirective {
            line: self.line,
            func,
            args,
            expect,
            stdout,
        })
    }

    /// expect := '==' LIT | '==' 'void' | 'exit' INT | 'trap' TRAP
    fn expectation(&mut self) -> Result<Expect, DirectiveError> {
        if self.eat("==") {
            if self.eat("void") {
                return Ok(Expect::ReturnsVoid);
            }
            return Ok(Expect::Returns(self.literal()?));
        }
        if self.eat("exit") {
            let v = self.int()?;
            return i32::try_from(v)
                .map(Expect::Exits)
                .map_err(|_| self.err("exit code out of range"));
        }
        if self.eat("trap") {
            self.skip_ws();
            let at = self.pos;
            let n = self.name()?;
            return TRAPS
                .iter()
                .find(|(name, _)| *name == n)
                .map(|(_, t)| Expect::Traps(*t))
                .ok_or_else(|| {
                    self.pos = at;
                    let names: Vec<_> = TRAPS.iter().map(|(n, _)| *n).collect();
                    self.err(format!("unknown trap `{n}` (known: {})", names.join(", ")))
                });
        }
        Err(self.err(format!(
            "expected `==`, `exit` or `trap`, found `{}`",
            self.peek_word()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_of_ir_md() {
        let d = parse_directives(
            "; run: @f(3, 4) == 7\n; run: @main() == 0, stdout \"checksum = 5\\n\"\n",
        )
        .unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].func, "f");
        assert_eq!(d[0].args, vec![Literal::Int(3), Literal::Int(4)]);
        assert_eq!(d[0].expect, Expect::Returns(Literal::Int(7)));
        assert_eq!(d[0].stdout, None);
        assert_eq!(d[1].line, 2);
        assert_eq!(d[1].stdout.as_deref(), Some(&b"checksum = 5\n"[..]));
    }

    #[test]
    fn reads_other_expectations_and_ignores_other_comments() {
        let src = "func @f() -> void {\n; a comment\n    ret ; trailing\n}\n;run: @g(-1, 0x10) exit 3\n; run: @h() trap div_by_zero\n; run: @v() == void, stdout \"\\00\\ff\"\n";
        let d = parse_directives(src).unwrap();
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].args, vec![Literal::Int(-1), Literal::Int(16)]);
        assert_eq!(d[0].expect, Expect::Exits(3));
        assert_eq!(d[1].expect, Expect::Traps(Trap::DivByZero));
        assert_eq!(d[2].stdout.as_deref(), Some(&[0u8, 0xff][..]));
    }

    #[test]
    fn malformed_lines_are_errors_with_positions() {
        let e = parse_directives("\n; run: @f(1 2) == 3").unwrap_err();
        assert_eq!((e.line, e.col), (2, 13));
        assert!(e.message.contains("`,` or `)`"), "{}", e.message);
        let e = parse_directives("; run: @f() trap boom").unwrap_err();
        assert!(e.message.contains("unknown trap"), "{}", e.message);
        assert_eq!(e.col, 18);
        let e = parse_directives("; run: @f() == 1 extra").unwrap_err();
        assert!(e.message.contains("extra"));
        let e = parse_directives("; run: @f() == 99999999999999999999999").unwrap_err();
        assert!(e.message.contains("64 bits"));
        assert!(parse_directives("; run: @f() == 1, stdout \"abc").is_err());
        assert!(parse_directives("; run: @f() == 1, stdout \"\\q\"").is_err());
        assert!(parse_directives("; run @f() == 1").is_err());
        assert!(parse_directives("; running total: 3\n; runner: x")
            .unwrap()
            .is_empty());
        let e = parse_directives("; run: @f(1.5e) == 1").unwrap_err();
        assert_eq!(e.col, 11);
    }

    #[test]
    fn float_literals_are_read_in_the_function_types() {
        let d = parse_directives("; run: @f(0.1, -inf, nan(0x7fc00001)) == -0.0").unwrap();
        let a = &d[0].args;
        assert_eq!(a[0].bits_in(IrType::F32), Ok(0x3dcc_cccd));
        assert_eq!(a[0].bits_in(IrType::F64), Ok(0x3fb9_9999_9999_999a));
        assert_eq!(
            a[1].bits_in(IrType::F64),
            Ok(f64::NEG_INFINITY.to_bits() as i64)
        );
        assert_eq!(a[2].bits_in(IrType::F32), Ok(0x7fc0_0001));
        assert!(a[2].bits_in(IrType::I32).is_err());
        assert!(Literal::Int(1).bits_in(IrType::F64).is_err());
        let Expect::Returns(r) = &d[0].expect else {
            panic!("expected a value")
        };
        assert_eq!(r.bits_in(IrType::F64), Ok(i64::MIN));
    }
}

/// Escapes bytes for a directive's `stdout "..."` string (the grammar above reads it back).
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\{b:02x}")),
        }
    }
    s
}

/// The `; run:` line that expects `result` from `@func(args)`; `None` when the outcome is
/// not something a directive can expect (undefined behaviour, out of fuel).
/// `params` and `ret` are the function's types (floats are written as floats; a missing
/// parameter type is read as an integer).
pub fn format_directive(
    func: &str,
    params: &[IrType],
    ret: IrType,
    args: &[i64],
    result: &oracle::RunResult,
) -> Option<String> {
    use oracle::Outcome;
    let args: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            Literal::of_bits(params.get(i).copied().unwrap_or(IrType::I64), a).to_string()
        })
        .collect();
    let expect = match &result.outcome {
        Outcome::Returned(Some(v)) => format!("== {}", Literal::of_bits(ret, *v)),
        Outcome::Returned(None) => "== void".to_string(),
        Outcome::Exited(c) => format!("exit {c}"),
        Outcome::Trapped(t) => format!("trap {}", trap_name(*t)),
        Outcome::Undefined(..) | Outcome::OutOfFuel => return None,
    };
    // Always the stdout clause, even empty: a line without one does not check stdout, and a
    // generated or reduced file must pin everything the program did (a reduced native
    // finding whose only difference was stray output passed `check` without it).
    Some(format!(
        "; run: @{func}({}) {expect}, stdout \"{}\"",
        args.join(", "),
        escape_bytes(&result.stdout)
    ))
}

#[cfg(test)]
mod format_tests {
    use super::*;
    use oracle::{Outcome, RunResult};

    #[test]
    fn formatted_directives_parse_back() {
        let r = RunResult {
            outcome: Outcome::Returned(Some(-7)),
            stdout: b"a\"b\\c\n\x01\xff".to_vec(),
            steps: 1,
        };
        let line = format_directive("f", &[], IrType::I32, &[1, -2], &r).unwrap();
        let d = parse_directives(&line).unwrap();
        assert_eq!(d[0].args, vec![Literal::Int(1), Literal::Int(-2)]);
        assert_eq!(d[0].expect, Expect::Returns(Literal::Int(-7)));
        let floats =
            format_directive("f", &[IrType::F32], IrType::F64, &[0x3dcc_cccd], &r).unwrap();
        let d = parse_directives(&floats).unwrap();
        assert_eq!(d[0].args[0].bits_in(IrType::F32), Ok(0x3dcc_cccd));
        let Expect::Returns(v) = &d[0].expect else {
            panic!("expected a value")
        };
        assert_eq!(v.bits_in(IrType::F64), Ok(-7));
        assert_eq!(d[0].stdout.as_deref(), Some(&r.stdout[..]));
        let t = RunResult {
            outcome: Outcome::Trapped(Trap::DivOverflow),
            stdout: vec![],
            steps: 1,
        };
        let d =
            parse_directives(&format_directive("g", &[], IrType::I32, &[], &t).unwrap()).unwrap();
        assert_eq!(d[0].expect, Expect::Traps(Trap::DivOverflow));
        // Empty output is written too, so the line checks that nothing was printed.
        assert_eq!(d[0].stdout.as_deref(), Some(&b""[..]));
        let ub = RunResult {
            outcome: Outcome::OutOfFuel,
            stdout: vec![],
            steps: 1,
        };
        assert_eq!(format_directive("g", &[], IrType::I32, &[], &ub), None);
    }
}
