//! Unit tests of the riscv64 backend's decisions, on the assembly text it writes for small
//! hand-written functions (the native tests in `tests/native_riscv64.rs` run the code).

use super::emit_module;
use crate::backend::{BackendOptions, RegallocMode};
use crate::ir::text::parse_module;
use crate::mutants::{self, Mutant};

/// The assembly of `text` with allocator `mode`.
fn asm(text: &str, mode: RegallocMode) -> String {
    let module = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let opts = BackendOptions {
        regalloc: mode,
        check_allocation: true,
    };
    emit_module(&module, &opts).unwrap_or_else(|e| panic!("{e}"))
}

/// The instruction lines of `asm` (no labels, no directives), trimmed.
fn lines(asm: &str) -> Vec<&str> {
    asm.lines()
        .filter(|l| l.starts_with('\t') && !l.starts_with("\t."))
        .map(str::trim)
        .collect()
}

#[test]
fn u32_crosses_the_abi_sign_extended_and_arrives_zero_extended() {
    let text = "declare @g(u32, i32, u8) -> u32\n\
        func @f(u32) -> u32 {\n.LBB0:\n    %0 = paramref 0, u32\n    \
        %1 = call u32 @g(u32 %0, i32 -1, u8 200)\n    ret u32 %1\n}\n";
    for mode in RegallocMode::ALL {
        let a = asm(text, mode);
        let l = lines(&a);
        // The parameter is re-read at its width, zero-extending.
        assert!(l.iter().any(|x| x.starts_with("lwu ")), "{a}");
        // The u32 argument is sign-extended just before the call; the i32 and u8 ones
        // are not touched (their canonical form is the ABI's).
        let call = l.iter().position(|x| *x == "call g").unwrap();
        assert_eq!(l[call - 1], "addiw a0, a0, 0", "{a}");
        // The result comes back zero-extended, and leaves sign-extended again.
        let r = l[call + 1]
            .strip_prefix("slli ")
            .and_then(|x| x.strip_suffix(", a0, 32"))
            .unwrap_or_else(|| panic!("{a}"));
        assert_eq!(l[call + 2], format!("srli {r}, {r}, 32"), "{a}");
        let ret = l.iter().position(|x| *x == "ret").unwrap();
        assert!(l[call + 3..ret].contains(&"addiw a0, a0, 0"), "{a}");
    }
    mutants::set_active(&[Mutant::Riscv64NarrowParamNotExtended]);
    let a = asm(text, RegallocMode::LinearScan);
    mutants::set_active(&[]);
    assert!(!lines(&a).iter().any(|x| x.starts_with("lwu ")), "{a}");
}

#[test]
fn swapped_arguments_go_through_t0() {
    let text = "declare @g(i64, i64) -> void\n\
        func @f(i64, i64) -> void {\n.LBB0:\n    %0 = paramref 0, i64\n    \
        %1 = paramref 1, i64\n    call void @g(i64 %1, i64 %0)\n    ret\n}\n";
    let a = asm(text, RegallocMode::LinearScan);
    let l = lines(&a);
    let call = l.iter().position(|x| *x == "call g").unwrap();
    // Whatever registers the allocator chose, the moves before the call must leave a0
    // with the second parameter and a1 with the first: replay them on symbols.
    let mut regs: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    let param_loads: Vec<(&str, &str)> = l
        .iter()
        .filter_map(|x| x.strip_prefix("ld "))
        .filter_map(|x| x.split_once(", "))
        .collect();
    for (r, slot) in &param_loads {
        regs.insert(r, slot.to_string());
    }
    for x in &l[..call] {
        if let Some((d, s)) = x.strip_prefix("mv ").and_then(|m| m.split_once(", ")) {
            let v = regs.get(s).cloned().unwrap_or_else(|| s.to_string());
            regs.insert(d, v);
        }
    }
    let homes: Vec<&str> = l
        .iter()
        .filter_map(|x| x.strip_prefix("sd a"))
        .filter_map(|x| x.split_once(", ").map(|(_, s)| s))
        .collect();
    // sd a0, X / sd a1, Y in the prologue: parameter 0's home is X, parameter 1's Y.
    assert_eq!(regs.get("a0").map(String::as_str), Some(homes[1]), "{a}");
    assert_eq!(regs.get("a1").map(String::as_str), Some(homes[0]), "{a}");
}

