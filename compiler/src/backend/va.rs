//! `va_arg`, `va_copy` and `va_end` (`crate::va_intrinsics`) expanded into plain IR over
//! each target's real `va_list` layout, before register allocation.
//!
//! Why: a `va_arg` is a few loads, compares and stores of the `va_list` object's fields,
//! which every backend already selects; expanding them here, once per target, keeps the
//! instruction selectors free of `va_arg` and lets the register allocator see every value.
//! Only `va_start` stays a call: it needs the frame (the register save area, the incoming
//! stack arguments), so each target's `va.rs` selects it.
//!
//! The layouts (gcc's, `frontend::parse::va_builtins`) and what `va_arg` of `n` slots does:
//! - x86-64 `{u32 gp_offset, u32 fp_offset, ptr overflow_arg_area, ptr reg_save_area}`:
//!   from `reg_save_area + gp_offset` when `gp_offset <= 48 - 8n` (then `gp_offset += 8n`),
//!   else from `overflow_arg_area` (then `+= 8n`); a MEMORY record always from the
//!   overflow area; a `double` (`@__phi_va.arg.f64`) from `reg_save_area + fp_offset`
//!   when `fp_offset <= 160` (then `fp_offset += 16`: the save area keeps %xmm0-7 in
//!   16-byte lanes from offset 48), else from the overflow area (8 bytes).
//! - AArch64 `{ptr __stack, ptr __gr_top, ptr __vr_top, i32 __gr_offs, i32 __vr_offs}`:
//!   when `__gr_offs >= 0` from the stack; else `__gr_offs += 8n`, and when that is still
//!   `<= 0` from `__gr_top + old __gr_offs`, else from the stack (`__stack += 8n`); a
//!   `double` the same way through `__vr_offs` and `__vr_top` in 16-byte steps (the save
//!   area keeps q0-q7), else 8 bytes of the stack.
//! - i686 (`char *`, 4-byte slots) and RISC-V LP64 (`void *`, 8-byte slots; the argument
//!   registers are spilled right below the stack arguments): from the pointer, which
//!   moves on by `n` slots (a `double` is two slots on i686, one on RISC-V, where variadic
//!   doubles travel in integer registers).
//!
//! Invariants: the module keeps every instruction other than the expanded calls, in order;
//! an expanded block's tail (everything after the call, and its terminator) moves to a
//! fresh block, so the IR is valid phi-free IR in which the address of the argument is one
//! value assigned on two paths (as after phi elimination); fresh values and block labels
//! never collide with existing ones.

use super::Target;
use crate::ir::{
    BasicBlock, BinOp, BlockId, CmpPred, Inst, IrConst, IrFunction, IrModule, IrType, Operand,
    Terminator, Value,
};
use crate::va_intrinsics::VaIntrinsic;
use std::borrow::Cow;

/// The `va_arg` of a `double`, `%d = call f64 @__phi_va.arg.f64(ptr %ap)`, as
/// `crate::va_intrinsics` documents it for floating point. It is recognised here by name
/// (and expanded for every target) until the front end's intrinsic set carries it.
pub const ARG_F64: &str = "__phi_va.arg.f64";

/// True when `target` expands [`ARG_F64`] here.
fn expands_f64(target: Target) -> bool {
    matches!(
        target,
        Target::X86_64 | Target::I686 | Target::Aarch64 | Target::Riscv64
    )
}

/// True when `inst` is a call of [`ARG_F64`].
fn is_arg_f64(inst: &Inst) -> bool {
    matches!(inst, Inst::Call { callee: crate::ir::Callee::Direct(n), .. } if n == ARG_F64)
}

