//! Linear-scan corner cases. Expected locations are worked out by hand from the
//! intervals (instruction k: use point 2k, def point 2k+1) and the scan's rules; every
//! allocation is also run through the checker.

use super::*;
use crate::backend::regalloc::test_ir::{
    corpus_post_phi_elim, function, i686_like, parse_post_phi_elim, through_pipeline, two_regs,
    x86_64_like,
};
use crate::backend::regalloc::{check, SlotShape};
use crate::backend::RegallocMode;
use crate::mutants::set_active;

const R8: Loc = Loc::Reg(PReg(8));
const RBX: Loc = Loc::Reg(PReg(3));
const EBX: Loc = Loc::Reg(PReg(3));
const ESI: Loc = Loc::Reg(PReg(6));
const EDI: Loc = Loc::Reg(PReg(7));

fn slot(n: u32) -> Loc {
    Loc::Spill(SpillSlot(n))
}

/// Allocates `@name` of `src` (post-phi-elim text) and requires the checker to accept.
fn allocated(src: &str, name: &str, regs: &RegisterFile) -> Allocation {
    let m = parse_post_phi_elim(src);
    let f = function(&m, name);
    let alloc = allocate(f, regs);
    if let Err(e) = check(f, regs, &alloc) {
        panic!("checker rejects the linear-scan allocation: {e}\n{alloc:?}");
    }
    alloc
}

fn loc(a: &Allocation, v: u32) -> Loc {
    a.loc(Value(v))
}

#[test]
fn a_value_live_across_a_call_takes_a_callee_saved_register() {
    // two_regs prefers r8 (caller-saved) over rbx (callee-saved).
    let src = "declare @g(i32) -> i32
        func @f(i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i32
            %1 = add i32 %0, 1
            %2 = call i32 @g(i32 %1)
            %3 = add i32 %2, %0
            ret i32 %3
        }";
    let a = allocated(src, "f", &two_regs());
    // %0 crosses the call: rbx. %1 dies at the call and %2, %3 start after it: r8.
    assert_eq!(loc(&a, 0), RBX);
    assert_eq!(loc(&a, 1), R8);
    assert_eq!(loc(&a, 2), R8);
    assert_eq!(loc(&a, 3), R8);
    assert_eq!(a.used_callee_saved, vec![PReg(3)]);
    assert!(a.spill_slots.is_empty());

    // With no callee-saved register to take, the value goes to a slot.
    let mut caller_saved_only = two_regs();
    caller_saved_only.allocatable = vec![PReg(8), PReg(9)];
    let a = allocated(src, "f", &caller_saved_only);
    assert_eq!(loc(&a, 0), slot(0));
    assert_eq!(loc(&a, 1), R8);
    assert!(a.used_callee_saved.is_empty());
}

#[test]
fn a_value_live_across_a_memcpy_avoids_what_memcpy_clobbers() {
    let src = "func @f(ptr, ptr, i32) -> i32 {
        .LBB0:
            %0 = paramref 0, ptr
            %1 = paramref 1, ptr
            %2 = paramref 2, i32
            memcpy %0, %1, 16
            ret i32 %2
        }";
    let mut regs = two_regs();
    regs.allocatable = vec![PReg(6), PReg(7), PReg(3)];
    regs.memcpy_clobbers = vec![PReg(6)];
    let a = allocated(src, "f", &regs);
    // %0 and %1 die at the memcpy and take rsi, rdi; %2 crosses it: not rsi, so rbx.
    assert_eq!(loc(&a, 0), Loc::Reg(PReg(6)));
    assert_eq!(loc(&a, 1), Loc::Reg(PReg(7)));
    assert_eq!(loc(&a, 2), RBX);
}

#[test]
fn pressure_beyond_the_register_count_spills_the_interval_ending_furthest() {
    // Four values live at once, two registers. Intervals: %0 [1,14], %1 [3,12],
    // %2 [5,10], %3 [7,8], %4 [9,10], %5 [11,12], %6 [13,14], %7 [15,16].
    let src = "func @f(i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i32
            %1 = add i32 %0, 1
            %2 = add i32 %0, 2
            %3 = add i32 %0, 3
            %4 = add i32 %3, %3
            %5 = add i32 %4, %2
            %6 = add i32 %5, %1
            %7 = add i32 %6, %0
            ret i32 %7
        }";
    let a = allocated(src, "f", &two_regs());
    // %0 -> r8, %1 -> rbx; %2: none free, %0 ends furthest (14 > 10): %0 to slot 0, %2
    // takes r8; %3: none free, %1 ends furthest (12 > 8): %1 to a new slot (slot 0 is
    // still %0's), %3 takes rbx; %4 starts at 9 after %3 ends at 8: rbx; then %5, %6, %7
    // each take the first free register, r8, once %2 (and then the others) end.
    assert_eq!(loc(&a, 0), slot(0));
    assert_eq!(loc(&a, 1), slot(1));
    assert_eq!(loc(&a, 2), R8);
    assert_eq!(loc(&a, 3), RBX);
    assert_eq!(loc(&a, 4), RBX);
    assert_eq!(loc(&a, 5), R8);
    assert_eq!(loc(&a, 6), R8);
    assert_eq!(loc(&a, 7), R8);
    assert_eq!(a.spill_slots.len(), 2);
    assert_eq!(a.used_callee_saved, vec![PReg(3)]);
}

