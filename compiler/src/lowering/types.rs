//! C types as the IR sees them: scalars become IR types, everything else is bytes.
//!
//! Why: one place decides how a C type is represented, so loads, stores, calls and
//! signatures can never disagree. Integers map by size and signedness (plain `char`
//! takes the target's signedness), `_Bool` is `u8`, pointers are `ptr`; records and
//! arrays have no IR type (they live in memory); a record parameter or return value
//! travels as the target's ABI says (`abi.rs`).
//!
//! `float` and `double` are `f32` and `f64`; `long double` is refused here with a message
//! (at the position of the expression or declaration that needs its value), so no such
//! value is ever given another representation by accident.

use super::abi::{abi_signature, AbiSignature};
use super::ModuleCtx;
use crate::frontend::ast::{FunctionDecl, FunctionDef};
use crate::frontend::types::{FloatKind, FunctionType, QualType, Type};
use crate::frontend::Target;
use crate::ir::{IrDecl, IrType};

/// The IR type of an integer of `size` bytes.
pub fn int_type(size: u64, signed: bool) -> IrType {
    match (size, signed) {
        (1, true) => IrType::I8,
        (1, false) => IrType::U8,
        (2, true) => IrType::I16,
        (2, false) => IrType::U16,
        (4, true) => IrType::I32,
        (4, false) => IrType::U32,
        (_, true) => IrType::I64,
        (_, false) => IrType::U64,
    }
}

/// The IR type of a scalar C type; `Err` explains why `ty` has none.
pub fn scalar_type(target: Target, ty: &Type) -> Result<IrType, String> {
    match ty {
        Type::Bool => Ok(IrType::U8),
        Type::Int(k) => Ok(int_type(k.size(target), k.is_signed(target))),
        Type::Pointer(_) => Ok(IrType::Ptr),
        Type::Float(FloatKind::Float) => Ok(IrType::F32),
        Type::Float(FloatKind::Double) => Ok(IrType::F64),
        Type::Float(FloatKind::LongDouble) => Err("'long double' is not supported by phicc".into()),
        Type::Void => Err("a void value is used".into()),
        Type::Array(..) => Err("an array is used as a value".into()),
        Type::Function(_) => Err("a function is used as a value".into()),
        Type::Record(_) => Err("a struct or union is used as a scalar".into()),
    }
}

/// How a value of a C type travels: as a scalar, as the address of a record, or not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    Scalar(IrType),
    /// A record of this many bytes, handled through its address.
    Record(u64),
    Void,
}

/// The representation of values of `ty`.
pub fn repr(ctx: &ModuleCtx, ty: &Type) -> Result<Repr, String> {
    match ty {
        Type::Void => Ok(Repr::Void),
        Type::Record(_) => Ok(Repr::Record(object_size(ctx, ty)?)),
        _ => scalar_type(ctx.target, ty).map(Repr::Scalar),
    }
}

/// `sizeof(ty)` for an object type; incomplete types are an error.
pub fn object_size(ctx: &ModuleCtx, ty: &Type) -> Result<u64, String> {
    ty.size(ctx.target, &ctx.unit.records)
        .ok_or_else(|| "object of incomplete type".to_string())
}

/// Alignment of an object of `ty` (at least 1, a power of two).
pub fn object_align(ctx: &ModuleCtx, ty: &Type) -> u32 {
    let a = ty.align(ctx.target, &ctx.unit.records).max(1);
    if a.is_power_of_two() && a <= 1 << 16 {
        a as u32
    } else {
        16
    }
}

/// A declared alignment (`_Alignas`, `aligned(N)`; at most 2^28, a power of two, as the
/// parser checks) as the IR's `u32`; 0 when none is declared.
pub fn declared_align(align: Option<u64>) -> u32 {
    align.map_or(0, |a| u32::try_from(a).unwrap_or(1 << 28))
}

/// The IR signature of a function with parameter types `params` returning `ret`: the
/// target's calling convention for records (`abi.rs`).
pub fn signature<'q>(
    ctx: &ModuleCtx,
    params: impl Iterator<Item = &'q QualType>,
    ret: &QualType,
) -> Result<AbiSignature, String> {
    abi_signature(ctx, params, ret)
}

/// The signature of a call through a function type (prototype or not).
pub fn fn_type_signature(ctx: &ModuleCtx, ty: &FunctionType) -> Result<AbiSignature, String> {
    signature(ctx, ty.params.iter(), &ty.ret)
}

/// The signature of a definition: its parameters' declared types (which also covers
/// old-style definitions, whose function type lists no parameters).
pub fn def_signature(ctx: &ModuleCtx, def: &FunctionDef) -> Result<AbiSignature, String> {
    let params = def
        .params
        .iter()
        .map(|id| def.locals.get(id.0 as usize).map(|l| &l.ty));
    let params: Option<Vec<&QualType>> = params.collect();
    let params = params.ok_or_else(|| "a parameter names no local".to_string())?;
    signature(ctx, params.into_iter(), &def.ty.ret)
}

/// The `declare` for an external function.
pub fn ir_decl(ctx: &ModuleCtx, d: &FunctionDecl) -> Result<IrDecl, String> {
    let sig = fn_type_signature(ctx, &d.ty)?;
    Ok(IrDecl {
        name: d.name.clone(),
        params: sig.params,
        variadic: d.ty.variadic,
        ret: sig.ret,
    })
}

/// True when the object's bytes are all const-qualified (a `const` global can be
/// placed in read-only memory): the type is const, or an array of const elements.
pub fn is_const_object(q: &QualType) -> bool {
    let mut q = q;
    loop {
        if q.is_const {
            return true;
        }
        match &q.ty {
            Type::Array(elem, _) => q = elem,
            _ => return false,
        }
    }
}

/// True when an object of `ty` contains a bit-field (whose read-modify-write would read
/// bytes the program never wrote).
pub fn has_bitfields(ctx: &ModuleCtx, ty: &Type) -> bool {
    // Explicit stack: records nest without a bound the lowering controls.
    let mut stack = vec![ty];
    let mut steps = 0usize;
    while let Some(t) = stack.pop() {
        steps += 1;
        if steps > 100_000 {
            return true;
        }
        match t {
            Type::Array(elem, _) => stack.push(&elem.ty),
            Type::Record(id) => {
                let Some(r) = ctx.unit.records.records.get(id.0 as usize) else {
                    continue;
                };
                for f in &r.fields {
                    if f.bitfield.is_some() {
                        return true;
                    }
                    stack.push(&f.ty.ty);
                }
            }
            _ => {}
        }
    }
    false
}
