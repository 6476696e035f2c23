//! The generated program as a tree: what the printer writes and the evaluator runs.
//!
//! Why: one tree serves both the C text and the expected output, so they cannot drift
//! apart. The operations that can be undefined carry a [`Fix`] (of [`Shared`] cells): the
//! evaluator rewrites them in place when the values it computes would make them undefined
//! (see `eval.rs`), and the printer prints the rewritten form.
//!
//! Invariants (kept by the generator, relied on by the evaluator and printer):
//! - expressions have no side effects: assignments and calls are statements, and a call's
//!   destination is a plain variable (so nothing in the statement reads what the callee
//!   may write);
//! - every object is initialized where it is declared; all locals of a function are
//!   declared at its top (their lifetime is the whole call);
//! - a pointer only ever holds the address of an object that outlives it (globals and
//!   static locals hold addresses of globals only, and so do pointers stored in structs
//!   and arrays; pointer-to-pointer locals point to local pointers), so no dereference
//!   dangles; pointer arithmetic stays inside its object (`Expr::PtrAdd`);
//! - no address of a union member is taken (the evaluator tracks a union's last write);
//!   a union's bytes never hold a NaN (its bits differ between targets), and a float
//!   member is read only after a write of a float of its own kind ([`FExpr::Member`]).
//!   C defines every union read the generator makes (C11 6.5.2.3p3 and footnote 95:
//!   the bytes are reinterpreted, and no integer type has trap representations on these
//!   targets); the float rule keeps out reinterpreted bits that could be a signalling
//!   NaN, which Annex F leaves undefined (F.2.1).
//! - a loop counter is written only by its loop; a `goto` jumps forward to a label of the
//!   same or an enclosing block; calls go from a function to later functions only
//!   (recursion goes through a depth parameter that strictly decreases).
//! - a cloned subtree shares its rewrites with the original ([`Shared`]): where the tree
//!   holds one piece of C text twice (the lvalue of `lv op= e` is also read by its right
//!   side; both sides of a pointer relation start from one base expression), the evaluator
//!   must see the rewrite the printer prints in both places.

use super::float::{FKind, FOp, FVal};
use super::types::{DataModel, Field, IntKind, StructDef, Ty};
use super::value::{BinOp, Val};
use std::cell::Cell;
use std::rc::Rc;

/// A rewrite decision shared by every clone of the node that holds it: cloning a subtree
/// copies its shape, not its rewrites, so text printed twice from one subtree stays one
/// text (two independent cells once let one copy of a base expression swap `-` to `+` while
/// the other kept `-`, and the two "same-object" pointers landed in different rows).
#[derive(Clone, Debug, Default)]
pub struct Shared<T: Copy>(Rc<Cell<T>>);

impl<T: Copy> Shared<T> {
    pub fn get(&self) -> T {
        self.0.get()
    }

    pub fn set(&self, value: T) {
        self.0.set(value)
    }
}

impl<T: Copy> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared(Rc::new(Cell::new(value)))
    }
}

/// A variable: a global (static locals included) or a local of one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarRef {
    Global(usize),
    Local(usize),
}

/// How the evaluator has rewritten an operation: `swapped` once its operator was
/// replaced by one defined on the values seen; `wrap` (the operation's kind when it was
/// rewritten) once it is printed and run in a form defined for every value, with that
/// kind spelled out in casts so that the text means the same under every data model.
#[derive(Clone, Debug, Default)]
pub struct Fix {
    pub swapped: Shared<bool>,
    pub wrap: Shared<Option<IntKind>>,
}

/// An lvalue (no side effects).
#[derive(Clone, Debug)]
pub enum LVal {
    Var(VarRef),
    /// `a[i]`; when the cell is set the index is printed `(unsigned)(i) % N`.
    Index(Box<LVal>, Box<Expr>, Shared<bool>),
    /// `s.f` (field number).
    Field(Box<LVal>, usize),
    /// `u.f` of a union (member number): a read of a member wider than the one last
    /// written is undefined, so the evaluator redirects it to the union's narrowest
    /// member (`StructDef::narrowest_member`), whose read is always defined.
    Member(Box<LVal>, Shared<usize>),
    /// `*p`
    Deref(Box<Expr>),
}

