//! Declaration specifiers, declarators (named and abstract) and the types they build.
//!
//! Why it exists: every declaration (file scope, block scope, parameters, struct
//! members, type names) is "specifiers + declarator"; this file turns both into a
//! `QualType` with C's checks (gcc's wording) so each caller only handles what the
//! declared name means.
//!
//! Invariants:
//! - A declarator is parsed into `Derivation`s listed in the order they apply to the
//!   base type (`int *(*a[3])[4]`: pointer, array 4, pointer, array 3), then applied
//!   by `apply_declarator`, which checks arrays of functions, functions returning
//!   arrays, and so on. Array sizes are evaluated as they are parsed.
//! - An identifier is a type specifier only while no other type specifier has been
//!   seen (so `T T;` declares an object `T` of type `T`).
//! - Nesting of declarators is limited to `MAX_NESTING` (an error beyond it).

use super::attributes::Attrs;
use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::source::Loc;
use crate::frontend::token::{Keyword, Punct, TokenKind};
use crate::frontend::types::{FloatKind, FunctionType, IntKind, QualType, Type};
use std::rc::Rc;

/// How deep declarators, struct definitions and initializer braces may nest.
pub(crate) const MAX_NESTING: u32 = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Storage {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

/// Parsed declaration specifiers.
#[derive(Clone, Debug)]
pub(crate) struct DeclSpec {
    pub storage: Option<Storage>,
    pub ty: QualType,
    pub is_inline: bool,
    pub attrs: Attrs,
    pub loc: Loc,
    /// A struct/union/enum specifier with a tag or a body was part of the specifiers
    /// (so `struct S;` alone declares something).
    pub declares_tag: bool,
    /// The specifiers were a struct/union without tag defined right here (an anonymous
    /// member candidate).
    pub anonymous_record: bool,
    /// The enumerated type the specifiers name, if any (`enum_identity.rs`).
    pub enum_identity: Option<u32>,
}

impl DeclSpec {
    /// The specifiers of a file-scope declaration written without any (`main() {`):
    /// `int` (old-style C, `old_style`).
    pub(crate) fn implicit_int(loc: Loc) -> DeclSpec {
        DeclSpec {
            storage: None,
            ty: QualType::new(Type::int()),
            is_inline: false,
            attrs: Attrs::default(),
            loc,
            declares_tag: false,
            anonymous_record: false,
            enum_identity: None,
        }
    }
}

/// Where specifiers appear (what is allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpecContext {
    /// File or block scope declaration: storage classes and `inline` allowed.
    Declaration,
    /// Parameter: only `register`.
    Parameter,
    /// Struct member or type name: no storage class.
    SpecifierQualifierList,
}

/// A parameter of a function declarator.
#[derive(Clone, Debug)]
pub(crate) struct ParamDecl {
    pub name: Option<(Rc<str>, Loc)>,
    /// The adjusted type (arrays and functions became pointers), qualifiers kept.
    pub ty: QualType,
    pub loc: Loc,
    /// Where the run-time lengths of its array derivations start (token positions; a
    /// definition evaluates them on entry, `param_lengths.rs`).
    pub lengths: Vec<usize>,
}

#[derive(Clone, Debug)]
pub(crate) enum Derivation {
    Pointer {
        is_const: bool,
        is_volatile: bool,
    },
    Array {
        len: Option<u64>,
        loc: Loc,
        /// Qualifiers inside parameter brackets (`int a[const 3]`).
        is_const: bool,
        is_volatile: bool,
    },
    Function {
        params: Vec<ParamDecl>,
        variadic: bool,
        has_prototype: bool,
        /// An old-style identifier list (`f(a, b)`): `params` are the names, typed `int`
        /// until the definition's declaration list says otherwise (`old_style`).
        identifier_list: bool,
        /// Where the parameter list starts; not yet used by a diagnostic.
        #[allow(dead_code)]
        loc: Loc,
    },
}