/// `module` with every `va_arg`, `va_copy` and `va_end` expanded for `target` (borrowed
/// unchanged when it has none).
pub fn lower_for_target(module: &IrModule, target: Target) -> Cow<'_, IrModule> {
    let expands = |name: &str| {
        VaIntrinsic::by_name(name).is_some_and(|k| k != VaIntrinsic::Start)
            || (name == ARG_F64 && expands_f64(target))
    };
    if !module
        .decls
        .iter()
        .any(|d| VaIntrinsic::by_name(&d.name).is_some() || d.name == ARG_F64)
    {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    out.decls.retain(|d| !expands(&d.name));
    let mut next_block = out
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter().map(|b| b.label.0 + 1))
        .max()
        .unwrap_or(0);
    for func in &mut out.functions {
        expand_function(func, target, &mut next_block);
        add_save_area(func, target);
    }
    if save_area_bytes(target).is_some() {
        // `va_start` now takes the save area too.
        for d in &mut out.decls {
            if d.name == VaIntrinsic::Start.name() {
                d.params.push(IrType::Ptr);
            }
        }
    }
    Cow::Owned(out)
}

/// Bytes of the register save area a `va_start` needs in the frame: x86-64's six
/// general registers and eight vector registers (gcc's 176-byte layout, `fp_offset`
/// from 48), AArch64's eight X registers (`__gr_top` at their end) and eight Q
/// registers (`__vr_top`). RISC-V's save area sits right below the incoming stack
/// arguments instead (its frame makes room there); i686 has none.
fn save_area_bytes(target: Target) -> Option<u32> {
    match target {
        Target::X86_64 => Some(176),
        Target::Aarch64 => Some(192),
        Target::I686 | Target::Riscv64 => None,
    }
}

/// Gives every `va_start` of `func` the register save area as a fourth argument: a fresh
/// 16-byte aligned alloca at the start of the entry block, which the target's prologue
/// fills ([`save_area`]).
fn add_save_area(func: &mut IrFunction, target: Target) {
    let Some(bytes) = save_area_bytes(target) else {
        return;
    };
    let starts = func
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| VaIntrinsic::of(i) == Some(VaIntrinsic::Start));
    if !starts || func.blocks.is_empty() {
        return;
    }
    let area = Value(func.value_bound());
    for block in &mut func.blocks {
        for inst in &mut block.insts {
            if VaIntrinsic::of(inst) == Some(VaIntrinsic::Start) {
                if let Inst::Call { args, .. } = inst {
                    args.push((IrType::Ptr, Operand::Value(area)));
                }
            }
        }
    }
    func.blocks[0].insts.insert(
        0,
        Inst::Alloca {
            dest: area,
            ty: IrType::I8,
            size: bytes,
            align: 16,
            volatile: false,
        },
    );
}

/// The register save area of `func` (the alloca [`lower_for_target`] made), when it
/// calls `va_start`.
pub fn save_area(func: &IrFunction) -> Option<Value> {
    func.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find_map(|i| match i {
            Inst::Call { args, .. } if VaIntrinsic::of(i) == Some(VaIntrinsic::Start) => {
                match args.get(3) {
                    Some((_, Operand::Value(v))) => Some(*v),
                    _ => None,
                }
            }
            _ => None,
        })
}

/// True when `func` calls `va_start`.
pub fn starts_va(func: &IrFunction) -> bool {
    func.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| VaIntrinsic::of(i) == Some(VaIntrinsic::Start))
}

/// True when `callee` is `va_start` (which each target selects itself).
pub fn is_va_start(callee: &crate::ir::Callee) -> bool {
    matches!(callee, crate::ir::Callee::Direct(n) if n == VaIntrinsic::Start.name())
}

fn c(ty: IrType, v: i64) -> Operand {
    Operand::Const(IrConst::new(ty, v))
}

/// The instructions being built for one expansion.
struct Gen<'f> {
    next_value: &'f mut u32,
    insts: Vec<Inst>,
}

