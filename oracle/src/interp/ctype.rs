//! The `<ctype.h>` functions of glibc in the "C" locale: `isalnum` ... `isxdigit`,
//! `isblank`, `tolower`, `toupper`.
//!
//! Why it exists: c-torture calls `isprint` and friends (`991112-1.c`), and a program's
//! output may depend on the exact value a classification returns. glibc's functions (the
//! real ones, not the `<ctype.h>` macros, which phicc's headers do not have) return
//! `table[c] & mask`: the class's bit in glibc's `unsigned short` table, so
//! `isprint('a')` is 0x4000 (16384), not 1. The oracle returns the same bits.
//!
//! Invariants:
//! - The masks are glibc's `_ISbit` values on a little-endian target (all of phicc's):
//!   upper 0x100, lower 0x200, alpha 0x400, digit 0x800, xdigit 0x1000, space 0x2000,
//!   print 0x4000, graph 0x8000, blank 0x1, cntrl 0x2, punct 0x4, alnum 0x8.
//! - In the "C" locale only ASCII is classified: an argument in -128..=-1 (EOF and the
//!   negative `char`s glibc's table also covers) or 128..=255 is in no class;
//!   `tolower`/`toupper` return it unchanged, except a negative `char` (-128..=-2),
//!   which glibc's mapping tables turn into its `unsigned char` value (`tolower(-5)`
//!   is 251).
//! - Any other argument is outside glibc's table (C11 7.4p1: undefined): `BadLibcCall`.

use crate::outcome::Ub;

/// A `<ctype.h>` function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CtypeFn {
    Isalnum,
    Isalpha,
    Isblank,
    Iscntrl,
    Isdigit,
    Isgraph,
    Islower,
    Isprint,
    Ispunct,
    Isspace,
    Isupper,
    Isxdigit,
    Tolower,
    Toupper,
}

const UPPER: u16 = 0x100;
const LOWER: u16 = 0x200;
const ALPHA: u16 = 0x400;
const DIGIT: u16 = 0x800;
const XDIGIT: u16 = 0x1000;
const SPACE: u16 = 0x2000;
const PRINT: u16 = 0x4000;
const GRAPH: u16 = 0x8000;
const BLANK: u16 = 0x1;
const CNTRL: u16 = 0x2;
const PUNCT: u16 = 0x4;
const ALNUM: u16 = 0x8;

impl CtypeFn {
    const ALL: [CtypeFn; 14] = [
        CtypeFn::Isalnum,
        CtypeFn::Isalpha,
        CtypeFn::Isblank,
        CtypeFn::Iscntrl,
        CtypeFn::Isdigit,
        CtypeFn::Isgraph,
        CtypeFn::Islower,
        CtypeFn::Isprint,
        CtypeFn::Ispunct,
        CtypeFn::Isspace,
        CtypeFn::Isupper,
        CtypeFn::Isxdigit,
        CtypeFn::Tolower,
        CtypeFn::Toupper,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CtypeFn::Isalnum => "isalnum",
            CtypeFn::Isalpha => "isalpha",
            CtypeFn::Isblank => "isblank",
            CtypeFn::Iscntrl => "iscntrl",
            CtypeFn::Isdigit => "isdigit",
            CtypeFn::Isgraph => "isgraph",
            CtypeFn::Islower => "islower",
            CtypeFn::Isprint => "isprint",
            CtypeFn::Ispunct => "ispunct",
            CtypeFn::Isspace => "isspace",
            CtypeFn::Isupper => "isupper",
            CtypeFn::Isxdigit => "isxdigit",
            CtypeFn::Tolower => "tolower",
            CtypeFn::Toupper => "toupper",
        }
    }

    pub fn by_name(name: &str) -> Option<CtypeFn> {
        CtypeFn::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The result for the `int` argument `arg` (raw bits of an `int`).
    pub fn call(self, arg: u64) -> Result<u64, Ub> {
        let c = arg as u32 as i32;
        if !(-128..=255).contains(&c) {
            return Err(Ub::BadLibcCall);
        }
        let class = class_bits(c);
        let result = match self {
            CtypeFn::Tolower if class & UPPER != 0 => c + 32,
            CtypeFn::Toupper if class & LOWER != 0 => c - 32,
            // glibc's mapping tables give a negative `char` its `unsigned char` value.
            CtypeFn::Tolower | CtypeFn::Toupper if c < -1 => c + 256,
            CtypeFn::Tolower | CtypeFn::Toupper => c,
            _ => i32::from(class & self.mask()),
        };
        Ok(result as u32 as u64)
    }

    fn mask(self) -> u16 {
        match self {
            CtypeFn::Isalnum => ALNUM,
            CtypeFn::Isalpha => ALPHA,
            CtypeFn::Isblank => BLANK,
            CtypeFn::Iscntrl => CNTRL,
            CtypeFn::Isdigit => DIGIT,
            CtypeFn::Isgraph => GRAPH,
            CtypeFn::Islower => LOWER,
            CtypeFn::Isprint => PRINT,
            CtypeFn::Ispunct => PUNCT,
            CtypeFn::Isspace => SPACE,
            CtypeFn::Isupper => UPPER,
            CtypeFn::Isxdigit => XDIGIT,
            CtypeFn::Tolower | CtypeFn::Toupper => 0,
        }
    }
}