/// A parsed declarator.
#[derive(Clone, Debug)]
pub(crate) struct Declarator {
    pub name: Option<(Rc<str>, Loc)>,
    pub derivations: Vec<Derivation>,
    pub loc: Loc,
    pub attrs: Attrs,
}

impl Declarator {
    /// The parameters when the name is directly declared as a function.
    pub fn function_params(&self) -> Option<&[ParamDecl]> {
        match self.derivations.last() {
            Some(Derivation::Function { params, .. }) => Some(params),
            _ => None,
        }
    }
}

/// Whether a declarator must, may, or must not have a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclaratorKind {
    Named,
    Abstract,
    Either,
}

// Bits of the type-specifier counter (chibicc's technique): each keyword adds its unit,
// the sum identifies the combination.
const VOID: u32 = 1;
const BOOL: u32 = 1 << 2;
const CHAR: u32 = 1 << 4;
const SHORT: u32 = 1 << 6;
const INT: u32 = 1 << 8;
const LONG: u32 = 1 << 10;
const FLOAT: u32 = 1 << 12;
const DOUBLE: u32 = 1 << 14;
const OTHER: u32 = 1 << 16;
const SIGNED: u32 = 1 << 17;
const UNSIGNED: u32 = 1 << 18;

fn int_type(k: IntKind) -> Type {
    Type::Int(k)
}

/// The type a combination of basic type specifiers denotes.
fn combination_type(c: u32) -> Option<Type> {
    use IntKind::*;
    Some(match c {
        VOID => Type::Void,
        BOOL => Type::Bool,
        CHAR => int_type(Char),
        x if x == SIGNED + CHAR => int_type(SChar),
        x if x == UNSIGNED + CHAR => int_type(UChar),
        x if x == SHORT || x == SHORT + INT || x == SIGNED + SHORT || x == SIGNED + SHORT + INT => {
            int_type(Short)
        }
        x if x == UNSIGNED + SHORT || x == UNSIGNED + SHORT + INT => int_type(UShort),
        x if x == INT || x == SIGNED || x == SIGNED + INT => int_type(Int),
        x if x == UNSIGNED || x == UNSIGNED + INT => int_type(UInt),
        x if x == LONG || x == LONG + INT || x == SIGNED + LONG || x == SIGNED + LONG + INT => {
            int_type(Long)
        }
        x if x == UNSIGNED + LONG || x == UNSIGNED + LONG + INT => int_type(ULong),
        x if x == 2 * LONG
            || x == 2 * LONG + INT
            || x == SIGNED + 2 * LONG
            || x == SIGNED + 2 * LONG + INT =>
        {
            int_type(LongLong)
        }
        x if x == UNSIGNED + 2 * LONG || x == UNSIGNED + 2 * LONG + INT => int_type(ULongLong),
        FLOAT => Type::Float(FloatKind::Float),
        DOUBLE => Type::Float(FloatKind::Double),
        x if x == LONG + DOUBLE => Type::Float(FloatKind::LongDouble),
        _ => return None,
    })
}

