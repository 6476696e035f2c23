//! Running IR functions natively: a small generated C `main` that calls an entry function
//! of phicc's assembly with given arguments and reports what it returned.
//!
//! Why: `; run: @f(3, 4) == 7` lines and generated IR programs call an arbitrary function
//! with arguments, which a hosted program cannot do by itself. The driver is C, compiled
//! by the target's gcc and linked with phicc's `.s`, so the call crosses the target's real
//! C ABI exactly as a C caller's would.
//!
//! The protocol (what [`super::compare::judge_against_oracle`] relies on):
//! - the binary runs with one argument, the index of the call to make
//!   (`a.out 2` makes `calls[2]`); stdout is unbuffered from the start, so every byte the
//!   function prints is on stdout even when it then traps or aborts (as in the oracle);
//! - when the call returns, the driver flushes stdout, writes [`RETURNED_LINE`] to
//!   **stderr**, then, for a non-void function, `phihunt-result N` ([`RESULT_PREFIX`]),
//!   with N the value as the IR value canonical for its type (signed types
//!   sign-extended, unsigned zero-extended, as `%lld`; `u64` as its bit pattern), and
//!   exits 0. The function's own stdout stays clean;
//! - if the function exits, traps or dies, neither line is written;
//! - a `ptr` result is printed as `(long long)(intptr_t)` of the pointer, but pointer
//!   values are addresses that differ between the oracle and every target:
//!   **a `ptr` result can never be compared** (callers compare only integer results);
//! - exit status 125 with a `phihunt-driver:` line means the driver was run wrongly (no or
//!   a bad call index).
//!
//! The entry functions are declared with C types matching their IR types on the target
//! (`i8` `signed char`, `u8` `unsigned char`, `i16` `short`, `u16` `unsigned short`, `i32`
//! `int`, `u32` `unsigned`, `i64`/`u64` `long long`/`unsigned long long`, `ptr` `void *`)
//! under C names of the driver's own (`phihunt_entry_N`), bound to the IR name with an
//! `__asm__` label: an IR function may have any name, even one a libc header declares.
//! A module defining `@main` must have it renamed ([`rename_main`]) before it is compiled
//! for the driver, since the driver is `main`; an entry that is `static` must be made
//! global ([`export_entries`]) or the driver cannot link to it.

use compiler::ir::{Callee, GlobalInit, GlobalItem, Inst, IrModule, IrType};
use compiler::target::Target;
use std::collections::HashMap;
use std::fmt::Write;

/// One call the driver can make: `func(args)` with the function's IR signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryCall {
    /// The function's name in the module as compiled (after [`rename_main`]: a call of
    /// `@main` names [`ENTRY_MAIN_RENAME`]).
    pub func: String,
    /// Its parameter types (one per argument).
    pub params: Vec<IrType>,
    /// Its return type.
    pub ret: IrType,
    /// The arguments, canonical for their parameter types (as the oracle takes them).
    pub args: Vec<i64>,
}

/// The name [`rename_main`] gives a module's `@main`.
pub const ENTRY_MAIN_RENAME: &str = "__phihunt_ir_main";

/// The stderr line the driver writes when the call returned.
pub const RETURNED_LINE: &str = "phihunt-returned";

/// The start of the stderr line holding a non-void result.
pub const RESULT_PREFIX: &str = "phihunt-result ";

/// Exit status of a driver run with a missing or bad call index.
pub const DRIVER_MISUSE_STATUS: i32 = 125;

