//! `__builtin_va_list` and the `__builtin_va_*` forms that `<stdarg.h>` (phicc's and
//! gcc's) spells `va_list`, `va_start`, `va_arg`, `va_end` and `va_copy` with.
//!
//! Why: `va_list` must be the target's own type, byte for byte, so that a `va_list` a
//! phicc function starts can be handed to libc's `vprintf` (or to a gcc-compiled function)
//! and the reverse:
//! - x86-64: `struct __va_list_tag { unsigned gp_offset, fp_offset; void
//!   *overflow_arg_area, *reg_save_area; }[1]` (24 bytes; an array, so a `va_list`
//!   parameter is a pointer to the caller's object);
//! - i686: `char *` (a pointer walking the stack area);
//! - AArch64: `struct __va_list { void *__stack, *__gr_top, *__vr_top; int __gr_offs,
//!   __vr_offs; }` (32 bytes, passed by reference to a copy like any large record);
//! - RISC-V LP64: `void *` (the argument registers are spilled next to the stack area).
//!
//! The builtins parse into calls of the pseudo-functions `__builtin_va_start`,
//! `__builtin_va_arg` (whose call has the requested type), `__builtin_va_end` and
//! `__builtin_va_copy`, with the `va_list` arguments as written (arrays decayed); the
//! lowering (`lowering::varargs`) recognises the names before anything else looks at a
//! call, so they never become symbols.
//!
//! Invariants: the typedef is declared once, in the file scope, before the first token,
//! when some token names it;
//! every argument of a builtin is checked to be a `va_list` (or, for a parameter on
//! x86-64, the pointer an array parameter is adjusted to); `va_start` only appears in a
//! variadic function; `va_arg`'s type is a complete object type; one that the default
//! argument promotions change (`char`, `short`, `_Bool`, `float`) is a warning, and the
//! lowering makes reaching it a trap, as gcc does.

use super::{OrdinaryEntity, Parser};
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::diag::Diagnostic;
use crate::frontend::token::{Punct, TokenKind};
use crate::frontend::types::{
    Field, FunctionType, IntKind, QualType, RecordDef, RecordId, RecordKind, Type,
};
use crate::target::Target;
use std::rc::Rc;

/// The name the typedef has (gcc's).
pub(crate) const VA_LIST_NAME: &str = "__builtin_va_list";

/// One `__builtin_va_*` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VaBuiltin {
    Start,
    Arg,
    End,
    Copy,
}

impl VaBuiltin {
    pub(crate) fn name(self) -> &'static str {
        match self {
            VaBuiltin::Start => "__builtin_va_start",
            VaBuiltin::Arg => "__builtin_va_arg",
            VaBuiltin::End => "__builtin_va_end",
            VaBuiltin::Copy => "__builtin_va_copy",
        }
    }

    pub(crate) fn by_name(name: &str) -> Option<VaBuiltin> {
        [
            VaBuiltin::Start,
            VaBuiltin::Arg,
            VaBuiltin::End,
            VaBuiltin::Copy,
        ]
        .into_iter()
        .find(|b| b.name() == name)
    }

    /// The short name gcc's diagnostics use.
    fn c_name(self) -> &'static str {
        match self {
            VaBuiltin::Start => "va_start",
            VaBuiltin::Arg => "va_arg",
            VaBuiltin::End => "va_end",
            VaBuiltin::Copy => "va_copy",
        }
    }
}

/// The type a `va_arg` type is promoted to when passed through `...`, when that is
/// another type (reading it is undefined; gcc traps there).
pub(crate) fn promoted_to(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Bool => Some("int"),
        Type::Int(k) if k.rank() < IntKind::Int.rank() => Some("int"),
        Type::Float(crate::frontend::types::FloatKind::Float) => Some("double"),
        _ => None,
    }
}

fn ptr_to(ty: Type) -> Type {
    Type::Pointer(Rc::new(QualType::new(ty)))
}

