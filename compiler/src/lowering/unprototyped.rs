//! Calls to a function defined without a prototype (`f() {...}`, `f(a) int a; {...}`)
//! whose arguments do not match its parameters exactly, as gcc compiles them.
//!
//! Why it exists: old-style code calls such functions with arguments the definition
//! does not name (`x(0)` for `x() {...}`), or with an `unsigned` where the parameter is
//! `int`. gcc passes the arguments as the call writes them and the callee reads its
//! parameters; this file gives the IR call the same meaning without breaking the IR rule
//! that a direct call matches its callee's signature.
//!
//! Invariants (the only adjustments; anything else stays an error at the call):
//! - an argument of the same width as its parameter but the other signedness is the
//!   same bits (C99 6.5.2.2p6 allows it for values representable in both; gcc passes
//!   the bits in any case);
//! - an integer constant 0 for a pointer parameter is the null pointer (what gcc's
//!   zero-extended register holds);
//! - arguments beyond the definition's parameters are evaluated (they already were)
//!   and not passed: the callee never reads them;
//! - fewer arguments than parameters is refused (the callee would read garbage);
//! - a result of the same width and other signedness is the same bits.

use super::function::FnLower;
use crate::ir::{IrType, Operand};

impl FnLower<'_, '_> {
    /// `args` adjusted to `params` as gcc passes them, or `None` when they cannot be.
    pub(crate) fn reconcile_unprototyped_args(
        &mut self,
        params: &[IrType],
        args: &[(IrType, Operand)],
    ) -> Option<Vec<(IrType, Operand)>> {
        if args.len() < params.len() {
            return None;
        }
        let ptr_bytes = self.ctx.ptr_bytes;
        let mut out = Vec::with_capacity(params.len());
        for (&(t, v), &p) in args.iter().zip(params) {
            if t == p {
                out.push((t, v));
            } else if same_width_integers(t, p, ptr_bytes) {
                let c = self.cast(t, v, p);
                out.push((p, c));
            } else if p == IrType::Ptr && t.is_integer() && is_zero_constant(v) {
                out.push((p, Operand::Const(crate::ir::IrConst::new(IrType::Ptr, 0))));
            } else {
                return None;
            }
        }
        Some(out)
    }

    /// Whether a result of IR type `callee` can be read as `expected` (see the module
    /// doc): equal, or integers of one width.
    pub(crate) fn result_reinterpretable(&self, callee: IrType, expected: IrType) -> bool {
        callee == expected || same_width_integers(callee, expected, self.ctx.ptr_bytes)
    }
}

fn same_width_integers(a: IrType, b: IrType, ptr_bytes: u32) -> bool {
    a.is_integer() && b.is_integer() && a.bits(ptr_bytes) == b.bits(ptr_bytes)
}

fn is_zero_constant(v: Operand) -> bool {
    matches!(v, Operand::Const(c) if c.bits == 0)
}
