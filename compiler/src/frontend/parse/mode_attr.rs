//! gcc's `mode` attribute on integer types: `typedef int s8 __attribute__((mode(QI)));`
//! declares an integer of a given machine-mode width (c-torture's old tests spell fixed
//! widths this way).
//!
//! Why it exists: the attribute changes the declared type; ignoring it would be wrong
//! code, so before this file it was refused like every attribute phicc does not know.
//!
//! Invariants (gcc 12's behaviour):
//! - Modes `QI`/`byte` (1 byte), `HI` (2), `SI` (4), `DI` (8), `word` (the target's
//!   word: 8 bytes on the 64-bit targets, 4 on i686) and `pointer` (the pointer width),
//!   each optionally spelled `__X__`. The result is the standard integer type of that
//!   size with the signedness of the type the attribute applies to (an enumerated type:
//!   its integer type's signedness, so an enum stops being one).
//! - It applies to the declared type, which must be an integer type: on a pointer,
//!   array, function, record or floating type it is an error here (gcc accepts a few of
//!   those with other meanings).
//! - `TI` (128-bit), the floating and complex modes and vector modes are errors: phicc
//!   has no such types. An unknown name is gcc's "unknown machine mode".
//! - A declaration's modes come from its specifiers and its declarator (the last one
//!   written wins, as `Attrs::merge` keeps it).

use super::attributes::Attrs;
use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::{IntKind, QualType, Type};

/// A `mode` attribute's integer size in bytes.
pub(crate) type ModeBytes = u8;

impl Parser<'_> {
    /// The size of the integer machine mode `name` (the argument of `mode(...)`).
    pub(crate) fn mode_bytes(&self, name: &str, loc: Loc) -> Result<ModeBytes, Diagnostic> {
        let bare = name.trim_start_matches("__").trim_end_matches("__");
        Ok(match bare {
            "QI" | "byte" => 1,
            "HI" => 2,
            "SI" => 4,
            "DI" => 8,
            "word" => self.target.sizeof_long() as u8,
            "pointer" => self.target.sizeof_pointer() as u8,
            "TI" | "OI" | "SF" | "DF" | "XF" | "TF" | "HF" | "BF" | "SC" | "DC" | "XC" | "TC"
            | "CQI" | "CHI" | "CSI" | "CDI" | "CTI" => {
                return Err(self.error_at(
                    loc,
                    format!("the machine mode '{bare}' is not supported by phicc"),
                ))
            }
            _ => return Err(self.error_at(loc, format!("unknown machine mode '{name}'"))),
        })
    }

    /// `ty` with the declaration's `mode` attribute (if any) applied.
    pub(crate) fn apply_mode(
        &self,
        ty: QualType,
        attrs: &Attrs,
        loc: Loc,
    ) -> Result<QualType, Diagnostic> {
        let Some(bytes) = attrs.mode else {
            return Ok(ty);
        };
        let signed = match &ty.ty {
            Type::Int(k) => k.is_signed(self.target),
            _ => return Err(self.error_at(
                loc,
                "the 'mode' attribute on a type other than an integer is not supported by phicc",
            )),
        };
        let kind = match (bytes, signed) {
            (1, true) => IntKind::SChar,
            (1, false) => IntKind::UChar,
            (2, true) => IntKind::Short,
            (2, false) => IntKind::UShort,
            (4, true) => IntKind::Int,
            (4, false) => IntKind::UInt,
            (_, true) if self.target.sizeof_long() == 8 => IntKind::Long,
            (_, false) if self.target.sizeof_long() == 8 => IntKind::ULong,
            (_, true) => IntKind::LongLong,
            (_, false) => IntKind::ULongLong,
        };
        Ok(QualType {
            ty: Type::Int(kind),
            ..ty
        })
    }
}
