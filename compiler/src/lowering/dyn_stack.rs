//! Dynamic stack allocation in C: `alloca` and its GNU builtins (and the variable-length
//! arrays' objects, `vla.rs`), lowered to the IR's `dynalloca` (docs/ir-notes.md,
//! "Dynamic stack allocation").
//!
//! Why it exists: an object whose size is known only at run time cannot be a frame slot
//! (an entry-block `alloca` of a fixed size); `dynalloca` gives it a fresh stack object of
//! exactly that size, so the oracle checks every access against its bounds.
//!
//! Invariants:
//! - `alloca(n)` is 16-byte aligned, as glibc's and gcc's (`__BIGGEST_ALIGNMENT__` on the
//!   64-bit targets; gcc keeps i686's stack at 16 too); `__builtin_alloca_with_align(n,
//!   A)` takes A in bits, a constant power of two, and is at least 16-byte aligned too;
//! - an `alloca` object lives until its function returns: no `stackrestore` is emitted
//!   for it (a VLA scope that ends around it frees it as well, as gcc does);
//! - the size is converted to `i64` from `size_t` (zero-extended on i686).

use super::expr::RVal;
use super::function::{FnLower, Res};
use crate::frontend::ast::Expr;
use crate::ir::{Inst, IrType, Operand};

/// The alignment of an `alloca` object.
pub(crate) const ALLOCA_ALIGN: u32 = 16;

impl FnLower<'_, '_> {
    /// `alloca(size)`, `__builtin_alloca(size)`, `__builtin_alloca_with_align(size,
    /// bits)`.
    pub(crate) fn lower_alloca(&mut self, name: &str, args: &[Expr], e: &Expr) -> Res<RVal> {
        let with_align = name == "__builtin_alloca_with_align";
        if args.len() != if with_align { 2 } else { 1 } {
            return Err(self.err(e.loc, format!("wrong number of arguments to `{name}`")));
        }
        let mut align = ALLOCA_ALIGN;
        if with_align {
            let Some(bits) = self.constant_arg(&args[1])? else {
                return Err(self.err(
                    args[1].loc,
                    "the alignment of `__builtin_alloca_with_align` must be a constant",
                ));
            };
            let bytes = bits / 8;
            if bits % 8 != 0 || !bytes.is_power_of_two() || bytes > 4096 {
                return Err(self.err(
                    args[1].loc,
                    "the alignment of `__builtin_alloca_with_align` must be a power of two \
                     number of bits from 8 to 32768",
                ));
            }
            align = align.max(bytes as u32);
        }
        let (size, ty) = self.scalar(&args[0])?;
        let size = self.cast(ty, size, IrType::I64);
        Ok(RVal::Scalar(self.dynalloca(size, align), IrType::Ptr))
    }

    /// `%d = dynalloca size, align` (`size` an `i64`).
    pub(crate) fn dynalloca(&mut self, size: Operand, align: u32) -> Operand {
        let dest = self.value();
        self.emit(Inst::DynAlloca { dest, size, align });
        Operand::Value(dest)
    }

    /// The value of a constant argument, if it is one (evaluated like any argument).
    fn constant_arg(&mut self, arg: &Expr) -> Res<Option<u64>> {
        let (v, _) = self.scalar(arg)?;
        Ok(match v {
            Operand::Const(c) => Some(c.bits as u64),
            Operand::Value(_) => None,
        })
    }
}
