//! The target facts phicc's front end assumes, checked against real gcc for each of
//! the four targets (host `gcc` for x86_64, the `*-linux-gnu-gcc` cross compilers for
//! i686, aarch64 and riscv64), compile-only (`-S`, see `gcc_cross`):
//!
//! - every predefined macro phicc defines (the `#define` lines of its `<built-in>`
//!   file, all but `__phicc__`) has gcc's value under `-std=gnu99` (`gcc -dM -E`);
//! - one C program of initialised globals gives the same bytes in phicc's static
//!   initializers as in gcc's assembly: `sizeof`, `_Alignof`, `__alignof__` and the
//!   offset after a `char` of every integer, floating and pointer type and of the
//!   `<stddef.h>`/`<stdint.h>` typedefs; the signedness of plain `char`, of every
//!   integer type and of `wchar_t`/`wint_t`; character constants; the values of integer
//!   constants (C99 6.4.4.1) and of integer/floating conversions; the `<limits.h>`,
//!   `<stdint.h>` and `<float.h>` macros (phicc's own headers in `compiler/include`
//!   against gcc's and glibc's);
//! - the type of every expression of a list (integer constants of every radix and
//!   suffix at the `int`/`long`/`long long` boundaries, usual arithmetic conversions,
//!   promotions (also of bit-fields), shifts, `sizeof`, the header macros): phicc's
//!   `__typeof__(X)` must be the type gcc's `_Generic((X), ...)` selects.
//!
//! Expected values come from gcc only. Deliberate differences are listed (with the
//! reason) in `HEADER_MACRO_EXCEPTIONS`, known unfixed ones in `KNOWN_DIFFERENCES`
//! (gcc's side of those is still checked); nothing else is skipped. A missing cross gcc
//! fails with the advice to run `scripts/setup.sh`. Every child process has a timeout.

mod gcc_cross;

