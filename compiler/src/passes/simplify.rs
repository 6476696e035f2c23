//! `simplify`: algebraic simplification of one instruction at a time.
//!
//! What it does: an instruction whose value is one of its own operands, or a constant
//! whatever its non-constant operands hold, is replaced by that operand in every use and
//! removed; an instruction with a cheaper or canonical equivalent is rewritten in place
//! (same value number, same type). The identities, on integer types (`x` any operand,
//! `-1` all ones at the width, constants read at the instruction's type):
//!
//! | instruction | becomes |
//! |---|---|
//! | `add x, 0`, `sub x, 0`, `or x, 0`, `xor x, 0`, `shl/ashr/lshr x, 0` | `x` |
//! | `mul x, 1`, `and x, -1`, `sdiv/udiv x, 1`, `and x, x`, `or x, x` | `x` |
//! | `mul x, 0`, `and x, 0`, `sub x, x`, `xor x, x`, `srem/urem x, 1` | `0` |
//! | `or x, -1` | `-1` |
//! | `xor x, -1` | `not x` |
//! | `mul x, 2^k` (k >= 1) | `shl x, k` |
//! | `neg (neg x)`, `not (not x)` | `x` |
//! | `OP c, x` for commutative `OP` (add mul and or xor) | `OP x, c` |
//! | `cmp PRED c, x` | `cmp SWAPPED x, c` |
//!
//! and on every type: `cmp eq/sle/sge/ule/uge x, x` is 1 and `cmp ne/slt/sgt/ult/ugt x, x`
//! is 0; `select c, a, a` is `a`; `select CONST, a, b` is the arm the condition's low byte
//! picks; `cast T x to T` is `x`. Double negation looks through the definition of the
//! operand, which the dominance-order walk has already visited.
//!
//! What it assumes: the function passed the verifier in SSA mode; in particular a value
//! operand has exactly its position's type, so `x` in `add i32 x, 0` is an `i32` and may
//! replace the result.
//!
//! What it must not do: remove anything that can trap or be undefined for some input
//! where the result would not (`sdiv x, x` is not 1 when `x` is 0; `shl 0, x` is left
//! alone); rewrite a division or a shift other than by the constants listed (`x / 1`,
//! `x % 1` and shifts by 0 are always defined); apply integer identities to `ptr`
//! (pointer arithmetic keeps its target-dependent width); change the CFG.
//!
//! Mutant `SimplifyAshrAsLshr`: `ashr x, c` by an in-range constant becomes `lshr x, c`
//! (wrong whenever `x` is negative at the width). Mutants `SimplifySdivPow2AsAshr`,
//! `SimplifySremPow2AsMask`, `SimplifyAddCmpIgnoresOverflow` and `SimplifyNegEqSelfAsZero`:
//! rewrites that are right for most values and wrong for some (see [`Mutant`]).
//!
//! Situations (counted in this pass's input by phihunt's situation census,
//! `census::situations`; the names are the census rows):
//! - transforms: `identity_operand` (0, 1, -1 operands, table above) and the
//!   `boundary_divisor` rewrites the table lists;
//! - `self_comparison` (`-x == x`, `x + c < x`): no rewrite here decides such a
//!   comparison, and one that did would have to hold for the width's minimum and for
//!   wrapping sums;
//! - must hold back: any rewrite that is exact only for some values (a signed division
//!   by a power of two is not a shift; `x / -1` is not `-x` when x is MIN).

use crate::ir::eval::{self, is_commutative, swapped_pred};
use crate::ir::substitute::{rewrite_in_dominance_order, Rewrite};
use crate::ir::{BinOp, CmpPred, Inst, IrConst, IrFunction, IrType, Operand, UnOp, Value};
use crate::mutants::{self, Mutant};

#[cfg(test)]
mod tests;

/// Runs the pass on one function; returns the number of instructions replaced or
/// rewritten.
pub fn run(func: &mut IrFunction) -> usize {
    let mut unary_defs = UnaryDefs::default();
    rewrite_in_dominance_order(func, |inst| {
        let decision = simplify(inst, &unary_defs);
        let kept = match &decision {
            Rewrite::Keep => Some(inst),
            Rewrite::Substitute(new) => Some(new),
            Rewrite::Replace(_) => None,
        };
        match kept {
            Some(Inst::Un { dest, op, ty, src }) => unary_defs.record(*dest, *op, *ty, *src),
            Some(Inst::Bin {
                dest,
                op: BinOp::Add,
                ty,
                lhs,
                rhs: Operand::Const(c),
            }) if lhs.as_value().is_some() => unary_defs.record_add(*dest, *ty, *lhs, *c),
            _ => {}
        }
        decision
    })
}

/// The `neg`/`not` instructions seen so far, by the value they define (and, for the
/// seeded bug `SimplifyAddCmpIgnoresOverflow`, the `add x, c` ones).
#[derive(Default)]
struct UnaryDefs {
    defs: Vec<Option<(UnOp, IrType, Operand)>>,
    add_consts: Vec<Option<(IrType, Operand, IrConst)>>,
}

