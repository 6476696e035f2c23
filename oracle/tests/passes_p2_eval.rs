//! `compiler::ir::eval` (what constant folding computes) against the oracle (what a run
//! computes): every binary operation, unary operation and comparison at every integer
//! type, and every cast between integer types, on boundary values and pseudo-random ones,
//! with operands passed as arguments and as constants of another type. Values, traps and
//! undefined shifts must match exactly.

use compiler::ir::eval::{eval_binop, eval_cast, eval_cmp, eval_unop, EvalError};
use compiler::ir::text::parse_module;
use compiler::ir::{BinOp, CmpPred, IrType, UnOp};
use oracle::{Outcome, Program, RunConfig, Trap, Ub};

/// Boundary values for every width: zero, one, small shift amounts, the signed and
/// unsigned extremes of each width and the patterns just beyond them.
const BOUNDARY: [u64; 27] = [
    0,
    1,
    2,
    3,
    7,
    8,
    15,
    16,
    31,
    32,
    63,
    64,
    0x7f,
    0x80,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    1 << 32,
    i64::MAX as u64,
    i64::MIN as u64,
    u64::MAX,
    u64::MAX - 1,
];

/// xorshift64*: a small deterministic generator (no crate needed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Mostly full-width values, sometimes small ones (shift amounts, divisors).
    fn value(&mut self) -> u64 {
        match self.next() % 4 {
            0 => self.next() % 70,
            1 => BOUNDARY[(self.next() % BOUNDARY.len() as u64) as usize],
            _ => self.next(),
        }
    }
}

/// Argument pairs: every pair of boundary values, then random pairs.
fn sample_pairs(rng: &mut Rng, random: usize) -> Vec<(u64, u64)> {
    let mut pairs: Vec<(u64, u64)> = BOUNDARY
        .iter()
        .flat_map(|&a| BOUNDARY.iter().map(move |&b| (a, b)))
        .collect();
    pairs.extend((0..random).map(|_| (rng.value(), rng.value())));
    pairs
}

/// What a run's outcome says `eval` should have returned.
fn expected(outcome: &Outcome) -> Result<u64, EvalError> {
    match outcome {
        Outcome::Returned(Some(v)) => Ok(*v as u64),
        Outcome::Trapped(Trap::DivByZero) => Err(EvalError::DivByZero),
        Outcome::Trapped(Trap::DivOverflow) => Err(EvalError::DivOverflow),
        Outcome::Undefined(Ub::ShiftTooLarge, _) => Err(EvalError::ShiftTooLarge),
        other => panic!("unexpected outcome {other:?}"),
    }
}

/// One function per case, each `%2 = BODY` over parameters `%0`, `%1`.
struct Module {
    text: String,
    next_block: u32,
}

impl Module {
    fn new() -> Module {
        Module {
            text: String::new(),
            next_block: 0,
        }
    }

    fn func(&mut self, name: &str, params: &[IrType], ret: IrType, body: &str) {
        let b = self.next_block;
        self.next_block += 1;
        let sig: Vec<&str> = params.iter().map(|t| t.name()).collect();
        let refs: String = params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("    %{i} = paramref {i}, {t}\n"))
            .collect();
        self.text.push_str(&format!(
            "func @{name}({}) -> {ret} {{\n.LBB{b}:\n{refs}    %9 = {body}\n    ret {ret} %9\n}}\n\n",
            sig.join(", ")
        ));
    }

    fn program(&self) -> Program {
        let m = parse_module(&self.text).expect("generated module parses");
        Program::new(&m, &RunConfig::default()).expect("generated module runs")
    }
}

