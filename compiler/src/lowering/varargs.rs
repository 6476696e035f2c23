//! `va_start`, `va_arg`, `va_end` and `va_copy` (the `__builtin_va_*` calls the parser
//! makes, `frontend::parse::va_builtins`) as calls of the intrinsics of
//! `crate::va_intrinsics`, and the checks a variadic definition needs.
//!
//! Why: the IR stays target-independent where the ABIs differ most; only two facts of the
//! target reach it here: where the `va_list` object is (its address: `ap` itself where
//! `va_list` is an array, x86-64; `&ap` elsewhere) and how a record travels through `...`
//! (`abi::va_record`, the same classification a call uses, so `va_arg` reads a record
//! exactly where the caller put it).
//!
//! Invariants: a `va_arg` of a type the default promotions change is `unreachable` (a
//! trap, as gcc compiles it) after `ap` is evaluated; a scalar `va_arg` yields a value of the requested type's IR type (the
//! intrinsic's class is signedness-blind and the result is cast); a record `va_arg` yields
//! a fresh temporary the size of its whole pieces; the named parameters of a variadic
//! definition never need filler registers on x86-64 (their IR positions then equal the
//! registers and stack slots the callee's `va_start` assumes).

use super::abi::{record_piece_type, va_record, AbiSignature, ArgPlace, VaRecord};
use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::scalar_type;
use crate::frontend::ast::Expr;
use crate::frontend::parse::va_builtins::promoted_to;
use crate::frontend::types::{FunctionType, Type};
use crate::frontend::Target;
use crate::ir::{Callee, Inst, IrType, Operand, Terminator};
use crate::va_intrinsics::VaIntrinsic;

/// One of the parser's `__builtin_va_*` pseudo-functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    Start,
    Arg,
    End,
    Copy,
}

/// The `__builtin_va_*` pseudo-function called `name`, if it is one.
fn builtin(name: &str) -> Option<Builtin> {
    match name {
        "__builtin_va_start" => Some(Builtin::Start),
        "__builtin_va_arg" => Some(Builtin::Arg),
        "__builtin_va_end" => Some(Builtin::End),
        "__builtin_va_copy" => Some(Builtin::Copy),
        _ => None,
    }
}

/// True when `name` is one of the parser's `__builtin_va_*` pseudo-functions.
pub(super) fn is_va_builtin(name: &str) -> bool {
    builtin(name).is_some()
}

/// The end of the IR positions of a call's named arguments (and hidden result pointer):
/// every position of a variadic call from there on belongs to the unnamed arguments or is
/// a filler among them (`usize::MAX` for a call of a function that is not variadic).
pub(super) fn named_ir_end(sig: &AbiSignature, fn_ty: &FunctionType) -> usize {
    if !fn_ty.variadic {
        return usize::MAX;
    }
    let mut end = usize::from(sig.sret());
    for place in sig.args.iter().take(fn_ty.params.len()) {
        let last = match place {
            ArgPlace::Scalar { index, .. } | ArgPlace::ByRef { index, .. } => Some(*index),
            ArgPlace::Pieces { indices, .. } => indices.last().copied(),
            ArgPlace::Parts { parts, .. } => parts.last().map(|(i, _)| *i),
        };
        if let Some(i) = last {
            end = end.max(i + 1);
        }
    }
    end
}

impl FnLower<'_, '_> {
    /// Refuses a variadic definition whose named parameters leave x86-64 registers free
    /// while one goes on the stack: gcc's callers put unnamed arguments in those
    /// registers, which the IR's "k-th parameter, k-th register" order cannot express.
    pub(super) fn check_variadic_definition(&self, sig: &AbiSignature) -> Res<()> {
        if self.ctx.target != Target::X86_64 {
            return Ok(());
        }
        let used: usize = usize::from(sig.sret())
            + sig
                .args
                .iter()
                .map(|a| match a {
                    ArgPlace::Pieces { indices, .. } => indices.len(),
                    ArgPlace::Parts { parts, .. } => parts.len(),
                    _ => 1,
                })
                .sum::<usize>();
        if used != sig.params.len() {
            return Err(self.err(
                self.def.loc,
                "a variadic function whose named struct or union parameter goes on the stack \
                 while argument registers are left is not supported yet",
            ));
        }
        Ok(())
    }

