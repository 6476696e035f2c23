//! Members of `scalar_storage_order("big-endian")` records: loads and stores with their
//! bytes swapped, bit-fields numbered from the most significant end of their unit.
//!
//! Why: every phicc target is little-endian, so such a record (gcc's reverse storage
//! order) keeps its scalar members in the opposite byte order; the values read through
//! the members are unchanged, the bytes seen through `memcpy`, `char` pointers or a
//! union are big-endian. The swap is ordinary IR (the `__builtin_bswap*` shape), so the
//! oracle, every pass and every backend see it.
//!
//! Invariants:
//! - a 2-, 4- or 8-byte integer member is an [`LVal::Reversed`]: read = load + swap,
//!   write = swap + store; a 1-byte one and a nested record (which keeps its own order)
//!   are ordinary addresses;
//! - a bit-field of declared type of `S` bytes lives in the naturally aligned `S`-byte
//!   unit holding its bit offset (the layout `parse/layout.rs` computes is the same on a
//!   big-endian target; only the numbering differs): the unit is read big-endian and
//!   the field sits `8*S - offset_in_unit - width` bits above its least significant bit;
//! - what is not implemented is a clear error at the access, never the native order:
//!   floating and pointer members, arrays of multi-byte scalars, bit-fields of packed
//!   records or crossing their unit; taking the address of a reversed scalar is gcc's
//!   error.

use super::bitfield::mask;
use super::builder::exact;
use super::function::{FnLower, Res};
use super::lvalue::LVal;
use super::types::int_type;
use crate::frontend::source::Loc;
use crate::frontend::types::{BitField, Field, Type};
use crate::ir::{BinOp, IrType, Operand};

impl FnLower<'_, '_> {
    /// The lvalue of member `f` of the reverse-order record at `rec` (`packed`: laid out
    /// under `packed` or `#pragma pack`).
    pub(super) fn reversed_member(
        &mut self,
        rec: Operand,
        f: &Field,
        packed: bool,
        loc: Loc,
    ) -> Res<LVal> {
        let target = self.ctx.target;
        let records = &self.ctx.unit.records;
        let size = f.ty.ty.size(target, records).unwrap_or(0);
        if let Some(bf) = f.bitfield {
            if packed {
                return Err(self.err(
                    loc,
                    "a bit-field of a packed scalar_storage_order(\"big-endian\") record is \
                     not supported by phicc",
                ));
            }
            return self.reversed_bits(rec, bf, &f.ty.ty, loc);
        }
        let addr = self.gep(rec, f.offset as i64);
        match &f.ty.ty {
            Type::Record(_) => Ok(LVal::Addr(addr)),
            Type::Int(_) | Type::Bool if size == 1 => Ok(LVal::Addr(addr)),
            Type::Int(_) => Ok(LVal::Reversed(addr)),
            Type::Array(..) => {
                let mut elem = &f.ty.ty;
                while let Type::Array(e, _) = elem {
                    elem = &e.ty;
                }
                let elem_size = elem.size(target, records).unwrap_or(0);
                if elem.is_record() || (elem.is_integer() && elem_size == 1) {
                    Ok(LVal::Addr(addr))
                } else {
                    Err(self.err(
                        loc,
                        "an array of multi-byte scalars in a scalar_storage_order\
                         (\"big-endian\") record is not supported by phicc",
                    ))
                }
            }
            _ => Err(self.err(
                loc,
                "a floating or pointer member of a scalar_storage_order(\"big-endian\") \
                 record is not supported by phicc",
            )),
        }
    }

    /// Bit-field `bf` (declared type `ty`) of the reverse-order record at `rec`.
    fn reversed_bits(&mut self, rec: Operand, bf: BitField, ty: &Type, loc: Loc) -> Res<LVal> {
        let size = ty
            .size(self.ctx.target, &self.ctx.unit.records)
            .unwrap_or(0);
        let w = u64::from(bf.width.clamp(1, 64));
        let unit_bits = 8 * size;
        if !ty.is_integer() || !matches!(size, 1 | 2 | 4 | 8) {
            return Err(self.err(loc, "internal error: bit-field of a non-integer type"));
        }
        let unit_byte = bf.bit_offset / unit_bits * size;
        let in_unit = bf.bit_offset - 8 * unit_byte;
        if in_unit + w > unit_bits {
            return Err(self.err(
                loc,
                "a bit-field crossing its storage unit in a scalar_storage_order\
                 (\"big-endian\") record is not supported by phicc",
            ));
        }
        Ok(LVal::ReversedBits {
            unit: self.gep(rec, unit_byte as i64),
            unit_size: size,
            shift: unit_bits - in_unit - w,
            width: bf.width,
        })
    }

