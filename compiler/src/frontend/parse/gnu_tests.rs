//! Tests of the GNU C extensions' diagnostics (statement expressions, case ranges,
//! checked arithmetic builtins, the `mode` attribute): gcc 12's message and column for the same source
//! (`gcc -std=gnu11 -fsyntax-only`), and the jumps out of a statement expression that
//! gcc accepts. The behaviour is tested by `corpus/c/gnu_*.c` against gcc's output.

use super::{parse_translation_unit, ParseOutput};
use crate::frontend::{preprocess_str, Diagnostic, PreprocessOptions, Target};

fn parse(src: &str) -> Result<ParseOutput, Diagnostic> {
    let opts = PreprocessOptions {
        target: Target::X86_64,
        ..PreprocessOptions::default()
    };
    let pp = preprocess_str("t.c", src, &opts)?;
    parse_translation_unit(pp.tokens, &pp.sources, Target::X86_64)
}

#[test]
fn gnu_extension_errors_are_gcc_worded_and_located() {
    let cases: &[(&str, &str)] = &[
        (
            "int main(void) { goto in; int x = ({ in: 1; 2; }); return x; }",
            "t.c:1:18: error: jump into statement expression",
        ),
        (
            "int main(void) { int x = 2; switch (x) { case 1: x = ({ case 2: 3; }); } return x; }",
            "t.c:1:57: error: switch jumps into statement expression",
        ),
        (
            "int main(void) { int x = 2; switch (x) { case 1: x = ({ default: 3; }); } return x; }",
            "t.c:1:57: error: switch jumps into statement expression",
        ),
        (
            "int main(void) { int x = 2; switch (x) { case 1 ... 3: case 2: return 1; } return 0; }",
            "t.c:1:56: error: duplicate case value",
        ),
        (
            "int main(void) { int x = 2; switch (x) { case 1 ... 3: break; case 3 ... 5: return 1; } return 0; }",
            "t.c:1:63: error: duplicate (or overlapping) case value",
        ),
        (
            "int main(void) { int x = 2; switch (x) { case 4: break; case 3 ... 5: return 1; } return 0; }",
            "t.c:1:57: error: duplicate (or overlapping) case value",
        ),
        (
            "int g = ({ 1; });",
            "t.c:1:9: error: braced-group within expression allowed only inside a function",
        ),
        (
            "int main(void) { int r; return __builtin_add_overflow(1, 2, r); }",
            "t.c:1:61: error: argument 3 in call to function '__builtin_add_overflow' does not have pointer to integral type",
        ),
        (
            "int main(void) { _Bool b; return __builtin_mul_overflow(1, 2, &b); }",
            "t.c:1:63: error: argument 3 in call to function '__builtin_mul_overflow' has pointer to boolean type",
        ),
        (
            "int main(void) { int *p = 0; int r; return __builtin_sub_overflow(p, 2, &r); }",
            "t.c:1:67: error: argument 1 in call to function '__builtin_sub_overflow' does not have integral type",
        ),
        (
            "int main(void) { return __builtin_add_overflow_p(1, 2, (_Bool)0); }",
            "t.c:1:56: error: argument 3 in call to function '__builtin_add_overflow_p' has boolean type",
        ),
        // gcc's message; gcc places it at the declaration (1:1), phicc at the mode name.
        (
            "typedef int t __attribute__((mode(XY)));",
            "t.c:1:35: error: unknown machine mode 'XY'",
        ),
        // phicc's own errors (gcc has __int128 for TI and other meanings on pointers).
        (
            "typedef int t __attribute__((mode(TI)));",
            "t.c:1:35: error: the machine mode 'TI' is not supported by phicc",
        ),
        (
            "int *p __attribute__((mode(DI)));",
            "t.c:1:6: error: the 'mode' attribute on a type other than an integer is not supported by phicc",
        ),
        (
            "int main(void) { break; }",
            "t.c:1:18: error: break statement not within loop or switch",
        ),
        (
            "int main(void) { int x = ({ continue; 1; }); return x; }",
            "t.c:1:29: error: continue statement not within a loop",
        ),
    ];
    let mut wrong = Vec::new();
    for (src, want) in cases {
        match parse(src) {
            Ok(_) => wrong.push(format!("{src}\n  accepted, want {want}")),
            Err(e) if e.headline() != *want => {
                wrong.push(format!("{src}\n  got  {}\n  want {want}", e.headline()))
            }
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn jumps_out_of_statement_expressions_are_accepted() {
    // All accepted by gcc 12 (-std=gnu11 -pedantic-errors aside).
    let ok = [
        "int main(void) { int s = 0; for (int i = 0; i < 9; i++) s += ({ if (i == 5) break; if (i & 1) continue; i; }); return s; }",
        "int main(void) { int x = ({ goto out; 1; }); out: return 0; }",
        "int main(void) { int x = ({ int y = 0; again: if (++y < 3) goto again; y; }); return x; }",
        "int main(void) { switch (1) { case 1: ({ break; }); } return ({ 0; }); }",
        "int main(void) { int x = ({ switch (2) { case 1 ... 3: 4; } 5; }); return x ?: 1; }",
        "int main(void) { return ({ return 1; 2; }); }",
    ];
    for src in ok {
        if let Err(e) = parse(src) {
            panic!("{src}\n  refused: {}", e.headline());
        }
    }
}
