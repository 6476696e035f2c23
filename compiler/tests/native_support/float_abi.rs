//! Floats across the calling convention, both ways, against gcc: phicc's functions called
//! from gcc's code and gcc's functions called from phicc's, with many float and integer
//! arguments interleaved past the register counts, float results (`f64` and `f32`),
//! float global data, and a phicc-compiled call of the variadic `printf` with doubles.
//!
//! How: the same C driver (`main`, which calls `phi_*`, and the recording callees
//! `gcc_mix*`, all compiled by gcc) is linked once with gcc's own C versions of the
//! `phi_*` functions (the reference) and once with phicc's IR versions; the two programs
//! must print the same lines. Every recorded argument and result is printed as its bits,
//! so a float in the wrong register, slot or half shows; the reference output is also
//! checked to contain the arguments' bits (so the comparison is not between two
//! programs that both print nothing useful).
//!
//! Invariant: the IR and the C text are generated from one table of argument types and
//! values ([`SIGNATURE`]), so the two versions cannot drift apart.

use super::ir_driver::{c_type, c_value};
use super::phicc::assemble;
use super::toolchain::{gcc, require_toolchain, run_binary_for, RUN_TIMEOUT};
use compiler::backend::{RegallocMode, Target};
use compiler::ir::float_text::format_float;
use compiler::ir::IrType;
use std::fmt::Write as _;

use IrType::{F32, F64, I32, I64, I8, U16};

/// The argument types (after a leading `ptr out`): 13 floats (more than the 8 vector
/// registers of x86-64) and 8 integers (more than its 6 general ones), interleaved.
const SIGNATURE: [IrType; 21] = [
    F64, I32, F32, I64, F64, F32, I32, F64, F64, F64, F64, F64, F64, F32, I64, F64, I8, F32, I64,
    I32, U16,
];

/// The value (bits, canonical) of argument `i`: signed zeros, a NaN with a payload, a
/// subnormal, extremes, fractions, and integers with high bits set.
fn value(i: usize) -> u64 {
    let f64s = [
        2.5f64,
        -0.0,
        0.1,
        1e300,
        -3.75,
        f64::from_bits(1),
        123456.789,
        f64::MAX,
        -1e-5,
    ];
    let f32s = [1.5f32, -0.0, 3.4028235e38, 1e-40, 0.3];
    match SIGNATURE[i] {
        F64 if i == 10 => 0x7ff8_0000_0000_0123,
        F64 => f64s[i % f64s.len()].to_bits(),
        F32 => u64::from(f32s[i % f32s.len()].to_bits()),
        ty => ty.canonicalize((-7_000_000_007i64 * (i as i64 + 1)) as u64, 8),
    }
}

/// The IR literal of argument `i`.
fn ir_literal(i: usize) -> String {
    let ty = SIGNATURE[i];
    if ty.is_float() {
        format_float(ty, value(i))
    } else if ty.is_signed() {
        (value(i) as i64).to_string()
    } else {
        value(i).to_string()
    }
}

/// The integer type with the float type's bits (`u32`/`u64`), or the type itself.
fn bits_type(ty: IrType) -> IrType {
    match ty {
        F32 => IrType::U32,
        F64 => IrType::U64,
        t => t,
    }
}

/// The IR of a function `@name(ptr, SIGNATURE) -> ret` that records each argument's bits
/// (an integer extended as C converts it to `unsigned long long`) in `out[i]` and returns
/// argument `returned`.
fn ir_recorder(name: &str, ret: IrType, returned: usize, block: u32) -> String {
    let params: Vec<&str> = std::iter::once("ptr")
        .chain(SIGNATURE.iter().map(|t| t.name()))
        .collect();
    let mut body = format!(
        "func noinline @{name}({}) -> {ret} {{\n.LBB{block}:\n",
        params.join(", ")
    );
    let _ = writeln!(body, "    %0 = paramref 0, ptr");
    for (i, ty) in SIGNATURE.iter().enumerate() {
        let (p, b, w, a) = (100 + i, 200 + i, 300 + i, 400 + i);
        let _ = writeln!(body, "    %{p} = paramref {}, {ty}", i + 1);
        let bits = if ty.is_float() {
            let _ = writeln!(body, "    %{b} = bitcast {ty} %{p} to {}", bits_type(*ty));
            b
        } else {
            p
        };
        let from = bits_type(*ty);
        let wide = if from.is_signed() { "i64" } else { "u64" };
        let stored = if from.size(8) == 8 {
            bits
        } else {
            let _ = writeln!(body, "    %{w} = cast {from} %{bits} to {wide}");
            w
        };
        let _ = writeln!(
            body,
            "    %{a} = gep %0, {}\n    store {wide} %{stored}, %{a}",
            8 * i
        );
    }
    let _ = writeln!(body, "    ret {ret} %{}\n}}\n", 100 + returned);
    body
}