    /// `__builtin_va_*(args)` called `name`, with the call expression `e` (whose type is
    /// `va_arg`'s).
    pub(super) fn va_builtin(&mut self, name: &str, args: &[Expr], e: &Expr) -> Res<RVal> {
        let Some(k) = builtin(name) else {
            return Err(self.err(
                e.loc,
                format!("internal error: `{name}` is not a va builtin"),
            ));
        };
        let Some(first) = args.first() else {
            return Err(self.err(e.loc, format!("internal error: `{name}` without arguments")));
        };
        let ap = self.va_list_address(first)?;
        match k {
            Builtin::Start => {
                let (regs, closes) = match self.ctx.target {
                    Target::X86_64 => (6, 0),
                    Target::Aarch64 => (8, 1),
                    Target::I686 | Target::Riscv64 => (0, 0),
                };
                self.va_call(
                    VaIntrinsic::Start,
                    vec![
                        (IrType::Ptr, ap),
                        (IrType::I32, exact(IrType::I32, regs)),
                        (IrType::I8, exact(IrType::I8, closes)),
                    ],
                );
                Ok(RVal::Void)
            }
            Builtin::End => {
                self.va_call(VaIntrinsic::End, vec![(IrType::Ptr, ap)]);
                Ok(RVal::Void)
            }
            Builtin::Copy => {
                let Some(src) = args.get(1) else {
                    return Err(self.err(e.loc, "internal error: va_copy without a source"));
                };
                let src = self.va_list_address(src)?;
                self.va_call(
                    VaIntrinsic::Copy,
                    vec![(IrType::Ptr, ap), (IrType::Ptr, src)],
                );
                Ok(RVal::Void)
            }
            Builtin::Arg => self.va_arg(ap, e),
        }
    }

    /// The address of the `va_list` object `e` designates.
    fn va_list_address(&mut self, e: &Expr) -> Res<Operand> {
        match (&e.ty.ty, self.ctx.target) {
            // x86-64's `va_list` is an array: `ap` decays (or, as a parameter, already is)
            // a pointer to the object.
            (Type::Pointer(_), Target::X86_64) => Ok(self.scalar(e)?.0),
            _ => self.address_of(e),
        }
    }

    /// `va_arg(*ap, e.ty)`.
    fn va_arg(&mut self, ap: Operand, e: &Expr) -> Res<RVal> {
        let target = self.ctx.target;
        if promoted_to(&e.ty.ty).is_some() {
            // No argument can have a type the promotions change (C99 7.15.1.1p2): gcc
            // traps where the program reaches this, after evaluating `ap`.
            let ty = scalar_type(target, &e.ty.ty).map_err(|m| self.err(e.loc, m))?;
            self.b.terminate(Terminator::Unreachable);
            return Ok(RVal::Scalar(exact(ty, 0), ty));
        }
        if e.ty.ty.is_record() {
            let piece = record_piece_type(target);
            let pb = u64::from(piece.size(8));
            let (k, pieces, align) = match va_record(self.ctx, &e.ty)
                .map_err(|m| self.err(e.loc, m))?
            {
                VaRecord::Pieces { pieces, align, .. } => (VaIntrinsic::ArgPieces, pieces, align),
                VaRecord::Memory { pieces, align, .. } => (VaIntrinsic::ArgMemory, pieces, align),
                VaRecord::ByRef { size, align } => {
                    let p = self.va_call(VaIntrinsic::ArgPtr, vec![(IrType::Ptr, ap)]);
                    let copy = self.temp(IrType::I8, size, align);
                    self.memcpy(copy, p, size)?;
                    return Ok(RVal::Record(copy));
                }
            };
            let copy = self.temp(IrType::I8, pieces as u64 * pb, align.max(piece.size(8)));
            let n = i64::try_from(pieces).unwrap_or(i64::MAX);
            self.va_call(
                k,
                vec![
                    (IrType::Ptr, ap),
                    (IrType::Ptr, copy),
                    (IrType::I32, exact(IrType::I32, n)),
                ],
            );
            return Ok(RVal::Record(copy));
        }
        let ty = scalar_type(target, &e.ty.ty).map_err(|m| self.err(e.loc, m))?;
        if ty == IrType::F64 {
            let decl = crate::va_intrinsics::arg_f64_decl();
            self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
            let dest = self.value();
            self.emit(Inst::Call {
                dest: Some(dest),
                ret: IrType::F64,
                callee: Callee::Direct(crate::va_intrinsics::ARG_F64.to_string()),
                args: vec![(IrType::Ptr, ap)],
                named: None,
            });
            return Ok(RVal::Scalar(Operand::Value(dest), ty));
        }
        let Some(k) = VaIntrinsic::arg_for(ty) else {
            return Err(self.err(e.loc, format!("va_arg of IR type {ty} is not supported")));
        };
        let v = self.va_call(k, vec![(IrType::Ptr, ap)]);
        Ok(RVal::Scalar(self.cast(k.ret(), v, ty), ty))
    }

    /// Emits a call of `k` (declaring it); its result, or a dummy for the void ones.
    fn va_call(&mut self, k: VaIntrinsic, args: Vec<(IrType, Operand)>) -> Operand {
        let decl = k.decl();
        let ret = decl.ret;
        self.ctx.decls.entry(decl.name.clone()).or_insert(decl);
        let dest = (ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret,
            callee: Callee::Direct(k.name().to_string()),
            args,
            named: None,
        });
        dest.map_or(exact(IrType::I32, 0), Operand::Value)
    }
}
