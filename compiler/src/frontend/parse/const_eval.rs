//! Constant evaluation (owner: the expressions work; this is the stub the other parts
//! compile against until it lands).

use super::Parser;
use crate::frontend::ast::{Expr, RelocTarget};

/// The value of a constant expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    /// An integer (or pointer-typed null/integer) value, mathematically (sign- or
    /// zero-extended from its type).
    Int(i128),
    Float(f64),
    /// An address constant: `target`'s address plus `offset` bytes.
    Addr {
        target: RelocTarget,
        offset: i64,
    },
}

impl Parser<'_> {
    /// Evaluates a constant expression (integer constant expression, arithmetic constant
    /// expression, or address constant, C99 6.6); `None` when it is not constant.
    pub(crate) fn eval_const(&self, expr: &Expr) -> Option<ConstValue> {
        let _ = expr;
        None
    }
}