impl Parser<'_> {
    /// Declares `__builtin_va_list` in the file scope as the target's `va_list` type, when
    /// the translation unit names it (so a unit without `<stdarg.h>` has exactly the
    /// records it declares, numbered from 0).
    pub(crate) fn declare_builtin_va_list(&mut self) {
        let named = self
            .tokens
            .iter()
            .any(|t| matches!(&t.kind, TokenKind::Ident(n) if &**n == VA_LIST_NAME));
        if !named {
            return;
        }
        let void_ptr = ptr_to(Type::Void);
        let uint = Type::Int(IntKind::UInt);
        let int = Type::int();
        let ty = match self.target {
            Target::X86_64 => {
                let fields = [
                    ("gp_offset", uint.clone(), 0),
                    ("fp_offset", uint, 4),
                    ("overflow_arg_area", void_ptr.clone(), 8),
                    ("reg_save_area", void_ptr, 16),
                ];
                let tag = self.builtin_record("__va_list_tag", &fields, 24);
                Type::Array(Rc::new(QualType::new(Type::Record(tag))), Some(1))
            }
            Target::Aarch64 => {
                let fields = [
                    ("__stack", void_ptr.clone(), 0),
                    ("__gr_top", void_ptr.clone(), 8),
                    ("__vr_top", void_ptr, 16),
                    ("__gr_offs", int.clone(), 24),
                    ("__vr_offs", int, 28),
                ];
                Type::Record(self.builtin_record("__va_list", &fields, 32))
            }
            Target::I686 => ptr_to(Type::Int(IntKind::Char)),
            Target::Riscv64 => ptr_to(Type::Void),
        };
        if let Some(file_scope) = self.scopes.first_mut() {
            file_scope.ordinary.insert(
                Rc::from(VA_LIST_NAME),
                OrdinaryEntity::Typedef(QualType::new(ty)),
            );
        }
    }

    /// A complete struct of 8-byte alignment with the given members at the given offsets.
    fn builtin_record(&mut self, tag: &str, fields: &[(&str, Type, u64)], size: u64) -> RecordId {
        let id = RecordId(self.records.records.len() as u32);
        self.records.records.push(RecordDef {
            kind: RecordKind::Struct,
            tag: Some(tag.to_string()),
            complete: true,
            fields: fields
                .iter()
                .map(|(name, ty, offset)| Field {
                    name: Some(name.to_string()),
                    ty: QualType::new(ty.clone()),
                    offset: *offset,
                    bitfield: None,
                })
                .collect(),
            size,
            align: 8,
            pack: None,
            reverse_order: false,
        });
        id
    }

    /// The target's `va_list` type (as declared by [`Parser::declare_builtin_va_list`]).
    fn va_list_type(&self) -> Option<Type> {
        match self.scopes.first()?.ordinary.get(VA_LIST_NAME)? {
            OrdinaryEntity::Typedef(q) => Some(q.ty.clone()),
            _ => None,
        }
    }

    /// builtin-va:
    ///     '__builtin_va_start' '(' assignment-expression ',' assignment-expression ')'
    ///     '__builtin_va_arg' '(' assignment-expression ',' type-name ')'
    ///     '__builtin_va_end' '(' assignment-expression ')'
    ///     '__builtin_va_copy' '(' assignment-expression ',' assignment-expression ')'
    pub(crate) fn parse_va_builtin(&mut self, b: VaBuiltin) -> Result<Expr, Diagnostic> {
        let loc = self.bump().loc;
        self.expect_punct(Punct::LParen)?;
        let first = self.parse_assign_expr()?;
        let first = self.va_list_operand(first, b)?;
        let mut args = vec![first];
        let mut ty = Type::Void;
        match b {
            VaBuiltin::Start => {
                self.expect_punct(Punct::Comma)?;
                // The last named parameter: gcc only warns about anything else.
                self.parse_assign_expr()?;
                let variadic = self
                    .func
                    .as_ref()
                    .and_then(|f| self.function_decls.get(&f.name))
                    .is_some_and(|d| d.ty.variadic);
                if !variadic {
                    return Err(
                        self.error_at(loc, "'va_start' used in function with fixed arguments")
                    );
                }
            }
            VaBuiltin::Arg => {
                self.expect_punct(Punct::Comma)?;
                let tloc = self.loc();
                let t = self.parse_type_name()?;
                if let Some(to) = promoted_to(&t.ty) {
                    // gcc: a warning, and a trap where the program reaches it.
                    self.warn_at(
                        tloc,
                        format!(
                            "this type is promoted to '{to}' when passed through '...' (so \
                             you should pass '{to}' to 'va_arg'); if this code is reached, \
                             the program will abort"
                        ),
                    );
                }
                self.check_va_arg_type(&t.ty, tloc)?;
                ty = t.ty;
            }
            VaBuiltin::Copy => {
                self.expect_punct(Punct::Comma)?;
                let src = self.parse_assign_expr()?;
                args.push(self.va_list_operand(src, b)?);
            }
            VaBuiltin::End => {}
        }
        self.expect_punct(Punct::RParen)?;
        let callee_ty = Type::Function(Rc::new(FunctionType {
            ret: QualType::new(ty.clone()),
            params: Vec::new(),
            variadic: true,
            has_prototype: true,
        }));
        let callee = Expr::new(ExprKind::Func(b.name().to_string()), callee_ty.clone(), loc);
        let callee = Expr::new(ExprKind::Decay(Box::new(callee)), ptr_to(callee_ty), loc);
        let Type::Pointer(p) = &callee.ty.ty else {
            return Err(self.error_at(loc, "internal error: builtin callee"));
        };
        let Type::Function(fn_ty) = p.ty.clone() else {
            return Err(self.error_at(loc, "internal error: builtin callee"));
        };
        Ok(Expr::new(
            ExprKind::Call {
                callee: Box::new(callee),
                args,
                fn_ty,
            },
            ty,
            loc,
        ))
    }

    /// Checks that `e` is a `va_list` (after array decay on x86-64, where a parameter
    /// of type `va_list` is a pointer to the tag) and returns it decayed.
    fn va_list_operand(&self, e: Expr, b: VaBuiltin) -> Result<Expr, Diagnostic> {
        let loc = e.loc;
        let va = self.va_list_type();
        let ok = match (&va, &e.ty.ty) {
            (Some(Type::Array(elem, _)), Type::Array(e_elem, _)) => elem.ty == e_elem.ty,
            (Some(Type::Array(elem, _)), Type::Pointer(p)) => elem.ty == p.ty,
            (Some(Type::Pointer(v)), Type::Pointer(p)) => v.ty == p.ty,
            (Some(v), t) => v == t,
            (None, _) => false,
        };
        if !ok {
            return Err(self.error_at(
                loc,
                format!("first argument to '{}' not of type 'va_list'", b.c_name()),
            ));
        }
        Ok(match &e.ty.ty {
            Type::Array(..) => self.rvalue(e),
            _ => e,
        })
    }

    /// `va_arg`'s type: a complete object type (`long double` is not supported).
    fn check_va_arg_type(&self, ty: &Type, loc: crate::frontend::Loc) -> Result<(), Diagnostic> {
        match ty {
            Type::Float(crate::frontend::types::FloatKind::LongDouble) => {
                Err(self.error_at(loc, "'long double' is not supported by phicc"))
            }
            Type::Void | Type::Array(..) | Type::Function(_) => Err(self.error_at(
                loc,
                "va_arg needs a complete object type that is not an array",
            )),
            t if self.size_of(t).is_none() => {
                Err(self.error_at(loc, "va_arg of an incomplete type"))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_translation_unit, ParseOutput};
    use crate::frontend::{preprocess_str, Diagnostic, PreprocessOptions, Target};

    fn parse_t(src: &str, target: Target) -> Result<ParseOutput, Diagnostic> {
        let opts = PreprocessOptions {
            target,
            ..PreprocessOptions::default()
        };
        let pp = preprocess_str("t.c", src, &opts)?;
        parse_translation_unit(pp.tokens, &pp.sources, target)
    }

    fn error(src: &str) -> String {
        match parse_t(src, Target::X86_64) {
            Ok(_) => panic!("expected an error for {src}"),
            Err(e) => e.headline(),
        }
    }

    /// `sizeof(va_list)` and `_Alignof` as gcc has them (hand-checked with each cross
    /// gcc: 24/8, 4/4, 32/8, 8/8).
    #[test]
    fn va_list_has_the_targets_size() {
        for (target, size, align) in [
            (Target::X86_64, 24, 8),
            (Target::I686, 4, 4),
            (Target::Aarch64, 32, 8),
            (Target::Riscv64, 8, 8),
        ] {
            let src = format!(
                "typedef __builtin_va_list va_list;\n\
                 int s[sizeof(va_list) == {size} ? 1 : -1];\n\
                 int a[__alignof__(va_list) == {align} ? 1 : -1];\n"
            );
            if let Err(e) = parse_t(&src, target) {
                panic!("{}: {}", target.name(), e.headline());
            }
        }
    }

    #[test]
    fn misuse_is_an_error_with_gccs_words() {
        let pre = "typedef __builtin_va_list va_list;\n";
        let e = error(&format!(
            "{pre}int f(int n) {{ va_list ap; __builtin_va_start(ap, n); return 0; }}"
        ));
        assert!(
            e.contains("'va_start' used in function with fixed arguments"),
            "{e}"
        );
        let e = error(&format!(
            "{pre}int f(int n, ...) {{ int x; __builtin_va_start(x, n); return 0; }}"
        ));
        assert!(
            e.contains("first argument to 'va_start' not of type 'va_list'"),
            "{e}"
        );
        let out = parse_t(
            &format!("{pre}int f(int n, ...) {{ va_list ap; return __builtin_va_arg(ap, char); }}"),
            Target::X86_64,
        )
        .unwrap_or_else(|e| panic!("{}", e.headline()));
        assert!(
            out.warnings
                .iter()
                .any(|w| w.headline().contains("promoted to 'int'")),
            "a warning, as gcc gives"
        );
        parse_t(
            &format!(
                "{pre}double f(int n, ...) {{ va_list ap; return __builtin_va_arg(ap, double); }}"
            ),
            Target::X86_64,
        )
        .unwrap_or_else(|e| panic!("{}", e.headline()));
        let e = error(&format!(
            "{pre}long double f(int n, ...) {{ va_list ap; return __builtin_va_arg(ap, long double); }}"
        ));
        assert!(e.contains("'long double' is not supported"), "{e}");
    }
}
