//! Straight-line statements: assignments, memory writes, pointer updates, calls, printf,
//! memcpy.
//!
//! Why: these are what make slots live across the control flow that `control` builds —
//! stores that mem2reg must turn into phi inputs, stores through escaped addresses that it
//! must not touch, and calls that read and write a caller's memory.
//!
//! Invariants: never write a `Counter` slot (only its loop does) nor a `Guarded` one (only
//! `guarded` does) — except in blocks nothing reaches; every store is in bounds (see
//! `memory`); a `ptr` slot is only ever stored a pointer satisfying its contract (a `FnPtr`
//! slot: a function's address, loaded back right away); calls go to later functions only,
//! reach them only the way their `CallStyle` says (never an `Unused` one), pass exactly
//! the callee's parameter types, and happen only while the cost and print budgets allow;
//! memcpy
//! copies between two distinct, fully initialized objects, so it never overlaps.

use super::frame::{initial_value, Role};
use super::function::FnGen;
use super::memory::{emit_addr, emit_base, emit_contract_addr, objects, pick_access, Base};
use super::plan::{CallStyle, Param, Signature, FMT_D, FMT_LLD};
use crate::gen::choice::Pick;
use arbitrary::Result;
use compiler::ir::{BinOp, Callee, Inst, IrType, Operand, Value};

impl FnGen<'_, '_> {
    /// One straight-line statement in the current block.
    pub fn simple_statement(&mut self) -> Result<()> {
        let has_ptr_slots = self.ptr_slots().next().is_some();
        let live = !self.in_unreachable;
        let w = [
            8,
            3,
            2,
            if has_ptr_slots { 2 } else { 0 },
            if live { 3 } else { 0 },
            if live { self.cfg.printf_weight } else { 0 },
            1,
        ];
        match self.u.weighted(&w)? {
            0 => self.assign(),
            1 => self.memory_store(),
            2 => {
                let ty = super::expr::int_type(self.u)?;
                self.expr(ty, 3).map(|_| ())
            }
            3 => self.retarget_pointer(),
            4 => self.call(),
            5 => self.printf(),
            _ => self.memcpy(),
        }
    }

