//! Counting divisions that may trap: an unsanitized, unguarded non-constant divisor.
//!
//! Why: a backend must raise SIGFPE on division by zero (and signed MIN / -1) even where
//! the hardware divide does not trap; only programs containing a division whose divisor
//! can be zero at run time can show it. The census cannot know the run-time values, so it
//! counts the divisions nothing proves safe.
//!
//! Definitions: a division (`sdiv udiv srem urem`) counts when its divisor is a value
//! (not a constant), that value is not defined by `or _, K` with `K` odd (the sanitizing
//! of `gen::arith`, which makes it non-zero), and its block is not entered only on an edge
//! where a test excludes a zero divisor (the guard rule of `guarded_divs`).

use super::guarded_divs::{guarded_nonzero, Definitions};
use compiler::ir::analysis::CfgAnalysis;
use compiler::ir::{BinOp, Inst, IrFunction, Operand};

/// The number of divisions in `f` that nothing proves to have a non-zero divisor.
pub(super) fn count_trapping_divs(f: &IrFunction, cfg: &CfgAnalysis) -> u64 {
    let has_division = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(i, Inst::Bin { op, rhs: Operand::Value(_), .. } if op.can_trap()));
    if !has_division {
        return 0;
    }
    let defs = Definitions::of(f);
    let mut n = 0;
    for (b, block) in f.blocks.iter().enumerate().take(cfg.num_blocks) {
        for inst in &block.insts {
            let Inst::Bin {
                op,
                rhs: Operand::Value(d),
                ..
            } = inst
            else {
                continue;
            };
            if !op.can_trap() {
                continue;
            }
            let sanitized = matches!(
                defs.inst.get(d),
                Some((_, Inst::Bin { op: BinOp::Or, lhs, rhs, .. }))
                    if [lhs, rhs].iter().any(|o| matches!(o, Operand::Const(k) if k.bits & 1 == 1))
            );
            if !sanitized && !guarded_nonzero(f, cfg, &defs, b, *d) {
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::ir::text::parse_module;

    fn count(src: &str) -> u64 {
        let m = parse_module(src).expect("parses");
        let f = &m.functions[0];
        count_trapping_divs(f, &CfgAnalysis::build(f))
    }

    #[test]
    fn unguarded_divisor_from_a_parameter_counts() {
        let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
                   %1 = sub i32 %0, 1\n    %2 = sdiv i32 7, %1\n    ret i32 %2\n}\n";
        assert_eq!(count(src), 1);
    }

    #[test]
    fn sanitized_constant_or_guarded_divisors_do_not_count() {
        let src = "func @f(i32) -> i32 {\n.LBB0:\n    %0 = paramref 0, i32\n    \
                   %1 = or i32 %0, 1\n    %2 = sdiv i32 7, %1\n    %3 = udiv i32 %0, 3\n    \
                   %4 = cmp ne i32 %0, 0\n    condbr %4, .LBB1, .LBB2\n\
                   .LBB1:\n    %5 = urem i32 9, %0\n    br .LBB2\n\
                   .LBB2:\n    ret i32 %2\n}\n";
        assert_eq!(count(src), 0);
    }
}
