//! Predefined macros: the standard ones, the target's, and `-D` definitions, written as
//! `#define` lines of the virtual files `<built-in>` and `<command-line>`.
//!
//! Why it exists: one place says what a translation unit sees before its first line,
//! so the target macros always agree with `Target`'s data model and gcc's spellings.
//!
//! Invariants: the text is plain `#define` directives (processed by the ordinary
//! directive code, so a bad `-D` is reported like a bad `#define`, at
//! `<command-line>:N:COL`); `__DATE__`/`__TIME__` are fixed for reproducible output
//! (they and `__FILE__`/`__LINE__` are builtins of the macro table, not text).

use crate::target::Target;
use std::fmt::Write;

/// `__DATE__` and `__TIME__`: fixed, so that output never depends on the clock.
pub(super) const FIXED_DATE: &str = "\"Jan  1 1970\"";
pub(super) const FIXED_TIME: &str = "\"00:00:00\"";

/// gcc's predefined `float`/`double` macros (IEEE binary32/binary64 on every target; the
/// values as exact hexadecimal constants, equal to gcc's decimal spellings).
/// `__FLT_EVAL_METHOD__` is 0: phicc evaluates each operation in its own type, also on
/// i686 (docs/c-floats.md; gcc with `-msse2 -mfpmath=sse`). No `__LDBL_*__`: `long double`
/// is not supported. The float limits are gcc's decimal texts, each read correctly rounded
/// in its type; the `double` ones without gcc's `L` suffix (a `long double` literal here).
const FLOAT_MACROS: &[(&str, &str)] = &[
    ("__FLT_EVAL_METHOD__", "0"),
    ("__FLT_RADIX__", "2"),
    ("__FLT_MANT_DIG__", "24"),
    ("__FLT_DIG__", "6"),
    ("__FLT_MIN_EXP__", "(-125)"),
    ("__FLT_MIN_10_EXP__", "(-37)"),
    ("__FLT_MAX_EXP__", "128"),
    ("__FLT_MAX_10_EXP__", "38"),
    ("__FLT_DECIMAL_DIG__", "9"),
    ("__FLT_MAX__", "3.40282346638528859811704183484516925e+38F"),
    ("__FLT_MIN__", "1.17549435082228750796873653722224568e-38F"),
    (
        "__FLT_NORM_MAX__",
        "3.40282346638528859811704183484516925e+38F",
    ),
    (
        "__FLT_EPSILON__",
        "1.19209289550781250000000000000000000e-7F",
    ),
    (
        "__FLT_DENORM_MIN__",
        "1.40129846432481707092372958328991613e-45F",
    ),
    ("__FLT_HAS_DENORM__", "1"),
    ("__FLT_HAS_INFINITY__", "1"),
    ("__FLT_HAS_QUIET_NAN__", "1"),
    ("__DBL_MANT_DIG__", "53"),
    ("__DBL_DIG__", "15"),
    ("__DBL_MIN_EXP__", "(-1021)"),
    ("__DBL_MIN_10_EXP__", "(-307)"),
    ("__DBL_MAX_EXP__", "1024"),
    ("__DBL_MAX_10_EXP__", "308"),
    ("__DBL_DECIMAL_DIG__", "17"),
    (
        "__DBL_MAX__",
        "((double)1.79769313486231570814527423731704357e+308)",
    ),
    (
        "__DBL_MIN__",
        "((double)2.22507385850720138309023271733240406e-308)",
    ),
    (
        "__DBL_NORM_MAX__",
        "((double)1.79769313486231570814527423731704357e+308)",
    ),
    (
        "__DBL_EPSILON__",
        "((double)2.22044604925031308084726333618164062e-16)",
    ),
    (
        "__DBL_DENORM_MIN__",
        "((double)4.94065645841246544176568792868221372e-324)",
    ),
    ("__DBL_HAS_DENORM__", "1"),
    ("__DBL_HAS_INFINITY__", "1"),
    ("__DBL_HAS_QUIET_NAN__", "1"),
];

