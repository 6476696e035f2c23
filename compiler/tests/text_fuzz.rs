//! The parser never panics, and whatever it accepts round-trips: thousands of mutated
//! versions of valid IR (byte flips, token insertions, deletions, duplications,
//! truncations, line swaps and splices between files) from a deterministic PRNG.

mod text_support;

use compiler::ir::text::{parse_module, print_module};
use std::panic;
use text_support::{random_module, Rng, SAMPLES};

/// Fragments that make mutations land on interesting syntax.
const DICTIONARY: [&str; 32] = [
    "%",
    "%0",
    "%99999999999999",
    ".LBB",
    ".LBB0:",
    ".LBB4294967296",
    "@",
    "@g",
    "\"",
    "\\",
    "\\0",
    ";",
    "\n",
    "}",
    "{",
    "[",
    "]",
    "(",
    ")",
    ",",
    ":i64",
    ":void",
    "-",
    "0x",
    "...",
    "18446744073709551616",
    "-9223372036854775809",
    "phi i32 [",
    "ret",
    "call void @f(",
    "global @x : 1 align 1 = ",
    "func @h() -> i32 {\n.LBB9:\n",
];

/// Bytes worth flipping to.
const ALPHABET: &[u8] = b"%@.,:;=[](){}\"\\-+x0123456789abiLBu \n\t\xff";

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], input: &mut Vec<u8>) {
    let len = input.len().max(1);
    match rng.below(9) {
        0 => {
            let i = rng.below(len);
            if let Some(b) = input.get_mut(i) {
                *b ^= 1 << rng.below(8);
            }
        }
        1 => {
            let i = rng.below(len);
            if let Some(b) = input.get_mut(i) {
                *b = rng.pick(ALPHABET);
            }
        }
        2 => {
            let start = rng.below(len).min(input.len());
            let end = (start + rng.below(16) + 1).min(input.len());
            input.drain(start..end);
        }
        3 => {
            let start = rng.below(len).min(input.len());
            let end = (start + rng.below(64) + 1).min(input.len());
            let chunk = input[start..end].to_vec();
            let at = rng.below(len).min(input.len());
            input.splice(at..at, chunk);
        }
        4 => {
            let keep = rng.below(len);
            input.truncate(keep);
        }
        5 => {
            let other = &seeds[rng.below(seeds.len())];
            let cut = rng.below(len).min(input.len());
            let from = rng.below(other.len().max(1)).min(other.len());
            input.truncate(cut);
            input.extend_from_slice(&other[from..]);
        }
        6 | 7 => {
            let word = rng.pick(&DICTIONARY).as_bytes();
            let at = rng.below(len).min(input.len());
            input.splice(at..at, word.iter().copied());
        }
        _ => {
            // Swap two lines.
            let mut lines: Vec<Vec<u8>> =
                input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(a, b);
            *input = lines.join(&b'\n');
        }
    }
}

/// Parses `src` without letting a panic escape unnoticed; anything accepted must survive
/// print -> parse unchanged. Returns whether `src` parsed.
fn check(src: &str) -> bool {
    let parsed = panic::catch_unwind(|| parse_module(src));
    let Ok(result) = parsed else {
        panic!("the parser panicked on:\n{src:?}");
    };
    let Ok(m) = result else {
        return false;
    };
    let printed = print_module(&m);
    match parse_module(&printed) {
        Ok(back) => assert_eq!(
            back, m,
            "accepted input does not round-trip:\n{src:?}\nprinted:\n{printed}"
        ),
        Err(e) => {
            panic!("accepted input prints unparsable text ({e}):\n{src:?}\nprinted:\n{printed}")
        }
    }
    true
}

#[test]
fn mutated_ir_never_panics_and_accepted_ir_round_trips() {
    let mut seeds: Vec<Vec<u8>> = SAMPLES.iter().map(|s| s.as_bytes().to_vec()).collect();
    seeds.extend((0..40).map(|seed| print_module(&random_module(seed)).into_bytes()));
    let seed = std::env::var("TEXT_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0xF422);
    let mut rng = Rng::new(seed);
    let (mut cases, mut accepted) = (0usize, 0usize);
    // `TEXT_FUZZ_CASES=1000000 cargo test --release ...` for a longer run.
    let total: usize = std::env::var("TEXT_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(25_000);
    for _ in 0..total {
        let mut input = seeds[rng.below(seeds.len())].clone();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &seeds, &mut input);
        }
        let src = String::from_utf8_lossy(&input);
        cases += 1;
        if check(&src) {
            accepted += 1;
        }
    }
    eprintln!("{accepted} of {cases} mutants parsed");
    // The mutations must sometimes leave valid IR, or the round-trip half tests nothing.
    assert!(
        accepted * 50 > cases,
        "only {accepted} of {cases} mutants parsed"
    );
    assert!(
        accepted * 2 < cases,
        "{accepted} of {cases} mutants parsed: mutations too weak"
    );
}

#[test]
fn adversarial_inputs_never_panic() {
    let deep = |s: &str, n: usize| s.repeat(n);
    let inputs = [
        String::new(),
        "\n".repeat(10_000),
        deep("[", 100_000),
        deep("{", 100_000),
        format!("global @g : 1 align 1 = [{}]", deep("zero 1, ", 50_000)),
        format!(
            "func @f() -> void {{\n.LBB0:\n    %1 = phi i32 {}\n",
            deep("[1, .LBB0], ", 50_000)
        ),
        format!(
            "func @f() -> void {{\n.LBB0:\n    ret\n{}",
            deep(".LBB0:\n", 1000)
        ),
        "%99999999999999999999999999999999999999999999999999".into(),
        format!(
            "func @f() -> void {{\n.LBB0:\n    %0 = copy i32 {}\n    ret\n}}",
            "9".repeat(10_000)
        ),
        format!("global @s : 1 align 1 = [str \"{}", deep("\\", 10_001)),
        "global @g : 4294967296 align 1 = zeroinit".into(),
        "func @f() -> void {\n.LBB4294967295:\n    br .LBB4294967295\n}".into(),
        "declare @f(".into(),
        "func".into(),
        "\u{0}\u{1}\u{7f}".into(),
        String::from_utf8_lossy(&[0xff, 0xfe, 0x80, b'%', 0xc3]).into_owned(),
    ];
    for src in &inputs {
        check(src);
    }
    // The largest block id and value number (MAX_ENTITY_NUMBER) are accepted and
    // round-trip; one more is an error.
    assert!(check(
        "func @f() -> i32 {\n.LBB16777215:\n    %16777215 = copy i32 -1\n    ret i32 %16777215\n}"
    ));
    assert!(!check(
        "func @f() -> i32 {\n.LBB0:\n    %16777216 = copy i32 -1\n    ret i32 %16777216\n}"
    ));
}
