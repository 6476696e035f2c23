//! cargo-fuzz target `phi_elim`: a thin wrapper over `phihunt::fuzzers::phi_elim::check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| phihunt::fuzzers::phi_elim::check(data));
