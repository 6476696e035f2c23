//! Builders for test IR and the run-and-check helpers every test uses.

use crate::ir::text::print_function;
use crate::ir::verify::{verify_module, VerifyMode};
use crate::ir::{
    konst, BasicBlock, BinOp, BlockId, CmpPred, FuncAttrs, Inst, IrFunction, IrModule, IrType,
    Operand, Terminator, Value,
};
use crate::mem2reg::phi_eliminate::eliminate_phis;
use crate::mem2reg::phi_eliminate::replay::check_phi_elimination;
use crate::mutants::{set_active, Mutant};

pub fn v(n: u32) -> Operand {
    Operand::Value(Value(n))
}

pub fn c32(n: i64) -> Operand {
    konst(IrType::I32, n)
}

pub fn b(n: u32) -> BlockId {
    BlockId(n)
}

pub fn block(label: u32, insts: Vec<Inst>, term: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(label),
        insts,
        term,
    }
}

pub fn phi(dest: u32, ty: IrType, incoming: &[(Operand, u32)]) -> Inst {
    Inst::Phi {
        dest: Value(dest),
        ty,
        incoming: incoming.iter().map(|&(op, l)| (op, BlockId(l))).collect(),
    }
}

pub fn phi32(dest: u32, incoming: &[(Operand, u32)]) -> Inst {
    phi(dest, IrType::I32, incoming)
}

pub fn copy(dest: u32, ty: IrType, src: Operand) -> Inst {
    Inst::Copy {
        dest: Value(dest),
        ty,
        src,
    }
}

pub fn copy32(dest: u32, src: Operand) -> Inst {
    copy(dest, IrType::I32, src)
}

pub fn add32(dest: u32, lhs: Operand, rhs: Operand) -> Inst {
    Inst::Bin {
        dest: Value(dest),
        op: BinOp::Add,
        ty: IrType::I32,
        lhs,
        rhs,
    }
}

pub fn cmp32(dest: u32, lhs: Operand, rhs: Operand) -> Inst {
    Inst::Cmp {
        dest: Value(dest),
        pred: CmpPred::Slt,
        ty: IrType::I32,
        lhs,
        rhs,
    }
}

pub fn br(target: u32) -> Terminator {
    Terminator::Br(BlockId(target))
}

pub fn condbr(cond: Operand, t: u32, f: u32) -> Terminator {
    Terminator::CondBr {
        cond,
        if_true: BlockId(t),
        if_false: BlockId(f),
    }
}

pub fn ret32(op: Operand) -> Terminator {
    Terminator::Ret(Some((IrType::I32, op)))
}

/// The parameter types every test function takes: `%0..%3` in the entry block.
pub const PARAMS: [IrType; 4] = [IrType::I32, IrType::I32, IrType::I64, IrType::I64];

/// `%0 = paramref 0, i32` ... `%3 = paramref 3, i64`.
pub fn paramrefs() -> Vec<Inst> {
    PARAMS
        .iter()
        .enumerate()
        .map(|(i, &ty)| Inst::ParamRef {
            dest: Value(i as u32),
            index: i as u32,
            ty,
        })
        .collect()
}

/// `func @name(i32, i32, i64, i64) -> i32` with these blocks.
pub fn func(name: &str, blocks: Vec<BasicBlock>) -> IrFunction {
    IrFunction {
        name: name.into(),
        params: PARAMS.to_vec(),
        ret: IrType::I32,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks,
    }
}

pub fn module(functions: Vec<IrFunction>) -> IrModule {
    IrModule {
        functions,
        ..IrModule::default()
    }
}

/// Runs phi elimination on a module holding `before` alone; asserts the output passes
/// the post-phi-elimination verifier; returns the function and the phis eliminated.
pub fn eliminate(before: &IrFunction) -> (IrFunction, usize) {
    let mut m = module(vec![before.clone()]);
    let eliminated = eliminate_phis(&mut m);
    assert_verifies(&m, VerifyMode::PostPhiElim);
    (m.functions.pop().expect("one function"), eliminated)
}

/// Asserts `m` passes the verifier in `mode`.
#[track_caller]
pub fn assert_verifies(m: &IrModule, mode: VerifyMode) {
    if let Err(errors) = verify_module(m, mode) {
        let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("verifier ({mode:?}) failed:\n{}", list.join("\n"));
    }
}

/// For a valid SSA `before`: verifies it, eliminates its phis, and asserts the replay
/// checker accepts the result. Returns the output.
#[track_caller]
pub fn eliminate_checked(before: &IrFunction) -> IrFunction {
    assert_verifies(&module(vec![before.clone()]), VerifyMode::Ssa);
    let (after, _) = eliminate(before);
    if let Err(e) = check_phi_elimination(before, &after) {
        panic!(
            "replay checker rejected the output: {e}\n{}",
            print_function(&after)
        );
    }
    after
}

/// Runs `f` with exactly `mutant` switched on for this thread, switching it off even if
/// `f` panics.
pub fn with_mutant<T>(mutant: Mutant, f: impl FnOnce() -> T) -> T {
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            set_active(&[]);
        }
    }
    set_active(&[mutant]);
    let _off = Off;
    f()
}

/// A deterministic xorshift64* generator: no new dependencies, reproducible by seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread small seeds and never start at zero (a fixed point of xorshift).
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}