/// Renames the module's `@main` to [`ENTRY_MAIN_RENAME`] everywhere it is named: the
/// function itself, direct calls, `globaladdr`, and `ptr @main` items of global
/// initializers. Returns false (and changes nothing) when the module defines no `@main`.
/// After it, an [`EntryCall`] for `@main` must name [`ENTRY_MAIN_RENAME`].
pub fn rename_main(module: &mut IrModule) -> bool {
    const MAIN: &str = "main";
    if module.function(MAIN).is_none() {
        return false;
    }
    let rename = |name: &mut String| {
        if name == MAIN {
            *name = ENTRY_MAIN_RENAME.to_string();
        }
    };
    for f in &mut module.functions {
        rename(&mut f.name);
        for inst in f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
            match inst {
                Inst::Call {
                    callee: Callee::Direct(name),
                    ..
                }
                | Inst::GlobalAddr { name, .. } => rename(name),
                _ => {}
            }
        }
    }
    for g in &mut module.globals {
        if let GlobalInit::Items(items) = &mut g.init {
            for item in items {
                if let GlobalItem::Ptr(name, _) = item {
                    rename(name);
                }
            }
        }
    }
    true
}

/// Makes every function that `calls` names global (clears `static`), so the driver can
/// link to it; returns how many were static. Run it before the pipeline: a pass may
/// delete a static function whose callers were all inlined.
pub fn export_entries(module: &mut IrModule, calls: &[EntryCall]) -> usize {
    let mut changed = 0;
    for call in calls {
        if let Some(f) = module.function_mut(&call.func) {
            if f.attrs.is_static {
                f.attrs.is_static = false;
                changed += 1;
            }
        }
    }
    changed
}

/// The C type of an IR type in the driver (the same spelling on every target: each is
/// the C type with the IR type's size and signedness there; `ptr` is `void *`).
fn c_type(t: IrType) -> &'static str {
    match t {
        IrType::I8 => "signed char",
        IrType::U8 => "unsigned char",
        IrType::I16 => "short",
        IrType::U16 => "unsigned short",
        IrType::I32 => "int",
        IrType::U32 => "unsigned",
        IrType::I64 => "long long",
        IrType::U64 => "unsigned long long",
        IrType::F32 => "float",
        IrType::F64 => "double",
        IrType::Ptr => "void *",
        IrType::Void => "void",
    }
}

/// The C expression for argument `v` of type `t`: a `long long` literal converted to the
/// parameter's type (gcc converts modulo 2^N, so a canonical `u64` bit pattern written as
/// a negative number arrives as the same bits).
fn c_argument(t: IrType, v: i64) -> String {
    let literal = if v == i64::MIN {
        "(-9223372036854775807LL - 1)".to_string()
    } else {
        format!("{v}LL")
    };
    match t {
        IrType::Ptr => format!("(void *)(intptr_t){literal}"),
        // A float argument is its bit pattern, reinterpreted (never converted).
        IrType::F32 => format!(
            "((union {{ unsigned u; float f; }}){{ .u = (unsigned){literal} }}).f"
        ),
        IrType::F64 => format!(
            "((union {{ unsigned long long u; double f; }}){{ .u = (unsigned long long){literal} }}).f"
        ),
        _ => format!("({}){literal}", c_type(t)),
    }
}

