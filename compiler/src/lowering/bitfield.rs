//! Bit-field reads and writes: loads and stores of whole storage units with shifts and
//! masks.
//!
//! Why: a bit-field has no address; reading it loads the bytes that hold its bits and
//! extracts them (sign-extending a signed field), writing it is a read-modify-write of
//! those bytes. Packed records put a field at any bit, so the unit is chosen per field.
//!
//! Invariants:
//! - a storage unit never reaches outside the record: the field's bytes are covered by
//!   one 1-, 2-, 4- or 8-byte unit placed inside `[0, record size)` when one exists,
//!   otherwise by several units covering exactly the field's bytes (e.g. 9 bytes for a
//!   64-bit field at an odd bit);
//! - bits of the units outside the field are written back unchanged;
//! - the value an assignment yields is the stored value read back: truncated to the
//!   field's width and extended by the field's signedness.
//!
//! Seeded bug: [`crate::mutants::Mutant::LowerBitfieldByteNoSignExtend`].

use super::builder::exact;
use super::function::FnLower;
use super::types::int_type;
use crate::frontend::types::{BitField, Type};
use crate::ir::{BinOp, IrType, Operand};

/// A storage unit: `size` bytes (1, 2, 4 or 8) at byte `byte` of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub byte: u64,
    pub size: u64,
}

/// The units that hold the bits of `field` in a record of `record_size` bytes.
pub fn units(field: BitField, record_size: u64) -> Vec<Unit> {
    let b = field.bit_offset;
    let w = u64::from(field.width.clamp(1, 64));
    let first = b / 8;
    let last = (b + w - 1) / 8;
    let n = last - first + 1;
    if let Some(&size) = [1u64, 2, 4, 8].iter().find(|&&u| u >= n) {
        let mut byte = first;
        if byte + size > record_size && record_size >= size {
            byte = record_size - size;
        }
        if byte + size <= record_size.max(last + 1) && byte <= first && byte + size > last {
            return vec![Unit { byte, size }];
        }
    }
    // Several units covering exactly the field's bytes, largest first.
    let mut out = Vec::new();
    let mut pos = first;
    while pos <= last {
        let remaining = last + 1 - pos;
        let size = [8u64, 4, 2, 1]
            .into_iter()
            .find(|&s| s <= remaining)
            .unwrap_or(1);
        out.push(Unit { byte: pos, size });
        pos += size;
    }
    out
}

