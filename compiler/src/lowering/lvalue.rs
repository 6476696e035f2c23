//! Lvalues: where objects are, and reading and writing them.
//!
//! Why: assignment, `++`, compound assignment, `&`, member access and plain reads all
//! need "the object this expression designates"; a bit-field is not addressable, so an
//! lvalue is either an address or a (record address, bit-field placement) pair.
//!
//! Invariants: the lvalue kinds are exactly those `ast` lists (`Local`, `Global`,
//! `Deref`, `Member`, `Str`); a member of an rvalue record (a call result, an assignment,
//! `?:`) designates bytes of a temporary, readable but never a target of a store the
//! parser allows; reading a scalar object is one `load` of its IR type, writing it one
//! `store`.

use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::{object_size, scalar_type};
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::types::{BitField, Type};
use crate::ir::{IrType, Operand};

/// A designated object.
#[derive(Clone, Copy, Debug)]
pub enum LVal {
    /// The object's first byte.
    Addr(Operand),
    /// A bit-field of the record at `record` (of `record_size` bytes).
    Bits {
        record: Operand,
        record_size: u64,
        field: BitField,
    },
    /// A 2-, 4- or 8-byte scalar member of a `scalar_storage_order("big-endian")` record:
    /// its bytes are stored reversed (`reverse_order.rs`).
    Reversed(Operand),
    /// A bit-field of such a record: `width` bits, `shift` bits above the least
    /// significant bit of the big-endian `unit_size`-byte unit at `unit`.
    ReversedBits {
        unit: Operand,
        unit_size: u64,
        shift: u64,
        width: u32,
    },
}

impl FnLower<'_, '_> {
    /// The object `e` designates.
    pub fn lvalue(&mut self, e: &Expr) -> Res<LVal> {
        self.enter(e.loc)?;
        let r = self.lvalue_inner(e);
        self.leave();
        r
    }

    fn lvalue_inner(&mut self, e: &Expr) -> Res<LVal> {
        // Only this lvalue itself is an address-only use (`&a[i]`), not its operands.
        let address_only = std::mem::take(&mut self.address_only);
        match &e.kind {
            ExprKind::Local(id) => match self.locals.get(id.0 as usize) {
                Some(&a) => Ok(LVal::Addr(a)),
                None => Err(self.err(e.loc, "internal error: unknown local")),
            },
            ExprKind::CompoundLiteral(id, init) => {
                // Initialised each time it is evaluated (`frontend/parse/compound_literal.rs`).
                self.declare(*id, Some(init))?;
                match self.locals.get(id.0 as usize) {
                    Some(&a) => Ok(LVal::Addr(a)),
                    None => Err(self.err(e.loc, "internal error: unknown local")),
                }
            }
            ExprKind::Global(id) => {
                let Some(g) = self.ctx.unit.globals.get(id.0 as usize) else {
                    return Err(self.err(e.loc, "internal error: unknown global"));
                };
                if g.is_extern_only {
                    let (name, ty) = (g.name.clone(), g.ty.ty.clone());
                    if let Some(addr) = self.libc_stream_addr(&name, &ty)? {
                        return Ok(LVal::Addr(addr));
                    }
                    return Err(self.err(
                        e.loc,
                        format!(
                            "`{}` is declared `extern` but not defined in this translation \
                             unit (phicc compiles one file at a time)",
                            name
                        ),
                    ));
                }
                let name = g.name.clone();
                Ok(LVal::Addr(self.global_addr(&name)))
            }
            ExprKind::Str(id) => {
                let Some(used) = self.ctx.strings_used.get_mut(id.0 as usize) else {
                    return Err(self.err(e.loc, "internal error: unknown string literal"));
                };
                *used = true;
                let name = super::globals::string_symbol(id.0);
                Ok(LVal::Addr(self.global_addr(&name)))
            }
            ExprKind::Func(name) => {
                super::nested_fn::check_nested_address(self.ctx, name, e.loc)?;
                self.ctx.reference_function(name, e.loc, None)?;
                Ok(LVal::Addr(self.global_addr(name)))
            }
            ExprKind::Deref(p) => self.deref_lvalue(p, e, address_only),
            ExprKind::Member {
                base,
                record,
                field,
            } => {
                let rec = self.record_addr(base)?;
                let Some(def) = self.ctx.unit.records.records.get(record.0 as usize) else {
                    return Err(self.err(e.loc, "internal error: unknown record"));
                };
                let Some(f) = def.fields.get(*field) else {
                    return Err(self.err(e.loc, "internal error: unknown member"));
                };
                if def.reverse_order {
                    let (f, packed) = (f.clone(), def.pack.is_some());
                    return self.reversed_member(rec, &f, packed, e.loc);
                }
                if let Some(bf) = f.bitfield {
                    return Ok(LVal::Bits {
                        record: rec,
                        record_size: def.size,
                        field: bf,
                    });
                }
                let off = f.offset as i64;
                Ok(LVal::Addr(self.gep(rec, off)))
            }
            _ => {
                // Not an lvalue by the AST's rules; a record rvalue still has bytes.
                if e.ty.ty.is_record() {
                    return Ok(LVal::Addr(self.record_value(e)?));
                }
                Err(self.err(e.loc, "internal error: expression is not an lvalue"))
            }
        }
    }

