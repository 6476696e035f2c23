//! Every float operation, comparison predicate and conversion computes on the target what
//! `ir::eval_float` (the oracle's float semantics) computes, bit for bit, over the values
//! where float code goes wrong: signed zeros, infinities, NaNs with payloads and signs (a
//! signaling one too), subnormals, the extremes, the halves where a conversion to an
//! integer truncates, the edges of every integer range.
//!
//! A generated IR module (as in [`super::ops`]: phi-free, so no pass folds anything) has
//! one small function per operation, type and operand shape (both operands values, a
//! constant on the right, a constant on the left); each returns its result's *bits* as an
//! `i64` (a float result through `bitcast`), so the IR's NaN rule (arithmetic and
//! conversions give the default NaN, `fneg` only flips the sign) is checked exactly.
//! Floats cross calls as arguments (the ABI's float argument registers or stack slots).
//!
//! Invariant: the expected values come from `ir::eval_float` only; a conversion the IR
//! leaves undefined (out of range, NaN) is not called.

use super::ops::{check_ops_module, lit, OpsModule};
use super::toolchain::require_toolchain;
use compiler::backend::Target;
use compiler::ir::eval::eval_cast;
use compiler::ir::eval_float::{eval_bitcast, eval_fbin, eval_fcmp, eval_float_cast, eval_fneg};
use compiler::ir::{FBinOp, FCmpPred, IrType};

/// Interesting `f64` values, as bits.
fn f64_values() -> Vec<u64> {
    let mut v: Vec<u64> = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        0.1,
        127.5,
        255.5,
        32767.5,
        65535.5,
        2147483647.5,
        -2147483648.5,
        4294967295.5,
        9007199254740993.0,
        9223372036854775808.0,
        -9223372036854775808.0,
        18446744073709549568.0,
        1e300,
        3.4028235677973366e38,
        1.0000000596046448,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]
    .iter()
    .map(|x: &f64| x.to_bits())
    .collect();
    v.extend([
        1,                     // the smallest subnormal
        0x000f_ffff_ffff_ffff, // the largest subnormal
        0x7ff8_0000_0000_0000, // the default NaN
        0xfff8_0000_0000_0000, // x86's default NaN (negative)
        0x7ff8_0000_0000_0123, // a quiet NaN with a payload
        0x7ff0_0000_0000_0001, // a signaling NaN
    ]);
    v
}

/// Interesting `f32` values, as bits (zero-extended).
fn f32_values() -> Vec<u64> {
    let mut v: Vec<u64> = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        0.1,
        127.5,
        255.5,
        32767.5,
        65535.5,
        16777217.0,
        2147483648.0,
        -2147483648.0,
        4294967040.0,
        9223372036854775808.0,
        18446742974197923840.0,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ]
    .iter()
    .map(|x: &f32| u64::from(x.to_bits()))
    .collect();
    v.extend([
        1,           // the smallest subnormal
        0x007f_ffff, // the largest subnormal
        0x7fc0_0000, // the default NaN
        0xffc0_0000, // x86's default NaN (negative)
        0x7fc0_0123, // a quiet NaN with a payload
        0x7f80_0001, // a signaling NaN
    ]);
    v
}

fn float_values(ty: IrType) -> Vec<u64> {
    if ty == IrType::F64 {
        f64_values()
    } else {
        f32_values()
    }
}

/// A few of the values, for the shapes with a constant operand (every predicate and
/// operation against each would make the module large for little gain).
fn constants(ty: IrType) -> Vec<u64> {
    let all = float_values(ty);
    [
        0usize,
        1,
        2,
        5,
        9,
        all.len() - 4,
        all.len() - 2,
        all.len() - 1,
    ]
    .iter()
    .map(|&i| all[i])
    .collect()
}

/// The instructions that return `%10` of type `ty` as an `i64` (a float's bits; an
/// `f32`'s sign-extended through `i32`).
fn return_as_i64(ty: IrType) -> String {
    match ty {
        IrType::F64 => "    %11 = bitcast f64 %10 to i64\n    ret i64 %11\n".into(),
        IrType::F32 => "    %11 = bitcast f32 %10 to i32\n    %12 = cast i32 %11 to i64\n    \
                        ret i64 %12\n"
            .into(),
        IrType::I64 => "    ret i64 %10\n".into(),
        _ => format!("    %11 = cast {ty} %10 to i64\n    ret i64 %11\n"),
    }
}

