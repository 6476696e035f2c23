//! Checker tests: hand-built allocations, each deliberately wrong in one way (the checker
//! must reject it, with the message worked out by hand) or right in a way that a less
//! precise checker would reject (the checker must accept it).

use super::*;
use crate::backend::liveness::BlockValueSets;
use crate::backend::regalloc::test_ir::{function, i686_like, parse_post_phi_elim, x86_64_like};
use crate::backend::regalloc::{SlotShape, SpillSlot};

fn r(n: u8) -> Loc {
    Loc::Reg(PReg(n))
}

fn slot(n: u32) -> Loc {
    Loc::Spill(SpillSlot(n))
}

/// An allocation of `func` with the given locations; `used_callee_saved` is filled
/// correctly (the tests for Rule 2 change it afterwards).
fn alloc(
    func: &IrFunction,
    regs: &RegisterFile,
    locs: &[(u32, Loc)],
    spill_slots: Vec<SlotShape>,
) -> Allocation {
    let types = all_value_types(func);
    let mut table = vec![None; types.len()];
    for &(v, l) in locs {
        table[v as usize] = Some(l);
    }
    let used_callee_saved = regs
        .callee_saved
        .iter()
        .copied()
        .filter(|&c| table.contains(&Some(Loc::Reg(c))))
        .collect();
    Allocation {
        locs: table,
        types,
        spill_slots,
        used_callee_saved,
    }
}

fn rejected(func: &IrFunction, regs: &RegisterFile, a: &Allocation) -> String {
    match check(func, regs, a) {
        Ok(()) => panic!("the checker accepts a wrong allocation: {a:?}\n{func}"),
        Err(e) => e.message,
    }
}

fn accepted(func: &IrFunction, regs: &RegisterFile, a: &Allocation) {
    if let Err(e) = check(func, regs, a) {
        panic!("the checker rejects a right allocation: {e}\n{a:?}\n{func}");
    }
}

const STRAIGHT: &str = "func @f(i32) -> i32 {
    .LBB0:
        %0 = paramref 0, i32
        %1 = add i32 %0, 1
        %2 = mul i32 %1, %0
        ret i32 %2
    }";

#[test]
fn two_live_values_in_one_register_are_rejected() {
    let m = parse_post_phi_elim(STRAIGHT);
    let f = function(&m, "f");
    let regs = x86_64_like();
    let good = alloc(f, &regs, &[(0, r(3)), (1, r(12)), (2, r(3))], vec![]);
    accepted(f, &regs, &good);
    let bad = alloc(f, &regs, &[(0, r(3)), (1, r(3)), (2, r(3))], vec![]);
    assert_eq!(
        rejected(f, &regs, &bad),
        "use of %0 in block .LBB0 at `%2 = mul i32 %1, %0`: r3 holds %1"
    );
}

#[test]
fn two_live_values_in_one_spill_slot_are_rejected() {
    let m = parse_post_phi_elim(STRAIGHT);
    let f = function(&m, "f");
    let regs = x86_64_like();
    let shape = regs.slot_shape(IrType::I32);
    let good = alloc(
        f,
        &regs,
        &[(0, slot(0)), (1, slot(1)), (2, slot(0))],
        vec![shape, shape],
    );
    accepted(f, &regs, &good);
    let bad = alloc(
        f,
        &regs,
        &[(0, slot(0)), (1, slot(0)), (2, slot(0))],
        vec![shape],
    );
    assert_eq!(
        rejected(f, &regs, &bad),
        "use of %0 in block .LBB0 at `%2 = mul i32 %1, %0`: slot0 holds %1"
    );
}

const CALL: &str = "declare @g(i32) -> i32
    func @f(i32) -> i32 {
    .LBB0:
        %0 = paramref 0, i32
        %1 = add i32 %0, 1
        %2 = call i32 @g(i32 %1)
        %3 = add i32 %2, %0
        ret i32 %3
    }";

