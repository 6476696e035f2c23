//! The oracle's printf against the host's glibc: thousands of format specifications
//! (flags, widths, precisions, `*`, length modifiers, every supported conversion) are
//! printed by a C program compiled with `cc` at test time and by the interpreter running
//! the same calls as IR; the bytes and the return values must agree case by case.
//!
//! The C program is built with `-fno-builtin` so gcc does not rewrite the calls: what is
//! compared is glibc's `vfprintf`. Skipped (with a message) when `cc` is not installed.

mod common;
use common::*;
use compiler::ir::IrType;
use std::fmt::Write as _;
use std::process::Command;

/// One variadic argument.
#[derive(Clone, Debug)]
enum Arg {
    Int(IrType, i64),
    Str(&'static str),
    /// A pointer with this integer value (0 is NULL).
    Ptr(u64),
}

struct Case {
    format: String,
    args: Vec<Arg>,
}

fn case(format: impl Into<String>, args: Vec<Arg>) -> Case {
    Case {
        format: format.into(),
        args,
    }
}

fn cases() -> Vec<Case> {
    use Arg::*;
    use IrType::{I32, I64, U32, U64};
    let mut out = Vec::new();
    // Flags x widths x precisions x integer conversions x int values.
    let flags = [
        "", "-", "+", " ", "#", "0", "-0", "+0", " 0", "#0", "-#", "+ ", "-+ #0",
    ];
    let widths = ["", "1", "6"];
    let precisions = ["", ".", ".0", ".1", ".5", ".12"];
    let values = [0i64, 1, -1, 42, i32::MIN as i64, 255];
    for f in flags {
        for w in widths {
            for p in precisions {
                for conv in ["d", "i", "u", "x", "X", "o"] {
                    for &v in &values {
                        let ty = if conv == "d" || conv == "i" { I32 } else { U32 };
                        out.push(case(format!("[%{f}{w}{p}{conv}]"), vec![Int(ty, v)]));
                    }
                }
            }
        }
    }
    // Length modifiers with values that show truncation at each width.
    let patterns = [
        0i64,
        1,
        -1,
        127,
        128,
        255,
        256,
        32767,
        32768,
        65535,
        65536,
        i32::MIN as i64,
        i32::MAX as i64,
        u32::MAX as i64,
        i64::MIN,
        i64::MAX,
    ];
    for len in ["hh", "h", "", "l", "ll", "z", "j", "t"] {
        for conv in ["d", "u", "x", "o"] {
            for spec in ["", "+", "#", "08", "-12", ".3"] {
                for &v in &patterns {
                    let wide = matches!(len, "l" | "ll" | "z" | "j" | "t");
                    let signed = conv == "d";
                    let arg = match (wide, signed) {
                        (false, true) => Int(I32, v as i32 as i64),
                        (false, false) => Int(U32, v as u32 as i64),
                        (true, true) => Int(I64, v),
                        (true, false) => Int(U64, v),
                    };
                    out.push(case(format!("<%{spec}{len}{conv}>"), vec![arg]));
                }
            }
        }
    }
    // Characters.
    for spec in ["", "5", "-5", "05", "+3", ".2"] {
        for v in [65, 0x141, 32, 126] {
            out.push(case(format!("(%{spec}c)"), vec![Int(I32, v)]));
        }
    }
    // Strings.
    for spec in ["", "8", "-8", ".2", "8.2", "-8.0", "08", ".10", "1"] {
        for s in ["", "hello", "a%b"] {
            out.push(case(format!("(%{spec}s)"), vec![Str(s)]));
        }
    }
    // Pointers: NULL prints (nil); others as %#lx of their integer value.
    for spec in [
        "", "20", "-20", "+", " ", "020", ".10", "#", "-+8", ".3", "3",
    ] {
        for p in [0u64, 0x1234, 0xdead_beef, u64::MAX] {
            out.push(case(format!("(%{spec}p)"), vec![Ptr(p)]));
        }
    }
    // Percent signs, with and without flags and widths.
    for f in ["%%", "%5%", "%-5%", "%05%", "a%%b%%"] {
        out.push(case(f, vec![]));
    }
    // Widths and precisions from arguments.
    for (w, p) in [(5, 3), (-5, 3), (0, 0), (5, -1), (-1, -1), (12, 0), (3, 8)] {
        for v in [0i64, 7, -7, 123456] {
            out.push(case("{%*d}", vec![Int(I32, w), Int(I32, v)]));
            out.push(case("{%-*d}", vec![Int(I32, w), Int(I32, v)]));
            out.push(case("{%.*d}", vec![Int(I32, p), Int(I32, v)]));
            out.push(case("{%*.*x}", vec![Int(I32, w), Int(I32, p), Int(U32, v)]));
            out.push(case("{%0*d}", vec![Int(I32, w), Int(I32, v)]));
        }
        out.push(case("{%*s}", vec![Int(I32, w), Str("ab")]));
        out.push(case("{%.*s}", vec![Int(I32, p), Str("abcdef")]));
    }
    // Several conversions in one format.
    out.push(case(
        "%d %s %c %x %p %%",
        vec![
            Int(I32, -3),
            Str("mid"),
            Int(I32, 90),
            Int(U32, 48879),
            Ptr(0),
        ],
    ));
    out
}

/// A C string literal for `s` (printable ASCII plus escapes).
fn c_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => write!(out, "\\{b:03o}").unwrap(),
        }
    }
    out.push('"');
    out
}

