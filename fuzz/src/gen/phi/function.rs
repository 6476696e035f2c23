//! One phi-form function: the generator's state, expressions, straight-line statements
//! and the driver.
//!
//! Why: the function's variables live in an environment of SSA values (`env`), never in
//! memory; statements compute new values or rebind variables (`shuffle`), and control
//! flow (`control`) merges environments with phis (`join`).
//!
//! Invariants:
//! - *dominance*: every operand in `env` is a constant or a value whose definition
//!   dominates the current point — new values are defined at the current point, shuffles
//!   only permute `env`, and merges go through `join`; expressions read only `env`,
//!   constants and values they define themselves in the current block;
//! - *types*: variable `i` always holds a value of `types[i]`;
//! - *safety*: division and shifts through `gen::arith`; calls only to later functions;
//! - *cost*: as in the cfg generator, `b.cost` bounds the instructions a run executes.

use super::join::{emit_join_phis, Header, Join};
use super::shuffle::{apply_shuffle, plan_shuffle};
use super::PhiGenConfig;
use crate::gen::arith::{emit_safe_bin, DivisorGuard};
use crate::gen::builder::{BlockCounter, FuncBuilder};
use crate::gen::checksum::{emit_checksum, narrow_result};
use crate::gen::choice::Pick;
use crate::gen::consts::interesting;
use arbitrary::{Result, Unstructured};
use compiler::ir::{
    konst, BinOp, BlockId, CmpPred, FuncAttrs, Inst, IrFunction, IrType, Operand, Terminator, UnOp,
};

/// A function's signature in the phi generator (integer parameters only).
#[derive(Clone, Debug)]
pub struct PhiSig {
    pub name: String,
    pub params: Vec<IrType>,
    pub ret: IrType,
}

/// An enclosing loop.
pub(super) struct LoopCtx {
    pub header: Header,
    /// Join id of the loop's exit.
    pub exit: usize,
    /// The counter's next value (defined at the top of the body).
    pub next: Operand,
}

/// Where an edge goes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Dest {
    /// A join (by id).
    Join(usize),
    /// The innermost loop's header: a back edge.
    Header,
}

/// The state of one function being generated.
pub(super) struct PhiGen<'a, 'u> {
    pub u: &'a mut Unstructured<'u>,
    pub cfg: &'a PhiGenConfig,
    pub ids: &'a mut BlockCounter,
    pub sigs: &'a [PhiSig],
    pub costs: &'a [u64],
    pub fi: usize,
    pub b: FuncBuilder,
    pub types: Vec<IrType>,
    pub env: Vec<Operand>,
    pub joins: Vec<Join>,
    pub loops: Vec<LoopCtx>,
    pub blocks_left: u32,
}

/// Generates function `fi`; returns it and its cost bound.
pub(super) fn generate_function(
    u: &mut Unstructured,
    cfg: &PhiGenConfig,
    ids: &mut BlockCounter,
    sigs: &[PhiSig],
    costs: &[u64],
    fi: usize,
) -> Result<(IrFunction, u64)> {
    let sig = sigs[fi].clone();
    let mut b = FuncBuilder::new(ids);
    let mut params = Vec::new();
    for (n, &ty) in sig.params.iter().enumerate() {
        let dest = b.fresh();
        b.push(Inst::ParamRef {
            dest,
            index: n as u32,
            ty,
        });
        params.push((Operand::from(dest), ty));
    }
    // Variables: a few types, several variables per type, so shuffles have partners.
    let ngroups = u.between(1, cfg.max_type_groups.max(1))? as usize;
    let mut group_types = Vec::new();
    for _ in 0..ngroups {
        let ty = IrType::INTEGERS[u.index(IrType::INTEGERS.len())?];
        group_types.push(if u.chance(cfg.float_percent)? {
            crate::gen::floats::float_type(u)?
        } else {
            ty
        });
    }
    let nvars = u.between(cfg.min_vars, cfg.max_vars)? as usize;
    let types: Vec<IrType> = (0..nvars.max(1))
        .map(|i| group_types[i % group_types.len()])
        .collect();
    let blocks_left = u.between(cfg.min_blocks, cfg.max_blocks)?.saturating_sub(1);
    let mut g = PhiGen {
        u,
        cfg,
        ids,
        sigs,
        costs,
        fi,
        b,
        types: types.clone(),
        env: Vec::new(),
        joins: Vec::new(),
        loops: Vec::new(),
        blocks_left,
    };
    for (i, &ty) in types.iter().enumerate() {
        // The first variables come from the parameters (so every argument matters); the
        // rest from a random parameter or a constant.
        let init = match params.get(i) {
            Some(&(p, pty)) => g.convert(p, pty, ty),
            None => g.initial_value(ty, &params)?,
        };
        g.env.push(init);
    }
    g.sequence(0, cfg.max_stmts.saturating_mul(3))?;
    g.emit_return();
    debug_assert_eq!(g.b.unterminated(), 0, "unterminated blocks in {}", sig.name);
    let cost = g.b.cost;
    let f =
        g.b.finish(sig.name, sig.params, sig.ret, FuncAttrs::default());
    Ok((f, cost))
}