impl Parser<'_> {
    /// Enters one nesting level (declarators, struct bodies, initializer braces).
    pub(crate) fn enter_decl_nesting(&mut self) -> Result<(), Diagnostic> {
        self.enter_decl_nesting_by(1)
    }

    /// Enters a nesting level that costs `weight` levels (initializer braces have big
    /// stack frames, so they count more).
    pub(crate) fn enter_decl_nesting_by(&mut self, weight: u32) -> Result<(), Diagnostic> {
        self.decl.depth += weight;
        if self.decl.depth > MAX_NESTING {
            self.decl.depth -= weight;
            return Err(self.error_here("declaration nested too deeply"));
        }
        self.decl.weights.push(weight);
        Ok(())
    }

    pub(crate) fn leave_decl_nesting(&mut self) {
        let w = self.decl.weights.pop().unwrap_or(1);
        self.decl.depth = self.decl.depth.saturating_sub(w);
    }

    /// An integer constant expression inside a declaration (array size, bit-field
    /// width, enumerator value, `aligned(N)`, designator index). Declarations and
    /// expressions nested in each other (`sizeof(int[sizeof(int[...])])`) stay bounded:
    /// the expression parser limits the stack used since its outermost construct, and
    /// declarators count `MAX_NESTING` levels.
    pub(crate) fn decl_int_constant(&mut self) -> Result<(i128, Loc), Diagnostic> {
        self.parse_int_constant_expr()
    }

    /// An expression inside a declaration (`__typeof__(expr)`).
    fn decl_expr(&mut self) -> Result<crate::frontend::ast::Expr, Diagnostic> {
        self.parse_expr()
    }

    /// Is the token a type specifier or qualifier keyword, or a typedef name?
    pub(crate) fn token_starts_type(&self, n: usize) -> bool {
        let t = self.peek_at(n);
        match &t.kind {
            TokenKind::Keyword(k) => matches!(
                k,
                Keyword::Void
                    | Keyword::Bool
                    | Keyword::Char
                    | Keyword::Short
                    | Keyword::Int
                    | Keyword::Long
                    | Keyword::Float
                    | Keyword::Double
                    | Keyword::Signed
                    | Keyword::Unsigned
                    | Keyword::Struct
                    | Keyword::Union
                    | Keyword::Enum
                    | Keyword::Const
                    | Keyword::Volatile
                    | Keyword::Restrict
                    | Keyword::Complex
                    | Keyword::Imaginary
                    | Keyword::Typeof
                    | Keyword::Alignas
            ),
            TokenKind::Ident(name) => self.is_typedef_name(name),
            _ => false,
        }
    }

    /// declaration-specifiers:
    ///   (storage-class-specifier | type-specifier | type-qualifier | 'inline'
    ///    | '__extension__' | attribute)+
    pub(crate) fn parse_decl_specs(&mut self, ctx: SpecContext) -> Result<DeclSpec, Diagnostic> {
        let loc = self.loc();
        let mut storage: Option<Storage> = None;
        let mut counter: u32 = 0;
        let mut other: Option<Type> = None;
        let mut is_const = false;
        let mut is_volatile = false;
        let mut is_inline = false;
        let mut attrs = Attrs::default();
        let mut declares_tag = false;
        let mut anonymous_record = false;
        let mut enum_identity = None;
        let mut seen_anything = false;
        let mut seen_attribute = false;
        loop {
            let tok = self.peek().clone();
            let kw = match &tok.kind {
                TokenKind::Keyword(k) => *k,
                TokenKind::Ident(name) => {
                    if counter == 0 && other.is_none() {
                        if let Some(super::OrdinaryEntity::Typedef(qt)) = self.lookup_ordinary(name)
                        {
                            let qt = qt.clone();
                            self.check_typedef_use(name, tok.loc)?;
                            enum_identity = self.typedef_enum_identity(name);
                            self.bump();
                            is_const |= qt.is_const;
                            is_volatile |= qt.is_volatile;
                            other = Some(qt.ty);
                            counter += OTHER;
                            seen_anything = true;
                            continue;
                        }
                    }
                    break;
                }
                _ => break,
            };
            let st = match kw {
                Keyword::Typedef => Some(Storage::Typedef),
                Keyword::Extern => Some(Storage::Extern),
                Keyword::Static => Some(Storage::Static),
                Keyword::Auto => Some(Storage::Auto),
                Keyword::Register => Some(Storage::Register),
                _ => None,
            };
            if let Some(st) = st {
                let allowed = match ctx {
                    SpecContext::Declaration => true,
                    SpecContext::Parameter => st == Storage::Register,
                    SpecContext::SpecifierQualifierList => false,
                };
                if !allowed {
                    let msg = match ctx {
                        SpecContext::Parameter => {
                            "storage class specified for parameter".to_string()
                        }
                        _ => format!(
                            "expected specifier-qualifier-list before '{}'",
                            tok.spelling
                        ),
                    };
                    return Err(self.error_here(msg));
                }
                if storage.is_some() {
                    return Err(
                        self.error_here("multiple storage classes in declaration specifiers")
                    );
                }
                storage = Some(st);
                self.bump();
                seen_anything = true;
                continue;
            }
            let unit = match kw {
                Keyword::Const => {
                    is_const = true;
                    self.bump();
                    seen_anything = true;
                    continue;
                }
                Keyword::Volatile => {
                    is_volatile = true;
                    self.bump();
                    seen_anything = true;
                    continue;
                }
                Keyword::Restrict | Keyword::Extension => {
                    self.bump();
                    continue;
                }
                Keyword::Inline => {
                    if ctx != SpecContext::Declaration {
                        return Err(self.error_here("'inline' specifier invalid here"));
                    }
                    is_inline = true;
                    self.bump();
                    seen_anything = true;
                    continue;
                }
                Keyword::Attribute => {
                    let a = self.parse_attributes()?;
                    attrs.merge(a);
                    seen_attribute = true;
                    continue;
                }
                Keyword::Alignas => {
                    let a = self.parse_alignment_specifier()?;
                    attrs.merge(a);
                    seen_anything = true;
                    continue;
                }
                Keyword::Complex | Keyword::Imaginary => {
                    return Err(self.error_here(format!(
                        "'{}' types are not supported by phicc",
                        tok.spelling
                    )));
                }
                Keyword::Struct | Keyword::Union | Keyword::Enum | Keyword::Typeof => {
                    let after_body =
                        self.pos > 0 && self.tokens[self.pos - 1].is_punct(Punct::RBrace);
                    if other.is_some() && after_body {
                        // `struct S { ... } struct T ...`: gcc reads a missing `;`.
                        return Err(self.error_expected("';', identifier or '('"));
                    }
                    if counter != 0 || other.is_some() {
                        return Err(
                            self.error_here("two or more data types in declaration specifiers")
                        );
                    }
                    let ty = match kw {
                        Keyword::Struct | Keyword::Union => {
                            let (ty, named_or_defined, anonymous) =
                                self.parse_record_specifier()?;
                            declares_tag |= named_or_defined;
                            anonymous_record = anonymous;
                            ty
                        }
                        Keyword::Enum => {
                            let (ty, named_or_defined) = self.parse_enum_specifier()?;
                            declares_tag |= named_or_defined;
                            enum_identity = self.decl.enum_spec_identity.take();
                            ty
                        }
                        _ => {
                            let qt = self.parse_typeof()?;
                            enum_identity = self.decl.type_name_enum_identity.take();
                            is_const |= qt.is_const;
                            is_volatile |= qt.is_volatile;
                            qt.ty
                        }
                    };
                    other = Some(ty);
                    counter += OTHER;
                    seen_anything = true;
                    continue;
                }
                Keyword::Void => VOID,
                Keyword::Bool => BOOL,
                Keyword::Char => CHAR,
                Keyword::Short => SHORT,
                Keyword::Int => INT,
                Keyword::Long => LONG,
                Keyword::Float => FLOAT,
                Keyword::Double => DOUBLE,
                Keyword::Signed => SIGNED,
                Keyword::Unsigned => UNSIGNED,
                _ => break,
            };
            if other.is_some() {
                return Err(self.error_here("two or more data types in declaration specifiers"));
            }
            if (unit == SIGNED && counter & UNSIGNED != 0)
                || (unit == UNSIGNED && counter & SIGNED != 0)
            {
                return Err(
                    self.error_here("both 'signed' and 'unsigned' in declaration specifiers")
                );
            }
            if unit == LONG && counter & (3 * LONG) == 2 * LONG {
                return Err(self.error_here("'long long long' is too long for GCC"));
            }
            let next = counter + unit;
            // Reject as soon as no valid combination can start with these keywords.
            let prefix_ok = combination_type(next).is_some()
                || [INT, CHAR, SHORT, LONG, 2 * LONG, DOUBLE]
                    .iter()
                    .any(|e| combination_type(next + e).is_some())
                || combination_type(next + LONG + INT).is_some();
            if !prefix_ok {
                return Err(self.error_here("two or more data types in declaration specifiers"));
            }
            counter = next;
            self.bump();
            seen_anything = true;
        }
        let ty = match other {
            Some(t) => t,
            None if counter == 0 => {
                // Only attributes before a file-scope declarator (`__attribute__((noinline))
                // f(int c) { ... }`): implicit `int`, as gcc (c-torture `pr54937.c`).
                let implicit_after_attributes =
                    seen_attribute && ctx == SpecContext::Declaration && self.scopes.len() == 1;
                if !seen_anything && !implicit_after_attributes {
                    return Err(self.error_expected("declaration specifiers"));
                }
                self.warn_at(loc, "type defaults to 'int' in declaration");
                Type::int()
            }
            None => match combination_type(counter) {
                Some(t) => t,
                None => {
                    return Err(
                        self.error_at(loc, "two or more data types in declaration specifiers")
                    )
                }
            },
        };
        Ok(DeclSpec {
            storage,
            ty: qualify(ty, is_const, is_volatile),
            is_inline,
            attrs,
            loc,
            declares_tag,
            anonymous_record,
            enum_identity,
        })
    }

    /// typeof-specifier: '__typeof__' '(' (type-name | expression) ')'
    fn parse_typeof(&mut self) -> Result<QualType, Diagnostic> {
        self.enter_decl_nesting()?;
        let r = self.parse_typeof_inner();
        self.leave_decl_nesting();
        r
    }

    fn parse_typeof_inner(&mut self) -> Result<QualType, Diagnostic> {
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let qt = if self.is_type_name_start() {
            self.parse_type_name()?
        } else {
            let ty = self.decl_expr()?.ty;
            self.decl.type_name_enum_identity = None;
            ty
        };
        self.expect_punct(Punct::RParen)?;
        Ok(qt)
    }

    /// declarator: pointer* direct-declarator
    /// pointer: '*' (type-qualifier | attribute)*
    /// direct-declarator: (identifier | '(' attribute* declarator ')')? declarator-suffix*
    pub(crate) fn parse_declarator(
        &mut self,
        kind: DeclaratorKind,
    ) -> Result<Declarator, Diagnostic> {
        self.enter_decl_nesting()?;
        let r = self.parse_declarator_inner(kind);
        self.leave_decl_nesting();
        r
    }

    fn parse_declarator_inner(&mut self, kind: DeclaratorKind) -> Result<Declarator, Diagnostic> {
        let loc = self.loc();
        let mut attrs = Attrs::default();
        let mut pointers = Vec::new();
        while self.eat_punct(Punct::Star) {
            let (mut c, mut v) = (false, false);
            loop {
                if self.eat_keyword(Keyword::Const) {
                    c = true;
                } else if self.eat_keyword(Keyword::Volatile) {
                    v = true;
                } else if self.eat_keyword(Keyword::Restrict) {
                } else if self.at_attribute() {
                    let a = self.parse_attributes()?;
                    attrs.merge(a);
                } else {
                    break;
                }
            }
            pointers.push(Derivation::Pointer {
                is_const: c,
                is_volatile: v,
            });
        }
        let mut name = None;
        let mut inner: Vec<Derivation> = Vec::new();
        let mut inner_loc = loc;
        if self.is_punct(Punct::LParen) && self.paren_starts_nested_declarator(kind) {
            self.bump();
            let a = self.parse_attributes()?;
            attrs.merge(a);
            let d = self.parse_declarator(kind)?;
            self.expect_punct(Punct::RParen)?;
            name = d.name;
            inner = d.derivations;
            inner_loc = d.loc;
            attrs.merge(d.attrs);
        } else if let TokenKind::Ident(n) = &self.peek().kind {
            if kind != DeclaratorKind::Abstract {
                let n = n.clone();
                let l = self.bump().loc;
                name = Some((n, l));
                inner_loc = l;
            }
        }
        if name.is_none() && kind == DeclaratorKind::Named {
            return Err(self.error_expected("identifier or '('"));
        }
        let mut suffixes = Vec::new();
        loop {
            if self.is_punct(Punct::LBracket) {
                suffixes.push(self.parse_array_suffix()?);
            } else if self.is_punct(Punct::LParen) {
                suffixes.push(self.parse_function_suffix()?);
            } else {
                break;
            }
        }
        let mut derivations = pointers;
        derivations.extend(suffixes.into_iter().rev());
        derivations.extend(inner);
        Ok(Declarator {
            name,
            derivations,
            loc: inner_loc,
            attrs,
        })
    }

    /// After `(` in a declarator: is this a parenthesised declarator (rather than a
    /// parameter list)?
    fn paren_starts_nested_declarator(&self, kind: DeclaratorKind) -> bool {
        let t = self.peek_at(1);
        match &t.kind {
            TokenKind::Punct(Punct::Star) | TokenKind::Punct(Punct::LParen) => true,
            TokenKind::Keyword(Keyword::Attribute) => true,
            TokenKind::Punct(Punct::LBracket) => kind != DeclaratorKind::Named,
            TokenKind::Ident(n) => kind != DeclaratorKind::Abstract && !self.is_typedef_name(n),
            _ => kind == DeclaratorKind::Named,
        }
    }

    /// array-suffix: '[' ('static' | type-qualifier)* assignment-expression? ']'
    ///             | '[' type-qualifier* '*' ']'
    fn parse_array_suffix(&mut self) -> Result<Derivation, Diagnostic> {
        let loc = self.bump().loc;
        let (mut c, mut v) = (false, false);
        loop {
            if self.eat_keyword(Keyword::Static) || self.eat_keyword(Keyword::Restrict) {
            } else if self.eat_keyword(Keyword::Const) {
                c = true;
            } else if self.eat_keyword(Keyword::Volatile) {
                v = true;
            } else {
                break;
            }
        }
        let len = if self.is_punct(Punct::RBracket) {
            None
        } else if self.is_punct(Punct::Star) && self.peek_at(1).is_punct(Punct::RBracket) {
            return Err(self.error_here("variable length arrays are not supported by phicc"));
        } else {
            self.parse_array_length(loc)?
        };
        self.expect_punct(Punct::RBracket)?;
        Ok(Derivation::Array {
            len,
            loc,
            is_const: c,
            is_volatile: v,
        })
    }

    /// function-suffix: '(' (parameter-type-list | 'void')? ')'
    /// parameter-type-list: parameter-declaration (',' parameter-declaration)* (',' '...')?
    /// parameter-declaration: declaration-specifiers (declarator | abstract-declarator)?
    fn parse_function_suffix(&mut self) -> Result<Derivation, Diagnostic> {
        let loc = self.bump().loc;
        if self.eat_punct(Punct::RParen) {
            return Ok(Derivation::Function {
                params: Vec::new(),
                variadic: false,
                has_prototype: false,
                identifier_list: false,
                loc,
            });
        }
        if let TokenKind::Ident(n) = &self.peek().kind {
            if !self.is_typedef_name(n) && !self.token_starts_type(0) {
                let n = n.to_string();
                if matches!(
                    self.peek_at(1).kind,
                    TokenKind::Punct(Punct::Comma) | TokenKind::Punct(Punct::RParen)
                ) {
                    return self.parse_identifier_list(loc);
                }
                return Err(self.error_here(format!("unknown type name '{n}'")));
            }
        }
        // Parameters live in a prototype scope (tags declared there end with it).
        self.push_scope();
        let r = self.parse_parameter_list(loc);
        self.pop_scope();
        r
    }

    fn parse_parameter_list(&mut self, loc: Loc) -> Result<Derivation, Diagnostic> {
        self.in_parameter_list(|p| p.parse_parameter_list_inner(loc))
    }

    fn parse_parameter_list_inner(&mut self, loc: Loc) -> Result<Derivation, Diagnostic> {
        let mut params: Vec<ParamDecl> = Vec::new();
        let mut variadic = false;
        let mut saw_void = false;
        loop {
            if self.eat_punct(Punct::Ellipsis) {
                if params.is_empty() {
                    return Err(self.error_at(loc, "ISO C requires a named argument before '...'"));
                }
                variadic = true;
                break;
            }
            let ploc = self.loc();
            let spec = self.parse_decl_specs(SpecContext::Parameter)?;
            let lengths_mark = self.parameter_lengths_mark();
            let d = self.parse_declarator(DeclaratorKind::Either)?;
            let lengths = self.take_parameter_lengths(lengths_mark);
            let mut attrs = self.parse_declarator_suffix_attrs()?;
            attrs.merge(spec.attrs);
            attrs.merge(d.attrs);
            let ty = self.apply_declarator_allowing_vla(spec.ty.clone(), &d)?;
            let ty = self.apply_mode(ty, &attrs, d.loc)?;
            if ty.ty == Type::Void && d.name.is_none() && d.derivations.is_empty() {
                if !params.is_empty() || saw_void || !self.is_punct(Punct::RParen) {
                    return Err(self.error_at(ploc, "'void' must be the only parameter"));
                }
                saw_void = true;
            } else {
                if ty.ty == Type::Void {
                    return Err(self.error_at(ploc, "parameter has incomplete type 'void'"));
                }
                let ty = adjust_parameter_type(ty, &d);
                params.push(ParamDecl {
                    name: d.name.clone(),
                    ty,
                    loc: d.name.as_ref().map_or(ploc, |n| n.1),
                    lengths,
                });
            }
            if !self.eat_punct(Punct::Comma) {
                break;
            }
            if saw_void {
                return Err(self.error_at(ploc, "'void' must be the only parameter"));
            }
        }
        self.expect_punct(Punct::RParen)?;
        Ok(Derivation::Function {
            params,
            variadic,
            has_prototype: true,
            identifier_list: false,
            loc,
        })
    }

    /// Applies a declarator's derivations to the base type, with C's constraints.
    pub(crate) fn apply_declarator(
        &self,
        base: QualType,
        d: &Declarator,
    ) -> Result<QualType, Diagnostic> {
        if type_depth(&base.ty).saturating_add(d.derivations.len()) > MAX_TYPE_DEPTH {
            return Err(self.error_at(d.loc, "type nested too deeply"));
        }
        let mut ty = base;
        let name = d
            .name
            .as_ref()
            .map_or_else(|| "type name".to_string(), |n| format!("'{}'", n.0));
        for (k, der) in d.derivations.iter().enumerate() {
            let outermost = k + 1 == d.derivations.len();
            ty = match der {
                Derivation::Pointer {
                    is_const,
                    is_volatile,
                } => QualType {
                    ty: Type::Pointer(Rc::new(ty)),
                    is_const: *is_const,
                    is_volatile: *is_volatile,
                },
                Derivation::Array { len, loc, .. } => {
                    if len.is_none() {
                        self.check_vla_derivation(*loc, outermost)?;
                    }
                    match &ty.ty {
                        Type::Function(_) => {
                            return Err(self.error_at(
                                d.loc,
                                format!("declaration of {name} as array of functions"),
                            ))
                        }
                        Type::Void => {
                            return Err(self.error_at(
                                d.loc,
                                format!("declaration of {name} as array of voids"),
                            ))
                        }
                        _ => {}
                    }
                    let Some(elem_size) = self.size_of(&ty.ty) else {
                        return Err(self.error_at(*loc, "array type has incomplete element type"));
                    };
                    if let Some(n) = len {
                        let largest = super::layout::largest_type_size(self.target);
                        if elem_size.checked_mul(*n).is_none_or(|s| s > largest) {
                            return Err(
                                self.error_at(*loc, format!("size of array {name} is too large"))
                            );
                        }
                    }
                    QualType::new(Type::Array(Rc::new(ty), *len))
                }
                Derivation::Function {
                    params,
                    variadic,
                    has_prototype,
                    identifier_list,
                    ..
                } => {
                    match &ty.ty {
                        Type::Array(..) => {
                            return Err(self.error_at(
                                d.loc,
                                format!("{name} declared as function returning an array"),
                            ))
                        }
                        Type::Function(_) => {
                            return Err(self.error_at(
                                d.loc,
                                format!("{name} declared as function returning a function"),
                            ))
                        }
                        _ => {}
                    }
                    // An identifier list outside a definition declares `f()` (gcc).
                    let params = params
                        .iter()
                        .filter(|_| !identifier_list)
                        .map(|p| QualType::new(p.ty.ty.clone()))
                        .collect();
                    QualType::new(Type::Function(Rc::new(FunctionType {
                        ret: QualType::new(ty.ty),
                        params,
                        variadic: *variadic,
                        has_prototype: *has_prototype,
                    })))
                }
            };
        }
        Ok(ty)
    }
}

