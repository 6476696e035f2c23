//! The pre-decoded form the execution loop runs.
//!
//! Why: the IR is built for passes (names, block labels, typed operands, phis at block
//! heads); the interpreter wants flat arrays of small `Copy` instructions whose operands
//! are register indexes. The decoder (`compile.rs`) turns one into the other once per
//! `Program`, so a run does no name lookup, no hashing and no allocation per instruction.
//!
//! Invariants:
//! - A frame is `frame_size` registers: one per value number the function mentions
//!   (numbered densely in value-number order), then the function's
//!   constants (copied in on every call, already converted to the type of the position
//!   that reads them), then conversion scratch registers, then argument slots. Every
//!   register index in the code is below `frame_size`.
//! - Every operand register holds a value canonical for the position that reads it: when
//!   the value's own type could differ, a [`Op::Convert`] pseudo-instruction writes the
//!   converted value to a scratch register first.
//! - A register read that no definition is proven to precede (by dominance) is guarded
//!   by an [`Op::Check`]; every definition of such a register is followed by an
//!   [`Op::Mark`] (or marks it itself: phi moves, call results). Pseudo-instructions cost
//!   no fuel.
//! - Block code ends with exactly one terminator; control enters a block only through an
//!   [`Edge`], which runs the target's phis as one parallel copy.
//! - `locs[pc]` says which IR instruction `code[pc]` belongs to.

use super::libc::LibcFn;
use super::value::{Canon, Pred};
use compiler::ir::{BlockId, IrType};
use compiler::ub_intrinsics::UbIntrinsic;

/// A register index in the current frame.
pub(crate) type Reg = u32;

/// A function a pointer can designate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FuncRef {
    /// Index into `CompiledProgram::funcs`.
    Module(u32),
    /// A supported libc function.
    Libc(LibcFn),
}

