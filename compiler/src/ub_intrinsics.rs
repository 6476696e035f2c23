//! The intrinsics of the checked lowering: the calls through which phicc's front end tells
//! the oracle what C makes undefined and the IR cannot see (see `docs/ub-judge.md`).
//!
//! Why: IR arithmetic wraps, a pointer is an allocation plus an offset and an `alloca`
//! lives as long as its frame, so signed overflow, sub-object bounds, block lifetimes
//! and cross-object pointer comparisons are invisible in the normal lowering. The
//! *checked* lowering (`lowering::LowerOptions::ub_checks`) replaces or precedes the
//! operations C restricts with calls to these declared externals; the oracle implements
//! them (`oracle::interp::intrinsic`) and reports a violation as `Undefined(kind)`. Only
//! the UB judge runs this module: it never enters the optimizer, whose input stays the
//! normal lowering, so no pass, backend or IR rule needs to know these names.
//!
//! Invariants: this enum is the whole set; a name is `__phi_ub.` followed by the
//! operation (`.i32`/`.i64` for the typed ones); each has exactly the signature
//! [`UbIntrinsic::decl`] gives, which the oracle checks like a libc prototype. The
//! arithmetic ones return the wrapped result (what the plain instruction computes) when
//! they do not report.

use crate::ir::{IrDecl, IrType};

/// One intrinsic of the checked lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UbIntrinsic {
    /// `(a, b) -> a + b` of a signed type; `SignedOverflow` when the sum does not fit.
    AddI32,
    AddI64,
    SubI32,
    SubI64,
    MulI32,
    MulI64,
    /// `(a) -> -a`; `SignedOverflow` for the type's minimum.
    NegI32,
    NegI64,
    /// `(a, n) -> a << n` of a signed `a`: `ShiftTooLarge` unless `0 <= n < width`
    /// (C11 6.5.7p3); otherwise the two's-complement result, as gcc defines a signed
    /// `<<` whose result does not fit or whose `a` is negative (`docs/ub-judge.md`).
    ShlI32,
    ShlI64,
    /// `(p, q) -> void` before `p - q`: `PointerSubtraction` unless both point into (or
    /// one past) the same object, or are equal.
    PtrSub,
    /// `(p, q) -> void` before `p < q` (`<=`, `>`, `>=`): `PointerComparison` unless both
    /// point into (or one past) the same object, or are equal.
    PtrCmp,
    /// `(i, limit) -> void`, `i64`s: `IndexOutOfBounds` unless `0 <= i < limit`. The
    /// lowering passes the array's length (an access) or length + 1 (an address).
    Index,
    /// `(p, align) -> void`: `Misaligned` unless `p` is a multiple of `align`.
    Aligned,
    /// `(p) -> void` at the entry of the block that declares the object at `p` (and at
    /// labels inside it): if the object's block had ended, a new object (uninitialised)
    /// takes its place. The oracle gives the new object a new address and writes it into
    /// the `alloca`'s own register `p`, so a pointer kept from the old object stays dead
    /// (`UseAfterScope`); this is the one intrinsic that changes its argument.
    ScopeStart,
    /// `(p) -> void` where that block ends: later accesses are `UseAfterScope`.
    ScopeEnd,
    /// `(p) -> void` after the initialisation of a `const`-qualified block-scope object
    /// (or parameter) at `p`: later stores to it are `WriteToConst` (C99 6.7.3p5).
    Freeze,
    /// `(p) -> void` before that object is initialised (again): stores are allowed until
    /// the next `Freeze` (a declaration reached twice, by a loop or a `goto`).
    Thaw,
    /// `(f, h) -> void`, once per defined function at the entry of `main`: the function
    /// at address `f` has C type `h` (a hash of its canonical type; 0: unknown).
    FnType,
    /// `(p, h) -> void` before a call through pointer `p` whose C type is `h`:
    /// `BadCall` when `p` designates a function registered with a different known type
    /// (C99 6.3.2.3p8, 6.5.2.2p9).
    CallType,
    /// `(line) -> void` where an expression modifies a scalar object twice, or modifies
    /// and reads it for another purpose, between two sequence points (C99 6.5p2): always
    /// `Unsequenced`. `line` (the C source line) is only for people reading the IR.
    Unsequenced,
    /// `(p, code) -> void` after a store through a non-character, non-union lvalue:
    /// the stored bytes take the effective type `code & 0xff` (a class of
    /// `lowering::effective_types`) over `code >> 8` bytes (C11 6.5p6).
    StoreType,
    /// `(p, code) -> void` before a load through such an lvalue: `StrictAliasing` when
    /// one of the `code >> 8` bytes at `p` has an effective type other than
    /// `code & 0xff` (C11 6.5p7).
    LoadType,
    /// `(p) -> void`: the object at `p` contains a union; its bytes never take an
    /// effective type (type punning through a union is defined, and the judge does not
    /// follow which member a pointer came from).
    Untyped,
    /// `(lo, len) -> void` before `bind_bounds`: the array member at `lo` has `len`
    /// bytes (a pointer derived from it may point into it or one past it).
    SubObject,
    /// `(slot) -> void` after storing a pointer derived from that array into the
    /// pointer variable whose slot is `slot`: the variable's pointer carries the bounds
    /// until the slot is written again (by anything).
    BindBounds,
    /// `(slot) -> void` after a store to that variable whose value came from its own old
    /// value (`p++`, `p += k`, `p = p + k`): the bounds the store dropped hold again.
    KeepBounds,
    /// `(slot, r) -> void`: `r` was derived from the pointer in the variable at `slot`;
    /// when it carries bounds, `IndexOutOfBounds` unless `r` is in the array or one past.
    PtrInBounds,
    /// `(slot, r) -> void`: the same for an access at `r`, which must be in the array.
    AccessInBounds,
}

