//! `#include`: quoted and angled search order, nested includes relative to the
//! including file, computed includes, include guards and `#pragma once`,
//! `#include_next`, the depth limit and "In file included from" notes.

mod frontend_support;

use compiler::frontend::{preprocess, PreprocessOptions};
use frontend_support::{inputs_dir, spellings_of};
use std::path::Path;

fn options() -> PreprocessOptions {
    let dir = inputs_dir();
    PreprocessOptions {
        include_dirs: vec![dir.join("idir")],
        system_dirs: vec![dir.join("sysdir")],
        ..PreprocessOptions::default()
    }
}

/// `text` with the absolute inputs directory written as `DIR`.
fn relative(text: &str) -> String {
    text.replace(&inputs_dir().to_string_lossy().into_owned(), "DIR")
}

#[test]
fn nested_guarded_once_computed_and_next_includes() {
    let out = preprocess(&inputs_dir().join("inc/main.c"), &options()).unwrap();
    let expected = [
        "int a_h ; int b_h ; const char * b_file = \"DIR/inc/sub/b.h\" ; int c_h ; int a_h_end ;",
        "int sys_h ;",
        "int guarded ;",
        "int once ;",
        "int c_h ;",
        "int sys_h ;",
        "int dup_from_I ;",
        "int next_from_I ; int next_from_system ;",
        "main_end \"DIR/inc/main.c\"",
    ]
    .join(" ");
    assert_eq!(relative(&spellings_of(&out.tokens)), expected);
    // The guard and #pragma once kept the second inclusions from even being opened.
    let opened = |suffix: &str| {
        (0..out.sources.len() as u32)
            .filter(|&i| {
                out.sources
                    .name(compiler::frontend::FileId(i))
                    .ends_with(suffix)
            })
            .count()
    };
    assert_eq!(opened("/guarded.h"), 1);
    assert_eq!(opened("/once.h"), 1);
    assert_eq!(opened("/sys.h"), 2, "unguarded headers are read each time");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn error_in_nested_include_names_the_include_chain() {
    let err = preprocess(&inputs_dir().join("inc/bad_outer.c"), &options()).unwrap_err();
    assert_eq!(
        relative(&err.headline()),
        "DIR/inc/sub/bad_deepest.h:3:4: error: #error deep trouble"
    );
    assert_eq!(
        relative(&err.to_string()),
        "In file included from DIR/inc/bad_inner.h:2,\n                 from DIR/inc/bad_outer.c:1:\n\
         DIR/inc/sub/bad_deepest.h:3:4: error: #error deep trouble"
    );
}

#[test]
fn unterminated_conditional_in_a_header() {
    let err = preprocess(&inputs_dir().join("inc/unterminated_outer.c"), &options()).unwrap_err();
    assert_eq!(
        relative(&err.headline()),
        "DIR/inc/unterminated_if.h:1:2: error: unterminated #if"
    );
}

#[test]
fn recursive_include_hits_the_depth_limit() {
    let err = preprocess(&inputs_dir().join("inc/self.h"), &options()).unwrap_err();
    assert_eq!(
        relative(&err.headline()),
        "DIR/inc/self.h:1:2: error: #include nested depth 200 exceeds maximum of 200"
    );
    assert_eq!(err.included_from.len(), 199);
}

#[test]
fn missing_headers() {
    let dir = inputs_dir();
    let main = dir.join("inc/missing.c");
    let text = "int x;\n#include \"nope.h\"\n";
    let err =
        compiler::frontend::preprocess_str(&main.to_string_lossy(), text, &options()).unwrap_err();
    assert_eq!(
        relative(&err.headline()),
        "DIR/inc/missing.c:2:10: error: nope.h: No such file or directory"
    );
    // Angled includes do not look next to the including file.
    let err =
        compiler::frontend::preprocess_str(&main.to_string_lossy(), "#include <a.h>", &options())
            .unwrap_err();
    assert_eq!(
        relative(&err.headline()),
        "DIR/inc/missing.c:1:10: error: a.h: No such file or directory"
    );
    let err = preprocess(Path::new("/nonexistent/main.c"), &options()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "phicc: error: /nonexistent/main.c: No such file or directory"
    );
}