impl PhiGen<'_, '_> {
    /// A variable's first value: a parameter (converted), something computed from one, or a
    /// constant.
    fn initial_value(&mut self, ty: IrType, params: &[(Operand, IrType)]) -> Result<Operand> {
        if params.is_empty() || self.u.chance(30)? {
            return self.constant(ty);
        }
        let (p, pty) = params[self.u.index(params.len())?];
        let v = self.convert(p, pty, ty);
        if ty.is_float() {
            return Ok(v);
        }
        if self.u.chance(40)? {
            let c = konst(ty, interesting(self.u, ty)?);
            let op = [BinOp::Add, BinOp::Xor, BinOp::Mul][self.u.index(3)?];
            return Ok(self.b.bin(op, ty, v, c).into());
        }
        Ok(v)
    }

    /// A new block, counted against the budget.
    pub fn block(&mut self) -> BlockId {
        self.blocks_left = self.blocks_left.saturating_sub(1);
        self.b.new_block(self.ids)
    }

    /// A new join (with a new block); returns its id.
    pub fn new_join(&mut self) -> usize {
        let block = self.block();
        self.joins.push(Join::new(block));
        self.joins.len() - 1
    }

    /// Records the current environment on the edge to `d`; returns the target block.
    pub fn record(&mut self, d: Dest) -> BlockId {
        let Some(pred) = self.b.current() else {
            debug_assert!(false, "edge from no block");
            return BlockId(0);
        };
        match d {
            Dest::Join(j) => {
                self.joins[j].add_edge(pred, &self.env);
                self.joins[j].block
            }
            Dest::Header => {
                let Some(l) = self.loops.last_mut() else {
                    debug_assert!(false, "back edge outside a loop");
                    return BlockId(0);
                };
                l.header.add_entry(pred, &self.env, l.next);
                l.header.block
            }
        }
    }

    /// `br d`.
    pub fn goto(&mut self, d: Dest) {
        let t = self.record(d);
        self.b.terminate(Terminator::Br(t));
    }

    /// `condbr c, d1, d2` for a data condition, in random order (the sense of a data
    /// condition does not matter to validity); both edges record the same environment.
    pub fn branch(&mut self, c: Operand, d1: Dest, d2: Dest) -> Result<()> {
        let (d1, d2) = if self.u.chance(50)? {
            (d1, d2)
        } else {
            (d2, d1)
        };
        self.branch_exact(c, d1, d2);
        Ok(())
    }

    /// `condbr c, d1, d2` exactly: `c != 0` goes to `d1`.
    pub fn branch_exact(&mut self, c: Operand, d1: Dest, d2: Dest) {
        let t1 = self.record(d1);
        let t2 = self.record(d2);
        self.b.terminate(Terminator::CondBr {
            cond: c,
            if_true: t1,
            if_false: t2,
        });
    }

