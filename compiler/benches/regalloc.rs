//! Benchmark of the register allocation pieces on generated post-phi-elimination
//! functions of about 10^4, 10^5 and 10^6 instructions: liveness, linear scan (liveness
//! included), the stack allocator, and the checker on both allocations.
//!
//! Why: the backend runs on every function the harness compiles, and the checker on every
//! allocation; all of them must be linear in practice (10x the instructions may cost at
//! most about 12x the time) and take milliseconds at 10^5 instructions.
//!
//! The functions look like phi elimination's output: variables assigned by `copy` in
//! several blocks (three used throughout the function, six per region of 64 blocks),
//! temporaries computed from them in every block, calls to an external function in about
//! one block in five (values live across them need callee-saved registers), loads and
//! stores through a pointer parameter, diamonds, loops and loops around diamonds. The
//! register file is x86-64's (ten allocatable registers, five callee-saved).
//!
//! Prints, per size, the median (and fastest) of 7 rounds, then the 10x ratios. Run with
//! `cargo bench -p compiler --bench regalloc`.

use compiler::backend::liveness;
use compiler::backend::regalloc::{allocate, check, Loc, PReg, RegisterFile};
use compiler::backend::RegallocMode;
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::ir::{
    BasicBlock, BinOp, BlockId, Callee, CmpPred, FuncAttrs, Inst, IrConst, IrDecl, IrFunction,
    IrModule, IrType, Operand, Terminator, Value,
};
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

const GLOBAL_VARS: usize = 4;
const REGION_VARS: usize = 12;
const REGION_BLOCKS: usize = 64;

/// Builds one function block by block; the block being built is always the last one.
struct Gen {
    rng: Rng,
    blocks: Vec<BasicBlock>,
    next_value: u32,
    global: Vec<(Value, IrType)>,
    region: Vec<(Value, IrType)>,
}

impl Gen {
    fn fresh(&mut self) -> Value {
        self.next_value += 1;
        Value(self.next_value - 1)
    }

    fn next_label(&self) -> BlockId {
        BlockId(self.blocks.len() as u32)
    }

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

    /// A variable of the region, now and then a function-wide one.
    fn var(&mut self) -> (Value, IrType) {
        if self.rng.below(6) == 0 {
            self.global[self.rng.below(GLOBAL_VARS as u64) as usize]
        } else {
            self.region[self.rng.below(REGION_VARS as u64) as usize]
        }
    }

    fn var_of(&mut self, ty: IrType) -> Value {
        loop {
            let (v, t) = self.var();
            if t == ty {
                return v;
            }
        }
    }

    fn bin(&mut self, op: BinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.fresh();
        self.emit(Inst::Bin {
            dest,
            op,
            ty,
            lhs,
            rhs,
        });
        dest
    }

    /// The body of an ordinary block: compute from variables, sometimes call, load or
    /// store, and assign a variable (a phi elimination copy).
    fn traffic(&mut self) {
        let (a, ty) = self.var();
        let k = self.rng.below(100) as i64;
        let t1 = self.bin(
            BinOp::Add,
            ty,
            Operand::Value(a),
            Operand::Const(IrConst::new(ty, k)),
        );
        let b = self.var_of(ty);
        let t2 = self.bin(BinOp::Mul, ty, Operand::Value(t1), Operand::Value(b));
        if self.rng.below(5) == 0 {
            let x = self.var_of(IrType::I32);
            let y = self.var_of(IrType::I32);
            let r = self.fresh();
            self.emit(Inst::Call {
                dest: Some(r),
                ret: IrType::I32,
                callee: Callee::Direct("ext".into()),
                args: vec![
                    (IrType::I32, Operand::Value(x)),
                    (IrType::I32, Operand::Value(y)),
                ],
                named: None,
            });
            let d = self.var_of(IrType::I32);
            self.emit(Inst::Copy {
                dest: d,
                ty: IrType::I32,
                src: Operand::Value(r),
            });
        }
        if self.rng.below(4) == 0 {
            let l = self.fresh();
            self.emit(Inst::Load {
                dest: l,
                ty: IrType::I32,
                ptr: Operand::Value(Value(1)),
            });
            let d = self.var_of(IrType::I32);
            let s = self.bin(
                BinOp::Xor,
                IrType::I32,
                Operand::Value(l),
                Operand::Value(d),
            );
            self.emit(Inst::Store {
                ty: IrType::I32,
                val: Operand::Value(s),
                ptr: Operand::Value(Value(1)),
            });
        }
        let d = self.var_of(ty);
        self.emit(Inst::Copy {
            dest: d,
            ty,
            src: Operand::Value(t2),
        });
    }

