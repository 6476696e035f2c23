//! Unsequenced side effects (C99 6.5p2, C11 6.5p2), where they are cheap to see: an
//! expression that modifies a *named* scalar object (a variable, or a member path of
//! one: `s.a.b`) and, unsequenced with it, modifies or reads the same object again.
//! `i = i++`, `f(i++, i)`, `a[i] = i++`, `x = (x = 1) + 1` are undefined; the checked
//! lowering reports them when such an expression is evaluated (`__phi_ub.unsequenced`).
//!
//! Why static: the conflicting accesses are in one expression, so the front end sees
//! them in the AST; no run-time bookkeeping of accesses is needed. The check is placed at
//! the node whose operands are unsequenced with each other, and only accesses that
//! happen whenever that node is evaluated take part, so it reports exactly when the
//! undefined evaluation happens.
//!
//! The rules (each access carries two facts: *conditional* — under the right operand of
//! `&&`/`||` or an arm of `?:`, so it may not happen; *settled* — sequenced before the
//! value of the expression it is in, because a sequence point lies between them: the left
//! operand of `,`, `&&`, `||`, the condition of `?:`, and function arguments, which are
//! complete before the call):
//! - operands of `+ - * / ...`, comparisons, `p + i`, `p - q`, and the callee and
//!   arguments of a call are unsequenced with each other: a write in one and a read or
//!   write of an overlapping place in another is undefined;
//! - an assignment (`=`, `op=`) writes its place after the value of its right operand:
//!   reads there are fine (`x = x + 1`), an unsettled write of the same place is not
//!   (`x = x++`, but `x = f(x++)` and `x = (x++, 1)` are defined); the accesses that
//!   compute the left operand's address are unsequenced with the right operand
//!   (`a[i] = i++`).
//!
//! Invariants (never a false report): only definite places count — two places overlap
//! when they have the same root object and one member path is a prefix of the other;
//! anything reached through a pointer (`*p`, `p->f`, `a[i]`) is ignored (a missed
//! report); a `volatile` read is treated as a read (6.5p2 counts it as a side effect, but
//! no compiler treats `v + v` as undefined, and csmith writes it); conditional accesses
//! never take part.

use crate::frontend::ast::{Expr, ExprKind, GlobalId, Initializer, LocalId};

/// The object an access is to: a local or global and a member path from it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    root: Root,
    path: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    Local(LocalId),
    Global(GlobalId),
}

impl Place {
    /// Same object, or one contains the other.
    fn overlaps(&self, other: &Place) -> bool {
        self.root == other.root && self.path.iter().zip(&other.path).all(|(a, b)| a == b)
    }
}

#[derive(Clone, Debug)]
struct Access {
    place: Place,
    write: bool,
    conditional: bool,
    settled: bool,
}

/// True when evaluating `e` itself (not its operands, which are judged at their own
/// nodes) combines unsequenced accesses that C makes undefined.
pub fn conflicts(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(_, a, b)
        | ExprKind::PtrAdd {
            ptr: a, index: b, ..
        }
        | ExprKind::PtrDiff { lhs: a, rhs: b, .. } => clash(&value_accesses(a), &value_accesses(b)),
        ExprKind::Assign(lhs, rhs) | ExprKind::CompoundAssign { lhs, rhs, .. } => {
            let address = address_accesses(lhs);
            let value = value_accesses(rhs);
            if clash(&address, &value) {
                return true;
            }
            place(lhs).is_some_and(|p| {
                value
                    .iter()
                    .any(|a| a.write && !a.settled && !a.conditional && a.place.overlaps(&p))
            })
        }
        ExprKind::Call { callee, args, .. } => {
            let mut groups = vec![value_accesses(callee)];
            groups.extend(args.iter().map(value_accesses));
            groups
                .iter()
                .enumerate()
                .any(|(i, g)| groups[i + 1..].iter().any(|h| clash(g, h)))
        }
        _ => false,
    }
}

/// A write in one set and a read or write of an overlapping place in the other, both
/// unconditional.
fn clash(a: &[Access], b: &[Access]) -> bool {
    a.iter().filter(|x| !x.conditional).any(|x| {
        b.iter()
            .filter(|y| !y.conditional && (x.write || y.write))
            .any(|y| x.place.overlaps(&y.place))
    })
}