/// All ones in the low `n` bits (n <= 64).
pub(super) fn mask(n: u64) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl FnLower<'_, '_> {
    /// Reads bit-field `field` of the record at `record` as a value of IR type `t`
    /// (C type `ty`, whose signedness is the field's).
    pub fn load_bitfield(
        &mut self,
        record: Operand,
        record_size: u64,
        field: BitField,
        t: IrType,
        ty: &Type,
    ) -> Operand {
        let signed = ty.is_signed(self.ctx.target);
        let b = field.bit_offset;
        let w = u64::from(field.width.clamp(1, 64));
        let us = units(field, record_size);
        // The field's bits at the bottom of a working value of unsigned type `wt`.
        let (raw, wt) = if let [u] = us[..] {
            let wt = int_type(u.size, false);
            let addr = self.gep(record, u.byte as i64);
            let raw = self.load(wt, addr);
            let sh = b - 8 * u.byte;
            let v = self.shift(BinOp::LShr, wt, raw, sh);
            (v, wt)
        } else {
            let wt = IrType::U64;
            let mut acc: Option<Operand> = None;
            for u in us {
                let ut = int_type(u.size, false);
                let addr = self.gep(record, u.byte as i64);
                let raw = self.load(ut, addr);
                let lo = b.max(8 * u.byte);
                let hi = (b + w).min(8 * (u.byte + u.size));
                let part = self.shift(BinOp::LShr, ut, raw, lo - 8 * u.byte);
                let part = self.bin(BinOp::And, ut, part, exact(ut, mask(hi - lo) as i64));
                let part = self.cast(ut, part, wt);
                let part = self.shift(BinOp::Shl, wt, part, lo - b);
                acc = Some(match acc {
                    None => part,
                    Some(a) => self.bin(BinOp::Or, wt, a, part),
                });
            }
            (acc.unwrap_or(exact(wt, 0)), wt)
        };
        let bits = u64::from(wt.bits(self.ctx.ptr_bytes));
        // Seeded bug: the one-byte unit takes the unsigned path whatever the signedness.
        let byte_unit_bug = wt == IrType::U8
            && crate::mutants::enabled(crate::mutants::Mutant::LowerBitfieldByteNoSignExtend);
        if signed && !byte_unit_bug {
            let st = int_type(bits / 8, true);
            let up = self.shift(BinOp::Shl, wt, raw, bits - w);
            let s = self.cast(wt, up, st);
            let down = self.shift(BinOp::AShr, st, s, bits - w);
            self.cast(st, down, t)
        } else {
            let v = if w < bits {
                self.bin(BinOp::And, wt, raw, exact(wt, mask(w) as i64))
            } else {
                raw
            };
            self.cast(wt, v, t)
        }
    }

    /// Writes `v` (IR type `t`, C type `ty`) into bit-field `field`; returns the value
    /// the field then holds, in type `t`.
    pub fn store_bitfield(
        &mut self,
        record: Operand,
        record_size: u64,
        field: BitField,
        t: IrType,
        ty: &Type,
        v: Operand,
    ) -> Operand {
        let b = field.bit_offset;
        let w = u64::from(field.width.clamp(1, 64));
        let us = units(field, record_size);
        let single = us.len() == 1;
        let v64 = if single {
            v
        } else {
            self.cast(t, v, IrType::U64)
        };
        for u in us {
            let ut = int_type(u.size, false);
            let lo = b.max(8 * u.byte);
            let hi = (b + w).min(8 * (u.byte + u.size));
            let width = hi - lo;
            let pos = lo - 8 * u.byte;
            let part = if single {
                self.cast(t, v, ut)
            } else {
                let p = self.shift(BinOp::LShr, IrType::U64, v64, lo - b);
                self.cast(IrType::U64, p, ut)
            };
            let addr = self.gep(record, u.byte as i64);
            if width == 8 * u.size {
                self.store(ut, part, addr);
                continue;
            }
            let part = self.bin(BinOp::And, ut, part, exact(ut, mask(width) as i64));
            let part = self.shift(BinOp::Shl, ut, part, pos);
            let old = self.load(ut, addr);
            let keep = !(mask(width) << pos);
            let cleared = self.bin(BinOp::And, ut, old, exact(ut, keep as i64));
            let new = self.bin(BinOp::Or, ut, cleared, part);
            self.store(ut, new, addr);
        }
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

    /// `v op n` in type `t`; no instruction for a zero amount.
    pub(super) fn shift(&mut self, op: BinOp, t: IrType, v: Operand, n: u64) -> Operand {
        if n == 0 {
            return v;
        }
        self.bin(op, t, v, exact(t, n as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bf(bit_offset: u64, width: u32) -> BitField {
        BitField { bit_offset, width }
    }

    #[test]
    fn units_stay_inside_the_record() {
        // A 3-bit field at bit 0 of a 4-byte record: one byte.
        assert_eq!(units(bf(0, 3), 4), vec![Unit { byte: 0, size: 1 }]);
        // Bits 6..10 span bytes 0 and 1: a 2-byte unit.
        assert_eq!(units(bf(6, 4), 4), vec![Unit { byte: 0, size: 2 }]);
        // Bytes 1..3 of a 4-byte record: a 4-byte unit at 0 (moved back inside).
        assert_eq!(units(bf(8, 24), 4), vec![Unit { byte: 0, size: 4 }]);
        // Bytes 0..2 of a 3-byte packed record: no 4-byte unit fits; 2 + 1.
        assert_eq!(
            units(bf(0, 20), 3),
            vec![Unit { byte: 0, size: 2 }, Unit { byte: 2, size: 1 }]
        );
        // A 64-bit field at bit 4 spans 9 bytes: 8 + 1.
        assert_eq!(
            units(bf(4, 64), 9),
            vec![Unit { byte: 0, size: 8 }, Unit { byte: 8, size: 1 }]
        );
    }
}