impl Gen<'_> {
    fn value(&mut self) -> Value {
        let v = Value(*self.next_value);
        *self.next_value += 1;
        v
    }

    fn load(&mut self, ty: IrType, ptr: Operand) -> Operand {
        let dest = self.value();
        self.insts.push(Inst::Load { dest, ty, ptr });
        Operand::Value(dest)
    }

    fn store(&mut self, ty: IrType, val: Operand, ptr: Operand) {
        self.insts.push(Inst::Store { ty, val, ptr });
    }

    fn gep_into(&mut self, dest: Value, base: Operand, offset: Operand) {
        self.insts.push(Inst::Gep { dest, base, offset });
    }

    fn gep(&mut self, base: Operand, offset: i64) -> Operand {
        if offset == 0 {
            return base;
        }
        let dest = self.value();
        self.gep_into(dest, base, c(IrType::I64, offset));
        Operand::Value(dest)
    }

    fn bin(&mut self, op: BinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Operand {
        let dest = self.value();
        self.insts.push(Inst::Bin {
            dest,
            op,
            ty,
            lhs,
            rhs,
        });
        Operand::Value(dest)
    }

    fn cmp(&mut self, pred: CmpPred, ty: IrType, lhs: Operand, rhs: Operand) -> Operand {
        let dest = self.value();
        self.insts.push(Inst::Cmp {
            dest,
            pred,
            ty,
            lhs,
            rhs,
        });
        Operand::Value(dest)
    }

    fn cast(&mut self, from: IrType, src: Operand, to: IrType) -> Operand {
        let dest = self.value();
        self.insts.push(Inst::Cast {
            dest,
            from,
            src,
            to,
        });
        Operand::Value(dest)
    }

    fn take(&mut self) -> Vec<Inst> {
        std::mem::take(&mut self.insts)
    }
}

/// What one expanded call reads and where its result goes.
struct ArgCall {
    ap: Operand,
    /// Slots of the target's width.
    slots: i64,
    /// An x86-64 MEMORY record: always from the overflow area.
    memory: bool,
    /// The scalar result, or the record's destination.
    result: ArgResult,
    /// Bytes per slot.
    slot: i64,
    /// A fresh value for the argument's address (assigned on each path of a split).
    addr: Value,
}

enum ArgResult {
    Scalar(Value, IrType),
    Pieces(Operand),
}

/// The slot width of `target`'s stack area.
fn slot_bytes(target: Target) -> i64 {
    match target {
        Target::I686 => 4,
        _ => 8,
    }
}

/// The size of `target`'s `va_list`.
fn va_list_bytes(target: Target) -> u32 {
    match target {
        Target::X86_64 => 24,
        Target::Aarch64 => 32,
        Target::I686 => 4,
        Target::Riscv64 => 8,
    }
}

