//! Wide character constants and string literals in expressions and initializers.
//!
//! Why it exists: `L'a'` has type `wchar_t` and `L"ab"` type `wchar_t[3]`, where
//! `wchar_t` is the target's (`Target::wchar_type`, gcc's `__WCHAR_TYPE__`: `int` on
//! x86_64 and riscv64, `long` on i686, `unsigned int` on aarch64). The lexer decodes
//! them (`frontend::wide_literal`); this file types them, concatenates adjacent string
//! literals (C11 6.4.5p5: when any piece is wide, the whole literal is wide and each
//! byte of a narrow piece becomes one code unit), and stores a wide literal's units as
//! target bytes.
//!
//! Invariants:
//! - Every string literal is interned as bytes with its terminating null element in
//!   `Parser::strings`; `Parser::string_elem_sizes` holds its element size beside it
//!   (1 for narrow, 4 for wide), which the lowering uses as the literal's alignment.
//! - A wide literal's units are stored little-endian: every phicc target is.

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind, StringId};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::TokenKind;
use crate::frontend::types::{IntKind, QualType, Type};
use crate::target::Target;
use std::rc::Rc;

/// The size of `wchar_t` in bytes on every phicc target.
const WCHAR_BYTES: u8 = 4;

impl Parser<'_> {
    /// The target's `wchar_t` (gcc's `__WCHAR_TYPE__`, as `Target::wchar_type` spells it).
    pub fn wchar_type(&self) -> Type {
        match self.target {
            Target::X86_64 | Target::Riscv64 => Type::Int(IntKind::Int),
            Target::I686 => Type::Int(IntKind::Long),
            Target::Aarch64 => Type::Int(IntKind::UInt),
        }
    }

    /// Can an array of `elem` be initialized by a wide string literal? An integer type
    /// of `wchar_t`'s size (gcc accepts either signedness).
    pub fn is_wchar_compatible(&self, elem: &Type) -> bool {
        matches!(elem, Type::Int(_)) && self.size_of(elem) == Some(u64::from(WCHAR_BYTES))
    }

    /// A wide character constant `L'x'` of value `value`.
    pub fn wide_char_expr(&self, value: i64, loc: Loc) -> Expr {
        Expr::int_lit((value as u64) & 0xffff_ffff, self.wchar_type(), loc)
    }

    /// string-literal+ (adjacent narrow and wide literals, concatenated)
    pub fn parse_string_literals(&mut self, loc: Loc) -> Result<Expr, Diagnostic> {
        let mut narrow: Vec<u8> = Vec::new();
        let mut wide: Option<Vec<u32>> = None;
        loop {
            match &self.peek().kind {
                TokenKind::Str(b) => match &mut wide {
                    Some(units) => units.extend(b.iter().map(|&c| u32::from(c))),
                    None => narrow.extend_from_slice(b),
                },
                TokenKind::WideStr(u) => {
                    let units =
                        wide.get_or_insert_with(|| narrow.iter().map(|&c| u32::from(c)).collect());
                    units.extend_from_slice(u);
                }
                _ => break,
            }
            self.bump();
        }
        let (id, elem, len) = match wide {
            None => {
                let len = narrow.len() as u64 + 1;
                (self.intern_string(narrow), Type::Int(IntKind::Char), len)
            }
            Some(units) => {
                let len = units.len() as u64 + 1;
                (self.intern_wide_string(&units), self.wchar_type(), len)
            }
        };
        let ty = Type::Array(Rc::new(QualType::new(elem)), Some(len));
        Ok(Expr::new(ExprKind::Str(id), ty, loc))
    }

    /// Records a wide string literal (units without the null one) and returns its id.
    fn intern_wide_string(&mut self, units: &[u32]) -> StringId {
        let bytes = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        self.intern_string_bytes(bytes, WCHAR_BYTES)
    }

    /// Is the string literal `id` a wide one?
    pub fn is_wide_string(&self, id: StringId) -> bool {
        self.string_elem_sizes.get(id.0 as usize) == Some(&WCHAR_BYTES)
    }

    /// The code units of the wide string literal `id`, without the null one.
    pub fn wide_string_units(&self, id: StringId) -> Option<Vec<u64>> {
        if !self.is_wide_string(id) {
            return None;
        }
        let bytes = self.strings.get(id.0 as usize)?;
        let units = bytes.chunks_exact(usize::from(WCHAR_BYTES));
        let mut out: Vec<u64> = units
            .map(|c| u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect();
        out.pop(); // the null unit
        Some(out)
    }
}
