//! Expressions (C99 6.5): parsing, name resolution, typing and implicit conversions in
//! one pass.
//!
//! Why it exists: the lowering consumes expressions whose every type and conversion is
//! explicit (see `ast`'s invariants); this file builds them at the operator's token so
//! each diagnostic carries gcc's wording and position.
//!
//! Conventions and invariants:
//! - `parse_*` functions return the expression as written: lvalues stay lvalues and
//!   arrays/functions undecayed, so `sizeof`, `&`, `=` and `++` can see them. Each
//!   operator applies `rvalue` (decay) to its value operands itself.
//! - Binary operators are parsed by precedence climbing (a loop per level), so only
//!   parentheses, unary operators, `?:` and assignment recurse; every recursion and
//!   every operator of a left-deep chain counts towards `Parser::depth`, bounded by
//!   `MAX_NESTING` (error, never a stack overflow). This also bounds the AST's depth
//!   for every later recursive walk.
//! - `sizeof` never evaluates its operand: the AST holds only the resulting `IntLit`.
//! - Calling an undeclared function declares `int f()` with gcc 12's warning
//!   "implicit declaration of function 'f'" (C99 mode of gcc 12 warns, gcc 14 errors),
//!   except a known library function or GNU builtin (`builtins.rs`), which gets its
//!   real prototype.

use super::convert::{cast_to, is_lvalue, AssignCtx};
use super::int_const_type::int_constant_type;
use super::wide_bitfield::{reduce_if, unsigned_width, with_wide_type};
use super::{OrdinaryEntity, Parser};
use crate::frontend::ast::{BinaryOp, Expr, ExprKind, IncDecOp, UnaryOp};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{FloatSuffix, Keyword, Punct, TokenKind};
use crate::frontend::types::{FloatKind, FunctionType, IntKind, QualType, RecordId, Type};
use std::rc::Rc;

/// The deepest nesting of expressions and statements accepted (gcc has no fixed limit;
/// this one keeps the recursive descent and later AST walks within the stack).
pub(crate) const MAX_NESTING: u32 = 1000;

/// The most stack the nested constructs of one parse may use (the main thread has 8 MB;
/// the rest is left to the caller, the lowering and the AST's drop).
const STACK_BUDGET: usize = 4 << 20;

thread_local! {
    /// Stack address where the outermost nested construct of the current parse began.
    static STACK_BASE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

type PResult<T> = Result<T, Diagnostic>;

/// Binding strength of the binary operators (higher binds tighter).
fn binary_precedence(p: Punct) -> Option<u8> {
    Some(match p {
        Punct::PipePipe => 1,
        Punct::AmpAmp => 2,
        Punct::Pipe => 3,
        Punct::Caret => 4,
        Punct::Amp => 5,
        Punct::EqEq | Punct::Ne => 6,
        Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 7,
        Punct::Shl | Punct::Shr => 8,
        Punct::Plus | Punct::Minus => 9,
        Punct::Star | Punct::Slash | Punct::Percent => 10,
        _ => return None,
    })
}

/// The arithmetic operator of a compound assignment punctuator.
fn compound_op(p: Punct) -> Option<BinaryOp> {
    Some(match p {
        Punct::StarAssign => BinaryOp::Mul,
        Punct::SlashAssign => BinaryOp::Div,
        Punct::PercentAssign => BinaryOp::Rem,
        Punct::PlusAssign => BinaryOp::Add,
        Punct::MinusAssign => BinaryOp::Sub,
        Punct::ShlAssign => BinaryOp::Shl,
        Punct::ShrAssign => BinaryOp::Shr,
        Punct::AmpAssign => BinaryOp::BitAnd,
        Punct::CaretAssign => BinaryOp::BitXor,
        Punct::PipeAssign => BinaryOp::BitOr,
        _ => return None,
    })
}

fn binary_op_str(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
    }
}

fn punct_binary_op(p: Punct) -> Option<BinaryOp> {
    Some(match p {
        Punct::Plus => BinaryOp::Add,
        Punct::Minus => BinaryOp::Sub,
        Punct::Star => BinaryOp::Mul,
        Punct::Slash => BinaryOp::Div,
        Punct::Percent => BinaryOp::Rem,
        Punct::Amp => BinaryOp::BitAnd,
        Punct::Pipe => BinaryOp::BitOr,
        Punct::Caret => BinaryOp::BitXor,
        Punct::Shl => BinaryOp::Shl,
        Punct::Shr => BinaryOp::Shr,
        Punct::EqEq => BinaryOp::Eq,
        Punct::Ne => BinaryOp::Ne,
        Punct::Lt => BinaryOp::Lt,
        Punct::Le => BinaryOp::Le,
        Punct::Gt => BinaryOp::Gt,
        Punct::Ge => BinaryOp::Ge,
        _ => return None,
    })
}