/// What [`return_as_i64`] gives for the result `r` of type `ty`.
fn as_i64(ty: IrType, r: u64) -> u64 {
    match ty {
        IrType::F64 => r,
        IrType::F32 => r as u32 as i32 as i64 as u64,
        _ => eval_cast(ty, IrType::I64, r).expect("integer cast"),
    }
}

/// `name(params)`: `%10 = INST` then the result as an `i64`.
fn define(m: &mut OpsModule, name: &str, params: &[IrType], inst: &str, result: IrType) {
    let body = format!("    %10 = {inst}\n{}", return_as_i64(result));
    m.function(name, params, IrType::I64, &body);
}

fn add_arithmetic(m: &mut OpsModule, ty: IrType) {
    let vals = float_values(ty);
    for op in FBinOp::ALL {
        let name = format!("f_{}_{ty}", op.name());
        define(
            m,
            &name,
            &[ty, ty],
            &format!("{} {ty} %0, %1", op.name()),
            ty,
        );
        for &a in &vals {
            for &b in &vals {
                let r = eval_fbin(op, ty, a, b).expect("float op");
                m.call(&name, IrType::I64, &[(ty, a), (ty, b)], as_i64(ty, r));
            }
        }
        for (i, &c) in constants(ty).iter().enumerate() {
            let right = format!("fr_{}_{ty}_{i}", op.name());
            define(
                m,
                &right,
                &[ty],
                &format!("{} {ty} %0, {}", op.name(), lit(ty, c)),
                ty,
            );
            let left = format!("fl_{}_{ty}_{i}", op.name());
            define(
                m,
                &left,
                &[ty],
                &format!("{} {ty} {}, %0", op.name(), lit(ty, c)),
                ty,
            );
            for &a in &vals {
                let r = eval_fbin(op, ty, a, c).expect("float op");
                m.call(&right, IrType::I64, &[(ty, a)], as_i64(ty, r));
                let r = eval_fbin(op, ty, c, a).expect("float op");
                m.call(&left, IrType::I64, &[(ty, a)], as_i64(ty, r));
            }
        }
    }
    let name = format!("f_neg_{ty}");
    define(m, &name, &[ty], &format!("fneg {ty} %0"), ty);
    for &a in &vals {
        let r = eval_fneg(ty, a).expect("fneg");
        m.call(&name, IrType::I64, &[(ty, a)], as_i64(ty, r));
    }
    m.flush();
}

fn add_comparisons(m: &mut OpsModule, ty: IrType) {
    let vals = float_values(ty);
    for pred in FCmpPred::ALL {
        let name = format!("fcmp_{}_{ty}", pred.name());
        let inst = format!("fcmp {} {ty} %0, %1", pred.name());
        define(m, &name, &[ty, ty], &inst, IrType::I8);
        for &a in &vals {
            for &b in &vals {
                let r = u64::from(eval_fcmp(pred, ty, a, b).expect("fcmp"));
                m.call(&name, IrType::I64, &[(ty, a), (ty, b)], r);
            }
        }
        for (i, &c) in constants(ty).iter().enumerate() {
            let right = format!("fcmpr_{}_{ty}_{i}", pred.name());
            let inst = format!("fcmp {} {ty} %0, {}", pred.name(), lit(ty, c));
            define(m, &right, &[ty], &inst, IrType::I8);
            for &a in &vals {
                let r = u64::from(eval_fcmp(pred, ty, a, c).expect("fcmp"));
                m.call(&right, IrType::I64, &[(ty, a)], r);
            }
        }
    }
    m.flush();
}

