//! Instructions and terminators.
//!
//! Floats have their own opcodes (`fadd`, `fneg`, `fcmp`, `bitcast`) rather than sharing
//! `add` and `cmp` with the integers: a pass that rewrites `add` by an integer identity
//! (`x + 0 = x`, reassociation) then cannot touch a float by accident. Conversions between
//! floats and integers are `cast`, with signedness in the integer type as for integers.
//!
//! Why: one enum per kind of thing a block holds, with the fields IR.md names, and ONE
//! canonical visitor over the values an instruction uses ([`Inst::for_each_used_value`],
//! the seed's `for_each_used_value`) that every pass calls instead of repeating the match.
//!
//! Invariants kept here:
//! - every operand position has a *context type* ([`Inst::for_each_operand_typed`]): the type
//!   an unsuffixed literal there takes, and the type a value there must have;
//! - the visitors see operands in text order, so a printer, a parser and a verifier built on
//!   them agree on what "the second operand" is.

use super::{BlockId, IrConst, IrType, Operand, Value};
use std::fmt;

/// Two-operand integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    And,
    Or,
    Xor,
    Shl,
    AShr,
    LShr,
}

impl BinOp {
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::SDiv,
        BinOp::UDiv,
        BinOp::SRem,
        BinOp::URem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::AShr,
        BinOp::LShr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::SDiv => "sdiv",
            BinOp::UDiv => "udiv",
            BinOp::SRem => "srem",
            BinOp::URem => "urem",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::AShr => "ashr",
            BinOp::LShr => "lshr",
        }
    }

    pub fn from_name(s: &str) -> Option<BinOp> {
        BinOp::ALL.iter().copied().find(|o| o.name() == s)
    }

    /// Division and remainder: the operations that can trap.
    pub fn can_trap(self) -> bool {
        matches!(self, BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem)
    }

    /// Shifts: undefined for an amount >= the width.
    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::AShr | BinOp::LShr)
    }
}

/// One-operand integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

impl UnOp {
    pub const ALL: [UnOp; 2] = [UnOp::Neg, UnOp::Not];

    pub fn name(self) -> &'static str {
        match self {
            UnOp::Neg => "neg",
            UnOp::Not => "not",
        }
    }

    pub fn from_name(s: &str) -> Option<UnOp> {
        UnOp::ALL.iter().copied().find(|o| o.name() == s)
    }
}

/// Comparison predicates; a comparison yields an `i8` 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpPred {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl CmpPred {
    pub const ALL: [CmpPred; 10] = [
        CmpPred::Eq,
        CmpPred::Ne,
        CmpPred::Slt,
        CmpPred::Sle,
        CmpPred::Sgt,
        CmpPred::Sge,
        CmpPred::Ult,
        CmpPred::Ule,
        CmpPred::Ugt,
        CmpPred::Uge,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CmpPred::Eq => "eq",
            CmpPred::Ne => "ne",
            CmpPred::Slt => "slt",
            CmpPred::Sle => "sle",
            CmpPred::Sgt => "sgt",
            CmpPred::Sge => "sge",
            CmpPred::Ult => "ult",
            CmpPred::Ule => "ule",
            CmpPred::Ugt => "ugt",
            CmpPred::Uge => "uge",
        }
    }

    pub fn from_name(s: &str) -> Option<CmpPred> {
        CmpPred::ALL.iter().copied().find(|o| o.name() == s)
    }
}

/// Two-operand floating-point operations (IEEE 754, round to nearest-even). `frem` is
/// left out: C has no float `%` (`fmod` is a library call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FBinOp {
    FAdd,
    FSub,
    FMul,
    FDiv,
}

impl FBinOp {
    pub const ALL: [FBinOp; 4] = [FBinOp::FAdd, FBinOp::FSub, FBinOp::FMul, FBinOp::FDiv];

    pub fn name(self) -> &'static str {
        match self {
            FBinOp::FAdd => "fadd",
            FBinOp::FSub => "fsub",
            FBinOp::FMul => "fmul",
            FBinOp::FDiv => "fdiv",
        }
    }

    pub fn from_name(s: &str) -> Option<FBinOp> {
        FBinOp::ALL.iter().copied().find(|o| o.name() == s)
    }
}