impl UnaryDefs {
    fn record(&mut self, dest: Value, op: UnOp, ty: IrType, src: Operand) {
        if dest.index() >= self.defs.len() {
            self.defs.resize(dest.index() + 1, None);
        }
        self.defs[dest.index()] = Some((op, ty, src));
    }

    fn get(&self, v: Value) -> Option<(UnOp, IrType, Operand)> {
        self.defs.get(v.index()).copied().flatten()
    }

    fn record_add(&mut self, dest: Value, ty: IrType, x: Operand, c: IrConst) {
        if dest.index() >= self.add_consts.len() {
            self.add_consts.resize(dest.index() + 1, None);
        }
        self.add_consts[dest.index()] = Some((ty, x, c));
    }

    fn get_add(&self, v: Value) -> Option<(IrType, Operand, IrConst)> {
        self.add_consts.get(v.index()).copied().flatten()
    }
}

/// The rewrite the identities give `inst` (operands already rewritten).
fn simplify(inst: &Inst, unary_defs: &UnaryDefs) -> Rewrite {
    match inst {
        Inst::Bin {
            dest,
            op,
            ty,
            lhs,
            rhs,
        } if ty.is_integer() => simplify_binop(*dest, *op, *ty, *lhs, *rhs),
        Inst::Un { op, ty, src, .. } if ty.is_integer() => {
            // Rule: neg (neg x) and not (not x) are x.
            match src.as_value().and_then(|v| unary_defs.get(v)) {
                Some((inner_op, inner_ty, x)) if inner_op == *op && inner_ty == *ty => {
                    Rewrite::Replace(at_type(x, *ty))
                }
                _ => Rewrite::Keep,
            }
        }
        Inst::Cmp {
            dest,
            pred,
            ty,
            lhs,
            rhs,
        } => {
            // Rule: comparing a value with itself is decided by the predicate alone.
            if lhs.as_value().is_some() && lhs == rhs {
                let holds = matches!(
                    pred,
                    CmpPred::Eq | CmpPred::Sle | CmpPred::Sge | CmpPred::Ule | CmpPred::Uge
                );
                return Rewrite::Replace(Operand::Const(IrConst::new(IrType::I8, holds as i64)));
            }
            if let Some(rewrite) = seeded_cmp_bugs(*dest, *pred, *ty, *lhs, *rhs, unary_defs) {
                return rewrite;
            }
            // Rule: a constant goes to the right, with the predicate mirrored.
            if lhs.as_const().is_some() && rhs.as_value().is_some() {
                return Rewrite::Substitute(Inst::Cmp {
                    dest: *dest,
                    pred: swapped_pred(*pred),
                    ty: *ty,
                    lhs: *rhs,
                    rhs: *lhs,
                });
            }
            Rewrite::Keep
        }
        Inst::Select {
            ty,
            cond,
            on_true,
            on_false,
            ..
        } if ty.is_scalar() => {
            // Rule: both arms are evaluated anyway; equal arms make the condition moot.
            if at_type(*on_true, *ty) == at_type(*on_false, *ty) {
                return Rewrite::Replace(at_type(*on_true, *ty));
            }
            // Rule: a constant condition, non-zero in its own type, picks its arm.
            match cond.as_const() {
                Some(c) if c.bits != 0 => Rewrite::Replace(at_type(*on_true, *ty)),
                Some(_) => Rewrite::Replace(at_type(*on_false, *ty)),
                None => Rewrite::Keep,
            }
        }
        Inst::Cast { from, src, to, .. } if from == to && from.is_scalar() => {
            // Rule: a cast to the same type reads and writes the same canonical value.
            Rewrite::Replace(at_type(*src, *to))
        }
        _ => Rewrite::Keep,
    }
}

