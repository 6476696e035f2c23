//! Global variables, string literals and the all-zero constant, as IR globals.
//!
//! Why: static objects are initialized images (`StaticInit`: bytes plus pointer
//! relocations) that the IR writes as compact item lists: runs of zero bytes become
//! `zero N`, pointers `ptr @sym+off`, other bytes `str "..."`.
//!
//! Invariants:
//! - every defined global is emitted (also unused ones: cheap, and their relocations
//!   keep what they point at alive); `extern` declarations without definition are not
//!   (using one is a diagnostic at the use);
//! - a tentative definition is `zeroinit`; a global all of whose bytes are
//!   const-qualified is `const`;
//! - string literal N is `@.str.N` (the IR's symbol syntax allows dots, C's does not, so
//!   no C name can collide), emitted when some code or initializer refers to it;
//! - items never exceed the global's size: relocations and bytes outside the object are
//!   a diagnostic.

use super::types::{declared_align, is_const_object, object_align};
use super::ModuleCtx;
use crate::frontend::ast::{RelocTarget, StaticInit};
use crate::frontend::Diagnostic;
use crate::ir::{GlobalInit, GlobalItem, IrGlobal, IrModule};

/// The symbol of string literal `id`.
pub fn string_symbol(id: u32) -> String {
    format!(".str.{id}")
}

/// Zero runs at least this long become `zero N` items.
const MIN_ZERO_RUN: usize = 4;

/// Every defined global of the unit.
pub(crate) fn lower_globals(ctx: &mut ModuleCtx) -> Result<Vec<IrGlobal>, Diagnostic> {
    let unit = ctx.unit;
    let mut out = Vec::new();
    for g in &unit.globals {
        if g.is_extern_only {
            continue;
        }
        let size = match g.ty.ty.size(ctx.target, &unit.records) {
            // An initialized flexible array member makes the object larger than its
            // type (`frontend::parse::flexible_init`).
            Some(s) => g.init.as_ref().map_or(s, |i| s.max(i.bytes.len() as u64)),
            None => match &g.init {
                Some(init) => init.bytes.len() as u64,
                None => {
                    return Err(ctx.error(g.loc, format!("`{}` has an incomplete type", g.name)))
                }
            },
        };
        let size32 = u32::try_from(size.max(1))
            .map_err(|_| ctx.error(g.loc, format!("`{}` is too large (over 4 GiB)", g.name)))?;
        let init = match &g.init {
            None => GlobalInit::Zero,
            Some(init) => {
                if init.bytes.len() as u64 > size {
                    return Err(ctx.error(
                        g.loc,
                        format!("internal error: initializer of `{}` exceeds it", g.name),
                    ));
                }
                for r in &init.relocs {
                    match &r.target {
                        RelocTarget::Function(name) => {
                            super::nested_fn::check_nested_address(ctx, name, g.loc)?;
                            ctx.reference_function(name, g.loc, None)?
                        }
                        RelocTarget::String(id) => match ctx.strings_used.get_mut(id.0 as usize) {
                            Some(u) => *u = true,
                            None => return Err(ctx.error(g.loc, "internal error: unknown string")),
                        },
                        RelocTarget::Global(id) => match unit.globals.get(id.0 as usize) {
                            Some(t) if t.is_extern_only => {
                                return Err(ctx.error(
                                    g.loc,
                                    format!(
                                        "`{}` is declared `extern` but not defined in this \
                                         translation unit",
                                        t.name
                                    ),
                                ))
                            }
                            Some(_) => {}
                            None => return Err(ctx.error(g.loc, "internal error: unknown global")),
                        },
                    }
                }
                items(ctx, init, size).map_err(|m| ctx.error(g.loc, m))?
            }
        };
        out.push(IrGlobal {
            name: g.name.clone(),
            size: size32,
            align: object_align(ctx, &g.ty.ty).max(declared_align(g.align)),
            is_const: is_const_object(&g.ty),
            init,
        });
    }
    Ok(out)
}

/// The item list of an initialized static object of `size` bytes.
fn items(ctx: &ModuleCtx, init: &StaticInit, size: u64) -> Result<GlobalInit, String> {
    let pb = u64::from(ctx.ptr_bytes);
    let mut relocs: Vec<_> = init.relocs.iter().collect();
    relocs.sort_by_key(|r| r.offset);
    let mut out = Vec::new();
    let mut pos = 0u64;
    let bytes = &init.bytes;
    let byte_at = |i: u64| bytes.get(i as usize).copied().unwrap_or(0);
    let emit_bytes = |out: &mut Vec<GlobalItem>, from: u64, to: u64| {
        // Bytes [from, to) as zero runs and strings.
        let mut i = from;
        let mut pending: Vec<u8> = Vec::new();
        while i < to {
            let mut j = i;
            while j < to && byte_at(j) == 0 {
                j += 1;
            }
            let run = (j - i) as usize;
            if run >= MIN_ZERO_RUN || (j == to && run > 0 && pending.is_empty()) {
                if !pending.is_empty() {
                    out.push(GlobalItem::Str(std::mem::take(&mut pending)));
                }
                out.push(GlobalItem::Zero(run as u32));
                i = j;
                continue;
            }
            // A short zero run stays inside the string, then the nonzero byte.
            for k in i..j {
                pending.push(byte_at(k));
            }
            if j < to {
                pending.push(byte_at(j));
                j += 1;
            }
            i = j;
        }
        if !pending.is_empty() {
            out.push(GlobalItem::Str(pending));
        }
    };
    for r in relocs {
        if r.offset < pos || r.offset + pb > size {
            return Err("internal error: overlapping or out-of-bounds relocation".into());
        }
        emit_bytes(&mut out, pos, r.offset);
        let sym = match &r.target {
            RelocTarget::Global(id) => ctx
                .unit
                .globals
                .get(id.0 as usize)
                .map(|g| g.name.clone())
                .ok_or("internal error: unknown global")?,
            RelocTarget::Function(name) => name.clone(),
            RelocTarget::String(id) => string_symbol(id.0),
        };
        out.push(GlobalItem::Ptr(sym, r.addend));
        pos = r.offset + pb;
    }
    // Trailing zeros are implicit.
    let mut end = (bytes.len() as u64).min(size);
    while end > pos && byte_at(end - 1) == 0 {
        end -= 1;
    }
    if end > pos {
        emit_bytes(&mut out, pos, end);
    }
    Ok(GlobalInit::Items(out))
}

/// Adds the referenced string literals and, when needed, the all-zero constant.
pub(crate) fn add_strings_and_zero(ctx: &ModuleCtx, module: &mut IrModule) {
    for (i, s) in ctx.unit.strings.iter().enumerate() {
        if !ctx.strings_used.get(i).copied().unwrap_or(false) {
            continue;
        }
        module.globals.push(IrGlobal {
            name: string_symbol(i as u32),
            size: (s.len() as u32).max(1),
            // A wide literal is aligned as its `wchar_t` elements.
            align: u32::from(ctx.unit.string_elem_sizes.get(i).copied().unwrap_or(1)),
            is_const: true,
            init: GlobalInit::Items(vec![GlobalItem::Str(s.clone())]),
        });
    }
    if ctx.zero_size > 0 {
        module.globals.push(IrGlobal {
            name: super::ZERO_GLOBAL.to_string(),
            size: ctx.zero_size,
            align: 16,
            is_const: true,
            init: GlobalInit::Zero,
        });
    }
}
