//! The bytes and relocations of a static object's initializer.
//!
//! Why it exists: globals and `static` locals are initialized at load time, so every
//! initializer item must be a constant (`eval_const`) that is written into the
//! object's little-endian image: integers truncated to their width, bit-fields packed
//! into the bytes they occupy, floats in IEEE format, and address constants as
//! pointer-sized relocations.
//!
//! Invariants: the image has exactly `sizeof` the object bytes (more when a flexible
//! array member is initialized: `flexible_init.rs`); bytes not written are
//! zero; a relocation's bytes are zero (the address is added at load time); the error
//! for a non-constant item is gcc's "initializer element is not constant".

use super::{ConstValue, Parser};
use crate::frontend::ast::{InitItem, Reloc, StaticInit};
use crate::frontend::diag::Diagnostic;
use crate::frontend::types::{FloatKind, QualType, Type};

/// phicc refuses static images larger than this (they would be materialized in memory).
const MAX_STATIC_IMAGE: u64 = 1 << 26;

impl Parser<'_> {
    pub(crate) fn static_bytes(
        &self,
        ty: &QualType,
        items: &[InitItem],
    ) -> Result<StaticInit, Diagnostic> {
        // `sizeof` the type, or more for an initialized flexible array member.
        let size = self.initialized_object_size(&ty.ty, items);
        let loc = items.first().map_or(self.loc(), |i| i.value.loc);
        if size > MAX_STATIC_IMAGE {
            return Err(self.error_at(loc, "initialized static object is too large for phicc"));
        }
        let mut init = StaticInit {
            bytes: vec![0; size as usize],
            relocs: Vec::new(),
        };
        for item in items {
            let vloc = item.value.loc;
            let not_const = || self.error_at(vloc, "initializer element is not constant");
            let Some(v) = self.eval_const(&item.value) else {
                return Err(not_const());
            };
            let ity = &item.value.ty.ty;
            let isize = self.size_of(ity).unwrap_or(0);
            if item.bitfield.is_none() && item.offset.saturating_add(isize) > size {
                return Err(self.error_at(vloc, "initializer item outside of its object"));
            }
            let bits: u64 = match (ity, v) {
                (_, ConstValue::Addr { target, offset }) => {
                    if isize != u64::from(self.target.sizeof_pointer()) || item.bitfield.is_some() {
                        return Err(self
                            .error_at(vloc, "initializer element is not computable at load time"));
                    }
                    init.relocs.push(Reloc {
                        offset: item.offset,
                        target,
                        addend: offset,
                    });
                    continue;
                }
                (Type::Float(k), v) => {
                    let f = match v {
                        ConstValue::Float(f) => f,
                        ConstValue::Int(i) => i as f64,
                        ConstValue::Addr { .. } => return Err(not_const()),
                    };
                    match k {
                        FloatKind::Float => u64::from((f as f32).to_bits()),
                        FloatKind::Double => f.to_bits(),
                        FloatKind::LongDouble => {
                            if f != 0.0 || f.is_sign_negative() {
                                return Err(self.error_at(
                                    vloc,
                                    "non-zero 'long double' static initializers are not supported by phicc",
                                ));
                            }
                            0
                        }
                    }
                }
                (Type::Bool | Type::Int(_) | Type::Pointer(_), v) => match v {
                    ConstValue::Int(i) => i as u64,
                    ConstValue::Float(f) => f as i128 as u64,
                    ConstValue::Addr { .. } => return Err(not_const()),
                },
                _ => return Err(not_const()),
            };
            // `scalar_storage_order("big-endian")` members (`storage_order.rs`).
            let records = &self.records;
            let reversed = match item.bitfield {
                Some(_) => records.reverse_record_at(&ty.ty, item.offset, self.target),
                None => records.reverse_scalar_at(&ty.ty, item.offset, self.target),
            };
            if reversed && item.bitfield.is_some() && bits != 0 {
                return Err(self.error_at(
                    vloc,
                    "a non-zero static initializer of a bit-field of a scalar_storage_order\
                     (\"big-endian\") record is not supported by phicc",
                ));
            }
            if reversed && matches!(ity, Type::Float(_)) {
                return Err(self.error_at(
                    vloc,
                    "a floating member of a scalar_storage_order(\"big-endian\") record is \
                     not supported by phicc",
                ));
            }
            match item.bitfield {
                Some(bf) => {
                    let start = item.offset * 8 + bf.bit_offset;
                    for b in 0..u64::from(bf.width) {
                        let pos = start + b;
                        let byte = (pos / 8) as usize;
                        let Some(slot) = init.bytes.get_mut(byte) else {
                            return Err(
                                self.error_at(vloc, "initializer item outside of its object")
                            );
                        };
                        let mask = 1u8 << (pos % 8);
                        if (bits >> b) & 1 == 1 {
                            *slot |= mask;
                        } else {
                            *slot &= !mask;
                        }
                    }
                }
                None => {
                    let n = isize.min(8);
                    for i in 0..n {
                        // Big-endian: the most significant byte first.
                        let at = if reversed { n - 1 - i } else { i };
                        init.bytes[(item.offset + at) as usize] = (bits >> (8 * i)) as u8;
                    }
                }
            }
        }
        Ok(init)
    }
}