impl UbIntrinsic {
    pub const ALL: [UbIntrinsic; 29] = [
        UbIntrinsic::AddI32,
        UbIntrinsic::AddI64,
        UbIntrinsic::SubI32,
        UbIntrinsic::SubI64,
        UbIntrinsic::MulI32,
        UbIntrinsic::MulI64,
        UbIntrinsic::NegI32,
        UbIntrinsic::NegI64,
        UbIntrinsic::ShlI32,
        UbIntrinsic::ShlI64,
        UbIntrinsic::PtrSub,
        UbIntrinsic::PtrCmp,
        UbIntrinsic::Index,
        UbIntrinsic::Aligned,
        UbIntrinsic::ScopeStart,
        UbIntrinsic::ScopeEnd,
        UbIntrinsic::Freeze,
        UbIntrinsic::Thaw,
        UbIntrinsic::FnType,
        UbIntrinsic::CallType,
        UbIntrinsic::Unsequenced,
        UbIntrinsic::StoreType,
        UbIntrinsic::LoadType,
        UbIntrinsic::Untyped,
        UbIntrinsic::SubObject,
        UbIntrinsic::BindBounds,
        UbIntrinsic::KeepBounds,
        UbIntrinsic::PtrInBounds,
        UbIntrinsic::AccessInBounds,
    ];

