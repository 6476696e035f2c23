//! The front end never panics: thousands of mutated versions of the test inputs (byte
//! flips, dictionary insertions, deletions, duplications, truncations, splices between
//! files) from a deterministic PRNG go through preprocessing and classification; each
//! must return tokens or a diagnostic, with a well-formed position.

mod frontend_support;

use compiler::frontend::{preprocess_str, PreprocessOptions, Target, TokenKind};
use frontend_support::{inputs_dir, Rng};
use std::panic;
use std::path::Path;

/// Fragments that make mutations land on interesting syntax.
const DICTIONARY: [&str; 44] = [
    "#define ",
    "#define F(x, ...) ",
    "#if ",
    "#ifdef ",
    "#ifndef X\n",
    "#endif\n",
    "#else\n",
    "#elif ",
    "#include ",
    "#include <x.h>\n",
    "#undef ",
    "##",
    "#",
    "(",
    ")",
    ",",
    "__VA_ARGS__",
    "...",
    "defined ",
    "\\\n",
    "/*",
    "*/",
    "//",
    "'",
    "\"",
    "\n",
    "0x",
    "1e+",
    "L'",
    "_Pragma(\"pack(1)\")",
    "#pragma pack(",
    "#line ",
    "__LINE__",
    "__FILE__",
    " ? ",
    " : ",
    "/ 0",
    "<",
    ">",
    "%:",
    "<:",
    "\\",
    "é",
    "\u{0}",
];

fn seeds() -> Vec<String> {
    let mut seeds = Vec::new();
    let mut stack = vec![inputs_dir()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                if text.len() < 20_000 {
                    seeds.push(text);
                }
            }
        }
    }
    seeds.sort();
    seeds.push(
        "#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n#if 1 ? 2 : (3, 4)\nx\n#endif\n".to_string(),
    );
    seeds
}

/// One random edit of `text` (kept on character boundaries).
fn mutate(text: &str, other: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let at = rng.below(n + 1);
    let span = 1 + rng.below(8.min(n.max(1)));
    let end = (at + span).min(n);
    let mut out: Vec<char> = chars[..at].to_vec();
    match rng.below(7) {
        0 => {
            // Flip a character into a nearby ASCII one.
            if at < n {
                out.push(char::from(
                    ((chars[at] as u32 ^ (1 << rng.below(7))) & 0x7f) as u8,
                ));
                out.extend(&chars[at + 1..]);
            } else {
                out.extend(&chars[at..]);
            }
        }
        1 => {
            out.extend(DICTIONARY[rng.below(DICTIONARY.len())].chars());
            out.extend(&chars[at..]);
        }
        2 => out.extend(&chars[end..]),
        3 => {
            out.extend(&chars[at..end]);
            out.extend(&chars[at..]);
        }
        4 => {}
        5 => {
            let theirs: Vec<char> = other.chars().collect();
            let from = rng.below(theirs.len() + 1);
            out.extend(&theirs[from..(from + 40).min(theirs.len())]);
            out.extend(&chars[at..]);
        }
        _ => {
            // Swap two lines.
            let lines: Vec<&str> = text.split('\n').collect();
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            let mut lines = lines;
            lines.swap(a, b);
            return lines.join("\n");
        }
    }
    out.into_iter().collect()
}

#[test]
fn mutated_inputs_never_panic() {
    let seeds = seeds();
    assert!(seeds.len() >= 10, "seed inputs missing");
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let targets = Target::ALL;
    // A main file in a directory that does not exist: includes fail cleanly.
    let name = "/nonexistent-phicc-fuzz/t.c";
    let (mut accepted, mut rejected) = (0, 0);
    for case in 0..6000 {
        let mut text = seeds[rng.below(seeds.len())].clone();
        let other = &seeds[rng.below(seeds.len())];
        for _ in 0..1 + rng.below(4) {
            text = mutate(&text, other, &mut rng);
        }
        let opts = PreprocessOptions {
            target: targets[case % targets.len()],
            ..PreprocessOptions::default()
        };
        let result = panic::catch_unwind(|| preprocess_str(name, &text, &opts));
        match result {
            Err(_) => panic!("case {case}: the front end panicked on:\n{text}"),
            Ok(Ok(out)) => {
                assert_eq!(
                    out.tokens.last().map(|t| &t.kind),
                    Some(&TokenKind::Eof),
                    "case {case}"
                );
                accepted += 1;
            }
            Ok(Err(e)) => {
                let headline = e.headline();
                let well_formed = match &e.place {
                    Some(p) => p.line >= 1 && p.col >= 1 && headline.contains(": error: "),
                    None => headline.starts_with("phicc: error: "),
                };
                assert!(well_formed, "case {case}: malformed diagnostic {headline}");
                rejected += 1;
            }
        }
    }
    assert!(
        accepted > 500 && rejected > 500,
        "accepted {accepted}, rejected {rejected}"
    );
    let _ = Path::new(name);
}
