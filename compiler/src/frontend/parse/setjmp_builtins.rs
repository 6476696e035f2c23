//! gcc's `__builtin_setjmp` and `__builtin_longjmp`, as known functions of the front end
//! (`builtins.rs` looks names up here too).
//!
//! Why a file of its own: the two are not library functions under another name — their
//! IR callees are phicc's intrinsics `@__phi_sj.builtin_setjmp(ptr) -> i32` and
//! `@__phi_sj.builtin_longjmp(ptr, i32) -> void` (`setjmp_intrinsics`), which each backend
//! implements on gcc's five-word buffer and the oracle models. libc's `setjmp` family
//! needs nothing here: `<setjmp.h>` declares it.
//!
//! Invariants: every entry's name is its IR name; [`ir_name_of`] maps each C spelling to
//! exactly one entry.

use super::builtins::{CType, Entry};
use crate::setjmp_intrinsics::{BUILTIN_LONGJMP, BUILTIN_SETJMP};

/// The two builtins under their IR names.
pub(super) const ENTRIES: &[Entry] = &[
    (BUILTIN_SETJMP, CType::Int, &[CType::Ptr], false),
    (
        BUILTIN_LONGJMP,
        CType::Void,
        &[CType::Ptr, CType::Int],
        false,
    ),
];

/// The IR name of the builtin spelled `name` in C, if it is one of the two.
pub(super) fn ir_name_of(name: &str) -> Option<&'static str> {
    match name {
        "__builtin_setjmp" => Some(BUILTIN_SETJMP),
        "__builtin_longjmp" => Some(BUILTIN_LONGJMP),
        _ => None,
    }
}
