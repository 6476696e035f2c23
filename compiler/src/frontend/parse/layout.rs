//! Record layout (sizes, alignment, bit-field placement, packing) exactly as gcc does it
//! on each `Target`.
//!
//! Why it exists: the lowering addresses members by the offsets computed here, and
//! differential testing against gcc-compiled code only works if every offset, size and
//! bit position agrees with gcc's (`stor-layout.c` with `PCC_BITFIELD_TYPE_MATTERS`).
//!
//! The rules (all positions in bits, alignments are the member alignments of
//! `Type::align`, i.e. i686 aligns `long long`/`double` to 4 inside records):
//! - A non-bit-field member goes at the next multiple of its alignment: its type's
//!   (1 under `packed`), raised by `aligned(N)` on the member, capped by
//!   `#pragma pack(N)`. It raises the record alignment to that.
//! - A bit-field of width w goes at the next bit, unless (no `packed`, no pragma pack)
//!   placing it there would make it span more alignment units of its declared type
//!   than the type itself has (gcc's `excess_unit_span`); then it starts at the next
//!   multiple of that alignment. A named bit-field raises the record alignment to its
//!   type's alignment (1 when packed; capped by pragma pack); an unnamed one does not,
//!   except on targets where `Target::unnamed_bitfield_aligns_record` (aarch64), where
//!   it does as a named one.
//! - A zero-width bit-field moves the next member to a multiple of its type's
//!   alignment (pack / packed do not apply to it) and does not raise the record
//!   alignment, except on `unnamed_bitfield_aligns_record` targets, where it raises it
//!   to its type's alignment (again regardless of pack / packed; also in a union).
//! - `aligned(N)` on a bit-field moves it to a multiple of N bytes (capped by pragma
//!   pack, not lowered by `packed`) before the unit-span rule, and raises the record
//!   alignment to that wherever the bit-field raises it at all; on a zero-width
//!   bit-field it raises the alignment the next member starts at (never capped).
//! - The record alignment is raised by `aligned(N)` on the record; its size is the end
//!   of the last member rounded up to the record alignment. Union members all start at
//!   offset 0.
//!
//! Invariants: `layout_record` never panics; overflowing sizes are an error message.

use crate::frontend::types::{BitField, Field, QualType, RecordKind, RecordTable, Type};
use crate::target::Target;
use std::rc::Rc;

/// A member as declared, before layout.
#[derive(Clone, Debug)]
pub(crate) struct MemberDecl {
    pub name: Option<Rc<str>>,
    pub ty: QualType,
    /// Bit-field width (0: a zero-width bit-field, always unnamed).
    pub width: Option<u32>,
    /// `aligned(N)` on the member.
    pub aligned: Option<u64>,
    /// `packed` on the member.
    pub packed: bool,
}

/// What the record as a whole was declared with.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RecordAttrs {
    /// `__attribute__((packed))` on the record.
    pub packed: bool,
    /// `__attribute__((aligned(N)))` on the record.
    pub aligned: Option<u64>,
    /// `#pragma pack(N)` in effect at the closing brace.
    pub pragma_pack: Option<u64>,
}

/// The laid-out record: fields (zero-width and unnamed bit-fields are not members),
/// size and alignment in bytes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
}

/// The largest size a type may have on `target`, in bytes: gcc's limit, the target's
/// `PTRDIFF_MAX` (2^63 - 1 with 8-byte pointers, 2^31 - 1 on i686). A type may be that
/// large without any object of it existing (c-torture's 991014-1.c takes `sizeof` of a
/// 2^63 - 512 byte struct).
pub(crate) fn largest_type_size(target: Target) -> u64 {
    (1u64 << (8 * target.sizeof_pointer() - 1)) - 1
}

fn round_up(x: u128, a: u128) -> Option<u128> {
    if a <= 1 {
        return Some(x);
    }
    x.checked_add(a - 1).map(|v| v / a * a)
}

/// gcc's `excess_unit_span`: would a bit-field of `width` bits at `bitpos` span more
/// units of `align_bits` than its type of `type_bits` has?
fn excess_unit_span(bitpos: u128, width: u128, align_bits: u128, type_bits: u128) -> bool {
    let offset = bitpos % align_bits;
    (offset + width).div_ceil(align_bits) > type_bits / align_bits
}