impl Parser<'_> {
    // ----- nesting bound -----

    /// Counts one level of nesting; an error beyond `MAX_NESTING` levels or when the
    /// parse has used more than `STACK_BUDGET` bytes of stack since the outermost
    /// nested construct began (unoptimized builds use several KB per level).
    pub(crate) fn enter_nesting(&mut self) -> PResult<()> {
        let marker = 0u8;
        let here = std::ptr::addr_of!(marker) as usize;
        if self.depth == 0 {
            STACK_BASE.with(|b| b.set(here));
        }
        self.depth += 1;
        let used = STACK_BASE.with(|b| b.get()).abs_diff(here);
        if self.depth > MAX_NESTING || used > STACK_BUDGET {
            return Err(self.error_here(format!(
                "expression or statement nested too deeply (more than {} levels)",
                self.depth.min(MAX_NESTING)
            )));
        }
        Ok(())
    }

    /// Runs `f` and restores the nesting depth afterwards (also on error).
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let saved = self.depth;
        let r = f(self);
        self.depth = saved;
        r
    }

    /// Does `(` at the cursor start a parenthesized type name?
    fn paren_type_name_follows(&mut self) -> bool {
        if !self.is_punct(Punct::LParen) || self.pos + 1 >= self.tokens.len() {
            return false;
        }
        self.pos += 1;
        let r = self.is_type_name_start();
        self.pos -= 1;
        r
    }

    // ----- comma and assignment -----

    /// expression: assignment-expression (',' assignment-expression)*
    pub(crate) fn parse_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            let mut e = p.parse_assign_expr()?;
            while p.is_punct(Punct::Comma) {
                let loc = p.bump().loc;
                p.enter_nesting()?;
                let rhs = p.parse_assign_expr()?;
                let lhs = p.rvalue(e);
                let rhs = p.rvalue(rhs);
                let ty = rhs.ty.ty.clone();
                e = Expr::new(ExprKind::Comma(Box::new(lhs), Box::new(rhs)), ty, loc);
            }
            Ok(e)
        })
    }

    /// assignment-expression:
    ///     conditional-expression
    ///     unary-expression assignment-operator assignment-expression
    /// assignment-operator: one of = *= /= %= += -= <<= >>= &= ^= |=
    pub(crate) fn parse_assign_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            p.enter_nesting()?;
            let lhs = p.parse_cond_expr()?;
            let punct = match &p.peek().kind {
                TokenKind::Punct(x) => *x,
                _ => return Ok(lhs),
            };
            if punct == Punct::Assign {
                let loc = p.bump().loc;
                let rhs = p.parse_assign_expr()?;
                return p.build_assign(lhs, rhs, loc);
            }
            match compound_op(punct) {
                Some(op) => {
                    let loc = p.bump().loc;
                    let rhs = p.parse_assign_expr()?;
                    p.build_compound_assign(op, lhs, rhs, loc)
                }
                None => Ok(lhs),
            }
        })
    }

    /// `lhs = rhs` (C99 6.5.16.1).
    pub(crate) fn build_assign(&mut self, lhs: Expr, rhs: Expr, loc: Loc) -> PResult<Expr> {
        self.check_modifiable(&lhs, "assignment", "left operand of assignment", loc)?;
        let ty = QualType::new(lhs.ty.ty.clone());
        let rhs = self.convert_assign(rhs, &ty, AssignCtx::Assign(loc))?;
        Ok(Expr::new(
            ExprKind::Assign(Box::new(lhs), Box::new(rhs)),
            ty,
            loc,
        ))
    }

    /// `lhs op= rhs` (C99 6.5.16.2).
    fn build_compound_assign(
        &mut self,
        op: BinaryOp,
        lhs: Expr,
        rhs: Expr,
        loc: Loc,
    ) -> PResult<Expr> {
        self.check_modifiable(&lhs, "assignment", "left operand of assignment", loc)?;
        let rhs = self.rvalue(rhs);
        let lt = lhs.ty.ty.clone();
        let rt = rhs.ty.ty.clone();
        let invalid = |p: &Self| {
            p.error_at(
                loc,
                format!(
                    "invalid operands to binary {} (have '{}' and '{}')",
                    binary_op_str(op),
                    p.type_name_of(&lt),
                    p.type_name_of(&rt)
                ),
            )
        };
        let (rhs, compute_ty, ptr_elem_size, lhs_wrap) = if lt.is_pointer() {
            if !matches!(op, BinaryOp::Add | BinaryOp::Sub) || !rt.is_integer() {
                return Err(invalid(self));
            }
            let size = self.pointee_size(&lt, loc)?;
            let idx = cast_to(self.promote(rhs), &self.ptrdiff_type());
            (idx, lt.clone(), Some(size), None)
        } else {
            let ints = matches!(
                op,
                BinaryOp::Rem
                    | BinaryOp::BitAnd
                    | BinaryOp::BitOr
                    | BinaryOp::BitXor
                    | BinaryOp::Shl
                    | BinaryOp::Shr
            );
            let ok = if ints {
                lt.is_integer() && rt.is_integer()
            } else {
                lt.is_arithmetic() && rt.is_arithmetic()
            };
            if !ok {
                return Err(invalid(self));
            }
            if op.is_shift() {
                (self.promote(rhs), self.promoted_type(&lhs), None, None)
            } else {
                let ct = self.gcc_arith_type(&lhs, &rhs);
                // The result is stored back modulo the field's width; the right operand
                // must be converted as gcc does (see `wide_bitfield`).
                let wrap = self.unsigned_wide_common(&lhs, &rhs);
                (reduce_if(cast_to(rhs, &ct), wrap), ct, None, wrap)
            }
        };
        Ok(Expr::new(
            ExprKind::CompoundAssign {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                compute_ty,
                ptr_elem_size,
                lhs_wrap,
            },
            lt,
            loc,
        ))
    }

    // ----- conditional and binary operators -----

    /// conditional-expression:
    ///     logical-OR-expression
    ///     logical-OR-expression '?' expression ':' conditional-expression
    pub(crate) fn parse_cond_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            let c = p.parse_binary(1)?;
            if !p.is_punct(Punct::Question) {
                return Ok(c);
            }
            let loc = p.bump().loc;
            p.enter_nesting()?;
            let c = p.rvalue(c);
            p.check_not_void(&c, "void value not ignored as it ought to be")?;
            if !c.ty.ty.is_scalar() {
                let mut at = c.clone();
                at.loc = loc;
                p.check_scalar(&at)?;
            }
            if p.is_punct(Punct::Colon) {
                return p.parse_omitted_middle(c, loc);
            }
            let a = p.parse_expr()?;
            let colon = p.expect_punct(Punct::Colon)?.loc;
            let b = p.parse_cond_expr()?;
            let mut e = p.build_cond(c, a, b, colon)?;
            e.loc = loc;
            Ok(e)
        })
    }

    /// The result type of `c ? a : b` (C99 6.5.15) and the converted arms.
    pub(crate) fn build_cond(&mut self, c: Expr, a: Expr, b: Expr, loc: Loc) -> PResult<Expr> {
        let a = self.rvalue(a);
        let b = self.rvalue(b);
        let (at, bt) = (a.ty.ty.clone(), b.ty.ty.clone());
        let ty = if at.is_arithmetic() && bt.is_arithmetic() {
            self.gcc_arith_type(&a, &b)
        } else if at == Type::Void || bt == Type::Void {
            Type::Void
        } else if (at.is_record() && at == bt)
            || (at.is_pointer() && self.is_null_pointer_constant(&b))
        {
            at.clone()
        } else if bt.is_pointer() && self.is_null_pointer_constant(&a) {
            bt.clone()
        } else if let (Type::Pointer(pa), Type::Pointer(pb)) = (&at, &bt) {
            let merged = |base: &Type| {
                Type::Pointer(Rc::new(QualType {
                    ty: base.clone(),
                    is_const: pa.is_const || pb.is_const,
                    is_volatile: pa.is_volatile || pb.is_volatile,
                }))
            };
            if pa.ty == Type::Void || pb.ty == Type::Void {
                merged(&Type::Void)
            } else if self.compatible(&pa.ty, &pb.ty) {
                merged(&pa.ty)
            } else {
                self.warn_at(loc, "pointer type mismatch in conditional expression");
                merged(&Type::Void)
            }
        } else if at.is_pointer() && bt.is_integer() || at.is_integer() && bt.is_pointer() {
            self.warn_at(
                loc,
                "pointer/integer type mismatch in conditional expression",
            );
            if at.is_pointer() {
                at.clone()
            } else {
                bt.clone()
            }
        } else {
            return Err(self.error_at(loc, "type mismatch in conditional expression"));
        };
        let wide = if at.is_arithmetic() && bt.is_arithmetic() {
            self.wide_common(&a, &b)
        } else {
            None
        };
        let wrap = unsigned_width(wide);
        let (a, b) = (
            reduce_if(cast_to(a, &ty), wrap),
            reduce_if(cast_to(b, &ty), wrap),
        );
        Ok(with_wide_type(
            Expr::new(
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                ty,
                loc,
            ),
            wide,
        ))
    }

    /// Binary operators from precedence `min` up, by precedence climbing:
    /// logical-OR-expression ... multiplicative-expression (C99 6.5.5 - 6.5.14),
    /// each level `level-expression: next-level (op next-level)*`.
    fn parse_binary(&mut self, min: u8) -> PResult<Expr> {
        self.nested(|p| {
            let mut lhs = p.parse_cast_expr()?;
            while let TokenKind::Punct(punct) = p.peek().kind {
                let Some(prec) = binary_precedence(punct) else {
                    break;
                };
                if prec < min {
                    break;
                }
                let loc = p.bump().loc;
                p.enter_nesting()?;
                let rhs = p.parse_binary(prec + 1)?;
                lhs = p.build_binary(punct, lhs, rhs, loc)?;
            }
            Ok(lhs)
        })
    }

    fn invalid_operands(&self, op: &str, a: &Expr, b: &Expr, loc: Loc) -> Diagnostic {
        self.error_at(
            loc,
            format!(
                "invalid operands to binary {op} (have '{}' and '{}')",
                self.type_name_of(&a.ty.ty),
                self.type_name_of(&b.ty.ty)
            ),
        )
    }

    /// Types and converts one binary operation.
    pub(crate) fn build_binary(
        &mut self,
        punct: Punct,
        lhs: Expr,
        rhs: Expr,
        loc: Loc,
    ) -> PResult<Expr> {
        let a = self.rvalue(lhs);
        let b = self.rvalue(rhs);
        self.check_not_void(&a, "void value not ignored as it ought to be")?;
        self.check_not_void(&b, "void value not ignored as it ought to be")?;
        if matches!(punct, Punct::AmpAmp | Punct::PipePipe) {
            self.check_scalar(&a)?;
            self.check_scalar(&b)?;
            let kind = if punct == Punct::AmpAmp {
                ExprKind::LogAnd(Box::new(a), Box::new(b))
            } else {
                ExprKind::LogOr(Box::new(a), Box::new(b))
            };
            return Ok(Expr::new(kind, Type::int(), loc));
        }
        let Some(op) = punct_binary_op(punct) else {
            return Err(self.error_at(loc, "expected expression"));
        };
        let (at, bt) = (a.ty.ty.clone(), b.ty.ty.clone());
        match op {
            BinaryOp::Mul | BinaryOp::Div => {
                if !(at.is_arithmetic() && bt.is_arithmetic()) {
                    return Err(self.invalid_operands(binary_op_str(op), &a, &b, loc));
                }
                Ok(self.arith(op, a, b, loc))
            }
            BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
                if !(at.is_integer() && bt.is_integer()) {
                    return Err(self.invalid_operands(binary_op_str(op), &a, &b, loc));
                }
                Ok(self.arith(op, a, b, loc))
            }
            BinaryOp::Shl | BinaryOp::Shr => {
                if !(at.is_integer() && bt.is_integer()) {
                    return Err(self.invalid_operands(binary_op_str(op), &a, &b, loc));
                }
                // The result has the left operand's type; only `<<` can leave its range.
                let wide = self.wide_bitfield(&a);
                let wrap = if op == BinaryOp::Shl {
                    unsigned_width(wide)
                } else {
                    None
                };
                let a = self.promote(a);
                let b = self.promote(b);
                let ty = a.ty.ty.clone();
                Ok(with_wide_type(
                    reduce_if(
                        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, loc),
                        wrap,
                    ),
                    wide,
                ))
            }
            BinaryOp::Add => {
                if at.is_arithmetic() && bt.is_arithmetic() {
                    Ok(self.arith(op, a, b, loc))
                } else if at.is_pointer() && bt.is_integer() {
                    self.ptr_add(a, b, false, loc)
                } else if at.is_integer() && bt.is_pointer() {
                    self.ptr_add(b, a, false, loc)
                } else {
                    Err(self.invalid_operands("+", &a, &b, loc))
                }
            }
            BinaryOp::Sub => {
                if at.is_arithmetic() && bt.is_arithmetic() {
                    Ok(self.arith(op, a, b, loc))
                } else if at.is_pointer() && bt.is_integer() {
                    self.ptr_add(a, b, true, loc)
                } else if let (Type::Pointer(pa), Type::Pointer(pb)) = (&at, &bt) {
                    if !self.compatible(&pa.ty, &pb.ty) {
                        return Err(self.invalid_operands("-", &a, &b, loc));
                    }
                    let elem_size = self.pointee_size(&at, loc)?;
                    Ok(Expr::new(
                        ExprKind::PtrDiff {
                            lhs: Box::new(a),
                            rhs: Box::new(b),
                            elem_size,
                        },
                        self.ptrdiff_type(),
                        loc,
                    ))
                } else {
                    Err(self.invalid_operands("-", &a, &b, loc))
                }
            }
            _ => self.build_comparison(op, a, b, loc),
        }
    }

    /// An error at `e` if it has type `void`.
    pub(crate) fn check_not_void(&self, e: &Expr, msg: &str) -> PResult<()> {
        if e.ty.ty == Type::Void {
            return Err(self.error_at(e.loc, msg));
        }
        Ok(())
    }

    /// Arithmetic `op` after the usual arithmetic conversions.
    /// (Reduced modulo 2^N when gcc computes it in an unsigned N-bit bit-field type: see
    /// `wide_bitfield`.)
    fn arith(&self, op: BinaryOp, a: Expr, b: Expr, loc: Loc) -> Expr {
        let ops = self.gcc_usual_arith(a, b);
        let (a, b) = (Box::new(ops.lhs), Box::new(ops.rhs));
        with_wide_type(
            reduce_if(
                Expr::new(ExprKind::Binary(op, a, b), ops.ty, loc),
                unsigned_width(ops.wide),
            ),
            ops.wide,
        )
    }

    /// Relational and equality operators (C99 6.5.8, 6.5.9).
    fn build_comparison(&mut self, op: BinaryOp, a: Expr, b: Expr, loc: Loc) -> PResult<Expr> {
        let (at, bt) = (a.ty.ty.clone(), b.ty.ty.clone());
        let (a, b) = if at.is_arithmetic() && bt.is_arithmetic() {
            let ops = self.gcc_usual_arith(a, b);
            (ops.lhs, ops.rhs)
        } else if let (Type::Pointer(pa), Type::Pointer(pb)) = (&at, &bt) {
            let void = pa.ty == Type::Void || pb.ty == Type::Void;
            if !void && !self.compatible(&pa.ty, &pb.ty) {
                self.warn_at(loc, "comparison of distinct pointer types lacks a cast");
            }
            let b = cast_to(b, &at);
            (a, b)
        } else if at.is_pointer() && bt.is_integer() {
            if !self.is_null_pointer_constant(&b) {
                self.warn_at(loc, "comparison between pointer and integer");
            }
            let b = cast_to(b, &at);
            (a, b)
        } else if at.is_integer() && bt.is_pointer() {
            if !self.is_null_pointer_constant(&a) {
                self.warn_at(loc, "comparison between pointer and integer");
            }
            let a = cast_to(a, &bt);
            (a, b)
        } else {
            return Err(self.invalid_operands(binary_op_str(op), &a, &b, loc));
        };
        Ok(Expr::new(
            ExprKind::Binary(op, Box::new(a), Box::new(b)),
            Type::int(),
            loc,
        ))
    }

    /// Size of the pointee of pointer type `ptr` for arithmetic: `void` and functions
    /// count 1 (gcc), an incomplete type is an error.
    pub(crate) fn pointee_size(&self, ptr: &Type, loc: Loc) -> PResult<u64> {
        let Some(p) = ptr.pointee() else {
            return Ok(1);
        };
        match &p.ty {
            Type::Void | Type::Function(_) => Ok(1),
            t => self.size_of(t).ok_or_else(|| {
                self.error_at(
                    loc,
                    format!("invalid use of undefined type '{}'", self.type_name_of(t)),
                )
            }),
        }
    }

    /// `ptr + idx` or `ptr - idx` as a `PtrAdd` with a `ptrdiff_t` index.
    fn ptr_add(&self, ptr: Expr, idx: Expr, negate: bool, loc: Loc) -> PResult<Expr> {
        let elem_size = self.pointee_size(&ptr.ty.ty, loc)?;
        let pd = self.ptrdiff_type();
        let mut index = cast_to(self.promote(idx), &pd);
        if negate {
            let l = index.loc;
            index = Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(index)), pd, l);
        }
        let ty = ptr.ty.ty.clone();
        Ok(Expr::new(
            ExprKind::PtrAdd {
                ptr: Box::new(ptr),
                index: Box::new(index),
                elem_size,
            },
            ty,
            loc,
        ))
    }

    // ----- casts and unary operators -----

    /// cast-expression:
    ///     unary-expression
    ///     '(' type-name ')' cast-expression
    pub(crate) fn parse_cast_expr(&mut self) -> PResult<Expr> {
        if !self.paren_type_name_follows() {
            return self.parse_unary_expr();
        }
        self.nested(|p| {
            p.enter_nesting()?;
            let loc = p.bump().loc;
            let ty = p.parse_type_name()?;
            p.expect_punct(Punct::RParen)?;
            if p.is_punct(Punct::LBrace) {
                let literal = p.parse_compound_literal(&ty, loc)?;
                return p.parse_postfix_suffixes(literal);
            }
            let operand = p.parse_cast_expr()?;
            p.build_cast(operand, &ty, loc)
        })
    }

    /// An explicit conversion `(ty) e` (C99 6.5.4); always a `Cast` node, so the result
    /// is never an lvalue.
    pub(crate) fn build_cast(&mut self, e: Expr, to: &QualType, loc: Loc) -> PResult<Expr> {
        let e = self.rvalue(e);
        let from = e.ty.ty.clone();
        let to_ty = to.ty.clone();
        let ok = match (&to_ty, &from) {
            (Type::Void, _) => true,
            (_, Type::Void) => {
                return Err(self.error_at(loc, "void value not ignored as it ought to be"))
            }
            (Type::Pointer(_), Type::Float(_)) => {
                return Err(self.error_at(loc, "cannot convert to a pointer type"))
            }
            (Type::Float(_), Type::Pointer(_)) => {
                return Err(self.error_at(
                    loc,
                    "pointer value used where a floating-point was expected",
                ))
            }
            (t, f) if t.is_scalar() && f.is_scalar() => {
                let t_size = self.size_of(t).unwrap_or(0);
                let f_size = self.size_of(f).unwrap_or(0);
                let ptr = self.target.sizeof_pointer() as u64;
                if t.is_pointer()
                    && f.is_integer()
                    && f_size != ptr
                    && self.eval_const(&e).is_none()
                {
                    self.warn_at(
                        loc,
                        "cast to pointer from integer of different size [-Wint-to-pointer-cast]",
                    );
                }
                if f.is_pointer() && t.is_integer() && t_size != ptr && *t != Type::Bool {
                    self.warn_at(
                        loc,
                        "cast from pointer to integer of different size [-Wpointer-to-int-cast]",
                    );
                }
                true
            }
            (t, f) if t.is_scalar() => {
                let what = if t.is_arithmetic() && matches!(t, Type::Float(_)) {
                    "a floating-point"
                } else {
                    "an integer"
                };
                let _ = f;
                return Err(self.error_at(
                    loc,
                    format!("aggregate value used where {what} was expected"),
                ));
            }
            (Type::Record(a), Type::Record(b)) => a == b,
            _ => false,
        };
        if !ok {
            return Err(self.error_at(loc, "conversion to non-scalar type requested"));
        }
        Ok(Expr::new(ExprKind::Cast(Box::new(e)), to_ty, loc))
    }

    /// unary-expression:
    ///     postfix-expression
    ///     '++' unary-expression | '--' unary-expression
    ///     unary-operator cast-expression      (one of & * + - ~ !)
    ///     'sizeof' unary-expression | 'sizeof' '(' type-name ')'
    ///     '__alignof__' unary-expression | '__alignof__' '(' type-name ')'
    ///     '_Alignof' '(' type-name ')' | '_Alignof' unary-expression (a GNU extension)
    ///     '__extension__' cast-expression
    pub(crate) fn parse_unary_expr(&mut self) -> PResult<Expr> {
        let punct = match &self.peek().kind {
            TokenKind::Punct(p) => Some(*p),
            TokenKind::Keyword(Keyword::Sizeof | Keyword::Alignof | Keyword::Extension) => None,
            _ => return self.parse_postfix_expr(),
        };
        self.nested(|p| {
            p.enter_nesting()?;
            let Some(punct) = punct else {
                return p.parse_sizeof_like();
            };
            match punct {
                Punct::PlusPlus | Punct::MinusMinus => {
                    let loc = p.bump().loc;
                    let operand = p.parse_unary_expr()?;
                    let op = if punct == Punct::PlusPlus {
                        IncDecOp::PreInc
                    } else {
                        IncDecOp::PreDec
                    };
                    p.build_incdec(op, operand, loc)
                }
                Punct::Amp => {
                    let loc = p.bump().loc;
                    let operand = p.parse_cast_expr()?;
                    p.build_addr_of(operand, loc)
                }
                Punct::Star => {
                    let loc = p.bump().loc;
                    let operand = p.parse_cast_expr()?;
                    p.build_deref(operand, loc, "unary '*'")
                }
                Punct::AmpAmp => p.parse_label_address(),
                Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang => {
                    let loc = p.bump().loc;
                    let operand = p.parse_cast_expr()?;
                    p.build_unary(punct, operand, loc)
                }
                _ => p.parse_postfix_expr(),
            }
        })
    }

    /// `sizeof`, `__alignof__` and `__extension__` (the cursor is on the keyword).
    fn parse_sizeof_like(&mut self) -> PResult<Expr> {
        let tok = self.bump();
        let loc = tok.loc;
        if tok.is_keyword(Keyword::Extension) {
            return self.parse_cast_expr();
        }
        let is_sizeof = tok.is_keyword(Keyword::Sizeof);
        // C11's `_Alignof(type-name)` is the ABI alignment; gcc's `__alignof__` the
        // preferred one (they differ for `long long` and `double` on i686).
        let c11_alignof = &*tok.spelling == "_Alignof";
        let name = if is_sizeof {
            "sizeof"
        } else if c11_alignof {
            "_Alignof"
        } else {
            "__alignof__"
        };
        let mut operand_loc = self.loc();
        let mut declared_align = None;
        let mut of_type_name = false;
        let ty = if self.paren_type_name_follows() {
            of_type_name = true;
            self.bump();
            operand_loc = self.loc();
            let ty = self.parse_type_name()?;
            self.expect_punct(Punct::RParen)?;
            if self.is_punct(Punct::LBrace) {
                return Err(self.error_here("compound literals are not supported"));
            }
            ty.ty
        } else {
            let operand = self.parse_unary_expr()?;
            if self.bitfield_width(&operand).is_some() {
                return Err(self.error_at(operand_loc, format!("'{name}' applied to a bit-field")));
            }
            if !is_sizeof {
                declared_align = self.designator_alignment(&operand);
            }
            self.sizeof_operand_type(&operand)
        };
        let value = match &ty {
            // A function's declared alignment or the target's function boundary; an
            // `_Alignas`/`aligned` object's at least its declared one (`object_align.rs`).
            Type::Function(_) if declared_align.is_some() => declared_align.unwrap_or(1),
            // gcc: 1, with a warning only under -Wpointer-arith.
            Type::Function(_) | Type::Void => 1,
            t if is_sizeof => self.size_of(t).ok_or_else(|| {
                self.error_at(
                    operand_loc,
                    format!(
                        "invalid application of 'sizeof' to incomplete type '{}'",
                        self.type_name_of(t)
                    ),
                )
            })?,
            t => {
                if self.size_of(t).is_none() {
                    return Err(self.error_at(
                        operand_loc,
                        format!(
                            "invalid application of '{name}' to incomplete type '{}'",
                            self.type_name_of(t)
                        ),
                    ));
                }
                let natural = if c11_alignof && of_type_name {
                    self.align_of(t)
                } else {
                    self.preferred_align_of(t)
                };
                natural.max(declared_align.unwrap_or(0))
            }
        };
        Ok(Expr::int_lit(value, self.size_type(), loc))
    }

    /// gcc's `__alignof__`: the preferred alignment, which on i686 is 8 for `long long`
    /// and `double` objects (they align to 4 only as struct members).
    fn preferred_align_of(&self, t: &Type) -> u64 {
        match t {
            Type::Int(IntKind::LongLong | IntKind::ULongLong) | Type::Float(FloatKind::Double)
                if self.target == crate::frontend::Target::I686 =>
            {
                8
            }
            Type::Array(elem, _) => self.preferred_align_of(&elem.ty),
            _ => self.align_of(t),
        }
    }

    /// `&e` (C99 6.5.3.2).
    pub(crate) fn build_addr_of(&mut self, e: Expr, loc: Loc) -> PResult<Expr> {
        if let ExprKind::Deref(_) = &e.kind {
            // `&*p` is `p` (not an lvalue any more), C99 6.5.3.2p3.
        }
        if !matches!(e.kind, ExprKind::Func(_)) && !is_lvalue(&e) {
            return Err(self.error_at(loc, "lvalue required as unary '&' operand"));
        }
        if let Some(_w) = self.bitfield_width(&e) {
            let name = match &e.kind {
                ExprKind::Member { record, field, .. } => self
                    .records
                    .records
                    .get(record.0 as usize)
                    .and_then(|r| r.fields.get(*field))
                    .and_then(|f| f.name.clone())
                    .unwrap_or_default(),
                _ => String::new(),
            };
            return Err(self.error_at(loc, format!("cannot take address of bit-field '{name}'")));
        }
        let ty = Type::Pointer(Rc::new(e.ty.clone()));
        Ok(Expr::new(ExprKind::AddrOf(Box::new(e)), ty, loc))
    }

    /// `*e`; `what` names the operator for gcc's message ("unary '*'", "'->'").
    fn build_deref(&mut self, e: Expr, loc: Loc, what: &str) -> PResult<Expr> {
        let e = self.rvalue(e);
        let Type::Pointer(pointee) = &e.ty.ty else {
            return Err(self.error_at(
                loc,
                format!(
                    "invalid type argument of {what} (have '{}')",
                    self.type_name_of(&e.ty.ty)
                ),
            ));
        };
        let pointee = (**pointee).clone();
        if pointee.ty == Type::Void {
            self.warn_at(loc, "dereferencing 'void *' pointer");
        }
        Ok(Expr::new(ExprKind::Deref(Box::new(e)), pointee, loc))
    }

    /// `+e`, `-e`, `~e`, `!e` (C99 6.5.3.3).
    fn build_unary(&mut self, punct: Punct, e: Expr, loc: Loc) -> PResult<Expr> {
        let e = self.rvalue(e);
        if e.ty.ty == Type::Void {
            return Err(self.error_at(loc, "invalid use of void expression"));
        }
        let ty = e.ty.ty.clone();
        let wrong =
            |p: &Self, what: &str| p.error_at(loc, format!("wrong type argument to {what}"));
        match punct {
            Punct::Bang => {
                if !ty.is_scalar() {
                    return Err(wrong(self, "unary exclamation mark"));
                }
                Ok(Expr::new(
                    ExprKind::Unary(UnaryOp::LogNot, Box::new(e)),
                    Type::int(),
                    loc,
                ))
            }
            Punct::Tilde => {
                if !ty.is_integer() {
                    return Err(wrong(self, "bit-complement"));
                }
                let wide = self.wide_bitfield(&e);
                let e = self.promote(e);
                let t = e.ty.ty.clone();
                Ok(with_wide_type(
                    reduce_if(
                        Expr::new(ExprKind::Unary(UnaryOp::BitNot, Box::new(e)), t, loc),
                        unsigned_width(wide),
                    ),
                    wide,
                ))
            }
            Punct::Minus => {
                if !ty.is_arithmetic() {
                    return Err(wrong(self, "unary minus"));
                }
                let wide = self.wide_bitfield(&e);
                let e = self.promote(e);
                let t = e.ty.ty.clone();
                Ok(with_wide_type(
                    reduce_if(
                        Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(e)), t, loc),
                        unsigned_width(wide),
                    ),
                    wide,
                ))
            }
            _ => {
                if !ty.is_arithmetic() {
                    return Err(wrong(self, "unary plus"));
                }
                let wide = self.wide_bitfield(&e);
                let e = self.promote(e);
                // `+x` is not an lvalue: make the value explicit.
                let e = if is_lvalue(&e) {
                    let t = e.ty.ty.clone();
                    Expr::new(ExprKind::Cast(Box::new(e)), t, loc)
                } else {
                    e
                };
                Ok(with_wide_type(e, wide))
            }
        }
    }

    /// `++e`, `--e`, `e++`, `e--` (C99 6.5.2.4, 6.5.3.1).
    fn build_incdec(&mut self, op: IncDecOp, e: Expr, loc: Loc) -> PResult<Expr> {
        let inc = matches!(op, IncDecOp::PreInc | IncDecOp::PostInc);
        let (what, operand) = if inc {
            ("increment", "increment operand")
        } else {
            ("decrement", "decrement operand")
        };
        if matches!(e.ty.ty, Type::Array(..)) {
            return Err(self.error_at(loc, format!("lvalue required as {operand}")));
        }
        self.check_modifiable(&e, what, operand, loc)?;
        let ty = e.ty.ty.clone();
        let ptr_elem_size = if ty.is_pointer() {
            Some(self.pointee_size(&ty, loc)?)
        } else if ty.is_arithmetic() {
            None
        } else {
            return Err(self.error_at(loc, format!("wrong type argument to {what}")));
        };
        Ok(Expr::new(
            ExprKind::IncDec {
                op,
                operand: Box::new(e),
                ptr_elem_size,
            },
            ty,
            loc,
        ))
    }

    // ----- postfix -----

    /// postfix-expression:
    ///     primary-expression
    ///     postfix-expression '[' expression ']'
    ///     postfix-expression '(' argument-expression-list? ')'
    ///     postfix-expression '.' identifier | postfix-expression '->' identifier
    ///     postfix-expression '++' | postfix-expression '--'
    pub(crate) fn parse_postfix_expr(&mut self) -> PResult<Expr> {
        let e = self.parse_primary_expr()?;
        self.parse_postfix_suffixes(e)
    }

    /// The postfix operators after `e` (a primary expression or a compound literal).
    pub(crate) fn parse_postfix_suffixes(&mut self, e: Expr) -> PResult<Expr> {
        self.nested(|p| {
            let mut e = e;
            while let TokenKind::Punct(punct) = p.peek().kind {
                match punct {
                    Punct::LBracket => {
                        let loc = p.bump().loc;
                        let idx = p.parse_expr()?;
                        p.expect_punct(Punct::RBracket)?;
                        e = p.build_subscript(e, idx, loc)?;
                    }
                    Punct::LParen => {
                        let loc = p.bump().loc;
                        e = p.parse_call(e, loc)?;
                    }
                    Punct::Dot => {
                        let loc = p.bump().loc;
                        let (name, _) = p.expect_ident()?;
                        e = p.build_member(e, &name, loc)?;
                    }
                    Punct::Arrow => {
                        let loc = p.bump().loc;
                        let (name, _) = p.expect_ident()?;
                        let base = p.build_deref(e, loc, "'->'")?;
                        e = p.build_member(base, &name, loc)?;
                    }
                    Punct::PlusPlus | Punct::MinusMinus => {
                        let loc = p.bump().loc;
                        let op = if punct == Punct::PlusPlus {
                            IncDecOp::PostInc
                        } else {
                            IncDecOp::PostDec
                        };
                        e = p.build_incdec(op, e, loc)?;
                    }
                    _ => break,
                }
                p.enter_nesting()?;
            }
            Ok(e)
        })
    }

    /// `a[i]` is `*(a + i)` (C99 6.5.2.1).
    fn build_subscript(&mut self, a: Expr, i: Expr, loc: Loc) -> PResult<Expr> {
        let a = self.rvalue(a);
        let i = self.rvalue(i);
        let sum = if a.ty.ty.is_pointer() && i.ty.ty.is_integer() {
            self.ptr_add(a, i, false, loc)?
        } else if i.ty.ty.is_pointer() && a.ty.ty.is_integer() {
            self.ptr_add(i, a, false, loc)?
        } else if a.ty.ty.is_pointer() || i.ty.ty.is_pointer() {
            return Err(self.error_at(loc, "array subscript is not an integer"));
        } else {
            return Err(self.error_at(
                loc,
                "subscripted value is neither array nor pointer nor vector",
            ));
        };
        self.build_deref(sum, loc, "unary '*'")
    }

    /// The path of field indices to member `name` of record `id`, through anonymous
    /// struct/union members (C11 6.7.2.1p13, a GNU extension in C99).
    fn find_member(&self, id: RecordId, name: &str, depth: u32) -> Option<Vec<(RecordId, usize)>> {
        if depth > 64 {
            return None;
        }
        let r = self.records.records.get(id.0 as usize)?;
        for (i, f) in r.fields.iter().enumerate() {
            match (&f.name, &f.ty.ty) {
                (Some(n), _) if n == name => return Some(vec![(id, i)]),
                (None, Type::Record(inner)) => {
                    if let Some(mut rest) = self.find_member(*inner, name, depth + 1) {
                        rest.insert(0, (id, i));
                        return Some(rest);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// `base.name` (C99 6.5.2.3).
    pub(crate) fn build_member(&mut self, base: Expr, name: &str, loc: Loc) -> PResult<Expr> {
        let Type::Record(id) = base.ty.ty else {
            return Err(self.error_at(
                loc,
                format!("request for member '{name}' in something not a structure or union"),
            ));
        };
        let complete = self
            .records
            .records
            .get(id.0 as usize)
            .is_some_and(|r| r.complete);
        if !complete {
            return Err(self.error_at(
                loc,
                format!(
                    "invalid use of undefined type '{}'",
                    self.type_name_of(&base.ty.ty)
                ),
            ));
        }
        let Some(path) = self.find_member(id, name, 0) else {
            return Err(self.error_at(
                loc,
                format!(
                    "'{}' has no member named '{name}'",
                    self.type_name_of(&base.ty.ty)
                ),
            ));
        };
        let mut e = base;
        for (record, field) in path {
            let f = &self.records.get(record).fields[field];
            let ty = QualType {
                ty: f.ty.ty.clone(),
                is_const: f.ty.is_const || e.ty.is_const,
                is_volatile: f.ty.is_volatile || e.ty.is_volatile,
            };
            e = Expr::new(
                ExprKind::Member {
                    base: Box::new(e),
                    record,
                    field,
                },
                ty,
                loc,
            );
        }
        Ok(e)
    }

    /// argument-expression-list after the `(` of a call to `callee` (C99 6.5.2.2).
    fn parse_call(&mut self, callee: Expr, lparen: Loc) -> PResult<Expr> {
        let call_loc = callee.loc;
        let callee = self.rvalue(callee);
        let name = match &callee.kind {
            ExprKind::Decay(inner) => match &inner.kind {
                ExprKind::Func(n) => Some(n.clone()),
                _ => None,
            },
            _ => None,
        };
        let fn_ty = match &callee.ty.ty {
            Type::Pointer(p) => match &p.ty {
                Type::Function(f) => Some(f.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(fn_ty) = fn_ty else {
            let msg = match local_or_global_name(self, &callee) {
                Some(n) => format!("called object '{n}' is not a function or function pointer"),
                None => "called object is not a function or function pointer".to_string(),
            };
            let _ = lparen;
            return Err(self.error_at(call_loc, msg));
        };
        let mut raw_args = Vec::new();
        if !self.eat_punct(Punct::RParen) {
            loop {
                raw_args.push(self.parse_assign_expr()?);
                if self.eat_punct(Punct::Comma) {
                    continue;
                }
                self.expect_punct(Punct::RParen)?;
                break;
            }
        }
        let fname = |suffix: &str| match &name {
            Some(n) => format!("{suffix} to function '{n}'"),
            None => format!("{suffix} to function"),
        };
        if fn_ty.has_prototype {
            if raw_args.len() < fn_ty.params.len() {
                return Err(self.error_at(call_loc, fname("too few arguments")));
            }
            if raw_args.len() > fn_ty.params.len() && !fn_ty.variadic {
                return Err(self.error_at(call_loc, fname("too many arguments")));
            }
        }
        let mut args = Vec::with_capacity(raw_args.len());
        for (i, a) in raw_args.into_iter().enumerate() {
            if a.ty.ty == Type::Void {
                return Err(self.error_at(a.loc, "invalid use of void expression"));
            }
            let converted = match fn_ty.params.get(i).filter(|_| fn_ty.has_prototype) {
                Some(pt) => {
                    let pt = QualType::new(pt.ty.clone());
                    self.convert_assign(a, &pt, AssignCtx::Arg(i + 1, name.clone()))?
                }
                None => self.default_arg_promote(a),
            };
            args.push(converted);
        }
        let ret = fn_ty.ret.ty.clone();
        Ok(Expr::new(
            ExprKind::Call {
                callee: Box::new(callee),
                args,
                fn_ty,
            },
            ret,
            call_loc,
        ))
    }

    // ----- primary -----

    /// primary-expression:
    ///     identifier | constant | string-literal+ | '(' expression ')'
    ///     '__builtin_offsetof' '(' type-name ',' member-designator ')'
    ///     builtin-va (va_builtins.rs)
    fn parse_primary_expr(&mut self) -> PResult<Expr> {
        let tok = self.peek().clone();
        let loc = tok.loc;
        match &tok.kind {
            TokenKind::Ident(name) => {
                if &**name == "__builtin_offsetof" {
                    return self.parse_offsetof();
                }
                if let Some(b) = super::va_builtins::VaBuiltin::by_name(name) {
                    return self.parse_va_builtin(b);
                }
                if let Some(e) = self.parse_special_builtin(name, loc)? {
                    return Ok(e);
                }
                self.bump();
                self.resolve_identifier(name.clone(), loc)
            }
            TokenKind::Int(lit) => {
                self.bump();
                let (kind, too_large) =
                    int_constant_type(lit, self.target).map_err(|m| self.error_at(loc, m))?;
                if too_large {
                    self.warn_at(loc, "integer constant is so large that it is unsigned");
                }
                Ok(Expr::int_lit(lit.value, Type::Int(kind), loc))
            }
            TokenKind::Float(lit) => {
                self.bump();
                let kind = match lit.suffix {
                    FloatSuffix::None => FloatKind::Double,
                    FloatSuffix::F => FloatKind::Float,
                    FloatSuffix::L => FloatKind::LongDouble,
                };
                Ok(Expr::new(
                    ExprKind::FloatLit(lit.value),
                    Type::Float(kind),
                    loc,
                ))
            }
            TokenKind::Char(v) => {
                self.bump();
                Ok(Expr::int_lit((*v as u64) & 0xffff_ffff, Type::int(), loc))
            }
            TokenKind::WideChar(v) => {
                let e = self.wide_char_expr(*v, loc);
                self.bump();
                Ok(e)
            }
            TokenKind::Str(_) | TokenKind::WideStr(_) => self.parse_string_literals(loc),
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                if self.is_punct(Punct::LBrace) {
                    return self.parse_stmt_expr(loc);
                }
                self.nested(|p| {
                    p.enter_nesting()?;
                    let e = p.parse_expr()?;
                    p.expect_punct(Punct::RParen)?;
                    Ok(e)
                })
            }
            _ => Err(self.error_expected("expression")),
        }
    }

    /// An identifier in an expression, resolved in the scopes.
    fn resolve_identifier(&mut self, name: Rc<str>, loc: Loc) -> PResult<Expr> {
        match self.lookup_ordinary(&name).cloned() {
            Some(OrdinaryEntity::Local(id, ty)) => Ok(self.local_reference(&name, id, ty, loc)),
            Some(OrdinaryEntity::Global(id, ty)) => Ok(Expr::new(ExprKind::Global(id), ty, loc)),
            Some(OrdinaryEntity::Function(ir, ft)) => {
                self.note_function_mention(&ir);
                Ok(Expr::new(ExprKind::Func(ir), Type::Function(ft), loc))
            }
            Some(OrdinaryEntity::EnumConst(v, ty)) => {
                let bits = self.wrap_to(v as i128, &ty).unwrap_or(v as i128) as u64;
                let bits = match self.size_of(&ty) {
                    Some(n) if n < 8 => bits & ((1u64 << (8 * n)) - 1),
                    _ => bits,
                };
                Ok(Expr::int_lit(bits, ty, loc))
            }
            Some(OrdinaryEntity::Typedef(_)) => {
                Err(self.error_at(loc, format!("expected expression before '{name}'")))
            }
            None => {
                if self.is_punct(Punct::LParen) && self.func.is_some() {
                    if let Some(e) = self.declare_known_function(&name, loc) {
                        return Ok(e);
                    }
                    if name.starts_with("__builtin_") {
                        return Err(self.error_at(
                            loc,
                            format!("the GNU builtin '{name}' is not supported by phicc"),
                        ));
                    }
                    self.warn_at(
                        loc,
                        format!(
                            "implicit declaration of function '{name}' \
                             [-Wimplicit-function-declaration]"
                        ),
                    );
                    let ft = Rc::new(FunctionType {
                        ret: QualType::new(Type::int()),
                        params: Vec::new(),
                        variadic: false,
                        has_prototype: false,
                    });
                    let ir = name.to_string();
                    if let Some(file_scope) = self.scopes.first_mut() {
                        file_scope.ordinary.insert(
                            name.clone(),
                            OrdinaryEntity::Function(ir.clone(), ft.clone()),
                        );
                    }
                    if !self.function_decls.contains_key(&ir) {
                        self.function_decls.insert(
                            ir.clone(),
                            crate::frontend::ast::FunctionDecl {
                                name: ir.clone(),
                                ty: ft.clone(),
                                loc,
                            },
                        );
                        self.function_order.push(ir.clone());
                    }
                    return Ok(Expr::new(ExprKind::Func(ir), Type::Function(ft), loc));
                }
                if self.func.is_some() {
                    Err(self.error_at(
                        loc,
                        format!("'{name}' undeclared (first use in this function)"),
                    ))
                } else {
                    Err(self.error_at(loc, format!("'{name}' undeclared here (not in a function)")))
                }
            }
        }
    }

    /// `__builtin_offsetof(type, member-designator)`:
    /// member-designator: identifier ('.' identifier | '[' constant-expression ']')*
    fn parse_offsetof(&mut self) -> PResult<Expr> {
        let loc = self.bump().loc;
        self.expect_punct(Punct::LParen)?;
        let ty = self.parse_type_name()?;
        self.expect_punct(Punct::Comma)?;
        let mut cur = ty.ty;
        let mut offset: u64 = 0;
        // gcc reports member errors at the builtin's name.
        let (name, _) = self.expect_ident()?;
        self.offsetof_member(&mut cur, &mut offset, &name, loc)?;
        loop {
            if self.eat_punct(Punct::Dot) {
                let (name, _) = self.expect_ident()?;
                self.offsetof_member(&mut cur, &mut offset, &name, loc)?;
            } else if self.is_punct(Punct::LBracket) {
                let bloc = self.bump().loc;
                let (idx, _) = self.parse_int_constant_expr()?;
                self.expect_punct(Punct::RBracket)?;
                let Type::Array(elem, _) = &cur else {
                    return Err(self.error_at(
                        bloc,
                        "subscripted value is neither array nor pointer nor vector",
                    ));
                };
                let elem = elem.ty.clone();
                let size = self.size_of(&elem).unwrap_or(0) as i128;
                offset = (offset as i128).wrapping_add(idx.wrapping_mul(size)) as u64;
                cur = elem;
            } else {
                break;
            }
        }
        self.expect_punct(Punct::RParen)?;
        Ok(Expr::int_lit(offset, self.size_type(), loc))
    }

    fn offsetof_member(
        &mut self,
        cur: &mut Type,
        offset: &mut u64,
        name: &str,
        loc: Loc,
    ) -> PResult<()> {
        let Type::Record(id) = *cur else {
            return Err(self.error_at(
                loc,
                format!("request for member '{name}' in something not a structure or union"),
            ));
        };
        let Some(path) = self.find_member(id, name, 0) else {
            return Err(self.error_at(
                loc,
                format!("'{}' has no member named '{name}'", self.type_name_of(cur)),
            ));
        };
        for (record, field) in path {
            let f = &self.records.get(record).fields[field];
            if f.bitfield.is_some() {
                return Err(self.error_at(
                    loc,
                    format!("attempt to take address of bit-field structure member '{name}'"),
                ));
            }
            *offset += f.offset;
            *cur = f.ty.ty.clone();
        }
        Ok(())
    }
}

/// The C name of a variable expression, for "called object 'x'" messages.
fn local_or_global_name(p: &Parser<'_>, e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Local(id) => p
            .func
            .as_ref()
            .and_then(|f| f.locals.get(id.0 as usize))
            .map(|v| v.name.clone()),
        ExprKind::Global(id) => p.globals.get(id.0 as usize).map(|g| g.name.clone()),
        _ => None,
    }
}