/// The identities of one integer binary operation.
fn simplify_binop(dest: Value, op: BinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Rewrite {
    // Rule: commutative operations keep a constant on the right.
    let swapped = is_commutative(op) && lhs.as_const().is_some() && rhs.as_value().is_some();
    let (x, y) = if swapped { (rhs, lhs) } else { (lhs, rhs) };
    let same_value = x.as_value().is_some() && x == y;
    let Ok(mask) = eval::width_mask(ty) else {
        return Rewrite::Keep;
    };
    // `c`: the right operand as an unsigned number of the width, when it is a constant.
    let c = y.as_const().map(|k| k.bits as u64 & mask);
    let zero = || Rewrite::Replace(Operand::Const(IrConst::zero(ty)));
    let keep_x = || Rewrite::Replace(at_type(x, ty));
    let bin = |op, rhs| {
        Rewrite::Substitute(Inst::Bin {
            dest,
            op,
            ty,
            lhs: x,
            rhs,
        })
    };
    match (op, c) {
        (BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor, Some(0)) => keep_x(),
        (BinOp::Shl | BinOp::AShr | BinOp::LShr, Some(0)) => keep_x(),
        (BinOp::Mul | BinOp::SDiv | BinOp::UDiv, Some(1)) => keep_x(),
        (BinOp::And, Some(m)) if m == mask => keep_x(),
        (BinOp::And | BinOp::Or, _) if same_value => keep_x(),
        (BinOp::Mul | BinOp::And, Some(0)) => zero(),
        // x % 1 is 0 for every x: the divisor 1 never traps.
        (BinOp::SRem | BinOp::URem, Some(1)) => zero(),
        (BinOp::Sub | BinOp::Xor, _) if same_value => zero(),
        (BinOp::Or, Some(m)) if m == mask => {
            Rewrite::Replace(Operand::Const(IrConst::new(ty, mask as i64)))
        }
        (BinOp::Xor, Some(m)) if m == mask => Rewrite::Substitute(Inst::Un {
            dest,
            op: UnOp::Not,
            ty,
            src: x,
        }),
        (BinOp::Mul, Some(m)) if m.is_power_of_two() => bin(
            BinOp::Shl,
            Operand::Const(IrConst::new(ty, m.trailing_zeros() as i64)),
        ),
        // Seeded bugs: a signed division or remainder by a positive power of two (not the
        // sign bit) as a shift or a mask, without the correction for negative `x`.
        (BinOp::SDiv, Some(m))
            if m.is_power_of_two()
                && m <= mask >> 1
                && mutants::enabled(Mutant::SimplifySdivPow2AsAshr) =>
        {
            bin(
                BinOp::AShr,
                Operand::Const(IrConst::new(ty, m.trailing_zeros() as i64)),
            )
        }
        (BinOp::SRem, Some(m))
            if m.is_power_of_two()
                && m <= mask >> 1
                && mutants::enabled(Mutant::SimplifySremPow2AsMask) =>
        {
            bin(BinOp::And, Operand::Const(IrConst::new(ty, (m - 1) as i64)))
        }
        (BinOp::AShr, Some(amount)) if amount < u64::from(ty.bits(8)) => {
            // Rule: an arithmetic shift stays arithmetic: it copies the sign bit in.
            if mutants::enabled(Mutant::SimplifyAshrAsLshr) {
                bin(BinOp::LShr, y)
            } else {
                Rewrite::Keep
            }
        }
        _ if swapped => bin(op, y),
        _ => Rewrite::Keep,
    }
}

/// The seeded comparison bugs: `cmp PRED (add x, c1), c2` as `cmp PRED x, c2 - c1` for an
/// ordering `PRED` (`SimplifyAddCmpIgnoresOverflow`; right only when nothing wraps), and
/// `cmp eq/ne (neg x), x` as `cmp eq/ne x, 0` (`SimplifyNegEqSelfAsZero`; wrong for the
/// width's minimum). `None` when neither applies or both are off.
fn seeded_cmp_bugs(
    dest: Value,
    pred: CmpPred,
    ty: IrType,
    lhs: Operand,
    rhs: Operand,
    defs: &UnaryDefs,
) -> Option<Rewrite> {
    if !ty.is_integer() {
        return None;
    }
    let cmp = |pred, lhs, rhs| {
        Some(Rewrite::Substitute(Inst::Cmp {
            dest,
            pred,
            ty,
            lhs,
            rhs,
        }))
    };
    if mutants::enabled(Mutant::SimplifyAddCmpIgnoresOverflow)
        && !matches!(pred, CmpPred::Eq | CmpPred::Ne)
    {
        if let (Some(v), Some(c2)) = (lhs.as_value(), rhs.as_const()) {
            if let Some((add_ty, x, c1)) = defs.get_add(v) {
                if add_ty == ty {
                    let folded = IrConst::new(ty, c2.bits.wrapping_sub(c1.bits));
                    return cmp(pred, x, Operand::Const(folded));
                }
            }
        }
    }
    if mutants::enabled(Mutant::SimplifyNegEqSelfAsZero)
        && matches!(pred, CmpPred::Eq | CmpPred::Ne)
    {
        for (a, b) in [(lhs, rhs), (rhs, lhs)] {
            let Some(v) = a.as_value() else { continue };
            if let Some((UnOp::Neg, neg_ty, x)) = defs.get(v) {
                if neg_ty == ty && x == b && b.as_value().is_some() {
                    return cmp(pred, b, Operand::Const(IrConst::zero(ty)));
                }
            }
        }
    }
    None
}

/// `op` as an operand of exactly type `ty`: a constant is converted (read at `ty`, as the
/// instruction read it); a value already has that type (verified input).
fn at_type(op: Operand, ty: IrType) -> Operand {
    match op {
        Operand::Const(k) => Operand::Const(IrConst::new(ty, k.bits)),
        Operand::Value(_) => op,
    }
}
