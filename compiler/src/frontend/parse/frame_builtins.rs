//! `__builtin_return_address(LEVEL)` and `__builtin_frame_address(LEVEL)` at their name:
//! the level must be an integer constant (gcc: "invalid argument to ..."); level 0 is an
//! ordinary call of the lowered builtin (`lowering/builtins.rs`, the intrinsics of
//! `frame_intrinsics.rs`); a nonzero level is a null pointer, with a warning.
//!
//! Why a null pointer: walking the frame chain above the caller needs every frame on
//! the way to keep a frame pointer (libc's do not), and gcc itself gives 0 for a
//! nonzero level on targets that cannot walk it (riscv64; the GCC manual allows "0 or a
//! random value"), so programs that call it with a nonzero level already have to accept
//! 0 (c-torture 20010122-1.c does). The warning says so, so a difference with an x86
//! gcc that walks the chain is never a surprise.

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::Punct;
use crate::frontend::types::{QualType, Type};
use std::rc::Rc;

/// Is `name` one of the two frame builtins?
pub(crate) fn is_frame_builtin(name: &str) -> bool {
    matches!(name, "__builtin_return_address" | "__builtin_frame_address")
}

impl Parser<'_> {
    /// frame-builtin: ('__builtin_return_address' | '__builtin_frame_address')
    ///                '(' constant-expression ')'
    /// The cursor is on the name. `Ok(None)` for level 0: the cursor is put back on the
    /// name, and the call is parsed as a call of the builtin.
    pub(crate) fn parse_frame_builtin(
        &mut self,
        name: &str,
        loc: Loc,
    ) -> Result<Option<Expr>, Diagnostic> {
        let start = self.pos;
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let arg = self.parse_assign_expr()?;
        self.expect_punct(Punct::RParen)?;
        let arg = self.rvalue(arg);
        let level = match self.eval_int_const(&arg) {
            Some(v) if arg.ty.ty.is_integer() && v >= 0 => v,
            _ => return Err(self.error_at(arg.loc, format!("invalid argument to '{name}'"))),
        };
        if level == 0 {
            self.pos = start;
            return Ok(None);
        }
        self.warn_at(
            loc,
            format!(
                "'{name}' with a nonzero level is a null pointer in phicc (gcc gives 0 too \
                 where it cannot walk the frames)"
            ),
        );
        let void_ptr = Type::Pointer(Rc::new(QualType::new(Type::Void)));
        let zero = Expr::int_lit(0, Type::int(), loc);
        Ok(Some(Expr::new(
            ExprKind::Cast(Box::new(zero)),
            void_ptr,
            loc,
        )))
    }
}
