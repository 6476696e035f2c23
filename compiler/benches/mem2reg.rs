//! Benchmark of mem2reg on generated alloca-form functions of 1k, 10k and 100k blocks.
//!
//! Why: SSA construction must scale linearly (10x the blocks may cost at most 12x the
//! time) and promote a 100k-block function in under a second (release). The functions mix
//! what lowered C looks like: all allocas in the entry, i32 and i64 slots, a few used
//! throughout the function and the rest local to a region of about 64 blocks (the locals
//! of one statement group or inlined body), diamonds, loops and loops around diamonds,
//! with loads and stores in every block and `:i64` literals stored into i32 slots.
//!
//! Prints, per size, the median (and, for a loaded machine, the fastest) of 15 runs of `promote_allocas` alone and of the
//! whole of mem2reg followed by `eliminate_phis`, then the 10k/1k and 100k/10k ratios.
//! About one phi per block is needed, two copies each, so at 100k blocks the seed's phi
//! copy cost cap (50,000) is in effect: the table shows how many slots stay promoted.
//! Run with `cargo bench -p compiler --bench mem2reg`.

use compiler::ir::{
    BasicBlock, BinOp, BlockId, CmpPred, FuncAttrs, Inst, IrConst, IrFunction, IrModule, IrType,
    Operand, Terminator, Value,
};
use compiler::mem2reg::{eliminate_phis, promote_allocas};
use std::time::{Duration, Instant};

/// splitmix64: the generated functions are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// Slots used throughout the function.
const GLOBAL_SLOTS: usize = 2;
/// Slots of each region.
const REGION_SLOTS: usize = 6;
/// Blocks per region.
const REGION_BLOCKS: usize = 64;

/// Builds one function block by block; the block being built is always the last one.
struct Gen {
    rng: Rng,
    blocks: Vec<BasicBlock>,
    next_value: u32,
    /// Function-wide slots, then the current region's.
    global: Vec<(Value, IrType)>,
    region: Vec<(Value, IrType)>,
}

impl Gen {
    fn fresh(&mut self) -> Value {
        self.next_value += 1;
        Value(self.next_value - 1)
    }

    /// The label the next new block will have.
    fn next_label(&self) -> BlockId {
        BlockId(self.blocks.len() as u32)
    }

    /// Starts a new block (its terminator is set when it is closed).
    fn open(&mut self) -> BlockId {
        let label = self.next_label();
        self.blocks
            .push(BasicBlock::new(label, Terminator::Unreachable));
        label
    }

    fn emit(&mut self, inst: Inst) {
        if let Some(b) = self.blocks.last_mut() {
            b.insts.push(inst);
        }
    }

    fn close(&mut self, term: Terminator) {
        if let Some(b) = self.blocks.last_mut() {
            b.term = term;
        }
    }

    /// A slot of the region, now and then a function-wide one.
    fn slot(&mut self) -> (Value, IrType) {
        if self.rng.below(8) == 0 {
            self.global[self.rng.below(GLOBAL_SLOTS as u64) as usize]
        } else {
            self.region[self.rng.below(REGION_SLOTS as u64) as usize]
        }
    }

    fn load(&mut self, (slot, ty): (Value, IrType)) -> Value {
        let d = self.fresh();
        self.emit(Inst::Load {
            dest: d,
            ty,
            ptr: Operand::Value(slot),
        });
        d
    }

    /// The body of an ordinary block: read a slot, compute, write another of its type,
    /// sometimes store a literal (as the lowering writes it, `:i64`).
    fn traffic(&mut self) {
        let src = self.slot();
        let x = self.load(src);
        let y = self.fresh();
        let k = self.rng.below(100) as i64;
        self.emit(Inst::Bin {
            dest: y,
            op: BinOp::Add,
            ty: src.1,
            lhs: Operand::Value(x),
            rhs: Operand::Const(IrConst::new(src.1, k)),
        });
        let dst = loop {
            let s = self.slot();
            if s.1 == src.1 {
                break s;
            }
        };
        self.emit(Inst::Store {
            ty: dst.1,
            val: Operand::Value(y),
            ptr: Operand::Value(dst.0),
        });
        if self.rng.below(3) == 0 {
            let lit = self.slot();
            self.emit(Inst::Store {
                ty: lit.1,
                val: Operand::Const(IrConst::new(IrType::I64, k)),
                ptr: Operand::Value(lit.0),
            });
        }
    }