/// Lays out the members of a struct or union.
pub(crate) fn layout_record(
    kind: RecordKind,
    members: &[MemberDecl],
    attrs: RecordAttrs,
    target: Target,
    records: &RecordTable,
) -> Result<Layout, String> {
    let too_large = || "type is too large".to_string();
    let mut fields = Vec::new();
    // Positions in bits as u128: a type of up to 2^63 bytes has 2^66 bits.
    let mut bitpos: u128 = 0; // struct: next free bit
    let mut size_bits: u128 = 0; // union: largest member
    let mut record_align: u64 = 1; // bytes
    let pack = attrs.pragma_pack;
    for m in members {
        let ty = &m.ty.ty;
        let natural = ty.align(target, records).max(1);
        match m.width {
            Some(width) => {
                let type_bits = u128::from(ty.size(target, records).ok_or_else(too_large)?) * 8;
                let align_bits = u128::from(natural) * 8;
                let packed = attrs.packed || m.packed;
                if width == 0 {
                    // `aligned(N)` on a zero-width bit-field raises its alignment;
                    // neither pack nor packed lowers it.
                    let a = natural.max(m.aligned.unwrap_or(1));
                    if kind == RecordKind::Struct {
                        bitpos = round_up(bitpos, u128::from(a) * 8).ok_or_else(too_large)?;
                    }
                    if target.unnamed_bitfield_aligns_record() {
                        record_align = record_align.max(a);
                    }
                    continue;
                }
                // `aligned(N)` on a bit-field: it starts at a multiple of N (capped by
                // pragma pack, not by packed), then the unit-span rule still applies.
                let user = m.aligned.map(|u| pack.map_or(u, |p| u.min(p)));
                let start = if kind == RecordKind::Union {
                    0
                } else {
                    let at = match user {
                        Some(u) => round_up(bitpos, u128::from(u) * 8).ok_or_else(too_large)?,
                        None => bitpos,
                    };
                    if !packed
                        && pack.is_none()
                        && excess_unit_span(at, u128::from(width), align_bits, type_bits)
                    {
                        round_up(at, align_bits).ok_or_else(too_large)?
                    } else {
                        at
                    }
                };
                let end = start.checked_add(u128::from(width)).ok_or_else(too_large)?;
                if kind == RecordKind::Struct {
                    bitpos = end;
                } else {
                    size_bits = size_bits.max(end);
                }
                if m.name.is_some() || target.unnamed_bitfield_aligns_record() {
                    let a = match pack {
                        Some(p) => natural.min(p),
                        None if packed => 1,
                        None => natural,
                    };
                    record_align = record_align.max(a).max(user.unwrap_or(1));
                }
                if let Some(name) = &m.name {
                    fields.push(Field {
                        name: Some(name.to_string()),
                        ty: m.ty.clone(),
                        offset: u64::try_from(start / 8).map_err(|_| too_large())?,
                        bitfield: Some(BitField {
                            bit_offset: u64::try_from(start).map_err(|_| too_large())?,
                            width,
                        }),
                    });
                }
            }
            None => {
                let size = match ty {
                    // A flexible array member occupies no space.
                    Type::Array(_, None) => 0,
                    _ => ty.size(target, records).ok_or_else(too_large)?,
                };
                // `packed` drops the natural alignment; `aligned(N)` on the member
                // still applies (so a packed member gets exactly N).
                let mut a = if attrs.packed || m.packed { 1 } else { natural };
                if let Some(user) = m.aligned {
                    a = a.max(user);
                }
                if let Some(p) = pack {
                    a = a.min(p);
                }
                record_align = record_align.max(a);
                let size_b = u128::from(size) * 8;
                let start = if kind == RecordKind::Union {
                    0
                } else {
                    round_up(bitpos, u128::from(a) * 8).ok_or_else(too_large)?
                };
                let end = start.checked_add(size_b).ok_or_else(too_large)?;
                if kind == RecordKind::Struct {
                    bitpos = end;
                } else {
                    size_bits = size_bits.max(end);
                }
                fields.push(Field {
                    name: m.name.as_ref().map(|n| n.to_string()),
                    ty: m.ty.clone(),
                    offset: u64::try_from(start / 8).map_err(|_| too_large())?,
                    bitfield: None,
                });
            }
        }
    }
    if let Some(a) = attrs.aligned {
        record_align = record_align.max(a);
    }
    let end = if kind == RecordKind::Struct {
        bitpos
    } else {
        size_bits
    };
    let size = round_up(end, u128::from(record_align) * 8).ok_or_else(too_large)? / 8;
    let size = u64::try_from(size)
        .ok()
        .filter(|s| *s <= largest_type_size(target))
        .ok_or_else(too_large)?;
    Ok(Layout {
        fields,
        size,
        align: record_align,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::types::IntKind;

    fn m(ty: Type, width: Option<u32>) -> MemberDecl {
        MemberDecl {
            name: Some(Rc::from("f")),
            ty: QualType::new(ty),
            width,
            aligned: None,
            packed: false,
        }
    }

    fn lay(members: &[MemberDecl], attrs: RecordAttrs, t: Target) -> Layout {
        layout_record(
            RecordKind::Struct,
            members,
            attrs,
            t,
            &RecordTable::default(),
        )
        .expect("layout")
    }

    #[test]
    fn char_then_long_long_differs_between_lp64_and_i686() {
        // SysV x86_64: long long aligns to 8 -> offset 8, size 16.
        // i386 SysV: long long aligns to 4 inside structs -> offset 4, size 12.
        let ms = [
            m(Type::Int(IntKind::Char), None),
            m(Type::Int(IntKind::LongLong), None),
        ];
        let l = lay(&ms, RecordAttrs::default(), Target::X86_64);
        assert_eq!((l.fields[1].offset, l.size, l.align), (8, 16, 8));
        let l = lay(&ms, RecordAttrs::default(), Target::I686);
        assert_eq!((l.fields[1].offset, l.size, l.align), (4, 12, 4));
    }

    #[test]
    fn bitfield_crossing_its_unit_moves_to_next_unit() {
        // int a:30; int b:4; -> b would span bits 30..34, crossing the 32-bit unit,
        // so it starts at bit 32; size 8.
        let ms = [m(Type::int(), Some(30)), m(Type::int(), Some(4))];
        let l = lay(&ms, RecordAttrs::default(), Target::X86_64);
        assert_eq!(l.fields[1].bitfield.map(|b| b.bit_offset), Some(32));
        assert_eq!(l.size, 8);
        // Packed: b follows at bit 30; 34 bits -> 5 bytes, alignment 1.
        let p = RecordAttrs {
            packed: true,
            ..RecordAttrs::default()
        };
        let l = lay(&ms, p, Target::X86_64);
        assert_eq!(l.fields[1].bitfield.map(|b| b.bit_offset), Some(30));
        assert_eq!((l.size, l.align), (5, 1));
    }

    #[test]
    fn zero_width_bitfield_aligns_next_but_not_record() {
        // char a; int :0; char b; -> b at byte 4, record alignment 1, size 5.
        let mut z = m(Type::int(), Some(0));
        z.name = None;
        let ms = [
            m(Type::Int(IntKind::Char), None),
            z,
            m(Type::Int(IntKind::Char), None),
        ];
        let l = lay(&ms, RecordAttrs::default(), Target::X86_64);
        assert_eq!(l.fields.len(), 2);
        assert_eq!((l.fields[1].offset, l.size, l.align), (4, 5, 1));
    }

    #[test]
    fn unnamed_bitfields_align_the_record_on_aarch64_only() {
        // (size, align) from gcc 12 (-S, sizeof/_Alignof) for x86_64 / aarch64:
        //   struct { char c; int : 5; }                      2 1 / 4 4
        //   struct { char c; long : 0; }                     8 1 / 8 8
        //   #pragma pack(1) struct { char c; int : 0; }      4 1 / 4 4
        //   #pragma pack(2) struct { char c; long long : 3; } 2 1 / 2 2
        //   struct __attribute__((packed)) { char c; int : 0; char d; } 5 1 / 8 4
        //   union { char c; long : 0; }                      1 1 / 8 8
        let unnamed = |ty: Type, width: u32| MemberDecl {
            name: None,
            ..m(ty, Some(width))
        };
        let c = || m(Type::Int(IntKind::Char), None);
        let long = || Type::Int(IntKind::Long);
        let ll = || Type::Int(IntKind::LongLong);
        let pack = |p| RecordAttrs {
            pragma_pack: Some(p),
            ..RecordAttrs::default()
        };
        let packed = RecordAttrs {
            packed: true,
            ..RecordAttrs::default()
        };
        let d = RecordAttrs::default();
        /// (kind, members, attributes, x86_64 (size, align), aarch64 (size, align)).
        type Case = (
            RecordKind,
            Vec<MemberDecl>,
            RecordAttrs,
            (u64, u64),
            (u64, u64),
        );
        let s = RecordKind::Struct;
        let cases: [Case; 6] = [
            (s, vec![c(), unnamed(Type::int(), 5)], d, (2, 1), (4, 4)),
            (s, vec![c(), unnamed(long(), 0)], d, (8, 1), (8, 8)),
            (
                s,
                vec![c(), unnamed(Type::int(), 0)],
                pack(1),
                (4, 1),
                (4, 4),
            ),
            (s, vec![c(), unnamed(ll(), 3)], pack(2), (2, 1), (2, 2)),
            (
                s,
                vec![c(), unnamed(Type::int(), 0), c()],
                packed,
                (5, 1),
                (8, 4),
            ),
            (
                RecordKind::Union,
                vec![c(), unnamed(long(), 0)],
                d,
                (1, 1),
                (8, 8),
            ),
        ];
        for (kind, members, attrs, x86, arm) in cases {
            for (t, want) in [(Target::X86_64, x86), (Target::Aarch64, arm)] {
                let l = layout_record(kind, &members, attrs, t, &RecordTable::default())
                    .expect("layout");
                assert_eq!((l.size, l.align), want, "{t:?} {members:?}");
            }
        }
    }

    #[test]
    fn aligned_bitfields_follow_gcc() {
        // gcc 12, all four targets: struct { char c; int x : 5 __attribute__((aligned(8))); }
        // puts x at bit 64 (size 16, align 8); under #pragma pack(2) at bit 16 (size 4,
        // align 2); struct { char c; int : 0 __attribute__((aligned(8))); char d; } puts d
        // at byte 8 (size 9, align 1 on x86_64).
        let mut x = m(Type::int(), Some(5));
        x.aligned = Some(8);
        let c = m(Type::Int(IntKind::Char), None);
        let l = lay(
            &[c.clone(), x.clone()],
            RecordAttrs::default(),
            Target::X86_64,
        );
        assert_eq!(l.fields[1].bitfield.map(|b| b.bit_offset), Some(64));
        assert_eq!((l.size, l.align), (16, 8));
        let p = RecordAttrs {
            pragma_pack: Some(2),
            ..RecordAttrs::default()
        };
        let l = lay(&[c.clone(), x], p, Target::X86_64);
        assert_eq!(l.fields[1].bitfield.map(|b| b.bit_offset), Some(16));
        assert_eq!((l.size, l.align), (4, 2));
        let mut z = m(Type::int(), Some(0));
        z.name = None;
        z.aligned = Some(8);
        let l = lay(&[c.clone(), z, c], RecordAttrs::default(), Target::X86_64);
        assert_eq!((l.fields[1].offset, l.size, l.align), (8, 9, 1));
    }

    #[test]
    fn pragma_pack_caps_member_alignment() {
        // #pragma pack(2): char a; int b; -> b at 2, size 6, align 2.
        let ms = [m(Type::Int(IntKind::Char), None), m(Type::int(), None)];
        let p = RecordAttrs {
            pragma_pack: Some(2),
            ..RecordAttrs::default()
        };
        let l = lay(&ms, p, Target::X86_64);
        assert_eq!((l.fields[1].offset, l.size, l.align), (2, 6, 2));
    }
}
