//! Evaluation of `#if`/`#elif` controlling expressions (C99 6.10.1) over the
//! macro-expanded line, in which `defined` has already been replaced by 0 or 1.
//!
//! Why it exists: conditional inclusion needs C's full integer constant expression
//! language on `intmax_t`/`uintmax_t`.
//!
//! Invariants:
//! - Arithmetic is done in 64 bits: a value is signed (`intmax_t`) unless it is an
//!   unsigned constant or the usual arithmetic conversions made it unsigned (one
//!   operand unsigned). Overflow wraps (gcc only warns). Shifts take the left
//!   operand's type; a negative count shifts the other way, a count of 64 or more
//!   gives 0 (or the sign for a signed right shift).
//! - Remaining identifiers (and keywords) are 0; character constants have the
//!   target's value; floating constants, strings and `=`-style operators are errors.
//! - Division by zero is an error only where it is evaluated: every value carries an
//!   optional deferred error, and `&&`, `||` and `?:` drop the error of the operand
//!   they do not evaluate. Types, though, come from both arms, as in C.
//! - No recursion: an operator-precedence parser with explicit operator and operand
//!   stacks, so nesting depth is bounded by memory only.

use crate::frontend::intern::Interner;
use crate::frontend::literal::{char_value, parse_number, Number};
use crate::frontend::source::Loc;
use crate::frontend::token::{PpKind, PpToken, Punct};
use crate::frontend::wide_literal::{is_wide, wide_char_value};

/// A value of the `#if` arithmetic, with the error its evaluation would raise.
#[derive(Clone, Debug)]
struct Value {
    bits: u64,
    unsigned: bool,
    deferred: Option<(Loc, String)>,
}

