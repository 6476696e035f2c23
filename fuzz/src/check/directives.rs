//! `; run:` directives: what a test file says its functions must do.
//!
//! Why: the text IR is the test format (Cranelift's filetests idea). A `.ir` file carries
//! its own expectations in comments, and `phihunt check` holds every stage to them.
//!
//! Grammar (one directive per comment line; anything else in comments is ignored):
//! ```text
//! run-line  := ';' 'run:' call expect [',' 'stdout' string]
//! call      := '@' NAME '(' [INT (',' INT)*] ')'
//! expect    := '==' INT | '==' 'void' | 'exit' INT | 'trap' TRAP
//! string    := '"' (char | '\n' | '\t' | '\\' | '\"' | '\' HEX HEX)* '"'
//! ```
//! Invariants: arguments and the expected value are kept as written (i128); they are read
//! in the function's parameter and return types when the run happens, so `== 255` and
//! `== -1` mean the same for an `i8` function. A malformed directive is an error with its
//! line and column, never silently skipped: a line starting `; run` that does not parse is
//! an error.

use oracle::Trap;

/// What a run must end in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `== INT`
    Returns(i128),
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
    pub args: Vec<i128>,
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
                args.push(self.int()?);
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

    /// expect := '==' INT | '==' 'void' | 'exit' INT | 'trap' TRAP
    fn expectation(&mut self) -> Result<Expect, DirectiveError> {
        if self.eat("==") {
            if self.eat("void") {
                return Ok(Expect::ReturnsVoid);
            }
            return Ok(Expect::Returns(self.int()?));
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
        assert_eq!(d[0].args, vec![3, 4]);
        assert_eq!(d[0].expect, Expect::Returns(7));
        assert_eq!(d[0].stdout, None);
        assert_eq!(d[1].line, 2);
        assert_eq!(d[1].stdout.as_deref(), Some(&b"checksum = 5\n"[..]));
    }

    #[test]
    fn reads_other_expectations_and_ignores_other_comments() {
        let src = "func @f() -> void {\n; a comment\n    ret ; trailing\n}\n;run: @g(-1, 0x10) exit 3\n; run: @h() trap div_by_zero\n; run: @v() == void, stdout \"\\00\\ff\"\n";
        let d = parse_directives(src).unwrap();
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].args, vec![-1, 16]);
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
pub fn format_directive(func: &str, args: &[i64], result: &oracle::RunResult) -> Option<String> {
    use oracle::Outcome;
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let expect = match &result.outcome {
        Outcome::Returned(Some(v)) => format!("== {v}"),
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
        let line = format_directive("f", &[1, -2], &r).unwrap();
        let d = parse_directives(&line).unwrap();
        assert_eq!(d[0].args, vec![1, -2]);
        assert_eq!(d[0].expect, Expect::Returns(-7));
        assert_eq!(d[0].stdout.as_deref(), Some(&r.stdout[..]));
        let t = RunResult {
            outcome: Outcome::Trapped(Trap::DivOverflow),
            stdout: vec![],
            steps: 1,
        };
        let d = parse_directives(&format_directive("g", &[], &t).unwrap()).unwrap();
        assert_eq!(d[0].expect, Expect::Traps(Trap::DivOverflow));
        // Empty output is written too, so the line checks that nothing was printed.
        assert_eq!(d[0].stdout.as_deref(), Some(&b""[..]));
        let ub = RunResult {
            outcome: Outcome::OutOfFuel,
            stdout: vec![],
            steps: 1,
        };
        assert_eq!(format_directive("g", &[], &ub), None);
    }
}