    /// Jumps to `d`, sometimes as `condbr c, d, d` (a repeated target).
    pub fn close_to(&mut self, d: Dest) -> Result<()> {
        if self.u.chance(10)? {
            let c = self.cond()?;
            let t = self.record(d);
            self.b.terminate(Terminator::CondBr {
                cond: c,
                if_true: t,
                if_false: t,
            });
        } else {
            self.goto(d);
        }
        Ok(())
    }

    /// Enters join `j`: its block becomes current and its phis set the environment.
    pub fn enter(&mut self, j: usize) -> Result<()> {
        let block = self.joins[j].block;
        self.b.switch_to(block);
        let join = self.joins[j].clone();
        self.env = emit_join_phis(
            &mut self.b,
            self.u,
            &self.types,
            &join,
            self.cfg.extra_phi_percent,
        )?;
        Ok(())
    }

    /// `v` of type `from` as type `to` (a float becomes an integer through its NaN-free
    /// bits, never by an unchecked conversion).
    pub fn convert(&mut self, v: Operand, from: IrType, to: IrType) -> Operand {
        if from == to {
            return v;
        }
        if from.is_float() && !to.is_float() {
            let bits = crate::gen::floats::emit_float_bits(&mut self.b, from, v);
            return self.convert(bits, IrType::I64, to);
        }
        self.b.cast(from, v, to).into()
    }

    /// A variable's value of type `ty` (converted from another type if none has it), or a
    /// constant.
    pub fn operand(&mut self, ty: IrType) -> Result<Operand> {
        let same: Vec<usize> = (0..self.types.len())
            .filter(|&i| self.types[i] == ty)
            .collect();
        if !self.loops.is_empty() && self.u.chance(12)? {
            // An enclosing header's phi (a variable's or the counter) read directly, as
            // after value numbering: every enclosing header dominates the current point.
            let l = &self.loops[self.u.index(self.loops.len())?];
            let (h, hty) = if self.u.chance(40)? || self.types.is_empty() {
                (l.header.counter, l.header.counter_ty)
            } else {
                let j = self.u.index(self.types.len())?;
                (l.header.dests[j], self.types[j])
            };
            return Ok(self.convert(h.into(), hty, ty));
        }
        if self.u.chance(15)? || self.env.is_empty() {
            return self.constant(ty);
        }
        if !same.is_empty() && self.u.chance(80)? {
            return Ok(self.env[same[self.u.index(same.len())?]]);
        }
        let i = self.u.index(self.env.len())?;
        Ok(self.convert(self.env[i], self.types[i], ty))
    }

    /// An expression of type `ty` over the variables; `depth` at most 2.
    pub fn expr(&mut self, ty: IrType, depth: u32) -> Result<Operand> {
        if ty.is_float() {
            return self.fexpr(ty, depth);
        }
        if depth == 0 || self.u.chance(25)? {
            return self.operand(ty);
        }
        Ok(match self.u.weighted(&[8, 1, 2])? {
            0 => {
                let op = BinOp::ALL[self.u.index(BinOp::ALL.len())?];
                let l = self.expr(ty, depth - 1)?;
                // Divisions and shifts meet an interesting constant divisor or amount
                // on purpose, not only when a variable happens to hold one.
                let edgy = op.can_trap() || op.is_shift();
                let r = if edgy && self.u.chance(50)? {
                    konst(ty, interesting(self.u, ty)?)
                } else {
                    self.expr(ty, depth - 1)?
                };
                let guard = DivisorGuard::pick(self.u, op)?;
                emit_safe_bin(&mut self.b, op, ty, l, r, guard).into()
            }
            1 => {
                let op = UnOp::ALL[self.u.index(UnOp::ALL.len())?];
                let s = self.expr(ty, depth - 1)?;
                self.b.un(op, ty, s).into()
            }
            _ => {
                let c = self.cond()?;
                let a = self.operand(ty)?;
                let mut b = self.operand(ty)?;
                if b == a {
                    b = konst(ty, interesting(self.u, ty)?);
                }
                self.b.select(ty, c, a, b).into()
            }
        })
    }

