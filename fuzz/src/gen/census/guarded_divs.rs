//! Counting divisions guarded by a test of their loop-invariant divisor.
//!
//! Why: loop-invariant code motion must not hoist `if (d != 0) q = x / d;` out of a loop,
//! and the only programs that can show it doing so have that shape: a division inside a
//! natural loop that has a preheader, both operands invariant in the loop, in a block
//! entered only when a test of the divisor excluded zero. This counts such divisions in
//! any module, alloca form or SSA.
//!
//! Definitions (the rules the code below checks):
//! - a natural loop is the header of a back edge (an edge to a dominator) plus every
//!   reachable block that reaches one of its latches without passing through the header;
//!   its preheader is its only reachable predecessor outside the body, when that block's
//!   only distinct successor is the header (as `licm` defines it);
//! - an operand is invariant in a loop when it is a constant, a value defined outside the
//!   body, or a load from a slot that the body never stores to and whose address is only
//!   ever used as the pointer of loads and stores (so nothing else can write it);
//! - two operands are the same divisor when they are the same value or loads of the same
//!   slot;
//! - the test guards the division's block when that block has exactly one predecessor,
//!   which ends in `condbr %c` with two distinct targets, and `%c` implies "divisor != 0"
//!   on the edge taken to the block: `cmp ne|sgt|ugt d, 0` on the true edge, `cmp eq d, 0`
//!   on the false edge, or an `and` of two values one of which is such a test (true edge).

use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{BinOp, CmpPred, Inst, IrFunction, Operand, Terminator, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// What defines a value, and where.
pub(super) struct Definitions<'f> {
    pub(super) inst: FxHashMap<Value, (usize, &'f Inst)>,
    /// Allocas whose address is only the pointer operand of loads and stores.
    private_slots: FxHashSet<Value>,
}

impl<'f> Definitions<'f> {
    pub(super) fn of(f: &'f IrFunction) -> Definitions<'f> {
        let mut inst = FxHashMap::default();
        let mut allocas = FxHashSet::default();
        for (b, block) in f.blocks.iter().enumerate() {
            for i in &block.insts {
                if let Some(d) = i.dest() {
                    inst.insert(d, (b, i));
                }
                if let Inst::Alloca { dest, .. } = i {
                    allocas.insert(*dest);
                }
            }
        }
        // Rule: a slot stays private unless its address is used other than as the pointer
        // of a load or a store.
        let mut escaped = FxHashSet::default();
        for block in &f.blocks {
            for i in &block.insts {
                match i {
                    Inst::Load { .. } => {}
                    Inst::Store { val, .. } => {
                        if let Some(v) = val.as_value() {
                            escaped.insert(v);
                        }
                    }
                    other => other.for_each_used_value(|v| {
                        escaped.insert(v);
                    }),
                }
            }
            block.term.for_each_operand_typed(|op, _| {
                if let Some(v) = op.as_value() {
                    escaped.insert(v);
                }
            });
        }
        let private_slots = allocas.difference(&escaped).copied().collect();
        Definitions {
            inst,
            private_slots,
        }
    }

    /// The private slot `v` was loaded from, if it is such a load.
    fn loaded_slot(&self, v: Value) -> Option<Value> {
        match self.inst.get(&v) {
            Some((
                _,
                Inst::Load {
                    ptr: Operand::Value(p),
                    ..
                },
            )) if self.private_slots.contains(p) => Some(*p),
            _ => None,
        }
    }

    /// True when `a` and `b` hold the same divisor: one value, or loads of one slot.
    fn same_divisor(&self, a: Value, b: Value) -> bool {
        a == b || matches!((self.loaded_slot(a), self.loaded_slot(b)), (Some(x), Some(y)) if x == y)
    }
}

/// One natural loop: its body and whether it has a preheader.
struct Loop {
    in_body: Vec<bool>,
    has_preheader: bool,
}

/// The natural loops of `cfg`, one per back-edge target.
fn natural_loops(cfg: &CfgAnalysis) -> Vec<Loop> {
    let n = cfg.num_blocks;
    let mut latches: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &b in &cfg.rpo {
        for &h in cfg.succs.row(b) {
            if cfg.dominates(h as usize, b) {
                latches[h as usize].push(b);
            }
        }
    }
    let mut loops = Vec::new();
    for header in 0..n {
        if latches[header].is_empty() {
            continue;
        }
        let mut in_body = vec![false; n];
        in_body[header] = true;
        let mut stack = latches[header].clone();
        while let Some(b) = stack.pop() {
            if in_body[b] {
                continue;
            }
            in_body[b] = true;
            for &p in cfg.preds.row(b) {
                if cfg.is_reachable(p as usize) {
                    stack.push(p as usize);
                }
            }
        }
        let outside: Vec<usize> = cfg
            .preds
            .row(header)
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| cfg.is_reachable(p) && !in_body[p])
            .collect();
        let has_preheader =
            header != 0 && outside.len() == 1 && cfg.succs.row(outside[0]) == [header as u32];
        loops.push(Loop {
            in_body,
            has_preheader,
        });
    }
    loops
}

/// Divisions in loops with a preheader whose operands are invariant there and whose
/// block is guarded by a test of the divisor against zero.
pub(super) fn count_guarded_invariant_divs(f: &IrFunction, cfg: &CfgAnalysis) -> u64 {
    let has_division = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(i, Inst::Bin { op, rhs: Operand::Value(_), .. } if op.can_trap()));
    if !has_division {
        return 0;
    }
    let loops = natural_loops(cfg);
    if loops.is_empty() {
        return 0;
    }
    let defs = Definitions::of(f);
    let mut counted: FxHashSet<Value> = FxHashSet::default();
    for lp in loops.iter().filter(|l| l.has_preheader) {
        let stored_in_body: FxHashSet<Value> = (0..cfg.num_blocks)
            .filter(|&b| lp.in_body[b])
            .flat_map(|b| &f.blocks[b].insts)
            .filter_map(|i| match i {
                Inst::Store {
                    ptr: Operand::Value(p),
                    ..
                } => Some(*p),
                _ => None,
            })
            .collect();
        let invariant = |op: &Operand| match op {
            Operand::Const(_) => true,
            Operand::Value(v) => match defs.inst.get(v) {
                None => false,
                Some(&(b, _)) if !lp.in_body[b] => true,
                Some(_) => defs
                    .loaded_slot(*v)
                    .is_some_and(|s| !stored_in_body.contains(&s)),
            },
        };
        for b in (0..cfg.num_blocks).filter(|&b| lp.in_body[b]) {
            for inst in &f.blocks[b].insts {
                let Inst::Bin {
                    dest,
                    op,
                    lhs,
                    rhs: rhs @ Operand::Value(d),
                    ..
                } = inst
                else {
                    continue;
                };
                if op.can_trap()
                    && invariant(lhs)
                    && invariant(rhs)
                    && guarded_nonzero(f, cfg, &defs, b, *d)
                {
                    counted.insert(*dest);
                }
            }
        }
    }
    counted.len() as u64
}

