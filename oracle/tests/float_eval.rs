//! `compiler::ir::eval_float` (what constant folding computes) against the oracle's own
//! float semantics (what a run computes): every float operation and comparison at `f32`
//! and `f64`, every conversion between a float and an integer or the other float, and
//! bitcasts, on special values (signed zeros, subnormals, extremes, infinities, NaNs with
//! payloads, the integer range limits as floats) and pseudo-random bit patterns. Results
//! must match bit for bit, and undefined conversions must be undefined in both.

use compiler::ir::eval_float::{
    eval_bitcast, eval_fbin, eval_fcmp, eval_float_cast, eval_fneg, FloatEvalError,
};
use compiler::ir::text::parse_module;
use compiler::ir::{FBinOp, FCmpPred, IrType};
use oracle::{Outcome, Program, RunConfig, Ub};

/// f64 special values (bit patterns).
fn f64_specials() -> Vec<u64> {
    let mut v: Vec<u64> = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        2.5,
        -2.5,
        0.1,
        127.5,
        128.0,
        255.9,
        256.0,
        -129.0,
        2147483647.0,
        2147483647.9,
        2147483648.0,
        -2147483648.0,
        -2147483649.0,
        4294967295.0,
        4294967296.0,
        9223372036854775807.0,
        -9223372036854775808.0,
        18446744073709551615.0,
        1e300,
        -1e-300,
        3.4028234663852886e38,
        3.4028235677973366e38,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]
    .iter()
    .map(|x: &f64| x.to_bits())
    .collect();
    v.extend([
        1,
        0x7ff8_0000_0000_0000,
        0xfff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
    ]);
    v
}

/// f32 special values (bit patterns, zero-extended).
fn f32_specials() -> Vec<u64> {
    let mut v: Vec<u64> = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        2.5,
        0.1,
        127.5,
        128.0,
        -129.0,
        2147483648.0,
        -2147483648.0,
        4294967296.0,
        16777216.0,
        16777217.0,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ]
    .iter()
    .map(|x| u64::from(x.to_bits()))
    .collect();
    v.extend([1, 0x7fc0_0000, 0xffc0_0001, 0x7f80_0001]);
    v
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Values of float type `ty`: specials, random patterns and random small numbers.
fn values(ty: IrType, rng: &mut Rng, random: usize) -> Vec<u64> {
    let mut v = if ty == IrType::F32 {
        f32_specials()
    } else {
        f64_specials()
    };
    for _ in 0..random {
        let r = rng.next();
        let small = (r % 2001) as f64 / 8.0 - 125.0;
        v.push(match (ty, r % 3) {
            (IrType::F32, 0) => u64::from((small as f32).to_bits()),
            (IrType::F32, _) => r >> 32,
            (_, 0) => small.to_bits(),
            _ => r,
        });
    }
    v
}

fn module_with(funcs: &[(String, Vec<IrType>, IrType, String)]) -> Program {
    let mut text = String::new();
    for (b, (name, params, ret, body)) in funcs.iter().enumerate() {
        let sig: Vec<&str> = params.iter().map(|t| t.name()).collect();
        let refs: String = params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("    %{i} = paramref {i}, {t}\n"))
            .collect();
        text.push_str(&format!(
            "func @{name}({}) -> {ret} {{\n.LBB{b}:\n{refs}    %9 = {body}\n    ret {ret} %9\n}}\n\n",
            sig.join(", ")
        ));
    }
    let m = parse_module(&text).expect("generated module parses");
    Program::new(&m, &RunConfig::default()).expect("generated module runs")
}

fn outcome_bits(o: &Outcome) -> Result<u64, FloatEvalError> {
    match o {
        Outcome::Returned(Some(v)) => Ok(*v as u64),
        Outcome::Undefined(Ub::FloatToIntOutOfRange, _) => Err(FloatEvalError::OutOfRange),
        other => panic!("unexpected outcome {other:?}"),
    }
}

