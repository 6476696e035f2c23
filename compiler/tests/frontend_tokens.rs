//! Lexing and classification (phases 1-3 and 7): keywords including the GNU
//! spellings, integer/floating/character/string constants with their values,
//! punctuators and digraphs, comments, splices, whitespace flags, and `-E` text.

mod frontend_support;

use compiler::frontend::token::{FloatSuffix, IntLit, LongSuffix, Radix};
use compiler::frontend::{
    preprocess_str, tokens_to_text, Keyword, Punct, Target, Token, TokenKind,
};
use frontend_support::{opts, pp, run};

fn tokens(text: &str) -> Vec<Token> {
    let mut toks = run(text).unwrap_or_else(|e| panic!("{e}")).tokens;
    assert_eq!(
        toks.pop().map(|t| t.kind),
        Some(TokenKind::Eof),
        "the stream ends with Eof"
    );
    assert!(
        toks.iter().all(|t| t.kind != TokenKind::Eof),
        "exactly one Eof"
    );
    toks
}

fn kinds(text: &str) -> Vec<TokenKind> {
    tokens(text).into_iter().map(|t| t.kind).collect()
}

#[test]
fn keywords_and_gnu_spellings() {
    use Keyword::*;
    let c99 = "auto break case char const continue default do double else enum extern float for goto if \
               inline int long register restrict return short signed sizeof static struct switch typedef \
               union unsigned void volatile while _Bool _Complex _Imaginary";
    let expected = [
        Auto, Break, Case, Char, Const, Continue, Default, Do, Double, Else, Enum, Extern, Float,
        For, Goto, If, Inline, Int, Long, Register, Restrict, Return, Short, Signed, Sizeof,
        Static, Struct, Switch, Typedef, Union, Unsigned, Void, Volatile, While, Bool, Complex,
        Imaginary,
    ];
    assert_eq!(kinds(c99), expected.map(TokenKind::Keyword));
    let gnu = "__inline__ __inline __restrict __restrict__ __attribute__ __attribute __extension__ __signed__ \
               __const __const__ __volatile__ __volatile __asm__ __asm __typeof__ __alignof__";
    let expected = [
        Inline, Inline, Restrict, Restrict, Attribute, Attribute, Extension, Signed, Const, Const,
        Volatile, Volatile, Asm, Asm, Typeof, Alignof,
    ];
    assert_eq!(kinds(gnu), expected.map(TokenKind::Keyword));
    // gcc's default GNU C modes (what c-torture is written for) make `asm` and `typeof`
    // keywords; phicc does the same.
    assert_eq!(kinds("asm typeof"), [Asm, Typeof].map(TokenKind::Keyword));
    let toks = tokens("__inline__ _bool $dollar");
    assert_eq!(
        toks[0].spelling.as_ref(),
        "__inline__",
        "the spelling tells GNU forms apart"
    );
    for t in &toks[1..] {
        assert_eq!(
            t.kind,
            TokenKind::Ident(t.spelling.clone()),
            "{} is an identifier in C99",
            t.spelling
        );
    }
}

fn int(value: u64, radix: Radix, unsigned: bool, long: LongSuffix) -> TokenKind {
    TokenKind::Int(IntLit {
        value,
        radix,
        unsigned,
        long,
    })
}

#[test]
fn integer_constants() {
    use LongSuffix::*;
    use Radix::*;
    assert_eq!(
        kinds("42 052 0x2A 0X2a 0 42u 42UL 42lu 42llu 42ULL 42LL 0xFFFFFFFFFFFFFFFF 18446744073709551615u"),
        [
            int(42, Decimal, false, None),
            int(42, Octal, false, None),
            int(42, Hex, false, None),
            int(42, Hex, false, None),
            int(0, Octal, false, None),
            int(42, Decimal, true, None),
            int(42, Decimal, true, Long),
            int(42, Decimal, true, Long),
            int(42, Decimal, true, LongLong),
            int(42, Decimal, true, LongLong),
            int(42, Decimal, false, LongLong),
            int(u64::MAX, Hex, false, None),
            int(u64::MAX, Decimal, true, None),
        ]
    );
}

#[test]
fn floating_constants() {
    use FloatSuffix::*;
    let floats: Vec<(f64, FloatSuffix)> =
        kinds("1.5 1.5f .5L 1e3 2.E-1 0x1p4 0x.8p1 0x1.8P+1f 1.0e-320 0.1f")
            .into_iter()
            .map(|k| match k {
                TokenKind::Float(f) => (f.value, f.suffix),
                other => panic!("not a float: {other:?}"),
            })
            .collect();
    let expected = [
        (1.5, None),
        (1.5, F),
        (0.5, L),
        (1000.0, None),
        (0.2, None),
        (16.0, None),
        (1.0, None),
        (3.0, F),
        (1.0e-320, None),
        (f64::from(0.1f32), F),
    ];
    assert_eq!(floats, expected);
}