/// True when block `b` is entered only on an edge where a test shows `divisor != 0`.
pub(super) fn guarded_nonzero(
    f: &IrFunction,
    cfg: &CfgAnalysis,
    defs: &Definitions,
    b: usize,
    divisor: Value,
) -> bool {
    let [pred] = cfg.preds.row(b) else {
        return false;
    };
    let Terminator::CondBr {
        cond: Operand::Value(c),
        if_true,
        if_false,
    } = &f.blocks[*pred as usize].term
    else {
        return false;
    };
    if if_true == if_false {
        return false;
    }
    let label = f.blocks[b].label;
    let on_true = *if_true == label;
    excludes_zero(defs, *c, divisor, on_true)
        || (on_true
            && matches!(
                defs.inst.get(c),
                Some((_, Inst::Bin { op: BinOp::And, lhs: Operand::Value(x), rhs: Operand::Value(y), .. }))
                    if excludes_zero(defs, *x, divisor, true) || excludes_zero(defs, *y, divisor, true)
            ))
}

/// True when `c` being true (`when_true`) or false shows that `divisor` is not zero.
fn excludes_zero(defs: &Definitions, c: Value, divisor: Value, when_true: bool) -> bool {
    let Some((
        _,
        Inst::Cmp {
            pred,
            lhs: Operand::Value(tested),
            rhs: Operand::Const(k),
            ..
        },
    )) = defs.inst.get(&c)
    else {
        return false;
    };
    let excluding = match pred {
        CmpPred::Ne | CmpPred::Sgt | CmpPred::Ugt => when_true,
        CmpPred::Eq => !when_true,
        _ => false,
    };
    excluding && k.bits == 0 && defs.same_divisor(*tested, divisor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::text::parse_module;

    fn count(src: &str) -> u64 {
        let m = parse_module(src).expect("test input parses");
        let f = &m.functions[0];
        count_guarded_invariant_divs(f, &CfgAnalysis::build(f))
    }

    /// A loop 2 <-> 3 with preheader 1; `BODY` is the guarded block's code and `GUARD`
    /// the header's test, both filled in by each test.
    fn looped(guard: &str, body: &str) -> String {
        format!(
            "func @f(i32, i32) -> i32 {{\n.LBB0:\n    %0 = paramref 0, i32\n    \
             %1 = paramref 1, i32\n    %2 = alloca i32, 4, 4\n    %3 = alloca i32, 4, 4\n    \
             store i32 %1, %2\n    store i32 0, %3\n    br .LBB1\n\
             .LBB1:\n    %4 = and i32 %0, 3\n    br .LBB2\n\
             .LBB2:\n    %5 = load i32 %2\n{guard}\n\
             .LBB3:\n{body}\n    br .LBB4\n\
             .LBB4:\n    %9 = load i32 %3\n    %10 = add i32 %9, 1\n    store i32 %10, %3\n    \
             %11 = cmp slt i32 %10, 4\n    condbr %11, .LBB2, .LBB5\n\
             .LBB5:\n    ret i32 0\n}}\n"
        )
    }

    #[test]
    fn guarded_division_by_an_invariant_value_counts() {
        // `%4` is defined in the preheader; the header tests it and the arm divides by it.
        let src = looped(
            "    %6 = cmp ne i32 %4, 0\n    condbr %6, .LBB3, .LBB4",
            "    %7 = sdiv i32 %5, %4",
        );
        // The dividend `%5` loads slot %2, which the loop never stores: invariant.
        assert_eq!(count(&src), 1);
    }

    #[test]
    fn guard_through_loads_of_one_slot_and_negated_sense_count() {
        // Divisor loaded twice from slot %2; the test is `== 0` with the arm on false.
        let src = looped(
            "    %6 = cmp eq i32 %5, 0\n    condbr %6, .LBB4, .LBB3",
            "    %7 = load i32 %2\n    %8 = udiv i32 %4, %7",
        );
        assert_eq!(count(&src), 1);
    }

    #[test]
    fn and_of_tests_counts_on_the_true_edge_only() {
        let and_true = looped(
            "    %6 = cmp ne i32 %4, 0\n    %12 = cmp ne i32 %4, -1\n    \
             %13 = and i8 %12, %6\n    condbr %13, .LBB3, .LBB4",
            "    %7 = srem i32 %5, %4",
        );
        assert_eq!(count(&and_true), 1);
        let and_false = looped(
            "    %6 = cmp ne i32 %4, 0\n    %12 = cmp ne i32 %4, -1\n    \
             %13 = and i8 %12, %6\n    condbr %13, .LBB4, .LBB3",
            "    %7 = srem i32 %5, %4",
        );
        assert_eq!(count(&and_false), 0);
    }

    #[test]
    fn unguarded_variant_or_wrongly_guarded_divisions_do_not_count() {
        // Guard tests another value.
        let other = looped(
            "    %6 = cmp ne i32 %0, 0\n    condbr %6, .LBB3, .LBB4",
            "    %7 = sdiv i32 %5, %4",
        );
        assert_eq!(count(&other), 0);
        // A test against 1 is not a test against zero.
        let against_one = looped(
            "    %6 = cmp sgt i32 %4, 1\n    condbr %6, .LBB3, .LBB4",
            "    %7 = sdiv i32 %5, %4",
        );
        assert_eq!(count(&against_one), 0);
        // The divisor is the loop counter's slot, stored in the loop: not invariant.
        let variant = looped(
            "    %6 = load i32 %3\n    %12 = cmp ne i32 %6, 0\n    condbr %12, .LBB3, .LBB4",
            "    %7 = load i32 %3\n    %8 = sdiv i32 %5, %7",
        );
        assert_eq!(count(&variant), 0);
        // A constant divisor is not counted (licm may hoist it legitimately).
        let constant = looped(
            "    %6 = cmp ne i32 %4, 0\n    condbr %6, .LBB3, .LBB4",
            "    %7 = sdiv i32 %5, 7",
        );
        assert_eq!(count(&constant), 0);
    }

    #[test]
    fn loop_without_preheader_does_not_count() {
        // The entry jumps straight into the header from a condbr: no preheader.
        let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
                   %1 = cmp ne i32 %0, 5\n    condbr %1, .LBB2, .LBB5\n\
                   .LBB2:\n    %6 = cmp ne i32 %0, 0\n    condbr %6, .LBB3, .LBB4\n\
                   .LBB3:\n    %7 = sdiv i32 9, %0\n    br .LBB4\n\
                   .LBB4:\n    condbr %1, .LBB2, .LBB5\n\
                   .LBB5:\n    ret i32 0\n}\n";
        assert_eq!(count(src), 0);
    }
}
