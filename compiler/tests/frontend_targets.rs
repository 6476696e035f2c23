//! Predefined target macros and the `Target` data model: a hand-written table for
//! every target (the values gcc uses on Linux), and a differential check of every
//! predefined macro against the machine's gcc for x86_64 and `-m32` (i686); a missing
//! gcc fails with the way to install it.

mod frontend_support;

use compiler::frontend::{preprocess_str, Target};
use frontend_support::{opts, pp_with};
use std::io::Write;
use std::process::{Command, Stdio};

/// Every macro phicc predefines apart from `__phicc__` (gcc's own values are the
/// reference for these).
const PREDEFINED: &[&str] = &[
    "__STDC__",
    "__STDC_VERSION__",
    "__STDC_HOSTED__",
    "__linux__",
    "__linux",
    "__gnu_linux__",
    "__unix__",
    "__unix",
    "__ELF__",
    "__CHAR_BIT__",
    "__SIZEOF_SHORT__",
    "__SIZEOF_INT__",
    "__SIZEOF_LONG__",
    "__SIZEOF_LONG_LONG__",
    "__SIZEOF_POINTER__",
    "__SIZEOF_FLOAT__",
    "__SIZEOF_DOUBLE__",
    "__SIZEOF_LONG_DOUBLE__",
    "__SIZEOF_SIZE_T__",
    "__SIZEOF_PTRDIFF_T__",
    "__SIZEOF_WCHAR_T__",
    "__SIZEOF_WINT_T__",
    "__ORDER_LITTLE_ENDIAN__",
    "__ORDER_BIG_ENDIAN__",
    "__ORDER_PDP_ENDIAN__",
    "__BYTE_ORDER__",
    "__SCHAR_MAX__",
    "__SHRT_MAX__",
    "__INT_MAX__",
    "__LONG_MAX__",
    "__LONG_LONG_MAX__",
    "__INTMAX_MAX__",
    "__UINTMAX_MAX__",
    "__SIZE_MAX__",
    "__PTRDIFF_MAX__",
    "__INTPTR_MAX__",
    "__UINTPTR_MAX__",
    "__SIZE_TYPE__",
    "__PTRDIFF_TYPE__",
    "__WCHAR_TYPE__",
    "__WINT_TYPE__",
    "__INTMAX_TYPE__",
    "__UINTMAX_TYPE__",
    "__INTPTR_TYPE__",
    "__UINTPTR_TYPE__",
    "__INT8_TYPE__",
    "__INT16_TYPE__",
    "__INT32_TYPE__",
    "__INT64_TYPE__",
    "__UINT8_TYPE__",
    "__UINT16_TYPE__",
    "__UINT32_TYPE__",
    "__UINT64_TYPE__",
    "__WCHAR_MAX__",
    "__WCHAR_MIN__",
    "__LP64__",
    "_LP64",
    "__ILP32__",
    "_ILP32",
    "__CHAR_UNSIGNED__",
    "__x86_64__",
    "__x86_64",
    "__amd64__",
    "__amd64",
    "__i386__",
    "__i386",
    "__i686__",
    "__i686",
    "__aarch64__",
    "__riscv",
    "__riscv_xlen",
];