/// The C of the same recorder (gcc's version, or the callee gcc provides).
fn c_recorder(name: &str, ret: IrType, returned: usize) -> String {
    let mut params = vec!["unsigned long long *out".to_string()];
    let mut body = String::new();
    for (i, ty) in SIGNATURE.iter().enumerate() {
        params.push(format!("{} a{i}", c_type(*ty)));
        let record = match ty {
            F32 => format!("{{ unsigned u; memcpy(&u, &a{i}, 4); out[{i}] = u; }}"),
            F64 => format!("memcpy(&out[{i}], &a{i}, 8);"),
            _ => format!("out[{i}] = (unsigned long long)(long long)a{i};"),
        };
        let _ = writeln!(body, "  {record}");
    }
    format!(
        "{} {name}({}) {{\n{body}  return a{returned};\n}}\n",
        c_type(ret),
        params.join(", ")
    )
}

/// `printf`'s format and arguments for the variadic test: more doubles than vector
/// registers, integers between them.
const PRINTF_FORMAT: &str = "%f %g %.17g %a %d %e %g %f %lld %g %.3f %g %d %a %g\\n";

fn printf_args() -> Vec<(IrType, u64)> {
    let d = |x: f64| (F64, x.to_bits());
    vec![
        d(1.5),
        d(-0.0),
        d(0.1),
        d(1e300),
        (I32, (-42i64) as u64),
        d(2.5e-310),
        d(f64::INFINITY),
        d(-2.75),
        (I64, 1u64 << 40),
        d(123456.789),
        d(1e-5),
        (F64, 0x7ff8_0000_0000_0000),
        (I32, 7),
        d(3.0),
        d(-1e-300),
    ]
}

/// The phicc module: the recorders, a caller of gcc's recorders, the printf call, and
/// reads of float globals.
fn ir_module() -> String {
    let mut text = String::new();
    let fmt_bytes = PRINTF_FORMAT.replace("\\n", "\\0a");
    let _ = writeln!(
        text,
        "global @fmt : {} align 1 const = [str \"{fmt_bytes}\\00\"]",
        PRINTF_FORMAT.len() - 1 + 1
    );
    text.push_str(
        "global @floats : 16 align 8 = [f64 -2.5, f32 nan(0x7fc00042), f32 1e-40]\n\
         declare @printf(ptr, ...) -> i32\n",
    );
    let params: Vec<&str> = std::iter::once("ptr")
        .chain(SIGNATURE.iter().map(|t| t.name()))
        .collect();
    for (name, ret) in [("gcc_mix", F64), ("gcc_mixf", F32)] {
        let _ = writeln!(text, "declare @{name}({}) -> {ret}", params.join(", "));
    }
    text.push_str(&ir_recorder("phi_mix", F64, 15, 0));
    text.push_str(&ir_recorder("phi_mixf", F32, 17, 1));
    // phi_calls(out): gcc_mix(out, ...) and gcc_mixf(out + 24*8, ...), results' bits in
    // out[48] and out[49]; every other argument a value (a register or slot), the rest
    // constants.
    let mut body =
        String::from("func noinline @phi_calls(ptr) -> void {\n.LBB2:\n    %0 = paramref 0, ptr\n");
    let mut args = Vec::new();
    for (i, ty) in SIGNATURE.iter().enumerate() {
        if i % 2 == 0 {
            let _ = writeln!(body, "    %{} = copy {ty} {}", 100 + i, ir_literal(i));
            args.push(format!("{ty} %{}", 100 + i));
        } else {
            args.push(format!("{ty} {}", ir_literal(i)));
        }
    }
    let _ = writeln!(
        body,
        "    %1 = call f64 @gcc_mix(ptr %0, {})\n    %2 = gep %0, 192\n    \
         %3 = call f32 @gcc_mixf(ptr %2, {})\n    \
         %4 = bitcast f64 %1 to u64\n    %5 = gep %0, 384\n    store u64 %4, %5\n    \
         %6 = bitcast f32 %3 to u32\n    %7 = cast u32 %6 to u64\n    %8 = gep %0, 392\n    \
         store u64 %7, %8\n    ret\n}}\n",
        args.join(", "),
        args.join(", ")
    );
    text.push_str(&body);
    // phi_printf(): printf with doubles past the vector registers.
    let pargs: Vec<String> = printf_args()
        .iter()
        .map(|(t, v)| {
            if t.is_float() {
                format!("{t} {}", format_float(*t, *v))
            } else {
                format!("{t} {}", *v as i64)
            }
        })
        .collect();
    let _ = writeln!(
        text,
        "func noinline @phi_printf() -> i32 {{\n.LBB3:\n    %0 = globaladdr @fmt\n    \
         %1 = call i32 @printf(ptr %0, {})\n    ret i32 %1\n}}\n",
        pargs.join(", ")
    );
    // phi_globals(out): the float global's items, as bits.
    text.push_str(
        "func noinline @phi_globals(ptr) -> void {\n.LBB4:\n    %0 = paramref 0, ptr\n    \
         %1 = globaladdr @floats\n    %2 = load u64 %1\n    store u64 %2, %0\n    \
         %3 = gep %1, 8\n    %4 = load f32 %3\n    %5 = bitcast f32 %4 to u32\n    \
         %6 = cast u32 %5 to u64\n    %7 = gep %0, 8\n    store u64 %6, %7\n    \
         %8 = gep %1, 12\n    %9 = load f32 %8\n    %10 = fadd f32 %9, %9\n    \
         %11 = bitcast f32 %10 to u32\n    %12 = cast u32 %11 to u64\n    %13 = gep %0, 16\n    \
         store u64 %12, %13\n    ret\n}\n",
    );
    text
}

