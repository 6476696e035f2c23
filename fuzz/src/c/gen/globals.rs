//! Struct types and global variables, with their initializers.
//!
//! Why: globals are what the checksum covers, so every store to one is observed; their
//! initializers (constants, lists, addresses of earlier globals) exercise the front
//! end's static initialization.
//!
//! Invariants: a global's initializer is a constant expression naming only earlier
//! globals; a pointer global starts pointing at a global object; const and volatile
//! globals are integer scalars.

use super::ast::*;
use super::context::Gen;
use super::features::Feature;
use super::float::FKind;
use super::types::{Field, IntKind, StructDef, Ty};

impl Gen<'_> {
    /// The struct types of the program.
    pub fn make_structs(&mut self) {
        if !self.has(Feature::Structs) {
            return;
        }
        for _ in 0..self.between(1, 3) {
            if self.has(Feature::Unions) && self.chance(0.35) {
                let fields = self.union_members();
                self.prog.structs.push(StructDef {
                    fields,
                    packed: false,
                    union: true,
                });
                continue;
            }
            if self.floats() && self.chance(0.5) {
                let fields = self.float_record_fields();
                self.prog.structs.push(StructDef {
                    fields,
                    packed: false,
                    union: false,
                });
                continue;
            }
            let packed = self.has(Feature::Packed) && self.chance(0.3);
            let mut fields = Vec::new();
            for _ in 0..self.between(1, 5) {
                let k = self.kind();
                let field = if !packed && self.floats() && self.chance(0.15) {
                    let t = Ty::Float(self.fkind());
                    Field {
                        ty: if self.has(Feature::Arrays) && self.chance(0.2) {
                            Ty::Array(Box::new(t), self.between(1, 3))
                        } else {
                            t
                        },
                        bits: None,
                    }
                } else if !packed && self.ptr_members() && self.chance(0.15) {
                    Field {
                        ty: Gen::member_ptr_ty(),
                        bits: None,
                    }
                } else if self.has(Feature::Bitfields) && self.chance(0.3) {
                    let unsigned = self.has(Feature::Unsigned) && self.chance(0.5);
                    Field {
                        ty: Ty::Int(if unsigned {
                            IntKind::UInt
                        } else {
                            IntKind::Int
                        }),
                        bits: Some(self.between(1, 32)),
                    }
                } else if self.has(Feature::Arrays) && self.chance(0.15) {
                    Field {
                        ty: Ty::Array(Box::new(Ty::Int(k)), self.between(1, 4)),
                        bits: None,
                    }
                } else {
                    Field {
                        ty: Ty::Int(k),
                        bits: None,
                    }
                };
                fields.push(field);
            }
            self.prog.structs.push(StructDef {
                fields,
                packed,
                union: false,
            });
        }
    }

    /// The members of a union: two to four integers, and floats too when floats are on
    /// (then at least one integer member of at most 4 bytes, see `StructDef`).
    fn union_members(&mut self) -> Vec<Field> {
        let mut fields: Vec<Field> = (0..self.between(2, 4))
            .map(|_| Field {
                ty: if self.floats() && self.chance(0.35) {
                    Ty::Float(self.fkind())
                } else {
                    Ty::Int(self.kind())
                },
                bits: None,
            })
            .collect();
        const LP64: super::types::DataModel = super::types::DataModel { long_bits: 64 };
        let narrow_int = |f: &Field| f.ty.int().is_some_and(|k| k.bits(LP64) <= 32);
        if !fields.iter().any(narrow_int) {
            let narrow: Vec<IntKind> = self
                .kinds
                .iter()
                .copied()
                .filter(|k| k.bits(LP64) <= 32)
                .collect();
            let k = self.pick(&narrow);
            let at = self.below(fields.len() + 1);
            fields.insert(
                at,
                Field {
                    ty: Ty::Int(k),
                    bits: None,
                },
            );
        }
        fields
    }

    /// The fields of a struct shaped for the float record ABIs (passed and returned by
    /// value in float registers, or not, by each target's rule: `compiler/src/lowering/
    /// float_abi.rs`): a homogeneous aggregate of one to four `float`s or `double`s
    /// (some as an array member: AAPCS64 HFAs, x86-64 SSE eightbytes, RISC-V's one or two
    /// float members), a pair of a float and an integer or of two floats of different
    /// kinds in either order (RISC-V's float+integer, x86-64 mixed eightbytes), or a
    /// record of more than 16 bytes with floats in it (in memory on every target).
    fn float_record_fields(&mut self) -> Vec<Field> {
        let scalar = |ty: Ty| Field { ty, bits: None };
        match self.weighted(&[3, 2, 1]) {
            0 => {
                let k = self.fkind();
                let total = self.between(1, 4);
                let mut fields = Vec::new();
                let mut left = total;
                while left > 0 {
                    let n = if self.has(Feature::Arrays) {
                        self.between(1, left)
                    } else {
                        1
                    };
                    let ty = if n > 1 || (self.has(Feature::Arrays) && self.chance(0.2)) {
                        Ty::Array(Box::new(Ty::Float(k)), n)
                    } else {
                        Ty::Float(k)
                    };
                    fields.push(scalar(ty));
                    left -= n;
                }
                fields
            }
            1 => {
                let a = Ty::Float(self.fkind());
                let b = if self.chance(0.3) {
                    match a {
                        Ty::Float(FKind::Float) => Ty::Float(FKind::Double),
                        _ => Ty::Float(FKind::Float),
                    }
                } else {
                    Ty::Int(self.kind())
                };
                if self.chance(0.5) {
                    vec![scalar(a), scalar(b)]
                } else {
                    vec![scalar(b), scalar(a)]
                }
            }
            _ => {
                // Two doubles and at least one more member: more than 16 bytes.
                let double = || scalar(Ty::Float(FKind::Double));
                let mut fields = vec![double(), double()];
                for _ in 0..self.between(1, 3) {
                    let ty = match self.below(3) {
                        0 => Ty::Float(self.fkind()),
                        1 => Ty::Int(self.kind()),
                        _ => Ty::Float(FKind::Double),
                    };
                    fields.push(scalar(ty));
                }
                let at = self.below(fields.len());
                fields.swap(0, at);
                let at = self.below(fields.len());
                fields.swap(1, at);
                fields
            }
        }
    }

    /// A random object type: integers most often, then arrays, structs, arrays of structs.
    pub fn object_type(&mut self) -> Ty {
        let structs = self.prog.structs.len();
        let w = [
            10,
            3 * self.has(Feature::Arrays) as u32,
            3 * (structs > 0) as u32,
            (self.has(Feature::Arrays) && structs > 0) as u32,
            (self.has(Feature::Arrays) && self.ptr_members()) as u32,
            (self.has(Feature::Arrays) && self.floats()) as u32,
        ];
        match self.weighted(&w) {
            5 => Ty::Array(Box::new(Ty::Float(self.fkind())), self.between(1, 4)),
            4 => Ty::Array(Box::new(Gen::member_ptr_ty()), self.between(1, 4)),
            0 => Ty::Int(self.kind()),
            1 => {
                let mut t = Ty::Int(self.kind());
                for _ in 0..self.between(1, 3) {
                    t = Ty::Array(Box::new(t), self.between(1, 5));
                }
                t
            }
            2 => Ty::Struct(self.below(structs)),
            _ => Ty::Array(
                Box::new(Ty::Struct(self.below(structs))),
                self.between(1, 3),
            ),
        }
    }

    /// A constant initializer for an object of type `ty`.
    pub fn constant_init(&mut self, ty: &Ty, field: Option<&Field>) -> Init {
        match ty {
            Ty::Int(k) => {
                let k = match field.and_then(|f| f.bits) {
                    // Keep bit-field initializers within the field (no -Woverflow).
                    Some(b) if b < 16 => {
                        let v = self.below(1 << (b - 1)) as i128;
                        return Init::Expr(Expr::Const(super::value::Val::new(
                            IntKind::Int,
                            v,
                            super::context::NARROW_DM,
                        )));
                    }
                    _ => *k,
                };
                Init::Expr(Expr::Const(self.constant(k)))
            }
            // Every pointer is initialized: a list that leaves one out is never cut short.
            Ty::Array(t, n) => {
                let len = if !matches!(**t, Ty::Ptr(_)) && !self.holds_ptr(t) && self.chance(0.2) {
                    self.below(*n as usize + 1)
                } else {
                    *n as usize
                };
                let t = (**t).clone();
                Init::List((0..len).map(|_| self.constant_init(&t, None)).collect())
            }
            // A union's initializer sets its first member.
            Ty::Struct(id) if self.prog.structs[*id].union => {
                let first = self.prog.structs[*id].fields[0].ty.clone();
                Init::List(vec![self.constant_init(&first, None)])
            }
            Ty::Struct(id) => {
                let fields = self.prog.structs[*id].fields.clone();
                Init::List(
                    fields
                        .iter()
                        .map(|f| self.constant_init(&f.ty, Some(f)))
                        .collect(),
                )
            }
            Ty::Float(k) => Init::Float(FExpr::Const(self.fconstant(*k))),
            // A pointer in an aggregate: the address of a global (`g_0` at least).
            Ty::Ptr(t) => {
                let saved = self.globals_only;
                self.globals_only = true;
                let p = self.ptr_value(t, true);
                self.globals_only = saved;
                match p {
                    Some(p) => Init::Expr(p),
                    None => {
                        unreachable!("g_0 is an int whenever pointers are stored in aggregates")
                    }
                }
            }
        }
    }

    /// The global variables.
    pub fn make_globals(&mut self) {
        self.globals_only = true;
        let n = self.between(3, 4 + 2 * self.cfg.size);
        if self.ptr_members() {
            // The target every stored pointer may start with.
            let ty = Ty::Int(IntKind::Int);
            let init = self.constant_init(&ty, None);
            self.prog.globals.push(Var {
                name: "g_0".into(),
                ty,
                is_const: false,
                is_volatile: false,
                owner: None,
                init,
            });
        }
        for _ in 0..n {
            let w = [
                12,
                2 * self.has(Feature::Pointers) as u32,
                2 * self.has(Feature::Const) as u32,
                2 * self.has(Feature::Volatile) as u32,
                3 * self.floats() as u32,
            ];
            let i = self.prog.globals.len();
            let mut var = Var {
                name: format!("g_{i}"),
                ty: Ty::Int(IntKind::Int),
                is_const: false,
                is_volatile: false,
                owner: None,
                init: Init::List(Vec::new()),
            };
            match self.weighted(&w) {
                1 => {
                    let pointee = self.pointee();
                    match self.ptr_value(&pointee, true) {
                        Some(p) => {
                            var.ty = Ty::Ptr(Box::new(pointee));
                            var.init = Init::Expr(p);
                            self.prog.globals.push(var);
                            continue;
                        }
                        None => var.ty = pointee,
                    }
                }
                2 => {
                    var.ty = Ty::Int(self.kind());
                    var.is_const = true;
                }
                3 => {
                    var.ty = Ty::Int(self.kind());
                    var.is_volatile = true;
                }
                4 => {
                    let k = self.fkind();
                    var.ty = Ty::Float(k);
                    var.init = self.float_global_init(k);
                    self.prog.globals.push(var);
                    continue;
                }
                _ => var.ty = self.object_type(),
            }
            var.init = self.constant_init(&var.ty.clone(), None);
            self.prog.globals.push(var);
        }
        self.globals_only = false;
    }
}
