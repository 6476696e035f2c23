//! Value substitution: "every use of `%v` now reads this operand instead", and the walk in
//! dominance order that local rewriting passes (constant folding, algebraic
//! simplification) are built on.
//!
//! Why: a pass that proves `%v` equal to an operand it already has (a constant, an earlier
//! value) replaces the uses of `%v` directly instead of leaving a `copy` for later passes,
//! so the facts it finds cascade within one run (`%2 = add %1, 0` after `%1 = mul 3, 4`
//! folds at once). Keeping the map, the chain-following and the final rewrite of every
//! operand in one place keeps the passes short and alike.
//!
//! Invariants:
//! - a replacement operand has exactly the replaced value's type (a constant of that type,
//!   or a value of that type whose definition dominates every use of the replaced value);
//!   so it is valid in every position the value was (phi and copy operands included, whose
//!   constants must have exactly the instruction's type);
//! - the map never holds a cycle: a value is never mapped to itself, directly or through a
//!   chain; [`Substitution::resolve`] follows chains with a step bound all the same;
//! - [`rewrite_in_dominance_order`] visits reachable blocks in reverse postorder (every
//!   non-phi use after its definition), then unreachable blocks; it removes a replaced
//!   instruction only after every operand of the function has been rewritten, so no use
//!   of a removed value is left; it never touches terminators other than their operands,
//!   so the CFG does not change.

use super::analysis::{build_cfg, build_label_map, compute_reverse_postorder};
use super::{Inst, IrFunction, Operand, Terminator, Value};

/// Map from replaced values to the operands that replace them.
#[derive(Clone, Debug, Default)]
pub struct Substitution {
    replacement: Vec<Option<Operand>>,
    len: usize,
}

impl Substitution {
    /// An empty map for `func`'s values.
    pub fn new(func: &IrFunction) -> Substitution {
        Substitution {
            replacement: vec![None; func.value_bound() as usize],
            len: 0,
        }
    }

    /// Number of values replaced.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is replaced.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when `v` has a replacement.
    pub fn is_replaced(&self, v: Value) -> bool {
        matches!(self.replacement.get(v.index()), Some(Some(_)))
    }

    /// From now on every use of `v` reads `by` (resolved first). Returns false, and maps
    /// nothing, when `by` resolves to `v` itself or `v` is already replaced.
    pub fn insert(&mut self, v: Value, by: Operand) -> bool {
        let by = self.resolve(by);
        if by == Operand::Value(v) || self.is_replaced(v) {
            return false;
        }
        if v.index() >= self.replacement.len() {
            self.replacement.resize(v.index() + 1, None);
        }
        self.replacement[v.index()] = Some(by);
        self.len += 1;
        true
    }

    /// What `op` reads after the substitution (follows chains).
    pub fn resolve(&self, mut op: Operand) -> Operand {
        // Chains are acyclic by construction; the bound only guards against misuse.
        for _ in 0..=self.len {
            match op {
                Operand::Value(v) => match self.replacement.get(v.index()) {
                    Some(Some(next)) => op = *next,
                    _ => return op,
                },
                Operand::Const(_) => return op,
            }
        }
        op
    }

    /// Rewrites the operands of `inst`; true when one changed.
    pub fn rewrite_inst(&self, inst: &mut Inst) -> bool {
        if self.is_empty() {
            return false;
        }
        let mut changed = false;
        inst.for_each_operand_mut(|op| {
            let new = self.resolve(*op);
            if new != *op {
                *op = new;
                changed = true;
            }
        });
        changed
    }

    /// Rewrites the operand of `term`; true when it changed.
    pub fn rewrite_terminator(&self, term: &mut Terminator) -> bool {
        if self.is_empty() {
            return false;
        }
        let mut changed = false;
        term.for_each_operand_mut(|op| {
            let new = self.resolve(*op);
            if new != *op {
                *op = new;
                changed = true;
            }
        });
        changed
    }