/// gcc's versions of the `phi_*` functions.
fn c_reference() -> String {
    let mut text = String::from("#include <stdio.h>\n#include <string.h>\n");
    let params: Vec<String> = std::iter::once("unsigned long long *".to_string())
        .chain(SIGNATURE.iter().map(|t| c_type(*t).to_string()))
        .collect();
    let _ = writeln!(text, "double gcc_mix({});", params.join(", "));
    let _ = writeln!(text, "float gcc_mixf({});", params.join(", "));
    text.push_str(&c_recorder("phi_mix", F64, 15));
    text.push_str(&c_recorder("phi_mixf", F32, 17));
    let args: Vec<String> = (0..SIGNATURE.len())
        .map(|i| c_value(SIGNATURE[i], value(i)))
        .collect();
    let _ = writeln!(
        text,
        "void phi_calls(unsigned long long *out) {{\n  double r = gcc_mix(out, {});\n  \
         float f = gcc_mixf(out + 24, {});\n  unsigned u; memcpy(&out[48], &r, 8);\n  \
         memcpy(&u, &f, 4); out[49] = u;\n}}",
        args.join(", "),
        args.join(", ")
    );
    let pargs: Vec<String> = printf_args().iter().map(|(t, v)| c_value(*t, *v)).collect();
    let _ = writeln!(
        text,
        "int phi_printf(void) {{\n  return printf(\"{PRINTF_FORMAT}\", {});\n}}",
        pargs.join(", ")
    );
    text.push_str(
        "static struct { double d; float a, b; } floats = { -2.5, 0, 1e-40f };\n\
         void phi_globals(unsigned long long *out) {\n  unsigned u;\n  \
         memcpy(&out[0], &floats.d, 8);\n  u = 0x7fc00042u; out[1] = u;\n  \
         float s = floats.b + floats.b; memcpy(&u, &s, 4); out[2] = u;\n}\n",
    );
    text
}