#[test]
fn a_caller_saved_register_across_a_call_is_rejected() {
    let m = parse_post_phi_elim(CALL);
    let f = function(&m, "f");
    let regs = x86_64_like();
    let good = alloc(
        f,
        &regs,
        &[(0, r(3)), (1, r(8)), (2, r(8)), (3, r(8))],
        vec![],
    );
    accepted(f, &regs, &good);
    let bad = alloc(
        f,
        &regs,
        &[(0, r(8)), (1, r(9)), (2, r(9)), (3, r(9))],
        vec![],
    );
    assert_eq!(
        rejected(f, &regs, &bad),
        "use of %0 in block .LBB0 at `%3 = add i32 %2, %0`: r8 was clobbered by \
         `%2 = call i32 @g(i32 %1)` in block .LBB0"
    );
}

#[test]
fn a_register_memcpy_clobbers_is_rejected_across_a_memcpy() {
    let m = parse_post_phi_elim(
        "func @f(ptr, ptr, i32) -> i32 {
         .LBB0:
             %0 = paramref 0, ptr
             %1 = paramref 1, ptr
             %2 = paramref 2, i32
             memcpy %0, %1, 16
             ret i32 %2
         }",
    );
    let f = function(&m, "f");
    let regs = x86_64_like(); // memcpy clobbers rcx, rsi, rdi
    let good = alloc(f, &regs, &[(0, r(6)), (1, r(7)), (2, r(8))], vec![]);
    accepted(f, &regs, &good);
    let bad = alloc(f, &regs, &[(0, r(8)), (1, r(7)), (2, r(6))], vec![]);
    assert_eq!(
        rejected(f, &regs, &bad),
        "use of %2 in block .LBB0 at `ret i32 %2`: r6 was clobbered by `memcpy %0, %1, 16` \
         in block .LBB0"
    );
}

#[test]
fn a_callee_saved_register_missing_from_used_callee_saved_is_rejected() {
    let m = parse_post_phi_elim(CALL);
    let f = function(&m, "f");
    let regs = x86_64_like();
    let mut a = alloc(
        f,
        &regs,
        &[(0, r(3)), (1, r(8)), (2, r(8)), (3, r(8))],
        vec![],
    );
    assert_eq!(a.used_callee_saved, vec![PReg(3)]);
    a.used_callee_saved.clear();
    assert_eq!(
        rejected(f, &regs, &a),
        "%0 in block .LBB0 at `%0 = paramref 0, i32`: it is in callee-saved r3 but \
         used_callee_saved does not list it"
    );
    a.used_callee_saved = vec![PReg(3), PReg(8)];
    assert_eq!(
        rejected(f, &regs, &a),
        "used_callee_saved lists r8, which is not callee-saved"
    );
    a.used_callee_saved = vec![PReg(12), PReg(3)];
    assert!(rejected(f, &regs, &a).contains("not in the register file's order"));
    // Saving more than needed is wasteful, not wrong.
    a.used_callee_saved = vec![PReg(3), PReg(12)];
    accepted(f, &regs, &a);
}

const COUNTING_LOOP: &str = "func @g(i32) -> i32 {
    .LBB0:
        %0 = paramref 0, i32
        %1 = copy i32 0
        br .LBB1
    .LBB1:
        %2 = cmp slt i32 %1, %0
        condbr %2, .LBB2, .LBB3
    .LBB2:
        %3 = add i32 %1, 1
        %1 = copy i32 %3
        br .LBB1
    .LBB3:
        ret i32 %1
    }";

#[test]
fn a_value_overwritten_on_a_back_edge_is_rejected_at_the_loop_header() {
    let m = parse_post_phi_elim(COUNTING_LOOP);
    let f = function(&m, "g");
    let regs = x86_64_like();
    // %3 overwrites %0's register in the latch; the header reads %0 on the next trip.
    let bad = alloc(
        f,
        &regs,
        &[(0, r(3)), (1, r(12)), (2, r(13)), (3, r(3))],
        vec![],
    );
    assert_eq!(
        rejected(f, &regs, &bad),
        "use of %0 in block .LBB1 at `%2 = cmp slt i32 %1, %0`: r3 does not hold %0 on every \
         path that reaches this use"
    );
}

