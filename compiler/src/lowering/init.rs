//! Local declarations and their initializers.
//!
//! Why: a brace initializer is flattened by the parser into (offset, value) stores over
//! a zeroed object; this file zeroes the object and performs the stores, bit-fields
//! included.
//!
//! Invariants:
//! - `Initializer::List`: every byte of the object is written (zero first, then the
//!   items in order, a later item overriding an earlier one);
//! - a declaration without initializer leaves the object as it is, except that an
//!   object containing bit-fields is zeroed (its value is indeterminate, so zero is a
//!   valid choice, and it keeps a later bit-field read-modify-write from reading bytes
//!   never written, which the oracle calls undefined);
//! - small objects are zeroed with stores of the widest aligned widths, large ones with
//!   one `memcpy` from a constant all-zero global.

use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use super::lvalue::LVal;
use super::types::{has_bitfields, object_size, scalar_type};
use crate::frontend::ast::{Initializer, LocalId};
use crate::frontend::types::Type;
use crate::ir::Operand;

/// Objects up to this size are zeroed with stores; larger ones with a `memcpy`.
const MAX_ZERO_STORES: u64 = 64;

impl FnLower<'_, '_> {
    /// A declaration of local `id` with its initializer. In the checked lowering a
    /// `const` object is writable only while it is initialised.
    pub fn declare(&mut self, id: LocalId, init: Option<&Initializer>) -> Res<()> {
        if let Some(r) = self.declare_vla(id) {
            return r;
        }
        let guarded = self.const_slot(id);
        if let Some(slot) = guarded {
            self.thaw(slot);
        }
        self.initialize(id, init)?;
        if let Some(slot) = guarded {
            self.freeze(slot);
        }
        Ok(())
    }

    /// Stores local `id`'s initial value (an object without initializer keeps
    /// indeterminate bytes, but its bit-field padding is zeroed).
    fn initialize(&mut self, id: LocalId, init: Option<&Initializer>) -> Res<()> {
        let Some(local) = self.def.locals.get(id.0 as usize) else {
            return Err(self.err(self.stmt_loc, "internal error: unknown local"));
        };
        let addr = self.locals[id.0 as usize];
        let ty = &local.ty.ty;
        let loc = local.loc;
        match init {
            None => {
                if has_bitfields(self.ctx, ty) {
                    let size = object_size(self.ctx, ty).map_err(|m| self.err(loc, m))?;
                    self.zero(addr, size, ty)?;
                }
                Ok(())
            }
            Some(Initializer::Expr(e)) => {
                if self.init_derived_pointer(id, addr, e)? {
                    return Ok(());
                }
                match self.rvalue(e)? {
                    RVal::Scalar(v, t) => {
                        let st = scalar_type(self.ctx.target, ty).map_err(|m| self.err(loc, m))?;
                        let v = self.cast(t, v, st);
                        self.store(st, v, addr);
                        self.note_init_type(addr, ty, st);
                    }
                    RVal::Record(src) => {
                        let size = object_size(self.ctx, ty).map_err(|m| self.err(loc, m))?;
                        self.memcpy(addr, src, size)?;
                    }
                    RVal::Void => return Err(self.err(e.loc, "a void value initializes an object")),
                }
                Ok(())
            }
            Some(Initializer::List(items)) => {
                let size = object_size(self.ctx, ty).map_err(|m| self.err(loc, m))?;
                self.zero(addr, size, ty)?;
                for item in items {
                    let v = &item.value;
                    let at = self.gep(addr, item.offset as i64);
                    match self.rvalue(v)? {
                        RVal::Scalar(val, t) => {
                            let st = scalar_type(self.ctx.target, &v.ty.ty)
                                .map_err(|m| self.err(v.loc, m))?;
                            let val = self.cast(t, val, st);
                            let records = &self.ctx.unit.records;
                            let target = self.ctx.target;
                            let reversed = match item.bitfield {
                                Some(_) => records.reverse_record_at(ty, item.offset, target),
                                None => records.reverse_scalar_at(ty, item.offset, target),
                            };
                            let lv = match item.bitfield {
                                _ if reversed => {
                                    self.reversed_init_item(at, item.bitfield, &v.ty.ty, v.loc)?
                                }
                                // The units stay inside the object: every byte of it
                                // is zeroed already, so bytes past the record are read
                                // and written back unchanged.
                                Some(field) => {
                                    let rec_size = size.saturating_sub(item.offset);
                                    LVal::Bits {
                                        record: at,
                                        record_size: rec_size,
                                        field,
                                    }
                                }
                                None => LVal::Addr(at),
                            };
                            self.store_lvalue(lv, st, &v.ty.ty, val);
                            if item.bitfield.is_none() {
                                self.note_init_type(at, &v.ty.ty, st);
                            }
                        }
                        RVal::Record(src) => {
                            let n = self.size_of(v)?;
                            self.memcpy(at, src, n)?;
                        }
                        RVal::Void => {
                            return Err(self.err(v.loc, "a void value initializes an object"))
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Writes `size` zero bytes at `addr` (an object of type `ty`).
    pub fn zero(&mut self, addr: Operand, size: u64, ty: &Type) -> Res<()> {
        if let Ok(t) = scalar_type(self.ctx.target, ty) {
            if u64::from(t.size(self.ctx.ptr_bytes)) == size {
                self.store(t, exact(t, 0), addr);
                return Ok(());
            }
        }
        if size > MAX_ZERO_STORES {
            let size32 = u32::try_from(size)
                .map_err(|_| self.err(self.stmt_loc, "object too large (more than 4 GiB)"))?;
            self.ctx.zero_size = self.ctx.zero_size.max(size32);
            let z = self.global_addr(super::ZERO_GLOBAL);
            return self.memcpy(addr, z, size);
        }
        let mut off = 0u64;
        while off < size {
            let rest = size - off;
            let w = [8u64, 4, 2, 1]
                .into_iter()
                .find(|&w| w <= rest && off.is_multiple_of(w))
                .unwrap_or(1);
            let t = super::types::int_type(w, false);
            let at = self.gep(addr, off as i64);
            self.store(t, exact(t, 0), at);
            off += w;
        }
        Ok(())
    }
}
