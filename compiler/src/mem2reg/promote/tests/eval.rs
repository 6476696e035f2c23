//! A tiny reference evaluator for the tests (the real interpreter, the oracle, is written
//! in parallel): enough of IR.md's meaning to run the integer programs these tests build
//! before and after promotion and compare what they return.
//!
//! Memory: each alloca execution is a fresh allocation; a pointer is (allocation << 32) +
//! offset; a cell remembers the type it was stored with. Reading a cell never written is
//! undefined (as IR.md says); reading it with another type is outside this evaluator.

use crate::ir::{BinOp, CmpPred, Inst, IrFunction, IrType, Operand, Terminator, UnOp, Value};
use rustc_hash::FxHashMap;

/// How a run ends when it does not return.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Undefined behaviour (uninitialized read, `unreachable`, ...).
    Undefined(String),
    /// Fuel exhausted.
    OutOfFuel,
    /// Something this evaluator does not model.
    Unsupported(String),
}

/// What a run returns: the raw 64-bit pattern of the returned value (0 for `ret void`).
pub type RunResult = Result<u64, Stop>;

/// Runs `func` on `args` for at most `fuel` instructions.
pub fn run(func: &IrFunction, args: &[i64], fuel: u64) -> RunResult {
    let index = func.block_index();
    let mut regs: FxHashMap<Value, u64> = FxHashMap::default();
    let mut memory: Vec<FxHashMap<u64, (IrType, u64)>> = Vec::new();
    let mut fuel = fuel;
    let mut block = 0usize;
    let mut pred: Option<crate::ir::BlockId> = None;
    let read = |regs: &FxHashMap<Value, u64>, op: &Operand| -> Result<u64, Stop> {
        match op {
            Operand::Const(k) => Ok(k.bits as u64),
            Operand::Value(x) => regs
                .get(x)
                .copied()
                .ok_or_else(|| Stop::Undefined(format!("{x} read before definition"))),
        }
    };
    loop {
        let b = func
            .blocks
            .get(block)
            .ok_or_else(|| Stop::Unsupported("no such block".into()))?;
        // All phis read at once, on entry, from the edge taken.
        let mut phi_values = Vec::new();
        for inst in b.phis() {
            if let Inst::Phi { dest, incoming, .. } = inst {
                let from = pred.ok_or_else(|| Stop::Undefined("phi in entry".into()))?;
                let (op, _) = incoming
                    .iter()
                    .find(|(_, l)| *l == from)
                    .ok_or_else(|| Stop::Undefined(format!("phi {dest} has no entry")))?;
                phi_values.push((*dest, read(&regs, op)?));
            }
        }
        for (d, x) in phi_values {
            regs.insert(d, x);
        }
        for inst in b.insts.iter().skip(b.phi_count()) {
            if fuel == 0 {
                return Err(Stop::OutOfFuel);
            }
            fuel -= 1;
            let canon = |ty: IrType, x: u64| ty.canonicalize(x, 8);
            let (dest, value) = match inst {
                Inst::Alloca { dest, .. } => {
                    memory.push(FxHashMap::default());
                    (*dest, (memory.len() as u64) << 32)
                }
                Inst::ParamRef { dest, index, ty } => {
                    let a = args
                        .get(*index as usize)
                        .ok_or_else(|| Stop::Unsupported("missing argument".into()))?;
                    (*dest, canon(*ty, *a as u64))
                }
                Inst::Load { dest, ty, ptr } => {
                    let p = read(&regs, ptr)?;
                    let cell = memory
                        .get_mut(((p >> 32) as usize).wrapping_sub(1))
                        .ok_or_else(|| Stop::Undefined("load from a non-pointer".into()))?;
                    match cell.get(&(p & 0xffff_ffff)) {
                        None => return Err(Stop::Undefined(format!("{dest}: uninit read"))),
                        Some((t, _)) if t != ty => {
                            return Err(Stop::Unsupported("type-punned load".into()))
                        }
                        Some((_, x)) => (*dest, *x),
                    }
                }
                Inst::Store { ty, val, ptr } => {
                    let p = read(&regs, ptr)?;
                    let x = read(&regs, val)?;
                    let cell = memory
                        .get_mut(((p >> 32) as usize).wrapping_sub(1))
                        .ok_or_else(|| Stop::Undefined("store to a non-pointer".into()))?;
                    cell.insert(p & 0xffff_ffff, (*ty, canon(*ty, x)));
                    continue;
                }
                Inst::Gep { dest, base, offset } => {
                    let p = read(&regs, base)?;
                    (*dest, p.wrapping_add(read(&regs, offset)?))
                }
                Inst::Bin {
                    dest,
                    op,
                    ty,
                    lhs,
                    rhs,
                } => {
                    let (a, b) = (read(&regs, lhs)?, read(&regs, rhs)?);
                    let x = match op {
                        BinOp::Add => a.wrapping_add(b),
                        BinOp::Sub => a.wrapping_sub(b),
                        BinOp::Mul => a.wrapping_mul(b),
                        BinOp::And => a & b,
                        BinOp::Or => a | b,
                        BinOp::Xor => a ^ b,
                        other => return Err(Stop::Unsupported(format!("{other}"))),
                    };
                    (*dest, canon(*ty, x))
                }
                Inst::Un { dest, op, ty, src } => {
                    let a = read(&regs, src)?;
                    let x = match op {
                        UnOp::Neg => a.wrapping_neg(),
                        UnOp::Not => !a,
                    };
                    (*dest, canon(*ty, x))
                }
                Inst::Cmp {
                    dest,
                    pred: p,
                    ty,
                    lhs,
                    rhs,
                } => {
                    let (a, b) = (canon(*ty, read(&regs, lhs)?), canon(*ty, read(&regs, rhs)?));
                    let (sa, sb) = (a as i64, b as i64);
                    let r = match p {
                        CmpPred::Eq => a == b,
                        CmpPred::Ne => a != b,
                        CmpPred::Slt => sa < sb,
                        CmpPred::Sle => sa <= sb,
                        CmpPred::Sgt => sa > sb,
                        CmpPred::Sge => sa >= sb,
                        CmpPred::Ult => a < b,
                        CmpPred::Ule => a <= b,
                        CmpPred::Ugt => a > b,
                        CmpPred::Uge => a >= b,
                    };
                    (*dest, r as u64)
                }
                Inst::FBin { .. }
                | Inst::FNeg { .. }
                | Inst::FCmp { .. }
                | Inst::Bitcast { .. } => {
                    return Err(Stop::Unsupported("float instruction".into()))
                }
                Inst::DynAlloca { .. } | Inst::StackSave { .. } | Inst::StackRestore { .. } => {
                    return Err(Stop::Unsupported("dynamic stack instruction".into()))
                }
                Inst::Cast {
                    dest,
                    from,
                    src,
                    to,
                } => {
                    let a = canon(*from, read(&regs, src)?);
                    (*dest, canon(*to, a))
                }
                // No canonicalization: a constant of the wrong width flows on as it is,
                // the way a 64-bit move of an unnarrowed literal would.
                Inst::Copy { dest, src, .. } => (*dest, read(&regs, src)?),
                Inst::Select {
                    dest,
                    cond,
                    on_true,
                    on_false,
                    ..
                } => {
                    let t = read(&regs, on_true)?;
                    let f = read(&regs, on_false)?;
                    (*dest, if read(&regs, cond)? != 0 { t } else { f })
                }
                Inst::GlobalAddr { .. }
                | Inst::Memcpy { .. }
                | Inst::Call { .. }
                | Inst::Phi { .. } => {
                    return Err(Stop::Unsupported(
                        "instruction outside the evaluator".into(),
                    ))
                }
            };
            regs.insert(dest, value);
        }
        if fuel == 0 {
            return Err(Stop::OutOfFuel);
        }
        fuel -= 1;
        let next = match &b.term {
            Terminator::Br(t) => *t,
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                if read(&regs, cond)? != 0 {
                    *if_true
                } else {
                    *if_false
                }
            }
            Terminator::Switch {
                ty,
                val,
                default,
                cases,
            } => {
                let x = ty.canonicalize(read(&regs, val)?, 8) as i64;
                cases
                    .iter()
                    .find(|(k, _)| *k == x)
                    .map(|(_, t)| *t)
                    .unwrap_or(*default)
            }
            Terminator::Ret(None) => return Ok(0),
            Terminator::Ret(Some((_, op))) => return read(&regs, op),
            Terminator::Unreachable => return Err(Stop::Undefined("unreachable".into())),
        };
        pred = Some(b.label);
        block = *index
            .get(&next)
            .ok_or_else(|| Stop::Unsupported("branch to a missing block".into()))?;
    }
}