/// Interesting integers of `ty` (canonical): the float-conversion edges.
fn int_values(ty: IrType) -> Vec<u64> {
    let bits = ty.size(8) * 8;
    let min = 1u64 << (bits - 1);
    let mut v = vec![
        0,
        1,
        2,
        7,
        u64::MAX,
        min,
        min - 1,
        min + 1,
        100,
        (-100i64) as u64,
    ];
    v.extend([
        16_777_217,
        16_777_219,
        0x8000_0000,
        0xffff_ffff,
        0xffff_ff80,
        (1 << 53) + 1,
        0x8000_0000_0000_0401,
        0xffff_ffff_ffff_fbff,
        0x7fff_ffff_ffff_fdff,
    ]);
    let mut out = Vec::new();
    for x in v {
        let c = ty.canonicalize(x, 8);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

fn add_conversions(m: &mut OpsModule) {
    for fty in IrType::FLOATS {
        for ity in IrType::INTEGERS {
            let to_float = format!("cvt_{ity}_{fty}");
            define(
                m,
                &to_float,
                &[ity],
                &format!("cast {ity} %0 to {fty}"),
                fty,
            );
            for a in int_values(ity) {
                let r = eval_float_cast(ity, fty, a).expect("int to float");
                m.call(&to_float, IrType::I64, &[(ity, a)], as_i64(fty, r));
            }
            // A constant operand (i686 converts a 64-bit constant at compile time).
            for (i, a) in int_values(ity).into_iter().enumerate().take(12) {
                let name = format!("cvtc_{ity}_{fty}_{i}");
                define(
                    m,
                    &name,
                    &[],
                    &format!("cast {ity} {} to {fty}", lit(ity, a)),
                    fty,
                );
                let r = eval_float_cast(ity, fty, a).expect("int to float");
                m.call(&name, IrType::I64, &[], as_i64(fty, r));
            }
            let to_int = format!("cvt_{fty}_{ity}");
            define(m, &to_int, &[fty], &format!("cast {fty} %0 to {ity}"), ity);
            for a in float_values(fty) {
                // Out of range or NaN is undefined: not called.
                if let Ok(r) = eval_float_cast(fty, ity, a) {
                    m.call(&to_int, IrType::I64, &[(fty, a)], as_i64(ity, r));
                }
            }
        }
        for to in IrType::FLOATS {
            let name = format!("cvt_{fty}_{to}");
            define(m, &name, &[fty], &format!("cast {fty} %0 to {to}"), to);
            for a in float_values(fty) {
                let r = eval_float_cast(fty, to, a).expect("float to float");
                m.call(&name, IrType::I64, &[(fty, a)], as_i64(to, r));
            }
        }
        let ity = if fty == IrType::F64 {
            IrType::I64
        } else {
            IrType::I32
        };
        let name = format!("bits_{ity}_{fty}");
        define(m, &name, &[ity], &format!("bitcast {ity} %0 to {fty}"), fty);
        for a in float_values(fty) {
            let a = ity.canonicalize(a, 8);
            let r = eval_bitcast(ity, fty, a).expect("bitcast");
            m.call(&name, IrType::I64, &[(ity, a)], as_i64(fty, r));
        }
        // A select and a copy of floats keep every bit.
        let name = format!("sel_{fty}");
        define(
            m,
            &name,
            &[IrType::I8, fty, fty],
            &format!("select {fty} %0, %1, %2"),
            fty,
        );
        for &a in &float_values(fty) {
            let b = float_values(fty)[3];
            m.call(
                &name,
                IrType::I64,
                &[(IrType::I8, 1), (fty, a), (fty, b)],
                as_i64(fty, a),
            );
            m.call(
                &name,
                IrType::I64,
                &[(IrType::I8, 0), (fty, b), (fty, a)],
                as_i64(fty, a),
            );
        }
    }
    m.flush();
}

/// Float arithmetic and `fneg` over every pair of interesting values.
pub fn float_arithmetic_matches_eval(target: Target) {
    require_toolchain(target);
    let mut m = OpsModule::default();
    for ty in IrType::FLOATS {
        add_arithmetic(&mut m, ty);
    }
    check_ops_module(target, m);
}

/// Every `fcmp` predicate, every conversion, bitcasts and selects of floats.
pub fn float_comparisons_and_conversions_match_eval(target: Target) {
    require_toolchain(target);
    let mut m = OpsModule::default();
    for ty in IrType::FLOATS {
        add_comparisons(&mut m, ty);
    }
    add_conversions(&mut m);
    check_ops_module(target, m);
}
