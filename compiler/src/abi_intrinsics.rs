//! The record-piece loads: how the front end reads the bytes of a record passed or returned
//! by value in integer pieces (`lowering::abi`), without making its padding undefined.
//!
//! Why: gcc passes a small record in registers, so phicc's IR carries such a record as
//! integer scalars (one per register or stack slot), which every stage, the oracle and the
//! backends already understand. Reading a piece with a plain `load` would be undefined in
//! the oracle whenever the piece covers a byte the program never wrote (padding, an unset
//! member), although C lets such a record be passed. `@__phi_abi.load.i64(ptr) -> i64`
//! (and `.i32` for 4-byte pieces) is that read: the piece's bytes, little-endian, where a
//! byte never written reads as 0. The oracle implements it (`oracle::interp`); the
//! backends see an ordinary `load`, because [`lower_for_backend`] rewrites every call of it
//! before register allocation (natively the bytes are whatever memory holds, which no
//! defined C program can observe except through the padding of a by-value parameter).
//!
//! Invariants: this enum is the whole set; each has exactly the signature
//! [`AbiLoad::decl`] gives; the pointer must be live and the whole piece in bounds (the
//! lowering only reads its own copies, padded to whole pieces); the rewrite keeps every
//! other instruction and declaration untouched.

use crate::ir::{Callee, Inst, IrDecl, IrModule, IrType};
use std::borrow::Cow;

/// One record-piece load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbiLoad {
    /// 4 bytes (i686's stack slots).
    I32,
    /// 8 bytes (the 64-bit targets' registers and stack slots).
    I64,
}

impl AbiLoad {
    pub const ALL: [AbiLoad; 2] = [AbiLoad::I32, AbiLoad::I64];

    /// The piece load whose result has IR type `ty`, if there is one.
    pub fn for_type(ty: IrType) -> Option<AbiLoad> {
        match ty {
            IrType::I32 => Some(AbiLoad::I32),
            IrType::I64 => Some(AbiLoad::I64),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AbiLoad::I32 => "__phi_abi.load.i32",
            AbiLoad::I64 => "__phi_abi.load.i64",
        }
    }

    pub fn by_name(name: &str) -> Option<AbiLoad> {
        AbiLoad::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The result type.
    pub fn ty(self) -> IrType {
        match self {
            AbiLoad::I32 => IrType::I32,
            AbiLoad::I64 => IrType::I64,
        }
    }

    /// The number of bytes read.
    pub fn size(self) -> u32 {
        match self {
            AbiLoad::I32 => 4,
            AbiLoad::I64 => 8,
        }
    }

    /// The declaration the module carries.
    pub fn decl(self) -> IrDecl {
        IrDecl {
            name: self.name().to_string(),
            params: vec![IrType::Ptr],
            variadic: false,
            ret: self.ty(),
        }
    }
}

/// The second result register of a record returned in two pieces (gcc: %rdx, x1, a1).
///
/// `call void @__phi_abi.ret_hi(i64 %h)` sets it; it must be the last instruction of a
/// block that ends in `ret` (whose value is the first piece). `%h = call i64
/// @__phi_abi.result_hi()` reads it; it must directly follow the call whose second piece
/// it is. The oracle keeps one such register per run; a backend moves the value into or
/// out of its ABI register right there ([`pair_placement_error`] keeps the placement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbiHi {
    RetHi,
    ResultHi,
}

impl AbiHi {
    pub const ALL: [AbiHi; 2] = [AbiHi::RetHi, AbiHi::ResultHi];

