//! Shared by the text-format tests: a deterministic PRNG, a random module builder that
//! goes through the Rust types (so it covers shapes no hand-written file has), and
//! hand-written sources that cover every construct of the grammar.

#![allow(dead_code)]

use compiler::ir::{
    BasicBlock, BinOp, BlockId, Callee, CmpPred, FuncAttrs, GlobalInit, GlobalItem, Inst, IrConst,
    IrDecl, IrFunction, IrGlobal, IrModule, IrType, Operand, Terminator, UnOp, Value,
};

/// xorshift64*: small, deterministic, good enough to pick shapes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// An interesting 64-bit pattern: small, boundary, or random.
    pub fn number(&mut self) -> i64 {
        match self.below(6) {
            0 => self.below(10) as i64,
            1 => -(self.below(10) as i64),
            2 => self.pick(&[
                i64::MIN,
                i64::MAX,
                -1,
                0x7f,
                0x80,
                0xff,
                0x7fff_ffff,
                1 << 32,
            ]),
            3 => self.below(1000) as i64 - 500,
            _ => self.next() as i64,
        }
    }
}

const SCALARS: [IrType; 9] = [
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

const NAMES: [&str; 6] = ["main", "f", "g.1", "_x$", "printf", "s.str.0"];

fn scalar(rng: &mut Rng) -> IrType {
    rng.pick(&SCALARS)
}

fn any_type(rng: &mut Rng) -> IrType {
    if rng.chance(10) {
        IrType::Void
    } else {
        scalar(rng)
    }
}

fn name(rng: &mut Rng) -> String {
    rng.pick(&NAMES).to_string()
}

/// A value or a canonical constant; a constant's type is the context type most of the
/// time and some other scalar type otherwise (so suffixes appear).
fn operand(rng: &mut Rng, context: IrType, values: u32) -> Operand {
    if rng.chance(2) {
        return Operand::Value(Value(rng.below(values as usize + 1) as u32));
    }
    let ty = if context != IrType::Void && rng.below(3) < 2 {
        context
    } else {
        scalar(rng)
    };
    Operand::Const(IrConst::new(ty, rng.number()))
}

fn label(rng: &mut Rng, blocks: u32) -> BlockId {
    BlockId(rng.below(blocks as usize + 2) as u32)
}

fn random_inst(rng: &mut Rng, dest: Value, values: u32, blocks: u32) -> Inst {
    let ty = scalar(rng);
    let op = |rng: &mut Rng, ctx: IrType| operand(rng, ctx, values);
    match rng.below(15) {
        0 => Inst::Alloca {
            dest,
            ty: any_type(rng),
            size: rng.next() as u32 >> rng.below(32),
            align: 1 << rng.below(5),
            volatile: rng.chance(2),
        },
        1 => Inst::ParamRef {
            dest,
            index: rng.below(4) as u32,
            ty,
        },
        2 => Inst::Load {
            dest,
            ty,
            ptr: op(rng, IrType::Ptr),
        },
        3 => Inst::Store {
            ty,
            val: op(rng, ty),
            ptr: op(rng, IrType::Ptr),
        },
        4 => Inst::Gep {
            dest,
            base: op(rng, IrType::Ptr),
            offset: op(rng, IrType::I64),
        },
        5 => Inst::GlobalAddr {
            dest,
            name: name(rng),
        },
        6 => Inst::Memcpy {
            dst: op(rng, IrType::Ptr),
            src: op(rng, IrType::Ptr),
            size: rng.next() as u32,
        },
        7 => Inst::Bin {
            dest,
            op: rng.pick(&BinOp::ALL),
            ty,
            lhs: op(rng, ty),
            rhs: op(rng, ty),
        },
        8 => Inst::Un {
            dest,
            op: rng.pick(&UnOp::ALL),
            ty,
            src: op(rng, ty),
        },
        9 => Inst::Cmp {
            dest,
            pred: rng.pick(&CmpPred::ALL),
            ty,
            lhs: op(rng, ty),
            rhs: op(rng, ty),
        },
        10 => {
            let from = scalar(rng);
            Inst::Cast {
                dest,
                from,
                src: op(rng, from),
                to: ty,
            }
        }
        11 => Inst::Copy {
            dest,
            ty,
            src: op(rng, ty),
        },
        12 => Inst::Select {
            dest,
            ty,
            cond: op(rng, IrType::I8),
            on_true: op(rng, ty),
            on_false: op(rng, ty),
        },
        13 => Inst::Phi {
            dest,
            ty,
            incoming: (0..rng.below(4))
                .map(|_| (op(rng, ty), label(rng, blocks)))
                .collect(),
        },
        _ => {
            let ret = any_type(rng);
            let callee = if rng.chance(2) {
                Callee::Direct(name(rng))
            } else {
                Callee::Indirect(op(rng, IrType::Ptr))
            };
            let args: Vec<(IrType, Operand)> = (0..rng.below(4))
                .map(|_| {
                    let t = scalar(rng);
                    (t, op(rng, t))
                })
                .collect();
            // `...` anywhere among the arguments (the printer cannot write a count past
            // them, which the verifier rejects anyway).
            let named = rng.chance(3).then(|| rng.below(args.len() + 1) as u32);
            Inst::Call {
                dest: (!rng.chance(3)).then_some(dest),
                ret,
                callee,
                args,
                named,
            }
        }
    }
}

fn random_terminator(rng: &mut Rng, values: u32, blocks: u32, ret: IrType) -> Terminator {
    match rng.below(5) {
        0 => Terminator::Br(label(rng, blocks)),
        1 => Terminator::CondBr {
            cond: operand(rng, IrType::I8, values),
            if_true: label(rng, blocks),
            if_false: label(rng, blocks),
        },
        2 => {
            let ty = scalar(rng);
            Terminator::Switch {
                ty,
                val: operand(rng, ty, values),
                default: label(rng, blocks),
                cases: (0..rng.below(4))
                    .map(|_| (IrConst::new(ty, rng.number()).bits, label(rng, blocks)))
                    .collect(),
            }
        }
        3 if ret != IrType::Void => Terminator::Ret(Some((ret, operand(rng, ret, values)))),
        3 => Terminator::Ret(None),
        _ => Terminator::Unreachable,
    }
}

fn random_function(rng: &mut Rng, first_block: &mut u32) -> IrFunction {
    let block_count = rng.below(5) as u32;
    let mut values = 0u32;
    let ret = any_type(rng);
    let blocks = (0..block_count)
        .map(|_| {
            let label = BlockId(*first_block);
            *first_block += 1 + rng.below(3) as u32;
            let insts = (0..rng.below(6))
                .map(|_| {
                    let dest = Value(values);
                    values += 1;
                    random_inst(rng, dest, values, *first_block)
                })
                .collect();
            let term = random_terminator(rng, values, *first_block, ret);
            BasicBlock { label, insts, term }
        })
        .collect();
    IrFunction {
        name: name(rng),
        params: (0..rng.below(4)).map(|_| scalar(rng)).collect(),
        ret,
        variadic: rng.chance(4),
        attrs: FuncAttrs {
            is_static: rng.chance(2),
            is_inline: rng.chance(3),
            is_noinline: rng.chance(3),
            align: if rng.chance(4) {
                1u32 << (rng.below(9) as u32)
            } else {
                0
            },
        },
        blocks,
    }
}

fn random_global(rng: &mut Rng) -> IrGlobal {
    let init = if rng.chance(4) {
        GlobalInit::Zero
    } else {
        GlobalInit::Items(
            (0..rng.below(5))
                .map(|_| match rng.below(4) {
                    0 => {
                        let t = scalar(rng);
                        GlobalItem::Int(t, IrConst::new(t, rng.number()).bits)
                    }
                    1 => GlobalItem::Ptr(name(rng), rng.number()),
                    2 => GlobalItem::Zero(rng.next() as u32),
                    _ => GlobalItem::Str((0..rng.below(8)).map(|_| rng.next() as u8).collect()),
                })
                .collect(),
        )
    };
    IrGlobal {
        name: name(rng),
        size: rng.next() as u32,
        align: 1 << rng.below(6),
        is_const: rng.chance(2),
        init,
    }
}

/// A random module: anything the Rust types can hold, with canonical constants. It need
/// not verify (the text form is syntax only).
pub fn random_module(seed: u64) -> IrModule {
    let mut rng = Rng::new(seed);
    let mut first_block = 0u32;
    IrModule {
        globals: (0..rng.below(3)).map(|_| random_global(&mut rng)).collect(),
        decls: (0..rng.below(3))
            .map(|_| IrDecl {
                name: name(&mut rng),
                params: (0..rng.below(3)).map(|_| scalar(&mut rng)).collect(),
                variadic: rng.chance(2),
                ret: any_type(&mut rng),
            })
            .collect(),
        functions: (0..rng.below(4))
            .map(|_| random_function(&mut rng, &mut first_block))
            .collect(),
    }
}

/// Hand-written modules that together use every construct of the grammar, written the way
/// the printer writes them (so `print(parse(s)) == s` is checkable by eye).
pub const SAMPLES: [&str; 3] = [
    r#"global @g : 4 align 4 = [i32 6]

global @t : 40 align 8 = [ptr @g, ptr @g+4, ptr @g-8, i32 7, zero 4, u8 255, i8 -1, ptr 0, u64 18446744073709551615]

global @s : 6 align 1 const = [str "hello\00"]

global @e : 9 align 1 const = [str "q\"\\\n\t\7f\ff;%", str ""]

global @z : 400 align 16 = zeroinit

global @empty : 0 align 1 = []

declare @printf(ptr, ...) -> i32

declare @v(...) -> i32

declare @abort() -> void

func @f(i32, ptr) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = paramref 1, ptr
    %2 = alloca i32, 4, 4
    %3 = alloca i64, 8, 8 volatile
    store i32 %0, %2
    store i8 -1, %1
    store i64 5:i32, %3
    %4 = load i32 %2
    %5 = gep %1, 8
    %6 = gep %1, -1:i32
    %7 = globaladdr @g
    memcpy %5, %7, 4
    %8 = add i32 %4, 1
    %9 = sub i32 %8, %4
    %10 = mul i32 %9, 3
    %11 = sdiv i32 %10, 2
    %12 = udiv u32 4294967295, 7
    %13 = srem i32 %11, -3
    %14 = urem u32 %12, 5
    %15 = and i32 %13, 255
    %16 = or i32 %15, 16
    %17 = xor i32 %16, -1
    %18 = shl i32 %17, 2
    %19 = ashr i32 %18, 1
    %20 = lshr u64 %18, 3:i32
    %21 = neg i32 %19
    %22 = not i32 %21
    %23 = cmp eq i32 %22, 0
    %24 = cmp ne i32 %22, 1
    %25 = cmp slt i32 %22, 2
    %26 = cmp sle i32 %22, 3
    %27 = cmp sgt i32 %22, 4
    %28 = cmp sge i32 %22, 5
    %29 = cmp ult u32 %22, 6
    %30 = cmp ule u32 %22, 7
    %31 = cmp ugt u32 %22, 8
    %32 = cmp uge u64 %22, 9:i64
    %33 = cast i32 %22 to i64
    %34 = cast u8 200 to i32
    %35 = cast i64 -7:i8 to u16
    %36 = copy i32 %22
    %37 = select i32 %23, %22, 7
    %38 = select i64 1:i32, 2:i8, 3
    %39 = call i32 @printf(ptr %7, i32 %22, i64 -1, u8 255)
    call void @abort()
    %40 = call i32 %1(i32 1, ptr 0)
    %41 = call i32 4096(i32 2:i64)
    call void %1()
    condbr %23, .LBB1, .LBB2
.LBB1:
    ret i32 %22
.LBB2:
    %42 = phi i32 [%22, .LBB0], [5:i64, .LBB1]
    %43 = phi u8 [255, .LBB0], [%42, .LBB3]
    switch i32 %42, .LBB1 [1: .LBB1, -4: .LBB2, 2147483647: .LBB3]
.LBB3:
    condbr 1:i32, .LBB4, .LBB4
.LBB4:
    switch u8 255:i32, .LBB5 [255: .LBB1, 0: .LBB2]
.LBB5:
    unreachable
}

func static @g2() -> void {
.LBB10:
    br .LBB11
.LBB11:
    ret
}

func inline @g3(...) -> u64 {
.LBB12:
    ret u64 18446744073709551615
}

func noinline @g4(i8, ...) -> ptr {
.LBB13:
    ret ptr 0
}

func static inline noinline @g5() -> i64 {
.LBB14:
    ret i64 -9223372036854775808
}
"#,
    // The seed example of the brief.
    r#"func static noinline @f(i32, ptr) -> i32 {
.LBB0:
    %0 = paramref 0, i32
    %1 = alloca i32, 4, 4
    store i32 %0, %1
    %2 = load i32 %1
    %3 = add i32 %2, 1
    condbr %3, .LBB1, .LBB2
.LBB1:
    ret i32 %3
.LBB2:
    %4 = phi i32 [%3, .LBB0], [5:i64, .LBB1]
    switch i32 %4, .LBB1 [1: .LBB1, -4: .LBB2]
}
"#,
    // A loop in alloca form, as the lowering produces it.
    r#"global @counter : 8 align 8 = [i64 0]

declare @putchar(i32) -> i32

func @main() -> i32 {
.LBB0:
    %0 = alloca i32, 4, 4
    store i32 0, %0
    br .LBB1
.LBB1:
    %1 = load i32 %0
    %2 = cmp slt i32 %1, 10
    condbr %2, .LBB2, .LBB3
.LBB2:
    %3 = add i32 %1, 48
    %4 = call i32 @putchar(i32 %3)
    %5 = add i32 %1, 1
    store i32 %5, %0
    %6 = globaladdr @counter
    %7 = load i64 %6
    %8 = add i64 %7, 1
    store i64 %8, %6
    br .LBB1
.LBB3:
    ret i32 0
}
"#,
];