fn expand_function(func: &mut IrFunction, target: Target, next_block: &mut u32) {
    let mut next_value = func.value_bound();
    let mut b = 0;
    while b < func.blocks.len() {
        // `None`: a `va_arg` of a double (`ARG_F64`).
        let found = func.blocks[b]
            .insts
            .iter()
            .enumerate()
            .find_map(|(i, inst)| match VaIntrinsic::of(inst) {
                Some(k) if k != VaIntrinsic::Start => Some((i, Some(k))),
                _ if expands_f64(target) && is_arg_f64(inst) => Some((i, None)),
                _ => None,
            });
        let Some((i, k)) = found else {
            b += 1;
            continue;
        };
        let Inst::Call { dest, args, .. } = func.blocks[b].insts.remove(i) else {
            continue;
        };
        let arg = |n: usize| args.get(n).map(|a| a.1);
        let mut g = Gen {
            next_value: &mut next_value,
            insts: Vec::new(),
        };
        let call = match (k, arg(0)) {
            (None, Some(ap)) => ArgCall {
                ap,
                slots: 8 / slot_bytes(target),
                memory: false,
                result: ArgResult::Scalar(dest.unwrap_or_else(|| g.value()), IrType::F64),
                slot: slot_bytes(target),
                addr: g.value(),
            },
            (None, None) => continue,
            (Some(k), _) => match (k, arg(0)) {
                (VaIntrinsic::Copy, Some(dst)) => {
                    if let Some(src) = arg(1) {
                        func.blocks[b].insts.insert(i, copy_inst(target, dst, src));
                    }
                    continue;
                }
                (VaIntrinsic::ArgPieces | VaIntrinsic::ArgMemory, Some(ap)) => {
                    let (Some(dst), Some(Operand::Const(n))) = (arg(1), arg(2)) else {
                        continue;
                    };
                    ArgCall {
                        ap,
                        slots: n.bits,
                        memory: k == VaIntrinsic::ArgMemory && target == Target::X86_64,
                        result: ArgResult::Pieces(dst),
                        slot: slot_bytes(target),
                        addr: g.value(),
                    }
                }
                (VaIntrinsic::ArgI32 | VaIntrinsic::ArgI64 | VaIntrinsic::ArgPtr, Some(ap)) => {
                    let ty = k.ret();
                    let d = dest.unwrap_or_else(|| g.value());
                    let bytes = i64::from(ty.size(if target == Target::I686 { 4 } else { 8 }));
                    ArgCall {
                        ap,
                        slots: (bytes + slot_bytes(target) - 1) / slot_bytes(target),
                        memory: false,
                        result: ArgResult::Scalar(d, ty),
                        slot: slot_bytes(target),
                        addr: g.value(),
                    }
                }
                // `va_end` has nothing to undo; a malformed call is dropped with it.
                _ => continue,
            },
        };
        let tail = func.blocks[b].insts.split_off(i);
        let expansion = match target {
            Target::X86_64 if k.is_none() => x86_64_f64_arg(&mut g, &call),
            Target::X86_64 => x86_64_arg(&mut g, &call),
            Target::Aarch64 if k.is_none() => aarch64_f64_arg(&mut g, &call),
            Target::Aarch64 => aarch64_arg(&mut g, &call),
            Target::I686 | Target::Riscv64 => one_pointer_arg(&mut g, &call, target),
        };
        match expansion {
            Expansion::Inline(insts) => {
                func.blocks[b].insts.extend(insts);
                func.blocks[b].insts.extend(tail);
            }
            Expansion::Split { head, blocks } => {
                let term = std::mem::replace(&mut func.blocks[b].term, Terminator::Unreachable);
                func.blocks[b].insts.extend(head.0);
                // Labels: the blocks in order, then the join block.
                let base = *next_block;
                *next_block += blocks.len() as u32 + 1;
                let label = |j: usize| BlockId(base + j as u32);
                let join = label(blocks.len());
                func.blocks[b].term = head.1.resolve(&label, join);
                let mut new_blocks: Vec<BasicBlock> = blocks
                    .into_iter()
                    .enumerate()
                    .map(|(j, (insts, t))| BasicBlock {
                        label: label(j),
                        insts,
                        term: t.resolve(&label, join),
                    })
                    .collect();
                let mut join_insts = finish(&mut g, &call, call.addr);
                join_insts.extend(tail);
                new_blocks.push(BasicBlock {
                    label: join,
                    insts: join_insts,
                    term,
                });
                let at = b + 1;
                let count = new_blocks.len();
                func.blocks.splice(at..at, new_blocks);
                // Continue with the join block (the tail may hold more calls).
                b = at + count - 1;
            }
        }
    }
}

/// A terminator of an expansion block: to another expansion block (by index) or the join.
#[derive(Clone, Copy)]
enum To {
    Block(usize),
    Join,
}

#[derive(Clone, Copy)]
enum Term {
    Br(To),
    CondBr(Operand, To, To),
}

impl Term {
    fn resolve(self, label: &dyn Fn(usize) -> BlockId, join: BlockId) -> Terminator {
        let to = |t: To| match t {
            To::Block(j) => label(j),
            To::Join => join,
        };
        match self {
            Term::Br(t) => Terminator::Br(to(t)),
            Term::CondBr(cond, t, f) => Terminator::CondBr {
                cond,
                if_true: to(t),
                if_false: to(f),
            },
        }
    }
}

enum Expansion {
    /// Straight-line code in place of the call.
    Inline(Vec<Inst>),
    /// The head ends the call's block; `blocks` follow; the last ones branch to the join
    /// block, which reads the argument from `ArgCall::addr` and runs the block's tail.
    Split {
        head: (Vec<Inst>, Term),
        blocks: Vec<(Vec<Inst>, Term)>,
    },
}

