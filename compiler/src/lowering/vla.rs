//! Variable-length array objects (`T a[n]` at block scope, `parse/vla.rs`): storage and
//! deallocation.
//!
//! Why it exists: a VLA's length is evaluated when its declaration is reached, and its
//! storage must be freed when its scope ends *in any way* — falling off the block,
//! `break`, `continue`, or a `goto` to a label outside its scope, backwards to before
//! the declaration included (c-torture `vla-dealloc-1.c`, `20040811-1.c`, `pr43220.c`
//! run a million such jumps: without freeing, the stack overflows), as gcc does.
//!
//! How: at the declaration the lowering saves the stack (`stacksave`, its token kept in a
//! frame slot), evaluates `n * sizeof(T)` in `i64`, and the object is a `dynalloca` of
//! that size (so the oracle checks every access against the exact bounds) at T's
//! alignment; the local's address is that pointer. Each exit from the scope restores the
//! token of the first object it leaves (`stackrestore`), which frees that object and every
//! later one. The objects live in a stack of open ones ([`VlaScopes::objects`]); a scope,
//! a `break`/`continue` target and a label remember how many were open.
//!
//! Invariants:
//! - the open objects are exactly those whose declaration precedes the point being
//!   lowered in an enclosing block (the lowering walks the AST in source order);
//! - a `goto` keeps the objects whose scope contains its label: an object declared as
//!   item `i` of block `S` contains the label iff the label lies in an item `j > i` of `S`
//!   (`label_positions`); the first object that does not is restored, with all later
//!   ones. A label inside a statement expression is not known here: a `goto` to it frees
//!   nothing (the objects then live until the function returns — a leak, never a use of
//!   freed memory);
//! - a `return` restores nothing: the epilogue frees the whole frame.

use super::function::{FnLower, Res};
use super::goto_scopes::{compound_scope, ScopeId};
use crate::frontend::ast::{Expr, FunctionDef, LabelId, LocalId, Stmt};
use crate::ir::{BinOp, BlockId, Inst, IrType, Operand};
use rustc_hash::FxHashMap;

/// One open VLA object: where it was declared and the slot holding the stack token saved
/// right before its allocation.
#[derive(Clone, Copy, Debug)]
struct OpenObject {
    scope: ScopeId,
    item: usize,
    token_slot: Operand,
}

/// For each goto label, the (block, item index) chain around it, outermost first.
type LabelPositions = Vec<Option<Vec<(ScopeId, usize)>>>;

/// The lowering's VLA state for one function.
#[derive(Debug, Default)]
pub(crate) struct VlaScopes {
    /// Open blocks: identity, the item being lowered, and `objects.len()` at entry.
    blocks: Vec<(ScopeId, usize, usize)>,
    /// Open objects, oldest first.
    objects: Vec<OpenObject>,
    /// `objects.len()` when each `break`/`continue` target was made.
    targets: FxHashMap<BlockId, usize>,
    /// For each goto label, the (block, item) chain around it, outermost first (computed
    /// at the first `goto` of a function with VLAs).
    label_positions: Option<LabelPositions>,
}

impl FnLower<'_, '_> {
    /// True when local `id` is a VLA object.
    pub(crate) fn is_vla_object(&self, id: LocalId) -> bool {
        self.def.vla_objects.iter().any(|(l, _)| *l == id)
    }

    /// The declaration of VLA object `id` (when it is one): saves the stack, allocates
    /// `len * sizeof(T)` bytes, and makes that the local's address. `None` for any other
    /// local.
    pub(crate) fn declare_vla(&mut self, id: LocalId) -> Option<Res<()>> {
        let (_, len) = self.def.vla_objects.iter().find(|(l, _)| *l == id)?;
        Some(self.allocate_vla(id, len))
    }

    fn allocate_vla(&mut self, id: LocalId, len: &Expr) -> Res<()> {
        let local = &self.def.locals[id.0 as usize];
        let loc = local.loc;
        let crate::frontend::types::Type::Array(elem, None) = &local.ty.ty else {
            return Err(self.err(loc, "internal error: a VLA object without an array type"));
        };
        let elem_size =
            super::types::object_size(self.ctx, &elem.ty).map_err(|m| self.err(loc, m))?;
        let align = super::types::object_align(self.ctx, &elem.ty);
        let (n, ty) = self.scalar(len)?;
        let n = self.cast(ty, n, IrType::I64);
        let size = self.bin(
            BinOp::Mul,
            IrType::I64,
            n,
            super::builder::exact(IrType::I64, elem_size as i64),
        );
        let token_slot = self.b.alloca(IrType::Ptr, 8, 8, false);
        let token = self.value();
        self.emit(Inst::StackSave { dest: token });
        self.emit(Inst::Store {
            ty: IrType::Ptr,
            val: Operand::Value(token),
            ptr: token_slot,
        });
        let p = self.dynalloca(size, align.max(1));
        self.locals[id.0 as usize] = p;
        if let Some(&(scope, item, _)) = self.vla.blocks.last() {
            self.vla.objects.push(OpenObject {
                scope,
                item,
                token_slot,
            });
        }
        Ok(())
    }

