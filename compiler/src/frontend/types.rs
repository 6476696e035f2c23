//! C types as semantic analysis sees them, and the record (struct/union) table.
//!
//! Why it exists: the parser/sema and the lowering must agree on every type question
//! (size, alignment, signedness, layout of records, bit-field placement). They read it
//! from here; `Target` supplies the data model so LP64 and ILP32 can never disagree.
//!
//! Invariants:
//! - `Type` is a cheap clone (`Rc` for pointee, element and function types).
//! - Qualifiers live on `QualType`; `Type` itself is unqualified. Array-of-qualified is
//!   expressed by the element's `QualType`.
//! - Enumerated types are represented by their compatible integer type (`int`, or
//!   `unsigned int` when gcc would choose it): an enum never reaches the lowering.
//! - A record is referred to by `RecordId`; its layout (`RecordDef::size`, `align`, each
//!   field's `offset`/`bit_offset`) is filled in when its definition is complete and is
//!   never changed afterwards. Incomplete records have `complete == false`.

use crate::target::Target;
use std::rc::Rc;

/// The integer types of C99 (plain `char` is its own type, with the target's signedness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntKind {
    pub fn size(self, target: Target) -> u64 {
        match self {
            IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 4,
            IntKind::Long | IntKind::ULong => target.sizeof_long() as u64,
            IntKind::LongLong | IntKind::ULongLong => 8,
        }
    }

    /// Alignment as an object or struct member (i686: `long long` aligns to 4 in structs).
    pub fn align(self, target: Target) -> u64 {
        match self {
            IntKind::LongLong | IntKind::ULongLong => target.alignof_long_long() as u64,
            _ => self.size(target),
        }
    }

    pub fn is_signed(self, target: Target) -> bool {
        match self {
            IntKind::Char => target.char_is_signed(),
            IntKind::SChar | IntKind::Short | IntKind::Int | IntKind::Long | IntKind::LongLong => {
                true
            }
            _ => false,
        }
    }

    /// Conversion rank (C99 6.3.1.1): char < short < int < long < long long.
    pub fn rank(self) -> u8 {
        match self {
            IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 3,
            IntKind::Long | IntKind::ULong => 4,
            IntKind::LongLong | IntKind::ULongLong => 5,
        }
    }

    /// The unsigned type of the same rank (plain/signed char -> unsigned char).
    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::Char | IntKind::SChar | IntKind::UChar => IntKind::UChar,
            IntKind::Short | IntKind::UShort => IntKind::UShort,
            IntKind::Int | IntKind::UInt => IntKind::UInt,
            IntKind::Long | IntKind::ULong => IntKind::ULong,
            IntKind::LongLong | IntKind::ULongLong => IntKind::ULongLong,
        }
    }

    /// The signed type of the same rank (plain/unsigned char -> signed char).
    pub fn to_signed(self) -> IntKind {
        match self {
            IntKind::Char | IntKind::SChar | IntKind::UChar => IntKind::SChar,
            IntKind::Short | IntKind::UShort => IntKind::Short,
            IntKind::Int | IntKind::UInt => IntKind::Int,
            IntKind::Long | IntKind::ULong => IntKind::Long,
            IntKind::LongLong | IntKind::ULongLong => IntKind::LongLong,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
}

impl FloatKind {
    pub fn size(self, target: Target) -> u64 {
        match self {
            FloatKind::Float => 4,
            FloatKind::Double => 8,
            FloatKind::LongDouble => target.sizeof_long_double() as u64,
        }
    }

    pub fn align(self, target: Target) -> u64 {
        match self {
            FloatKind::Float => 4,
            FloatKind::Double => target.alignof_double() as u64,
            FloatKind::LongDouble => {
                if target == Target::I686 {
                    4
                } else {
                    16
                }
            }
        }
    }
}

/// Index of a struct or union in `RecordTable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// An unqualified C type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    /// `_Bool`: one byte holding 0 or 1.
    Bool,
    Int(IntKind),
    Float(FloatKind),
    Pointer(Rc<QualType>),
    /// Element type and length; `None` for an incomplete array (`int a[]`).
    Array(Rc<QualType>, Option<u64>),
    Function(Rc<FunctionType>),
    Record(RecordId),
}

/// A type with its qualifiers (`restrict` is accepted and dropped).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QualType {
    pub ty: Type,
    pub is_const: bool,
    pub is_volatile: bool,
}

impl QualType {
    pub fn new(ty: Type) -> QualType {
        QualType {
            ty,
            is_const: false,
            is_volatile: false,
        }
    }
}

