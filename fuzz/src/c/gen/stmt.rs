//! Random statements and blocks.
//!
//! Why: control flow is where a middle end's passes (CFG simplification, LICM, GVN, phi
//! placement) do their work; the statements here give them loops, branches, switches and
//! jumps, all guaranteed to terminate.
//!
//! Invariants:
//! - every loop counts a fresh, read-only counter from 0 to a constant, so it ends;
//! - `goto` jumps only forward to a label later in this or an enclosing block;
//! - `break` appears only inside a loop or switch, `continue` only inside a loop;
//! - a statement has at most one side effect on any object: its assignment (whose store
//!   is sequenced after the value it stores), or a call whose result goes to a plain
//!   variable.

use super::ast::*;
use super::context::{Gen, NARROW_DM};
use super::expr::Want;
use super::features::Feature;
use super::types::{IntKind, Ty};
use super::value::{BinOp, Val};

/// Expression depth of a statement's expressions.
const EXPR_DEPTH: u32 = 3;

impl Gen<'_> {
    fn max_nest(&self) -> u32 {
        3 + (self.cfg.size >= 6) as u32
    }

    /// A block of about `n` statements (maybe with a label that earlier statements may
    /// jump to).
    pub fn block(&mut self, n: usize) -> Vec<Stmt> {
        self.nest += 1;
        let mut out = Vec::new();
        let label = if self.has(Feature::Goto) && n >= 2 && self.chance(0.3) {
            let l = self.fresh_label();
            self.labels.push(l);
            Some((l, 1 + self.below(n - 1)))
        } else {
            None
        };
        for i in 0..n {
            if let Some((l, at)) = label {
                if i == at {
                    self.labels.retain(|x| *x != l);
                    out.push(Stmt::Label(l));
                }
            }
            out.push(self.stmt());
        }
        self.nest -= 1;
        out
    }

    fn block_size(&mut self) -> usize {
        let top = (self.cfg.size as usize + 2).saturating_sub(self.nest as usize * 2);
        1 + self.below(top.max(1))
    }

    fn cond(&mut self) -> Expr {
        self.expr(2)
    }

    /// One statement.
    pub fn stmt(&mut self) -> Stmt {
        self.volatile_used = false;
        let shallow = self.nest < self.max_nest();
        let in_loop = self.loop_depth > 0;
        let w = [
            20,
            6 * self.has(Feature::Compound) as u32,
            4 * self.has(Feature::IncDec) as u32,
            6 * self.has(Feature::Calls) as u32,
            8 * shallow as u32,
            6 * (shallow && self.has(Feature::Loops)) as u32,
            3 * (shallow && self.has(Feature::Switch)) as u32,
            3 * (self.has(Feature::Goto) && !self.labels.is_empty()) as u32,
            3 * (self.has(Feature::BreakContinue) && (in_loop || self.switch_depth > 0)) as u32,
            2 * self.has(Feature::Print) as u32,
            1,
            (shallow as u32),
            3 * self.has(Feature::Pointers) as u32,
            2 * self.has(Feature::Structs) as u32,
            2 * self.has(Feature::Swaps) as u32,
            5 * self.floats() as u32,
        ];
        let s = match self.weighted(&w) {
            0 => self.assign(),
            1 => self.compound(),
            2 => self.incdec(),
            3 => self.call(),
            4 => {
                let c = self.cond();
                let n = self.block_size();
                let a = self.block(n);
                let b = if self.chance(0.4) {
                    let n = self.block_size();
                    Some(self.block(n))
                } else {
                    None
                };
                Some(Stmt::If(c, a, b))
            }
            5 => Some(self.loop_stmt()),
            6 => Some(self.switch()),
            7 => {
                let l = self.pick(&self.labels.clone());
                Some(Stmt::If(self.cond(), vec![Stmt::Goto(l)], None))
            }
            8 => {
                let s = if in_loop && self.chance(0.5) {
                    Stmt::Continue
                } else {
                    Stmt::Break
                };
                Some(Stmt::If(self.cond(), vec![s], None))
            }
            9 => Some(Stmt::Print(self.expr(EXPR_DEPTH))),
            10 => {
                let r = self.return_value();
                Some(Stmt::If(self.cond(), vec![Stmt::Return(r)], None))
            }
            11 => {
                let n = self.block_size();
                Some(Stmt::Block(self.block(n)))
            }
            12 => self.pointer_assign(),
            13 => self.struct_assign(),
            14 => self.rotation(),
            _ => self.float_stmt(),
        };
        s.unwrap_or_else(|| Stmt::Print(self.expr(EXPR_DEPTH)))
    }

    /// The variable an lvalue names at its root, if it is not reached through a pointer.
    fn root(lv: &LVal) -> Option<VarRef> {
        match lv {
            LVal::Var(v) => Some(*v),
            LVal::Index(a, _, _) | LVal::Field(a, _) | LVal::Member(a, _) => Self::root(a),
            LVal::Deref(_) => None,
        }
    }

    fn mark_volatile_target(&mut self, lv: &LVal) {
        if let Some(v) = Self::root(lv) {
            if self.var(v).is_volatile {
                self.volatile_used = true;
            }
        }
    }

    fn assign(&mut self) -> Option<Stmt> {
        let lv = self.int_lval(Want::Write)?;
        let rhs = self.expr(EXPR_DEPTH);
        Some(Stmt::Assign {
            lv,
            rhs,
            style: AssignStyle::Plain,
        })
    }

    fn compound_ops(&self) -> Vec<BinOp> {
        let mut ops = vec![BinOp::Add, BinOp::Sub];
        if self.has(Feature::MulDiv) {
            ops.extend([BinOp::Mul, BinOp::Div, BinOp::Mod]);
        }
        if self.has(Feature::Shifts) {
            ops.extend([BinOp::Shl, BinOp::Shr]);
        }
        if self.has(Feature::Bitwise) {
            ops.extend([BinOp::And, BinOp::Or, BinOp::Xor]);
        }
        ops
    }

    fn compound(&mut self) -> Option<Stmt> {
        let lv = self.int_lval(Want::Write)?;
        self.mark_volatile_target(&lv);
        let ops = self.compound_ops();
        let op = self.pick(&ops);
        let e = self.right_operand(op, EXPR_DEPTH - 1);
        Some(Stmt::Assign {
            rhs: Expr::Binary(
                op.into(),
                Box::new(Expr::Read(lv.clone())),
                Box::new(e),
                Fix::default(),
            ),
            lv,
            style: AssignStyle::Compound,
        })
    }

    fn incdec(&mut self) -> Option<Stmt> {
        let lv = self.int_lval(Want::Write)?;
        let op = if self.chance(0.5) {
            BinOp::Add
        } else {
            BinOp::Sub
        };
        let one = Expr::Const(Val::new(IntKind::Int, 1, NARROW_DM));
        Some(Stmt::Assign {
            rhs: Expr::Binary(
                op.into(),
                Box::new(Expr::Read(lv.clone())),
                Box::new(one),
                Fix::default(),
            ),
            lv,
            style: AssignStyle::IncDec {
                post: self.chance(0.5),
            },
        })
    }

    /// A writable variable of type `ty` (not read-only, not const).
    pub fn writable_var(&mut self, ty: &Ty) -> Option<VarRef> {
        let vars: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| {
                let var = self.var(v);
                var.ty == *ty && !var.is_const && !self.readonly.contains(&v)
            })
            .collect();
        if vars.is_empty() {
            None
        } else {
            Some(self.pick(&vars))
        }
    }

    /// An argument for a parameter of type `ty`.
    pub fn argument(&mut self, ty: &Ty) -> Option<Expr> {
        match ty {
            Ty::Int(_) => Some(self.expr(EXPR_DEPTH - 1)),
            Ty::Float(_) => Some(Expr::Float(Box::new(self.fexpr(EXPR_DEPTH - 1)))),
            Ty::Ptr(t) => {
                let t = (**t).clone();
                self.ptr_value(&t, false)
            }
            _ => {
                let vars: Vec<VarRef> = self
                    .visible_vars()
                    .into_iter()
                    .filter(|&v| self.var(v).ty == *ty)
                    .collect();
                if vars.is_empty() {
                    return None;
                }
                Some(Expr::Read(LVal::Var(self.pick(&vars))))
            }
        }
    }

    fn call(&mut self) -> Option<Stmt> {
        let me = self.f;
        let mut callees: Vec<usize> = (me + 1..self.prog.funcs.len()).collect();
        let recursive = self.prog.funcs[me].depth_param;
        if recursive.is_some() && self.has(Feature::Recursion) {
            callees.push(me);
        }
        if callees.is_empty() {
            return None;
        }
        let g = self.pick(&callees);
        let callee = self.prog.funcs[g].clone();
        let mut args = Vec::new();
        for (i, p) in callee.locals[..callee.params].iter().enumerate() {
            if Some(i) == callee.depth_param {
                let v = if g == me {
                    Expr::Binary(
                        BinOp::Sub.into(),
                        Box::new(Expr::Read(LVal::Var(VarRef::Local(i)))),
                        Box::new(Expr::Const(Val::new(IntKind::Int, 1, NARROW_DM))),
                        Fix::default(),
                    )
                } else {
                    Expr::Const(Val::new(
                        IntKind::Int,
                        self.between(0, 3) as i128,
                        NARROW_DM,
                    ))
                };
                args.push(v);
                continue;
            }
            args.push(self.argument(&p.ty)?);
        }
        let dst = match &callee.ret {
            Some(t) if self.chance(0.8) => self.writable_var(t),
            _ => None,
        };
        let call = Stmt::Call { dst, func: g, args };
        if g == me {
            let depth = VarRef::Local(recursive.expect("checked above"));
            let positive = Expr::Binary(
                BinOp::Gt.into(),
                Box::new(Expr::Read(LVal::Var(depth))),
                Box::new(Expr::Const(Val::new(IntKind::Int, 0, NARROW_DM))),
                Fix::default(),
            );
            return Some(Stmt::If(positive, vec![call], None));
        }
        Some(call)
    }

    /// A new read-only `int` local (a loop counter).
    fn counter(&mut self) -> VarRef {
        let func = &mut self.prog.funcs[self.f];
        let i = func.locals.len();
        func.locals.push(Var {
            name: format!("i_{i}"),
            ty: Ty::Int(IntKind::Int),
            is_const: false,
            is_volatile: false,
            owner: None,
            init: Init::Expr(Expr::Const(Val::new(IntKind::Int, 0, NARROW_DM))),
        });
        let v = VarRef::Local(i);
        self.readonly.push(v);
        v
    }

    fn loop_stmt(&mut self) -> Stmt {
        let var = self.counter();
        let kind = self.pick(&[LoopKind::For, LoopKind::While, LoopKind::DoWhile]);
        let trips = if self.chance(0.1) {
            0
        } else {
            self.between(1, 6 + self.cfg.size)
        };
        // Half of the `do` loops keep the counter's value from the top of the last
        // iteration in `prev` and print it after the loop (see `Stmt::Loop::prev`).
        let prev = (kind == LoopKind::DoWhile && self.chance(0.5)).then(|| self.counter());
        self.loop_depth += 1;
        let n = self.block_size();
        let body = self.block(n);
        self.loop_depth -= 1;
        let lp = Stmt::Loop {
            kind,
            var,
            trips,
            prev,
            body,
        };
        match prev {
            Some(p) => Stmt::Block(vec![lp, Stmt::Print(Expr::Read(LVal::Var(p)))]),
            None => lp,
        }
    }

    fn switch(&mut self) -> Stmt {
        let e = self.expr(2);
        let n = 1 + self.below(5);
        let mut values: Vec<i128> = Vec::new();
        if self.chance(0.5) {
            let base = self.between(0, 6) as i128 - 2;
            values.extend((0..n as i128).map(|i| base + i));
        } else {
            while values.len() < n {
                let v = self.between(0, 400) as i128 - 100;
                if !values.contains(&v) {
                    values.push(v);
                }
            }
        }
        let mut cases: Vec<Option<i128>> = values.into_iter().map(Some).collect();
        if self.chance(0.6) {
            let at = self.below(cases.len() + 1);
            cases.insert(at, None);
        }
        self.switch_depth += 1;
        let cases = cases
            .into_iter()
            .map(|value| {
                // An empty case falls through: several switch edges reach one block.
                if self.chance(0.2) {
                    return Case {
                        value,
                        body: Vec::new(),
                        brk: false,
                    };
                }
                let n = 1 + self.below(2);
                Case {
                    value,
                    body: self.block(n),
                    brk: self.chance(0.7),
                }
            })
            .collect();
        self.switch_depth -= 1;
        Stmt::Switch(e, cases)
    }

    /// What `return` gives in the current function.
    pub fn return_value(&mut self) -> Option<Expr> {
        match self.prog.funcs[self.f].ret.clone() {
            None => None,
            Some(Ty::Int(_)) => Some(self.expr(EXPR_DEPTH)),
            Some(Ty::Float(_)) => Some(Expr::Float(Box::new(self.fexpr(EXPR_DEPTH)))),
            Some(t) => self.argument(&t),
        }
    }

    /// `s.f = &g` or `a[i] = p + k`: a pointer stored in an aggregate, always the address
    /// of a global (see `Gen::ptr_members`).
    fn member_pointer_assign(&mut self) -> Option<Stmt> {
        let holders: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| !self.var(v).is_const && self.holds_ptr(&self.var(v).ty))
            .collect();
        if holders.is_empty() {
            return None;
        }
        let v = self.pick(&holders);
        let ty = self.var(v).ty.clone();
        let lv = self.ptr_inside(LVal::Var(v), &ty);
        let pointee = Ty::Int(IntKind::Int);
        let rhs = if self.ptr_arith() && self.chance(0.4) {
            self.ptr_add(&pointee, true)?
        } else {
            self.ptr_value(&pointee, true)?
        };
        Some(Stmt::Assign {
            lv,
            rhs,
            style: AssignStyle::Plain,
        })
    }

    fn pointer_assign(&mut self) -> Option<Stmt> {
        if self.ptr_members() && self.chance(0.3) {
            if let Some(s) = self.member_pointer_assign() {
                return Some(s);
            }
        }
        let ptrs: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| self.var(v).ty.ptr_depth() > 0)
            .collect();
        if ptrs.is_empty() {
            return None;
        }
        let p = self.pick(&ptrs);
        let ty = self.var(p).ty.clone();
        let global = matches!(p, VarRef::Global(_));
        match ty {
            // `*pp = q`: pp points to a local pointer, which may hold any address.
            Ty::Ptr(inner) if inner.ptr_depth() > 0 && self.chance(0.5) => {
                let Ty::Ptr(target) = *inner else {
                    return None;
                };
                // pp may point to a pointer inside an aggregate, which holds globals only.
                let rhs = self.ptr_value(&target, self.ptr_members())?;
                Some(Stmt::Assign {
                    lv: LVal::Deref(Box::new(Expr::Read(LVal::Var(p)))),
                    rhs,
                    style: AssignStyle::Plain,
                })
            }
            // `p++`, `p -= k`, `p = q + k`: the pointer moves inside its object.
            Ty::Ptr(inner)
                if matches!(*inner, Ty::Int(_) | Ty::Float(_))
                    && self.ptr_arith()
                    && self.chance(0.5) =>
            {
                let own = Expr::Read(LVal::Var(p));
                let (rhs, style) = match self.weighted(&[2, 1, 2]) {
                    0 => {
                        let fix = PtrFix::default();
                        fix.sub.set(self.chance(0.3));
                        let rhs = Expr::PtrAdd {
                            base: Box::new(own),
                            off: Box::new(Expr::Const(Val::new(IntKind::Int, 1, NARROW_DM))),
                            fix,
                            bound: false,
                        };
                        (
                            rhs,
                            AssignStyle::IncDec {
                                post: self.chance(0.5),
                            },
                        )
                    }
                    1 => (self.ptr_add_on(own, false), AssignStyle::Compound),
                    _ => (self.ptr_add(&inner, global)?, AssignStyle::Plain),
                };
                Some(Stmt::Assign {
                    lv: LVal::Var(p),
                    rhs,
                    style,
                })
            }
            Ty::Ptr(inner) => {
                let rhs = self.ptr_value(&inner, global)?;
                Some(Stmt::Assign {
                    lv: LVal::Var(p),
                    rhs,
                    style: AssignStyle::Plain,
                })
            }
            _ => None,
        }
    }

    /// `t = a; a = b; b = t;` (or a rotation of three) through a fresh temporary: in a
    /// loop, the phis of `a` and `b` form a cycle that phi elimination must break.
    fn rotation(&mut self) -> Option<Stmt> {
        let k = self.kind();
        let vars: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| {
                let var = self.var(v);
                var.ty == Ty::Int(k)
                    && !var.is_const
                    && !var.is_volatile
                    && !self.readonly.contains(&v)
            })
            .collect();
        if vars.len() < 2 {
            return None;
        }
        let n = if vars.len() >= 3 && self.chance(0.3) {
            3
        } else {
            2
        };
        let mut picked = Vec::new();
        while picked.len() < n {
            let v = self.pick(&vars);
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        let func = &mut self.prog.funcs[self.f];
        let t = VarRef::Local(func.locals.len());
        func.locals.push(Var {
            name: format!("t_{}", func.locals.len()),
            ty: Ty::Int(k),
            is_const: false,
            is_volatile: false,
            owner: None,
            init: Init::Expr(Expr::Const(Val::new(k, 0, NARROW_DM))),
        });
        let copy = |dst: VarRef, src: VarRef| Stmt::Assign {
            lv: LVal::Var(dst),
            rhs: Expr::Read(LVal::Var(src)),
            style: AssignStyle::Plain,
        };
        let mut out = vec![copy(t, picked[0])];
        for w in picked.windows(2) {
            out.push(copy(w[0], w[1]));
        }
        out.push(copy(picked[n - 1], t));
        Some(Stmt::Block(out))
    }

    fn struct_assign(&mut self) -> Option<Stmt> {
        let structs: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| matches!(self.var(v).ty, Ty::Struct(_)) && !self.var(v).is_const)
            .collect();
        if structs.is_empty() {
            return None;
        }
        let d = self.pick(&structs);
        let ty = self.var(d).ty.clone();
        let src = self.argument(&ty)?;
        Some(Stmt::Assign {
            lv: LVal::Var(d),
            rhs: src,
            style: AssignStyle::Plain,
        })
    }
}
