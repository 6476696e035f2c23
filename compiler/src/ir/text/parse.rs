//! Parser: text -> module, for the grammar of `shared/IR.md`.
//!
//! Why: `.ir` files are the test format, the corpus format and a fuzz target, so the
//! parser must take anything and answer with a module or with one error at the line and
//! column of the offending token.
//!
//! Invariants:
//! - never panics, on any input; no recursion (the grammar is flat: items, blocks, lines);
//! - linear time: one token of lookahead, no backtracking, hash sets for labels;
//! - the grammar is line-oriented: an item header, a block label, an instruction each fill
//!   one line, and anything after them on that line is an error;
//! - syntax only: a block label defined twice in one function and an instruction outside a
//!   block are errors here; types, dominance and undefined targets are the verifier's;
//! - `parse_module(&print_module(&m)) == Ok(m)` for modules with canonical constants
//!   (the printer and this parser read operand context types from the same visitors).
//!
//! This file holds the token cursor and the module-level grammar (items, function bodies);
//! `parse_inst.rs` holds instructions and operands.

use super::lex::{Lexer, TokKind, Token};
use super::parse_inst::{BodyLine, RawOperand};
use crate::ir::{
    BasicBlock, BlockId, FuncAttrs, GlobalInit, GlobalItem, Inst, IrConst, IrDecl, IrFunction,
    IrGlobal, IrModule, IrType,
};
use rustc_hash::FxHashSet;
use std::fmt;

