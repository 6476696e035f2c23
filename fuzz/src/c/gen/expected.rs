//! What a generated program prints: values along the way, then a checksum of every
//! global.
//!
//! Why: the expected output is the generator's own oracle, independent of gcc and of
//! the IR interpreter. The C text the printer writes for these lines and the strings
//! built here must agree byte for byte; both are defined in this file.
//!
//! Invariants:
//! - `main` mixes every integer scalar of every global that `main` can name (static
//!   locals and pointers excluded), in declaration order, elements and fields in order,
//!   each converted to `unsigned long long`; of a union, its narrowest member; a float
//!   global as its bits (`float_bits`/`double_bits`, a NaN as `float::NAN_MARK`);
//! - the mix is unsigned 64-bit arithmetic, defined for all values.

use super::ast::{Expr, LVal, Program, VarRef};
use super::float::{FKind, FVal};
use super::types::{DataModel, IntKind, Ty};
use super::value::Val;

/// The C helper the program defines: the checksum state and its mixing function.
pub const CHECKSUM_C: &str = "static unsigned long long checksum_state = 0;\n\
static void checksum_mix(unsigned long long v)\n\
{\n    checksum_state = (checksum_state ^ v) * 1099511628211ULL + 7ULL;\n}\n";

/// One step of the checksum (the Rust twin of `checksum_mix`).
pub fn checksum_mix(state: u64, v: u64) -> u64 {
    (state ^ v).wrapping_mul(1_099_511_628_211).wrapping_add(7)
}

/// The C statement that prints the checksum at the end of `main`.
pub const CHECKSUM_PRINT_C: &str = "printf(\"checksum = %016llx\\n\", checksum_state);";

/// The line that statement prints.
pub fn checksum_line(state: u64) -> String {
    format!("checksum = {state:016x}\n")
}

/// The data model that decides a `Print`'s format: the expression's signedness can
/// differ between data models (`long long + unsigned long` is signed on ILP32 only), but
/// the text has one format, chosen under LP64, and every model converts to it.
pub const FORMAT_DM: DataModel = DataModel { long_bits: 64 };

/// Whether `Print(e)` in function `f` prints with `%lld` (else `%llu`).
pub fn prints_signed(p: &Program, f: usize, e: &Expr) -> bool {
    p.int_kind(f, e, FORMAT_DM).promote().is_signed()
}

/// The `printf` call of a `Print` statement, around the expression's text.
pub fn print_call_c(signed: bool, expr_text: &str) -> String {
    if signed {
        format!("printf(\"%lld\\n\", (long long)({expr_text}));")
    } else {
        format!("printf(\"%llu\\n\", (unsigned long long)({expr_text}));")
    }
}

/// The line a `Print` of value `v` (computed under `dm`) writes: `v` converted to
/// `long long` or `unsigned long long` as the format's cast does.
pub fn print_line(v: Val, signed: bool, dm: DataModel) -> String {
    if signed {
        format!("{}\n", v.to(IntKind::LLong, dm).v)
    } else {
        format!("{}\n", v.to(IntKind::ULLong, dm).v)
    }
}

/// The `printf` call of an `FPrint` statement of a float of kind `k`.
pub fn float_print_call_c(k: FKind, expr_text: &str) -> String {
    format!("printf(\"%016llx\\n\", {}({expr_text}));", k.bits_helper())
}

/// The line an `FPrint` of `v` writes.
pub fn float_print_line(v: FVal) -> String {
    format!("{:016x}\n", v.observed_bits())
}

/// The lvalues `main` mixes into the checksum, in order.
pub fn checksum_leaves(p: &Program, dm: DataModel) -> Vec<LVal> {
    let mut out = Vec::new();
    for (i, g) in p.globals.iter().enumerate() {
        if g.owner.is_none() {
            leaves(p, LVal::Var(VarRef::Global(i)), &g.ty, &mut out, dm);
        }
    }
    out
}

fn leaves(p: &Program, lv: LVal, ty: &Ty, out: &mut Vec<LVal>, dm: DataModel) {
    match ty {
        Ty::Int(_) | Ty::Float(_) => out.push(lv),
        Ty::Ptr(_) => {}
        Ty::Array(t, n) => {
            for i in 0..*n {
                let idx = Expr::Const(Val::new(IntKind::Int, i as i128, dm));
                let el = LVal::Index(Box::new(lv.clone()), Box::new(idx), Default::default());
                leaves(p, el, t, out, dm);
            }
        }
        // A union's narrowest member: its read is defined whatever was written last.
        Ty::Struct(id) if p.structs[*id].union => {
            let m = p.structs[*id].narrowest_member();
            out.push(LVal::Member(Box::new(lv), m.into()));
        }
        Ty::Struct(id) => {
            for (i, f) in p.structs[*id].fields.iter().enumerate() {
                leaves(p, LVal::Field(Box::new(lv.clone()), i), &f.ty, out, dm);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_is_fnv_like_and_printed_in_16_hex_digits() {
        // (0 ^ 1) * 1099511628211 + 7, by hand.
        assert_eq!(checksum_mix(0, 1), 1_099_511_628_218);
        assert_eq!(checksum_line(255), "checksum = 00000000000000ff\n");
    }
}