/// Words (`[A-Za-z0-9_]+`) and single other characters, space-separated: a neutral
/// normal form for comparing gcc's spacing with phicc's.
fn normalize(line: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in line.chars() {
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

/// One line per macro: `NAME => expansion` (an undefined macro expands to itself).
fn expansions(text_of: impl Fn(&str) -> String) -> Vec<String> {
    let source: String = PREDEFINED.iter().map(|n| format!("{n}\n")).collect();
    let expanded = text_of(&source);
    PREDEFINED
        .iter()
        .zip(expanded.lines())
        .map(|(name, line)| format!("{name} => {}", normalize(line)))
        .collect()
}

fn phicc_expansions(target: Target) -> Vec<String> {
    expansions(|source| {
        let out = preprocess_str("t.c", source, &opts(target)).unwrap();
        // One output line per input line: split where tokens start a line.
        let mut text = String::new();
        for tok in out
            .tokens
            .iter()
            .filter(|t| t.kind != compiler::frontend::TokenKind::Eof)
        {
            if tok.line_start && !text.is_empty() {
                text.push('\n');
            } else if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&tok.spelling);
        }
        text
    })
}

fn gcc_expansions(extra: &[&str]) -> Option<Vec<String>> {
    let mut child = Command::new("gcc")
        .args(["-E", "-P", "-std=c99", "-x", "c", "-"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let source: String = PREDEFINED.iter().map(|n| format!("{n}\n")).collect();
    child.stdin.take()?.write_all(source.as_bytes()).ok()?;
    let output = child.wait_with_output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    Some(expansions(|_| text.clone()))
}

#[test]
fn predefined_macros_match_gcc_on_x86_64_and_i686() {
    for (target, flags) in [(Target::X86_64, &[][..]), (Target::I686, &["-m32"][..])] {
        let Some(gcc) = gcc_expansions(flags) else {
            eprintln!(
                "gcc {flags:?} not available: skipping the differential check for {target:?}"
            );
            continue;
        };
        assert_eq!(phicc_expansions(target), gcc, "{target:?}");
    }
}

#[test]
fn data_model_per_target() {
    // (target, long, pointer, long double, char signed, size_t, wchar_t, intmax_t)
    let table = [
        (
            Target::X86_64,
            8,
            8,
            16,
            true,
            "long unsigned int",
            "int",
            "long int",
        ),
        (
            Target::I686,
            4,
            4,
            12,
            true,
            "unsigned int",
            "long int",
            "long long int",
        ),
        (
            Target::Aarch64,
            8,
            8,
            16,
            false,
            "long unsigned int",
            "unsigned int",
            "long int",
        ),
        (
            Target::Riscv64,
            8,
            8,
            16,
            false,
            "long unsigned int",
            "int",
            "long int",
        ),
    ];
    for (target, long, pointer, long_double, signed, size, wchar, intmax) in table {
        assert_eq!(target.sizeof_int(), 4);
        assert_eq!(target.sizeof_short(), 2);
        assert_eq!(target.sizeof_long_long(), 8);
        assert_eq!(target.sizeof_long(), long);
        assert_eq!(target.sizeof_pointer(), pointer);
        assert_eq!(target.sizeof_long_double(), long_double);
        assert_eq!(target.char_is_signed(), signed);
        assert_eq!(Target::from_name(target.name()), Some(target));
        let text = "__SIZEOF_LONG__ __SIZEOF_POINTER__ __SIZEOF_LONG_DOUBLE__ | __SIZE_TYPE__ | __WCHAR_TYPE__ | __INTMAX_TYPE__";
        let expected = format!("{long} {pointer} {long_double} | {size} | {wchar} | {intmax}");
        assert_eq!(pp_with(text, &opts(target)), expected, "{target:?}");
        let unsigned_char = pp_with("#ifdef __CHAR_UNSIGNED__\nU\n#endif", &opts(target)) == "U";
        assert_eq!(unsigned_char, !signed, "{target:?}");
        let model = pp_with("#if defined(__LP64__) && defined(_LP64)\nLP64\n#elif defined(__ILP32__)\nILP32\n#endif", &opts(target));
        assert_eq!(model, if long == 8 { "LP64" } else { "ILP32" });
    }
    assert_eq!(
        pp_with("__aarch64__ __riscv", &opts(Target::Aarch64)),
        "1 __riscv"
    );
    assert_eq!(
        pp_with("__riscv __riscv_xlen __x86_64__", &opts(Target::Riscv64)),
        "1 64 __x86_64__"
    );
    assert_eq!(
        pp_with("__i386__ __x86_64__", &opts(Target::I686)),
        "1 __x86_64__"
    );
    assert_eq!(
        pp_with("__x86_64__ __i386__", &opts(Target::X86_64)),
        "1 __i386__"
    );
    for target in Target::ALL {
        assert_eq!(
            pp_with(
                "__phicc__ __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__",
                &opts(target)
            ),
            "1 1234 == 1234"
        );
    }
    assert_eq!(Target::from_name("sparc"), None);
}