/// Float comparison predicates, as in LLVM: `o..` (ordered) is false when either operand is
/// a NaN, `u..` (unordered) is true then; `ord` is "neither is NaN", `uno` "either is". C's
/// `== < <= > >=` are `oeq olt ole ogt oge`, and C's `!=` is `une`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FCmpPred {
    Oeq,
    One,
    Olt,
    Ole,
    Ogt,
    Oge,
    Ord,
    Ueq,
    Une,
    Ult,
    Ule,
    Ugt,
    Uge,
    Uno,
}

impl FCmpPred {
    pub const ALL: [FCmpPred; 14] = [
        FCmpPred::Oeq,
        FCmpPred::One,
        FCmpPred::Olt,
        FCmpPred::Ole,
        FCmpPred::Ogt,
        FCmpPred::Oge,
        FCmpPred::Ord,
        FCmpPred::Ueq,
        FCmpPred::Une,
        FCmpPred::Ult,
        FCmpPred::Ule,
        FCmpPred::Ugt,
        FCmpPred::Uge,
        FCmpPred::Uno,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FCmpPred::Oeq => "oeq",
            FCmpPred::One => "one",
            FCmpPred::Olt => "olt",
            FCmpPred::Ole => "ole",
            FCmpPred::Ogt => "ogt",
            FCmpPred::Oge => "oge",
            FCmpPred::Ord => "ord",
            FCmpPred::Ueq => "ueq",
            FCmpPred::Une => "une",
            FCmpPred::Ult => "ult",
            FCmpPred::Ule => "ule",
            FCmpPred::Ugt => "ugt",
            FCmpPred::Uge => "uge",
            FCmpPred::Uno => "uno",
        }
    }

    pub fn from_name(s: &str) -> Option<FCmpPred> {
        FCmpPred::ALL.iter().copied().find(|o| o.name() == s)
    }

    /// The predicate that gives the same answer with the operands swapped
    /// (`a olt b` is `b ogt a`); NaN handling is unchanged.
    pub fn swapped(self) -> FCmpPred {
        match self {
            FCmpPred::Olt => FCmpPred::Ogt,
            FCmpPred::Ole => FCmpPred::Oge,
            FCmpPred::Ogt => FCmpPred::Olt,
            FCmpPred::Oge => FCmpPred::Ole,
            FCmpPred::Ult => FCmpPred::Ugt,
            FCmpPred::Ule => FCmpPred::Uge,
            FCmpPred::Ugt => FCmpPred::Ult,
            FCmpPred::Uge => FCmpPred::Ule,
            p => p,
        }
    }

    /// The predicate true exactly when this one is false (`olt` and `uge`): the logical
    /// negation flips ordered and unordered, so `!(a < b)` is NOT `a >= b` for floats.
    pub fn inverse(self) -> FCmpPred {
        match self {
            FCmpPred::Oeq => FCmpPred::Une,
            FCmpPred::One => FCmpPred::Ueq,
            FCmpPred::Olt => FCmpPred::Uge,
            FCmpPred::Ole => FCmpPred::Ugt,
            FCmpPred::Ogt => FCmpPred::Ule,
            FCmpPred::Oge => FCmpPred::Ult,
            FCmpPred::Ord => FCmpPred::Uno,
            FCmpPred::Ueq => FCmpPred::One,
            FCmpPred::Une => FCmpPred::Oeq,
            FCmpPred::Ult => FCmpPred::Oge,
            FCmpPred::Ule => FCmpPred::Ogt,
            FCmpPred::Ugt => FCmpPred::Ole,
            FCmpPred::Uge => FCmpPred::Olt,
            FCmpPred::Uno => FCmpPred::Ord,
        }
    }
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// `@name`: a module function or a declared external.
    Direct(String),
    /// `%fp`: a pointer operand.
    Indirect(Operand),
}