    /// Rewrites every operand of `func`; returns how many instructions and terminators
    /// changed.
    pub fn apply(&self, func: &mut IrFunction) -> usize {
        if self.is_empty() {
            return 0;
        }
        let mut changed = 0;
        for block in &mut func.blocks {
            for inst in &mut block.insts {
                changed += self.rewrite_inst(inst) as usize;
            }
            changed += self.rewrite_terminator(&mut block.term) as usize;
        }
        changed
    }

    /// Removes every instruction that defines a replaced value; returns how many. Call
    /// only after [`Substitution::apply`], when nothing uses them any more.
    pub fn remove_replaced(&self, func: &mut IrFunction) -> usize {
        if self.is_empty() {
            return 0;
        }
        let mut removed = 0;
        for block in &mut func.blocks {
            let before = block.insts.len();
            block
                .insts
                .retain(|inst| !inst.dest().is_some_and(|d| self.is_replaced(d)));
            removed += before - block.insts.len();
        }
        removed
    }
}

/// What a local rule decides for one instruction (whose operands are already rewritten).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rewrite {
    /// Leave it.
    Keep,
    /// Its value is this operand (of exactly the instruction's result type, defined
    /// before the instruction): replace every use and remove the instruction. Only for
    /// instructions whose removal changes nothing but their value (no trap, no effect).
    Replace(Operand),
    /// Put this instruction in its place: it defines the same value with the same type.
    Substitute(Inst),
}

/// Rounds of the walk before giving up on the phis whose loop-carried operands were
/// replaced after the phi was visited (a further round runs only when such a phi
/// changed).
const MAX_ROUNDS: usize = 4;

/// Applies `rule` to every instruction of `func` in dominance order (reachable blocks in
/// reverse postorder, then the unreachable ones), with each instruction's operands
/// rewritten by the replacements found so far; replaces and removes what the rule says.
/// Repeats while a round changed a phi's operand (at most [`MAX_ROUNDS`] rounds): every
/// other use comes after its definition in this order. Returns the
/// number of instructions replaced or substituted.
pub fn rewrite_in_dominance_order(
    func: &mut IrFunction,
    mut rule: impl FnMut(&Inst) -> Rewrite,
) -> usize {
    let order = block_order(func);
    let mut total = 0;
    for _ in 0..MAX_ROUNDS {
        let mut subst = Substitution::new(func);
        let mut changes = 0;
        for &b in &order {
            for inst in func.blocks[b].insts.iter_mut() {
                subst.rewrite_inst(inst);
                match rule(inst) {
                    Rewrite::Keep => {}
                    Rewrite::Replace(by) => {
                        // Rule: only a value-defining instruction can be replaced, and
                        // never by itself.
                        if let Some(dest) = inst.dest() {
                            if subst.insert(dest, by) {
                                changes += 1;
                            }
                        }
                    }
                    Rewrite::Substitute(new) => {
                        if new != *inst && new.dest() == inst.dest() {
                            *inst = new;
                            changes += 1;
                        }
                    }
                }
            }
        }
        // Every operand not rewritten during the walk: phi entries on back edges (their
        // phi was visited before the value was replaced) and terminators.
        let mut phi_changed = false;
        for block in &mut func.blocks {
            for inst in &mut block.insts {
                phi_changed |= subst.rewrite_inst(inst) && inst.is_phi();
            }
            subst.rewrite_terminator(&mut block.term);
        }
        subst.remove_replaced(func);
        total += changes;
        // Rule: another round can only find something new through a changed phi.
        if changes == 0 || !phi_changed {
            break;
        }
    }
    total
}

