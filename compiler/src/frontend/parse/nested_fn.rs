//! GNU nested functions: a function defined in a block, which sees the locals of the
//! functions around it.
//!
//! Why it exists: c-torture defines helpers inside functions (`nestfunc-*.c`, ...), and
//! a nested function is lambda-lifting's textbook case, with no IR change: each nested
//! function becomes a file-scope `static` function named `PARENT.NAME.N`, and reaches
//! the enclosing functions' locals through a *static chain*, a hidden last parameter
//! `chain` (`void **`) pointing at a table the caller fills with the addresses of the
//! objects the callee uses (`ast::NestedFn`). A use of an enclosing local `x` in the
//! nested function is `*(T *)chain[i]`, i being `x`'s capture index.
//!
//! Invariants:
//! - A capture is a local of an enclosing function, named by that function's IR name
//!   and its `LocalId` (`ast::Capture`); it is taken by reference, so the nested function
//!   and its parent see one object (gcc's semantics) at every depth of recursion: the
//!   table is filled at each call from the caller's own frame.
//! - A nested function's captures include those of every nested function it names
//!   (it must fill their tables), computed as a fixpoint once the outermost function is
//!   parsed ([`Parser::close_nested_functions`]); a nested function without captures
//!   then loses its chain parameter and is an ordinary static function, whose address
//!   may escape freely.
//! - The address of a nested function *with* captures must not escape (it would need a
//!   trampoline: code made at run time that loads the chain): the lowering refuses any
//!   use of such a function other than a direct call, at its position, naming the
//!   reason (`lowering/nested_fn.rs`); so does a variadic nested function with
//!   captures (the chain cannot follow `...`).
//! - `goto` from a nested function to a label of an enclosing function (a non-local
//!   goto) is refused at the `goto` (it needs unwinding the nested frames).

use super::declarator::{DeclSpec, Declarator, Storage};
use super::{FunctionState, OrdinaryEntity, Parser};
use crate::frontend::ast::{
    Capture, Expr, ExprKind, FunctionDecl, Initializer, LabelId, LocalId, LocalVar, NestedFn,
    NonlocalGoto, Stmt,
};
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::types::{FunctionType, QualType, Type};
use std::collections::HashMap;
use std::rc::Rc;

type PResult<T> = Result<T, Diagnostic>;

/// Nested-function bookkeeping of the parser.
#[derive(Debug, Default)]
pub(crate) struct NestedState {
    /// The functions around the one being parsed, outermost first.
    pub outer: Vec<FunctionState>,
    /// The nested functions of the file-scope function being parsed, by IR name.
    pub pending: Vec<String>,
    /// For each of them, the nested functions its body names (IR names).
    pub mentions: HashMap<String, Vec<String>>,
    /// The functions some nested function jumps out to, by IR name.
    pub nonlocal: HashMap<String, NonlocalGoto>,
}

fn void_ptr() -> Type {
    Type::Pointer(Rc::new(QualType::new(Type::Void)))
}

fn chain_type() -> Type {
    Type::Pointer(Rc::new(QualType::new(void_ptr())))
}