#[test]
fn character_constants_and_escapes() {
    let chars: Vec<i64> = kinds(r#"'a' '\n' '\t' '\\' '\'' '\"' '\?' '\a' '\b' '\f' '\r' '\v' '\0' '\101' '\x41' '\12' 'ab' '\x7f'"#)
        .into_iter()
        .map(|k| match k {
            TokenKind::Char(v) => v,
            other => panic!("not a char: {other:?}"),
        })
        .collect();
    assert_eq!(
        chars,
        [97, 10, 9, 92, 39, 34, 63, 7, 8, 12, 13, 11, 0, 65, 65, 10, 0x6162, 127]
    );
    // Plain char is signed on x86, unsigned on aarch64 and riscv64.
    for target in Target::ALL {
        let out = preprocess_str("t.c", r"'\xff' '\200'", &opts(target)).unwrap();
        let values: Vec<TokenKind> = out.tokens.into_iter().take(2).map(|t| t.kind).collect();
        let expected = if target.char_is_signed() {
            [-1, -128]
        } else {
            [255, 128]
        };
        assert_eq!(values, expected.map(TokenKind::Char), "{target:?}");
    }
}

#[test]
fn string_literals_are_not_concatenated() {
    assert_eq!(
        kinds(r#""a\tb" "\x41\101\0z" "" u8"utf""#),
        [
            TokenKind::Str(b"a\tb".to_vec().into()),
            TokenKind::Str(b"AA\0z".to_vec().into()),
            TokenKind::Str(b"".to_vec().into()),
            TokenKind::Str(b"utf".to_vec().into()),
        ]
    );
    assert_eq!(
        kinds("\"é\""),
        [TokenKind::Str("é".as_bytes().to_vec().into())]
    );
}

#[test]
fn punctuators_and_digraphs() {
    use Punct::*;
    let text = "[ ] ( ) { } . -> ++ -- & * + - ~ ! / % << >> < > <= >= == != ^ | && || ? : ; ... \
                = *= /= %= += -= <<= >>= &= ^= |= , <: :> <% %>";
    let expected = [
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
        LBracket,
        RBracket,
        LBrace,
        RBrace,
    ];
    assert_eq!(kinds(text), expected.map(TokenKind::Punct));
    // Longest match: `a+++++b` is `a ++ ++ + b`, `x...y` has an ellipsis, `..` is two dots.
    assert_eq!(
        pp("a+++++b x...y .. %:%: # ##"),
        "a ++ ++ + b x ... y . . %:%: # ##"
    );
    // `%:` works as `#` for directives.
    assert_eq!(pp("%:define D 1\nD"), "1");
}

#[test]
fn comments_splices_and_whitespace_flags() {
    let toks = tokens("a/* x */b // c \\\n still comment\n  c\\\nd e/**/f\n\"s\\\nt\"");
    let seen: Vec<(&str, bool, bool, u32, u32)> = toks
        .iter()
        .map(|t| {
            (
                t.spelling.as_ref(),
                t.leading_space,
                t.line_start,
                t.loc.line,
                t.loc.col,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("a", false, true, 1, 1),
            ("b", true, false, 1, 9),
            ("cd", true, true, 3, 3),
            ("e", true, false, 4, 3),
            ("f", true, false, 4, 8),
            ("\"st\"", true, true, 5, 1),
        ]
    );
    assert_eq!(toks[5].kind, TokenKind::Str(b"st".to_vec().into()));
}

#[test]
fn stray_characters_are_tokens_for_the_parser() {
    let toks = tokens("@ ` \\ é");
    assert!(toks.iter().all(|t| t.kind == TokenKind::Stray));
    let spellings: Vec<&str> = toks.iter().map(|t| t.spelling.as_ref()).collect();
    assert_eq!(spellings, ["@", "`", "\\", "é"]);
}

#[test]
fn text_output_relexes_to_the_same_tokens() {
    let text = "#define P +\n#define E\n#define N 1\n#define ID(x) x\nint a = b+P+c -E- d; x = N.5; y = ID(L)\"s\"; z = 1 E+2;\n#pragma pack(2)\nq /*c*/ r\n  s";
    let out = run(text).unwrap();
    let printed = tokens_to_text(&out.tokens);
    assert_eq!(
        printed,
        "int a = b+ + +c - - d; x = 1 .5; y = L \"s\"; z = 1 +2;\n#pragma pack(2)\nq r\ns\n"
    );
    let again = run(&printed).unwrap();
    let spell = |ts: &[Token]| {
        ts.iter()
            .map(|t| t.spelling.to_string())
            .collect::<Vec<_>>()
    };
    let pragma_free: Vec<Token> = out
        .tokens
        .iter()
        .filter(|t| !matches!(t.kind, TokenKind::Pragma(_)))
        .cloned()
        .collect();
    let again_free: Vec<Token> = again
        .tokens
        .iter()
        .filter(|t| !matches!(t.kind, TokenKind::Pragma(_)))
        .cloned()
        .collect();
    assert_eq!(spell(&pragma_free), spell(&again_free));
}