use compiler::compile_c::default_options;
use compiler::frontend::parse::parse_translation_unit;
use compiler::frontend::types::{IntKind, Type};
use compiler::frontend::{preprocess_str, PreprocessOptions, Target};
use gcc_cross::{assert_no_differences, data_objects, gcc_asm, gcc_predefined, scratch_dir};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Types whose size and alignments are compared, as typedef declarators (`@` is the
/// typedef name); `true` for arithmetic types, whose signedness is compared too.
const TYPES: &[(&str, bool)] = &[
    ("char @", true),
    ("signed char @", true),
    ("unsigned char @", true),
    ("short @", true),
    ("unsigned short @", true),
    ("int @", true),
    ("unsigned int @", true),
    ("long @", true),
    ("unsigned long @", true),
    ("long long @", true),
    ("unsigned long long @", true),
    ("_Bool @", true),
    ("float @", true),
    ("double @", true),
    ("long double @", true),
    ("void *@", false),
    ("char *@", false),
    ("int (*@)(void)", false),
    ("int @[3]", false),
    ("size_t @", true),
    ("ptrdiff_t @", true),
    ("wchar_t @", true),
    ("__WINT_TYPE__ @", true),
    ("int8_t @", true),
    ("uint8_t @", true),
    ("int16_t @", true),
    ("uint16_t @", true),
    ("int32_t @", true),
    ("uint32_t @", true),
    ("int64_t @", true),
    ("uint64_t @", true),
    ("int_least8_t @", true),
    ("int_least16_t @", true),
    ("int_least32_t @", true),
    ("int_least64_t @", true),
    ("uint_least8_t @", true),
    ("uint_least16_t @", true),
    ("uint_least32_t @", true),
    ("uint_least64_t @", true),
    ("int_fast8_t @", true),
    ("int_fast16_t @", true),
    ("int_fast32_t @", true),
    ("int_fast64_t @", true),
    ("uint_fast8_t @", true),
    ("uint_fast16_t @", true),
    ("uint_fast32_t @", true),
    ("uint_fast64_t @", true),
    ("intptr_t @", true),
    ("uintptr_t @", true),
    ("intmax_t @", true),
    ("uintmax_t @", true),
    ("enum e_small @", true),
    ("enum e_big @", true),
];

/// Integer constant expressions: their value (as `unsigned long long`), size and type
/// are compared.
const INT_EXPRS: &[&str] = &[
    "0",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "0x7fffffff",
    "0x80000000",
    "0xffffffff",
    "0x100000000",
    "0x7fffffffffffffff",
    "0x8000000000000000",
    "0xffffffffffffffff",
    "017777777777",
    "020000000000",
    "037777777777",
    "040000000000",
    "1u",
    "2147483648u",
    "4294967296u",
    "1l",
    "2147483647l",
    "2147483648l",
    "0x80000000l",
    "0xffffffffl",
    "4294967296l",
    "0x100000000l",
    "0x8000000000000000l",
    "1ul",
    "4294967296ul",
    "0xffffffffffffffffUL",
    "1ll",
    "0x8000000000000000ll",
    "1ull",
    "1L << 31",
    "1u << 31",
    "1LL << 40",
    "-2147483648",
    "-2147483649",
    "-0x80000000",
    "'a'",
    "'\\377'",
    "'\\200'",
    "'\\x7f'",
    "'ab'",
    "'\\377\\377'",
    "'abcd'",
    "(char)1",
    "(char)1 + 1",
    "(unsigned char)1 + 0",
    "(unsigned short)1 + 0",
    "(short)1 + (unsigned short)1",
    "(_Bool)1 + 0",
    "1u + 1L",
    "1u + 1LL",
    "1ul + 1LL",
    "1L + 1ull",
    "1u + 2147483648",
    "(long)1 + 1u",
    "(unsigned)1 + (long long)1",
    "1 ? 1u : 1L",
    "1 ? (char)1 : (short)1",
    "~(unsigned char)0",
    "-(unsigned short)1",
    "-1u",
    "!1L",
    "1L == 1L",
    "1L < 1u",
    "-1L < 1u",
    "-1 < 0u",
    "-1LL < 1u",
    "-1L < 1UL",
    "-1L < 4294967295u",
    "(long)1 << 1u",
    "1 << 1L",
    "1u >> 1LL",
    "(unsigned char)1 << 1",
    "sizeof(int)",
    "sizeof(char) * 2u",
    "sizeof(int) - 8",
    "(char)200",
    "(signed char)200",
    "(unsigned char)300",
    "(short)40000",
    "(unsigned short)-1",
    "(unsigned)-1",
    "(long)-1",
    "(unsigned long)-1",
    "(int)-1.5",
    "(unsigned char)255.9",
    "(_Bool)0.5",
    "(long long)-9.2e18",
    "(unsigned long long)1.8e19",
    "E_SMALL",
    "E_BIG",
    "(__WCHAR_TYPE__)-1",
    "(__WINT_TYPE__)-1",
    "(wchar_t)0",
    "(size_t)0",
    "(ptrdiff_t)0",
    "CHAR_BIT",
    "SCHAR_MIN",
    "SCHAR_MAX",
    "UCHAR_MAX",
    "CHAR_MIN",
    "CHAR_MAX",
    "SHRT_MIN",
    "SHRT_MAX",
    "USHRT_MAX",
    "INT_MIN",
    "INT_MAX",
    "UINT_MAX",
    "LONG_MIN",
    "LONG_MAX",
    "ULONG_MAX",
    "LLONG_MIN",
    "LLONG_MAX",
    "ULLONG_MAX",
    "INT8_MIN",
    "INT8_MAX",
    "UINT8_MAX",
    "INT16_MIN",
    "INT16_MAX",
    "UINT16_MAX",
    "INT32_MIN",
    "INT32_MAX",
    "UINT32_MAX",
    "INT64_MIN",
    "INT64_MAX",
    "UINT64_MAX",
    "INT_LEAST8_MIN",
    "INT_LEAST8_MAX",
    "UINT_LEAST8_MAX",
    "INT_LEAST16_MIN",
    "INT_LEAST16_MAX",
    "UINT_LEAST16_MAX",
    "INT_LEAST32_MIN",
    "INT_LEAST32_MAX",
    "UINT_LEAST32_MAX",
    "INT_LEAST64_MIN",
    "INT_LEAST64_MAX",
    "UINT_LEAST64_MAX",
    "INT_FAST8_MIN",
    "INT_FAST8_MAX",
    "UINT_FAST8_MAX",
    "INT_FAST16_MIN",
    "INT_FAST16_MAX",
    "UINT_FAST16_MAX",
    "INT_FAST32_MIN",
    "INT_FAST32_MAX",
    "UINT_FAST32_MAX",
    "INT_FAST64_MIN",
    "INT_FAST64_MAX",
    "UINT_FAST64_MAX",
    "INTPTR_MIN",
    "INTPTR_MAX",
    "UINTPTR_MAX",
    "INTMAX_MIN",
    "INTMAX_MAX",
    "UINTMAX_MAX",
    "PTRDIFF_MIN",
    "PTRDIFF_MAX",
    "SIZE_MAX",
    "SIG_ATOMIC_MIN",
    "SIG_ATOMIC_MAX",
    "WCHAR_MIN",
    "WCHAR_MAX",
    "WINT_MIN",
    "WINT_MAX",
    "INT8_C(1)",
    "INT16_C(1)",
    "INT32_C(1)",
    "INT64_C(1)",
    "UINT8_C(1)",
    "UINT16_C(1)",
    "UINT32_C(1)",
    "UINT64_C(1)",
    "INTMAX_C(1)",
    "UINTMAX_C(1)",
    "FLT_RADIX",
    "FLT_MANT_DIG",
    "FLT_DIG",
    "FLT_MIN_EXP",
    "FLT_MIN_10_EXP",
    "FLT_MAX_EXP",
    "FLT_MAX_10_EXP",
    "DBL_MANT_DIG",
    "DBL_DIG",
    "DBL_MIN_EXP",
    "DBL_MIN_10_EXP",
    "DBL_MAX_EXP",
    "DBL_MAX_10_EXP",
];

/// Expressions only typed (they are not constants): promotions of bit-fields of every
/// width up to `int`'s (gcc: a bit-field narrower than `int` promotes to `int`; one as
/// wide as `int` keeps a declared type of that width, else becomes `(unsigned) int`);
/// wider ones are in `KNOWN_DIFFERENCES`.
const TYPE_ONLY_EXPRS: &[&str] = &[
    "bfv.u5 + 0",
    "bfv.u31 + 0",
    "bfv.u32 + 0",
    "bfv.i32 + 0",
    "bfv.c3 + 0",
    "bfv.uc8 + 0",
    "bfv.us16 + 0",
    "bfv.ul31 + 0",
    "bfv.ul32 + 0",
    "bfv.b + 0",
    "-bfv.u5",
    "~bfv.u32",
    "bfv.u5 << 1",
    "bfv.ul32 >> 1",
    "bfv.u5 ? bfv.u5 : 0u",
];

/// Known differences, not fixed (with the reason); the test checks that gcc still
/// types them as it did when they were found (as none of `GENERIC_TYPES`), so a change
/// on either side is noticed. gcc gives a bit-field wider than `int` but narrower than
/// its declared type a type of exactly its width, and computes in it:
/// `s.ul40 + 1` is `(s.ul40 + 1) & 0xffffffffff` in gcc's x86_64 code (`andq` with
/// 1099511627775); phicc has no such types and keeps the declared type, but reproduces
/// gcc's values (`parse/wide_bitfield.rs`, checked against gcc by
/// `corpus/c/bitfield_wide.c`): only the *type* differs.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("bfv.l40 + 0", "gcc: a 40-bit type (long long:40)"),
    ("bfv.ul40 + 0", "gcc: a 40-bit type (unsigned long long:40)"),
    ("bfv.l40", "gcc: a 40-bit type (long long:40)"),
];