/// `name` as the body of a C string literal.
fn c_string_body(name: &str) -> String {
    let mut s = String::new();
    for b in name.bytes() {
        match b {
            b'"' | b'\\' => {
                s.push('\\');
                s.push(b as char);
            }
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s
}

/// Why `call` cannot be made by the driver, if it cannot.
fn call_problem(call: &EntryCall) -> Option<String> {
    if call.args.len() != call.params.len() {
        return Some(format!(
            "@{} takes {} argument(s), {} given",
            call.func,
            call.params.len(),
            call.args.len()
        ));
    }
    if call.params.contains(&IrType::Void) {
        return Some(format!("@{} has a void parameter", call.func));
    }
    None
}

/// The C source of a driver for `calls` on `target`: declarations of the entry functions,
/// and a `main(argc, argv)` that makes call number `atoi(argv[1])` and reports as the
/// module doc says. A call the driver cannot make (argument count not matching the
/// parameters, a `void` parameter, two calls of one function with different signatures)
/// becomes an `#error` line, so building the driver fails with that message.
pub fn driver_source(calls: &[EntryCall], target: Target) -> String {
    let mut c = String::new();
    let _ = writeln!(c, "/* phihunt IR driver for {} */", target.name());
    c.push_str("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n");
    // One C declaration per entry function, in first-use order.
    let mut declared: HashMap<&str, (usize, &EntryCall)> = HashMap::new();
    for call in calls {
        if let Some(problem) = call_problem(call) {
            let _ = writeln!(c, "#error \"{}\"", c_string_body(&problem));
            continue;
        }
        if let Some((_, first)) = declared.get(call.func.as_str()) {
            if (&first.params, first.ret) != (&call.params, call.ret) {
                let problem = format!("@{} is called with two different signatures", call.func);
                let _ = writeln!(c, "#error \"{}\"", c_string_body(&problem));
            }
            continue;
        }
        let index = declared.len();
        declared.insert(&call.func, (index, call));
        let params = if call.params.is_empty() {
            "void".to_string()
        } else {
            call.params
                .iter()
                .map(|&t| c_type(t))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            c,
            "extern {} phihunt_entry_{index}({params}) __asm__(\"{}\");",
            c_type(call.ret),
            c_string_body(&call.func)
        );
    }
    let _ = write!(
        c,
        "\nstatic void phihunt_returned(void)\n{{\n\
         \tfflush(stdout);\n\
         \tfputs(\"{RETURNED_LINE}\\n\", stderr);\n\
         }}\n\n\
         static void phihunt_result(long long value)\n{{\n\
         \tfprintf(stderr, \"{RESULT_PREFIX}%lld\\n\", value);\n\
         }}\n\n\
         int main(int argc, char **argv)\n{{\n\
         \tsetvbuf(stdout, NULL, _IONBF, 0);\n\
         \tif (argc != 2) {{\n\
         \t\tfputs(\"phihunt-driver: usage: a.out CALL-INDEX\\n\", stderr);\n\
         \t\treturn {DRIVER_MISUSE_STATUS};\n\
         \t}}\n\
         \tswitch (atoi(argv[1])) {{\n"
    );
    for (i, call) in calls.iter().enumerate() {
        let Some(&(entry, _)) = declared.get(call.func.as_str()) else {
            continue;
        };
        if call_problem(call).is_some() {
            continue;
        }
        let args: Vec<String> = call
            .params
            .iter()
            .zip(&call.args)
            .map(|(&t, &v)| c_argument(t, v))
            .collect();
        let invocation = format!("phihunt_entry_{entry}({})", args.join(", "));
        let _ = writeln!(c, "\tcase {i}: {{");
        match call.ret {
            IrType::Void => {
                let _ = writeln!(c, "\t\t{invocation};\n\t\tphihunt_returned();");
            }
            IrType::Ptr => {
                let _ = writeln!(
                    c,
                    "\t\tvoid *r = {invocation};\n\t\tphihunt_returned();\n\
                     \t\tphihunt_result((long long)(intptr_t)r);"
                );
            }
            // A float result is reported as its bit pattern (zero-extended for `f32`), the
            // form the oracle's `Returned` holds.
            IrType::F32 => {
                let _ = writeln!(
                    c,
                    "\t\tunion {{ float f; unsigned u; }} r = {{ .f = {invocation} }};\n\
                     \t\tphihunt_returned();\n\t\tphihunt_result((long long)r.u);"
                );
            }
            IrType::F64 => {
                let _ = writeln!(
                    c,
                    "\t\tunion {{ double f; unsigned long long u; }} r = {{ .f = {invocation} }};\n\
                     \t\tphihunt_returned();\n\t\tphihunt_result((long long)r.u);"
                );
            }
            t => {
                let _ = writeln!(
                    c,
                    "\t\t{} r = {invocation};\n\t\tphihunt_returned();\n\
                     \t\tphihunt_result((long long)r);",
                    c_type(t)
                );
            }
        }
        c.push_str("\t\treturn 0;\n\t}\n");
    }
    let _ = write!(
        c,
        "\tdefault:\n\
         \t\tfputs(\"phihunt-driver: no such call\\n\", stderr);\n\
         \t\treturn {DRIVER_MISUSE_STATUS};\n\
         \t}}\n}}\n"
    );
    c
}

/// The result the driver printed (the last `phihunt-result N` line of `stderr`), or
/// `None` when there is none (a void function, or the call did not return).
pub fn parse_result(stderr: &[u8]) -> Option<i64> {
    stderr
        .split(|&b| b == b'\n')
        .filter_map(|line| line.strip_prefix(RESULT_PREFIX.as_bytes()))
        .filter_map(|rest| std::str::from_utf8(rest).ok()?.trim().parse().ok())
        .next_back()
}

/// True when the driver's stderr says the call returned ([`RETURNED_LINE`]).
pub fn call_returned(stderr: &[u8]) -> bool {
    stderr
        .split(|&b| b == b'\n')
        .any(|line| line == RETURNED_LINE.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(func: &str, params: &[IrType], ret: IrType, args: &[i64]) -> EntryCall {
        EntryCall {
            func: func.into(),
            params: params.to_vec(),
            ret,
            args: args.to_vec(),
        }
    }

    #[test]
    fn arguments_are_literals_converted_to_the_parameter_type() {
        assert_eq!(c_argument(IrType::I8, -128), "(signed char)-128LL");
        assert_eq!(c_argument(IrType::U64, -1), "(unsigned long long)-1LL");
        assert_eq!(
            c_argument(IrType::I64, i64::MIN),
            "(long long)(-9223372036854775807LL - 1)"
        );
        assert_eq!(c_argument(IrType::Ptr, 0), "(void *)(intptr_t)0LL");
    }

    #[test]
    fn the_driver_declares_each_function_once_under_an_asm_label() {
        let calls = [
            call("f", &[IrType::I32, IrType::U8], IrType::I16, &[3, 255]),
            call("f", &[IrType::I32, IrType::U8], IrType::I16, &[-1, 0]),
            call("g.1", &[], IrType::Void, &[]),
        ];
        let c = driver_source(&calls, Target::I686);
        assert!(c.starts_with("/* phihunt IR driver for i686 */\n"), "{c}");
        assert_eq!(c.matches("__asm__(\"f\")").count(), 1, "{c}");
        assert!(c.contains(
            "extern short phihunt_entry_0(int, unsigned char) __asm__(\"f\");\n\
             extern void phihunt_entry_1(void) __asm__(\"g.1\");\n"
        ));
        assert!(c.contains(
            "\tcase 1: {\n\t\tshort r = phihunt_entry_0((int)-1LL, (unsigned char)0LL);\n"
        ));
        assert!(c.contains("\tcase 2: {\n\t\tphihunt_entry_1();\n\t\tphihunt_returned();\n"));
        assert!(!c.contains("#error"));
    }

    #[test]
    fn calls_the_driver_cannot_make_are_build_errors() {
        let c = driver_source(
            &[call("f", &[IrType::I32], IrType::I32, &[])],
            Target::X86_64,
        );
        assert!(
            c.contains("#error \"@f takes 1 argument(s), 0 given\""),
            "{c}"
        );
        let c = driver_source(
            &[
                call("f", &[IrType::I32], IrType::I32, &[1]),
                call("f", &[IrType::I64], IrType::I32, &[1]),
            ],
            Target::X86_64,
        );
        assert!(
            c.contains("#error \"@f is called with two different signatures\""),
            "{c}"
        );
        assert_eq!(c_string_body("a\"b\\c\n"), "a\\\"b\\\\c\\012");
    }

    #[test]
    fn results_and_returns_are_read_from_stderr() {
        assert_eq!(
            parse_result(b"phihunt-returned\nphihunt-result -5\n"),
            Some(-5)
        );
        assert_eq!(
            parse_result(b"noise\nphihunt-result 1\nphihunt-result -9223372036854775808\n"),
            Some(i64::MIN)
        );
        assert_eq!(parse_result(b"phihunt-returned\n"), None);
        assert_eq!(parse_result(b"phihunt-result x\n"), None);
        assert_eq!(parse_result(b""), None);
        assert!(call_returned(b"qemu: x\nphihunt-returned\n"));
        assert!(!call_returned(b"phihunt-returned-not\n"));
    }
}
