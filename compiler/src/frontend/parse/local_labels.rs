//! GNU label extensions: local label declarations (`__label__ a, b;`) and labels as
//! values (`&&label`, `goto *expr;`), with the label lookup both share.
//!
//! Why it exists: c-torture's interpreters and state machines (`comp-goto-*.c`,
//! `920501-*.c`, ...) take labels' addresses, keep them in static tables, subtract them
//! and jump through them; `__label__` scopes a label to a block (a statement expression
//! can then use a label name again, as macros do).
//!
//! Design (no IR change): the address of a label is an address inside a hidden per-function
//! object, `FUNCTION.labels`, of N bytes (N: the labels whose address the function
//! takes): `&&l` is `(void *)((char *)&FUNCTION.labels + k)` for the label's index k,
//! in order of first `&&`. So a label address is a real pointer of the target's width:
//! it compares, subtracts (`&&l1 - &&l0` is the constant `k1 - k0`, also in a static
//! initializer), converts to an integer, and sits in static data as an ordinary address
//! constant, exactly as gcc allows; and the oracle's UB checks see pointers into one
//! object. `goto *p` becomes `Stmt::IndirectGoto` with the index
//! `(char *)p - (char *)&FUNCTION.labels`, which the lowering turns into a `switch` over
//! the function's address-taken labels (`lowering/indirect_goto.rs`).
//!
//! Invariants (gcc's rules, checked with gcc 12.2):
//! - A local label is visible from its declaration to the end of its block (statement
//!   expressions included) and hides a label of the same name outside it; a second
//!   `__label__` of one name in one block is an error; a local label used but never
//!   defined is an error at its first use, as an ordinary label.
//! - A label's address denotes that label only in its own function (a `goto *` to an
//!   address taken in another function is undefined in GNU C too: the index is not
//!   one of the switch's cases, the subtraction is between two objects, which the UB
//!   judge reports, and the switch's default is `unreachable`).
//! - `&&l` outside a function is an error (gcc: "label referenced outside of any
//!   function").

use super::Parser;
use crate::frontend::ast::{Expr, ExprKind, GlobalId, GlobalVar, LabelId, Stmt};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Punct, TokenKind};
use crate::frontend::types::{IntKind, QualType, Type};
use std::collections::HashMap;
use std::rc::Rc;

type PResult<T> = Result<T, Diagnostic>;

/// The spelling of a local label declaration.
pub(crate) const LABEL_KEYWORD: &str = "__label__";

/// One label declared with `__label__`.
#[derive(Debug, Clone)]
pub(crate) struct LocalLabel {
    pub name: Rc<str>,
    /// Where it is defined (`name:`), once it is.
    pub defined: Option<Loc>,
    /// Its first use (`goto`, `&&`).
    pub used: Option<Loc>,
}

/// Per function: label ids, the local labels in scope, the addressed labels.
#[derive(Debug, Default)]
pub(crate) struct LabelState {
    /// The next `LabelId` to hand out (function-scope and local labels share the ids).
    pub next_id: u32,
    /// The local label declarations in scope, innermost last: the scope depth
    /// (`Parser::scopes.len()`) of the block that declares it, its name and id.
    pub in_scope: Vec<(usize, Rc<str>, LabelId)>,
    /// Every local label of the function.
    pub local: HashMap<LabelId, LocalLabel>,
    /// The labels whose address is taken, in order of first `&&`: label k's address is
    /// byte k of `object`.
    pub addressed: Vec<LabelId>,
    /// `FUNCTION.labels`, created at the first `&&` or `goto *`.
    pub object: Option<GlobalId>,
}

impl LabelState {
    /// A fresh label id.
    pub fn fresh(&mut self) -> LabelId {
        self.next_id += 1;
        LabelId(self.next_id - 1)
    }
}

/// How a label name resolved.
pub(crate) struct ResolvedLabel {
    pub id: LabelId,
    pub defined: bool,
    /// A local label of an enclosing function (`nested_fn.rs`): its index in
    /// `nested_fns.outer`.
    pub outer: Option<usize>,
}

fn char_type() -> Type {
    Type::Int(IntKind::Char)
}

fn char_ptr() -> Type {
    Type::Pointer(Rc::new(QualType::new(char_type())))
}

fn void_ptr() -> Type {
    Type::Pointer(Rc::new(QualType::new(Type::Void)))
}