/// The `<built-in>` file: standard and target macros.
pub(super) fn builtin_source(target: Target) -> String {
    let lp64 = target.is_lp64();
    let mut defs: Vec<(&str, String)> = vec![
        ("__STDC__", "1".into()),
        ("__STDC_VERSION__", "199901L".into()),
        ("__STDC_HOSTED__", "1".into()),
        ("__phicc__", "1".into()),
        ("__linux__", "1".into()),
        ("__linux", "1".into()),
        ("__gnu_linux__", "1".into()),
        ("__unix__", "1".into()),
        ("__unix", "1".into()),
        ("__ELF__", "1".into()),
        ("__CHAR_BIT__", "8".into()),
        ("__SIZEOF_SHORT__", target.sizeof_short().to_string()),
        ("__SIZEOF_INT__", target.sizeof_int().to_string()),
        ("__SIZEOF_LONG__", target.sizeof_long().to_string()),
        (
            "__SIZEOF_LONG_LONG__",
            target.sizeof_long_long().to_string(),
        ),
        ("__SIZEOF_POINTER__", target.sizeof_pointer().to_string()),
        ("__SIZEOF_FLOAT__", target.sizeof_float().to_string()),
        ("__SIZEOF_DOUBLE__", target.sizeof_double().to_string()),
        (
            "__SIZEOF_LONG_DOUBLE__",
            target.sizeof_long_double().to_string(),
        ),
        ("__SIZEOF_SIZE_T__", target.sizeof_pointer().to_string()),
        ("__SIZEOF_PTRDIFF_T__", target.sizeof_pointer().to_string()),
        ("__SIZEOF_WCHAR_T__", "4".into()),
        ("__SIZEOF_WINT_T__", "4".into()),
        ("__ORDER_LITTLE_ENDIAN__", "1234".into()),
        ("__ORDER_BIG_ENDIAN__", "4321".into()),
        ("__ORDER_PDP_ENDIAN__", "3412".into()),
        ("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__".into()),
        ("__SCHAR_MAX__", "0x7f".into()),
        ("__SHRT_MAX__", "0x7fff".into()),
        ("__INT_MAX__", "0x7fffffff".into()),
        (
            "__LONG_MAX__",
            if lp64 {
                "0x7fffffffffffffffL"
            } else {
                "0x7fffffffL"
            }
            .into(),
        ),
        ("__LONG_LONG_MAX__", "0x7fffffffffffffffLL".into()),
        (
            "__INTMAX_MAX__",
            if lp64 {
                "0x7fffffffffffffffL"
            } else {
                "0x7fffffffffffffffLL"
            }
            .into(),
        ),
        (
            "__UINTMAX_MAX__",
            if lp64 {
                "0xffffffffffffffffUL"
            } else {
                "0xffffffffffffffffULL"
            }
            .into(),
        ),
        (
            "__SIZE_MAX__",
            if lp64 {
                "0xffffffffffffffffUL"
            } else {
                "0xffffffffU"
            }
            .into(),
        ),
        (
            "__PTRDIFF_MAX__",
            if lp64 {
                "0x7fffffffffffffffL"
            } else {
                "0x7fffffff"
            }
            .into(),
        ),
        (
            "__INTPTR_MAX__",
            if lp64 {
                "0x7fffffffffffffffL"
            } else {
                "0x7fffffff"
            }
            .into(),
        ),
        (
            "__UINTPTR_MAX__",
            if lp64 {
                "0xffffffffffffffffUL"
            } else {
                "0xffffffffU"
            }
            .into(),
        ),
        ("__SIZE_TYPE__", target.size_type().into()),
        ("__PTRDIFF_TYPE__", target.ptrdiff_type().into()),
        ("__WCHAR_TYPE__", target.wchar_type().into()),
        ("__WINT_TYPE__", target.wint_type().into()),
        ("__INTMAX_TYPE__", target.intmax_type().into()),
        ("__UINTMAX_TYPE__", target.uintmax_type().into()),
        ("__INTPTR_TYPE__", target.intptr_type().into()),
        ("__UINTPTR_TYPE__", target.uintptr_type().into()),
        ("__INT8_TYPE__", "signed char".into()),
        ("__INT16_TYPE__", "short int".into()),
        ("__INT32_TYPE__", "int".into()),
        ("__INT64_TYPE__", target.int64_type().into()),
        ("__UINT8_TYPE__", "unsigned char".into()),
        ("__UINT16_TYPE__", "short unsigned int".into()),
        ("__UINT32_TYPE__", "unsigned int".into()),
        ("__UINT64_TYPE__", target.uint64_type().into()),
        ("__CHAR16_TYPE__", "short unsigned int".into()),
        ("__CHAR32_TYPE__", "unsigned int".into()),
        ("__SIG_ATOMIC_TYPE__", "int".into()),
    ];
    defs.extend(least_and_fast_types(target));
    match (target.wchar_is_signed(), target) {
        (false, _) => {
            defs.push(("__WCHAR_MAX__", "0xffffffffU".into()));
            defs.push(("__WCHAR_MIN__", "0U".into()));
        }
        (true, Target::I686) => {
            defs.push(("__WCHAR_MAX__", "0x7fffffffL".into()));
            defs.push(("__WCHAR_MIN__", "(-__WCHAR_MAX__ - 1)".into()));
        }
        (true, _) => {
            defs.push(("__WCHAR_MAX__", "0x7fffffff".into()));
            defs.push(("__WCHAR_MIN__", "(-__WCHAR_MAX__ - 1)".into()));
        }
    }
    if lp64 {
        defs.push(("__LP64__", "1".into()));
        defs.push(("_LP64", "1".into()));
    } else {
        defs.push(("__ILP32__", "1".into()));
        defs.push(("_ILP32", "1".into()));
    }
    if !target.char_is_signed() {
        defs.push(("__CHAR_UNSIGNED__", "1".into()));
    }
    let arch: &[(&str, &str)] = match target {
        Target::X86_64 => &[
            ("__x86_64__", "1"),
            ("__x86_64", "1"),
            ("__amd64__", "1"),
            ("__amd64", "1"),
        ],
        Target::I686 => &[
            ("__i386__", "1"),
            ("__i386", "1"),
            ("__i686__", "1"),
            ("__i686", "1"),
        ],
        Target::Aarch64 => &[("__aarch64__", "1")],
        Target::Riscv64 => &[("__riscv", "1"), ("__riscv_xlen", "64")],
    };
    defs.extend(arch.iter().map(|&(n, v)| (n, v.to_string())));
    defs.extend(FLOAT_MACROS.iter().map(|&(n, v)| (n, v.to_string())));
    let mut text = String::new();
    for (name, value) in defs {
        let _ = writeln!(text, "#define {name} {value}");
    }
    text
}