    /// A comparison of a variable with a variable or constant of its type.
    pub fn cond(&mut self) -> Result<Operand> {
        let ty = if self.types.is_empty() {
            IrType::I32
        } else {
            self.types[self.u.index(self.types.len())?]
        };
        if ty.is_float() {
            return self.float_cond(ty);
        }
        let pred = CmpPred::ALL[self.u.index(CmpPred::ALL.len())?];
        let l = self.operand(ty)?;
        let mut r = self.operand(ty)?;
        if r == l {
            // `x op x` is constant: compare with a constant instead.
            r = konst(ty, interesting(self.u, ty)?);
        }
        Ok(self.b.cmp(pred, ty, l, r).into())
    }

    /// One straight-line statement: compute, shuffle, call.
    pub fn simple_statement(&mut self) -> Result<()> {
        let callable = self.callable();
        let w = [8, 5, 2, if callable.is_empty() { 0 } else { 2 }];
        match self.u.weighted(&w)? {
            0 => {
                let i = self.u.index(self.types.len())?;
                let ty = self.types[i];
                let e = self.expr(ty, 2)?;
                let accumulate = self.u.chance(60)?;
                self.env[i] = if accumulate && ty.is_float() {
                    self.float_accumulate(ty, self.env[i], e)?
                } else if accumulate {
                    // Accumulate (bijective in the old value) so no information is lost.
                    let op = [BinOp::Add, BinOp::Sub, BinOp::Xor][self.u.index(3)?];
                    self.b.bin(op, ty, self.env[i], e).into()
                } else {
                    e
                };
            }
            1 => self.shuffle()?,
            2 => {
                // A cast from another variable.
                let i = self.u.index(self.types.len())?;
                let j = self.u.index(self.types.len())?;
                self.env[i] = self.convert(self.env[j], self.types[j], self.types[i]);
                if self.types[i] == self.types[j] {
                    let ty = self.types[i];
                    self.env[i] = if ty.is_float() {
                        crate::gen::floats::emit_fneg(&mut self.b, ty, self.env[j]).into()
                    } else {
                        self.b.un(UnOp::Not, ty, self.env[j]).into()
                    };
                }
            }
            _ => self.call(&callable)?,
        }
        Ok(())
    }

    /// Rebinds variables among themselves (no code).
    pub fn shuffle(&mut self) -> Result<()> {
        let moves = plan_shuffle(self.u, &self.types)?;
        apply_shuffle(&mut self.env, &self.types, &moves);
        Ok(())
    }

    /// Later functions whose cost fits the budget at the current weight.
    fn callable(&self) -> Vec<usize> {
        let w = self.b.weight;
        (self.fi + 1..self.sigs.len())
            .filter(|&j| {
                self.b
                    .cost
                    .saturating_add(w.saturating_mul(self.costs[j] + 16))
                    <= self.cfg.max_cost
            })
            .collect()
    }

    /// `v_i = call f_j(...)`.
    fn call(&mut self, callable: &[usize]) -> Result<()> {
        let j = callable[self.u.index(callable.len())?];
        let sig = self.sigs[j].clone();
        let mut args = Vec::new();
        for &t in &sig.params {
            args.push((t, self.expr(t, 1)?));
        }
        self.b.cost = self
            .b
            .cost
            .saturating_add(self.b.weight.saturating_mul(self.costs[j]));
        if let Some(r) = self.b.call(sig.ret, &sig.name, args) {
            let i = self.u.index(self.types.len())?;
            self.env[i] = self.convert(r.into(), sig.ret, self.types[i]);
        }
        Ok(())
    }

    /// `ret` of the checksum of every variable.
    pub fn emit_return(&mut self) {
        if !self.b.is_open() {
            return;
        }
        let items: Vec<(Operand, IrType)> = self
            .env
            .iter()
            .copied()
            .zip(self.types.iter().copied())
            .collect();
        let h = emit_checksum(&mut self.b, &items);
        let ret = self.sigs[self.fi].ret;
        let r = narrow_result(&mut self.b, h, ret);
        self.b.terminate(Terminator::Ret(r));
    }
}
