//! Frames, calls and memcpy: a callee with many parameters of mixed widths (some on the
//! stack on every target), a caller with a 64-aligned alloca (the prologue realigns the
//! stack pointer; stack parameters are read through the frame pointer) and a 1 MiB
//! alloca whose far end is beyond every immediate offset, argument moves that form
//! cycles through the argument registers, and an inline memcpy of every size from 1 to
//! 257 bytes at several alignments. Each result is computed by hand in Rust.
//!
//! Why: these are the places where a backend's frame layout and calling convention go
//! wrong, and no operation-level test reaches them.
//!
//! Invariant: every block label is unique in the module (labels reach the assembly).

use super::phicc::{check_printed, main_printing, PRINTF_HEADER};
use super::toolchain::require_toolchain;
use compiler::backend::Target;
use compiler::ir::IrType;
use std::fmt::Write as _;

/// `@copy_N_S_D(seed)`: fills an N+16-byte buffer with bytes `seed + 7i`, zeroes
/// another, copies N bytes from offset S to offset D (an inline memcpy: unrolled or a
/// loop, by size) and returns the hash `h = h * 31 + byte` of the whole destination.
pub fn memcpy_function(n: u32, src_off: u32, dst_off: u32, first_block: u32) -> String {
    let total = n + 16;
    let b = |k: u32| format!(".LBB{}", first_block + k);
    format!(
        "func noinline @copy_{n}_{src_off}_{dst_off}(i64) -> i64 {{
{b0}:
    %0 = paramref 0, i64
    %1 = alloca i8, {total}, 8
    %2 = alloca i8, {total}, 8
    %3 = copy i64 0
    br {b1}
{b1}:
    %4 = cmp slt i64 %3, {total}
    condbr %4, {b2}, {b3}
{b2}:
    %5 = gep %1, %3
    %6 = mul i64 %3, 7
    %7 = add i64 %6, %0
    %8 = cast i64 %7 to i8
    store i8 %8, %5
    %9 = gep %2, %3
    store i8 0, %9
    %10 = add i64 %3, 1
    %3 = copy i64 %10
    br {b1}
{b3}:
    %11 = gep %2, {dst_off}
    %12 = gep %1, {src_off}
    memcpy %11, %12, {n}
    %13 = copy i64 0
    %14 = copy i64 0
    br {b4}
{b4}:
    %15 = cmp slt i64 %13, {total}
    condbr %15, {b5}, {b6}
{b5}:
    %16 = gep %2, %13
    %17 = load u8 %16
    %18 = cast u8 %17 to i64
    %19 = mul i64 %14, 31
    %14 = add i64 %19, %18
    %20 = add i64 %13, 1
    %13 = copy i64 %20
    br {b4}
{b6}:
    ret i64 %14
}}
",
        b0 = b(0),
        b1 = b(1),
        b2 = b(2),
        b3 = b(3),
        b4 = b(4),
        b5 = b(5),
        b6 = b(6),
    )
}

