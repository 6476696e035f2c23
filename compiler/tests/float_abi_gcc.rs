//! Floats across the AArch64 (AAPCS64) and RISC-V (LP64D) calling conventions, in a
//! mixed link with the cross gcc, both ways: phicc's IR callee called by gcc's C caller,
//! phicc's IR caller calling gcc's C callee; every output is compared with the all-gcc
//! build's (the reference; phicc never judges itself).
//!
//! What crosses: a function of 23 parameters, doubles, floats and integers interleaved
//! so that both the FP and the integer argument registers run out and the rest goes to
//! the stack (on RISC-V named floats beyond fa7 first take free integer registers); a
//! `double` and a `float` result; and `printf("%f %g ...", ...)` with eleven doubles —
//! the variadic float convention (AArch64: v registers, then the stack; RISC-V: integer
//! registers, then the stack). The callee prints each parameter's bits, so a value in
//! the wrong register shows as a wrong line, not only as a wrong sum.
//!
//! Invariant: both directions run with both register allocators; a missing toolchain
//! fails with the way to install it.

mod native_support;

use compiler::backend::{RegallocMode, Target};
use compiler::ir::IrType::{self, F32, F64, I32, I64};
use native_support::phicc::run_ir;
use native_support::toolchain::{gcc, require_toolchain, run_binary};
use std::fmt::Write as _;

/// The parameter list of `mix`: 12 doubles, 5 floats, 5 ints, 1 long, interleaved.
const MIX: [IrType; 23] = [
    F64, I32, F32, I64, F64, F64, I32, F32, F64, I64, F64, F64, I32, F64, F64, F32, F64, I32, F64,
    I32, F32, F64, F32,
];

/// Argument `i` of `mix` as a C literal and as the IR's literal.
fn arg(i: usize) -> (String, String) {
    let k = i as f64;
    match MIX[i] {
        F64 => {
            let v = -1.0e10 + k * 1.125;
            (format!("{v:?}"), format!("{v:?}"))
        }
        F32 => {
            let v = 0.75f32 + i as f32;
            (format!("{v:?}f"), format!("{v:?}"))
        }
        I32 => {
            let v = -1000 - i as i64;
            (v.to_string(), v.to_string())
        }
        _ => {
            let v = 0x1_0000_0000i64 + i as i64;
            (format!("{v}LL"), v.to_string())
        }
    }
}

fn c_type(ty: IrType) -> &'static str {
    match ty {
        F64 => "double",
        F32 => "float",
        I32 => "int",
        _ => "long long",
    }
}

const C_CALLEE: &str = r#"
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
void vp(const char *f, double named, ...) {
  va_list ap;
  va_start(ap, named);
  printf("named %g: ", named);
  vprintf(f, ap);
  va_end(ap);
}
static void bits(int i, const void *p, int n) {
  unsigned long long u = 0;
  memcpy(&u, p, n);
  printf("%d %llx\n", i, u);
}
"#;

/// gcc's `mix` (prints each parameter's bits, returns the last double plus 1) and `half`.
fn c_callee() -> String {
    let params: Vec<String> = MIX
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{} p{i}", c_type(*t)))
        .collect();
    let mut body = String::new();
    for (i, t) in MIX.iter().enumerate() {
        let _ = writeln!(body, "  bits({i}, &p{i}, sizeof({}));", c_type(*t));
    }
    format!(
        "{C_CALLEE}double mix({}) {{\n{body}  return p21 + 1.0;\n}}\n\
         float half(float x, double y) {{ return x * 0.5f; }}\n",
        params.join(", ")
    )
}

/// The caller, in C: calls `mix` and `half`, prints the results' bits, and calls printf
/// with doubles.
fn c_caller() -> String {
    let args: Vec<String> = (0..MIX.len()).map(|i| arg(i).0).collect();
    let params: Vec<&str> = MIX.iter().map(|t| c_type(*t)).collect();
    format!(
        "#include <stdio.h>\n#include <string.h>\n\
         double mix({});\nfloat half(float, double);\nvoid vp(const char *, double, ...);\n\
         int main(void) {{\n  double r = mix({});\n  unsigned long long u; memcpy(&u, &r, 8);\n  \
         printf(\"mix %llx\\n\", u);\n  float h = half(5.5f, 2.0);\n  unsigned w; memcpy(&w, &h, 4);\n  \
         printf(\"half %x\\n\", w);\n  {}\n  {VP_C}\n  return 0;\n}}\n",
        params.join(", "),
        args.join(", "),
        PRINTF_C
    )
}