/// Decimal constants above `LLONG_MAX`: gcc gives them its widest signed literal type,
/// `long long` on i686 (compared like `INT_EXPRS` there) and `__int128` on the LP64
/// targets, which phicc lacks and must reject (checked against gcc's `sizeof` and sign).
const TOO_LARGE_DECIMALS: &[&str] = &["9223372036854775808", "18446744073709551615"];

/// Floating constant expressions: their bytes as `float` (`f`) or `double` (`d`) and
/// their type are compared.
const FLOAT_EXPRS: &[(&str, char)] = &[
    ("0.1f", 'f'),
    ("1e-45f", 'f'),
    ("3.4028235e38f", 'f'),
    ("0x1.fffffep+127f", 'f'),
    ("(float)0.1", 'f'),
    ("(float)16777217", 'f'),
    ("1.0000000596046447753906251f", 'f'),
    ("(float)1152921573326323713LL", 'f'),
    ("(float)18446744073709551615ULL", 'f'),
    ("(float)-9223372036854775807LL", 'f'),
    ("(float)(double)0.1f", 'f'),
    ("1152921573326323713LL", 'f'),
    ("FLT_MAX", 'f'),
    ("FLT_MIN", 'f'),
    ("FLT_EPSILON", 'f'),
    ("0.1", 'd'),
    ("1e-320", 'd'),
    ("1.7976931348623157e308", 'd'),
    ("(double)9007199254740993LL", 'd'),
    ("(double)18446744073709551615ULL", 'd'),
    ("(double)-1", 'd'),
    ("1.0f + 1", 'd'),
    ("DBL_MAX", 'd'),
    ("DBL_MIN", 'd'),
    ("DBL_EPSILON", 'd'),
];

