//! The C types the generator makes, and C's integer conversion rules over them.
//!
//! Why: the generator evaluates every expression it writes, so it must apply exactly the
//! promotions and usual arithmetic conversions a C99 compiler applies — for the target's
//! data model (i686 is ILP32: `long` has 32 bits; the others are LP64).
//!
//! Invariants:
//! - plain `char` is never used (its signedness differs between targets): only
//!   `signed char` and `unsigned char`;
//! - `rank` orders the kinds as C99 6.3.1.1 does; a signed kind and its unsigned
//!   partner share a rank;
//! - a bit-field is `int` or `unsigned int` only; reading one narrower than `int` gives
//!   an `int` (6.3.1.1p2, as gcc does).

use compiler::target::Target;

/// The data model of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataModel {
    /// Bits of `long` and `unsigned long`.
    pub long_bits: u32,
}

impl DataModel {
    /// The data model of `target` (ILP32 for i686, LP64 for the others).
    pub fn of(target: Target) -> DataModel {
        match target {
            Target::I686 => DataModel { long_bits: 32 },
            _ => DataModel { long_bits: 64 },
        }
    }
}

/// An integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntKind {
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LLong,
    ULLong,
}

impl IntKind {
    pub const ALL: [IntKind; 10] = [
        IntKind::SChar,
        IntKind::UChar,
        IntKind::Short,
        IntKind::UShort,
        IntKind::Int,
        IntKind::UInt,
        IntKind::Long,
        IntKind::ULong,
        IntKind::LLong,
        IntKind::ULLong,
    ];

    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            IntKind::SChar => "signed char",
            IntKind::UChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::UInt => "unsigned int",
            IntKind::Long => "long",
            IntKind::ULong => "unsigned long",
            IntKind::LLong => "long long",
            IntKind::ULLong => "unsigned long long",
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntKind::SChar | IntKind::Short | IntKind::Int | IntKind::Long | IntKind::LLong
        )
    }

    /// The conversion rank (C99 6.3.1.1p1).
    pub fn rank(self) -> u32 {
        match self {
            IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 3,
            IntKind::Long | IntKind::ULong => 4,
            IntKind::LLong | IntKind::ULLong => 5,
        }
    }

    /// The width in bits under `dm`.
    pub fn bits(self, dm: DataModel) -> u32 {
        match self.rank() {
            1 => 8,
            2 => 16,
            3 => 32,
            4 => dm.long_bits,
            _ => 64,
        }
    }

    /// The unsigned kind of the same rank.
    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::SChar => IntKind::UChar,
            IntKind::Short => IntKind::UShort,
            IntKind::Int => IntKind::UInt,
            IntKind::Long => IntKind::ULong,
            IntKind::LLong => IntKind::ULLong,
            k => k,
        }
    }

    /// The smallest and largest value.
    pub fn range(self, dm: DataModel) -> (i128, i128) {
        let b = self.bits(dm);
        if self.is_signed() {
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        } else {
            (0, (1i128 << b) - 1)
        }
    }

    /// The integer promotion (6.3.1.1p2): everything below `int` becomes `int` (every
    /// 8- and 16-bit value fits in a 32-bit `int`).
    pub fn promote(self) -> IntKind {
        if self.rank() < 3 {
            IntKind::Int
        } else {
            self
        }
    }

    /// The suffix of a literal of this (promoted) kind.
    pub fn literal_suffix(self) -> &'static str {
        match self {
            IntKind::UInt => "U",
            IntKind::Long => "L",
            IntKind::ULong => "UL",
            IntKind::LLong => "LL",
            IntKind::ULLong => "ULL",
            _ => "",
        }
    }
}

/// The usual arithmetic conversions (6.3.1.8) of two promoted operand kinds.
pub fn common_kind(a: IntKind, b: IntKind, dm: DataModel) -> IntKind {
    let (a, b) = (a.promote(), b.promote());
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.bits(dm) > u.bits(dm) {
        s
    } else {
        s.to_unsigned()
    }
}

/// A struct type's index in the program's struct table.
pub type StructId = usize;

/// The type of an object or an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Int(IntKind),
    /// A pointer to an object of the inner type.
    Ptr(Box<Ty>),
    /// An array of `len` elements.
    Array(Box<Ty>, u32),
    Struct(StructId),
    /// `float` or `double` (in arrays, struct fields and union members too; never in a
    /// packed struct or a bit-field).
    Float(super::float::FKind),
}

impl Ty {
    pub fn int(&self) -> Option<IntKind> {
        match self {
            Ty::Int(k) => Some(*k),
            _ => None,
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Ty::Int(_) | Ty::Ptr(_))
    }

    /// How many `*` deep a pointer type is (0 for a non-pointer).
    pub fn ptr_depth(&self) -> u32 {
        match self {
            Ty::Ptr(t) => 1 + t.ptr_depth(),
            _ => 0,
        }
    }
}

/// One field of a struct; `bits` makes it a bit-field (`int` or `unsigned int` only).
#[derive(Clone, Debug)]
pub struct Field {
    pub ty: Ty,
    pub bits: Option<u32>,
}

impl Field {
    /// The kind a read of this field has before promotion: a bit-field narrower than
    /// `int` reads as `int` (gcc's rule); otherwise its declared kind.
    pub fn read_kind(&self) -> Option<IntKind> {
        let k = self.ty.int()?;
        match self.bits {
            Some(b) if b < 32 => Some(IntKind::Int),
            _ => Some(k),
        }
    }
}

/// A struct type, or a union type (`union`: its members are integers and floats, none a
/// bit-field, and a union with a float member has an integer member of at most 4 bytes,
/// so that its narrowest member is an integer every write covers: see
/// `narrowest_member`).
#[derive(Clone, Debug)]
pub struct StructDef {
    pub fields: Vec<Field>,
    /// Printed with `__attribute__((packed))`.
    pub packed: bool,
    pub union: bool,
}

impl StructDef {
    /// The union member whose read is defined whatever member was written last: the
    /// narrowest integer member under LP64 and, as no kind but `long` is narrower under
    /// ILP32 and a `long` member is the narrowest only when every integer member is 8
    /// bytes under LP64, under ILP32 too (the first such member). A float write covers
    /// it too: a union with a float member has an integer member of at most 4 bytes, and
    /// a float write fills 4 or 8 bytes.
    pub fn narrowest_member(&self) -> usize {
        const LP64: DataModel = DataModel { long_bits: 64 };
        const ILP32: DataModel = DataModel { long_bits: 32 };
        let size = |f: &Field| {
            f.ty.int()
                .map_or(u32::MAX, |k| k.bits(LP64) * 256 + k.bits(ILP32))
        };
        (0..self.fields.len())
            .min_by_key(|&i| size(&self.fields[i]))
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const LP64: DataModel = DataModel { long_bits: 64 };
    const ILP32: DataModel = DataModel { long_bits: 32 };

    #[test]
    fn usual_arithmetic_conversions_follow_c99() {
        use IntKind::*;
        assert_eq!(common_kind(UChar, UShort, LP64), Int);
        assert_eq!(common_kind(Int, UInt, LP64), UInt);
        assert_eq!(common_kind(Long, UInt, LP64), Long);
        assert_eq!(common_kind(Long, UInt, ILP32), ULong);
        assert_eq!(common_kind(LLong, ULong, LP64), ULLong);
        assert_eq!(common_kind(LLong, ULong, ILP32), LLong);
        assert_eq!(common_kind(SChar, LLong, ILP32), LLong);
    }
}
