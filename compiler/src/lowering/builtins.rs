//! GNU builtins (and the library functions gcc expands inline: `abs`, `ffs`, ...)
//! computed in IR: popcount, parity, clz, ctz, ffs, clrsb, bswap, abs, expect,
//! unreachable, trap, prefetch, the float constants inf/huge_val/nan (`float.rs`) and
//! `alloca` (`dyn_stack.rs`).
//!
//! Why in the lowering: the result is ordinary IR (shifts, masks, a multiply, selects),
//! so the oracle, every pass and every backend see the same computation and no target
//! needs a special instruction or a libgcc helper; a miscompile of one of them is
//! caught like any other.
//!
//! Invariants:
//! - [`LoweredBuiltin::by_name`] lists exactly the names `frontend::parse::builtins`
//!   marks as lowered; a direct call is lowered here unless [`program_overrides`] the
//!   name: gcc's rule, which computes `llabs(x)` as the builtin even in a unit that
//!   defines its own `llabs` (c-torture `20021127-1.c`), and calls the program's function
//!   only when that definition is `static` or has another type than the builtin's.
//! - The arguments arrive converted to the builtin's prototype (the parser did it); their
//!   IR width (32 or 64 bits; `long` is 32 on i686) chooses the computation. A call whose
//!   arguments have other widths (through a program's own unprototyped declaration) is
//!   an error, never a guess.
//! - Arguments are evaluated right to left, like every call.
//! - `clz(0)`, `ctz(0)` and `clrsb` are total here (`clz(0)` = `ctz(0)` = width);
//!   C leaves the first two undefined. `__builtin_unreachable()` and `__builtin_trap()`
//!   end the block with `unreachable` (the oracle's `Trapped(Unreachable)`, a trapping
//!   instruction natively).

use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use crate::frontend::ast::Expr;
use crate::frontend::types::{QualType, Type};
use crate::ir::{BinOp, CmpPred, Inst, IrType, Operand, Terminator};

/// A builtin the lowering computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoweredBuiltin {
    Abs,
    Popcount,
    Parity,
    Clz,
    Ctz,
    Ffs,
    Clrsb,
    Bswap,
    Expect,
    Unreachable,
    Trap,
    Prefetch,
    /// `__builtin_inf`, `__builtin_huge_val` (and `f`): +infinity.
    Infinity,
    /// `__builtin_nan("")` (and `f`): the default quiet NaN.
    Nan,
    /// `alloca`, `__builtin_alloca`, `__builtin_alloca_with_align` (`dyn_stack.rs`).
    Alloca,
    /// `__builtin_return_address(0)`, `__builtin_frame_address(0)` (`frame_intrinsics.rs`).
    Frame(crate::frame_intrinsics::FrameIntrinsic),
}

impl LoweredBuiltin {
    /// The builtin a callee name denotes (the IR name the parser gave the call).
    pub(crate) fn by_name(name: &str) -> Option<LoweredBuiltin> {
        use LoweredBuiltin::*;
        Some(match name {
            "abs" | "labs" | "llabs" => Abs,
            "ffs" | "ffsl" | "ffsll" => Ffs,
            "__builtin_popcount" | "__builtin_popcountl" | "__builtin_popcountll" => Popcount,
            "__builtin_parity" | "__builtin_parityl" | "__builtin_parityll" => Parity,
            "__builtin_clz" | "__builtin_clzl" | "__builtin_clzll" => Clz,
            "__builtin_ctz" | "__builtin_ctzl" | "__builtin_ctzll" => Ctz,
            "__builtin_clrsb" | "__builtin_clrsbl" | "__builtin_clrsbll" => Clrsb,
            "__builtin_bswap16" | "__builtin_bswap32" | "__builtin_bswap64" => Bswap,
            "__builtin_expect" => Expect,
            "__builtin_unreachable" => Unreachable,
            "__builtin_trap" => Trap,
            "__builtin_prefetch" => Prefetch,
            "__builtin_inf" | "__builtin_inff" | "__builtin_huge_val" | "__builtin_huge_valf" => {
                Infinity
            }
            "__builtin_nan" | "__builtin_nanf" => Nan,
            "alloca" | "__builtin_alloca" | "__builtin_alloca_with_align" => Alloca,
            "__builtin_return_address" => {
                Frame(crate::frame_intrinsics::FrameIntrinsic::ReturnAddress)
            }
            "__builtin_frame_address" => {
                Frame(crate::frame_intrinsics::FrameIntrinsic::FrameAddress)
            }
            _ => return None,
        })
    }
}

