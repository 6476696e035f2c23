//! One function definition: its signature, its locals' slots, its parameters, its body,
//! and what falling off its end returns.
//!
//! Why: the per-function state (the builder, the slots of the locals, the targets of
//! `break`/`continue`, labels and cases, the hidden record-return pointer) lives here, and
//! every other file of the lowering adds methods to [`FnLower`].
//!
//! Invariants: every local gets exactly one slot in the entry block, created before the
//! body is lowered; scalar parameters are `paramref N` + `store` into their slot, in
//! order, in the entry block; a record parameter's object is the caller's copy (the
//! `ptr` parameter itself) when it comes by reference, else a fresh slot its pieces are
//! stored into in the entry block (`abi.rs` says which, and where its pieces are). `depth` counts the expressions and statements being lowered
//! and never exceeds [`MAX_DEPTH`].

use super::abi::{AbiSignature, ArgPlace, RetPlace};
use super::builder::{exact, BlockPositions, Builder};
use super::types::{declared_align, def_signature, object_align, object_size, scalar_type};
use super::{ModuleCtx, MAX_DEPTH};
use crate::abi_intrinsics::{AbiFloatPart, AbiHi, AbiSret};
use crate::frontend::ast::FunctionDef;
use crate::frontend::types::Type;
use crate::frontend::{Diagnostic, Loc};
use crate::ir::{BlockId, FuncAttrs, Inst, IrFunction, IrType, Operand, Terminator, Value};

pub(crate) type Res<T> = Result<T, Diagnostic>;

/// The lowering state of one function.
pub(crate) struct FnLower<'a, 'c> {
    pub ctx: &'c mut ModuleCtx<'a>,
    pub def: &'a FunctionDef,
    pub b: Builder,
    /// The address of each local's object.
    pub locals: Vec<Operand>,
    /// The IR return type (a piece, `ptr` or `void` for record returns: `abi.rs`).
    pub ret: IrType,
    /// How the result travels.
    pub ret_place: RetPlace,
    /// The hidden record-return pointer.
    pub sret: Option<Operand>,
    /// `break` and `continue` targets, innermost last.
    pub breaks: Vec<BlockId>,
    pub continues: Vec<BlockId>,
    /// Checked lowering: `scopes.len()` when each `breaks`/`continues` target was pushed.
    pub break_scopes: Vec<usize>,
    pub continue_scopes: Vec<usize>,
    /// Checked lowering: each open block (its identity, see `goto_scopes`) and the slots
    /// of its objects, innermost last.
    pub scopes: Vec<(super::goto_scopes::ScopeId, Vec<Operand>)>,
    /// Checked lowering: the blocks around each goto label (computed at the first
    /// `goto`).
    pub label_scopes: Option<Vec<Option<Vec<super::goto_scopes::ScopeId>>>>,
    /// Checked lowering: the lvalue being lowered is only an address (`&a[i]`, a
    /// decaying `m[i]`), so an array index may be one past the end.
    pub address_only: bool,
    pub labels: Vec<Option<BlockId>>,
    pub cases: Vec<Option<BlockId>>,
    pub depth: u32,
    /// The C positions of the statements and expressions being lowered, innermost last:
    /// the position of each instruction emitted (`Builder::set_position`).
    pub positions: Vec<Loc>,
    /// Where the innermost statement being lowered begins (its `Stmt::At`; the
    /// function's position outside any placed statement): the position of errors that
    /// belong to a statement rather than to one of its expressions.
    pub stmt_loc: Loc,
    /// Open variable-length array objects and their scopes (`vla.rs`).
    pub vla: super::vla::VlaScopes,
}

