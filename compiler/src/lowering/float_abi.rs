//! Records with a `float` or `double` member passed or returned by value: refused where
//! gcc's psABI would put them anywhere else than the integer pieces of `abi.rs`.
//!
//! Why: `abi.rs` moves every record as integer pieces, which is exactly gcc's placement
//! only while no member is floating: x86-64 classifies an eightbyte holding only floats as
//! SSE (an %xmm register), AAPCS64 passes a homogeneous floating-point aggregate of up to
//! four members in v registers, and the RISC-V LP64D ABI flattens a record of one or two
//! members, one of them floating, into fa registers. Passing such a record as integer
//! pieces would make phicc disagree with every gcc-compiled caller or callee, a false
//! miscompile natively. Until those classifications are implemented they are a clear
//! error; the cases where gcc also uses memory or integer registers stay accepted.
//!
//! Invariants: accepted are exactly the records whose placement does not depend on their
//! member types: on i686 every record travels in memory; on x86-64 a MEMORY-class record
//! (larger than 16 bytes, or a misaligned member); on RISC-V a record larger than 16
//! bytes (by reference); on AArch64 one larger than 32 bytes (too big for an HFA, so by
//! reference). Everything else holding a float anywhere (nested records, arrays,
//! unions) is refused.

use super::ModuleCtx;
use crate::frontend::types::Type;
use crate::frontend::Target;

/// True when an object of `ty` holds a floating member anywhere.
pub fn has_float(ctx: &ModuleCtx, ty: &Type) -> bool {
    // Explicit stack: records nest without a bound the lowering controls.
    let mut stack = vec![ty];
    let mut steps = 0usize;
    while let Some(t) = stack.pop() {
        steps += 1;
        if steps > 100_000 {
            return true;
        }
        match t {
            Type::Float(_) => return true,
            Type::Array(elem, _) => stack.push(&elem.ty),
            Type::Record(id) => {
                if let Some(r) = ctx.unit.records.records.get(id.0 as usize) {
                    stack.extend(r.fields.iter().map(|f| &f.ty.ty));
                }
            }
            _ => {}
        }
    }
    false
}

/// The error for record type `ty` (of `size` bytes; `x86_64_memory` when x86-64 classifies
/// it MEMORY for a member's alignment) passed or returned by value, if it is refused.
pub fn refusal(ctx: &ModuleCtx, ty: &Type, size: u64, x86_64_memory: bool) -> Option<String> {
    let like_integers = match ctx.target {
        Target::I686 => true,
        Target::X86_64 => size > 16 || x86_64_memory,
        Target::Riscv64 => size > 16,
        Target::Aarch64 => size > 32,
    };
    (!like_integers && has_float(ctx, ty)).then(|| {
        format!(
            "a struct or union with a floating-point member passed or returned by value is \
             not supported by phicc on {} yet (the psABI puts it in floating-point registers)",
            ctx.target.name()
        )
    })
}
