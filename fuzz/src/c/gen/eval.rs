//! Runs a generated program on concrete values, rewriting what would be undefined.
//!
//! Why: the generator must know the program's output (it is the hunt's reference) and
//! must never emit undefined behaviour. Like YARPGen, it evaluates the program and, where
//! an operation would be undefined for the values it meets, rewrites that operation:
//! first by swapping the operator for one that is defined on those values (so the
//! optimizer still sees plain arithmetic), and if the same operation misbehaves again
//! (a loop brings other values), into a form defined for every value: signed
//! arithmetic done in the unsigned type, shift counts masked to the width, divisors made
//! odd and positive, indices reduced modulo the array length. Every rewrite restarts the
//! run from the beginning, because it changes values computed afterwards.
//!
//! Invariants:
//! - a run that finishes without a restart executed no undefined operation, and its
//!   stdout is exactly the program's (see `expected.rs` for the checksum);
//! - each operation is rewritten at most twice (a swap, then the wrapped form), so the
//!   restart loop ends;
//! - the machine follows the C text the printer writes, fixed forms included: the two
//!   must change together;
//! - a dangling pointer or a type confusion is a generator bug (`Stop::Bug`), never
//!   silently tolerated.

use super::ast::*;
use super::expected::{
    checksum_leaves, checksum_line, checksum_mix, float_print_line, print_line, prints_signed,
};
use super::float::{self, FKind, FVal};
use super::types::{DataModel, Field, IntKind, Ty};
use super::value::{binary, operation_kind, BinOp, Val};

/// Why a run stopped early.
#[derive(Debug)]
pub enum Stop {
    /// An operation was rewritten: run again.
    Restart,
    /// The program runs longer than the generator's budget.
    OutOfFuel,
    /// The generator broke one of its own invariants.
    Bug(String),
}

/// A stored object.
#[derive(Clone, Debug, PartialEq)]
enum Obj {
    Int(Val),
    Float(FVal),
    Ptr(Loc),
    Agg(Vec<Obj>),
    /// A union: the low `valid` bytes of its object representation (little-endian, as
    /// on every target) hold `bits`, written through its last-written member (`float`:
    /// a float member of that kind, never with a NaN); the other bytes are unspecified
    /// (C11 6.2.6.1p7), so no read may reach them.
    Union {
        bits: i128,
        valid: u32,
        float: Option<FKind>,
    },
}

/// The union representation after a store of `v` through a member of kind `k`.
fn union_write(v: Val, k: IntKind, dm: DataModel) -> Obj {
    let bits = k.bits(dm);
    Obj::Union {
        bits: v.v & ((1i128 << bits) - 1),
        valid: bits / 8,
        float: None,
    }
}

/// The union representation after a store of the float `v` (not a NaN) through a
/// member of its kind.
fn union_write_float(v: FVal) -> R<Obj> {
    if v.f64().is_nan() {
        return bug("a NaN stored into a union");
    }
    Ok(Obj::Union {
        bits: v.bits as i128,
        valid: match v.kind {
            FKind::Float => 4,
            FKind::Double => 8,
        },
        float: Some(v.kind),
    })
}

/// Where an object lives: a global, or a local of the call with this frame id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    Global(usize),
    Local { frame: u64, var: usize },
}

/// An address: a root object and the element/field path inside it. Pointer arithmetic
/// moves along the array the last step of `path` indexes (`elems` is its length), or, for
/// an object that is not an array element, between the object (0) and one past it
/// (`past`, C99 6.5.6p7: a non-array object is an array of one element).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Loc {
    root: Root,
    path: Vec<usize>,
    elems: Option<usize>,
    past: bool,
}

impl Loc {
    fn of(root: Root) -> Loc {
        Loc {
            root,
            path: Vec::new(),
            elems: None,
            past: false,
        }
    }

    /// The position in the array pointer arithmetic moves along, and its length.
    fn position(&self) -> (i128, i128) {
        match (self.elems, self.path.last()) {
            (Some(n), Some(&i)) => (i as i128, n as i128),
            _ => (self.past as i128, 1),
        }
    }

    /// This address moved to position `pos` (within `0..=len`).
    fn moved(&self, pos: i128) -> Loc {
        let mut l = self.clone();
        match (l.elems, l.path.last_mut()) {
            (Some(_), Some(i)) => *i = pos as usize,
            _ => l.past = pos == 1,
        }
        l
    }

    /// Whether `self` and `other` point into the same array (or the same non-array
    /// object), so that C defines `<` and `-` on them.
    fn same_object(&self, other: &Loc) -> bool {
        let prefix = |l: &Loc| match l.elems {
            Some(_) => l.path[..l.path.len().saturating_sub(1)].to_vec(),
            None => l.path.clone(),
        };
        self.root == other.root && self.elems == other.elems && prefix(self) == prefix(other)
    }
}

struct Frame {
    uid: u64,
    func: usize,
    locals: Vec<Obj>,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Option<Obj>),
    Goto(u32),
}

struct Machine<'p> {
    p: &'p Program,
    dm: DataModel,
    globals: Vec<Obj>,
    frames: Vec<Frame>,
    next_uid: u64,
    out: String,
    fuel: u64,
}

type R<T> = Result<T, Stop>;

fn bug<T>(m: impl Into<String>) -> R<T> {
    Err(Stop::Bug(m.into()))
}

