//! Token types: the classified `Token` the parser consumes, and the pre-processing token
//! `PpToken` the lexer and preprocessor work with.
//!
//! Why two types: translation phases 3-6 work on pre-processing tokens (a pp-number such
//! as `1.2.3` or `0x1e+1` is one token there, identifiers are not yet keywords, spelling
//! matters for `#` and `##`), phase 7 turns each into a C token with a decoded value.
//!
//! Invariants:
//! - `Token::spelling` is the exact source spelling (splices removed), so printing the
//!   spellings with the whitespace flags reproduces the token stream (`-E`).
//! - Adjacent string literals are NOT concatenated here: that is phase 6 and the
//!   parser's job (it is a byte concatenation of `TokenKind::Str` payloads).
//! - GNU alternative keyword spellings map to the C99 keyword they alias
//!   (`__inline__` is `Keyword::Inline`); the spelling still tells them apart.
//! - `PpToken` is `Copy` and small: its spelling is an interned `Sym`.

use super::intern::Sym;
use super::source::Loc;
use std::rc::Rc;

/// C99 punctuators. Digraphs (`<:` `:>` `<%` `%>` `%:` `%:%:`) are the same punctuator
/// as the token they stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    /// The canonical (non-digraph) spelling.
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

/// C99 keywords plus the GNU ones csmith's and libc's headers may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    Auto,
    Break,
    Case,
    Char,
    Const,
    Continue,
    Default,
    Do,
    Double,
    Else,
    Enum,
    Extern,
    Float,
    For,
    Goto,
    If,
    Inline,
    Int,
    Long,
    Register,
    Restrict,
    Return,
    Short,
    Signed,
    Sizeof,
    Static,
    Struct,
    Switch,
    Typedef,
    Union,
    Unsigned,
    Void,
    Volatile,
    While,
    /// `_Bool`
    Bool,
    /// `_Complex`
    Complex,
    /// `_Imaginary`
    Imaginary,
    /// `__attribute__`, `__attribute`
    Attribute,
    /// `__extension__`
    Extension,
    /// `__asm__`, `__asm`
    Asm,
    /// `__typeof__`, `__typeof`
    Typeof,
    /// `__alignof__`, `__alignof`, `_Alignof` (the spelling tells C11's `_Alignof`, the
    /// ABI alignment, from gcc's `__alignof__`, the preferred one)
    Alignof,
    /// `_Alignas` (C11 6.7.5, `object_align.rs`)
    Alignas,
}

impl Keyword {
    /// The keyword a spelling denotes, if any (GNU spellings map to their alias).
    pub fn from_spelling(s: &str) -> Option<Keyword> {
        use Keyword::*;
        Some(match s {
            "auto" => Auto,
            "break" => Break,
            "case" => Case,
            "char" => Char,
            "const" | "__const" | "__const__" => Const,
            "continue" => Continue,
            "default" => Default,
            "do" => Do,
            "double" => Double,
            "else" => Else,
            "enum" => Enum,
            "extern" => Extern,
            "float" => Float,
            "for" => For,
            "goto" => Goto,
            "if" => If,
            "inline" | "__inline" | "__inline__" => Inline,
            "int" => Int,
            "long" => Long,
            "register" => Register,
            "restrict" | "__restrict" | "__restrict__" => Restrict,
            "return" => Return,
            "short" => Short,
            "signed" | "__signed" | "__signed__" => Signed,
            "sizeof" => Sizeof,
            "static" => Static,
            "struct" => Struct,
            "switch" => Switch,
            "typedef" => Typedef,
            "union" => Union,
            "unsigned" => Unsigned,
            "void" => Void,
            "volatile" | "__volatile" | "__volatile__" => Volatile,
            "while" => While,
            "_Bool" => Bool,
            "_Complex" | "__complex__" => Complex,
            "_Imaginary" => Imaginary,
            "__attribute__" | "__attribute" => Attribute,
            "__extension__" => Extension,
            // `asm` and `typeof` are keywords in gcc's default GNU C modes.
            "__asm__" | "__asm" | "asm" => Asm,
            "__typeof__" | "__typeof" | "typeof" => Typeof,
            "__alignof__" | "__alignof" | "_Alignof" => Alignof,
            "_Alignas" => Alignas,
            _ => return None,
        })
    }

    /// The C99 (or primary GNU) spelling.
    pub fn as_str(self) -> &'static str {
        use Keyword::*;
        match self {
            Auto => "auto",
            Break => "break",
            Case => "case",
            Char => "char",
            Const => "const",
            Continue => "continue",
            Default => "default",
            Do => "do",
            Double => "double",
            Else => "else",
            Enum => "enum",
            Extern => "extern",
            Float => "float",
            For => "for",
            Goto => "goto",
            If => "if",
            Inline => "inline",
            Int => "int",
            Long => "long",
            Register => "register",
            Restrict => "restrict",
            Return => "return",
            Short => "short",
            Signed => "signed",
            Sizeof => "sizeof",
            Static => "static",
            Struct => "struct",
            Switch => "switch",
            Typedef => "typedef",
            Union => "union",
            Unsigned => "unsigned",
            Void => "void",
            Volatile => "volatile",
            While => "while",
            Bool => "_Bool",
            Complex => "_Complex",
            Imaginary => "_Imaginary",
            Attribute => "__attribute__",
            Extension => "__extension__",
            Asm => "__asm__",
            Typeof => "__typeof__",
            Alignof => "__alignof__",
            Alignas => "_Alignas",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    Decimal,
    Octal,
    Hex,
}

/// The `l`/`ll` part of an integer suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongSuffix {
    None,
    Long,
    LongLong,
}