    /// Slots a statement may store to directly: data and parameter slots of integer type,
    /// and in unreachable blocks any integer slot.
    pub(super) fn writable_slots(&self) -> Vec<usize> {
        self.frame
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.spec.ty.is_integer()
                    && (self.in_unreachable || matches!(s.spec.role, Role::Data | Role::Param(_)))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// `ptr` slots with a contract.
    fn ptr_slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.frame
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.spec.ty == IrType::Ptr && s.spec.contract.is_some())
            .map(|(i, _)| i)
    }

    /// `slot = expr` (or a literal, often an `:i64` one narrowed by the store).
    fn assign(&mut self) -> Result<()> {
        if self.floats_on() && self.u.chance(self.cfg.float_percent)? && self.float_assign()? {
            return Ok(());
        }
        let writable = self.writable_slots();
        if writable.is_empty() {
            return Ok(());
        }
        let slot = self.frame.slots[writable[self.u.index(writable.len())?]];
        let ty = slot.spec.ty;
        let val = match self.u.weighted(&[3, 3, 4])? {
            0 => initial_value(self.u, ty)?,
            1 => self.expr(ty, 2)?,
            _ => {
                // Accumulate (bijective in the old value) so no information is lost.
                let old = self.b.load(ty, slot.ptr.into());
                self.define(old, ty);
                let e = self.expr(ty, 2)?;
                let op = [BinOp::Add, BinOp::Sub, BinOp::Xor][self.u.index(3)?];
                let v = self.b.bin(op, ty, old.into(), e);
                self.define(v, ty);
                v.into()
            }
        };
        self.b.store(ty, val, slot.ptr.into());
        Ok(())
    }

    /// A store into an object through an address (gep, global, or a loaded pointer).
    fn memory_store(&mut self) -> Result<()> {
        let objs = objects(&self.frame, self.plan);
        if objs.is_empty() {
            return Ok(());
        }
        let obj = objs[self.u.index(objs.len())?];
        let (ty, off) = pick_access(self.u, &obj)?;
        let val = if self.u.chance(25)? {
            initial_value(self.u, ty)?
        } else {
            self.expr(ty, 1)?
        };
        let addr = emit_addr(&mut self.b, self.u, &self.frame, self.plan, &obj, off)?;
        self.b.store(ty, val, addr);
        Ok(())
    }

    /// Points a `ptr` slot somewhere else that satisfies its contract (sometimes choosing
    /// between two such places with a select).
    fn retarget_pointer(&mut self) -> Result<()> {
        let ptrs: Vec<usize> = self.ptr_slots().collect();
        if ptrs.is_empty() {
            return Ok(());
        }
        let p = ptrs[self.u.index(ptrs.len())?];
        let Some(c) = self.frame.slots[p].spec.contract else {
            return Ok(());
        };
        let objs = objects(&self.frame, self.plan);
        let Some(first) =
            emit_contract_addr(&mut self.b, self.u, &self.frame, self.plan, &objs, c)?
        else {
            return Ok(());
        };
        let addr = if self.u.chance(30)? {
            match emit_contract_addr(&mut self.b, self.u, &self.frame, self.plan, &objs, c)? {
                Some(second) => {
                    let cond = self.cond(1)?;
                    self.b.select(IrType::Ptr, cond, first, second).into()
                }
                None => first,
            }
        } else {
            first
        };
        let ptr = self.frame.slots[p].ptr;
        self.b.store(IrType::Ptr, addr, ptr.into());
        Ok(())
    }

    /// Callees reachable from here whose cost and printing fit the budgets at the
    /// current loop weight.
    fn callable(&self) -> Vec<usize> {
        let w = self.b.weight;
        (self.fi + 1..self.plan.sigs.len())
            .filter(|&j| {
                self.plan.sigs[j].style != CallStyle::Unused
                    && self
                        .b
                        .cost
                        .saturating_add(w.saturating_mul(self.plan.costs[j] + 16))
                        <= self.cfg.max_cost
                    && self
                        .prints
                        .saturating_add(w.saturating_mul(self.plan.prints[j]))
                        <= self.cfg.max_prints
            })
            .collect()
    }

    /// A call to a later function whose cost and printing fit the budgets; the result
    /// goes to a slot or stays in scope. A callee of three or more parameters is often
    /// passed permuted arguments (`call_args`), and then sometimes called again with the
    /// first result among the arguments (a chain).
    fn call(&mut self) -> Result<()> {
        let callable = self.callable();
        if callable.is_empty() {
            return Ok(());
        }
        let j = callable[self.u.index(callable.len())?];
        let sig = self.plan.sigs[j].clone();
        let permuted = sig.params.len() >= 3 && self.u.chance(self.cfg.permuted_call_percent)?;
        if !permuted {
            let Some(args) = self.in_order_call_args(&sig)? else {
                return Ok(());
            };
            let Some(r) = self.emit_call(j, &sig, args)? else {
                return Ok(());
            };
            let writable = self.writable_slots();
            if !writable.is_empty() && self.u.chance(70)? {
                let slot = self.frame.slots[writable[self.u.index(writable.len())?]];
                let val = self.convert(r.into(), sig.ret, slot.spec.ty);
                self.b.store(slot.spec.ty, val, slot.ptr.into());
            }
            return Ok(());
        }
        let mut previous: Option<Value> = None;
        loop {
            let Some(mut args) = self.permuted_call_args(&sig.params)? else {
                return Ok(());
            };
            if let Some(r) = previous {
                // The chain: the last result at one integer position.
                let ints: Vec<usize> = (0..args.len())
                    .filter(|&k| args[k].0.is_integer())
                    .collect();
                if !ints.is_empty() {
                    let k = ints[self.u.index(ints.len())?];
                    let ty = args[k].0;
                    args[k] = (ty, self.convert(r.into(), sig.ret, ty));
                }
            }
            let Some(r) = self.emit_call(j, &sig, args)? else {
                return Ok(());
            };
            self.keep_result(r, sig.ret)?;
            previous = Some(r);
            if !(self.u.chance(35)? && self.callable().contains(&j)) {
                return Ok(());
            }
        }
    }

    /// Folds a call result into a writable slot (xor: no information lost), so a wrong
    /// argument shows in the caller's checksum.
    pub(super) fn keep_result(&mut self, r: Value, ty: IrType) -> Result<()> {
        let writable = self.writable_slots();
        if writable.is_empty() {
            return Ok(());
        }
        let slot = self.frame.slots[writable[self.u.index(writable.len())?]];
        let sty = slot.spec.ty;
        let old = self.b.load(sty, slot.ptr.into());
        self.define(old, sty);
        let val = self.convert(r.into(), ty, sty);
        let mixed = self.b.bin(BinOp::Xor, sty, old.into(), val);
        self.define(mixed, sty);
        self.b.store(sty, mixed.into(), slot.ptr.into());
        Ok(())
    }

    /// Charges the call of `j` to the budgets and emits it; the result (if any) is in
    /// scope afterwards.
    fn emit_call(
        &mut self,
        j: usize,
        sig: &Signature,
        args: Vec<(IrType, Operand)>,
    ) -> Result<Option<Value>> {
        let w = self.b.weight;
        self.b.cost = self
            .b
            .cost
            .saturating_add(w.saturating_mul(self.plan.costs[j]));
        self.prints = self
            .prints
            .saturating_add(w.saturating_mul(self.plan.prints[j]));
        let callee = self.callee_of(sig)?;
        let r = self.b.call_to(sig.ret, callee, args);
        if let Some(r) = r {
            self.define(r, sig.ret);
        }
        Ok(r)
    }

    /// Arguments computed in parameter order, each an expression; `None` when a `ptr`
    /// parameter's contract cannot be met here.
    fn in_order_call_args(&mut self, sig: &Signature) -> Result<Option<Vec<(IrType, Operand)>>> {
        let objs = objects(&self.frame, self.plan);
        let mut args = Vec::new();
        for p in &sig.params {
            match p {
                Param::Int(t) => args.push((*t, self.expr(*t, 1)?)),
                Param::Ptr(c) => {
                    // Prefer this frame's own slots: that is what makes addresses escape.
                    let own: Vec<_> = objs
                        .iter()
                        .copied()
                        .filter(|o| matches!(o.base, Base::Slot(_)))
                        .collect();
                    let pool = if self.u.chance(75)? { &own } else { &objs };
                    let addr = match emit_contract_addr(
                        &mut self.b,
                        self.u,
                        &self.frame,
                        self.plan,
                        pool,
                        *c,
                    )? {
                        Some(a) => a,
                        None => match emit_contract_addr(
                            &mut self.b,
                            self.u,
                            &self.frame,
                            self.plan,
                            &objs,
                            *c,
                        )? {
                            Some(a) => a,
                            None => return Ok(None),
                        },
                    };
                    args.push((IrType::Ptr, addr));
                }
            }
        }
        Ok(Some(args))
    }

    /// How to reach `sig` at the current point, as its call style says: by name, by a
    /// `globaladdr` (sometimes kept in a fresh `FnPtr` slot and loaded back, as
    /// `int (*fp)(int) = f; fp(x)` is lowered), or by loading its function-pointer global.
    fn callee_of(&mut self, sig: &Signature) -> Result<Callee> {
        Ok(match sig.style {
            CallStyle::Direct | CallStyle::Unused => Callee::Direct(sig.name.clone()),
            CallStyle::Address => {
                let fp = self.b.global_addr(&sig.name);
                if self.u.chance(50)? {
                    let slot = self.new_late_slot(IrType::Ptr, Role::FnPtr);
                    let ptr = self.frame.slots[slot].ptr;
                    self.b.store(IrType::Ptr, fp.into(), ptr.into());
                    Callee::Indirect(self.b.load(IrType::Ptr, ptr.into()).into())
                } else {
                    Callee::Indirect(fp.into())
                }
            }
            CallStyle::Table => {
                let g = self.b.global_addr(&sig.table_global());
                Callee::Indirect(self.b.load(IrType::Ptr, g.into()).into())
            }
        })
    }

    /// `printf("%d\n", v)` or `printf("%lld\n", v)`.
    fn printf(&mut self) -> Result<()> {
        let w = self.b.weight;
        if self.prints.saturating_add(w) > self.cfg.max_prints {
            return Ok(());
        }
        let (ty, fmt) = if self.u.chance(50)? {
            self.plan.formats.d = true;
            (IrType::I32, FMT_D)
        } else {
            self.plan.formats.lld = true;
            (IrType::I64, FMT_LLD)
        };
        let v = self.expr(ty, 2)?;
        let f = self.b.global_addr(fmt);
        if let Some(r) = self.b.call(
            IrType::I32,
            "printf",
            vec![(IrType::Ptr, f.into()), (ty, v)],
        ) {
            self.define(r, IrType::I32);
        }
        self.prints += w;
        Ok(())
    }

    /// Copies the common initialized prefix of one object into another.
    fn memcpy(&mut self) -> Result<()> {
        let objs: Vec<_> = objects(&self.frame, self.plan)
            .into_iter()
            .filter(|o| o.punnable)
            .collect();
        if objs.len() < 2 {
            return Ok(());
        }
        let a = self.u.index(objs.len())?;
        let mut c = self.u.index(objs.len() - 1)?;
        if c >= a {
            c += 1;
        }
        let (dst, src) = (objs[a], objs[c]);
        let size = dst.bytes().min(src.bytes());
        let d = emit_base(&mut self.b, &self.frame, self.plan, dst.base);
        let s = emit_base(&mut self.b, &self.frame, self.plan, src.base);
        self.b.push(Inst::Memcpy {
            dst: d,
            src: s,
            size,
        });
        Ok(())
    }
}
