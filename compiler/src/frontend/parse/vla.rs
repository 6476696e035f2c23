//! Variable-length arrays in declarations: which array lengths are run-time expressions,
//! and where a VLA type may appear.
//!
//! Why it exists: C99 lets a block-scope array's length be any integer expression
//! (`int x[n];`), evaluated when the declaration is reached; gcc's c-torture uses it
//! widely. phicc supports the VLA *object* whose type is `T name[expr]` with a
//! fixed-size `T` (its storage is a `dynalloca`, `lowering/vla.rs`), and a parameter
//! `T name[expr]` (adjusted to `T *` like any array parameter; a definition evaluates the
//! length on entry, `param_lengths.rs`).
//! Every other variably modified type (a VLA typedef, `int (*p)[n]`, `int a[4][n]`,
//! `sizeof (int[n])`, a VLA member) is a clear error, never a type with a wrong size.
//!
//! Invariants:
//! - an array length is a constant when it is an integer constant expression, as before;
//!   otherwise, at block scope or in a parameter list, the derivation's `len` is `None`
//!   and its `[`'s location is recorded in [`VlaState::lengths`] (with the expression for
//!   a block-scope object; `None` in a parameter list, where the length may name
//!   parameters the parser does not declare yet: its tokens' start is recorded for the
//!   definition to evaluate, `param_lengths.rs`);
//! - `apply_declarator` accepts such a derivation only as the outermost one of a
//!   declarator whose context allows it ([`VlaState::allow_outer`]); a VLA object is a
//!   local of type `T[]` (incomplete: `sizeof` of it is an error), listed with its length
//!   in `FunctionDef::vla_objects`; it has no initializer (C99 6.7.8p3).

use super::Parser;
use crate::frontend::ast::{Expr, LocalId, LocalVar};
use crate::frontend::diag::Diagnostic;
use crate::frontend::parse::declarator::{Declarator, Derivation};
use crate::frontend::parse::OrdinaryEntity;
use crate::frontend::source::Loc;
use crate::frontend::token::Punct;
use crate::frontend::types::{QualType, Type};
use std::cell::Cell;
use std::rc::Rc;

/// The parser's VLA bookkeeping for the function being parsed.
#[derive(Debug, Default)]
pub(crate) struct VlaState {
    /// The run-time array lengths met, by the location of their `[`.
    lengths: Vec<(Loc, Option<Expr>)>,
    /// True while the declarator being applied may have a VLA as its outermost
    /// derivation (a block-scope object or a parameter).
    pub allow_outer: Cell<bool>,
    /// Nesting depth of parameter lists being parsed.
    pub(super) param_depth: u32,
    /// Where the run-time lengths of the parameter list being parsed start (token
    /// positions; `param_lengths.rs`).
    pub(super) param_lengths: Vec<usize>,
    /// The current function's VLA objects and their lengths.
    pub objects: Vec<(LocalId, Expr)>,
}

