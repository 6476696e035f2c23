//! The functions the front end knows without a declaration: the C library functions
//! gcc treats as builtins, GNU's `__builtin_*` functions, and the builtins that are not
//! functions at all (`__builtin_constant_p`, `__builtin_types_compatible_p`).
//!
//! Why it exists: gcc knows the prototype of `memcpy` or `strlen` even when a program
//! calls it undeclared (old code, c-torture), and `__builtin_*` functions are never
//! declared. An implicit `int f()` declaration would pass a `size_t` argument as an
//! `int` and read a pointer result as an `int`: wrong code on LP64. So a call to an
//! undeclared known name declares it with its real prototype, as gcc does.
//!
//! Invariants:
//! - A `__builtin_X` whose `X` is a library function here is that function: the call is
//!   to `X` (its IR callee is `X`), so the backends call the real libc and the oracle
//!   runs its model of `X` (`oracle/src/interp/libc.rs`).
//! - The other `__builtin_*` functions here, and `abs`, `labs`, `llabs`, `ffs`, `ffsl`,
//!   `ffsll`, are computed in IR by `lowering::builtins` (whose table must list each of
//!   them): every stage and target sees the same code. They are never declared as IR
//!   externals.
//! - An unknown `__builtin_*` name is an error at its position, never an implicit
//!   declaration (it would only fail later, in the oracle or the linker).
//! - A program's own declaration of a name always wins over this table, as the callee's
//!   type. Which code runs is the lowering's choice, gcc's rule: a direct call to a
//!   lowered library name (`abs`, `llabs`, `ffs`, ...) is computed as the builtin even
//!   when the unit defines that function, unless the definition is `static` or its type
//!   differs from the prototype here ([`lowered_prototype`]; c-torture `20021127-1.c`).

use super::{OrdinaryEntity, Parser};
use crate::frontend::ast::{Expr, FunctionDecl};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::Punct;
use crate::frontend::types::{FloatKind, FunctionType, IntKind, QualType, Type};
use std::rc::Rc;

/// A C type in a builtin's prototype.
#[derive(Clone, Copy, Debug)]
pub(super) enum CType {
    Void,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    UShort,
    SizeT,
    /// `void *`
    Ptr,
    /// `const void *`
    ConstPtr,
    /// `char *`
    Str,
    /// `const char *`
    ConstStr,
    Float,
    Double,
    /// `int *`, `float *`, `double *` (frexp's and modf's results)
    IntPtr,
    FloatPtr,
    DoublePtr,
}

use CType::*;

/// One known function: name, result, parameters, variadic.
pub(super) type Entry = (&'static str, CType, &'static [CType], bool);

