//! The checked lowering's intrinsics (`compiler::ub_intrinsics`): what each one means.
//!
//! Why: the UB judge runs a program compiled with the front end's `ub_checks`; the calls
//! it adds are decoded to one [`Op::Intrinsic`](super::code::Op) each (no call frame, no
//! argument vector: the judge's run must stay within 2x of the plain one) and executed
//! by [`execute`] here.
//!
//! Where ISO C and gcc differ, the judge takes gcc's documented semantics only when phicc
//! provably never exploits the latitude: the signed left shift (`signed_shl`: gcc's
//! manual defines the overflowing and negative cases; checked that the IR's `shl` wraps,
//! no pass rewrites shifts beyond `x << 0`, and the front end's constant evaluators wrap —
//! `docs/ub-judge.md`, "Signed left shifts"). Signed `+ - *` overflow stays undefined (gcc
//! exploits it), and so does a shift count out of range.
//!
//! Invariants: an intrinsic reports exactly the condition its doc in
//! `compiler::ub_intrinsics` states and nothing else; the arithmetic ones return the
//! wrapped result the plain instruction would compute (canonical for their type) when
//! they do not report; arguments arrive canonical for their declared types.

use super::memory::Memory;
use crate::outcome::Ub;
use compiler::ub_intrinsics::UbIntrinsic;

/// Runs intrinsic `k` on `a` and `b` (the second argument, or 0 for one-argument ones).
/// Returns the result register's value (0 for the void ones).
#[inline]
pub(crate) fn execute(k: UbIntrinsic, a: u64, b: u64, mem: &mut Memory) -> Result<u64, Ub> {
    let (x32, y32) = (a as i32, b as i32);
    let (x64, y64) = (a as i64, b as i64);
    let overflow = Ub::SignedOverflow;
    match k {
        UbIntrinsic::AddI32 => x32.checked_add(y32).map(wide32).ok_or(overflow),
        UbIntrinsic::SubI32 => x32.checked_sub(y32).map(wide32).ok_or(overflow),
        UbIntrinsic::MulI32 => x32.checked_mul(y32).map(wide32).ok_or(overflow),
        UbIntrinsic::NegI32 => x32.checked_neg().map(wide32).ok_or(overflow),
        UbIntrinsic::AddI64 => x64.checked_add(y64).map(|v| v as u64).ok_or(overflow),
        UbIntrinsic::SubI64 => x64.checked_sub(y64).map(|v| v as u64).ok_or(overflow),
        UbIntrinsic::MulI64 => x64.checked_mul(y64).map(|v| v as u64).ok_or(overflow),
        UbIntrinsic::NegI64 => x64.checked_neg().map(|v| v as u64).ok_or(overflow),
        UbIntrinsic::ShlI32 => signed_shl(x32 as i64, y32 as i64, 32).map(wide64),
        UbIntrinsic::ShlI64 => signed_shl(x64, y64, 64).map(wide64),
        UbIntrinsic::PtrSub => pair(mem, a, b, Ub::PointerSubtraction),
        UbIntrinsic::PtrCmp => pair(mem, a, b, Ub::PointerComparison),
        UbIntrinsic::Index => {
            if x64 >= 0 && x64 < y64 {
                Ok(0)
            } else {
                Err(Ub::IndexOutOfBounds)
            }
        }
        UbIntrinsic::Aligned => {
            if b != 0 && a.is_multiple_of(b) {
                Ok(0)
            } else {
                Err(Ub::Misaligned)
            }
        }
        // Decoded with the slot's own register as the result (`compile.rs`): the slot's
        // value designates the new object from here on.
        UbIntrinsic::ScopeStart => Ok(mem.start_scope(a)),
        UbIntrinsic::ScopeEnd => {
            mem.end_scope(a);
            Ok(0)
        }
        UbIntrinsic::Freeze => {
            mem.set_stack_slot_writable(a, false);
            Ok(0)
        }
        UbIntrinsic::Thaw => {
            mem.set_stack_slot_writable(a, true);
            Ok(0)
        }
        UbIntrinsic::FnType => {
            mem.register_function_type(a, b);
            Ok(0)
        }
        UbIntrinsic::CallType => {
            if mem.function_type_differs(a, b) {
                Err(Ub::BadCall)
            } else {
                Ok(0)
            }
        }
        UbIntrinsic::Unsequenced => Err(Ub::Unsequenced),
        UbIntrinsic::StoreType => {
            mem.set_effective_type(a, b >> 8, b as u8);
            Ok(0)
        }
        UbIntrinsic::LoadType => mem.check_effective_type(a, b >> 8, b as u8).map(|()| 0),
        UbIntrinsic::Untyped => {
            mem.set_untyped(a);
            Ok(0)
        }
        UbIntrinsic::SubObject => {
            mem.set_pending_bounds(a, b);
            Ok(0)
        }
        UbIntrinsic::BindBounds => {
            mem.bind_bounds(a);
            Ok(0)
        }
        UbIntrinsic::KeepBounds => {
            mem.keep_bounds(a);
            Ok(0)
        }
        UbIntrinsic::PtrInBounds => mem.check_derived(a, b, false).map(|()| 0),
        UbIntrinsic::AccessInBounds => mem.check_derived(a, b, true).map(|()| 0),
    }
}

/// The canonical `i32` register value.
fn wide32(v: i32) -> u64 {
    v as i64 as u64
}

fn wide64(v: i64) -> u64 {
    v as u64
}