#[test]
fn frames_save_what_they_use_and_realign() {
    // Values live across a call take callee-saved registers, which the prologue saves
    // below ra and s0 (header rounded to 16) and the epilogue restores.
    let text = "declare @g() -> void\n\
        func @f(i64, i64, i64) -> i64 {\n.LBB0:\n    %0 = paramref 0, i64\n    \
        %1 = paramref 1, i64\n    %2 = paramref 2, i64\n    call void @g()\n    \
        %3 = add i64 %0, %1\n    %4 = add i64 %3, %2\n    ret i64 %4\n}\n";
    let a = asm(text, RegallocMode::LinearScan);
    let l = lines(&a);
    assert_eq!(
        &l[..4],
        [
            "addi sp, sp, -48",
            "sd ra, 40(sp)",
            "sd s0, 32(sp)",
            "addi s0, sp, 48"
        ]
    );
    for (i, s) in ["s1", "s2", "s3"].iter().enumerate() {
        let off = -24 - 8 * i as i64;
        assert!(l.contains(&format!("sd {s}, {off}(s0)").as_str()), "{a}");
        assert!(l.contains(&format!("ld {s}, {off}(s0)").as_str()), "{a}");
    }
    // A 64-aligned alloca realigns sp; a 1 MiB one needs the frame size through t6.
    let text = "func @f() -> i64 {\n.LBB0:\n    %0 = alloca i8, 8, 64\n    \
        %1 = alloca i8, 1048576, 8\n    %2 = cast ptr %0 to i64\n    ret i64 %2\n}\n";
    let a = asm(text, RegallocMode::Stack);
    let l = lines(&a);
    assert!(l.contains(&"andi sp, sp, -64"), "{a}");
    assert!(l.contains(&"add sp, sp, t6"), "{a}");
    assert!(l.contains(&"addi sp, s0, -16"), "{a}");
}

#[test]
fn divisions_test_only_what_can_trap() {
    let div = |op: &str, ty: &str, rhs: &str| {
        let text = format!(
            "func @f({ty}, {ty}) -> {ty} {{\n.LBB0:\n    %0 = paramref 0, {ty}\n    \
             %1 = paramref 1, {ty}\n    %2 = {op} {ty} %0, {rhs}\n    ret {ty} %2\n}}\n"
        );
        asm(&text, RegallocMode::LinearScan)
    };
    let branches = |a: &str| lines(a).iter().filter(|x| x.starts_with('b')).count();
    // A value divisor: the zero test and the MIN / -1 test (two branches).
    let a = div("sdiv", "i32", "%1");
    assert_eq!(branches(&a), 3, "{a}");
    assert!(a.contains("divw ") && a.contains("ecall"), "{a}");
    // Unsigned: only the zero test.
    assert_eq!(branches(&div("udiv", "u64", "%1")), 1);
    // A constant divisor other than 0 and -1: no test at all, no trap stub.
    let a = div("srem", "i16", "7");
    assert_eq!(branches(&a), 0, "{a}");
    assert!(!a.contains("ecall"), "{a}");
    // -1 (as the operation sees it: 255 is -1 to an sdiv on u8): only MIN / -1.
    assert_eq!(branches(&div("sdiv", "u8", "255")), 2);
    // The seeded bug drops the zero test.
    mutants::set_active(&[Mutant::Riscv64DivZeroNoTrap]);
    let a = div("udiv", "u64", "%1");
    mutants::set_active(&[]);
    assert_eq!(branches(&a), 0, "{a}");
}

#[test]
fn thirty_two_bit_operations_use_the_word_forms() {
    let op = |op: &str, ty: &str| {
        let text = format!(
            "func @f({ty}, {ty}) -> {ty} {{\n.LBB0:\n    %0 = paramref 0, {ty}\n    \
             %1 = paramref 1, {ty}\n    %2 = {op} {ty} %0, %1\n    ret {ty} %2\n}}\n"
        );
        asm(&text, RegallocMode::LinearScan)
    };
    assert!(op("add", "i32").contains("addw "));
    assert!(op("sub", "u32").contains("subw "));
    assert!(op("mul", "i32").contains("mulw "));
    assert!(op("lshr", "i32").contains("srlw "));
    assert!(op("ashr", "u32").contains("sraw "));
    assert!(op("add", "i64").contains("\tadd "));
    mutants::set_active(&[Mutant::Riscv64I32AddNotWord]);
    let a = op("add", "i32");
    mutants::set_active(&[]);
    assert!(!a.contains("addw ") && a.contains("\tadd "), "{a}");
}
