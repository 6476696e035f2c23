//! Tests of `scalar_storage_order("big-endian")` (`reverse_order.rs`): the record flag
//! the parser sets, gcc's error for the address of a reversed scalar, and phicc's own
//! errors for what it does not implement (never the native order). The byte images are
//! tested end to end by `corpus/c/scalar_storage_order_big.c` against gcc.

use crate::compile_c::{compile_c_source, default_options};

fn lower_err(src: &str) -> String {
    match compile_c_source("t.c", src, &default_options()) {
        Ok(_) => panic!("expected an error"),
        Err(d) => d.to_string(),
    }
}

const BE: &str = "struct __attribute__((scalar_storage_order(\"big-endian\"))) s { int a; \
                  double d; int *p; short arr[2]; unsigned char bytes[2]; };\n";

#[test]
fn storage_order_big_endian_compiles_integer_members() {
    let src = format!("{BE}int main(void) {{ struct s x; x.a = 1; x.bytes[1] = 2; return x.a; }}");
    assert!(compile_c_source("t.c", &src, &default_options()).is_ok());
}

#[test]
fn storage_order_address_of_reversed_scalar_is_gccs_error() {
    // gcc 12: "t.c:2:39: error: cannot take address of scalar with reverse storage order"
    // (phicc points at the operand of `&`).
    let e = lower_err(&format!(
        "{BE}int main(void) {{ struct s x; int *q = &x.a; return *q; }}"
    ));
    assert!(
        e.contains("t.c:2:")
            && e.contains("cannot take address of scalar with reverse storage order"),
        "{e}"
    );
}

#[test]
fn storage_order_unsupported_members_are_clear_errors() {
    for body in [
        "struct s x; x.d = 1.0; return 0;",
        "struct s x; x.p = 0; return 0;",
        "struct s x; x.arr[0] = 1; return 0;",
        "struct s x = {1, 2.0}; return x.a;",
    ] {
        let e = lower_err(&format!("{BE}int main(void) {{ {body} }}"));
        assert!(
            e.contains("t.c:2:")
                && e.contains("scalar_storage_order(\"big-endian\")")
                && e.contains("not supported by phicc"),
            "{body}: {e}"
        );
    }
}

#[test]
fn storage_order_bad_argument_is_an_error() {
    let e = lower_err(
        "struct __attribute__((scalar_storage_order(\"middle\"))) s { int a; };\n\
         int main(void) { return 0; }",
    );
    assert!(e.contains("t.c:1:") && e.contains("must be one of"), "{e}");
}

#[test]
fn storage_order_reversed_scalar_is_no_address_constant() {
    // gcc 12 refuses `&g.a` (reverse storage order); phicc refuses it as a constant.
    let e = lower_err(&format!(
        "{BE}struct s g;\nint *p = &g.a;\nint main(void) {{ return 0; }}"
    ));
    assert!(e.contains("t.c:3:"), "{e}");
    // `offsetof` is still a constant.
    let src = format!(
        "{BE}int off = (int)(unsigned long)&((struct s *)0)->d;\nint main(void) {{ return off; }}"
    );
    assert!(compile_c_source("t.c", &src, &default_options()).is_ok());
}