impl Parser<'_> {
    /// array-length: assignment-expression — the length inside `[...]` (after its
    /// qualifiers): `Some(n)` for an integer constant expression, `None` for a run-time
    /// length (recorded at `bracket`) where one is allowed.
    pub(crate) fn parse_array_length(&mut self, bracket: Loc) -> Result<Option<u64>, Diagnostic> {
        let in_params = self.vla.param_depth > 0;
        if self.at_file_scope() && !in_params {
            let (v, vloc) = self.decl_int_constant()?;
            return self.checked_length(v, vloc).map(Some);
        }
        let start = self.pos;
        let vloc = self.loc();
        let e = match self.parse_assign_expr() {
            Ok(e) => self.rvalue(e),
            Err(_) if in_params => {
                // The length names parameters not declared yet: a definition parses it
                // again on entry (`param_lengths.rs`).
                self.pos = start;
                self.skip_to_closing_bracket()?;
                self.record_parameter_length(start);
                self.vla.lengths.push((bracket, None));
                return Ok(None);
            }
            Err(err) => return Err(err),
        };
        if !e.ty.ty.is_integer() {
            return Err(self.error_at(vloc, "size of array has non-integer type"));
        }
        match self.eval_int_const(&e) {
            Some(v) => self.checked_length(v, vloc).map(Some),
            None => {
                if in_params {
                    self.record_parameter_length(start);
                }
                self.vla.lengths.push((bracket, (!in_params).then_some(e)));
                Ok(None)
            }
        }
    }

    /// A constant length, checked.
    fn checked_length(&self, v: i128, vloc: Loc) -> Result<u64, Diagnostic> {
        if v < 0 {
            return Err(self.error_at(vloc, "size of array is negative"));
        }
        if v > i128::from(super::layout::largest_type_size(self.target)) {
            return Err(self.error_at(vloc, "size of array is too large"));
        }
        Ok(v as u64)
    }

    /// Skips tokens up to (not including) the `]` that closes the current brackets.
    fn skip_to_closing_bracket(&mut self) -> Result<(), Diagnostic> {
        let mut depth = 0u32;
        loop {
            if matches!(self.peek().kind, crate::frontend::token::TokenKind::Eof) {
                return Err(self.error_expected("']'"));
            }
            if self.is_punct(Punct::LBracket) || self.is_punct(Punct::LParen) {
                depth += 1;
            } else if self.is_punct(Punct::RBracket) || self.is_punct(Punct::RParen) {
                if depth == 0 {
                    return Ok(());
                }
                depth -= 1;
            }
            self.bump();
        }
    }

    /// Runs `f` with parameter lists' run-time lengths allowed.
    pub(crate) fn in_parameter_list<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.vla.param_depth += 1;
        let r = f(self);
        self.vla.param_depth -= 1;
        r
    }

    /// Applies declarator `d` to `base` allowing a VLA as its outermost derivation.
    pub(crate) fn apply_declarator_allowing_vla(
        &self,
        base: QualType,
        d: &Declarator,
    ) -> Result<QualType, Diagnostic> {
        self.vla.allow_outer.set(true);
        let r = self.apply_declarator(base, d);
        self.vla.allow_outer.set(false);
        r
    }

    /// In `apply_declarator`: the array derivation at `bracket`, the `outermost` one or
    /// not, is a VLA where none may be (an error), or is fine.
    pub(crate) fn check_vla_derivation(
        &self,
        bracket: Loc,
        outermost: bool,
    ) -> Result<(), Diagnostic> {
        if !self.vla.lengths.iter().any(|(l, _)| *l == bracket) {
            return Ok(());
        }
        if outermost && self.vla.allow_outer.get() {
            return Ok(());
        }
        Err(self.error_at(
            bracket,
            "this variably modified type is not supported by phicc (only an object `T a[n]` \
             of a fixed-size T, or a parameter `T a[n]`)",
        ))
    }

    /// The run-time length of `d`'s outermost derivation when it is a block-scope VLA.
    pub(crate) fn outer_vla_length(&self, d: &Declarator) -> Option<Expr> {
        let Some(Derivation::Array { len: None, loc, .. }) = d.derivations.last() else {
            return None;
        };
        self.vla
            .lengths
            .iter()
            .find(|(l, _)| l == loc)
            .and_then(|(_, e)| e.clone())
    }

    /// A block-scope VLA object `T name[len]` (type `T[]` here): a local whose storage
    /// the lowering allocates when the declaration is reached.
    pub(crate) fn declare_vla_object(
        &mut self,
        name: Rc<str>,
        loc: Loc,
        ty: QualType,
        len: Expr,
    ) -> Result<LocalId, Diagnostic> {
        let Type::Array(elem, None) = &ty.ty else {
            return Err(self.error_at(loc, "internal error: a VLA without an array type"));
        };
        if self.size_of(&elem.ty).is_none() {
            return Err(self.error_at(loc, "array type has incomplete element type"));
        }
        if self.is_punct(Punct::Assign) {
            return Err(self.error_at(loc, "variable-sized object may not be initialized"));
        }
        let id = self.add_local(LocalVar {
            name: name.to_string(),
            ty: ty.clone(),
            loc,
            is_param: false,
            align: None,
        });
        self.declare_ordinary(name, OrdinaryEntity::Local(id, ty));
        self.vla.objects.push((id, len));
        Ok(id)
    }

    /// The current function's VLA objects, taken when its definition ends.
    pub(crate) fn take_vla_objects(&mut self) -> Vec<(LocalId, Expr)> {
        self.vla.lengths.clear();
        std::mem::take(&mut self.vla.objects)
    }
}
