//! GNU `__attribute__((...))`, `__asm__("name")` after declarators, and `#pragma pack`.
//!
//! Why it exists: csmith's packed structs and our headers use these GNU extensions; they
//! may appear at many places of a declaration, so the declaration parser calls
//! `parse_attributes` wherever gcc accepts them and merges the result.
//!
//! Invariants: only `packed`, `aligned(N)` / `aligned`, `noinline` (`noipa`), `mode` and
//! `alias` (`alias_attr.rs`) have an effect; the attributes of `IGNORED_ATTRIBUTES` (hints and diagnostics) are parsed
//! (balanced parentheses) and ignored; any other attribute is an error at its name,
//! since ignoring it could change what the program computes. `#pragma pack`
//! changes `Parser::pack` / `Parser::pack_stack` exactly as gcc does; malformed or
//! unsupported pack pragmas are warnings (gcc's wording), never errors.

use super::Parser;
use crate::frontend::diag::Diagnostic;
use crate::frontend::token::{Keyword, Punct, TokenKind};

/// The attributes that matter to phicc.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Attrs {
    pub packed: bool,
    /// `aligned(N)` in bytes (the largest if repeated).
    pub aligned: Option<u64>,
    pub noinline: bool,
    /// `mode(M)`: the integer size in bytes it gives the declared type (`mode_attr.rs`).
    pub mode: Option<super::mode_attr::ModeBytes>,
    /// `alias("target")` (`alias_attr.rs`).
    pub alias: Option<super::alias_attr::AliasRef>,
    /// `scalar_storage_order("big-endian")` (`storage_order.rs`).
    pub big_endian: bool,
}

impl Attrs {
    pub fn merge(&mut self, other: Attrs) {
        self.packed |= other.packed;
        self.noinline |= other.noinline;
        self.big_endian |= other.big_endian;
        if other.mode.is_some() {
            self.mode = other.mode;
        }
        if other.alias.is_some() {
            self.alias = other.alias;
        }
        if let Some(a) = other.aligned {
            self.aligned = Some(self.aligned.map_or(a, |b| b.max(a)));
        }
    }
}

/// Attributes accepted and ignored: each only informs optimisation or diagnostics, or
/// has no effect on what a single translation unit computes (`section`, `visibility`).
const IGNORED_ATTRIBUTES: &[&str] = &[
    "access",
    "alloc_align",
    "alloc_size",
    "always_inline",
    "artificial",
    "assume_aligned",
    "cold",
    "const",
    "deprecated",
    "designated_init",
    "error",
    "externally_visible",
    "fallthrough",
    "flatten",
    "format",
    "format_arg",
    "gnu_inline",
    "hot",
    "leaf",
    "malloc",
    "may_alias",
    "no_icf",
    "no_instrument_function",
    "no_reorder",
    "no_sanitize",
    "no_sanitize_address",
    "no_sanitize_undefined",
    "no_split_stack",
    "no_stack_protector",
    "noclone",
    "noplt",
    "nonnull",
    "noreturn",
    "nothrow",
    "optimize",
    "pure",
    "returns_nonnull",
    "returns_twice",
    "section",
    "sentinel",
    "target",
    "tls_model",
    "unavailable",
    "unused",
    "used",
    "visibility",
    "warn_unused_result",
    "warning",
    // One translation unit: a weak definition is the definition, and a weak reference
    // to a function or object nobody defines is refused ("not defined in this unit").
    "weak",
];

/// The alignment `aligned` without argument means (the target's biggest alignment).
const DEFAULT_MAX_ALIGN: u64 = 16;

