//! Declared alignments: C11's alignment specifier `_Alignas` (6.7.5),
//! `__attribute__((aligned(N)))` on objects and functions, and what `__alignof__` /
//! `_Alignof` of an object or function designator answers.
//!
//! Why it exists: an alignment belongs to a declaration, not to a type (`_Alignas(16)
//! unsigned short in[128]` is still an `unsigned short[128]`), so phicc keeps it beside
//! the declaration (`GlobalVar::align`, `LocalVar::align`, `FunctionDef::align`) and the
//! lowering gives the object or the function's code at least that alignment
//! (`lowering/globals.rs`, `lowering/function.rs`, the backends' `.p2align`).
//!
//! Invariants: a declared alignment only ever raises the alignment (the largest of the
//! type's and every declaration's, as gcc merges them; a smaller `_Alignas` is a
//! constraint violation gcc rejects, which phicc leaves at the type's); `_Alignas(0)` has
//! no effect (C11 6.7.5p6); every declared value is a power of two (checked where it is
//! read). Struct members take the same `Attrs::aligned` through the record layout
//! (`layout.rs`). `__alignof__(f)` of a function is its declared alignment or the
//! target's function boundary (gcc's `FUNCTION_BOUNDARY`: 1 on x86, 4 on aarch64, 2 on
//! riscv64 with the C extension), as each target's gcc answers.

use super::attributes::Attrs;
use super::{OrdinaryEntity, Parser};
use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::diag::Diagnostic;
use crate::frontend::token::{Keyword, Punct};
use crate::frontend::Target;

/// The largest alignment a declaration may ask for (gcc's limit for ELF objects is
/// 2^28; phicc's frames and sections accept what the attribute parser accepts).
const MAX_DECLARED_ALIGN: i128 = 1 << 28;

/// The alignment of a function's code when none is declared (gcc's `FUNCTION_BOUNDARY`
/// in bytes, what `__alignof__(f)` gives on each target).
pub(crate) fn function_boundary(target: Target) -> u64 {
    match target {
        Target::X86_64 | Target::I686 => 1,
        Target::Aarch64 => 4,
        Target::Riscv64 => 2,
    }
}

impl Parser<'_> {
    /// alignment-specifier:
    ///     '_Alignas' '(' type-name ')'
    ///     '_Alignas' '(' constant-expression ')'
    /// The cursor is on `_Alignas`; the result is an `aligned` attribute (none for
    /// `_Alignas(0)`).
    pub(crate) fn parse_alignment_specifier(&mut self) -> Result<Attrs, Diagnostic> {
        self.expect_keyword_alignas()?;
        self.expect_punct(Punct::LParen)?;
        let align = if self.token_starts_type(0) {
            let ty = self.parse_type_name()?;
            Some(self.align_of(&ty.ty))
        } else {
            let (v, loc) = self.decl_int_constant()?;
            if v == 0 {
                None
            } else if !(0..=MAX_DECLARED_ALIGN).contains(&v) || (v & (v - 1)) != 0 {
                return Err(self.error_at(loc, "requested alignment is not a positive power of 2"));
            } else {
                Some(v as u64)
            }
        };
        self.expect_punct(Punct::RParen)?;
        Ok(Attrs {
            aligned: align,
            ..Attrs::default()
        })
    }

    fn expect_keyword_alignas(&mut self) -> Result<(), Diagnostic> {
        if self.eat_keyword(Keyword::Alignas) {
            Ok(())
        } else {
            Err(self.error_expected("'_Alignas'"))
        }
    }

    /// Gives the object `name`, just declared in the innermost scope, the alignment
    /// `attrs` declares (if any): raised, never lowered, across its declarations.
    pub(crate) fn note_object_alignment(&mut self, name: &str, attrs: Attrs) {
        let Some(align) = attrs.aligned else {
            return;
        };
        match self.lookup_ordinary(name) {
            Some(OrdinaryEntity::Local(id, _)) => {
                let id = id.0 as usize;
                if let Some(local) = self.func.as_mut().and_then(|f| f.locals.get_mut(id)) {
                    local.align = local.align.max(Some(align));
                }
            }
            Some(OrdinaryEntity::Global(id, _)) => {
                let id = id.0 as usize;
                if let Some(global) = self.globals.get_mut(id) {
                    global.align = global.align.max(Some(align));
                }
            }
            _ => {}
        }
    }

    /// The alignment declared for the object or function `e` designates, when `e` is
    /// a plain name (`__alignof__(in)`, `__alignof__(func)`): `None` for any other
    /// expression, whose alignment is its type's.
    pub(crate) fn designator_alignment(&self, e: &Expr) -> Option<u64> {
        match &e.kind {
            ExprKind::Local(id) => {
                let f = self.func.as_ref()?;
                f.locals.get(id.0 as usize)?.align
            }
            ExprKind::Global(id) => self.globals.get(id.0 as usize)?.align,
            ExprKind::Func(name) => Some(
                self.decl
                    .functions
                    .get(name)
                    .and_then(|f| f.align)
                    .unwrap_or(function_boundary(self.target)),
            ),
            _ => None,
        }
    }
}
