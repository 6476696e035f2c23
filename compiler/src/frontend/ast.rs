//! The typed AST: what parsing + semantic analysis hand to the lowering.
//!
//! Why it exists: it is the one contract between `frontend::parse` (which resolves every
//! name, type and conversion) and `lowering` (which only has to translate). Everything
//! C leaves implicit is explicit here, so the lowering never re-derives C's rules.
//!
//! Invariants the parser guarantees and the lowering relies on:
//! - Every `Expr` has its C type in `ty` (qualifiers included for lvalues).
//! - Implicit conversions are explicit `Cast` nodes: integer promotions, the usual
//!   arithmetic conversions, assignment/argument/return conversions, conversion to
//!   `_Bool`. Array-to-pointer and function-to-pointer conversions are `Decay` nodes.
//!   So the operands of `Binary` arithmetic already have the result's type.
//! - Lvalues are exactly: `Local`, `Global`, `Deref`, `Member` (of an lvalue base, or of
//!   an rvalue record such as a call result, in which case it is not assignable) and
//!   `Str`. Only lvalues appear as `AddrOf`, `Assign`, `CompoundAssign`, `IncDec`
//!   operands and `Decay` operands (besides `Func`).
//! - Constants are folded where C requires a constant (array sizes, case labels,
//!   bit-field widths, enum values, static initializers); `sizeof`, `_Alignof` and enum
//!   constants are already `IntLit`.
//! - Names are resolved: no `Expr` refers to a name by string except `Func` (whose string
//!   is the IR symbol of a function in `TranslationUnit::functions` or `externs`).

use super::source::Loc;
use super::types::{BitField, FunctionType, QualType, RecordId, RecordTable, Type};
use super::Target;
use std::rc::Rc;

/// A local variable or parameter of the function being defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalId(pub u32);

/// A global variable (file-scope, or a `static` local) in `TranslationUnit::globals`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId(pub u32);

/// A string literal in `TranslationUnit::strings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StringId(pub u32);

/// A `goto` label of the function being defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LabelId(pub u32);