/// Whether a direct call to the lowered builtin `name` calls the unit's own function
/// instead (gcc -O0, checked with gcc 12: a `static` definition, or one whose parameter
/// or result types differ from the builtin's prototype, replaces the builtin; a matching
/// external definition does not). gcc matches the types by machine mode, so `long
/// labs(int)` matches on i686 (where both are 32-bit) and not on LP64: the types are
/// compared as IR types here, which are exactly width and signedness.
pub(crate) fn program_overrides(ctx: &super::ModuleCtx, name: &str) -> bool {
    let Some(def) = ctx.definition(name) else {
        return false;
    };
    let Some(proto) = crate::frontend::parse::builtins::lowered_prototype(name) else {
        return true;
    };
    let ir = |t: &Type| super::types::scalar_type(ctx.target, t).ok();
    let same = |a: &QualType, b: &QualType| {
        a.ty == b.ty || ir(&a.ty).is_some_and(|x| Some(x) == ir(&b.ty))
    };
    def.is_static
        || def.ty.variadic != proto.variadic
        || !same(&def.ty.ret, &proto.ret)
        || def.ty.params.len() != proto.params.len()
        || def
            .ty
            .params
            .iter()
            .zip(&proto.params)
            .any(|(a, b)| !same(a, b))
}

/// The unsigned IR type of an argument's width, and the width in bits.
fn unsigned_of(t: IrType) -> Option<(IrType, u32)> {
    match t {
        IrType::I16 | IrType::U16 => Some((IrType::U16, 16)),
        IrType::I32 | IrType::U32 => Some((IrType::U32, 32)),
        IrType::I64 | IrType::U64 => Some((IrType::U64, 64)),
        _ => None,
    }
}

/// `0x0101...01` times `byte`, in `bits` bits.
fn repeated(byte: u8, bits: u32) -> i64 {
    let all = u64::from(byte) * 0x0101_0101_0101_0101;
    (if bits == 64 {
        all
    } else {
        all & ((1u64 << bits) - 1)
    }) as i64
}

impl FnLower<'_, '_> {
    /// Lowers a call of builtin `b` with `args` (the call expression is `e`).
    pub(crate) fn lower_builtin(
        &mut self,
        b: LoweredBuiltin,
        name: &str,
        args: &[Expr],
        e: &Expr,
    ) -> Res<RVal> {
        if matches!(b, LoweredBuiltin::Infinity | LoweredBuiltin::Nan) {
            return self.float_constant_builtin(b == LoweredBuiltin::Nan, name, args, e);
        }
        if b == LoweredBuiltin::Alloca {
            return self.lower_alloca(name, args, e);
        }
        if let LoweredBuiltin::Frame(k) = b {
            // The parser let only level 0 through (`parse/frame_builtins.rs`).
            let decl = k.decl();
            self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
            let dest = self.value();
            self.emit(Inst::Call {
                dest: Some(dest),
                ret: IrType::Ptr,
                callee: crate::ir::Callee::Direct(k.name().to_string()),
                args: vec![],
                named: None,
            });
            return Ok(RVal::Scalar(Operand::Value(dest), IrType::Ptr));
        }
        let mut values = vec![(exact(IrType::I32, 0), IrType::I32); args.len()];
        for (i, a) in args.iter().enumerate().rev() {
            values[i] = self.scalar(a)?;
        }
        let wrong = || format!("call to the builtin `{name}` with arguments of the wrong type");
        let expects_args = match b {
            LoweredBuiltin::Unreachable | LoweredBuiltin::Trap => 0,
            LoweredBuiltin::Expect => 2,
            LoweredBuiltin::Prefetch => values.len().max(1),
            _ => 1,
        };
        if values.len() != expects_args {
            return Err(self.err(e.loc, wrong()));
        }
        match b {
            LoweredBuiltin::Unreachable | LoweredBuiltin::Trap => {
                self.b.terminate(Terminator::Unreachable);
                return Ok(RVal::Void);
            }
            LoweredBuiltin::Prefetch => return Ok(RVal::Void),
            LoweredBuiltin::Expect => {
                let (v, t) = values[0];
                return Ok(RVal::Scalar(v, t));
            }
            _ => {}
        }
        let (x, t) = values[0];
        let Some((u, bits)) = unsigned_of(t) else {
            return Err(self.err(e.loc, wrong()));
        };
        let ret = match b {
            LoweredBuiltin::Abs | LoweredBuiltin::Bswap => t,
            _ => IrType::I32,
        };
        let x = self.cast(t, x, u);
        let r = match b {
            LoweredBuiltin::Abs => {
                let neg = self.bin(BinOp::Sub, u, exact(u, 0), x);
                let s = signed_of(u);
                let xs = self.cast(u, x, s);
                let negative = self.cmp(CmpPred::Slt, s, xs, exact(s, 0));
                self.select(u, negative, neg, x)
            }
            LoweredBuiltin::Popcount => self.popcount(x, u, bits),
            LoweredBuiltin::Parity => {
                let n = self.popcount(x, u, bits);
                self.bin(BinOp::And, u, n, exact(u, 1))
            }
            LoweredBuiltin::Clz => self.leading_zeros(x, u, bits),
            LoweredBuiltin::Ctz => self.trailing_zeros(x, u),
            LoweredBuiltin::Ffs => {
                let tz = self.trailing_zeros(x, u);
                let plus1 = self.bin(BinOp::Add, u, tz, exact(u, 1));
                let zero = self.cmp(CmpPred::Eq, u, x, exact(u, 0));
                self.select(u, zero, exact(u, 0), plus1)
            }
            LoweredBuiltin::Clrsb => {
                // Leading bits equal to the sign bit, after it: clz(x ^ (x >> (W-1))) - 1.
                let s = signed_of(u);
                let xs = self.cast(u, x, s);
                let sign = self.bin(BinOp::AShr, s, xs, exact(s, i64::from(bits - 1)));
                let sign = self.cast(s, sign, u);
                let y = self.bin(BinOp::Xor, u, x, sign);
                let lz = self.leading_zeros(y, u, bits);
                self.bin(BinOp::Sub, u, lz, exact(u, 1))
            }
            LoweredBuiltin::Bswap => self.byte_swap(x, u, bits),
            _ => return Err(self.err(e.loc, wrong())),
        };
        let r = self.cast(u, r, ret);
        Ok(RVal::Scalar(r, ret))
    }

