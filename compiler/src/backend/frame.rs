//! Stack frame layout: where allocas, spill slots and target-specific slots (saved
//! registers, parameter homes) live, as offsets from the stack pointer.
//!
//! Why it exists: every target lays out a fixed-size frame the same way; only the
//! prologue that creates it is the target's. All four backends address their locals
//! from the stack pointer (incoming stack arguments from the frame pointer), so a frame
//! is a list of slots above an outgoing-argument area (a function with dynamic stack
//! allocation addresses the same slots from the frame pointer: `dynamic_stack.rs`):
//! ```text
//!   frame pointer ->  (saved frame pointer, return address: the target's business)
//!                     [padding to the frame's alignment]
//!                     slot k-1 ... slot 0
//!   sp + outgoing ->
//!                     outgoing stack arguments of the largest call
//!   sp (aligned) ->
//! ```
//!
//! Invariants: every slot's offset is a multiple of its alignment, slots never overlap,
//! none overlaps the outgoing area; `size` is a multiple of the stack alignment, so
//! `sp - size` keeps sp aligned; `max_align` is the largest slot alignment — a frame whose
//! `max_align` exceeds what the ABI guarantees at function entry needs the prologue to
//! realign sp (`and $-A, %rsp`).

use super::regalloc::SlotShape;

/// A frame's slots at their offsets from the (aligned) stack pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameLayout {
    /// Offset of slot `i` from sp, in the order the slots were given.
    pub offsets: Vec<u32>,
    /// Bytes to subtract from sp (slots, outgoing area and padding).
    pub size: u32,
    /// The largest alignment any slot asked for (at least `stack_align`).
    pub max_align: u32,
    /// Bytes of the outgoing-argument area at the bottom (where dynamic stack objects
    /// start above, `dynamic_stack.rs`).
    pub outgoing: u32,
}

impl FrameLayout {
    /// Offset of slot `i` from sp.
    pub fn offset(&self, i: usize) -> u32 {
        self.offsets[i]
    }
}

/// Lays out `slots` above an outgoing-argument area of `outgoing` bytes; the frame size is
/// rounded up to `stack_align`. Larger slots first, so padding stays small.
pub fn layout(slots: &[SlotShape], outgoing: u32, stack_align: u32) -> FrameLayout {
    let mut order: Vec<usize> = (0..slots.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse((slots[i].align, slots[i].size)));
    let mut offsets = vec![0; slots.len()];
    let mut top = u64::from(outgoing);
    let mut max_align = stack_align.max(1);
    for i in order {
        let align = u64::from(slots[i].align.max(1));
        top = top.div_ceil(align) * align;
        offsets[i] = u32::try_from(top).expect("frame larger than 4 GiB");
        top += u64::from(slots[i].size);
        max_align = max_align.max(slots[i].align);
    }
    let stack_align = u64::from(stack_align.max(1));
    let size = top.div_ceil(stack_align) * stack_align;
    FrameLayout {
        offsets,
        size: u32::try_from(size).expect("frame larger than 4 GiB"),
        max_align,
        outgoing,
    }
}

/// What a 64-bit target's frame holds, and the limits its encodings set.
pub struct FrameRules {
    pub target: crate::target::Target,
    /// Registers that carry the first integer arguments (more go on the stack, 8 bytes
    /// each).
    pub arg_regs: usize,
    /// Largest frame the target's sp-relative addressing reaches, in bytes.
    pub max_frame: u64,
    /// Largest alloca alignment the prologue's realignment supports.
    pub max_align: u32,
    /// The ABI's stack alignment at calls.
    pub stack_align: u32,
}

/// A function's frame slots, laid out: allocas (in order), then spill slots, then an
/// 8-byte home for each register parameter a `paramref` reads.
pub struct FrameSlots {
    pub layout: FrameLayout,
    /// The slot of each alloca's value.
    pub alloca_slots: rustc_hash::FxHashMap<crate::ir::Value, usize>,
    /// The slot of spill slot 0 (spill slots follow in order).
    pub spill_base: usize,
    /// The slot of the home of register parameter `i`, if a `paramref` reads it.
    pub homes: Vec<Option<usize>>,
}

/// Collects and lays out the frame of `func` under allocation `alloc` for a 64-bit
/// target: every alloca is in the entry block, power-of-two aligned and within the
/// target's limits (else a `BackendError` naming it); the outgoing area holds the stack
/// arguments of the largest call.
pub fn collect_slots(
    func: &crate::ir::IrFunction,
    alloc: &super::regalloc::Allocation,
    rules: &FrameRules,
) -> Result<FrameSlots, super::BackendError> {
    collect_slots_with_register_params(func, alloc, rules, &vec![true; rules.arg_regs])
}