/// `a << n` of a signed value of `bits` width, as gcc defines it: the shift count must
/// be in `0..bits` (C11 6.5.7p3: `ShiftTooLarge` otherwise, UB for gcc too), and the
/// result is the two's-complement bits of `a` shifted left, read back as signed — also
/// when `a` is negative or `a * 2^n` does not fit, which C11 6.5.7p4 leaves undefined but
/// gcc's manual defines ("Integers implementation": GCC does not use the latitude given
/// in C99 and C11 only to treat certain aspects of signed `<<` as undefined). Why the
/// judge may follow gcc here, and how it was checked that phicc never exploits that
/// latitude: `docs/ub-judge.md`, "Signed left shifts: gcc's semantics".
fn signed_shl(a: i64, n: i64, bits: u32) -> Result<i64, Ub> {
    if n < 0 || n >= i64::from(bits) {
        return Err(Ub::ShiftTooLarge);
    }
    let shifted = (a as u64) << n;
    Ok(if bits == 32 {
        i64::from(shifted as u32 as i32)
    } else {
        shifted as i64
    })
}

/// Pointer subtraction and relational comparison: one object only.
fn pair(mem: &Memory, p: u64, q: u64, ub: Ub) -> Result<u64, Ub> {
    if mem.same_object(p, q) {
        Ok(0)
    } else {
        Err(ub)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(k: UbIntrinsic, a: i64, b: i64) -> Result<i64, Ub> {
        let mut m = Memory::new(8);
        execute(k, a as u64, b as u64, &mut m).map(|v| v as i64)
    }

    #[test]
    fn signed_arithmetic_reports_exactly_overflow() {
        use UbIntrinsic::*;
        let (max32, min32) = (i32::MAX as i64, i32::MIN as i64);
        assert_eq!(run(AddI32, max32, 1), Err(Ub::SignedOverflow));
        assert_eq!(run(AddI32, max32, -1), Ok(max32 - 1));
        assert_eq!(run(AddI32, -5, 3), Ok(-2));
        assert_eq!(run(SubI32, min32, 1), Err(Ub::SignedOverflow));
        assert_eq!(run(SubI32, min32, -1), Ok(min32 + 1));
        assert_eq!(run(MulI32, 65536, 65536), Err(Ub::SignedOverflow));
        assert_eq!(run(MulI32, -65536, 32768), Ok(min32));
        assert_eq!(run(NegI32, min32, 0), Err(Ub::SignedOverflow));
        assert_eq!(run(NegI32, max32, 0), Ok(-max32));
        assert_eq!(run(AddI64, i64::MAX, 1), Err(Ub::SignedOverflow));
        assert_eq!(run(MulI64, 1 << 32, 1 << 30), Ok(1 << 62));
        assert_eq!(run(MulI64, 1 << 32, 1 << 31), Err(Ub::SignedOverflow));
        assert_eq!(run(MulI64, -(1 << 32), 1 << 31), Ok(i64::MIN));
        assert_eq!(run(MulI64, 1 << 32, 1 << 32), Err(Ub::SignedOverflow));
        assert_eq!(run(NegI64, i64::MIN, 0), Err(Ub::SignedOverflow));
    }

    #[test]
    fn signed_shifts_follow_gcc_and_counts_stay_checked() {
        use UbIntrinsic::*;
        let (max32, min32) = (i32::MAX as i64, i32::MIN as i64);
        // Representable results: the same as C11 6.5.7p4.
        assert_eq!(run(ShlI32, 1, 30), Ok(1 << 30));
        assert_eq!(run(ShlI32, 0, 31), Ok(0));
        assert_eq!(run(ShlI64, 1, 62), Ok(1 << 62));
        assert_eq!(run(ShlI64, 0x7fff, 48), Ok(0x7fff << 48));
        // Into or past the sign bit, and negative values: gcc's two's-complement bits
        // (values computed by hand).
        assert_eq!(run(ShlI32, 1, 31), Ok(min32));
        assert_eq!(run(ShlI32, 3, 30), Ok(-(1 << 30)));
        assert_eq!(run(ShlI32, -1, 1), Ok(-2));
        assert_eq!(run(ShlI32, max32, 1), Ok(-2));
        assert_eq!(run(ShlI32, 0x1234, 28), Ok(0x4000_0000));
        assert_eq!(run(ShlI64, 1, 63), Ok(i64::MIN));
        assert_eq!(run(ShlI64, 0x8000, 48), Ok(i64::MIN));
        assert_eq!(run(ShlI64, -1, 4), Ok(-16));
        // The count stays undefined out of range, for gcc too.
        assert_eq!(run(ShlI32, 1, 32), Err(Ub::ShiftTooLarge));
        assert_eq!(run(ShlI32, 1, -1), Err(Ub::ShiftTooLarge));
        assert_eq!(run(ShlI32, -1, 32), Err(Ub::ShiftTooLarge));
        assert_eq!(run(ShlI64, 1, 64), Err(Ub::ShiftTooLarge));
        assert_eq!(run(ShlI64, 1, -3), Err(Ub::ShiftTooLarge));
    }

    #[test]
    fn index_and_alignment() {
        use UbIntrinsic::*;
        assert_eq!(run(Index, 3, 4), Ok(0));
        assert_eq!(run(Index, 4, 4), Err(Ub::IndexOutOfBounds));
        assert_eq!(run(Index, -1, 4), Err(Ub::IndexOutOfBounds));
        assert_eq!(run(Aligned, 16, 4), Ok(0));
        assert_eq!(run(Aligned, 17, 4), Err(Ub::Misaligned));
    }
}
