//! Which c-torture tests are *standard*: ISO C without GNU extensions, floating point or
//! variadic functions — the part of the suite phicc must pass almost entirely (issue 14).
//!
//! Why: the suite mixes plain C with tests of GNU extensions, floating point and
//! `stdarg.h`, which phicc does not have yet; the tables count the standard tests apart
//! so that progress on plain C is visible.
//!
//! How a test is classified (decided here, documented in `docs/c-torture.md`):
//! - *ISO C*: the host gcc accepts it with `-fsyntax-only -pedantic-errors` (no `-w`,
//!   which would hide the pedantic errors) under `-std=c89` **or** under `-std=c11`. Old
//!   tests are C89 (implicit `int`, implicit function declarations and K&R definitions
//!   are C89, and C11's pedantic mode rejects the first two); newer ones use `long long`,
//!   `//` comments or mixed declarations, which only C99/C11 has. Anything gcc calls an
//!   extension under both (statement expressions, `typeof`, case ranges, zero-length
//!   arrays, nested functions, labels as values, ...) is not ISO C. Attributes and
//!   `__builtin_*` calls are not syntax, and gcc accepts them pedantically: a test that
//!   calls `__builtin_abort` is still standard;
//! - *floats*: a floating type or literal in the source (comments and string and character
//!   literals skipped): `float`, `double`, `_Complex`, `__complex__`, `_FloatN`,
//!   `__float128`, `_DecimalN`, the `__builtin_inf`/`nan`/`huge_val` families, or a
//!   floating constant (`1.0`, `.5`, `1e3`, `0x1p3`);
//! - *varargs*: `stdarg.h`/`varargs.h`, `va_list`, `va_start`, `va_arg`, `va_end`,
//!   `va_copy` and their `__builtin_` forms, `__builtin_apply*`, `__builtin_next_arg`, or
//!   a function definition whose parameters end in `...` (`...) {`). Calling a variadic
//!   function (`printf`) is not varargs: only defining one is.
//!
//! A test that includes a sibling (`#include "20040709-2.c"`, `#include "gcc_tmpnam.h"`:
//! a quoted include naming a file of the test's directory) is scanned together with what
//! it includes, recursively, so that 20040709-3.c (only an include of 20040709-2.c, which
//! has `long double`) is a float test like the file it includes; the source hash covers
//! the included files too. gcc's pedantic runs see the includes anyway.
//!
//! The pedantic checks cost two gcc runs per test, so the classification is cached like
//! the selection (`classification-VERSION.json`, VERSION from the host driver's
//! `--version`, an entry per test with its source hash).
//!
//! Invariants: every gcc run is under a time limit (`run_limited`); a gcc that cannot be
//! started is an `Err` (setup), never a test that is "not standard".

use super::selection::{file_key, gcc_version, source_hash, store};
use super::suite::TortureTest;
use compiler::target::Target;
use oracle::native::targets::{native_target, tool_path};
use oracle::native::{run_limited, Termination};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What the classification found in one test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classification {
    pub source_hash: String,
    /// Accepted by `gcc -std=c89 -pedantic-errors`.
    pub iso_c89: bool,
    /// Accepted by `gcc -std=c11 -pedantic-errors`.
    pub iso_c11: bool,
    /// gcc's first pedantic error under `-std=c11` (empty when accepted).
    #[serde(default)]
    pub c11_error: String,
    pub floats: bool,
    pub varargs: bool,
    /// GNU extensions gcc's pedantic mode lets through (see [`scan_features`]).
    #[serde(default)]
    pub gnu_scan: bool,
    /// The test's `dg-options` change the language (`-fwrapv`, ...): see
    /// [`semantic_options`].
    #[serde(default)]
    pub options: Vec<String>,
}

impl Classification {
    /// ISO C (C89 or C11), no GNU extension the scan sees, no language-changing
    /// `dg-options`, no floats, no varargs.
    pub fn standard(&self) -> bool {
        (self.iso_c89 || self.iso_c11)
            && !self.gnu_scan
            && self.options.is_empty()
            && !self.floats
            && !self.varargs
    }

    /// The tags of a test that is not standard: `gnu`, `float`, `varargs`.
    pub fn tags(&self) -> Vec<&'static str> {
        let mut t = Vec::new();
        if !(self.iso_c89 || self.iso_c11) || self.gnu_scan {
            t.push("gnu");
        }
        if !self.options.is_empty() {
            t.push("options");
        }
        if self.floats {
            t.push("float");
        }
        if self.varargs {
            t.push("varargs");
        }
        t
    }
}