/// A non-terminating instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// `%d = alloca TYPE, SIZE, ALIGN [volatile]`
    Alloca {
        dest: Value,
        ty: IrType,
        size: u32,
        align: u32,
        volatile: bool,
    },
    /// `%d = paramref N, TYPE`
    ParamRef { dest: Value, index: u32, ty: IrType },
    /// `%d = load TYPE PTR`
    Load {
        dest: Value,
        ty: IrType,
        ptr: Operand,
    },
    /// `store TYPE VAL, PTR`
    Store {
        ty: IrType,
        val: Operand,
        ptr: Operand,
    },
    /// `%d = gep PTR, OFF`
    Gep {
        dest: Value,
        base: Operand,
        offset: Operand,
    },
    /// `%d = globaladdr @sym`
    GlobalAddr { dest: Value, name: String },
    /// `memcpy DST, SRC, SIZE`
    Memcpy {
        dst: Operand,
        src: Operand,
        size: u32,
    },
    /// `%d = OP TYPE A, B`
    Bin {
        dest: Value,
        op: BinOp,
        ty: IrType,
        lhs: Operand,
        rhs: Operand,
    },
    /// `%d = OP TYPE A`
    Un {
        dest: Value,
        op: UnOp,
        ty: IrType,
        src: Operand,
    },
    /// `%d = cmp PRED TYPE A, B` (result `i8`)
    Cmp {
        dest: Value,
        pred: CmpPred,
        ty: IrType,
        lhs: Operand,
        rhs: Operand,
    },
    /// `%d = cast FROM A to TO`
    Cast {
        dest: Value,
        from: IrType,
        src: Operand,
        to: IrType,
    },
    /// `%d = FOP TYPE A, B` (`fadd fsub fmul fdiv`; TYPE is `f32` or `f64`)
    FBin {
        dest: Value,
        op: FBinOp,
        ty: IrType,
        lhs: Operand,
        rhs: Operand,
    },
    /// `%d = fneg TYPE A`: flips the sign bit (also of a NaN and of a zero)
    FNeg {
        dest: Value,
        ty: IrType,
        src: Operand,
    },
    /// `%d = fcmp PRED TYPE A, B` (result `i8`)
    FCmp {
        dest: Value,
        pred: FCmpPred,
        ty: IrType,
        lhs: Operand,
        rhs: Operand,
    },
    /// `%d = bitcast FROM A to TO`: the same bits read in another type of the same size
    Bitcast {
        dest: Value,
        from: IrType,
        src: Operand,
        to: IrType,
    },
    /// `%d = copy TYPE A`
    Copy {
        dest: Value,
        ty: IrType,
        src: Operand,
    },
    /// `%d = select TYPE C, A, B`
    Select {
        dest: Value,
        ty: IrType,
        cond: Operand,
        on_true: Operand,
        on_false: Operand,
    },
    /// `%d = phi TYPE [A, .LBB1], [B, .LBB2]`
    Phi {
        dest: Value,
        ty: IrType,
        incoming: Vec<(Operand, BlockId)>,
    },
    /// `[%d =] call TYPE @f(TYPE A, ...)` or `call TYPE %fp(...)`; with `named`,
    /// `call TYPE %fp(TYPE A, ..., TYPE B)`: `...` stands after the named arguments.
    Call {
        dest: Option<Value>,
        ret: IrType,
        callee: Callee,
        args: Vec<(IrType, Operand)>,
        /// For a call of a variadic function through a pointer: how many of `args` are
        /// named (the rest are the `...` part, which RISC-V passes differently). `None`
        /// for every other call: a direct call's callee declaration says it.
        named: Option<u32>,
    },
    /// `%d = dynalloca SIZE, ALIGN`: a fresh stack object of SIZE bytes (an `i64` operand,
    /// read unsigned) at ALIGN, alive until a `stackrestore` to a save made before it or
    /// the function's return (C's variable-length arrays, `alloca`; docs/ir-notes.md)
    DynAlloca {
        dest: Value,
        size: Operand,
        align: u32,
    },
    /// `%d = stacksave`: a `ptr` token for the current extent of the dynamic allocations
    StackSave { dest: Value },
    /// `stackrestore PTR`: frees every `dynalloca` made since the `stacksave` that gave PTR
    StackRestore { ptr: Operand },
}