    fn select(
        &mut self,
        ty: IrType,
        cond: Operand,
        on_true: Operand,
        on_false: Operand,
    ) -> Operand {
        let dest = self.value();
        self.emit(Inst::Select {
            dest,
            ty,
            cond,
            on_true,
            on_false,
        });
        Operand::Value(dest)
    }

    /// The number of set bits of `x` (SWAR: pairs, nibbles, bytes, then a multiply that
    /// sums the bytes into the top one).
    fn popcount(&mut self, x: Operand, u: IrType, bits: u32) -> Operand {
        let half = self.bin(BinOp::LShr, u, x, exact(u, 1));
        let half = self.bin(BinOp::And, u, half, exact(u, repeated(0x55, bits)));
        let pairs = self.bin(BinOp::Sub, u, x, half);
        let low = self.bin(BinOp::And, u, pairs, exact(u, repeated(0x33, bits)));
        let high = self.bin(BinOp::LShr, u, pairs, exact(u, 2));
        let high = self.bin(BinOp::And, u, high, exact(u, repeated(0x33, bits)));
        let nibbles = self.bin(BinOp::Add, u, low, high);
        let shifted = self.bin(BinOp::LShr, u, nibbles, exact(u, 4));
        let bytes = self.bin(BinOp::Add, u, nibbles, shifted);
        let bytes = self.bin(BinOp::And, u, bytes, exact(u, repeated(0x0f, bits)));
        let sum = self.bin(BinOp::Mul, u, bytes, exact(u, repeated(0x01, bits)));
        self.bin(BinOp::LShr, u, sum, exact(u, i64::from(bits - 8)))
    }

    /// Leading zero bits of `x` (the width for 0): smear the highest set bit right, then
    /// count the zeros left.
    fn leading_zeros(&mut self, x: Operand, u: IrType, bits: u32) -> Operand {
        let mut v = x;
        let mut shift = 1;
        while shift < bits {
            let s = self.bin(BinOp::LShr, u, v, exact(u, i64::from(shift)));
            v = self.bin(BinOp::Or, u, v, s);
            shift *= 2;
        }
        let zeros = self.bin(BinOp::Xor, u, v, exact(u, -1));
        self.popcount(zeros, u, bits)
    }

    /// Trailing zero bits of `x` (the width for 0): the bits below the lowest set one.
    fn trailing_zeros(&mut self, x: Operand, u: IrType) -> Operand {
        let bits = if u == IrType::U64 { 64 } else { 32 };
        let neg = self.bin(BinOp::Sub, u, exact(u, 0), x);
        let lowest = self.bin(BinOp::And, u, x, neg);
        let below = self.bin(BinOp::Sub, u, lowest, exact(u, 1));
        self.popcount(below, u, bits)
    }

    /// `x` with its bytes in the opposite order.
    pub(crate) fn byte_swap(&mut self, x: Operand, u: IrType, bits: u32) -> Operand {
        let n = bits / 8;
        let mut acc = exact(u, 0);
        for i in 0..n {
            let byte = self.bin(BinOp::LShr, u, x, exact(u, i64::from(8 * i)));
            let byte = self.bin(BinOp::And, u, byte, exact(u, 0xff));
            let moved = self.bin(BinOp::Shl, u, byte, exact(u, i64::from(8 * (n - 1 - i))));
            acc = self.bin(BinOp::Or, u, acc, moved);
        }
        acc
    }
}

/// The signed IR type of the same width.
fn signed_of(u: IrType) -> IrType {
    match u {
        IrType::U16 => IrType::I16,
        IrType::U32 => IrType::I32,
        _ => IrType::I64,
    }
}
