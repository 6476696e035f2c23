//! The refusals of `nested_fn.rs` (what needs a trampoline), at the use that needs it,
//! and the shape that makes the other nested functions work: a static chain only when
//! something is captured.

use crate::compile_c::{compile_c_source, default_options};

fn lower_err(src: &str) -> String {
    match compile_c_source("t.c", src, &default_options()) {
        Ok(_) => panic!("expected an error: {src}"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn a_capturing_nested_function_whose_address_escapes_is_refused_at_the_use() {
    let src = "int apply(int (*f)(int)) { return f(1); }\n\
               int g(void) { int k = 3; int add(int x) { return x + k; } return apply(add); }\n";
    let e = lower_err(src);
    assert!(
        e.starts_with("t.c:2:72: error: the address of nested function 'add'"),
        "{e}"
    );
    assert!(e.contains("trampoline"), "{e}");
    let in_static = "int g(void) { int k = 3; int add(int x) { return x + k; } \
                     static int (*p)(int) = add; return p(1); }\n";
    assert!(lower_err(in_static).contains("nested function 'add'"));
}

#[test]
fn a_capturing_variadic_nested_function_is_refused_at_the_call() {
    let src = "int g(void) { int k = 3; int v(int n, ...) { return n + k; } return v(1, 2); }\n";
    let e = lower_err(src);
    assert!(
        e.starts_with("t.c:1:69: error: variadic nested function 'v'"),
        "{e}"
    );
}

#[test]
fn only_capturing_nested_functions_get_a_chain_parameter() {
    let src = "int g(int k) { int plain(int x) { return x; } int cap(int x) { return x + k; } \
               return plain(1) + cap(2); }\n";
    let out = compile_c_source("t.c", src, &default_options()).unwrap_or_else(|d| panic!("{d}"));
    let param_count = |name: &str| {
        let f = out
            .module
            .functions
            .iter()
            .find(|f| f.name.starts_with(name));
        f.unwrap_or_else(|| panic!("no {name}")).params.len()
    };
    assert_eq!(param_count("g.plain."), 1);
    assert_eq!(param_count("g.cap."), 2);
}
