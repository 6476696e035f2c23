//! The checked lowering's checks: calls to the `ub_intrinsics` where C has undefined
//! behaviour the IR cannot see (`docs/ub-judge.md`).
//!
//! Why: the UB judge runs the `lowered` stage of a program compiled with
//! `LowerOptions::ub_checks`; these helpers emit its checks, and are the plain operation
//! when the option is off, so the normal lowering is unchanged byte for byte.
//!
//! Invariants:
//! - a check never makes a defined program undefined: each one tests exactly the
//!   condition C99 states (signed `+ - * -x <<` in `int`/`long`/`long long` only, never
//!   unsigned or promoted-away narrow types; pointer comparison/subtraction allowed
//!   within one object and one past it; an array index `0 <= i < N`, or `<= N` when only
//!   the address is formed);
//! - block lifetimes are conservative: an object's block ending (falling off its `}`,
//!   `break`, `continue`) ends it, and its block's entry or any label inside the block
//!   revives it if it had ended, so no path into a block (a `goto` or `case` included)
//!   can find its objects dead; a `goto` out of a block ends them (`goto_scopes`), and
//!   a `for` statement whose first clause declares objects is a block of its own;
//! - every intrinsic used is declared once in the module (`ModuleCtx::decls`).

use super::builder::exact;
use super::function::FnLower;
use super::goto_scopes::{compound_scope, for_scope, label_scopes, scopes_kept, ScopeId};
use crate::frontend::ast::{Expr, LabelId, LocalId, Stmt};
use crate::frontend::types::{QualType, Type};
use crate::ir::{BinOp, Callee, Inst, IrType, Operand, UnOp};
use crate::ub_intrinsics::UbIntrinsic;

impl FnLower<'_, '_> {
    /// True when this is the checked lowering.
    pub fn ub_checks(&self) -> bool {
        self.ctx.ub_checks
    }

    /// Emits a call to intrinsic `k` (declaring it) and returns its result, if it has one.
    pub(super) fn intrinsic(
        &mut self,
        k: UbIntrinsic,
        args: Vec<(IrType, Operand)>,
    ) -> Option<Operand> {
        let decl = k.decl();
        let ret = decl.ret;
        self.ctx
            .decls
            .entry(decl.name.clone())
            .or_insert_with(|| decl);
        let dest = (ret != IrType::Void).then(|| self.value());
        self.emit(Inst::Call {
            dest,
            ret,
            callee: Callee::Direct(k.name().to_string()),
            args,
            named: None,
        });
        dest.map(Operand::Value)
    }

    /// A binary operation of C's arithmetic in IR type `t`: the checked intrinsic for a
    /// signed `+ - * <<` of `int` width or wider, the plain instruction otherwise.
    pub fn c_bin(&mut self, op: BinOp, t: IrType, x: Operand, y: Operand) -> Operand {
        if t.is_float() {
            let op = if op == BinOp::Sub {
                crate::frontend::ast::BinaryOp::Sub
            } else {
                crate::frontend::ast::BinaryOp::Add
            };
            return self.float_arith(op, t, x, y);
        }
        if self.ub_checks() {
            if let Some(k) = UbIntrinsic::signed_binary(op, t) {
                if let Some(r) = self.intrinsic(k, vec![(t, x), (t, y)]) {
                    return r;
                }
            }
        }
        self.bin(op, t, x, y)
    }

    /// C's unary minus in IR type `t` (checked for signed `int` width or wider).
    pub fn c_neg(&mut self, t: IrType, v: Operand) -> Operand {
        if t.is_float() {
            return self.float_neg(t, v);
        }
        if self.ub_checks() {
            if let Some(k) = UbIntrinsic::signed_neg(t) {
                if let Some(r) = self.intrinsic(k, vec![(t, v)]) {
                    return r;
                }
            }
        }
        let dest = self.value();
        self.emit(Inst::Un {
            dest,
            op: UnOp::Neg,
            ty: t,
            src: v,
        });
        Operand::Value(dest)
    }

    /// Before `p - q` or a relational comparison of two pointers: both must designate
    /// the same object.
    pub fn check_pointer_pair(&mut self, subtraction: bool, p: Operand, q: Operand) {
        if self.ub_checks() {
            let k = if subtraction {
                UbIntrinsic::PtrSub
            } else {
                UbIntrinsic::PtrCmp
            };
            self.intrinsic(k, vec![(IrType::Ptr, p), (IrType::Ptr, q)]);
        }
    }

    /// Before indexing an array of `len` elements with `i` (of IR type `it`): `0 <= i <
    /// len`, or `<= len` when `address_only` (the one-past-the-end address is valid).
    pub fn check_index(&mut self, i: Operand, it: IrType, len: u64, address_only: bool) {
        if !self.ub_checks() {
            return;
        }
        let limit = len.saturating_add(u64::from(address_only));
        let Ok(limit) = i64::try_from(limit) else {
            return;
        };
        let wide = self.cast(it, i, IrType::I64);
        self.intrinsic(
            UbIntrinsic::Index,
            vec![
                (IrType::I64, wide),
                (IrType::I64, exact(IrType::I64, limit)),
            ],
        );
    }

    /// Before an access through pointer `p` to an object aligned to `align` bytes.
    pub fn check_aligned(&mut self, p: Operand, align: u32) {
        if self.ub_checks() && align > 1 {
            self.intrinsic(
                UbIntrinsic::Aligned,
                vec![
                    (IrType::Ptr, p),
                    (IrType::I64, exact(IrType::I64, i64::from(align))),
                ],
            );
        }
    }

    /// Opens the scope of a compound statement: its objects' lifetimes start (again).
    pub fn open_scope(&mut self, items: &[Stmt]) {
        self.open_scope_of(compound_scope(items), items);
    }

