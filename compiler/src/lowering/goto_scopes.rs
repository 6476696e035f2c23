//! Which blocks a `goto` leaves (checked lowering): C99 6.2.4p5 ends the lifetime of a
//! block's automatic objects when execution of the block ends "in any way", a jump out of
//! it included, so a pointer kept across `goto out;` dangles.
//!
//! Why a pre-pass: a `goto` may jump forward to a label the lowering has not reached, so
//! the blocks around every label are collected from the function body first. A scope is
//! identified by the address of its AST node (a compound statement's item list, or a
//! `for` statement whose first clause declares objects), exactly as the lowering opens
//! them (`checks::open_scope`, `stmt::for_stmt`).
//!
//! Invariant: a `goto` ends the scopes it is inside that do not enclose its label (the
//! open scopes past the common prefix of the two chains); the label revives every scope
//! around it (`revive_scopes`), so no path into a block finds its objects dead.

use crate::frontend::ast::{FunctionDef, Stmt};

/// The identity of a scope: the address of its AST node.
pub type ScopeId = usize;

/// The identity of a compound statement's scope.
pub fn compound_scope(items: &[Stmt]) -> ScopeId {
    items.as_ptr() as ScopeId
}

/// The identity of a `for` statement's scope (its first clause).
pub fn for_scope(init: &Stmt) -> ScopeId {
    init as *const Stmt as ScopeId
}

/// True when a `for` statement's first clause declares objects (and so opens a scope).
pub fn for_init_declares(init: &Stmt) -> bool {
    matches!(init.inner(), Stmt::Decl(_))
}

/// For each goto label of `def`, the scopes around it, outermost first.
pub fn label_scopes(def: &FunctionDef) -> Vec<Option<Vec<ScopeId>>> {
    let mut out = vec![None; def.num_labels as usize];
    let mut chain = Vec::new();
    walk(&def.body, &mut chain, &mut out);
    out
}

fn walk(s: &Stmt, chain: &mut Vec<ScopeId>, out: &mut Vec<Option<Vec<ScopeId>>>) {
    match s {
        Stmt::At(_, inner) => walk(inner, chain, out),
        Stmt::Compound(items) => {
            chain.push(compound_scope(items));
            for item in items {
                walk(item, chain, out);
            }
            chain.pop();
        }
        Stmt::If {
            then, otherwise, ..
        } => {
            walk(then, chain, out);
            if let Some(o) = otherwise {
                walk(o, chain, out);
            }
        }
        Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } => {
            walk(body, chain, out)
        }
        Stmt::For { init, body, .. } => {
            let scoped = init.as_deref().filter(|i| for_init_declares(i));
            if let Some(i) = scoped {
                chain.push(for_scope(i));
            }
            walk(body, chain, out);
            if scoped.is_some() {
                chain.pop();
            }
        }
        Stmt::Label(id, inner) => {
            if let Some(slot) = out.get_mut(id.0 as usize) {
                *slot = Some(chain.clone());
            }
            walk(inner, chain, out);
        }
        Stmt::Case(_, inner) => walk(inner, chain, out),
        Stmt::Null
        | Stmt::Expr(_)
        | Stmt::Decl(_)
        | Stmt::Goto(_)
        | Stmt::IndirectGoto(_)
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Return(_) => {}
    }
}

/// How many of the open scopes `open` (outermost first) a jump to a label inside
/// `target` stays in: the length of their common prefix.
pub fn scopes_kept(open: &[ScopeId], target: &[ScopeId]) -> usize {
    open.iter().zip(target).take_while(|(a, b)| a == b).count()
}