    pub fn name(self) -> &'static str {
        match self {
            AbiHi::RetHi => "__phi_abi.ret_hi",
            AbiHi::ResultHi => "__phi_abi.result_hi",
        }
    }

    pub fn by_name(name: &str) -> Option<AbiHi> {
        AbiHi::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The declaration the module carries.
    pub fn decl(self) -> IrDecl {
        let (params, ret) = match self {
            AbiHi::RetHi => (vec![IrType::I64], IrType::Void),
            AbiHi::ResultHi => (vec![], IrType::I64),
        };
        IrDecl {
            name: self.name().to_string(),
            params,
            variadic: false,
            ret,
        }
    }

    /// The intrinsic `inst` calls, if it calls one.
    pub fn of(inst: &Inst) -> Option<AbiHi> {
        match inst {
            Inst::Call {
                callee: Callee::Direct(name),
                ..
            } => AbiHi::by_name(name),
            _ => None,
        }
    }
}

/// The hidden result pointer where the ABI gives it a register of its own (AArch64's
/// x8), instead of an argument position.
///
/// `call void @__phi_abi.sret_arg(ptr %p)` sets it; it must directly precede the call
/// that takes it. `%p = call ptr @__phi_abi.sret_param()` reads it in the callee; only
/// `alloca`s may precede it, in the entry block. The oracle keeps one such register per
/// run; a backend moves the pointer into or out of its ABI register right there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbiSret {
    Arg,
    Param,
}

impl AbiSret {
    pub const ALL: [AbiSret; 2] = [AbiSret::Arg, AbiSret::Param];

    pub fn name(self) -> &'static str {
        match self {
            AbiSret::Arg => "__phi_abi.sret_arg",
            AbiSret::Param => "__phi_abi.sret_param",
        }
    }

    pub fn by_name(name: &str) -> Option<AbiSret> {
        AbiSret::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The declaration the module carries.
    pub fn decl(self) -> IrDecl {
        let (params, ret) = match self {
            AbiSret::Arg => (vec![IrType::Ptr], IrType::Void),
            AbiSret::Param => (vec![], IrType::Ptr),
        };
        IrDecl {
            name: self.name().to_string(),
            params,
            variadic: false,
            ret,
        }
    }

    /// The intrinsic `inst` calls, if it calls one.
    pub fn of(inst: &Inst) -> Option<AbiSret> {
        match inst {
            Inst::Call {
                callee: Callee::Direct(name),
                ..
            } => AbiSret::by_name(name),
            _ => None,
        }
    }
}

/// The floating-point parts of a record result beyond the IR result (`lowering::abi`'s
/// `RetParts`): gcc returns `struct { double, double }` in %xmm0:%xmm1 (x86-64), an HFA
/// in v0-v3 (AArch64), a flattened pair in fa0:fa1 or fa0 and a0 (RISC-V).
///
/// `call void @__phi_abi.ret_float.f64.1(f64 %v)` sets float result register 1 (the
/// second: %xmm1, d1, fa1); like `ret_hi` it must stand in the run of these intrinsics
/// that ends a block ending in `ret` with a value. `%v = call f64
/// @__phi_abi.result_float.f64.1()` reads it; it must follow the call whose part it is,
/// directly or after other result intrinsics. The IR result itself is the integer part
/// when there is one, so these never name an integer register; the backends never
/// allocate floating-point registers, so nothing in between can clobber them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AbiFloatPart {
    /// Sets the register (before `ret`), or reads it (after a call).
    pub set: bool,
    /// `f32` or `f64`.
    pub ty: IrType,
    /// The float result register: 0..=3.
    pub reg: u8,
}

impl AbiFloatPart {
    /// Float result registers the intrinsics name.
    pub const REGS: u8 = 4;

    /// Every one of them.
    pub fn all() -> impl Iterator<Item = AbiFloatPart> {
        [true, false].into_iter().flat_map(|set| {
            [IrType::F32, IrType::F64]
                .into_iter()
                .flat_map(move |ty| (0..Self::REGS).map(move |reg| AbiFloatPart { set, ty, reg }))
        })
    }

    pub fn name(self) -> String {
        let verb = if self.set {
            "ret_float"
        } else {
            "result_float"
        };
        format!("__phi_abi.{verb}.{}.{}", self.ty, self.reg)
    }

