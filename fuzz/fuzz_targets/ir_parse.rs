//! cargo-fuzz target `ir_parse`: a thin wrapper over `phihunt::fuzzers::ir_parse::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| phihunt::fuzzers::ir_parse::check(data));
