//! Fuzzer `ir_parse`: the parser and the verifier never panic, and whatever parses
//! round-trips through the printer.
//!
//! Invariant checked: for any bytes, `parse_module` returns (never panics); when it
//! returns a module, `verify_module` returns in both modes, and
//! `parse_module(print_module(m)) == m`. A violation panics, which libFuzzer records as a
//! crash (the input is saved by libFuzzer before anything else happens).

use super::stats::FuzzStats;
use compiler::ir::text::{parse_module, print_module};
use compiler::ir::verify::{verify_module, VerifyMode};

pub static STATS: FuzzStats = FuzzStats::new("ir_parse");

/// Checks one input.
pub fn check(data: &[u8]) {
    STATS.exec();
    let Ok(src) = std::str::from_utf8(data) else {
        STATS.discarded("not_utf8");
        return;
    };
    match parse_module(src) {
        Err(_) => STATS.discarded("parse_error"),
        Ok(m) => {
            STATS.valid();
            let _ = verify_module(&m, VerifyMode::Ssa);
            let _ = verify_module(&m, VerifyMode::PostPhiElim);
            let printed = print_module(&m);
            match parse_module(&printed) {
                Ok(back) if back == m => {}
                Ok(_) => {
                    STATS.finding();
                    panic!("round trip changed the module; printed:\n{printed}");
                }
                Err(e) => {
                    STATS.finding();
                    panic!("printed module does not parse ({e}):\n{printed}");
                }
            }
        }
    }
    STATS.maybe_print();
}
