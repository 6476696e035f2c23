//! Parser and semantic analysis of C99 (plus what csmith and our headers use), building
//! the typed AST of `frontend::ast` in one pass, chibicc-style: every expression is typed
//! and converted as soon as it is parsed, every name is resolved against the scopes.
//!
//! Why one pass: C's grammar needs the symbol table anyway (a typedef name changes how a
//! declaration parses), and typing while parsing keeps every diagnostic at its token.
//!
//! Layout of this module (each file owns one part of the grammar; the grammar rule is
//! written above each parsing function):
//! - `mod.rs` (this file): the `Parser` state, the token cursor, scopes, diagnostics.
//! - `decl.rs`: the translation unit, external and block-scope declarations, type
//!   names, typedefs, function definitions, linkage and redeclaration merging.
//! - `declarator.rs`: declaration specifiers and declarators (the types they build).
//! - `tags.rs`: struct / union / enum specifiers, members, bit-fields, enumerators.
//! - `attributes.rs`: `__attribute__`, `__asm__` labels and `#pragma pack`;
//!   `mode_attr.rs`: the `mode` attribute's integer types.
//! - `layout.rs`: record layout (sizes, alignment, bit-fields, packing) per target.
//! - `init.rs`: initializers (brace lists, designators, string literals) for locals
//!   (`ast::Initializer`) and for static objects; `static_init.rs` turns the latter
//!   into bytes and relocations (`ast::StaticInit`).
//! - `expr.rs`: expressions with their typing and implicit conversions.
//! - `convert.rs`: integer promotions, usual arithmetic conversions, assignment
//!   conversions (building `Cast` / `Decay` nodes), lvalue checks.
//! - `const_eval.rs`: evaluation of constant expressions (integer constant expressions
//!   and address constants for static initializers).
//! - `stmt.rs`: statements, labels, `switch`/`case`, `break`/`continue` context.
//! - `asm_stmt.rs`: `asm` statements with an empty template (optimisation barriers).
//! - `compound_literal.rs`: `(T){ ... }` in functions.
//! - `builtins.rs`: library functions and GNU builtins known without a declaration.
//! - `enum_identity.rs`: which enumerated type a type name denotes (for
//!   `__builtin_types_compatible_p`; the types themselves are integers).
//! - `introspection_builtins.rs`: `__builtin_classify_type`, `__builtin_choose_expr`,
//!   `__func__` / `__FUNCTION__` / `__PRETTY_FUNCTION__`.
//! - `typedef_align.rs`: `aligned(N)` on a typedef.
//! - `storage_order.rs`: `scalar_storage_order` (big-endian records are byte-swapped by
//!   the lowering: `lowering/reverse_order.rs`).
//! - `wide_strings.rs`: `L'x'` and `L"..."` (the target's `wchar_t`) and the
//!   concatenation of adjacent string literals.
//! - `old_style.rs`: implicit `int` at file scope and old-style (K&R) definitions.
//! - `param_lengths.rs`: array parameters' run-time lengths, evaluated on entry.
//! - `overflow_builtins.rs`: `__builtin_{add,sub,mul}_overflow` and their `_p` forms.
//! - `stmt_expr.rs`: GNU statement expressions `({ ... })` and `a ?: b`;
//!   `case_range.rs`: `case` values, GNU case ranges included.
//! - `local_labels.rs`: GNU `__label__`, `&&label` and `goto *expr`;
//!   `nested_fn.rs`: GNU nested functions (lifted, with a static chain).
//!
//! Invariants:
//! - The parser never panics on any token stream; it stops at the first error and
//!   returns it as a `Diagnostic` located at the offending token.
//! - `tokens` always ends with `TokenKind::Eof`; the cursor never moves past it.

mod alias_attr;
mod asm_stmt;
mod attributes;
pub(crate) mod builtins;
mod case_range;
mod compound_literal;
mod const_eval;
mod convert;
mod decl;
#[cfg(test)]
mod decl_tests;
mod declarator;
mod enum_identity;
mod expr;
#[cfg(test)]
mod expr_tests;
mod flexible_init;
mod frame_builtins;
#[cfg(test)]
mod gnu_tests;
mod init;
mod int_const_type;
mod introspection_builtins;
mod layout;
mod local_labels;
#[cfg(test)]
mod local_labels_tests;
mod mode_attr;
mod nested_fn;
mod object_align;
mod old_style;
pub(crate) mod overflow_builtins;
mod param_lengths;
mod setjmp_builtins;
mod static_init;
mod stmt;
mod stmt_expr;
#[cfg(test)]
mod stmt_tests;
mod storage_order;
mod tags;
mod type_name;
mod typedef_align;
pub(crate) mod va_builtins;
mod vla;
mod wide_bitfield;
mod wide_strings;

