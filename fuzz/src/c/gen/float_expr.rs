//! Random float expressions, float statements and float objects (feature `floats`).
//!
//! Why: floats reach phicc's float lowering (arithmetic in each kind, `float`↔`double`,
//! conversions to and from every integer kind, the ordered and unordered comparisons),
//! its constant folding and the backends' float registers and ABIs. The values are biased
//! toward the ones where those go wrong: ±0, subnormals, the largest finite value, the
//! smallest normal one, 1 and its neighbours, powers of two, values at the integer limits
//! (2^31, 2^63, 2^32 and the floats next to them), halves, and arbitrary mantissas; an
//! infinity and a NaN come from arithmetic (overflow, division by zero, `inf - inf`).
//!
//! Invariants:
//! - float objects are globals and locals, arrays of floats, fields of structs (never of
//!   a packed struct or a bit-field), members of unions, parameters and results of every
//!   function but `funcs[0]`; never const or volatile; structs and unions with floats
//!   inside are passed and returned by value like any other (`globals.rs` makes some in
//!   the shapes the float record ABIs treat apart: HFAs, float+integer pairs, records of
//!   more than 16 bytes);
//! - a float object's address is taken like an integer's (`float *`/`double *` locals,
//!   globals and parameters, `*p`, `*(p + k)`, `p++`, relations and differences of
//!   pointers into one float array), but never a union member's;
//! - a union's float member is written only by a plain assignment (never `op=`), whose
//!   NaN is rewritten to 0 (`Stmt::FAssign::nan_guard`), and read only through
//!   [`FExpr::Member`] (see there and `ast.rs` for why every union read is defined);
//! - a global's initializer is a constant expression whose value (computed here) is
//!   finite, so both compilers accept it as a static initializer;
//! - a float meets an integer only through an explicit conversion (`FExpr::FromInt`,
//!   `Expr::FToInt`) or a comparison (`Expr::FCmp`): no implicit float→integer
//!   conversion, which could be undefined unseen.

use super::ast::*;
use super::context::Gen;
use super::expr::Want;
use super::features::Feature;
use super::float::{self, FKind, FOp, FVal};
use super::types::Ty;
use super::value::BinOp;
use rand::Rng;

/// The comparison operators (`!=` and `==` twice: with a NaN they are the ones that
/// differ, `!=` being the unordered one).
const COMPARISONS: [BinOp; 8] = [
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Eq,
    BinOp::Ne,
];