/// glibc's "C" locale class bits of `c` (in -128..=255).
fn class_bits(c: i32) -> u16 {
    let Ok(b) = u8::try_from(c) else {
        return 0;
    };
    if !b.is_ascii() {
        return 0;
    }
    let mut bits = 0;
    if b.is_ascii_uppercase() {
        bits |= UPPER | ALPHA | ALNUM;
    }
    if b.is_ascii_lowercase() {
        bits |= LOWER | ALPHA | ALNUM;
    }
    if b.is_ascii_digit() {
        bits |= DIGIT | ALNUM;
    }
    if b.is_ascii_hexdigit() {
        bits |= XDIGIT;
    }
    if matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        bits |= SPACE;
    }
    if (0x20..0x7f).contains(&b) {
        bits |= PRINT;
    }
    if (0x21..0x7f).contains(&b) {
        bits |= GRAPH;
    }
    if matches!(b, b' ' | b'\t') {
        bits |= BLANK;
    }
    if b < 0x20 || b == 0x7f {
        bits |= CNTRL;
    }
    if b.is_ascii_punctuation() {
        bits |= PUNCT;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: glibc 2.36 on x86_64 (`printf("%d", isprint('a'))` and so on).
    #[test]
    fn classes_are_glibc_bits() {
        let call = |f: CtypeFn, c: i32| f.call(c as u32 as u64).map(|v| v as u32 as i32);
        assert_eq!(call(CtypeFn::Isprint, 'a' as i32), Ok(16384));
        assert_eq!(call(CtypeFn::Isprint, 2), Ok(0));
        assert_eq!(call(CtypeFn::Isblank, ' ' as i32), Ok(1));
        assert_eq!(call(CtypeFn::Isalnum, '7' as i32), Ok(8));
        assert_eq!(call(CtypeFn::Ispunct, '!' as i32), Ok(4));
        assert_eq!(call(CtypeFn::Isgraph, '~' as i32), Ok(0x8000u16 as i32));
        assert_eq!(call(CtypeFn::Isupper, 200), Ok(0));
        assert_eq!(call(CtypeFn::Isspace, -1), Ok(0));
        assert_eq!(call(CtypeFn::Toupper, 'q' as i32), Ok('Q' as i32));
        assert_eq!(call(CtypeFn::Tolower, -5), Ok(251));
        assert_eq!(call(CtypeFn::Toupper, -1), Ok(-1));
        assert_eq!(call(CtypeFn::Isdigit, 256), Err(Ub::BadLibcCall));
        assert_eq!(call(CtypeFn::Isdigit, -129), Err(Ub::BadLibcCall));
    }
}