    /// Loads a slot and compares it: the condition of a branch.
    fn condition(&mut self) -> Operand {
        let s = self.slot();
        let x = self.load(s);
        let c = self.fresh();
        self.emit(Inst::Cmp {
            dest: c,
            pred: CmpPred::Slt,
            ty: s.1,
            lhs: Operand::Value(x),
            rhs: Operand::Const(IrConst::new(s.1, 50)),
        });
        Operand::Value(c)
    }

    /// head -> then, else -> join; leaves the join open.
    fn diamond(&mut self) {
        self.traffic();
        let cond = self.condition();
        let then_label = BlockId(self.next_label().0);
        let else_label = BlockId(then_label.0 + 1);
        let join_label = BlockId(then_label.0 + 2);
        self.close(Terminator::CondBr {
            cond,
            if_true: then_label,
            if_false: else_label,
        });
        self.open();
        self.traffic();
        self.close(Terminator::Br(join_label));
        self.open();
        self.traffic();
        self.close(Terminator::Br(join_label));
        self.open();
        self.traffic();
    }

    /// preheader -> header <-> body (optionally a diamond), header -> exit; leaves the exit
    /// open.
    fn looping(&mut self, with_diamond: bool) {
        let header = BlockId(self.next_label().0);
        self.close(Terminator::Br(header));
        self.open();
        self.traffic();
        let cond = self.condition();
        let body = BlockId(header.0 + 1);
        let exit_placeholder = self.blocks.len() - 1;
        self.close(Terminator::Unreachable); // patched once the exit exists
        self.open();
        self.traffic();
        if with_diamond {
            self.diamond();
        }
        self.close(Terminator::Br(header));
        let exit = self.open();
        self.blocks[exit_placeholder].term = Terminator::CondBr {
            cond,
            if_true: body,
            if_false: exit,
        };
        self.traffic();
    }

    /// Opens a region: fresh local slots (allocas in the entry) and their initial stores.
    fn new_region(&mut self) {
        self.region.clear();
        for k in 0..REGION_SLOTS {
            let ty = if k % 2 == 0 { IrType::I32 } else { IrType::I64 };
            let slot = self.fresh();
            self.blocks[0].insts.push(Inst::Alloca {
                dest: slot,
                ty,
                size: ty.max_size(),
                align: ty.max_size(),
                volatile: false,
            });
            self.emit(Inst::Store {
                ty,
                val: Operand::Const(IrConst::new(IrType::I64, k as i64)),
                ptr: Operand::Value(slot),
            });
            self.region.push((slot, ty));
        }
    }
}