#[test]
fn a_value_assigned_on_two_paths_keeps_one_location() {
    // %3 is assigned in both arms of a diamond and read at the join; %1 and %2 are live
    // in one arm each.
    let src = "func @f(i32, i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i32
            %4 = paramref 1, i32
            condbr %0, .LBB1, .LBB2
        .LBB1:
            %1 = add i32 %0, 1
            %3 = copy i32 %1
            br .LBB3
        .LBB2:
            %2 = add i32 %4, 2
            %3 = copy i32 %2
            br .LBB3
        .LBB3:
            %5 = add i32 %3, %4
            ret i32 %5
        }";
    let a = allocated(src, "f", &x86_64_like());
    // Positions: .LBB0 0..=2, .LBB1 3..=5, .LBB2 6..=8, .LBB3 9..=10. Intervals: %0 [1,6],
    // %4 [3,18], %1 [7,8], %3 [9,18] (from its first assignment to the join's read),
    // %2 [13,14], %5 [19,20]. %3 overlaps %2 and %4 and must not share their registers.
    // rbx: %0, then %1 (7 > 6), then %3 (9 > 8); r12: %4; r13: %2; %5: rbx again.
    assert_eq!(loc(&a, 0), Loc::Reg(PReg(3)));
    assert_eq!(loc(&a, 4), Loc::Reg(PReg(12)));
    assert_eq!(loc(&a, 1), Loc::Reg(PReg(3)));
    assert_eq!(loc(&a, 3), Loc::Reg(PReg(3)));
    assert_eq!(loc(&a, 2), Loc::Reg(PReg(13)));
    assert_eq!(loc(&a, 5), Loc::Reg(PReg(3)));
}

#[test]
fn a_copy_chain_stays_in_one_register() {
    // Each value dies at the copy that defines the next one.
    let src = "func @f(i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i32
            %1 = copy i32 %0
            %2 = copy i32 %1
            %3 = copy i32 %2
            ret i32 %3
        }";
    let a = allocated(src, "f", &two_regs());
    for v in 0..4 {
        assert_eq!(loc(&a, v), R8, "%{v}");
    }
    assert!(a.used_callee_saved.is_empty());
}

#[test]
fn a_value_read_before_assignment_on_some_path_still_gets_one_location() {
    let src = "func @h(i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i32
            condbr %0, .LBB1, .LBB2
        .LBB1:
            %1 = copy i32 5
            br .LBB2
        .LBB2:
            ret i32 %1
        }";
    let a = allocated(src, "h", &two_regs());
    // %1 is live from the entry's first position ([0,8]) and starts first: r8; %0 [1,2]
    // overlaps it: rbx.
    assert_eq!(loc(&a, 1), R8);
    assert_eq!(loc(&a, 0), RBX);
}

#[test]
fn stack_only_values_get_slots_and_dead_slots_are_reused() {
    // i686: i64 is stack-only (slot of 8 bytes, align 4); three registers.
    // Intervals: %0 [1,4], %1 [3,18], %2 [5,12], %3 [7,12], %4 [9,14], %5 [11,16].
    let src = "func @f(i64, i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i64
            %1 = paramref 1, i32
            %2 = cast i64 %0 to i32
            %3 = add i32 %1, 1
            %4 = add i32 %1, 2
            %5 = add i32 %1, 3
            %6 = add i32 %2, %3
            %7 = add i32 %6, %4
            %8 = add i32 %7, %5
            %9 = add i32 %8, %1
            ret i32 %9
        }";
    let a = allocated(src, "f", &i686_like());
    // %0 -> slot 0 (freed after 4). %1 ebx, %2 esi, %3 edi. %4: %1 ends furthest (18 >
    // 14): %1 is spilled for its whole interval [3,18], which overlaps slot 0's %0 [1,4],
    // so it gets a new 4-byte slot 1; %4 takes ebx. %5: %4 ends at 14 < 16: %5 is spilled
    // and, starting at 11 after %0 ended, reuses the larger slot 0.
    assert_eq!(loc(&a, 0), slot(0));
    assert_eq!(loc(&a, 1), slot(1));
    assert_eq!(loc(&a, 2), ESI);
    assert_eq!(loc(&a, 3), EDI);
    assert_eq!(loc(&a, 4), EBX);
    assert_eq!(loc(&a, 5), slot(0));
    assert_eq!(
        a.spill_slots,
        vec![
            SlotShape { size: 8, align: 4 },
            SlotShape { size: 4, align: 4 }
        ]
    );
    assert_eq!(a.used_callee_saved, vec![PReg(3), PReg(6), PReg(7)]);
}