/// The cached classification of the suite.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ClassificationCache {
    pub gcc_version: String,
    pub tests: BTreeMap<String, Classification>,
}

/// What the source scan finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    pub floats: bool,
    pub varargs: bool,
    /// GNU extensions that gcc -pedantic-errors accepts because they are spelled as
    /// attributes or builtins: vector types (`vector_size`) and their builtins.
    pub gnu: bool,
}

/// Scans a test's source (see the module doc).
pub fn scan_features(source: &str) -> Scan {
    let tokens = tokens(source);
    let mut scan = Scan::default();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            Token::Float => scan.floats = true,
            Token::Ident(id) => {
                if is_float_ident(id) {
                    scan.floats = true;
                }
                if is_varargs_ident(id) {
                    scan.varargs = true;
                }
                if matches!(
                    id.as_str(),
                    "vector_size"
                        | "__vector_size__"
                        | "__builtin_shuffle"
                        | "__builtin_convertvector"
                ) {
                    scan.gnu = true;
                }
            }
            Token::Punct(p) if p == "..." => {
                let next = |k: usize| tokens.get(i + k);
                if next(1) == Some(&Token::Punct(")".into()))
                    && next(2) == Some(&Token::Punct("{".into()))
                {
                    scan.varargs = true;
                }
            }
            _ => {}
        }
    }
    scan
}

/// Options of a test's `dg-options`/`dg-additional-options` comments that change what
/// the program means, so that it is not ISO C as written: signed overflow defined
/// (`-fwrapv`, `-ftrapv`), the signedness of `char`, gnu89 `inline`, aliasing rules
/// waived, a different standard, instrumentation hooks, exceptions.
pub fn semantic_options(source: &str) -> Vec<String> {
    const CHANGING: [&str; 10] = [
        "-fwrapv",
        "-ftrapv",
        "-funsigned-char",
        "-fsigned-char",
        "-fgnu89-inline",
        "-fno-strict-aliasing",
        "-std=gnu",
        "-finstrument-functions",
        "-fexceptions",
        "-fnon-call-exceptions",
    ];
    let mut out: Vec<String> = Vec::new();
    for line in source.lines() {
        if !(line.contains("dg-options") || line.contains("dg-additional-options")) {
            continue;
        }
        for word in line.split(|c: char| c.is_whitespace() || c == '"' || c == '{' || c == '}') {
            if CHANGING.iter().any(|c| word.starts_with(c)) && !out.iter().any(|o| o == word) {
                out.push(word.to_string());
            }
        }
    }
    out
}

fn is_float_ident(id: &str) -> bool {
    matches!(
        id,
        "float" | "double" | "_Complex" | "__complex__" | "_Complex_I" | "__float128" | "__float80"
    ) || id.starts_with("_Float")
        || id.starts_with("_Decimal")
        || ["__builtin_inf", "__builtin_nan", "__builtin_huge_val"]
            .iter()
            .any(|p| id.starts_with(p))
}

fn is_varargs_ident(id: &str) -> bool {
    matches!(
        id,
        "stdarg"
            | "varargs"
            | "va_list"
            | "va_start"
            | "va_arg"
            | "va_end"
            | "va_copy"
            | "__gnuc_va_list"
            | "__builtin_next_arg"
    ) || id.starts_with("__builtin_va_")
        || id.starts_with("__builtin_apply")
}

/// The tokens the scan looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// A floating constant.
    Float,
    /// An integer constant.
    Int,
    /// `...`, `(`, `)`, `{` and every other punctuator character.
    Punct(String),
}

/// A rough C tokenizer: comments, string and character literals are skipped; preprocessing
/// numbers are floating when they have a `.`, a decimal exponent `e`, or a hex `p`.
fn tokens(source: &str) -> Vec<Token> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if b[i..].starts_with(b"/*") {
            i = source[i + 2..]
                .find("*/")
                .map_or(b.len(), |e| i + 2 + e + 2);
        } else if b[i..].starts_with(b"//") {
            i = source[i..].find('\n').map_or(b.len(), |e| i + e);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token::Ident(source[start..i].to_string()));
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            while i < b.len() {
                let d = b[i];
                let exp = matches!(d, b'e' | b'E' | b'p' | b'P');
                if exp && matches!(b.get(i + 1), Some(b'+' | b'-')) {
                    i += 2;
                } else if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
            let n = source[start..i].to_ascii_lowercase();
            let hex = n.starts_with("0x");
            let float = n.contains('.') || (hex && n.contains('p')) || (!hex && n.contains('e'));
            out.push(if float { Token::Float } else { Token::Int });
        } else if b[i..].starts_with(b"...") {
            out.push(Token::Punct("...".into()));
            i += 3;
        } else {
            if !c.is_ascii_whitespace() {
                out.push(Token::Punct((c as char).to_string()));
            }
            i += 1;
        }
    }
    out
}

