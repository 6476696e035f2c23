//! Scalar types of the IR.
//!
//! Why: the IR is target-independent; signedness lives in the type (as in the seed design),
//! so `cast i32 %x to i64` sign-extends and `cast u32 %x to i64` zero-extends. Pointers are
//! opaque: their width is a property of the target (8 bytes on LP64, 4 on i686), never of
//! the module, so every size query that can involve `ptr` takes the pointer width.
//!
//! The two binary floating-point types `f32` and `f64` (IEEE 754 binary32 and binary64) are
//! neither integers nor pointers: integer operations refuse them, and their values are raw
//! bit patterns (see `constant.rs` and `docs/ir-notes.md`).
//!
//! Invariants: `Display` is exactly the text form that the parser reads back.

use std::fmt;

/// A scalar IR type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IrType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Ptr,
    Void,
}

impl IrType {
    /// Every type, in text order; useful to generators and parsers.
    pub const ALL: [IrType; 12] = [
        IrType::I8,
        IrType::I16,
        IrType::I32,
        IrType::I64,
        IrType::U8,
        IrType::U16,
        IrType::U32,
        IrType::U64,
        IrType::F32,
        IrType::F64,
        IrType::Ptr,
        IrType::Void,
    ];

    /// The floating-point types.
    pub const FLOATS: [IrType; 2] = [IrType::F32, IrType::F64];

    /// The integer types (no `ptr`, no `void`).
    pub const INTEGERS: [IrType; 8] = [
        IrType::I8,
        IrType::I16,
        IrType::I32,
        IrType::I64,
        IrType::U8,
        IrType::U16,
        IrType::U32,
        IrType::U64,
    ];

    /// The text name (`i32`, `ptr`, ...).
    pub fn name(self) -> &'static str {
        match self {
            IrType::I8 => "i8",
            IrType::I16 => "i16",
            IrType::I32 => "i32",
            IrType::I64 => "i64",
            IrType::U8 => "u8",
            IrType::U16 => "u16",
            IrType::U32 => "u32",
            IrType::U64 => "u64",
            IrType::F32 => "f32",
            IrType::F64 => "f64",
            IrType::Ptr => "ptr",
            IrType::Void => "void",
        }
    }

    /// Parses a type name; `None` when it is not one.
    pub fn from_name(s: &str) -> Option<IrType> {
        IrType::ALL.iter().copied().find(|t| t.name() == s)
    }

    /// Size in bytes; `ptr_bytes` is the target's pointer width (4 or 8). `void` is 0.
    pub fn size(self, ptr_bytes: u32) -> u32 {
        match self {
            IrType::I8 | IrType::U8 => 1,
            IrType::I16 | IrType::U16 => 2,
            IrType::I32 | IrType::U32 | IrType::F32 => 4,
            IrType::I64 | IrType::U64 | IrType::F64 => 8,
            IrType::Ptr => ptr_bytes,
            IrType::Void => 0,
        }
    }

    /// Width in bits (see [`IrType::size`]).
    pub fn bits(self, ptr_bytes: u32) -> u32 {
        self.size(ptr_bytes) * 8
    }

    /// The largest size this type can have on any target (pointers count as 8).
    pub fn max_size(self) -> u32 {
        self.size(8)
    }

    /// True for the signed integer types.
    pub fn is_signed(self) -> bool {
        matches!(self, IrType::I8 | IrType::I16 | IrType::I32 | IrType::I64)
    }

    /// True for the eight integer types.
    pub fn is_integer(self) -> bool {
        !matches!(self, IrType::Ptr | IrType::Void | IrType::F32 | IrType::F64)
    }

    /// True for `f32` and `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, IrType::F32 | IrType::F64)
    }

    /// True for integers, floats and `ptr`: anything a register holds.
    pub fn is_scalar(self) -> bool {
        self != IrType::Void
    }

    /// Brings the low `bits` of `raw` into this type's canonical 64-bit form: sign-extended
    /// for signed types, zero-extended for unsigned ones, for `ptr` and for floats (an `f32`
    /// is its 32-bit pattern in the low half, an `f64` its 64-bit pattern). Every value the
    /// interpreter keeps and every constant the IR holds is canonical.
    pub fn canonicalize(self, raw: u64, ptr_bytes: u32) -> u64 {
        let bits = self.bits(ptr_bytes);
        if bits == 0 || bits >= 64 {
            return raw;
        }
        let shift = 64 - bits;
        if self.is_signed() {
            (((raw << shift) as i64) >> shift) as u64
        } else {
            (raw << shift) >> shift
        }
    }
}

impl fmt::Display for IrType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in IrType::ALL {
            assert_eq!(IrType::from_name(t.name()), Some(t));
        }
        assert_eq!(IrType::from_name("i128"), None);
        assert_eq!(IrType::from_name("f64"), Some(IrType::F64));
        assert!(!IrType::F32.is_integer() && IrType::F32.is_float());
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(IrType::I8.canonicalize(0xff, 8), u64::MAX);
        assert_eq!(IrType::U8.canonicalize(0x1ff, 8), 0xff);
        assert_eq!(
            IrType::I32.canonicalize(0x8000_0000, 8),
            0xffff_ffff_8000_0000
        );
        assert_eq!(IrType::Ptr.canonicalize(0x1_0000_0004, 4), 4);
        assert_eq!(IrType::Ptr.canonicalize(0x1_0000_0004, 8), 0x1_0000_0004);
        assert_eq!(IrType::U64.canonicalize(u64::MAX, 8), u64::MAX);
        assert_eq!(
            IrType::F32.canonicalize(0xffff_ffff_bf80_0000, 8),
            0xbf80_0000
        );
    }
}
