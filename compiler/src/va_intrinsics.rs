//! The `<stdarg.h>` intrinsics: how a variadic function definition reads its `...`
//! arguments in the IR, independently of the target.
//!
//! Why: where the unnamed arguments of a call are (registers spilled to a save area, the
//! caller's stack area, or both with two cursors) and what a `va_list` object holds is
//! each psABI's business; the IR says only *what* the program does with its `va_list`, so
//! every stage and the oracle (which keeps its own model of the argument list: misuse is
//! undefined behaviour there) run the same IR, and each backend expands the calls
//! (`backend::va`: `va_arg`, `va_copy`, `va_end` become plain IR over the target's real
//! `va_list` layout; `va_start` is expanded by each target's `va.rs`, which knows its frame).
//!
//! Every intrinsic takes the *address* of the `va_list` object (the front end passes
//! `ap` itself where `va_list` is an array type, as on x86-64, and `&ap` elsewhere), whose
//! size and layout are the target's (`frontend::parse::va_builtins`), so a `va_list` of
//! phicc is one of gcc and libc (`vprintf`) on every target.
//!
//! - `call void @__phi_va.start(ptr %ap, i32 R, i8 C)`: `va_start`. `R` is the number of
//!   IR argument positions the target passes in registers *with a cursor of their own*
//!   (6 on x86-64 and 8 on AArch64, whose `va_arg` reads registers and the stack area
//!   apart; 0 on i686 and RISC-V, where one pointer walks all of them): the oracle reads a
//!   record in [`VaIntrinsic::ArgMemory`] form, and any argument that no longer fits the
//!   registers, from the stack cursor, as the psABIs do; with `C` = 1 (AArch64) an
//!   argument that did not fit closes the registers for every later one (AAPCS64's
//!   `__gr_offs` goes positive), with `C` = 0 (x86-64) a later smaller one may still take
//!   the registers left. Backends ignore both (they know their own ABI).
//! - `call void @__phi_va.end(ptr %ap)`, `call void @__phi_va.copy(ptr %dst, ptr %src)`.
//! - `%v = call i32|i64|ptr @__phi_va.arg.i32|.i64|.ptr(ptr %ap)`: the next argument, of
//!   that class (an `int`/`unsigned`, an 8-byte integer, a pointer).
//! - `call void @__phi_va.arg.pieces(ptr %ap, ptr %dst, i32 N)`: a record passed in `N`
//!   integer pieces (the target's piece type, `lowering::abi`) that may sit in registers,
//!   stored to `%dst` (which has room for `N` whole pieces);
//!   `@__phi_va.arg.memory` the same for a record that always travels in the stack area
//!   (x86-64's MEMORY class).
//!
//! - `%v = call f64 @__phi_va.arg.f64(ptr %ap)` ([`ARG_F64`], [`arg_f64_decl`]): the next
//!   argument, a `double` (a `float` argument arrives promoted). It is not a variant of
//!   [`VaIntrinsic`], so code that matches the integer classes never takes it for one;
//!   the oracle gives the floats a cursor of their own on x86-64 and AArch64. Natively
//!   x86-64 reads it through `fp_offset` from offsets 48..176 of the register save area
//!   (the prologue stores %xmm0-7 there when %al is not 0), AArch64 through
//!   `__vr_offs`/`__vr_top` from the q registers' 128 bytes the save area already
//!   reserves, i686 and RISC-V (where unnamed doubles travel in integer registers) from
//!   the one pointer; `va_start` then counts the named floating parameters too
//!   (`fp_offset` = 48 + 16 × them, `__vr_offs` = -16 × the q registers left).
//!
//! Invariants: this enum is the whole set; each has exactly the signature
//! [`VaIntrinsic::decl`] gives; a function that calls `start` is variadic and `noinline`
//! (the intrinsic refers to its own incoming arguments).

use crate::ir::{Callee, Inst, IrDecl, IrType};

/// The name of the `va_arg` of a `double`.
pub const ARG_F64: &str = "__phi_va.arg.f64";