/// `gcc -fsyntax-only -std=STD -pedantic-errors FILE`: `Ok(None)` accepted, `Ok(Some)`
/// gcc's first error line. `Err` when gcc cannot be run.
fn pedantic(driver: &Path, std: &str, file: &Path) -> Result<Option<String>, String> {
    let done = run_limited(
        Command::new(driver)
            .arg("-fsyntax-only")
            .arg(format!("-std={std}"))
            .arg("-pedantic-errors")
            .arg(file),
        Duration::from_secs(60),
        1 << 16,
    )?;
    Ok(match done.termination {
        Termination::Exited(0) => None,
        Termination::TimedOut => Some("gcc timed out".into()),
        _ => Some(
            String::from_utf8_lossy(&done.stderr)
                .lines()
                .find(|l| l.contains("error:"))
                .unwrap_or("gcc failed without a message")
                .to_string(),
        ),
    })
}

/// The file names of the quoted includes of `source` (`#include "NAME"`), in order.
fn quoted_includes(source: &str) -> Vec<&str> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let name = rest.strip_prefix('"')?;
            name.find('"').map(|end| &name[..end])
        })
        .collect()
}

/// The bytes the scan and the source hash see: the test's source followed by every
/// sibling it includes with a quoted `#include` (a file of the test's own directory),
/// each file once, depth first. An include that names no sibling (a system header, a
/// path elsewhere) is left out: only the test's directory belongs to the suite.
pub fn source_with_sibling_includes(path: &Path) -> Result<Vec<u8>, String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(file) = pending.pop() {
        if seen.contains(&file) {
            continue;
        }
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let siblings: Vec<PathBuf> = quoted_includes(&text)
            .into_iter()
            .filter(|name| !name.contains('/'))
            .map(|name| dir.join(name))
            .filter(|p| p.is_file())
            .collect();
        // Depth first in source order: the last include is pushed first.
        pending.extend(siblings.into_iter().rev());
        out.extend_from_slice(&bytes);
        out.push(b'\n');
        seen.push(file);
    }
    Ok(out)
}

/// Classifies one test. `Err` when gcc cannot be run.
pub fn classify_one(test: &TortureTest, driver: &Path) -> Result<Classification, String> {
    let bytes = source_with_sibling_includes(&test.path)?;
    let text = String::from_utf8_lossy(&bytes);
    let scan = scan_features(&text);
    let c89 = pedantic(driver, "c89", &test.path)?;
    let c11 = pedantic(driver, "c11", &test.path)?;
    let full = test.path.display().to_string();
    Ok(Classification {
        source_hash: source_hash(&bytes),
        iso_c89: c89.is_none(),
        iso_c11: c11.is_none(),
        c11_error: c11.unwrap_or_default().replace(&full, &test.name),
        floats: scan.floats,
        varargs: scan.varargs,
        gnu_scan: scan.gnu,
        options: semantic_options(&text),
    })
}

/// The cache file of the classification under `dir`.
pub fn cache_file(dir: &Path, version: &str) -> PathBuf {
    // v2: the GNU scan and the dg-options (entries of v1 lack them).
    // v3: the scan and the hash follow `#include "sibling"` (v2 classified 20040709-3.c,
    // which only includes 20040709-2.c, as standard).
    dir.join(format!("classification-v3-{}.json", file_key(version)))
}