/// C library functions gcc knows as builtins and the oracle runs.
const LIBRARY: &[Entry] = &[
    ("abort", Void, &[], false),
    ("exit", Void, &[Int], false),
    ("printf", Int, &[ConstStr], true),
    ("sprintf", Int, &[Str, ConstStr], true),
    ("puts", Int, &[ConstStr], false),
    ("putchar", Int, &[Int], false),
    ("memcpy", Ptr, &[Ptr, ConstPtr, SizeT], false),
    ("memmove", Ptr, &[Ptr, ConstPtr, SizeT], false),
    ("memset", Ptr, &[Ptr, Int, SizeT], false),
    ("memcmp", Int, &[ConstPtr, ConstPtr, SizeT], false),
    ("strlen", SizeT, &[ConstStr], false),
    ("strcmp", Int, &[ConstStr, ConstStr], false),
    ("strncmp", Int, &[ConstStr, ConstStr, SizeT], false),
    ("strcpy", Str, &[Str, ConstStr], false),
    ("strncpy", Str, &[Str, ConstStr, SizeT], false),
    ("strchr", Str, &[ConstStr, Int], false),
    ("strrchr", Str, &[ConstStr, Int], false),
    ("malloc", Ptr, &[SizeT], false),
    ("calloc", Ptr, &[SizeT, SizeT], false),
    ("free", Void, &[Ptr], false),
    ("memchr", Ptr, &[ConstPtr, Int, SizeT], false),
    ("mempcpy", Ptr, &[Ptr, ConstPtr, SizeT], false),
    ("snprintf", Int, &[Str, SizeT, ConstStr], true),
    // <ctype.h> (the oracle's `ctype.rs`).
    ("isalnum", Int, &[Int], false),
    ("isalpha", Int, &[Int], false),
    ("isblank", Int, &[Int], false),
    ("iscntrl", Int, &[Int], false),
    ("isdigit", Int, &[Int], false),
    ("isgraph", Int, &[Int], false),
    ("islower", Int, &[Int], false),
    ("isprint", Int, &[Int], false),
    ("ispunct", Int, &[Int], false),
    ("isspace", Int, &[Int], false),
    ("isupper", Int, &[Int], false),
    ("isxdigit", Int, &[Int], false),
    ("tolower", Int, &[Int], false),
    ("toupper", Int, &[Int], false),
    // The exact <math.h> functions (the oracle's `libm.rs`).
    ("sqrt", Double, &[Double], false),
    ("sqrtf", Float, &[Float], false),
    ("fabs", Double, &[Double], false),
    ("fabsf", Float, &[Float], false),
    ("floor", Double, &[Double], false),
    ("floorf", Float, &[Float], false),
    ("ceil", Double, &[Double], false),
    ("ceilf", Float, &[Float], false),
    ("trunc", Double, &[Double], false),
    ("truncf", Float, &[Float], false),
    ("round", Double, &[Double], false),
    ("roundf", Float, &[Float], false),
    ("fmod", Double, &[Double, Double], false),
    ("fmodf", Float, &[Float, Float], false),
    ("copysign", Double, &[Double, Double], false),
    ("copysignf", Float, &[Float, Float], false),
    ("fmin", Double, &[Double, Double], false),
    ("fminf", Float, &[Float, Float], false),
    ("fmax", Double, &[Double, Double], false),
    ("fmaxf", Float, &[Float, Float], false),
    ("ldexp", Double, &[Double, Int], false),
    ("ldexpf", Float, &[Float, Int], false),
    ("frexp", Double, &[Double, IntPtr], false),
    ("frexpf", Float, &[Float, IntPtr], false),
    ("modf", Double, &[Double, DoublePtr], false),
    ("modff", Float, &[Float, FloatPtr], false),
];

/// Functions computed in IR (`lowering::builtins`); each name is also its IR name.
const LOWERED: &[Entry] = &[
    ("abs", Int, &[Int], false),
    ("labs", Long, &[Long], false),
    ("llabs", LongLong, &[LongLong], false),
    ("ffs", Int, &[Int], false),
    ("ffsl", Int, &[Long], false),
    ("ffsll", Int, &[LongLong], false),
    ("__builtin_popcount", Int, &[UInt], false),
    ("__builtin_popcountl", Int, &[ULong], false),
    ("__builtin_popcountll", Int, &[ULongLong], false),
    ("__builtin_parity", Int, &[UInt], false),
    ("__builtin_parityl", Int, &[ULong], false),
    ("__builtin_parityll", Int, &[ULongLong], false),
    ("__builtin_clz", Int, &[UInt], false),
    ("__builtin_clzl", Int, &[ULong], false),
    ("__builtin_clzll", Int, &[ULongLong], false),
    ("__builtin_ctz", Int, &[UInt], false),
    ("__builtin_ctzl", Int, &[ULong], false),
    ("__builtin_ctzll", Int, &[ULongLong], false),
    ("__builtin_clrsb", Int, &[Int], false),
    ("__builtin_clrsbl", Int, &[Long], false),
    ("__builtin_clrsbll", Int, &[LongLong], false),
    ("__builtin_bswap16", UShort, &[UShort], false),
    ("__builtin_bswap32", UInt, &[UInt], false),
    ("__builtin_bswap64", ULongLong, &[ULongLong], false),
    ("__builtin_expect", Long, &[Long, Long], false),
    ("__builtin_unreachable", Void, &[], false),
    ("__builtin_trap", Void, &[], false),
    // Level 0 only: `frame_builtins.rs` turns the others into a null pointer.
    ("__builtin_return_address", Ptr, &[UInt], false),
    ("__builtin_frame_address", Ptr, &[UInt], false),
    ("__builtin_prefetch", Void, &[ConstPtr], true),
    // Dynamic stack allocation (`lowering::dyn_stack`).
    ("alloca", Ptr, &[SizeT], false),
    ("__builtin_alloca", Ptr, &[SizeT], false),
    ("__builtin_alloca_with_align", Ptr, &[SizeT, SizeT], false),
    // Float constants (`lowering::float`).
    ("__builtin_inf", Double, &[], false),
    ("__builtin_inff", Float, &[], false),
    ("__builtin_huge_val", Double, &[], false),
    ("__builtin_huge_valf", Float, &[], false),
    ("__builtin_nan", Double, &[ConstStr], false),
    ("__builtin_nanf", Float, &[ConstStr], false),
];