/// Adds qualifiers to a type; for an array type (from a typedef) they qualify the
/// element type (C99 6.7.3p8), keeping `QualType`'s invariant.
fn qualify(ty: Type, is_const: bool, is_volatile: bool) -> QualType {
    match ty {
        Type::Array(elem, n) if is_const || is_volatile => {
            let inner = qualify(
                elem.ty.clone(),
                is_const || elem.is_const,
                is_volatile || elem.is_volatile,
            );
            QualType::new(Type::Array(Rc::new(inner), n))
        }
        ty => QualType {
            ty,
            is_const,
            is_volatile,
        },
    }
}

/// How many pointer/array/function levels a type may have (bounds every recursion
/// over types: size, printing, dropping).
pub(crate) const MAX_TYPE_DEPTH: usize = 256;

/// The number of derived-type levels of `ty` (bounded: types are built through
/// `apply_declarator`, which checks `MAX_TYPE_DEPTH`).
fn type_depth(ty: &Type) -> usize {
    match ty {
        Type::Pointer(p) => 1 + type_depth(&p.ty),
        Type::Array(e, _) => 1 + type_depth(&e.ty),
        Type::Function(f) => {
            1 + f
                .params
                .iter()
                .map(|p| type_depth(&p.ty))
                .chain(std::iter::once(type_depth(&f.ret.ty)))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}

/// Parameter adjustment (C99 6.7.5.3p7-8): array of T -> pointer to T (with the
/// bracket's qualifiers), function -> pointer to function.
pub(crate) fn adjust_parameter_type(ty: QualType, d: &Declarator) -> QualType {
    match &ty.ty {
        Type::Array(elem, _) => {
            let (c, v) = match d.derivations.last() {
                Some(Derivation::Array {
                    is_const,
                    is_volatile,
                    ..
                }) => (*is_const, *is_volatile),
                _ => (false, false),
            };
            QualType {
                ty: Type::Pointer(elem.clone()),
                is_const: c,
                is_volatile: v,
            }
        }
        Type::Function(_) => QualType::new(Type::Pointer(Rc::new(ty))),
        _ => ty,
    }
}