/// [`collect_slots`] for a target whose parameters do not simply take the first
/// `arg_regs` positions (x86-64 with floats: integer and vector registers are counted
/// apart): `in_register[i]` says whether parameter `i` arrives in a register and so needs
/// a home when a `paramref` reads it. `rules.arg_regs` still bounds the outgoing area (a
/// call's stack arguments are at most its arguments beyond the first `arg_regs`).
pub fn collect_slots_with_register_params(
    func: &crate::ir::IrFunction,
    alloc: &super::regalloc::Allocation,
    rules: &FrameRules,
    in_register: &[bool],
) -> Result<FrameSlots, super::BackendError> {
    let stack_slots = |inst: &crate::ir::Inst| match inst {
        crate::ir::Inst::Call { args, .. } => args.len().saturating_sub(rules.arg_regs),
        _ => 0,
    };
    collect_slots_with(func, alloc, rules, in_register, &stack_slots)
}

/// [`collect_slots`] for a target whose argument registers do not follow the argument's
/// position alone (separate float argument registers): `in_register[i]` says whether
/// parameter `i` arrives in a register (it gets a home when a `paramref` reads it; a
/// parameter beyond the slice never does), and `stack_slots(call)` how many 8-byte
/// outgoing stack slots a call's arguments take.
pub fn collect_slots_with(
    func: &crate::ir::IrFunction,
    alloc: &super::regalloc::Allocation,
    rules: &FrameRules,
    in_register: &[bool],
    stack_slots: &dyn Fn(&crate::ir::Inst) -> usize,
) -> Result<FrameSlots, super::BackendError> {
    use crate::ir::Inst;
    let error = |inst: Option<&Inst>, message: String| {
        super::BackendError::new(rules.target, func, inst, message)
    };
    let mut slots: Vec<SlotShape> = Vec::new();
    let mut alloca_slots = rustc_hash::FxHashMap::default();
    let mut outgoing_args = 0usize;
    let mut referenced_params = vec![false; in_register.len()];
    for (b, block) in func.blocks.iter().enumerate() {
        for inst in &block.insts {
            match inst {
                Inst::Alloca {
                    dest, size, align, ..
                } => {
                    if b != 0 {
                        return Err(error(
                            Some(inst),
                            "alloca outside the entry block (the frame has a fixed size)".into(),
                        ));
                    }
                    if !align.is_power_of_two() {
                        return Err(error(
                            Some(inst),
                            format!("alloca alignment {align} is not a power of two"),
                        ));
                    }
                    if u64::from(*size) > rules.max_frame || *align > rules.max_align {
                        return Err(error(Some(inst), "alloca too large for a frame".into()));
                    }
                    if alloca_slots.insert(*dest, slots.len()).is_some() {
                        return Err(error(
                            Some(inst),
                            format!("{dest} is defined by two allocas"),
                        ));
                    }
                    slots.push(SlotShape {
                        size: (*size).max(1),
                        align: (*align).max(1),
                    });
                }
                Inst::ParamRef { index, .. } => {
                    if let Some(r) = referenced_params.get_mut(*index as usize) {
                        *r = true;
                    }
                }
                Inst::Call { .. } => {
                    outgoing_args = outgoing_args.max(stack_slots(inst));
                }
                _ => {}
            }
        }
    }
    let spill_base = slots.len();
    slots.extend(alloc.spill_slots.iter().copied());
    let mut homes = vec![None; in_register.len()];
    for (i, referenced) in referenced_params.iter().enumerate() {
        if *referenced && in_register[i] {
            homes[i] = Some(slots.len());
            slots.push(SlotShape { size: 8, align: 8 });
        }
    }
    let total: u64 = slots
        .iter()
        .map(|s| u64::from(s.size) + u64::from(s.align))
        .sum::<u64>()
        + 8 * outgoing_args as u64;
    if total > rules.max_frame {
        return Err(error(None, format!("frame of {total} bytes is too large")));
    }
    let outgoing = super::dynamic_stack::outgoing_bytes(func, 8 * outgoing_args as u32);
    Ok(FrameSlots {
        layout: layout(&slots, outgoing, rules.stack_align),
        alloca_slots,
        spill_base,
        homes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(size: u32, align: u32) -> SlotShape {
        SlotShape { size, align }
    }

    #[test]
    fn slots_are_aligned_disjoint_and_above_the_outgoing_area() {
        let slots = [
            shape(1, 1),
            shape(8, 8),
            shape(12, 4),
            shape(64, 32),
            shape(3, 1),
        ];
        let f = layout(&slots, 24, 16);
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for (i, s) in slots.iter().enumerate() {
            let o = f.offset(i);
            assert_eq!(o % s.align, 0, "slot {i} misaligned at {o}");
            assert!(o >= 24, "slot {i} overlaps the outgoing area");
            assert!(o + s.size <= f.size);
            for &(a, b) in &ranges {
                assert!(o + s.size <= a || b <= o, "slot {i} overlaps [{a},{b})");
            }
            ranges.push((o, o + s.size));
        }
        assert_eq!(f.size % 16, 0);
        assert_eq!(f.max_align, 32);
    }

    #[test]
    fn an_empty_frame_is_the_outgoing_area_rounded() {
        let f = layout(&[], 20, 16);
        assert_eq!(f.size, 32);
        assert_eq!(f.max_align, 16);
    }
}