use super::ast::{
    FunctionDecl, FunctionDef, GlobalId, GlobalVar, LabelId, LocalId, LocalVar, StringId,
    TranslationUnit,
};
use super::diag::Diagnostic;
use super::source::{Loc, SourceMap};
use super::token::{Keyword, Punct, Token, TokenKind};
use super::types::{FunctionType, QualType, RecordId, RecordTable, Type};
use super::Target;
use std::collections::HashMap;
use std::rc::Rc;

pub use const_eval::ConstValue;

/// Parses a preprocessed token stream (ending in `Eof`) into a typed translation unit.
pub fn parse_translation_unit(
    tokens: Vec<Token>,
    sources: &SourceMap,
    target: Target,
) -> Result<ParseOutput, Diagnostic> {
    let mut parser = Parser::new(tokens, sources, target);
    parser.parse_translation_unit()?;
    Ok(parser.finish())
}

/// The translation unit and the warnings produced while parsing it.
pub struct ParseOutput {
    pub unit: TranslationUnit,
    pub warnings: Vec<Diagnostic>,
}

/// What an ordinary identifier names in a scope.
#[derive(Clone, Debug)]
pub(crate) enum OrdinaryEntity {
    Local(LocalId, QualType),
    Global(GlobalId, QualType),
    Function(String, Rc<FunctionType>),
    Typedef(QualType),
    /// An enumeration constant: its value and type (`int`).
    EnumConst(i64, Type),
}

/// What a tag (`struct S`, `union U`, `enum E`) names in a scope.
#[derive(Clone, Debug)]
pub(crate) enum TagEntity {
    Record(RecordId),
    /// An enumeration and its compatible integer type.
    Enum(Type),
}

/// One block scope (or the file scope): ordinary identifiers and tags.
#[derive(Default, Debug)]
pub(crate) struct Scope {
    pub ordinary: HashMap<Rc<str>, OrdinaryEntity>,
    pub tags: HashMap<Rc<str>, TagEntity>,
    /// The enumerated types declared here, by `enum TAG` and by typedef name
    /// (`enum_identity.rs`).
    pub enum_identities: HashMap<Rc<str>, u32>,
}

/// Per-function state while a function body is parsed.
#[derive(Default, Debug)]
pub(crate) struct FunctionState {
    pub name: String,
    pub ret: Option<QualType>,
    pub locals: Vec<LocalVar>,
    /// Label name -> id, and where it was defined (None: only used by goto so far).
    pub labels: HashMap<Rc<str>, (LabelId, Option<Loc>, Loc)>,
    pub num_cases: u32,
    /// Counter for the IR names of `static` locals.
    pub num_static_locals: u32,
    /// Statement expressions around labels and `goto`s (`stmt_expr.rs`).
    pub stmt_exprs: stmt_expr::StmtExprJumps,
    /// Label ids, GNU local labels and label addresses (`local_labels.rs`).
    pub label_state: local_labels::LabelState,
    /// `scopes.len()` when the function's parameter scope was pushed: the scopes from
    /// there on are its own (`nested_fn.rs`).
    pub scope_base: usize,
    /// A nested function's static chain (`nested_fn.rs`).
    pub nested: Option<super::ast::NestedFn>,
}