#[test]
fn a_copy_source_and_its_destination_may_share_a_register() {
    // %3 = add %1, 1; %1 = copy %3: %1 and %3 overlap as intervals, but at run time %3
    // only ever sits in the register between the two, where %1 is dead. The checker is
    // exact and accepts.
    let m = parse_post_phi_elim(COUNTING_LOOP);
    let f = function(&m, "g");
    let regs = x86_64_like();
    let a = alloc(
        f,
        &regs,
        &[(0, r(3)), (1, r(12)), (2, r(13)), (3, r(12))],
        vec![],
    );
    accepted(f, &regs, &a);
}

#[test]
fn a_value_read_where_some_path_never_assigned_it_is_not_checked() {
    // On the path .LBB0 -> .LBB2, %1 is never assigned (the oracle's UndefinedValue), so
    // whatever r3 holds there is as good as anything.
    let m = parse_post_phi_elim(
        "func @h(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             %2 = add i32 %0, 1
             condbr %2, .LBB1, .LBB2
         .LBB1:
             %1 = copy i32 5
             br .LBB2
         .LBB2:
             ret i32 %1
         }",
    );
    let f = function(&m, "h");
    let regs = x86_64_like();
    let a = alloc(f, &regs, &[(0, r(3)), (1, r(3)), (2, r(3))], vec![]);
    accepted(f, &regs, &a);

    // Once .LBB0 assigns %1 too, %1 is definitely assigned at the `ret`, and %2 writing
    // %1's register r12 on the .LBB0 -> .LBB2 path is an error.
    let m = parse_post_phi_elim(
        "func @h(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             %1 = copy i32 0
             %2 = add i32 %0, 1
             condbr %2, .LBB1, .LBB2
         .LBB1:
             %1 = copy i32 5
             br .LBB2
         .LBB2:
             ret i32 %1
         }",
    );
    let f = function(&m, "h");
    let a = alloc(f, &regs, &[(0, r(3)), (1, r(12)), (2, r(12))], vec![]);
    assert_eq!(
        rejected(f, &regs, &a),
        "use of %1 in block .LBB2 at `ret i32 %1`: r12 does not hold %1 on every path that \
         reaches this use"
    );
}

#[test]
fn unreachable_blocks_are_not_checked() {
    let m = parse_post_phi_elim(
        "func @u(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             ret i32 %0
         .LBB1:
             %1 = add i32 %0, 1
             %2 = add i32 %0, %1
             ret i32 %2
         }",
    );
    let f = function(&m, "u");
    let regs = x86_64_like();
    let a = alloc(f, &regs, &[(0, r(3)), (1, r(3)), (2, r(3))], vec![]);
    accepted(f, &regs, &a);
}

#[test]
fn locations_must_exist_fit_and_be_allocatable() {
    let m = parse_post_phi_elim(STRAIGHT);
    let f = function(&m, "f");
    let regs = x86_64_like();
    let shape = regs.slot_shape(IrType::I32);
    let missing = alloc(f, &regs, &[(0, r(3)), (2, r(3))], vec![]);
    assert_eq!(
        rejected(f, &regs, &missing),
        "%1 in block .LBB0 at `%1 = add i32 %0, 1`: it has no location"
    );
    let scratch = alloc(f, &regs, &[(0, r(0)), (1, r(3)), (2, r(3))], vec![]);
    assert_eq!(
        rejected(f, &regs, &scratch),
        "%0 in block .LBB0 at `%0 = paramref 0, i32`: r0 is not an allocatable register"
    );
    let no_slot = alloc(f, &regs, &[(0, slot(5)), (1, r(3)), (2, r(3))], vec![shape]);
    assert_eq!(
        rejected(f, &regs, &no_slot),
        "%0 in block .LBB0 at `%0 = paramref 0, i32`: slot5 does not exist (the function has \
         1 spill slots)"
    );
    let mut wrong_type = alloc(f, &regs, &[(0, r(3)), (1, r(12)), (2, r(3))], vec![]);
    wrong_type.types[1] = Some(IrType::I8);
    assert_eq!(
        rejected(f, &regs, &wrong_type),
        "%1 in block .LBB0 at `%1 = add i32 %0, 1`: it is i32 but was allocated as i8"
    );
}

