//! A 1 MB file of macro-heavy code preprocesses correctly (spot-checked). The time is
//! printed, not asserted — timed unit tests are flaky on a shared machine; speed belongs
//! to benchmarks.

use compiler::frontend::{preprocess_str, PreprocessOptions, TokenKind};
use std::time::Instant;

fn macro_heavy_source(min_bytes: usize) -> (String, usize) {
    let mut text = String::from(
        "#define ADD(a, b) ((a) + (b))\n#define MUL(a, b) ((a) * (b))\n#define CAT(a, b) a ## b\n\
         #define XCAT(a, b) CAT(a, b)\n#define STR(x) #x\n#define V(i) XCAT(var_, i)\n\
         #define MAX(a, b) ((a) > (b) ? (a) : (b))\n#define CALL(f, ...) f(__VA_ARGS__)\n#define LIMIT 0x7fffffffL\n",
    );
    let mut functions = 0;
    while text.len() < min_bytes {
        let n = functions;
        text.push_str(&format!(
            "static long f_{n}(long x) {{ return ADD(MUL(V({n}), 3), MAX(x, LIMIT)) + CALL(ADD, x, {n}) + sizeof STR(f_{n}); }}\n\
             #if {n} % 3 == 0 && defined(LIMIT)\nint g_{n} = {n};\n#endif\n"
        ));
        functions += 1;
    }
    (text, functions)
}

#[test]
fn one_megabyte_of_macro_heavy_code() {
    let (text, functions) = macro_heavy_source(1 << 20);
    let start = Instant::now();
    let out = preprocess_str("big.c", &text, &PreprocessOptions::default()).unwrap();
    let elapsed = start.elapsed();
    // Spot-check the result: every function's pasted variable and every third global.
    let count = |s: &str| {
        out.tokens
            .iter()
            .filter(|t| t.spelling.as_ref() == s)
            .count()
    };
    assert_eq!(count("static"), functions);
    assert_eq!(count("var_7"), 1);
    assert_eq!(count("\"f_12\""), 1);
    assert_eq!(count("g_3") + count("g_4"), 1);
    assert_eq!(out.tokens.last().map(|t| &t.kind), Some(&TokenKind::Eof));
    eprintln!(
        "{} bytes, {} tokens in {elapsed:?}",
        text.len(),
        out.tokens.len()
    );
}