/// `<limits.h>`/`<stdint.h>`/`<float.h>` macros phicc deliberately defines differently
/// from glibc, with the reason; they are not in the lists above (for the record).
#[allow(dead_code)]
const HEADER_MACRO_EXCEPTIONS: &[(&str, &str)] = &[
    ("MB_LEN_MAX", "phicc has only the C locale: 1 (glibc: 16)"),
    (
        "FLT_EVAL_METHOD",
        "phicc evaluates floats in their own type, also on i686: 0 (gcc i686: 2, x87)",
    ),
    (
        "DECIMAL_DIG",
        "phicc has no long double arithmetic: 17, double's (gcc: long double's)",
    ),
    ("FLT_ROUNDS", "glibc's is not a constant expression"),
];

/// The names `_Generic` tells apart, in code order (`-1`: anything else).
const GENERIC_TYPES: [&str; 15] = [
    "_Bool",
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "float",
    "double",
    "long double",
];

const PRELUDE: &str = "#include <stddef.h>\n#include <stdint.h>\n#include <limits.h>\n\
    #include <float.h>\n\
    enum e_small { E_SMALL = 1 };\nenum e_big { E_BIG = 0x80000000 };\n\
    struct bfs { unsigned u5 : 5; unsigned u31 : 31; unsigned u32 : 32; int i32 : 32; \
    char c3 : 3; unsigned char uc8 : 8; unsigned short us16 : 16; unsigned long ul31 : 31; \
    unsigned long ul32 : 32; long long l40 : 40; unsigned long long ul40 : 40; \
    _Bool b : 1; };\nextern struct bfs bfv;\n";

/// The integer expressions compared on `target`.
fn int_exprs(target: Target) -> Vec<&'static str> {
    let mut v: Vec<&str> = INT_EXPRS.to_vec();
    if !target.is_lp64() {
        v.extend_from_slice(TOO_LARGE_DECIMALS);
    }
    v
}

