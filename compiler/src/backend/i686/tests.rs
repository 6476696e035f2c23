//! Unit tests of the i686 backend's decisions that a run of the corpus may not reach:
//! hand-made allocations (registers the stack allocator never uses, a 64-bit value
//! wrongly given a register), the frame's alignment arithmetic, parameter offsets.
//! Expected values are worked out by hand from the i386 System V ABI.

use super::abi::Frame;
use super::function_text;
use crate::backend::regalloc::{Allocation, Loc, PReg, SlotShape, SpillSlot};
use crate::backend::x86::Reg;
use crate::ir::text::parse_module;
use crate::ir::{IrFunction, IrType};

fn function(text: &str) -> IrFunction {
    let mut m = parse_module(text).expect("test IR parses");
    m.functions.remove(0)
}

/// An allocation giving value `i` the location `locs[i]` (a register or a 4-byte slot)
/// at type `types[i]`.
fn allocation(locs: &[Loc], types: &[IrType], used_callee_saved: &[Reg]) -> Allocation {
    let slots = locs
        .iter()
        .filter_map(|l| match l {
            Loc::Spill(s) => Some(s.0 + 1),
            Loc::Reg(_) => None,
        })
        .max()
        .unwrap_or(0);
    Allocation {
        locs: locs.iter().map(|l| Some(*l)).collect(),
        types: types.iter().map(|t| Some(*t)).collect(),
        spill_slots: vec![SlotShape { size: 8, align: 4 }; slots as usize],
        used_callee_saved: used_callee_saved.iter().map(|r| r.preg()).collect(),
    }
}

fn reg(r: Reg) -> Loc {
    Loc::Reg(PReg(r as u8))
}

fn text(func: &IrFunction, alloc: &Allocation) -> String {
    let mut out = String::new();
    function_text(func, 0, alloc, &mut out).expect("selection succeeds");
    out
}

#[test]
fn a_byte_in_esi_is_stored_through_a_register_with_a_byte_name() {
    let f = function(
        "func @f(i8, ptr) -> void {\n.LBB0:\n    %0 = paramref 0, i8\n    %1 = paramref 1, ptr\n    store i8 %0, %1\n    ret\n}\n",
    );
    let a = allocation(
        &[reg(Reg::Rsi), reg(Reg::Rdi)],
        &[IrType::I8, IrType::Ptr],
        &[Reg::Rsi, Reg::Rdi],
    );
    let asm = text(&f, &a);
    assert!(!asm.contains("%sil") && !asm.contains("%dil"), "{asm}");
    assert!(
        asm.contains("\tmovl %esi, %ecx\n\tmovb %cl, (%edi)\n"),
        "{asm}"
    );
    // The parameter is re-extended from its low byte on arrival.
    assert!(
        asm.contains("\tmovsbl 8(%ebp), %eax\n\tmovl %eax, %esi\n"),
        "{asm}"
    );
    // Both callee-saved registers are saved and restored in reverse order.
    assert!(asm.contains("\tpushl %esi\n\tpushl %edi\n"), "{asm}");
    assert!(
        asm.contains("\tpopl %edi\n\tpopl %esi\n\tpopl %ebp\n\tret\n"),
        "{asm}"
    );
}

#[test]
fn a_byte_comparison_with_edi_goes_through_ecx() {
    let f = function(
        "func @f(i8, i8) -> i8 {\n.LBB0:\n    %0 = paramref 0, i8\n    %1 = paramref 1, i8\n    %2 = cmp ult i8 %0, %1\n    ret i8 %2\n}\n",
    );
    let a = allocation(
        &[reg(Reg::Rbx), reg(Reg::Rdi), reg(Reg::Rsi)],
        &[IrType::I8, IrType::I8, IrType::I8],
        &[Reg::Rbx, Reg::Rsi, Reg::Rdi],
    );
    let asm = text(&f, &a);
    assert!(
        asm.contains("\tmovl %ebx, %eax\n\tmovl %edi, %ecx\n\tcmpb %cl, %al\n\tsetb %al\n"),
        "{asm}"
    );
}

#[test]
fn a_64_bit_value_in_a_register_is_an_error_not_a_panic() {
    let f =
        function("func @f(i64) -> i64 {\n.LBB0:\n    %0 = paramref 0, i64\n    ret i64 %0\n}\n");
    let a = allocation(&[reg(Reg::Rbx)], &[IrType::I64], &[Reg::Rbx]);
    let mut out = String::new();
    let err = function_text(&f, 0, &a, &mut out).expect_err("a register pair is refused");
    assert!(err.message.contains("stack slot"), "{err}");
}