    pub fn by_name(name: &str) -> Option<AbiFloatPart> {
        if !name.starts_with("__phi_abi.re") {
            return None;
        }
        AbiFloatPart::all().find(|k| k.name() == name)
    }

    /// The declaration the module carries.
    pub fn decl(self) -> IrDecl {
        let (params, ret) = if self.set {
            (vec![self.ty], IrType::Void)
        } else {
            (vec![], self.ty)
        };
        IrDecl {
            name: self.name(),
            params,
            variadic: false,
            ret,
        }
    }

    /// The intrinsic `inst` calls, if it calls one.
    pub fn of(inst: &Inst) -> Option<AbiFloatPart> {
        match inst {
            Inst::Call {
                callee: Callee::Direct(name),
                ..
            } => AbiFloatPart::by_name(name),
            _ => None,
        }
    }
}

/// True when `inst` calls one of this file's intrinsics.
fn is_abi_intrinsic(inst: &Inst) -> bool {
    match inst {
        Inst::Call {
            callee: Callee::Direct(name),
            ..
        } => {
            AbiHi::by_name(name).is_some()
                || AbiFloatPart::by_name(name).is_some()
                || AbiSret::by_name(name).is_some()
                || AbiLoad::by_name(name).is_some()
        }
        _ => false,
    }
}

/// Why the register intrinsics of `func` are misplaced, if they are: a `ret_hi` that is
/// not the last instruction of a block ending in `ret`, a `result_hi` that does not
/// directly follow a call of something else, a `sret_arg` not directly followed by such
/// a call, or a `sret_param` after anything but `alloca`s of the entry block.
pub fn pair_placement_error(func: &crate::ir::IrFunction) -> Option<String> {
    for (b, block) in func.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            match AbiSret::of(inst) {
                Some(AbiSret::Arg) => {
                    let next = block.insts.get(i + 1);
                    if !next.is_some_and(|n| matches!(n, Inst::Call { .. }) && !is_abi_intrinsic(n))
                    {
                        return Some(format!(
                            "@{} in {} is not directly followed by a call",
                            AbiSret::Arg.name(),
                            block.label
                        ));
                    }
                }
                Some(AbiSret::Param) => {
                    let only_allocas = block.insts[..i]
                        .iter()
                        .all(|p| matches!(p, Inst::Alloca { .. }));
                    if b != 0 || !only_allocas {
                        return Some(format!(
                            "@{} in {} is not at the start of the entry block",
                            AbiSret::Param.name(),
                            block.label
                        ));
                    }
                }
                None => {}
            }
            if let Some(k) = AbiFloatPart::of(inst) {
                if let Some(message) = float_part_placement_error(block, i, k) {
                    return Some(message);
                }
            }
            match AbiHi::of(inst) {
                Some(AbiHi::RetHi) => {
                    let last = block.insts[i + 1..]
                        .iter()
                        .all(|n| AbiFloatPart::of(n).is_some_and(|k| k.set));
                    if !last || !matches!(block.term, crate::ir::Terminator::Ret(Some(_))) {
                        return Some(format!(
                            "@{} in {} is not directly followed by `ret` with a value",
                            AbiHi::RetHi.name(),
                            block.label
                        ));
                    }
                }
                Some(AbiHi::ResultHi) => {
                    let after_call = follows_call(block, i);
                    if !after_call {
                        return Some(format!(
                            "@{} in {} does not directly follow a call with a result",
                            AbiHi::ResultHi.name(),
                            block.label
                        ));
                    }
                }
                None => {}
            }
        }
    }
    None
}

/// True when instruction `i` of `block` follows a call with a result (not an intrinsic
/// of this file), directly or after `result_float` reads.
fn follows_call(block: &crate::ir::BasicBlock, i: usize) -> bool {
    let mut j = i;
    while j > 0 {
        j -= 1;
        let inst = &block.insts[j];
        if AbiFloatPart::of(inst).is_some_and(|k| !k.set) {
            continue;
        }
        return matches!(inst, Inst::Call { dest: Some(_), .. }) && !is_abi_intrinsic(inst);
    }
    false
}

