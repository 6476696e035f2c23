//! An optional observer of the operand values that meet integer operations at run time.
//!
//! Why: a generator that means to feed boundary values (0, -1, MIN, powers of two) to
//! divisions and shifts can only be judged by what actually reached them when the
//! program ran; counting the constants it printed says nothing about values computed,
//! loaded or masked on the way. The harness's value census
//! (`phihunt`'s `campaign::census`) is such an observer.
//!
//! Invariants (zero cost when off):
//! - a program prepared without observation (`Program::new`, `Program::new_reusing` of an
//!   unobserved program) holds no observation op at all, so the execution loop runs
//!   exactly the code it ran before this file existed (`new_reusing` of an observed
//!   program may share its decoded functions, whose observation ops are then inert);
//! - a program prepared by `Program::new_observed` holds one `Op::Observe` before each
//!   integer binary operation and comparison, which hands the two operands (canonical
//!   bits for the site's type, in the IR's operand order) to the observer given to the
//!   run, and does nothing when the run has none;
//! - observation ops charge no fuel and write no register: steps, outcomes and output of
//!   an observed run are those of the unobserved one.

use compiler::ir::{BinOp, CmpPred, IrType};

/// The operation at an observed site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObservedOp {
    Bin(BinOp),
    Cmp(CmpPred),
}

/// One observed instruction: its operation and operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObservedSite {
    pub op: ObservedOp,
    pub ty: IrType,
}

/// Receives the operands of every observed operation as it executes.
pub trait OperandObserver {
    /// `a` and `b` are the operands' bits, canonical for `site.ty`.
    fn operands(&mut self, site: &ObservedSite, a: u64, b: u64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{Program, RunConfig};
    use compiler::ir::text::parse_module;

    /// Records every observation.
    #[derive(Default)]
    struct Record(Vec<(ObservedSite, u64, u64)>);

    impl OperandObserver for Record {
        fn operands(&mut self, site: &ObservedSite, a: u64, b: u64) {
            self.0.push((*site, a, b));
        }
    }

    const LOOP: &str = "func @f(i8) -> i32 {
.LBB0:
    %0 = paramref 0, i8
    %1 = cast i8 %0 to i32
    br .LBB1
.LBB1:
    %2 = phi i32 [%1, .LBB0], [%3, .LBB1]
    %3 = sdiv i32 %2, 2
    %4 = cmp sgt i32 %3, 0
    condbr %4, .LBB1, .LBB2
.LBB2:
    ret i32 %3
}
";

    #[test]
    fn observed_runs_see_every_operand_and_change_nothing() {
        let m = parse_module(LOOP).expect("test IR parses");
        let cfg = RunConfig::default();
        let plain = Program::new(&m, &cfg).unwrap().run("f", &[5]).unwrap();
        let mut seen = Record::default();
        let observed = Program::new_observed(&m, &cfg)
            .unwrap()
            .run_observed("f", &[5], &mut seen)
            .unwrap();
        assert_eq!(observed.outcome, plain.outcome);
        assert_eq!(observed.steps, plain.steps);
        // By hand: 5/2 = 2 (> 0), 2/2 = 1 (> 0), 1/2 = 0 (not > 0): three trips.
        let div = ObservedSite {
            op: ObservedOp::Bin(BinOp::SDiv),
            ty: IrType::I32,
        };
        let cmp = ObservedSite {
            op: ObservedOp::Cmp(CmpPred::Sgt),
            ty: IrType::I32,
        };
        assert_eq!(
            seen.0,
            vec![
                (div, 5, 2),
                (cmp, 2, 0),
                (div, 2, 2),
                (cmp, 1, 0),
                (div, 1, 2),
                (cmp, 0, 0)
            ]
        );
        // A plain program given an observer reports nothing: it has no observation op.
        let mut none = Record::default();
        Program::new(&m, &cfg)
            .unwrap()
            .run_observed("f", &[5], &mut none)
            .unwrap();
        assert!(none.0.is_empty());
    }
}