/// gcc's `__INT_LEASTn_TYPE__`, `__UINT_LEASTn_TYPE__`, `__INT_FASTn_TYPE__` and
/// `__UINT_FASTn_TYPE__` (the types of `<stdint.h>`'s `int_leastN_t` and `int_fastN_t`),
/// as `TARGET-gcc -dM -E - </dev/null` spells them for the four targets: the least types
/// are the exact-width ones; `fast8` is `char`; `fast16` and `fast32` are the word
/// (`long` on the LP64 targets, `int` on i686); `fast64` is the 64-bit type.
fn least_and_fast_types(target: Target) -> Vec<(&'static str, String)> {
    let word_signed = target.ptrdiff_type();
    let word_unsigned = target.size_type();
    vec![
        ("__INT_LEAST8_TYPE__", "signed char".into()),
        ("__INT_LEAST16_TYPE__", "short int".into()),
        ("__INT_LEAST32_TYPE__", "int".into()),
        ("__INT_LEAST64_TYPE__", target.int64_type().into()),
        ("__UINT_LEAST8_TYPE__", "unsigned char".into()),
        ("__UINT_LEAST16_TYPE__", "short unsigned int".into()),
        ("__UINT_LEAST32_TYPE__", "unsigned int".into()),
        ("__UINT_LEAST64_TYPE__", target.uint64_type().into()),
        ("__INT_FAST8_TYPE__", "signed char".into()),
        ("__INT_FAST16_TYPE__", word_signed.into()),
        ("__INT_FAST32_TYPE__", word_signed.into()),
        ("__INT_FAST64_TYPE__", target.int64_type().into()),
        ("__UINT_FAST8_TYPE__", "unsigned char".into()),
        ("__UINT_FAST16_TYPE__", word_unsigned.into()),
        ("__UINT_FAST32_TYPE__", word_unsigned.into()),
        ("__UINT_FAST64_TYPE__", target.uint64_type().into()),
    ]
}

/// The `<command-line>` file: `-D NAME` (value 1) and `-D NAME=VALUE`, in order. A
/// newline in a value would end the directive, so it becomes a space.
pub(super) fn command_line_source(defines: &[(String, Option<String>)]) -> String {
    let mut text = String::new();
    for (name, value) in defines {
        let value = value.as_deref().unwrap_or("1").replace(['\n', '\r'], " ");
        let name = name.replace(['\n', '\r'], " ");
        let _ = writeln!(text, "#define {name} {value}");
    }
    text
}
