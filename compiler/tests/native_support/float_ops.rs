//! Every float operation, predicate and conversion computes on the target, bit for bit,
//! what `ir::eval_float` (the IR's float meaning, which the oracle shares) computes.
//!
//! A generated phi-free IR module (straight to the backend: no pass folds anything)
//! calls one small function per operation and operand shape (values, a constant on the
//! right), prints every result's bits as an `i64`, and the printed lines must be the
//! evaluator's. The operands are the interesting floats: signed zeros, infinities, the
//! default NaN and NaNs with payloads (quiet and signalling, either sign), the smallest
//! and largest subnormals, the smallest normal, the largest finite value, halves that
//! round differently under truncation and nearest-even, and the edges of every integer
//! conversion; integers are `ops::values`.
//!
//! Invariant: a float result is returned as its bits (`bitcast`, an `f32` zero-extended
//! to `i64`), so every NaN's payload and sign is compared — the IR fixes them (the
//! default NaN for arithmetic and `f32`/`f64` conversions, the bits kept for `fneg` and
//! moves), whatever the target's own rule; a conversion the IR calls undefined (out of
//! range, NaN) is never called.

use super::ops::{check_ops_module, lit, values, OpsModule};
use super::toolchain::require_toolchain;
use compiler::backend::Target;
use compiler::ir::eval::eval_cast;
use compiler::ir::eval_float::{eval_bitcast, eval_fbin, eval_fcmp, eval_float_cast, eval_fneg};
use compiler::ir::{FBinOp, FCmpPred, IrType};

/// Interesting `f64` bit patterns.
fn f64_values() -> Vec<u64> {
    let d = |x: f64| x.to_bits();
    vec![
        d(0.0),
        d(-0.0),
        d(1.0),
        d(-1.0),
        d(0.1),
        d(2.5),
        d(-2.5),
        d(0.5),
        d(-1.5),
        d(f64::INFINITY),
        d(f64::NEG_INFINITY),
        0x7ff8_0000_0000_0000, // the default NaN
        0x7ff8_0000_0000_1234, // quiet, with a payload
        0xfff8_0000_0000_0001, // negative quiet, with a payload
        0x7ff0_0000_0000_0001, // signalling
        0x0000_0000_0000_0001, // smallest subnormal
        0x000f_ffff_ffff_ffff, // largest subnormal
        0x0010_0000_0000_0000, // smallest normal
        d(f64::MAX),
        d(-f64::MAX),
        d(2147483647.75),
        d(-2147483648.75),
        d(4294967295.5),
        d(9223372036854774784.0),  // the largest f64 below 2^63
        d(9223372036854775808.0),  // 2^63
        d(18446744073709549568.0), // the largest f64 below 2^64
        d(255.99),
        d(-128.5),
        d(65535.9),
        d(1e300),
        d(3.0e-300),
    ]
}

/// Interesting `f32` bit patterns.
fn f32_values() -> Vec<u64> {
    let f = |x: f32| u64::from(x.to_bits());
    vec![
        f(0.0),
        f(-0.0),
        f(1.0),
        f(-1.0),
        f(0.1),
        f(2.5),
        f(-2.5),
        f(-1.5),
        f(f32::INFINITY),
        f(f32::NEG_INFINITY),
        0x7fc0_0000, // the default NaN
        0x7fc0_1234, // quiet, with a payload
        0xffc0_0001, // negative quiet, with a payload
        0x7f80_0001, // signalling
        0x0000_0001, // smallest subnormal
        0x007f_ffff, // largest subnormal
        0x0080_0000, // smallest normal
        f(f32::MAX),
        f(-f32::MAX),
        f(2147483520.0),          // the largest f32 below 2^31
        f(-2147483648.0),         // -2^31
        f(4294967040.0),          // the largest f32 below 2^32
        f(9223371487098961920.0), // the largest f32 below 2^63
        f(16777217.0),            // 2^24 + 1 rounds to 2^24
        f(255.99),
        f(-128.5),
        f(1e30),
    ]
}

fn float_values(ty: IrType) -> Vec<u64> {
    if ty == IrType::F32 {
        f32_values()
    } else {
        f64_values()
    }
}

/// The body lines that return `%10` (of type `ty`) as an `i64`: a float as its bits.
fn return_bits(ty: IrType) -> String {
    match ty {
        IrType::F64 => "    %11 = bitcast f64 %10 to i64\n    ret i64 %11\n".into(),
        IrType::F32 => "    %11 = bitcast f32 %10 to u32\n    %12 = cast u32 %11 to i64\n    \
                        ret i64 %12\n"
            .into(),
        _ => format!("    %11 = cast {ty} %10 to i64\n    ret i64 %11\n"),
    }
}

/// The `i64` a result of type `ty` with canonical bits `r` prints as.
fn printed(ty: IrType, r: u64) -> u64 {
    if ty.is_float() {
        r
    } else {
        eval_cast(ty, IrType::I64, r).expect("integer to i64")
    }
}