impl Parser<'_> {
    /// Is the current token `__attribute__`?
    pub(crate) fn at_attribute(&self) -> bool {
        self.is_keyword(Keyword::Attribute)
    }

    /// attributes: ('__attribute__' '(' '(' attribute-list ')' ')')*
    /// attribute-list: attribute? (',' attribute?)*
    /// attribute: (identifier | keyword) ('(' balanced-tokens ')')?
    pub(crate) fn parse_attributes(&mut self) -> Result<Attrs, Diagnostic> {
        let mut attrs = Attrs::default();
        while self.eat_keyword(Keyword::Attribute) {
            self.expect_punct(Punct::LParen)?;
            self.expect_punct(Punct::LParen)?;
            loop {
                if self.is_punct(Punct::RParen) {
                    break;
                }
                if self.eat_punct(Punct::Comma) {
                    continue;
                }
                let name = match &self.peek().kind {
                    TokenKind::Ident(n) => n.to_string(),
                    TokenKind::Keyword(_) => self.peek().spelling.to_string(),
                    _ => return Err(self.error_expected("identifier or '('")),
                };
                let name_loc = self.bump().loc;
                let bare = name.trim_start_matches("__").trim_end_matches("__");
                match bare {
                    "packed" => attrs.packed = true,
                    // `noipa`: no inlining and no interprocedural analysis; phicc's only
                    // interprocedural pass is inlining.
                    "noinline" | "noipa" => attrs.noinline = true,
                    "aligned" => {
                        let n = if self.eat_punct(Punct::LParen) {
                            let (v, loc) = self.decl_int_constant()?;
                            self.expect_punct(Punct::RParen)?;
                            if v <= 0 || v > (1 << 28) || (v & (v - 1)) != 0 {
                                return Err(self.error_at(
                                    loc,
                                    "requested alignment is not a positive power of 2",
                                ));
                            }
                            v as u64
                        } else {
                            DEFAULT_MAX_ALIGN
                        };
                        attrs.merge(Attrs {
                            aligned: Some(n),
                            ..Attrs::default()
                        });
                        continue;
                    }
                    "alias" => {
                        attrs.alias = Some(self.parse_alias_argument()?);
                        continue;
                    }
                    "mode" => {
                        self.expect_punct(Punct::LParen)?;
                        let (mode, loc) = self.expect_ident()?;
                        self.expect_punct(Punct::RParen)?;
                        attrs.mode = Some(self.mode_bytes(&mode, loc)?);
                        continue;
                    }
                    "scalar_storage_order" => {
                        attrs.big_endian |= self.parse_scalar_storage_order()?;
                        continue;
                    }
                    _ if IGNORED_ATTRIBUTES.contains(&bare) => {}
                    _ => {
                        // Anything else may change a type, the layout, the ABI or what
                        // runs (`mode`, `vector_size`, `transparent_union`, `cleanup`,
                        // `constructor`, `weak`, `alias`, ...): ignoring it could be
                        // wrong code.
                        return Err(self.error_at(
                            name_loc,
                            format!("the attribute '{name}' is not supported by phicc"),
                        ));
                    }
                }
                if self.is_punct(Punct::LParen) {
                    self.skip_balanced_parens()?;
                }
            }
            self.expect_punct(Punct::RParen)?;
            self.expect_punct(Punct::RParen)?;
        }
        Ok(attrs)
    }

    /// Skips `( ... )` with nested parentheses; the cursor is on the `(`.
    pub(crate) fn skip_balanced_parens(&mut self) -> Result<(), Diagnostic> {
        let open = self.expect_punct(Punct::LParen)?;
        let mut depth = 1usize;
        while depth > 0 {
            match &self.peek().kind {
                TokenKind::Eof => {
                    return Err(self.error_at(open.loc, "expected ')' at end of input"));
                }
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                _ => {}
            }
            self.bump();
        }
        Ok(())
    }

    /// Attributes and `__asm__("symbol")` labels after a declarator (asm labels are
    /// ignored: the IR symbol stays the C name).
    pub(crate) fn parse_declarator_suffix_attrs(&mut self) -> Result<Attrs, Diagnostic> {
        let mut attrs = Attrs::default();
        loop {
            if self.at_attribute() {
                let a = self.parse_attributes()?;
                attrs.merge(a);
            } else if self.eat_keyword(Keyword::Asm) {
                self.skip_balanced_parens()?;
            } else {
                return Ok(attrs);
            }
        }
    }

    /// Interprets a `#pragma pack` token (the cursor is on it) and consumes it:
    /// `pack()`, `pack(N)`, `pack(push)`, `pack(push, N)`, `pack(pop)`.
    pub(crate) fn parse_pragma_token(&mut self) -> Result<(), Diagnostic> {
        let tok = self.bump();
        let TokenKind::Pragma(body) = &tok.kind else {
            return Ok(());
        };
        let loc = tok.loc;
        // body[0] is `pack`.
        let rest: Vec<&TokenKind> = body.iter().skip(1).map(|t| &t.kind).collect();
        let malformed = "malformed '#pragma pack' - ignored";
        if rest.first() != Some(&&TokenKind::Punct(Punct::LParen))
            || rest.last() != Some(&&TokenKind::Punct(Punct::RParen))
        {
            self.warn_at(loc, malformed);
            return Ok(());
        }
        let inner = &rest[1..rest.len() - 1];
        let value = |k: &TokenKind| match k {
            TokenKind::Int(lit) => Some(lit.value),
            _ => None,
        };
        let ident = |k: &TokenKind| match k {
            TokenKind::Ident(n) => Some(n.to_string()),
            _ => None,
        };
        let set = |p: &mut Parser<'_>, n: u64| {
            if n == 0 {
                p.pack = None;
            } else if n.is_power_of_two() && n <= 16 {
                p.pack = Some(n);
            } else {
                p.warn_at(
                    loc,
                    format!("alignment must be a small power of two, not {n}"),
                );
            }
        };
        match inner {
            [] => self.pack = None,
            [k] if value(k).is_some() => set(self, value(k).unwrap_or(0)),
            [k] if ident(k).as_deref() == Some("push") => self.pack_stack.push(self.pack),
            [k, c, v]
                if ident(k).as_deref() == Some("push")
                    && **c == TokenKind::Punct(Punct::Comma)
                    && value(v).is_some() =>
            {
                self.pack_stack.push(self.pack);
                set(self, value(v).unwrap_or(0));
            }
            [k] if ident(k).as_deref() == Some("pop") => match self.pack_stack.pop() {
                Some(p) => self.pack = p,
                None => self.warn_at(
                    loc,
                    "#pragma pack (pop) encountered without matching #pragma pack (push)",
                ),
            },
            _ => self.warn_at(loc, malformed),
        }
        Ok(())
    }

    /// Is the current token a `#pragma pack` token?
    pub(crate) fn at_pragma(&self) -> bool {
        matches!(self.peek().kind, TokenKind::Pragma(_))
    }
}
