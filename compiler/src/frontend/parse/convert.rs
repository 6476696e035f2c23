//! Conversions and type rules of C99 6.3 and 6.5.16.1: lvalue conversion with array and
//! function decay, integer promotions (with gcc's bit-field rule), the usual arithmetic
//! conversions with the target's sizes, null pointer constants, assignment conversions
//! with gcc's diagnostics, and lvalue checks.
//!
//! Why it exists: every operator in `expr.rs` and every assignment-like context
//! (initializers, arguments, `return`) must apply the same rules, and the AST contract
//! wants each implicit conversion as an explicit node. Invariants kept here:
//! - `rvalue` is the only place that builds `Decay`, and only over lvalues or `Func`.
//! - `cast_to` inserts a `Cast` exactly when the unqualified types differ.
//! - The promoted / converted types are computed with `Target`'s sizes, never a host's.

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::{FloatKind, IntKind, QualType, Type};
use std::rc::Rc;

/// Which assignment-like context a conversion happens in (it decides gcc's wording).
#[derive(Clone, Debug)]
pub(crate) enum AssignCtx {
    /// `=` at this operator (gcc puts the warnings there).
    Assign(Loc),
    Init,
    Return,
    /// Argument number (1-based) and the called function's name, if direct.
    Arg(usize, Option<String>),
}

/// Is the expression an lvalue kind (C99 6.3.2.1, as the AST contract lists them)?
pub(crate) fn is_lvalue(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::Deref(_)
        | ExprKind::Str(_)
        | ExprKind::CompoundLiteral(..) => true,
        ExprKind::Member { base, .. } => is_lvalue(base),
        _ => false,
    }
}

/// Wraps `e` in a `Cast` to `ty` when its unqualified type differs.
pub(crate) fn cast_to(e: Expr, ty: &Type) -> Expr {
    if &e.ty.ty == ty {
        e
    } else {
        let loc = e.loc;
        Expr::new(ExprKind::Cast(Box::new(e)), ty.clone(), loc)
    }
}