/// Reads the argument at `addr` into the call's result.
fn finish(g: &mut Gen, call: &ArgCall, addr: Value) -> Vec<Inst> {
    let addr = Operand::Value(addr);
    match call.result {
        ArgResult::Scalar(d, ty) => g.insts.push(Inst::Load {
            dest: d,
            ty,
            ptr: addr,
        }),
        ArgResult::Pieces(dst) => {
            let size = u32::try_from(call.slots * call.slot).unwrap_or(u32::MAX);
            g.insts.push(Inst::Memcpy {
                dst,
                src: addr,
                size,
            });
        }
    }
    g.take()
}
/// The `va_copy` of `target`: the whole object.
fn copy_inst(target: Target, dst: Operand, src: Operand) -> Inst {
    Inst::Memcpy {
        dst,
        src,
        size: va_list_bytes(target),
    }
}

/// x86-64: registers through `gp_offset` when the argument fits, else the overflow area.
fn x86_64_arg(g: &mut Gen, call: &ArgCall) -> Expansion {
    let n = call.slots * 8;
    if call.memory {
        let ov = x86_64_overflow(g, call, n);
        g.insts.push(Inst::Copy {
            dest: call.addr,
            ty: IrType::Ptr,
            src: ov,
        });
        return Expansion::Inline(finish(g, call, call.addr));
    }
    x86_64_arg_from(g, call, (0, 48 - n, n), n)
}

/// x86-64, a `double`: the vector registers' lanes through `fp_offset` (16 bytes each,
/// offsets 48..176 of the save area), else the overflow area (8 bytes).
fn x86_64_f64_arg(g: &mut Gen, call: &ArgCall) -> Expansion {
    x86_64_arg_from(g, call, (4, 176 - 16, 16), 8)
}

/// `overflow_arg_area`, moved on by `bytes`: its old value.
fn x86_64_overflow(g: &mut Gen, call: &ArgCall, bytes: i64) -> Operand {
    let ovp = g.gep(call.ap, 8);
    let ov = g.load(IrType::Ptr, ovp);
    let next = g.gep(ov, bytes);
    g.store(IrType::Ptr, next, ovp);
    ov
}

/// x86-64's `va_arg` over one register class: `(offset field, its largest value that
/// still fits, bytes a register slot takes)` in the save area at `reg_save_area`, else
/// `stack_bytes` of the overflow area.
fn x86_64_arg_from(
    g: &mut Gen,
    call: &ArgCall,
    (offset_field, last_fit, step): (i64, i64, i64),
    stack_bytes: i64,
) -> Expansion {
    let offp = g.gep(call.ap, offset_field);
    let off = g.load(IrType::U32, offp);
    let fits = g.cmp(CmpPred::Ule, IrType::U32, off, c(IrType::U32, last_fit));
    let head = (g.take(), Term::CondBr(fits, To::Block(0), To::Block(1)));
    let rsa_p = g.gep(call.ap, 16);
    let rsa = g.load(IrType::Ptr, rsa_p);
    let off64 = g.cast(IrType::U32, off, IrType::I64);
    g.gep_into(call.addr, rsa, off64);
    let next = g.bin(BinOp::Add, IrType::U32, off, c(IrType::U32, step));
    g.store(IrType::U32, next, offp);
    let regs = (g.take(), Term::Br(To::Join));
    let ov = x86_64_overflow(g, call, stack_bytes);
    g.insts.push(Inst::Copy {
        dest: call.addr,
        ty: IrType::Ptr,
        src: ov,
    });
    let stack = (g.take(), Term::Br(To::Join));
    Expansion::Split {
        head,
        blocks: vec![regs, stack],
    }
}

/// AArch64: the general registers through `__gr_offs` while it stays negative, else
/// `__stack`.
fn aarch64_arg(g: &mut Gen, call: &ArgCall) -> Expansion {
    let n = call.slots * 8;
    aarch64_arg_from(g, call, (24, 8, n), n)
}

/// AArch64, a `double`: the vector registers' 16-byte slots through `__vr_offs` (offset
/// 28; `__vr_top` at 16) while it stays negative, else 8 bytes of `__stack`.
fn aarch64_f64_arg(g: &mut Gen, call: &ArgCall) -> Expansion {
    aarch64_arg_from(g, call, (28, 16, 16), 8)
}