/// What `@copy_N_S_D(seed)` returns, computed directly.
pub fn memcpy_expected(n: u32, src_off: u32, dst_off: u32, seed: i64) -> i64 {
    let total = (n + 16) as usize;
    let src: Vec<u8> = (0..total).map(|i| (seed + 7 * i as i64) as u8).collect();
    let mut dst = vec![0u8; total];
    let (s, d) = (src_off as usize, dst_off as usize);
    dst[d..d + n as usize].copy_from_slice(&src[s..s + n as usize]);
    dst.iter()
        .fold(0i64, |h, &b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
}

/// One shape of the frame test: the types of `@weigh`'s parameters after its first ten
/// (`i8, u16, i32, i64, u8, i16, u32, i64, i8, u64`), and the values of those extra
/// parameters in each call of `@framed` (after [`FRAME_CALLS`]'s ten).
struct FrameShape {
    suffix: &'static str,
    extra: &'static [IrType],
    extra_values: [&'static [i64]; 3],
}

/// The first ten arguments of the three calls of `@framed`, with values whose upper bits
/// the narrowing must drop.
const FRAME_CALLS: [[i64; 10]; 3] = [
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    [
        -1,
        300,
        -70000,
        1 << 40,
        255,
        -32768,
        -1,
        i64::MIN,
        -128,
        -5,
    ],
    [i64::MAX, -129, 65536, -3, 256, 40000, 1 << 33, 77, 127, 1],
];

/// The shapes: ten parameters (six in x86-64 registers, four on its stack; all on the
/// stack on i686), and twelve with two extra narrow ones (four on the stack on AArch64
/// and RISC-V). Every target runs all three.
const FRAME_SHAPES: [FrameShape; 3] = [
    FrameShape {
        suffix: "10",
        extra: &[],
        extra_values: [&[], &[], &[]],
    },
    FrameShape {
        suffix: "12_u16_i32",
        extra: &[IrType::U16, IrType::I32],
        extra_values: [&[11, 12], &[70000, -1 << 35], &[-1, i64::MIN]],
    },
    FrameShape {
        suffix: "12_u32_i16",
        extra: &[IrType::U32, IrType::I16],
        extra_values: [&[11, 12], &[0x8000_0000, -2], &[0xffff_ffff, 40000]],
    },
];

/// `@weigh_S` takes the shape's parameters and folds them `h = 3h + p`; `@framed_S` (all
/// i64 parameters) has a 64-aligned alloca, a 1 MiB alloca through which two parameters
/// pass, and calls `@weigh_S` with its parameters rotated and narrowed. Labels from
/// `first_block` on.
fn frame_functions(shape: &FrameShape, first_block: u32) -> String {
    let s = shape.suffix;
    let extra_params: String = shape.extra.iter().map(|t| format!(", {t}")).collect();
    let i64s = vec!["i64"; 10 + shape.extra.len()].join(", ");
    let mut weigh = format!(
        "func noinline @weigh_{s}(i8, u16, i32, i64, u8, i16, u32, i64, i8, u64{extra_params}) -> i64 {{
.LBB{b0}:
    %0 = paramref 0, i8
    %1 = paramref 1, u16
    %2 = paramref 2, i32
    %3 = paramref 3, i64
    %4 = paramref 4, u8
    %5 = paramref 5, i16
    %6 = paramref 6, u32
    %7 = paramref 7, i64
    %8 = paramref 8, i8
    %9 = paramref 9, u64
",
        b0 = first_block
    );
    for (k, t) in shape.extra.iter().enumerate() {
        let _ = writeln!(weigh, "    %{} = paramref {}, {t}", 40 + k, 10 + k);
    }
    weigh.push_str(
        "    %10 = cast i8 %0 to i64
    %11 = cast u16 %1 to i64
    %12 = cast i32 %2 to i64
    %14 = cast u8 %4 to i64
    %15 = cast i16 %5 to i64
    %16 = cast u32 %6 to i64
    %18 = cast i8 %8 to i64
    %19 = cast u64 %9 to i64
",
    );
    for (k, t) in shape.extra.iter().enumerate() {
        let _ = writeln!(weigh, "    %{} = cast {t} %{} to i64", 42 + k, 40 + k);
    }
    // h = 3h + p over the widened parameters, in order (%20.. for the first ten, %44..
    // for the extra ones).
    let first_ten = [11, 12, 3, 14, 15, 16, 7, 18, 19];
    let extra = (0..shape.extra.len()).map(|k| 42 + k);
    let mut last = 10;
    for (j, term) in first_ten.into_iter().chain(extra).enumerate() {
        let m = if j < 9 { 20 + 2 * j } else { 44 + 2 * (j - 9) };
        let _ = writeln!(
            weigh,
            "    %{m} = mul i64 %{last}, 3\n    %{} = add i64 %{m}, %{term}",
            m + 1
        );
        last = m + 1;
    }
    let _ = writeln!(weigh, "    ret i64 %{last}\n}}\n");

    let mut framed = format!(
        "func noinline @framed_{s}({i64s}) -> i64 {{\n.LBB{}:\n",
        first_block + 10
    );
    for i in 0..10 {
        let _ = writeln!(framed, "    %{i} = paramref {i}, i64");
    }
    for k in 0..shape.extra.len() {
        let _ = writeln!(framed, "    %{} = paramref {}, i64", 50 + k, 10 + k);
    }
    framed.push_str(
        "    %10 = alloca i8, 100, 64
    %11 = alloca i8, 1048576, 16
    %12 = cast ptr %10 to u64
    %13 = and u64 %12, 63
    %14 = gep %11, 1048568
    store i64 %9, %14
    store i64 %8, %11
    %15 = load i64 %14
    %16 = load i64 %11
    %20 = cast i64 %1 to i8
    %21 = cast i64 %2 to u16
    %22 = cast i64 %3 to i32
    %24 = cast i64 %5 to u8
    %25 = cast i64 %6 to i16
    %26 = cast i64 %7 to u32
    %28 = cast i64 %16 to i8
    %29 = cast i64 %0 to u64
",
    );
    let mut extra_args = String::new();
    for (k, t) in shape.extra.iter().enumerate() {
        let _ = writeln!(framed, "    %{} = cast i64 %{} to {t}", 52 + k, 50 + k);
        let _ = write!(extra_args, ", {t} %{}", 52 + k);
    }
    let _ = writeln!(
        framed,
        "    %30 = call i64 @weigh_{s}(i8 %20, u16 %21, i32 %22, i64 %4, u8 %24, i16 %25, u32 %26, i64 %15, i8 %28, u64 %29{extra_args})
    %31 = cast u64 %13 to i64
    %32 = mul i64 %31, 1000000007
    %33 = add i64 %30, %32
    ret i64 %33
}}
"
    );
    weigh + &framed
}