/// The part of the program both compilers see: the globals whose bytes are compared.
fn value_program(target: Target) -> String {
    let mut s = String::from(PRELUDE);
    for (k, &(decl, arith)) in TYPES.iter().enumerate() {
        let _ = writeln!(s, "typedef {};", decl.replace('@', &format!("t{k}")));
        let _ = writeln!(s, "struct a{k} {{ char c; t{k} m; }};");
        let _ = writeln!(
            s,
            "unsigned long long size{k}[] = {{ sizeof(t{k}), __alignof__(t{k}), \
             __builtin_offsetof(struct a{k}, m), sizeof(struct a{k}), \
             __alignof__(struct a{k}) }};"
        );
        if arith {
            let _ = writeln!(s, "int signed{k} = (t{k})-1 < (t{k})0;");
        }
    }
    for (k, e) in int_exprs(target).iter().enumerate() {
        let _ = writeln!(s, "unsigned long long int{k} = (unsigned long long)({e});");
        let _ = writeln!(s, "int int_size{k} = sizeof({e});");
        let _ = writeln!(s, "int int_neg{k} = ({e}) - ({e}) - 1 < 0;");
    }
    for (k, &(e, kind)) in FLOAT_EXPRS.iter().enumerate() {
        let ty = if kind == 'f' { "float" } else { "double" };
        let _ = writeln!(s, "{ty} flt{k} = {e};");
    }
    s.push_str(
        "int char_signed = (char)-1 < 0;\n\
         int char_ff = '\\xff';\n\
         int wchar_signed = (__WCHAR_TYPE__)-1 < 0;\n\
         int wint_signed = (__WINT_TYPE__)-1 < 0;\n",
    );
    s
}

/// Every expression whose type is compared: the integer and floating ones.
fn typed_exprs(target: Target) -> Vec<&'static str> {
    let mut v = int_exprs(target);
    v.extend(FLOAT_EXPRS.iter().map(|&(e, _)| e));
    v.extend_from_slice(TYPE_ONLY_EXPRS);
    v
}

/// gcc's program: the values; `type<k>` = the `_Generic` code of expression k; on LP64
/// `wide<k>` = whether too-large decimal k is a signed 16-byte integer (`__int128`).
fn gcc_program(target: Target) -> String {
    let mut s = value_program(target);
    if target.is_lp64() {
        for (k, e) in TOO_LARGE_DECIMALS.iter().enumerate() {
            let _ = writeln!(
                s,
                "int wide{k} = sizeof({e}) == 16 && ({e}) - ({e}) - 1 < 0;"
            );
        }
    }
    let assoc: Vec<String> = GENERIC_TYPES
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{t}: {i}"))
        .collect();
    for (k, e) in typed_exprs(target).iter().enumerate() {
        let _ = writeln!(
            s,
            "int type{k} = _Generic(({e}), {}, default: -1);",
            assoc.join(", ")
        );
    }
    for (k, (e, _)) in KNOWN_DIFFERENCES.iter().enumerate() {
        let _ = writeln!(
            s,
            "int known{k} = _Generic(({e}), {}, default: -1);",
            assoc.join(", ")
        );
    }
    s
}

/// phicc's program: the values, and `type<k>` declared as `__typeof__` expression k.
fn phicc_program(target: Target) -> String {
    let mut s = value_program(target);
    for (k, e) in typed_exprs(target).iter().enumerate() {
        let _ = writeln!(s, "__typeof__({e}) type{k};");
    }
    s
}

/// The `_Generic` code of a phicc type (as `GENERIC_TYPES`).
fn generic_code(ty: &Type) -> i64 {
    use compiler::frontend::types::FloatKind;
    let name = match ty {
        Type::Bool => "_Bool",
        Type::Int(k) => match k {
            IntKind::Char => "char",
            IntKind::SChar => "signed char",
            IntKind::UChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::UInt => "unsigned int",
            IntKind::Long => "long",
            IntKind::ULong => "unsigned long",
            IntKind::LongLong => "long long",
            IntKind::ULongLong => "unsigned long long",
        },
        Type::Float(FloatKind::Float) => "float",
        Type::Float(FloatKind::Double) => "double",
        Type::Float(FloatKind::LongDouble) => "long double",
        _ => return -1,
    };
    GENERIC_TYPES
        .iter()
        .position(|t| *t == name)
        .map_or(-1, |p| p as i64)
}