    fn condition(&mut self) -> Operand {
        let (v, ty) = self.var();
        let c = self.fresh();
        self.emit(Inst::Cmp {
            dest: c,
            pred: CmpPred::Slt,
            ty,
            lhs: Operand::Value(v),
            rhs: Operand::Const(IrConst::new(ty, 50)),
        });
        Operand::Value(c)
    }

    /// head -> then, else -> join; leaves the join open.
    fn diamond(&mut self) {
        self.traffic();
        let cond = self.condition();
        let then_label = self.next_label();
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
        let header = self.next_label();
        self.close(Terminator::Br(header));
        self.open();
        self.traffic();
        let cond = self.condition();
        let body = BlockId(header.0 + 1);
        let header_index = self.blocks.len() - 1;
        self.open();
        self.traffic();
        if with_diamond {
            self.diamond();
        }
        self.close(Terminator::Br(header));
        let exit = self.open();
        self.blocks[header_index].term = Terminator::CondBr {
            cond,
            if_true: body,
            if_false: exit,
        };
        self.traffic();
    }

    /// Opens a region: its variables get their first values.
    fn new_region(&mut self) {
        self.region.clear();
        for k in 0..REGION_VARS {
            let ty = if k % 2 == 0 { IrType::I32 } else { IrType::I64 };
            let v = self.fresh();
            self.emit(Inst::Copy {
                dest: v,
                ty,
                src: Operand::Const(IrConst::new(ty, k as i64)),
            });
            self.region.push((v, ty));
        }
    }
}

/// A post-phi-elimination function of about `target_insts` instructions.
fn generate(target_insts: usize, seed: u64) -> IrModule {
    let mut g = Gen {
        rng: Rng(seed),
        blocks: Vec::new(),
        next_value: 2,
        global: Vec::new(),
        region: Vec::new(),
    };
    g.open();
    g.emit(Inst::ParamRef {
        dest: Value(0),
        index: 0,
        ty: IrType::I32,
    });
    g.emit(Inst::ParamRef {
        dest: Value(1),
        index: 1,
        ty: IrType::Ptr,
    });
    for _ in 0..GLOBAL_VARS {
        let v = g.fresh();
        g.emit(Inst::Copy {
            dest: v,
            ty: IrType::I32,
            src: Operand::Value(Value(0)),
        });
        g.global.push((v, IrType::I32));
    }
    let mut region_end = 0;
    let mut insts = 0;
    while insts < target_insts {
        if g.blocks.len() >= region_end {
            g.new_region();
            region_end = g.blocks.len() + REGION_BLOCKS;
        }
        let before = g.blocks.len();
        match g.rng.below(4) {
            0 | 1 => g.diamond(),
            2 => g.looping(false),
            _ => g.looping(true),
        }
        insts += g.blocks[before - 1..]
            .iter()
            .map(|b| b.insts.len() + 1)
            .sum::<usize>();
    }
    let result = g.var_of(IrType::I32);
    g.close(Terminator::Ret(Some((IrType::I32, Operand::Value(result)))));
    let func = IrFunction {
        name: "bench".into(),
        params: vec![IrType::I32, IrType::Ptr],
        ret: IrType::I32,
        variadic: false,
        attrs: FuncAttrs::default(),
        blocks: g.blocks,
    };
    IrModule {
        functions: vec![func],
        decls: vec![IrDecl {
            name: "ext".into(),
            params: vec![IrType::I32, IrType::I32],
            ret: IrType::I32,
            variadic: false,
        }],
        ..IrModule::default()
    }
}

