//! csmith programs preprocess with phicc's own headers (`compiler/include`) and
//! csmith's runtime headers (`/usr/include/csmith`) on every target, without errors or
//! warnings; on x86_64 and i686 the token stream equals gcc's with the same headers.
//! The programs are committed (`frontend_inputs/csmith`, csmith 2.3.0 seeds 34, 21
//! and 5). A missing csmith or gcc fails with the way to install them.

mod frontend_support;

use compiler::frontend::{preprocess, tokens_to_text, PreprocessOptions, Target};
use frontend_support::{c_tokens, gcc_available, inputs_dir, SETUP_HINT};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const CSMITH_INCLUDE: &str = "/usr/include/csmith";

fn system_dirs() -> Vec<PathBuf> {
    let csmith = PathBuf::from(CSMITH_INCLUDE);
    assert!(
        csmith.join("csmith.h").is_file(),
        "{CSMITH_INCLUDE}/csmith.h is missing: {SETUP_HINT}"
    );
    vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include"),
        csmith,
    ]
}

fn programs() -> Vec<PathBuf> {
    let dir = inputs_dir().join("csmith");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        3,
        "csmith programs missing in {}",
        dir.display()
    );
    files
}

fn gcc_tokens(path: &Path, m32: bool) -> Vec<String> {
    let mut gcc = Command::new("gcc");
    gcc.args(["-E", "-P", "-std=c99", "-nostdinc"]);
    if m32 {
        gcc.arg("-m32");
    }
    for dir in system_dirs() {
        gcc.arg("-I").arg(dir);
    }
    let output = gcc
        .arg(path)
        .stderr(Stdio::inherit())
        .output()
        .expect("gcc runs");
    assert!(output.status.success(), "gcc failed on {}", path.display());
    c_tokens(&String::from_utf8_lossy(&output.stdout))
}

#[test]
fn csmith_programs_preprocess_on_every_target() {
    for path in programs() {
        for target in Target::ALL {
            let opts = PreprocessOptions {
                target,
                system_dirs: system_dirs(),
                ..PreprocessOptions::default()
            };
            let out = preprocess(&path, &opts)
                .unwrap_or_else(|e| panic!("{}, {target:?}:\n{e}", path.display()));
            assert!(
                out.warnings.is_empty(),
                "{}, {target:?}: {:?}",
                path.display(),
                out.warnings
            );
            let spellings: Vec<&str> = out.tokens.iter().map(|t| t.spelling.as_ref()).collect();
            for expected in [
                "main",
                "transparent_crc",
                "platform_main_end",
                "int32_t",
                "printf",
            ] {
                assert!(
                    spellings.contains(&expected),
                    "{}, {target:?}: no `{expected}`",
                    path.display()
                );
            }
            if matches!(target, Target::X86_64 | Target::I686) {
                gcc_available();
                let ours = c_tokens(&tokens_to_text(&out.tokens));
                let theirs = gcc_tokens(&path, target == Target::I686);
                if ours != theirs {
                    let at = ours
                        .iter()
                        .zip(&theirs)
                        .position(|(a, b)| a != b)
                        .unwrap_or(ours.len().min(theirs.len()));
                    panic!(
                        "{}, {target:?}: differs from gcc at token {at}: phicc {:?} gcc {:?}",
                        path.display(),
                        &ours[at.saturating_sub(5)..(at + 5).min(ours.len())],
                        &theirs[at.saturating_sub(5)..(at + 5).min(theirs.len())]
                    );
                }
            }
        }
    }
}
