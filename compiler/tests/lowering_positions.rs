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

/// A parameter's array length with an effect (`int a[n++]`) is refused at the length:
/// C evaluates it at every call (gcc increments `n`), and phicc, which does not evaluate
/// parameter lengths, must not skip it silently (c-torture 970217-1.c, pr77767.c were
/// wrong code). A length without effects (`int b[n]`, `int c[n * 2]`) is accepted.
#[test]
fn an_array_parameter_length_with_side_effects_is_refused_at_the_length() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    // "int sub(int i, int array[i++])": `i++` starts in column 26.
    let src = "int sub(int i, int array[i++])\n{\n  return i;\n}\n";
    let path = temp_file(&scratch, "effect.c", src);
    let (code, err) = phicc(&[&path]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.lines().next().unwrap_or(""),
        format!(
            "{path}:1:26: error: the length of an array parameter with side effects is not \
             supported by phicc (C evaluates it at every call)"
        )
    );
    let src = "int f(int n, int b[n], int c[n * 2]) { return b[0] + c[1]; }\n\
               int main(void) { int x[4] = {1, 2, 3, 4}; return f(2, x, x) - 3; }\n";
    let path = temp_file(&scratch, "plain.c", src);
    let (code, err) = phicc(&[&path, "-o", &format!("{path}.out")]);
    assert_eq!(code, Some(0), "{err}");
}