impl Parser<'_> {
    /// `ptrdiff_t` of the target (also the type of `PtrAdd` indices).
    pub(crate) fn ptrdiff_type(&self) -> Type {
        Type::Int(if self.target.is_lp64() {
            IntKind::Long
        } else {
            IntKind::Int
        })
    }

    /// `size_t` of the target.
    pub(crate) fn size_type(&self) -> Type {
        Type::Int(if self.target.is_lp64() {
            IntKind::ULong
        } else {
            IntKind::UInt
        })
    }

    /// Lvalue conversion (C99 6.3.2.1): an array becomes a pointer to its first element,
    /// a function designator a pointer to the function (`Decay`); `*fp` of function
    /// type is `fp` itself. Other expressions are returned as they are (the lowering
    /// loads lvalues used as values).
    pub(crate) fn rvalue(&self, e: Expr) -> Expr {
        match &e.ty.ty {
            Type::Array(elem, _) => {
                let ptr = Type::Pointer(elem.clone());
                let loc = e.loc;
                if is_lvalue(&e) {
                    Expr::new(ExprKind::Decay(Box::new(e)), ptr, loc)
                } else {
                    // An array member of an rvalue record: no object to point at in C99
                    // terms; decaying its address is what gcc does.
                    Expr::new(ExprKind::Decay(Box::new(e)), ptr, loc)
                }
            }
            Type::Function(_) => {
                let ptr = Type::Pointer(Rc::new(QualType::new(e.ty.ty.clone())));
                let loc = e.loc;
                match e.kind {
                    ExprKind::Deref(inner) => *inner,
                    kind => Expr::new(
                        ExprKind::Decay(Box::new(Expr {
                            kind,
                            ty: e.ty,
                            loc,
                            wide_bitfield_type: e.wide_bitfield_type,
                        })),
                        ptr,
                        loc,
                    ),
                }
            }
            _ => e,
        }
    }

    /// The bit-field placement of a `Member` expression, if it designates a bit-field.
    pub(crate) fn bitfield_width(&self, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Member { record, field, .. } => self
                .records
                .records
                .get(record.0 as usize)
                .and_then(|r| r.fields.get(*field))
                .and_then(|f| f.bitfield)
                .map(|b| b.width),
            _ => None,
        }
    }

    /// The bit-field width of the *value* of `e`: a bit-field member read, or an
    /// expression whose value is one with the member's type, as gcc types them — the right
    /// operand of a comma, an assignment or compound assignment to a bit-field, `++`/`--`
    /// of one (`x < (0, s.f)` with `unsigned f : 28` compares as `int` in gcc). Only the
    /// promotions use it: `sizeof (0, s.f)` is not `sizeof` of a bit-field.
    pub(crate) fn value_bitfield_width(&self, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Comma(_, value) => self.value_bitfield_width(value),
            ExprKind::Assign(lhs, _) | ExprKind::CompoundAssign { lhs, .. } => {
                self.value_bitfield_width(lhs)
            }
            ExprKind::IncDec { operand, .. } => self.value_bitfield_width(operand),
            _ => self.bitfield_width(e),
        }
    }

    /// The type `sizeof` and `__alignof__` see for the expression `e`: its own, except
    /// for a value that is a bit-field's (a comma's right operand, an assignment, compound
    /// assignment or `++`/`--` of one), which gcc types as the smallest integer mode
    /// holding the width — 1, 2, 4 or 8 bytes, whatever the declared type
    /// (`sizeof (0, s.i3)` is 1 for `int i3 : 3`); checked against gcc on all four targets
    /// by `corpus/c/bitfield_value_types.c`.
    pub(crate) fn sizeof_operand_type(&self, e: &Expr) -> Type {
        match self.value_bitfield_width(e) {
            Some(width) if e.ty.ty.is_integer() => Type::Int(match width {
                0..=8 => IntKind::UChar,
                9..=16 => IntKind::UShort,
                17..=32 => IntKind::UInt,
                _ => IntKind::ULongLong,
            }),
            _ => e.ty.ty.clone(),
        }
    }

    /// The type the integer promotions give `e` (C99 6.3.1.1p2), with gcc's bit-field
    /// rule: a bit-field narrower than `int` promotes to `int`; one exactly as wide as
    /// `int` keeps a declared type of that width (`unsigned long : 32` on i686 stays
    /// `unsigned long`, as gcc's `_Generic` shows) and otherwise becomes `int` or
    /// `unsigned int` by its signedness; a wider one keeps its type (gcc gives it a
    /// type of exactly its width instead, which phicc lacks).
    /// Non-integer types are returned unchanged.
    pub(crate) fn promoted_type(&self, e: &Expr) -> Type {
        let ty = &e.ty.ty;
        if let Some(width) = self.value_bitfield_width(e) {
            if ty.is_integer() {
                let int_bits = 8 * self.target.sizeof_int();
                if width < int_bits {
                    return Type::int();
                }
                if width == int_bits {
                    if let Type::Int(k) = ty {
                        if k.size(self.target) * 8 == u64::from(width) {
                            return ty.clone();
                        }
                    }
                    return if ty.is_signed(self.target) {
                        Type::int()
                    } else {
                        Type::Int(IntKind::UInt)
                    };
                }
                return ty.clone();
            }
        }
        promote_type(ty)
    }

    /// Applies the integer promotions (a `Cast` when the type changes).
    pub(crate) fn promote(&self, e: Expr) -> Expr {
        let ty = self.promoted_type(&e);
        cast_to(e, &ty)
    }

    /// The usual arithmetic conversions (C99 6.3.1.8) of two arithmetic types, given
    /// their promoted types.
    pub(crate) fn common_arith_type(&self, a: &Type, b: &Type) -> Type {
        match (a, b) {
            (Type::Float(x), Type::Float(y)) => Type::Float(float_max(*x, *y)),
            (Type::Float(_), _) => a.clone(),
            (_, Type::Float(_)) => b.clone(),
            (Type::Int(x), Type::Int(y)) => Type::Int(self.common_int_kind(*x, *y)),
            _ => Type::int(),
        }
    }

    fn common_int_kind(&self, x: IntKind, y: IntKind) -> IntKind {
        if x == y {
            return x;
        }
        let t = self.target;
        let (sx, sy) = (x.is_signed(t), y.is_signed(t));
        if sx == sy {
            return if x.rank() >= y.rank() { x } else { y };
        }
        let (u, s) = if sx { (y, x) } else { (x, y) };
        if u.rank() >= s.rank() {
            u
        } else if s.size(t) > u.size(t) {
            s
        } else {
            s.to_unsigned()
        }
    }

    /// The default argument promotions (C99 6.5.2.2p6): integer promotions and
    /// `float` to `double`.
    pub(crate) fn default_arg_promote(&self, e: Expr) -> Expr {
        let e = self.rvalue(e);
        if e.ty.ty == Type::Float(FloatKind::Float) {
            cast_to(e, &Type::Float(FloatKind::Double))
        } else {
            self.promote(e)
        }
    }

    /// Is `e` a null pointer constant: an integer constant expression with value 0, or
    /// one cast to `void *` (C99 6.3.2.3p3)?
    pub(crate) fn is_null_pointer_constant(&self, e: &Expr) -> bool {
        match &e.ty.ty {
            Type::Int(_) | Type::Bool => {
                matches!(self.eval_int_const(e), Some(0))
            }
            Type::Pointer(p) if p.ty == Type::Void && !p.is_const && !p.is_volatile => {
                match &e.kind {
                    ExprKind::Cast(inner) => {
                        inner.ty.ty.is_integer() && matches!(self.eval_int_const(inner), Some(0))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Are two types compatible (C99 6.2.7), ignoring top-level qualifiers?
    pub(crate) fn compatible(&self, a: &Type, b: &Type) -> bool {
        match (a, b) {
            (Type::Pointer(x), Type::Pointer(y)) => {
                x.is_const == y.is_const
                    && x.is_volatile == y.is_volatile
                    && self.compatible(&x.ty, &y.ty)
            }
            (Type::Array(x, n), Type::Array(y, m)) => {
                x.is_const == y.is_const
                    && x.is_volatile == y.is_volatile
                    && self.compatible(&x.ty, &y.ty)
                    && (n.is_none() || m.is_none() || n == m)
            }
            (Type::Function(f), Type::Function(g)) => {
                if !self.compatible(&f.ret.ty, &g.ret.ty) {
                    return false;
                }
                if !f.has_prototype || !g.has_prototype {
                    return true;
                }
                f.variadic == g.variadic
                    && f.params.len() == g.params.len()
                    && f.params
                        .iter()
                        .zip(&g.params)
                        .all(|(p, q)| self.compatible(&p.ty, &q.ty))
            }
            _ => a == b,
        }
    }

    /// Converts `expr` as if by assignment to an object of type `to` (C99 6.5.16.1):
    /// decays arrays/functions, checks the constraint (error otherwise, gcc's wording),
    /// warns where gcc warns, inserts a `Cast` when the types differ. Used for `=`,
    /// initializers, arguments and `return`; this entry point words its diagnostics
    /// for an initialization (`convert_assign` takes the context).
    pub(crate) fn convert_for_assignment(
        &mut self,
        expr: Expr,
        to: &QualType,
    ) -> Result<Expr, Diagnostic> {
        self.convert_assign(expr, to, AssignCtx::Init)
    }

    /// `convert_for_assignment` with the context that decides the wording.
    pub(crate) fn convert_assign(
        &mut self,
        expr: Expr,
        to: &QualType,
        ctx: AssignCtx,
    ) -> Result<Expr, Diagnostic> {
        let expr = self.rvalue(expr);
        let err_loc = expr.loc;
        let loc = match &ctx {
            AssignCtx::Assign(op) => *op,
            _ => expr.loc,
        };
        let from = expr.ty.ty.clone();
        let to_ty = &to.ty;
        // The common cases need no diagnostics (and no type names).
        let same = *to_ty == from && !matches!(from, Type::Void | Type::Array(..));
        if same || (to_ty.is_arithmetic() && from.is_arithmetic()) {
            return Ok(cast_to(expr, to_ty));
        }
        let to_name = self.type_name_of(to_ty);
        let from_name = self.type_name_of(&from);
        // gcc's phrase for each context: "assignment to 'T' from 'F'",
        // "initialization of 'T' from 'F'", "returning 'F' from a function with return
        // type 'T'", "passing argument N of 'f'".
        let phrase = |what: &str| -> String {
            match &ctx {
                AssignCtx::Assign(_) => format!("assignment to '{to_name}' from {what}"),
                AssignCtx::Init => format!("initialization of '{to_name}' from {what}"),
                AssignCtx::Return => {
                    format!("returning {what} from a function with return type '{to_name}'")
                }
                AssignCtx::Arg(n, name) => {
                    // gcc drops the source type here: "passing argument 1 of 'f' makes
                    // pointer from integer without a cast".
                    let what = what
                        .strip_prefix(&format!("'{from_name}' "))
                        .unwrap_or(what);
                    match name {
                        Some(f) => format!("passing argument {n} of '{f}' {what}"),
                        None => format!("passing argument {n} {what}"),
                    }
                }
            }
        };
        let ok = match (to_ty, &from) {
            (t, f) if t.is_arithmetic() && f.is_arithmetic() => true,
            (Type::Record(a), Type::Record(b)) if a == b => true,
            (Type::Bool, Type::Pointer(_)) => true,
            (Type::Pointer(tp), Type::Pointer(fp)) => {
                let void_involved = tp.ty == Type::Void || fp.ty == Type::Void;
                let fn_void = (tp.ty == Type::Void && matches!(fp.ty, Type::Function(_)))
                    || (fp.ty == Type::Void && matches!(tp.ty, Type::Function(_)));
                // Pointees differing only in signedness: gcc's -Wpointer-sign, off by
                // default, so no warning.
                let sign_only = match (&tp.ty, &fp.ty) {
                    (Type::Int(a), Type::Int(b)) => a.to_unsigned() == b.to_unsigned(),
                    _ => false,
                };
                if !void_involved && !sign_only && !self.compatible(&tp.ty, &fp.ty) || fn_void {
                    if !self.is_null_pointer_constant(&expr) {
                        let msg = match &ctx {
                            AssignCtx::Arg(n, Some(f)) => format!(
                                "passing argument {n} of '{f}' from incompatible pointer type \
                                 [-Wincompatible-pointer-types]"
                            ),
                            AssignCtx::Arg(n, None) => format!(
                                "passing argument {n} from incompatible pointer type \
                                 [-Wincompatible-pointer-types]"
                            ),
                            AssignCtx::Return => format!(
                                "returning '{from_name}' from a function with incompatible \
                                 return type '{to_name}' [-Wincompatible-pointer-types]"
                            ),
                            _ => format!(
                                "{} [-Wincompatible-pointer-types]",
                                phrase(&format!("incompatible pointer type '{from_name}'"))
                            ),
                        };
                        self.warn_at(loc, msg);
                    }
                } else if (fp.is_const && !tp.is_const) || (fp.is_volatile && !tp.is_volatile) {
                    let q = if fp.is_const && !tp.is_const {
                        "const"
                    } else {
                        "volatile"
                    };
                    let lead = match &ctx {
                        AssignCtx::Assign(_) => "assignment".to_string(),
                        AssignCtx::Init => "initialization".to_string(),
                        AssignCtx::Return => "return".to_string(),
                        AssignCtx::Arg(n, Some(f)) => format!("passing argument {n} of '{f}'"),
                        AssignCtx::Arg(n, None) => format!("passing argument {n}"),
                    };
                    self.warn_at(
                        loc,
                        format!(
                            "{lead} discards '{q}' qualifier from pointer target type \
                             [-Wdiscarded-qualifiers]"
                        ),
                    );
                }
                true
            }
            (Type::Pointer(_), f) if f.is_integer() => {
                if !self.is_null_pointer_constant(&expr) {
                    let what = format!("'{from_name}' makes pointer from integer without a cast");
                    self.warn_at(loc, format!("{} [-Wint-conversion]", phrase(&what)));
                }
                true
            }
            (t, Type::Pointer(_)) if t.is_integer() => {
                let what = format!("'{from_name}' makes integer from pointer without a cast");
                self.warn_at(loc, format!("{} [-Wint-conversion]", phrase(&what)));
                true
            }
            _ => false,
        };
        if !ok {
            let msg = match &ctx {
                AssignCtx::Assign(_) => format!(
                    "incompatible types when assigning to type '{to_name}' from type '{from_name}'"
                ),
                AssignCtx::Init => format!(
                    "incompatible types when initializing type '{to_name}' using type '{from_name}'"
                ),
                AssignCtx::Return => format!(
                    "incompatible types when returning type '{from_name}' but '{to_name}' was expected"
                ),
                AssignCtx::Arg(n, Some(f)) => format!("incompatible type for argument {n} of '{f}'"),
                AssignCtx::Arg(n, None) => format!("incompatible type for argument {n}"),
            };
            return Err(self.error_at(err_loc, msg));
        }
        Ok(cast_to(expr, to_ty))
    }

    /// The name gcc uses for an lvalue in "read-only" diagnostics.
    fn lvalue_description(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Local(id) => {
                let name = self
                    .func
                    .as_ref()
                    .and_then(|f| f.locals.get(id.0 as usize))
                    .map(|v| v.name.clone())
                    .unwrap_or_default();
                format!("variable '{name}'")
            }
            ExprKind::Global(id) => {
                let name = self
                    .globals
                    .get(id.0 as usize)
                    .map(|g| display_global_name(&g.name))
                    .unwrap_or_default();
                format!("variable '{name}'")
            }
            ExprKind::Member { record, field, .. } => {
                let name = self
                    .records
                    .records
                    .get(record.0 as usize)
                    .and_then(|r| r.fields.get(*field))
                    .and_then(|f| f.name.clone())
                    .unwrap_or_default();
                format!("member '{name}'")
            }
            _ => "location".to_string(),
        }
    }

    /// gcc's "assignment of read-only ..." message for a const lvalue.
    fn read_only_message(&self, e: &Expr, what: &str) -> String {
        if let ExprKind::Member { record, field, .. } = &e.kind {
            let f = self
                .records
                .records
                .get(record.0 as usize)
                .and_then(|r| r.fields.get(*field));
            if let Some(f) = f {
                if !f.ty.is_const {
                    let name = f.name.clone().unwrap_or_default();
                    return format!("{what} of member '{name}' in read-only object");
                }
            }
        }
        format!("{what} of read-only {}", self.lvalue_description(e))
    }

    /// Checks that `e` is a modifiable lvalue for `what` ("assignment", "increment",
    /// "decrement"); `operand` is gcc's phrase for the lvalue-required error ("left
    /// operand of assignment", "increment operand", "decrement operand").
    pub(crate) fn check_modifiable(
        &self,
        e: &Expr,
        what: &str,
        operand: &str,
        at: Loc,
    ) -> Result<(), Diagnostic> {
        if !is_lvalue(e) || matches!(e.kind, ExprKind::Str(_)) {
            return Err(self.error_at(at, format!("lvalue required as {operand}")));
        }
        if matches!(e.ty.ty, Type::Array(..)) {
            let msg = if what == "assignment" {
                "assignment to expression with array type".to_string()
            } else {
                format!("lvalue required as {operand}")
            };
            return Err(self.error_at(at, msg));
        }
        if e.ty.is_const {
            return Err(self.error_at(at, self.read_only_message(e, what)));
        }
        if let Type::Record(id) = &e.ty.ty {
            if self.record_has_const_member(*id, 0) {
                return Err(self.error_at(
                    at,
                    format!("{what} of read-only {}", self.lvalue_description(e)),
                ));
            }
        }
        Ok(())
    }

    fn record_has_const_member(&self, id: crate::frontend::types::RecordId, depth: u32) -> bool {
        if depth > 64 {
            return false;
        }
        let Some(r) = self.records.records.get(id.0 as usize) else {
            return false;
        };
        r.fields.iter().any(|f| {
            f.ty.is_const
                || match &f.ty.ty {
                    Type::Record(inner) => self.record_has_const_member(*inner, depth + 1),
                    _ => false,
                }
        })
    }

    /// Requires a scalar (a condition, an operand of `!`, `&&`, `||`, `?`).
    pub(crate) fn check_scalar(&self, e: &Expr) -> Result<(), Diagnostic> {
        if e.ty.ty.is_scalar() {
            return Ok(());
        }
        let msg = match &e.ty.ty {
            Type::Record(id) => {
                let kw = match self.records.records.get(id.0 as usize).map(|r| r.kind) {
                    Some(crate::frontend::types::RecordKind::Union) => "union",
                    _ => "struct",
                };
                format!("used {kw} type value where scalar is required")
            }
            Type::Void => "void value not ignored as it ought to be".to_string(),
            _ => "used array type value where scalar is required".to_string(),
        };
        Err(self.error_at(e.loc, msg))
    }
}

/// The integer promotions of a non-bit-field type (C99 6.3.1.1p2; `int` is 32 bits on
/// every target, so all narrower types fit in `int`).
pub(crate) fn promote_type(ty: &Type) -> Type {
    match ty {
        Type::Bool => Type::int(),
        Type::Int(k) if k.rank() < IntKind::Int.rank() => Type::int(),
        _ => ty.clone(),
    }
}

fn float_max(a: FloatKind, b: FloatKind) -> FloatKind {
    let r = |k: FloatKind| match k {
        FloatKind::Float => 0,
        FloatKind::Double => 1,
        FloatKind::LongDouble => 2,
    };
    if r(a) >= r(b) {
        a
    } else {
        b
    }
}

/// A static local's IR name is `function.name.N`; diagnostics show `name`.
fn display_global_name(ir: &str) -> String {
    let parts: Vec<&str> = ir.split('.').collect();
    if parts.len() == 3 {
        parts[1].to_string()
    } else {
        ir.to_string()
    }
}