impl Inst {
    /// The value this instruction defines, if any.
    pub fn dest(&self) -> Option<Value> {
        match self {
            Inst::Alloca { dest, .. }
            | Inst::ParamRef { dest, .. }
            | Inst::Load { dest, .. }
            | Inst::Gep { dest, .. }
            | Inst::GlobalAddr { dest, .. }
            | Inst::Bin { dest, .. }
            | Inst::Un { dest, .. }
            | Inst::Cmp { dest, .. }
            | Inst::Cast { dest, .. }
            | Inst::FBin { dest, .. }
            | Inst::FNeg { dest, .. }
            | Inst::FCmp { dest, .. }
            | Inst::Bitcast { dest, .. }
            | Inst::Copy { dest, .. }
            | Inst::Select { dest, .. }
            | Inst::Phi { dest, .. }
            | Inst::DynAlloca { dest, .. }
            | Inst::StackSave { dest } => Some(*dest),
            Inst::Call { dest, .. } => *dest,
            Inst::Store { .. } | Inst::Memcpy { .. } | Inst::StackRestore { .. } => None,
        }
    }

    /// Mutable access to the defined value, if any (for renumbering).
    pub fn dest_mut(&mut self) -> Option<&mut Value> {
        match self {
            Inst::Alloca { dest, .. }
            | Inst::ParamRef { dest, .. }
            | Inst::Load { dest, .. }
            | Inst::Gep { dest, .. }
            | Inst::GlobalAddr { dest, .. }
            | Inst::Bin { dest, .. }
            | Inst::Un { dest, .. }
            | Inst::Cmp { dest, .. }
            | Inst::Cast { dest, .. }
            | Inst::FBin { dest, .. }
            | Inst::FNeg { dest, .. }
            | Inst::FCmp { dest, .. }
            | Inst::Bitcast { dest, .. }
            | Inst::Copy { dest, .. }
            | Inst::Select { dest, .. }
            | Inst::Phi { dest, .. }
            | Inst::DynAlloca { dest, .. }
            | Inst::StackSave { dest } => Some(dest),
            Inst::Call { dest, .. } => dest.as_mut(),
            Inst::Store { .. } | Inst::Memcpy { .. } | Inst::StackRestore { .. } => None,
        }
    }

    /// The type of the defined value (`void` when nothing is defined).
    pub fn result_type(&self) -> IrType {
        match self {
            Inst::Alloca { .. }
            | Inst::Gep { .. }
            | Inst::GlobalAddr { .. }
            | Inst::DynAlloca { .. }
            | Inst::StackSave { .. } => IrType::Ptr,
            Inst::ParamRef { ty, .. }
            | Inst::Load { ty, .. }
            | Inst::Bin { ty, .. }
            | Inst::Un { ty, .. }
            | Inst::FBin { ty, .. }
            | Inst::FNeg { ty, .. }
            | Inst::Copy { ty, .. }
            | Inst::Select { ty, .. }
            | Inst::Phi { ty, .. } => *ty,
            Inst::Cmp { .. } | Inst::FCmp { .. } => IrType::I8,
            Inst::Cast { to, .. } | Inst::Bitcast { to, .. } => *to,
            Inst::Call { dest, ret, .. } => {
                if dest.is_some() {
                    *ret
                } else {
                    IrType::Void
                }
            }
            Inst::Store { .. } | Inst::Memcpy { .. } | Inst::StackRestore { .. } => IrType::Void,
        }
    }