pub(crate) struct Parser<'s> {
    pub tokens: Vec<Token>,
    pub pos: usize,
    pub sources: &'s SourceMap,
    pub target: Target,
    pub records: RecordTable,
    /// Innermost scope last; `scopes[0]` is the file scope.
    pub scopes: Vec<Scope>,
    pub globals: Vec<GlobalVar>,
    /// Global name -> index in `globals` (file-scope objects only).
    pub global_index: HashMap<String, GlobalId>,
    pub functions: Vec<FunctionDef>,
    /// Every function declared at file scope (defined or not), by name.
    pub function_decls: HashMap<String, FunctionDecl>,
    /// Names of functions in declaration order, to emit `externs` deterministically.
    pub function_order: Vec<String>,
    pub strings: Vec<Vec<u8>>,
    /// The element size of each of `strings` (1, or 4 for a wide literal).
    pub string_elem_sizes: Vec<u8>,
    pub warnings: Vec<Diagnostic>,
    /// The function whose body is being parsed.
    pub func: Option<FunctionState>,
    /// `#pragma pack` state: current value and the push stack.
    pub pack: Option<u64>,
    pub pack_stack: Vec<Option<u64>>,
    /// Bookkeeping of the declarations part (linkage, attributes, nesting depth).
    pub decl: decl::DeclState,
    /// Variable-length arrays of the function being parsed (`vla.rs`).
    pub(crate) vla: vla::VlaState,
    /// Nesting depth of expressions and statements being parsed (bounded by
    /// `expr::MAX_NESTING` so input cannot overflow the stack).
    pub depth: u32,
    /// GNU nested functions: the enclosing functions being parsed (`nested_fn.rs`).
    pub nested_fns: nested_fn::NestedState,
}