fn x86_64_like() -> RegisterFile {
    let pregs = |ns: &[u8]| ns.iter().map(|&n| PReg(n)).collect::<Vec<_>>();
    RegisterFile {
        allocatable: pregs(&[3, 12, 13, 14, 15, 6, 7, 8, 9, 10]),
        call_clobbers: pregs(&[0, 1, 2, 6, 7, 8, 9, 10, 11]),
        memcpy_clobbers: pregs(&[1, 6, 7]),
        callee_saved: pregs(&[3, 5, 12, 13, 14, 15]),
        ptr_bytes: 8,
        reg_bytes: 8,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Times of one measured step over the rounds.
#[derive(Default)]
struct Times(Vec<Duration>);

impl Times {
    fn run<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.0.push(start.elapsed());
        out
    }

    fn median(&self) -> Duration {
        let mut t = self.0.clone();
        t.sort_unstable();
        t[t.len() / 2]
    }

    fn fastest(&self) -> Duration {
        self.0.iter().min().copied().unwrap_or_default()
    }
}

const STEPS: [&str; 5] = ["liveness", "linear", "stack", "check lin", "check stk"];

struct Case {
    module: IrModule,
    times: [Times; 5],
    in_regs: usize,
    values: usize,
    slots: usize,
}

/// Rounds of measurement; each round runs every size once, so a load spike on the
/// (shared) machine hits all sizes alike.
const ROUNDS: usize = 7;

fn main() {
    let regs = x86_64_like();
    let mut cases: Vec<Case> = [10_000usize, 100_000, 1_000_000]
        .iter()
        .map(|&n| {
            let module = generate(n, 0x7e9a_0000 + n as u64);
            if let Err(errs) = verify_module(&module, VerifyMode::PostPhiElim) {
                panic!("generated function does not verify: {}", errs[0]);
            }
            Case {
                module,
                times: Default::default(),
                in_regs: 0,
                values: 0,
                slots: 0,
            }
        })
        .collect();
    for _ in 0..ROUNDS {
        for case in &mut cases {
            let f = &case.module.functions[0];
            let [t_live, t_linear, t_stack, t_check_linear, t_check_stack] = &mut case.times;
            drop(t_live.run(|| liveness::compute(f)));
            let linear = t_linear.run(|| allocate(f, &regs, RegallocMode::LinearScan));
            let stack = t_stack.run(|| allocate(f, &regs, RegallocMode::Stack));
            if let Err(e) = t_check_linear.run(|| check(f, &regs, &linear)) {
                panic!("checker rejects linear scan: {e}");
            }
            if let Err(e) = t_check_stack.run(|| check(f, &regs, &stack)) {
                panic!("checker rejects the stack allocation: {e}");
            }
            let locs: Vec<&Loc> = linear.locs.iter().flatten().collect();
            case.values = locs.len();
            case.in_regs = locs.iter().filter(|l| matches!(l, Loc::Reg(_))).count();
            case.slots = linear.spill_slots.len();
        }
    }
    print!(
        "{:>8} {:>9} {:>8} {:>7} {:>6}",
        "blocks", "insts", "values", "in regs", "slots"
    );
    for s in STEPS {
        print!(" {s:>15}");
    }
    println!("   (ms: median/fastest)");
    for case in &cases {
        let f = &case.module.functions[0];
        print!(
            "{:>8} {:>9} {:>8} {:>6.1}% {:>6}",
            f.blocks.len(),
            f.inst_count(),
            case.values,
            100.0 * case.in_regs as f64 / case.values.max(1) as f64,
            case.slots
        );
        for t in &case.times {
            print!(" {:>7.2}/{:<7.2}", ms(t.median()), ms(t.fastest()));
        }
        println!();
    }
    for (i, s) in STEPS.iter().enumerate() {
        let m = |c: usize| cases[c].times[i].median().as_secs_f64();
        println!(
            "{s:>9}: 100k/10k = {:.2}x, 1M/100k = {:.2}x (linear: ~10x)",
            m(1) / m(0),
            m(2) / m(1)
        );
    }
}