/// An integer constant: its value and what C99 6.4.4.1 needs to pick its type (the
/// parser does that, since it depends on the target's sizes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLit {
    pub value: u64,
    pub radix: Radix,
    pub unsigned: bool,
    pub long: LongSuffix,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    /// `f`/`F`: `float`
    F,
    /// `l`/`L`: `long double`
    L,
}

/// A floating constant. `value` is correctly rounded to the constant's type (to `f32`
/// for an `f` suffix, then widened exactly); `long double` is rounded as `double`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatLit {
    pub value: f64,
    pub suffix: FloatSuffix,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    Ident(Rc<str>),
    Keyword(Keyword),
    Int(IntLit),
    Float(FloatLit),
    /// A character constant's value as an `int` (plain `char` signedness of the target
    /// applied; multi-character constants as gcc computes them).
    Char(i64),
    /// A string literal's bytes after escape decoding, without the terminating NUL.
    Str(Rc<[u8]>),
    /// A wide character constant (`L'a'`): its `wchar_t` value (`wide_literal`).
    WideChar(i64),
    /// A wide string literal (`L"a"`): its `wchar_t` code units, without the null one.
    WideStr(Rc<[u32]>),
    Punct(Punct),
    /// `#pragma pack(...)` (or `_Pragma("pack(...)")`): the tokens after `pragma`,
    /// macro-expanded, for the parser to interpret.
    Pragma(Rc<[Token]>),
    /// A character that is no C token (`@`, `` ` ``, a stray `\`, non-ASCII text); the
    /// parser reports it ("stray '@' in program").
    Stray,
    /// The end of the translation unit (the last token of every stream).
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub spelling: Rc<str>,
    /// Where to report problems with this token: its own position, or for a token that
    /// came from a macro's replacement list, the position of the outermost invocation.
    pub loc: Loc,
    /// Whitespace (or a comment) came before this token.
    pub leading_space: bool,
    /// This token is the first on its logical line.
    pub line_start: bool,
    /// This token was produced by macro expansion.
    pub from_macro: bool,
}

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }

    pub fn is_keyword(&self, k: Keyword) -> bool {
        self.kind == TokenKind::Keyword(k)
    }
}

/// The category of a pre-processing token (C99 6.4 preprocessing-token).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PpKind {
    Ident,
    /// pp-number
    Number,
    /// A character constant, possibly with an `L`, `u` or `U` prefix.
    Char,
    /// A string literal, possibly with an `L`, `u`, `U` or `u8` prefix.
    Str,
    Punct(Punct),
    /// `<...>` or `"..."` after `#include`.
    HeaderName,
    /// Any other single character.
    Other,
    /// A `'` or `"` with no closing quote on its line: the token runs to the line end.
    /// An error only if it survives into the output or an `#if` (gcc's rule).
    Unterminated,
    /// The empty argument of C99 6.10.3.3 during `##` processing.
    Placemarker,
    /// A `#pragma` to hand to the parser; `sym` indexes the preprocessor's pragma table.
    Pragma,
    Eof,
}

/// Flag bits of `PpToken::flags`.
pub(crate) mod flags {
    /// Whitespace or a comment precedes the token.
    pub const LEADING_SPACE: u8 = 1;
    /// The token begins a logical line.
    pub const LINE_START: u8 = 2;
    /// Painted blue (C99 6.10.3.4p2): an identifier that named a macro being expanded
    /// when it was read; it is never expanded again.
    pub const NO_EXPAND: u8 = 4;
    /// The token was spelled in a `#define` replacement list.
    pub const FROM_DEFINE: u8 = 8;
    /// The token was produced by macro expansion.
    pub const FROM_MACRO: u8 = 16;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PpToken {
    pub sym: Sym,
    pub loc: Loc,
    pub kind: PpKind,
    pub flags: u8,
    /// In a macro replacement list: 1 + the index of the parameter this identifier
    /// names; 0 everywhere else.
    pub param: u16,
}

impl PpToken {
    pub fn new(kind: PpKind, sym: Sym, loc: Loc, flags: u8) -> PpToken {
        PpToken {
            sym,
            loc,
            kind,
            flags,
            param: 0,
        }
    }

    pub fn is(&self, p: Punct) -> bool {
        self.kind == PpKind::Punct(p)
    }

    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    pub fn leading_space(&self) -> bool {
        self.has(flags::LEADING_SPACE)
    }

    pub fn line_start(&self) -> bool {
        self.has(flags::LINE_START)
    }

    pub fn set(&mut self, flag: u8, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }
}