#[test]
fn arithmetic_and_comparisons_match_the_interpreter() {
    let mut rng = Rng(0x5eed_f10a_7000_0001);
    let mut funcs = Vec::new();
    for ty in IrType::FLOATS {
        for op in FBinOp::ALL {
            funcs.push((
                format!("{op}_{ty}"),
                vec![ty, ty],
                ty,
                format!("{op} {ty} %0, %1"),
            ));
        }
        funcs.push((format!("fneg_{ty}"), vec![ty], ty, format!("fneg {ty} %0")));
        for p in FCmpPred::ALL {
            funcs.push((
                format!("{p}_{ty}"),
                vec![ty, ty],
                IrType::I8,
                format!("fcmp {p} {ty} %0, %1"),
            ));
        }
    }
    let program = module_with(&funcs);
    let mut checked = 0;
    for ty in IrType::FLOATS {
        let vals = values(ty, &mut rng, 40);
        for &a in &vals {
            let run = program
                .run(&format!("fneg_{ty}"), &[a as i64])
                .expect("runs");
            assert_eq!(
                eval_fneg(ty, a),
                outcome_bits(&run.outcome),
                "fneg {ty} {a:#x}"
            );
            for &b in &vals {
                for op in FBinOp::ALL {
                    let run = program
                        .run(&format!("{op}_{ty}"), &[a as i64, b as i64])
                        .expect("runs");
                    assert_eq!(
                        eval_fbin(op, ty, a, b),
                        outcome_bits(&run.outcome),
                        "{op} {ty} {a:#x}, {b:#x}"
                    );
                }
                for p in FCmpPred::ALL {
                    let run = program
                        .run(&format!("{p}_{ty}"), &[a as i64, b as i64])
                        .expect("runs");
                    assert_eq!(
                        eval_fcmp(p, ty, a, b).map(u64::from),
                        outcome_bits(&run.outcome),
                        "fcmp {p} {ty} {a:#x}, {b:#x}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 2 * 60 * 60);
}

#[test]
fn conversions_match_the_interpreter() {
    let mut rng = Rng(0x5eed_f10a_7000_0002);
    let scalars: Vec<IrType> = IrType::INTEGERS
        .iter()
        .chain(IrType::FLOATS.iter())
        .copied()
        .collect();
    let mut funcs = Vec::new();
    for &from in &scalars {
        for &to in &scalars {
            if from.is_float() || to.is_float() {
                funcs.push((
                    format!("cast_{from}_{to}"),
                    vec![from],
                    to,
                    format!("cast {from} %0 to {to}"),
                ));
            }
            if from != to && from.max_size() == to.max_size() && (from.is_float() || to.is_float())
            {
                funcs.push((
                    format!("bitcast_{from}_{to}"),
                    vec![from],
                    to,
                    format!("bitcast {from} %0 to {to}"),
                ));
            }
        }
    }
    let program = module_with(&funcs);
    for &from in &scalars {
        let inputs: Vec<u64> = if from.is_float() {
            values(from, &mut rng, 200)
        } else {
            let mut v = vec![
                0,
                1,
                u64::MAX,
                1 << 24,
                (1 << 24) + 1,
                (1 << 53) + 1,
                1 << 63,
                (1 << 63) - 1,
                0x8000_0001,
            ];
            v.extend((0..200).map(|_| rng.next()));
            v.into_iter().map(|x| from.canonicalize(x, 8)).collect()
        };
        for &to in &scalars {
            for &a in &inputs {
                if from.is_float() || to.is_float() {
                    let run = program
                        .run(&format!("cast_{from}_{to}"), &[a as i64])
                        .expect("runs");
                    assert_eq!(
                        eval_float_cast(from, to, a),
                        outcome_bits(&run.outcome),
                        "cast {from} {a:#x} to {to}"
                    );
                }
                if from != to
                    && from.max_size() == to.max_size()
                    && (from.is_float() || to.is_float())
                {
                    let run = program
                        .run(&format!("bitcast_{from}_{to}"), &[a as i64])
                        .expect("runs");
                    assert_eq!(
                        eval_bitcast(from, to, a),
                        outcome_bits(&run.outcome),
                        "bitcast {from} {a:#x} to {to}"
                    );
                }
            }
        }
    }
}