impl<'s> Parser<'s> {
    pub fn new(mut tokens: Vec<Token>, sources: &'s SourceMap, target: Target) -> Parser<'s> {
        if !matches!(tokens.last().map(|t| &t.kind), Some(TokenKind::Eof)) {
            let loc =
                tokens
                    .last()
                    .map(|t| t.loc)
                    .unwrap_or(Loc::new(super::source::FileId(0), 1, 1));
            tokens.push(Token {
                kind: TokenKind::Eof,
                spelling: Rc::from(""),
                loc,
                leading_space: false,
                line_start: true,
                from_macro: false,
            });
        }
        let mut p = Parser {
            tokens,
            pos: 0,
            sources,
            target,
            records: RecordTable::default(),
            scopes: vec![Scope::default()],
            globals: Vec::new(),
            global_index: HashMap::new(),
            functions: Vec::new(),
            function_decls: HashMap::new(),
            function_order: Vec::new(),
            strings: Vec::new(),
            string_elem_sizes: Vec::new(),
            warnings: Vec::new(),
            func: None,
            pack: None,
            pack_stack: Vec::new(),
            decl: decl::DeclState::default(),
            vla: vla::VlaState::default(),
            depth: 0,
            nested_fns: nested_fn::NestedState::default(),
        };
        p.declare_builtin_va_list();
        p
    }

    fn finish(self) -> ParseOutput {
        let defined: std::collections::HashSet<&str> =
            self.functions.iter().map(|f| f.name.as_str()).collect();
        let externs = self
            .function_order
            .iter()
            .filter(|n| !defined.contains(n.as_str()))
            .filter_map(|n| self.function_decls.get(n).cloned())
            .collect();
        ParseOutput {
            unit: TranslationUnit {
                target: self.target,
                records: self.records,
                globals: self.globals,
                functions: self.functions,
                externs,
                strings: self.strings,
                string_elem_sizes: self.string_elem_sizes,
            },
            warnings: self.warnings,
        }
    }

    // ----- the token cursor -----

    pub fn peek(&self) -> &Token {
        &self.tokens[self.pos]
    }

    /// The token `n` ahead (clamped to `Eof`).
    pub fn peek_at(&self, n: usize) -> &Token {
        let i = (self.pos + n).min(self.tokens.len() - 1);
        &self.tokens[i]
    }

    pub fn loc(&self) -> Loc {
        self.peek().loc
    }

    pub fn at_eof(&self) -> bool {
        matches!(self.peek().kind, TokenKind::Eof)
    }

    /// Consumes and returns the current token (never moves past `Eof`).
    pub fn bump(&mut self) -> Token {
        let t = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    pub fn is_punct(&self, p: Punct) -> bool {
        self.peek().is_punct(p)
    }

    pub fn is_keyword(&self, k: Keyword) -> bool {
        self.peek().is_keyword(k)
    }

    /// Consumes the punctuator if it is next.
    pub fn eat_punct(&mut self, p: Punct) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn eat_keyword(&mut self, k: Keyword) -> bool {
        if self.is_keyword(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes `p` or reports "expected `p` before `tok`" at the current token.
    pub fn expect_punct(&mut self, p: Punct) -> Result<Token, Diagnostic> {
        if self.is_punct(p) {
            Ok(self.bump())
        } else {
            Err(self.error_expected(&format!("'{}'", p.as_str())))
        }
    }

    /// Consumes an identifier and returns its name.
    pub fn expect_ident(&mut self) -> Result<(Rc<str>, Loc), Diagnostic> {
        match &self.peek().kind {
            TokenKind::Ident(name) => {
                let name = name.clone();
                let loc = self.bump().loc;
                Ok((name, loc))
            }
            _ => Err(self.error_expected("identifier")),
        }
    }

    // ----- diagnostics -----

    pub fn error_at(&self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.sources, loc, message)
    }

    /// An error at the current token.
    pub fn error_here(&self, message: impl Into<String>) -> Diagnostic {
        self.error_at(self.loc(), message)
    }

    /// gcc's wording: "expected X before 'tok'" (or "before end of input").
    pub fn error_expected(&self, what: &str) -> Diagnostic {
        let t = self.peek();
        let msg = match &t.kind {
            TokenKind::Eof => format!("expected {what} at end of input"),
            TokenKind::Stray => format!("stray '{}' in program", t.spelling),
            TokenKind::Punct(_) => format!("expected {what} before '{}' token", t.spelling),
            TokenKind::Int(_) | TokenKind::Float(_) => {
                format!("expected {what} before numeric constant")
            }
            TokenKind::Str(_) => format!("expected {what} before string constant"),
            TokenKind::WideStr(_) => format!("expected {what} before string constant"),
            TokenKind::Char(_) | TokenKind::WideChar(_) => {
                format!("expected {what} before {}", t.spelling)
            }
            _ => format!("expected {what} before '{}'", t.spelling),
        };
        self.error_here(msg)
    }

    pub fn warn_at(&mut self, loc: Loc, message: impl Into<String>) {
        let w = Diagnostic::warning(self.sources, loc, message);
        self.warnings.push(w);
    }

    // ----- scopes -----

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
            self.end_local_labels(self.scopes.len());
        }
    }

    pub fn at_file_scope(&self) -> bool {
        self.scopes.len() == 1
    }

    /// The innermost declaration of an ordinary identifier.
    pub fn lookup_ordinary(&self, name: &str) -> Option<&OrdinaryEntity> {
        self.scopes.iter().rev().find_map(|s| s.ordinary.get(name))
    }

    /// The innermost declaration of a tag.
    pub fn lookup_tag(&self, name: &str) -> Option<&TagEntity> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name))
    }

    /// The tag declared in the innermost scope only (for redeclaration checks).
    pub fn lookup_tag_in_current_scope(&self, name: &str) -> Option<&TagEntity> {
        self.scopes.last().and_then(|s| s.tags.get(name))
    }

    pub fn declare_ordinary(&mut self, name: Rc<str>, entity: OrdinaryEntity) {
        if let Some(s) = self.scopes.last_mut() {
            s.ordinary.insert(name, entity);
        }
    }

    pub fn declare_tag(&mut self, name: Rc<str>, entity: TagEntity) {
        if let Some(s) = self.scopes.last_mut() {
            s.tags.insert(name, entity);
        }
    }

    /// Is the identifier a typedef name in the current scopes?
    pub fn is_typedef_name(&self, name: &str) -> bool {
        matches!(self.lookup_ordinary(name), Some(OrdinaryEntity::Typedef(_)))
    }

    /// Records a string literal (bytes without the NUL) and returns its id.
    pub fn intern_string(&mut self, bytes: Vec<u8>) -> StringId {
        self.intern_string_bytes(bytes, 1)
    }

    /// Records a string literal of `elem_size`-byte elements (its bytes without the
    /// terminating null element) and returns its id.
    pub fn intern_string_bytes(&mut self, mut bytes: Vec<u8>, elem_size: u8) -> StringId {
        bytes.resize(bytes.len() + usize::from(elem_size), 0);
        let id = StringId(self.strings.len() as u32);
        self.strings.push(bytes);
        self.string_elem_sizes.push(elem_size);
        id
    }

    /// Adds a local to the current function (no-op outside a function, returns id 0).
    pub fn add_local(&mut self, var: LocalVar) -> LocalId {
        match &mut self.func {
            Some(f) => {
                let id = LocalId(f.locals.len() as u32);
                f.locals.push(var);
                id
            }
            None => LocalId(0),
        }
    }

    /// `sizeof` of a complete object type, or `None`.
    pub fn size_of(&self, ty: &Type) -> Option<u64> {
        ty.size(self.target, &self.records)
    }

    pub fn align_of(&self, ty: &Type) -> u64 {
        ty.align(self.target, &self.records)
    }
}
