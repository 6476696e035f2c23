//! The type of an integer constant (C99 6.4.4.1p5) on the target, plus gcc's extension
//! for a decimal constant too large for `long long`.
//!
//! Why it exists: the lexer only knows value, radix and suffix; the type depends on the
//! target's `long` width (`2147483648` is `long` on LP64, `long long` on i686).
//! Invariant: the chosen type is the first of C99's candidate list whose range holds
//! the value; when none does, `unsigned long long` with gcc's warning.

use crate::frontend::target::Target;
use crate::frontend::token::{IntLit, LongSuffix, Radix};
use crate::frontend::types::IntKind;

/// The type of an integer constant and whether gcc warns "integer constant is so large
/// that it is unsigned".
pub(crate) fn int_constant_type(lit: &IntLit, target: Target) -> (IntKind, bool) {
    use IntKind::*;
    let decimal = lit.radix == Radix::Decimal;
    let candidates: &[IntKind] = match (lit.unsigned, lit.long, decimal) {
        (false, LongSuffix::None, true) => &[Int, Long, LongLong],
        (false, LongSuffix::None, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (true, LongSuffix::None, _) => &[UInt, ULong, ULongLong],
        (false, LongSuffix::Long, true) => &[Long, LongLong],
        (false, LongSuffix::Long, false) => &[Long, ULong, LongLong, ULongLong],
        (true, LongSuffix::Long, _) => &[ULong, ULongLong],
        (false, LongSuffix::LongLong, true) => &[LongLong],
        (false, LongSuffix::LongLong, false) => &[LongLong, ULongLong],
        (true, LongSuffix::LongLong, _) => &[ULongLong],
    };
    for &k in candidates {
        let bits = k.size(target) * 8;
        let max: u64 = if k.is_signed(target) {
            (1u64 << (bits - 1)) - 1
        } else if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        if lit.value <= max {
            return (k, false);
        }
    }
    (ULongLong, true)
}