impl Gen<'_> {
    /// Floats are on in this program.
    pub fn floats(&self) -> bool {
        self.has(Feature::Floats)
    }

    /// `float` or `double`.
    pub fn fkind(&mut self) -> FKind {
        if self.chance(0.5) {
            FKind::Float
        } else {
            FKind::Double
        }
    }

    /// A finite constant of kind `k`, biased toward the values where float code goes wrong.
    pub fn fconstant(&mut self, k: FKind) -> FVal {
        let single = k == FKind::Float;
        let (max, min_normal, min_sub, mant_bits) = if single {
            (
                f32::MAX as f64,
                f32::MIN_POSITIVE as f64,
                2f64.powi(-149),
                23,
            )
        } else {
            (f64::MAX, f64::MIN_POSITIVE, 2f64.powi(-1074), 52)
        };
        let v: f64 = match self.weighted(&[4, 3, 3, 2, 2, 2, 3, 2, 4, 3]) {
            0 => self.rng.gen_range(-8i32..=8) as f64,
            1 => self.pick(&[0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 0.25]),
            2 => {
                let e = self.rng.gen_range(-30i32..=66);
                let p = 2f64.powi(e);
                if self.chance(0.3) {
                    -p
                } else {
                    p
                }
            }
            // 1 and its neighbours: one ulp above and below.
            3 => {
                let one = FVal::from_f64(k, 1.0);
                let step = self.pick(&[1i64, -1]);
                let bits = if step > 0 { one.bits + 1 } else { one.bits - 1 };
                FVal { kind: k, bits }.f64()
            }
            4 => self.pick(&[max, -max, min_normal, -min_normal, min_sub, -min_sub]),
            // The largest subnormal, and the smallest normal's neighbours.
            5 => {
                let below = min_normal - min_sub;
                self.pick(&[below, -below, min_normal + min_sub])
            }
            // At the integer limits and next to them (in this kind's precision).
            6 => {
                let e = self.pick(&[7, 8, 15, 16, 24, 31, 32, 53, 63, 64]);
                let p = 2f64.powi(e);
                let ulp = 2f64.powi(e - mant_bits - 1);
                let x = match self.below(4) {
                    0 => p,
                    1 => p - ulp,
                    2 => p + 2.0 * ulp,
                    _ => p - 0.5,
                };
                if self.chance(0.3) {
                    -x
                } else {
                    x
                }
            }
            // A small value with an arbitrary mantissa.
            7 => self.rng.gen_range(-100.0..100.0),
            // An arbitrary mantissa at an arbitrary exponent.
            8 => {
                let frac: f64 = self.rng.gen_range(1.0..2.0);
                let e = self.rng.gen_range(-40i32..=70);
                let x = frac * 2f64.powi(e);
                if self.chance(0.4) {
                    -x
                } else {
                    x
                }
            }
            // Decimal fractions that no binary float holds.
            _ => self.pick(&[0.1, 0.2, 0.3, -0.1, 1.1, 3.3, 1e10, 1e-10, 123456.789]),
        };
        let c = FVal::from_f64(k, v);
        if c.f64().is_finite() {
            c
        } else {
            FVal::from_f64(k, 1.0)
        }
    }

    /// Whether an object of type `ty` holds a float (an element, a field or a union
    /// member).
    pub fn holds_float(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Float(_) => true,
            Ty::Array(t, _) => self.holds_float(t),
            Ty::Struct(id) => self.prog.structs[*id]
                .fields
                .iter()
                .any(|f| self.holds_float(&f.ty)),
            Ty::Int(_) | Ty::Ptr(_) => false,
        }
    }

    /// A float lvalue inside `lv` (of a type that `holds_float`).
    fn float_inside(&mut self, lv: LVal, ty: &Ty) -> LVal {
        match ty {
            Ty::Array(t, n) => {
                let i = self.index(*n);
                let t = (**t).clone();
                self.float_inside(
                    LVal::Index(Box::new(lv), Box::new(i), Default::default()),
                    &t,
                )
            }
            Ty::Struct(id) => {
                let fields = self.prog.structs[*id].fields.clone();
                let ok: Vec<usize> = (0..fields.len())
                    .filter(|&i| self.holds_float(&fields[i].ty))
                    .collect();
                let i = self.pick(&ok);
                if self.prog.structs[*id].union {
                    // Union members are scalars: the member is the float.
                    return LVal::Member(Box::new(lv), i.into());
                }
                self.float_inside(LVal::Field(Box::new(lv), i), &fields[i].ty)
            }
            _ => lv,
        }
    }

    /// The read of the float lvalue `lv`: a union member is read through
    /// [`FExpr::Member`] (the evaluator checks the union's last write).
    pub fn fread(lv: LVal) -> FExpr {
        match lv {
            LVal::Member(u, m) => FExpr::Member(u, m.get(), Default::default()),
            lv => FExpr::Read(lv),
        }
    }

    /// A float lvalue to read or write (not in a const object), if any variable offers
    /// one: inside a variable, or through a pointer to a float (`*p`, `*(p + k)`).
    pub fn float_lval(&mut self, want: Want) -> Option<LVal> {
        if !self.globals_only && self.chance(0.15) {
            if let Some(lv) = self.float_deref() {
                return Some(lv);
            }
        }
        let vars: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| {
                let var = self.var(v);
                self.holds_float(&var.ty) && (want == Want::Read || !var.is_const)
            })
            .collect();
        if vars.is_empty() {
            return None;
        }
        let v = self.pick(&vars);
        let ty = self.var(v).ty.clone();
        Some(self.float_inside(LVal::Var(v), &ty))
    }

    /// `*p` for a visible pointer to a float, or `*(P + k)` (pointer arithmetic inside
    /// the float object or array `P` points into), if there is one.
    fn float_deref(&mut self) -> Option<LVal> {
        if self.ptr_arith() && self.chance(0.4) {
            let k = self.fkind();
            if let Some(p) = self.ptr_add(&Ty::Float(k), false) {
                return Some(LVal::Deref(Box::new(p)));
            }
        }
        let ptrs: Vec<VarRef> = self
            .visible_vars()
            .into_iter()
            .filter(|&v| matches!(&self.var(v).ty, Ty::Ptr(t) if matches!(**t, Ty::Float(_))))
            .collect();
        if ptrs.is_empty() {
            return None;
        }
        let p = self.pick(&ptrs);
        Some(LVal::Deref(Box::new(Expr::Read(LVal::Var(p)))))
    }

    fn fleaf(&mut self) -> FExpr {
        if self.chance(0.06) {
            return self.special_value();
        }
        if !self.globals_only && !self.chance(0.35) {
            if let Some(lv) = self.float_lval(Want::Read) {
                return Self::fread(lv);
            }
        }
        let k = self.fkind();
        FExpr::Const(self.fconstant(k))
    }

    /// An expression whose value is a NaN (`0.0 / 0.0`), an infinity (`1.0 / 0.0`, of
    /// either sign) or an infinity reached by overflow (`MAX * 2`).
    fn special_value(&mut self) -> FExpr {
        let k = self.fkind();
        let c = |x: f64| Box::new(FExpr::Const(FVal::from_f64(k, x)));
        let max = match k {
            FKind::Float => f32::MAX as f64,
            FKind::Double => f64::MAX,
        };
        match self.below(4) {
            0 | 1 => FExpr::Arith(FOp::Div, c(0.0), c(0.0)),
            2 => FExpr::Arith(FOp::Div, c(self.pick(&[1.0, -1.0])), c(0.0)),
            _ => FExpr::Arith(FOp::Mul, c(max), c(2.0)),
        }
    }

    /// An integer operand for a conversion to a float: often a read of an integer object
    /// (a value the optimizer may know only after mem2reg and propagation), else any
    /// integer expression.
    fn int_to_convert(&mut self, depth: u32) -> Expr {
        if self.chance(0.5) {
            if let Some(lv) = self.int_lval(Want::Read) {
                return Expr::Read(lv);
            }
        }
        self.expr(depth)
    }

    /// A float expression of nesting depth at most `depth`.
    pub fn fexpr(&mut self, depth: u32) -> FExpr {
        if depth == 0 || self.chance(0.2) {
            return self.fleaf();
        }
        let d = depth - 1;
        let w = [
            12,
            2,
            2 * self.has(Feature::Casts) as u32 + 1,
            4,
            2 * self.has(Feature::Ternary) as u32,
        ];
        match self.weighted(&w) {
            0 => {
                let op = self.pick(&FOp::ALL);
                let a = self.fexpr(d);
                // A divisor is often a constant (zero among them: an infinity or a NaN).
                let b = if op == FOp::Div && self.chance(0.4) {
                    let k = self.fkind();
                    if self.chance(0.2) {
                        FExpr::Const(FVal::from_f64(k, 0.0))
                    } else {
                        FExpr::Const(self.fconstant(k))
                    }
                } else {
                    self.fexpr(d)
                };
                FExpr::Arith(op, Box::new(a), Box::new(b))
            }
            1 => FExpr::Neg(Box::new(self.fexpr(d))),
            2 => {
                let k = self.fkind();
                FExpr::Conv(k, Box::new(self.fexpr(d)))
            }
            3 => {
                let k = self.fkind();
                FExpr::FromInt(k, Box::new(self.int_to_convert(d)))
            }
            _ => {
                let c = self.expr(d);
                FExpr::Cond(
                    Box::new(c),
                    Box::new(self.fexpr(d)),
                    Box::new(self.fexpr(d)),
                )
            }
        }
    }

    /// An integer expression computed from floats: a comparison or a conversion.
    pub fn float_int_expr(&mut self, depth: u32) -> Expr {
        let d = depth.saturating_sub(1);
        if self.chance(0.5) {
            let op = self.pick(&COMPARISONS);
            let a = self.fexpr(d);
            // `x != x` and `x == x`: NaN tests as programs write them.
            let b = if self.chance(0.2) {
                a.clone()
            } else {
                self.fexpr(d)
            };
            Expr::FCmp(op, Box::new(a), Box::new(b))
        } else {
            let k = self.kind();
            Expr::FToInt(k, Box::new(self.fexpr(d)), Default::default())
        }
    }

    /// A constant initializer of kind `k` for a global: a constant or a chain of two or
    /// three constants (`a op b op c`, each operation in `k`, a constant expression the
    /// front end folds), finite.
    pub fn float_global_init(&mut self, k: FKind) -> Init {
        let first = FExpr::Const(self.fconstant(k));
        if self.chance(0.4) {
            return Init::Float(first);
        }
        let mut e = first.clone();
        let mut value = self.fconstant_value(&e);
        for _ in 0..self.between(1, 2) {
            let op = self.pick(&FOp::ALL);
            let c = self.fconstant(k);
            let next = float::arith(op, value, c);
            if !next.f64().is_finite() {
                break;
            }
            value = next;
            e = FExpr::Arith(op, Box::new(e), Box::new(FExpr::Const(c)));
        }
        Init::Float(e)
    }

    fn fconstant_value(&self, e: &FExpr) -> FVal {
        match e {
            FExpr::Const(v) => *v,
            _ => FVal::from_f64(FKind::Double, 0.0),
        }
    }

    /// The initializer of a float local of kind `k`: often `(k)(l_i)` of an earlier
    /// integer local (whose value, often an interesting constant, the optimizer knows
    /// after mem2reg: the conversion is then folded), else any float expression.
    pub fn float_local_init(&mut self, k: FKind) -> FExpr {
        let ints: Vec<VarRef> = (0..self.prog.funcs[self.f]
            .locals
            .len()
            .min(self.visible_locals))
            .map(VarRef::Local)
            .filter(|&v| matches!(self.var(v).ty, Ty::Int(_)) && !self.var(v).is_volatile)
            .collect();
        if !ints.is_empty() && self.chance(0.4) {
            let v = self.pick(&ints);
            return FExpr::FromInt(k, Box::new(Expr::Read(LVal::Var(v))));
        }
        self.fexpr(2)
    }

    /// A float statement: an assignment (plain or compound) to a float variable, or a
    /// print of a float's bits.
    pub fn float_stmt(&mut self) -> Option<Stmt> {
        if self.has(Feature::Print) && self.chance(0.2) {
            return Some(Stmt::FPrint(self.fexpr(2)));
        }
        let lv = self.float_lval(Want::Write)?;
        let member = matches!(lv, LVal::Member(..));
        let op = if !member && self.has(Feature::Compound) && self.chance(0.35) {
            Some(self.pick(&FOp::ALL))
        } else {
            None
        };
        let rhs = self.fexpr(if op.is_some() { 1 } else { 3 });
        Some(Stmt::FAssign {
            lv,
            op,
            rhs,
            nan_guard: Default::default(),
        })
    }
}
