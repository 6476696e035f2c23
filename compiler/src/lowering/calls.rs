//! Calls: direct (`call @f`), indirect (through a `ptr`), variadic, to externals, and the
//! record-by-value convention.
//!
//! Why: a call is where the C view of a function (its type at the call) meets the IR's
//! (the callee's signature); records by value travel as the target's ABI says (`abi.rs`):
//! in integer pieces (registers or stack slots, read when the argument is evaluated), or
//! as a `ptr` to a fresh copy; a record result comes back as a piece the caller stores
//! into a fresh slot, or through a hidden first `ptr` parameter pointing at a slot the
//! caller provides.
//!
//! Invariants: arguments are evaluated right to left (gcc -O0's order on x86-64), a
//! record argument is copied (or read into pieces) as soon as it is evaluated; a direct call always matches
//! the callee's IR signature (a mismatch, possible only through an old-style
//! declaration, is adjusted as gcc passes it (`unprototyped.rs`) or is a diagnostic,
//! never invalid IR); every referenced function is lowered or declared.

use super::abi::{abi_signature_named, ArgPlace, RetPlace};
use super::builder::exact;
use super::expr::RVal;
use super::function::{FnLower, Res};
use super::types::def_signature;
use crate::abi_intrinsics::{AbiFloatPart, AbiHi, AbiSret};
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
        let direct = match &callee.kind {
            ExprKind::Decay(f) | ExprKind::AddrOf(f) => match &f.kind {
                ExprKind::Func(name) => Some(name.as_str()),
                _ => None,
            },
            _ => None,
        };
        if let Some(name) = direct.filter(|n| super::varargs::is_va_builtin(n)) {
            return self.va_builtin(name, args, e);
        }
        if let Some(name) = direct.filter(|n| super::overflow::is_overflow_builtin(n)) {
            return self.overflow_builtin(name, args, e);
        }
        if let Some(name) = direct {
            let builtin = super::builtins::LoweredBuiltin::by_name(name);
            if let Some(b) = builtin.filter(|_| !super::builtins::program_overrides(self.ctx, name))
            {
                return self.lower_builtin(b, name, args, e);
            }
        }
        // A nested function's static chain: one more argument (`nested_fn.rs`).
        let chain = match direct {
            Some(name) => self.static_chain(name, e.loc)?,
            None => None,
        };
        let chain_ty = chain.map(|_| super::nested_fn::chain_type());
        let target = match direct {
            Some(name) => Callee::Direct(name.to_string()),
            None => {
                let (fp, _) = self.scalar(callee)?;
                Callee::Indirect(fp)
            }
        };
        // The arguments' own types: they equal the parameters' for a prototyped call, and
        // they are what an unprototyped or variadic call passes.
        let named = if fn_ty.variadic {
            fn_ty.params.len()
        } else {
            usize::MAX
        };
        let arg_types = args.iter().map(|a| &a.ty).chain(chain_ty.as_ref());
        let sig = abi_signature_named(self.ctx, arg_types, named, &fn_ty.ret)
            .map_err(|m| self.err(e.loc, m))?;
        let mut ir_args: Vec<Option<(IrType, Operand)>> = vec![None; sig.params.len()];
        let ret_slot = match sig.ret_place {
            RetPlace::Hidden {
                size,
                align,
                out_of_band,
                ..
            } => {
                let slot = self.temp(IrType::I8, size, align);
                if !out_of_band {
                    ir_args[0] = Some((IrType::Ptr, slot));
                }
                Some(slot)
            }
            _ => None,
        };
        // Right to left, as gcc -O0 evaluates arguments on x86-64
        // (C leaves the order unspecified; csmith programs can observe it).
        for (a, place) in args.iter().zip(&sig.args).rev() {
            match place {
                ArgPlace::Scalar { index, .. } => {
                    let (v, t) = self.scalar(a)?;
                    ir_args[*index] = Some((t, v));
                }
                ArgPlace::Pieces {
                    piece,
                    indices,
                    size,
                    align,
                } => {
                    let src = self.record_value(a)?;
                    let pieces = self.record_pieces(src, *size, *align, *piece)?;
                    for (&i, v) in indices.iter().zip(pieces) {
                        ir_args[i] = Some((*piece, v));
                    }
                }
                ArgPlace::Parts { parts, size, align } => {
                    let src = self.record_value(a)?;
                    let layout: Vec<_> = parts.iter().map(|(_, p)| *p).collect();
                    let values = self.record_parts(src, *size, *align, &layout)?;
                    for ((i, p), v) in parts.iter().zip(values) {
                        ir_args[*i] = Some((p.ty, v));
                    }
                }
                ArgPlace::ByRef { index, size, align } => {
                    let src = self.record_value(a)?;
                    let copy = self.temp(IrType::I8, *size, *align);
                    self.memcpy(copy, src, *size)?;
                    ir_args[*index] = Some((IrType::Ptr, copy));
                }
            }
        }
        if let (Some(c), Some(ArgPlace::Scalar { index, .. })) = (chain, sig.args.get(args.len())) {
            ir_args[*index] = Some((IrType::Ptr, c));
        }
        // Unused filler parameters (registers left free before a stack argument); among
        // the unnamed arguments of a variadic call they are `i8 0`, a type no promoted
        // argument has, so the oracle knows that `va_arg` must never read them.
        let named_end = super::varargs::named_ir_end(&sig, fn_ty);
        let ir_args: Vec<(IrType, Operand)> = ir_args
            .into_iter()
            .zip(&sig.params)
            .enumerate()
            .map(|(i, (a, &t))| {
                let t = if i >= named_end { IrType::I8 } else { t };
                a.unwrap_or((t, exact(t, 0)))
            })
            .collect();
        let (ir_args, callee_ret) = match &target {
            Callee::Direct(name) => self.check_direct(name, ir_args, sig.ret, e)?,
            Callee::Indirect(fp) => {
                // After the arguments: a wrongly typed call is undefined only when it
                // happens (C11 6.5.2.2p9,10), not if an argument never returns.
                self.check_call_type(*fp, fn_ty);
                (ir_args, sig.ret)
            }
        };
        if let (
            RetPlace::Hidden {
                out_of_band: true, ..
            },
            Some(slot),
        ) = (sig.ret_place, ret_slot)
        {
            // Directly before the call (`abi_intrinsics::pair_placement_error`).
            self.abi_sret(AbiSret::Arg, vec![(IrType::Ptr, slot)]);
        }
        // An indirect call of a variadic function says where its `...` starts (RISC-V
        // passes unnamed floats in integer registers, c-torture's 930513-1.c); a direct
        // call's callee declaration says it.
        let named_count = match &target {
            Callee::Indirect(_) if fn_ty.variadic => u32::try_from(named_end).ok(),
            _ => None,
        };
        let dest = (sig.ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret: callee_ret,
            callee: target,
            args: ir_args,
            named: named_count,
        });
        // A result read in another signedness (`unprototyped.rs`): the same bits.
        let dest = match dest {
            Some(d) if callee_ret != sig.ret => {
                match self.cast(callee_ret, Operand::Value(d), sig.ret) {
                    Operand::Value(v) => Some(v),
                    Operand::Const(_) => Some(d),
                }
            }
            d => d,
        };
        let result = match (sig.ret_place, ret_slot, dest) {
            (_, Some(slot), _) => RVal::Record(slot),
            (RetPlace::Pair { piece, size, align }, _, Some(v)) => {
                // Directly after the call (`abi_intrinsics::pair_placement_error`).
                let hi = self.abi_hi(AbiHi::ResultHi, vec![]);
                let pieces = [Operand::Value(v), hi.unwrap_or(exact(piece, 0))];
                RVal::Record(self.record_from_pieces(&pieces, size, align, piece))
            }
            (RetPlace::Parts(rp), _, Some(v)) => {
                // Directly after the call (`abi_intrinsics::pair_placement_error`).
                let mut values = Vec::with_capacity(rp.parts().len());
                for (i, p) in rp.parts().iter().enumerate() {
                    values.push(if rp.is_result(i) {
                        Operand::Value(v)
                    } else {
                        let k = AbiFloatPart {
                            set: false,
                            ty: p.ty,
                            reg: rp.float_reg(i),
                        };
                        self.abi_float_part(k, vec![]).unwrap_or(exact(p.ty, 0))
                    });
                }
                RVal::Record(self.record_from_parts(&values, rp.size, rp.align, rp.parts()))
            }
            (RetPlace::Piece { piece, size, align }, _, Some(v)) => {
                RVal::Record(self.record_from_pieces(&[Operand::Value(v)], size, align, piece))
            }
            (_, None, Some(v)) => RVal::Scalar(Operand::Value(v), sig.ret),
            (_, None, None) => RVal::Void,
        };
        if let Some(name) = direct.filter(|_| chain.is_some()) {
            // A nested function's `goto` out of it (`nested_fn.rs`).
            self.check_nonlocal_goto(name, e.loc)?;
        }
        Ok(result)
    }

    /// References `name` and checks the call agrees with its IR signature; returns the
    /// arguments to pass and the callee's result type (adjusted as gcc does for a callee
    /// defined without a prototype: `unprototyped.rs`).
    fn check_direct(
        &mut self,
        name: &str,
        args: Vec<(IrType, Operand)>,
        ret: IrType,
        e: &Expr,
    ) -> Res<(Vec<(IrType, Operand)>, IrType)> {
        let fallback = IrDecl {
            name: name.to_string(),
            params: args.iter().map(|(t, _)| *t).collect(),
            variadic: false,
            ret,
        };
        self.ctx.reference_function(name, e.loc, Some(fallback))?;
        // A call through a declaration without a prototype (an implicit one included) is
        // reconciled as one to an old-style definition: C99 6.5.2.2p6 defines a signed
        // argument for an unsigned parameter of its width (and the reverse) when the value
        // fits both, and gcc passes the bits either way (c-torture `20031211-2.c`).
        let call_unprototyped = matches!(&e.kind, crate::frontend::ast::ExprKind::Call { fn_ty, .. } if !fn_ty.has_prototype);
        let mut unprototyped = false;
        let (params, variadic, callee_ret) = if let Some(def) = self.ctx.definition(name) {
            let s = def_signature(self.ctx, def).map_err(|m| self.err(e.loc, m))?;
            unprototyped = !def.ty.has_prototype;
            (s.params, def.ty.variadic, s.ret)
        } else if let Some(d) = self.ctx.decls.get(name) {
            (d.params.clone(), d.variadic, d.ret)
        } else {
            return Err(self.err(e.loc, format!("function `{name}` is not declared")));
        };
        // Never for a variadic callee: its unnamed arguments must all be passed.
        unprototyped |= call_unprototyped && !variadic;
        let count_ok = if variadic {
            args.len() >= params.len()
        } else {
            args.len() == params.len()
        };
        let types_ok = args.iter().zip(&params).all(|((a, _), p)| a == p);
        if count_ok && types_ok && ret == callee_ret {
            return Ok((args, callee_ret));
        }
        let adjusted = if unprototyped && self.result_reinterpretable(callee_ret, ret) {
            self.reconcile_unprototyped_args(&params, &args)
        } else {
            None
        };
        adjusted.map(|args| (args, callee_ret)).ok_or_else(|| {
            self.err(
                e.loc,
                format!(
                    "call to `{name}` does not match its definition (arguments or return \
                     type differ beyond what gcc passes for an old-style definition)"
                ),
            )
        })
    }
}