    /// Visits every operand with its context type, in text order. The context type is the
    /// type an unsuffixed literal in that position takes and the type a value there must
    /// have (`ptr` for addresses, `i64` for a gep offset, `i8` for a select condition).
    /// Phi operands are visited in incoming order.
    pub fn for_each_operand_typed(&self, mut f: impl FnMut(&Operand, IrType)) {
        match self {
            Inst::Alloca { .. }
            | Inst::ParamRef { .. }
            | Inst::GlobalAddr { .. }
            | Inst::StackSave { .. } => {}
            Inst::DynAlloca { size, .. } => f(size, IrType::I64),
            Inst::StackRestore { ptr } => f(ptr, IrType::Ptr),
            Inst::Load { ptr, .. } => f(ptr, IrType::Ptr),
            Inst::Store { ty, val, ptr } => {
                f(val, *ty);
                f(ptr, IrType::Ptr);
            }
            Inst::Gep { base, offset, .. } => {
                f(base, IrType::Ptr);
                f(offset, IrType::I64);
            }
            Inst::Memcpy { dst, src, .. } => {
                f(dst, IrType::Ptr);
                f(src, IrType::Ptr);
            }
            Inst::Bin { ty, lhs, rhs, .. }
            | Inst::Cmp { ty, lhs, rhs, .. }
            | Inst::FBin { ty, lhs, rhs, .. }
            | Inst::FCmp { ty, lhs, rhs, .. } => {
                f(lhs, *ty);
                f(rhs, *ty);
            }
            Inst::Un { ty, src, .. } | Inst::FNeg { ty, src, .. } | Inst::Copy { ty, src, .. } => {
                f(src, *ty)
            }
            Inst::Cast { from, src, .. } | Inst::Bitcast { from, src, .. } => f(src, *from),
            Inst::Select {
                ty,
                cond,
                on_true,
                on_false,
                ..
            } => {
                f(cond, IrType::I8);
                f(on_true, *ty);
                f(on_false, *ty);
            }
            Inst::Phi { ty, incoming, .. } => {
                for (op, _) in incoming {
                    f(op, *ty);
                }
            }
            Inst::Call { callee, args, .. } => {
                if let Callee::Indirect(fp) = callee {
                    f(fp, IrType::Ptr);
                }
                for (ty, op) in args {
                    f(op, *ty);
                }
            }
        }
    }

    /// Mutable twin of [`Inst::for_each_operand_typed`], same order.
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            Inst::Alloca { .. }
            | Inst::ParamRef { .. }
            | Inst::GlobalAddr { .. }
            | Inst::StackSave { .. } => {}
            Inst::DynAlloca { size, .. } => f(size),
            Inst::StackRestore { ptr } => f(ptr),
            Inst::Load { ptr, .. } => f(ptr),
            Inst::Store { val, ptr, .. } => {
                f(val);
                f(ptr);
            }
            Inst::Gep { base, offset, .. } => {
                f(base);
                f(offset);
            }
            Inst::Memcpy { dst, src, .. } => {
                f(dst);
                f(src);
            }
            Inst::Bin { lhs, rhs, .. }
            | Inst::Cmp { lhs, rhs, .. }
            | Inst::FBin { lhs, rhs, .. }
            | Inst::FCmp { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            Inst::Un { src, .. }
            | Inst::FNeg { src, .. }
            | Inst::Copy { src, .. }
            | Inst::Cast { src, .. }
            | Inst::Bitcast { src, .. } => f(src),
            Inst::Select {
                cond,
                on_true,
                on_false,
                ..
            } => {
                f(cond);
                f(on_true);
                f(on_false);
            }
            Inst::Phi { incoming, .. } => {
                for (op, _) in incoming {
                    f(op);
                }
            }
            Inst::Call { callee, args, .. } => {
                if let Callee::Indirect(fp) = callee {
                    f(fp);
                }
                for (_, op) in args {
                    f(op);
                }
            }
        }
    }

    /// Visits every operand, in text order.
    pub fn for_each_operand(&self, mut f: impl FnMut(&Operand)) {
        self.for_each_operand_typed(|op, _| f(op));
    }

    /// The canonical used-values visitor: every `Value` this instruction reads, in text
    /// order (a value used twice is visited twice). Every pass uses this.
    pub fn for_each_used_value(&self, mut f: impl FnMut(Value)) {
        self.for_each_operand(|op| {
            if let Operand::Value(v) = op {
                f(*v)
            }
        });
    }

    /// True for instructions whose removal changes behaviour even if the result is unused.
    pub fn has_side_effects(&self) -> bool {
        match self {
            Inst::Store { .. } | Inst::Memcpy { .. } | Inst::Call { .. } => true,
            // Dynamic stack allocation moves the stack: never removed, merged or moved.
            Inst::DynAlloca { .. } | Inst::StackSave { .. } | Inst::StackRestore { .. } => true,
            Inst::Bin { op, .. } => op.can_trap() || op.is_shift(),
            // A float to integer conversion is undefined when the value does not fit.
            Inst::Cast { from, to, .. } => from.is_float() && !to.is_float(),
            // A load can fault; an alloca creates an object whose address may be compared.
            Inst::Load { .. } | Inst::Alloca { .. } => true,
            _ => false,
        }
    }

    /// True for the dynamic stack instructions (`dynalloca`, `stacksave`, `stackrestore`):
    /// a function holding one is never inlined (its allocations would outlive the call,
    /// as gcc's inliner also refuses `alloca`), and its frame is addressed from the frame
    /// pointer natively.
    pub fn is_dynamic_stack(&self) -> bool {
        matches!(
            self,
            Inst::DynAlloca { .. } | Inst::StackSave { .. } | Inst::StackRestore { .. }
        )
    }

    /// True for phis.
    pub fn is_phi(&self) -> bool {
        matches!(self, Inst::Phi { .. })
    }
}