/// Lowers one function definition; also returns each instruction's C position.
pub(crate) fn lower_function<'a>(
    ctx: &mut ModuleCtx<'a>,
    def: &'a FunctionDef,
) -> Res<(IrFunction, BlockPositions)> {
    let sig = def_signature(ctx, def).map_err(|m| ctx.error(def.loc, m))?;
    let entry = ctx.fresh_block();
    let mut f = FnLower {
        ctx,
        def,
        b: Builder::new(entry, def.loc),
        locals: Vec::new(),
        ret: sig.ret,
        ret_place: sig.ret_place,
        sret: None,
        breaks: Vec::new(),
        continues: Vec::new(),
        break_scopes: Vec::new(),
        continue_scopes: Vec::new(),
        scopes: Vec::new(),
        label_scopes: None,
        address_only: false,
        labels: vec![None; def.num_labels as usize],
        cases: vec![None; def.num_cases as usize],
        depth: 0,
        positions: Vec::new(),
        stmt_loc: def.loc,
        vla: Default::default(),
    };
    if def.ty.variadic {
        f.check_variadic_definition(&sig)?;
    }
    f.prologue(&sig)?;
    f.stmt(&def.body)?;
    if f.b.is_open() {
        f.fall_off_end();
    }
    let (blocks, positions) =
        f.b.finish()
            .map_err(|m| f.ctx.error(def.loc, format!("internal error: {m}")))?;
    let function = IrFunction {
        name: def.name.clone(),
        params: sig.params,
        ret: sig.ret,
        variadic: def.ty.variadic,
        attrs: FuncAttrs {
            is_static: def.is_static,
            is_inline: def.is_inline,
            // The second-result intrinsics must stay next to the `ret` and the call.
            is_noinline: def.is_noinline
                || matches!(
                    sig.ret_place,
                    RetPlace::Pair { .. }
                        | RetPlace::Hidden {
                            out_of_band: true,
                            ..
                        }
                )
                || matches!(sig.ret_place, RetPlace::Parts(rp) if rp.has_extra()),
            align: declared_align(def.align),
        },
        blocks,
    };
    Ok((function, positions))
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// An error at `loc`.
    pub fn err(&self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        self.ctx.error(loc, message)
    }

    /// Enters one level of nesting; errors beyond [`MAX_DEPTH`].
    pub fn enter(&mut self, loc: Loc) -> Res<()> {
        self.depth += 1;
        self.positions.push(loc);
        self.b.set_position(loc);
        if self.depth > MAX_DEPTH {
            return Err(self.err(loc, "expression or statement nested too deeply"));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.positions.pop();
        let at = self.positions.last().copied().unwrap_or(self.def.loc);
        self.b.set_position(at);
    }

    /// Slots for every local, then the parameters' incoming values.
    fn prologue(&mut self, sig: &AbiSignature) -> Res<()> {
        if let RetPlace::Hidden {
            out_of_band: true, ..
        } = sig.ret_place
        {
            // The first instruction after the allocas (`abi_intrinsics::AbiSret`).
            self.sret = self.abi_sret(AbiSret::Param, vec![]);
        }
        if sig.sret() {
            let v = self.b.fresh_value();
            self.emit(Inst::ParamRef {
                dest: v,
                index: 0,
                ty: IrType::Ptr,
            });
            self.sret = Some(Operand::Value(v));
        }
        let param_of: Vec<Option<usize>> = {
            let mut m = vec![None; self.def.locals.len()];
            for (i, id) in self.def.params.iter().enumerate() {
                if let Some(slot) = m.get_mut(id.0 as usize) {
                    *slot = Some(i);
                }
            }
            m
        };
        for (i, local) in self.def.locals.iter().enumerate() {
            let ty = &local.ty.ty;
            if param_of[i].is_some() && ty.is_record() {
                // Record parameter: its object is made from what arrives (below).
                self.locals.push(exact(IrType::Ptr, 0));
                continue;
            }
            if self.is_vla_object(crate::frontend::ast::LocalId(i as u32)) {
                // Allocated where its declaration is reached (`vla.rs`).
                self.locals.push(exact(IrType::Ptr, 0));
                continue;
            }
            let size = object_size(self.ctx, ty)
                .map_err(|m| self.err(local.loc, format!("variable `{}` has {m}", local.name)))?;
            if u32::try_from(size).is_err() {
                // A type may be as large as the target's PTRDIFF_MAX; an object of it
                // may not (as for globals, `globals.rs`).
                return Err(self.err(
                    local.loc,
                    format!("variable `{}` is too large (over 4 GiB)", local.name),
                ));
            }
            // `_Alignas` / `aligned(N)` raise it (`parse/object_align.rs`).
            let align = object_align(self.ctx, ty).max(declared_align(local.align));
            let slot_ty = match ty {
                Type::Bool | Type::Int(_) | Type::Pointer(_) | Type::Float(_) => {
                    scalar_type(self.ctx.target, ty).unwrap_or(IrType::I8)
                }
                _ => IrType::I8,
            };
            let slot = self.b.alloca(slot_ty, size, align, local.ty.is_volatile);
            self.locals.push(slot);
        }
        for (n, id) in self.def.params.iter().enumerate() {
            let local = &self.def.locals[id.0 as usize];
            let place = sig.args.get(n).ok_or_else(|| {
                self.err(local.loc, "internal error: a parameter has no ABI place")
            })?;
            match place {
                ArgPlace::Scalar { index, ty } => {
                    let v = self.paramref(*index, *ty);
                    let slot = self.locals[id.0 as usize];
                    self.emit(Inst::Store {
                        ty: *ty,
                        val: v,
                        ptr: slot,
                    });
                }
                ArgPlace::ByRef { index, .. } => {
                    // The caller's copy is the object.
                    self.locals[id.0 as usize] = self.paramref(*index, IrType::Ptr);
                }
                ArgPlace::Pieces {
                    piece,
                    indices,
                    size,
                    align,
                } => {
                    let pieces: Vec<Operand> =
                        indices.iter().map(|&i| self.paramref(i, *piece)).collect();
                    self.locals[id.0 as usize] =
                        self.record_from_pieces(&pieces, *size, *align, *piece);
                }
                ArgPlace::Parts { parts, size, align } => {
                    let values: Vec<Operand> =
                        parts.iter().map(|(i, p)| self.paramref(*i, p.ty)).collect();
                    let layout: Vec<_> = parts.iter().map(|(_, p)| *p).collect();
                    self.locals[id.0 as usize] =
                        self.record_from_parts(&values, *size, *align, &layout);
                }
            }
        }
        // Checked lowering: `const` parameters are read-only once stored (after every
        // `paramref`, so no call comes before one).
        let frozen: Vec<Operand> = self
            .def
            .params
            .iter()
            .filter_map(|id| self.const_slot(*id))
            .collect();
        for slot in frozen {
            self.freeze(slot);
        }
        self.mark_untyped_locals();
        Ok(())
    }

    /// `paramref index, ty`.
    fn paramref(&mut self, index: usize, ty: IrType) -> Operand {
        let v = self.b.fresh_value();
        self.emit(Inst::ParamRef {
            dest: v,
            index: index as u32,
            ty,
        });
        Operand::Value(v)
    }

    /// Ends the block with the `ret` of a function that returns no usable value
    /// (`return;`, or running off the end): a record result's hidden pointer when the
    /// ABI returns it, else zero (both pieces of a pair).
    pub fn ret_without_value(&mut self) {
        let term = match (self.ret, self.sret) {
            (IrType::Void, _) => Terminator::Ret(None),
            (IrType::Ptr, Some(p)) if self.sret_returned() => {
                Terminator::Ret(Some((IrType::Ptr, p)))
            }
            (t, _) => {
                if let RetPlace::Pair { piece, .. } = self.ret_place {
                    self.abi_hi(AbiHi::RetHi, vec![(piece, exact(piece, 0))]);
                }
                if let RetPlace::Parts(rp) = self.ret_place {
                    for (i, p) in rp.parts().iter().enumerate() {
                        if !rp.is_result(i) {
                            let k = AbiFloatPart {
                                set: true,
                                ty: p.ty,
                                reg: rp.float_reg(i),
                            };
                            self.abi_float_part(k, vec![(p.ty, exact(p.ty, 0))]);
                        }
                    }
                }
                Terminator::Ret(Some((t, exact(t, 0))))
            }
        };
        self.b.terminate(term);
    }

    /// True when the callee returns the hidden result pointer (x86-64).
    pub fn sret_returned(&self) -> bool {
        matches!(self.ret_place, RetPlace::Hidden { returned: true, .. })
    }

    /// What running off the closing brace does.
    fn fall_off_end(&mut self) {
        self.ret_without_value();
    }

    // ----- emission helpers -----

    /// Emits `inst` into the current block.
    pub fn emit(&mut self, inst: Inst) {
        let ctx = &mut *self.ctx;
        self.b.push(inst, || ctx.fresh_block());
    }

    /// A fresh value number.
    pub fn value(&mut self) -> Value {
        self.b.fresh_value()
    }

    /// A label for a block to be started later.
    pub fn new_label(&mut self) -> BlockId {
        let l = self.ctx.fresh_block();
        self.b.expect_label(l);
        l
    }

    pub fn start(&mut self, label: BlockId) {
        self.b.start(label);
    }

    pub fn br(&mut self, target: BlockId) {
        self.b.terminate(Terminator::Br(target));
    }

    pub fn load(&mut self, ty: IrType, ptr: Operand) -> Operand {
        let dest = self.value();
        self.emit(Inst::Load { dest, ty, ptr });
        Operand::Value(dest)
    }

    pub fn store(&mut self, ty: IrType, val: Operand, ptr: Operand) {
        self.emit(Inst::Store { ty, val, ptr });
    }

    /// `ptr + offset` (no instruction for a zero offset).
    pub fn gep(&mut self, base: Operand, offset: i64) -> Operand {
        if offset == 0 {
            return base;
        }
        let dest = self.value();
        self.emit(Inst::Gep {
            dest,
            base,
            offset: exact(IrType::I64, offset),
        });
        Operand::Value(dest)
    }

    pub fn bin(&mut self, op: crate::ir::BinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Operand {
        let dest = self.value();
        self.emit(Inst::Bin {
            dest,
            op,
            ty,
            lhs,
            rhs,
        });
        Operand::Value(dest)
    }

    pub fn cmp(
        &mut self,
        pred: crate::ir::CmpPred,
        ty: IrType,
        lhs: Operand,
        rhs: Operand,
    ) -> Operand {
        let dest = self.value();
        self.emit(Inst::Cmp {
            dest,
            pred,
            ty,
            lhs,
            rhs,
        });
        Operand::Value(dest)
    }

    /// `cast from v to to`, or `v` itself when the types are equal.
    pub fn cast(&mut self, from: IrType, v: Operand, to: IrType) -> Operand {
        if from == to {
            return v;
        }
        if from.is_float() || to.is_float() {
            return self.float_cast(from, v, to);
        }
        let dest = self.value();
        self.emit(Inst::Cast {
            dest,
            from,
            src: v,
            to,
        });
        Operand::Value(dest)
    }

    pub fn global_addr(&mut self, name: &str) -> Operand {
        let dest = self.value();
        self.emit(Inst::GlobalAddr {
            dest,
            name: name.to_string(),
        });
        Operand::Value(dest)
    }

    pub fn memcpy(&mut self, dst: Operand, src: Operand, size: u64) -> Res<()> {
        if size == 0 {
            return Ok(());
        }
        let size = u32::try_from(size)
            .map_err(|_| self.err(self.stmt_loc, "object too large to copy (more than 4 GiB)"))?;
        self.emit(Inst::Memcpy { dst, src, size });
        Ok(())
    }

    /// A temporary slot in the entry block.
    pub fn temp(&mut self, ty: IrType, size: u64, align: u32) -> Operand {
        self.b.alloca(ty, size, align, false)
    }
}
