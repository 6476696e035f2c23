//! Replays every input in `fuzz/tests/c_frontend_inputs/` (past findings of the
//! `c_frontend` fuzz target and probes of its limits) through the target's `check`:
//! each must compile or be refused with a diagnostic, never panic or produce IR that
//! fails the verifier or a pipeline stage (`check` panics on a finding). Each file also
//! says in its leading comment what the front end must answer: `Expect: ok`, or
//! `Expect error: TEXT` (the diagnostic contains TEXT).
//!
//! The replay runs on a thread with the 8 MiB stack of a program's main thread (where
//! `phicc` and `cargo fuzz` run the front end): the parser's nesting bound leaves 4 MiB
//! of stack to a deeply nested input in an unoptimized build, more than the 2 MiB of a
//! test thread.

use compiler::compile_c::{compile_c_source, default_options};
use std::path::Path;

#[test]
fn past_findings_stay_fixed() {
    std::thread::Builder::new()
        .name("replay".into())
        .stack_size(8 << 20)
        .spawn(replay_all)
        .expect("spawn the replay thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn replay_all() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_frontend_inputs");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 4, "inputs missing in {}", dir.display());
    for path in &inputs {
        let name = path.display();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("replaying {name}");
        phihunt::fuzzers::c_frontend::check(text.as_bytes());
        let result = compile_c_source("input.c", &text, &default_options());
        if let Some(at) = text.find("Expect error: ") {
            let rest = &text[at + "Expect error: ".len()..];
            let wanted = rest.split(" */").next().unwrap_or(rest).trim();
            match result {
                Ok(_) => panic!("{name}: compiled, expected an error with `{wanted}`"),
                Err(d) => assert!(d.message.contains(wanted), "{name}: {d}"),
            }
        } else if text.contains("Expect: ok") {
            if let Err(d) = result {
                panic!("{name}: {d}");
            }
        } else {
            panic!("{name}: no `Expect: ok` or `Expect error: TEXT` in its comment");
        }
    }
}