/// How the evaluator has rewritten a pointer addition `p + k` / `p - k`: `sub` is the
/// operator printed now; `swapped` once it was flipped because the other direction stays
/// inside the object for the values seen; `zeroed` once the offset is printed
/// `((k) & 0)`, which is defined for every value (the base itself is always valid).
#[derive(Clone, Debug, Default)]
pub struct PtrFix {
    pub sub: Shared<bool>,
    pub swapped: Shared<bool>,
    pub zeroed: Shared<bool>,
}

/// The unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    BitNot,
    Not,
}

/// An expression (no side effects).
#[derive(Clone, Debug)]
pub enum Expr {
    Const(Val),
    Read(LVal),
    AddrOf(LVal),
    Cast(IntKind, Box<Expr>),
    Unary(UnOp, Box<Expr>, Fix),
    Binary(Shared<BinOp>, Box<Expr>, Box<Expr>, Fix),
    /// `p == q` (true) or `p != q` on pointers into objects.
    PtrEq(bool, Box<Expr>, Box<Expr>),
    /// `base + off` (or `base - off`, see [`PtrFix`]) on a pointer to an integer or a float: the
    /// result stays inside the object `base` points into — at an element when `bound` is
    /// false (it may be dereferenced or stored), or one past the last element when `bound`
    /// is true (it is only compared or subtracted, never dereferenced or stored).
    PtrAdd {
        base: Box<Expr>,
        off: Box<Expr>,
        fix: PtrFix,
        bound: bool,
    },
    /// `a < b` (`<= > >=`) on two pointers into the same object (both `PtrAdd`s of one
    /// base expression).
    PtrCmp(BinOp, Box<Expr>, Box<Expr>),
    /// `a - b` on two pointers into the same array (both `PtrAdd`s of one base
    /// expression), printed without a cast so that the difference meets what uses it
    /// (a division, a comparison with 0, a wider conversion) at its own width:
    /// `ptrdiff_t` is `long` on LP64 and `int` on ILP32, which has the width, signedness
    /// and so every value `long` has there (an `int` and a `long` of 32 bits convert and
    /// compute alike), so the generator types it `long` under both data models.
    PtrDiff(Box<Expr>, Box<Expr>),
    /// `a && b` (true) or `a || b`.
    Logic(bool, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// `a < b` (`<= > >= == !=`) on two float expressions (in their common kind): an
    /// `int` 0 or 1 (a NaN makes every operator but `!=` false).
    FCmp(BinOp, Box<FExpr>, Box<FExpr>),
    /// `(k)(e)`: a float converted to an integer kind. Undefined when the truncation does
    /// not fit `k` or `e` is a NaN, so once the evaluator meets such a value the cell is
    /// set and the conversion is printed `(k)float_to_int(e, lo, hi)` (see
    /// `float::guard_range`), defined for every value.
    FToInt(IntKind, Box<FExpr>, Shared<bool>),
    /// A float value where a value of any type goes: a call's argument, a return value.
    Float(Box<FExpr>),
}

/// A float expression (no side effects; see `float.rs`).
#[derive(Clone, Debug)]
pub enum FExpr {
    Const(FVal),
    /// A read of a float lvalue.
    Read(LVal),
    /// `a op b` in the common kind of the operands.
    Arith(FOp, Box<FExpr>, Box<FExpr>),
    Neg(Box<FExpr>),
    /// `(float)e` / `(double)e`: a conversion between the float kinds.
    Conv(FKind, Box<FExpr>),
    /// `(float)e` / `(double)e` of an integer expression (rounded once, to nearest-even).
    FromInt(FKind, Box<Expr>),
    /// `c ? a : b` in the common kind of `a` and `b`.
    Cond(Box<Expr>, Box<FExpr>, Box<FExpr>),
    /// `u.fM`: a read of the float member `M` of the union `u`. Defined for the values
    /// the generator allows only while the last write of `u` was a float of `M`'s kind
    /// (through any member of that kind: the same type); otherwise the evaluator sets
    /// the cell and the read is printed and run as `(k)(u.fN)` of the union's narrowest
    /// member (an integer, defined whatever was written last).
    Member(Box<LVal>, usize, Shared<bool>),
}

/// How an assignment statement is spelled (its meaning is always `lv = rhs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignStyle {
    /// `lv = rhs`
    Plain,
    /// `lv op= e`, where `rhs` is `Binary(op, Read(lv), e)`.
    Compound,
    /// `lv++` / `++lv` / `lv--` / `--lv` (`rhs` is `Binary(+/-, Read(lv), 1)`).
    IncDec { post: bool },
}

