//! Calls: direct (`call @f`), indirect (through a `ptr`), variadic, to externals, and the
//! record-by-value convention.
//!
//! Why: a call is where the C view of a function (its type at the call) meets the IR's
//! (the callee's signature); records by value need the convention the module doc states:
//! the caller passes a `ptr` to a fresh copy, and a record result comes back through a
//! hidden first `ptr` parameter pointing at a slot the caller provides.
//!
//! Invariants: arguments are evaluated right to left (gcc -O0's order on x86-64), a
//! record argument is copied as soon as it is evaluated; a direct call always matches
//! the callee's IR signature (a mismatch, possible only through an old-style
//! declaration, is a diagnostic, never invalid IR); every referenced function is
//! lowered or declared.

use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::{def_signature, fn_type_signature, object_align, object_size, repr, Repr};
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::types::FunctionType;
use crate::ir::{Callee, Inst, IrDecl, IrType, Operand};

impl FnLower<'_, '_> {
    /// `callee(args)`.
    pub fn call(
        &mut self,
        callee: &Expr,
        args: &[Expr],
        fn_ty: &FunctionType,
        e: &Expr,
    ) -> Res<RVal> {
        let sig = fn_type_signature(self.ctx, fn_ty).map_err(|m| self.err(e.loc, m))?;
        let direct = match &callee.kind {
            ExprKind::Decay(f) | ExprKind::AddrOf(f) => match &f.kind {
                ExprKind::Func(name) => Some(name.as_str()),
                _ => None,
            },
            _ => None,
        };
        let target = match direct {
            Some(name) => Callee::Direct(name.to_string()),
            None => {
                let (fp, _) = self.scalar(callee)?;
                self.check_call_type(fp, fn_ty);
                Callee::Indirect(fp)
            }
        };
        let mut ir_args: Vec<(IrType, Operand)> = Vec::new();
        let ret_slot = if sig.sret {
            let size = object_size(self.ctx, &fn_ty.ret.ty).map_err(|m| self.err(e.loc, m))?;
            let align = object_align(self.ctx, &fn_ty.ret.ty);
            let slot = self.temp(IrType::I8, size, align);
            ir_args.push((IrType::Ptr, slot));
            Some(slot)
        } else {
            None
        };
        // Right to left, as gcc -O0 evaluates arguments on x86-64
        // (C leaves the order unspecified; csmith programs can observe it).
        let mut evaluated: Vec<(IrType, Operand)> = Vec::with_capacity(args.len());
        for a in args.iter().rev() {
            match repr(self.ctx, &a.ty.ty).map_err(|m| self.err(a.loc, m))? {
                Repr::Scalar(_) => {
                    let (v, t) = self.scalar(a)?;
                    evaluated.push((t, v));
                }
                Repr::Record(size) => {
                    let src = self.record_value(a)?;
                    let align = object_align(self.ctx, &a.ty.ty);
                    let copy = self.temp(IrType::I8, size, align);
                    self.memcpy(copy, src, size)?;
                    evaluated.push((IrType::Ptr, copy));
                }
                Repr::Void => return Err(self.err(a.loc, "a void value is passed")),
            }
        }
        ir_args.extend(evaluated.into_iter().rev());
        if let Callee::Direct(name) = &target {
            self.check_direct(name, &ir_args, sig.ret, e)?;
        }
        let dest = (sig.ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret: sig.ret,
            callee: target,
            args: ir_args,
        });
        Ok(match (ret_slot, dest) {
            (Some(slot), _) => RVal::Record(slot),
            (None, Some(v)) => RVal::Scalar(Operand::Value(v), sig.ret),
            (None, None) => RVal::Void,
        })
    }

    /// References `name` and checks the call agrees with its IR signature.
    fn check_direct(
        &mut self,
        name: &str,
        args: &[(IrType, Operand)],
        ret: IrType,
        e: &Expr,
    ) -> Res<()> {
        let fallback = IrDecl {
            name: name.to_string(),
            params: args.iter().map(|(t, _)| *t).collect(),
            variadic: false,
            ret,
        };
        self.ctx.reference_function(name, e.loc, Some(fallback))?;
        let (params, variadic, callee_ret) = if let Some(def) = self.ctx.definition(name) {
            let s = def_signature(self.ctx, def).map_err(|m| self.err(e.loc, m))?;
            (s.params, def.ty.variadic, s.ret)
        } else if let Some(d) = self.ctx.decls.get(name) {
            (d.params.clone(), d.variadic, d.ret)
        } else {
            return Err(self.err(e.loc, format!("function `{name}` is not declared")));
        };
        let count_ok = if variadic {
            args.len() >= params.len()
        } else {
            args.len() == params.len()
        };
        let types_ok = args.iter().zip(&params).all(|((a, _), p)| a == p);
        if !count_ok || !types_ok || ret != callee_ret {
            return Err(self.err(
                e.loc,
                format!(
                    "call to `{name}` does not match its definition (arguments or return \
                     type differ; old-style declarations are not supported here)"
                ),
            ));
        }
        Ok(())
    }
}