/// A call of a variadic function that hands its `va_list` to `vprintf`, in C.
const VP_C: &str = "vp(\"%f %g %d %f\\n\", 0.5, 2.5, 1e10, 7, -0.125);";

/// The same in the IR (the format is the global @vf).
const VP_IR: &str = "    %92 = globaladdr @vf\n    call void @vp(ptr %92, f64 0.5, f64 2.5, \
     f64 10000000000.0, i32 7, f64 -0.125)\n";

const VF_GLOBAL: &str = "global @vf : 13 align 1 const = [str \"%f %g %d %f\\0a\\00\"]\n";

/// The variadic call, in C.
const PRINTF_C: &str = "printf(\"%f %g %d %g %g %g %g %g %g %g %g %g\\n\", 1.5, -2.25e10, 7, \
                        0.1, 1e300, -0.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.5);";

/// The same variadic call in the IR (the format is the global @pf).
const PRINTF_IR: &str = "    %90 = globaladdr @pf\n    %91 = call i32 @printf(ptr %90, f64 1.5, \
     f64 -22500000000.0, i32 7, f64 0.1, f64 1e300, f64 -0.0, f64 3.0, f64 4.0, f64 5.0, \
     f64 6.0, f64 7.0, f64 8.5)\n";

const PF_GLOBAL: &str =
    "global @pf : 40 align 1 const = [str \"%f %g %d %g %g %g %g %g %g %g %g %g\\0a\\00\"]\n";

/// phicc's `mix` and `half` as IR (the same meaning as [`c_callee`]).
fn ir_callee(target: Target) -> String {
    let mut t = String::from(
        "global @fmt : 9 align 1 const = [str \"%d %llx\\0a\\00\"]\n\
         declare @printf(ptr, ...) -> i32\n",
    );
    let params: Vec<&str> = MIX.iter().map(|t| t.name()).collect();
    let _ = writeln!(t, "func @mix({}) -> f64 {{\n.LBB0:", params.join(", "));
    let _ = writeln!(t, "    %100 = globaladdr @fmt");
    for (i, ty) in MIX.iter().enumerate() {
        let _ = writeln!(t, "    %{i} = paramref {i}, {ty}");
        let bits = match ty {
            F64 => format!("    %{} = bitcast f64 %{i} to i64\n", 200 + i),
            F32 => format!(
                "    %{} = bitcast f32 %{i} to u32\n    %{} = cast u32 %{} to i64\n",
                300 + i,
                200 + i,
                300 + i
            ),
            // The C callee prints an int's 4 bytes, zero-extended.
            I32 => format!(
                "    %{} = cast i32 %{i} to u32\n    %{} = cast u32 %{} to i64\n",
                300 + i,
                200 + i,
                300 + i
            ),
            _ => format!("    %{} = copy i64 %{i}\n", 200 + i),
        };
        t.push_str(&bits);
        let _ = writeln!(
            t,
            "    %{} = call i32 @printf(ptr %100, i32 {i}, i64 %{})",
            400 + i,
            200 + i
        );
    }
    let _ = writeln!(t, "    %500 = fadd f64 %21, 1.0\n    ret f64 %500\n}}\n");
    // The va_list object: AArch64's 32-byte record goes to vprintf by reference (a
    // record over 16 bytes), RISC-V's `void *` by value.
    let ap = match target {
        Target::Aarch64 => "%0",
        _ => "%5",
    };
    let _ = write!(
        t,
        "global @named : 11 align 1 const = [str \"named %g: \\00\"]\n\
         declare @vprintf(ptr, ptr) -> i32\n\
         declare @__phi_va.start(ptr, i32, i8) -> void\n\
         declare @__phi_va.end(ptr) -> void\n\
         func @vp(ptr, f64, ...) -> void {{\n.LBB2:\n    %0 = alloca i8, 32, 16\n    \
         %1 = paramref 0, ptr\n    %2 = paramref 1, f64\n    \
         call void @__phi_va.start(ptr %0, i32 1, i8 0)\n    %3 = globaladdr @named\n    \
         %4 = call i32 @printf(ptr %3, f64 %2)\n    %5 = load ptr %0\n    \
         %6 = call i32 @vprintf(ptr %1, ptr {ap})\n    call void @__phi_va.end(ptr %0)\n    ret\n}}\n"
    );
    t.push_str(
        "func @half(f32, f64) -> f32 {\n.LBB1:\n    %0 = paramref 0, f32\n    \
         %1 = fmul f32 %0, 0.5\n    ret f32 %1\n}\n",
    );
    t
}