/// Reachable blocks in reverse postorder, then the unreachable ones in function order.
fn block_order(func: &IrFunction) -> Vec<usize> {
    let labels = build_label_map(func);
    let (_, succs) = build_cfg(func, &labels);
    let mut order = compute_reverse_postorder(func.blocks.len(), &succs);
    let mut seen = vec![false; func.blocks.len()];
    for &b in &order {
        seen[b] = true;
    }
    order.extend((0..func.blocks.len()).filter(|&b| !seen[b]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::{parse_module, print_module};
    use crate::ir::{IrConst, IrType};

    fn v(n: u32) -> Operand {
        Operand::Value(Value(n))
    }

    fn empty_map(values: u32) -> Substitution {
        Substitution {
            replacement: vec![None; values as usize],
            len: 0,
        }
    }

    #[test]
    fn chains_resolve_and_cycles_are_refused() {
        let five = Operand::Const(IrConst::new(IrType::I32, 5));
        let mut s = empty_map(4);
        assert!(s.insert(Value(1), v(2)));
        assert!(s.insert(Value(2), five));
        assert_eq!(s.resolve(v(1)), five);
        assert_eq!(s.resolve(v(3)), v(3));
        // %3 -> %1 resolves to the constant at once.
        assert!(s.insert(Value(3), v(1)));
        assert_eq!(s.replacement[3], Some(five));
        // A value never replaces itself, directly or through a chain.
        let mut t = empty_map(4);
        assert!(!t.insert(Value(1), v(1)));
        assert!(t.insert(Value(1), v(2)));
        assert!(!t.insert(Value(2), v(1)));
        // Nor is a value replaced twice.
        assert!(!t.insert(Value(1), v(3)));
        assert_eq!(t.len(), 1);
        // Values beyond the initial bound grow the map.
        assert!(t.insert(Value(10), five));
        assert_eq!(t.resolve(v(10)), five);
    }

    #[test]
    fn apply_rewrites_every_use_then_removal_drops_the_definitions() {
        let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
                   %1 = add i32 %0, 1\n    %2 = add i32 %1, %1\n    condbr %1, .LBB1, .LBB2\n\
                   .LBB1:\n    br .LBB2\n.LBB2:\n    %3 = phi i32 [%1, .LBB0], [%2, .LBB1]\n    \
                   ret i32 %3\n}\n";
        let mut m = parse_module(src).unwrap();
        let f = &mut m.functions[0];
        let mut s = Substitution::new(f);
        s.insert(Value(1), v(0));
        // The add, the condbr and the phi read %1.
        assert_eq!(s.apply(f), 3);
        assert_eq!(s.remove_replaced(f), 1);
        let expected = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
                        %2 = add i32 %0, %0\n    condbr %0, .LBB1, .LBB2\n\
                        .LBB1:\n    br .LBB2\n.LBB2:\n    %3 = phi i32 [%0, .LBB0], [%2, .LBB1]\n    \
                        ret i32 %3\n}\n";
        assert_eq!(
            print_module(&m),
            print_module(&parse_module(expected).unwrap())
        );
    }

    #[test]
    fn the_walk_sees_definitions_before_uses() {
        // In function order the use (.LBB1) comes before the definition (.LBB2); in
        // reverse postorder it does not, so one round folds both, with two rule calls.
        // In function order the use would be visited first and stay unfolded (further
        // rounds run only for changed phis).
        let src = "func @f() -> i32 {\n.LBB0:\n    br .LBB2\n.LBB1:\n    %3 = add i32 %2, 0\n    \
                   ret i32 %3\n.LBB2:\n    %2 = add i32 1, 2\n    br .LBB1\n}\n";
        let mut m = parse_module(src).unwrap();
        let mut calls = 0;
        let n = rewrite_in_dominance_order(&mut m.functions[0], |inst| {
            calls += 1;
            match crate::passes::const_fold::fold(inst) {
                Some(c) => Rewrite::Replace(Operand::Const(c)),
                None => Rewrite::Keep,
            }
        });
        assert_eq!(n, 2);
        assert_eq!(calls, 2);
        let expected = "func @f() -> i32 {\n.LBB0:\n    br .LBB2\n.LBB1:\n    ret i32 3\n\
                        .LBB2:\n    br .LBB1\n}\n";
        assert_eq!(
            print_module(&m),
            print_module(&parse_module(expected).unwrap())
        );
    }
}