/// AArch64's `va_arg` over one register class: `(offs field, top field, bytes a register
/// slot takes)`, then `stack_bytes` of `__stack` once the registers are used up.
fn aarch64_arg_from(
    g: &mut Gen,
    call: &ArgCall,
    (offs_field, top_field, n): (i64, i64, i64),
    stack_bytes: i64,
) -> Expansion {
    let offs_p = g.gep(call.ap, offs_field);
    let offs = g.load(IrType::I32, offs_p);
    let used_up = g.cmp(CmpPred::Sge, IrType::I32, offs, c(IrType::I32, 0));
    let head = (g.take(), Term::CondBr(used_up, To::Block(2), To::Block(0)));
    let next = g.bin(BinOp::Add, IrType::I32, offs, c(IrType::I32, n));
    g.store(IrType::I32, next, offs_p);
    let past = g.cmp(CmpPred::Sgt, IrType::I32, next, c(IrType::I32, 0));
    let test = (g.take(), Term::CondBr(past, To::Block(2), To::Block(1)));
    let top_p = g.gep(call.ap, top_field);
    let top = g.load(IrType::Ptr, top_p);
    let off = g.cast(IrType::I32, offs, IrType::I64);
    g.gep_into(call.addr, top, off);
    let regs = (g.take(), Term::Br(To::Join));
    let st = g.load(IrType::Ptr, call.ap);
    let st_next = g.gep(st, stack_bytes);
    g.store(IrType::Ptr, st_next, call.ap);
    g.insts.push(Inst::Copy {
        dest: call.addr,
        ty: IrType::Ptr,
        src: st,
    });
    let stack = (g.take(), Term::Br(To::Join));
    Expansion::Split {
        head,
        blocks: vec![test, regs, stack],
    }
}

/// i686 and RISC-V: one pointer walks the slots.
fn one_pointer_arg(g: &mut Gen, call: &ArgCall, target: Target) -> Expansion {
    let p = g.load(IrType::Ptr, call.ap);
    let next = g.gep(p, call.slots * slot_bytes(target));
    g.store(IrType::Ptr, next, call.ap);
    g.insts.push(Inst::Copy {
        dest: call.addr,
        ty: IrType::Ptr,
        src: p,
    });
    Expansion::Inline(finish(g, call, call.addr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;
    use crate::ir::verify::{verify_module, VerifyMode};

    /// Every target's expansion of the IR corpus file and of record `va_arg`s is valid
    /// phi-free IR that calls no intrinsic but `va_start` (with its save area where the
    /// target has one).
    #[test]
    fn expansions_are_valid_ir_without_va_arg_calls() {
        let corpus = include_str!("../../../corpus/ir/varargs.ir");
        let records = "declare @__phi_va.start(ptr, i32, i8) -> void\n\
            declare @__phi_va.arg.pieces(ptr, ptr, i32) -> void\n\
            declare @__phi_va.arg.memory(ptr, ptr, i32) -> void\n\
            func @r(i32, ...) -> i64 {\n.LBB0:\n  %0 = alloca i8, 32, 8\n  \
            %1 = alloca i8, 24, 8\n  call void @__phi_va.start(ptr %0, i32 6, i8 0)\n  \
            call void @__phi_va.arg.pieces(ptr %0, ptr %1, i32 2)\n  \
            call void @__phi_va.arg.memory(ptr %0, ptr %1, i32 3)\n  \
            %2 = load i64 %1\n  ret i64 %2\n}\n";
        for text in [corpus, records] {
            let m = parse_module(text).expect("parses");
            for target in Target::ALL {
                let lowered = lower_for_target(&m, target);
                if let Err(e) = verify_module(&lowered, VerifyMode::PostPhiElim) {
                    panic!("{}: {e:?}", target.name());
                }
                for f in &lowered.functions {
                    for i in f.blocks.iter().flat_map(|b| &b.insts) {
                        let k = VaIntrinsic::of(i);
                        assert!(k.is_none() || k == Some(VaIntrinsic::Start), "{i:?}");
                    }
                    if starts_va(f) {
                        assert_eq!(
                            save_area(f).is_some(),
                            save_area_bytes(target).is_some(),
                            "{} {}",
                            target.name(),
                            f.name
                        );
                    }
                }
            }
        }
    }
}