fn target_options(target: Target) -> PreprocessOptions {
    PreprocessOptions {
        target,
        ..default_options()
    }
}

/// Names the globals of the value program (for messages): `size3` -> the type.
fn describe(name: &str, target: Target) -> String {
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (kind, index) = name.split_at(split);
    let Ok(k) = index.parse::<usize>() else {
        return name.to_string();
    };
    let what = match kind {
        "size" | "signed" => TYPES.get(k).map(|t| t.0.replace(" @", "").replace('@', "")),
        "int" | "int_size" | "int_neg" => int_exprs(target).get(k).map(|e| e.to_string()),
        "flt" => FLOAT_EXPRS.get(k).map(|e| e.0.to_string()),
        "type" => typed_exprs(target).get(k).map(|e| e.to_string()),
        _ => None,
    };
    match (kind, what) {
        ("size", Some(w)) => format!(
            "{name} ({w}: sizeof, __alignof__, offset after char, struct size, struct \
             __alignof__)"
        ),
        (_, Some(w)) => format!("{name} ({w})"),
        _ => name.to_string(),
    }
}

/// phicc's parse of `text` for `target`; its error as `Err(headline)`.
fn phicc_parse(
    text: &str,
    target: Target,
) -> Result<compiler::frontend::parse::ParseOutput, String> {
    let pp = preprocess_str("facts.c", text, &target_options(target)).map_err(|e| e.headline())?;
    parse_translation_unit(pp.tokens, &pp.sources, target).map_err(|e| e.headline())
}