#[test]
fn stack_only_values_must_be_in_big_enough_slots() {
    let m = parse_post_phi_elim(
        "func @f(i64) -> i64 {
         .LBB0:
             %0 = paramref 0, i64
             %1 = add i64 %0, 1
             ret i64 %1
         }",
    );
    let f = function(&m, "f");
    let regs = i686_like();
    let wide = SlotShape { size: 8, align: 4 };
    let good = alloc(f, &regs, &[(0, slot(0)), (1, slot(0))], vec![wide]);
    accepted(f, &regs, &good);
    let in_reg = alloc(f, &regs, &[(0, r(3)), (1, slot(0))], vec![wide]);
    assert_eq!(
        rejected(f, &regs, &in_reg),
        "%0 in block .LBB0 at `%0 = paramref 0, i64`: i64 is stack-only but it is in r3"
    );
    let narrow = SlotShape { size: 4, align: 4 };
    let small = alloc(f, &regs, &[(0, slot(0)), (1, slot(0))], vec![narrow]);
    assert_eq!(
        rejected(f, &regs, &small),
        "%0 in block .LBB0 at `%0 = paramref 0, i64`: slot0 (4 bytes, align 4) is too small \
         for i64 (8 bytes, align 4)"
    );
}

#[test]
fn unsound_liveness_is_an_error_not_a_blind_spot() {
    let m = parse_post_phi_elim(COUNTING_LOOP);
    let f = function(&m, "g");
    let labels = build_label_map(f);
    let (_, succs) = build_cfg(f, &labels);
    let rpo = compute_reverse_postorder(f.blocks.len(), &succs);
    let live = |pairs: &[(u32, u32)]| {
        let pairs: Vec<(u32, Value)> = pairs.iter().map(|&(b, v)| (b, Value(v))).collect();
        BlockValueSets::from_pairs(f.blocks.len(), &pairs)
    };
    // The true live-in sets: .LBB1 {%0, %1}, .LBB2 {%0, %1}, .LBB3 {%1}.
    let right = live(&[(1, 0), (1, 1), (2, 0), (2, 1), (3, 1)]);
    assert_eq!(right, live_sets(f).live_in);
    assert!(check_liveness_is_sound(f, &succs, &rpo, &right).is_ok());
    // A superset is sound too.
    let more = live(&[(0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]);
    assert!(check_liveness_is_sound(f, &succs, &rpo, &more).is_ok());
    let no_read = live(&[(1, 1), (2, 0), (2, 1), (3, 1)]);
    assert_eq!(
        check_liveness_is_sound(f, &succs, &rpo, &no_read).map_err(|e| e.message),
        Err(
            "%0 in block .LBB1 at `%2 = cmp slt i32 %1, %0`: it is read before any assignment \
             in the block, but the liveness the checker relies on does not have it live-in"
                .to_string()
        )
    );
    let no_through = live(&[(1, 0), (1, 1), (2, 1), (3, 1)]);
    assert_eq!(
        check_liveness_is_sound(f, &succs, &rpo, &no_through).map_err(|e| e.message),
        Err(
            "%0 in block .LBB2 at `br .LBB1`: it is live into successor .LBB1 and not \
             assigned in the block, but the liveness the checker relies on does not have it \
             live-in"
                .to_string()
        )
    );
}

#[test]
fn a_check_error_becomes_a_checker_failure_of_the_backend() {
    let m = parse_post_phi_elim(STRAIGHT);
    let f = function(&m, "f");
    let regs = x86_64_like();
    let bad = alloc(f, &regs, &[(0, r(3)), (1, r(3)), (2, r(3))], vec![]);
    let err = check(f, &regs, &bad)
        .expect_err("rejected")
        .into_backend_error(Target::X86_64, f);
    assert!(err.is_checker_failure());
    assert_eq!(err.function, "f");
    assert_eq!(err.inst.as_deref(), Some("%2 = mul i32 %1, %0"));
    assert_eq!(
        err.message,
        "regalloc checker: use of %0 in block .LBB0 at `%2 = mul i32 %1, %0`: r3 holds %1"
    );
}