/// phicc's caller as IR (the same meaning as [`c_caller`]).
fn ir_caller() -> String {
    let params: Vec<&str> = MIX.iter().map(|t| t.name()).collect();
    let args: Vec<String> = MIX
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{t} {}", arg(i).1))
        .collect();
    format!(
        "global @fm : 10 align 1 const = [str \"mix %llx\\0a\\00\"]\n\
         global @fh : 9 align 1 const = [str \"half %x\\0a\\00\"]\n{PF_GLOBAL}{VF_GLOBAL}\
         declare @printf(ptr, ...) -> i32\ndeclare @mix({}) -> f64\n\
         declare @half(f32, f64) -> f32\ndeclare @vp(ptr, f64, ...) -> void\n\
         func @main() -> i32 {{\n.LBB0:\n    %1 = call f64 @mix({})\n    \
         %2 = bitcast f64 %1 to i64\n    %3 = globaladdr @fm\n    \
         %4 = call i32 @printf(ptr %3, i64 %2)\n    %5 = call f32 @half(f32 5.5, f64 2.0)\n    \
         %6 = bitcast f32 %5 to u32\n    %7 = globaladdr @fh\n    \
         %8 = call i32 @printf(ptr %7, u32 %6)\n{PRINTF_IR}{VP_IR}    ret i32 0\n}}\n",
        params.join(", "),
        args.join(", ")
    )
}

fn floats_cross_the_abi_both_ways(target: Target) {
    require_toolchain(target);
    let dir = tempfile::tempdir().expect("temporary directory");
    let (callee_c, caller_c) = (dir.path().join("callee.c"), dir.path().join("caller.c"));
    std::fs::write(&callee_c, c_callee()).expect("write");
    std::fs::write(&caller_c, c_caller()).expect("write");
    let reference = dir.path().join("gcc.out");
    gcc(target, &["-O0", "-w"], &[&caller_c, &callee_c], &reference)
        .unwrap_or_else(|e| panic!("{e}"));
    let want = run_binary(target, &reference, dir.path(), &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(want.status, "0", "the all-gcc reference failed");
    let text = String::from_utf8_lossy(&want.stdout).to_string();
    assert_eq!(text.lines().count(), MIX.len() + 4, "{text}");
    for mode in RegallocMode::ALL {
        for (what, ir, c) in [
            ("phicc callee, gcc caller", ir_callee(target), &caller_c),
            ("phicc caller, gcc callee", ir_caller(), &callee_c),
        ] {
            let got = run_ir(target, &ir, mode, dir.path(), &[c], &[])
                .unwrap_or_else(|e| panic!("{} {what}: {e}", mode.name()));
            assert_eq!(
                (got.status.as_str(), String::from_utf8_lossy(&got.stdout)),
                ("0", text.as_str().into()),
                "{} {} {what}",
                target.name(),
                mode.name()
            );
        }
    }
}

#[test]
fn floats_cross_aapcs64_both_ways() {
    floats_cross_the_abi_both_ways(Target::Aarch64);
}

#[test]
fn floats_cross_riscv_lp64d_both_ways() {
    floats_cross_the_abi_both_ways(Target::Riscv64);
}