impl Value {
    fn signed(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
            deferred: None,
        }
    }

    fn truth(&self) -> bool {
        self.bits != 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unary {
    Plus,
    Neg,
    BitNot,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Binary {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Comma,
}

impl Binary {
    fn from_punct(p: Punct) -> Option<Binary> {
        use Binary::*;
        Some(match p {
            Punct::Star => Mul,
            Punct::Slash => Div,
            Punct::Percent => Rem,
            Punct::Plus => Add,
            Punct::Minus => Sub,
            Punct::Shl => Shl,
            Punct::Shr => Shr,
            Punct::Lt => Lt,
            Punct::Gt => Gt,
            Punct::Le => Le,
            Punct::Ge => Ge,
            Punct::EqEq => Eq,
            Punct::Ne => Ne,
            Punct::Amp => BitAnd,
            Punct::Caret => BitXor,
            Punct::Pipe => BitOr,
            Punct::AmpAmp => And,
            Punct::PipePipe => Or,
            Punct::Comma => Comma,
            _ => return None,
        })
    }

    fn precedence(self) -> u8 {
        use Binary::*;
        match self {
            Mul | Div | Rem => 13,
            Add | Sub => 12,
            Shl | Shr => 11,
            Lt | Gt | Le | Ge => 10,
            Eq | Ne => 9,
            BitAnd => 8,
            BitXor => 7,
            BitOr => 6,
            And => 5,
            Or => 4,
            Comma => 1,
        }
    }
}

const UNARY_PRECEDENCE: u8 = 14;
const CONDITIONAL_PRECEDENCE: u8 = 3;

#[derive(Clone, Copy, Debug)]
enum Op {
    Unary(Unary),
    Binary(Binary),
    /// `(`: a barrier that only `)` removes.
    Open,
    /// `?` waiting for its `:`: a barrier like `(`.
    Question,
    /// `? :` complete but for its third operand (right-associative).
    Conditional,
}

impl Op {
    fn precedence(self) -> u8 {
        match self {
            Op::Unary(_) => UNARY_PRECEDENCE,
            Op::Binary(b) => b.precedence(),
            Op::Conditional => CONDITIONAL_PRECEDENCE,
            Op::Open | Op::Question => 0,
        }
    }
}

type EvalError = (Loc, String);

struct Evaluator<'a> {
    interner: &'a Interner,
    char_signed: bool,
    /// The target's `wchar_t` is signed (for `L'x'`).
    wchar_signed: bool,
    values: Vec<Value>,
    ops: Vec<(Op, Loc)>,
}

/// Evaluates the expanded tokens of an `#if` line; `directive_loc` is the position of
/// the directive name (for an empty expression), `end_loc` the end of the line.
pub(super) fn evaluate(
    tokens: &[PpToken],
    interner: &Interner,
    (char_signed, wchar_signed): (bool, bool),
    directive_loc: Loc,
    directive_name: &str,
) -> Result<bool, EvalError> {
    if tokens.is_empty() {
        return Err((
            directive_loc,
            format!("#{directive_name} with no expression"),
        ));
    }
    let mut ev = Evaluator {
        interner,
        char_signed,
        wchar_signed,
        values: Vec::new(),
        ops: Vec::new(),
    };
    let mut expect_operand = true;
    for tok in tokens {
        if expect_operand {
            expect_operand = ev.operand_position(tok)?;
        } else {
            expect_operand = ev.operator_position(tok)?;
        }
    }
    if expect_operand {
        let last = tokens[tokens.len() - 1];
        return Err((
            last.loc,
            format!("operator '{}' has no right operand", interner.get(last.sym)),
        ));
    }
    while let Some(&(op, loc)) = ev.ops.last() {
        match op {
            Op::Open => return Err((loc, "missing ')' in expression".to_string())),
            Op::Question => return Err((loc, "'?' without following ':'".to_string())),
            _ => ev.reduce()?,
        }
    }
    let result = ev
        .values
        .pop()
        .ok_or((directive_loc, "malformed expression".to_string()))?;
    if let Some(err) = result.deferred {
        return Err(err);
    }
    Ok(result.truth())
}

impl Evaluator<'_> {
    fn spelling(&self, tok: &PpToken) -> &str {
        self.interner.get(tok.sym)
    }

    fn invalid_token(&self, tok: &PpToken) -> EvalError {
        (
            tok.loc,
            format!(
                "token \"{}\" is not valid in preprocessor expressions",
                self.spelling(tok)
            ),
        )
    }

    /// The value of a primary-expression token, if it is one.
    fn primary(&self, tok: &PpToken) -> Result<Option<Value>, EvalError> {
        match tok.kind {
            PpKind::Number => match parse_number(self.spelling(tok)) {
                Ok(Number::Int(lit)) => Ok(Some(Value {
                    bits: lit.value,
                    unsigned: lit.unsigned || lit.value > i64::MAX as u64,
                    deferred: None,
                })),
                Ok(Number::Float(_)) => Err((
                    tok.loc,
                    "floating constant in preprocessor expression".to_string(),
                )),
                Err(message) => Err((tok.loc, message)),
            },
            PpKind::Char if is_wide(self.spelling(tok)) => {
                // A `wchar_t` promoted to `intmax_t`: its value, signed or not.
                let mut ignored_warnings = Vec::new();
                wide_char_value(self.spelling(tok), self.wchar_signed, &mut ignored_warnings)
                    .map(|v| Some(Value::signed(v)))
                    .map_err(|m| (tok.loc, m))
            }
            PpKind::Char => {
                let mut ignored_warnings = Vec::new();
                char_value(self.spelling(tok), self.char_signed, &mut ignored_warnings)
                    .map(|v| Some(Value::signed(v)))
                    .map_err(|m| (tok.loc, m))
            }
            PpKind::Ident => Ok(Some(Value::signed(0))),
            PpKind::Unterminated => {
                let quote = self
                    .spelling(tok)
                    .chars()
                    .find(|&c| c == '\'' || c == '"')
                    .unwrap_or('\'');
                Err((tok.loc, format!("missing terminating {quote} character")))
            }
            PpKind::Punct(_) => Ok(None),
            _ => Err(self.invalid_token(tok)),
        }
    }

    /// Handles a token where an operand is expected; returns whether an operand is
    /// still expected after it.
    fn operand_position(&mut self, tok: &PpToken) -> Result<bool, EvalError> {
        if let Some(value) = self.primary(tok)? {
            self.values.push(value);
            return Ok(false);
        }
        let unary = match tok.kind {
            PpKind::Punct(Punct::Plus) => Unary::Plus,
            PpKind::Punct(Punct::Minus) => Unary::Neg,
            PpKind::Punct(Punct::Tilde) => Unary::BitNot,
            PpKind::Punct(Punct::Bang) => Unary::Not,
            PpKind::Punct(Punct::LParen) => {
                self.ops.push((Op::Open, tok.loc));
                return Ok(true);
            }
            PpKind::Punct(Punct::RParen) if matches!(self.ops.last(), Some((Op::Open, _))) => {
                return Err((
                    tok.loc,
                    "missing expression between '(' and ')'".to_string(),
                ));
            }
            PpKind::Punct(p)
                if Binary::from_punct(p).is_some() || p == Punct::Question || p == Punct::Colon =>
            {
                return Err((
                    tok.loc,
                    format!("operator '{}' has no left operand", self.spelling(tok)),
                ));
            }
            _ => return Err(self.invalid_token(tok)),
        };
        self.ops.push((Op::Unary(unary), tok.loc));
        Ok(true)
    }

    /// Handles a token where an operator is expected; returns whether an operand is
    /// expected after it.
    fn operator_position(&mut self, tok: &PpToken) -> Result<bool, EvalError> {
        let PpKind::Punct(p) = tok.kind else {
            // Validate the token first so that e.g. a float gets its own message.
            self.primary(tok)?;
            return Err((
                tok.loc,
                format!(
                    "missing binary operator before token \"{}\"",
                    self.spelling(tok)
                ),
            ));
        };
        match p {
            Punct::RParen => {
                // Reduce back to the matching `(`.
                loop {
                    match self.ops.last() {
                        None => return Err((tok.loc, "missing '(' in expression".to_string())),
                        Some(&(Op::Open, _)) => {
                            self.ops.pop();
                            return Ok(false);
                        }
                        Some(&(Op::Question, loc)) => {
                            return Err((loc, "'?' without following ':'".to_string()));
                        }
                        Some(_) => self.reduce()?,
                    }
                }
            }
            Punct::Question => {
                self.reduce_above(CONDITIONAL_PRECEDENCE, false)?;
                self.ops.push((Op::Question, tok.loc));
                Ok(true)
            }
            Punct::Colon => {
                // Reduce back to the `?` this `:` completes.
                loop {
                    match self.ops.last() {
                        Some(&(Op::Question, loc)) => {
                            self.ops.pop();
                            self.ops.push((Op::Conditional, loc));
                            return Ok(true);
                        }
                        None | Some(&(Op::Open, _)) => {
                            return Err((tok.loc, "':' without preceding '?'".to_string()));
                        }
                        Some(_) => self.reduce()?,
                    }
                }
            }
            Punct::LParen => Err((
                tok.loc,
                "missing binary operator before token \"(\"".to_string(),
            )),
            _ => match Binary::from_punct(p) {
                Some(b) => {
                    // Left-associative: reduce operators of greater or equal precedence.
                    self.reduce_above(b.precedence(), true)?;
                    self.ops.push((Op::Binary(b), tok.loc));
                    Ok(true)
                }
                None => Err(self.invalid_token(tok)),
            },
        }
    }

    /// Reduces stacked operators binding tighter than `precedence` (or as tight, when
    /// `left_assoc`), stopping at a barrier.
    fn reduce_above(&mut self, precedence: u8, left_assoc: bool) -> Result<(), EvalError> {
        while let Some(&(op, _)) = self.ops.last() {
            if matches!(op, Op::Open | Op::Question) {
                break;
            }
            let top = op.precedence();
            if top > precedence || (left_assoc && top == precedence) {
                self.reduce()?;
            } else {
                break;
            }
        }
        Ok(())
    }

    fn pop_value(&mut self, loc: Loc) -> Result<Value, EvalError> {
        self.values
            .pop()
            .ok_or((loc, "malformed expression".to_string()))
    }

    /// Applies the operator on top of the stack to its operands.
    fn reduce(&mut self) -> Result<(), EvalError> {
        let Some((op, loc)) = self.ops.pop() else {
            return Ok(());
        };
        let result = match op {
            Op::Unary(u) => {
                let a = self.pop_value(loc)?;
                apply_unary(u, a)
            }
            Op::Binary(b) => {
                let rhs = self.pop_value(loc)?;
                let lhs = self.pop_value(loc)?;
                apply_binary(b, lhs, rhs, loc)
            }
            Op::Conditional => {
                let else_value = self.pop_value(loc)?;
                let then_value = self.pop_value(loc)?;
                let cond = self.pop_value(loc)?;
                let unsigned = then_value.unsigned || else_value.unsigned;
                let chosen = if cond.truth() { then_value } else { else_value };
                Value {
                    bits: chosen.bits,
                    unsigned,
                    deferred: cond.deferred.or(chosen.deferred),
                }
            }
            Op::Open | Op::Question => return Err((loc, "malformed expression".to_string())),
        };
        self.values.push(result);
        Ok(())
    }
}