/// Every test's classification, from the cache in `cache_dir` where current, computed
/// (on `jobs` threads) where not, and the cache rewritten. `Err` for a broken setup.
pub fn classify(
    tests: &[TortureTest],
    cache_dir: &Path,
    jobs: usize,
) -> Result<BTreeMap<String, Classification>, String> {
    let gcc = native_target(Target::X86_64).gcc;
    let driver =
        tool_path(gcc).ok_or_else(|| format!("{gcc} is not on PATH: run scripts/setup.sh"))?;
    let version = gcc_version(Target::X86_64)?;
    let path = cache_file(cache_dir, &version);
    let mut cache = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<ClassificationCache>(&b).ok())
        .filter(|c| c.gcc_version == version)
        .unwrap_or_else(|| ClassificationCache {
            gcc_version: version.clone(),
            tests: BTreeMap::new(),
        });
    let mut todo = Vec::new();
    for t in tests {
        let bytes = source_with_sibling_includes(&t.path)?;
        let current = cache
            .tests
            .get(&t.name)
            .is_some_and(|c| c.source_hash == source_hash(&bytes));
        if !current {
            todo.push(t);
        }
    }
    if !todo.is_empty() {
        eprintln!(
            "torture: classifying {} test(s) (gcc -pedantic-errors, c89 and c11; cached in {})",
            todo.len(),
            path.display()
        );
        let next = AtomicUsize::new(0);
        let done: Mutex<Vec<(String, Classification)>> = Mutex::new(Vec::new());
        let failure: Mutex<Option<String>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..jobs.max(1).min(todo.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(t) = todo.get(i) else { break };
                    match classify_one(t, &driver) {
                        Ok(c) => done
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((t.name.clone(), c)),
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                            next.store(todo.len(), Ordering::Relaxed);
                            break;
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        cache
            .tests
            .extend(done.into_inner().unwrap_or_else(|p| p.into_inner()));
        store(&path, &cache)?;
    }
    Ok(tests
        .iter()
        .filter_map(|t| {
            cache
                .tests
                .get(&t.name)
                .map(|c| (t.name.clone(), c.clone()))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_finds_floats_and_varargs_outside_comments_and_strings() {
        let scan_features = |s: &str| {
            let f = scan_features(s);
            (f.floats, f.varargs)
        };
        assert_eq!(
            scan_features("int main(void) { return 0; }"),
            (false, false)
        );
        assert_eq!(
            scan_features("/* double */ char *s = \"1.5 va_list\";"),
            (false, false)
        );
        assert_eq!(scan_features("// float\nint x = 0x1e5;"), (false, false));
        assert_eq!(scan_features("double d;"), (true, false));
        assert_eq!(scan_features("int x = 1.0 == 1;"), (true, false));
        assert_eq!(scan_features("int x = 1e3;"), (true, false));
        assert_eq!(scan_features("int x = .5 > 0;"), (true, false));
        assert_eq!(scan_features("long x = 0x1p3;"), (true, false));
        assert_eq!(scan_features("#include <stdarg.h>\n"), (false, true));
        assert_eq!(scan_features("void f(int n, ...) { }"), (false, true));
        // A prototype of a variadic function, and a call to one, are not varargs.
        assert_eq!(
            scan_features("int printf(const char *, ...); int main() { printf(\"%d\", 1); }"),
            (false, false)
        );
        assert_eq!(
            scan_features("x = __builtin_va_arg_pack ();"),
            (false, true)
        );
        assert_eq!(scan_features("char c = '\\'';  int y = 3;"), (false, false));
    }

    #[test]
    fn a_test_is_scanned_with_the_siblings_it_includes() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let write = |name: &str, text: &str| {
            std::fs::write(dir.path().join(name), text).expect("write a test file");
        };
        write(
            "a-2.c",
            "long double x;\n#include \"a-1.h\"\nint main() { return 0; }\n",
        );
        write("a-1.h", "#include \"a-2.c\"\nint y;\n");
        write(
            "a-3.c",
            "/* c */\n  #  include \"a-2.c\"\n#include <stdio.h>\n",
        );
        write("v-1.c", "typedef int v __attribute__((vector_size (8)));\n");
        write("v-2.c", "#include \"v-1.c\"\n#include \"missing.c\"\n");
        let scan = |name: &str| {
            let bytes = source_with_sibling_includes(&dir.path().join(name)).expect("read");
            scan_features(&String::from_utf8_lossy(&bytes))
        };
        assert!(scan("a-3.c").floats, "long double via a-2.c");
        assert!(scan("v-2.c").gnu, "vector_size via v-1.c");
        assert!(!scan("a-1.h").gnu);
        // Each file once, the cycle a-2.c -> a-1.h -> a-2.c included.
        let all = source_with_sibling_includes(&dir.path().join("a-3.c")).expect("read");
        assert_eq!(
            String::from_utf8_lossy(&all).matches("long double").count(),
            1
        );
        assert_eq!(
            quoted_includes("#include <x.h>\n# include \"y.c\" // z\n"),
            ["y.c"]
        );
    }

    #[test]
    fn vector_types_and_language_changing_options_are_not_standard() {
        let v = "typedef int __attribute__((vector_size (8))) vecint;";
        assert!(super::scan_features(v).gnu);
        assert!(!super::scan_features("int x;").gnu);
        let src = "/* { dg-options \"-Wno-psabi -fwrapv\" } */\n/* { dg-options { \"-fwrapv\" } } */\nint x;";
        assert_eq!(semantic_options(src), ["-fwrapv"]);
        assert!(semantic_options("/* { dg-options \"-fno-inline\" } */").is_empty());
        assert!(semantic_options("int fwrapv = 1; /* -fwrapv */").is_empty());
    }
}