impl Parser<'_> {
    /// Is the cursor on a local label declaration?
    pub(crate) fn at_local_label_decl(&self) -> bool {
        self.func.is_some()
            && matches!(&self.peek().kind, TokenKind::Ident(n) if &**n == LABEL_KEYWORD)
    }

    /// local-label-declaration: '__label__' identifier (',' identifier)* ';'
    pub(crate) fn parse_local_label_decl(&mut self) -> PResult<()> {
        self.bump();
        let depth = self.scopes.len();
        loop {
            let (name, loc) = self.expect_ident()?;
            let Some(f) = self.func.as_mut() else {
                return Err(self.error_at(loc, "'__label__' outside a function"));
            };
            let duplicate = f
                .label_state
                .in_scope
                .iter()
                .any(|(d, n, _)| *d == depth && *n == name);
            if duplicate {
                return Err(self.error_at(loc, format!("duplicate label declaration '{name}'")));
            }
            let id = f.label_state.fresh();
            f.label_state.in_scope.push((depth, name.clone(), id));
            f.label_state.local.insert(
                id,
                LocalLabel {
                    name,
                    defined: None,
                    used: None,
                },
            );
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect_punct(Punct::Semi)?;
        Ok(())
    }

    /// Forgets the local labels of the blocks deeper than `depth` scopes (called when a
    /// scope is popped).
    pub(crate) fn end_local_labels(&mut self, depth: usize) {
        if let Some(f) = self.func.as_mut() {
            f.label_state.in_scope.retain(|(d, _, _)| *d <= depth);
        }
    }

    /// The label `name` denotes here, mentioned at `loc` (a definition when
    /// `defining`): the innermost local label of that name, else the function's own
    /// label (created at its first mention). `None` outside a function.
    pub(crate) fn resolve_label(
        &mut self,
        name: Rc<str>,
        loc: Loc,
        defining: bool,
    ) -> Option<ResolvedLabel> {
        let f = self.func.as_mut()?;
        let local = f
            .label_state
            .in_scope
            .iter()
            .rev()
            .find(|(_, n, _)| *n == name)
            .map(|(_, _, id)| *id);
        if let Some(id) = local {
            let info = f.label_state.local.get_mut(&id)?;
            let defined = info.defined.is_some();
            if defining {
                info.defined = info.defined.or(Some(loc));
            } else {
                info.used = info.used.or(Some(loc));
            }
            return Some(ResolvedLabel {
                id,
                defined,
                outer: None,
            });
        }
        // A nested function sees the local labels declared around it (gcc: only those).
        let outer = self
            .nested_fns
            .outer
            .iter_mut()
            .enumerate()
            .rev()
            .find_map(|(i, o)| {
                let id = o
                    .label_state
                    .in_scope
                    .iter()
                    .rev()
                    .find(|(_, n, _)| *n == name)?
                    .2;
                Some((i, id, o))
            });
        if let Some((i, id, o)) = outer.filter(|_| !defining) {
            let info = o.label_state.local.get_mut(&id)?;
            info.used = info.used.or(Some(loc));
            return Some(ResolvedLabel {
                id,
                defined: info.defined.is_some(),
                outer: Some(i),
            });
        }
        let f = self.func.as_mut()?;
        let entry = match f.labels.get(&name) {
            Some(e) => *e,
            None => {
                let id = f.label_state.fresh();
                f.labels.insert(name.clone(), (id, None, loc));
                (id, None, loc)
            }
        };
        if defining && entry.1.is_none() {
            if let Some(e) = f.labels.get_mut(&name) {
                e.1 = Some(loc);
            }
        }
        Some(ResolvedLabel {
            id: entry.0,
            defined: entry.1.is_some(),
            outer: None,
        })
    }

    /// The first local label (by id) used but never defined: an error at its first use.
    pub(crate) fn check_local_labels_defined(&self) -> PResult<()> {
        let Some(f) = &self.func else {
            return Ok(());
        };
        let undefined = f
            .label_state
            .local
            .iter()
            .filter(|(_, l)| l.defined.is_none())
            .filter_map(|(id, l)| l.used.map(|u| (id.0, u, l.name.clone())))
            .min_by_key(|(id, _, _)| *id);
        match undefined {
            Some((_, used, name)) => {
                Err(self.error_at(used, format!("label '{name}' used but not defined")))
            }
            None => Ok(()),
        }
    }

    /// The current function (`None`) or enclosing function `outer`'s state.
    fn label_owner(&mut self, outer: Option<usize>) -> Option<&mut super::FunctionState> {
        match outer {
            None => self.func.as_mut(),
            Some(i) => self.nested_fns.outer.get_mut(i),
        }
    }

    /// The label object of the current function (`None`) or of enclosing function
    /// `outer` (created on first need).
    fn label_object(&mut self, outer: Option<usize>, loc: Loc) -> Option<GlobalId> {
        let next = GlobalId(self.globals.len() as u32);
        let f = self.label_owner(outer)?;
        if let Some(g) = f.label_state.object {
            return Some(g);
        }
        let g = next;
        f.label_state.object = Some(g);
        let name = format!("{}.labels", f.name);
        self.globals.push(GlobalVar {
            name,
            // Sized by `finish_label_object` once the body is parsed.
            ty: QualType::new(Type::Array(Rc::new(QualType::new(char_type())), Some(1))),
            is_static: true,
            init: None,
            is_extern_only: false,
            align: None,
            loc,
        });
        Some(g)
    }

    /// `(char *)&FUNCTION.labels` (the object typed as one `char`: a whole object, so
    /// the checked lowering binds no sub-object bounds to it).
    fn label_object_base(&self, g: GlobalId, loc: Loc) -> Expr {
        let object = Expr::new(ExprKind::Global(g), char_type(), loc);
        Expr::new(ExprKind::AddrOf(Box::new(object)), char_ptr(), loc)
    }

    /// unary-expression: '&&' identifier (GNU; the cursor is on the `&&`)
    pub(crate) fn parse_label_address(&mut self) -> PResult<Expr> {
        let loc = self.bump().loc;
        let (name, name_loc) = self.expect_ident()?;
        let Some(label) = self.resolve_label(name.clone(), name_loc, false) else {
            return Err(self.error_at(
                loc,
                format!("label '{name}' referenced outside of any function"),
            ));
        };
        let Some(g) = self.label_object(label.outer, loc) else {
            return Err(self.error_at(loc, "label address outside a function"));
        };
        let k = match self.label_owner(label.outer) {
            Some(f) => match f.label_state.addressed.iter().position(|l| *l == label.id) {
                Some(k) => k,
                None => {
                    f.label_state.addressed.push(label.id);
                    f.label_state.addressed.len() - 1
                }
            },
            None => 0,
        };
        let index = Expr::new(ExprKind::IntLit(k as u64), self.ptrdiff_type(), loc);
        let at = Expr::new(
            ExprKind::PtrAdd {
                ptr: Box::new(self.label_object_base(g, loc)),
                index: Box::new(index),
                elem_size: 1,
            },
            char_ptr(),
            loc,
        );
        Ok(Expr::new(ExprKind::Cast(Box::new(at)), void_ptr(), loc))
    }

    /// jump-statement: 'goto' '*' expression ';' (GNU; the cursor is on the `*`)
    pub(crate) fn parse_indirect_goto(&mut self, loc: Loc) -> PResult<Stmt> {
        self.bump();
        let e = self.parse_expr()?;
        self.expect_punct(Punct::Semi)?;
        let e = self.rvalue(e);
        if !e.ty.ty.is_pointer() {
            return Err(self.error_at(e.loc, "computed goto must be pointer type"));
        }
        let Some(g) = self.label_object(None, loc) else {
            return Err(self.error_at(loc, "goto outside a function"));
        };
        let target = super::convert::cast_to(e, &char_ptr());
        let index = Expr::new(
            ExprKind::PtrDiff {
                lhs: Box::new(target),
                rhs: Box::new(self.label_object_base(g, loc)),
                elem_size: 1,
            },
            self.ptrdiff_type(),
            loc,
        );
        Ok(Stmt::IndirectGoto(index))
    }

    /// At the end of a function body: sizes its label object to the labels whose
    /// address was taken and returns them in the order of their addresses.
    pub(crate) fn finish_label_object(&mut self) -> Vec<LabelId> {
        let Some(f) = self.func.as_ref() else {
            return Vec::new();
        };
        let addressed = f.label_state.addressed.clone();
        if let Some(g) = f.label_state.object {
            let n = addressed.len().max(1) as u64;
            if let Some(obj) = self.globals.get_mut(g.0 as usize) {
                obj.ty = QualType::new(Type::Array(Rc::new(QualType::new(char_type())), Some(n)));
            }
        }
        addressed
    }
}