/// The last thing in every block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Terminator {
    /// `br .LBB1`
    Br(BlockId),
    /// `condbr C, .LBB1, .LBB2`: C != 0 goes to the first.
    CondBr {
        cond: Operand,
        if_true: BlockId,
        if_false: BlockId,
    },
    /// `switch TYPE V, .LBBdefault [1: .LBB3, -4: .LBB5]`; case values are canonical for TYPE.
    Switch {
        ty: IrType,
        val: Operand,
        default: BlockId,
        cases: Vec<(i64, BlockId)>,
    },
    /// `ret [TYPE V]`
    Ret(Option<(IrType, Operand)>),
    /// `unreachable`
    Unreachable,
}

impl Terminator {
    /// Visits every successor edge in text order; a target named twice is visited twice
    /// (`condbr %c, .LBB1, .LBB1` has two edges to `.LBB1`). For a switch the default
    /// comes first.
    pub fn for_each_successor(&self, mut f: impl FnMut(BlockId)) {
        match self {
            Terminator::Br(b) => f(*b),
            Terminator::CondBr {
                if_true, if_false, ..
            } => {
                f(*if_true);
                f(*if_false);
            }
            Terminator::Switch { default, cases, .. } => {
                f(*default);
                for (_, b) in cases {
                    f(*b);
                }
            }
            Terminator::Ret(_) | Terminator::Unreachable => {}
        }
    }

    /// Mutable twin of [`Terminator::for_each_successor`], same order.
    pub fn for_each_successor_mut(&mut self, mut f: impl FnMut(&mut BlockId)) {
        match self {
            Terminator::Br(b) => f(b),
            Terminator::CondBr {
                if_true, if_false, ..
            } => {
                f(if_true);
                f(if_false);
            }
            Terminator::Switch { default, cases, .. } => {
                f(default);
                for (_, b) in cases {
                    f(b);
                }
            }
            Terminator::Ret(_) | Terminator::Unreachable => {}
        }
    }

    /// The successor edges, in order, repeats kept.
    pub fn successors(&self) -> Vec<BlockId> {
        let mut out = Vec::new();
        self.for_each_successor(|b| out.push(b));
        out
    }

    /// Visits the operand (if any) with its context type.
    pub fn for_each_operand_typed(&self, mut f: impl FnMut(&Operand, IrType)) {
        match self {
            Terminator::CondBr { cond, .. } => f(cond, IrType::I8),
            Terminator::Switch { ty, val, .. } => f(val, *ty),
            Terminator::Ret(Some((ty, v))) => f(v, *ty),
            Terminator::Br(_) | Terminator::Ret(None) | Terminator::Unreachable => {}
        }
    }

    /// Mutable access to the operand (if any).
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            Terminator::CondBr { cond, .. } => f(cond),
            Terminator::Switch { val, .. } => f(val),
            Terminator::Ret(Some((_, v))) => f(v),
            Terminator::Br(_) | Terminator::Ret(None) | Terminator::Unreachable => {}
        }
    }

    /// The canonical used-values visitor for terminators.
    pub fn for_each_used_value(&self, mut f: impl FnMut(Value)) {
        self.for_each_operand_typed(|op, _| {
            if let Operand::Value(v) = op {
                f(*v)
            }
        });
    }
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for UnOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for FBinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for FCmpPred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for CmpPred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A typed constant operand, shorthand for tests and builders.
pub fn konst(ty: IrType, v: i64) -> Operand {
    Operand::Const(IrConst::new(ty, v))
}