/// An alloca-form function of about `target` blocks.
fn generate(target: usize, seed: u64) -> IrFunction {
    let mut g = Gen {
        rng: Rng(seed),
        blocks: Vec::new(),
        next_value: 1,
        global: Vec::new(),
        region: Vec::new(),
    };
    g.open();
    g.emit(Inst::ParamRef {
        dest: Value(0),
        index: 0,
        ty: IrType::I32,
    });
    for k in 0..GLOBAL_SLOTS {
        let ty = if k == 0 { IrType::I32 } else { IrType::I64 };
        let slot = g.fresh();
        g.emit(Inst::Alloca {
            dest: slot,
            ty,
            size: ty.max_size(),
            align: ty.max_size(),
            volatile: false,
        });
        g.emit(Inst::Store {
            ty,
            val: Operand::Const(IrConst::new(ty, 1)),
            ptr: Operand::Value(slot),
        });
        g.global.push((slot, ty));
    }
    let first = g.next_label();
    g.close(Terminator::Br(first));
    g.open();
    let mut region_end = 0;
    while g.blocks.len() < target {
        if g.blocks.len() >= region_end {
            g.new_region();
            region_end = g.blocks.len() + REGION_BLOCKS;
        }
        match g.rng.below(4) {
            0 | 1 => g.diamond(),
            2 => g.looping(false),
            _ => g.looping(true),
        }
    }
    let result = g.slot();
    let r = g.load(result);
    g.close(Terminator::Ret(Some((result.1, Operand::Value(r)))));
    IrFunction {
        name: "bench".into(),
        params: vec![IrType::I32],
        ret: IrType::I64,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks: g.blocks,
    }
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One generated function and its measurements.
struct Case {
    func: IrFunction,
    module: IrModule,
    promoted: usize,
    phis: usize,
    promote_times: Vec<Duration>,
    whole_times: Vec<Duration>,
}

/// Rounds of measurement; each round runs every size once, so a load spike on the
/// (shared) machine hits all sizes alike instead of skewing one ratio.
const ROUNDS: usize = 15;

fn main() {
    let mut cases: Vec<Case> = [1_000usize, 10_000, 100_000]
        .iter()
        .map(|&target| {
            let func = generate(target, 0xbe7c_0000 + target as u64);
            let module = IrModule {
                functions: vec![func.clone()],
                ..IrModule::default()
            };
            Case {
                func,
                module,
                promoted: 0,
                phis: 0,
                promote_times: Vec::new(),
                whole_times: Vec::new(),
            }
        })
        .collect();
    for _ in 0..ROUNDS {
        for case in &mut cases {
            let mut work = case.func.clone();
            let start = Instant::now();
            case.promoted = promote_allocas(&mut work);
            case.promote_times.push(start.elapsed());
            case.phis = work.blocks.iter().map(|b| b.phi_count()).sum();
            drop(work);

            let mut work = case.module.clone();
            let start = Instant::now();
            work.for_each_function(promote_allocas);
            eliminate_phis(&mut work);
            case.whole_times.push(start.elapsed());
        }
    }
    println!(
        "{:>8} {:>9} {:>8} {:>8} {:>8} {:>14} {:>10} {:>14}",
        "blocks", "insts", "slots", "promoted", "phis", "promote (ms)", "(min)", "+phi_elim (ms)"
    );
    let mut promote_medians = Vec::new();
    let mut whole_medians = Vec::new();
    for case in cases {
        let slots = case.func.blocks[0]
            .insts
            .iter()
            .filter(|i| matches!(i, Inst::Alloca { .. }))
            .count();
        let fastest = case.promote_times.iter().min().copied().unwrap_or_default();
        let (p, w) = (median(case.promote_times), median(case.whole_times));
        println!(
            "{:>8} {:>9} {:>8} {:>8} {:>8} {:>14.3} {:>10.3} {:>14.3}",
            case.func.blocks.len(),
            case.func.inst_count(),
            slots,
            case.promoted,
            case.phis,
            ms(p),
            ms(fastest),
            ms(w)
        );
        promote_medians.push(p);
        whole_medians.push(w);
    }
    let ratio = |v: &[Duration], i: usize| v[i + 1].as_secs_f64() / v[i].as_secs_f64();
    println!(
        "promote_allocas:          10k/1k = {:.2}x, 100k/10k = {:.2}x (target <= 12x); 100k under 1 s: {}",
        ratio(&promote_medians, 0),
        ratio(&promote_medians, 1),
        promote_medians[2] < Duration::from_secs(1)
    );
    println!(
        "mem2reg + eliminate_phis: 10k/1k = {:.2}x, 100k/10k = {:.2}x",
        ratio(&whole_medians, 0),
        ratio(&whole_medians, 1)
    );
}
