//! glibc's stream variables `stdin`, `stdout` and `stderr`, which a program names as
//! `extern FILE *stdout;` (phicc's `<stdio.h>`).
//!
//! Why it exists: phicc compiles one file at a time and an IR module defines every
//! global it uses, so an `extern` object is refused — except these three, which
//! c-torture's `fprintf (stdout, ...)` tests need. They live in libc, like the functions
//! the module declares, so the IR names them the same way: a declaration with no
//! parameters and a `ptr` result (`declare ptr @stdout()`), never called, whose
//! `globaladdr` is the address of libc's variable. Natively that is the address of
//! glibc's data symbol (the backends emit the same symbol reference as for any other
//! declared name; the link is static); the oracle gives each one a pointer-sized
//! variable holding the address of its model of the stream (`oracle/src/interp/
//! streams.rs`).
//!
//! Invariants: only the three names, only as objects of pointer type declared `extern`
//! and not defined in the unit (a unit that defines its own `stdout` uses its own).

use super::function::{FnLower, Res};
use crate::ir::{IrDecl, IrType, Operand};

/// glibc's stream variables.
pub const LIBC_STREAMS: [&str; 3] = ["stdin", "stdout", "stderr"];

/// The IR declaration that stands for the libc variable `name`.
pub fn stream_decl(name: &str) -> IrDecl {
    IrDecl {
        name: name.to_string(),
        params: Vec::new(),
        variadic: false,
        ret: IrType::Ptr,
    }
}

impl FnLower<'_, '_> {
    /// The address of libc's variable `name` when it is one of [`LIBC_STREAMS`] declared
    /// with a pointer type; `None` for any other extern-only object.
    pub(crate) fn libc_stream_addr(
        &mut self,
        name: &str,
        ty: &crate::frontend::types::Type,
    ) -> Res<Option<Operand>> {
        if !LIBC_STREAMS.contains(&name) || !matches!(ty, crate::frontend::types::Type::Pointer(_))
        {
            return Ok(None);
        }
        self.ctx
            .decls
            .entry(name.to_string())
            .or_insert_with(|| stream_decl(name));
        Ok(Some(self.global_addr(name)))
    }
}