impl From<Type> for QualType {
    fn from(ty: Type) -> QualType {
        QualType::new(ty)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionType {
    pub ret: QualType,
    /// Parameter types after adjustment (arrays and functions become pointers).
    pub params: Vec<QualType>,
    pub variadic: bool,
    /// False for an old-style `f()` declaration: arguments get default promotions.
    pub has_prototype: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
}

/// Placement of a bit-field member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    /// Position of the field's least significant bit, in bits from the start of the
    /// record (little-endian bit numbering, as on all four targets).
    pub bit_offset: u64,
    /// Width in bits, 1..=64 (a zero-width bit-field only affects layout and is not a
    /// member).
    pub width: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// `None` for an anonymous struct/union member (its members are found through it).
    pub name: Option<String>,
    pub ty: QualType,
    /// Byte offset of the field from the record start. For a bit-field: `bit_offset / 8`
    /// rounded down (the lowering uses `bitfield` for the exact placement).
    pub offset: u64,
    pub bitfield: Option<BitField>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordDef {
    pub kind: RecordKind,
    pub tag: Option<String>,
    pub complete: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// Laid out under `#pragma pack(N)` / `__attribute__((packed))`: the maximum member
    /// alignment, if any.
    pub pack: Option<u64>,
    /// `scalar_storage_order("big-endian")`: the scalar members are stored in big-endian
    /// byte order and bit-fields numbered as on a big-endian target (every phicc target
    /// is little-endian, so accesses swap bytes: `lowering/reverse_order.rs`).
    pub reverse_order: bool,
}

/// All records of a translation unit.
#[derive(Clone, Debug, Default)]
pub struct RecordTable {
    pub records: Vec<RecordDef>,
}

impl RecordTable {
    pub fn get(&self, id: RecordId) -> &RecordDef {
        &self.records[id.0 as usize]
    }

    /// Whether the (non-bit-field) scalar at byte `offset` of an object of type `ty` is
    /// stored in reverse byte order: a member, or an array member's element, of a
    /// `scalar_storage_order("big-endian")` record, not of a record nested in one (which
    /// keeps its own order). In a union whose members overlap there, any reversed
    /// candidate counts.
    pub fn reverse_scalar_at(&self, ty: &Type, offset: u64, target: Target) -> bool {
        self.reverse_walk(ty, offset, target, false, 0)
    }

    /// Whether a `scalar_storage_order("big-endian")` record starts at byte `offset` of
    /// an object of type `ty` (where a bit-field initializer item points).
    pub fn reverse_record_at(&self, ty: &Type, offset: u64, target: Target) -> bool {
        self.reverse_walk(ty, offset, target, true, 0)
    }

    fn reverse_walk(
        &self,
        ty: &Type,
        offset: u64,
        target: Target,
        record: bool,
        depth: u32,
    ) -> bool {
        if depth > 64 {
            return false;
        }
        match ty {
            Type::Array(e, _) => match e.ty.size(target, self) {
                Some(es) if es > 0 => {
                    self.reverse_walk(&e.ty, offset % es, target, record, depth + 1)
                }
                _ => false,
            },
            Type::Record(id) => {
                let def = self.get(*id);
                if record && offset == 0 && def.reverse_order {
                    return true;
                }
                def.fields.iter().any(|f| {
                    let size = f.ty.ty.size(target, self).unwrap_or(0);
                    if f.bitfield.is_some() || offset < f.offset || offset >= f.offset + size {
                        return false;
                    }
                    let mut inner = &f.ty.ty;
                    while let Type::Array(e, _) = inner {
                        inner = &e.ty;
                    }
                    if inner.is_record() {
                        self.reverse_walk(&f.ty.ty, offset - f.offset, target, record, depth + 1)
                    } else {
                        !record && def.reverse_order
                    }
                })
            }
            _ => false,
        }
    }
}

impl Type {
    pub fn int() -> Type {
        Type::Int(IntKind::Int)
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Bool)
    }

    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Bool | Type::Float(_))
    }

    pub fn is_scalar(&self) -> bool {
        self.is_arithmetic() || matches!(self, Type::Pointer(_))
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }

    pub fn is_record(&self) -> bool {
        matches!(self, Type::Record(_))
    }

    /// The pointee of a pointer type.
    pub fn pointee(&self) -> Option<&QualType> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }

    /// `sizeof`: `None` for incomplete types, functions and `void`.
    pub fn size(&self, target: Target, records: &RecordTable) -> Option<u64> {
        match self {
            Type::Void | Type::Function(_) => None,
            Type::Bool => Some(1),
            Type::Int(k) => Some(k.size(target)),
            Type::Float(k) => Some(k.size(target)),
            Type::Pointer(_) => Some(target.sizeof_pointer() as u64),
            Type::Array(elem, Some(n)) => Some(elem.ty.size(target, records)? * n),
            Type::Array(_, None) => None,
            Type::Record(id) => {
                let r = records.get(*id);
                r.complete.then_some(r.size)
            }
        }
    }

    /// Alignment as an object or struct member (`_Alignof` of a member).
    pub fn align(&self, target: Target, records: &RecordTable) -> u64 {
        match self {
            Type::Void | Type::Function(_) | Type::Bool => 1,
            Type::Int(k) => k.align(target),
            Type::Float(k) => k.align(target),
            Type::Pointer(_) => target.sizeof_pointer() as u64,
            Type::Array(elem, _) => elem.ty.align(target, records),
            Type::Record(id) => records.get(*id).align,
        }
    }

    /// Signedness of an integer type (`_Bool` and pointers are unsigned).
    pub fn is_signed(&self, target: Target) -> bool {
        match self {
            Type::Int(k) => k.is_signed(target),
            Type::Float(_) => true,
            _ => false,
        }
    }
}
