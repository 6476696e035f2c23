//! Shorthand constructors for writing IR in tests through the Rust types (the text
//! parser is written in parallel). Each helper builds exactly the instruction its name
//! says; blocks are labelled `.LBB<index>` unless a test says otherwise.

use crate::ir::{
    BasicBlock, BinOp, BlockId, CmpPred, FuncAttrs, Inst, IrConst, IrFunction, IrType, Operand,
    Terminator, Value,
};

pub use IrType::{I32, I64, I8, U16, U8};

/// `%n` as an operand.
pub fn v(n: u32) -> Operand {
    Operand::Value(Value(n))
}

/// The constant `x` of type `ty`.
pub fn c(ty: IrType, x: i64) -> Operand {
    Operand::Const(IrConst::new(ty, x))
}

/// `%d = alloca TY, size(TY), size(TY)`
pub fn alloca(d: u32, ty: IrType) -> Inst {
    let size = ty.max_size().max(1);
    Inst::Alloca {
        dest: Value(d),
        ty,
        size,
        align: size,
        volatile: false,
    }
}

/// `%d = alloca TY, SIZE, 8 [volatile]`
pub fn alloca_sized(d: u32, ty: IrType, size: u32, volatile: bool) -> Inst {
    Inst::Alloca {
        dest: Value(d),
        ty,
        size,
        align: 8,
        volatile,
    }
}

/// `%d = paramref N, TY`
pub fn paramref(d: u32, index: u32, ty: IrType) -> Inst {
    Inst::ParamRef {
        dest: Value(d),
        index,
        ty,
    }
}

/// `%d = load TY %p`
pub fn load(d: u32, ty: IrType, p: u32) -> Inst {
    Inst::Load {
        dest: Value(d),
        ty,
        ptr: v(p),
    }
}

/// `store TY VAL, %p`
pub fn store(ty: IrType, val: Operand, p: u32) -> Inst {
    Inst::Store { ty, val, ptr: v(p) }
}

/// `%d = copy TY SRC`
pub fn copy(d: u32, ty: IrType, src: Operand) -> Inst {
    Inst::Copy {
        dest: Value(d),
        ty,
        src,
    }
}

/// `%d = OP TY A, B`
pub fn bin(d: u32, op: BinOp, ty: IrType, a: Operand, b: Operand) -> Inst {
    Inst::Bin {
        dest: Value(d),
        op,
        ty,
        lhs: a,
        rhs: b,
    }
}

/// `%d = add TY A, B`
pub fn add(d: u32, ty: IrType, a: Operand, b: Operand) -> Inst {
    bin(d, BinOp::Add, ty, a, b)
}

/// `%d = cmp PRED TY A, B`
pub fn cmp(d: u32, pred: CmpPred, ty: IrType, a: Operand, b: Operand) -> Inst {
    Inst::Cmp {
        dest: Value(d),
        pred,
        ty,
        lhs: a,
        rhs: b,
    }
}

/// `%d = gep BASE, OFF`
pub fn gep(d: u32, base: Operand, off: i64) -> Inst {
    Inst::Gep {
        dest: Value(d),
        base,
        offset: c(I64, off),
    }
}

/// `%d = phi TY [A, .LBBa], ...`
pub fn phi(d: u32, ty: IrType, incoming: &[(Operand, u32)]) -> Inst {
    Inst::Phi {
        dest: Value(d),
        ty,
        incoming: incoming.iter().map(|&(o, b)| (o, BlockId(b))).collect(),
    }
}

/// `br .LBBt`
pub fn br(t: u32) -> Terminator {
    Terminator::Br(BlockId(t))
}

/// `condbr C, .LBBt, .LBBf`
pub fn condbr(cond: Operand, t: u32, f: u32) -> Terminator {
    Terminator::CondBr {
        cond,
        if_true: BlockId(t),
        if_false: BlockId(f),
    }
}

/// `switch TY V, .LBBdefault [case: .LBBt, ...]`
pub fn switch(ty: IrType, val: Operand, default: u32, cases: &[(i64, u32)]) -> Terminator {
    Terminator::Switch {
        ty,
        val,
        default: BlockId(default),
        cases: cases.iter().map(|&(k, b)| (k, BlockId(b))).collect(),
    }
}

/// `ret TY V`
pub fn ret(ty: IrType, val: Operand) -> Terminator {
    Terminator::Ret(Some((ty, val)))
}

/// Block `.LBB<label>`.
pub fn block(label: u32, insts: Vec<Inst>, term: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(label),
        insts,
        term,
    }
}

/// `func @f(PARAMS) -> RET { BLOCKS }`
pub fn func(params: &[IrType], ret: IrType, blocks: Vec<BasicBlock>) -> IrFunction {
    IrFunction {
        name: "f".into(),
        params: params.to_vec(),
        ret,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks,
    }
}
