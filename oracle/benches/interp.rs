//! Interpreter throughput: an arithmetic loop in SSA form (phis) and the same loop in
//! alloca form (loads and stores), each run several times; prints instructions per second
//! (steps / elapsed, and steps / CPU time where Linux reports it), with 8-byte pointers
//! and, for the alloca form, also 4-byte ones. Run with `cargo bench -p oracle --bench
//! interp`.

use compiler::ir::{
    konst, BasicBlock, BinOp, BlockId, CmpPred, FuncAttrs, Inst, IrFunction, IrModule, IrType,
    Operand, Terminator, Value,
};
use oracle::{Outcome, Program, RunConfig};
use std::time::Instant;

const ITERATIONS: i64 = 2_000_000;
const RUNS: usize = 5;

fn v(n: u32) -> Operand {
    Operand::Value(Value(n))
}

fn bin(d: u32, op: BinOp, a: Operand, b: Operand) -> Inst {
    Inst::Bin {
        dest: Value(d),
        op,
        ty: IrType::I32,
        lhs: a,
        rhs: b,
    }
}

fn function(name: &str, blocks: Vec<BasicBlock>) -> IrFunction {
    IrFunction {
        name: name.into(),
        params: vec![IrType::I32],
        ret: IrType::I32,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks,
    }
}

/// `acc = acc * 1103515245 ^ i + 12345` for `i` in `0..n`, with phis.
fn ssa_loop() -> IrFunction {
    let i32c = |x| konst(IrType::I32, x);
    function(
        "ssa",
        vec![
            BasicBlock {
                label: BlockId(0),
                insts: vec![Inst::ParamRef {
                    dest: Value(0),
                    index: 0,
                    ty: IrType::I32,
                }],
                term: Terminator::Br(BlockId(1)),
            },
            BasicBlock {
                label: BlockId(1),
                insts: vec![
                    Inst::Phi {
                        dest: Value(1),
                        ty: IrType::I32,
                        incoming: vec![(i32c(0), BlockId(0)), (v(5), BlockId(1))],
                    },
                    Inst::Phi {
                        dest: Value(2),
                        ty: IrType::I32,
                        incoming: vec![(i32c(1), BlockId(0)), (v(7), BlockId(1))],
                    },
                    bin(3, BinOp::Mul, v(2), i32c(1103515245)),
                    bin(4, BinOp::Xor, v(3), v(1)),
                    bin(5, BinOp::Add, v(1), i32c(1)),
                    bin(7, BinOp::Add, v(4), i32c(12345)),
                    Inst::Cmp {
                        dest: Value(6),
                        pred: CmpPred::Slt,
                        ty: IrType::I32,
                        lhs: v(5),
                        rhs: v(0),
                    },
                ],
                term: Terminator::CondBr {
                    cond: v(6),
                    if_true: BlockId(1),
                    if_false: BlockId(2),
                },
            },
            BasicBlock {
                label: BlockId(2),
                insts: vec![],
                term: Terminator::Ret(Some((IrType::I32, v(7)))),
            },
        ],
    )
}

/// The same loop with `n`, `i` and `acc` in stack slots, as the lowering emits it.
fn alloca_loop() -> IrFunction {
    let i32c = |x| konst(IrType::I32, x);
    let alloca = |d| Inst::Alloca {
        dest: Value(d),
        ty: IrType::I32,
        size: 4,
        align: 4,
        volatile: false,
    };
    let store = |val, ptr| Inst::Store {
        ty: IrType::I32,
        val,
        ptr,
    };
    let load = |d, ptr| Inst::Load {
        dest: Value(d),
        ty: IrType::I32,
        ptr,
    };
    function(
        "alloca",
        vec![
            BasicBlock {
                label: BlockId(0),
                insts: vec![
                    Inst::ParamRef {
                        dest: Value(0),
                        index: 0,
                        ty: IrType::I32,
                    },
                    alloca(1),
                    alloca(2),
                    alloca(3),
                    store(v(0), v(1)),
                    store(i32c(0), v(2)),
                    store(i32c(1), v(3)),
                ],
                term: Terminator::Br(BlockId(1)),
            },
            BasicBlock {
                label: BlockId(1),
                insts: vec![
                    load(4, v(2)),
                    load(5, v(3)),
                    bin(6, BinOp::Mul, v(5), i32c(1103515245)),
                    bin(7, BinOp::Xor, v(6), v(4)),
                    bin(8, BinOp::Add, v(7), i32c(12345)),
                    store(v(8), v(3)),
                    bin(9, BinOp::Add, v(4), i32c(1)),
                    store(v(9), v(2)),
                    load(10, v(1)),
                    Inst::Cmp {
                        dest: Value(11),
                        pred: CmpPred::Slt,
                        ty: IrType::I32,
                        lhs: v(9),
                        rhs: v(10),
                    },
                ],
                term: Terminator::CondBr {
                    cond: v(11),
                    if_true: BlockId(1),
                    if_false: BlockId(2),
                },
            },
            BasicBlock {
                label: BlockId(2),
                insts: vec![load(12, v(3))],
                term: Terminator::Ret(Some((IrType::I32, v(12)))),
            },
        ],
    )
}

/// The loop's result computed natively, to check the interpreter while timing it.
fn expected() -> i64 {
    let mut acc: i32 = 1;
    for i in 0..ITERATIONS as i32 {
        acc = (acc.wrapping_mul(1103515245) ^ i).wrapping_add(12345);
    }
    acc as i64
}

/// Nanoseconds this thread has spent on a CPU (Linux), to report a rate that does not
/// depend on how busy the machine is; `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn bench(label: &str, func: IrFunction, ptr_bytes: u32) {
    let name = func.name.clone();
    let module = IrModule {
        functions: vec![func],
        ..IrModule::default()
    };
    let cfg = RunConfig {
        fuel: u64::MAX,
        ptr_bytes,
        ..RunConfig::default()
    };
    let program = Program::new(&module, &cfg).expect("the benchmark module runs");
    let (mut best, mut best_cpu) = (0.0f64, 0.0f64);
    for run in 0..RUNS {
        let cpu_start = thread_cpu_ns();
        let start = Instant::now();
        let result = program.run(&name, &[ITERATIONS]).expect("runs");
        let secs = start.elapsed().as_secs_f64();
        let cpu_secs = match (cpu_start, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1e9),
            _ => None,
        };
        assert_eq!(
            result.outcome,
            Outcome::Returned(Some(expected())),
            "{name}"
        );
        let rate = result.steps as f64 / secs;
        best = best.max(rate);
        let cpu_note = match cpu_secs {
            Some(c) => {
                let cpu_rate = result.steps as f64 / c;
                best_cpu = best_cpu.max(cpu_rate);
                format!(" ({:.1} M/s of CPU time)", cpu_rate / 1e6)
            }
            None => String::new(),
        };
        println!(
            "{label:>9} run {run}: {} steps in {:.3} s = {:.1} M instructions/s{cpu_note}",
            result.steps,
            secs,
            rate / 1e6
        );
    }
    println!(
        "{label:>9} best: {:.1} M instructions/s wall, {:.1} M/s CPU",
        best / 1e6,
        best_cpu / 1e6
    );
}

fn main() {
    bench("ssa", ssa_loop(), 8);
    bench("alloca", alloca_loop(), 8);
    // 4-byte pointers decode addresses by binary search instead of a shift.
    bench("alloca/32", alloca_loop(), 4);
}
