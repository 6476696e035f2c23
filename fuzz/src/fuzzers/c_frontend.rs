//! Fuzzer `c_frontend`: phicc's C front end never panics, and what it accepts is valid IR
//! the whole pipeline takes.
//!
//! Invariant checked: for any bytes (read as C text, invalid UTF-8 replaced),
//! `compile_c_source` returns `Ok` or `Err` (a panic is a finding: libFuzzer saves the
//! input); when it returns a module, that module passes the verifier (SSA mode, the
//! `lowered` contract) and every pipeline stage runs without failing the verifier or
//! panicking. Inputs that could make the preprocessor read a device or kernel file
//! (`#include` together with `/dev`, `/proc` or `/sys`) are discarded: they would block
//! or read forever, which says nothing about the compiler.

use super::stats::FuzzStats;
use crate::stages::snapshot_stages;
use compiler::compile_c::{compile_c_source, default_options};
use compiler::ir::verify::{verify_module, VerifyMode};
use compiler::pipeline::PipelineOptions;

pub static STATS: FuzzStats = FuzzStats::new("c_frontend");

/// True when the text might `#include` something that is not a regular file.
fn may_include_device(text: &str) -> bool {
    text.contains("include") && ["dev", "proc", "sys"].iter().any(|d| text.contains(d))
}

/// Checks one input.
pub fn check(data: &[u8]) {
    STATS.exec();
    let text = String::from_utf8_lossy(data);
    if may_include_device(&text) {
        STATS.discarded("device_include");
        return;
    }
    match compile_c_source("input.c", &text, &default_options()) {
        Err(_) => STATS.discarded("front_end_error"),
        Ok(compiled) => {
            STATS.valid();
            if let Err(errors) = verify_module(&compiled.module, VerifyMode::Ssa) {
                STATS.finding();
                let first: Vec<String> = errors.iter().take(5).map(|e| e.to_string()).collect();
                panic!(
                    "the front end's IR does not verify:\n  {}\ninput:\n{text}",
                    first.join("\n  ")
                );
            }
            let staged = snapshot_stages(&compiled.module, &PipelineOptions::default());
            if let Some(f) = staged.failure {
                STATS.finding();
                panic!("{}\ninput:\n{text}", f.message());
            }
        }
    }
    STATS.maybe_print();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_valid_c_and_survives_invalid_c() {
        check(b"int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += i; return s; }");
        check(b"int main(void) { return 1 +; }");
        check(b"\xff\xfe garbage {{{ ");
        check(b"#include </dev/zero>\n");
    }
}