/// A known function: its IR name and C type.
pub(crate) struct KnownFunction {
    pub ir_name: &'static str,
    pub ty: Rc<FunctionType>,
}

/// The prototype of a function computed in IR (`LOWERED`: no `size_t` in it, so it is the
/// same on every target), `None` for any other name.
pub(crate) fn lowered_prototype(name: &str) -> Option<FunctionType> {
    let (_, ret, params, variadic) = LOWERED.iter().find(|e| e.0 == name).copied()?;
    let int = |t: CType| -> Option<QualType> {
        Some(QualType::new(match t {
            Void => Type::Void,
            Int => Type::Int(IntKind::Int),
            UInt => Type::Int(IntKind::UInt),
            Long => Type::Int(IntKind::Long),
            ULong => Type::Int(IntKind::ULong),
            LongLong => Type::Int(IntKind::LongLong),
            ULongLong => Type::Int(IntKind::ULongLong),
            UShort => Type::Int(IntKind::UShort),
            Float => Type::Float(FloatKind::Float),
            Double => Type::Float(FloatKind::Double),
            // Pointers and size_t: not in a library name's prototype here.
            SizeT | Ptr | ConstPtr | Str | ConstStr | IntPtr | FloatPtr | DoublePtr => return None,
        }))
    };
    Some(FunctionType {
        ret: int(ret)?,
        params: params.iter().map(|&p| int(p)).collect::<Option<Vec<_>>>()?,
        variadic,
        has_prototype: true,
    })
}

