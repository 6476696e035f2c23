//! Argument vectors for a generated entry function.
//!
//! Why: one program is run with several inputs so one generation pays for several
//! checks, and the inputs should probe the edges (0, -1, MIN, MAX) as well as ordinary
//! small values.
//!
//! Invariants: every value is canonical for its parameter's type; `ptr` parameters (the
//! entry never has them, but be safe) get 0; the vectors are distinct; there are three or
//! four of them when the first parameter is an integer, and exactly one when the
//! function takes no parameters (more would be identical runs).

use super::choice::Pick;
use super::consts::{canonical, interesting, type_max, type_min};
use arbitrary::{Result, Unstructured};
use compiler::ir::IrType;

/// Three or four argument vectors for parameters of types `params`: small values, zeros or
/// minus ones, the type extremes, and (sometimes) a random mix.
pub fn argument_vectors(u: &mut Unstructured, params: &[IrType]) -> Result<Vec<Vec<i64>>> {
    if params.is_empty() {
        return Ok(vec![Vec::new()]);
    }
    let mut vectors = Vec::new();
    // Small values: what loops and switches are written for.
    let mut small = Vec::new();
    for &ty in params {
        let v = if ty.is_signed() {
            u.between(0, 12)? as i64 - 3
        } else {
            u.between(0, 9)? as i64
        };
        small.push(value_for(ty, v));
    }
    vectors.push(small);
    // Zero or minus one everywhere.
    let fill = if u.chance(50)? { 0 } else { -1 };
    vectors.push(params.iter().map(|&ty| value_for(ty, fill)).collect());
    // The extremes of each type.
    let mut extremes = Vec::new();
    for &ty in params {
        let v = if u.chance(50)? {
            type_min(ty)
        } else {
            type_max(ty)
        };
        extremes.push(value_for(ty, v));
    }
    vectors.push(extremes);
    if u.chance(60)? {
        let mut mix = Vec::new();
        for &ty in params {
            let v = if ty.is_integer() {
                interesting(u, ty)?
            } else {
                0
            };
            mix.push(value_for(ty, v));
        }
        vectors.push(mix);
    }
    // Identical vectors are identical runs (for `u16`, -1 is also MAX): keep the first of
    // each, then fill up to three with small variations of the first vector.
    let mut distinct: Vec<Vec<i64>> = Vec::new();
    for v in vectors {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    let mut k = 1i64;
    while distinct.len() < 3 && k < 64 {
        let mut v = distinct[0].clone();
        v[0] = value_for(params[0], v[0].wrapping_add(k));
        if !distinct.contains(&v) {
            distinct.push(v);
        }
        k += 1;
    }
    Ok(distinct)
}

/// `v` as an argument of type `ty`: canonical for integers, null for pointers.
fn value_for(ty: IrType, v: i64) -> i64 {
    if ty.is_integer() {
        canonical(ty, v)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_are_canonical_and_cover_edges() {
        let params = [IrType::U8, IrType::I16, IrType::U64, IrType::I32];
        let data: Vec<u8> = (0..=255u8).rev().cycle().take(4096).collect();
        let mut u = Unstructured::new(&data);
        let vs = argument_vectors(&mut u, &params).unwrap();
        assert!(vs.len() >= 3 && vs.len() <= 4);
        for v in &vs {
            assert_eq!(v.len(), params.len());
            for (x, ty) in v.iter().zip(params) {
                assert_eq!(canonical(ty, *x), *x);
            }
        }
        // -1 into u8 is 255 when the fill is -1; 0 otherwise.
        assert!(vs[1][0] == 0 || vs[1][0] == 255);
        assert!(vs[2][0] == 0 || vs[2][0] == 255);
        assert!(vs[2][1] == -32768 || vs[2][1] == 32767);
    }

    #[test]
    fn vectors_are_distinct_even_when_edges_coincide() {
        // One u8 parameter, exhausted input: small 0, fill 0 or -1, extreme 0 (MIN) —
        // duplicates by hand, so the fill-up must supply distinct ones.
        let mut u = Unstructured::new(&[]);
        let vs = argument_vectors(&mut u, &[IrType::U8]).unwrap();
        assert!(vs.len() >= 3, "{vs:?}");
        for (i, a) in vs.iter().enumerate() {
            assert!(!vs[i + 1..].contains(a), "duplicate {a:?} in {vs:?}");
        }
    }

    #[test]
    fn no_params_one_empty_vector() {
        let mut u = Unstructured::new(&[1, 2, 3]);
        assert_eq!(
            argument_vectors(&mut u, &[]).unwrap(),
            vec![Vec::<i64>::new()]
        );
    }
}