/// Why float-part intrinsic `k` at instruction `i` of `block` is misplaced, if it is:
/// a `ret_float` must be followed only by other `ret_float`s or `ret_hi` up to a `ret`
/// with a value; a `result_float` must follow a call (`follows_call`).
fn float_part_placement_error(
    block: &crate::ir::BasicBlock,
    i: usize,
    k: AbiFloatPart,
) -> Option<String> {
    if k.set {
        let rest_ok = block.insts[i + 1..].iter().all(|n| {
            AbiFloatPart::of(n).is_some_and(|k| k.set) || AbiHi::of(n) == Some(AbiHi::RetHi)
        });
        if !rest_ok || !matches!(block.term, crate::ir::Terminator::Ret(Some(_))) {
            return Some(format!(
                "@{} in {} is not followed only by result registers and `ret` with a value",
                k.name(),
                block.label
            ));
        }
    } else if !follows_call(block, i) {
        return Some(format!(
            "@{} in {} does not follow a call with a result",
            k.name(),
            block.label
        ));
    }
    None
}

/// `module` with every call of a piece load replaced by a `load` of its type and the
/// declarations dropped (borrowed unchanged when it has none): what the backends compile.
pub fn lower_for_backend(module: &IrModule) -> Cow<'_, IrModule> {
    if !module
        .decls
        .iter()
        .any(|d| AbiLoad::by_name(&d.name).is_some())
    {
        return Cow::Borrowed(module);
    }
    let mut out = module.clone();
    out.decls.retain(|d| AbiLoad::by_name(&d.name).is_none());
    for func in &mut out.functions {
        for block in &mut func.blocks {
            block.insts.retain_mut(rewrite);
        }
    }
    Cow::Owned(out)
}

/// Rewrites one piece-load call into a `load`; false when the call is to be dropped (a
/// load whose result nobody names).
fn rewrite(inst: &mut Inst) -> bool {
    let Inst::Call {
        dest,
        callee: Callee::Direct(name),
        args,
        ..
    } = inst
    else {
        return true;
    };
    let Some(k) = AbiLoad::by_name(name) else {
        return true;
    };
    let ptr = match args.as_slice() {
        [(IrType::Ptr, op)] => *op,
        // A malformed call stays a call: the backend reports it (an undefined symbol).
        _ => return true,
    };
    match dest {
        Some(d) => {
            *inst = Inst::Load {
                dest: *d,
                ty: k.ty(),
                ptr,
            };
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    #[test]
    fn names_round_trip() {
        for k in AbiLoad::ALL {
            assert_eq!(AbiLoad::by_name(k.name()), Some(k));
            assert_eq!(AbiLoad::for_type(k.ty()), Some(k));
            assert_eq!(k.decl().ret, k.ty());
        }
        assert_eq!(AbiLoad::by_name("printf"), None);
    }

    #[test]
    fn calls_become_loads_and_declarations_go() {
        let text = "declare @__phi_abi.load.i64(ptr) -> i64\n\
                    declare @puts(ptr) -> i32\n\
                    func @f(ptr) -> i64 {\n\
                    .LBB0:\n  %0 = paramref 0, ptr\n  %1 = call i64 @__phi_abi.load.i64(ptr %0)\n  \
                    call i64 @__phi_abi.load.i64(ptr %0)\n  ret i64 %1\n}\n";
        let m = parse_module(text).expect("parses");
        let lowered = lower_for_backend(&m);
        assert_eq!(lowered.decls.len(), 1);
        assert_eq!(lowered.decls[0].name, "puts");
        let insts = &lowered.functions[0].blocks[0].insts;
        assert_eq!(insts.len(), 2);
        assert!(matches!(
            insts[1],
            Inst::Load {
                ty: IrType::I64,
                ..
            }
        ));
    }
}