impl Parser<'_> {
    /// The function `name` denotes without a declaration, if it is a known one.
    pub(crate) fn known_function(&self, name: &str) -> Option<KnownFunction> {
        let find = |table: &[Entry], n: &str| table.iter().find(|e| e.0 == n).copied();
        let name = super::setjmp_builtins::ir_name_of(name).unwrap_or(name);
        let entry = find(LIBRARY, name)
            .or_else(|| find(LOWERED, name))
            .or_else(|| find(super::setjmp_builtins::ENTRIES, name))
            .or_else(|| {
                let plain = name.strip_prefix("__builtin_")?;
                find(LIBRARY, plain).or_else(|| find(LOWERED, plain))
            })?;
        let (ir_name, ret, params, variadic) = entry;
        Some(KnownFunction {
            ir_name,
            ty: Rc::new(FunctionType {
                ret: self.builtin_ctype(ret),
                params: params.iter().map(|&p| self.builtin_ctype(p)).collect(),
                variadic,
                has_prototype: true,
            }),
        })
    }

    fn builtin_ctype(&self, t: CType) -> QualType {
        let int = |k| QualType::new(Type::Int(k));
        let pointer = |to: Type, is_const: bool| {
            QualType::new(Type::Pointer(Rc::new(QualType {
                ty: to,
                is_const,
                is_volatile: false,
            })))
        };
        match t {
            Void => QualType::new(Type::Void),
            Int => int(IntKind::Int),
            UInt => int(IntKind::UInt),
            Long => int(IntKind::Long),
            ULong => int(IntKind::ULong),
            LongLong => int(IntKind::LongLong),
            ULongLong => int(IntKind::ULongLong),
            UShort => int(IntKind::UShort),
            SizeT => QualType::new(self.size_type()),
            Ptr => pointer(Type::Void, false),
            ConstPtr => pointer(Type::Void, true),
            Str => pointer(Type::Int(IntKind::Char), false),
            ConstStr => pointer(Type::Int(IntKind::Char), true),
            Float => QualType::new(Type::Float(FloatKind::Float)),
            Double => QualType::new(Type::Float(FloatKind::Double)),
            IntPtr => pointer(Type::Int(IntKind::Int), false),
            FloatPtr => pointer(Type::Float(FloatKind::Float), false),
            DoublePtr => pointer(Type::Float(FloatKind::Double), false),
        }
    }

    /// Declares the known function `name` at file scope (a call to it without a
    /// declaration); `None` when the name is not known. A library name gets gcc's
    /// warning about the implicit declaration; a `__builtin_*` name needs none.
    pub(crate) fn declare_known_function(&mut self, name: &Rc<str>, loc: Loc) -> Option<Expr> {
        let known = self.known_function(name)?;
        if !name.starts_with("__builtin_") {
            self.warn_at(
                loc,
                format!(
                    "implicit declaration of function '{name}' \
                     [-Wimplicit-function-declaration]"
                ),
            );
        }
        let ir = known.ir_name.to_string();
        let ty = match self.function_decls.get(&ir) {
            // The program declared the library function under its own name already.
            Some(d) if ir != **name && d.ty.has_prototype => d.ty.clone(),
            _ => known.ty,
        };
        if let Some(file_scope) = self.scopes.first_mut() {
            file_scope.ordinary.insert(
                name.clone(),
                OrdinaryEntity::Function(ir.clone(), ty.clone()),
            );
        }
        let lowered = LOWERED.iter().any(|e| e.0 == ir);
        if !lowered && !self.function_decls.contains_key(&ir) {
            self.function_decls.insert(
                ir.clone(),
                FunctionDecl {
                    name: ir.clone(),
                    ty: ty.clone(),
                    loc,
                },
            );
            self.function_order.push(ir.clone());
        }
        Some(Expr::new(
            crate::frontend::ast::ExprKind::Func(ir),
            Type::Function(ty),
            loc,
        ))
    }

    /// The builtins that are not functions, at their name (`None`: not one of them):
    ///     '__builtin_constant_p' '(' assignment-expression ')'
    ///     '__builtin_types_compatible_p' '(' type-name ',' type-name ')'
    ///     checked arithmetic (`overflow_builtins.rs`)
    ///     `__builtin_classify_type`, `__builtin_choose_expr`, `__func__`
    ///     (`introspection_builtins.rs`)
    pub(crate) fn parse_special_builtin(
        &mut self,
        name: &str,
        loc: Loc,
    ) -> Result<Option<Expr>, Diagnostic> {
        match name {
            "__builtin_constant_p" => {
                self.bump();
                self.expect_punct(Punct::LParen)?;
                let e = self.parse_assign_expr()?;
                self.expect_punct(Punct::RParen)?;
                // gcc -O0: 1 for an integer constant expression, else 0 (never evaluated).
                let e = self.rvalue(e);
                let constant = e.ty.ty.is_integer() && self.eval_int_const(&e).is_some();
                Ok(Some(Expr::int_lit(constant as u64, Type::int(), loc)))
            }
            "__builtin_types_compatible_p" => {
                self.bump();
                self.expect_punct(Punct::LParen)?;
                let a = self.parse_type_name()?;
                let a_enum = self.decl.type_name_enum_identity;
                self.expect_punct(Punct::Comma)?;
                let b = self.parse_type_name()?;
                let b_enum = self.decl.type_name_enum_identity;
                self.expect_punct(Punct::RParen)?;
                // Top-level qualifiers are ignored (gcc's documentation); two different
                // enumerated types are not compatible.
                let same = super::enum_identity::types_compatible(
                    (&QualType::new(a.ty), a_enum),
                    (&QualType::new(b.ty), b_enum),
                );
                Ok(Some(Expr::int_lit(same as u64, Type::int(), loc)))
            }
            _ if super::frame_builtins::is_frame_builtin(name) => {
                self.parse_frame_builtin(name, loc)
            }
            "__builtin_classify_type" => self.parse_classify_type(loc).map(Some),
            "__builtin_choose_expr" => self.parse_choose_expr(loc).map(Some),
            _ if super::introspection_builtins::is_function_name_identifier(name)
                && self.lookup_ordinary(name).is_none() =>
            {
                self.parse_function_name(loc).map(Some)
            }
            _ if super::overflow_builtins::overflow_builtin(name).is_some() => {
                self.parse_overflow_builtin(name, loc).map(Some)
            }
            _ => Ok(None),
        }
    }
}
