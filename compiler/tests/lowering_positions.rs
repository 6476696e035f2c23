//! `phicc` reports an error the lowering raises at the construct that caused it, in the
//! `file:line:col: error: message` form: an expression's error at the expression (a
//! binary operator is placed at the operator, as gcc places it), not at the function.
//! Expected positions are counted by hand from the source text.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs phicc with `args` (killed after 60 s): exit status and stderr.
fn phicc(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_phicc"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run phicc");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for phicc") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("phicc {args:?} ran for more than 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).expect("read phicc's stderr");
    }
    (status.code(), err)
}

/// Writes `text` to `name` in the test's scratch directory (removed when it drops).
fn temp_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).expect("write the C file");
    p.display().to_string()
}

#[test]
fn a_long_double_multiplication_is_reported_at_its_operand() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    // Line 5 is "  a = 1; g * h;": two spaces, "a = 1;" in columns 3-8, a space, `g` in
    // column 10 (its read is the first thing refused). The function starts on line 3.
    let src = "long double g;\n\
               long double h;\n\
               int f(int a)\n\
               {\n  a = 1; g * h;\n  return a;\n}\n\
               int main(void) { return f(2); }\n";
    let path = temp_file(&scratch, "mul.c", src);
    let (code, err) = phicc(&[&path]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.lines().next().unwrap_or(""),
        format!("{path}:5:10: error: 'long double' is not supported by phicc")
    );
}

#[test]
fn a_long_double_conversion_in_a_nested_statement_is_reported_at_its_expression() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    // Line 7 is "      x = g;" inside a `while` inside an `if`: the conversion of `g`
    // (a long double) to int is placed at `g`, column 11 (six spaces, "x = " in 7-10).
    let src = "long double g;\n\
               int f(int a)\n\
               {\n  int x = 0;\n  if (a)\n    while (a--)\n      x = g;\n  return x;\n}\n";
    let path = temp_file(&scratch, "conv.c", src);
    let (code, err) = phicc(&[&path]);
    assert_eq!(code, Some(1), "{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with(&format!("{path}:7:11: error: ")) && first.contains("'long double'"),
        "{first}"
    );
}

/// A definition evaluates its array parameters' lengths on entry (`param_lengths.rs`),
/// each in the scope its declarator has: the parameters before it. A length naming a
/// later parameter is gcc's error, at the name (column 13 of `int f(int a[n++], int n)`);
/// one naming an earlier parameter compiles (c-torture 970217-1.c's shape).
#[test]
fn an_array_parameter_length_sees_only_earlier_parameters() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let src = "int f(int a[n++], int n) { return n; }
";
    let path = temp_file(&scratch, "later.c", src);
    let (code, err) = phicc(&[&path]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.lines().next().unwrap_or(""),
        format!("{path}:1:13: error: 'n' undeclared (first use in this function)")
    );
    let src = "int sub(int i, int array[i++]) { return i; }
               int main(void) { int x[4]; return sub(10, x) - 11; }
";
    let path = temp_file(&scratch, "earlier.c", src);
    let (code, err) = phicc(&[&path, "-o", &format!("{path}.out")]);
    assert_eq!(code, Some(0), "{err}");
}

/// A type may be as large as the target's PTRDIFF_MAX (gcc's limit; `layout.rs`
/// `largest_type_size`), one byte more is gcc's "size of array is too large" at the
/// length; an object of a type over 4 GiB is refused at its declaration (column 24 of
/// line 2 is `x`). i686's limit is 2^31 - 1 (the second typedef's length, column 16).
#[test]
fn a_type_may_reach_ptrdiff_max_but_no_object_over_4_gib_exists() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let cases = [
        (
            "x86_64",
            "typedef char t[0x7fffffffffffffffL];\ntypedef char u[0x8000000000000000UL];\n",
            "2:16: error: size of array is too large",
        ),
        (
            "i686",
            "typedef char t[0x7fffffff];\ntypedef char u[0x80000000u];\n",
            "2:16: error: size of array is too large",
        ),
        (
            "x86_64",
            "struct s { char a[0x7fffffffffffff00L]; int b; };\n\
             int f(void) { struct s x; return sizeof x; }\n",
            "2:24: error: variable `x` is too large (over 4 GiB)",
        ),
    ];
    for (i, (target, src, expected)) in cases.iter().enumerate() {
        let path = temp_file(&scratch, &format!("huge{i}.c"), src);
        let (code, err) = phicc(&[&path, &format!("--target={target}")]);
        assert_eq!(code, Some(1), "{err}");
        assert_eq!(
            err.lines().next().unwrap_or(""),
            format!("{path}:{expected}")
        );
    }
}

/// A file-scope compound literal is a static object (`compound_literal.rs`): its
/// initializer must be constant (gcc's error, at the element: column 17 is `g`). Using
/// the literal's *value* as a static initializer (`struct A x = (struct A){1};`, a gcc
/// extension) stays an error at the literal (column 14).
#[test]
fn a_file_scope_compound_literal_needs_constant_elements() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let cases = [
        (
            "int g;\nint *p = &(int){g};\n",
            "2:17: error: initializer element is not constant",
        ),
        (
            "struct A { int i; };\nstruct A x = (struct A){1};\n",
            "2:14: error: initializer element is not constant",
        ),
    ];
    for (i, (src, expected)) in cases.iter().enumerate() {
        let path = temp_file(&scratch, &format!("literal{i}.c"), src);
        let (code, err) = phicc(&[&path]);
        assert_eq!(code, Some(1), "{err}");
        assert_eq!(
            err.lines().next().unwrap_or(""),
            format!("{path}:{expected}")
        );
    }
}

/// What phicc does not byte-swap in a `scalar_storage_order("big-endian")` record (a
/// floating member) is refused where it is accessed (line 3, column 19), never laid out
/// in the native order; an argument that is no order is gcc's error at the argument
/// (column 57).
#[test]
fn an_unsupported_reverse_storage_order_is_refused_where_it_is_used() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let cases = [
        (
            "struct s { double d; } __attribute__((scalar_storage_order(\"big-endian\")));\n\
             struct s g;\n\
             int main(void) { g.d = 1.0; return g.d != 1.0; }\n",
            "3:19: error: a floating or pointer member of a scalar_storage_order(\"big-endian\") \
             record is not supported by phicc",
        ),
        (
            "struct s { int a; } __attribute__((scalar_storage_order(\"middle\")));\n",
            "1:57: error: scalar_storage_order argument must be one of",
        ),
    ];
    for (i, (src, expected)) in cases.iter().enumerate() {
        let path = temp_file(&scratch, &format!("order{i}.c"), src);
        let (code, err) = phicc(&[&path]);
        assert_eq!(code, Some(1), "{err}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with(&format!("{path}:{expected}")), "{first}");
    }
}
