//! The oracle's `va_list` model on the IR of every target: `corpus/c/varargs_*.c` lowered
//! for x86-64, i686 (4-byte pointers), AArch64 and RISC-V, run at every pipeline stage.
//!
//! Why: `phihunt check` judges C programs on the x86-64 IR only, where a `va_list` is an
//! array and every function shares the caller's object; on the other targets the IR
//! copies `va_list`s by value (a `char *`/`void *`, or AArch64's 32-byte record passed by
//! reference to a copy), and `vprintf` receives the token itself. The files `ASSERT`
//! hand-computed values and exit 1 on the first difference, so an exit status of 0 is
//! the expectation; every stage and target must also print the same bytes.

use compiler::frontend::Target;
use compiler::pipeline::{run_pipeline, PipelineOptions};
use oracle::{Outcome, Program, RunConfig};
use std::path::Path;

fn check(file: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/c");
    let src = std::fs::read_to_string(dir.join(file)).expect("corpus file");
    let mut printed: Option<Vec<u8>> = None;
    let mut failures = Vec::new();
    for target in [
        Target::X86_64,
        Target::I686,
        Target::Aarch64,
        Target::Riscv64,
    ] {
        let mut opts = compiler::compile_c::default_options();
        opts.target = target;
        opts.include_dirs = vec![dir.clone()];
        let module = compiler::compile_c::compile_c_source(file, &src, &opts)
            .unwrap_or_else(|d| panic!("{file} for {}: {d}", target.name()))
            .module;
        let cfg = RunConfig {
            ptr_bytes: if target == Target::I686 { 4 } else { 8 },
            ..RunConfig::default()
        };
        run_pipeline(module, &PipelineOptions::default(), &mut |ev, m| {
            let r = Program::new(m, &cfg).and_then(|p| p.run("main", &[]));
            match r {
                Ok(r) if r.outcome == Outcome::Returned(Some(0)) => {
                    let first = printed.get_or_insert_with(|| r.stdout.clone());
                    if *first != r.stdout {
                        failures.push(format!("{} {}: other stdout", target.name(), ev.name));
                    }
                }
                Ok(r) => failures.push(format!(
                    "{} {}: {} with stdout {:?}",
                    target.name(),
                    ev.name,
                    r.outcome,
                    String::from_utf8_lossy(&r.stdout)
                )),
                Err(e) => failures.push(format!("{} {}: cannot run: {e}", target.name(), ev.name)),
            }
        })
        .unwrap_or_else(|e| panic!("{file}: pipeline failed: {e}"));
    }
    failures.truncate(5);
    assert!(failures.is_empty(), "{file}:\n{}", failures.join("\n"));
}

#[test]
fn scalars_through_dots_on_every_targets_ir() {
    check("varargs_scalars.c");
}

#[test]
fn records_through_dots_on_every_targets_ir() {
    check("varargs_records.c");
}