#[test]
fn values_and_types_match_gcc_on_all_four_targets() {
    let dir = scratch_dir("target_facts_values");
    let mut mismatches = Vec::new();
    for target in Target::ALL {
        let t = target.name();
        // The globals of the value program, in order, from phicc's parse of it.
        let value_names: Vec<String> = phicc_parse(&value_program(target), target)
            .unwrap_or_else(|e| panic!("phicc ({t}): {e}"))
            .unit
            .globals
            .iter()
            .filter(|g| !g.is_extern_only)
            .map(|g| g.name.clone())
            .collect();
        assert!(value_names.len() > 400, "the value program has its globals");
        let asm = gcc_asm(target, &gcc_program(target), &[], &dir, t);
        let gcc = data_objects(&asm, target);
        let gcc_int = |name: &str| -> i64 {
            let b = gcc
                .get(name)
                .unwrap_or_else(|| panic!("{t}: gcc emitted no {name}"));
            i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let out = phicc_parse(&phicc_program(target), target)
            .unwrap_or_else(|e| panic!("phicc ({t}): {e}"));
        let records = &out.unit.records;
        let ours: HashMap<&str, &compiler::frontend::ast::GlobalVar> = out
            .unit
            .globals
            .iter()
            .map(|g| (g.name.as_str(), g))
            .collect();
        for name in &value_names {
            let want = gcc
                .get(name)
                .unwrap_or_else(|| panic!("{t}: gcc emitted no {name}"));
            let g = ours.get(name.as_str()).expect("phicc global");
            let size = g.ty.ty.size(target, records).expect("complete type") as usize;
            let got = g
                .init
                .as_ref()
                .map_or_else(|| vec![0; size], |i| i.bytes.clone());
            if *want != got {
                mismatches.push(format!(
                    "{t}: {}: gcc {want:02x?}, phicc {got:02x?}",
                    describe(name, target)
                ));
            }
        }
        for k in 0..typed_exprs(target).len() {
            let name = format!("type{k}");
            let want = gcc_int(&name);
            let got = ours
                .get(name.as_str())
                .map(|g| generic_code(&g.ty.ty))
                .expect("phicc global");
            if want != got {
                let show = |c: i64| {
                    usize::try_from(c)
                        .ok()
                        .and_then(|c| GENERIC_TYPES.get(c))
                        .copied()
                        .unwrap_or("other")
                };
                mismatches.push(format!(
                    "{t}: type of {}: gcc {}, phicc {}",
                    describe(&name, target),
                    show(want),
                    show(got)
                ));
            }
        }
        for (k, (e, why)) in KNOWN_DIFFERENCES.iter().enumerate() {
            assert_eq!(
                gcc_int(&format!("known{k}")),
                -1,
                "{t}: gcc's type of {e} ({why})"
            );
        }
        if target.is_lp64() {
            for (k, e) in TOO_LARGE_DECIMALS.iter().enumerate() {
                assert_eq!(gcc_int(&format!("wide{k}")), 1, "{t}: gcc's type of {e}");
                match phicc_parse(&format!("int x = {e};"), target) {
                    Err(m) if m.contains("'__int128'") => {}
                    other => mismatches.push(format!(
                        "{t}: {e} is __int128 in gcc; phicc must reject it, got {:?}",
                        other.map(|_| "accepted")
                    )),
                }
            }
        }
    }
    assert_no_differences(&mismatches);
}

/// Words and single other characters, space-separated: compares gcc's spacing with
/// phicc's.
fn normalize(value: &str) -> String {
    // gcc writes the `double` limits as `long double` literals cast to `double`
    // (`((double)1.79...e+308L)`); phicc has no `long double` and drops the `L`: the
    // same value once cast.
    let value = &value
        .replace("e+308L)", "e+308)")
        .replace("e-308L)", "e-308)")
        .replace("e-16L)", "e-16)")
        .replace("e-324L)", "e-324)");
    let mut parts: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in value.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            parts.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            parts.push(c.to_string());
        }
    }
    if !word.is_empty() {
        parts.push(word);
    }
    parts.join(" ")
}

/// phicc's predefined macros for `target`: the `#define` lines of its `<built-in>`
/// file, as (name, value).
fn phicc_predefined(target: Target) -> Vec<(String, String)> {
    let pp = preprocess_str("empty.c", "", &target_options(target))
        .unwrap_or_else(|e| panic!("phicc: {}", e.headline()));
    // `<built-in>` is registered twice: once empty (the location of `__FILE__` and
    // the other builtins), once with the `#define` lines.
    let text: String = (0..pp.sources.len())
        .filter_map(|i| pp.sources.get(compiler::frontend::FileId(i as u32)))
        .filter(|f| f.name == "<built-in>")
        .map(|f| format!("{}\n", f.text))
        .collect();
    text.lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .map(|d| {
            let (name, value) = d.split_once(' ').unwrap_or((d, ""));
            (name.to_string(), value.to_string())
        })
        .collect()
}

#[test]
fn predefined_macros_have_gcc_values_on_all_four_targets() {
    let mut mismatches = Vec::new();
    for target in Target::ALL {
        let gcc = gcc_predefined(target);
        let ours = phicc_predefined(target);
        assert!(
            ours.len() > 50,
            "{}: phicc's predefined macros: {ours:?}",
            target.name()
        );
        for (name, value) in ours {
            if name == "__phicc__" {
                continue;
            }
            match gcc.get(&name) {
                None => mismatches.push(format!(
                    "{}: phicc defines {name} as `{value}`, gcc does not define it",
                    target.name()
                )),
                Some(g) if normalize(g) != normalize(&value) => mismatches.push(format!(
                    "{}: {name}: gcc `{g}`, phicc `{value}`",
                    target.name()
                )),
                Some(_) => {}
            }
        }
    }
    assert_no_differences(&mismatches);
}