/// The loop statements (all counted: `var` runs from 0 to `trips`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    For,
    While,
    DoWhile,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    Assign {
        lv: LVal,
        rhs: Expr,
        style: AssignStyle,
    },
    /// `dst = f(args);` or `f(args);`
    Call {
        dst: Option<VarRef>,
        func: usize,
        args: Vec<Expr>,
    },
    If(Expr, Vec<Stmt>, Option<Vec<Stmt>>),
    Loop {
        kind: LoopKind,
        var: VarRef,
        trips: u32,
        /// `do` loops only: a read-only `int` local set to the counter at the top of each
        /// iteration, before the counter's step (`prev = v; v++; ...`), and printed after
        /// the loop. Its value there is the loop header's value of the counter in the last
        /// iteration: live on the exit edge of the critical latch-to-header edge, which is
        /// where phi elimination needs its trampoline (the lost-copy problem).
        prev: Option<VarRef>,
        body: Vec<Stmt>,
    },
    Break,
    Continue,
    Switch(Expr, Vec<Case>),
    Goto(u32),
    Label(u32),
    Return(Option<Expr>),
    /// `printf` of the value.
    Print(Expr),
    /// `lv = rhs` (`op` is `None`) or `lv op= rhs` on a float lvalue: `lv op rhs` computed
    /// in the common kind, converted to `lv`'s kind.
    FAssign {
        lv: LVal,
        op: Option<FOp>,
        rhs: FExpr,
        /// Set by the evaluator once `rhs` is a NaN stored into a union member (whose
        /// bytes an integer member may read: a NaN's bits differ between targets); the
        /// statement is then printed and run as `lv = ((rhs == rhs) ? rhs : 0)`.
        nan_guard: Shared<bool>,
    },
    /// `printf` of a float's bits (`float_bits`/`double_bits`: a NaN prints as the mark).
    FPrint(FExpr),
    Block(Vec<Stmt>),
}

/// One `case` (or `default` when `value` is `None`) of a switch.
#[derive(Clone, Debug)]
pub struct Case {
    pub value: Option<i128>,
    pub body: Vec<Stmt>,
    /// Ends with `break;` (otherwise falls through).
    pub brk: bool,
}

/// An initializer.
#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    /// The initializer of a float object (constants only in a global's).
    Float(FExpr),
    List(Vec<Init>),
}

/// A variable's declaration.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Ty,
    pub is_const: bool,
    pub is_volatile: bool,
    /// A static local of this function (stored with the globals).
    pub owner: Option<usize>,
    pub init: Init,
}

/// A function. Its locals are its parameters, then the variables it declares.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub ret: Option<Ty>,
    pub params: usize,
    pub locals: Vec<Var>,
    pub body: Vec<Stmt>,
    /// The parameter (an `int`) that bounds recursion, if the function recurses.
    pub depth_param: Option<usize>,
    /// Every call goes through the global function pointer `NAME_ptr`.
    pub indirect: bool,
}

/// A whole program. `funcs[0]` is called by `main`; every global's scalars go into the
/// checksum `main` prints.
#[derive(Clone, Debug)]
pub struct Program {
    pub structs: Vec<StructDef>,
    pub globals: Vec<Var>,
    pub funcs: Vec<Func>,
    /// The arguments `main` passes to `funcs[0]`.
    pub main_args: Vec<Expr>,
    /// The program may use floats: it defines the helpers of `float::FLOAT_HELPERS_C`.
    pub floats: bool,
}

impl Program {
    /// The declaration `v` names inside function `f`.
    pub fn var(&self, f: usize, v: VarRef) -> &Var {
        match v {
            VarRef::Global(i) => &self.globals[i],
            VarRef::Local(i) => &self.funcs[f].locals[i],
        }
    }

    /// The type of `lv` inside function `f`, and the bit-field it names, if any.
    pub fn lval_ty(&self, f: usize, lv: &LVal, dm: DataModel) -> (Ty, Option<Field>) {
        match lv {
            LVal::Var(v) => (self.var(f, *v).ty.clone(), None),
            LVal::Index(a, _, _) => match self.lval_ty(f, a, dm).0 {
                Ty::Array(t, _) => (*t, None),
                t => panic!("generator bug: indexing a {t:?}"),
            },
            LVal::Member(u, i) => match self.lval_ty(f, u, dm).0 {
                Ty::Struct(id) => (self.structs[id].fields[i.get()].ty.clone(), None),
                t => panic!("generator bug: member of a {t:?}"),
            },
            LVal::Field(s, i) => match self.lval_ty(f, s, dm).0 {
                Ty::Struct(id) => {
                    let field = self.structs[id].fields[*i].clone();
                    (field.ty.clone(), field.bits.map(|_| field))
                }
                t => panic!("generator bug: field of a {t:?}"),
            },
            LVal::Deref(p) => match self.expr_ty(f, p, dm) {
                Ty::Ptr(t) => (*t, None),
                t => panic!("generator bug: dereferencing a {t:?}"),
            },
        }
    }