impl Parser<'_> {
    /// function-definition inside a compound statement (GNU): the cursor is on the `{`
    /// after the declarator `d` of function `name` of type `fty`.
    pub(crate) fn parse_nested_function(
        &mut self,
        spec: &DeclSpec,
        d: &Declarator,
        fty: Rc<FunctionType>,
        name: Rc<str>,
        loc: Loc,
    ) -> PResult<()> {
        if matches!(spec.storage, Some(Storage::Static | Storage::Extern)) {
            return Err(self.error_at(loc, format!("invalid storage class for function '{name}'")));
        }
        let Some(params) = d.function_params().map(<[_]>::to_vec) else {
            return Err(self.error_at(loc, "expected ';' before '{' token"));
        };
        if fty.ret.ty != Type::Void && self.size_of(&fty.ret.ty).is_none() {
            return Err(self.error_at(loc, "return type is an incomplete type"));
        }
        if let Some(p) = params.iter().find(|p| self.size_of(&p.ty.ty).is_none()) {
            return Err(self.error_at(p.loc, "parameter has incomplete type"));
        }
        let Some(parent) = self.func.as_mut() else {
            return Err(self.error_at(loc, "nested function outside a function"));
        };
        parent.num_static_locals += 1;
        let ir = format!("{}.{}.{}", parent.name, name, parent.num_static_locals - 1);
        self.declare_ordinary(
            name.clone(),
            OrdinaryEntity::Function(ir.clone(), fty.clone()),
        );
        self.nested_fns.pending.push(ir.clone());
        // Known by its IR name like a file-scope function (`va_start` asks whether the
        // function is variadic); not in `function_order`, so never an external.
        let decl = FunctionDecl {
            name: ir.clone(),
            ty: fty.clone(),
            loc,
        };
        self.function_decls.insert(ir.clone(), decl);
        let incoming: Vec<Type> = if fty.has_prototype {
            Vec::new()
        } else {
            fty.params.iter().map(|p| p.ty.clone()).collect()
        };
        let parent = self.func.take().unwrap_or_default();
        self.nested_fns.outer.push(parent);
        let r = self.define_function_body(&ir, loc, fty, &params, incoming);
        self.func = self.nested_fns.outer.pop();
        r?;
        if let Some(def) = self.functions.iter_mut().rev().find(|f| f.name == ir) {
            def.is_static = true;
            if let Some(n) = def.nested.as_mut() {
                n.c_name = name.to_string();
            }
        }
        Ok(())
    }

    /// After a function's parameters: a nested function's static chain parameter.
    pub(crate) fn add_static_chain_param(&mut self, params: &mut Vec<LocalId>, loc: Loc) {
        if self.nested_fns.outer.is_empty() {
            return;
        }
        let chain = self.add_local(LocalVar {
            name: ".chain".to_string(),
            ty: QualType::new(chain_type()),
            loc,
            is_param: true,
            align: None,
        });
        params.push(chain);
        if let Some(f) = self.func.as_mut() {
            f.nested = Some(NestedFn {
                c_name: f.name.clone(),
                chain,
                captures: Vec::new(),
            });
        }
    }

    /// The expression for local `id` of type `ty`, named `name` at `loc`: the local
    /// itself, or `*(T *)chain[i]` when it belongs to an enclosing function.
    pub(crate) fn local_reference(
        &mut self,
        name: &str,
        id: LocalId,
        ty: QualType,
        loc: Loc,
    ) -> Expr {
        let plain = |ty| Expr::new(ExprKind::Local(id), ty, loc);
        let Some(f) = self.func.as_ref() else {
            return plain(ty);
        };
        let Some(scope) = self
            .scopes
            .iter()
            .rposition(|s| s.ordinary.contains_key(name))
        else {
            return plain(ty);
        };
        if scope >= f.scope_base {
            return plain(ty);
        }
        let Some(owner) = self
            .nested_fns
            .outer
            .iter()
            .rev()
            .find(|o| o.scope_base <= scope)
        else {
            return plain(ty);
        };
        let key = Capture {
            owner: owner.name.clone(),
            local: id,
        };
        self.capture_reference(key, ty, loc).unwrap_or_else(plain)
    }

    /// `*(T *)chain[i]` for object `key` of type `ty` of an enclosing function, `i` its
    /// capture index in the current nested function (added on first use). `Err(ty)`
    /// when the current function is not nested.
    fn capture_reference(
        &mut self,
        key: Capture,
        ty: QualType,
        loc: Loc,
    ) -> Result<Expr, QualType> {
        let Some(nested) = self.func.as_mut().and_then(|f| f.nested.as_mut()) else {
            return Err(ty);
        };
        let index = match nested.captures.iter().position(|c| *c == key) {
            Some(i) => i,
            None => {
                nested.captures.push(key);
                nested.captures.len() - 1
            }
        };
        let chain = nested.chain;
        let ptr_bytes = self.size_of(&void_ptr()).unwrap_or(8);
        let chain = Expr::new(ExprKind::Local(chain), chain_type(), loc);
        let index = Expr::int_lit(index as u64, self.ptrdiff_type(), loc);
        let entry = Expr::new(
            ExprKind::PtrAdd {
                ptr: Box::new(chain),
                index: Box::new(index),
                elem_size: ptr_bytes,
            },
            chain_type(),
            loc,
        );
        let entry = Expr::new(ExprKind::Deref(Box::new(entry)), void_ptr(), loc);
        let typed = Expr::new(
            ExprKind::Cast(Box::new(entry)),
            Type::Pointer(Rc::new(ty.clone())),
            loc,
        );
        Ok(Expr::new(ExprKind::Deref(Box::new(typed)), ty, loc))
    }

    /// jump-statement: 'goto' identifier ';' where the label is a local label of the
    /// enclosing function `outer` (index in `nested_fns.outer`): a non-local goto. It
    /// sets the owner's hidden flag `.nonlocal_goto` (captured like any local) to the
    /// label's id + 1 and returns; every caller checks the flag after the call and
    /// returns too, up to the owner, which jumps to the label
    /// (`lowering/nested_fn.rs`).
    pub(crate) fn nonlocal_goto(
        &mut self,
        outer: usize,
        label: LabelId,
        loc: Loc,
    ) -> PResult<Stmt> {
        let int = QualType::new(Type::int());
        let Some(owner) = self.nested_fns.outer.get_mut(outer) else {
            return Err(self.error_at(loc, "internal error: no enclosing function"));
        };
        let owner_name = owner.name.clone();
        let flag = match self.nested_fns.nonlocal.get_mut(&owner_name) {
            Some(n) => {
                if !n.labels.contains(&label) {
                    n.labels.push(label);
                }
                n.flag
            }
            None => {
                let flag = LocalId(owner.locals.len() as u32);
                owner.locals.push(LocalVar {
                    name: ".nonlocal_goto".to_string(),
                    ty: int.clone(),
                    loc,
                    is_param: false,
                    align: None,
                });
                let n = NonlocalGoto {
                    flag,
                    labels: vec![label],
                };
                self.nested_fns.nonlocal.insert(owner_name.clone(), n);
                flag
            }
        };
        let key = Capture {
            owner: owner_name,
            local: flag,
        };
        let Ok(lhs) = self.capture_reference(key, int.clone(), loc) else {
            return Err(self.error_at(
                loc,
                "internal error: non-local goto outside a nested function",
            ));
        };
        let value = Expr::int_lit(u64::from(label.0) + 1, Type::int(), loc);
        let set = Expr::new(ExprKind::Assign(Box::new(lhs), Box::new(value)), int, loc);
        Ok(Stmt::Compound(vec![Stmt::Expr(set), Stmt::Return(None)]))
    }

    /// The current function names function `ir` (a call or its address).
    pub(crate) fn note_function_mention(&mut self, ir: &str) {
        if !self.nested_fns.pending.iter().any(|p| p == ir) {
            return;
        }
        let Some(f) = self.func.as_ref().filter(|f| f.nested.is_some()) else {
            return;
        };
        let list = self.nested_fns.mentions.entry(f.name.clone()).or_default();
        if !list.iter().any(|m| m == ir) {
            list.push(ir.to_string());
        }
    }

    /// After a file-scope function's definition: completes the captures of its nested
    /// functions (each captures what the nested functions it names capture, unless it
    /// owns it) and drops the chain of those that capture nothing.
    pub(crate) fn close_nested_functions(&mut self) {
        if !self.nested_fns.outer.is_empty() || self.nested_fns.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.nested_fns.pending);
        let mentions = std::mem::take(&mut self.nested_fns.mentions);
        for (owner, n) in std::mem::take(&mut self.nested_fns.nonlocal) {
            let Some(def) = self.functions.iter_mut().find(|f| f.name == owner) else {
                continue;
            };
            // The flag starts at 0 (no jump pending), before anything else runs.
            let zero = Expr::int_lit(0, Type::int(), def.loc);
            let init = Stmt::Decl(vec![(n.flag, Some(Initializer::Expr(zero)))]);
            let body = std::mem::replace(&mut def.body, Stmt::Null);
            def.body = Stmt::Compound(vec![Stmt::at(def.loc, init), body]);
            def.nonlocal_goto = Some(n);
        }
        let index: HashMap<String, usize> = self
            .functions
            .iter()
            .enumerate()
            .filter(|(_, f)| pending.contains(&f.name))
            .map(|(i, f)| (f.name.clone(), i))
            .collect();
        let captures_of = |functions: &[crate::frontend::ast::FunctionDef], name: &str| {
            index
                .get(name)
                .and_then(|&i| functions[i].nested.as_ref())
                .map(|n| n.captures.clone())
                .unwrap_or_default()
        };
        loop {
            let mut changed = false;
            for name in &pending {
                let Some(&fi) = index.get(name) else { continue };
                for callee in mentions.get(name).into_iter().flatten() {
                    for key in captures_of(&self.functions, callee) {
                        let Some(n) = self.functions[fi].nested.as_mut() else {
                            continue;
                        };
                        if key.owner != *name && !n.captures.contains(&key) {
                            n.captures.push(key);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for &fi in index.values() {
            let def = &mut self.functions[fi];
            let Some(n) = &def.nested else { continue };
            if n.captures.is_empty() {
                let chain = n.chain;
                def.params.retain(|p| *p != chain);
                if let Some(l) = def.locals.get_mut(chain.0 as usize) {
                    l.is_param = false;
                }
            }
        }
    }
}
