//! Program startup: the arguments a hosted C program's `main` receives.
//!
//! Why: a C program may read `argc`, `argv[0]` (its name) and even write into the argument
//! strings (C11 5.1.2.2.1: "the strings pointed to by the argv array shall be modifiable").
//! For the oracle to agree with a native run of the same program, `main` must get the same
//! argument vector the native reference gets ([`PROGRAM_NAME`] and nothing else, by
//! default), laid out in the run's memory like any other object, so every access to it is
//! checked (bounds, liveness, initialisation) as usual.
//!
//! Invariants:
//! - the shapes of `main` accepted are `()`, `(INT, ptr)` and `(INT, ptr, ptr)` with any
//!   integer type `INT` that holds `argc`; anything else is an [`InterpError`];
//! - each argument string is its own allocation of `len + 1` bytes (the bytes, then NUL),
//!   initialised and writable, live for the whole run; an argument containing a NUL is
//!   refused (a C string cannot hold one);
//! - `argv` is an allocation of `argc + 1` pointers of the run's width, `argv[argc]` is
//!   null; `envp` (third parameter) is an allocation of one null pointer; both initialised
//!   and writable, live for the whole run;
//! - everything is allocated before `main`'s frame exists, so no instruction is charged
//!   for it and the execution loop does not know it happened.

use super::code::CompiledFunc;
use super::memory::{AllocKind, Memory};
use super::value::Canon;
use super::InterpError;
use compiler::ir::IrType;

/// `argv[0]` of every C program the harness runs, in the oracle and natively alike.
pub const PROGRAM_NAME: &str = "a.out";

/// Which of the hosted forms of `main` a function has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MainShape {
    /// `int main(void)`.
    NoArgs,
    /// `int main(int argc, char **argv)`, argc of this integer type.
    ArgcArgv(IrType),
    /// `int main(int argc, char **argv, char **envp)`.
    ArgcArgvEnvp(IrType),
}

/// The shape of `f` as a `main`, or why it cannot be called as one.
pub(crate) fn main_shape(f: &CompiledFunc) -> Result<MainShape, InterpError> {
    match f.params.as_slice() {
        [] => Ok(MainShape::NoArgs),
        [argc, IrType::Ptr] if argc.is_integer() => Ok(MainShape::ArgcArgv(*argc)),
        [argc, IrType::Ptr, IrType::Ptr] if argc.is_integer() => Ok(MainShape::ArgcArgvEnvp(*argc)),
        params => {
            let list: Vec<String> = params.iter().map(|t| t.to_string()).collect();
            Err(InterpError::entry(format!(
                "@{} cannot be called as `main`: it takes ({}), not (), (INT, ptr) or \
                 (INT, ptr, ptr)",
                f.name,
                list.join(", ")
            )))
        }
    }
}

/// Allocates `argv`'s strings and array (and `envp` when `shape` has it) in `mem` and
/// returns the arguments `main` is called with, as register values.
pub(crate) fn lay_out(
    mem: &mut Memory,
    ptr_bytes: u32,
    shape: MainShape,
    argv: &[&[u8]],
) -> Result<Vec<i64>, InterpError> {
    let (argc_ty, envp) = match shape {
        MainShape::NoArgs => return Ok(Vec::new()),
        MainShape::ArgcArgv(t) => (t, false),
        MainShape::ArgcArgvEnvp(t) => (t, true),
    };
    let argc = argv.len() as u64;
    let canon = Canon::of(argc_ty, ptr_bytes);
    if canon.apply(argc) != argc {
        return Err(InterpError::entry(format!(
            "argc = {argc} does not fit main's {argc_ty} parameter"
        )));
    }
    let full = || InterpError::entry("no memory left for main's arguments");
    let mut pointers = Vec::with_capacity(argv.len() + 1);
    for (i, arg) in argv.iter().enumerate() {
        if arg.contains(&0) {
            return Err(InterpError::entry(format!("argv[{i}] contains a NUL byte")));
        }
        // Zero-filled, so the byte after the copied ones is the terminating NUL.
        let (id, addr) = mem
            .allocate(arg.len() as u64 + 1, 1, AllocKind::Global)
            .ok_or_else(full)?;
        mem.set_global_bytes(id, 0, arg);
        pointers.push(addr);
    }
    pointers.push(0);
    let argv_addr = pointer_array(mem, ptr_bytes, &pointers).ok_or_else(full)?;
    let mut args = vec![argc as i64, argv_addr as i64];
    if envp {
        args.push(pointer_array(mem, ptr_bytes, &[0]).ok_or_else(full)? as i64);
    }
    Ok(args)
}

/// A writable, initialised array of `ptr_bytes`-wide pointers; its address.
fn pointer_array(mem: &mut Memory, ptr_bytes: u32, pointers: &[u64]) -> Option<u64> {
    let size = pointers.len() as u64 * ptr_bytes as u64;
    let (id, addr) = mem.allocate(size, ptr_bytes, AllocKind::Global)?;
    for (i, p) in pointers.iter().enumerate() {
        let bytes = p.to_le_bytes();
        mem.set_global_bytes(id, i * ptr_bytes as usize, &bytes[..ptr_bytes as usize]);
    }
    Some(addr)
}
