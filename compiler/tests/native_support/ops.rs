//! Every integer operation at every width, with value and constant operands, computes on
//! the target what `ir::eval` (the oracle's arithmetic) computes.
//!
//! A generated IR module (phi-free, so it goes straight to the backend: no pass can fold
//! the operations away) calls one small function per operation, width and operand shape
//! (both operands values, a constant on the right, a constant on the left), prints every
//! result, and the printed lines must be `ir::eval`'s values. The operands are the
//! extremes and small values of each type plus, per target, the constants at the edges
//! of its immediates (x86-64's 32-bit immediates and `movabsq`, AArch64's 12-bit and
//! bitmask immediates and movz/movn/movk chunks, RISC-V's 12-bit immediates and lui
//! pairs).
//!
//! Invariant: a function whose result is narrower than i64 returns it cast to i64 inside
//! the function, so a result left non-canonical in its register shows (the caller's
//! re-extension of a narrow result would hide it).

use super::phicc::{compare_lines, run_ir};
use super::toolchain::require_toolchain;
use compiler::backend::{RegallocMode, Target};
use compiler::ir::eval::{eval_binop, eval_cast, eval_cmp, eval_unop};
use compiler::ir::{BinOp, CmpPred, IrType, UnOp};
use std::fmt::Write as _;