    /// A compound statement's scope opens (`items` are its statements).
    pub(crate) fn vla_enter(&mut self, items: &[Stmt]) {
        let open = self.vla.objects.len();
        self.vla.blocks.push((compound_scope(items), 0, open));
    }

    /// Item `k` of the innermost block is about to be lowered.
    pub(crate) fn vla_item(&mut self, k: usize) {
        if let Some(b) = self.vla.blocks.last_mut() {
            b.1 = k;
        }
    }

    /// The innermost block ends: control that falls off it frees its objects.
    pub(crate) fn vla_leave(&mut self) {
        let Some((_, _, open)) = self.vla.blocks.pop() else {
            return;
        };
        if self.b.is_open() {
            self.restore_from(open);
        }
        self.vla.objects.truncate(open);
    }

    /// `target` is a `break` or `continue` target made here.
    pub(crate) fn vla_jump_target(&mut self, target: BlockId) {
        let open = self.vla.objects.len();
        self.vla.targets.insert(target, open);
    }

    /// Before a `break` or `continue` to `target`: frees the objects opened since.
    pub(crate) fn vla_restore_for_jump(&mut self, target: BlockId) {
        if let Some(&open) = self.vla.targets.get(&target) {
            self.restore_from(open);
        }
    }

    /// Before `goto label`: frees the first open object whose scope does not contain the
    /// label, and every later one.
    pub(crate) fn vla_restore_for_goto(&mut self, label: LabelId) {
        if self.vla.objects.is_empty() {
            return;
        }
        let def = self.def;
        let positions = self
            .vla
            .label_positions
            .get_or_insert_with(|| label_positions(def));
        let Some(Some(chain)) = positions.get(label.0 as usize) else {
            return;
        };
        let leaves = self.vla.objects.iter().position(|o| {
            !chain
                .iter()
                .any(|&(scope, item)| scope == o.scope && item > o.item)
        });
        if let Some(k) = leaves {
            self.restore_from(k);
        }
    }

    /// `stackrestore` to the token saved before open object `k`, if it is open.
    fn restore_from(&mut self, k: usize) {
        let Some(o) = self.vla.objects.get(k).copied() else {
            return;
        };
        let token = self.value();
        self.emit(Inst::Load {
            dest: token,
            ty: IrType::Ptr,
            ptr: o.token_slot,
        });
        self.emit(Inst::StackRestore {
            ptr: Operand::Value(token),
        });
    }
}

/// For each goto label of `def`, the (block, item index) chain around it, outermost
/// first. Labels inside expressions (statement expressions) stay `None`.
fn label_positions(def: &FunctionDef) -> LabelPositions {
    let mut out = vec![None; def.num_labels as usize];
    let mut chain = Vec::new();
    walk(&def.body, &mut chain, &mut out);
    out
}

fn walk(s: &Stmt, chain: &mut Vec<(ScopeId, usize)>, out: &mut LabelPositions) {
    match s {
        Stmt::At(_, inner) | Stmt::Case(_, inner) => walk(inner, chain, out),
        Stmt::Compound(items) => {
            let id = compound_scope(items);
            for (k, item) in items.iter().enumerate() {
                chain.push((id, k));
                walk(item, chain, out);
                chain.pop();
            }
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
            if let Some(i) = init {
                walk(i, chain, out);
            }
            walk(body, chain, out);
        }
        Stmt::Label(id, inner) => {
            if let Some(slot) = out.get_mut(id.0 as usize) {
                *slot = Some(chain.clone());
            }
            walk(inner, chain, out);
        }
        Stmt::Null
        | Stmt::Expr(_)
        | Stmt::Decl(_)
        | Stmt::Goto(_)
        // `goto *p` frees no VLA it leaves (its target is known only at run time): the
        // storage stays until the function returns, never used after it is freed.
        | Stmt::IndirectGoto(_)
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Return(_) => {}
    }
}