#[test]
fn binary_operations_match_the_interpreter() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let pairs = sample_pairs(&mut rng, 400);
    let mut module = Module::new();
    for op in BinOp::ALL {
        for ty in IrType::INTEGERS {
            module.func(
                &format!("{op}_{ty}"),
                &[ty, ty],
                ty,
                &format!("{op} {ty} %0, %1"),
            );
        }
    }
    let program = module.program();
    let mut checked = 0;
    for op in BinOp::ALL {
        for ty in IrType::INTEGERS {
            for &(a, b) in &pairs {
                let run = program
                    .run(&format!("{op}_{ty}"), &[a as i64, b as i64])
                    .expect("runs");
                assert_eq!(
                    eval_binop(op, ty, a, b),
                    expected(&run.outcome),
                    "{op} {ty} {a:#x}, {b:#x}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 13 * 8 * 1000);
}

#[test]
fn unary_operations_and_comparisons_match_the_interpreter() {
    let mut rng = Rng(0x0bad_cafe_f00d_0001);
    let pairs = sample_pairs(&mut rng, 300);
    let mut module = Module::new();
    for ty in IrType::INTEGERS {
        for op in UnOp::ALL {
            module.func(&format!("{op}_{ty}"), &[ty], ty, &format!("{op} {ty} %0"));
        }
        for pred in CmpPred::ALL {
            module.func(
                &format!("{pred}_{ty}"),
                &[ty, ty],
                IrType::I8,
                &format!("cmp {pred} {ty} %0, %1"),
            );
        }
    }
    let program = module.program();
    for ty in IrType::INTEGERS {
        for &(a, b) in &pairs {
            for op in UnOp::ALL {
                let run = program.run(&format!("{op}_{ty}"), &[a as i64]).unwrap();
                assert_eq!(
                    eval_unop(op, ty, a),
                    expected(&run.outcome),
                    "{op} {ty} {a:#x}"
                );
            }
            for pred in CmpPred::ALL {
                let run = program
                    .run(&format!("{pred}_{ty}"), &[a as i64, b as i64])
                    .unwrap();
                assert_eq!(
                    eval_cmp(pred, ty, a, b).map(u64::from),
                    expected(&run.outcome),
                    "cmp {pred} {ty} {a:#x}, {b:#x}"
                );
            }
        }
    }
}

#[test]
fn casts_match_the_interpreter() {
    let mut rng = Rng(0x5eed_0000_0000_0042);
    let values: Vec<u64> = BOUNDARY
        .iter()
        .copied()
        .chain((0..300).map(|_| rng.value()))
        .collect();
    let mut module = Module::new();
    for from in IrType::INTEGERS {
        for to in IrType::INTEGERS {
            module.func(
                &format!("cast_{from}_{to}"),
                &[from],
                to,
                &format!("cast {from} %0 to {to}"),
            );
        }
    }
    let program = module.program();
    for from in IrType::INTEGERS {
        for to in IrType::INTEGERS {
            for &a in &values {
                let run = program
                    .run(&format!("cast_{from}_{to}"), &[a as i64])
                    .unwrap();
                assert_eq!(
                    eval_cast(from, to, a),
                    expected(&run.outcome),
                    "cast {from} {a:#x} to {to}"
                );
            }
        }
    }
}

#[test]
fn constant_operands_of_another_type_match_the_interpreter() {
    // Constants are read at the position type: `OP ty A:i64, B:u64` with wide literals.
    let mut rng = Rng(0xfeed_face_dead_beef);
    let mut module = Module::new();
    let mut cases = Vec::new();
    for (i, _) in (0..40).enumerate() {
        let (a, b) = (rng.value(), rng.value());
        for op in BinOp::ALL {
            for ty in IrType::INTEGERS {
                let name = format!("k{i}_{op}_{ty}");
                module.func(
                    &name,
                    &[],
                    ty,
                    &format!("{op} {ty} {}:i64, {}:u64", a as i64, b),
                );
                cases.push((name, op, ty, a, b));
            }
        }
    }
    let program = module.program();
    for (name, op, ty, a, b) in cases {
        let run = program.run(&name, &[]).unwrap();
        assert_eq!(
            eval_binop(op, ty, a, b),
            expected(&run.outcome),
            "{op} {ty} {a:#x}:i64, {b:#x}:u64"
        );
    }
}