/// The named object an lvalue designates: `x`, `s.a.b` (not through a pointer).
fn place(e: &Expr) -> Option<Place> {
    match &e.kind {
        ExprKind::Local(id) => Some(Place {
            root: Root::Local(*id),
            path: Vec::new(),
        }),
        ExprKind::Global(id) => Some(Place {
            root: Root::Global(*id),
            path: Vec::new(),
        }),
        ExprKind::Member { base, field, .. } => {
            let mut p = place(base)?;
            p.path.push(*field);
            Some(p)
        }
        _ => None,
    }
}

/// The accesses of evaluating `e` for its value.
fn value_accesses(e: &Expr) -> Vec<Access> {
    let mut out = Vec::new();
    collect_value(e, &mut out);
    out
}

/// The accesses that compute lvalue `e`'s address (not the access to the object).
fn address_accesses(e: &Expr) -> Vec<Access> {
    let mut out = Vec::new();
    collect_address(e, &mut out);
    out
}

fn collect_address(e: &Expr, out: &mut Vec<Access>) {
    match &e.kind {
        ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Str(_) | ExprKind::Func(_) => {}
        ExprKind::Member { base, .. } => collect_address(base, out),
        ExprKind::Deref(p) => collect_value(p, out),
        // A record rvalue (a call's result, an assignment's, ...) under `.`.
        _ => collect_value(e, out),
    }
}

/// Marks the accesses pushed since `from`.
fn mark(out: &mut [Access], from: usize, conditional: bool, settled: bool) {
    for a in &mut out[from..] {
        a.conditional |= conditional;
        a.settled |= settled;
    }
}

/// Collects the accesses of `sub`, then marks them.
fn collect_marked(sub: &Expr, out: &mut Vec<Access>, conditional: bool, settled: bool) {
    let from = out.len();
    collect_value(sub, out);
    mark(out, from, conditional, settled);
}

fn write_of(lvalue: &Expr, out: &mut Vec<Access>) {
    collect_address(lvalue, out);
    if let Some(place) = place(lvalue) {
        out.push(Access {
            place,
            write: true,
            conditional: false,
            settled: false,
        });
    }
}

fn collect_value(e: &Expr, out: &mut Vec<Access>) {
    match &e.kind {
        ExprKind::IntLit(_) | ExprKind::FloatLit(_) | ExprKind::Str(_) | ExprKind::Func(_) => {}
        ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Member { .. } => match place(e) {
            Some(place) => out.push(Access {
                place,
                write: false,
                conditional: false,
                settled: false,
            }),
            None => collect_address(e, out),
        },
        ExprKind::Deref(p) => collect_value(p, out),
        ExprKind::Cast(a) | ExprKind::Unary(_, a) => collect_value(a, out),
        ExprKind::Decay(a) | ExprKind::AddrOf(a) => collect_address(a, out),
        ExprKind::Binary(_, a, b)
        | ExprKind::PtrAdd {
            ptr: a, index: b, ..
        }
        | ExprKind::PtrDiff { lhs: a, rhs: b, .. } => {
            collect_value(a, out);
            collect_value(b, out);
        }
        ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
            collect_marked(a, out, false, true);
            collect_marked(b, out, true, false);
        }
        ExprKind::Comma(a, b) => {
            collect_marked(a, out, false, true);
            collect_value(b, out);
        }
        ExprKind::Cond(c, a, b) => {
            collect_marked(c, out, false, true);
            collect_marked(a, out, true, false);
            collect_marked(b, out, true, false);
        }
        ExprKind::Assign(lhs, rhs) | ExprKind::CompoundAssign { lhs, rhs, .. } => {
            collect_value(rhs, out);
            write_of(lhs, out);
        }
        ExprKind::IncDec { operand, .. } => write_of(operand, out),
        // The initializer's expressions, each counted as complete (never a false
        // report); the hidden object itself is nobody else's.
        ExprKind::CompoundLiteral(_, init) => match &**init {
            Initializer::Expr(x) => collect_marked(x, out, false, true),
            Initializer::List(items) => {
                for item in items {
                    collect_marked(&item.value, out, false, true);
                }
            }
        },
        // A statement expression's block is full expressions (sequence points between
        // them) that nothing here collects: it can only hide a report, never make one.
        ExprKind::StmtExpr { .. } => {}
        ExprKind::Call { callee, args, .. } => {
            // Complete before the call (a sequence point), so before its value.
            collect_marked(callee, out, false, true);
            for a in args {
                collect_marked(a, out, false, true);
            }
        }
    }
}
