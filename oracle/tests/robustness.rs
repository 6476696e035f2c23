//! Robustness: thousands of random, mostly ill-formed modules (wrong types, undefined
//! registers, phis with odd entries, wild pointers, mismatched calls, huge sizes) must
//! each end in an outcome or an `InterpError` — never a panic or a hang — at both pointer
//! widths, and a decoded program must give the same result on every run.

use compiler::ir::{
    BasicBlock, BinOp, BlockId, Callee, CmpPred, FuncAttrs, GlobalInit, GlobalItem, Inst, IrConst,
    IrDecl, IrFunction, IrGlobal, IrModule, IrType, Operand, Terminator, UnOp, Value,
};
use oracle::{Outcome, Program, RunConfig};

/// xorshift64*: deterministic, dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const TYPES: [IrType; 9] = [
    IrType::I8,
    IrType::I16,
    IrType::I32,
    IrType::I64,
    IrType::U8,
    IrType::U16,
    IrType::U32,
    IrType::U64,
    IrType::Ptr,
];

struct Gen {
    rng: Rng,
    values: u32,
    blocks: Vec<BlockId>,
    functions: Vec<String>,
}

impl Gen {
    fn ty(&mut self) -> IrType {
        self.rng.pick(&TYPES)
    }

    fn operand(&mut self) -> Operand {
        if self.rng.chance(60) && self.values > 0 {
            Operand::Value(Value(self.rng.below(self.values as u64 + 2) as u32))
        } else {
            let v = match self.rng.below(4) {
                0 => self.rng.below(4) as i64,
                1 => -(self.rng.below(3) as i64),
                2 => self.rng.next() as i64,
                _ => self.rng.below(70) as i64,
            };
            Operand::Const(IrConst::new(self.ty(), v))
        }
    }

    fn dest(&mut self) -> Value {
        // Sometimes reuse a number (post-phi-elimination style).
        if self.values > 0 && self.rng.chance(20) {
            return Value(self.rng.below(self.values as u64) as u32);
        }
        self.values += 1;
        Value(self.values - 1)
    }

    fn block_ref(&mut self) -> BlockId {
        if self.rng.chance(2) {
            return BlockId(9999); // a label that does not exist
        }
        self.rng.pick(&self.blocks)
    }

    fn inst(&mut self) -> Inst {
        match self.rng.below(14) {
            0 => Inst::Alloca {
                dest: self.dest(),
                ty: self.ty(),
                size: self.rng.pick(&[0, 1, 4, 8, 16, 64]),
                align: self.rng.pick(&[0, 1, 4, 8]),
                volatile: false,
            },
            1 => Inst::ParamRef {
                dest: self.dest(),
                index: self.rng.below(3) as u32,
                ty: self.ty(),
            },
            2 => Inst::Load {
                dest: self.dest(),
                ty: self.ty(),
                ptr: self.operand(),
            },
            3 => Inst::Store {
                ty: self.ty(),
                val: self.operand(),
                ptr: self.operand(),
            },
            4 => Inst::Gep {
                dest: self.dest(),
                base: self.operand(),
                offset: self.operand(),
            },
            5 => Inst::GlobalAddr {
                dest: self.dest(),
                name: self
                    .rng
                    .pick(&["g", "c", "printf", "memcpy", "f0", "f1"])
                    .into(),
            },
            6 => Inst::Memcpy {
                dst: self.operand(),
                src: self.operand(),
                size: self.rng.pick(&[0, 1, 4, 8, 100]),
            },
            7 | 8 => Inst::Bin {
                dest: self.dest(),
                op: self.rng.pick(&BinOp::ALL),
                ty: self.ty(),
                lhs: self.operand(),
                rhs: self.operand(),
            },
            9 => Inst::Un {
                dest: self.dest(),
                op: self.rng.pick(&UnOp::ALL),
                ty: self.ty(),
                src: self.operand(),
            },
            10 => Inst::Cmp {
                dest: self.dest(),
                pred: self.rng.pick(&CmpPred::ALL),
                ty: self.ty(),
                lhs: self.operand(),
                rhs: self.operand(),
            },
            11 => Inst::Cast {
                dest: self.dest(),
                from: self.ty(),
                src: self.operand(),
                to: self.ty(),
            },
            12 => Inst::Select {
                dest: self.dest(),
                ty: self.ty(),
                cond: self.operand(),
                on_true: self.operand(),
                on_false: self.operand(),
            },
            _ => {
                let n = self.rng.below(4);
                let args = (0..n).map(|_| (self.ty(), self.operand())).collect();
                let callee = if self.rng.chance(30) {
                    Callee::Indirect(self.operand())
                } else {
                    let names = ["f0", "f1", "printf", "putchar", "malloc", "free", "strlen"];
                    Callee::Direct(self.rng.pick(&names).into())
                };
                Inst::Call {
                    dest: self.rng.chance(70).then(|| self.dest()),
                    ret: self.ty(),
                    callee,
                    args,
                    named: None,
                }
            }
        }
    }

    fn terminator(&mut self) -> Terminator {
        match self.rng.below(6) {
            0 | 1 => Terminator::Br(self.block_ref()),
            2 | 3 => Terminator::CondBr {
                cond: self.operand(),
                if_true: self.block_ref(),
                if_false: self.block_ref(),
            },
            4 => Terminator::Switch {
                ty: self.ty(),
                val: self.operand(),
                default: self.block_ref(),
                cases: (0..self.rng.below(4))
                    .map(|i| (i as i64 - 1, self.block_ref()))
                    .collect(),
            },
            _ => Terminator::Ret(Some((self.ty(), self.operand()))),
        }
    }

