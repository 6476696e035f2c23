//! GNU builtins that the parser answers itself, from types and constants:
//! `__builtin_classify_type`, `__builtin_choose_expr`, and the function-name
//! identifiers `__func__` (C99), `__FUNCTION__` and `__PRETTY_FUNCTION__` (GNU).
//!
//! Why it exists: c-torture calls them (`20040709-*.c`, `pr19449.c`, `20001011-1.c`,
//! `pr41239.c`); none of them computes anything at run time, so they need no IR.
//!
//! Invariants (gcc 12's behaviour, checked with gcc by `corpus/c/gnu_introspection.c`):
//! - `__builtin_classify_type(e)` never evaluates `e`; it classifies `e`'s type after
//!   lvalue conversion (arrays and functions decay): every integer type, `_Bool` and
//!   enumerations included, is 1 (`integer_type_class`), a pointer 5, a floating type
//!   8, a struct 12, a union 13; a `void` expression is an error, as in gcc.
//! - `__builtin_choose_expr(c, a, b)` is `a` when the integer constant expression `c`
//!   is not zero, else `b`, with that operand's type and value; the other operand is
//!   parsed (it must be valid) and dropped, never evaluated.
//! - `__func__` and its GNU spellings are the enclosing function's name as a string
//!   literal (`const char[]` in C; phicc types string literals `char[]`, as it does every
//!   string literal); outside a function they are `""` with gcc's warning. A program's
//!   own declaration of one of these names wins. Each use is its own literal, so two
//!   uses need not compare equal (gcc -O0 gives `__func__ != __FUNCTION__` as well).

use super::Parser;
use crate::frontend::ast::Expr;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::Punct;
use crate::frontend::types::Type;

/// gcc's `enum type_class` values phicc's types can have.
const INTEGER_TYPE_CLASS: u64 = 1;
const POINTER_TYPE_CLASS: u64 = 5;
const REAL_TYPE_CLASS: u64 = 8;
const RECORD_TYPE_CLASS: u64 = 12;
const UNION_TYPE_CLASS: u64 = 13;

/// Is `name` one of the predefined function-name identifiers?
pub(crate) fn is_function_name_identifier(name: &str) -> bool {
    matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
}

impl Parser<'_> {
    /// '__builtin_classify_type' '(' assignment-expression ')'
    pub(crate) fn parse_classify_type(&mut self, loc: Loc) -> Result<Expr, Diagnostic> {
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let e = self.parse_assign_expr()?;
        self.expect_punct(Punct::RParen)?;
        let e = self.rvalue(e);
        let class = match &e.ty.ty {
            Type::Void => return Err(self.error_at(e.loc, "invalid use of void expression")),
            Type::Bool | Type::Int(_) => INTEGER_TYPE_CLASS,
            Type::Pointer(_) | Type::Array(..) | Type::Function(_) => POINTER_TYPE_CLASS,
            Type::Float(_) => REAL_TYPE_CLASS,
            Type::Record(id) => {
                if self.records.get(*id).kind == crate::frontend::types::RecordKind::Union {
                    UNION_TYPE_CLASS
                } else {
                    RECORD_TYPE_CLASS
                }
            }
        };
        Ok(Expr::int_lit(class, Type::int(), loc))
    }

    /// '__builtin_choose_expr' '(' constant-expression ',' assignment-expression ','
    ///     assignment-expression ')'
    pub(crate) fn parse_choose_expr(&mut self, loc: Loc) -> Result<Expr, Diagnostic> {
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let cond = self.parse_assign_expr()?;
        let cond = self.rvalue(cond);
        let Some(value) = self.eval_int_const(&cond) else {
            return Err(self.error_at(
                loc,
                "first argument to '__builtin_choose_expr' not a constant",
            ));
        };
        self.expect_punct(Punct::Comma)?;
        let a = self.parse_assign_expr()?;
        self.expect_punct(Punct::Comma)?;
        let b = self.parse_assign_expr()?;
        self.expect_punct(Punct::RParen)?;
        Ok(if value != 0 { a } else { b })
    }

    /// `__func__`, `__FUNCTION__`, `__PRETTY_FUNCTION__`: the enclosing function's name.
    pub(crate) fn parse_function_name(&mut self, loc: Loc) -> Result<Expr, Diagnostic> {
        let name = match &self.func {
            Some(f) => f.name.clone(),
            None => {
                let spelling = self.peek().spelling.clone();
                self.warn_at(
                    loc,
                    format!("'{spelling}' is not defined outside of function scope"),
                );
                String::new()
            }
        };
        let id = self.intern_string(name.into_bytes());
        let len = self.strings.get(id.0 as usize).map_or(1, Vec::len) as u64;
        self.bump();
        let elem = std::rc::Rc::new(crate::frontend::types::QualType::new(Type::Int(
            crate::frontend::types::IntKind::Char,
        )));
        Ok(Expr::new(
            crate::frontend::ast::ExprKind::Str(id),
            Type::Array(elem, Some(len)),
            loc,
        ))
    }
}