/// The driver both programs share: gcc's recorders and a `main` that calls every
/// `phi_*` function and prints what it recorded and returned.
fn c_driver() -> String {
    let mut text = String::from("#include <stdio.h>\n#include <string.h>\n");
    text.push_str(&c_recorder("gcc_mix", F64, 15));
    text.push_str(&c_recorder("gcc_mixf", F32, 17));
    let params: Vec<String> = std::iter::once("unsigned long long *".to_string())
        .chain(SIGNATURE.iter().map(|t| c_type(*t).to_string()))
        .collect();
    let _ = writeln!(text, "double phi_mix({});", params.join(", "));
    let _ = writeln!(text, "float phi_mixf({});", params.join(", "));
    text.push_str(
        "void phi_calls(unsigned long long *);\nint phi_printf(void);\n\
         void phi_globals(unsigned long long *);\n\
         static unsigned long long out[64];\n\
         static void dump(const char *what, int n) {\n  printf(\"%s\", what);\n  \
         for (int i = 0; i < n; i++) printf(\" %llx\", out[i]);\n  printf(\"\\n\");\n  \
         memset(out, 0, sizeof out);\n}\n",
    );
    let args: Vec<String> = (0..SIGNATURE.len())
        .map(|i| c_value(SIGNATURE[i], value(i)))
        .collect();
    let _ = writeln!(
        text,
        "int main(void) {{\n  double r = phi_mix(out, {a});\n  memcpy(&out[40], &r, 8);\n  \
         dump(\"phi_mix\", 41);\n  float f = phi_mixf(out, {a});\n  unsigned u; memcpy(&u, &f, 4);\n  \
         out[40] = u;\n  dump(\"phi_mixf\", 41);\n  phi_calls(out);\n  dump(\"phi_calls\", 50);\n  \
         int n = phi_printf();\n  printf(\"printed %d\\n\", n);\n  phi_globals(out);\n  \
         dump(\"phi_globals\", 3);\n  return 0;\n}}",
        a = args.join(", ")
    );
    text
}

/// Builds and runs the driver with `phi` (a C or assembly file) on `target`; its stdout.
fn run_with(target: Target, dir: &std::path::Path, phi: &std::path::Path, tag: &str) -> String {
    let driver = dir.join("driver.c");
    std::fs::write(&driver, c_driver()).expect("write driver");
    let exe = dir.join(format!("{tag}.out"));
    // The i686 reference computes floats in SSE2, as phicc does.
    let flags: &[&str] = if target == Target::I686 {
        &["-O0", "-w", "-msse2", "-mfpmath=sse"]
    } else {
        &["-O0", "-w"]
    };
    gcc(target, flags, &[&driver, phi], &exe).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let got = run_binary_for(target, &exe, dir, &[], RUN_TIMEOUT)
        .unwrap_or_else(|e| panic!("{tag}: {e}"));
    assert_eq!(
        got.status,
        "0",
        "{tag}: {}",
        String::from_utf8_lossy(&got.stderr)
    );
    String::from_utf8_lossy(&got.stdout).into_owned()
}

/// phicc's functions and gcc's, called both ways, print what gcc's own build prints.
pub fn floats_cross_the_abi_both_ways_like_gcc(target: Target) {
    require_toolchain(target);
    let dir = tempfile::tempdir().expect("temporary directory");
    let reference_c = dir.path().join("reference.c");
    std::fs::write(&reference_c, c_reference()).expect("write reference");
    let want = run_with(target, dir.path(), &reference_c, "gcc");
    // The reference really recorded the arguments: 2.5's bits, the NaN's payload, the
    // last integer (a u16), and printf's text.
    for needle in [
        "4004000000000000",
        "7ff8000000000123",
        "inf",
        "-2.750000",
        "0x1.8p+1",
    ] {
        assert!(
            want.contains(needle),
            "reference output lacks {needle}:\n{want}"
        );
    }
    let module = compiler::ir::text::parse_module(&ir_module()).expect("the IR parses");
    compiler::ir::verify::verify_module(&module, compiler::ir::verify::VerifyMode::PostPhiElim)
        .expect("the IR verifies");
    for mode in RegallocMode::ALL {
        let asm = assemble(&module, target, mode).unwrap_or_else(|e| panic!("{e}"));
        let s = dir.path().join(format!("{}.s", mode.name()));
        std::fs::write(&s, asm).expect("write assembly");
        let got = run_with(target, dir.path(), &s, mode.name());
        let diff: Vec<String> = want
            .lines()
            .zip(got.lines())
            .filter(|(w, g)| w != g)
            .map(|(w, g)| format!("  gcc:   {w}\n  phicc: {g}"))
            .collect();
        assert!(
            diff.is_empty() && want.lines().count() == got.lines().count(),
            "{} {}: phicc's functions differ from gcc's:\n{}",
            target.name(),
            mode.name(),
            diff.join("\n")
        );
    }
}