/// `declare f64 @__phi_va.arg.f64(ptr)`.
pub fn arg_f64_decl() -> IrDecl {
    IrDecl {
        name: ARG_F64.to_string(),
        params: vec![IrType::Ptr],
        variadic: false,
        ret: IrType::F64,
    }
}

/// One `<stdarg.h>` intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VaIntrinsic {
    Start,
    End,
    Copy,
    ArgI32,
    ArgI64,
    ArgPtr,
    ArgPieces,
    ArgMemory,
}

impl VaIntrinsic {
    pub const ALL: [VaIntrinsic; 8] = [
        VaIntrinsic::Start,
        VaIntrinsic::End,
        VaIntrinsic::Copy,
        VaIntrinsic::ArgI32,
        VaIntrinsic::ArgI64,
        VaIntrinsic::ArgPtr,
        VaIntrinsic::ArgPieces,
        VaIntrinsic::ArgMemory,
    ];

    pub fn name(self) -> &'static str {
        match self {
            VaIntrinsic::Start => "__phi_va.start",
            VaIntrinsic::End => "__phi_va.end",
            VaIntrinsic::Copy => "__phi_va.copy",
            VaIntrinsic::ArgI32 => "__phi_va.arg.i32",
            VaIntrinsic::ArgI64 => "__phi_va.arg.i64",
            VaIntrinsic::ArgPtr => "__phi_va.arg.ptr",
            VaIntrinsic::ArgPieces => "__phi_va.arg.pieces",
            VaIntrinsic::ArgMemory => "__phi_va.arg.memory",
        }
    }

    pub fn by_name(name: &str) -> Option<VaIntrinsic> {
        VaIntrinsic::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The scalar `va_arg` whose result has IR type `ty` (signedness aside).
    pub fn arg_for(ty: IrType) -> Option<VaIntrinsic> {
        match ty {
            IrType::I32 | IrType::U32 => Some(VaIntrinsic::ArgI32),
            IrType::I64 | IrType::U64 => Some(VaIntrinsic::ArgI64),
            IrType::Ptr => Some(VaIntrinsic::ArgPtr),
            _ => None,
        }
    }

    /// The result type of a scalar `va_arg` (`Void` for the others).
    pub fn ret(self) -> IrType {
        match self {
            VaIntrinsic::ArgI32 => IrType::I32,
            VaIntrinsic::ArgI64 => IrType::I64,
            VaIntrinsic::ArgPtr => IrType::Ptr,
            _ => IrType::Void,
        }
    }

    /// The declaration the module carries.
    pub fn decl(self) -> IrDecl {
        use IrType::*;
        let params = match self {
            VaIntrinsic::Start => vec![Ptr, I32, I8],
            VaIntrinsic::End | VaIntrinsic::ArgI32 | VaIntrinsic::ArgI64 | VaIntrinsic::ArgPtr => {
                vec![Ptr]
            }
            VaIntrinsic::Copy => vec![Ptr, Ptr],
            VaIntrinsic::ArgPieces | VaIntrinsic::ArgMemory => vec![Ptr, Ptr, I32],
        };
        IrDecl {
            name: self.name().to_string(),
            params,
            variadic: false,
            ret: self.ret(),
        }
    }

    /// The intrinsic `inst` calls, if it calls one.
    pub fn of(inst: &Inst) -> Option<VaIntrinsic> {
        match inst {
            Inst::Call {
                callee: Callee::Direct(name),
                ..
            } => VaIntrinsic::by_name(name),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_classes() {
        for k in VaIntrinsic::ALL {
            assert_eq!(VaIntrinsic::by_name(k.name()), Some(k));
            assert_eq!(k.decl().ret, k.ret());
        }
        assert_eq!(VaIntrinsic::by_name("printf"), None);
        assert_eq!(VaIntrinsic::arg_for(IrType::U32), Some(VaIntrinsic::ArgI32));
        assert_eq!(VaIntrinsic::arg_for(IrType::U64), Some(VaIntrinsic::ArgI64));
        assert_eq!(VaIntrinsic::arg_for(IrType::I16), None);
    }
}
