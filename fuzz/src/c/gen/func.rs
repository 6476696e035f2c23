//! Functions: their signatures, locals and bodies.
//!
//! Why: calls, parameters (many of them, pointers and records by value), returns and
//! bounded recursion are what inlining, the ABI code and the register allocator see.
//!
//! Invariants:
//! - all signatures exist before any body, and a body calls only later functions (or
//!   itself through its depth parameter, under `depth > 0`, with `depth - 1`), so the
//!   call graph ends;
//! - `funcs[0]` (called by `main`) takes integers only and is called directly; a function
//!   marked `indirect` is only ever called through its function pointer;
//! - a local's initializer reads only globals, parameters and earlier locals; a local
//!   pointer starts pointing at a global or parameter's object or an earlier local's;
//!   static locals are globals owned by the function, with constant initializers;
//! - every non-void function ends with a `return`.

use super::ast::*;
use super::context::{Gen, NARROW_DM};
use super::features::Feature;
use super::types::{IntKind, Ty};
use super::value::Val;

impl Gen<'_> {
    /// A parameter type for function `i`.
    fn param_type(&mut self, i: usize) -> Ty {
        let structs = self.by_value_structs();
        let w = [
            8,
            2 * (i > 0 && self.has(Feature::Pointers)) as u32,
            2 * (i > 0 && !structs.is_empty() && self.has(Feature::StructArgs)) as u32,
            2 * (i > 0 && self.floats()) as u32,
        ];
        match self.weighted(&w) {
            1 => Ty::Ptr(Box::new(self.pointee())),
            2 => Ty::Struct(self.pick(&structs)),
            3 => Ty::Float(self.fkind()),
            _ => Ty::Int(self.kind()),
        }
    }

    /// The structs and unions that may be passed and returned by value: those with
    /// float members too (which gcc passes in float registers by each target's rule, and
    /// phicc does as gcc: `compiler/src/lowering/float_abi.rs`), but not a struct with
    /// both a float member and a bit-field, which phicc refuses on riscv64 (a clear
    /// front-end error, "a struct with a floating-point member and a bit-field passed or
    /// returned by value is not supported on riscv64"; found by the native riscv64 stage,
    /// seed 300233).
    fn by_value_structs(&self) -> Vec<usize> {
        (0..self.prog.structs.len())
            .filter(|&id| {
                let fields = &self.prog.structs[id].fields;
                !(self.holds_float(&Ty::Struct(id)) && fields.iter().any(|f| f.bits.is_some()))
            })
            .collect()
    }

    /// The object type a pointer local or parameter points to: an integer, or a `float`
    /// or `double` (a third of the time when floats are on).
    pub fn pointee(&mut self) -> Ty {
        if self.floats() && self.chance(0.35) {
            Ty::Float(self.fkind())
        } else {
            Ty::Int(self.kind())
        }
    }

    /// Every function's signature (bodies empty).
    pub fn make_signatures(&mut self) {
        let n = self.between(1, 1 + self.cfg.size);
        for i in 0..n {
            let structs = self.by_value_structs();
            let ret = match self.weighted(&[
                2,
                7,
                2 * (!structs.is_empty() && self.has(Feature::StructArgs)) as u32,
                2 * self.floats() as u32,
            ]) {
                0 => None,
                1 => Some(Ty::Int(self.kind())),
                3 => Some(Ty::Float(self.fkind())),
                _ => Some(Ty::Struct(self.pick(&structs))),
            };
            let mut locals = Vec::new();
            let mut depth_param = None;
            if self.has(Feature::Recursion) && self.chance(0.3) {
                depth_param = Some(0);
                locals.push(param("p_depth".into(), Ty::Int(IntKind::Int)));
            }
            let many = if self.chance(0.1) { 8 } else { 3 };
            for _ in 0..self.between(0, many) {
                let ty = self.param_type(i as usize);
                locals.push(param(format!("p_{}", locals.len()), ty));
            }
            let indirect = i > 0 && self.has(Feature::FuncPtrs) && self.chance(0.4);
            self.prog.funcs.push(Func {
                name: format!("func_{i}"),
                ret,
                params: locals.len(),
                locals,
                body: Vec::new(),
                depth_param,
                indirect,
            });
        }
        let f0 = &self.prog.funcs[0];
        let params: Vec<(bool, Ty)> = f0.locals[..f0.params]
            .iter()
            .enumerate()
            .map(|(j, p)| (Some(j) == f0.depth_param, p.ty.clone()))
            .collect();
        self.prog.main_args = params
            .into_iter()
            .map(|(is_depth, ty)| match ty {
                Ty::Int(_) if is_depth => Expr::Const(Val::new(IntKind::Int, 3, NARROW_DM)),
                Ty::Int(k) => Expr::Const(self.constant(k)),
                _ => unreachable!("funcs[0] takes integers only"),
            })
            .collect();
    }

    /// A new local of function `self.f` (declared at its top).
    fn make_local(&mut self) {
        let i = self.prog.funcs[self.f].locals.len();
        self.visible_locals = i;
        let w = [
            10,
            3 * self.has(Feature::Pointers) as u32,
            self.has(Feature::PtrToPtr) as u32,
            3 * self.floats() as u32,
        ];
        let (ty, init) = match self.weighted(&w) {
            3 => {
                let k = self.fkind();
                (Ty::Float(k), Init::Float(self.float_local_init(k)))
            }
            1 => {
                let pointee = self.pointee();
                let p = if self.ptr_arith() && self.chance(0.3) {
                    self.ptr_add(&pointee, false)
                } else {
                    self.ptr_value(&pointee, false)
                };
                match p {
                    Some(p) => (Ty::Ptr(Box::new(pointee)), Init::Expr(p)),
                    None => (pointee.clone(), self.constant_init(&pointee, None)),
                }
            }
            2 => {
                let pointee = Ty::Ptr(Box::new(Ty::Int(self.kind())));
                match self.ptr_value(&pointee, false) {
                    Some(p) => (Ty::Ptr(Box::new(pointee)), Init::Expr(p)),
                    None => (
                        Ty::Int(IntKind::Int),
                        self.constant_init(&Ty::Int(IntKind::Int), None),
                    ),
                }
            }
            _ => {
                let ty = self.object_type();
                let init = match ty {
                    Ty::Int(_) if self.chance(0.6) => {
                        self.volatile_used = false;
                        Init::Expr(self.expr(2))
                    }
                    _ => self.constant_init(&ty, None),
                };
                (ty, init)
            }
        };
        self.prog.funcs[self.f].locals.push(Var {
            name: format!("l_{i}"),
            ty,
            is_const: false,
            is_volatile: false,
            owner: None,
            init,
        });
        self.visible_locals = usize::MAX;
    }

    fn make_static_local(&mut self) {
        let i = self.prog.globals.len();
        let ty = Ty::Int(self.kind());
        self.globals_only = true;
        let init = self.constant_init(&ty, None);
        self.globals_only = false;
        self.prog.globals.push(Var {
            name: format!("s_{i}"),
            ty,
            is_const: false,
            is_volatile: false,
            owner: Some(self.f),
            init,
        });
    }

    /// The body of function `f`.
    pub fn make_body(&mut self, f: usize) {
        self.f = f;
        self.readonly = self.prog.funcs[f]
            .depth_param
            .map(VarRef::Local)
            .into_iter()
            .collect();
        self.labels.clear();
        self.loop_depth = 0;
        self.switch_depth = 0;
        self.nest = 0;
        for _ in 0..self.between(1, 2 + self.cfg.size) {
            self.make_local();
        }
        if let Some(Ty::Struct(id)) = self.prog.funcs[f].ret.clone() {
            // A local to return.
            let ty = Ty::Struct(id);
            let init = self.constant_init(&ty, None);
            let i = self.prog.funcs[f].locals.len();
            self.prog.funcs[f].locals.push(Var {
                name: format!("l_{i}"),
                ty,
                is_const: false,
                is_volatile: false,
                owner: None,
                init,
            });
        }
        if self.has(Feature::StaticLocals) && self.chance(0.4) {
            self.make_static_local();
        }
        let n = 2 + self.below(2 + 2 * self.cfg.size as usize);
        let mut body = self.block(n);
        self.volatile_used = false;
        if self.prog.funcs[f].ret.is_some() {
            let r = self.return_value();
            body.push(Stmt::Return(r));
        }
        self.prog.funcs[f].body = body;
    }
}

fn param(name: String, ty: Ty) -> Var {
    Var {
        name,
        ty,
        is_const: false,
        is_volatile: false,
        owner: None,
        init: Init::List(Vec::new()),
    }
}