/// Runs `p` under data model `dm` with `fuel` steps; the program's stdout, or why not.
pub fn run(p: &Program, dm: DataModel, fuel: u64) -> Result<String, Stop> {
    let mut m = Machine {
        p,
        dm,
        globals: Vec::new(),
        frames: Vec::new(),
        next_uid: 1,
        out: String::new(),
        fuel,
    };
    for g in &p.globals {
        let f = g.owner.unwrap_or(0);
        let obj = m.init_obj(f, &g.ty, None, Some(&g.init))?;
        m.globals.push(obj);
    }
    let mut args = Vec::new();
    for a in &p.main_args {
        args.push(m.eval(0, a)?);
    }
    m.call(0, args)?;
    let mut state = 0u64;
    for leaf in checksum_leaves(p, dm) {
        let v = match m.eval(0, &Expr::Read(leaf))? {
            Obj::Float(x) => x.observed_bits(),
            Obj::Int(v) => v.to(IntKind::ULLong, dm).v as u64,
            o => return bug(format!("checksum of {o:?}")),
        };
        state = checksum_mix(state, v);
    }
    m.out.push_str(&checksum_line(state));
    Ok(m.out)
}

/// Evaluates `p` under every data model in `dms`, rewriting undefined operations until a
/// run of each is clean; returns each model's stdout.
pub fn settle(p: &Program, dms: &[DataModel], fuel: u64) -> Result<Vec<String>, Stop> {
    // Each operation is rewritten at most twice; this bounds the restarts generously.
    for _ in 0..100_000 {
        let mut outs = Vec::new();
        let mut restarted = false;
        for dm in dms {
            match run(p, *dm, fuel) {
                Ok(o) => outs.push(o),
                Err(Stop::Restart) => {
                    restarted = true;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        if !restarted {
            return Ok(outs);
        }
    }
    Err(Stop::Bug("the rewrite loop did not settle".into()))
}

/// The replacement operators tried, in order, when an operation is undefined.
const SWAPS: [BinOp; 5] = [BinOp::Sub, BinOp::Add, BinOp::Xor, BinOp::Or, BinOp::And];

/// The mask a rewritten shift applies to its count: one less than the width of `k`,
/// and 31 for `long` whatever the data model (so one text serves ILP32 and LP64).
pub fn shift_mask(k: IntKind, dm: DataModel) -> i128 {
    if k.rank() == IntKind::Long.rank() {
        31
    } else {
        k.bits(dm) as i128 - 1
    }
}

/// `op` on `a`, `b` in its rewritten form with kind `k` (defined for every value):
/// `(K)((UK)a op (UK)b)` for + - *; `(K)((UK)a << (b & M))`; `((K)a >> (b & M))`;
/// `((K)a / (K)(((UK)b & ((UK)-1 >> 1)) | 1))` (signed `K`) or `((K)a / ((K)b | 1))`.
pub fn wrapped_binary(op: BinOp, k: IntKind, a: Val, b: Val, dm: DataModel) -> Val {
    let x = a.to(k, dm).v;
    let n = || b.promoted(dm).v & shift_mask(k, dm);
    match op {
        BinOp::Shl => Val::new(k, x << n(), dm),
        BinOp::Shr => Val::new(k, x >> n(), dm),
        BinOp::Div | BinOp::Mod => {
            let y = if k.is_signed() {
                (b.to(k.to_unsigned(), dm).v & k.range(dm).1) | 1
            } else {
                b.to(k, dm).v | 1
            };
            Val::new(k, if op == BinOp::Div { x / y } else { x % y }, dm)
        }
        BinOp::Add => Val::new(k, x + b.v, dm),
        BinOp::Sub => Val::new(k, x - b.v, dm),
        BinOp::Mul => Val::new(k, x.wrapping_mul(b.v), dm),
        _ => binary(op, a, b, dm).expect("only the operators above are ever rewritten"),
    }
}

/// The value `v` stored into an object of type `ty` (a bit-field when `field` is given).
fn store_conversion(v: Val, ty: &Ty, field: Option<&Field>, dm: DataModel) -> R<Val> {
    let k = match ty {
        Ty::Int(k) => *k,
        t => return bug(format!("integer stored into a {t:?}")),
    };
    match field.and_then(|f| f.bits.map(|b| (f, b))) {
        Some((f, w)) if w < 64 => {
            let m = v.v & ((1i128 << w) - 1);
            let m = if k.is_signed() && m >= 1i128 << (w - 1) {
                m - (1i128 << w)
            } else {
                m
            };
            Ok(Val::new(f.read_kind().unwrap_or(k), m, dm))
        }
        _ => Ok(v.to(k, dm)),
    }
}

impl Machine<'_> {
    fn tick(&mut self) -> R<()> {
        if self.fuel == 0 {
            return Err(Stop::OutOfFuel);
        }
        self.fuel -= 1;
        Ok(())
    }

    fn zero(&self, ty: &Ty, field: Option<&Field>) -> R<Obj> {
        match ty {
            Ty::Int(k) => {
                let kind = field.and_then(|f| f.read_kind()).unwrap_or(*k);
                Ok(Obj::Int(Val { kind, v: 0 }))
            }
            Ty::Array(t, n) => Ok(Obj::Agg(
                (0..*n).map(|_| self.zero(t, None)).collect::<R<_>>()?,
            )),
            // Zero initialization of a union sets its first member (C11 6.7.9p10).
            Ty::Struct(id) if self.p.structs[*id].union => match self.p.structs[*id].fields[0].ty {
                Ty::Int(k) => Ok(union_write(Val { kind: k, v: 0 }, k, self.dm)),
                Ty::Float(k) => union_write_float(FVal::from_f64(k, 0.0)),
                _ => bug("a union member that is neither an integer nor a float"),
            },
            Ty::Struct(id) => Ok(Obj::Agg(
                self.p.structs[*id]
                    .fields
                    .iter()
                    .map(|f| self.zero(&f.ty, Some(f)))
                    .collect::<R<_>>()?,
            )),
            Ty::Ptr(_) => bug("a pointer without an initializer"),
            Ty::Float(k) => Ok(Obj::Float(FVal::from_f64(*k, 0.0))),
        }
    }

    /// The object a declaration of type `ty` with initializer `init` starts as.
    fn init_obj(
        &mut self,
        f: usize,
        ty: &Ty,
        field: Option<&Field>,
        init: Option<&Init>,
    ) -> R<Obj> {
        let init = match init {
            None => return self.zero(ty, field),
            Some(i) => i,
        };
        match (ty, init) {
            (Ty::Int(_), Init::Expr(e)) => {
                let v = self.int(f, e)?;
                Ok(Obj::Int(store_conversion(v, ty, field, self.dm)?))
            }
            (Ty::Ptr(_), Init::Expr(e)) | (Ty::Struct(_), Init::Expr(e)) => self.eval(f, e),
            (Ty::Float(k), Init::Float(e)) => Ok(Obj::Float(self.fval(f, e)?.to(*k))),
            (Ty::Array(t, n), Init::List(items)) => {
                let mut out = Vec::new();
                for i in 0..*n as usize {
                    out.push(self.init_obj(f, t, None, items.get(i))?);
                }
                Ok(Obj::Agg(out))
            }
            (Ty::Struct(id), Init::List(items)) if self.p.structs[*id].union => {
                let first = self.p.structs[*id].fields[0].ty.clone();
                match (first, items.first()) {
                    (Ty::Int(k), Some(Init::Expr(e))) => {
                        let v = self.int(f, e)?;
                        Ok(union_write(v.to(k, self.dm), k, self.dm))
                    }
                    (Ty::Float(k), Some(Init::Float(e))) => {
                        union_write_float(self.fval(f, e)?.to(k))
                    }
                    (_, None) => self.zero(ty, None),
                    _ => bug(format!("union initializer {init:?}")),
                }
            }
            (Ty::Struct(id), Init::List(items)) => {
                let fields = self.p.structs[*id].fields.clone();
                let mut out = Vec::new();
                for (i, fd) in fields.iter().enumerate() {
                    out.push(self.init_obj(f, &fd.ty, Some(fd), items.get(i))?);
                }
                Ok(Obj::Agg(out))
            }
            (t, i) => bug(format!("initializer {i:?} for a {t:?}")),
        }
    }

    fn top_uid(&self) -> R<u64> {
        match self.frames.last() {
            Some(fr) => Ok(fr.uid),
            None => bug("a local outside any call"),
        }
    }

    fn object(&mut self, loc: &Loc) -> R<&mut Obj> {
        if loc.past || loc.elems.is_some_and(|n| loc.path.last() == Some(&n)) {
            return bug("an access one past the end of an object");
        }
        let mut obj = match loc.root {
            Root::Global(i) => match self.globals.get_mut(i) {
                Some(o) => o,
                None => return bug(format!("global {i} used before its definition")),
            },
            Root::Local { frame, var } => {
                let fr = match self.frames.iter_mut().rev().find(|fr| fr.uid == frame) {
                    Some(fr) => fr,
                    None => return bug("a pointer to a local whose call has returned"),
                };
                match fr.locals.get_mut(var) {
                    Some(o) => o,
                    None => return bug(format!("local {var} used before its declaration")),
                }
            }
        };
        for &i in &loc.path {
            obj = match obj {
                Obj::Agg(items) if i < items.len() => &mut items[i],
                _ => return bug("a path into a non-aggregate"),
            };
        }
        Ok(obj)
    }

    fn lval(&mut self, f: usize, lv: &LVal) -> R<Loc> {
        self.tick()?;
        match lv {
            LVal::Var(VarRef::Global(i)) => Ok(Loc::of(Root::Global(*i))),
            LVal::Var(VarRef::Local(i)) => Ok(Loc::of(Root::Local {
                frame: self.top_uid()?,
                var: *i,
            })),
            LVal::Index(a, e, guarded) => {
                let n = match self.p.lval_ty(f, a, self.dm).0 {
                    Ty::Array(_, n) => n as i128,
                    t => return bug(format!("indexing a {t:?}")),
                };
                let mut loc = self.lval(f, a)?;
                let i = self.int(f, e)?;
                let idx = if guarded.get() {
                    i.to(IntKind::UInt, self.dm).v % n
                } else if (0..n).contains(&i.v) {
                    i.v
                } else {
                    guarded.set(true);
                    return Err(Stop::Restart);
                };
                loc.path.push(idx as usize);
                loc.elems = Some(n as usize);
                Ok(loc)
            }
            LVal::Field(s, i) => {
                let mut loc = self.lval(f, s)?;
                loc.path.push(*i);
                loc.elems = None;
                Ok(loc)
            }
            LVal::Member(u, i) => {
                let mut loc = self.lval(f, u)?;
                loc.path.push(i.get());
                loc.elems = None;
                Ok(loc)
            }
            LVal::Deref(p) => match self.eval(f, p)? {
                Obj::Ptr(loc) => {
                    // A dangling pointer would fail here.
                    self.object(&loc)?;
                    Ok(loc)
                }
                o => bug(format!("dereferencing {o:?}")),
            },
        }
    }

    fn ptr(&mut self, f: usize, e: &Expr) -> R<Loc> {
        match self.eval(f, e)? {
            Obj::Ptr(l) => Ok(l),
            o => bug(format!("{o:?} where a pointer is needed")),
        }
    }

    fn int(&mut self, f: usize, e: &Expr) -> R<Val> {
        match self.eval(f, e)? {
            Obj::Int(v) => Ok(v),
            o => bug(format!("{o:?} where an integer is needed")),
        }
    }

    /// The value of the float expression `e`.
    fn fval(&mut self, f: usize, e: &FExpr) -> R<FVal> {
        self.tick()?;
        Ok(match e {
            FExpr::Const(v) => *v,
            FExpr::Read(lv) => {
                let loc = self.lval(f, lv)?;
                match self.object(&loc)? {
                    Obj::Float(v) => *v,
                    o => return bug(format!("float read of {o:?}")),
                }
            }
            FExpr::Arith(op, a, b) => {
                let (x, y) = (self.fval(f, a)?, self.fval(f, b)?);
                float::arith(*op, x, y)
            }
            FExpr::Neg(a) => self.fval(f, a)?.negated(),
            FExpr::Conv(k, a) => self.fval(f, a)?.to(*k),
            FExpr::FromInt(k, a) => FVal::from_int(*k, self.int(f, a)?.v),
            FExpr::Cond(c, a, b) => {
                let k = self.p.float_kind(f, e, self.dm);
                let pick = if self.int(f, c)?.is_true() { a } else { b };
                self.fval(f, pick)?.to(k)
            }
            FExpr::Member(u, _, redirected) => {
                let k = self.p.float_kind(f, e, self.dm);
                let narrowest = match self.p.lval_ty(f, u, self.dm).0 {
                    Ty::Struct(id) => self.p.structs[id].narrowest_member(),
                    t => return bug(format!("member of a {t:?}")),
                };
                if redirected.get() {
                    let lv = LVal::Member(u.clone(), narrowest.into());
                    return Ok(FVal::from_int(k, self.int(f, &Expr::Read(lv))?.v));
                }
                let loc = self.lval(f, u)?;
                match self.object(&loc)? {
                    Obj::Union {
                        bits,
                        float: Some(w),
                        ..
                    } if *w == k => FVal {
                        kind: k,
                        bits: *bits as u64,
                    },
                    Obj::Union { .. } => {
                        redirected.set(true);
                        return Err(Stop::Restart);
                    }
                    o => return bug(format!("union member read of {o:?}")),
                }
            }
        })
    }

    fn eval(&mut self, f: usize, e: &Expr) -> R<Obj> {
        self.tick()?;
        let dm = self.dm;
        let v = match e {
            Expr::Const(v) => *v,
            Expr::Read(LVal::Member(u, i)) => {
                let loc = self.lval(f, u)?;
                let def = match self.p.lval_ty(f, u, dm).0 {
                    Ty::Struct(id) => &self.p.structs[id],
                    t => return bug(format!("member of a {t:?}")),
                };
                let k = match def.fields[i.get()].ty.int() {
                    Some(k) => k,
                    None => return bug("a union member that is not an integer"),
                };
                match self.object(&loc)? {
                    Obj::Union { bits, valid, .. } if k.bits(dm) / 8 <= *valid => {
                        Val::new(k, *bits, dm)
                    }
                    Obj::Union { .. } if i.get() != def.narrowest_member() => {
                        i.set(def.narrowest_member());
                        return Err(Stop::Restart);
                    }
                    o => return bug(format!("union member read of {o:?}")),
                }
            }
            Expr::Read(lv) => {
                let loc = self.lval(f, lv)?;
                return Ok(self.object(&loc)?.clone());
            }
            Expr::AddrOf(lv) => return Ok(Obj::Ptr(self.lval(f, lv)?)),
            Expr::Cast(k, a) => self.int(f, a)?.to(*k, dm),
            Expr::Unary(op, a, fix) => {
                let a = self.int(f, a)?.promoted(dm);
                let (lo, _) = a.kind.range(dm);
                match (op, fix.wrap.get()) {
                    (UnOp::Neg, Some(k)) => Val::new(k, -a.v, dm),
                    (UnOp::Neg, None) if a.kind.is_signed() && a.v == lo => {
                        fix.wrap.set(Some(a.kind));
                        return Err(Stop::Restart);
                    }
                    (UnOp::Neg, None) => Val::new(a.kind, -a.v, dm),
                    (UnOp::BitNot, _) => Val::new(a.kind, !a.v, dm),
                    (UnOp::Not, _) => Val::boolean(a.v == 0),
                }
            }
            Expr::Binary(op, a, b, fix) => {
                let x = self.int(f, a)?;
                let y = self.int(f, b)?;
                let o = op.get();
                if let Some(k) = fix.wrap.get() {
                    wrapped_binary(o, k, x, y, dm)
                } else {
                    match binary(o, x, y, dm) {
                        Ok(v) => v,
                        Err(_) => {
                            let swap = SWAPS
                                .iter()
                                .find(|s| **s != o && binary(**s, x, y, dm).is_ok());
                            match (fix.swapped.get(), swap) {
                                (false, Some(s)) => {
                                    op.set(*s);
                                    fix.swapped.set(true);
                                }
                                _ => fix.wrap.set(Some(operation_kind(o, x.kind, y.kind, dm))),
                            }
                            return Err(Stop::Restart);
                        }
                    }
                }
            }
            Expr::PtrAdd {
                base,
                off,
                fix,
                bound,
            } => {
                let loc = self.ptr(f, base)?;
                let k = self.int(f, off)?.v;
                if fix.zeroed.get() {
                    return Ok(Obj::Ptr(loc));
                }
                let (pos, len) = loc.position();
                let last = if *bound { len } else { len - 1 };
                let at = |sub: bool| if sub { pos - k } else { pos + k };
                let inside = |p: i128| (0..=last).contains(&p);
                let sub = fix.sub.get();
                if inside(at(sub)) {
                    return Ok(Obj::Ptr(loc.moved(at(sub))));
                }
                if !fix.swapped.get() && inside(at(!sub)) {
                    fix.sub.set(!sub);
                    fix.swapped.set(true);
                } else {
                    fix.zeroed.set(true);
                }
                return Err(Stop::Restart);
            }
            Expr::PtrCmp(op, a, b) => {
                let (la, lb) = (self.ptr(f, a)?, self.ptr(f, b)?);
                if !la.same_object(&lb) {
                    return bug(format!(
                        "pointers into different objects compared: {la:?} {lb:?}"
                    ));
                }
                let (x, y) = (la.position().0, lb.position().0);
                match op {
                    BinOp::Lt => Val::boolean(x < y),
                    BinOp::Le => Val::boolean(x <= y),
                    BinOp::Gt => Val::boolean(x > y),
                    BinOp::Ge => Val::boolean(x >= y),
                    o => return bug(format!("pointer comparison {o:?}")),
                }
            }
            Expr::PtrDiff(a, b) => {
                let (la, lb) = (self.ptr(f, a)?, self.ptr(f, b)?);
                if !la.same_object(&lb) {
                    return bug(format!(
                        "pointers into different objects subtracted: {la:?} {lb:?}"
                    ));
                }
                Val::new(IntKind::Long, la.position().0 - lb.position().0, dm)
            }
            Expr::PtrEq(eq, a, b) => {
                let (pa, pb) = (self.eval(f, a)?, self.eval(f, b)?);
                Val::boolean((pa == pb) == *eq)
            }
            Expr::Logic(and, a, b) => {
                let x = self.int(f, a)?.is_true();
                if x != *and {
                    Val::boolean(x)
                } else {
                    Val::boolean(self.int(f, b)?.is_true())
                }
            }
            Expr::Cond(c, a, b) => {
                let k = self.p.int_kind(f, e, dm);
                let pick = if self.int(f, c)?.is_true() { a } else { b };
                self.int(f, pick)?.to(k, dm)
            }
            Expr::Comma(a, b) => {
                self.eval(f, a)?;
                return self.eval(f, b);
            }
            Expr::Float(a) => return Ok(Obj::Float(self.fval(f, a)?)),
            Expr::FCmp(op, a, b) => {
                let (x, y) = (self.fval(f, a)?, self.fval(f, b)?);
                Val::boolean(float::compare(*op, x, y))
            }
            Expr::FToInt(k, a, guarded) => {
                let x = self.fval(f, a)?;
                if guarded.get() {
                    Val::new(*k, float::guarded_to_int(x, *k), dm)
                } else {
                    match float::plain_to_int(x, k.range(dm)) {
                        Some(v) => Val::new(*k, v, dm),
                        None => {
                            guarded.set(true);
                            return Err(Stop::Restart);
                        }
                    }
                }
            }
        };
        Ok(Obj::Int(v))
    }

    fn store(&mut self, f: usize, lv: &LVal, value: Obj) -> R<()> {
        if let (LVal::Member(u, _), Obj::Int(v)) = (lv, &value) {
            let loc = self.lval(f, u)?;
            let k = self.p.read_kind(f, lv, self.dm);
            let new = union_write(v.to(k, self.dm), k, self.dm);
            *self.object(&loc)? = new;
            return Ok(());
        }
        if let (LVal::Member(u, _), Obj::Float(v)) = (lv, &value) {
            let loc = self.lval(f, u)?;
            let new = match self.p.lval_ty(f, lv, self.dm).0 {
                Ty::Float(k) => union_write_float(v.to(k))?,
                t => return bug(format!("float {v:?} stored into a {t:?} member")),
            };
            *self.object(&loc)? = new;
            return Ok(());
        }
        let loc = self.lval(f, lv)?;
        let (ty, field) = self.p.lval_ty(f, lv, self.dm);
        let value = match (value, &ty) {
            (Obj::Int(v), _) => Obj::Int(store_conversion(v, &ty, field.as_ref(), self.dm)?),
            (Obj::Float(v), Ty::Float(k)) => Obj::Float(v.to(*k)),
            (Obj::Float(v), t) => return bug(format!("float {v:?} stored into a {t:?}")),
            (o, _) => o,
        };
        *self.object(&loc)? = value;
        Ok(())
    }

    fn call(&mut self, g: usize, args: Vec<Obj>) -> R<Option<Obj>> {
        self.tick()?;
        let func = &self.p.funcs[g];
        let uid = self.next_uid;
        self.next_uid += 1;
        let mut params = Vec::new();
        for (i, a) in args.into_iter().enumerate() {
            params.push(match (a, &func.locals[i].ty) {
                (Obj::Int(v), Ty::Int(k)) => Obj::Int(v.to(*k, self.dm)),
                (Obj::Float(v), Ty::Float(k)) => Obj::Float(v.to(*k)),
                (a, _) => a,
            });
        }
        self.frames.push(Frame {
            uid,
            func: g,
            locals: params,
        });
        for i in func.params..func.locals.len() {
            let var = &func.locals[i];
            let obj = self.init_obj(g, &var.ty, None, Some(&var.init))?;
            self.frames
                .last_mut()
                .expect("pushed above")
                .locals
                .push(obj);
        }
        let flow = self.block(g, &func.body)?;
        let frame = self.frames.pop().expect("pushed above");
        debug_assert_eq!(frame.func, g);
        match (flow, &func.ret) {
            (Flow::Return(Some(Obj::Int(v))), Some(Ty::Int(k))) => {
                Ok(Some(Obj::Int(v.to(*k, self.dm))))
            }
            (Flow::Return(Some(Obj::Float(v))), Some(Ty::Float(k))) => {
                Ok(Some(Obj::Float(v.to(*k))))
            }
            (Flow::Return(Some(o)), Some(_)) => Ok(Some(o)),
            (Flow::Return(None) | Flow::Normal, None) => Ok(None),
            _ => bug(format!("{} ends without its return", func.name)),
        }
    }

    fn block(&mut self, f: usize, stmts: &[Stmt]) -> R<Flow> {
        let mut i = 0;
        while i < stmts.len() {
            match self.stmt(f, &stmts[i])? {
                Flow::Normal => i += 1,
                Flow::Goto(l) => {
                    match stmts[i + 1..]
                        .iter()
                        .position(|s| matches!(s, Stmt::Label(x) if *x == l))
                    {
                        Some(j) => i += 1 + j,
                        None => return Ok(Flow::Goto(l)),
                    }
                }
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn counter(&mut self, f: usize, var: VarRef) -> R<i128> {
        Ok(self.int(f, &Expr::Read(LVal::Var(var)))?.v)
    }

    fn set_counter(&mut self, f: usize, var: VarRef, v: i128) -> R<()> {
        self.store(
            f,
            &LVal::Var(var),
            Obj::Int(Val {
                kind: IntKind::Int,
                v,
            }),
        )
    }

    fn stmt(&mut self, f: usize, s: &Stmt) -> R<Flow> {
        self.tick()?;
        match s {
            Stmt::Assign { lv, rhs, .. } => {
                let v = self.eval(f, rhs)?;
                self.store(f, lv, v)?;
            }
            Stmt::Call { dst, func, args } => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(f, a)?);
                }
                let r = self.call(*func, vals)?;
                if let Some(d) = dst {
                    match r {
                        Some(v) => self.store(f, &LVal::Var(*d), v)?,
                        None => return bug("the result of a void function is stored"),
                    }
                }
            }
            Stmt::If(c, a, b) => {
                if self.int(f, c)?.is_true() {
                    return self.block(f, a);
                } else if let Some(b) = b {
                    return self.block(f, b);
                }
            }
            Stmt::Loop {
                kind,
                var,
                trips,
                prev,
                body,
            } => {
                let n = *trips as i128;
                self.set_counter(f, *var, 0)?;
                loop {
                    let i = self.counter(f, *var)?;
                    if let Some(p) = prev {
                        self.set_counter(f, *p, i)?;
                    }
                    match kind {
                        LoopKind::For if i >= n => break,
                        LoopKind::While if i >= n => break,
                        LoopKind::For => {}
                        LoopKind::While | LoopKind::DoWhile => self.set_counter(f, *var, i + 1)?,
                    }
                    match self.block(f, body)? {
                        Flow::Break => break,
                        Flow::Normal | Flow::Continue => {}
                        other => return Ok(other),
                    }
                    let i = self.counter(f, *var)?;
                    match kind {
                        LoopKind::For => self.set_counter(f, *var, i + 1)?,
                        LoopKind::DoWhile if i >= n => break,
                        _ => {}
                    }
                }
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Switch(e, cases) => {
                let v = self.int(f, e)?.promoted(self.dm);
                let start = cases
                    .iter()
                    .position(|c| c.value.is_some_and(|x| Val::new(v.kind, x, self.dm) == v))
                    .or_else(|| cases.iter().position(|c| c.value.is_none()));
                if let Some(start) = start {
                    for c in &cases[start..] {
                        match self.block(f, &c.body)? {
                            Flow::Break => break,
                            Flow::Normal if c.brk => break,
                            Flow::Normal => {}
                            other => return Ok(other),
                        }
                    }
                }
            }
            Stmt::Goto(l) => return Ok(Flow::Goto(*l)),
            Stmt::Label(_) => {}
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => Some(self.eval(f, e)?),
                    None => None,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Print(e) => {
                let v = self.int(f, e)?;
                let line = print_line(v, prints_signed(self.p, f, e), self.dm);
                self.out.push_str(&line);
            }
            Stmt::Block(b) => return self.block(f, b),
            Stmt::FAssign {
                lv,
                op,
                rhs,
                nan_guard,
            } => {
                let mut r = self.fval(f, rhs)?;
                if r.f64().is_nan() && matches!(lv, LVal::Member(..)) {
                    if !nan_guard.get() {
                        nan_guard.set(true);
                        return Err(Stop::Restart);
                    }
                    r = FVal::from_f64(r.kind, 0.0);
                }
                let v = match op {
                    Some(op) => {
                        let old = self.fval(f, &FExpr::Read(lv.clone()))?;
                        float::arith(*op, old, r)
                    }
                    None => r,
                };
                self.store(f, lv, Obj::Float(v))?;
            }
            Stmt::FPrint(e) => {
                let v = self.fval(f, e)?;
                self.out.push_str(&float_print_line(v));
            }
        }
        Ok(Flow::Normal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::gen::print::program_text;
    use crate::c::gen::DATA_MODELS;

    fn int(v: i128) -> Expr {
        Expr::Const(Val {
            kind: IntKind::Int,
            v,
        })
    }

    fn global(name: &str, v: i128) -> Var {
        Var {
            name: name.into(),
            ty: Ty::Int(IntKind::Int),
            is_const: false,
            is_volatile: false,
            owner: None,
            init: Init::Expr(int(v)),
        }
    }

    fn g(i: usize) -> LVal {
        LVal::Var(VarRef::Global(i))
    }

    /// `g_0 = g_0 + 1` with `g_0 == INT_MAX` becomes `g_0 - 1` (the first swap defined on
    /// those values); `g_1 = -g_1` with `g_1 == INT_MIN` has no swap and is done in
    /// `unsigned int`. Expected values computed by hand (the checksum with Python).
    #[test]
    fn undefined_operations_are_rewritten_and_the_output_follows() {
        let p = Program {
            structs: Vec::new(),
            globals: vec![
                global("g_0", i32::MAX as i128),
                global("g_1", i32::MIN as i128),
            ],
            funcs: vec![Func {
                name: "func_0".into(),
                ret: None,
                params: 0,
                locals: Vec::new(),
                body: vec![
                    Stmt::Assign {
                        lv: g(0),
                        rhs: Expr::Binary(
                            BinOp::Add.into(),
                            Box::new(Expr::Read(g(0))),
                            Box::new(int(1)),
                            Fix::default(),
                        ),
                        style: AssignStyle::Plain,
                    },
                    Stmt::Assign {
                        lv: g(1),
                        rhs: Expr::Unary(UnOp::Neg, Box::new(Expr::Read(g(1))), Fix::default()),
                        style: AssignStyle::Plain,
                    },
                    Stmt::Print(Expr::Read(g(0))),
                ],
                depth_param: None,
                indirect: false,
            }],
            main_args: Vec::new(),
            floats: false,
        };
        let outs = settle(&p, &DATA_MODELS, 1000).unwrap();
        assert_eq!(outs[0], "2147483646\nchecksum = fffe9644fffa459a\n");
        assert_eq!(outs[0], outs[1]);
        let text = program_text(&p);
        assert!(text.contains("g_0 = (g_0 - 1);"), "{text}");
        assert!(
            text.contains("g_1 = ((int)(-(unsigned int)(g_1)));"),
            "{text}"
        );
    }

    /// A double global squared to infinity: its conversion to `int` is undefined, so it is
    /// guarded (and gives 0); `inf - inf` is a NaN, printed as the mark; `x != x` holds for
    /// it; and the guard's bounds are the exact doubles -2^31 - 1 and 2^31. Expected
    /// values by hand (IEEE: 1e300 * 1e300 overflows to +inf, bits 0x7ff0000000000000).
    #[test]
    fn float_conversions_out_of_range_are_guarded_and_nans_print_as_the_mark() {
        use crate::c::gen::float::{FKind, FOp, FVal};
        let big = FExpr::Const(FVal::from_f64(FKind::Double, 1e300));
        let read = || FExpr::Read(g(0));
        let diff = || FExpr::Arith(FOp::Sub, Box::new(read()), Box::new(read()));
        let p = Program {
            structs: Vec::new(),
            globals: vec![Var {
                name: "g_0".into(),
                ty: Ty::Float(FKind::Double),
                is_const: false,
                is_volatile: false,
                owner: None,
                init: Init::Float(big),
            }],
            funcs: vec![Func {
                name: "func_0".into(),
                ret: None,
                params: 0,
                locals: Vec::new(),
                body: vec![
                    Stmt::FAssign {
                        lv: g(0),
                        op: Some(FOp::Mul),
                        rhs: read(),
                        nan_guard: Default::default(),
                    },
                    Stmt::Print(Expr::FToInt(
                        IntKind::Int,
                        Box::new(read()),
                        Default::default(),
                    )),
                    Stmt::FPrint(diff()),
                    Stmt::Print(Expr::FCmp(BinOp::Ne, Box::new(diff()), Box::new(diff()))),
                    Stmt::FPrint(read()),
                ],
                depth_param: None,
                indirect: false,
            }],
            main_args: Vec::new(),
            floats: true,
        };
        let outs = settle(&p, &DATA_MODELS, 1000).unwrap();
        assert!(
            outs[0].starts_with("0\nffffffffffffffff\n1\n7ff0000000000000\nchecksum = "),
            "{}",
            outs[0]
        );
        assert_eq!(outs[0], outs[1]);
        let text = program_text(&p);
        assert!(
            text.contains("static double g_0 = 0x1.7e43c8800759cp+996;"),
            "{text}"
        );
        assert!(text.contains("g_0 *= g_0;"), "{text}");
        assert!(
            text.contains("((int)float_to_int(g_0, (-0x1.00000002p+31), 0x1p+31))"),
            "{text}"
        );
        assert!(text.contains("double_bits((g_0 - g_0))"), "{text}");
    }

    fn addr_of_element(i: i128) -> Expr {
        Expr::AddrOf(LVal::Index(
            Box::new(g(0)),
            Box::new(int(i)),
            Default::default(),
        ))
    }

    fn ptr_add(base: Expr, k: i128, sub: bool, bound: bool) -> Expr {
        let fix = PtrFix::default();
        fix.sub.set(sub);
        Expr::PtrAdd {
            base: Box::new(base),
            off: Box::new(int(k)),
            fix,
            bound,
        }
    }

    /// Pointer arithmetic on `int g_0[3] = {1, 2, 3}`: `*(&g_0[1] + 5)` leaves the array
    /// either way and gets its offset zeroed (reads g_0[1] = 2); `*(&g_0[0] + -2)` becomes
    /// `- -2` (g_0[2] = 3); one past the end is a valid bound: `&g_0[0] + 3 < &g_0[0] + 1`
    /// is 0 and their difference 2. Checksum of 1, 2, 3, 0 by hand (Python).
    #[test]
    fn pointer_arithmetic_stays_inside_its_object() {
        let array = Var {
            name: "g_0".into(),
            ty: Ty::Array(Box::new(Ty::Int(IntKind::Int)), 3),
            is_const: false,
            is_volatile: false,
            owner: None,
            init: Init::List(vec![
                Init::Expr(int(1)),
                Init::Expr(int(2)),
                Init::Expr(int(3)),
            ]),
        };
        let deref = |e: Expr| Stmt::Print(Expr::Read(LVal::Deref(Box::new(e))));
        let bounds = || {
            (
                Box::new(ptr_add(addr_of_element(0), 3, false, true)),
                Box::new(ptr_add(addr_of_element(0), 1, false, true)),
            )
        };
        let (a, b) = bounds();
        let (c, d) = bounds();
        let p = Program {
            structs: Vec::new(),
            globals: vec![array, global("g_1", 0)],
            funcs: vec![Func {
                name: "func_0".into(),
                ret: None,
                params: 0,
                locals: Vec::new(),
                body: vec![
                    deref(ptr_add(addr_of_element(1), 5, false, false)),
                    deref(ptr_add(addr_of_element(0), -2, false, false)),
                    Stmt::Print(Expr::PtrCmp(BinOp::Lt, a, b)),
                    Stmt::Print(Expr::PtrDiff(c, d)),
                ],
                depth_param: None,
                indirect: false,
            }],
            main_args: Vec::new(),
            floats: false,
        };
        let outs = settle(&p, &DATA_MODELS, 1000).unwrap();
        assert_eq!(outs[0], "2\n3\n0\n2\nchecksum = cb57b2086ec94e78\n");
        assert_eq!(outs[0], outs[1]);
        let text = program_text(&p);
        assert!(text.contains("(*((&g_0[1]) + ((5) & 0)))"), "{text}");
        assert!(text.contains("(*((&g_0[0]) - (-2)))"), "{text}");
        assert!(
            text.contains("(((&g_0[0]) + 3) < ((&g_0[0]) + 1))"),
            "{text}"
        );
        assert!(
            text.contains("(((&g_0[0]) + 3) - ((&g_0[0]) + 1))"),
            "{text}"
        );
    }

    /// `union { int f0; unsigned char f1; long long f2; } g_0 = {-5}`: f1 reads the low
    /// byte of -5 (251, little-endian); f2 is wider than the int last written, so its
    /// read is redirected to f1 (251 again); after `g_0.f2 = -2`, f0 reads -2. The
    /// checksum mixes the narrowest member, 254 (by hand, Python).
    #[test]
    fn a_union_member_reads_the_bytes_of_the_last_write_and_never_beyond() {
        use crate::c::gen::types::{Field, StructDef};
        let field = |k| Field {
            ty: Ty::Int(k),
            bits: None,
        };
        let member = |i: usize| LVal::Member(Box::new(g(0)), i.into());
        let p = Program {
            structs: vec![StructDef {
                fields: vec![
                    field(IntKind::Int),
                    field(IntKind::UChar),
                    field(IntKind::LLong),
                ],
                packed: false,
                union: true,
            }],
            globals: vec![Var {
                name: "g_0".into(),
                ty: Ty::Struct(0),
                is_const: false,
                is_volatile: false,
                owner: None,
                init: Init::List(vec![Init::Expr(int(-5))]),
            }],
            funcs: vec![Func {
                name: "func_0".into(),
                ret: None,
                params: 0,
                locals: Vec::new(),
                body: vec![
                    Stmt::Print(Expr::Read(member(1))),
                    Stmt::Print(Expr::Read(member(2))),
                    Stmt::Assign {
                        lv: member(2),
                        rhs: Expr::Const(Val {
                            kind: IntKind::LLong,
                            v: -2,
                        }),
                        style: AssignStyle::Plain,
                    },
                    Stmt::Print(Expr::Read(member(0))),
                ],
                depth_param: None,
                indirect: false,
            }],
            main_args: Vec::new(),
            floats: false,
        };
        let outs = settle(&p, &DATA_MODELS, 1000).unwrap();
        assert_eq!(outs[0], "251\n251\n-2\nchecksum = 0000fe000001afa1\n");
        assert_eq!(outs[0], outs[1]);
        let text = program_text(&p);
        assert!(text.contains("union S0 {"), "{text}");
        assert!(text.contains("static union S0 g_0 = {(-5)};"), "{text}");
        assert_eq!(text.matches("(g_0.f1)").count(), 3, "{text}");
    }

    /// `union { float f0; unsigned char f1; int f2; } g_0 = {1.5f}`: f2 reads the float's
    /// bits (0x3fc00000 = 1069547520) and f1 their low byte (0); a NaN assigned to f0 is
    /// rewritten to 0 (f2 then reads 0); after `g_0.f2 = 5`, a float read of f0 would
    /// reinterpret integer bytes, so it is rewritten to `(float)(g_0.f1)`: 5.0f, bits
    /// 0x40a00000. The checksum mixes f1 = 5: (0 ^ 5) * 1099511628211 + 7 (by hand, Python).
    #[test]
    fn a_union_float_member_is_read_only_after_a_float_write_and_never_holds_a_nan() {
        use crate::c::gen::float::{FKind, FOp, FVal};
        use crate::c::gen::types::{Field, StructDef};
        let field = |ty| Field { ty, bits: None };
        let member = |i: usize| LVal::Member(Box::new(g(0)), i.into());
        let zero = || Box::new(FExpr::Const(FVal::from_f64(FKind::Float, 0.0)));
        let p = Program {
            structs: vec![StructDef {
                fields: vec![
                    field(Ty::Float(FKind::Float)),
                    field(Ty::Int(IntKind::UChar)),
                    field(Ty::Int(IntKind::Int)),
                ],
                packed: false,
                union: true,
            }],
            globals: vec![Var {
                name: "g_0".into(),
                ty: Ty::Struct(0),
                is_const: false,
                is_volatile: false,
                owner: None,
                init: Init::List(vec![Init::Float(FExpr::Const(FVal::from_f64(
                    FKind::Float,
                    1.5,
                )))]),
            }],
            funcs: vec![Func {
                name: "func_0".into(),
                ret: None,
                params: 0,
                locals: Vec::new(),
                body: vec![
                    Stmt::Print(Expr::Read(member(2))),
                    Stmt::Print(Expr::Read(member(1))),
                    Stmt::FAssign {
                        lv: member(0),
                        op: None,
                        rhs: FExpr::Arith(FOp::Div, zero(), zero()),
                        nan_guard: Default::default(),
                    },
                    Stmt::Print(Expr::Read(member(2))),
                    Stmt::Assign {
                        lv: member(2),
                        rhs: int(5),
                        style: AssignStyle::Plain,
                    },
                    Stmt::FPrint(FExpr::Member(Box::new(g(0)), 0, Default::default())),
                ],
                depth_param: None,
                indirect: false,
            }],
            main_args: Vec::new(),
            floats: true,
        };
        let outs = settle(&p, &DATA_MODELS, 1000).unwrap();
        assert_eq!(
            outs[0],
            "1069547520\n0\n0\n0000000040a00000\nchecksum = 0000050000000886\n"
        );
        assert_eq!(outs[0], outs[1]);
        let text = program_text(&p);
        assert!(
            text.contains("static union S0 g_0 = {0x1.8p+0f};"),
            "{text}"
        );
        assert!(text.contains("float_bits(((float)(g_0.f1)))"), "{text}");
        assert!(
            text.contains("g_0.f0 = (((0x0p+0f / 0x0p+0f) == (0x0p+0f / 0x0p+0f)) ? (0x0p+0f / 0x0p+0f) : 0x0p+0f);"),
            "{text}"
        );
    }
}