#[test]
fn esp_is_16_aligned_after_the_prologue_for_any_number_of_saves() {
    let f = function(
        "declare @g(i32) -> void\nfunc @f() -> void {\n.LBB0:\n    %0 = alloca i8, 3, 1\n    call void @g(i32 1)\n    ret\n}\n",
    );
    let saves = [Reg::Rbx, Reg::Rsi, Reg::Rdi];
    for k in 0..=3 {
        let a = allocation(&[reg(Reg::Rbx)], &[IrType::Ptr], &saves[..k]);
        let frame = Frame::new(&f, &a).expect("frame");
        assert_eq!(frame.realign, None);
        // At entry %esp = 12 (mod 16); then ebp, k saves and the subtraction.
        let below_entry = 4 + 4 * k as u32 + frame.sub;
        assert_eq!(
            (12 + 16 - below_entry % 16) % 16,
            0,
            "{k} saves: sub {}",
            frame.sub
        );
        // The outgoing word, the alloca and nothing more: at most one 16-byte unit of
        // slack beyond the alignment padding.
        assert!(frame.sub <= 48, "{k} saves: sub {}", frame.sub);
    }
}

#[test]
fn an_over_aligned_alloca_realigns_the_frame() {
    let f = function(
        "func @f() -> void {\n.LBB0:\n    %0 = alloca i8, 100, 64\n    %1 = alloca i32, 4, 4\n    ret\n}\n",
    );
    let a = allocation(
        &[Loc::Spill(SpillSlot(0)), Loc::Spill(SpillSlot(1))],
        &[IrType::Ptr, IrType::Ptr],
        &[],
    );
    let frame = Frame::new(&f, &a).expect("frame");
    assert_eq!(frame.realign, Some(64));
    assert_eq!(frame.sub % 64, 0);
    let slot = frame
        .alloca_mem(crate::ir::Value(0))
        .expect("the alloca has a slot");
    assert_eq!(slot.disp % 64, 0);
    let asm = text(&f, &a);
    assert!(asm.contains("\tandl $-64, %esp\n"), "{asm}");
    // The epilogue restores %esp from %ebp, whatever the realignment did.
    assert!(
        asm.contains("\tleal (%ebp), %esp\n\tpopl %ebp\n\tret\n"),
        "{asm}"
    );
}

#[test]
fn parameters_are_at_8_of_ebp_with_8_bytes_for_64_bit_ones() {
    let f = function("func @f(i32, i64, i8, u64, ptr) -> void {\n.LBB0:\n    ret\n}\n");
    let a = allocation(&[], &[], &[]);
    let frame = Frame::new(&f, &a).expect("frame");
    let offsets: Vec<i64> = (0..5)
        .map(|i| frame.param_mem(i).expect("parameter").disp)
        .collect();
    assert_eq!(offsets, vec![8, 12, 20, 24, 32]);
    assert!(frame.param_mem(5).is_none());
}

#[test]
fn a_comparison_feeding_the_branch_is_not_tested_again() {
    let f = function(
        "func @f(u32) -> i32 {\n.LBB0:\n    %0 = paramref 0, u32\n    %1 = cmp ugt u32 %0, 7\n    condbr %1, .LBB1, .LBB2\n.LBB1:\n    ret i32 1\n.LBB2:\n    ret i32 2\n}\n",
    );
    let a = allocation(
        &[reg(Reg::Rbx), Loc::Spill(SpillSlot(0))],
        &[IrType::U32, IrType::I8],
        &[Reg::Rbx],
    );
    let asm = text(&f, &a);
    // Only the branch reads %1: it is never materialised. .LBB1 follows, so the branch
    // goes to .LBB2 when the comparison is false (unsigned: be).
    assert!(asm.contains("\tcmpl $7, %eax\n\tjbe .LBB2\n"), "{asm}");
    assert!(!asm.contains("seta"), "{asm}");
}

#[test]
fn a_comparison_read_again_is_materialised_and_still_branched_on() {
    let f = function(
        "func @f(u32) -> i8 {\n.LBB0:\n    %0 = paramref 0, u32\n    %1 = cmp ugt u32 %0, 7\n    condbr %1, .LBB1, .LBB2\n.LBB1:\n    ret i8 %1\n.LBB2:\n    ret i8 2\n}\n",
    );
    let a = allocation(
        &[reg(Reg::Rbx), Loc::Spill(SpillSlot(0))],
        &[IrType::U32, IrType::I8],
        &[Reg::Rbx],
    );
    let asm = text(&f, &a);
    // setcc, movzbl and movl leave the flags alone: the branch uses them directly.
    assert!(
        asm.contains(
            "\tcmpl $7, %eax\n\tseta %al\n\tmovzbl %al, %eax\n\tmovl %eax, (%esp)\n\tjbe .LBB2\n"
        ),
        "{asm}"
    );
}

#[test]
fn an_alloca_outside_the_entry_block_is_an_error() {
    let f = function(
        "func @f() -> void {\n.LBB0:\n    br .LBB1\n.LBB1:\n    %0 = alloca i32, 4, 4\n    ret\n}\n",
    );
    let a = allocation(&[Loc::Spill(SpillSlot(0))], &[IrType::Ptr], &[]);
    let err = Frame::new(&f, &a).expect_err("refused");
    assert!(err.message.contains("entry block"), "{err}");
    assert!(err.inst.is_some());
}