/// A `case` or `default` label of the function being defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaseId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Signed or unsigned by the operand type.
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    /// Arithmetic for a signed left operand, logical for an unsigned one.
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }

    pub fn is_shift(self) -> bool {
        matches!(self, BinaryOp::Shl | BinaryOp::Shr)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x` on the promoted operand.
    Neg,
    /// `~x` on the promoted operand.
    BitNot,
    /// `!x`: 1 if the scalar operand compares equal to 0, else 0; type `int`.
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncDecOp {
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: QualType,
    pub loc: Loc,
    /// gcc's type of this value when it is the *result* of an operation computed in the
    /// type gcc gives a bit-field wider than `int` (`(width, signed)`; `ty` stays the
    /// declared type): see `parse/wide_bitfield.rs`. `None` for everything else,
    /// including the bit-field member reads themselves, which are recognised by shape.
    pub wide_bitfield_type: Option<(u32, bool)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer constant of `ty` (an integer type); `value` holds its bits,
    /// truncated to the type's width (sign- or zero-extension is the reader's job).
    IntLit(u64),
    /// A floating constant of `ty` (parsed and type-checked; the lowering may reject it).
    FloatLit(f64),
    /// A string literal: an lvalue of type `char[N]` (N counts the terminating NUL).
    Str(StringId),
    Local(LocalId),
    Global(GlobalId),
    /// A compound literal `(T){ ... }` in a function: an lvalue, the hidden local (of the
    /// literal's type, an array completed by its initializer) initialised every time
    /// the expression is evaluated (C99 6.5.2.5p6: it lives to the end of its block).
    CompoundLiteral(LocalId, Box<Initializer>),
    /// A function designator (type: the function type); it only appears under `Decay`
    /// or `AddrOf`.
    Func(String),

    /// Conversion of the operand's value to `ty` (implicit or explicit): between integer
    /// types (truncate / sign- or zero-extend by the source's signedness), to `_Bool`
    /// (operand != 0), between integers and pointers, between pointers, to `void`
    /// (evaluate, discard), and any conversion involving floating types.
    Cast(Box<Expr>),
    /// Array-to-pointer (the address of the array lvalue's first element) or
    /// function-to-pointer conversion; `ty` is the pointer type.
    Decay(Box<Expr>),
    /// `&lvalue` (or `&function`); `ty` is the pointer type.
    AddrOf(Box<Expr>),
    /// `*ptr`: an lvalue of the pointee type.
    Deref(Box<Expr>),
    /// `base.field` where `base` has record type `record`; `field` indexes
    /// `RecordDef::fields`. `p->f` is `Member(Deref(p))`; a member of an anonymous
    /// struct/union member is a nested `Member`. A bit-field member's placement is in
    /// `RecordDef::fields[field].bitfield`.
    Member {
        base: Box<Expr>,
        record: RecordId,
        field: usize,
    },

    Unary(UnaryOp, Box<Expr>),
    /// Arithmetic and bitwise ops: both operands have `ty` already. Shifts: the left
    /// operand has `ty` (promoted), the right operand its own promoted type. Comparisons:
    /// both operands have one common type (arithmetic, or both pointers), `ty` is `int`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `ptr + index * elem_size` (also `ptr - n`, as `index = -n`, and `a[i]` as
    /// `Deref(PtrAdd)`); `index` has the target's `ptrdiff_t` type (signed, pointer
    /// width).
    PtrAdd {
        ptr: Box<Expr>,
        index: Box<Expr>,
        elem_size: u64,
    },
    /// `(lhs - rhs) / elem_size` of two pointers; `ty` is `ptrdiff_t`.
    PtrDiff {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        elem_size: u64,
    },
    /// `a && b`, `a || b`: scalar operands tested against 0, short-circuit; type `int`.
    LogAnd(Box<Expr>, Box<Expr>),
    LogOr(Box<Expr>, Box<Expr>),
    /// `c ? a : b`: `c` a scalar tested against 0; `a` and `b` converted to `ty` (or both
    /// `void`, or both the same record type); only the chosen arm is evaluated.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b`: evaluate `a`, discard it, the value is `b`'s.
    Comma(Box<Expr>, Box<Expr>),

    /// `lhs = rhs`: `rhs` is converted to `lhs`'s unqualified type (a record copy when it
    /// is a record); the value is the stored value, `ty` = `lhs`'s unqualified type.
    Assign(Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`: `lhs` is evaluated once; the value is
    /// `(lhs type)((compute_ty)lhs op rhs)`, stored and yielded. `rhs` already has
    /// `compute_ty` (for shifts: its own promoted type). With `ptr_elem_size = Some(n)`,
    /// `lhs` is a pointer, `op` is `Add` or `Sub`, `rhs` is a `ptrdiff_t` index and the
    /// step is `rhs * n` bytes. With `lhs_wrap = Some(n)` gcc computes in an unsigned
    /// n-bit bit-field type (see `parse/wide_bitfield.rs`): the converted `lhs` is
    /// reduced modulo 2^n (`rhs` already is).
    CompoundAssign {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        compute_ty: Type,
        ptr_elem_size: Option<u64>,
        lhs_wrap: Option<u32>,
    },
    /// `++x`, `x--`, ...: for an integer lvalue the step is 1 computed in the promoted
    /// type and converted back (`_Bool` becomes 1 / toggles as C says); for a pointer it
    /// is `ptr_elem_size` bytes. `ty` is the operand's unqualified type.
    IncDec {
        op: IncDecOp,
        operand: Box<Expr>,
        ptr_elem_size: Option<u64>,
    },
    /// A call. `callee` has pointer-to-function type (a direct call is
    /// `Decay(Func(name))`); `args` are converted to the parameter types, and variadic or
    /// unprototyped arguments have had the default argument promotions. `fn_ty` is the
    /// callee's function type; `ty` its return type.
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
        fn_ty: Rc<FunctionType>,
    },
    /// A GNU statement expression `({ block-item* })` (`parse/stmt_expr.rs`): `body` is a
    /// block with its own scope, and `value`, the block's last item when that is an
    /// expression statement, is evaluated last inside that scope; the whole expression
    /// has `value`'s value and (unqualified, lvalue-converted) type, or is `void` without
    /// one. Not an lvalue. No `goto` or `case` label outside it targets a label inside.
    StmtExpr {
        body: Vec<Stmt>,
        value: Option<Box<Expr>>,
    },
}

/// How a local object (or a compound member) is initialized.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// A scalar, or a whole record from a record-typed expression: the value converted
    /// to the object's type.
    Expr(Expr),
    /// A brace list (or a string literal for a `char` array), flattened: every byte of
    /// the object not written by an item is zero. Items are in source order, and a later
    /// item overriding an earlier one has already replaced it.
    List(Vec<InitItem>),
}

/// One scalar (or record-typed) store of a flattened initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct InitItem {
    /// Byte offset from the object's start. For a bit-field: the offset of the record
    /// that contains it (`bitfield.bit_offset` counts from there).
    pub offset: u64,
    pub bitfield: Option<BitField>,
    /// Converted to the member's type.
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `;`
    Null,
    Expr(Expr),
    /// Local declarations of one declaration, initialized in order (`None`: no
    /// initializer, the object's bytes are indeterminate).
    Decl(Vec<(LocalId, Option<Initializer>)>),
    Compound(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// `init` is a `Decl` or `Expr` statement; `cond` absent means "forever".
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `cond` is promoted; `cases` lists each `case` label's value (converted to the
    /// promoted type, bits truncated to its width) and id; `ranges` each GNU case range
    /// `case lo ... hi:` (both bounds so converted, `lo <= hi` in the promoted type's
    /// signedness); no value is in two of them.
    Switch {
        cond: Expr,
        body: Box<Stmt>,
        cases: Vec<(u64, CaseId)>,
        ranges: Vec<(u64, u64, CaseId)>,
        default: Option<CaseId>,
    },
    /// A `case`/`default` label (of the innermost enclosing `Switch`) on a statement.
    Case(CaseId, Box<Stmt>),
    Label(LabelId, Box<Stmt>),
    Goto(LabelId),
    /// GNU `goto *p`: the operand is the index of the target among the function's
    /// address-taken labels (`FunctionDef::label_addresses`; `parse/local_labels.rs`).
    IndirectGoto(Expr),
    Break,
    Continue,
    /// The value is converted to the function's return type.
    Return(Option<Expr>),
    /// The statement (or declaration) that begins at `Loc` (its first token): where the
    /// lowering reports an error that belongs to the statement itself rather than to one
    /// of its expressions (which carry their own `loc`). The parser wraps every
    /// statement and block-scope declaration it builds except `Null`, and never nests
    /// `At` directly in `At` (see [`Stmt::at`]); a statement without one (a hand-built
    /// AST) is placed at its enclosing statement, or at the function.
    At(Loc, Box<Stmt>),
}

impl Stmt {
    /// `s` placed at `loc`: `At(loc, s)`, except that `Null` and an already placed
    /// statement are returned as they are.
    pub fn at(loc: Loc, s: Stmt) -> Stmt {
        match s {
            Stmt::Null | Stmt::At(..) => s,
            s => Stmt::At(loc, Box::new(s)),
        }
    }

    /// The statement without its position wrapper(s).
    pub fn inner(&self) -> &Stmt {
        let mut s = self;
        while let Stmt::At(_, inner) = s {
            s = inner;
        }
        s
    }
}

/// The conditions in `If`, `While`, `DoWhile`, `For` and `Cond` are scalars tested against 0
/// (not converted to `int`).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalVar {
    pub name: String,
    pub ty: QualType,
    pub loc: Loc,
    /// Parameters are locals 0..n in order; the lowering stores the incoming values.
    pub is_param: bool,
    /// `_Alignas(N)` / `__attribute__((aligned(N)))` on the object: at least N
    /// (`parse/object_align.rs`); `None` for the type's alignment.
    pub align: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// The IR symbol (the C name).
    pub name: String,
    pub ty: Rc<FunctionType>,
    pub is_static: bool,
    pub is_inline: bool,
    /// `__attribute__((noinline))`
    pub is_noinline: bool,
    /// `__attribute__((aligned(N)))` on any of its declarations: the code's alignment
    /// in bytes (`parse/object_align.rs`); `None` for the target's.
    pub align: Option<u64>,
    pub locals: Vec<LocalVar>,
    /// `LocalId`s of the parameters, in order (they are `0..params.len()`).
    pub params: Vec<LocalId>,
    pub body: Stmt,
    pub num_labels: u32,
    pub num_cases: u32,
    /// Block-scope variable-length arrays (`T a[n]`, typed `T[]` in `locals`) with their
    /// lengths, evaluated where each is declared (`parse/vla.rs`, `lowering/vla.rs`).
    pub vla_objects: Vec<(LocalId, Expr)>,
    /// The labels whose address the function takes (`&&l`), in the order of their
    /// addresses (`parse/local_labels.rs`): the targets of `IndirectGoto`.
    pub label_addresses: Vec<LabelId>,
    /// A GNU nested function, lifted (`parse/nested_fn.rs`): what it uses of the
    /// functions around it. `None` for a function defined at file scope.
    pub nested: Option<NestedFn>,
    /// Labels of this function that its nested functions jump to (`goto` out of a
    /// nested function; `parse/nested_fn.rs`).
    pub nonlocal_goto: Option<NonlocalGoto>,
    pub loc: Loc,
}

/// A function's labels reached by `goto` from its nested functions: such a `goto`
/// stores the label's id + 1 in the hidden local `flag` (0: none pending) and returns;
/// the callers return in turn until this function, which jumps to the label.
#[derive(Clone, Debug, PartialEq)]
pub struct NonlocalGoto {
    pub flag: LocalId,
    pub labels: Vec<LabelId>,
}

/// A nested function's static chain (`parse/nested_fn.rs`): its last parameter `chain`
/// (a `void **`, present only when `captures` is not empty) points at a table whose
/// entry i is the address of the object `captures[i]` names.
#[derive(Clone, Debug, PartialEq)]
pub struct NestedFn {
    /// The C name, for diagnostics.
    pub c_name: String,
    pub chain: LocalId,
    pub captures: Vec<Capture>,
}

/// A local of an enclosing function used by a nested function (directly, or by a
/// nested function it calls).
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// The IR name of the function whose local it is.
    pub owner: String,
    pub local: LocalId,
}

/// A function declared but not defined in this translation unit (libc, or an error the
/// lowering reports if it is called and the oracle does not know it).
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub name: String,
    pub ty: Rc<FunctionType>,
    pub loc: Loc,
}

/// What a pointer-sized relocation in a static initializer points at.
#[derive(Clone, Debug, PartialEq)]
pub enum RelocTarget {
    Global(GlobalId),
    Function(String),
    String(StringId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Reloc {
    /// Byte offset of the pointer within the object.
    pub offset: u64,
    pub target: RelocTarget,
    /// Byte offset added to the target's address.
    pub addend: i64,
}

/// A static object's initial bytes (little-endian, all four targets) and pointers.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StaticInit {
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    /// The IR symbol: the C name for file-scope objects, `function.name.N` for static
    /// locals (unique in the module).
    pub name: String,
    pub ty: QualType,
    pub is_static: bool,
    /// `None` for a tentative definition (zero-initialized) or, when `is_extern_only`,
    /// for a declaration without definition.
    pub init: Option<StaticInit>,
    /// Declared `extern` and never defined in this unit.
    pub is_extern_only: bool,
    pub loc: Loc,
    /// `_Alignas(N)` / `__attribute__((aligned(N)))` on any declaration of the object:
    /// at least N (`parse/object_align.rs`); `None` for the type's alignment.
    pub align: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct TranslationUnit {
    pub target: Target,
    pub records: RecordTable,
    pub globals: Vec<GlobalVar>,
    pub functions: Vec<FunctionDef>,
    pub externs: Vec<FunctionDecl>,
    /// String literal bytes, each with its terminating NUL.
    pub strings: Vec<Vec<u8>>,
    /// The element size of each of `strings` (1, or 4 for a wide literal `L"..."`).
    pub string_elem_sizes: Vec<u8>,
}

impl Expr {
    pub fn new(kind: ExprKind, ty: impl Into<QualType>, loc: Loc) -> Expr {
        Expr {
            kind,
            ty: ty.into(),
            loc,
            wide_bitfield_type: None,
        }
    }

    /// An `int` (or other integer type) constant.
    pub fn int_lit(value: u64, ty: Type, loc: Loc) -> Expr {
        Expr::new(ExprKind::IntLit(value), ty, loc)
    }
}