    /// The declared symbol.
    pub fn name(self) -> &'static str {
        match self {
            UbIntrinsic::AddI32 => "__phi_ub.add.i32",
            UbIntrinsic::AddI64 => "__phi_ub.add.i64",
            UbIntrinsic::SubI32 => "__phi_ub.sub.i32",
            UbIntrinsic::SubI64 => "__phi_ub.sub.i64",
            UbIntrinsic::MulI32 => "__phi_ub.mul.i32",
            UbIntrinsic::MulI64 => "__phi_ub.mul.i64",
            UbIntrinsic::NegI32 => "__phi_ub.neg.i32",
            UbIntrinsic::NegI64 => "__phi_ub.neg.i64",
            UbIntrinsic::ShlI32 => "__phi_ub.shl.i32",
            UbIntrinsic::ShlI64 => "__phi_ub.shl.i64",
            UbIntrinsic::PtrSub => "__phi_ub.ptrsub",
            UbIntrinsic::PtrCmp => "__phi_ub.ptrcmp",
            UbIntrinsic::Index => "__phi_ub.index",
            UbIntrinsic::Aligned => "__phi_ub.aligned",
            UbIntrinsic::ScopeStart => "__phi_ub.scope_start",
            UbIntrinsic::ScopeEnd => "__phi_ub.scope_end",
            UbIntrinsic::Freeze => "__phi_ub.freeze",
            UbIntrinsic::Thaw => "__phi_ub.thaw",
            UbIntrinsic::FnType => "__phi_ub.fn_type",
            UbIntrinsic::CallType => "__phi_ub.call_type",
            UbIntrinsic::Unsequenced => "__phi_ub.unsequenced",
            UbIntrinsic::StoreType => "__phi_ub.store_type",
            UbIntrinsic::LoadType => "__phi_ub.load_type",
            UbIntrinsic::Untyped => "__phi_ub.untyped",
            UbIntrinsic::SubObject => "__phi_ub.subobject",
            UbIntrinsic::BindBounds => "__phi_ub.bind_bounds",
            UbIntrinsic::KeepBounds => "__phi_ub.keep_bounds",
            UbIntrinsic::PtrInBounds => "__phi_ub.ptr_in_bounds",
            UbIntrinsic::AccessInBounds => "__phi_ub.access_in_bounds",
        }
    }

    /// The intrinsic declared as `name`, if any.
    pub fn by_name(name: &str) -> Option<UbIntrinsic> {
        UbIntrinsic::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The checked form of a signed binary operation in `ty` (`i32` or `i64`), if C
    /// restricts it: `+ - * <<`.
    pub fn signed_binary(op: crate::ir::BinOp, ty: IrType) -> Option<UbIntrinsic> {
        use crate::ir::BinOp;
        let wide = match ty {
            IrType::I32 => false,
            IrType::I64 => true,
            _ => return None,
        };
        Some(match (op, wide) {
            (BinOp::Add, false) => UbIntrinsic::AddI32,
            (BinOp::Add, true) => UbIntrinsic::AddI64,
            (BinOp::Sub, false) => UbIntrinsic::SubI32,
            (BinOp::Sub, true) => UbIntrinsic::SubI64,
            (BinOp::Mul, false) => UbIntrinsic::MulI32,
            (BinOp::Mul, true) => UbIntrinsic::MulI64,
            (BinOp::Shl, false) => UbIntrinsic::ShlI32,
            (BinOp::Shl, true) => UbIntrinsic::ShlI64,
            _ => return None,
        })
    }

    /// The checked negation in `ty`, if it is `i32` or `i64`.
    pub fn signed_neg(ty: IrType) -> Option<UbIntrinsic> {
        match ty {
            IrType::I32 => Some(UbIntrinsic::NegI32),
            IrType::I64 => Some(UbIntrinsic::NegI64),
            _ => None,
        }
    }

    /// The declaration the checked lowering emits.
    pub fn decl(self) -> IrDecl {
        use IrType::{Ptr, Void, I32, I64};
        let (params, ret) = match self {
            UbIntrinsic::AddI32 | UbIntrinsic::SubI32 | UbIntrinsic::MulI32 => {
                (vec![I32, I32], I32)
            }
            UbIntrinsic::ShlI32 => (vec![I32, I32], I32),
            UbIntrinsic::AddI64 | UbIntrinsic::SubI64 | UbIntrinsic::MulI64 => {
                (vec![I64, I64], I64)
            }
            UbIntrinsic::ShlI64 => (vec![I64, I64], I64),
            UbIntrinsic::NegI32 => (vec![I32], I32),
            UbIntrinsic::NegI64 => (vec![I64], I64),
            UbIntrinsic::PtrSub | UbIntrinsic::PtrCmp => (vec![Ptr, Ptr], Void),
            UbIntrinsic::Index => (vec![I64, I64], Void),
            UbIntrinsic::Aligned => (vec![Ptr, I64], Void),
            UbIntrinsic::ScopeStart
            | UbIntrinsic::ScopeEnd
            | UbIntrinsic::Freeze
            | UbIntrinsic::Thaw
            | UbIntrinsic::Untyped
            | UbIntrinsic::BindBounds
            | UbIntrinsic::KeepBounds => (vec![Ptr], Void),
            UbIntrinsic::SubObject => (vec![Ptr, I64], Void),
            UbIntrinsic::PtrInBounds | UbIntrinsic::AccessInBounds => (vec![Ptr, Ptr], Void),
            UbIntrinsic::StoreType | UbIntrinsic::LoadType => (vec![Ptr, I64], Void),
            UbIntrinsic::FnType | UbIntrinsic::CallType => (vec![Ptr, I64], Void),
            UbIntrinsic::Unsequenced => (vec![I32], Void),
        };
        IrDecl {
            name: self.name().to_string(),
            params,
            variadic: false,
            ret,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for i in UbIntrinsic::ALL {
            assert_eq!(UbIntrinsic::by_name(i.name()), Some(i));
            assert_eq!(i.decl().name, i.name());
        }
        assert_eq!(UbIntrinsic::by_name("printf"), None);
    }
}