    fn function(&mut self, name: &str, first_block: u32) -> IrFunction {
        let nblocks = 1 + self.rng.below(5) as u32;
        self.values = 0;
        self.blocks = (0..nblocks).map(|i| BlockId(first_block + i)).collect();
        let mut blocks = Vec::new();
        for (b, &label) in self.blocks.clone().iter().enumerate() {
            let mut insts = Vec::new();
            // Entry-block phis can only be missing their edge; make them rare.
            let phis = if b == 0 && self.rng.chance(95) {
                0
            } else {
                self.rng.below(3)
            };
            for _ in 0..phis {
                // Mostly an entry for every block (so whichever edge is taken has one),
                // sometimes a random few.
                let incoming = if self.rng.chance(80) {
                    let blocks = self.blocks.clone();
                    blocks.into_iter().map(|b| (self.operand(), b)).collect()
                } else {
                    (0..self.rng.below(3))
                        .map(|_| (self.operand(), self.block_ref()))
                        .collect()
                };
                insts.push(Inst::Phi {
                    dest: self.dest(),
                    ty: self.ty(),
                    incoming,
                });
            }
            for _ in 0..self.rng.below(8) {
                insts.push(self.inst());
            }
            blocks.push(BasicBlock {
                label,
                insts,
                term: self.terminator(),
            });
        }
        IrFunction {
            name: name.into(),
            params: (0..self.rng.below(3)).map(|_| self.ty()).collect(),
            ret: self
                .rng
                .pick(&[IrType::I32, IrType::I64, IrType::Ptr, IrType::Void]),
            variadic: self.rng.chance(10),
            attrs: FuncAttrs::default(),
            blocks,
        }
    }

    fn module(&mut self) -> IrModule {
        let functions = vec![self.function("f0", 0), self.function("f1", 100)];
        self.functions = functions.iter().map(|f| f.name.clone()).collect();
        let decl = |name: &str, params: Vec<IrType>, variadic, ret| IrDecl {
            name: name.into(),
            params,
            variadic,
            ret,
        };
        IrModule {
            globals: vec![
                IrGlobal {
                    name: "g".into(),
                    size: 16,
                    align: 8,
                    is_const: false,
                    init: GlobalInit::Items(vec![
                        GlobalItem::Ptr("g".into(), 8),
                        GlobalItem::Int(IrType::I32, 5),
                    ]),
                },
                IrGlobal {
                    name: "c".into(),
                    size: 8,
                    align: 1,
                    is_const: true,
                    init: GlobalInit::Items(vec![GlobalItem::Str(b"%d%s%p\0".to_vec())]),
                },
            ],
            decls: vec![
                decl("printf", vec![IrType::Ptr], true, IrType::I32),
                decl("putchar", vec![IrType::I32], false, IrType::I32),
                decl("malloc", vec![IrType::U64], false, IrType::Ptr),
                decl("free", vec![IrType::Ptr], false, IrType::Void),
                decl("strlen", vec![IrType::Ptr], false, IrType::U64),
                decl("memcpy", vec![IrType::Ptr; 3], false, IrType::Ptr),
            ],
            functions,
        }
    }
}

#[test]
fn random_modules_end_in_an_outcome_or_an_error() {
    let mut gen = Gen {
        rng: Rng(0x9e37_79b9_7f4a_7c15),
        values: 0,
        blocks: Vec::new(),
        functions: Vec::new(),
    };
    let (mut ran, mut refused) = (0, 0);
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for _ in 0..3000 {
        let m = gen.module();
        for ptr_bytes in [4, 8] {
            let cfg = RunConfig {
                ptr_bytes,
                fuel: 2_000,
                max_call_depth: 50,
                max_stdout: 256,
            };
            let Ok(program) = Program::new(&m, &cfg) else {
                refused += 1;
                continue;
            };
            for func in ["f0", "f1"] {
                let arity = m.function(func).unwrap().params.len();
                let args: Vec<i64> = (0..arity).map(|_| gen.rng.next() as i64 % 100).collect();
                let first = program.run(func, &args).expect("the arity is right");
                let again = program.run(func, &args).expect("the arity is right");
                assert_eq!(first, again, "runs of one program must agree");
                assert!(first.steps <= cfg.fuel);
                assert!(first.stdout.len() <= cfg.max_stdout);
                let kind = match &first.outcome {
                    Outcome::Undefined(ub, _) => format!("{ub:?}"),
                    Outcome::Returned(_) => "returned".into(),
                    Outcome::Trapped(t) => format!("{t:?}"),
                    Outcome::Exited(_) => "exited".into(),
                    Outcome::OutOfFuel => "out of fuel".into(),
                };
                *kinds.entry(kind).or_default() += 1;
                ran += 1;
            }
        }
    }
    eprintln!("{ran} runs, {refused} refused: {kinds:?}");
    // The generator must exercise the interpreter, not only its refusals.
    assert!(ran > 1000, "only {ran} runs ({refused} modules refused)");
    for kind in [
        "returned",
        "UndefinedValue",
        "BadCall",
        "InvalidPointer",
        "OutOfBounds",
    ] {
        assert!(kinds.contains_key(kind), "no `{kind}` outcome: {kinds:?}");
    }
}
