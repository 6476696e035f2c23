//! The type of an integer constant (C99 6.4.4.1p5) on the target, plus gcc's extension
//! for a constant too large for every type of its candidate list.
//!
//! Why it exists: the lexer only knows value, radix and suffix; the type depends on the
//! target's `long` width (`2147483648` is `long` on LP64, `long long` on i686).
//! Invariant: the chosen type is the first of C99's candidate list whose range holds
//! the value. When none does (only possible for a decimal constant without `u` above
//! `LLONG_MAX`), gcc 12 warns "integer constant is so large that it is unsigned" but
//! gives it its widest signed literal type: `long long` on i686 (so `9223372036854775808`
//! is negative there), `__int128` on the LP64 targets (checked with `_Generic`, `sizeof`
//! and the sign in `tests/target_facts_gcc.rs`). phicc has no `__int128`, so on LP64
//! such a constant is an error rather than a constant of another type.

use crate::frontend::token::{IntLit, LongSuffix, Radix};
use crate::frontend::types::IntKind;
use crate::target::Target;

/// The type of an integer constant and whether gcc warns "integer constant is so large
/// that it is unsigned"; the error message when gcc would give it a type phicc lacks.
pub(crate) fn int_constant_type(
    lit: &IntLit,
    target: Target,
) -> Result<(IntKind, bool), &'static str> {
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
            return Ok((k, false));
        }
    }
    if target.is_lp64() {
        Err("integer constant is too large for its type (gcc gives it type '__int128', which phicc does not support)")
    } else {
        Ok((LongLong, true))
    }
}