/// An IR `str` item for `bytes` (escapes `\HH`).
fn ir_str(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'"' | b'\\' => write!(out, "\\{b:02x}").unwrap(),
            0x20..=0x7e => out.push(b as char),
            _ => write!(out, "\\{b:02x}").unwrap(),
        }
    }
    out.push('"');
    out
}

fn c_arg(a: &Arg) -> String {
    match a {
        Arg::Int(ty, v) => {
            let c_ty = match ty {
                IrType::I32 => "int",
                IrType::U32 => "unsigned int",
                IrType::I64 => "long",
                IrType::U64 => "unsigned long",
                other => panic!("no C type for {other}"),
            };
            let lit = if *v == i64::MIN {
                "(-9223372036854775807LL - 1)".to_string()
            } else {
                format!("{v}LL")
            };
            format!("(({c_ty})({lit}))")
        }
        Arg::Str(s) => c_literal(s),
        Arg::Ptr(p) => format!("((void *){p}UL)"),
    }
}

/// The C program: each case, then its return value between \x02 and \x01.
fn c_program(cases: &[Case]) -> String {
    let mut c = String::from("#include <stdio.h>\nint main(void) {\n  int n;\n");
    for k in cases {
        let mut call = format!("  n = printf({}", c_literal(&k.format));
        for a in &k.args {
            write!(call, ", {}", c_arg(a)).unwrap();
        }
        call.push_str(");\n");
        c.push_str(&call);
        c.push_str("  printf(\"\\002%d\\001\", n);\n");
    }
    c.push_str("  return 0;\n}\n");
    c
}

/// The same program as IR.
fn ir_program(cases: &[Case]) -> String {
    let mut globals = String::new();
    let mut body = String::new();
    let mut next = 0u32;
    let mut fresh = || {
        next += 1;
        next - 1
    };
    let string_global = |name: &str, s: &str, globals: &mut String| {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        writeln!(
            globals,
            "global @{name} : {} align 1 const = [str {}]",
            bytes.len(),
            ir_str(&bytes)
        )
        .unwrap();
    };
    string_global("count", "\x02%d\x01", &mut globals);
    let count = fresh();
    writeln!(body, "    %{count} = globaladdr @count").unwrap();
    for (i, k) in cases.iter().enumerate() {
        string_global(&format!("f{i}"), &k.format, &mut globals);
        let f = fresh();
        writeln!(body, "    %{f} = globaladdr @f{i}").unwrap();
        let mut args = format!("ptr %{f}");
        for (j, a) in k.args.iter().enumerate() {
            match a {
                Arg::Int(ty, v) => write!(args, ", {ty} {v}").unwrap(),
                Arg::Str(s) => {
                    string_global(&format!("s{i}_{j}"), s, &mut globals);
                    let r = fresh();
                    writeln!(body, "    %{r} = globaladdr @s{i}_{j}").unwrap();
                    write!(args, ", ptr %{r}").unwrap();
                }
                Arg::Ptr(p) => {
                    let r = fresh();
                    writeln!(body, "    %{r} = cast u64 {p} to ptr").unwrap();
                    write!(args, ", ptr %{r}").unwrap();
                }
            }
        }
        let n = fresh();
        writeln!(body, "    %{n} = call i32 @printf({args})").unwrap();
        let ignored = fresh();
        writeln!(
            body,
            "    %{ignored} = call i32 @printf(ptr %{count}, i32 %{n})"
        )
        .unwrap();
    }
    format!(
        "{globals}\ndeclare @printf(ptr, ...) -> i32\n\nfunc @main() -> i32 {{\n.LBB0:\n{body}    ret i32 0\n}}\n"
    )
}

#[test]
fn printf_matches_host_libc() {
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("skipping: no `cc` on this machine");
        return;
    }
    let cases = cases();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("printf_host");
    std::fs::create_dir_all(&dir).unwrap();
    let c_file = dir.join("cases.c");
    let exe = dir.join("cases");
    std::fs::write(&c_file, c_program(&cases)).unwrap();
    let build = Command::new("cc")
        .args(["-O0", "-fno-builtin", "-w", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .output()
        .expect("cc runs");
    assert!(
        build.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&build.stderr)
    );
    let host = Command::new(&exe).output().expect("the C program runs");
    assert!(host.status.success());

    let cfg = oracle::RunConfig {
        fuel: u64::MAX,
        ..cfg(8)
    };
    let ours = run_cfg(&ir_program(&cases), "main", &[], &cfg);
    assert_eq!(ours.outcome, ret(0), "{}", ours.outcome);

    let split = |bytes: &[u8]| -> Vec<Vec<u8>> {
        bytes
            .split(|&b| b == 1)
            .map(|s| s.to_vec())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let host_cases = split(&host.stdout);
    let our_cases = split(&ours.stdout);
    assert_eq!(host_cases.len(), cases.len());
    assert_eq!(our_cases.len(), cases.len());
    let mut mismatches = Vec::new();
    for (k, (h, o)) in cases.iter().zip(host_cases.iter().zip(&our_cases)) {
        if h != o {
            mismatches.push(format!(
                "{:?} {:?}: glibc {:?}, oracle {:?}",
                k.format,
                k.args,
                String::from_utf8_lossy(h),
                String::from_utf8_lossy(o)
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} cases differ:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches[..mismatches.len().min(40)].join("\n")
    );
}
