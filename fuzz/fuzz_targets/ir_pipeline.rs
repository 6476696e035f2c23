//! cargo-fuzz target `ir_pipeline`: a thin wrapper over `phihunt::fuzzers::ir_pipeline::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| phihunt::fuzzers::ir_pipeline::check(data));