    /// The kind a read of the integer lvalue `lv` has (bit-fields narrower than `int`
    /// read as `int`).
    pub fn read_kind(&self, f: usize, lv: &LVal, dm: DataModel) -> IntKind {
        match self.lval_ty(f, lv, dm) {
            (_, Some(field)) => field.read_kind().expect("bit-fields are integers"),
            (Ty::Int(k), None) => k,
            (t, _) => panic!("generator bug: integer read of a {t:?}"),
        }
    }

    /// The type of `e` inside function `f`.
    pub fn expr_ty(&self, f: usize, e: &Expr, dm: DataModel) -> Ty {
        match e {
            Expr::Read(lv) => match self.lval_ty(f, lv, dm) {
                (_, Some(field)) => Ty::Int(field.read_kind().expect("integer bit-field")),
                (t, None) => t,
            },
            Expr::AddrOf(lv) => Ty::Ptr(Box::new(self.lval_ty(f, lv, dm).0)),
            Expr::PtrAdd { base, .. } => self.expr_ty(f, base, dm),
            Expr::Comma(_, b) => self.expr_ty(f, b, dm),
            Expr::Float(x) => Ty::Float(self.float_kind(f, x, dm)),
            _ => Ty::Int(self.int_kind(f, e, dm)),
        }
    }

    /// The kind of the float expression `e`.
    pub fn float_kind(&self, f: usize, e: &FExpr, dm: DataModel) -> FKind {
        match e {
            FExpr::Const(v) => v.kind,
            FExpr::Read(lv) => match self.lval_ty(f, lv, dm).0 {
                Ty::Float(k) => k,
                t => panic!("generator bug: float read of a {t:?}"),
            },
            FExpr::Arith(_, a, b) | FExpr::Cond(_, a, b) => {
                FKind::common(self.float_kind(f, a, dm), self.float_kind(f, b, dm))
            }
            FExpr::Neg(a) => self.float_kind(f, a, dm),
            FExpr::Conv(k, _) | FExpr::FromInt(k, _) => *k,
            FExpr::Member(u, m, _) => match self.lval_ty(f, u, dm).0 {
                Ty::Struct(id) => match self.structs[id].fields[*m].ty {
                    Ty::Float(k) => k,
                    ref t => panic!("generator bug: float member read of a {t:?}"),
                },
                t => panic!("generator bug: member of a {t:?}"),
            },
        }
    }

    /// The kind of the integer expression `e` (before any promotion its use applies).
    pub fn int_kind(&self, f: usize, e: &Expr, dm: DataModel) -> IntKind {
        match e {
            Expr::Const(v) => v.kind,
            Expr::Read(lv) => self.read_kind(f, lv, dm),
            Expr::Cast(k, _) => *k,
            Expr::Unary(UnOp::Not, _, _) | Expr::PtrEq(..) | Expr::PtrCmp(..) | Expr::Logic(..) => {
                IntKind::Int
            }
            Expr::PtrDiff(..) => IntKind::Long,
            Expr::FCmp(..) => IntKind::Int,
            Expr::FToInt(k, _, _) => *k,
            Expr::Unary(_, _, fix) | Expr::Binary(_, _, _, fix) if fix.wrap.get().is_some() => {
                fix.wrap.get().expect("checked")
            }
            Expr::Unary(_, a, _) => self.int_kind(f, a, dm).promote(),
            Expr::Binary(op, a, b, _) => super::value::result_kind(
                op.get(),
                self.int_kind(f, a, dm),
                self.int_kind(f, b, dm),
                dm,
            ),
            Expr::Cond(_, a, b) => {
                super::types::common_kind(self.int_kind(f, a, dm), self.int_kind(f, b, dm), dm)
            }
            Expr::Comma(_, b) => self.int_kind(f, b, dm),
            Expr::AddrOf(_) | Expr::PtrAdd { .. } => {
                panic!("generator bug: a pointer used as an integer")
            }
            Expr::Float(_) => panic!("generator bug: a float used as an integer"),
        }
    }
}
