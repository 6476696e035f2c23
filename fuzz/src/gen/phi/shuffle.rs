//! Random parallel copies: rebinding variables among themselves.
//!
//! Why: phi elimination's hard cases are the shapes of an edge's parallel copy — swaps,
//! rotations of any length, chains, a value read by several phis, self-copies, constants.
//! A shuffle rebinds variables *without emitting code*: after `a, b := b, a` the
//! environment simply maps `a` to what `b` held. When a loop's back edge follows a
//! shuffle, the header phis read each other in exactly that pattern.
//!
//! Invariants: a shuffle only moves values between variables of one type (so every phi
//! entry has the phi's type); its sources are read from the environment *before* any
//! rebinding (parallel semantics); constants are canonical for the variable's type.

use crate::gen::choice::Pick;
use arbitrary::{Result, Unstructured};
use compiler::ir::{konst, IrType, Operand};

/// Where a rebound variable's new value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Another variable's value before the shuffle (or its own: a self-copy).
    Var(usize),
    /// A constant of the variable's type.
    Const(i64),
}

/// Plans a shuffle of variables of one type: a rotation (a swap when of two), a random
/// permutation, a random map (chains and shared sources), constants, or a mix.
pub fn plan_shuffle(u: &mut Unstructured, types: &[IrType]) -> Result<Vec<(usize, Source)>> {
    if types.is_empty() {
        return Ok(Vec::new());
    }
    let ty = types[u.index(types.len())?];
    let mut group: Vec<usize> = (0..types.len()).filter(|&i| types[i] == ty).collect();
    // A random order of the group (Fisher-Yates).
    for i in (1..group.len()).rev() {
        let j = u.index(i + 1)?;
        group.swap(i, j);
    }
    let mut moves = Vec::new();
    match u.weighted(&[5, 3, 3, 1, 2])? {
        0 | 4 => {
            // A rotation of the first m (a swap for m = 2): g0 <- g1 <- ... <- g(m-1) <- g0.
            let m = if group.len() >= 2 {
                u.between(2, group.len() as u32)? as usize
            } else {
                group.len()
            };
            for k in 0..m {
                moves.push((group[k], Source::Var(group[(k + 1) % m])));
            }
            for &g in &group[m..] {
                if u.chance(30)? {
                    moves.push((
                        g,
                        Source::Const(super::float_expr::interesting_bits(u, ty)?),
                    ));
                }
            }
        }
        1 => {
            // A random permutation: its cycles have random lengths, fixed points included.
            let mut perm = group.clone();
            for i in (1..perm.len()).rev() {
                let j = u.index(i + 1)?;
                perm.swap(i, j);
            }
            for (k, &g) in group.iter().enumerate() {
                moves.push((g, Source::Var(perm[k])));
            }
        }
        2 => {
            // A random map: several variables may read one, others read each other in chains.
            for &g in &group {
                if u.chance(70)? {
                    moves.push((g, Source::Var(group[u.index(group.len())?])));
                }
            }
        }
        _ => {
            for &g in &group {
                if u.chance(50)? {
                    moves.push((
                        g,
                        Source::Const(super::float_expr::interesting_bits(u, ty)?),
                    ));
                }
            }
        }
    }
    Ok(moves)
}

/// Applies `moves` to `env` with parallel semantics.
pub fn apply_shuffle(env: &mut [Operand], types: &[IrType], moves: &[(usize, Source)]) {
    let old = env.to_vec();
    for &(dest, src) in moves {
        env[dest] = match src {
            Source::Var(j) => old[j],
            Source::Const(c) => konst(types[dest], c),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::Value;

    #[test]
    fn parallel_semantics_swap_and_rotate() {
        let types = [IrType::I32; 3];
        let mut env: Vec<Operand> = (0..3).map(|i| Operand::Value(Value(i))).collect();
        apply_shuffle(
            &mut env,
            &types,
            &[(0, Source::Var(1)), (1, Source::Var(0))],
        );
        assert_eq!(env, vec![Value(1).into(), Value(0).into(), Value(2).into()]);
        let mut env: Vec<Operand> = (0..3).map(|i| Operand::Value(Value(i))).collect();
        apply_shuffle(
            &mut env,
            &types,
            &[
                (0, Source::Var(1)),
                (1, Source::Var(2)),
                (2, Source::Var(0)),
            ],
        );
        assert_eq!(env, vec![Value(1).into(), Value(2).into(), Value(0).into()]);
    }

    #[test]
    fn moves_stay_within_one_type() {
        let types = [
            IrType::I32,
            IrType::U8,
            IrType::I32,
            IrType::U8,
            IrType::I32,
        ];
        let data: Vec<u8> = (0..=255u8).cycle().take(8192).collect();
        let mut u = Unstructured::new(&data);
        for _ in 0..200 {
            for (d, s) in plan_shuffle(&mut u, &types).unwrap() {
                if let Source::Var(j) = s {
                    assert_eq!(types[d], types[j]);
                }
            }
        }
    }
}