/// Interesting operands of `ty` on `target`, canonical and distinct.
pub fn values(ty: IrType, target: Target) -> Vec<u64> {
    let bits = ty.size(8) * 8;
    let min = 1u64 << (bits - 1);
    let max = min - 1;
    let mut v = vec![
        0,
        1,
        2,
        7,
        u64::MAX,
        u64::MAX - 1,
        min,
        max,
        min + 1,
        100,
        (-100i64) as u64,
    ];
    match target {
        Target::X86_64 | Target::I686 => {}
        // The edges of the 12-bit immediates and a bitmask immediate.
        Target::Aarch64 => v.extend([4095, 4096, (-4096i64) as u64, 0xff0]),
        // The edges of the 12-bit immediates.
        Target::Riscv64 => v.extend([2047, 2048, (-2048i64) as u64]),
    }
    v.push(0x5a5a_5a5a_5a5a_5a5a);
    match target {
        Target::X86_64 | Target::I686 => {}
        // Constants of one to four 16-bit chunks.
        Target::Aarch64 if bits >= 32 => {
            v.extend([0x1000_0fff, 0xabc000, 0x8000_0000, 0xffff_ffff, 0x1234_5678])
        }
        Target::Aarch64 => {}
        // A lui that must round up.
        Target::Riscv64 => v.push(0x1234_5fff),
    }
    if bits == 64 {
        v.extend([0x8000_0000, 0xffff_ffff]);
        if target == Target::Riscv64 {
            v.push(0x7fff_f800);
        }
        v.extend([0x1_2345_6789, 0xffff_ffff_7fff_ffff]);
        if target == Target::Aarch64 {
            v.extend([0x1234_5678_9abc_def0, 0x0000_ffff_0000_ffff]);
        }
    }
    let mut out: Vec<u64> = Vec::new();
    for x in v {
        let c = ty.canonicalize(x, 8);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// A constant of `ty` as the IR text writes it (a float by its bits, read back exactly).
pub fn lit(ty: IrType, v: u64) -> String {
    if ty.is_float() {
        compiler::ir::float_text::format_float(ty, v)
    } else if ty.is_signed() {
        (v as i64).to_string()
    } else {
        v.to_string()
    }
}

/// Builds the module text and the expected output lines (with a description of each).
pub struct OpsModule {
    functions: String,
    drivers: Vec<String>,
    current: String,
    calls_in_current: usize,
    next_value: usize,
    next_block: u32,
    expected: Vec<(i64, String)>,
    /// Functions whose narrow result is returned widened to i64.
    widened: std::collections::HashSet<String>,
}

impl Default for OpsModule {
    fn default() -> Self {
        OpsModule {
            functions: String::new(),
            drivers: Vec::new(),
            current: String::new(),
            calls_in_current: 0,
            next_value: 1,
            next_block: 1_000_000,
            expected: Vec::new(),
            widened: Default::default(),
        }
    }
}

impl OpsModule {
    /// A fresh block label.
    pub fn block(&mut self) -> String {
        self.next_block += 1;
        format!(".LBB{}", self.next_block)
    }

    /// `func noinline @name(params) -> ret` with `body` (after the paramrefs %0, %1, ...;
    /// fresh values from %10 on). A body ending in `ret TYPE %10` for a type narrower
    /// than i64 returns `cast TYPE %10 to i64` instead.
    pub fn function(&mut self, name: &str, params: &[IrType], ret: IrType, body: &str) {
        let entry = self.block();
        let list: Vec<&str> = params.iter().map(|t| t.name()).collect();
        let narrow_ret = format!("ret {ret} %10\n");
        let (ret_text, body) = if ret != IrType::I64 && body.ends_with(&narrow_ret) {
            self.widened.insert(name.to_string());
            let cast = format!("%11 = cast {ret} %10 to i64\n    ret i64 %11\n");
            ("i64".to_string(), body.replace(&narrow_ret, &cast))
        } else {
            (ret.to_string(), body.to_string())
        };
        let _ = writeln!(
            self.functions,
            "func noinline @{name}({}) -> {ret_text} {{\n{entry}:",
            list.join(", ")
        );
        for (i, t) in params.iter().enumerate() {
            let _ = writeln!(self.functions, "    %{i} = paramref {i}, {t}");
        }
        let _ = writeln!(self.functions, "{body}}}\n");
    }

    /// A call of `@name(args)` returning `ret`, whose printed result must be `expected`
    /// (canonical in `ret`, printed as the i64 it casts to).
    pub fn call(&mut self, name: &str, ret: IrType, args: &[(IrType, u64)], expected: u64) {
        let expected = eval_cast(ret, IrType::I64, ret.canonicalize(expected, 8)).expect("cast");
        let ret = if self.widened.contains(name) {
            IrType::I64
        } else {
            ret
        };
        if self.calls_in_current >= 64 {
            self.flush();
        }
        self.calls_in_current += 1;
        let arg_text: Vec<String> = args
            .iter()
            .map(|(t, v)| format!("{t} {}", lit(*t, *v)))
            .collect();
        let (r, wide, sink) = (self.next_value, self.next_value + 1, self.next_value + 2);
        self.next_value += 3;
        let _ = writeln!(
            self.current,
            "    %{r} = call {ret} @{name}({})\n    %{wide} = cast {ret} %{r} to i64\n    \
             %{sink} = call i32 @printf(ptr %0, i64 %{wide})",
            arg_text.join(", ")
        );
        self.expected
            .push((expected as i64, format!("@{name}({})", arg_text.join(", "))));
    }

    pub fn flush(&mut self) {
        if self.calls_in_current > 0 {
            let entry = self.block();
            let n = self.drivers.len();
            let _ = writeln!(
                self.functions,
                "func noinline @drive{n}() -> void {{\n{entry}:\n    %0 = globaladdr @fmt\n{}    ret\n}}\n",
                self.current
            );
            self.drivers.push(format!("drive{n}"));
        }
        self.current.clear();
        self.calls_in_current = 0;
        self.next_value = 1;
    }

    /// The module's text and the expected printed lines.
    pub fn finish(mut self) -> (String, Vec<(i64, String)>) {
        self.flush();
        let entry = self.block();
        let mut text = String::from(
            "global @fmt : 6 align 1 const = [str \"%lld\\0a\\00\"]\n\
             declare @printf(ptr, ...) -> i32\n\n",
        );
        text.push_str(&self.functions);
        let _ = writeln!(text, "func @main() -> i32 {{\n{entry}:");
        for d in &self.drivers {
            let _ = writeln!(text, "    call void @{d}()");
        }
        let _ = writeln!(text, "    ret i32 0\n}}");
        (text, self.expected)
    }
}

/// Every binary operation of `ty`: both operands values, the constant on the right
/// (immediates), the constant on the left.
fn add_binary_ops(m: &mut OpsModule, ty: IrType, vals: &[u64]) {
    for op in BinOp::ALL {
        let name = format!("bin_{op}_{ty}");
        let body = format!("    %10 = {op} {ty} %0, %1\n    ret {ty} %10\n");
        m.function(&name, &[ty, ty], ty, &body);
        for (i, &b) in vals.iter().enumerate() {
            let right = format!("binr_{op}_{ty}_{i}");
            let body = format!("    %10 = {op} {ty} %0, {}\n    ret {ty} %10\n", lit(ty, b));
            m.function(&right, &[ty], ty, &body);
            let left = format!("binl_{op}_{ty}_{i}");
            let body = format!("    %10 = {op} {ty} {}, %0\n    ret {ty} %10\n", lit(ty, b));
            m.function(&left, &[ty], ty, &body);
            for &a in vals {
                if let Ok(r) = eval_binop(op, ty, a, b) {
                    m.call(&name, ty, &[(ty, a), (ty, b)], r);
                    m.call(&right, ty, &[(ty, a)], r);
                }
                if let Ok(r) = eval_binop(op, ty, b, a) {
                    m.call(&left, ty, &[(ty, a)], r);
                }
            }
        }
    }
}

/// Every comparison of `ty`: as a value, as a branch right after it, feeding a select
/// right after it, and against each constant.
fn add_comparisons(m: &mut OpsModule, ty: IrType, vals: &[u64]) {
    for pred in CmpPred::ALL {
        let name = format!("cmp_{pred}_{ty}");
        let body = format!("    %10 = cmp {pred} {ty} %0, %1\n    ret i8 %10\n");
        m.function(&name, &[ty, ty], IrType::I8, &body);
        let (yes, no) = (m.block(), m.block());
        let branch = format!("br_{pred}_{ty}");
        let body = format!(
            "    %10 = cmp {pred} {ty} %0, %1\n    condbr %10, {yes}, {no}\n{yes}:\n    ret i32 1\n{no}:\n    ret i32 0\n"
        );
        m.function(&branch, &[ty, ty], IrType::I32, &body);
        let chosen = format!("csel_{pred}_{ty}");
        let body = format!(
            "    %12 = cmp {pred} {ty} %0, %1\n    %10 = select i64 %12, 111, 222\n    ret i64 %10\n"
        );
        m.function(&chosen, &[ty, ty], IrType::I64, &body);
        for &a in vals {
            for &b in vals {
                let r = u64::from(eval_cmp(pred, ty, a, b).expect("integer cmp"));
                m.call(&name, IrType::I8, &[(ty, a), (ty, b)], r);
                m.call(&branch, IrType::I32, &[(ty, a), (ty, b)], r);
                let picked = if r != 0 { 111 } else { 222 };
                m.call(&chosen, IrType::I64, &[(ty, a), (ty, b)], picked);
            }
        }
        for (i, &b) in vals.iter().enumerate() {
            let imm = format!("cmpi_{pred}_{ty}_{i}");
            let body = format!(
                "    %10 = cmp {pred} {ty} %0, {}\n    ret i8 %10\n",
                lit(ty, b)
            );
            m.function(&imm, &[ty], IrType::I8, &body);
            for &a in vals {
                let r = u64::from(eval_cmp(pred, ty, a, b).expect("integer cmp"));
                m.call(&imm, IrType::I8, &[(ty, a)], r);
            }
        }
    }
}

/// Unary operations, comparisons, casts to every width, constants, selects and switches
/// of `ty`.
fn add_other_ops(m: &mut OpsModule, ty: IrType, vals: &[u64]) {
    for op in UnOp::ALL {
        let name = format!("un_{op}_{ty}");
        let body = format!("    %10 = {op} {ty} %0\n    ret {ty} %10\n");
        m.function(&name, &[ty], ty, &body);
        for &a in vals {
            let r = eval_unop(op, ty, a).expect("integer unop");
            m.call(&name, ty, &[(ty, a)], r);
        }
    }
    add_comparisons(m, ty, vals);
    for to in IrType::INTEGERS {
        let name = format!("cast_{ty}_{to}");
        let body = format!("    %10 = cast {ty} %0 to {to}\n    ret {to} %10\n");
        m.function(&name, &[ty], to, &body);
        for &a in vals {
            let r = eval_cast(ty, to, a).expect("integer cast");
            m.call(&name, to, &[(ty, a)], r);
        }
    }
    // A constant of this type, returned (materialised in a register), for every value.
    for (i, &c) in vals.iter().enumerate() {
        let name = format!("const_{ty}_{i}");
        let body = format!("    %10 = copy {ty} {}\n    ret {ty} %10\n", lit(ty, c));
        m.function(&name, &[], ty, &body);
        m.call(&name, ty, &[], c);
    }
    // select with a condition of this type (true when non-zero in its own type), and a
    // select of this type's values.
    let name = format!("select_cond_{ty}");
    let body = "    %10 = select i64 %0, %1, %2\n    ret i64 %10\n";
    m.function(&name, &[ty, IrType::I64, IrType::I64], IrType::I64, body);
    let values_name = format!("select_{ty}");
    let body = format!("    %10 = select {ty} %0, %1, %2\n    ret {ty} %10\n");
    m.function(&values_name, &[IrType::I8, ty, ty], ty, &body);
    for &c in vals {
        let r = if c != 0 { 11 } else { 22 };
        let args = [(ty, c), (IrType::I64, 11), (IrType::I64, 22)];
        m.call(&name, IrType::I64, &args, r);
        for cond in [0u64, 1] {
            let r = if cond != 0 { c } else { vals[3] };
            let args = [(IrType::I8, cond), (ty, c), (ty, vals[3])];
            m.call(&values_name, ty, &args, r);
        }
    }
    // switch: a dense table and a sparse chain over this type's values.
    let dense: Vec<u64> = (0..6)
        .map(|k| ty.canonicalize((-2i64 + k) as u64, 8))
        .collect();
    for (kind, cases) in [("dense", dense), ("sparse", vals.to_vec())] {
        let name = format!("switch_{kind}_{ty}");
        let default = m.block();
        let targets: Vec<String> = cases.iter().map(|_| m.block()).collect();
        let list: Vec<String> = cases
            .iter()
            .zip(&targets)
            .map(|(c, t)| format!("{}: {t}", lit(ty, *c)))
            .collect();
        let mut body = format!("    switch {ty} %0, {default} [{}]\n", list.join(", "));
        let _ = writeln!(body, "{default}:\n    ret i32 0");
        for (i, t) in targets.iter().enumerate() {
            let _ = writeln!(body, "{t}:\n    ret i32 {}", i + 1);
        }
        m.function(&name, &[ty], IrType::I32, &body);
        let mut probes = vals.to_vec();
        probes.extend((0..8).map(|k| ty.canonicalize((-4i64 + k) as u64, 8)));
        for a in probes {
            let r = cases.iter().position(|c| *c == a).map_or(0, |i| i + 1);
            m.call(&name, IrType::I32, &[(ty, a)], r as u64);
        }
    }
}

/// Runs the module `m` built for `target` with both allocators; every printed line must
/// be `ir::eval`'s value.
pub fn check_ops_module(target: Target, m: OpsModule) {
    let (text, expected) = m.finish();
    let dir = tempfile::tempdir().expect("temporary directory");
    for mode in RegallocMode::ALL {
        let what = format!("{} {}", target.name(), mode.name());
        let outcome = run_ir(target, &text, mode, dir.path(), &[], &[])
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        if let Err(e) = compare_lines(&outcome, &expected, &what) {
            panic!("{e}");
        }
    }
}

/// Every binary operation at every width, with values and constants on either side.
pub fn every_binary_operation_at_every_width(target: Target) {
    require_toolchain(target);
    let mut m = OpsModule::default();
    for ty in IrType::INTEGERS {
        add_binary_ops(&mut m, ty, &values(ty, target));
    }
    check_ops_module(target, m);
}

/// Every unary operation, comparison, cast, constant, select and switch at every width.
pub fn unary_ops_comparisons_casts_selects_and_switches(target: Target) {
    require_toolchain(target);
    let mut m = OpsModule::default();
    for ty in IrType::INTEGERS {
        add_other_ops(&mut m, ty, &values(ty, target));
    }
    check_ops_module(target, m);
}