fn apply_unary(op: Unary, a: Value) -> Value {
    let bits = match op {
        Unary::Plus => a.bits,
        Unary::Neg => a.bits.wrapping_neg(),
        Unary::BitNot => !a.bits,
        Unary::Not => {
            return Value {
                bits: u64::from(a.bits == 0),
                unsigned: false,
                deferred: a.deferred,
            }
        }
    };
    Value { bits, ..a }
}

/// `value << count` (or `>>` for a negative count) in the value's own type.
fn shift(value: &Value, count: &Value, left: bool) -> u64 {
    let negative = !count.unsigned && (count.bits as i64) < 0;
    let magnitude = if negative {
        (count.bits as i64).unsigned_abs()
    } else {
        count.bits
    };
    let left = left != negative;
    if left {
        if magnitude >= 64 {
            0
        } else {
            value.bits << magnitude
        }
    } else if value.unsigned {
        if magnitude >= 64 {
            0
        } else {
            value.bits >> magnitude
        }
    } else {
        ((value.bits as i64) >> magnitude.min(63)) as u64
    }
}

fn apply_binary(op: Binary, a: Value, b: Value, loc: Loc) -> Value {
    use Binary::*;
    let unsigned = a.unsigned || b.unsigned;
    let both_errors = a.deferred.clone().or(b.deferred.clone());
    let compare = |ordering: std::cmp::Ordering| -> bool {
        match op {
            Lt => ordering.is_lt(),
            Gt => ordering.is_gt(),
            Le => ordering.is_le(),
            Ge => ordering.is_ge(),
            _ => false,
        }
    };
    let make = |bits: u64, unsigned: bool, deferred: Option<(Loc, String)>| Value {
        bits,
        unsigned,
        deferred,
    };
    match op {
        Mul => make(a.bits.wrapping_mul(b.bits), unsigned, both_errors),
        Div | Rem => {
            if b.bits == 0 {
                let err = both_errors.or(Some((loc, "division by zero in #if".to_string())));
                return make(0, unsigned, err);
            }
            let bits = match (op, unsigned) {
                (Div, true) => a.bits / b.bits,
                (Div, false) => (a.bits as i64).wrapping_div(b.bits as i64) as u64,
                (_, true) => a.bits % b.bits,
                (_, false) => (a.bits as i64).wrapping_rem(b.bits as i64) as u64,
            };
            make(bits, unsigned, both_errors)
        }
        Add => make(a.bits.wrapping_add(b.bits), unsigned, both_errors),
        Sub => make(a.bits.wrapping_sub(b.bits), unsigned, both_errors),
        Shl | Shr => make(shift(&a, &b, op == Shl), a.unsigned, both_errors),
        Lt | Gt | Le | Ge => {
            let ordering = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                (a.bits as i64).cmp(&(b.bits as i64))
            };
            make(u64::from(compare(ordering)), false, both_errors)
        }
        Eq => make(u64::from(a.bits == b.bits), false, both_errors),
        Ne => make(u64::from(a.bits != b.bits), false, both_errors),
        BitAnd => make(a.bits & b.bits, unsigned, both_errors),
        BitXor => make(a.bits ^ b.bits, unsigned, both_errors),
        BitOr => make(a.bits | b.bits, unsigned, both_errors),
        // The right operand of `&&`/`||` is evaluated only when the left one does not
        // decide the result; only then can its error happen.
        And => {
            let bits = u64::from(a.truth() && b.truth());
            let deferred = if a.truth() { both_errors } else { a.deferred };
            make(bits, false, deferred)
        }
        Or => {
            let bits = u64::from(a.truth() || b.truth());
            let deferred = if a.truth() { a.deferred } else { both_errors };
            make(bits, false, deferred)
        }
        Comma => make(b.bits, b.unsigned, both_errors),
    }
}
