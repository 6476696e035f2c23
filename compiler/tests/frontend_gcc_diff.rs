//! Differential test against the machine's gcc: `gcc -E -P -undef -nostdinc` on
//! self-contained inputs (`frontend_inputs/gcc_diff/*.c`) and on randomly generated
//! macro programs (deterministic PRNG) must give the same token sequence as phicc,
//! whitespace ignored. A missing gcc fails the test with the way to install it.

mod frontend_support;

use compiler::frontend::{preprocess, preprocess_str, tokens_to_text, PreprocessOptions};
use frontend_support::{c_tokens, gcc_available, inputs_dir, Rng};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// gcc's preprocessed output of `path`, or `None` if gcc fails or cannot run.
fn gcc_output(path: &Path, std: &str) -> Option<String> {
    let output = Command::new("gcc")
        .args(["-E", "-P", "-undef", "-nostdinc", std])
        .arg(path)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn fixed_inputs_match_gcc() {
    gcc_available();
    let dir = inputs_dir().join("gcc_diff");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "inputs missing in {}", dir.display());
    for path in files {
        let mine =
            preprocess(&path, &PreprocessOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let gcc = gcc_output(&path, "-std=c99")
            .unwrap_or_else(|| panic!("gcc failed on {}", path.display()));
        let ours = c_tokens(&tokens_to_text(&mine.tokens));
        let theirs = c_tokens(&gcc);
        if ours != theirs {
            let at = ours
                .iter()
                .zip(&theirs)
                .position(|(a, b)| a != b)
                .unwrap_or(ours.len().min(theirs.len()));
            panic!(
                "{}: first difference at token {at}:\nphicc: {:?}\ngcc:   {:?}",
                path.display(),
                &ours[at.saturating_sub(5)..(at + 5).min(ours.len())],
                &theirs[at.saturating_sub(5)..(at + 5).min(theirs.len())]
            );
        }
    }
}

/// A random program of macro definitions and uses, built to exercise rescanning,
/// blue paint, `#`, `##`, placemarkers and variadic arguments.
fn random_program(rng: &mut Rng) -> String {
    let names = ["A", "B", "C", "F", "G", "H", "V"];
    let mut text = String::new();
    for name in names {
        let (params, variadic): (&[&str], bool) = match rng.below(5) {
            0 => (&[], false),
            1 => (&["a"], false),
            2 => (&["a", "b"], false),
            3 => (&["a"], true),
            _ => (&[], true),
        };
        let function_like = !params.is_empty() || variadic || rng.below(4) == 0;
        let mut head = name.to_string();
        if function_like {
            let mut list: Vec<&str> = params.to_vec();
            if variadic {
                list.push("...");
            }
            head = format!("{name}({})", list.join(", "));
        }
        let mut operands: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        if variadic {
            operands.push("__VA_ARGS__".to_string());
        }
        let plain = [
            "x", "1", "(", ")", ",", "+", "A", "B", "C", "F", "G", "H", "V", "\"s\"",
        ];
        let mut body: Vec<String> = Vec::new();
        let len = rng.below(7);
        for i in 0..len {
            let pick = rng.below(10);
            if pick < 3 && !operands.is_empty() {
                let operand = operands[rng.below(operands.len())].clone();
                if function_like && rng.below(4) == 0 {
                    body.push(format!("#{operand}"));
                } else {
                    body.push(operand);
                }
            } else if pick == 3 && i > 0 && i + 1 < len {
                body.push("##".to_string());
            } else {
                body.push(plain[rng.below(plain.len())].to_string());
            }
        }
        text.push_str(&format!("#define {head} {}\n", body.join(" ")));
    }
    // Uses with balanced parentheses (an unclosed invocation is an error in both).
    let uses = [
        "A", "B", "C", "F", "G", "H", "V", "(", "(", ")", ")", ",", "x", "1", "\n",
    ];
    let mut depth = 0usize;
    for _ in 0..3 + rng.below(25) {
        let token = uses[rng.below(uses.len())];
        match token {
            "(" => depth += 1,
            ")" if depth == 0 => continue,
            ")" => depth -= 1,
            _ => {}
        }
        text.push_str(token);
        text.push(' ');
    }
    text.push_str(&")".repeat(depth));
    text.push('\n');
    text
}

#[test]
fn random_macro_programs_match_gcc() {
    gcc_available();
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join("random.c");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut compared, mut both_failed) = (0, 0);
    for case in 0..400 {
        let program = random_program(&mut rng);
        std::fs::File::create(&path)
            .unwrap()
            .write_all(program.as_bytes())
            .unwrap();
        let mine = preprocess_str(
            &path.to_string_lossy(),
            &program,
            &PreprocessOptions::default(),
        );
        // gnu99: GNU's `, ## __VA_ARGS__` rule is phicc's in every mode.
        match (gcc_output(&path, "-std=gnu99"), mine) {
            (Some(gcc), Ok(out)) => {
                let ours = c_tokens(&tokens_to_text(&out.tokens));
                assert_eq!(ours, c_tokens(&gcc), "case {case}:\n{program}");
                compared += 1;
            }
            (None, Err(_)) => both_failed += 1,
            (Some(gcc), Err(e)) => {
                // phicc rejects some tokens gcc -E passes through (it classifies them
                // for the parser); anything else is a disagreement.
                let classification = ["invalid suffix", "invalid digit", "exponent has no digits"];
                assert!(
                    classification.iter().any(|m| e.message.contains(m)),
                    "case {case}: phicc failed but gcc did not:\n{e}\n{program}\ngcc: {gcc}"
                );
            }
            (None, Ok(out)) => panic!(
                "case {case}: gcc failed but phicc did not:\n{program}\nphicc: {}",
                tokens_to_text(&out.tokens)
            ),
        }
    }
    eprintln!("compared {compared}, both failed {both_failed}");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        compared > 200,
        "too few comparable cases: {compared} (both failed: {both_failed})"
    );
}