/// phicc's `va_arg` of doubles (`@__phi_va.arg.f64`, expanded by `backend::va`): a
/// variadic function reading `n` doubles and then an `int`, called by gcc's code with
/// more doubles than vector registers, must compute what gcc's own version computes
/// (each double folded in order: `s = s * 3 + x`, so a double read from the wrong place
/// or in the wrong order shows in the bits).
pub fn variadic_doubles_read_like_gcc(target: Target) {
    require_toolchain(target);
    let registers = if target == Target::X86_64 { 6 } else { 0 };
    let ir = format!(
        "declare @__phi_va.start(ptr, i32, i8) -> void\n\
         declare @__phi_va.arg.f64(ptr) -> f64\n\
         declare @__phi_va.arg.i32(ptr) -> i32\n\
         declare @__phi_va.end(ptr) -> void\n\
         func noinline @vsum(i32, ...) -> f64 {{\n.LBB0:\n    %0 = paramref 0, i32\n    \
         %1 = alloca i8, 24, 8\n    call void @__phi_va.start(ptr %1, i32 {registers}, i8 0)\n    \
         %2 = copy i32 0\n    %3 = copy f64 0.0\n    br .LBB1\n.LBB1:\n    \
         %4 = cmp slt i32 %2, %0\n    condbr %4, .LBB2, .LBB3\n.LBB2:\n    \
         %5 = call f64 @__phi_va.arg.f64(ptr %1)\n    %6 = fmul f64 %3, 3.0\n    \
         %7 = fadd f64 %6, %5\n    %3 = copy f64 %7\n    %8 = add i32 %2, 1\n    \
         %2 = copy i32 %8\n    br .LBB1\n.LBB3:\n    %9 = call i32 @__phi_va.arg.i32(ptr %1)\n    \
         %10 = cast i32 %9 to f64\n    %11 = fadd f64 %3, %10\n    \
         call void @__phi_va.end(ptr %1)\n    ret f64 %11\n}}\n"
    );
    let reference = "#include <stdarg.h>\n\
        double vsum(int n, ...) {\n  va_list ap;\n  va_start(ap, n);\n  double s = 0.0;\n  \
        for (int i = 0; i < n; i++) s = s * 3.0 + va_arg(ap, double);\n  \
        int k = va_arg(ap, int);\n  va_end(ap);\n  return s + k;\n}\n";
    let driver = "#include <stdio.h>\n#include <string.h>\ndouble vsum(int, ...);\n\
        static void show(double d) {\n  unsigned long long u;\n  memcpy(&u, &d, 8);\n  \
        printf(\"%llx\\n\", u);\n}\n\
        int main(void) {\n  show(vsum(0, 5));\n  show(vsum(3, 0.1, -2.5, 1e300, -7));\n  \
        show(vsum(11, 1.5, 0.1, -0.0, 2.25, 1e-310, 3.0, 0.2, 4.5, 0.3, 5.75, -6.0, 42));\n  \
        return 0;\n}\n";
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path().join("driver.c");
    std::fs::write(&d, driver).expect("write driver");
    let flags: &[&str] = if target == Target::I686 {
        &["-O0", "-w", "-msse2", "-mfpmath=sse"]
    } else {
        &["-O0", "-w"]
    };
    let run = |other: &std::path::Path, tag: &str| {
        let exe = dir.path().join(format!("{tag}.out"));
        gcc(target, flags, &[&d, other], &exe).unwrap_or_else(|e| panic!("{tag}: {e}"));
        let got = run_binary_for(target, &exe, dir.path(), &[], RUN_TIMEOUT)
            .unwrap_or_else(|e| panic!("{tag}: {e}"));
        assert_eq!(got.status, "0", "{tag}");
        String::from_utf8_lossy(&got.stdout).into_owned()
    };
    let c = dir.path().join("reference.c");
    std::fs::write(&c, reference).expect("write reference");
    let want = run(&c, "gcc");
    // vsum(0, 5) is 5.0 (0x4014...), by hand.
    assert!(want.starts_with("4014000000000000\n"), "{want}");
    assert_eq!(want.lines().count(), 3, "{want}");
    let module = compiler::ir::text::parse_module(&ir).expect("the IR parses");
    for mode in RegallocMode::ALL {
        let asm = assemble(&module, target, mode).unwrap_or_else(|e| panic!("{e}"));
        let s = dir.path().join(format!("{}.s", mode.name()));
        std::fs::write(&s, asm).expect("write assembly");
        let got = run(&s, mode.name());
        assert_eq!(
            got,
            want,
            "{} {}: va_arg of doubles",
            target.name(),
            mode.name()
        );
    }
}
