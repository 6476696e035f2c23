//! GNU's checked arithmetic builtins: `__builtin_add_overflow(a, b, &r)`,
//! `__builtin_sub_overflow`, `__builtin_mul_overflow`, and their `_p` forms whose third
//! argument only gives the result type.
//!
//! Why it exists: their operands and result may be of any integer types (no prototype
//! can describe them), so the parser checks them and builds a call whose `fn_ty` lists
//! the arguments' own types; `lowering/overflow.rs` computes the result.
//!
//! Invariants (gcc 12's rules and messages):
//! - Operands 1 and 2 are integer rvalues of their own type: no promotion, no usual
//!   arithmetic conversion (the operation is done in infinite precision).
//! - Argument 3 is a pointer to a non-`_Bool` integer type (`_p`: an integer of a
//!   non-`_Bool` type, evaluated but its value unused); an enum counts as its integer type.
//! - The result is `_Bool`: 1 when the infinite-precision result does not fit the result
//!   type; the stored value is that result wrapped to the result type.
//! - Evaluation order is gcc -O0's: `a`, `b`, then the pointer; for a `_p` form the third
//!   argument first, then `a`, `b`. The lowering evaluates `args` in that order.

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::Punct;
use crate::frontend::types::{FunctionType, QualType, Type};
use std::rc::Rc;

/// The checked arithmetic builtin `name` denotes: its operation's name and whether it is
/// a `_p` form.
pub(crate) fn overflow_builtin(name: &str) -> Option<(&'static str, bool)> {
    Some(match name {
        "__builtin_add_overflow" => ("add", false),
        "__builtin_sub_overflow" => ("sub", false),
        "__builtin_mul_overflow" => ("mul", false),
        "__builtin_add_overflow_p" => ("add", true),
        "__builtin_sub_overflow_p" => ("sub", true),
        "__builtin_mul_overflow_p" => ("mul", true),
        _ => return None,
    })
}

impl Parser<'_> {
    /// '__builtin_{add,sub,mul}_overflow{,_p}' '(' assignment-expression ','
    ///     assignment-expression ',' assignment-expression ')'
    /// (the cursor is on the name)
    pub(crate) fn parse_overflow_builtin(
        &mut self,
        name: &str,
        loc: Loc,
    ) -> Result<Expr, Diagnostic> {
        let Some((_, only_p)) = overflow_builtin(name) else {
            return Err(self.error_at(
                loc,
                format!("internal error: '{name}' is not checked arithmetic"),
            ));
        };
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let mut args = Vec::with_capacity(3);
        for i in 1..=3 {
            let e = self.parse_assign_expr()?;
            let e = self.rvalue(e);
            let integral = |t: &Type| t.is_integer() && *t != Type::Bool;
            let problem = match (i, &e.ty.ty) {
                (1 | 2, t) if !t.is_integer() => Some("does not have integral type"),
                (3, Type::Bool) if only_p => Some("has boolean type"),
                (3, t) if only_p && !integral(t) => Some("does not have integral type"),
                (3, Type::Pointer(p)) if !only_p && p.ty == Type::Bool => {
                    Some("has pointer to boolean type")
                }
                (3, Type::Pointer(p)) if !only_p && !integral(&p.ty) => {
                    Some("does not have pointer to integral type")
                }
                (3, Type::Pointer(_)) => None,
                (3, _) if !only_p => Some("does not have pointer to integral type"),
                _ => None,
            };
            if let Some(problem) = problem {
                return Err(self.error_at(
                    e.loc,
                    format!("argument {i} in call to function '{name}' {problem}"),
                ));
            }
            args.push(e);
            if i < 3 {
                self.expect_punct(Punct::Comma)?;
            }
        }
        self.expect_punct(Punct::RParen)?;
        let fn_ty = Rc::new(FunctionType {
            ret: QualType::new(Type::Bool),
            params: args
                .iter()
                .map(|a| QualType::new(a.ty.ty.clone()))
                .collect(),
            variadic: false,
            has_prototype: true,
        });
        let func = Expr::new(
            ExprKind::Func(name.to_string()),
            Type::Function(fn_ty.clone()),
            loc,
        );
        let callee_ty = Type::Pointer(Rc::new(QualType::new(Type::Function(fn_ty.clone()))));
        let callee = Expr::new(ExprKind::Decay(Box::new(func)), callee_ty, loc);
        Ok(Expr::new(
            ExprKind::Call {
                callee: Box::new(callee),
                args,
                fn_ty,
            },
            Type::Bool,
            loc,
        ))
    }
}
