//! Interesting integer constants.
//!
//! Why: miscompiles hide at the edges — zero, minus one, the type's MIN and MAX, values
//! that change when narrowed (300 into `i8`), powers of two — far more than at random
//! 64-bit patterns. Both generators and the argument vectors draw from here.
//!
//! Invariants: [`interesting`] returns a value canonical for the type it was asked for
//! (`IrType::canonicalize`), so it can go into `IrConst` or an argument vector as is;
//! [`wide_literal`] returns an `i64` literal meant to be narrowed by a store.

use super::choice::Pick;
use arbitrary::{Result, Unstructured};
use compiler::ir::IrType;

/// The smallest value of an integer type, canonical (0 for unsigned types).
pub fn type_min(ty: IrType) -> i64 {
    if ty.is_signed() {
        let bits = ty.bits(8);
        (-(1i128 << (bits - 1))) as i64
    } else {
        0
    }
}

/// The largest value of an integer type, canonical (`u64::MAX` reads as -1 in `i64`).
pub fn type_max(ty: IrType) -> i64 {
    let bits = ty.bits(8);
    if ty.is_signed() {
        ((1i128 << (bits - 1)) - 1) as i64
    } else {
        canonical(ty, ((1u128 << bits) - 1) as i64)
    }
}

/// `v` brought to `ty`'s canonical form.
pub fn canonical(ty: IrType, v: i64) -> i64 {
    ty.canonicalize(v as u64, 8) as i64
}

/// A value of integer type `ty` from the edges, or small, or random; canonical for `ty`.
///
/// The classes (the value census, `campaign::census::values`, counts the same ones as they
/// meet operations at run time): 0, ±1, small, MIN, MAX and their neighbours, powers of two
/// and their neighbours (positive and negative), negative odd numbers, a small value with
/// the sign bit flipped, the top bit of a narrower width (0x80, 0x8000, 0x8000_0000 and
/// their neighbours, positive or sign-extended), and random bit patterns.
pub fn interesting(u: &mut Unstructured, ty: IrType) -> Result<i64> {
    let bits = ty.bits(8);
    let raw = match u.weighted(&[6, 5, 5, 4, 3, 3, 2, 2, 3, 5, 3, 3, 2, 3])? {
        0 => 0,
        1 => 1,
        2 => -1,
        3 => u.between(2, 12)? as i64,
        4 => type_min(ty),
        5 => type_max(ty),
        6 => type_min(ty).wrapping_add(1),
        7 => type_max(ty).wrapping_sub(1),
        8 => {
            let shift = u.between(0, 63)?;
            (u.bits64()? >> shift) as i64
        }
        9 => power_of_two_neighbour(u, bits)?,
        10 => power_of_two_neighbour(u, bits)?.wrapping_neg(),
        11 => -(2 * u.between(1, 40)? as i64 + 1),
        12 => (1i64 << (bits - 1)) ^ u.between(0, 9)? as i64,
        _ => narrower_top_bit(u, bits)?,
    };
    Ok(canonical(ty, raw))
}

/// `2^k - 1`, `2^k` or `2^k + 1` for a `k` below `bits`.
fn power_of_two_neighbour(u: &mut Unstructured, bits: u32) -> Result<i64> {
    let k = u.between(0, bits - 1)?;
    let off = u.between(0, 2)? as i64 - 1;
    Ok((1i64 << k).wrapping_add(off))
}

/// The top bit of a width narrower than `bits` (8, 16 or 32), as is (`0x80`) or
/// sign-extended (`-0x80`), or a neighbour of either; for `i8` its own top bit.
fn narrower_top_bit(u: &mut Unstructured, bits: u32) -> Result<i64> {
    let widths: Vec<u32> = [8u32, 16, 32].into_iter().filter(|&w| w < bits).collect();
    let w = if widths.is_empty() {
        8
    } else {
        widths[u.index(widths.len())?]
    };
    let top = 1i64 << (w - 1);
    let v = if u.chance(50)? { top } else { -top };
    Ok(v.wrapping_add(u.between(0, 2)? as i64 - 1))
}

/// A literal as the lowering writes it (`:i64`), chosen so that storing it into a slot of
/// `ty` often changes it: a value just out of range, a negative into an unsigned slot, a
/// large power of two.
pub fn wide_literal(u: &mut Unstructured, ty: IrType) -> Result<i64> {
    let bits = ty.bits(8);
    Ok(match u.weighted(&[3, 3, 2, 2, 2])? {
        0 => u.between(0, 20)? as i64,
        1 if bits < 64 => (1i64 << bits) + u.between(0, 60)? as i64 - 16,
        2 => -(u.between(1, 300)? as i64),
        3 if bits < 64 => type_max(ty).wrapping_add(u.between(1, 3)? as i64),
        _ => interesting(u, IrType::I64)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_max_by_hand() {
        assert_eq!(type_min(IrType::I8), -128);
        assert_eq!(type_max(IrType::I8), 127);
        assert_eq!(type_min(IrType::U16), 0);
        assert_eq!(type_max(IrType::U16), 65535);
        assert_eq!(type_min(IrType::I64), i64::MIN);
        assert_eq!(type_max(IrType::I64), i64::MAX);
        assert_eq!(type_max(IrType::U64), -1);
        assert_eq!(type_max(IrType::U32), 0xffff_ffff);
    }

    #[test]
    fn interesting_values_are_canonical() {
        let data: Vec<u8> = (0..=255u8).cycle().take(8192).collect();
        let mut u = Unstructured::new(&data);
        for _ in 0..300 {
            for ty in IrType::INTEGERS {
                let v = interesting(&mut u, ty).unwrap();
                assert_eq!(canonical(ty, v), v, "{ty} {v}");
            }
        }
    }
}