#[test]
fn the_shared_spill_slot_mutant_is_caught_by_the_checker() {
    let src = "func @f(i64, i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i64
            %1 = paramref 1, i32
            %2 = cast i64 %0 to i32
            %3 = add i32 %1, 1
            %4 = add i32 %1, 2
            %5 = add i32 %1, 3
            %6 = add i32 %2, %3
            %7 = add i32 %6, %4
            %8 = add i32 %7, %5
            %9 = add i32 %8, %1
            ret i32 %9
        }";
    let m = parse_post_phi_elim(src);
    let f = function(&m, "f");
    set_active(&[Mutant::RegallocSharedSpillSlot]);
    let a = allocate(f, &i686_like());
    set_active(&[]);
    // %1 is spilled into %0's slot while %0 is live (it is read at position 4).
    assert_eq!(loc(&a, 1), slot(0));
    let err = check(f, &i686_like(), &a).expect_err("the checker rejects a shared live slot");
    assert_eq!(
        err.message,
        "use of %0 in block .LBB0 at `%2 = cast i64 %0 to i32`: slot0 holds %1"
    );
}

#[test]
fn values_in_unreachable_blocks_get_locations() {
    let src = "func @u(i32) -> i32 {
        .LBB0:
            %0 = paramref 0, i32
            ret i32 %0
        .LBB1:
            %1 = add i32 %0, 1
            br .LBB2
        .LBB2:
            ret i32 %1
        }";
    let a = allocated(src, "u", &two_regs());
    // %0 [1,4] r8; %1 [5,8] r8 again.
    assert_eq!(loc(&a, 0), R8);
    assert_eq!(loc(&a, 1), R8);
}

/// Share of the values that got a register, over a set of functions.
fn register_share(funcs: &[&IrFunction], regs: &RegisterFile) -> f64 {
    let (mut in_regs, mut total) = (0usize, 0usize);
    for f in funcs {
        let a = allocate(f, regs);
        for l in a.locs.iter().flatten() {
            total += 1;
            in_regs += matches!(l, Loc::Reg(_)) as usize;
        }
    }
    in_regs as f64 / total.max(1) as f64
}

#[test]
fn the_corpus_allocates_and_checks_with_both_allocators_on_every_register_file() {
    let corpus = corpus_post_phi_elim();
    let funcs: Vec<&IrFunction> = corpus.iter().flat_map(|(_, m)| &m.functions).collect();
    for regs in [x86_64_like(), i686_like(), two_regs()] {
        for (name, m) in &corpus {
            for f in &m.functions {
                for mode in RegallocMode::ALL {
                    let a = crate::backend::regalloc::allocate(f, &regs, mode);
                    if let Err(e) = check(f, &regs, &a) {
                        panic!("{name} @{} {mode:?}: {e}", f.name);
                    }
                }
            }
        }
    }
    // The corpus functions are small: x86-64's ten registers hold almost everything.
    let share = register_share(&funcs, &x86_64_like());
    assert!(
        share > 0.9,
        "only {:.0}% of values in registers",
        share * 100.0
    );
}

#[test]
fn a_loop_through_the_pipeline_allocates_and_checks() {
    // A loop with a call in it, from SSA through the pipeline: phi elimination's copies
    // and a loop-carried value live across the call.
    let m = through_pipeline(
        "declare @g(i32) -> i32
         func @f(i32) -> i32 {
         .LBB0:
             %0 = paramref 0, i32
             br .LBB1
         .LBB1:
             %1 = phi i32 [0, .LBB0], [%4, .LBB1]
             %2 = phi i32 [0, .LBB0], [%3, .LBB1]
             %3 = call i32 @g(i32 %2)
             %4 = add i32 %1, %3
             %5 = cmp slt i32 %3, %0
             condbr %5, .LBB1, .LBB2
         .LBB2:
             ret i32 %4
         }",
    );
    let f = function(&m, "f");
    for regs in [x86_64_like(), i686_like(), two_regs()] {
        let a = allocate(f, &regs);
        check(f, &regs, &a).unwrap_or_else(|e| panic!("{e}\n{f}"));
        // %0 is read after every call: it must be in a callee-saved register or a slot.
        match a.loc(Value(0)) {
            Loc::Reg(r) => assert!(!regs.call_clobbers.contains(&r)),
            Loc::Spill(_) => {}
        }
    }
}
