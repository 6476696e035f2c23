//! A record as integer pieces and back: the two conversions a record passed or returned
//! in registers (or stack slots) needs (`abi.rs` decides when).
//!
//! Why: the IR has no aggregate values; a record that travels by value as gcc passes it
//! is read into `i64` (`i32` on i686) pieces with the piece loads of
//! `crate::abi_intrinsics` (its padding may never have been written) and written back
//! into a fresh slot by plain stores on the other side.
//!
//! Invariants: every piece load reads within a slot: a record whose size is not a
//! multiple of the piece width is first copied into a slot padded to whole pieces; the
//! slot a record is rebuilt in is padded the same way, so the last piece's store fits.

use super::float_abi::Part;
use super::function::{FnLower, Res};
use crate::abi_intrinsics::{AbiFloatPart, AbiHi, AbiLoad, AbiSret};
use crate::ir::{Callee, Inst, IrType, Operand};

impl FnLower<'_, '_> {
    /// The pieces of type `piece` of the `size`-byte record at `addr`, read now.
    pub fn record_pieces(
        &mut self,
        addr: Operand,
        size: u64,
        align: u32,
        piece: IrType,
    ) -> Res<Vec<Operand>> {
        let k = AbiLoad::for_type(piece)
            .ok_or_else(|| self.err(self.stmt_loc, "internal error: no piece load of this type"))?;
        let width = u64::from(k.size());
        let count = size.div_ceil(width);
        let src = if size.is_multiple_of(width) {
            addr
        } else {
            let padded = self.temp(IrType::I8, count * width, align);
            self.memcpy(padded, addr, size)?;
            padded
        };
        let decl = k.decl();
        self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
        let mut out = Vec::with_capacity(count as usize);
        for i in 0..count {
            let ptr = self.gep(src, (i * width) as i64);
            let dest = self.value();
            self.emit(Inst::Call {
                dest: Some(dest),
                ret: piece,
                callee: Callee::Direct(k.name().to_string()),
                args: vec![(IrType::Ptr, ptr)],
                named: None,
            });
            out.push(Operand::Value(dest));
        }
        Ok(out)
    }

    /// A fresh slot holding the `size`-byte record whose pieces of type `piece` are
    /// `pieces` (padded to whole pieces).
    pub fn record_from_pieces(
        &mut self,
        pieces: &[Operand],
        size: u64,
        align: u32,
        piece: IrType,
    ) -> Operand {
        let width = u64::from(piece.size(8));
        let slot = self.temp(IrType::I8, size.div_ceil(width).max(1) * width, align);
        self.store_pieces(pieces, slot, piece);
        slot
    }

    /// The values of `parts` (`float_abi.rs`) of the `size`-byte record at `addr`, read
    /// now: each with the piece load of its width (4 or 8 bytes), then narrowed or
    /// reinterpreted as its type, from a copy padded to whole 8 bytes when a load would
    /// read past the record.
    pub fn record_parts(
        &mut self,
        addr: Operand,
        size: u64,
        align: u32,
        parts: &[Part],
    ) -> Res<Vec<Operand>> {
        let load_width = |t: IrType| if t.size(8) <= 4 { 4u64 } else { 8 };
        let end = parts
            .iter()
            .map(|p| p.offset + load_width(p.ty))
            .max()
            .unwrap_or(0);
        let src = if end <= size {
            addr
        } else {
            let padded = self.temp(IrType::I8, end.max(size).div_ceil(8) * 8, align);
            self.memcpy(padded, addr, size)?;
            padded
        };
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            let (k, int) = if load_width(p.ty) == 4 {
                (AbiLoad::I32, IrType::I32)
            } else {
                (AbiLoad::I64, IrType::I64)
            };
            let decl = k.decl();
            self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
            let ptr = self.gep(src, p.offset as i64);
            let raw = self.value();
            self.emit(Inst::Call {
                dest: Some(raw),
                ret: int,
                callee: Callee::Direct(k.name().to_string()),
                args: vec![(IrType::Ptr, ptr)],
                named: None,
            });
            let v = if p.ty.is_float() {
                let dest = self.value();
                self.emit(Inst::Bitcast {
                    dest,
                    from: int,
                    src: Operand::Value(raw),
                    to: p.ty,
                });
                Operand::Value(dest)
            } else {
                self.cast(int, Operand::Value(raw), p.ty)
            };
            out.push(v);
        }
        Ok(out)
    }

    /// A fresh slot (padded to whole 8 bytes past every part) holding the `size`-byte
    /// record whose `parts` have values `values`.
    pub fn record_from_parts(
        &mut self,
        values: &[Operand],
        size: u64,
        align: u32,
        parts: &[Part],
    ) -> Operand {
        let end = parts
            .iter()
            .map(|p| p.offset + u64::from(p.ty.size(8)))
            .max()
            .unwrap_or(0)
            .max(size)
            .max(1);
        let slot = self.temp(IrType::I8, end.div_ceil(8) * 8, align);
        for (p, v) in parts.iter().zip(values) {
            let ptr = self.gep(slot, p.offset as i64);
            self.store(p.ty, *v, ptr);
        }
        slot
    }

    /// A call of float-part intrinsic `k` (declaring it); its result, if it has one.
    pub fn abi_float_part(
        &mut self,
        k: AbiFloatPart,
        args: Vec<(IrType, Operand)>,
    ) -> Option<Operand> {
        let decl = k.decl();
        let ret = decl.ret;
        self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
        let dest = (ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret,
            callee: Callee::Direct(k.name()),
            args,
            named: None,
        });
        dest.map(Operand::Value)
    }

    /// A call of second-result intrinsic `k` (declaring it); its result, if it has one.
    pub fn abi_hi(&mut self, k: AbiHi, args: Vec<(IrType, Operand)>) -> Option<Operand> {
        let decl = k.decl();
        let ret = decl.ret;
        self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
        let dest = (ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret,
            callee: Callee::Direct(k.name().to_string()),
            args,
            named: None,
        });
        dest.map(Operand::Value)
    }

    /// A call of hidden-pointer intrinsic `k` (declaring it); its result, if it has one.
    pub fn abi_sret(&mut self, k: AbiSret, args: Vec<(IrType, Operand)>) -> Option<Operand> {
        let decl = k.decl();
        let ret = decl.ret;
        self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
        let dest = (ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret,
            callee: Callee::Direct(k.name().to_string()),
            args,
            named: None,
        });
        dest.map(Operand::Value)
    }

    /// Stores `pieces` one after the other from `slot`.
    pub fn store_pieces(&mut self, pieces: &[Operand], slot: Operand, piece: IrType) {
        let width = i64::from(piece.size(8));
        for (i, v) in pieces.iter().enumerate() {
            let ptr = self.gep(slot, i as i64 * width);
            self.store(piece, *v, ptr);
        }
    }
}
