//! Diagnostics of the GNU label extensions (`local_labels.rs`): gcc 12's messages for the
//! same source (`gcc -std=gnu11 -fsyntax-only`). gcc places some of them at 1:1 (the
//! function); phicc places them at the offending name (a use by `goto`: at the `goto`,
//! as for any label). Behaviour is tested by
//! `corpus/c/gnu_labels.c` against gcc's output.

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
fn label_extension_errors_are_gcc_worded() {
    let cases: &[(&str, &str)] = &[
        (
            "int main(void) { __label__ a, a; a: return 0; }",
            "t.c:1:31: error: duplicate label declaration 'a'",
        ),
        (
            "int main(void) { __label__ a; goto a; return 0; }",
            "t.c:1:31: error: label 'a' used but not defined",
        ),
        (
            "void *p = &&l;",
            "t.c:1:11: error: label 'l' referenced outside of any function",
        ),
        (
            "int main(void) { int x = 0; goto *x; }",
            "t.c:1:35: error: computed goto must be pointer type",
        ),
        // The local label ends with its block: the outer `goto a` names another label.
        (
            "int main(void) { { __label__ a; a: ; } goto a; }",
            "t.c:1:40: error: label 'a' used but not defined",
        ),
        (
            "int main(void) { __label__ a; a: ; a: return 0; }",
            "t.c:1:36: error: duplicate label 'a'",
        ),
    ];
    for (src, want) in cases {
        match parse(src) {
            Ok(_) => panic!("accepted: {src}"),
            Err(d) => assert_eq!(&d.to_string(), want, "{src}"),
        }
    }
}

#[test]
fn local_labels_of_sibling_blocks_are_distinct() {
    let src = "int f(void) { int r = 0; { __label__ l; goto l; l: r++; } \
               { __label__ l; goto l; l: r++; } return r; }";
    let out = parse(src).expect("two blocks may each declare `l`");
    assert_eq!(out.unit.functions[0].num_labels, 2);
}

#[test]
fn label_addresses_are_numbered_by_first_use() {
    let src = "int f(int i) { static void *t[] = {&&b, &&a, &&b}; goto *t[i]; a: return 1; b: return 2; }";
    let out = parse(src).expect("labels as values");
    let f = &out.unit.functions[0];
    // `b` was mentioned first (id 0) and its address taken first (offset 0).
    assert_eq!(f.label_addresses.len(), 2);
    assert_eq!(f.label_addresses[0].0, 0);
    assert_eq!(f.label_addresses[1].0, 1);
    let object = out.unit.globals.iter().find(|g| g.name == "f.labels");
    let object = object.expect("the label object");
    assert_eq!(
        format!("{:?}", object.ty.ty),
        "Array(QualType { ty: Int(Char), is_const: false, is_volatile: false }, Some(2))"
    );
}
