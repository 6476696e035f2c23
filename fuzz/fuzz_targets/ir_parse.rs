//! cargo-fuzz target `ir_parse`: a thin wrapper over `phihunt::fuzzers::ir_parse::check`.
#![no_main]

/// mimalloc: the pipeline and the oracle allocate a lot of small objects; it cuts a
/// fuzz exec's instruction count by about a quarter.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

libfuzzer_sys::fuzz_target!(|data: &[u8]| phihunt::fuzzers::ir_parse::check(data));