/// A parse error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl ParseError {
    /// `file:line:col: message`
    pub fn with_file(&self, file: &str) -> String {
        format!("{file}:{}:{}: {}", self.line, self.col, self.message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a whole module.
pub fn parse_module(src: &str) -> Result<IrModule, ParseError> {
    Parser::new(src)?.module()
}

impl std::str::FromStr for IrModule {
    type Err = ParseError;

    fn from_str(src: &str) -> Result<IrModule, ParseError> {
        parse_module(src)
    }
}

/// The token cursor plus the scratch tables that instruction parsing reuses.
pub(super) struct Parser<'a> {
    pub(super) lex: Lexer<'a>,
    /// The lookahead token.
    pub(super) tok: Token,
    /// Operands of the line being parsed, in text order, before their context types are
    /// applied (see `parse_inst.rs`).
    pub(super) pending: Vec<RawOperand>,
    /// Context types of the line's operands, in the same order.
    pub(super) contexts: Vec<IrType>,
}

/// The block whose label has been read but whose terminator has not.
struct OpenBlock {
    label: BlockId,
    insts: Vec<Inst>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Result<Parser<'a>, ParseError> {
        let mut lex = Lexer::new(src);
        let tok = lex.next_token()?;
        Ok(Parser {
            lex,
            tok,
            pending: Vec::new(),
            contexts: Vec::new(),
        })
    }

    // ---- token cursor -------------------------------------------------------------

    /// Moves to the next token.
    pub(super) fn bump(&mut self) -> Result<(), ParseError> {
        self.tok = self.lex.next_token()?;
        Ok(())
    }

    /// Moves to the next token and returns the one that was current.
    pub(super) fn take(&mut self) -> Result<Token, ParseError> {
        let next = self.lex.next_token()?;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    /// An error at `tok`.
    pub(super) fn error_at(&self, tok: &Token, message: impl Into<String>) -> ParseError {
        ParseError {
            line: tok.line,
            col: tok.col,
            message: message.into(),
        }
    }

    /// "expected X, found Y" at the current token.
    pub(super) fn expected(&self, what: impl fmt::Display) -> ParseError {
        let found = self.lex.describe(&self.tok);
        self.error_at(&self.tok, format!("expected {what}, found {found}"))
    }

    /// The text of the current token (meaningful for identifiers).
    pub(super) fn tok_text(&self) -> &'a str {
        self.lex.text(self.tok.start, self.tok.end)
    }

    /// True when the current token is the bare word `word`.
    pub(super) fn at_word(&self, word: &str) -> bool {
        self.tok.kind == TokKind::Ident && self.tok_text() == word
    }

    /// Consumes the bare word `word` if it is next.
    pub(super) fn eat_word(&mut self, word: &str) -> Result<bool, ParseError> {
        if self.at_word(word) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Consumes the bare word `word` or fails with "expected `word` CONTEXT".
    pub(super) fn expect_word(
        &mut self,
        word: &str,
        context: impl fmt::Display,
    ) -> Result<(), ParseError> {
        if self.eat_word(word)? {
            return Ok(());
        }
        Err(self.expected(format_args!("`{word}` {context}")))
    }

    /// Consumes a punctuation token or fails with "expected `,` CONTEXT, found ...".
    pub(super) fn expect(
        &mut self,
        kind: TokKind,
        context: impl fmt::Display,
    ) -> Result<(), ParseError> {
        if self.tok.kind == kind {
            return self.bump();
        }
        Err(self.expected(format_args!("`{}` {context}", punct_text(&kind))))
    }

    /// Consumes `kind` if it is next.
    pub(super) fn eat(&mut self, kind: TokKind) -> Result<bool, ParseError> {
        if self.tok.kind == kind {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// True at the end of a line (or of the input).
    pub(super) fn at_eol(&self) -> bool {
        matches!(self.tok.kind, TokKind::Newline | TokKind::Eof)
    }

    /// The line must end here: "unexpected X after CONTEXT".
    pub(super) fn expect_eol(&mut self, context: impl fmt::Display) -> Result<(), ParseError> {
        match self.tok.kind {
            TokKind::Newline => self.bump(),
            TokKind::Eof => Ok(()),
            _ => {
                let found = self.lex.describe(&self.tok);
                Err(self.error_at(
                    &self.tok,
                    format!("expected end of line after {context}, found {found}"),
                ))
            }
        }
    }

    /// A type name.
    pub(super) fn ty(&mut self, what: impl fmt::Display) -> Result<IrType, ParseError> {
        if self.tok.kind != TokKind::Ident {
            return Err(self.expected(what));
        }
        let text = self.tok_text();
        match IrType::from_name(text) {
            Some(t) => {
                self.bump()?;
                Ok(t)
            }
            None => Err(self.error_at(&self.tok, format!("unknown type `{text}`"))),
        }
    }

    /// An integer literal, as written.
    pub(super) fn int(&mut self, what: impl fmt::Display) -> Result<(i128, Token), ParseError> {
        match self.tok.kind {
            TokKind::Int(v) => Ok((v, self.take()?)),
            _ => Err(self.expected(what)),
        }
    }

    /// A non-negative integer literal that fits a u32 (sizes, alignments, indices).
    pub(super) fn u32_literal(&mut self, what: impl fmt::Display) -> Result<u32, ParseError> {
        let (v, tok) = self.int(&what)?;
        u32::try_from(v).map_err(|_| {
            self.error_at(
                &tok,
                format!("{what} must be between 0 and {}, found {v}", u32::MAX),
            )
        })
    }

    /// A literal of type `ty`: it must fit `ty` read as signed or unsigned; the result is
    /// canonical for `ty`.
    pub(super) fn typed_literal(
        &self,
        ty: IrType,
        v: i128,
        tok: &Token,
    ) -> Result<i64, ParseError> {
        literal_in_type(ty, v).ok_or_else(|| literal_error(ty, v, tok.line, tok.col))
    }

    /// The float literal token `tok` read in `ty` (canonical bits), or an error at it.
    pub(super) fn float_literal(&self, ty: IrType, tok: &Token) -> Result<i64, ParseError> {
        crate::ir::float_text::parse_float(ty, self.lex.text(tok.start, tok.end))
            .map(|bits| bits as i64)
            .map_err(|message| ParseError {
                line: tok.line,
                col: tok.col,
                message,
            })
    }

    /// `@name`, without the `@`.
    pub(super) fn symbol(&mut self, what: impl fmt::Display) -> Result<String, ParseError> {
        if self.tok.kind != TokKind::Global {
            return Err(self.expected(what));
        }
        let name = self.lex.text(self.tok.start + 1, self.tok.end).to_string();
        self.bump()?;
        Ok(name)
    }

    /// `.LBBN`
    pub(super) fn label(&mut self, what: impl fmt::Display) -> Result<BlockId, ParseError> {
        match self.tok.kind {
            TokKind::Label(n) => {
                self.bump()?;
                Ok(BlockId(n))
            }
            _ => Err(self.expected(what)),
        }
    }

    // ---- module grammar -----------------------------------------------------------

    /// module := { NEWLINE | global | declare | func } EOF
    fn module(&mut self) -> Result<IrModule, ParseError> {
        let mut m = IrModule::default();
        let mut labels = FxHashSet::default();
        loop {
            match self.tok.kind {
                TokKind::Newline => self.bump()?,
                TokKind::Eof => return Ok(m),
                _ if self.at_word("global") => m.globals.push(self.global()?),
                _ if self.at_word("declare") => m.decls.push(self.declare()?),
                _ if self.at_word("func") => m.functions.push(self.function(&mut labels)?),
                _ => return Err(self.expected("`global`, `declare` or `func`")),
            }
        }
    }

    /// global := `global` @name `:` SIZE `align` ALIGN [`const`] `=` (`zeroinit` | `[` items `]`)
    fn global(&mut self) -> Result<IrGlobal, ParseError> {
        self.bump()?;
        let name = self.symbol("a global name `@name` after `global`")?;
        self.expect(TokKind::Colon, "after the global's name")?;
        let size = self.u32_literal("the global's size")?;
        self.expect_word("align", "after the global's size")?;
        let align = self.u32_literal("the global's alignment")?;
        let is_const = self.eat_word("const")?;
        self.expect(TokKind::Equals, "before the global's initializer")?;
        let init = if self.eat_word("zeroinit")? {
            GlobalInit::Zero
        } else {
            self.expect(TokKind::LBracket, "or `zeroinit` to start the initializer")?;
            let mut items = Vec::new();
            if !self.eat(TokKind::RBracket)? {
                loop {
                    items.push(self.global_item()?);
                    if self.eat(TokKind::RBracket)? {
                        break;
                    }
                    self.expect(TokKind::Comma, "or `]` after an initializer item")?;
                }
            }
            GlobalInit::Items(items)
        };
        self.expect_eol("the global")?;
        Ok(IrGlobal {
            name,
            size,
            align,
            is_const,
            init,
        })
    }

    /// item := TYPE (INT | FLOAT) | `ptr` @sym [(`+`|`-`) OFF] | `zero` N | `str` STRING
    fn global_item(&mut self) -> Result<GlobalItem, ParseError> {
        if self.eat_word("zero")? {
            return Ok(GlobalItem::Zero(
                self.u32_literal("a byte count after `zero`")?,
            ));
        }
        if self.eat_word("str")? {
            return match &mut self.tok.kind {
                TokKind::Str(bytes) => {
                    let bytes = std::mem::take(bytes);
                    self.bump()?;
                    Ok(GlobalItem::Str(bytes))
                }
                _ => Err(self.expected("a string after `str`")),
            };
        }
        let ty =
            self.ty("an initializer item (`TYPE INT`, `ptr @sym`, `zero N`, `str \"...\"`)")?;
        if ty == IrType::Ptr && self.tok.kind == TokKind::Global {
            let name = self.symbol("a symbol")?;
            return Ok(GlobalItem::Ptr(name, self.symbol_offset()?));
        }
        if ty.is_float() && self.tok.kind == TokKind::Float {
            let tok = self.take()?;
            let bits = self.float_literal(ty, &tok)?;
            return Ok(GlobalItem::Int(ty, bits));
        }
        let (v, tok) = self.int(format_args!("an integer after `{ty}`"))?;
        Ok(GlobalItem::Int(ty, self.typed_literal(ty, v, &tok)?))
    }

    /// The `+OFF` or `-OFF` after `ptr @sym`; 0 when there is none.
    fn symbol_offset(&mut self) -> Result<i64, ParseError> {
        let (value, tok) = match self.tok.kind {
            TokKind::Plus => {
                self.bump()?;
                let (v, tok) = self.int("an offset after `+`")?;
                if self.lex.text(tok.start, tok.end).starts_with('-') {
                    return Err(self.error_at(&tok, "expected an unsigned offset after `+`"));
                }
                (v, tok)
            }
            // A negative literal right after the symbol: `@g-4`.
            TokKind::Int(v) if self.lex.text(self.tok.start, self.tok.end).starts_with('-') => {
                (v, self.take()?)
            }
            _ => return Ok(0),
        };
        i64::try_from(value)
            .map_err(|_| self.error_at(&tok, format!("offset {value} does not fit i64")))
    }

    /// params := `(` [ TYPE { `,` TYPE } [ `,` `...` ] | `...` ] `)`; returns (types, variadic).
    fn param_list(&mut self, owner: &str) -> Result<(Vec<IrType>, bool), ParseError> {
        self.expect(TokKind::LParen, format_args!("after `@{owner}`"))?;
        let mut params = Vec::new();
        if self.eat(TokKind::RParen)? {
            return Ok((params, false));
        }
        loop {
            if self.eat(TokKind::Ellipsis)? {
                self.expect(TokKind::RParen, "after `...`")?;
                return Ok((params, true));
            }
            params.push(self.ty("a parameter type or `...`")?);
            if self.eat(TokKind::RParen)? {
                return Ok((params, false));
            }
            self.expect(TokKind::Comma, "or `)` after a parameter type")?;
        }
    }

    /// declare := `declare` @name params `->` TYPE
    fn declare(&mut self) -> Result<IrDecl, ParseError> {
        self.bump()?;
        let name = self.symbol("a function name `@name` after `declare`")?;
        let (params, variadic) = self.param_list(&name)?;
        self.expect(TokKind::Arrow, "after the parameter list")?;
        let ret = self.ty("a return type after `->`")?;
        self.expect_eol("the declaration")?;
        Ok(IrDecl {
            name,
            params,
            variadic,
            ret,
        })
    }

    /// `align` N among a function's attributes: N a power of two, written once (the
    /// cursor is on `align`).
    fn function_align(&mut self, attrs: &mut FuncAttrs) -> Result<(), ParseError> {
        let word = self.take()?;
        if attrs.align != 0 {
            return Err(self.error_at(&word, "attribute `align` written twice"));
        }
        let tok = self.tok.clone();
        let align = self.u32_literal("the function's alignment")?;
        if !align.is_power_of_two() {
            let msg = format!("the function's alignment must be a power of two, found {align}");
            return Err(self.error_at(&tok, msg));
        }
        attrs.align = align;
        Ok(())
    }

    /// func := `func` {`static`|`inline`|`noinline`|`align` INT} @name params `->` TYPE `{` NEWLINE
    ///         { NEWLINE | `.LBBN:` NEWLINE | instruction NEWLINE } `}`
    fn function(&mut self, labels: &mut FxHashSet<u32>) -> Result<IrFunction, ParseError> {
        let func_tok = self.take()?;
        let mut attrs = FuncAttrs::default();
        // Each attribute may be written once, in any order.
        while self.tok.kind == TokKind::Ident {
            if self.tok_text() == "align" {
                self.function_align(&mut attrs)?;
                continue;
            }
            let flag = match self.tok_text() {
                "static" => &mut attrs.is_static,
                "inline" => &mut attrs.is_inline,
                "noinline" => &mut attrs.is_noinline,
                other => {
                    let msg = format!("unknown function attribute `{other}`");
                    return Err(self.error_at(&self.tok, msg));
                }
            };
            if *flag {
                let msg = format!("attribute `{}` written twice", self.tok_text());
                return Err(self.error_at(&self.tok, msg));
            }
            *flag = true;
            self.bump()?;
        }
        let name = self.symbol("a function name `@name` after `func`")?;
        let (params, variadic) = self.param_list(&name)?;
        self.expect(TokKind::Arrow, "after the parameter list")?;
        let ret = self.ty("a return type after `->`")?;
        self.expect(TokKind::LBrace, "to open the function body")?;
        self.expect_eol("`{`")?;
        let blocks = self.body(&name, &func_tok, labels)?;
        self.expect_eol("`}`")?;
        Ok(IrFunction {
            name,
            params,
            ret,
            variadic,
            attrs,
            blocks,
        })
    }

    /// The lines of a function body, up to and including the closing `}`.
    fn body(
        &mut self,
        name: &str,
        func_tok: &Token,
        labels: &mut FxHashSet<u32>,
    ) -> Result<Vec<BasicBlock>, ParseError> {
        labels.clear();
        let mut blocks: Vec<BasicBlock> = Vec::new();
        let mut open: Option<OpenBlock> = None;
        loop {
            match self.tok.kind {
                TokKind::Newline => self.bump()?,
                TokKind::Eof => {
                    let msg = format!(
                        "missing `}}` at the end of function `@{name}` (line {})",
                        func_tok.line
                    );
                    return Err(self.error_at(&self.tok, msg));
                }
                // Every block ends with its terminator, the last one included.
                TokKind::RBrace => {
                    if let Some(b) = &open {
                        let msg = format!("block {} has no terminator", b.label);
                        return Err(self.error_at(&self.tok, msg));
                    }
                    self.bump()?;
                    return Ok(blocks);
                }
                TokKind::Label(n) => {
                    let label = BlockId(n);
                    if let Some(b) = &open {
                        let msg = format!("block {} has no terminator", b.label);
                        return Err(self.error_at(&self.tok, msg));
                    }
                    // A label names one block of the function.
                    if !labels.insert(n) {
                        let msg = format!("block {label} is defined twice in `@{name}`");
                        return Err(self.error_at(&self.tok, msg));
                    }
                    self.bump()?;
                    self.expect(TokKind::Colon, format_args!("after block label {label}"))?;
                    self.expect_eol("the block label")?;
                    open = Some(OpenBlock {
                        label,
                        insts: Vec::new(),
                    });
                }
                _ if ["func", "global", "declare"]
                    .iter()
                    .any(|w| self.at_word(w)) =>
                {
                    let msg = format!(
                        "expected `}}` to close function `@{name}` before `{}`",
                        self.tok_text()
                    );
                    return Err(self.error_at(&self.tok, msg));
                }
                _ => {
                    // Instructions live in blocks: after a label, before its terminator.
                    let Some(block) = open.as_mut() else {
                        let msg = match blocks.last() {
                            None => "instruction before the first block label".to_string(),
                            Some(b) => format!("instruction after the terminator of {}", b.label),
                        };
                        return Err(self.error_at(&self.tok, msg));
                    };
                    match self.body_line()? {
                        BodyLine::Inst(inst) => block.insts.push(inst),
                        BodyLine::Term(term) => {
                            if let Some(b) = open.take() {
                                blocks.push(BasicBlock {
                                    label: b.label,
                                    insts: b.insts,
                                    term,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Punctuation as written, for messages.
fn punct_text(kind: &TokKind) -> &'static str {
    match kind {
        TokKind::Comma => ",",
        TokKind::Colon => ":",
        TokKind::Equals => "=",
        TokKind::LParen => "(",
        TokKind::RParen => ")",
        TokKind::LBracket => "[",
        TokKind::RBracket => "]",
        TokKind::LBrace => "{",
        TokKind::RBrace => "}",
        TokKind::Arrow => "->",
        TokKind::Plus => "+",
        TokKind::Ellipsis => "...",
        _ => "?",
    }
}

/// The canonical bits of literal `v` in `ty`, if it fits `ty` as signed or unsigned.
pub(super) fn literal_in_type(ty: IrType, v: i128) -> Option<i64> {
    (!ty.is_float() && IrConst::fits(ty, v)).then(|| IrConst::new(ty, v as i64).bits)
}

/// "literal 300 does not fit i8" at (line, col).
pub(super) fn literal_error(ty: IrType, v: i128, line: u32, col: u32) -> ParseError {
    ParseError {
        line,
        col,
        message: if ty.is_float() {
            format!("integer literal {v} where a {ty} is expected: write a float (`{v}.0`)")
        } else {
            format!("literal {v} does not fit {ty}")
        },
    }
}