/// One executable instruction. All variants are `Copy` and at most 16 bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    // ---- pseudo-instructions (no fuel) ----
    /// Undefined behaviour unless `r` was assigned in this frame.
    Check {
        r: Reg,
    },
    /// Records that `r` is assigned in this frame.
    Mark {
        r: Reg,
    },
    /// Hands `a` and `b` to the run's operand observer, if any (`observe.rs`); only in
    /// programs prepared for observation, before the operation at `observed[site]`.
    Observe {
        site: u32,
        a: Reg,
        b: Reg,
    },
    /// `d = c(s)`: an operand converted to its position's type.
    Convert {
        d: Reg,
        s: Reg,
        c: Canon,
    },

    // ---- arithmetic ----
    Add {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    Sub {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    Mul {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    And {
        d: Reg,
        a: Reg,
        b: Reg,
    },
    Or {
        d: Reg,
        a: Reg,
        b: Reg,
    },
    /// `and`/`or`/`xor` of canonical inputs are canonical: no conversion needed.
    Xor {
        d: Reg,
        a: Reg,
        b: Reg,
    },
    SDiv {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    UDiv {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    SRem {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    URem {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    Shl {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    AShr {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    LShr {
        d: Reg,
        a: Reg,
        b: Reg,
        c: Canon,
    },
    Neg {
        d: Reg,
        s: Reg,
        c: Canon,
    },
    Not {
        d: Reg,
        s: Reg,
        c: Canon,
    },
    /// `d = (a PRED b)`; operands already swapped for `>`/`>=`.
    Cmp {
        d: Reg,
        a: Reg,
        b: Reg,
        p: Pred,
        c: Canon,
    },
    /// `cast`: the source is canonical for the source type; `c` is the target's form.
    Cast {
        d: Reg,
        s: Reg,
        c: Canon,
    },
    /// `fadd fsub fmul fdiv` (`float::arith`).
    FArith {
        d: Reg,
        a: Reg,
        b: Reg,
        f: super::float::FArith,
    },
    /// `fneg`.
    FNeg {
        d: Reg,
        s: Reg,
        wide: bool,
    },
    /// `fcmp` (`float::compare`).
    FCmp {
        d: Reg,
        a: Reg,
        b: Reg,
        pred: compiler::ir::FCmpPred,
        wide: bool,
    },
    /// `cast` with a float on either side; undefined when a float does not fit.
    FConvert {
        d: Reg,
        s: Reg,
        k: super::float::FConv,
    },
    /// `copy`, and `globaladdr` (whose address is a constant register).
    Move {
        d: Reg,
        s: Reg,
    },
    /// `d = cond != 0 ? a : b` (cond canonical `i8`), `(a, b) = selects[pair]`.
    Select {
        d: Reg,
        cond: Reg,
        pair: u32,
    },

    // ---- frame, memory ----
    /// `paramref n`: argument slot `args_base + n`, canonicalized by `c`; undefined when
    /// the caller passed fewer than `n + 1` arguments.
    ParamRef {
        d: Reg,
        n: u32,
        c: Canon,
    },
    Alloca {
        d: Reg,
        size: u32,
        align: u32,
    },
    /// `d = dynalloca size, align`: a fresh stack object of `size` bytes (unsigned),
    /// freed by a `stackrestore` to an earlier save or at return (`interp/dyn_stack.rs`).
    DynAlloca {
        d: Reg,
        size: Reg,
        align: u32,
    },
    /// `d = call @__phi_frame.return_address()`: the opaque code address of the call
    /// site the frame returns to (`return_sites.rs`).
    ReturnAddress {
        d: Reg,
    },
    /// `d = stacksave`: a token for the frame's current dynamic objects.
    StackSave {
        d: Reg,
    },
    /// `stackrestore p`: frees the dynamic objects made since the save `p` came from.
    StackRestore {
        p: Reg,
    },
    Load {
        d: Reg,
        p: Reg,
        size: u8,
        c: Canon,
    },
    /// A record-piece load (`compiler::abi_intrinsics`): as `Load`, but a byte never
    /// written reads as 0.
    LoadPiece {
        d: Reg,
        p: Reg,
        size: u8,
        c: Canon,
    },
    /// `@__phi_abi.ret_hi(v)` (`which` 0), `@__phi_abi.sret_arg(v)` (1) or
    /// `@__phi_abi.ret_float.T.k(v)` (2 + k): sets that ABI register.
    SetAbiReg {
        v: Reg,
        which: u8,
    },
    /// `d = @__phi_abi.result_hi()` (0) or `d = @__phi_abi.sret_param()` (1): reads it.
    GetAbiReg {
        d: Reg,
        which: u8,
    },
    Store {
        v: Reg,
        p: Reg,
        size: u8,
    },
    /// `d = ptr(p + off)`; `off` is canonical pointer-width signed.
    Gep {
        d: Reg,
        p: Reg,
        off: Reg,
        c: Canon,
    },
    Memcpy {
        dst: Reg,
        src: Reg,
        size: u32,
    },
    /// A call described by `calls[site]`.
    Call {
        site: u32,
    },
    /// A call of a checked-lowering intrinsic with a result: `d = k(a, b)` (`b` is `a`
    /// for one-argument ones); see `intrinsic.rs`.
    IntrinsicValue {
        d: Reg,
        a: Reg,
        b: Reg,
        k: UbIntrinsic,
    },
    /// A call of a checked-lowering intrinsic without a result.
    IntrinsicCheck {
        a: Reg,
        b: Reg,
        k: UbIntrinsic,
    },

    // ---- terminators ----
    Br {
        edge: u32,
    },
    CondBr {
        cond: Reg,
        t: u32,
        f: u32,
    },
    Switch {
        v: Reg,
        table: u32,
    },
    /// Returns `v` canonicalized to the function's return type.
    Ret {
        v: Reg,
        c: Canon,
    },
    RetVoid,
    Unreachable,
}

/// Where an instruction came from: block index and instruction index (`NO_INST` for the
/// terminator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Loc {
    pub block: u32,
    pub inst: u32,
}

/// `Loc::inst` of a terminator.
pub(crate) const NO_INST: u32 = u32::MAX;

/// A control-flow edge into a block: run the block's phis, then jump.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    /// First pc of the target block.
    pub target_pc: u32,
    /// Target block index (for locations).
    pub block: u32,
    /// `moves[first_move..first_move + move_count]` are the phi copies of this edge.
    pub first_move: u32,
    pub move_count: u32,
    /// Phis of the target block (each costs one step).
    pub phi_count: u32,
    /// Index of the first phi without an entry for this edge, or `NO_INST`.
    pub missing_phi: u32,
    /// Some source must be stamp-checked or some destination stamp-marked.
    pub tracked: bool,
    /// A destination is also a source: the copies need the scratch buffer.
    pub overlapping: bool,
}

/// One phi's copy along one edge.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PhiMove {
    pub dst: Reg,
    pub src: Reg,
    /// The phi's type.
    pub c: Canon,
    /// The source is not proven assigned.
    pub check: bool,
    /// The destination has unproven reads.
    pub mark: bool,
    /// Instruction index of the phi (for locations).
    pub phi: u32,
}

/// A `switch`'s cases, sorted by value, with the default edge.
#[derive(Clone, Debug)]
pub(crate) struct SwitchTable {
    pub default: u32,
    /// `(canonical case value, edge)`, sorted, first of duplicates kept.
    pub cases: Vec<(u64, u32)>,
}

/// What a call calls.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CallTarget {
    Func(u32),
    Libc(LibcFn),
    /// A pointer in this register, resolved at run time.
    Indirect(Reg),
    /// A direct call whose arguments or return type do not match the callee.
    Mismatch,
    /// A `va_list` intrinsic, `vprintf` or `vsprintf` (`interp::va`).
    Va(super::va::VaFn),
    /// `setjmp`, `longjmp` and their kin (`interp/setjmp.rs`).
    Jmp(super::exec::setjmp::JmpFn),
}

/// One call instruction.
#[derive(Clone, Debug)]
pub(crate) struct CallSite {
    pub target: CallTarget,
    /// Argument registers (converted to their types) with those types.
    pub args: Vec<(Reg, IrType)>,
    /// Result register, if the call defines one.
    pub dst: Option<Reg>,
    /// The result register has unproven reads: stamp it.
    pub mark_dst: bool,
    /// The return type written in the call.
    pub ret: IrType,
}

/// A function in executable form.
#[derive(Clone, Debug)]
pub(crate) struct CompiledFunc {
    pub name: String,
    pub params: Vec<IrType>,
    pub ret: IrType,
    pub variadic: bool,
    pub code: Vec<Op>,
    pub locs: Vec<Loc>,
    pub block_labels: Vec<BlockId>,
    pub edges: Vec<Edge>,
    pub moves: Vec<PhiMove>,
    pub switches: Vec<SwitchTable>,
    pub calls: Vec<CallSite>,
    /// The two value operands of each `select` (kept apart so `Op` stays small).
    pub selects: Vec<(Reg, Reg)>,
    /// Register values of the constants, in order from `const_base`.
    pub consts: Vec<u64>,
    /// The sites of the `Op::Observe` ops (empty unless prepared for observation).
    pub observed: Vec<super::observe::ObservedSite>,
    pub const_base: u32,
    /// First argument slot; `arg_slots` slots follow.
    pub args_base: u32,
    pub arg_slots: u32,
    pub frame_size: u32,
    /// The edge that enters the entry block when the function is called.
    pub entry_edge: u32,
}

impl CompiledFunc {
    /// The IR location of `code[pc]`.
    pub fn location(&self, pc: usize) -> (BlockId, Option<usize>) {
        let loc = self.locs[pc];
        (
            self.block_labels[loc.block as usize],
            (loc.inst != NO_INST).then_some(loc.inst as usize),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_stay_small() {
        // The loop copies one `Op` per step; keep it at two words.
        assert!(
            std::mem::size_of::<Op>() <= 16,
            "{}",
            std::mem::size_of::<Op>()
        );
    }
}