fn add_arithmetic(m: &mut OpsModule, ty: IrType) {
    let vals = float_values(ty);
    for op in FBinOp::ALL {
        let name = format!("f_{}_{ty}", op.name());
        let body = format!("    %10 = {} {ty} %0, %1\n{}", op.name(), return_bits(ty));
        m.function(&name, &[ty, ty], IrType::I64, &body);
        for &a in &vals {
            for &b in &vals {
                let r = eval_fbin(op, ty, a, b).expect("float arithmetic");
                m.call(&name, IrType::I64, &[(ty, a), (ty, b)], printed(ty, r));
            }
        }
        // A constant on the right (built in an integer register, moved to an FP one).
        for (i, &b) in vals.iter().enumerate().step_by(3) {
            let name = format!("fr_{}_{ty}_{i}", op.name());
            let body = format!(
                "    %10 = {} {ty} %0, {}\n{}",
                op.name(),
                lit(ty, b),
                return_bits(ty)
            );
            m.function(&name, &[ty], IrType::I64, &body);
            for &a in &vals {
                let r = eval_fbin(op, ty, a, b).expect("float arithmetic");
                m.call(&name, IrType::I64, &[(ty, a)], printed(ty, r));
            }
        }
    }
    let name = format!("f_fneg_{ty}");
    let body = format!("    %10 = fneg {ty} %0\n{}", return_bits(ty));
    m.function(&name, &[ty], IrType::I64, &body);
    for &a in &vals {
        let r = eval_fneg(ty, a).expect("fneg");
        m.call(&name, IrType::I64, &[(ty, a)], printed(ty, r));
    }
}

/// Every predicate as a value and as the condition of a branch right after it.
fn add_comparisons(m: &mut OpsModule, ty: IrType) {
    let vals: Vec<u64> = float_values(ty).into_iter().step_by(2).collect();
    for pred in FCmpPred::ALL {
        let p = pred.name();
        let name = format!("f_fcmp_{p}_{ty}");
        let body = format!(
            "    %10 = fcmp {p} {ty} %0, %1\n{}",
            return_bits(IrType::I8)
        );
        m.function(&name, &[ty, ty], IrType::I64, &body);
        let branch = format!("f_fcmpbr_{p}_{ty}");
        let (yes, no) = (m.block(), m.block());
        let body = format!(
            "    %10 = fcmp {p} {ty} %0, %1\n    condbr %10, {yes}, {no}\n{yes}:\n    \
             ret i64 7\n{no}:\n    ret i64 3\n"
        );
        m.function(&branch, &[ty, ty], IrType::I64, &body);
        for &a in &vals {
            for &b in &vals {
                let r = eval_fcmp(pred, ty, a, b).expect("fcmp");
                m.call(&name, IrType::I64, &[(ty, a), (ty, b)], u64::from(r));
                m.call(
                    &branch,
                    IrType::I64,
                    &[(ty, a), (ty, b)],
                    if r { 7 } else { 3 },
                );
            }
        }
    }
}

fn add_conversions(m: &mut OpsModule, target: Target) {
    for fty in [IrType::F32, IrType::F64] {
        for ity in IrType::INTEGERS {
            let name = format!("f_cast_{ity}_{fty}");
            let body = format!("    %10 = cast {ity} %0 to {fty}\n{}", return_bits(fty));
            m.function(&name, &[ity], IrType::I64, &body);
            for v in values(ity, target) {
                let r = eval_float_cast(ity, fty, v).expect("integer to float");
                m.call(&name, IrType::I64, &[(ity, v)], printed(fty, r));
            }
            let name = format!("f_cast_{fty}_{ity}");
            let body = format!("    %10 = cast {fty} %0 to {ity}\n{}", return_bits(ity));
            m.function(&name, &[fty], IrType::I64, &body);
            for v in float_values(fty) {
                // Out of range or NaN: undefined, never called.
                if let Ok(r) = eval_float_cast(fty, ity, v) {
                    m.call(&name, IrType::I64, &[(fty, v)], printed(ity, r));
                }
            }
        }
        let other = if fty == IrType::F32 {
            IrType::F64
        } else {
            IrType::F32
        };
        let name = format!("f_cast_{fty}_{other}");
        let body = format!("    %10 = cast {fty} %0 to {other}\n{}", return_bits(other));
        m.function(&name, &[fty], IrType::I64, &body);
        for v in float_values(fty) {
            let r = eval_float_cast(fty, other, v).expect("float to float");
            m.call(&name, IrType::I64, &[(fty, v)], printed(other, r));
        }
    }
    let pairs = [
        (IrType::F64, IrType::I64),
        (IrType::F64, IrType::U64),
        (IrType::F32, IrType::I32),
        (IrType::F32, IrType::U32),
    ];
    for (fty, ity) in pairs {
        let name = format!("f_bitcast_{fty}_{ity}");
        let body = format!("    %10 = bitcast {fty} %0 to {ity}\n{}", return_bits(ity));
        m.function(&name, &[fty], IrType::I64, &body);
        for v in float_values(fty) {
            let r = eval_bitcast(fty, ity, v).expect("bitcast");
            m.call(&name, IrType::I64, &[(fty, v)], printed(ity, r));
        }
        let name = format!("f_bitcast_{ity}_{fty}");
        let body = format!("    %10 = bitcast {ity} %0 to {fty}\n{}", return_bits(fty));
        m.function(&name, &[ity], IrType::I64, &body);
        for v in values(ity, target) {
            let r = eval_bitcast(ity, fty, v).expect("bitcast");
            m.call(&name, IrType::I64, &[(ity, v)], printed(fty, r));
        }
    }
}

/// Every float operation, predicate and conversion against `ir::eval_float`, with both
/// allocators.
pub fn every_float_operation_predicate_and_conversion(target: Target) {
    require_toolchain(target);
    let mut m = OpsModule::default();
    for ty in [IrType::F32, IrType::F64] {
        add_arithmetic(&mut m, ty);
        add_comparisons(&mut m, ty);
    }
    add_conversions(&mut m, target);
    check_ops_module(target, m);
}