    /// `*p`. In the checked lowering, `*(array + i)` (`a[i]`) checks `i` against the
    /// array's length (one past it when only the address is wanted), and any other `*p`
    /// checks that `p` is aligned for the object it designates.
    fn deref_lvalue(&mut self, p: &Expr, e: &Expr, address_only: bool) -> Res<LVal> {
        if self.ub_checks() {
            if let ExprKind::PtrAdd {
                ptr,
                index,
                elem_size,
            } = &p.kind
            {
                let records = &self.ctx.unit.records;
                if let Some(len) = super::trailing_arrays::checked_array_len(records, ptr) {
                    self.check_sequenced(p);
                    let (base, _) = self.scalar(ptr)?;
                    let (i, it) = self.scalar(index)?;
                    self.check_index(i, it, len, address_only);
                    return Ok(LVal::Addr(self.ptr_offset(base, i, it, *elem_size)));
                }
            }
        }
        let (v, _) = self.scalar(p)?;
        if self.ub_checks() && !address_only && !matches!(e.ty.ty, Type::Function(_) | Type::Void) {
            let align = super::types::object_align(self.ctx, &e.ty.ty);
            self.check_aligned(v, align);
        }
        if !address_only {
            self.check_derived_pointer(p, v, true);
        }
        Ok(LVal::Addr(v))
    }

    /// The address of a record-typed expression, lvalue or not.
    pub fn record_addr(&mut self, e: &Expr) -> Res<Operand> {
        match &e.kind {
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Member { .. }
            | ExprKind::CompoundLiteral(..)
            | ExprKind::Str(_) => match self.lvalue(e)? {
                LVal::Addr(a) => Ok(a),
                _ => Err(self.err(e.loc, "a bit-field is not a struct")),
            },
            _ => self.record_value(e),
        }
    }

    /// The address of an addressable lvalue (for `&`, `Decay`).
    pub fn address_of(&mut self, e: &Expr) -> Res<Operand> {
        match self.lvalue(e)? {
            LVal::Addr(a) => Ok(a),
            LVal::Bits { .. } | LVal::ReversedBits { .. } => {
                Err(self.err(e.loc, "cannot take the address of a bit-field"))
            }
            // gcc's error.
            LVal::Reversed(_) => Err(self.err(
                e.loc,
                "cannot take address of scalar with reverse storage order",
            )),
        }
    }

    /// Reads the object an lvalue expression designates.
    pub fn load_expr(&mut self, e: &Expr) -> Res<RVal> {
        let lv = self.lvalue(e)?;
        match &e.ty.ty {
            Type::Record(_) => match lv {
                LVal::Addr(a) => Ok(RVal::Record(a)),
                _ => Err(self.err(e.loc, "a bit-field is not a struct")),
            },
            Type::Array(..) => Err(self.err(e.loc, "internal error: array used as a value")),
            ty => {
                let t = scalar_type(self.ctx.target, ty).map_err(|m| self.err(e.loc, m))?;
                self.check_load_type(&lv, e, t);
                Ok(RVal::Scalar(self.load_lvalue(lv, t, ty), t))
            }
        }
    }

    /// Reads a scalar of IR type `t` (C type `ty`) from `lv`.
    pub fn load_lvalue(&mut self, lv: LVal, t: IrType, ty: &Type) -> Operand {
        match lv {
            LVal::Addr(a) => self.load(t, a),
            LVal::Bits {
                record,
                record_size,
                field,
            } => self.load_bitfield(record, record_size, field, t, ty),
            LVal::Reversed(a) => self.load_reversed(a, t),
            LVal::ReversedBits {
                unit,
                unit_size,
                shift,
                width,
            } => self.load_reversed_bits(unit, unit_size, shift, width, t, ty),
        }
    }

    /// Writes scalar `v` of IR type `t` to `lv`; returns the value the object then holds
    /// (for a bit-field: `v` truncated to the field's width and extended back).
    pub fn store_lvalue(&mut self, lv: LVal, t: IrType, ty: &Type, v: Operand) -> Operand {
        match lv {
            LVal::Addr(a) => {
                self.store(t, v, a);
                v
            }
            LVal::Bits {
                record,
                record_size,
                field,
            } => self.store_bitfield(record, record_size, field, t, ty, v),
            LVal::Reversed(a) => self.store_reversed(a, t, v),
            LVal::ReversedBits {
                unit,
                unit_size,
                shift,
                width,
            } => self.store_reversed_bits(unit, unit_size, shift, width, t, ty, v),
        }
    }

    /// `sizeof` an object type, as a diagnostic at `e` when incomplete.
    pub fn size_of(&self, e: &Expr) -> Res<u64> {
        object_size(self.ctx, &e.ty.ty).map_err(|m| self.err(e.loc, m))
    }
}