    /// Opens the scope of a `for` statement whose first clause `init` declares objects
    /// (C99 6.8.5p5: the statement is a block of its own).
    pub fn open_for_scope(&mut self, init: &Stmt) {
        self.open_scope_of(for_scope(init), std::slice::from_ref(init));
    }

    /// Opens scope `id` declaring the objects of the declarations among `items`.
    fn open_scope_of(&mut self, id: ScopeId, items: &[Stmt]) {
        if !self.ub_checks() {
            return;
        }
        let mut slots = Vec::new();
        // The function's body (the first scope) lives as long as the frame: no markers.
        let body = self.scopes.is_empty();
        for item in items.iter().filter(|_| !body) {
            if let Stmt::Decl(decls) = item.inner() {
                for (id, _) in decls {
                    if let Some(slot) = self.scoped_slot(*id) {
                        slots.push(slot);
                    }
                }
            }
        }
        for &slot in &slots {
            self.intrinsic(UbIntrinsic::ScopeStart, vec![(IrType::Ptr, slot)]);
        }
        self.scopes.push((id, slots));
    }

    /// Before `goto` label `label`: ends the objects of the open blocks that do not
    /// enclose the label (`goto_scopes`).
    pub fn end_scopes_for_goto(&mut self, label: LabelId) {
        if !self.ub_checks() {
            return;
        }
        let def = self.def;
        let chains = self.label_scopes.get_or_insert_with(|| label_scopes(def));
        let Some(Some(target)) = chains.get(label.0 as usize) else {
            return;
        };
        let open: Vec<ScopeId> = self.scopes.iter().map(|(id, _)| *id).collect();
        let kept = scopes_kept(&open, target);
        self.end_scopes_to(kept);
    }

    /// Closes the innermost scope: its objects' lifetimes end when control falls off it.
    pub fn close_scope(&mut self) {
        if !self.ub_checks() {
            return;
        }
        let depth = self.scopes.len().saturating_sub(1);
        if self.b.is_open() {
            self.end_scopes_to(depth);
        }
        self.scopes.pop();
    }

    /// Ends the objects of every scope deeper than `depth` (before a `break` or
    /// `continue` jumps out of them).
    pub fn end_scopes_to(&mut self, depth: usize) {
        if !self.ub_checks() {
            return;
        }
        let slots: Vec<Operand> = self.scopes[depth.min(self.scopes.len())..]
            .iter()
            .flat_map(|(_, slots)| slots)
            .copied()
            .collect();
        for slot in slots {
            self.intrinsic(UbIntrinsic::ScopeEnd, vec![(IrType::Ptr, slot)]);
        }
    }

    /// At a label (`goto` target, `case`, `default`): control may arrive from outside
    /// the enclosing blocks, whose objects then live.
    pub fn revive_scopes(&mut self) {
        if !self.ub_checks() {
            return;
        }
        let slots: Vec<Operand> = self
            .scopes
            .iter()
            .flat_map(|(_, slots)| slots)
            .copied()
            .collect();
        for slot in slots {
            self.intrinsic(UbIntrinsic::ScopeStart, vec![(IrType::Ptr, slot)]);
        }
    }

    /// The slot of local `id` when the checked lowering guards it as a `const` object:
    /// the whole object is `const` (a `const` scalar, record or array of `const`
    /// elements) and lives in a slot of this frame (not a record parameter, which is the
    /// caller's copy).
    pub fn const_slot(&self, id: LocalId) -> Option<Operand> {
        if !self.ub_checks() {
            return None;
        }
        let local = self.def.locals.get(id.0 as usize)?;
        if !wholly_const(&local.ty) || (local.is_param && local.ty.ty.is_record()) {
            return None;
        }
        match self.locals.get(id.0 as usize)? {
            slot @ Operand::Value(_) => Some(*slot),
            Operand::Const(_) => None,
        }
    }

    /// After a `const` object's initialisation: stores to it are `WriteToConst`.
    pub fn freeze(&mut self, slot: Operand) {
        self.intrinsic(UbIntrinsic::Freeze, vec![(IrType::Ptr, slot)]);
    }

    /// Before a `const` object's (re-)initialisation.
    pub fn thaw(&mut self, slot: Operand) {
        self.intrinsic(UbIntrinsic::Thaw, vec![(IrType::Ptr, slot)]);
    }

    /// Where an expression has unsequenced accesses (`unsequenced::conflicts`): always
    /// undefined when evaluated.
    pub fn check_sequenced(&mut self, e: &Expr) {
        if self.ub_checks() && super::unsequenced::conflicts(e) {
            let line = i64::from(e.loc.line);
            self.intrinsic(
                UbIntrinsic::Unsequenced,
                vec![(IrType::I32, exact(IrType::I32, line))],
            );
        }
    }

    /// The slot of a block-scope object whose lifetime the block bounds (automatic
    /// storage: not a parameter, not a record parameter's caller copy).
    fn scoped_slot(&self, id: LocalId) -> Option<Operand> {
        let local = self.def.locals.get(id.0 as usize)?;
        if local.is_param {
            return None;
        }
        match self.locals.get(id.0 as usize)? {
            slot @ Operand::Value(_) => Some(*slot),
            Operand::Const(_) => None,
        }
    }
}

/// True when every byte of an object of type `q` is `const` (C99 6.7.3p5 makes storing
/// to it undefined): `q` itself is `const`, or it is an array of such elements.
fn wholly_const(q: &QualType) -> bool {
    q.is_const
        || match &q.ty {
            Type::Array(elem, _) => wholly_const(elem),
            _ => false,
        }
}