    /// Where an initializer item of C type `ty` at `at` (the record's address for a
    /// bit-field `bitfield`) is written when its scalar is stored in reverse order.
    pub(super) fn reversed_init_item(
        &mut self,
        at: Operand,
        bitfield: Option<BitField>,
        ty: &Type,
        loc: Loc,
    ) -> Res<LVal> {
        let size = ty
            .size(self.ctx.target, &self.ctx.unit.records)
            .unwrap_or(0);
        match (bitfield, ty) {
            (Some(bf), _) => self.reversed_bits(at, bf, ty, loc),
            (None, Type::Int(_) | Type::Bool) if size == 1 => Ok(LVal::Addr(at)),
            (None, Type::Int(_)) => Ok(LVal::Reversed(at)),
            _ => Err(self.err(
                loc,
                "a floating or pointer member of a scalar_storage_order(\"big-endian\") \
                 record is not supported by phicc",
            )),
        }
    }

    /// `v` (IR integer type `t`) with its bytes in the opposite order.
    fn swap_bytes(&mut self, v: Operand, t: IrType) -> Operand {
        let bits = t.bits(self.ctx.ptr_bytes);
        let u = int_type(u64::from(bits / 8), false);
        let x = self.cast(t, v, u);
        let swapped = self.byte_swap(x, u, bits);
        self.cast(u, swapped, t)
    }

    /// Reads a reversed scalar of IR type `t` at `addr`.
    pub(super) fn load_reversed(&mut self, addr: Operand, t: IrType) -> Operand {
        let raw = self.load(t, addr);
        self.swap_bytes(raw, t)
    }

    /// Writes `v` (IR type `t`) reversed at `addr`; returns `v`.
    pub(super) fn store_reversed(&mut self, addr: Operand, t: IrType, v: Operand) -> Operand {
        let swapped = self.swap_bytes(v, t);
        self.store(t, swapped, addr);
        v
    }

    /// Reads the `width`-bit field `shift` bits above the least significant bit of the
    /// big-endian `unit_size`-byte unit at `unit`, as IR type `t` (C type `ty`).
    pub(super) fn load_reversed_bits(
        &mut self,
        unit: Operand,
        unit_size: u64,
        shift: u64,
        width: u32,
        t: IrType,
        ty: &Type,
    ) -> Operand {
        let ut = int_type(unit_size, false);
        let bits = 8 * unit_size;
        let w = u64::from(width.clamp(1, 64));
        let v = self.load_reversed(unit, ut);
        // The field at the top of the unit, then down with the field's signedness.
        let up = self.shift(BinOp::Shl, ut, v, bits - w - shift);
        if ty.is_signed(self.ctx.target) {
            let st = int_type(unit_size, true);
            let s = self.cast(ut, up, st);
            let down = self.shift(BinOp::AShr, st, s, bits - w);
            self.cast(st, down, t)
        } else {
            let down = self.shift(BinOp::LShr, ut, up, bits - w);
            self.cast(ut, down, t)
        }
    }

    /// Writes `v` (IR type `t`, C type `ty`) into the field [`Self::load_reversed_bits`]
    /// reads; returns the value the field then holds, in type `t`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_reversed_bits(
        &mut self,
        unit: Operand,
        unit_size: u64,
        shift: u64,
        width: u32,
        t: IrType,
        ty: &Type,
        v: Operand,
    ) -> Operand {
        let ut = int_type(unit_size, false);
        let w = u64::from(width.clamp(1, 64));
        let part = self.cast(t, v, ut);
        let part = self.bin(BinOp::And, ut, part, exact(ut, mask(w) as i64));
        let part = self.shift(BinOp::Shl, ut, part, shift);
        let old = self.load_reversed(unit, ut);
        let keep = !(mask(w) << shift) & mask(8 * unit_size);
        let cleared = self.bin(BinOp::And, ut, old, exact(ut, keep as i64));
        let new = self.bin(BinOp::Or, ut, cleared, part);
        self.store_reversed(unit, ut, new);
        // The value read back.
        let bits = u64::from(t.bits(self.ctx.ptr_bytes));
        if w >= bits {
            return v;
        }
        if ty.is_signed(self.ctx.target) {
            let up = self.shift(BinOp::Shl, t, v, bits - w);
            self.shift(BinOp::AShr, t, up, bits - w)
        } else {
            self.bin(BinOp::And, t, v, exact(t, mask(w) as i64))
        }
    }
}