/// `v` narrowed to the integer type `ty` and widened back (by `ty`'s signedness).
fn narrowed(v: i64, ty: IrType) -> i64 {
    match ty {
        IrType::I8 => v as i8 as i64,
        IrType::U8 => v as u8 as i64,
        IrType::I16 => v as i16 as i64,
        IrType::U16 => v as u16 as i64,
        IrType::I32 => v as i32 as i64,
        IrType::U32 => v as u32 as i64,
        _ => v,
    }
}

/// What `@framed_S(p)` returns: the rotated parameters weighed at their types (the
/// 64-aligned alloca's address adds nothing).
fn framed_expected(shape: &FrameShape, p: &[i64]) -> i64 {
    let mut args = vec![
        p[1] as i8 as i64,
        p[2] as u16 as i64,
        p[3] as i32 as i64,
        p[4],
        p[5] as u8 as i64,
        p[6] as i16 as i64,
        p[7] as u32 as i64,
        p[9],
        p[8] as i8 as i64,
        p[0],
    ];
    for (k, t) in shape.extra.iter().enumerate() {
        args.push(narrowed(p[10 + k], *t));
    }
    args.iter()
        .fold(0i64, |h, &a| h.wrapping_mul(3).wrapping_add(a))
}

/// `@permute(a, b, c)` calls `@sub3` with permutations of its register parameters, which
/// are all argument registers too: the argument moves are cycles.
const PERMUTE_FUNCTIONS: &str = "
func noinline @sub3(i64, i64, i64) -> i64 {
.LBB950:
    %0 = paramref 0, i64
    %1 = paramref 1, i64
    %2 = paramref 2, i64
    %3 = mul i64 %0, 100
    %4 = mul i64 %1, 10
    %5 = add i64 %3, %4
    %6 = add i64 %5, %2
    ret i64 %6
}

func noinline @permute(i64, i64, i64) -> i64 {
.LBB951:
    %0 = paramref 0, i64
    %1 = paramref 1, i64
    %2 = paramref 2, i64
    %3 = call i64 @sub3(i64 %2, i64 %0, i64 %1)
    %4 = call i64 @sub3(i64 %1, i64 %0, i64 %2)
    %5 = mul i64 %3, 1000
    %6 = add i64 %5, %4
    ret i64 %6
}
";

/// Every frame shape, the permutation and memcpy of every size run right on `target`
/// with both allocators.
pub fn frames_stack_arguments_and_memcpy_of_every_size(target: Target) {
    require_toolchain(target);
    let mut text = String::from(PRINTF_HEADER);
    let mut calls = Vec::new();
    for (k, shape) in FRAME_SHAPES.iter().enumerate() {
        text.push_str(&frame_functions(shape, 800 + 20 * k as u32));
        for (first, extra) in FRAME_CALLS.iter().zip(shape.extra_values) {
            let p: Vec<i64> = first.iter().chain(extra).copied().collect();
            let args: Vec<String> = p.iter().map(|v| format!("i64 {v}")).collect();
            let want = framed_expected(shape, &p);
            calls.push((format!("framed_{}", shape.suffix), args.join(", "), want));
        }
    }
    text.push_str(PERMUTE_FUNCTIONS);
    calls.push((
        "permute".into(),
        "i64 1, i64 2, i64 3".into(),
        312 * 1000 + 213,
    ));
    let mut block = 10_000;
    for n in [
        1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 127, 128, 129, 200, 257,
    ] {
        for (src_off, dst_off) in [(0, 0), (3, 1), (8, 5)] {
            text.push_str(&memcpy_function(n, src_off, dst_off, block));
            block += 10;
            let seed = i64::from(n) * 13 + 1;
            calls.push((
                format!("copy_{n}_{src_off}_{dst_off}"),
                format!("i64 {seed}"),
                memcpy_expected(n, src_off, dst_off, seed),
            ));
        }
    }
    let (main, expected) = main_printing(&calls);
    text.push_str(&main);
    check_printed(target, &text, &expected);
}
