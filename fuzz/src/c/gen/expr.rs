//! Random expressions, lvalues and constants.
//!
//! Why: expressions are where the arithmetic is; they mix every integer kind so that
//! promotions and the usual arithmetic conversions are exercised everywhere. Whether an
//! operation is defined is not decided here: the evaluator rewrites what is not.
//!
//! Invariants:
//! - expressions have no side effects;
//! - a volatile object is read at most once per statement (`Gen::volatile_used`), and
//!   never inside an index (a compound assignment prints its lvalue twice);
//! - addresses are only taken of objects that are not const, volatile, read-only or
//!   bit-fields or members of packed structs, and (for `global_only`) of globals only;
//! - in a global's initializer every index is a constant and only earlier globals are
//!   named (`Gen::globals_only`).

use super::ast::*;
use super::context::{Gen, NARROW_DM};
use super::features::Feature;
use super::types::{IntKind, Ty};
use super::value::{BinOp, Val};

/// What an lvalue is wanted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    Read,
    Write,
}

impl Gen<'_> {
    /// The variables visible here.
    pub fn visible_vars(&self) -> Vec<VarRef> {
        let mut out: Vec<VarRef> = (0..self.prog.globals.len())
            .filter(|&i| {
                let owner = self.prog.globals[i].owner;
                owner.is_none() || (!self.globals_only && owner == Some(self.f))
            })
            .map(VarRef::Global)
            .collect();
        if !self.globals_only {
            let n = self.prog.funcs[self.f]
                .locals
                .len()
                .min(self.visible_locals);
            out.extend((0..n).map(VarRef::Local));
        }
        out
    }

    pub fn var(&self, v: VarRef) -> &Var {
        self.prog.var(self.f, v)
    }

    /// A constant of kind `k` (within 32 bits for `long`, so it fits every data model),
    /// biased toward the values where arithmetic rewrites go wrong: small ones, MIN and
    /// MAX and their neighbours, powers of two and their neighbours (either sign),
    /// negative odd numbers, a small value with the sign bit set, and the top bit of a
    /// narrower width (0x80, 0x8000, either sign, and neighbours).
    pub fn constant(&mut self, k: IntKind) -> Val {
        let (lo, hi) = k.range(NARROW_DM);
        let bits = k.bits(NARROW_DM);
        let v = match self.weighted(&[5, 3, 2, 2, 2, 3, 2, 2, 2, 2]) {
            0 => self.rng_range(-8, 8),
            1 => self.rng_range(0, 255),
            2 => hi - self.rng_range(0, 1),
            3 => lo + self.rng_range(0, 1),
            4 => {
                let sh = self.between(0, bits - 1);
                (1i128 << sh) + self.rng_range(-1, 1)
            }
            5 => self.rng_range(lo, hi),
            6 => {
                let sh = self.between(0, bits - 1);
                -(1i128 << sh) + self.rng_range(-1, 1)
            }
            7 => -(2 * self.rng_range(1, 40) + 1),
            8 => (1i128 << (bits - 1)) | self.rng_range(0, 9),
            _ => {
                let w = if bits > 16 && self.chance(0.5) { 16 } else { 8 };
                let top = 1i128 << (w - 1);
                let top = if self.chance(0.5) { top } else { -top };
                top + self.rng_range(-1, 1)
            }
        };
        Val::new(k, v, NARROW_DM)
    }

    fn rng_range(&mut self, lo: i128, hi: i128) -> i128 {
        use rand::Rng;
        self.rng.gen_range(lo..=hi)
    }

    fn is_readonly(&self, v: VarRef) -> bool {
        self.readonly.contains(&v)
    }

    /// An index into an array of `n` elements: a constant, a loop counter or any
    /// expression (the evaluator guards it when it leaves the bounds).
    pub fn index(&mut self, n: u32) -> Expr {
        let constant = |g: &mut Self| {
            Expr::Const(Val::new(
                IntKind::Int,
                g.below(n as usize) as i128,
                NARROW_DM,
            ))
        };
        if self.globals_only || self.chance(0.4) {
            return constant(self);
        }
        let counters: Vec<VarRef> = self
            .readonly
            .iter()
            .copied()
            .filter(|v| matches!(v, VarRef::Local(i) if *i < self.visible_locals))
            .collect();
        if !counters.is_empty() && self.chance(0.6) {
            let c = self.pick(&counters);
            return Expr::Read(LVal::Var(c));
        }
        // An index inside an index is a constant or a counter: no unbounded nesting.
        if self.in_index > 0 {
            return constant(self);
        }
        let saved = self.volatile_used;
        self.volatile_used = true;
        self.in_index += 1;
        let e = self.expr(1);
        self.in_index -= 1;
        self.volatile_used = saved;
        e
    }

    /// Whether an object of type `ty` holds an integer reachable as `want` wants.
    fn holds_int(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Int(_) => true,
            Ty::Array(t, _) => self.holds_int(t),
            Ty::Struct(id) => self.prog.structs[*id]
                .fields
                .iter()
                .any(|f| self.holds_int(&f.ty)),
            Ty::Ptr(t) => !self.globals_only && self.holds_int(t),
            Ty::Float(_) => false,
        }
    }

    /// Whether an object of type `ty` has a pointer inside it (an element or a field; a
    /// union holds integers only).
    pub fn holds_ptr(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Int(_) | Ty::Ptr(_) | Ty::Float(_) => false,
            Ty::Array(t, _) => matches!(**t, Ty::Ptr(_)) || self.holds_ptr(t),
            Ty::Struct(id) => self.prog.structs[*id]
                .fields
                .iter()
                .any(|f| matches!(f.ty, Ty::Ptr(_)) || self.holds_ptr(&f.ty)),
        }
    }

    /// A pointer lvalue inside `lv` (of a type that `holds_ptr`).
    pub fn ptr_inside(&mut self, lv: LVal, ty: &Ty) -> LVal {
        match ty {
            Ty::Array(t, n) => {
                let i = self.index(*n);
                let el = LVal::Index(Box::new(lv), Box::new(i), Default::default());
                if matches!(**t, Ty::Ptr(_)) {
                    el
                } else {
                    self.ptr_inside(el, t)
                }
            }
            Ty::Struct(id) => {
                let fields = self.prog.structs[*id].fields.clone();
                let ok: Vec<usize> = (0..fields.len())
                    .filter(|&i| {
                        matches!(fields[i].ty, Ty::Ptr(_)) || self.holds_ptr(&fields[i].ty)
                    })
                    .collect();
                let i = self.pick(&ok);
                let f = LVal::Field(Box::new(lv), i);
                if matches!(fields[i].ty, Ty::Ptr(_)) {
                    f
                } else {
                    self.ptr_inside(f, &fields[i].ty)
                }
            }
            _ => lv,
        }
    }

    /// An integer lvalue inside `lv` (of type `ty`).
    fn int_inside(&mut self, lv: LVal, ty: &Ty) -> LVal {
        match ty {
            // `holds_int` keeps floats out: never reached.
            Ty::Int(_) | Ty::Float(_) => lv,
            Ty::Array(t, n) => {
                let i = self.index(*n);
                self.int_inside(
                    LVal::Index(Box::new(lv), Box::new(i), Default::default()),
                    t,
                )
            }
            Ty::Struct(id) if self.prog.structs[*id].union => {
                let fields = &self.prog.structs[*id].fields;
                let ints: Vec<usize> = (0..fields.len())
                    .filter(|&i| fields[i].ty.int().is_some())
                    .collect();
                let i = self.pick(&ints);
                LVal::Member(Box::new(lv), i.into())
            }
            Ty::Struct(id) => {
                let fields = self.prog.structs[*id].fields.clone();
                let ok: Vec<usize> = (0..fields.len())
                    .filter(|&i| self.holds_int(&fields[i].ty))
                    .collect();
                let i = self.pick(&ok);
                self.int_inside(LVal::Field(Box::new(lv), i), &fields[i].ty)
            }
            Ty::Ptr(t) => {
                let t = (**t).clone();
                self.int_inside(LVal::Deref(Box::new(Expr::Read(lv))), &t)
            }
        }
    }

    /// An integer lvalue to read or write, if any variable offers one.
    pub fn int_lval(&mut self, want: Want) -> Option<LVal> {
        let vars: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| {
                let var = self.var(v);
                self.holds_int(&var.ty)
                    && match want {
                        Want::Read => !(var.is_volatile && self.volatile_used),
                        Want::Write => !var.is_const && !self.is_readonly(v),
                    }
            })
            .collect();
        // `*(p + k)`: an element reached by pointer arithmetic.
        if self.ptr_arith() && !self.globals_only && self.chance(0.08) {
            let k = self.kind();
            if let Some(p) = self.ptr_add(&Ty::Int(k), false) {
                return Some(LVal::Deref(Box::new(p)));
            }
        }
        if vars.is_empty() {
            return None;
        }
        let v = self.pick(&vars);
        let var = self.var(v).clone();
        if want == Want::Read && var.is_volatile {
            self.volatile_used = true;
        }
        Some(self.int_inside(LVal::Var(v), &var.ty))
    }

    /// A leaf: a constant or a read.
    fn leaf(&mut self) -> Expr {
        if !self.chance(0.3) {
            if let Some(lv) = self.int_lval(Want::Read) {
                return Expr::Read(lv);
            }
        }
        let k = self.kind();
        Expr::Const(self.constant(k))
    }

    /// The binary operators the features allow.
    fn binary_ops(&self) -> Vec<BinOp> {
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
        if self.has(Feature::Compare) {
            ops.extend([
                BinOp::Lt,
                BinOp::Le,
                BinOp::Gt,
                BinOp::Ge,
                BinOp::Eq,
                BinOp::Ne,
            ]);
        }
        ops
    }

    /// The right operand of `op`: shift counts are mostly constants, half of them at the
    /// edges of a width (0, 1, 7, 8, 15, 16, 31); divisors are often constants, small or
    /// interesting (powers of two, -1, MIN, MAX...: the evaluator rewrites the undefined
    /// ones); comparisons often meet an interesting constant.
    pub fn right_operand(&mut self, op: BinOp, depth: u32) -> Expr {
        if op.is_shift() && self.chance(0.7) {
            let n = if self.chance(0.5) {
                self.pick(&[0u32, 1, 7, 8, 15, 16, 31])
            } else {
                self.between(0, 31)
            } as i128;
            return Expr::Const(Val::new(IntKind::Int, n, NARROW_DM));
        }
        if matches!(op, BinOp::Div | BinOp::Mod) && self.chance(0.6) {
            if self.chance(0.4) {
                let n = self.between(1, 20) as i128;
                return Expr::Const(Val::new(IntKind::Int, n, NARROW_DM));
            }
            let k = self.kind();
            return Expr::Const(self.constant(k));
        }
        if op.is_comparison() && self.chance(0.4) {
            let k = self.kind();
            return Expr::Const(self.constant(k));
        }
        self.expr(depth)
    }

    /// An integer expression of nesting depth at most `depth`.
    pub fn expr(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.chance(0.2) {
            return self.leaf();
        }
        let d = depth - 1;
        let ptr_eq = self.has(Feature::Pointers) && !self.globals_only;
        let ptr_rel = self.ptr_arith() && !self.globals_only;
        let w = [
            12,
            2 + 2 * self.has(Feature::Bitwise) as u32,
            3 * self.has(Feature::Casts) as u32,
            2 * self.has(Feature::Logical) as u32,
            2 * self.has(Feature::Ternary) as u32,
            self.has(Feature::Comma) as u32,
            ptr_eq as u32,
            ptr_rel as u32,
            2 * (self.floats() && !self.globals_only) as u32,
        ];
        match self.weighted(&w) {
            0 => {
                let ops = self.binary_ops();
                let op = self.pick(&ops);
                // A pointer difference as a dividend, at its own width (a lowering that
                // divides the byte difference unsigned shows here).
                let diff = matches!(op, BinOp::Div | BinOp::Mod) && ptr_rel && self.chance(0.3);
                let a = match diff.then(|| self.pointer_difference()).flatten() {
                    Some(p) => p,
                    None => self.expr(d),
                };
                let b = self.right_operand(op, d);
                Expr::Binary(op.into(), Box::new(a), Box::new(b), Fix::default())
            }
            1 => {
                let mut ops = vec![UnOp::Neg];
                if self.has(Feature::Bitwise) {
                    ops.push(UnOp::BitNot);
                }
                if self.has(Feature::Logical) {
                    ops.push(UnOp::Not);
                }
                let op = self.pick(&ops);
                Expr::Unary(op, Box::new(self.expr(d)), Fix::default())
            }
            2 => {
                let k = self.kind();
                Expr::Cast(k, Box::new(self.expr(d)))
            }
            3 => {
                let and = self.chance(0.5);
                Expr::Logic(and, Box::new(self.expr(d)), Box::new(self.expr(d)))
            }
            4 => {
                let c = self.expr(d);
                let a = self.expr(d);
                let b = self.expr(d);
                Expr::Cond(Box::new(c), Box::new(a), Box::new(b))
            }
            5 => {
                let a = self.expr(d);
                let b = self.expr(d);
                Expr::Comma(Box::new(a), Box::new(b))
            }
            6 => self.pointer_comparison().unwrap_or_else(|| self.leaf()),
            7 => self.pointer_relation().unwrap_or_else(|| self.leaf()),
            _ => self.float_int_expr(d + 1),
        }
    }

    /// `base + k` or `base - k` (an element of the object `base` points into, or one
    /// past its end when `bound`); the offset is a small constant, a loop counter or any
    /// expression, and the evaluator keeps the result inside the object.
    pub fn ptr_add_on(&mut self, base: Expr, bound: bool) -> Expr {
        let off = if self.chance(0.5) {
            Expr::Const(Val::new(IntKind::Int, self.rng_range(-1, 2), NARROW_DM))
        } else {
            self.index(4)
        };
        let fix = PtrFix::default();
        fix.sub.set(self.chance(0.3));
        Expr::PtrAdd {
            base: Box::new(base),
            off: Box::new(off),
            fix,
            bound,
        }
    }

    /// `P + k` for a pointer `P` to an object of type `pointee` (a pointer variable or
    /// an address, of a global when `global_only`): a dereferenceable element.
    pub fn ptr_add(&mut self, pointee: &Ty, global_only: bool) -> Option<Expr> {
        let base = self.ptr_value(pointee, global_only)?;
        Some(self.ptr_add_on(base, false))
    }

    /// `(P + j) - (P + k)` for one pointer expression `P` (a `ptrdiff_t`) to an integer
    /// or a float.
    fn pointer_difference(&mut self) -> Option<Expr> {
        let pointee = self.pointee();
        let base = self.ptr_value(&pointee, false)?;
        let a = self.ptr_add_on(base.clone(), true);
        let b = self.ptr_add_on(base, true);
        Some(Expr::PtrDiff(Box::new(a), Box::new(b)))
    }

    /// `(P + j) < (P + k)` (`<= > >=`) or `(P + j) - (P + k)` for one pointer
    /// expression `P`, so both operands point into the same object (one past its end
    /// allowed).
    fn pointer_relation(&mut self) -> Option<Expr> {
        let pointee = self.pointee();
        let base = self.ptr_value(&pointee, false)?;
        let a = self.ptr_add_on(base.clone(), true);
        let b = self.ptr_add_on(base, true);
        if self.chance(0.3) {
            return Some(Expr::PtrDiff(Box::new(a), Box::new(b)));
        }
        let op = self.pick(&[BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge]);
        Some(Expr::PtrCmp(op, Box::new(a), Box::new(b)))
    }

    /// `p == q` or `p != q` for a visible pointer `p`.
    fn pointer_comparison(&mut self) -> Option<Expr> {
        let ptrs: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| self.var(v).ty.ptr_depth() == 1)
            .collect();
        if ptrs.is_empty() {
            return None;
        }
        let p = self.pick(&ptrs);
        let pointee = match &self.var(p).ty {
            Ty::Ptr(t) => (**t).clone(),
            _ => return None,
        };
        let q = self.ptr_value(&pointee, false)?;
        let eq = self.chance(0.5);
        Some(Expr::PtrEq(
            eq,
            Box::new(Expr::Read(LVal::Var(p))),
            Box::new(q),
        ))
    }

    /// Whether `ty` holds an addressable object of type `pointee`.
    fn holds(&self, ty: &Ty, pointee: &Ty) -> bool {
        ty == pointee
            || match ty {
                Ty::Array(t, _) => self.holds(t, pointee),
                // A member of a packed struct may be misaligned: its address is never taken;
                // nor is a union member's (the evaluator tracks a union's last write).
                Ty::Struct(id) => {
                    let s = &self.prog.structs[*id];
                    !s.packed
                        && !s.union
                        && s.fields
                            .iter()
                            .any(|f| f.bits.is_none() && self.holds(&f.ty, pointee))
                }
                _ => false,
            }
    }

    fn object_inside(&mut self, lv: LVal, ty: &Ty, pointee: &Ty) -> LVal {
        if ty == pointee {
            return lv;
        }
        match ty {
            Ty::Array(t, n) => {
                let i = self.index(*n);
                self.object_inside(
                    LVal::Index(Box::new(lv), Box::new(i), Default::default()),
                    t,
                    pointee,
                )
            }
            Ty::Struct(id) => {
                let fields = self.prog.structs[*id].fields.clone();
                let ok: Vec<usize> = (0..fields.len())
                    .filter(|&i| fields[i].bits.is_none() && self.holds(&fields[i].ty, pointee))
                    .collect();
                let i = self.pick(&ok);
                self.object_inside(LVal::Field(Box::new(lv), i), &fields[i].ty, pointee)
            }
            _ => lv,
        }
    }

    /// A pointer to an object of type `pointee`: a copy of a pointer variable or the
    /// address of an object (of a global when `global_only`; a pointer to pointer only
    /// ever points to a local pointer).
    pub fn ptr_value(&mut self, pointee: &Ty, global_only: bool) -> Option<Expr> {
        let want = Ty::Ptr(Box::new(pointee.clone()));
        let mut copies = Vec::new();
        let mut objects = Vec::new();
        for v in self.visible_vars() {
            let var = self.var(v);
            let global = matches!(v, VarRef::Global(_));
            if global_only && !global {
                continue;
            }
            if var.ty == want && !self.globals_only {
                copies.push(v);
            }
            let addressable = !var.is_const && !var.is_volatile && !self.is_readonly(v);
            let pointer_pointee = matches!(pointee, Ty::Ptr(_));
            if addressable && (!pointer_pointee || !global) && self.holds(&var.ty, pointee) {
                objects.push(v);
            }
        }
        // A pointer stored in an aggregate holds a global's address: a copy of it suits
        // every pointer (not in a constant initializer).
        if !self.globals_only
            && self.ptr_members()
            && want == Self::member_ptr_ty()
            && self.chance(0.2)
        {
            let holders: Vec<VarRef> = self
                .visible_vars()
                .into_iter()
                .filter(|&v| self.holds_ptr(&self.var(v).ty))
                .collect();
            if !holders.is_empty() {
                let v = self.pick(&holders);
                let ty = self.var(v).ty.clone();
                return Some(Expr::Read(self.ptr_inside(LVal::Var(v), &ty)));
            }
        }
        if !copies.is_empty() && (objects.is_empty() || self.chance(0.3)) {
            let v = self.pick(&copies);
            return Some(Expr::Read(LVal::Var(v)));
        }
        if objects.is_empty() {
            return None;
        }
        let v = self.pick(&objects);
        let ty = self.var(v).ty.clone();
        Some(Expr::AddrOf(self.object_inside(LVal::Var(v), &ty, pointee)))
    }
}
